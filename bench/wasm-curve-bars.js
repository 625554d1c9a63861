'use strict'
// Issue 13's WebAssembly curve bars: natrium's main API on the wasm backend (a new result per
// call) against libsodium-wrappers 0.8.4 in one process, CPU time (bench/cpu-rate.js), the two
// alternated in every round; the median of the per-round ratios (> 1: natrium faster) and their
// range. Answers are compared byte for byte first.
// --before=<natrium.wasm> adds another module (e.g. main's build) in the same glue, alternated
// with the other two, and its ratio against libsodium-wrappers.
//   node bench/wasm-curve-bars.js [row-regex] [rounds] [--before=<natrium.wasm>]
const fs = require('fs')
const path = require('path')
const dir = path.join(__dirname, '..')
const { load } = require(path.join(dir, 'lib', 'loader'))
const wrappers = require(path.join(dir, 'lib', 'surfaces', 'wrappers'))
const lsw = require('libsodium-wrappers')
const { rate: rateMs, median: med, cpuName } = require('./cpu-rate')
const args = process.argv.slice(2).filter((a) => !a.startsWith('--'))
const filter = new RegExp(args[0] || '.')
const rounds = Number(args[1] || 9)
const beforeFile = (process.argv.find((a) => a.startsWith('--before=')) || '').slice(9)

lsw.ready.then(() => {
  const nat = wrappers(load('wasm'))
  const before = beforeFile ? wrappers(require(path.join(dir, 'lib', 'backends', 'wasm'))({ module: fs.readFileSync(beforeFile) })) : null
  const seed = new Uint8Array(32).fill(9)
  const kp = lsw.crypto_sign_seed_keypair(seed)
  const alice = lsw.crypto_box_seed_keypair(new Uint8Array(32).fill(1))
  const bob = lsw.crypto_box_seed_keypair(new Uint8Array(32).fill(2))
  const nonce = new Uint8Array(24).fill(5)
  const rows = []
  for (const [s, n] of [['10 B', 10], ['1 KB', 1024]]) {
    const m = new Uint8Array(n).fill(3)
    const sig = lsw.crypto_sign_detached(m, kp.privateKey)
    rows.push([`ed25519 sign ${s}`, (L) => () => L.crypto_sign_detached(m, kp.privateKey)])
    rows.push([`ed25519 verify ${s}`, (L) => () => { if (!L.crypto_sign_verify_detached(sig, m, kp.publicKey)) throw new Error('verify'); return m }])
  }
  rows.push(['x25519 scalarmult', (L) => () => L.crypto_scalarmult(alice.privateKey, bob.publicKey)])
  const m64 = new Uint8Array(64).fill(7)
  rows.push(['box_easy 64 B', (L) => () => L.crypto_box_easy(m64, nonce, bob.publicKey, alice.privateKey)])
  rows.push(['sign_seed_keypair', (L) => () => L.crypto_sign_seed_keypair(seed).publicKey])
  rows.push(['box_seed_keypair', (L) => () => L.crypto_box_seed_keypair(seed).publicKey])
  rows.push(['scalarmult_base', (L) => () => L.crypto_scalarmult_base(seed)])
  console.log(`${cpuName()}, Node ${process.version}, CPU time, ${rounds} alternated rounds; ops/s, ` +
    `natrium wasm / libsodium-wrappers 0.8.4 (median, second-lowest-second-highest; with under 3 rounds, lowest-highest)${before ? ', then ' + beforeFile + "'s" : ''}`)
  const range = (v) => { v.sort((p, q) => p - q); const k = v.length > 2 ? 1 : 0; return `${med(v).toFixed(2)}x (${v[k].toFixed(2)}-${v[v.length - 1 - k].toFixed(2)})` }
  for (const [label, make] of rows) {
    if (!filter.test(label)) continue
    const a = make(nat), b = make(lsw), c = before ? make(before) : null
    if (Buffer.from(a()).toString('hex') !== Buffer.from(b()).toString('hex')) throw new Error(label + ' differs')
    if (c && Buffer.from(c()).toString('hex') !== Buffer.from(b()).toString('hex')) throw new Error(label + ' differs (before)')
    const budget = 0.12
    for (let i = 0; i < 2; i++) { rateMs(a, budget * 500); rateMs(b, budget * 500); if (c) rateMs(c, budget * 500) }
    const rs = [], ra = [], rb = [], rc = []
    for (let r = 0; r < rounds; r++) {
      const x = rateMs(a, budget * 1000), y = rateMs(b, budget * 1000)
      ra.push(x); rb.push(y); rs.push(x / y)
      if (c) rc.push(rateMs(c, budget * 1000) / y)
    }
    console.log(`| ${label.padEnd(20)} | ${Math.round(med(ra)).toLocaleString('en').padStart(7)} | ${Math.round(med(rb)).toLocaleString('en').padStart(7)} | ${range(rs)} |` +
      (c ? ` before ${range(rc)} |` : ''))
  }
})

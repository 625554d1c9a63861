'use strict'
// Issue 10's wasm bars for secretbox, Ed25519 and Argon2id: natrium's main API on the wasm backend
// (a new result per call) against libsodium-wrappers-sumo 0.8.4 in one process, CPU time,
// alternated in each round; the median of the per-round ratios. Answers are compared first.
//   node bench/wasm-main-bars.js [row-regex] [rounds]
const path = require('path')
const dir = path.join(__dirname, '..')
const { load } = require(path.join(dir, 'lib', 'loader'))
const wrappers = require(path.join(dir, 'lib', 'surfaces', 'wrappers'))
const lsw = require('libsodium-wrappers-sumo')
const filter = new RegExp(process.argv[2] || '.')
const rounds = Number(process.argv[3] || 9)
const { rate: rateMs, median: med } = require('./cpu-rate')
const rate = (f, seconds) => rateMs(f, seconds * 1000)
lsw.ready.then(() => {
  const nat = wrappers(load('wasm'))
  const rows = []
  const key = new Uint8Array(32).fill(4), nonce = new Uint8Array(24).fill(1)
  const seed = new Uint8Array(32).fill(9)
  const kp = lsw.crypto_sign_seed_keypair(seed)
  for (const [s, n] of [['10 B', 10], ['1 KB', 1024], ['100 KB', 102400], ['1 MB', 1 << 20]]) {
    const m = new Uint8Array(n).fill(3)
    const c = lsw.crypto_secretbox_easy(m, nonce, key)
    const sig = lsw.crypto_sign_detached(m, kp.privateKey)
    rows.push([`secretbox_easy ${s}`, (L) => () => L.crypto_secretbox_easy(m, nonce, key)])
    rows.push([`secretbox_open_easy ${s}`, (L) => () => L.crypto_secretbox_open_easy(c, nonce, key)])
    rows.push([`ed25519 sign ${s}`, (L) => () => L.crypto_sign_detached(m, kp.privateKey)])
    rows.push([`ed25519 verify ${s}`, (L) => () => { if (!L.crypto_sign_verify_detached(sig, m, kp.publicKey)) throw new Error('verify'); return m }])
  }
  const salt = new Uint8Array(16).fill(2)
  rows.push(['argon2id t=2 m=19MiB', (L) => () => L.crypto_pwhash(32, 'password', salt, 2, 19 << 20, L.crypto_pwhash_ALG_ARGON2ID13)])
  for (const [label, make] of rows) {
    if (!filter.test(label)) continue
    const a = make(nat), b = make(lsw)
    if (Buffer.from(a()).toString('hex') !== Buffer.from(b()).toString('hex')) throw new Error(label + ' differs')
    const budget = /argon/.test(label) ? 0.3 : 0.1
    for (let i = 0; i < 2; i++) { rate(a, budget / 2); rate(b, budget / 2) }
    const rs = [], ra = [], rb = []
    for (let r = 0; r < rounds; r++) { const x = rate(a, budget), y = rate(b, budget); ra.push(x); rb.push(y); rs.push(x / y) }
    console.log(`| wasm ${label} | ${Math.round(med(ra)).toLocaleString('en')} | ${Math.round(med(rb)).toLocaleString('en')} | ${med(rs).toFixed(2)}x |`)
  }
})

'use strict'
// Issue 13's ML-KEM-768 WebAssembly bar (>= 1.5x the wasm module of when the issue was filed,
// which ran libsodium 1.0.22's reference ML-KEM), and X-Wing beside it: this checkout's
// lib/natrium.wasm against other natrium.wasm builds given by path (the baseline first), each
// loaded through this checkout's lib/ glue in one process, round after round alternated, CPU
// time. Every module's key pair, ciphertext and shared secret are checked against the first
// one's before anything is timed. Reports the median ops/s and the median per-round ratios of
// this checkout's module to each other one.
//   node bench/mlkem-wasm-bars.js [rounds] [ms] --wasm=<label>=<natrium.wasm or lib/> [--wasm=...]
// e.g. --wasm=libsodium=<lib/ of a checkout of the last main commit before our ML-KEM, built>
//      --wasm=main=<natrium.wasm built from main>
const crypto = require('crypto')
const fs = require('fs')
const os = require('os')
const path = require('path')
const { load } = require(path.join(__dirname, '..', 'lib', 'loader'))
const wrappers = require(path.join(__dirname, '..', 'lib', 'surfaces', 'wrappers'))
const { rate, median, sink, cpuName } = require('./cpu-rate')

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'))
const rounds = Number(args[0]) || 9
const ms = Number(args[1]) || 150
const others = process.argv.filter((a) => a.startsWith('--wasm=')).map((a) => {
  const [label, ...file] = a.slice('--wasm='.length).split('=')
  return [label, file.join('=')]
})

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'natrium-mlkem-wasm-bench-'))
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }))

// This checkout's lib/ copied beside another natrium.wasm (one copy each: its backends/wasm.js
// reads ../natrium.wasm), or, given a directory, another checkout's whole lib/ with its own
// module and glue (a module older than this glue lacks functions the surface asks for).
function wasmFrom (label, file) {
  const lib = path.join(tmp, label, 'lib')
  if (fs.statSync(file).isDirectory()) {
    fs.cpSync(file, lib, { recursive: true })
  } else {
    fs.cpSync(path.join(__dirname, '..', 'lib'), lib, { recursive: true })
    fs.copyFileSync(file, path.join(lib, 'natrium.wasm'))
  }
  const surface = require(path.join(lib, 'surfaces', 'wrappers'))
  return surface(require(path.join(lib, 'loader')).load('wasm'))
}

const contenders = {
  ...Object.fromEntries(others.map(([label, file]) => [label, wasmFrom(label, file)])),
  'this checkout': wrappers(load('wasm'))
}
const names = Object.keys(contenders)
const hex = (b) => Buffer.from(b).toString('hex')

// Same bytes first, ML-KEM-768 and X-Wing: seeded key pairs, deterministic encapsulation,
// decapsulation.
const kems = {
  'ML-KEM-768': ['crypto_kem_mlkem768', 64, 32],
  'X-Wing': ['crypto_kem_xwing', 32, 64]
}
const fixed = {}
for (const [kem, [p, seedLen, encLen]] of Object.entries(kems)) {
  const seed = crypto.randomBytes(seedLen)
  const m = crypto.randomBytes(encLen)
  const ref = contenders[names[0]]
  const want = ref[`${p}_seed_keypair`](seed)
  const wantEnc = ref[`${p}_enc_deterministic`](want.publicKey, m)
  for (const [name, s] of Object.entries(contenders)) {
    const k = s[`${p}_seed_keypair`](seed)
    const e = s[`${p}_enc_deterministic`](k.publicKey, m)
    const ok = hex(k.publicKey) === hex(want.publicKey) && hex(k.privateKey) === hex(want.privateKey) &&
      hex(e.ciphertext) === hex(wantEnc.ciphertext) && hex(e.sharedSecret) === hex(wantEnc.sharedSecret) &&
      hex(s[`${p}_dec`](wantEnc.ciphertext, want.privateKey)) === hex(wantEnc.sharedSecret)
    if (!ok) throw new Error(`${kem}: ${name} answers differently from ${names[0]}`)
  }
  fixed[kem] = { want, wantEnc }
}

const last = names[names.length - 1]
console.log(`ML-KEM-768 and X-Wing on the wasm backend, ops/s (median of ${rounds} alternated rounds ` +
  `of ${ms} ms CPU time); ${cpuName()}, Node ${process.version}`)
const heads = names.slice(0, -1).map((n) => `${last} / ${n}`)
console.log(`| operation | ${names.join(' | ')} | ${heads.join(' | ')} |`)
console.log(`|---|${names.map(() => '---:').join('|')}|${heads.map(() => '---:').join('|')}|`)
for (const [kem, [p]] of Object.entries(kems)) {
  const { want, wantEnc } = fixed[kem]
  const ops = {
    keypair: (s) => () => s[`${p}_keypair`]().publicKey,
    encapsulate: (s) => () => s[`${p}_enc`](want.publicKey).ciphertext,
    decapsulate: (s) => () => s[`${p}_dec`](wantEnc.ciphertext, want.privateKey)
  }
  for (const [op, make] of Object.entries(ops)) {
    const fns = Object.fromEntries(names.map((n) => [n, make(contenders[n])]))
    for (let w = 0; w < 3; w++) for (const n of names) rate(fns[n], ms / 2)
    const got = Object.fromEntries(names.map((n) => [n, []]))
    const ratio = Object.fromEntries(names.map((n) => [n, []]))
    for (let r = 0; r < rounds; r++) {
      // alternate the order too, so no module always runs right after the same one
      const order = r % 2 ? names.slice().reverse() : names
      const round = {}
      for (const n of order) got[n].push(round[n] = rate(fns[n], ms))
      for (const n of names) ratio[n].push(round[last] / round[n])
    }
    console.log(`| ${kem} ${op} | ${names.map((n) => Math.round(median(got[n])).toLocaleString('en')).join(' | ')} | ` +
      `${names.slice(0, -1).map((n) => `${median(ratio[n]).toFixed(2)}x`).join(' | ')} |`)
  }
}
if (sink() === 42) console.log('')

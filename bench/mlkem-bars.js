'use strict'
// Issue 13's ML-KEM-768 bars, side by side in one process, round after round alternated: natrium's
// main API (a new result per call) with our own ML-KEM (src/crypto/mlkem768*.c) against the same
// addon running libsodium 1.0.22's reference code (a second copy of the .node loaded with
// NATRIUM_MLKEM=libsodium: each copy has its own dispatch), against @noble/post-quantum, natively
// and on the wasm backend. The wasm build has no environment to switch with, so its baseline is a
// wasm module built without our ML-KEM (today's main: deps/build-wasm.sh there), given by path.
// Reports the median ops/s and the median per-round ratios. Every contender's key pair,
// ciphertext and shared secret are checked against libsodium's before anything is timed.
//   node bench/mlkem-bars.js [rounds] [ms] [--baseline-wasm=<natrium.wasm built from main>]
const crypto = require('crypto')
const fs = require('fs')
const path = require('path')
const { load } = require(path.join(__dirname, '..', 'lib', 'loader'))
const wrappers = require(path.join(__dirname, '..', 'lib', 'surfaces', 'wrappers'))
const { addonCopy, tmpDir } = require('./addon-copy')

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'))
const rounds = Number(args[0]) || 9
const ms = Number(args[1]) || 150
const baselineWasm = (process.argv.find((a) => a.startsWith('--baseline-wasm=')) || '').split('=')[1]

// lib/ copied beside another natrium.wasm: its loader reads the natrium.wasm next to it.
function wasmFrom (file) {
  const lib = path.join(tmpDir(), 'lib')
  fs.cpSync(path.join(__dirname, '..', 'lib'), lib, { recursive: true })
  fs.copyFileSync(file, path.join(lib, 'natrium.wasm'))
  return wrappers(require(path.join(lib, 'loader')).load('wasm'))
}

const { ml_kem768: noble } = require('@noble/post-quantum/ml-kem.js')
const contenders = {
  'natrium native': wrappers(load('native')),
  'native, libsodium code': wrappers(addonCopy({ NATRIUM_MLKEM: 'libsodium' })),
  'natrium wasm': wrappers(load('wasm')),
  ...(baselineWasm ? { 'wasm before (main)': wasmFrom(baselineWasm) } : {})
}

const { rate, median, sink, cpuName } = require('./cpu-rate')
const hex = (b) => Buffer.from(b).toString('hex')

// Same bytes first: seeded key pairs, deterministic encapsulation, decapsulation.
const seed = crypto.randomBytes(64)
const m = crypto.randomBytes(32)
const ref = contenders['native, libsodium code']
const want = ref.crypto_kem_mlkem768_seed_keypair(seed)
const wantEnc = ref.crypto_kem_mlkem768_enc_deterministic(want.publicKey, m)
for (const [name, s] of Object.entries(contenders)) {
  const k = s.crypto_kem_mlkem768_seed_keypair(seed)
  const e = s.crypto_kem_mlkem768_enc_deterministic(k.publicKey, m)
  const ok = hex(k.publicKey) === hex(want.publicKey) && hex(k.privateKey) === hex(want.privateKey) &&
    hex(e.ciphertext) === hex(wantEnc.ciphertext) && hex(e.sharedSecret) === hex(wantEnc.sharedSecret) &&
    hex(s.crypto_kem_mlkem768_dec(wantEnc.ciphertext, want.privateKey)) === hex(wantEnc.sharedSecret)
  if (!ok) throw new Error(`${name} answers differently from libsodium`)
}
const nk = noble.keygen(seed)
const ne = noble.encapsulate(nk.publicKey, m)
if (hex(nk.publicKey) !== hex(want.publicKey) || hex(ne.cipherText) !== hex(wantEnc.ciphertext) ||
    hex(noble.decapsulate(wantEnc.ciphertext, want.privateKey)) !== hex(wantEnc.sharedSecret)) {
  throw new Error('@noble/post-quantum answers differently from libsodium')
}

const ops = {
  keypair: Object.fromEntries([
    ...Object.entries(contenders).map(([n, s]) => [n, () => s.crypto_kem_mlkem768_keypair().publicKey]),
    ['@noble/post-quantum', () => noble.keygen().publicKey]
  ]),
  encapsulate: Object.fromEntries([
    ...Object.entries(contenders).map(([n, s]) => [n, () => s.crypto_kem_mlkem768_enc(want.publicKey).ciphertext]),
    ['@noble/post-quantum', () => noble.encapsulate(want.publicKey).cipherText]
  ]),
  decapsulate: Object.fromEntries([
    ...Object.entries(contenders).map(([n, s]) => [n, () => s.crypto_kem_mlkem768_dec(wantEnc.ciphertext, want.privateKey)]),
    ['@noble/post-quantum', () => noble.decapsulate(wantEnc.ciphertext, want.privateKey)]
  ])
}

const names = Object.keys(ops.keypair)
const pairs = [['natrium native', 'native, libsodium code'], ['natrium native', '@noble/post-quantum'],
  ['natrium wasm', 'wasm before (main)'], ['natrium wasm', '@noble/post-quantum']]
console.log(`ML-KEM-768, ops/s (median of ${rounds} alternated rounds of ${ms} ms CPU time); ` +
  `${cpuName()}, Node ${process.version}`)
console.log(`| operation | ${names.join(' | ')} | ${pairs.map(([a, b]) => `${a} / ${b}`).join(' | ')} |`)
console.log(`|---|${names.map(() => '---:').join('|')}|${pairs.map(() => '---:').join('|')}|`)
for (const [op, fns] of Object.entries(ops)) {
  for (let w = 0; w < 3; w++) for (const k of names) rate(fns[k], ms / 2)
  const got = Object.fromEntries(names.map((k) => [k, []]))
  const ratio = {}
  for (let r = 0; r < rounds; r++) {
    const round = {}
    for (const k of names) got[k].push(round[k] = rate(fns[k], ms))
    for (const [a, b] of pairs) if (b in round) (ratio[`${a}/${b}`] = ratio[`${a}/${b}`] || []).push(round[a] / round[b])
  }
  const x = (a, b) => (ratio[`${a}/${b}`] ? `${median(ratio[`${a}/${b}`]).toFixed(2)}x` : '')
  console.log(`| ${op} | ${names.map((k) => Math.round(median(got[k])).toLocaleString('en')).join(' | ')} | ` +
    `${pairs.map(([a, b]) => x(a, b)).join(' | ')} |`)
}
if (sink() === 42) console.log('')

'use strict'
// Issue 13's Ed25519 fixed-base and verify bars, side by side in one process, round after round alternated:
// the addon's raw functions (sodium-native's API: output buffers) with our fixed-base a B
// (src/crypto/ed25519_mulx.c, the default on x86-64 with BMI2/ADX), the same addon copied and
// loaded with NATRIUM_ED25519=libsodium (libsodium 1.0.22's ref10 code), sodium-native 5.1.0 and
// node:crypto (OpenSSL; KeyObjects made once for sign, generateKeyPairSync for the key pairs).
// Every contender's signature and key pair from a seed is checked against the addon's before
// anything is timed. Reports the median ops/s and the median per-round ratios.
//   node bench/ed25519-bars.js [rounds] [ms]
const crypto = require('crypto')
const path = require('path')
const { load } = require(path.join(__dirname, '..', 'lib', 'loader'))
const { addonCopy } = require('./addon-copy')
const SodiumNative = require('sodium-native')

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'))
const rounds = Number(args[0]) || 9
const ms = Number(args[1]) || 150

const libs = { natrium: load('native').binding, 'natrium NATRIUM_ED25519=libsodium': addonCopy({ NATRIUM_ED25519: 'libsodium' }).binding, 'sodium-native': SodiumNative }

const m = crypto.randomBytes(10)
const seed = crypto.randomBytes(32)
const pk = Buffer.alloc(32)
const sk = Buffer.alloc(64)
libs.natrium.crypto_sign_seed_keypair(pk, sk, seed)
const want = Buffer.alloc(64)
libs.natrium.crypto_sign_detached(want, m, sk)
const nodeKey = crypto.createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]), format: 'der', type: 'pkcs8' })
if (!crypto.sign(null, m, nodeKey).equals(want)) throw new Error('node:crypto signs differently')

const m1k = crypto.randomBytes(1024)
const want1k = Buffer.alloc(64)
libs.natrium.crypto_sign_detached(want1k, m1k, sk)
const nodePub = crypto.createPublicKey(nodeKey)
if (!crypto.verify(null, m, nodePub, want) || !crypto.verify(null, m1k, nodePub, want1k)) throw new Error('node:crypto does not verify')

const ops = {}
const sig = Buffer.alloc(64)
const q = Buffer.alloc(32)
const n = crypto.randomBytes(32)
const bpk = Buffer.alloc(32)
const bsk = Buffer.alloc(32)
for (const [name, s] of Object.entries(libs)) {
  const p2 = Buffer.alloc(32)
  const s2 = Buffer.alloc(64)
  s.crypto_sign_seed_keypair(p2, s2, seed)
  s.crypto_sign_detached(sig, m, s2)
  if (!p2.equals(pk) || !s2.equals(sk) || !sig.equals(want)) throw new Error(`${name} answers differently`)
  const bad = Buffer.from(want)
  bad[5] ^= 1
  if (!s.crypto_sign_verify_detached(want, m, pk) || !s.crypto_sign_verify_detached(want1k, m1k, pk) ||
      s.crypto_sign_verify_detached(bad, m, pk)) throw new Error(`${name} verifies differently`)
  ops[name] = {
    'sign 10 B': () => { s.crypto_sign_detached(sig, m, sk); return sig },
    'sign keypair': () => { s.crypto_sign_keypair(p2, s2); return p2 },
    'sign seed_keypair': () => { s.crypto_sign_seed_keypair(p2, s2, seed); return p2 },
    'X25519 base': () => { s.crypto_scalarmult_base(q, n); return q },
    'box keypair': () => { s.crypto_box_keypair(bpk, bsk); return bpk },
    'verify 10 B': () => s.crypto_sign_verify_detached(want, m, pk),
    'verify 1 KB': () => s.crypto_sign_verify_detached(want1k, m1k, pk)
  }
}
ops['node:crypto'] = {
  'sign 10 B': () => crypto.sign(null, m, nodeKey),
  'sign keypair': () => crypto.generateKeyPairSync('ed25519').publicKey,
  'X25519 base': () => crypto.generateKeyPairSync('x25519').publicKey,
  'verify 10 B': () => crypto.verify(null, m, nodePub, want),
  'verify 1 KB': () => crypto.verify(null, m1k, nodePub, want1k)
}

const { rate, median, sink, cpuName } = require('./cpu-rate')
const opNames = Object.keys(ops.natrium)
console.log(`Ed25519 / X25519 fixed-base and Ed25519 verify, ops/s (median of ${rounds} alternated rounds of ${ms} ms CPU time); ${cpuName()}, Node ${process.version}`)
console.log('| op | ' + Object.keys(ops).join(' | ') + ' | natrium / sodium-native | natrium / forced libsodium | natrium / node:crypto |')
console.log('|---|' + Object.keys(ops).map(() => '---:|').join('') + '---:|---:|---:|')
for (const op of opNames) {
  const names = Object.keys(ops).filter((k) => ops[k][op])
  for (let w = 0; w < 2; w++) for (const k of names) rate(ops[k][op], ms / 2)
  const got = Object.fromEntries(names.map((k) => [k, []]))
  const ratios = { sn: [], ls: [], nc: [] }
  for (let r = 0; r < rounds; r++) {
    const round = {}
    for (const k of (r & 1 ? names.slice().reverse() : names)) got[k].push(round[k] = rate(ops[k][op], ms))
    ratios.sn.push(round.natrium / round['sodium-native'])
    ratios.ls.push(round.natrium / round['natrium NATRIUM_ED25519=libsodium'])
    if (round['node:crypto']) ratios.nc.push(round.natrium / round['node:crypto'])
  }
  const cells = Object.keys(ops).map((k) => (got[k] ? Math.round(median(got[k])).toLocaleString('en') : '-'))
  const r = (v) => (v.length ? median(v).toFixed(2) + 'x' : '-')
  console.log(`| ${op} | ${cells.join(' | ')} | ${r(ratios.sn)} | ${r(ratios.ls)} | ${r(ratios.nc)} |`)
}
if (sink() === 0.5) console.log('')

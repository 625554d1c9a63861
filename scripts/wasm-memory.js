'use strict'
// node --expose-gc scripts/wasm-memory.js [calls]: a long run of mixed calls on the wasm backend
// (small and large AEAD, signatures, hashing, password hashing at the interactive limits, calls that
// throw) and the linear memory and JS heap before and after. Both must stay flat: the glue reuses
// one scratch region, frees large ones, and allocates nothing per call.
const { load } = require('../lib/loader')

function run (calls = 1e6) {
  const s = load('wasm').binding
  const k = new Uint8Array(32).fill(7)
  const n = new Uint8Array(24).fill(9)
  const m = new Uint8Array(10)
  const c = new Uint8Array(26)
  const big = new Uint8Array(1 << 20)
  const bigC = new Uint8Array(big.length + 16)
  const pk = new Uint8Array(32)
  const sk = new Uint8Array(64)
  s.crypto_sign_seed_keypair(pk, sk, k)
  const sig = new Uint8Array(64)
  const h = new Uint8Array(32)
  const ops = [
    () => s.crypto_aead_xchacha20poly1305_ietf_encrypt(c, m, null, null, n, k),
    () => s.crypto_generichash(h, m, null),
    () => s.crypto_hash_sha256(h, c),
    () => { try { s.crypto_secretbox_easy(c, m, n, new Uint8Array(3)) } catch {} },
    () => s.crypto_aead_xchacha20poly1305_ietf_decrypt(m, null, c, null, n, k)
  ]
  const rare = [
    () => s.crypto_sign_detached(sig, m, sk),
    () => s.crypto_sign_verify_detached(sig, m, pk),
    () => s.crypto_aead_xchacha20poly1305_ietf_encrypt(bigC, big, null, null, n, k)
  ]
  const measure = () => {
    if (global.gc) global.gc()
    return { linear: s.natrium_wasm_memory_bytes(), heap: process.memoryUsage().heapUsed }
  }
  // warm-up: every path once, including interactive-limit Argon2id (64 MiB), then measure
  for (const f of ops.concat(rare)) f()
  s.crypto_pwhash(h, m, new Uint8Array(16), s.crypto_pwhash_OPSLIMIT_INTERACTIVE, s.crypto_pwhash_MEMLIMIT_INTERACTIVE, s.crypto_pwhash_ALG_ARGON2ID13)
  const before = measure()
  const t = Date.now()
  for (let i = 0; i < calls; i++) {
    ops[i % ops.length]()
    if (i % 10000 === 0) rare[(i / 10000) % rare.length]()
  }
  s.crypto_pwhash(h, m, new Uint8Array(16), s.crypto_pwhash_OPSLIMIT_INTERACTIVE, s.crypto_pwhash_MEMLIMIT_INTERACTIVE, s.crypto_pwhash_ALG_ARGON2ID13)
  const after = measure()
  return { calls, seconds: (Date.now() - t) / 1000, before, after }
}

module.exports = run

if (require.main === module) {
  const r = run(Number(process.argv[2]) || 1e6)
  const mib = (x) => (x / 1048576).toFixed(2) + ' MiB'
  console.log(`${r.calls} mixed calls in ${r.seconds} s on the wasm backend`)
  console.log(`linear memory: ${mib(r.before.linear)} -> ${mib(r.after.linear)}`)
  console.log(`JS heap used:  ${mib(r.before.heap)} -> ${mib(r.after.heap)}${global.gc ? '' : ' (run with --expose-gc for a settled heap)'}`)
}

'use strict'
// node scripts/compare-natives.js A.node B.node: two builds of the native addon (on Windows the
// mingw-w64 cross build and the MSVC one, in .github/workflows/prebuild.yml) side by side in one
// process: the same functions and constants, the same answers on fixed inputs, and the speed of a
// few operations, alternated, as B's time over A's (median of 9 rounds). Exits 1 on a difference.
const assert = require('assert')
const path = require('path')

const [fileA, fileB] = process.argv.slice(2).map((f) => path.resolve(f))
if (!fileB) { console.error('usage: node scripts/compare-natives.js A.node B.node'); process.exit(2) }
const a = require(fileA)
const b = require(fileB)
assert.notStrictEqual(a, b, 'the same file twice')

const names = (m, fn) => Object.keys(m).filter((k) => (typeof m[k] === 'function') === fn).sort()
assert.deepStrictEqual(names(b, true), names(a, true), 'different functions')
assert.deepStrictEqual(names(b, false), names(a, false), 'different constants')
for (const k of names(a, false)) assert.deepStrictEqual(b[k], a[k], k)

// fixed inputs, so both must give the same bytes
const m = Buffer.alloc(1 << 20, 0).map((_, i) => (i * 31 + 7) & 0xff)
const key = Buffer.alloc(32, 0).map((_, i) => i)
const nonce24 = Buffer.alloc(24, 0xa5)
const ops = {
  crypto_generichash_1MB: (s) => { const h = Buffer.alloc(32); s.crypto_generichash(h, m, null); return h },
  crypto_hash_sha512_1MB: (s) => { const h = Buffer.alloc(64); s.crypto_hash_sha512(h, m); return h },
  crypto_aead_xchacha20poly1305_ietf_encrypt_1MB: (s) => {
    const c = Buffer.alloc(m.length + 16)
    s.crypto_aead_xchacha20poly1305_ietf_encrypt(c, m, null, null, nonce24, key)
    return c.subarray(c.length - 64)
  },
  crypto_aead_aes256gcm_encrypt_1MB: (s) => {
    if (!s.crypto_aead_aes256gcm_is_available()) return 'unavailable'
    const c = Buffer.alloc(m.length + 16)
    s.crypto_aead_aes256gcm_encrypt(c, m, null, null, nonce24.subarray(0, 12), key)
    return c.subarray(c.length - 64)
  },
  crypto_sign_detached_x100: (s) => {
    const pk = Buffer.alloc(32); const sk = Buffer.alloc(64); const sig = Buffer.alloc(64)
    s.crypto_sign_seed_keypair(pk, sk, key)
    for (let i = 0; i < 100; i++) s.crypto_sign_detached(sig, m.subarray(0, 1000), sk)
    return sig
  },
  crypto_scalarmult_x100: (s) => {
    const q = Buffer.alloc(32); let n = key
    for (let i = 0; i < 100; i++) { s.crypto_scalarmult_base(q, n); n = Buffer.from(q) }
    return q
  },
  crypto_pwhash_argon2id_19MiB: (s) => {
    const h = Buffer.alloc(32)
    s.crypto_pwhash(h, Buffer.from('password'), Buffer.alloc(16, 1), 2, 19 << 20, s.crypto_pwhash_ALG_ARGON2ID13)
    return h
  }
}
const time = (f) => { const t = process.hrtime.bigint(); f(); return Number(process.hrtime.bigint() - t) / 1e6 }
const median = (xs) => xs.sort((x, y) => x - y)[xs.length >> 1]
let failed = 0
for (const [name, op] of Object.entries(ops)) {
  const [ra, rb] = [op(a), op(b)]
  if (!Buffer.isBuffer(ra) ? ra !== rb : !ra.equals(rb)) { console.error(`${name}: the two builds differ`); failed++; continue }
  const ta = []; const tb = []
  for (let i = 0; i < 9; i++) { ta.push(time(() => op(a))); tb.push(time(() => op(b))) }
  console.log(`${name.padEnd(48)} A ${median(ta).toFixed(2).padStart(8)} ms  B ${median(tb).toFixed(2).padStart(8)} ms  B/A ${(median(tb) / median(ta)).toFixed(2)}`)
}
console.log(`compare-natives: ${names(a, true).length} functions and ${names(a, false).length} constants alike; ${failed} operation(s) differ`)
process.exit(failed ? 1 : 0)

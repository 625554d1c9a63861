'use strict'
// The wasm backend against libsodium-wrappers-sumo 0.8.4 on issue 3's bar operations (and SHA-2), alternated
// round by round in one process (a busy machine moves both sides together), in CPU time
// (bench/cpu-rate.js), median ratio of the
// rounds (> 1: natrium faster). Raw surface with reused outputs for natrium; libsodium-wrappers'
// own API (it allocates its results) for libsodium.js.
//   node scripts/wasm-bars.js [label-regex] [rounds]
const path = require('path')
const filter = new RegExp(process.argv[2] || '.')
const rounds = Number(process.argv[3]) || 9
const nat = require(path.join(__dirname, '..', 'lib', 'loader')).load('wasm').binding
const S = require('libsodium-wrappers-sumo')

const { rate, median, cpuName } = require(path.join(__dirname, '..', 'bench', 'cpu-rate'))

function compare (label, a, b, ms = 150, n = rounds) {
  if (!filter.test(label)) return
  rate(a, 50); rate(b, 50)
  const ra = []; const rb = []; const ratios = []
  for (let r = 0; r < n; r++) {
    const x = rate(a, ms); const y = rate(b, ms)
    ra.push(x); rb.push(y); ratios.push(x / y)
  }
  console.log(`${label.padEnd(26)} natrium wasm ${Math.round(median(ra)).toString().padStart(8)}/s   ` +
    `libsodium.js ${Math.round(median(rb)).toString().padStart(8)}/s   ratio ${median(ratios).toFixed(2)}`)
}

S.ready.then(() => {
  console.log(`${cpuName()}; Node ${process.version}; median of ${rounds} alternated rounds, CPU time`)
  const pk = new Uint8Array(32); const sk = new Uint8Array(64)
  nat.crypto_sign_keypair(pk, sk)
  const m1k = new Uint8Array(1024).fill(7); const sig = new Uint8Array(64)
  nat.crypto_sign_detached(sig, m1k, sk)
  compare('ed25519 sign 1 KB', () => nat.crypto_sign_detached(sig, m1k, sk), () => S.crypto_sign_detached(m1k, sk))
  compare('ed25519 verify 1 KB', () => nat.crypto_sign_verify_detached(sig, m1k, pk), () => S.crypto_sign_verify_detached(sig, m1k, pk))
  const k = new Uint8Array(32); const npub = new Uint8Array(24)
  for (const [l, size] of [['10 B', 10], ['1 MB', 1 << 20]]) {
    const m = new Uint8Array(size); const c = new Uint8Array(size + 16)
    nat.crypto_aead_xchacha20poly1305_ietf_encrypt(c, m, null, null, npub, k)
    compare(`xchacha20poly1305 enc ${l}`, () => nat.crypto_aead_xchacha20poly1305_ietf_encrypt(c, m, null, null, npub, k),
      () => S.crypto_aead_xchacha20poly1305_ietf_encrypt(m, null, null, npub, k))
    compare(`xchacha20poly1305 dec ${l}`, () => nat.crypto_aead_xchacha20poly1305_ietf_decrypt(m, null, c, null, npub, k),
      () => S.crypto_aead_xchacha20poly1305_ietf_decrypt(null, c, null, npub, k))
  }
  const big = new Uint8Array(1 << 20); const h = new Uint8Array(32)
  compare('blake2b 1 MB', () => nat.crypto_generichash(h, big), () => S.crypto_generichash(32, big))
  // not bars, but shared with libsodium.js: SHA-2 (our own C on wasm)
  for (const [l, size] of [['64 B', 64], ['1 KB', 1024], ['1 MB', 1 << 20]]) {
    const m = new Uint8Array(size); const d = new Uint8Array(64)
    compare(`sha256 ${l}`, () => nat.crypto_hash_sha256(d.subarray(0, 32), m), () => S.crypto_hash_sha256(m))
    compare(`sha512 ${l}`, () => nat.crypto_hash_sha512(d, m), () => S.crypto_hash_sha512(m))
  }
  const out = new Uint8Array(32); const pw = new Uint8Array(8); const salt = new Uint8Array(16)
  compare('argon2id t=2 m=19 MiB', () => nat.crypto_pwhash(out, pw, salt, 2, 19 << 20, 2),
    () => S.crypto_pwhash(32, pw, salt, 2, 19 << 20, 2), 600, Math.min(rounds, 5))
  const kpk = new Uint8Array(1184); const ksk = new Uint8Array(2400)
  compare('ml-kem-768 keypair', () => nat.crypto_kem_mlkem768_keypair(kpk, ksk), () => S.crypto_kem_mlkem768_keypair())
})

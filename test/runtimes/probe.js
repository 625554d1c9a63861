'use strict'
// Known answers every runtime must give exactly (test/portable.test.js in a Node vm context,
// test/runtimes/run.mjs in each real runtime): deterministic outputs (hashes, Ed25519 from a
// seed, AEAD and secretbox with fixed keys and nonces, X25519, codecs), a tampered ciphertext
// refused, and random bytes drawn. Runs on the main API; `probe.toString()` is evaluated elsewhere.
function probe (sodium) {
  const e = (s) => sodium.from_string(s)
  const k = new Uint8Array(32).map((_, i) => i)
  const n = new Uint8Array(24).map((_, i) => 100 + i)
  const out = {}
  out.generichash = sodium.crypto_generichash(64, e('natrium'), null, 'hex')
  out.sha256 = sodium.to_hex(sodium.crypto_hash_sha256(e('abc')))
  out.sha512 = sodium.to_hex(sodium.crypto_hash_sha512(new Uint8Array(1000).fill(7)))
  const kp = sodium.crypto_sign_seed_keypair(k)
  out.pk = sodium.to_hex(kp.publicKey)
  out.sig = sodium.to_hex(sodium.crypto_sign_detached(e('message'), kp.privateKey))
  out.verified = sodium.crypto_sign_verify_detached(sodium.from_hex(out.sig), e('message'), kp.publicKey)
  const c = sodium.crypto_aead_xchacha20poly1305_ietf_encrypt(e('hello, every runtime'), e('ad'), null, n, k)
  out.aead = sodium.to_hex(c)
  out.opened = sodium.to_string(sodium.crypto_aead_xchacha20poly1305_ietf_decrypt(null, c, e('ad'), n, k))
  c[3] ^= 1
  try { sodium.crypto_aead_xchacha20poly1305_ietf_decrypt(null, c, e('ad'), n, k); out.tampered = 'accepted' } catch (err) { out.tampered = err.message }
  out.secretbox = sodium.to_base64(sodium.crypto_secretbox_easy(e('x'.repeat(100)), n, k))
  out.x25519 = sodium.to_hex(sodium.crypto_scalarmult_base(k))
  out.box = sodium.to_hex(sodium.crypto_box_easy(e('box'), n, sodium.crypto_scalarmult_base(k), k))
  out.b64 = [1, 3, 5, 7].map((v) => sodium.to_base64(new Uint8Array([250, 251, 252, 253]), v))
  out.latin1 = sodium.crypto_pwhash_str_needs_rehash('$argon2id$v=19$m=8,t=1,p=1$c29tZXNhbHQ$' + 'A'.repeat(43), 1, 8192)
  const r = sodium.randombytes_buf(32)
  out.random = r.length === 32 && r.some((b) => b !== 0)
  return out
}

// The sodium-native surface (natrium/sodium-native): fills caller-owned buffers, as sodium-native does.
function probeSodiumNative (sn) {
  const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')
  const e = (s) => new TextEncoder().encode(s)
  const out = {}
  const h = new Uint8Array(32)
  sn.crypto_generichash(h, e('natrium'))
  out.generichash = hex(h)
  const pk = new Uint8Array(32)
  const sk = new Uint8Array(64)
  sn.crypto_sign_seed_keypair(pk, sk, new Uint8Array(32).fill(1))
  const sig = new Uint8Array(64)
  sn.crypto_sign_detached(sig, e('message'), sk)
  out.sig = hex(sig)
  out.verified = sn.crypto_sign_verify_detached(sig, e('message'), pk)
  const k = new Uint8Array(32).fill(2)
  const n = new Uint8Array(24).fill(3)
  const c = new Uint8Array(5 + 16)
  sn.crypto_secretbox_easy(c, e('hello'), n, k)
  out.secretbox = hex(c)
  const m = new Uint8Array(5)
  out.opened = sn.crypto_secretbox_open_easy(m, c, n, k) && new TextDecoder().decode(m)
  c[0] ^= 1
  out.tampered = sn.crypto_secretbox_open_easy(m, c, n, k)
  return out
}

module.exports = { probe, probeSodiumNative }

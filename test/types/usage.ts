// Compiled by test/wrappers-package.test.js (tsc --noEmit): the main API's types as libsodium-wrappers
// code uses them, from CommonJS TypeScript. A type error here fails npm test.
import sodium = require('natrium')

async function main (): Promise<void> {
  await sodium.ready // kept for libsodium-wrappers code; resolves at once
  const backend: 'native' | 'wasm' = sodium.backend

  const key: Uint8Array = sodium.crypto_aead_xchacha20poly1305_ietf_keygen()
  const nonce = sodium.randombytes_buf(sodium.crypto_aead_xchacha20poly1305_ietf_NPUBBYTES)
  const c: Uint8Array = sodium.crypto_aead_xchacha20poly1305_ietf_encrypt('hello', null, null, nonce, key)
  const m: string = sodium.crypto_aead_xchacha20poly1305_ietf_decrypt(null, c, null, nonce, key, 'text')
  const d: { ciphertext: string; mac: string } = sodium.crypto_aead_xchacha20poly1305_ietf_encrypt_detached(m, null, null, nonce, key, 'hex')

  const kp = sodium.crypto_sign_keypair()
  const pk: Uint8Array = kp.publicKey
  const keyType: string = kp.keyType
  const sig = sodium.crypto_sign_detached('message', kp.privateKey)
  const ok: boolean = sodium.crypto_sign_verify_detached(sig, 'message', pk)
  const hexKeys: { publicKey: string; privateKey: string; keyType: string } = sodium.crypto_box_keypair('hex')

  const st: sodium.StateAddress = sodium.crypto_generichash_init(null, 32)
  sodium.crypto_generichash_update(st, 'chunk')
  const h: string = sodium.crypto_generichash_final(st, 32, 'base64')

  const push = sodium.crypto_secretstream_xchacha20poly1305_init_push(key)
  const chunk = sodium.crypto_secretstream_xchacha20poly1305_push(push.state, 'x', null, sodium.crypto_secretstream_xchacha20poly1305_TAG_FINAL)
  const pull = sodium.crypto_secretstream_xchacha20poly1305_init_pull(push.header, key)
  const r = sodium.crypto_secretstream_xchacha20poly1305_pull(pull, chunk, null)
  if (r !== false) { const tag: number = r.tag; const msg: Uint8Array = r.message; void tag; void msg }

  const sub: Uint8Array = sodium.crypto_kdf_derive_from_key(32, 1n, 'context_', sodium.crypto_kdf_keygen())
  const hash: string = sodium.crypto_pwhash_str('pw', sodium.crypto_pwhash_OPSLIMIT_MIN, sodium.crypto_pwhash_MEMLIMIT_MIN)
  const good: boolean = await sodium.crypto_pwhash_str_verify_async(hash, 'pw')
  const derived: string = await sodium.crypto_pbkdf2_hmac_sha256_async(32, 'pw', 'salt', 1000, 'hex')
  const prk: Uint8Array = sodium.crypto_kdf_hkdf_sha256_extract(null, 'ikm')
  const ct = sodium.crypto_aead_aes256gcm_encrypt('m', null, null, sodium.randombytes_buf(12), sodium.crypto_aead_aes256gcm_keygen())

  const hexed: string = sodium.to_hex(sodium.from_base64(sodium.to_base64(c, sodium.base64_variants.ORIGINAL), sodium.base64_variants.ORIGINAL))
  const equal: boolean = sodium.memcmp(c, c)
  sodium.increment(nonce)
  const version: string = sodium.sodium_version_string()

  // @ts-expect-error: outputFormat must be one of the four
  sodium.crypto_hash_sha256('x', 'binary')
  // @ts-expect-error: a number is not a message
  sodium.crypto_hash_sha256(42)

  void [backend, d, ok, hexKeys, h, sub, good, derived, prk, ct, hexed, equal, version]
}

void main

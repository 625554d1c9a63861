// Compiled by test/wrappers-package.test.js: the sodium-native surface's types.
import sodium = require('natrium/sodium-native')

const key = new Uint8Array(sodium.crypto_secretbox_KEYBYTES)
const nonce = new Uint8Array(sodium.crypto_secretbox_NONCEBYTES)
sodium.randombytes_buf(key)
const m = new Uint8Array(5)
const c = new Uint8Array(m.length + sodium.crypto_secretbox_MACBYTES)
sodium.crypto_secretbox_easy(c, m, nonce, key)
const ok: boolean = sodium.crypto_secretbox_open_easy(m, c, nonce, key)
const n: number = sodium.crypto_aead_xchacha20poly1305_ietf_encrypt(new Uint8Array(21), m, null, null, new Uint8Array(24), key)
const secure = sodium.sodium_malloc(32)
const flag: boolean = secure.secure
const p: Promise<void> = sodium.crypto_pwhash_str_async(new Uint8Array(128), m, 2, 65536)
sodium.crypto_pwhash_str_verify_async(new Uint8Array(128), m, (err, valid) => { void err; void valid })
// @ts-expect-error: outputs are caller-allocated buffers, not strings
sodium.crypto_secretbox_easy('c', m, nonce, key)
export { ok, n, flag, p }

// Compiled by test/wrappers-package.test.js: the main API from ES modules, default and named imports.
import sodium, { crypto_secretbox_easy, crypto_secretbox_keygen, crypto_secretbox_NONCEBYTES, randombytes_buf, ready } from 'natrium'
import type { StateAddress } from 'natrium'

await ready
const key = crypto_secretbox_keygen()
const c: Uint8Array = crypto_secretbox_easy('hello', randombytes_buf(crypto_secretbox_NONCEBYTES), key)
const s: string = sodium.crypto_secretbox_easy('hello', randombytes_buf(24), key, 'base64')
const st: StateAddress = sodium.crypto_hash_sha256_init()
export { c, s, st }

'use strict'
// Every main-API function that maps onto one raw function, in libsodium-wrappers 0.8.4's shape:
// its parameter names and order, its result objects and its failure messages (build.js explains
// the fields). Functions with no single raw counterpart are in adapters.js.
//
// Where libsodium-wrappers is stricter than the raw layer (an exact length where the raw function
// takes a range), `len` says so; where it checks less (it reads past a short buffer, or ignores a
// failure), natrium keeps the raw checks: see docs/api.md, "What differs".
const { U8 } = require('../../intrinsics')
const { codecs } = require('./io')

const defs = {}
const def = (name, params, opts = {}) => { defs[name] = Object.assign({ params }, opts) }

const DECRYPT_FAIL = 'ciphertext cannot be decrypted using that key'
const BOX_FAIL = 'incorrect key pair for the given ciphertext'
const AFTERNM_FAIL = 'incorrect secret key for the given ciphertext'
const SECRETBOX_FAIL = 'wrong secret key for the given ciphertext'
const BAD_ELEMENT = 'input is an invalid element'
const KEYPAIR = { publicKey: 'pk', privateKey: 'sk' }

// crypto_aead_*: the five constructions of libsodium-wrappers, and AES-256-GCM (natrium's addition)
for (const p of ['aegis128l', 'aegis256', 'chacha20poly1305', 'chacha20poly1305_ietf', 'xchacha20poly1305_ietf', 'aes256gcm']) {
  const a = `crypto_aead_${p}`
  def(`${a}_encrypt`, 'message additional_data secret_nonce public_nonce key')
  def(`${a}_decrypt`, 'secret_nonce ciphertext additional_data public_nonce key', { fail: DECRYPT_FAIL })
  def(`${a}_encrypt_detached`, 'message additional_data secret_nonce public_nonce key', { outs: { ciphertext: 'c', mac: 'mac' } })
  def(`${a}_decrypt_detached`, 'secret_nonce ciphertext mac additional_data public_nonce key', { fail: DECRYPT_FAIL })
  def(`${a}_keygen`, '')
}
// AES-256-GCM with the key schedule computed once (libsodium's beforenm/afternm)
{
  const a = 'crypto_aead_aes256gcm'
  def(`${a}_is_available`, '', { format: false })
  def(`${a}_beforenm`, 'key', { init: true })
  def(`${a}_encrypt_afternm`, 'message additional_data secret_nonce public_nonce state_address')
  def(`${a}_decrypt_afternm`, 'secret_nonce ciphertext additional_data public_nonce state_address', { fail: DECRYPT_FAIL })
  def(`${a}_encrypt_detached_afternm`, 'message additional_data secret_nonce public_nonce state_address', { outs: { ciphertext: 'c', mac: 'mac' } })
  def(`${a}_decrypt_detached_afternm`, 'secret_nonce ciphertext mac additional_data public_nonce state_address', { fail: DECRYPT_FAIL })
}

// crypto_auth_*, crypto_onetimeauth_*: one-shot, verify (no outputFormat), keygen, streaming
for (const p of ['crypto_auth', 'crypto_auth_hmacsha256', 'crypto_auth_hmacsha512', 'crypto_auth_hmacsha512256', 'crypto_onetimeauth']) {
  def(p, 'message key')
  def(`${p}_verify`, `${p === 'crypto_onetimeauth' ? 'hash' : 'tag'} message key`, { format: false })
  def(`${p}_keygen`, '')
  if (p === 'crypto_auth') continue
  // libsodium-wrappers lets an HMAC key be null (an empty key); a Poly1305 key it must have
  def(`${p}_init`, 'key', { init: true, empty: p === 'crypto_onetimeauth' ? [] : ['key'] })
  def(`${p}_update`, 'state_address message_chunk')
  def(`${p}_final`, 'state_address', { final: true })
}

// crypto_box_*, crypto_box_curve25519xchacha20poly1305_*
for (const [b, keyType, seedKeyType, sealSk] of [
  ['crypto_box', 'x25519', 'x25519', 'privateKey'],
  ['crypto_box_curve25519xchacha20poly1305', 'curve25519', 'x25519', 'secretKey']
]) {
  def(`${b}_keypair`, '', { outs: KEYPAIR, keyType, fail: 'internal error' })
  def(`${b}_seed_keypair`, 'seed', { outs: KEYPAIR, keyType: seedKeyType })
  def(`${b}_beforenm`, 'publicKey privateKey')
  def(`${b}_easy`, 'message nonce publicKey privateKey')
  def(`${b}_open_easy`, 'ciphertext nonce publicKey privateKey', { fail: BOX_FAIL })
  def(`${b}_detached`, 'message nonce publicKey privateKey', { outs: { ciphertext: 'c', mac: 'mac' } })
  def(`${b}_open_detached`, 'ciphertext mac nonce publicKey privateKey', { fail: BOX_FAIL })
  def(`${b}_easy_afternm`, 'message nonce sharedKey')
  def(`${b}_open_easy_afternm`, 'ciphertext nonce sharedKey', { fail: AFTERNM_FAIL })
  def(`${b}_detached_afternm`, 'message nonce sharedKey', { outs: { ciphertext: 'c', mac: 'mac' } })
  def(`${b}_open_detached_afternm`, 'ciphertext mac nonce sharedKey', { fail: AFTERNM_FAIL })
  def(`${b}_seal`, 'message publicKey')
  def(`${b}_seal_open`, `ciphertext publicKey ${sealSk}`, { fail: BOX_FAIL })
}

// crypto_core_ed25519_*, crypto_core_ristretto255_*, hchacha20/hsalsa20
for (const g of ['crypto_core_ed25519', 'crypto_core_ristretto255']) {
  def(`${g}_add`, 'p q', { fail: BAD_ELEMENT })
  def(`${g}_sub`, 'p q', { fail: BAD_ELEMENT })
  def(`${g}_is_valid_point`, 'repr')
  def(`${g}_random`, '')
  def(`${g}_from_hash`, 'r')
  def(`${g}_scalar_random`, '')
  def(`${g}_scalar_invert`, 's', { fail: 'invalid reciprocate' })
  def(`${g}_scalar_negate`, 's')
  def(`${g}_scalar_complement`, 's')
  def(`${g}_scalar_add`, 'x y')
  def(`${g}_scalar_sub`, 'x y')
  def(`${g}_scalar_mul`, 'x y')
  def(`${g}_scalar_reduce`, 'sample')
}
def('crypto_core_ed25519_from_uniform', 'r')
def('crypto_core_hchacha20', 'input privateKey constant')
def('crypto_core_hsalsa20', 'input privateKey constant')

// crypto_generichash: libsodium's ranges (1..64-byte output, 0..64-byte key), which the raw
// crypto_generichash_blake2b* functions have (the raw crypto_generichash follows sodium-native).
{
  const b = 'crypto_generichash_blake2b'
  def('crypto_generichash', 'hash_length=out message key', { raw: b })
  def('crypto_generichash_init', 'key hash_length', { raw: `${b}_init`, init: true })
  def('crypto_generichash_update', 'state_address message_chunk', { raw: `${b}_update` })
  def('crypto_generichash_final', 'state_address hash_length=out', { raw: `${b}_final`, final: true })
  def('crypto_generichash_keygen', '')
  // libsodium-wrappers' name for a keyed, salted, personalised hash of the empty message
  def('crypto_generichash_blake2b_salt_personal', 'subkey_len=out key id ctx', { raw: `${b}_salt_personal`, set: { in: new U8(0) } })
}

// crypto_hash_*
def('crypto_hash', 'message')
for (const h of ['sha256', 'sha512', 'sha3256', 'sha3512']) {
  const p = `crypto_hash_${h}`
  def(p, 'message')
  def(`${p}_init`, '', { init: true })
  def(`${p}_update`, 'state_address message_chunk')
  def(`${p}_final`, 'state_address', { final: true })
}

// crypto_ipcrypt_*
for (const v of ['', '_nd', '_ndx', '_pfx']) {
  const p = `crypto_ipcrypt${v}`
  def(`${p}_keygen`, '')
  def(`${p}_encrypt`, v === '_nd' || v === '_ndx' ? 'input tweak key' : 'input key')
  def(`${p}_decrypt`, 'input key')
}

// crypto_kdf_keygen (derive_from_key takes a string context: adapters.js)
def('crypto_kdf_keygen', '')

// crypto_kdf_hkdf_sha256/512 (natrium's addition, in libsodium.js's later shape)
for (const h of ['sha256', 'sha512']) {
  const p = `crypto_kdf_hkdf_${h}`
  def(`${p}_keygen`, '')
  def(`${p}_extract`, 'salt ikm')
  def(`${p}_expand`, 'out_len=out ctx prk')
  def(`${p}_extract_init`, 'salt', { init: true })
  def(`${p}_extract_update`, 'state_address ikm')
  def(`${p}_extract_final`, 'state_address', { final: true })
}

// crypto_kem_*
for (const [k, keyType, deterministic] of [['crypto_kem', 'xwing', false], ['crypto_kem_xwing', 'xwing', true], ['crypto_kem_mlkem768', 'ml-kem-768', true]]) {
  def(`${k}_keypair`, '', { outs: KEYPAIR, keyType, fail: 'internal error' })
  def(`${k}_seed_keypair`, 'seed', { outs: KEYPAIR, keyType })
  def(`${k}_enc`, 'publicKey', { outs: { ciphertext: 'ct', sharedSecret: 'ss' } })
  def(`${k}_dec`, 'ciphertext privateKey')
  if (deterministic) def(`${k}_enc_deterministic`, 'publicKey seed', { outs: { ciphertext: 'ct', sharedSecret: 'ss' } })
}

// crypto_kx_*
def('crypto_kx_keypair', '', { outs: KEYPAIR, keyType: 'x25519', fail: 'internal error' })
def('crypto_kx_seed_keypair', 'seed', { outs: KEYPAIR, keyType: 'x25519', fail: 'internal error' })
def('crypto_kx_client_session_keys', 'clientPublicKey clientSecretKey serverPublicKey', { outs: { sharedRx: 'rx', sharedTx: 'tx' } })
def('crypto_kx_server_session_keys', 'serverPublicKey serverSecretKey clientPublicKey', { outs: { sharedRx: 'rx', sharedTx: 'tx' } })

// crypto_pwhash_* that return bytes (the string forms are in adapters.js)
def('crypto_pwhash', 'keyLength=out password salt opsLimit memLimit algorithm')
def('crypto_pwhash_scryptsalsa208sha256', 'keyLength=out password salt opsLimit memLimit')
def('crypto_pwhash_scryptsalsa208sha256_ll', 'password salt opsLimit=N r p keyLength=buf')

// crypto_scalarmult_*
def('crypto_scalarmult', 'privateKey publicKey', { fail: 'weak public key' })
def('crypto_scalarmult_base', 'privateKey', { fail: 'unknown error' })
def('crypto_scalarmult_ed25519', 'n p', { fail: 'invalid point or scalar is 0' })
def('crypto_scalarmult_ed25519_noclamp', 'n p', { fail: 'invalid point or scalar is 0' })
def('crypto_scalarmult_ed25519_base', 'scalar', { fail: 'scalar is 0' })
def('crypto_scalarmult_ed25519_base_noclamp', 'scalar', { fail: 'scalar is 0' })
def('crypto_scalarmult_ristretto255', 'scalar element', { fail: 'result is identity element' })
def('crypto_scalarmult_ristretto255_base', 'scalar', { fail: 'scalar is 0' })

// crypto_secretbox_* (libsodium-wrappers' detached result is { mac, cipher })
def('crypto_secretbox_keygen', '')
def('crypto_secretbox_easy', 'message nonce key')
def('crypto_secretbox_open_easy', 'ciphertext nonce key', { fail: SECRETBOX_FAIL })
def('crypto_secretbox_detached', 'message nonce key', { outs: { mac: 'mac', cipher: 'c' } })
def('crypto_secretbox_open_detached', 'ciphertext mac nonce key', { fail: SECRETBOX_FAIL })

// crypto_secretstream_xchacha20poly1305_*
{
  const s = 'crypto_secretstream_xchacha20poly1305'
  def(`${s}_keygen`, '')
  def(`${s}_init_push`, 'key', { init: true, outs: { header: 'header' } })
  def(`${s}_init_pull`, 'header key', { init: true })
  def(`${s}_push`, 'state_address message_chunk ad tag')
  // { message, tag } on success, false when the chunk does not authenticate
  def(`${s}_pull`, 'state_address cipher ad', {
    refused: false,
    ts: '{ message: R; tag: number } | false',
    shape: (r, [m, tag], code, format) => ({ message: format(m, code), tag: format(tag, 0)[0] })
  })
  def(`${s}_rekey`, 'state_address', { shape: () => true, ts: 'true' })
}

// crypto_shorthash_*
def('crypto_shorthash', 'message key')
def('crypto_shorthash_keygen', '')
def('crypto_shorthash_siphashx24', 'message key')

// crypto_sign_* (libsodium-wrappers wants exactly SIGNBYTES and SECRETKEYBYTES where the raw
// layer takes longer signatures and 32-byte seeds)
def('crypto_sign_keypair', '', { outs: KEYPAIR, keyType: 'ed25519', fail: 'internal error' })
def('crypto_sign_seed_keypair', 'seed', { outs: KEYPAIR, keyType: 'ed25519' })
def('crypto_sign', 'message privateKey')
def('crypto_sign_open', 'signedMessage publicKey', { fail: 'incorrect signature for the given public key' })
def('crypto_sign_detached', 'message privateKey')
def('crypto_sign_verify_detached', 'signature message publicKey', { format: false, len: { signature: 'crypto_sign_BYTES' } })
def('crypto_sign_init', '', { init: true })
def('crypto_sign_update', 'state_address message_chunk')
def('crypto_sign_final_create', 'state_address privateKey', { final: true })
def('crypto_sign_final_verify', 'state_address signature publicKey', { final: true })
def('crypto_sign_ed25519_pk_to_curve25519', 'edPk', { fail: 'invalid key' })
def('crypto_sign_ed25519_sk_to_curve25519', 'edSk', { fail: 'invalid key', len: { edSk: 'crypto_sign_SECRETKEYBYTES' } })
def('crypto_sign_ed25519_sk_to_pk', 'privateKey', { fail: 'invalid key' })
def('crypto_sign_ed25519_sk_to_seed', 'privateKey', { fail: 'invalid key' })

// crypto_stream_* (crypto_stream_chacha20 takes key before nonce in libsodium-wrappers)
def('crypto_stream_keygen', '')
def('crypto_stream_chacha20', 'outLength=c key=k nonce=n')
for (const p of ['crypto_stream_chacha20', 'crypto_stream_chacha20_ietf', 'crypto_stream_xchacha20']) {
  if (p !== 'crypto_stream_chacha20_ietf') def(`${p}_keygen`, '')
  def(`${p}_xor`, 'input_message nonce key')
  def(`${p}_xor_ic`, 'input_message nonce nonce_increment=ic key')
}

// crypto_xof_*
for (const x of ['shake128', 'shake256', 'turboshake128', 'turboshake256']) {
  const p = `crypto_xof_${x}`
  def(p, 'out_length=out message')
  def(`${p}_init`, '', { init: true })
  def(`${p}_init_with_domain`, 'domain', { init: true })
  def(`${p}_update`, 'state_address message_chunk')
  def(`${p}_squeeze`, 'state_address out_length=out')
}

// randombytes_*
def('randombytes_buf', 'length=buf')
def('randombytes_buf_deterministic', 'length=buf seed')
def('randombytes_random', '')
def('randombytes_uniform', 'upper_bound')

// sodium_bin2ip returns the address as a string; ip2bin takes one (adapters.js adds the check)
def('sodium_ip2bin', 'ip', { fail: 'invalid IP address' })
def('sodium_bin2ip', 'bin', { format: false, sizes: { ip: 46 }, fail: 'conversion failed', shape: (n, [ip]) => latin1(ip, n), ts: 'string' })

// crypto_pwhash_*_str return the hash string
for (const p of ['crypto_pwhash', 'crypto_pwhash_scryptsalsa208sha256']) {
  def(`${p}_str`, 'password opsLimit memLimit', { shape: (r, [out]) => latin1(out, out.indexOf(0)), ts: 'string' })
  // verify and needs_rehash take the string (adapters.js turns it into the raw STRBYTES buffer)
  def(`${p}_str_needs_rehash`, 'hashed_password opsLimit memLimit')
}

function latin1 (bytes, n) {
  return codecs.latin1(bytes, n)
}

module.exports = defs

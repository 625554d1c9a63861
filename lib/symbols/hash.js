'use strict'
// crypto_generichash, crypto_hash, crypto_xof, crypto_shorthash (src/hash.c).
const { out, buf, opt, num, state, fixed, between, atMost, spelled } = require('./kinds')

const INVALID_STATE = 'invalid state'

// crypto_generichash follows sodium-native: its one-shot checks BYTES_MIN and KEYBYTES_MIN, its
// init/final take libsodium's ranges (from 1 byte out, any key up to the maximum). The blake2b
// names are libsodium's own, with libsodium's ranges throughout.
function generichashStream (p) {
  const st = state('state', `${p}_STATEBYTES`)
  return {
    [`${p}_keygen`]: { args: [out('k', fixed(`${p}_KEYBYTES`))], returns: 'void' },
    [`${p}_init`]: {
      args: [st, opt('key', atMost(`${p}_KEYBYTES_MAX`)), Object.assign(num('outlen', [1, `${p}_BYTES_MAX`]), { example: `${p}_BYTES` })],
      returns: 'void'
    },
    [`${p}_update`]: { args: [st, buf('in')], returns: 'void', fails: INVALID_STATE, failsWhen: { state: 0xff } },
    [`${p}_final`]: {
      args: [st, out('out', between(1, `${p}_BYTES_MAX`), { apart: ['state'] })],
      returns: 'void',
      fails: INVALID_STATE,
      failsWhen: { state: 0xff }
    }
  }
}

// SHA-256, SHA-512, SHA3-256, SHA3-512: one-shot and streaming. A second SHA-3 final fails.
function hash (p) {
  // SHA-2 states index their buffer modulo the block size: any bytes are a usable state, none is
  // refused. A SHA-3 state with rate 0 is.
  const refusesState = p.includes('sha3') ? { fails: INVALID_STATE, failsWhen: { state: 0 } } : {}
  const st = state('state', `${p}_STATEBYTES`)
  const digest = (rules) => out('out', fixed(`${p}_BYTES`), rules)
  return {
    [p]: { args: [digest(), buf('in')], returns: 'void' },
    [`${p}_init`]: { args: [st], returns: 'void' },
    [`${p}_update`]: { args: [st, buf('in')], returns: 'void', ...refusesState },
    [`${p}_final`]: { args: [st, digest({ apart: ['state'] })], returns: 'void', ...refusesState }
  }
}

// SHAKE and TurboSHAKE: the output length is out's length. An update after a squeeze fails.
function xof (p) {
  const st = state('state', `${p}_STATEBYTES`)
  return {
    [p]: { args: [out('out'), buf('in')], returns: 'void' },
    [`${p}_init`]: { args: [st], returns: 'void' },
    [`${p}_init_with_domain`]: {
      args: [st, Object.assign(num('domain', [1, 255]), { example: `${p}_DOMAIN_STANDARD` })],
      returns: 'void'
    },
    [`${p}_update`]: { args: [st, buf('in')], returns: 'void', fails: INVALID_STATE, failsWhen: { state: 0xff } },
    [`${p}_squeeze`]: { args: [st, out('out', undefined, { apart: ['state'] })], returns: 'void', fails: INVALID_STATE, failsWhen: { state: 0xff } }
  }
}

function shorthash (p) {
  return { [p]: { args: [out('out', fixed(`${p}_BYTES`)), buf('in'), buf('k', fixed(`${p}_KEYBYTES`))], returns: 'void' } }
}

const gh = 'crypto_generichash'
const b2 = 'crypto_generichash_blake2b'
const salt = opt('salt', fixed(`${b2}_SALTBYTES`))
const personal = opt('personal', fixed(`${b2}_PERSONALBYTES`))

module.exports = {
  crypto_generichash: {
    args: [out('out', between(`${gh}_BYTES_MIN`, `${gh}_BYTES_MAX`)), buf('in'), opt('key', between(`${gh}_KEYBYTES_MIN`, `${gh}_KEYBYTES_MAX`))],
    returns: 'void'
  },
  ...spelled(generichashStream(gh),
    'crypto_generichash_keygen', 'crypto_generichash_init', 'crypto_generichash_update',
    'crypto_generichash_final'),
  crypto_generichash_blake2b: {
    args: [out('out', between(1, `${b2}_BYTES_MAX`)), buf('in'), opt('key', atMost(`${b2}_KEYBYTES_MAX`))],
    returns: 'void'
  },
  ...spelled(generichashStream(b2),
    'crypto_generichash_blake2b_keygen', 'crypto_generichash_blake2b_init',
    'crypto_generichash_blake2b_update', 'crypto_generichash_blake2b_final'),
  crypto_generichash_blake2b_salt_personal: {
    args: [out('out', between(1, `${b2}_BYTES_MAX`)), buf('in'), opt('key', atMost(`${b2}_KEYBYTES_MAX`)), salt, personal],
    returns: 'void'
  },
  crypto_generichash_blake2b_init_salt_personal: {
    args: [state('state', `${b2}_STATEBYTES`), opt('key', atMost(`${b2}_KEYBYTES_MAX`)),
      Object.assign(num('outlen', [1, `${b2}_BYTES_MAX`]), { example: `${b2}_BYTES` }), salt, personal],
    returns: 'void'
  },

  crypto_hash: { args: [out('out', fixed('crypto_hash_BYTES')), buf('in')], returns: 'void' },
  ...spelled(hash('crypto_hash_sha256'),
    'crypto_hash_sha256', 'crypto_hash_sha256_init', 'crypto_hash_sha256_update', 'crypto_hash_sha256_final'),
  ...spelled(hash('crypto_hash_sha512'),
    'crypto_hash_sha512', 'crypto_hash_sha512_init', 'crypto_hash_sha512_update', 'crypto_hash_sha512_final'),
  ...spelled(hash('crypto_hash_sha3256'),
    'crypto_hash_sha3256', 'crypto_hash_sha3256_init', 'crypto_hash_sha3256_update',
    'crypto_hash_sha3256_final'),
  ...spelled(hash('crypto_hash_sha3512'),
    'crypto_hash_sha3512', 'crypto_hash_sha3512_init', 'crypto_hash_sha3512_update',
    'crypto_hash_sha3512_final'),

  ...spelled(xof('crypto_xof_shake128'),
    'crypto_xof_shake128', 'crypto_xof_shake128_init', 'crypto_xof_shake128_init_with_domain',
    'crypto_xof_shake128_update', 'crypto_xof_shake128_squeeze'),
  ...spelled(xof('crypto_xof_shake256'),
    'crypto_xof_shake256', 'crypto_xof_shake256_init', 'crypto_xof_shake256_init_with_domain',
    'crypto_xof_shake256_update', 'crypto_xof_shake256_squeeze'),
  ...spelled(xof('crypto_xof_turboshake128'),
    'crypto_xof_turboshake128', 'crypto_xof_turboshake128_init', 'crypto_xof_turboshake128_init_with_domain',
    'crypto_xof_turboshake128_update', 'crypto_xof_turboshake128_squeeze'),
  ...spelled(xof('crypto_xof_turboshake256'),
    'crypto_xof_turboshake256', 'crypto_xof_turboshake256_init', 'crypto_xof_turboshake256_init_with_domain',
    'crypto_xof_turboshake256_update', 'crypto_xof_turboshake256_squeeze'),

  ...spelled(shorthash('crypto_shorthash'),
    'crypto_shorthash'),
  ...spelled(shorthash('crypto_shorthash_siphash24'),
    'crypto_shorthash_siphash24'),
  ...spelled(shorthash('crypto_shorthash_siphashx24'),
    'crypto_shorthash_siphashx24'),
  crypto_shorthash_keygen: { args: [out('k', fixed('crypto_shorthash_KEYBYTES'))], returns: 'void' }
}

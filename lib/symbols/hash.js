'use strict'
// crypto_generichash, crypto_hash, crypto_xof, crypto_shorthash (src/hash.c).
const { out, buf, opt, num, state, fixed, between, atMost } = require('./kinds')

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
    [`${p}_update`]: { args: [st, buf('in')], returns: 'void', fails: INVALID_STATE },
    [`${p}_final`]: {
      args: [st, out('out', between(1, `${p}_BYTES_MAX`), { apart: ['state'] })],
      returns: 'void',
      fails: INVALID_STATE
    }
  }
}

// SHA-256, SHA-512, SHA3-256, SHA3-512: one-shot and streaming. A second SHA-3 final fails.
function hash (p) {
  const st = state('state', `${p}_STATEBYTES`)
  const digest = (rules) => out('out', fixed(`${p}_BYTES`), rules)
  return {
    [p]: { args: [digest(), buf('in')], returns: 'void' },
    [`${p}_init`]: { args: [st], returns: 'void' },
    [`${p}_update`]: { args: [st, buf('in')], returns: 'void', fails: INVALID_STATE },
    [`${p}_final`]: { args: [st, digest({ apart: ['state'] })], returns: 'void', fails: INVALID_STATE }
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
    [`${p}_update`]: { args: [st, buf('in')], returns: 'void', fails: INVALID_STATE },
    [`${p}_squeeze`]: { args: [st, out('out', undefined, { apart: ['state'] })], returns: 'void', fails: INVALID_STATE }
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
  [gh]: {
    args: [out('out', between(`${gh}_BYTES_MIN`, `${gh}_BYTES_MAX`)), buf('in'), opt('key', between(`${gh}_KEYBYTES_MIN`, `${gh}_KEYBYTES_MAX`))],
    returns: 'void'
  },
  ...generichashStream(gh),
  [b2]: {
    args: [out('out', between(1, `${b2}_BYTES_MAX`)), buf('in'), opt('key', atMost(`${b2}_KEYBYTES_MAX`))],
    returns: 'void'
  },
  ...generichashStream(b2),
  [`${b2}_salt_personal`]: {
    args: [out('out', between(1, `${b2}_BYTES_MAX`)), buf('in'), opt('key', atMost(`${b2}_KEYBYTES_MAX`)), salt, personal],
    returns: 'void'
  },
  [`${b2}_init_salt_personal`]: {
    args: [state('state', `${b2}_STATEBYTES`), opt('key', atMost(`${b2}_KEYBYTES_MAX`)),
      Object.assign(num('outlen', [1, `${b2}_BYTES_MAX`]), { example: `${b2}_BYTES` }), salt, personal],
    returns: 'void'
  },

  crypto_hash: { args: [out('out', fixed('crypto_hash_BYTES')), buf('in')], returns: 'void' },
  ...hash('crypto_hash_sha256'),
  ...hash('crypto_hash_sha512'),
  ...hash('crypto_hash_sha3256'),
  ...hash('crypto_hash_sha3512'),

  ...xof('crypto_xof_shake128'),
  ...xof('crypto_xof_shake256'),
  ...xof('crypto_xof_turboshake128'),
  ...xof('crypto_xof_turboshake256'),

  ...shorthash('crypto_shorthash'),
  ...shorthash('crypto_shorthash_siphash24'),
  ...shorthash('crypto_shorthash_siphashx24'),
  crypto_shorthash_keygen: { args: [out('k', fixed('crypto_shorthash_KEYBYTES'))], returns: 'void' }
}

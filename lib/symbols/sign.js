'use strict'
// crypto_sign_*: Ed25519, ed25519ph streaming, key conversions, and sodium-native's
// extension_tweak_ed25519_* (src/sign.c, src/crypto/tweak.c).
const { out, buf, opt, state, fixed, plus, minus, atLeast, either, spelled } = require('./kinds')

// crypto_sign_* and crypto_sign_ed25519_* share one shape (sodium-native's for the former).
function sign (p) {
  const pk = (apart) => out('pk', fixed(`${p}_PUBLICKEYBYTES`), { apart })
  const sk = fixed(`${p}_SECRETKEYBYTES`)
  return {
    [`${p}_keypair`]: { args: [pk(['sk']), out('sk', sk)], returns: 'void' },
    [`${p}_seed_keypair`]: {
      args: [pk(['sk', 'seed']), out('sk', sk, { apart: ['seed'] }), buf('seed', fixed(`${p}_SEEDBYTES`))],
      returns: 'void'
    },
    [p]: { args: [out('sm', plus('m', `${p}_BYTES`), { apart: ['sk'] }), buf('m'), buf('sk', sk)], returns: 'void' },
    [`${p}_open`]: {
      args: [out('m', minus('sm', `${p}_BYTES`)), buf('sm', atLeast(`${p}_BYTES`)), buf('pk', fixed(`${p}_PUBLICKEYBYTES`))],
      returns: 'bool'
    },
    [`${p}_detached`]: {
      args: [out('sig', fixed(`${p}_BYTES`), { apart: ['m'] }), buf('m'), buf('sk', sk)],
      returns: 'void'
    },
    // a longer sig is accepted, as in sodium-native, but answered false (sodium-native checked its head)
    [`${p}_verify_detached`]: {
      args: [buf('sig', atLeast(`${p}_BYTES`)), buf('m'), buf('pk', fixed(`${p}_PUBLICKEYBYTES`))],
      returns: 'bool'
    }
  }
}

// Ed25519ph: the state is a caller-held buffer; final_create/final_verify wipe it.
function prehashed (p, statebytes) {
  const st = state('state', statebytes)
  return {
    [`${p}_init`]: { args: [st], returns: 'void' },
    [`${p}_update`]: { args: [st, buf('m')], returns: 'void' },
    [`${p}_final_create`]: {
      args: [st, out('sig', fixed('crypto_sign_BYTES'), { apart: ['state'] }), buf('sk', fixed('crypto_sign_SECRETKEYBYTES'))],
      returns: 'void'
    },
    [`${p}_final_verify`]: {
      args: [st, buf('sig', fixed('crypto_sign_BYTES')), buf('pk', fixed('crypto_sign_PUBLICKEYBYTES'))],
      returns: 'bool'
    }
  }
}

const PK = fixed('crypto_sign_PUBLICKEYBYTES')
const SK = fixed('crypto_sign_SECRETKEYBYTES')
const T = fixed('extension_tweak_ed25519_BYTES')
const TS = fixed('extension_tweak_ed25519_SCALARBYTES')

module.exports = {
  ...spelled(sign('crypto_sign'),
    'crypto_sign_keypair', 'crypto_sign_seed_keypair', 'crypto_sign', 'crypto_sign_open',
    'crypto_sign_detached', 'crypto_sign_verify_detached'),
  ...spelled(sign('crypto_sign_ed25519'),
    'crypto_sign_ed25519_keypair', 'crypto_sign_ed25519_seed_keypair', 'crypto_sign_ed25519',
    'crypto_sign_ed25519_open', 'crypto_sign_ed25519_detached', 'crypto_sign_ed25519_verify_detached'),
  crypto_sign_ed25519_sk_to_pk: { args: [out('pk', PK), buf('sk', SK)], returns: 'void' },
  crypto_sign_ed25519_sk_to_seed: { args: [out('seed', fixed('crypto_sign_SEEDBYTES')), buf('sk', SK)], returns: 'void' },
  crypto_sign_ed25519_pk_to_curve25519: {
    args: [out('x25519pk', fixed('crypto_box_PUBLICKEYBYTES')), buf('ed25519pk', PK)],
    returns: 'void',
    fails: 'crypto_sign_ed25519_pk_to_curve25519 failed',
    failsWhen: { ed25519pk: 0 }
  },
  // A full secret key or its 32-byte seed; nothing in between (LEN_EITHER in src/sign.c).
  crypto_sign_ed25519_sk_to_curve25519: {
    args: [
      out('x25519sk', fixed('crypto_box_SECRETKEYBYTES')),
      buf('ed25519sk', either('crypto_sign_SEEDBYTES', 'crypto_sign_SECRETKEYBYTES'))
    ],
    returns: 'void'
  },
  ...spelled(prehashed('crypto_sign', 'crypto_sign_STATEBYTES'),
    'crypto_sign_init', 'crypto_sign_update', 'crypto_sign_final_create', 'crypto_sign_final_verify'),
  ...spelled(prehashed('crypto_sign_ed25519ph', 'crypto_sign_ed25519ph_STATEBYTES'),
    'crypto_sign_ed25519ph_init', 'crypto_sign_ed25519ph_update', 'crypto_sign_ed25519ph_final_create',
    'crypto_sign_ed25519ph_final_verify'),

  extension_tweak_ed25519_base: { args: [out('n', TS, { apart: ['p'] }), out('p', T), buf('ns')], returns: 'void' },
  extension_tweak_ed25519_sk_to_scalar: { args: [out('n', TS), buf('sk', SK)], returns: 'void' },
  extension_tweak_ed25519_scalar: { args: [out('scalarOut', TS), buf('scalar', TS), buf('ns')], returns: 'void' },
  extension_tweak_ed25519_pk: {
    args: [out('tpk', PK), buf('pk', PK), buf('ns')],
    returns: 'void',
    fails: 'failed to tweak public key',
    failsWhen: { pk: '02' }
  },
  extension_tweak_ed25519_keypair: {
    args: [out('pk', T, { apart: ['scalarOut'] }), out('scalarOut', TS), buf('scalarIn', TS), buf('ns')],
    returns: 'void'
  },
  extension_tweak_ed25519_scalar_add: { args: [out('scalarOut', TS), buf('scalar', TS), buf('n', TS)], returns: 'void' },
  extension_tweak_ed25519_pk_add: {
    args: [out('tpk', PK), buf('pk', PK), buf('p', PK)],
    returns: 'void',
    fails: 'failed to add tweak to public key',
    failsWhen: { pk: '02' }
  },
  extension_tweak_ed25519_keypair_add: {
    args: [out('pk', T, { apart: ['scalarOut'] }), out('scalarOut', TS), buf('scalarIn', TS), buf('tweak', TS)],
    returns: 'void',
    fails: 'failed to add tweak to keypair',
    failsWhen: { scalarIn: 0, tweak: 0 }
  },
  extension_tweak_ed25519_sign_detached: {
    args: [out('sig', fixed('crypto_sign_BYTES')), buf('m'), buf('scalar', TS), opt('pk', PK)],
    returns: 'void',
    fails: 'failed to compute signature',
    failsWhen: { scalar: 0, pk: null }
  }
}

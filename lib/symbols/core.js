'use strict'
// crypto_core_* (Ed25519/Ristretto255 arithmetic, HChaCha20/HSalsa20/Salsa20 cores, Keccak-p[1600])
// and crypto_scalarmult_* (src/core.c). Group operations throw when libsodium
// refuses a point or an identity result; scalar arithmetic never fails except inverting zero in
// Ristretto255 (Ed25519's invert ignores that answer, as sodium-native does).
const { out, buf, opt, num, state, fixed, atMost, spelled } = require('./kinds')

function group (g, extra) {
  // a point encoding that does not decode: y = 2 is not on Edwards25519; 0xff... is not canonical
  const badPoint = g === 'crypto_core_ed25519' ? '02' : 0xff
  const P = fixed(`${g}_BYTES`)
  const S = fixed(`${g}_SCALARBYTES`)
  const unary = (o) => ({ args: [out(o, S), buf('s', S)], returns: 'void' })
  const binary = { args: [out('z', S), buf('x', S), buf('y', S)], returns: 'void' }
  return {
    [`${g}_is_valid_point`]: { args: [buf('p', P)], returns: 'bool' },
    [`${g}_add`]: { args: [out('r', P), buf('p', P), buf('q', P)], returns: 'void', fails: `${g}_add failed`, failsWhen: { p: badPoint } },
    [`${g}_sub`]: { args: [out('r', P), buf('p', P), buf('q', P)], returns: 'void', fails: `${g}_sub failed`, failsWhen: { p: badPoint } },
    [`${g}_random`]: { args: [out('p', P)], returns: 'void' },
    [`${g}_scalar_random`]: { args: [out('r', S)], returns: 'void' },
    [`${g}_scalar_invert`]: unary('recip'),
    [`${g}_scalar_negate`]: unary('neg'),
    [`${g}_scalar_complement`]: unary('comp'),
    [`${g}_scalar_add`]: binary,
    [`${g}_scalar_sub`]: binary,
    [`${g}_scalar_mul`]: binary,
    [`${g}_scalar_reduce`]: { args: [out('r', S), buf('s', fixed(`${g}_NONREDUCEDSCALARBYTES`))], returns: 'void' },
    ...extra
  }
}

// out = core(in, k, c); c null means the standard constant.
function keyed (c) {
  return {
    [c]: {
      args: [out('out', fixed(`${c}_OUTPUTBYTES`)), buf('in', fixed(`${c}_INPUTBYTES`)), buf('k', fixed(`${c}_KEYBYTES`)), opt('c', fixed(`${c}_CONSTBYTES`))],
      returns: 'void'
    }
  }
}

// q = n * p and q = n * base; K names the constants.
function scalarmult (s, K = s) {
  return {
    [s]: {
      args: [out('q', fixed(`${K}_BYTES`), { inPlace: ['n'] }), buf('n', fixed(`${K}_SCALARBYTES`)), buf('p', fixed(`${K}_BYTES`))],
      returns: 'void',
      fails: `${s} failed`,
      // X25519: small order, an all-zero result; Ed25519: small order; Ristretto255: the identity
      failsWhen: { p: 0 }
    }
  }
}

function scalarmultBase (s, K) {
  return {
    [s]: {
      args: [out('q', fixed(`${K}_BYTES`), { inPlace: ['n'] }), buf('n', fixed(`${K}_SCALARBYTES`))],
      returns: 'void',
      fails: `${s} failed`,
      // X25519 clamps n, so its base-point product is never zero; Ed25519 and Ristretto255 refuse n = 0
      failsWhen: /curve25519$|^crypto_scalarmult$/.test(K) ? 'unreachable' : { n: 0 }
    }
  }
}

// Keccak-p[1600] on a caller-held state. The real bound on bytes is 200 - offset (checked in C);
// kinds.js cannot relate a length to a number argument, so the table says at most 200.
function keccak () {
  const st = state('state', 'crypto_core_keccak1600_STATEBYTES')
  const offset = num('offset', [0, 200])
  const p = 'crypto_core_keccak1600'
  return {
    [`${p}_init`]: { args: [st], returns: 'void' },
    [`${p}_xor_bytes`]: { args: [st, buf('bytes', atMost(200)), offset], returns: 'void' },
    [`${p}_extract_bytes`]: { args: [st, out('bytes', atMost(200), { apart: ['state'] }), offset], returns: 'void' },
    [`${p}_permute_24`]: { args: [st], returns: 'void' },
    [`${p}_permute_12`]: { args: [st], returns: 'void' }
  }
}

const ed = 'crypto_core_ed25519'
const ri = 'crypto_core_ristretto255'

module.exports = {
  ...spelled(group(ed, {
    [`${ed}_from_uniform`]: { args: [out('p', fixed(`${ed}_BYTES`), { inPlace: ['r'] }), buf('r', fixed(`${ed}_UNIFORMBYTES`))], returns: 'void' },
    [`${ed}_from_hash`]: { args: [out('p', fixed(`${ed}_BYTES`)), buf('h', fixed(`${ed}_HASHBYTES`))], returns: 'void' }
  }),
    'crypto_core_ed25519_is_valid_point', 'crypto_core_ed25519_add', 'crypto_core_ed25519_sub',
    'crypto_core_ed25519_random', 'crypto_core_ed25519_scalar_random', 'crypto_core_ed25519_scalar_invert',
    'crypto_core_ed25519_scalar_negate', 'crypto_core_ed25519_scalar_complement',
    'crypto_core_ed25519_scalar_add', 'crypto_core_ed25519_scalar_sub', 'crypto_core_ed25519_scalar_mul',
    'crypto_core_ed25519_scalar_reduce', 'crypto_core_ed25519_from_uniform', 'crypto_core_ed25519_from_hash'),
  ...spelled(group(ri, {
    [`${ri}_from_hash`]: { args: [out('p', fixed(`${ri}_BYTES`)), buf('r', fixed(`${ri}_HASHBYTES`))], returns: 'void' },
    [`${ri}_scalar_invert`]: {
      args: [out('recip', fixed(`${ri}_SCALARBYTES`)), buf('s', fixed(`${ri}_SCALARBYTES`))],
      returns: 'void',
      fails: `${ri}_scalar_invert failed`,
      failsWhen: { s: 0 }
    }
  }),
    'crypto_core_ristretto255_is_valid_point', 'crypto_core_ristretto255_add', 'crypto_core_ristretto255_sub',
    'crypto_core_ristretto255_random', 'crypto_core_ristretto255_scalar_random',
    'crypto_core_ristretto255_scalar_invert', 'crypto_core_ristretto255_scalar_negate',
    'crypto_core_ristretto255_scalar_complement', 'crypto_core_ristretto255_scalar_add',
    'crypto_core_ristretto255_scalar_sub', 'crypto_core_ristretto255_scalar_mul',
    'crypto_core_ristretto255_scalar_reduce', 'crypto_core_ristretto255_from_hash'),
  ...spelled(keyed('crypto_core_hchacha20'),
    'crypto_core_hchacha20'),
  ...spelled(keyed('crypto_core_hsalsa20'),
    'crypto_core_hsalsa20'),
  ...spelled(keyed('crypto_core_salsa20'),
    'crypto_core_salsa20'),
  ...spelled(keyed('crypto_core_salsa2012'),
    'crypto_core_salsa2012'),
  ...spelled(keyed('crypto_core_salsa208'),
    'crypto_core_salsa208'),
  ...spelled(keccak(),
    'crypto_core_keccak1600_init', 'crypto_core_keccak1600_xor_bytes', 'crypto_core_keccak1600_extract_bytes',
    'crypto_core_keccak1600_permute_24', 'crypto_core_keccak1600_permute_12'),
  ...spelled(scalarmult('crypto_scalarmult'),
    'crypto_scalarmult'),
  ...spelled(scalarmultBase('crypto_scalarmult_base', 'crypto_scalarmult'),
    'crypto_scalarmult_base'),
  ...spelled(scalarmult('crypto_scalarmult_curve25519'),
    'crypto_scalarmult_curve25519'),
  ...spelled(scalarmultBase('crypto_scalarmult_curve25519_base', 'crypto_scalarmult_curve25519'),
    'crypto_scalarmult_curve25519_base'),
  ...spelled(scalarmult('crypto_scalarmult_ed25519'),
    'crypto_scalarmult_ed25519'),
  ...spelled(scalarmultBase('crypto_scalarmult_ed25519_base', 'crypto_scalarmult_ed25519'),
    'crypto_scalarmult_ed25519_base'),
  ...spelled(scalarmult('crypto_scalarmult_ed25519_noclamp', 'crypto_scalarmult_ed25519'),
    'crypto_scalarmult_ed25519_noclamp'),
  ...spelled(scalarmultBase('crypto_scalarmult_ed25519_base_noclamp', 'crypto_scalarmult_ed25519'),
    'crypto_scalarmult_ed25519_base_noclamp'),
  ...spelled(scalarmult('crypto_scalarmult_ristretto255'),
    'crypto_scalarmult_ristretto255'),
  ...spelled(scalarmultBase('crypto_scalarmult_ristretto255_base', 'crypto_scalarmult_ristretto255'),
    'crypto_scalarmult_ristretto255_base')
}

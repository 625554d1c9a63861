'use strict'
// crypto_auth, crypto_auth_hmacsha256/512/512256 and crypto_onetimeauth(_poly1305) (src/auth.c).
// Every MAC has the one-shot trio p(out, in, k), p_verify(h, in, k) -> boolean, p_keygen(k);
// the HMACs and Poly1305 also stream through p_init(state, key), p_update(state, in),
// p_final(state, out). HMAC keys for *_init may have any length; Poly1305 keys are KEYBYTES.
const { out, buf, state, fixed, spelled } = require('./kinds')

function mac (p) {
  const key = fixed(`${p}_KEYBYTES`)
  return {
    [p]: { args: [out('out', fixed(`${p}_BYTES`)), buf('in'), buf('k', key)], returns: 'void' },
    [`${p}_verify`]: { args: [buf('h', fixed(`${p}_BYTES`)), buf('in'), buf('k', key)], returns: 'bool' },
    [`${p}_keygen`]: { args: [out('k', key)], returns: 'void' }
  }
}

function stream (p, keyLen) {
  const st = state('state', `${p}_STATEBYTES`)
  return {
    [`${p}_init`]: { args: [st, buf('key', keyLen)], returns: 'void' },
    [`${p}_update`]: { args: [st, buf('in')], returns: 'void' },
    [`${p}_final`]: { args: [st, out('out', fixed(`${p}_BYTES`), { apart: ['state'] })], returns: 'void' }
  }
}

const hmac = (p) => ({ ...mac(p), ...stream(p) })
const poly1305 = (p) => ({ ...mac(p), ...stream(p, fixed(`${p}_KEYBYTES`)) })

module.exports = {
  ...spelled(mac('crypto_auth'),
    'crypto_auth', 'crypto_auth_verify', 'crypto_auth_keygen'),
  ...spelled(hmac('crypto_auth_hmacsha256'),
    'crypto_auth_hmacsha256', 'crypto_auth_hmacsha256_verify', 'crypto_auth_hmacsha256_keygen',
    'crypto_auth_hmacsha256_init', 'crypto_auth_hmacsha256_update', 'crypto_auth_hmacsha256_final'),
  ...spelled(hmac('crypto_auth_hmacsha512'),
    'crypto_auth_hmacsha512', 'crypto_auth_hmacsha512_verify', 'crypto_auth_hmacsha512_keygen',
    'crypto_auth_hmacsha512_init', 'crypto_auth_hmacsha512_update', 'crypto_auth_hmacsha512_final'),
  ...spelled(hmac('crypto_auth_hmacsha512256'),
    'crypto_auth_hmacsha512256', 'crypto_auth_hmacsha512256_verify', 'crypto_auth_hmacsha512256_keygen',
    'crypto_auth_hmacsha512256_init', 'crypto_auth_hmacsha512256_update', 'crypto_auth_hmacsha512256_final'),
  ...spelled(poly1305('crypto_onetimeauth'),
    'crypto_onetimeauth', 'crypto_onetimeauth_verify', 'crypto_onetimeauth_keygen', 'crypto_onetimeauth_init',
    'crypto_onetimeauth_update', 'crypto_onetimeauth_final'),
  ...spelled(poly1305('crypto_onetimeauth_poly1305'),
    'crypto_onetimeauth_poly1305', 'crypto_onetimeauth_poly1305_verify', 'crypto_onetimeauth_poly1305_keygen',
    'crypto_onetimeauth_poly1305_init', 'crypto_onetimeauth_poly1305_update',
    'crypto_onetimeauth_poly1305_final')
}

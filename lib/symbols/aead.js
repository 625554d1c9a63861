'use strict'
// crypto_aead_*: six constructions with one calling convention (src/aead.c).
const { out, buf, opt, nul, state, fixed, plus, minus, same, atLeast, spelled } = require('./kinds')

function aead (name) {
  const p = `crypto_aead_${name}`
  const npub = buf('npub', fixed(`${p}_NPUBBYTES`))
  const k = buf('k', fixed(`${p}_KEYBYTES`))
  return {
    [`${p}_encrypt`]: {
      args: [out('c', plus('m', `${p}_ABYTES`), { inPlace: ['m'] }), buf('m'), opt('ad'), nul('nsec'), npub, k],
      returns: 'number'
    },
    [`${p}_decrypt`]: {
      args: [out('m', minus('c', `${p}_ABYTES`), { inPlace: ['c'] }), nul('nsec'), buf('c', atLeast(`${p}_ABYTES`)), opt('ad'), npub, k],
      returns: 'number',
      fails: 'could not verify data',
      failsWhen: { c: 0 }
    },
    [`${p}_encrypt_detached`]: {
      args: [out('c', same('m'), { inPlace: ['m'] }), out('mac', fixed(`${p}_ABYTES`), { apart: ['c', 'm'] }), buf('m'), opt('ad'), nul('nsec'), npub, k],
      returns: 'number'
    },
    [`${p}_decrypt_detached`]: {
      args: [out('m', same('c'), { inPlace: ['c'], apart: ['mac'] }), nul('nsec'), buf('c'), buf('mac', fixed(`${p}_ABYTES`)), opt('ad'), npub, k],
      returns: 'void',
      fails: 'could not verify data',
      failsWhen: { mac: 0 }
    },
    [`${p}_keygen`]: { args: [out('k', fixed(`${p}_KEYBYTES`))], returns: 'void' }
  }
}

const gcm = 'crypto_aead_aes256gcm'
const ctx = state('ctx', 'crypto_aead_aes256gcm_STATEBYTES')
const npub = buf('npub', fixed(`${gcm}_NPUBBYTES`))

module.exports = {
  ...spelled(aead('xchacha20poly1305_ietf'),
    'crypto_aead_xchacha20poly1305_ietf_encrypt', 'crypto_aead_xchacha20poly1305_ietf_decrypt',
    'crypto_aead_xchacha20poly1305_ietf_encrypt_detached',
    'crypto_aead_xchacha20poly1305_ietf_decrypt_detached', 'crypto_aead_xchacha20poly1305_ietf_keygen'),
  ...spelled(aead('chacha20poly1305_ietf'),
    'crypto_aead_chacha20poly1305_ietf_encrypt', 'crypto_aead_chacha20poly1305_ietf_decrypt',
    'crypto_aead_chacha20poly1305_ietf_encrypt_detached',
    'crypto_aead_chacha20poly1305_ietf_decrypt_detached', 'crypto_aead_chacha20poly1305_ietf_keygen'),
  ...spelled(aead('chacha20poly1305'),
    'crypto_aead_chacha20poly1305_encrypt', 'crypto_aead_chacha20poly1305_decrypt',
    'crypto_aead_chacha20poly1305_encrypt_detached', 'crypto_aead_chacha20poly1305_decrypt_detached',
    'crypto_aead_chacha20poly1305_keygen'),
  ...spelled(aead('aegis128l'),
    'crypto_aead_aegis128l_encrypt', 'crypto_aead_aegis128l_decrypt',
    'crypto_aead_aegis128l_encrypt_detached', 'crypto_aead_aegis128l_decrypt_detached',
    'crypto_aead_aegis128l_keygen'),
  ...spelled(aead('aegis256'),
    'crypto_aead_aegis256_encrypt', 'crypto_aead_aegis256_decrypt', 'crypto_aead_aegis256_encrypt_detached',
    'crypto_aead_aegis256_decrypt_detached', 'crypto_aead_aegis256_keygen'),
  ...spelled(aead('aes256gcm'),
    'crypto_aead_aes256gcm_encrypt', 'crypto_aead_aes256gcm_decrypt',
    'crypto_aead_aes256gcm_encrypt_detached', 'crypto_aead_aes256gcm_decrypt_detached',
    'crypto_aead_aes256gcm_keygen'),
  crypto_aead_aes256gcm_is_available: { args: [], returns: 'bool' },
  crypto_aead_aes256gcm_beforenm: {
    args: [ctx, buf('k', fixed(`${gcm}_KEYBYTES`))],
    returns: 'void'
  },
  crypto_aead_aes256gcm_encrypt_afternm: {
    args: [out('c', plus('m', `${gcm}_ABYTES`), { inPlace: ['m'], apart: ['ctx'] }), buf('m'), opt('ad'), nul('nsec'), npub, ctx],
    returns: 'number',
    fails: 'invalid state',
    failsWhen: { ctx: 0 }
  },
  crypto_aead_aes256gcm_decrypt_afternm: {
    args: [out('m', minus('c', `${gcm}_ABYTES`), { inPlace: ['c'], apart: ['ctx'] }), nul('nsec'), buf('c', atLeast(`${gcm}_ABYTES`)), opt('ad'), npub, ctx],
    returns: 'number',
    fails: 'could not verify data',
    failsWhen: { c: 0 }
  },
  crypto_aead_aes256gcm_encrypt_detached_afternm: {
    args: [out('c', same('m'), { inPlace: ['m'], apart: ['ctx'] }), out('mac', fixed(`${gcm}_ABYTES`), { apart: ['c', 'm', 'ctx'] }), buf('m'), opt('ad'), nul('nsec'), npub, ctx],
    returns: 'number',
    fails: 'invalid state',
    failsWhen: { ctx: 0 }
  },
  crypto_aead_aes256gcm_decrypt_detached_afternm: {
    args: [out('m', same('c'), { inPlace: ['c'], apart: ['mac', 'ctx'] }), nul('nsec'), buf('c'), buf('mac', fixed(`${gcm}_ABYTES`)), opt('ad'), npub, ctx],
    returns: 'void',
    fails: 'could not verify data',
    failsWhen: { mac: 0 }
  }
}

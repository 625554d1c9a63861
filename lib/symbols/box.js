'use strict'
// crypto_box, crypto_box_curve25519xchacha20poly1305, crypto_kx (src/box.c).
// Opening answers with a boolean (sodium-native); keypair/box/seal/beforenm throw when libsodium
// refuses (a public key of small order).
const { out, buf, fixed, plus, minus, same, atLeast, optOut, spelled } = require('./kinds')

// keypair, seed_keypair and beforenm: every box has them.
function keys (p) {
  const pk = buf('pk', fixed(`${p}_PUBLICKEYBYTES`))
  const sk = buf('sk', fixed(`${p}_SECRETKEYBYTES`))
  return {
    [`${p}_keypair`]: {
      args: [out('pk', fixed(`${p}_PUBLICKEYBYTES`), { apart: ['sk'] }), out('sk', fixed(`${p}_SECRETKEYBYTES`))],
      returns: 'void'
    },
    [`${p}_seed_keypair`]: {
      args: [out('pk', fixed(`${p}_PUBLICKEYBYTES`), { apart: ['sk'] }), out('sk', fixed(`${p}_SECRETKEYBYTES`)), buf('seed', fixed(`${p}_SEEDBYTES`))],
      returns: 'void'
    },
    [`${p}_beforenm`]: {
      args: [out('k', fixed(`${p}_BEFORENMBYTES`)), pk, sk],
      returns: 'void',
      fails: `${p}_beforenm failed`,
      failsWhen: { pk: 0 }
    }
  }
}

function box (p) {
  const n = buf('n', fixed(`${p}_NONCEBYTES`))
  const pk = buf('pk', fixed(`${p}_PUBLICKEYBYTES`))
  const sk = buf('sk', fixed(`${p}_SECRETKEYBYTES`))
  const k = buf('k', fixed(`${p}_BEFORENMBYTES`))
  const mac = (kind, rules) => kind('mac', fixed(`${p}_MACBYTES`), rules)
  return {
    ...keys(p),
    [`${p}_easy`]: {
      args: [out('c', plus('m', `${p}_MACBYTES`)), buf('m'), n, pk, sk],
      returns: 'void',
      fails: `${p}_easy failed`,
      failsWhen: { pk: 0 }
    },
    [`${p}_open_easy`]: {
      args: [out('m', minus('c', `${p}_MACBYTES`)), buf('c', atLeast(`${p}_MACBYTES`)), n, pk, sk],
      returns: 'bool'
    },
    [`${p}_detached`]: {
      args: [out('c', same('m')), mac(out, { apart: ['c'] }), buf('m'), n, pk, sk],
      returns: 'void',
      fails: `${p}_detached failed`,
      failsWhen: { pk: 0 }
    },
    [`${p}_open_detached`]: {
      args: [out('m', same('c')), buf('c'), mac(buf), n, pk, sk],
      returns: 'bool'
    },
    [`${p}_easy_afternm`]: {
      args: [out('c', plus('m', `${p}_MACBYTES`)), buf('m'), n, k],
      returns: 'void'
    },
    [`${p}_open_easy_afternm`]: {
      args: [out('m', minus('c', `${p}_MACBYTES`)), buf('c', atLeast(`${p}_MACBYTES`)), n, k],
      returns: 'bool'
    },
    [`${p}_detached_afternm`]: {
      args: [out('c', same('m')), mac(out, { apart: ['c'] }), buf('m'), n, k],
      returns: 'void'
    },
    [`${p}_open_detached_afternm`]: {
      args: [out('m', same('c')), buf('c'), mac(buf), n, k],
      returns: 'bool'
    },
    [`${p}_seal`]: {
      args: [out('c', plus('m', `${p}_SEALBYTES`)), buf('m'), pk],
      returns: 'void',
      fails: `${p}_seal failed`,
      failsWhen: { pk: 0 }
    },
    [`${p}_seal_open`]: {
      args: [out('m', minus('c', `${p}_SEALBYTES`)), buf('c', atLeast(`${p}_SEALBYTES`)), pk, sk],
      returns: 'bool'
    }
  }
}

// Session keys: rx or tx may be null (not both).
function session (side, peer) {
  const key = (name, rules) => optOut(name, fixed('crypto_kx_SESSIONKEYBYTES'), rules)
  return {
    args: [key('rx', { apart: ['tx'] }), key('tx'), buf(`${side}_pk`, fixed('crypto_kx_PUBLICKEYBYTES')),
      buf(`${side}_sk`, fixed('crypto_kx_SECRETKEYBYTES')), buf(`${peer}_pk`, fixed('crypto_kx_PUBLICKEYBYTES'))],
    returns: 'void',
    fails: `crypto_kx_${side}_session_keys failed`,
    failsWhen: { [`${peer}_pk`]: 0 }
  }
}

module.exports = {
  ...spelled(box('crypto_box'),
    'crypto_box_keypair', 'crypto_box_seed_keypair', 'crypto_box_beforenm', 'crypto_box_easy',
    'crypto_box_open_easy', 'crypto_box_detached', 'crypto_box_open_detached', 'crypto_box_easy_afternm',
    'crypto_box_open_easy_afternm', 'crypto_box_detached_afternm', 'crypto_box_open_detached_afternm',
    'crypto_box_seal', 'crypto_box_seal_open'),
  ...spelled(box('crypto_box_curve25519xchacha20poly1305'),
    'crypto_box_curve25519xchacha20poly1305_keypair', 'crypto_box_curve25519xchacha20poly1305_seed_keypair',
    'crypto_box_curve25519xchacha20poly1305_beforenm', 'crypto_box_curve25519xchacha20poly1305_easy',
    'crypto_box_curve25519xchacha20poly1305_open_easy', 'crypto_box_curve25519xchacha20poly1305_detached',
    'crypto_box_curve25519xchacha20poly1305_open_detached',
    'crypto_box_curve25519xchacha20poly1305_easy_afternm',
    'crypto_box_curve25519xchacha20poly1305_open_easy_afternm',
    'crypto_box_curve25519xchacha20poly1305_detached_afternm',
    'crypto_box_curve25519xchacha20poly1305_open_detached_afternm',
    'crypto_box_curve25519xchacha20poly1305_seal', 'crypto_box_curve25519xchacha20poly1305_seal_open'),
  ...spelled(keys('crypto_box_curve25519xsalsa20poly1305'),
    'crypto_box_curve25519xsalsa20poly1305_keypair', 'crypto_box_curve25519xsalsa20poly1305_seed_keypair',
    'crypto_box_curve25519xsalsa20poly1305_beforenm'),
  crypto_kx_keypair: {
    args: [out('pk', fixed('crypto_kx_PUBLICKEYBYTES'), { apart: ['sk'] }), out('sk', fixed('crypto_kx_SECRETKEYBYTES'))],
    returns: 'void'
  },
  crypto_kx_seed_keypair: {
    args: [out('pk', fixed('crypto_kx_PUBLICKEYBYTES'), { apart: ['sk'] }), out('sk', fixed('crypto_kx_SECRETKEYBYTES')), buf('seed', fixed('crypto_kx_SEEDBYTES'))],
    returns: 'void'
  },
  crypto_kx_client_session_keys: session('client', 'server'),
  crypto_kx_server_session_keys: session('server', 'client')
}

'use strict'
// crypto_secretbox (XSalsa20-Poly1305, XChaCha20-Poly1305, the NaCl zero-padded API) and
// crypto_secretstream_xchacha20poly1305 (src/secretbox.c).
const { out, buf, opt, num, state, fixed, plus, minus, same, atLeast, spelled } = require('./kinds')

function secretbox (p) {
  const n = buf('n', fixed(`${p}_NONCEBYTES`))
  const k = buf('k', fixed(`${p}_KEYBYTES`))
  const mac = (kind, rules) => kind('mac', fixed(`${p}_MACBYTES`), rules)
  return {
    [`${p}_easy`]: { args: [out('c', plus('m', `${p}_MACBYTES`)), buf('m'), n, k], returns: 'void' },
    [`${p}_open_easy`]: {
      args: [out('m', minus('c', `${p}_MACBYTES`)), buf('c', atLeast(`${p}_MACBYTES`)), n, k],
      returns: 'bool'
    },
    [`${p}_detached`]: { args: [out('c', same('m')), mac(out, { apart: ['c', 'm'] }), buf('m'), n, k], returns: 'void' },
    [`${p}_open_detached`]: { args: [out('m', same('c'), { apart: ['mac'] }), buf('c'), mac(buf), n, k], returns: 'bool' }
  }
}

// The NaCl API: m starts with ZEROBYTES zeros, c with BOXZEROBYTES zeros, both the same length.
function nacl (p) {
  const n = buf('n', fixed(`${p}_NONCEBYTES`))
  const k = buf('k', fixed(`${p}_KEYBYTES`))
  return {
    [p]: { args: [out('c', same('m'), { inPlace: ['m'] }), buf('m', atLeast(`${p}_ZEROBYTES`)), n, k], returns: 'void' },
    [`${p}_open`]: { args: [out('m', same('c'), { inPlace: ['c'] }), buf('c', atLeast(`${p}_ZEROBYTES`)), n, k], returns: 'bool' },
    [`${p}_keygen`]: { args: [out('k', fixed(`${p}_KEYBYTES`))], returns: 'void' }
  }
}

const ss = 'crypto_secretstream_xchacha20poly1305'
const ssState = state('state', `${ss}_STATEBYTES`)
const header = (kind, rules) => kind('header', fixed(`${ss}_HEADERBYTES`), rules)
const ssKey = buf('k', fixed(`${ss}_KEYBYTES`))

module.exports = {
  ...spelled(secretbox('crypto_secretbox'),
    'crypto_secretbox_easy', 'crypto_secretbox_open_easy', 'crypto_secretbox_detached',
    'crypto_secretbox_open_detached'),
  ...spelled(nacl('crypto_secretbox'),
    'crypto_secretbox', 'crypto_secretbox_open', 'crypto_secretbox_keygen'),
  ...spelled(nacl('crypto_secretbox_xsalsa20poly1305'),
    'crypto_secretbox_xsalsa20poly1305', 'crypto_secretbox_xsalsa20poly1305_open',
    'crypto_secretbox_xsalsa20poly1305_keygen'),
  ...spelled(secretbox('crypto_secretbox_xchacha20poly1305'),
    'crypto_secretbox_xchacha20poly1305_easy', 'crypto_secretbox_xchacha20poly1305_open_easy',
    'crypto_secretbox_xchacha20poly1305_detached', 'crypto_secretbox_xchacha20poly1305_open_detached'),

  crypto_secretstream_xchacha20poly1305_keygen: { args: [out('k', fixed(`${ss}_KEYBYTES`))], returns: 'void' },
  crypto_secretstream_xchacha20poly1305_init_push: { args: [ssState, header(out, { apart: ['state'] }), ssKey], returns: 'void' },
  crypto_secretstream_xchacha20poly1305_init_pull: { args: [ssState, header(buf), ssKey], returns: 'void' },
  // m is also limited to MESSAGEBYTES_MAX (256 GiB), which the table does not spell
  crypto_secretstream_xchacha20poly1305_push: {
    args: [ssState, out('c', plus('m', `${ss}_ABYTES`), { apart: ['m', 'state'] }), buf('m'), opt('ad'), num('tag', [0, 255])],
    returns: 'number',
    fails: 'push failed',
    failsWhen: 'unreachable'
  },
  crypto_secretstream_xchacha20poly1305_pull: {
    args: [ssState, out('m', minus('c', `${ss}_ABYTES`), { apart: ['c', 'state'] }), out('tag', fixed(1), { apart: ['m', 'c', 'state'] }),
      buf('c', atLeast(`${ss}_ABYTES`)), opt('ad')],
    returns: 'number',
    fails: 'pull failed',
    failsWhen: { c: 0 }
  },
  crypto_secretstream_xchacha20poly1305_rekey: { args: [ssState], returns: 'void' }
}

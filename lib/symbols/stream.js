'use strict'
// crypto_stream_*: keystream, xor, xor_ic and keygen per primitive, and sodium-native's stateful
// XOR API with its *_wrap_* aliases (src/stream.c).
const { out, buf, num, state, fixed, same, spelled } = require('./kinds')

// 64-bit block counters take any integer a JS number holds exactly.
const IC_MAX = Number.MAX_SAFE_INTEGER

function stream (p, { ic, stateful } = {}) {
  const n = buf('n', fixed(`${p}_NONCEBYTES`))
  const k = buf('k', fixed(`${p}_KEYBYTES`))
  const entries = {
    // c (keystream) and m (xor) are also limited to MESSAGEBYTES_MAX, which binds only for
    // chacha20_ietf (256 GiB) and which the table does not spell
    [p]: { args: [out('c'), n, k], returns: 'void' },
    [`${p}_xor`]: { args: [out('c', same('m'), { inPlace: ['m'] }), buf('m'), n, k], returns: 'void' },
    [`${p}_keygen`]: { args: [out('k', fixed(`${p}_KEYBYTES`))], returns: 'void' }
  }
  if (ic) {
    // chacha20_ietf: ic + ceil(m.length / 64) must also stay within 2^32 blocks
    entries[`${p}_xor_ic`] = { args: [out('c', same('m'), { inPlace: ['m'] }), buf('m'), n, num('ic', [0, ic]), k], returns: 'void' }
  }
  if (stateful) {
    const s = state('state', stateful)
    const fns = {
      xor_init: { args: [s, n, k], returns: 'void' },
      xor_update: { args: [s, out('c', same('m'), { inPlace: ['m'], apart: ['state'] }), buf('m')], returns: 'void', fails: 'state is not initialized', failsWhen: { state: 0 } },
      xor_final: { args: [s], returns: 'void' }
    }
    for (const [name, entry] of Object.entries(fns)) {
      entries[`${p}_${name}`] = entry
      entries[`${p}_${name.replace('xor_', 'xor_wrap_')}`] = entry
    }
  }
  return entries
}

module.exports = {
  ...spelled(stream('crypto_stream', { stateful: 'crypto_stream_xor_STATEBYTES' }),
    'crypto_stream', 'crypto_stream_xor', 'crypto_stream_keygen', 'crypto_stream_xor_init',
    'crypto_stream_xor_wrap_init', 'crypto_stream_xor_update', 'crypto_stream_xor_wrap_update',
    'crypto_stream_xor_final', 'crypto_stream_xor_wrap_final'),
  ...spelled(stream('crypto_stream_xsalsa20', { ic: IC_MAX }),
    'crypto_stream_xsalsa20', 'crypto_stream_xsalsa20_xor', 'crypto_stream_xsalsa20_keygen',
    'crypto_stream_xsalsa20_xor_ic'),
  ...spelled(stream('crypto_stream_salsa20', { ic: IC_MAX, stateful: 'crypto_stream_salsa20_xor_STATEBYTES' }),
    'crypto_stream_salsa20', 'crypto_stream_salsa20_xor', 'crypto_stream_salsa20_keygen',
    'crypto_stream_salsa20_xor_ic', 'crypto_stream_salsa20_xor_init', 'crypto_stream_salsa20_xor_wrap_init',
    'crypto_stream_salsa20_xor_update', 'crypto_stream_salsa20_xor_wrap_update',
    'crypto_stream_salsa20_xor_final', 'crypto_stream_salsa20_xor_wrap_final'),
  ...spelled(stream('crypto_stream_salsa2012'),
    'crypto_stream_salsa2012', 'crypto_stream_salsa2012_xor', 'crypto_stream_salsa2012_keygen'),
  ...spelled(stream('crypto_stream_chacha20', { ic: IC_MAX, stateful: 'crypto_stream_chacha20_xor_STATEBYTES' }),
    'crypto_stream_chacha20', 'crypto_stream_chacha20_xor', 'crypto_stream_chacha20_keygen',
    'crypto_stream_chacha20_xor_ic', 'crypto_stream_chacha20_xor_init',
    'crypto_stream_chacha20_xor_wrap_init', 'crypto_stream_chacha20_xor_update',
    'crypto_stream_chacha20_xor_wrap_update', 'crypto_stream_chacha20_xor_final',
    'crypto_stream_chacha20_xor_wrap_final'),
  ...spelled(stream('crypto_stream_chacha20_ietf', { ic: 0xffffffff, stateful: 'crypto_stream_chacha20_ietf_xor_STATEBYTES' }),
    'crypto_stream_chacha20_ietf', 'crypto_stream_chacha20_ietf_xor', 'crypto_stream_chacha20_ietf_keygen',
    'crypto_stream_chacha20_ietf_xor_ic', 'crypto_stream_chacha20_ietf_xor_init',
    'crypto_stream_chacha20_ietf_xor_wrap_init', 'crypto_stream_chacha20_ietf_xor_update',
    'crypto_stream_chacha20_ietf_xor_wrap_update', 'crypto_stream_chacha20_ietf_xor_final',
    'crypto_stream_chacha20_ietf_xor_wrap_final'),
  ...spelled(stream('crypto_stream_xchacha20', { ic: IC_MAX, stateful: 'crypto_stream_xchacha20_xor_STATEBYTES' }),
    'crypto_stream_xchacha20', 'crypto_stream_xchacha20_xor', 'crypto_stream_xchacha20_keygen',
    'crypto_stream_xchacha20_xor_ic', 'crypto_stream_xchacha20_xor_init',
    'crypto_stream_xchacha20_xor_wrap_init', 'crypto_stream_xchacha20_xor_update',
    'crypto_stream_xchacha20_xor_wrap_update', 'crypto_stream_xchacha20_xor_final',
    'crypto_stream_xchacha20_xor_wrap_final')
}

'use strict'
// randombytes_*, sodium_* helpers and codecs, crypto_verify_*, guarded memory (src/utils.c).
// (num bounds that are length rules, `optional` nums and returns 'buffer': see kinds.js)
const { out, buf, opt, num, fixed, same, twice, base64 } = require('./kinds')

const u32 = [0, 0xffffffff]
const variant = Object.assign(num('variant', ['sodium_base64_VARIANT_ORIGINAL', 'sodium_base64_VARIANT_URLSAFE_NO_PADDING']),
  { example: 'sodium_base64_VARIANT_URLSAFE' })
const verify = (n) => ({
  args: [buf('x', fixed(`crypto_verify_${n}_BYTES`)), buf('y', fixed(`crypto_verify_${n}_BYTES`))],
  returns: 'bool'
})
// a buffer sodium_malloc did not make is refused
const mprotect = { args: [buf('ptr')], returns: 'void', fails: 'failed to lock buffer', failsWhen: {}, native: true }

module.exports = {
  randombytes_random: { args: [], returns: 'number' },
  randombytes_uniform: { args: [num('upper_bound', u32)], returns: 'number' },
  randombytes_buf: { args: [out('buf')], returns: 'void' },
  randombytes_buf_deterministic: {
    args: [out('buf'), buf('seed', fixed('randombytes_SEEDBYTES'))],
    returns: 'void'
  },

  sodium_memcmp: { args: [buf('a'), buf('b', same('a'))], returns: 'bool' },
  sodium_compare: { args: [buf('a'), buf('b', same('a'))], returns: 'number' },
  sodium_increment: { args: [out('n')], returns: 'void' },
  sodium_add: { args: [out('a'), buf('b', same('a'))], returns: 'void' },
  sodium_sub: { args: [out('a'), buf('b', same('a'))], returns: 'void' },
  sodium_is_zero: {
    args: [buf('n'), Object.assign(num('nlen', [0, same('n')]), { optional: true })],
    returns: 'bool'
  },
  sodium_memzero: { args: [out('pnt')], returns: 'void' },
  // buf must hold unpadded_buflen rounded up to the next multiple of blocksize (a RangeError names buf)
  sodium_pad: {
    args: [out('buf'), num('unpadded_buflen', [0, same('buf')]), num('blocksize', [1, same('buf')])],
    returns: 'number'
  },
  sodium_unpad: {
    args: [buf('buf'), num('padded_buflen', [0, same('buf')]), num('blocksize', [1, same('buf')])],
    returns: 'number',
    fails: 'unsupported/invalid padding',
    failsWhen: { buf: 0 }
  },

  crypto_verify_16: verify(16),
  crypto_verify_32: verify(32),
  crypto_verify_64: verify(64),

  // The encoders write no trailing NUL. The decoders return the number of bytes written and need
  // every input byte to be a digit or in `ignore` (and bin long enough).
  sodium_bin2hex: { args: [out('hex', twice('bin'), { apart: ['bin'] }), buf('bin')], returns: 'void' },
  sodium_hex2bin: { args: [out('bin', undefined, { apart: ['hex'] }), buf('hex'), opt('ignore')], returns: 'number', fails: 'invalid input', failsWhen: { hex: 0xff, ignore: null } },
  sodium_base64_encoded_len: { args: [num('bin_len', [0, 3221225468]), variant], returns: 'number' },
  sodium_bin2base64: { args: [out('b64', base64('bin', 'variant'), { apart: ['bin'] }), buf('bin'), variant], returns: 'void' },
  sodium_base642bin: {
    args: [out('bin', undefined, { apart: ['b64'] }), buf('b64'), opt('ignore'), variant],
    returns: 'number',
    fails: 'invalid input',
    failsWhen: { b64: 0xff, ignore: null }
  },

  // Native only: wasm memory has no pages to guard. sodium_free and the mprotect functions act
  // only on buffers from sodium_malloc (sodium_free ignores others; mprotect refuses them).
  sodium_malloc: { args: [num('size', u32)], returns: 'buffer', fails: 'sodium_malloc failed', failsWhen: 'resources', native: true },
  sodium_free: { args: [buf('ptr')], returns: 'void', native: true },
  sodium_mprotect_noaccess: mprotect,
  sodium_mprotect_readonly: Object.assign({}, mprotect, { fails: 'failed to unlock buffer' }),
  sodium_mprotect_readwrite: Object.assign({}, mprotect, { fails: 'failed to unlock buffer' }),
  sodium_mlock: { args: [buf('addr')], returns: 'void', fails: 'memory lock failed', failsWhen: 'resources', native: true },
  sodium_munlock: { args: [out('addr')], returns: 'void', fails: 'memory unlock failed', failsWhen: 'resources', native: true }
}

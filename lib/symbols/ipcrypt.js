'use strict'
// crypto_ipcrypt_* and the address helpers sodium_ip2bin/sodium_bin2ip (src/ipcrypt.c).
const { out, buf, fixed, atLeast } = require('./kinds')

const p = 'crypto_ipcrypt'
const keygen = (K) => ({ args: [out('k', fixed(`${p}_${K}`))], returns: 'void' })
const block = (BYTES, K) => ({
  args: [out('out', fixed(`${p}_${BYTES}`), { inPlace: ['in'] }), buf('in', fixed(`${p}_${BYTES}`)), buf('k', fixed(`${p}_${K}`))],
  returns: 'void'
})
const tweaked = (X) => ({
  encrypt: {
    args: [out('out', fixed(`${p}_${X}_OUTPUTBYTES`), { apart: ['in', 't'] }), buf('in', fixed(`${p}_${X}_INPUTBYTES`)),
      buf('t', fixed(`${p}_${X}_TWEAKBYTES`)), buf('k', fixed(`${p}_${X}_KEYBYTES`))],
    returns: 'void'
  },
  decrypt: {
    args: [out('out', fixed(`${p}_${X}_INPUTBYTES`), { apart: ['in'] }), buf('in', fixed(`${p}_${X}_OUTPUTBYTES`)),
      buf('k', fixed(`${p}_${X}_KEYBYTES`))],
    returns: 'void'
  }
})
const nd = tweaked('ND')
const ndx = tweaked('NDX')

module.exports = {
  crypto_ipcrypt_keygen: keygen('KEYBYTES'),
  crypto_ipcrypt_encrypt: block('BYTES', 'KEYBYTES'),
  crypto_ipcrypt_decrypt: block('BYTES', 'KEYBYTES'),
  crypto_ipcrypt_nd_keygen: keygen('ND_KEYBYTES'),
  crypto_ipcrypt_nd_encrypt: nd.encrypt,
  crypto_ipcrypt_nd_decrypt: nd.decrypt,
  crypto_ipcrypt_ndx_keygen: keygen('NDX_KEYBYTES'),
  crypto_ipcrypt_ndx_encrypt: ndx.encrypt,
  crypto_ipcrypt_ndx_decrypt: ndx.decrypt,
  crypto_ipcrypt_pfx_keygen: keygen('PFX_KEYBYTES'),
  crypto_ipcrypt_pfx_encrypt: block('PFX_BYTES', 'PFX_KEYBYTES'),
  crypto_ipcrypt_pfx_decrypt: block('PFX_BYTES', 'PFX_KEYBYTES'),
  // ip is the address as ASCII text (libsodium stops at a NUL); bin2ip returns the text's length
  // and needs room for the longest text, a full IPv6 address (39 bytes).
  sodium_ip2bin: { args: [out('bin', fixed(`${p}_BYTES`), { apart: ['ip'] }), buf('ip')], returns: 'void', fails: 'invalid IP address', failsWhen: { ip: 0 } },
  sodium_bin2ip: { args: [out('ip', atLeast(39)), buf('bin', fixed(`${p}_BYTES`))], returns: 'number' }
}

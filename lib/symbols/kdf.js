'use strict'
// crypto_kdf (BLAKE2b), crypto_kdf_hkdf_sha256/sha512 and PBKDF2 (src/kdf.c, src/crypto/pbkdf2.c).
const { out, buf, opt, num, state, fixed, atLeast, atMost, between, spelled } = require('./kinds')

// subkey_id and iter are uint64_t in C; the C accepts any integral number up to UINT64_MAX, as
// sodium-native does (numbers past 2^53 are not all representable).
const U64_MAX = 2 ** 64 - 1

function derive (p) {
  return {
    [`${p}_derive_from_key`]: {
      args: [
        out('subkey', between(`${p}_BYTES_MIN`, `${p}_BYTES_MAX`)),
        num('subkey_id', [0, U64_MAX]),
        buf('ctx', fixed(`${p}_CONTEXTBYTES`)),
        buf('key', fixed(`${p}_KEYBYTES`))
      ],
      returns: 'void'
    }
  }
}

function hkdf (p) {
  const prk = (kind, rules) => kind('prk', fixed(`${p}_KEYBYTES`), rules)
  const st = state('state', `${p}_STATEBYTES`)
  return {
    [`${p}_extract`]: { args: [prk(out), opt('salt'), buf('ikm')], returns: 'void' },
    // out's length is the output length; out must not overlap ctx or prk
    [`${p}_expand`]: { args: [out('out', atMost(`${p}_BYTES_MAX`), { apart: ['ctx', 'prk'] }), opt('ctx'), prk(buf)], returns: 'void' },
    [`${p}_keygen`]: { args: [prk(out)], returns: 'void' },
    [`${p}_extract_init`]: { args: [st, opt('salt')], returns: 'void' },
    [`${p}_extract_update`]: { args: [st, buf('ikm')], returns: 'void' },
    [`${p}_extract_final`]: { args: [st, prk(out, { apart: ['state'] })], returns: 'void' }
  }
}

// sodium-native 5.1.0's extension_pbkdf2_sha512(out, passwd, salt, iter, outlen), and the same
// for SHA-256. The first outlen bytes of out are written; the table cannot say "out.length >=
// outlen" (a length relative to a number argument), so the C checks it alone.
function pbkdf2 (hash) {
  const p = `extension_pbkdf2_${hash}`
  const args = [
    out('out', atLeast(1)),
    buf('passwd', atLeast(1)),
    buf('salt', atLeast(1)),
    num('iter', [`${p}_ITERATIONS_MIN`, U64_MAX]),
    Object.assign(num('outlen', [0, `${p}_BYTES_MAX`]), { example: 16 })
  ]
  return {
    [p]: { args, returns: 'void' },
    [`${p}_async`]: { args, returns: 'promise' }
  }
}

module.exports = {
  ...spelled(derive('crypto_kdf'),
    'crypto_kdf_derive_from_key'),
  crypto_kdf_keygen: { args: [out('k', fixed('crypto_kdf_KEYBYTES'))], returns: 'void' },
  ...spelled(derive('crypto_kdf_blake2b'),
    'crypto_kdf_blake2b_derive_from_key'),
  ...spelled(hkdf('crypto_kdf_hkdf_sha256'),
    'crypto_kdf_hkdf_sha256_extract', 'crypto_kdf_hkdf_sha256_expand', 'crypto_kdf_hkdf_sha256_keygen',
    'crypto_kdf_hkdf_sha256_extract_init', 'crypto_kdf_hkdf_sha256_extract_update',
    'crypto_kdf_hkdf_sha256_extract_final'),
  ...spelled(hkdf('crypto_kdf_hkdf_sha512'),
    'crypto_kdf_hkdf_sha512_extract', 'crypto_kdf_hkdf_sha512_expand', 'crypto_kdf_hkdf_sha512_keygen',
    'crypto_kdf_hkdf_sha512_extract_init', 'crypto_kdf_hkdf_sha512_extract_update',
    'crypto_kdf_hkdf_sha512_extract_final'),
  ...spelled(pbkdf2('sha512'),
    'extension_pbkdf2_sha512', 'extension_pbkdf2_sha512_async'),
  ...spelled(pbkdf2('sha256'),
    'extension_pbkdf2_sha256', 'extension_pbkdf2_sha256_async')
}

'use strict'
// crypto_pwhash_*: Argon2 (crypto_pwhash, _argon2i, _argon2id) and scrypt (src/pwhash.c), with
// sodium-native's checks. The _async functions return a Promise (native: the work runs on libuv's thread pool).
const { out, buf, num, fixed, atLeast, spelled } = require('./kinds')

const limits = (p) => [
  num('opslimit', [`${p}_OPSLIMIT_MIN`, `${p}_OPSLIMIT_MAX`]),
  num('memlimit', [`${p}_MEMLIMIT_MIN`, `${p}_MEMLIMIT_MAX`])
]
// out is also at most <p>_BYTES_MAX (4 GiB - 1 and 128 GiB - 32 bytes), which C checks; the
// table leaves the upper bound out because the contract test cannot allocate a buffer past it.
const hashArgs = (p, alg) => [
  out('out', atLeast(`${p}_BYTES_MIN`), { apart: ['passwd', 'salt'] }),
  buf('passwd'),
  buf('salt', fixed(`${p}_SALTBYTES`)),
  ...limits(p),
  ...(alg ? [num('alg', alg)] : [])
]
const strOut = (p) => out('out', fixed(`${p}_STRBYTES`), { apart: ['passwd'] })
const str = (p) => buf('str', fixed(`${p}_STRBYTES`))
// sodium-native refuses an empty passwd in some of these (see src/pwhash.c)
const passwd = (nonEmpty) => nonEmpty ? buf('passwd', atLeast(1)) : buf('passwd')

// crypto_pwhash's range admits Argon2i with fewer than the 3 passes Argon2i needs: libsodium refuses
const ARGON2I_TOO_FEW_PASSES = { alg: 'crypto_pwhash_ALG_ARGON2I13', opslimit: 'crypto_pwhash_OPSLIMIT_MIN' }

function pwhash (p, alg, nonEmpty = false) {
  return {
    [p]: { args: hashArgs(p, alg), returns: 'void', fails: `${p} failed`, failsWhen: p === 'crypto_pwhash' ? ARGON2I_TOO_FEW_PASSES : 'resources' },
    [`${p}_str`]: { args: [strOut(p), passwd(nonEmpty), ...limits(p)], returns: 'void', fails: `${p}_str failed`, failsWhen: 'resources' },
    [`${p}_str_verify`]: { args: [str(p), passwd(nonEmpty)], returns: 'bool' },
    [`${p}_str_needs_rehash`]: { args: [str(p), ...limits(p)], returns: 'bool' }
  }
}

const ARGON2 = ['crypto_pwhash_ALG_ARGON2I13', 'crypto_pwhash_ALG_ARGON2ID13']
const scrypt = 'crypto_pwhash_scryptsalsa208sha256'
const withExample = (arg, example) => Object.assign(arg, { example })

module.exports = {
  ...spelled(pwhash('crypto_pwhash', ARGON2),
    'crypto_pwhash', 'crypto_pwhash_str', 'crypto_pwhash_str_verify', 'crypto_pwhash_str_needs_rehash'),
  crypto_pwhash_str_alg: {
    args: [strOut('crypto_pwhash'), buf('passwd'), ...limits('crypto_pwhash'), num('alg', ARGON2)],
    returns: 'void',
    fails: 'crypto_pwhash_str_alg failed',
    failsWhen: ARGON2I_TOO_FEW_PASSES
  },
  ...spelled(pwhash('crypto_pwhash_argon2i', ['crypto_pwhash_argon2i_ALG_ARGON2I13', 'crypto_pwhash_argon2i_ALG_ARGON2I13']),
    'crypto_pwhash_argon2i', 'crypto_pwhash_argon2i_str', 'crypto_pwhash_argon2i_str_verify',
    'crypto_pwhash_argon2i_str_needs_rehash'),
  ...spelled(pwhash('crypto_pwhash_argon2id', ['crypto_pwhash_argon2id_ALG_ARGON2ID13', 'crypto_pwhash_argon2id_ALG_ARGON2ID13']),
    'crypto_pwhash_argon2id', 'crypto_pwhash_argon2id_str', 'crypto_pwhash_argon2id_str_verify',
    'crypto_pwhash_argon2id_str_needs_rehash'),
  ...spelled(pwhash(scrypt, null, true),
    'crypto_pwhash_scryptsalsa208sha256', 'crypto_pwhash_scryptsalsa208sha256_str',
    'crypto_pwhash_scryptsalsa208sha256_str_verify', 'crypto_pwhash_scryptsalsa208sha256_str_needs_rehash'),
  // libsodium refuses N not a power of 2 above 1 or past 2^32, r or p of 0, r * p >= 2^30
  crypto_pwhash_scryptsalsa208sha256_ll: {
    args: [
      out('buf', undefined, { apart: ['passwd', 'salt'] }), buf('passwd'), buf('salt'),
      withExample(num('N', [0, Number.MAX_SAFE_INTEGER]), 16),
      withExample(num('r', [0, 0xffffffff]), 1),
      withExample(num('p', [0, 0xffffffff]), 1)
    ],
    returns: 'void',
    fails: `${scrypt}_ll failed`,
    failsWhen: { N: 3 } // not a power of 2
  },

  crypto_pwhash_async: {
    args: hashArgs('crypto_pwhash', ARGON2), returns: 'promise', fails: 'crypto_pwhash_async failed', failsWhen: ARGON2I_TOO_FEW_PASSES
  },
  crypto_pwhash_str_async: {
    args: [strOut('crypto_pwhash'), passwd(true), ...limits('crypto_pwhash')],
    returns: 'promise',
    fails: 'crypto_pwhash_str_async failed',
    failsWhen: 'resources'
  },
  // resolves to a boolean
  crypto_pwhash_str_verify_async: {
    args: [str('crypto_pwhash'), passwd(true)], returns: 'promise'
  },
  crypto_pwhash_scryptsalsa208sha256_async: {
    args: hashArgs(scrypt).map((a) => a.name === 'passwd' ? passwd(true) : a),
    returns: 'promise',
    fails: `${scrypt}_async failed`,
    failsWhen: 'resources'
  },
  crypto_pwhash_scryptsalsa208sha256_str_async: {
    args: [strOut(scrypt), passwd(true), ...limits(scrypt)], returns: 'promise', fails: `${scrypt}_str_async failed`, failsWhen: 'resources'
  },
  // resolves to a boolean
  crypto_pwhash_scryptsalsa208sha256_str_verify_async: {
    args: [str(scrypt), passwd(true)], returns: 'promise'
  }
}

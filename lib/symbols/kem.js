'use strict'
// crypto_kem_*: X-Wing (the default crypto_kem) and ML-KEM-768 (src/kem.c). sodium-native has no
// KEM, so these follow libsodium's C signatures: outputs first, undefined on success.
const { out, buf, fixed, spelled } = require('./kinds')

function kem (p, encSeedBytes) {
  // X-Wing refuses an X25519 share of small order in ct; ML-KEM's implicit rejection never fails
  const decFails = p === 'crypto_kem_mlkem768' ? 'unreachable' : { ct: 0 }
  const pk = (make, rules) => make('pk', fixed(`${p}_PUBLICKEYBYTES`), rules)
  const sk = (make, rules) => make('sk', fixed(`${p}_SECRETKEYBYTES`), rules)
  const ct = (make, rules) => make('ct', fixed(`${p}_CIPHERTEXTBYTES`), rules)
  const ss = (rules) => out('ss', fixed(`${p}_SHAREDSECRETBYTES`), rules)
  const entries = {
    [`${p}_keypair`]: { args: [pk(out, { apart: ['sk'] }), sk(out)], returns: 'void' },
    [`${p}_seed_keypair`]: {
      args: [pk(out, { apart: ['sk', 'seed'] }), sk(out, { apart: ['seed'] }), buf('seed', fixed(`${p}_SEEDBYTES`))],
      returns: 'void'
    },
    // refused: an ML-KEM key with unreduced coefficients, an X25519 share of low order
    [`${p}_enc`]: { args: [ct(out, { apart: ['ss', 'pk'] }), ss({ apart: ['pk'] }), pk(buf)], returns: 'void', fails: `${p}_enc failed`, failsWhen: { pk: 0xff } },
    // a forged ciphertext is not refused: implicit rejection gives a pseudorandom ss
    [`${p}_dec`]: { args: [ss({ apart: ['ct', 'sk'] }), ct(buf), sk(buf)], returns: 'void', fails: `${p}_dec failed`, failsWhen: decFails }
  }
  if (encSeedBytes) {
    entries[`${p}_enc_deterministic`] = {
      args: [ct(out, { apart: ['ss', 'pk', 'seed'] }), ss({ apart: ['pk', 'seed'] }), pk(buf), buf('seed', fixed(encSeedBytes))],
      returns: 'void',
      fails: `${p}_enc_deterministic failed`,
      failsWhen: { pk: 0xff }
    }
  }
  return entries
}

module.exports = {
  ...spelled(kem('crypto_kem'),
    'crypto_kem_keypair', 'crypto_kem_seed_keypair', 'crypto_kem_enc', 'crypto_kem_dec'),
  ...spelled(kem('crypto_kem_xwing', 64),
    'crypto_kem_xwing_keypair', 'crypto_kem_xwing_seed_keypair', 'crypto_kem_xwing_enc',
    'crypto_kem_xwing_dec', 'crypto_kem_xwing_enc_deterministic'),
  ...spelled(kem('crypto_kem_mlkem768', 32),
    'crypto_kem_mlkem768_keypair', 'crypto_kem_mlkem768_seed_keypair', 'crypto_kem_mlkem768_enc',
    'crypto_kem_mlkem768_dec', 'crypto_kem_mlkem768_enc_deterministic')
}

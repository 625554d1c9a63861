'use strict'
// ML-KEM-768 (FIPS 203): key generation, encapsulation, decapsulation. Checked against
// libsodium-wrappers-sumo (itself checked against @noble/post-quantum while writing this suite).
const ref = require('./ref')
const { TAG, fill } = require('../inputs')

const PK = 1184
const SK = 2400
const CT = 1088
const SS = 32

function sameSecret (ct, ss, sk) {
  const back = ref.lsw().crypto_kem_mlkem768_dec(ct, sk)
  return ref.equalBytes(ss, back) === true
}

function validKeyPair (a, b) {
  for (const k of [a, b]) {
    if (!(k.pk instanceof Uint8Array) || k.pk.length !== PK) return `public key is ${ref.describe(k.pk)}`
    if (!(k.sk instanceof Uint8Array) || k.sk.length !== SK) return `secret key is ${ref.describe(k.sk)}`
    const { ciphertext, sharedSecret } = ref.lsw().crypto_kem_mlkem768_enc(k.pk)
    if (!sameSecret(ciphertext, sharedSecret, k.sk)) return 'the key pair does not decapsulate what its public key encapsulates'
  }
  return ref.differ(a.pk, b.pk) ? true : 'two key pairs came out equal'
}

function validEncapsulation (sk) {
  return (a, b) => {
    for (const e of [a, b]) {
      if (!(e.ct instanceof Uint8Array) || e.ct.length !== CT) return `ciphertext is ${ref.describe(e.ct)}`
      if (!(e.ss instanceof Uint8Array) || e.ss.length !== SS) return `shared secret is ${ref.describe(e.ss)}`
      if (!sameSecret(e.ct, e.ss, sk)) return 'the reference decapsulates another shared secret'
    }
    return ref.differ(a.ct, b.ct) ? true : 'two encapsulations came out equal'
  }
}

const noNode = (b) => b.none('node', 'node:crypto', `node:crypto has ML-KEM from Node 24.7 (this is ${process.version})`)

module.exports = function kemCases (b) {
  const { publicKey: pk, privateKey: sk } = ref.lsw().crypto_kem_mlkem768_seed_keypair(fill(TAG.SEED, 64))
  const { ciphertext: ct, sharedSecret: ss } = ref.lsw().crypto_kem_mlkem768_enc_deterministic(pk, fill(TAG.ENC, 32))
  const raw = ([a, b]) => ({ pk: a.slice(), sk: b.slice() })
  const rawEnc = ([a, b]) => ({ ct: a.slice(), ss: b.slice() })
  return [
    {
      family: 'kem',
      op: 'ml-kem-768 keypair',
      ceiling: { op: 'mlkem768_keypair' },
      validate: validKeyPair,
      contenders: [
        ...b.raw('crypto_kem_mlkem768_keypair', { outs: [PK, SK], call: (f, p, s) => f(p, s), out: raw }),
        ...noNode(b),
        ...b.lsw('crypto_kem_mlkem768_keypair', (f) => () => f(), { out: (k) => ({ pk: k.publicKey, sk: k.privateKey }) }),
        ...b.noble('@noble/post-quantum', (n) => () => n.ml_kem768.keygen(), { out: (k) => ({ pk: k.publicKey, sk: k.secretKey }) })
      ]
    },
    {
      family: 'kem',
      op: 'ml-kem-768 encapsulate',
      ceiling: { op: 'mlkem768_enc' },
      validate: validEncapsulation(sk),
      contenders: [
        ...b.raw('crypto_kem_mlkem768_enc', { outs: [CT, SS], call: (f, c, s) => f(c, s, pk), out: rawEnc }),
        ...noNode(b),
        ...b.lsw('crypto_kem_mlkem768_enc', (f) => () => f(pk), { out: (e) => ({ ct: e.ciphertext, ss: e.sharedSecret }) }),
        ...b.noble('@noble/post-quantum', (n) => () => n.ml_kem768.encapsulate(pk), { out: (e) => ({ ct: e.cipherText, ss: e.sharedSecret }) })
      ]
    },
    {
      family: 'kem',
      op: 'ml-kem-768 decapsulate',
      ceiling: { op: 'mlkem768_dec' },
      ref: 'libsodium-wrappers-sumo',
      expect: () => ss,
      contenders: [
        ...b.raw('crypto_kem_mlkem768_dec', { outs: [SS], call: (f, s) => f(s, ct, sk) }),
        ...noNode(b),
        ...b.lsw('crypto_kem_mlkem768_dec', (f) => () => f(ct, sk)),
        ...b.noble('@noble/post-quantum', (n) => () => n.ml_kem768.decapsulate(ct, sk))
      ]
    }
  ]
}

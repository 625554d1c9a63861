'use strict'
// Ed25519: key pair generation, detached signature and verification (the seed article's rows).
const ref = require('./ref')
const { TAG, fill } = require('../inputs')

// Every key pair becomes { pk, seed } for the check: the seed must give the public key.
function validKeyPair (a, b) {
  for (const k of [a, b]) {
    if (!(k.pk instanceof Uint8Array) || k.pk.length !== 32) return `public key is ${ref.describe(k.pk)}`
    if (!(k.seed instanceof Uint8Array) || k.seed.length !== 32) return `secret seed is ${ref.describe(k.seed)}`
    if (k.tail && ref.equalBytes(k.tail, k.pk) !== true) return 'secret key does not end with its public key'
    if (ref.equalBytes(ref.ed25519.publicKey(k.seed), k.pk) !== true) return 'public key does not match the secret key'
  }
  if (!ref.differ(a.seed, b.seed)) return 'two key pairs came out equal'
  return true
}

module.exports = function signCases (b, { sizes }) {
  const seed = fill(TAG.SEED, 32)
  const pk = ref.ed25519.publicKey(seed)
  const sk = new Uint8Array([...seed, ...pk]) // libsodium's secret key: seed || public key
  const cases = []

  cases.push({
    family: 'ed25519',
    op: 'ed25519 keypair',
    ceiling: { op: 'ed25519_keypair' },
    validate: validKeyPair,
    notes: ['node:crypto returns KeyObjects (generateKeyPairSync): its row does not export raw bytes.'],
    contenders: [
      ...b.raw('crypto_sign_keypair', {
        outs: [32, 64],
        call: (f, p, s) => f(p, s),
        out: ([p, s]) => ({ pk: p.slice(), seed: s.slice(0, 32), tail: s.slice(32) })
      }),
      ...b.node((c) => () => c.generateKeyPairSync('ed25519'), {
        out: (k) => {
          const jwk = k.privateKey.export({ format: 'jwk' })
          return { pk: ref.b64u(jwk.x), seed: ref.b64u(jwk.d) }
        }
      }),
      ...b.lsw('crypto_sign_keypair', (f) => () => f(), {
        out: (k) => ({ pk: k.publicKey, seed: k.privateKey.slice(0, 32), tail: k.privateKey.slice(32) })
      }),
      ...b.noble('@noble/curves', (n) => () => n.ed25519.keygen(), {
        out: (k) => ({ pk: k.publicKey, seed: k.secretKey })
      }),
      ...b.tweetnacl((t) => () => t.sign.keyPair(), {
        out: (k) => ({ pk: k.publicKey, seed: k.secretKey.slice(0, 32), tail: k.secretKey.slice(32) })
      })
    ]
  })

  for (const size of sizes) {
    const m = fill(TAG.MSG, size)
    const sig = ref.ed25519.sign(m, seed)
    cases.push({
      family: 'ed25519',
      op: 'ed25519 sign',
      size,
      ceiling: { op: 'ed25519_sign', args: [size] },
      ref: 'node:crypto',
      expect: () => sig,
      notes: ['@noble/curves signs with the 32-byte secret key and derives the key pair on every call: that is its API.'],
      contenders: [
        ...b.raw('crypto_sign_detached', { outs: [64], call: (f, s) => f(s, m, sk) }),
        ...b.node((c) => { const key = ref.ed25519.privateKey(seed); return () => c.sign(null, m, key) }),
        ...b.lsw('crypto_sign_detached', (f) => () => f(m, sk)),
        // noble signs with the 32-byte secret key and derives the rest per call: that is its API
        ...b.noble('@noble/curves', (n) => () => n.ed25519.sign(m, seed)),
        ...b.tweetnacl((t) => () => t.sign.detached(m, sk))
      ]
    })
  }

  for (const size of sizes) {
    const m = fill(TAG.MSG, size)
    const sig = ref.ed25519.sign(m, seed)
    cases.push({
      family: 'ed25519',
      op: 'ed25519 verify',
      size,
      ceiling: { op: 'ed25519_verify', args: [size] },
      ref: 'true',
      expect: () => true,
      contenders: [
        ...b.raw('crypto_sign_verify_detached', { call: (f) => f(sig, m, pk) }),
        ...b.node((c) => {
          const key = c.createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(pk).toString('base64url') }, format: 'jwk' })
          return () => c.verify(null, m, key, sig)
        }),
        ...b.lsw('crypto_sign_verify_detached', (f) => () => f(sig, m, pk)),
        ...b.noble('@noble/curves', (n) => () => n.ed25519.verify(sig, m, pk)),
        ...b.tweetnacl((t) => () => t.sign.detached.verify(m, sig, pk))
      ]
    })
  }
  return cases
}

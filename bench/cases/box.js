'use strict'
// X25519 and the NaCl boxes: scalar multiplication (shared secret), crypto_box_beforenm (the
// shared-key precomputation), crypto_secretbox and crypto_box at 1 KB, sealing and opening.
const ref = require('./ref')
const { TAG, fill, KB } = require('../inputs')

module.exports = function boxCases (b) {
  const skA = fill(TAG.SEED, 32)
  const skB = fill(TAG.SEED_B, 32)
  const pkB = ref.x25519.publicKey(skB)
  const k = fill(TAG.KEY, 32)
  const n = fill(TAG.NONCE, 24)
  const m = fill(TAG.MSG, KB)
  const secretboxed = ref.lsw().crypto_secretbox_easy(m, n, k)
  const boxed = ref.lsw().crypto_box_easy(m, n, pkB, skA)
  const noBox = (what) => b.none('node', 'node:crypto', `node:crypto has no ${what}`)
  const cases = []

  cases.push({
    family: 'box',
    op: 'x25519 shared secret',
    ceiling: { op: 'x25519' },
    ref: 'node:crypto',
    expect: () => ref.x25519.shared(skA, pkB),
    contenders: [
      ...b.raw('crypto_scalarmult', { outs: [32], call: (f, q) => f(q, skA, pkB) }),
      ...b.node((c) => {
        const privateKey = ref.x25519.privateKey(skA)
        const publicKey = ref.x25519.publicKeyObject(pkB)
        return () => c.diffieHellman({ privateKey, publicKey })
      }),
      ...b.lsw('crypto_scalarmult', (f) => () => f(skA, pkB)),
      ...b.noble('@noble/curves', (nc) => () => nc.x25519.getSharedSecret(skA, pkB)),
      ...b.tweetnacl((t) => () => t.scalarMult(skA, pkB))
    ]
  })

  cases.push({
    family: 'box',
    op: 'box beforenm',
    ceiling: { op: 'box_beforenm' },
    ref: 'libsodium-wrappers-sumo',
    expect: () => ref.lsw().crypto_box_beforenm(pkB, skA),
    contenders: [
      ...b.raw('crypto_box_beforenm', { outs: [32], call: (f, out) => f(out, pkB, skA) }),
      ...noBox('HSalsa20 (crypto_box)'),
      ...b.lsw('crypto_box_beforenm', (f) => () => f(pkB, skA)),
      ...b.tweetnacl((t) => () => t.box.before(pkB, skA))
    ]
  })

  cases.push({
    family: 'box',
    op: 'secretbox easy',
    size: KB,
    ceiling: { op: 'secretbox_easy', args: [KB] },
    ref: 'libsodium-wrappers-sumo',
    expect: () => secretboxed,
    contenders: [
      ...b.raw('crypto_secretbox_easy', { outs: [KB + 16], call: (f, c) => f(c, m, n, k) }),
      ...noBox('XSalsa20-Poly1305'),
      ...b.lsw('crypto_secretbox_easy', (f) => () => f(m, n, k)),
      ...b.noble('@noble/ciphers', (nc) => () => nc.xsalsa20poly1305(k, n).encrypt(m)),
      ...b.tweetnacl((t) => () => t.secretbox(m, n, k))
    ]
  })

  cases.push({
    family: 'box',
    op: 'secretbox open',
    size: KB,
    ceiling: { op: 'secretbox_open', args: [KB] },
    ref: 'the plaintext',
    expect: () => m,
    contenders: [
      ...b.raw('crypto_secretbox_open_easy', { outs: [KB], call: (f, out) => f(out, secretboxed, n, k) }),
      ...noBox('XSalsa20-Poly1305'),
      ...b.lsw('crypto_secretbox_open_easy', (f) => () => f(secretboxed, n, k)),
      ...b.noble('@noble/ciphers', (nc) => () => nc.xsalsa20poly1305(k, n).decrypt(secretboxed)),
      ...b.tweetnacl((t) => () => t.secretbox.open(secretboxed, n, k))
    ]
  })

  cases.push({
    family: 'box',
    op: 'box easy',
    size: KB,
    ceiling: { op: 'box_easy', args: [KB] },
    ref: 'libsodium-wrappers-sumo',
    expect: () => boxed,
    contenders: [
      ...b.raw('crypto_box_easy', { outs: [KB + 16], call: (f, c) => f(c, m, n, pkB, skA) }),
      ...noBox('crypto_box'),
      ...b.lsw('crypto_box_easy', (f) => () => f(m, n, pkB, skA)),
      ...b.tweetnacl((t) => () => t.box(m, n, pkB, skA))
    ]
  })

  cases.push({
    family: 'box',
    op: 'box open',
    size: KB,
    ceiling: { op: 'box_open', args: [KB] },
    ref: 'the plaintext',
    expect: () => m,
    contenders: [
      // the shared key is symmetric, so (pkB, skA) opens what (pkB, skA) sealed
      ...b.raw('crypto_box_open_easy', { outs: [KB], call: (f, out) => f(out, boxed, n, pkB, skA) }),
      ...noBox('crypto_box'),
      ...b.lsw('crypto_box_open_easy', (f) => () => f(boxed, n, pkB, skA)),
      ...b.tweetnacl((t) => () => t.box.open(boxed, n, pkB, skA))
    ]
  })

  return cases
}

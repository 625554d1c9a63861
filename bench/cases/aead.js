'use strict'
// AEADs: XChaCha20-Poly1305 (the seed article's rows: keygen, encrypt, decrypt), and the two that
// node:crypto also has, ChaCha20-Poly1305 (IETF) and AES-256-GCM. No associated data; the output
// is libsodium's layout, ciphertext || 16-byte tag (node's parts are joined only for the check).
const ref = require('./ref')
const { TAG, fill } = require('../inputs')

const concat = (parts) => new Uint8Array(Buffer.concat(parts))

function validKey (a, b) {
  for (const k of [a, b]) {
    if (!(k instanceof Uint8Array) || k.length !== 32) return `key is ${ref.describe(k)}`
    if (ref.allZero(k)) return 'key is all zero'
  }
  return ref.differ(a, b) ? true : 'two keys came out equal'
}

// node: alg for node:crypto or null; nonceBytes; noble: [package, export]; lsw: has it or not
const AEADS = {
  xchacha20poly1305: {
    id: 'xchacha20poly1305',
    label: 'xchacha20poly1305',
    sodium: 'crypto_aead_xchacha20poly1305_ietf',
    nonceBytes: 24,
    node: null,
    noble: 'xchacha20poly1305',
    reference: (k, n, m) => ref.lsw().crypto_aead_xchacha20poly1305_ietf_encrypt(m, null, null, n, k),
    refName: 'libsodium-wrappers-sumo'
  },
  chacha20poly1305: {
    id: 'chacha20poly1305',
    label: 'chacha20poly1305',
    sodium: 'crypto_aead_chacha20poly1305_ietf',
    nonceBytes: 12,
    node: 'chacha20-poly1305',
    noble: 'chacha20poly1305',
    reference: (k, n, m) => ref.aead('chacha20-poly1305', k, n, m),
    refName: 'node:crypto'
  },
  aes256gcm: {
    id: 'aes256gcm',
    label: 'aes-256-gcm',
    sodium: 'crypto_aead_aes256gcm',
    nonceBytes: 12,
    node: 'aes-256-gcm',
    noble: 'gcm',
    reference: (k, n, m) => ref.aead('aes-256-gcm', k, n, m),
    refName: 'node:crypto'
  }
}

function encryptCase (b, aead, size, k, n) {
  const m = fill(TAG.MSG, size)
  const fn = `${aead.sodium}_encrypt`
  return {
    family: 'aead',
    op: `${aead.label} encrypt`,
    size,
    ceiling: { op: `${aead.id}_encrypt`, args: [size] },
    ref: aead.refName,
    expect: () => aead.reference(k, n, m),
    contenders: [
      ...b.raw(fn, { outs: [size + 16], call: (f, c) => f(c, m, null, null, n, k), sodiumNative: aead.node !== 'aes-256-gcm' }),
      ...nodeAead(b, aead, k, (c, key) => () => {
        const e = c.createCipheriv(aead.node, key, n, { authTagLength: 16 })
        return [e.update(m), e.final(), e.getAuthTag()]
      }),
      ...lswAead(b, aead, fn, (f) => () => f(m, null, null, n, k)),
      ...b.noble('@noble/ciphers', (nc) => () => nc[aead.noble](k, n).encrypt(m))
    ]
  }
}

function decryptCase (b, aead, size, k, n) {
  const m = fill(TAG.MSG, size)
  const fn = `${aead.sodium}_decrypt`
  const sealed = aead.reference(k, n, m)
  return {
    family: 'aead',
    op: `${aead.label} decrypt`,
    size,
    ceiling: { op: `${aead.id}_decrypt`, args: [size] },
    ref: 'the plaintext',
    expect: () => m,
    contenders: [
      ...b.raw(fn, { outs: [size], call: (f, out) => f(out, null, sealed, null, n, k), sodiumNative: aead.node !== 'aes-256-gcm' }),
      ...nodeAead(b, aead, k, (cr, key) => {
        const body = sealed.subarray(0, size)
        const tag = sealed.subarray(size)
        return () => {
          const d = cr.createDecipheriv(aead.node, key, n, { authTagLength: 16 })
          d.setAuthTag(tag)
          return [d.update(body), d.final()]
        }
      }),
      ...lswAead(b, aead, fn, (f) => () => f(null, sealed, null, n, k)),
      ...b.noble('@noble/ciphers', (nc) => () => nc[aead.noble](k, n).decrypt(sealed))
    ]
  }
}

function nodeAead (b, aead, k, make) {
  if (!aead.node) return b.none('node', 'node:crypto', `node:crypto has no ${aead.label}`)
  return b.node((c) => make(c, c.createSecretKey(k)), { out: concat })
}

function lswAead (b, aead, fn, make) {
  // libsodium.js is built without AES-NI, so it has no AES-256-GCM
  if (aead.sodium === 'crypto_aead_aes256gcm') return b.none('libsodium-wrappers', 'libsodium-wrappers', 'libsodium.js has no AES-256-GCM (no AES-NI in WebAssembly)')
  return b.lsw(fn, make)
}

module.exports = function aeadCases (b, { sizes }) {
  const cases = []
  const k = fill(TAG.KEY, 32)
  const sn = AEADS.xchacha20poly1305.sodium

  cases.push({
    family: 'aead',
    op: 'xchacha20poly1305 keygen',
    ceiling: { op: 'xchacha20poly1305_keygen' },
    validate: validKey,
    notes: ['node:crypto has no XChaCha20-Poly1305: its row is randomFillSync() of a 32-byte key, the same work.'],
    contenders: [
      ...b.raw(`${sn}_keygen`, { outs: [32], call: (f, key) => f(key) }),
      ...b.node((c) => { const key = new Uint8Array(32); return () => c.randomFillSync(key) }),
      ...b.lsw(`${sn}_keygen`, (f) => () => f()),
      ...b.noble('@noble/ciphers', (nc) => () => nc.randomBytes(32))
    ]
  })

  for (const aead of Object.values(AEADS)) {
    const n = fill(TAG.NONCE, aead.nonceBytes)
    for (const size of sizes) cases.push(encryptCase(b, aead, size, k, n))
    for (const size of sizes) cases.push(decryptCase(b, aead, size, k, n))
  }
  return cases
}

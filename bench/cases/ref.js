'use strict'
// Reference answers that every contender is checked against before it is timed: node:crypto where
// Node has the primitive, else libsodium-wrappers-sumo (libsodium 1.0.22 built by libsodium.js,
// an independent build of the same C), for ML-KEM cross-checked with @noble/post-quantum.
const crypto = require('crypto')

let sumo = null
async function init () {
  if (sumo) return
  sumo = require('libsodium-wrappers-sumo')
  await sumo.ready
}
const lsw = () => {
  if (!sumo) throw new Error('libsodium-wrappers-sumo (the reference) is not loaded')
  return sumo
}

const b64u = (s) => new Uint8Array(Buffer.from(s, 'base64url'))
const PKCS8 = { ed25519: '302e020100300506032b657004220420', x25519: '302e020100300506032b656e04220420' }

function privateKey (type, seed) {
  const der = Buffer.concat([Buffer.from(PKCS8[type], 'hex'), seed])
  return crypto.createPrivateKey({ key: der, format: 'der', type: 'pkcs8' })
}

function publicOf (type, seed) {
  return b64u(crypto.createPublicKey(privateKey(type, seed)).export({ format: 'jwk' }).x)
}

const ed25519 = {
  privateKey: (seed) => privateKey('ed25519', seed),
  publicKey: (seed) => publicOf('ed25519', seed),
  sign: (m, seed) => new Uint8Array(crypto.sign(null, m, privateKey('ed25519', seed)))
}

const x25519 = {
  privateKey: (sk) => privateKey('x25519', sk),
  publicKey: (sk) => publicOf('x25519', sk),
  publicKeyObject: (pk) => crypto.createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: Buffer.from(pk).toString('base64url') }, format: 'jwk' }),
  shared: (sk, pk) => new Uint8Array(crypto.diffieHellman({ privateKey: privateKey('x25519', sk), publicKey: x25519.publicKeyObject(pk) }))
}

// node:crypto AEADs, output as libsodium lays it out: ciphertext || tag
function aead (alg, k, n, m) {
  const c = crypto.createCipheriv(alg, k, n, { authTagLength: 16 })
  return new Uint8Array(Buffer.concat([c.update(m), c.final(), c.getAuthTag()]))
}

const hash = (alg, m) => new Uint8Array(crypto.createHash(alg).update(m).digest())
const hmac = (alg, k, m) => new Uint8Array(crypto.createHmac(alg, k).update(m).digest())
const scrypt = (pw, salt, N, r, p, len) => new Uint8Array(crypto.scryptSync(pw, salt, len, { N, r, p, maxmem: 256 * N * r + (64 << 20) }))

function equalBytes (a, b) {
  if (!(a instanceof Uint8Array)) return `answer is ${describe(a)}, not bytes`
  if (a.length !== b.length) return `answer is ${a.length} bytes, the reference ${b.length}`
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return `answer differs from the reference at byte ${i} of ${a.length}`
  }
  return true
}

function describe (x) {
  if (x === null || x === undefined) return String(x)
  if (ArrayBuffer.isView(x)) return `${x.constructor.name}(${x.length})`
  if (typeof x === 'object') return `${x.constructor ? x.constructor.name : 'object'} {${Object.keys(x).join(', ')}}`
  return `${typeof x} ${String(x).slice(0, 40)}`
}

const differ = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)) !== 0
const allZero = (a) => a.every((x) => x === 0)

module.exports = { init, lsw, ed25519, x25519, aead, hash, hmac, scrypt, equalBytes, describe, differ, allZero, b64u }

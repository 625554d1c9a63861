'use strict'
// One-shot hashes and HMAC at the four sizes: SHA-256, SHA-512, SHA3-256, SHA3-512, BLAKE2b-256
// and BLAKE2b-512 (unkeyed crypto_generichash), SHAKE128 (32-byte output) and SHAKE256 (64),
// HMAC-SHA-256 with a 32-byte key; TurboSHAKE128/256 (32/64 bytes) at 1 KB and 1 MB (only
// libsodium.js and noble have it).
const ref = require('./ref')
const { TAG, fill } = require('../inputs')

// node:crypto's fastest one-shot: crypto.hash() (Node >= 20.12), else createHash(); an XOF's
// output length needs createHash's options
const nodeHash = (c, alg, m, opts) => typeof c.hash === 'function' && !opts
  ? () => c.hash(alg, m, 'buffer')
  : () => c.createHash(alg, opts).update(m).digest()

// hash-wasm: the hasher is created once (outside the loop), then init/update/digest per call
const hashWasm = (create) => async (hw) => {
  const h = await create(hw)
  return (m) => { h.init(); h.update(m); return h.digest('binary') }
}

const HASHES = [
  {
    op: 'sha256',
    raw: 'crypto_hash_sha256',
    ref: (m) => ref.hash('sha256', m),
    node: 'sha256',
    noble: (n, m) => n.sha256(m),
    hashWasm: (hw) => hw.createSHA256()
  },
  {
    op: 'sha512',
    raw: 'crypto_hash_sha512',
    ref: (m) => ref.hash('sha512', m),
    node: 'sha512',
    noble: (n, m) => n.sha512(m),
    hashWasm: (hw) => hw.createSHA512(),
    tweetnacl: (t, m) => t.hash(m)
  },
  {
    op: 'sha3-256',
    raw: 'crypto_hash_sha3256',
    ref: (m) => ref.hash('sha3-256', m),
    node: 'sha3-256',
    noble: (n, m) => n.sha3_256(m),
    hashWasm: (hw) => hw.createSHA3(256)
  },
  {
    op: 'sha3-512',
    raw: 'crypto_hash_sha3512',
    ref: (m) => ref.hash('sha3-512', m),
    node: 'sha3-512',
    noble: (n, m) => n.sha3_512(m),
    hashWasm: (hw) => hw.createSHA3(512)
  },
  {
    op: 'blake2b-256',
    raw: 'crypto_generichash',
    refName: 'libsodium-wrappers-sumo',
    ref: (m) => ref.lsw().crypto_generichash(32, m),
    node: null,
    noble: (n, m) => n.blake2b(m, { dkLen: 32 }),
    hashWasm: (hw) => hw.createBLAKE2b(256)
  },
  {
    op: 'blake2b-512',
    raw: 'crypto_generichash',
    outBytes: 64,
    lsw: (f, m) => () => f(64, m),
    ref: (m) => ref.hash('blake2b512', m),
    node: 'blake2b512',
    noble: (n, m) => n.blake2b(m, { dkLen: 64 }),
    hashWasm: (hw) => hw.createBLAKE2b(512)
  },
  // the XOFs: output length = outBytes; node:crypto's createHash takes it as outputLength
  {
    op: 'shake128',
    raw: 'crypto_xof_shake128',
    outBytes: 32,
    lsw: (f, m) => () => f(32, m),
    ref: (m) => new Uint8Array(require('crypto').createHash('shake128', { outputLength: 32 }).update(m).digest()),
    node: 'shake128',
    nodeOpts: { outputLength: 32 },
    noble: (n, m) => n.shake128(m, { dkLen: 32 })
  },
  {
    op: 'shake256',
    raw: 'crypto_xof_shake256',
    outBytes: 64,
    lsw: (f, m) => () => f(64, m),
    ref: (m) => new Uint8Array(require('crypto').createHash('shake256', { outputLength: 64 }).update(m).digest()),
    node: 'shake256',
    nodeOpts: { outputLength: 64 },
    noble: (n, m) => n.shake256(m, { dkLen: 64 })
  },
  {
    op: 'turboshake128',
    raw: 'crypto_xof_turboshake128',
    outBytes: 32,
    sizes: [1024, 1 << 20],
    lsw: (f, m) => () => f(32, m),
    refName: 'libsodium-wrappers-sumo',
    ref: (m) => ref.lsw().crypto_xof_turboshake128(32, m),
    node: null,
    nodeWhy: 'node:crypto has no TurboSHAKE',
    noble: (n, m) => n.turboshake128(m, { dkLen: 32 })
  },
  {
    op: 'turboshake256',
    raw: 'crypto_xof_turboshake256',
    outBytes: 64,
    sizes: [1024, 1 << 20],
    lsw: (f, m) => () => f(64, m),
    refName: 'libsodium-wrappers-sumo',
    ref: (m) => ref.lsw().crypto_xof_turboshake256(64, m),
    node: null,
    nodeWhy: 'node:crypto has no TurboSHAKE',
    noble: (n, m) => n.turboshake256(m, { dkLen: 64 })
  }
]

module.exports = function hashCases (b, { sizes }) {
  const cases = []
  for (const h of HASHES) {
    const outBytes = h.outBytes || (h.op === 'sha512' || h.op === 'sha3-512' ? 64 : 32)
    for (const size of sizes) {
      if (h.sizes && !h.sizes.includes(size)) continue
      const m = fill(TAG.MSG, size)
      const lswName = h.op === 'blake2b-256' ? 'crypto_generichash' : h.raw
      const lswCall = h.lsw || ((f) => h.op === 'blake2b-256' ? () => f(32, m) : () => f(m))
      cases.push({
        family: 'hash',
        op: h.op,
        size,
        ceiling: { op: h.op.replace(/-/g, '_'), args: [size] },
        ref: h.refName || 'node:crypto',
        expect: () => h.ref(m),
        contenders: [
          ...b.raw(h.raw, { outs: [outBytes], call: (f, out) => f(out, m) }),
          ...(h.node
            ? b.node((c) => nodeHash(c, h.node, m, h.nodeOpts))
            : b.none('node', 'node:crypto', h.nodeWhy || 'node:crypto has BLAKE2b-512 only (no 256-bit output)')),
          ...b.lsw(lswName, (f) => lswCall(f, m)),
          ...b.noble('@noble/hashes', (n) => () => h.noble(n, m)),
          ...(h.hashWasm
            ? b.hashWasm(async (hw) => { const run = await hashWasm(h.hashWasm)(hw); return () => run(m) })
            : b.none('hash-wasm', 'hash-wasm', `hash-wasm has no ${h.op}`)),
          ...(h.tweetnacl ? b.tweetnacl((t) => () => h.tweetnacl(t, m)) : [])
        ]
      })
    }
  }

  const k = fill(TAG.KEY, 32)
  for (const size of sizes) {
    const m = fill(TAG.MSG, size)
    cases.push({
      family: 'hash',
      op: 'hmac-sha256',
      size,
      ceiling: { op: 'hmac_sha256', args: [size] },
      ref: 'node:crypto',
      expect: () => ref.hmac('sha256', k, m),
      contenders: [
        ...b.raw('crypto_auth_hmacsha256', { outs: [32], call: (f, out) => f(out, m, k) }),
        ...b.node((c) => { const key = c.createSecretKey(k); return () => c.createHmac('sha256', key).update(m).digest() }),
        ...b.lsw('crypto_auth_hmacsha256', (f) => () => f(m, k)),
        ...b.noble('@noble/hashes', (n) => () => n.hmac(n.sha256, k, m)),
        ...b.hashWasm(async (hw) => { const run = await hashWasm((w) => w.createHMAC(w.createSHA256(), k))(hw); return () => run(m) })
      ]
    })
  }
  return cases
}

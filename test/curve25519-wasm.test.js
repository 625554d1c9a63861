'use strict'
// The wasm build's Curve25519 (src/crypto/fe25519_x2.c, x25519_simd128.c, ed25519_simd128.c, on
// two-lane SIMD128): which code runs behind libsodium's X25519 and Ed25519 functions (a call
// counter in the module, since wasm has no gdb), the same bytes as libsodium's own ref10 in the
// same module (natrium_wasm_curve25519('libsodium')) and as libsodium-wrappers, and the sign,
// core, box, x25519 and ed25519 files passing again with libsodium's code switched in (a child
// run, NATRIUM_TEST_WASM_CURVE25519=libsodium). test/c/curve25519_x2.c checks the C itself.
const assert = require('assert')
const path = require('path')
const { backends, toHex, random, rerunWasm } = require('./helpers')

const CHILD = !!process.env.NATRIUM_TEST_WASM_CURVE25519
const wasm = backends.find((b) => b.name === 'wasm')

describe('curve25519 on wasm', function () {
  before(function () {
    if (!wasm || CHILD) this.skip()
  })
  afterEach(() => wasm.raw.natrium_wasm_curve25519('simd128'))

  const calls = (fn) => {
    const before = wasm.raw.natrium_wasm_curve25519_calls()
    fn()
    return wasm.raw.natrium_wasm_curve25519_calls() - before
  }

  it('runs ours by default behind key pairs, sign, verify, scalarmult and scalarmult_base; libsodium\'s when switched (the module\'s call counter)', () => {
    const raw = wasm.raw
    assert.strictEqual(raw.natrium_wasm_curve25519(), 'simd128')
    const pk = new Uint8Array(32); const sk = new Uint8Array(64); const sig = new Uint8Array(64)
    const q = new Uint8Array(32); const m = random(10)
    const ops = () => [
      calls(() => raw.crypto_sign_keypair(pk, sk)), // a B, its encoding
      calls(() => raw.crypto_sign_detached(sig, m, sk)), // R = r B, its encoding
      calls(() => assert.strictEqual(raw.crypto_sign_verify_detached(sig, m, pk), true)), // the half-size product alone
      calls(() => raw.crypto_scalarmult(q, sk.subarray(0, 32), pk)), // the ladder
      calls(() => raw.crypto_scalarmult_base(q, sk.subarray(0, 32))) // the Edwards table, then (Z + Y) / (Z - Y)
    ]
    assert.deepStrictEqual(ops(), [2, 2, 1, 1, 1])
    assert.strictEqual(raw.natrium_wasm_curve25519('libsodium'), 'libsodium')
    // a B stays ours (libsodium's table is not in the module); everything else is libsodium's
    assert.deepStrictEqual(ops(), [1, 1, 0, 0, 1])
    assert.strictEqual(raw.natrium_wasm_curve25519('simd128'), 'simd128')
    assert.throws(() => raw.natrium_wasm_curve25519('ref10'), RangeError)
  })

  // fn's answer with our curve code and with libsodium's, in the same module: equal
  const both = (fn) => {
    wasm.raw.natrium_wasm_curve25519('simd128')
    const ours = fn()
    wasm.raw.natrium_wasm_curve25519('libsodium')
    const theirs = fn()
    wasm.raw.natrium_wasm_curve25519('simd128')
    assert.deepStrictEqual(ours, theirs)
    return ours
  }

  it('gives libsodium\'s ref10 bytes in the same module: X25519, key pairs, signatures, verify (valid and tampered)', () => {
    const { sodium } = wasm
    let refused = 0
    for (let i = 0; i < 200; i++) {
      const n = random(32); const u = random(32)
      if (i % 4 === 0) u[31] |= 0x80
      if (i % 16 === 1) { u.fill(0xff, 1); u[0] = 0xed + (i % 19); u[31] = 0x7f } // u >= p
      if (i % 16 === 2) { u.fill(0); u[0] = i & 1 } // 0 and 1: refused
      refused += both(() => {
        const out = Buffer.alloc(32)
        try { sodium.crypto_scalarmult(out, n, u) } catch { return 'refused' }
        return toHex(out)
      }) === 'refused'
      const seed = random(32); const m = random(i % 70)
      const [pk, sig] = both(() => {
        const pk = Buffer.alloc(32); const sk = Buffer.alloc(64); const sig = Buffer.alloc(64)
        sodium.crypto_sign_seed_keypair(pk, sk, seed)
        sodium.crypto_sign_detached(sig, m, sk)
        return [toHex(pk), toHex(sig)]
      }).map((h) => Buffer.from(h, 'hex'))
      const bad = Buffer.from(sig); bad[i % 64] ^= 1 << (i % 8)
      const noise = random(64)
      const answers = both(() => [sig, bad, noise].map((s) => sodium.crypto_sign_verify_detached(s, m, pk)))
      assert.strictEqual(answers[0], true)
    }
    assert.ok(refused >= 12, `${refused} small-order inputs refused`)
  })

  // A = a B + T, R = r B + k T with T of order 8: valid for libsodium exactly when k = -h mod 8
  // (S = r + h a), which the half-size verify only gets right with its lattice modulo 8 L (c A =
  // d h A for A of any order); R + 4 T is refused by both. Through verify_detached and open.
  it('agrees with libsodium on signatures with mixed-order A and R (accepted and refused)', () => {
    const { sodium } = wasm
    const T = Buffer.from('c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a', 'hex')
    const add = (p, q) => { const o = Buffer.alloc(32); sodium.crypto_core_ed25519_add(o, p, q); return o }
    const mulBase = (s) => { const o = Buffer.alloc(32); sodium.crypto_scalarmult_ed25519_base_noclamp(o, s); return o }
    const scalar = () => { const s = Buffer.alloc(32); sodium.crypto_core_ed25519_scalar_random(s); return s }
    const T4 = add(add(T, T), add(T, T))
    const answers = (sig, m, A) => {
      const sm = Buffer.concat([sig, m]); const out = Buffer.alloc(m.length)
      return both(() => [sodium.crypto_sign_verify_detached(sig, m, A), sodium.crypto_sign_open(out, sm, A)])
    }
    for (let i = 0; i < 16; i++) {
      const a = scalar(); const A = add(mulBase(a), T); const m = random(i * 5)
      let found = false
      for (let tries = 0; !found; tries++) {
        assert.ok(tries < 400, 'no R with k = -h mod 8')
        const r = scalar(); const k = tries % 8
        let R = mulBase(r)
        for (let j = 0; j < k; j++) R = add(R, T)
        const wide = Buffer.alloc(64); const h = Buffer.alloc(32); const ha = Buffer.alloc(32); const S = Buffer.alloc(32)
        sodium.crypto_hash_sha512(wide, Buffer.concat([R, A, m]))
        sodium.crypto_core_ed25519_scalar_reduce(h, wide)
        if (((h[0] + k) & 7) !== 0) continue
        sodium.crypto_core_ed25519_scalar_mul(ha, h, a)
        sodium.crypto_core_ed25519_scalar_add(S, r, ha)
        assert.deepStrictEqual(answers(Buffer.concat([R, S]), m, A), [true, true])
        assert.deepStrictEqual(answers(Buffer.concat([add(R, T4), S]), m, A), [false, false])
        found = true
      }
    }
  })

  it('sign, core, box, x25519 and ed25519 pass with libsodium\'s curve code switched in (child process)', function () {
    this.timeout(480000)
    const files = ['sign.test.js', 'core.test.js', 'box.test.js', 'x25519.test.js', 'ed25519.test.js', __filename]
    rerunWasm(files.map((f) => path.resolve(__dirname, f)), { NATRIUM_TEST_WASM_CURVE25519: 'libsodium' })
  })
})

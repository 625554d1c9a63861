'use strict'
// crypto_core_* and crypto_scalarmult_*: Wycheproof X25519, RFC 7748, RFC 9496 (ristretto255),
// libsodium's own test/default vectors, group and scalar identities, aliasing and overlap rules,
// and differential checks against node:crypto (X25519, Ed25519 public keys), sodium-native 5.1.0
// (every function it has) and libsodium-wrappers-sumo 0.8.4 (Ristretto255, scalar_mul, the
// HChaCha20/HSalsa20 cores, which sodium-native lacks).
const assert = require('assert')
const crypto = require('crypto')
const SodiumNative = require('sodium-native')
const wrappers = require('libsodium-wrappers-sumo')
const { backends, hex, toHex, random, wycheproof, vectors, byName } = require('./helpers')

const ED = 'crypto_core_ed25519'
const RI = 'crypto_core_ristretto255'
const failed = (name) => (e) => e instanceof Error && !(e instanceof RangeError) && !(e instanceof TypeError) &&
  e.message === `${name} failed`
const rangeError = (start) => (e) => e instanceof RangeError && e.message.startsWith(start)
const isZero = (b) => b.every((x) => x === 0)

// node:crypto X25519/Ed25519 with raw keys, each key imported once.
const PKCS8 = { x25519: '302e020100300506032b656e04220420', ed25519: '302e020100300506032b657004220420' }
const SPKI_X25519 = hex('302a300506032b656e032100')
const nodePrivate = (type, raw) => crypto.createPrivateKey({ key: Buffer.concat([hex(PKCS8[type]), raw]), format: 'der', type: 'pkcs8' })
const nodePublicRaw = (key) => crypto.createPublicKey(key).export({ format: 'der', type: 'spki' }).subarray(-32)
const nodeX25519Public = (raw) => crypto.createPublicKey({ key: Buffer.concat([SPKI_X25519, raw]), format: 'der', type: 'spki' })

// Runs fn and reports 'threw' or its return value, for differential comparisons.
const outcome = (fn) => { try { return fn() } catch (e) { return e instanceof RangeError || e instanceof TypeError ? `${e.name}` : 'threw' } }

// Functions this file calls only through composed names, in full (see byName in helpers.js)
const BY_NAME = [
  'crypto_core_ed25519_scalar_negate',
  'crypto_core_ed25519_scalar_complement',
  'crypto_core_ed25519_scalar_add',
  'crypto_core_ed25519_scalar_sub',
  'crypto_core_ed25519_scalar_mul',
  'crypto_core_ristretto255_scalar_negate',
  'crypto_core_ristretto255_scalar_complement',
  'crypto_core_ristretto255_scalar_mul',
  'crypto_core_ristretto255_scalar_reduce',
  'crypto_core_salsa2012',
  'crypto_core_salsa208',
  'crypto_core_keccak1600_init',
  'crypto_core_keccak1600_xor_bytes',
  'crypto_core_keccak1600_extract_bytes',
  'crypto_core_keccak1600_permute_24',
  'crypto_core_keccak1600_permute_12'
]

for (const { name: backend, sodium: surface } of backends) {
  const { sodium, calledEveryName } = byName(surface, BY_NAME)
  describe(`core [${backend}]`, () => {
    after(calledEveryName)
    const x25519 = (n, p) => { const q = new Uint8Array(32); sodium.crypto_scalarmult(q, n, p); return q }
    const call = (fn, outLen, ...args) => { const out = new Uint8Array(outLen); sodium[fn](out, ...args); return out }

    describe('crypto_scalarmult (X25519)', () => {
      it('Wycheproof x25519_test.json: valid and acceptable cases match; all-zero results are refused', () => {
        // libsodium's policy (its scalarmult8.c runs a subset of this file): any public key is
        // accepted (non-canonical, twist, bit 255 set) except those whose shared secret is all
        // zeros, which crypto_scalarmult refuses. Wycheproof calls those 'acceptable' too.
        let zero = 0
        for (const t of wycheproof('x25519_test.json')) {
          const [pub, priv] = [hex(t.public), hex(t.private)]
          if (/^(00)+$/.test(t.shared)) {
            zero++
            assert.strictEqual(t.result, 'acceptable', `tcId ${t.tcId}`)
            assert.ok(t.flags.some((f) => f === 'ZeroSharedSecret' || f === 'LowOrderPublic'), `tcId ${t.tcId}`)
            assert.throws(() => x25519(priv, pub), failed('crypto_scalarmult'), `tcId ${t.tcId}`)
            assert.throws(() => call('crypto_scalarmult_curve25519', 32, priv, pub), failed('crypto_scalarmult_curve25519'))
          } else {
            assert.ok(t.result === 'valid' || t.result === 'acceptable', `tcId ${t.tcId}: ${t.result}`)
            assert.strictEqual(toHex(x25519(priv, pub)), t.shared, `tcId ${t.tcId} (${t.comment})`)
          }
        }
        assert.strictEqual(zero, 31)
      })

      it('RFC 7748 section 5.2 vectors, the iterated function (1 and 1,000 rounds) and the 6.1 exchange', () => {
        const v = vectors('rfc7748_x25519.json')
        for (const t of v.scalarmult) assert.strictEqual(toHex(x25519(hex(t.scalar), hex(t.u))), t.out)
        let k = hex(v.iterated.start)
        let u = hex(v.iterated.start)
        for (let i = 1; i <= 1000; i++) {
          const r = x25519(k, u)
          u = k
          k = r
          if (v.iterated.after[i]) assert.strictEqual(toHex(k), v.iterated.after[i], `after ${i}`)
        }
        const dh = v.diffie_hellman
        assert.strictEqual(toHex(call('crypto_scalarmult_base', 32, hex(dh.alice_private))), dh.alice_public)
        assert.strictEqual(toHex(call('crypto_scalarmult_curve25519_base', 32, hex(dh.bob_private))), dh.bob_public)
        assert.strictEqual(toHex(x25519(hex(dh.alice_private), hex(dh.bob_public))), dh.shared)
        assert.strictEqual(toHex(x25519(hex(dh.bob_private), hex(dh.alice_public))), dh.shared)
      })

      it('libsodium scalarmult.c: base points, both directions, bit 255 ignored, small order refused', () => {
        for (const t of vectors('libsodium/scalarmult.json').tests) {
          const [n, p] = [hex(t.n), t.p && hex(t.p)]
          if (t.q === null) {
            const q = new Uint8Array(32).fill(1)
            assert.throws(() => sodium.crypto_scalarmult(q, n, p), failed('crypto_scalarmult'))
            assert.ok(isZero(q), 'a refused X25519 result is the all-zero output')
          } else if (p === null) {
            assert.strictEqual(toHex(call('crypto_scalarmult_base', 32, n)), t.q)
          } else {
            assert.strictEqual(toHex(x25519(n, p)), t.q)
          }
        }
      })

      it('equals node:crypto X25519 (public keys and shared secrets) on random keys', () => {
        for (let i = 0; i < 32; i++) {
          const [a, b] = [random(32), random(32)]
          const [ka, kb] = [nodePrivate('x25519', a), nodePrivate('x25519', b)]
          const [pa, pb] = [nodePublicRaw(ka), nodePublicRaw(kb)]
          assert.strictEqual(toHex(call('crypto_scalarmult_base', 32, a)), pa.toString('hex'))
          assert.strictEqual(toHex(call('crypto_scalarmult_curve25519_base', 32, b)), pb.toString('hex'))
          const expected = crypto.diffieHellman({ privateKey: ka, publicKey: nodeX25519Public(pb) })
          assert.strictEqual(toHex(x25519(a, pb)), expected.toString('hex'))
          assert.strictEqual(toHex(call('crypto_scalarmult_curve25519', 32, b, pa)), expected.toString('hex'))
          // arbitrary 32-byte strings as public keys (twist points included)
          const u = random(32)
          assert.strictEqual(toHex(x25519(a, u)), crypto.diffieHellman({ privateKey: ka, publicKey: nodeX25519Public(u) }).toString('hex'))
        }
      })
    })

    describe('crypto_scalarmult_ed25519', () => {
      const v = vectors('libsodium/scalarmult_ed25519.json').tests[0]
      const B = hex(v.B)
      const scalar = (lo, hi = 0) => { const n = new Uint8Array(32); n[0] = lo; n[31] = hi; return n }
      const mult = (fn, n, p) => call(fn, 32, n, p)

      it('scalarmult_ed25519.c: base = n * B, zero refused, clamping, invalid points refused', () => {
        const n = random(32)
        assert.strictEqual(toHex(mult('crypto_scalarmult_ed25519', n, B)), toHex(call('crypto_scalarmult_ed25519_base', 32, n)))
        for (const fn of ['crypto_scalarmult_ed25519', 'crypto_scalarmult_ed25519_noclamp']) {
          assert.throws(() => mult(fn, scalar(0), B), failed(fn))
          mult(fn, scalar(1), B)
          for (const bad of ['non_canonical_p', 'non_canonical_invalid_p', 'not_main_subgroup_p']) {
            assert.throws(() => mult(fn, scalar(1), hex(v[bad])), failed(fn), bad)
          }
          assert.throws(() => mult(fn, scalar(8), new Uint8Array(32)), failed(fn), 'zero point')
        }
        mult('crypto_scalarmult_ed25519', scalar(1), hex(v.max_canonical_p))
        for (const fn of ['crypto_scalarmult_ed25519_base', 'crypto_scalarmult_ed25519_base_noclamp']) {
          assert.throws(() => call(fn, 32, scalar(0)), failed(fn))
        }
        // clamping: 9 clamps to 8 + 2^254, which noclamp must be given explicitly
        assert.notStrictEqual(toHex(mult('crypto_scalarmult_ed25519', scalar(9), B)), toHex(mult('crypto_scalarmult_ed25519_noclamp', scalar(9), B)))
        assert.notStrictEqual(toHex(call('crypto_scalarmult_ed25519_base', 32, scalar(9))), toHex(call('crypto_scalarmult_ed25519_base_noclamp', 32, scalar(9))))
        assert.strictEqual(toHex(mult('crypto_scalarmult_ed25519', scalar(9), B)), toHex(mult('crypto_scalarmult_ed25519_noclamp', scalar(8, 64), B)))
        assert.strictEqual(toHex(call('crypto_scalarmult_ed25519_base', 32, scalar(9))), toHex(call('crypto_scalarmult_ed25519_base_noclamp', 32, scalar(8, 64))))
      })

      it('base equals node:crypto Ed25519 public keys (A = clamp(SHA-512(seed)[0..32]) * B)', () => {
        for (let i = 0; i < 16; i++) {
          const seed = random(32)
          const a = crypto.createHash('sha512').update(seed).digest().subarray(0, 32)
          assert.strictEqual(toHex(call('crypto_scalarmult_ed25519_base', 32, a)), nodePublicRaw(nodePrivate('ed25519', seed)).toString('hex'))
        }
      })
    })

    describe('crypto_core_ed25519', () => {
      const v = vectors('libsodium/core_ed25519.json').tests[0]
      const C = Object.fromEntries(Object.entries(v.constants).map(([k, x]) => [k, hex(x)]))

      it('core_ed25519.c: is_valid_point and add/sub on edge-case encodings', () => {
        const p = new Uint8Array(32)
        assert.strictEqual(sodium.crypto_core_ed25519_is_valid_point(p), false)
        for (const y of [1, 2, 9]) { p[0] = y; assert.strictEqual(sodium.crypto_core_ed25519_is_valid_point(p), false, `y = ${y}`) }
        assert.strictEqual(sodium.crypto_core_ed25519_is_valid_point(C.max_canonical_p), true)
        for (const bad of ['non_canonical_invalid_p', 'non_canonical_p', 'not_main_subgroup_p']) {
          assert.strictEqual(sodium.crypto_core_ed25519_is_valid_point(C[bad]), false, bad)
        }
        // y = 9 plus p (a non-canonical encoding of the same point): 2q - q gives the canonical form
        const nine = new Uint8Array(32); nine[0] = 9
        const p2 = Buffer.from(nine)
        let carry = 0
        const P = Buffer.concat([Buffer.from([0xed]), Buffer.alloc(30, 0xff), Buffer.from([0x7f])])
        for (let i = 0; i < 32; i++) { const s = p2[i] + P[i] + carry; p2[i] = s & 0xff; carry = s >> 8 }
        const p3 = call('crypto_core_ed25519_add', 32, p2, p2)
        sodium.crypto_core_ed25519_sub(p3, p3, p2)
        assert.notStrictEqual(toHex(p2), toHex(nine))
        assert.strictEqual(toHex(p3), toHex(nine))
        const two = new Uint8Array(32); two[0] = 2
        for (const op of ['add', 'sub']) {
          const fn = `crypto_core_ed25519_${op}`
          assert.throws(() => call(fn, 32, p2, two), failed(fn))
          assert.throws(() => call(fn, 32, two, p2), failed(fn))
          call(fn, 32, p2, C.non_canonical_p)
          call(fn, 32, C.non_canonical_p, p2)
          assert.throws(() => call(fn, 32, p2, C.non_canonical_invalid_p), failed(fn))
          assert.throws(() => call(fn, 32, C.non_canonical_invalid_p, p2), failed(fn))
        }
      })

      it('core_ed25519.c: from_uniform vectors (randombytes_buf_deterministic inputs)', () => {
        assert.strictEqual(v.from_uniform.length, 15)
        for (const t of v.from_uniform) {
          const p = call('crypto_core_ed25519_from_uniform', 32, hex(t.r))
          assert.strictEqual(toHex(p), t.p)
          assert.strictEqual(sodium.crypto_core_ed25519_is_valid_point(p), true)
        }
      })

      // The scalar arithmetic of core_ed25519.c, label by label; Ristretto255's scalar functions
      // are the same arithmetic modulo the same L, so both must print the same results.
      for (const G of [ED, RI]) {
        it(`core_ed25519.c scalar results (invert, negate, complement, add, sub, mul) via ${G}`, () => {
          const op = (name, ...args) => call(`${G}_scalar_${name}`, 32, ...args)
          const seq = (a) => Uint8Array.from({ length: 32 }, (_, i) => a(i))
          const got = {}
          for (const [name, prefix] of [['invert', 'inv'], ['negate', 'neg'], ['complement', 'comp']]) {
            let k = 1
            for (const start of [seq((i) => 255 - i), seq((i) => 32 - i)]) {
              const once = op(name, start)
              got[`${prefix}${k++}`] = once
              got[`${prefix}${k++}`] = op(name, once)
            }
          }
          let k = 1
          for (const fill of [0x69, 0xcd]) {
            const sc2 = new Uint8Array(32).fill(0x42)
            let sc = op('add', new Uint8Array(32).fill(fill), sc2)
            sc = op('add', sc2, sc)
            got[`add${k}`] = sc
            sc = op('sub', sc2, sc)
            got[`sub${k++}`] = op('sub', sc, sc2)
          }
          let sc = new Uint8Array(32).fill(0x69)
          let sc2 = new Uint8Array(32).fill(0x42)
          for (let i = 0; i < 100; i++) { sc = op('mul', sc, sc2); sc2 = op('mul', sc, sc2) }
          got.mul = sc2
          const named = { 'L-1': C.L_1, 'L+1': C.L_p1, 8: C.sc_8, h: C.sc_highbit }
          for (const [label] of Object.entries(v.results)) {
            let m
            if ((m = label.match(/^\((L[-+]1)\)\*(8)$|^(8|h)\((L[-+]1)\)$|^\((L[-+]1)\)(h)$/))) {
              const [a, b] = m.slice(1).filter(Boolean)
              got[label] = op('mul', named[a], named[b])
            } else if ((m = label.match(/^\((L[-+]1)\)\^2$|^(h)\^2$/))) {
              const a = m[1] || m[2]
              got[label] = op('mul', named[a], named[a])
            } else if ((m = label.match(/^\((L[-+]1)\)\+(8|h)$|^(8|h)\+\((L[-+]1)\)$/))) {
              const [a, b] = m.slice(1).filter(Boolean)
              got[label] = op('add', named[a], named[b])
            } else if ((m = label.match(/^\((L[-+]1)\)\*2$|^(h)\*2$/))) {
              const a = m[1] || m[2]
              got[label] = op('add', named[a], named[a])
            }
          }
          assert.deepStrictEqual(Object.keys(got).sort(), Object.keys(v.results).sort())
          for (const [label, expected] of Object.entries(v.results)) assert.strictEqual(toHex(got[label]), expected, label)
          for (const [a, b] of [[C.L, C.sc_8], [C.sc_8, C.L], [C.L, C.L], [C.L, C.L_1], [C.L_1, C.L]]) assert.ok(isZero(op('mul', a, b)))
        })
      }
    })

    describe('crypto_core_ristretto255 and crypto_scalarmult_ristretto255', () => {
      const rfc = vectors('ristretto255_rfc9496.json')

      it('RFC 9496 vectors equal libsodium test/default (core_ristretto255.c, scalarmult_ristretto255.c)', () => {
        const lib = vectors('libsodium/core_ristretto255.json').tests[0]
        assert.deepStrictEqual(rfc.multiples, lib.multiples)
        assert.deepStrictEqual(rfc.invalid_encodings, lib.bad_encodings)
        assert.deepStrictEqual(rfc.from_uniform_bytes.map((t) => ({ r: t.input, p: t.output })), lib.from_hash)
        for (const t of rfc.from_uniform_bytes) assert.strictEqual(crypto.createHash('sha512').update(t.label).digest('hex'), t.input)
      })

      it('RFC 9496: encodings of 0*B .. 15*B (base and point multiplication)', () => {
        const B = hex(rfc.multiples[1])
        for (let k = 0; k < 16; k++) {
          const n = new Uint8Array(32); n[0] = k
          assert.strictEqual(sodium.crypto_core_ristretto255_is_valid_point(hex(rfc.multiples[k])), true)
          if (k === 0) { // the identity: refused as a scalar multiplication result
            assert.strictEqual(rfc.multiples[0], '00'.repeat(32))
            assert.throws(() => call('crypto_scalarmult_ristretto255_base', 32, n), failed('crypto_scalarmult_ristretto255_base'))
            assert.throws(() => call('crypto_scalarmult_ristretto255', 32, n, B), failed('crypto_scalarmult_ristretto255'))
            continue
          }
          assert.strictEqual(toHex(call('crypto_scalarmult_ristretto255_base', 32, n)), rfc.multiples[k], `${k}*B`)
          assert.strictEqual(toHex(call('crypto_scalarmult_ristretto255', 32, n, B)), rfc.multiples[k], `${k}*B`)
          if (k > 1) assert.strictEqual(toHex(call(`${RI}_add`, 32, hex(rfc.multiples[k - 1]), B)), rfc.multiples[k], `${k - 1}*B + B`)
        }
      })

      it('RFC 9496: invalid encodings are refused by is_valid_point, add, sub and scalarmult', () => {
        const B = hex(rfc.multiples[1])
        for (const bad of rfc.invalid_encodings.map(hex)) {
          assert.strictEqual(sodium.crypto_core_ristretto255_is_valid_point(bad), false, toHex(bad))
          for (const op of ['add', 'sub']) {
            assert.throws(() => call(`${RI}_${op}`, 32, bad, B), failed(`${RI}_${op}`))
            assert.throws(() => call(`${RI}_${op}`, 32, B, bad), failed(`${RI}_${op}`))
          }
          assert.throws(() => call('crypto_scalarmult_ristretto255', 32, random(32), bad), failed('crypto_scalarmult_ristretto255'))
        }
      })

      it('RFC 9496: from_hash (the one-way map of 64 uniform bytes)', () => {
        for (const t of rfc.from_uniform_bytes) assert.strictEqual(toHex(call(`${RI}_from_hash`, 32, hex(t.input))), t.output, t.label)
      })

      it('core_ristretto255.c: L * P is the identity; n^-1 * (n * P) = P; (P + Q) - Q = P', () => {
        const L = hex(vectors('libsodium/core_ed25519.json').tests[0].constants.L)
        for (let i = 0; i < 12; i++) {
          const r = call(`${RI}_scalar_random`, 32)
          const s = call(`${RI}_from_hash`, 32, random(64))
          assert.throws(() => call('crypto_scalarmult_ristretto255', 32, L, s), failed('crypto_scalarmult_ristretto255'))
          const s2 = call('crypto_scalarmult_ristretto255', 32, r, s)
          const back = call('crypto_scalarmult_ristretto255', 32, call(`${RI}_scalar_invert`, 32, r), s2)
          assert.strictEqual(toHex(back), toHex(s))
          const q = call(`${RI}_random`, 32)
          assert.strictEqual(toHex(call(`${RI}_sub`, 32, call(`${RI}_add`, 32, s, q), q)), toHex(s))
          assert.strictEqual(toHex(call(`${RI}_sub`, 32, s, s)), '00'.repeat(32))
        }
      })
    })

    describe('group and scalar identities (both groups)', () => {
      for (const G of [ED, RI]) {
        const mult = G === ED ? 'crypto_scalarmult_ed25519_noclamp' : 'crypto_scalarmult_ristretto255'
        const base = G === ED ? 'crypto_scalarmult_ed25519_base_noclamp' : 'crypto_scalarmult_ristretto255_base'
        it(`${G}: scalar field laws, and (a + b) * B = a * B + b * B`, () => {
          const op = (name, ...args) => call(`${G}_scalar_${name}`, 32, ...args)
          const one = new Uint8Array(32); one[0] = 1
          for (let i = 0; i < 30; i++) {
            const [a, b] = [op('reduce', random(64)), call(`${G}_scalar_random`, 32)]
            assert.ok(!isZero(b))
            assert.strictEqual(toHex(op('mul', a, op('invert', a))), toHex(one))
            assert.ok(isZero(op('add', a, op('negate', a))))
            assert.strictEqual(toHex(op('add', a, op('complement', a))), toHex(one))
            assert.strictEqual(toHex(op('sub', op('add', a, b), b)), toHex(a))
            assert.strictEqual(toHex(op('mul', a, b)), toHex(op('mul', b, a)))
            // reduce(x || 0^32) = x for a reduced x
            assert.strictEqual(toHex(op('reduce', Buffer.concat([a, Buffer.alloc(32)]))), toHex(a))
            const lhs = call(base, 32, op('add', a, b))
            const rhs = call(`${G}_add`, 32, call(base, 32, a), call(base, 32, b))
            assert.strictEqual(toHex(lhs), toHex(rhs))
            const P = call(`${G}_random`, 32)
            assert.strictEqual(sodium[`${G}_is_valid_point`](P), true)
            assert.strictEqual(toHex(call(mult, 32, op('mul', a, b), P)), toHex(call(mult, 32, a, call(mult, 32, b, P))))
          }
        })
      }

      it('inverting zero: Ed25519 writes zero without throwing (sodium-native), Ristretto255 throws', () => {
        const recip = new Uint8Array(32).fill(3)
        assert.strictEqual(sodium.crypto_core_ed25519_scalar_invert(recip, new Uint8Array(32)), undefined)
        assert.ok(isZero(recip))
        assert.throws(() => sodium.crypto_core_ristretto255_scalar_invert(recip, new Uint8Array(32)), failed(`${RI}_scalar_invert`))
      })
    })

    describe('HChaCha20, HSalsa20, Salsa20 cores', () => {
      it('xchacha20.c: HChaCha20 vectors, with the default and a custom constant', () => {
        const tests = vectors('libsodium/core_hchacha20.json').tests
        assert.strictEqual(tests.length, 11)
        for (const t of tests) {
          const out = call('crypto_core_hchacha20', 32, hex(t.in), hex(t.key), t.c && hex(t.c))
          assert.strictEqual(toHex(out), t.out)
        }
        const t = tests[0]
        const sigma = Buffer.from('expand 32-byte k')
        assert.strictEqual(toHex(call('crypto_core_hchacha20', 32, hex(t.in), hex(t.key), sigma)), t.out, 'null c means "expand 32-byte k"')
      })

      it('core1.c, core2.c, core4.c, core5.c, core6.c: HSalsa20 and Salsa20 blocks', () => {
        const sub32 = (x, y) => { // little-endian 32-bit x - y, as core6.c prints it
          const r = Buffer.alloc(4)
          r.writeUInt32LE((x.readUInt32LE(0) - y.readUInt32LE(0)) >>> 0)
          return r
        }
        for (const t of vectors('libsodium/core_salsa.json').tests) {
          const [k, input, c] = [hex(t.k), hex(t.in), hex(t.c)]
          if (t.fn === 'crypto_core_salsa20_minus_input') {
            const out = Buffer.from(call('crypto_core_salsa20', 64, input, k, c))
            const words = [[0, c, 0], [20, c, 4], [40, c, 8], [60, c, 12], [24, input, 0], [28, input, 4], [32, input, 8], [36, input, 12]]
            assert.strictEqual(Buffer.concat(words.map(([o, src, i]) => sub32(out.subarray(o, o + 4), src.subarray(i, i + 4)))).toString('hex'), t.out)
            continue
          }
          const len = t.out.length / 2
          assert.strictEqual(toHex(call(t.fn, len, input, k, c)), t.out, t.fn)
          assert.strictEqual(toHex(call(t.fn, len, input, k, null)), t.out, `${t.fn} with c = null (the same sigma)`)
        }
      })

      it('core3.c: SHA-256 of 65536 consecutive Salsa20, Salsa20/12 and Salsa20/8 blocks', () => {
        for (const t of vectors('libsodium/core_salsa_blocks.json').tests) {
          const input = Buffer.alloc(16)
          hex(t.noncesuffix).copy(input)
          const [k, c] = [hex(t.k), hex(t.c)]
          const all = Buffer.alloc(64 * t.blocks)
          for (let i = 0; i < t.blocks; i++) {
            input.writeUInt16LE(i, 8)
            sodium[t.fn](all.subarray(64 * i, 64 * i + 64), input, k, c)
          }
          assert.strictEqual(crypto.createHash('sha256').update(all).digest('hex'), t.sha256, t.fn)
        }
      })
    })

    describe('crypto_core_keccak1600', () => {
      const K = 'crypto_core_keccak1600'
      const fresh = () => { const st = new Uint8Array(sodium[`${K}_STATEBYTES`]).fill(0xff); sodium[`${K}_init`](st); return st }
      const read = (st, len = 200, offset = 0) => { const out = new Uint8Array(len); sodium[`${K}_extract_bytes`](st, out, offset); return out }

      it('core_keccak1600.c: Keccak-f[1600] and Keccak-p[1600,12] vectors, through xor_bytes/extract_bytes', () => {
        for (const t of vectors('libsodium/core_keccak1600.json').tests) {
          const st = fresh()
          assert.ok(isZero(read(st)), 'init zeroes the state')
          sodium[`${K}_xor_bytes`](st, hex(t.input), 0)
          sodium[`${K}_permute_${t.rounds}`](st)
          if (t.output) {
            assert.strictEqual(toHex(read(st)), t.output, `${t.rounds} rounds`)
          } else {
            sodium[`${K}_permute_${t.rounds}`](st)
            assert.strictEqual(toHex(read(st, 32)), t.twice_prefix, `${t.rounds}+${t.rounds} rounds`)
          }
        }
      })

      // FIPS 202 sponges built from the permutation, against node:crypto: SHA3-256/512 (pad 0x06)
      // and SHAKE128/256 (pad 0x1f), absorbing several blocks and squeezing several.
      const sponge = (rate, pad, m, outLen) => {
        const st = fresh()
        let off = 0
        for (; m.length - off >= rate; off += rate) {
          sodium[`${K}_xor_bytes`](st, m.subarray(off, off + rate), 0)
          sodium[`${K}_permute_24`](st)
        }
        sodium[`${K}_xor_bytes`](st, m.subarray(off), 0)
        sodium[`${K}_xor_bytes`](st, Uint8Array.of(pad), m.length - off)
        sodium[`${K}_xor_bytes`](st, Uint8Array.of(0x80), rate - 1)
        sodium[`${K}_permute_24`](st)
        const out = []
        for (let left = outLen; left > 0; left -= rate) {
          out.push(read(st, Math.min(rate, left)))
          if (left > rate) sodium[`${K}_permute_24`](st)
        }
        return Buffer.concat(out).toString('hex')
      }

      it('permute_24 drives SHA3-256, SHA3-512, SHAKE128 and SHAKE256 equal to node:crypto', () => {
        for (const len of [0, 1, 71, 72, 135, 136, 137, 168, 500]) {
          const m = random(len)
          assert.strictEqual(sponge(136, 0x06, m, 32), crypto.createHash('sha3-256').update(m).digest('hex'), `sha3-256 ${len}`)
          assert.strictEqual(sponge(72, 0x06, m, 64), crypto.createHash('sha3-512').update(m).digest('hex'), `sha3-512 ${len}`)
          assert.strictEqual(sponge(168, 0x1f, m, 400), crypto.createHash('shake128', { outputLength: 400 }).update(m).digest('hex'), `shake128 ${len}`)
          assert.strictEqual(sponge(136, 0x1f, m, 300), crypto.createHash('shake256', { outputLength: 300 }).update(m).digest('hex'), `shake256 ${len}`)
        }
      })

      it('xor_bytes and extract_bytes stay inside the 200-byte state (libsodium itself does not check)', () => {
        const st = fresh()
        sodium[`${K}_xor_bytes`](st, Uint8Array.of(0x5a), 199)
        assert.strictEqual(read(st, 1, 199)[0], 0x5a)
        sodium[`${K}_xor_bytes`](st, new Uint8Array(0), 200)
        const none = new Uint8Array(0)
        sodium[`${K}_extract_bytes`](st, none, 200)
        assert.throws(() => sodium[`${K}_xor_bytes`](st, new Uint8Array(2), 199), rangeError('bytes must be at most 200 - offset bytes long'))
        assert.throws(() => sodium[`${K}_extract_bytes`](st, new Uint8Array(201), 0), rangeError('bytes must be at most 200 - offset bytes long'))
        assert.throws(() => sodium[`${K}_xor_bytes`](st, new Uint8Array(0), 201), rangeError('offset must be an integer between 0 and 200'))
        assert.throws(() => sodium[`${K}_permute_24`](new Uint8Array(200)), rangeError('state must be sizeof(crypto_core_keccak1600_state) bytes long'))
        const copy = Uint8Array.from(st)
        read(st, 50, 10)
        assert.strictEqual(toHex(st), toHex(copy), 'extract_bytes leaves the state as it was')
      })
    })

    describe('aliasing and overlap', () => {
      // Every output may be the very buffer of an input: results must equal the separate-buffer ones.
      const point = (G) => call(`${G}_random`, 32)
      const cases = [
        ...[ED, RI].flatMap((G) => [
          [`${G}_add`, () => [point(G), point(G)]],
          [`${G}_sub`, () => [point(G), point(G)]],
          [`${G}_scalar_invert`, () => [call(`${G}_scalar_random`, 32)]],
          [`${G}_scalar_negate`, () => [random(32)]],
          [`${G}_scalar_complement`, () => [random(32)]],
          [`${G}_scalar_add`, () => [random(32), random(32)]],
          [`${G}_scalar_sub`, () => [random(32), random(32)]],
          [`${G}_scalar_mul`, () => [random(32), random(32)]]
        ]),
        [`${ED}_from_uniform`, () => [random(32)]],
        ['crypto_core_hchacha20', () => [random(16), random(32), null], 1],
        ['crypto_core_hsalsa20', () => [random(16), random(32), null], 1],
        ['crypto_scalarmult', () => [random(32), random(32)]],
        ['crypto_scalarmult_base', () => [random(32)]],
        ['crypto_scalarmult_ed25519', () => [random(32), point(ED)]],
        ['crypto_scalarmult_ed25519_noclamp', () => [random(32), point(ED)]],
        ['crypto_scalarmult_ed25519_base', () => [random(32)]],
        ['crypto_scalarmult_ed25519_base_noclamp', () => [random(32)]],
        ['crypto_scalarmult_ristretto255', () => [random(32), point(RI)]],
        ['crypto_scalarmult_ristretto255_base', () => [random(32)]]
      ]
      for (const [fn, inputs, only] of cases) {
        it(`${fn}: output may be an input`, () => {
          const args = inputs()
          const expected = call(fn, 32, ...args)
          args.forEach((a, i) => {
            if (!(a instanceof Uint8Array) || a.length !== 32 || (only !== undefined && i !== only)) return
            const copy = args.map((x) => (x instanceof Uint8Array ? Uint8Array.from(x) : x))
            sodium[fn](copy[i], ...copy)
            assert.strictEqual(toHex(copy[i]), toHex(expected), `output = input ${i}`)
          })
        })
      }

      it('scalar_reduce may write into the first half of its input', () => {
        const s = random(64)
        const expected = call(`${ED}_scalar_reduce`, 32, s)
        sodium.crypto_core_ed25519_scalar_reduce(s.subarray(0, 32), s)
        assert.strictEqual(toHex(s.subarray(0, 32)), toHex(expected))
      })

      it('refuses q partly overlapping n (libsodium stages n in q) and p partly overlapping r', () => {
        const buf = new Uint8Array(64)
        buf.set(random(64))
        for (const fn of ['crypto_scalarmult_base', 'crypto_scalarmult_ed25519_base', 'crypto_scalarmult_ed25519_base_noclamp', 'crypto_scalarmult_ristretto255_base']) {
          assert.throws(() => sodium[fn](buf.subarray(1, 33), buf.subarray(0, 32)), rangeError('q must not overlap n'), fn)
        }
        for (const fn of ['crypto_scalarmult', 'crypto_scalarmult_ed25519', 'crypto_scalarmult_ristretto255']) {
          assert.throws(() => sodium[fn](buf.subarray(8, 40), buf.subarray(0, 32), random(32)), rangeError('q must not overlap n'), fn)
        }
        assert.throws(() => sodium.crypto_core_ed25519_from_uniform(buf.subarray(4, 36), buf.subarray(0, 32)), rangeError('p must not overlap r'))
      })
    })

    describe('differential', () => {
      before(() => wrappers.ready)

      it('every core/scalarmult function shared with sodium-native 5.1.0: same bytes, same throw/no-throw', () => {
        const same = (fn, outLen, ...args) => {
          const a = new Uint8Array(outLen)
          const b = new Uint8Array(outLen)
          const ra = outcome(() => sodium[fn](a, ...args))
          const rb = outcome(() => SodiumNative[fn](b, ...args))
          assert.strictEqual(ra === 'threw', rb === 'threw', `${fn}: ${ra} vs ${rb}`)
          if (ra !== 'threw') assert.strictEqual(toHex(a), toHex(b), fn)
          return ra
        }
        const pointish = () => [random(32), call(`${ED}_random`, 32), call('crypto_scalarmult_ed25519_base', 32, random(32)), new Uint8Array(32)][crypto.randomInt(4)]
        const scalarish = () => [random(32), call(`${ED}_scalar_random`, 32), new Uint8Array(32)][crypto.randomInt(3)]
        const outcomes = new Set()
        for (let i = 0; i < 120; i++) {
          const [p, q, n] = [pointish(), pointish(), scalarish()]
          assert.strictEqual(sodium.crypto_core_ed25519_is_valid_point(p), SodiumNative.crypto_core_ed25519_is_valid_point(p))
          same(`${ED}_from_uniform`, 32, random(32))
          outcomes.add(`add ${same(`${ED}_add`, 32, p, q)}`)
          same(`${ED}_sub`, 32, p, q)
          for (const op of ['invert', 'negate', 'complement']) same(`${ED}_scalar_${op}`, 32, n)
          for (const op of ['add', 'sub']) same(`${ED}_scalar_${op}`, 32, n, scalarish())
          same(`${ED}_scalar_reduce`, 32, random(64))
          outcomes.add(`x25519 ${same('crypto_scalarmult', 32, n, random(32))}`)
          same('crypto_scalarmult_base', 32, n)
          for (const fn of ['crypto_scalarmult_ed25519', 'crypto_scalarmult_ed25519_noclamp']) outcomes.add(`${fn} ${same(fn, 32, n, p)}`)
          for (const fn of ['crypto_scalarmult_ed25519_base', 'crypto_scalarmult_ed25519_base_noclamp']) same(fn, 32, n)
        }
        // both sides of every refusal were exercised
        for (const o of ['add undefined', 'add threw', 'crypto_scalarmult_ed25519 undefined', 'crypto_scalarmult_ed25519 threw']) assert.ok(outcomes.has(o), o)
        same('crypto_scalarmult', 32, random(32), hex(vectors('libsodium/box_small_order.json').tests[0].p))
        // bad lengths throw in both
        for (const [fn, args] of [['crypto_scalarmult', [new Uint8Array(31), random(32), random(32)]],
          ['crypto_scalarmult_base', [new Uint8Array(32), random(31)]],
          [`${ED}_add`, [new Uint8Array(32), random(32), random(33)]],
          [`${ED}_scalar_reduce`, [new Uint8Array(32), random(32)]],
          [`${ED}_from_uniform`, [new Uint8Array(32), random(16)]]]) {
          assert.throws(() => sodium[fn](...args), RangeError, fn)
          assert.throws(() => SodiumNative[fn](...args), fn)
        }
      })

      it('Ristretto255, scalar_mul and the HChaCha20/HSalsa20 cores equal libsodium-wrappers-sumo', () => {
        const w = wrappers
        for (let i = 0; i < 100; i++) {
          const [h, x, y] = [random(64), random(32), random(32)]
          const P = call(`${RI}_from_hash`, 32, h)
          assert.strictEqual(toHex(P), toHex(w.crypto_core_ristretto255_from_hash(h)))
          const Q = call(`${RI}_random`, 32)
          const bytes = random(32)
          assert.strictEqual(sodium.crypto_core_ristretto255_is_valid_point(bytes), w.crypto_core_ristretto255_is_valid_point(bytes))
          assert.strictEqual(toHex(call(`${RI}_add`, 32, P, Q)), toHex(w.crypto_core_ristretto255_add(P, Q)))
          assert.strictEqual(toHex(call(`${RI}_sub`, 32, P, Q)), toHex(w.crypto_core_ristretto255_sub(P, Q)))
          for (const G of [ED, RI]) {
            assert.strictEqual(toHex(call(`${G}_scalar_mul`, 32, x, y)), toHex(w[`${G}_scalar_mul`](x, y)))
            assert.strictEqual(toHex(call(`${G}_scalar_reduce`, 32, h)), toHex(w[`${G}_scalar_reduce`](h)))
          }
          for (const op of ['invert', 'negate', 'complement']) {
            assert.strictEqual(toHex(call(`${RI}_scalar_${op}`, 32, x)), toHex(w[`${RI}_scalar_${op}`](x)), op)
          }
          assert.strictEqual(toHex(call(`${RI}_scalar_add`, 32, x, y)), toHex(w.crypto_core_ristretto255_scalar_add(x, y)))
          assert.strictEqual(toHex(call(`${RI}_scalar_sub`, 32, x, y)), toHex(w.crypto_core_ristretto255_scalar_sub(x, y)))
          assert.strictEqual(toHex(call('crypto_scalarmult_ristretto255', 32, x, P)), toHex(w.crypto_scalarmult_ristretto255(x, P)))
          assert.strictEqual(toHex(call('crypto_scalarmult_ristretto255_base', 32, x)), toHex(w.crypto_scalarmult_ristretto255_base(x)))
          const [inp, k, c] = [random(16), random(32), random(16)]
          for (const core of ['crypto_core_hchacha20', 'crypto_core_hsalsa20']) {
            assert.strictEqual(toHex(call(core, 32, inp, k, c)), toHex(w[core](inp, k, c)), core)
            assert.strictEqual(toHex(call(core, 32, inp, k, null)), toHex(w[core](inp, k, null)), `${core} default constant`)
          }
        }
      })
    })
  })
}

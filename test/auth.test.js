'use strict'
// crypto_auth, crypto_auth_hmacsha256/512/512256 and crypto_onetimeauth(_poly1305): Wycheproof
// HMAC vectors, RFC 4231, RFC 8439 (Poly1305), libsodium's own test/default vectors, streaming
// against one-shot over random splits, tampering, uninitialised states, and differential checks
// against node:crypto and sodium-native on random inputs.
const assert = require('assert')
const crypto = require('crypto')
const SodiumNative = require('sodium-native')
const { backends, hex, toHex, random, wycheproof, vectors, byName } = require('./helpers')

const HMACS = ['crypto_auth_hmacsha256', 'crypto_auth_hmacsha512', 'crypto_auth_hmacsha512256']
const POLY1305 = ['crypto_onetimeauth', 'crypto_onetimeauth_poly1305']
const STREAMING = [...HMACS, ...POLY1305]
const ONE_SHOT = ['crypto_auth', ...STREAMING]
// what node:crypto computes for each libsodium HMAC: the hash and how many bytes of it libsodium keeps
const NODE_HMAC = {
  crypto_auth: ['sha512', 32],
  crypto_auth_hmacsha256: ['sha256', 32],
  crypto_auth_hmacsha512: ['sha512', 64],
  crypto_auth_hmacsha512256: ['sha512', 32]
}

const nodeHmac = (p, key, msg) => {
  const [hash, bytes] = NODE_HMAC[p]
  return crypto.createHmac(hash, key).update(msg).digest().subarray(0, bytes).toString('hex')
}

// Split msg at random points (empty pieces included) and feed the pieces to p_update.
function streamed (sodium, p, key, msg) {
  const state = new Uint8Array(sodium[`${p}_STATEBYTES`])
  sodium[`${p}_init`](state, key)
  let at = 0
  while (at < msg.length) {
    const n = crypto.randomInt(0, Math.min(msg.length - at, 300) + 1)
    sodium[`${p}_update`](state, msg.subarray(at, at + n))
    at += n
  }
  if (crypto.randomInt(2)) sodium[`${p}_update`](state, new Uint8Array(0))
  const out = new Uint8Array(sodium[`${p}_BYTES`])
  sodium[`${p}_final`](state, out)
  return toHex(out)
}

function oneShot (sodium, p, key, msg) {
  const out = new Uint8Array(sodium[`${p}_BYTES`])
  assert.strictEqual(sodium[p](out, msg, key), undefined)
  return toHex(out)
}

// Functions this file calls only through composed names, in full (see byName in helpers.js)
const BY_NAME = [
  'crypto_auth_keygen',
  'crypto_auth_hmacsha256_keygen',
  'crypto_auth_hmacsha512_keygen',
  'crypto_auth_hmacsha512256_keygen',
  'crypto_onetimeauth_keygen',
  'crypto_onetimeauth_poly1305_verify',
  'crypto_onetimeauth_poly1305_keygen',
  'crypto_onetimeauth_poly1305_init',
  'crypto_onetimeauth_poly1305_update',
  'crypto_onetimeauth_poly1305_final'
]

for (const { name: backend, sodium: surface } of backends) {
  const { sodium, calledEveryName } = byName(surface, BY_NAME)
  describe(`auth [${backend}]`, () => {
    after(calledEveryName)
    describe('known answers', () => {
      // Wycheproof's keys have any length (HMAC's *_init takes them; the one-shot functions take
      // only KEYBYTES keys) and some groups test truncated tags (compare prefixes). Every test runs
      // through *_init/update/final; those that fit libsodium's one-shot sizes run through it and
      // through *_verify as well.
      for (const [file, p, hashBytes] of [['hmac_sha256_test.json', 'crypto_auth_hmacsha256', 32], ['hmac_sha512_test.json', 'crypto_auth_hmacsha512', 64]]) {
        it(`${p}: Wycheproof ${file}`, () => {
          const tests = wycheproof(file)
          let oneShots = 0
          for (const t of tests) {
            const [key, msg, tag] = [t.key, t.msg, t.tag].map(hex)
            const valid = t.result === 'valid'
            const full = streamed(sodium, p, key, msg)
            assert.strictEqual(full.startsWith(t.tag), valid, `tcId ${t.tcId}`)
            // HMAC-SHA-512-256 is HMAC-SHA-512 cut to 32 bytes: the 256-bit-tag groups test it too
            const names = [[p, hashBytes]]
            if (p === 'crypto_auth_hmacsha512' && tag.length === 32) names.push(['crypto_auth_hmacsha512256', 32], ['crypto_auth', 32])
            for (const [name, bytes] of names) {
              if (name !== 'crypto_auth') assert.strictEqual(streamed(sodium, name, key, msg).startsWith(t.tag), valid, `${name} tcId ${t.tcId}`)
              if (key.length !== sodium[`${name}_KEYBYTES`] || tag.length !== bytes) continue
              oneShots++
              assert.strictEqual(oneShot(sodium, name, key, msg) === t.tag, valid, `${name} one-shot tcId ${t.tcId}`)
              assert.strictEqual(sodium[`${name}_verify`](tag, msg, key), valid, `${name}_verify tcId ${t.tcId}`)
            }
          }
          // one-shot fits: HMAC-SHA-256's 81 tests with 256-bit keys and tags; HMAC-SHA-512's
          // 256-bit-key groups (3 with 512-bit tags; 3 with 256-bit tags, as HMAC-SHA-512-256 and
          // crypto_auth)
          assert.strictEqual(oneShots, p === 'crypto_auth_hmacsha256' ? 81 : 9)
        })
      }

      it('RFC 4231 test cases 1-7 (HMAC-SHA-256, HMAC-SHA-512, and SHA-512 cut to 256 bits)', () => {
        const { tests } = vectors('rfc4231.json')
        assert.strictEqual(tests.length, 7)
        for (const t of tests) {
          const [key, data] = [hex(t.key), hex(t.data)]
          const prefix = (p, expected) => {
            const got = streamed(sodium, p, key, data)
            if (t.truncated) assert.strictEqual(got.slice(0, expected.length), expected, `case ${t.case} ${p}`)
            else assert.strictEqual(got, expected, `case ${t.case} ${p}`)
          }
          prefix('crypto_auth_hmacsha256', t.sha256)
          prefix('crypto_auth_hmacsha512', t.sha512)
          prefix('crypto_auth_hmacsha512256', t.sha512.slice(0, 64))
        }
      })

      it('libsodium test/default auth.c, auth2.c, auth6.c, onetimeauth.c vectors', () => {
        const { tests } = vectors('libsodium/auth.json')
        assert.strictEqual(tests.length, 7)
        for (const t of tests) {
          const [key, msg, tag] = [t.key, t.message, t.tag].map(hex)
          const p = t.primitive
          if (key.length === sodium[`${p}_KEYBYTES`]) {
            assert.strictEqual(oneShot(sodium, p, key, msg), t.tag, `${t.file} ${p}`)
            assert.strictEqual(sodium[`${p}_verify`](tag, msg, key), true)
          }
          if (p !== 'crypto_auth') assert.strictEqual(streamed(sodium, p, key, msg), t.tag, `${t.file} ${p} streamed`)
        }
        // onetimeauth.c's own split: 100 bytes, 0 bytes, the remaining 31
        const t = tests.find((v) => v.primitive === 'crypto_onetimeauth')
        const msg = hex(t.message)
        const state = new Uint8Array(sodium.crypto_onetimeauth_STATEBYTES)
        const out = new Uint8Array(16)
        sodium.crypto_onetimeauth_init(state, hex(t.key))
        sodium.crypto_onetimeauth_update(state, msg.subarray(0, 100))
        sodium.crypto_onetimeauth_update(state, msg.subarray(0, 0))
        sodium.crypto_onetimeauth_update(state, msg.subarray(100, 131))
        sodium.crypto_onetimeauth_final(state, out)
        assert.strictEqual(toHex(out), t.tag)
      })

      it('RFC 8439 section 2.5.2 Poly1305 vector', () => {
        for (const t of vectors('rfc8439_poly1305.json').tests) {
          for (const p of POLY1305) {
            assert.strictEqual(oneShot(sodium, p, hex(t.key), hex(t.message)), t.tag)
            assert.strictEqual(streamed(sodium, p, hex(t.key), hex(t.message)), t.tag)
          }
        }
      })
    })

    describe('behaviour', () => {
      it('streaming equals one-shot over random splits, 0..2000 bytes, for every streaming MAC', () => {
        for (const p of STREAMING) {
          for (let i = 0; i < 25; i++) {
            const key = new Uint8Array(sodium[`${p}_KEYBYTES`])
            sodium[`${p}_keygen`](key)
            const msg = random(crypto.randomInt(0, 2000))
            assert.strictEqual(streamed(sodium, p, key, msg), oneShot(sodium, p, key, msg), `${p} ${msg.length} bytes`)
          }
        }
      })

      it('a copied state continues independently of its original', () => {
        for (const p of STREAMING) {
          const key = random(32)
          const [a, b] = [random(77), random(50)]
          const state = new Uint8Array(sodium[`${p}_STATEBYTES`])
          sodium[`${p}_init`](state, key)
          sodium[`${p}_update`](state, a)
          const copy = state.slice()
          sodium[`${p}_update`](copy, b)
          const [t1, t2] = [new Uint8Array(sodium[`${p}_BYTES`]), new Uint8Array(sodium[`${p}_BYTES`])]
          sodium[`${p}_final`](state, t1)
          sodium[`${p}_final`](copy, t2)
          assert.strictEqual(toHex(t1), oneShot(sodium, p, key, a))
          assert.strictEqual(toHex(t2), oneShot(sodium, p, key, Buffer.concat([a, b])))
        }
      })

      it('HMAC *_init takes keys of any length, hashing those longer than a block (node:crypto agrees)', () => {
        for (const p of HMACS) {
          for (const len of [0, 1, 31, 32, 33, 64, 127, 128, 129, 200, 1000]) {
            const key = random(len)
            const msg = random(100)
            assert.strictEqual(streamed(sodium, p, key, msg), nodeHmac(p, key, msg), `${p} key of ${len} bytes`)
          }
        }
      })

      it('a flipped bit in the tag, message or key fails verification, for every MAC', () => {
        for (const p of ONE_SHOT) {
          const key = new Uint8Array(sodium[`${p}_KEYBYTES`])
          sodium[`${p}_keygen`](key)
          const msg = random(65)
          const tag = hex(oneShot(sodium, p, key, msg))
          assert.strictEqual(sodium[`${p}_verify`](tag, msg, key), true, p)
          for (const [what, buf] of [['tag', tag], ['msg', msg], ['key', key]]) {
            for (const i of [0, buf.length >> 1, buf.length - 1]) {
              for (const bit of [0x01, 0x80]) {
                buf[i] ^= bit
                assert.strictEqual(sodium[`${p}_verify`](tag, msg, key), false, `${p}: ${what}[${i}] ^ ${bit}`)
                buf[i] ^= bit
              }
            }
          }
          assert.strictEqual(sodium[`${p}_verify`](tag, msg.subarray(1), key), false, `${p}: truncated message`)
          assert.strictEqual(sodium[`${p}_verify`](new Uint8Array(tag.length), msg, key), false, `${p}: zero tag`)
        }
      })

      it('keygen fills KEYBYTES with fresh random bytes', () => {
        for (const p of ONE_SHOT) {
          const [a, b] = [new Uint8Array(sodium[`${p}_KEYBYTES`]), new Uint8Array(sodium[`${p}_KEYBYTES`])]
          sodium[`${p}_keygen`](a)
          sodium[`${p}_keygen`](b)
          assert.notStrictEqual(toHex(a), toHex(b), p)
          assert.ok(a.some((x) => x !== 0), p)
        }
      })

      it('Poly1305 update/final refuse a never-initialised state (instead of writing out of bounds)', () => {
        for (const p of POLY1305) {
          for (let i = 0; i < 20; i++) {
            const state = new Uint8Array(crypto.randomBytes(sodium[`${p}_STATEBYTES`]))
            const before = toHex(state)
            assert.throws(() => sodium[`${p}_update`](state, random(40)), (e) => !(e instanceof RangeError) && e.message === 'invalid state')
            const out = new Uint8Array(16).fill(7)
            assert.throws(() => sodium[`${p}_final`](state, out), (e) => e.message === 'invalid state')
            assert.strictEqual(toHex(state), before, 'state untouched')
            assert.ok(out.every((b) => b === 0), 'out zeroed (a refused call leaves no output)')
          }
          // an all-zero state was never initialised either: it lacks the stamp init writes
          const zero = new Uint8Array(sodium[`${p}_STATEBYTES`])
          assert.throws(() => sodium[`${p}_update`](zero, random(40)), (e) => e.message === 'invalid state')
        }
        // HMAC states are safe with any bytes: update/final just compute something
        for (const p of HMACS) {
          const state = new Uint8Array(crypto.randomBytes(sodium[`${p}_STATEBYTES`]))
          sodium[`${p}_update`](state, random(300))
          sodium[`${p}_final`](state, new Uint8Array(sodium[`${p}_BYTES`]))
        }
      })

      it('rejects wrong sizes: tag, key, state, and Poly1305 *_init keys', () => {
        const range = (name) => (e) => e instanceof RangeError && e.message.startsWith(`${name} must be`)
        for (const p of ONE_SHOT) {
          const B = sodium[`${p}_BYTES`]
          assert.throws(() => sodium[p](new Uint8Array(B + 1), random(3), random(32)), range('out'))
          assert.throws(() => sodium[p](new Uint8Array(B), random(3), random(31)), range('k'))
          assert.throws(() => sodium[`${p}_verify`](new Uint8Array(B - 1), random(3), random(32)), range('h'))
        }
        for (const p of POLY1305) {
          assert.throws(() => sodium[`${p}_init`](new Uint8Array(sodium[`${p}_STATEBYTES`]), random(33)), range('key'))
        }
        for (const p of STREAMING) {
          assert.throws(() => sodium[`${p}_init`](new Uint8Array(sodium[`${p}_STATEBYTES`] - 1), random(32)), range('state'))
          const state = new Uint8Array(sodium[`${p}_STATEBYTES`])
          sodium[`${p}_init`](state, random(32))
          assert.throws(() => sodium[`${p}_final`](state, new Uint8Array(sodium[`${p}_BYTES`] - 1)), range('out'))
        }
      })
    })

    describe('differential', () => {
      it('HMACs equal node:crypto createHmac on random keys and messages', () => {
        for (const p of Object.keys(NODE_HMAC)) {
          for (let i = 0; i < 40; i++) {
            const key = random(32)
            const msg = random(crypto.randomInt(0, 3000))
            const expected = nodeHmac(p, key, msg)
            assert.strictEqual(oneShot(sodium, p, key, msg), expected, `${p} ${msg.length}`)
            if (p !== 'crypto_auth') assert.strictEqual(streamed(sodium, p, key, msg), expected)
            assert.strictEqual(sodium[`${p}_verify`](hex(expected), msg, key), true)
          }
        }
      })

      it('crypto_auth and crypto_onetimeauth equal sodium-native 5.1.0: bytes, results, throws', () => {
        for (const p of ['crypto_auth', 'crypto_onetimeauth']) {
          for (let i = 0; i < 40; i++) {
            const key = random(32)
            const msg = random(crypto.randomInt(0, 1500))
            const [ours, theirs] = [new Uint8Array(sodium[`${p}_BYTES`]), new Uint8Array(sodium[`${p}_BYTES`])]
            assert.strictEqual(sodium[p](ours, msg, key), SodiumNative[p](theirs, msg, key))
            assert.strictEqual(toHex(ours), toHex(theirs))
            if (i % 2) ours[crypto.randomInt(0, ours.length)] ^= 1 << crypto.randomInt(8)
            assert.strictEqual(sodium[`${p}_verify`](ours, msg, key), SodiumNative[`${p}_verify`](ours, msg, key))
          }
          // bad lengths throw in both
          const B = sodium[`${p}_BYTES`]
          for (const bad of [[new Uint8Array(B - 1), random(5), random(32)], [new Uint8Array(B + 1), random(5), random(32)],
            [new Uint8Array(B), random(5), random(31)], [new Uint8Array(B), random(5), random(33)]]) {
            assert.throws(() => sodium[p](...bad))
            assert.throws(() => SodiumNative[p](...bad))
            assert.throws(() => sodium[`${p}_verify`](...bad))
            assert.throws(() => SodiumNative[`${p}_verify`](...bad))
          }
        }
      })

      it('crypto_onetimeauth_init/update/final equal sodium-native 5.1.0 over the same splits', () => {
        for (let i = 0; i < 30; i++) {
          const key = random(32)
          const pieces = Array.from({ length: crypto.randomInt(0, 6) }, () => random(crypto.randomInt(0, 200)))
          const run = (impl) => {
            const state = new Uint8Array(impl.crypto_onetimeauth_STATEBYTES)
            const out = new Uint8Array(16)
            assert.strictEqual(impl.crypto_onetimeauth_init(state, key), undefined)
            for (const m of pieces) assert.strictEqual(impl.crypto_onetimeauth_update(state, m), undefined)
            assert.strictEqual(impl.crypto_onetimeauth_final(state, out), undefined)
            return toHex(out)
          }
          assert.strictEqual(run(sodium), run(SodiumNative))
        }
        const S = sodium.crypto_onetimeauth_STATEBYTES
        for (const impl of [sodium, SodiumNative]) {
          assert.throws(() => impl.crypto_onetimeauth_init(new Uint8Array(S - 1), random(32)))
          assert.throws(() => impl.crypto_onetimeauth_init(new Uint8Array(S), random(31)))
          assert.throws(() => impl.crypto_onetimeauth_final(new Uint8Array(S), new Uint8Array(15)))
        }
      })
    })
  })
}

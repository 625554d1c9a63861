'use strict'
// crypto_generichash, crypto_hash, crypto_xof, crypto_shorthash: libsodium's own vectors (BLAKE2b
// KAT, its .exp outputs, SHA-3/SHAKE/TurboSHAKE tables), FIPS 180-4/202 examples, RFC 9861,
// Wycheproof SipHash; streaming == one-shot on random splits; length rules; misuse (final twice,
// update after squeeze, garbage states); differential checks against node:crypto and sodium-native.
const assert = require('assert')
const crypto = require('crypto')
const SodiumNative = require('sodium-native')
const { backends, hex, toHex, random, wycheproof, vectors, byName } = require('./helpers')

const tests = (file) => vectors(file).tests
const opt = (h) => (h === null ? null : hex(h))
// RFC 9861 section 5: n bytes of the pattern 00 01 .. FA, repeated.
function ptn (n) {
  const out = new Uint8Array(n)
  for (let i = 0; i < n; i++) out[i] = i % 251
  return out
}
const isRange = (re) => (e) => e instanceof RangeError && re.test(e.message)
const isError = (re) => (e) => e.constructor === Error && re.test(e.message)

// Random cut points: `in` fed to update() in 0..5 pieces (empty pieces included).
function pieces (m) {
  const cuts = Array.from({ length: crypto.randomInt(0, 6) }, () => crypto.randomInt(0, m.length + 1)).sort((a, b) => a - b)
  const out = []
  let at = 0
  for (const c of cuts.concat(m.length)) { out.push(m.subarray(at, c)); at = c }
  return out
}

const SHA = { sha256: 'sha256', sha512: 'sha512', sha3256: 'sha3-256', sha3512: 'sha3-512' }
const XOF = ['shake128', 'shake256', 'turboshake128', 'turboshake256']

// Functions this file calls only through composed names, in full (see byName in helpers.js)
const BY_NAME = [
  'crypto_generichash_blake2b_keygen',
  'crypto_generichash_blake2b_init',
  'crypto_generichash_blake2b_update',
  'crypto_generichash_blake2b_final',
  'crypto_xof_shake256_init_with_domain',
  'crypto_xof_turboshake128_init',
  'crypto_xof_turboshake256_init_with_domain'
]

for (const { name: backend, sodium: surface } of backends) {
  const { sodium, calledEveryName } = byName(surface, BY_NAME)
  describe(`hash [${backend}]`, () => {
    after(calledEveryName)
    // Streaming helpers over this backend.
    const hashStream = (p, chunks) => {
      const st = new Uint8Array(sodium[`crypto_hash_${p}_STATEBYTES`])
      const out = new Uint8Array(sodium[`crypto_hash_${p}_BYTES`])
      sodium[`crypto_hash_${p}_init`](st)
      for (const c of chunks) sodium[`crypto_hash_${p}_update`](st, c)
      sodium[`crypto_hash_${p}_final`](st, out)
      return toHex(out)
    }
    const xofStream = (p, chunks, outlen, domain) => {
      const st = new Uint8Array(sodium[`crypto_xof_${p}_STATEBYTES`])
      if (domain === undefined) sodium[`crypto_xof_${p}_init`](st)
      else sodium[`crypto_xof_${p}_init_with_domain`](st, domain)
      for (const c of chunks) sodium[`crypto_xof_${p}_update`](st, c)
      const out = new Uint8Array(outlen)
      for (const piece of pieces(out)) sodium[`crypto_xof_${p}_squeeze`](st, piece)
      return toHex(out)
    }
    const ghStream = (p, { key = null, outlen, chunks, finalLen = outlen, salt, personal }) => {
      const st = new Uint8Array(sodium[`${p}_STATEBYTES`])
      if (salt !== undefined) sodium[`${p}_init_salt_personal`](st, key, outlen, salt, personal)
      else sodium[`${p}_init`](st, key, outlen)
      for (const c of chunks) sodium[`${p}_update`](st, c)
      const out = new Uint8Array(finalLen)
      sodium[`${p}_final`](st, out)
      return toHex(out)
    }

    describe('generichash (BLAKE2b)', () => {
      it('BLAKE2b reference KAT (libsodium test/default/generichash.c): one-shot and streaming', () => {
        const kat = tests('libsodium/generichash_kat.json')
        assert.strictEqual(kat.length, 256)
        for (const t of kat) {
          const [m, k] = [hex(t.in), hex(t.key)]
          for (const p of ['crypto_generichash', 'crypto_generichash_blake2b']) {
            const out = new Uint8Array(64)
            sodium[p](out, m, k)
            assert.strictEqual(toHex(out), t.out, `${p} in ${m.length} bytes`)
            assert.strictEqual(ghStream(p, { key: k, outlen: 64, chunks: pieces(m) }), t.out)
          }
        }
      })

      it('libsodium generichash.exp: every output and key length 1..64 (blake2b); crypto_generichash refuses < 16', () => {
        for (const t of expectCount(tests('libsodium/generichash.json'), 65)) {
          const [m, k, outlen] = [hex(t.in), opt(t.key), t.out.length / 2]
          const out = new Uint8Array(outlen)
          sodium.crypto_generichash_blake2b(out, m, k)
          assert.strictEqual(toHex(out), t.out)
          const generic = new Uint8Array(outlen)
          if (outlen < 16 || (k && k.length < 16)) {
            assert.throws(() => sodium.crypto_generichash(generic, m, k), RangeError)
          } else {
            sodium.crypto_generichash(generic, m, k)
            assert.strictEqual(toHex(generic), t.out)
          }
        }
      })

      it('libsodium generichash2.exp: init/update x3/final at every length; a second final fails', () => {
        for (const t of expectCount(tests('libsodium/generichash2.json'), 64)) {
          const args = { key: hex(t.key), outlen: t.outlen, chunks: t.chunks.map(hex) }
          assert.strictEqual(ghStream('crypto_generichash', args), t.out)
          assert.strictEqual(ghStream('crypto_generichash_blake2b', args), t.out)
        }
        const st = new Uint8Array(sodium.crypto_generichash_STATEBYTES)
        sodium.crypto_generichash_init(st, null, 32)
        const out = new Uint8Array(32)
        sodium.crypto_generichash_final(st, out)
        const again = new Uint8Array(32)
        assert.throws(() => sodium.crypto_generichash_final(st, again), isError(/^crypto_generichash_final failed$/))
        assert.ok(again.every((b) => b === 0), 'nothing written by the failed final')
      })

      it('libsodium generichash3.exp: salt and personal (either may be null), streaming and one-shot', () => {
        for (const t of expectCount(tests('libsodium/generichash3.json'), 75)) {
          const [key, salt, personal, m] = [opt(t.key), opt(t.salt), opt(t.personal), hex(t.in)]
          if (t.mode === 'stream') {
            const args = { key, outlen: t.outlen, chunks: pieces(m), finalLen: t.out.length / 2, salt, personal }
            assert.strictEqual(ghStream('crypto_generichash_blake2b', args), t.out)
          } else {
            const out = new Uint8Array(t.outlen)
            sodium.crypto_generichash_blake2b_salt_personal(out, m, key, salt, personal)
            assert.strictEqual(toHex(out), t.out)
          }
        }
      })

      it('null salt and personal equal all-zero ones; an empty key equals no key', () => {
        const m = random(100)
        const [a, b] = [new Uint8Array(32), new Uint8Array(32)]
        sodium.crypto_generichash_blake2b_salt_personal(a, m, null, null, null)
        sodium.crypto_generichash_blake2b_salt_personal(b, m, new Uint8Array(0), new Uint8Array(16), new Uint8Array(16))
        assert.strictEqual(toHex(a), toHex(b))
        sodium.crypto_generichash(b, m, null)
        assert.strictEqual(toHex(a), toHex(b))
        assert.strictEqual(ghStream('crypto_generichash', { key: new Uint8Array(0), outlen: 32, chunks: [m] }), toHex(a))
      })

      it('length rules: the one-shot takes 16..64-byte outputs and keys; init/final and blake2b take 1..64', () => {
        const m = random(10)
        const gh = sodium.crypto_generichash
        for (const n of [15, 65, 0]) {
          assert.throws(() => gh(new Uint8Array(n), m, null), isRange(/^out must be at (least|most) crypto_generichash_BYTES_M(IN|AX) bytes long$/))
          assert.throws(() => gh(new Uint8Array(32), m, new Uint8Array(n)), isRange(/^key must be at (least|most) crypto_generichash_KEYBYTES_M(IN|AX)/))
        }
        const st = new Uint8Array(sodium.crypto_generichash_STATEBYTES)
        for (const n of [0, 65, 1.5]) {
          assert.throws(() => sodium.crypto_generichash_init(st, null, n), isRange(/^outlen must be an integer between 1 and 64$/))
        }
        assert.throws(() => sodium.crypto_generichash_init(st, new Uint8Array(65), 32), isRange(/^key must be at most crypto_generichash_KEYBYTES_MAX/))
        sodium.crypto_generichash_init(st, new Uint8Array(1), 1)
        for (const n of [0, 65]) {
          assert.throws(() => sodium.crypto_generichash_final(st, new Uint8Array(n)), isRange(/^out must be at (least 1|most crypto_generichash_BYTES_MAX) bytes long$/))
        }
        sodium.crypto_generichash_blake2b(new Uint8Array(1), m, new Uint8Array(1))
        assert.throws(() => sodium.crypto_generichash_blake2b(new Uint8Array(0), m, null), RangeError)
        const saltRule = isRange(/^(salt|personal) must be crypto_generichash_blake2b_(SALT|PERSONAL)BYTES bytes long$/)
        for (const bad of [[new Uint8Array(15), null], [null, new Uint8Array(17)]]) {
          assert.throws(() => sodium.crypto_generichash_blake2b_salt_personal(new Uint8Array(32), m, null, ...bad), saltRule)
          assert.throws(() => sodium.crypto_generichash_blake2b_init_salt_personal(st, null, 32, ...bad), saltRule)
        }
      })

      it('keygen fills a key of KEYBYTES', () => {
        for (const p of ['crypto_generichash', 'crypto_generichash_blake2b', 'crypto_shorthash']) {
          const [a, b] = [new Uint8Array(sodium[`${p}_KEYBYTES`]), new Uint8Array(sodium[`${p}_KEYBYTES`])]
          sodium[`${p}_keygen`](a)
          sodium[`${p}_keygen`](b)
          assert.notStrictEqual(toHex(a), toHex(b), p)
        }
      })
    })

    describe('hash (SHA-2, SHA-3)', () => {
      it('FIPS 180-4 and FIPS 202 examples (empty, abc, 448/896-bit, a million a, 200 x a3), one-shot and streaming', () => {
        for (const t of tests('nist_sha.json')) {
          const m = t.ascii !== undefined ? new Uint8Array(Buffer.from(t.ascii)) : new Uint8Array(t.count).fill(parseInt(t.repeat, 16))
          if (t.primitive.startsWith('shake')) {
            const out = new Uint8Array(t.out.length / 2)
            sodium[`crypto_xof_${t.primitive}`](out, m)
            assert.strictEqual(toHex(out), t.out)
            assert.strictEqual(xofStream(t.primitive, pieces(m), out.length), t.out)
            continue
          }
          const out = new Uint8Array(t.out.length / 2)
          sodium[`crypto_hash_${t.primitive}`](out, m)
          assert.strictEqual(toHex(out), t.out, `${t.primitive} ${m.length} bytes`)
          assert.strictEqual(hashStream(t.primitive, pieces(m)), t.out)
          if (t.primitive === 'sha512') {
            sodium.crypto_hash(out, m)
            assert.strictEqual(toHex(out), t.out, 'crypto_hash is SHA-512')
          }
        }
      })

      it('libsodium hash.exp, hash_sha3256.c, hash_sha3512.c', () => {
        for (const t of expectCount(tests('libsodium/hash.json'), 4)) {
          const out = new Uint8Array(t.out.length / 2)
          sodium[t.primitive === 'sha512' ? 'crypto_hash' : 'crypto_hash_sha256'](out, hex(t.in))
          assert.strictEqual(toHex(out), t.out)
        }
        for (const p of ['sha3256', 'sha3512']) {
          for (const t of expectCount(tests(`libsodium/hash_${p}.json`), 3)) {
            const out = new Uint8Array(t.out.length / 2)
            sodium[`crypto_hash_${p}`](out, hex(t.in))
            assert.strictEqual(toHex(out), t.out)
            assert.strictEqual(hashStream(p, pieces(hex(t.in))), t.out)
          }
        }
      })

      it('SHA-3: a second final fails and wipes out; SHA-2 final leaves a zeroed state', () => {
        for (const p of ['sha3256', 'sha3512']) {
          const st = new Uint8Array(sodium[`crypto_hash_${p}_STATEBYTES`])
          sodium[`crypto_hash_${p}_init`](st)
          sodium[`crypto_hash_${p}_update`](st, random(5))
          const out = new Uint8Array(sodium[`crypto_hash_${p}_BYTES`])
          sodium[`crypto_hash_${p}_final`](st, out)
          out.fill(0x55)
          assert.throws(() => sodium[`crypto_hash_${p}_final`](st, out), isError(new RegExp(`^crypto_hash_${p}_final failed$`)))
          assert.ok(out.every((b) => b === 0), `${p}: out wiped`)
        }
        const st = new Uint8Array(sodium.crypto_hash_sha256_STATEBYTES).fill(7)
        sodium.crypto_hash_sha256_init(st)
        sodium.crypto_hash_sha256_final(st, new Uint8Array(32))
        assert.ok(st.every((b) => b === 0), 'libsodium wipes the SHA-256 state in final')
      })

      it('out may overlap in (the whole input is read first)', () => {
        for (const p of ['sha256', 'sha512', 'sha3256', 'sha3512']) {
          const buf = random(200)
          const expected = crypto.createHash(SHA[p]).update(buf).digest('hex')
          sodium[`crypto_hash_${p}`](buf.subarray(3, 3 + sodium[`crypto_hash_${p}_BYTES`]), buf)
          assert.strictEqual(toHex(buf.subarray(3, 3 + sodium[`crypto_hash_${p}_BYTES`])), expected, p)
        }
      })
    })

    describe('xof (SHAKE, TurboSHAKE)', () => {
      it('libsodium xof_*.c vectors: one-shot and streaming with split squeezes', () => {
        for (const p of XOF) {
          for (const t of expectCount(tests(`libsodium/xof_${p}.json`), 6)) {
            const out = new Uint8Array(t.out.length / 2)
            sodium[`crypto_xof_${p}`](out, hex(t.in))
            assert.strictEqual(toHex(out), t.out, p)
            assert.strictEqual(xofStream(p, pieces(hex(t.in)), out.length), t.out)
          }
        }
      })

      it('RFC 9861 section 5 TurboSHAKE vectors, all domain bytes', () => {
        const all = tests('turboshake_rfc9861.json')
        assert.strictEqual(all.length, 31)
        for (const t of all) {
          const m = typeof t.in === 'string' ? hex(t.in) : ptn(t.in.ptn)
          let out = new Uint8Array(t.outlen)
          if (t.domain === 0x1f) sodium[`crypto_xof_${t.primitive}`](out, m)
          else out = hex(xofStream(t.primitive, [m], t.outlen, t.domain))
          if (t.last) out = out.subarray(out.length - t.last)
          assert.strictEqual(toHex(out), t.out, `${t.primitive} D=${t.domain} ${m.length} bytes`)
        }
      })

      it('init_with_domain(DOMAIN_STANDARD) equals init; the domain byte must be 1..255', () => {
        for (const p of XOF) {
          const m = random(50)
          const std = sodium[`crypto_xof_${p}_DOMAIN_STANDARD`]
          assert.strictEqual(xofStream(p, [m], 40, std), xofStream(p, [m], 40))
          assert.notStrictEqual(xofStream(p, [m], 40, 0x99), xofStream(p, [m], 40))
          const st = new Uint8Array(sodium[`crypto_xof_${p}_STATEBYTES`])
          for (const d of [0, 256, -1, 1.5]) assert.throws(() => sodium[`crypto_xof_${p}_init_with_domain`](st, d), isRange(/^domain must be an integer between 1 and 255$/))
        }
      })

      it('an update after a squeeze is refused and changes nothing: the next squeeze continues the stream', () => {
        for (const p of XOF) {
          const st = new Uint8Array(sodium[`crypto_xof_${p}_STATEBYTES`])
          sodium[`crypto_xof_${p}_init`](st)
          sodium[`crypto_xof_${p}_update`](st, hex('74657374'))
          const first = new Uint8Array(32)
          sodium[`crypto_xof_${p}_squeeze`](st, first)
          const before = toHex(st)
          assert.throws(() => sodium[`crypto_xof_${p}_update`](st, hex('78')), isError(new RegExp(`^crypto_xof_${p}_update failed$`)))
          assert.strictEqual(toHex(st), before, 'a refused update changed the state')
          // (libsodium itself would have permuted the state and gone back to absorbing)
          const next = new Uint8Array(32)
          sodium[`crypto_xof_${p}_squeeze`](st, next)
          const whole = new Uint8Array(64)
          sodium[`crypto_xof_${p}`](whole, hex('74657374'))
          assert.strictEqual(toHex(first) + toHex(next), toHex(whole))
        }
      })

      it('a zero-length output is fine', () => {
        for (const p of XOF) sodium[`crypto_xof_${p}`](new Uint8Array(0), random(3))
      })
    })

    describe('shorthash (SipHash)', () => {
      for (const [p, file, exp] of [['crypto_shorthash', 'siphash_2_4_test.json', 'shorthash'],
        ['crypto_shorthash_siphashx24', 'siphashx_2_4_test.json', 'siphashx24']]) {
        it(`${p}: Wycheproof ${file} and libsodium ${exp}.exp`, () => {
          let n = 0
          for (const t of wycheproof(file)) {
            const out = new Uint8Array(t.tag.length / 2)
            sodium[p](out, hex(t.msg), hex(t.key))
            assert.strictEqual(toHex(out), t.tag, `tcId ${t.tcId}`)
            n++
          }
          assert.strictEqual(n, 40)
          for (const t of expectCount(tests(`libsodium/${exp}.json`), 64)) {
            const out = new Uint8Array(t.out.length / 2)
            sodium[p](out, hex(t.in), hex(t.k))
            assert.strictEqual(toHex(out), t.out)
          }
        })
      }

      it('crypto_shorthash_siphash24 is crypto_shorthash; lengths are exact', () => {
        const [m, k, a, b] = [random(33), random(16), new Uint8Array(8), new Uint8Array(8)]
        sodium.crypto_shorthash(a, m, k)
        sodium.crypto_shorthash_siphash24(b, m, k)
        assert.strictEqual(toHex(a), toHex(b))
        assert.throws(() => sodium.crypto_shorthash(new Uint8Array(16), m, k), isRange(/^out must be crypto_shorthash_BYTES bytes long$/))
        assert.throws(() => sodium.crypto_shorthash_siphashx24(new Uint8Array(16), m, random(15)), isRange(/^k must be crypto_shorthash_siphashx24_KEYBYTES bytes long$/))
      })
    })

    describe('streaming states from JS', () => {
      it('streaming equals one-shot on random inputs and random splits, for every streaming primitive', () => {
        for (let i = 0; i < 40; i++) {
          const m = random(crypto.randomInt(0, 700))
          for (const p of Object.keys(SHA)) {
            const out = new Uint8Array(sodium[`crypto_hash_${p}_BYTES`])
            sodium[`crypto_hash_${p}`](out, m)
            assert.strictEqual(hashStream(p, pieces(m)), toHex(out), p)
          }
          for (const p of XOF) {
            const out = new Uint8Array(crypto.randomInt(0, 400))
            sodium[`crypto_xof_${p}`](out, m)
            assert.strictEqual(xofStream(p, pieces(m), out.length), toHex(out), p)
          }
          const key = i % 2 ? random(crypto.randomInt(16, 65)) : null
          const out = new Uint8Array(crypto.randomInt(16, 65))
          sodium.crypto_generichash(out, m, key)
          assert.strictEqual(ghStream('crypto_generichash', { key, outlen: out.length, chunks: pieces(m) }), toHex(out))
        }
      })

      // src/hash.c bounds fields of libsodium's private state layouts; this pins those offsets
      // (a libsodium upgrade that moves them fails here, not silently).
      // (in the 64-bit layout on every backend: the wasm build converts its 32-bit size_t fields)
      it('the state fields src/hash.c bounds sit where libsodium keeps them', () => {
        const word = 8
        const at = (st, off) => { const b = Buffer.from(st.buffer, st.byteOffset + off, word); return word === 8 ? Number(b.readBigUInt64LE()) : b.readUInt32LE() }
        const gh = new Uint8Array(sodium.crypto_generichash_STATEBYTES)
        sodium.crypto_generichash_init(gh, null, 32)
        sodium.crypto_generichash_update(gh, random(200))
        assert.strictEqual(at(gh, 352), 200, 'blake2b_state.buflen')
        for (const [p, rate, n] of [['sha3256', 136, 32], ['sha3512', 72, 64]]) {
          const st = new Uint8Array(sodium[`crypto_hash_${p}_STATEBYTES`])
          sodium[`crypto_hash_${p}_init`](st)
          sodium[`crypto_hash_${p}_update`](st, random(rate + 5))
          assert.deepStrictEqual([at(st, 224), at(st, 224 + word), at(st, 224 + 2 * word), st[224 + 3 * word]], [5, rate, n, 0], p)
        }
        for (const p of XOF) {
          const st = new Uint8Array(sodium[`crypto_xof_${p}_STATEBYTES`])
          sodium[`crypto_xof_${p}_init_with_domain`](st, 0x42)
          sodium[`crypto_xof_${p}_update`](st, random(7))
          sodium[`crypto_xof_${p}_squeeze`](st, new Uint8Array(3))
          assert.deepStrictEqual([at(st, 224), st[224 + word], st[225 + word]], [3, 1, 0x42], p)
        }
      })

      it('a garbage state throws instead of reading or writing outside it (or hanging)', () => {
        const garbage = (n, fill) => new Uint8Array(n).fill(fill)
        // SHA-3 with a zeroed state (never initialised): rate 0 would loop forever in libsodium.
        for (const p of ['sha3256', 'sha3512']) {
          const n = sodium[`crypto_hash_${p}_STATEBYTES`]
          assert.throws(() => sodium[`crypto_hash_${p}_update`](garbage(n, 0), random(10)), isError(/^invalid state$/))
          assert.throws(() => sodium[`crypto_hash_${p}_final`](garbage(n, 0xff), new Uint8Array(sodium[`crypto_hash_${p}_BYTES`])), isError(/^invalid state$/))
        }
        for (const p of XOF) {
          const n = sodium[`crypto_xof_${p}_STATEBYTES`]
          assert.throws(() => sodium[`crypto_xof_${p}_update`](garbage(n, 0xff), random(10)), isError(/^invalid state$/))
          assert.throws(() => sodium[`crypto_xof_${p}_squeeze`](garbage(n, 0xff), new Uint8Array(10)), isError(/^invalid state$/))
        }
        for (const p of ['crypto_generichash', 'crypto_generichash_blake2b']) {
          const n = sodium[`${p}_STATEBYTES`]
          assert.throws(() => sodium[`${p}_update`](garbage(n, 0xff), random(10)), isError(/^invalid state$/))
          assert.throws(() => sodium[`${p}_final`](garbage(n, 0xff), new Uint8Array(32)), isError(/^invalid state$/))
        }
        // An all-zero (uninitialised) BLAKE2b, SHAKE or SHA-2 state is harmless, if meaningless.
        sodium.crypto_generichash_update(garbage(sodium.crypto_generichash_STATEBYTES, 0), random(300))
        sodium.crypto_xof_shake128_update(garbage(sodium.crypto_xof_shake128_STATEBYTES, 0), random(300))
        sodium.crypto_hash_sha256_update(garbage(sodium.crypto_hash_sha256_STATEBYTES, 0xff), random(300))
      })
    })

    describe('differential', () => {
      it('equals node:crypto (SHA-2, SHA-3, SHAKE, BLAKE2b-512) on random inputs and random splits', () => {
        for (let i = 0; i < 60; i++) {
          const m = random(crypto.randomInt(0, 3000))
          for (const [p, algo] of Object.entries(SHA)) {
            const expected = crypto.createHash(algo).update(m).digest('hex')
            const out = new Uint8Array(expected.length / 2)
            sodium[`crypto_hash_${p}`](out, m)
            assert.strictEqual(toHex(out), expected, `${p} ${m.length}`)
            assert.strictEqual(hashStream(p, pieces(m)), expected, `${p} streaming`)
          }
          for (const p of ['shake128', 'shake256']) {
            const n = crypto.randomInt(0, 500)
            const expected = crypto.createHash(p, { outputLength: n }).update(m).digest('hex')
            const out = new Uint8Array(n)
            sodium[`crypto_xof_${p}`](out, m)
            assert.strictEqual(toHex(out), expected, `${p} ${m.length} -> ${n}`)
            assert.strictEqual(xofStream(p, pieces(m), n), expected, `${p} streaming`)
          }
          const expected = crypto.createHash('blake2b512').update(m).digest('hex')
          const out = new Uint8Array(64)
          sodium.crypto_generichash(out, m, null)
          assert.strictEqual(toHex(out), expected)
          assert.strictEqual(ghStream('crypto_generichash', { outlen: 64, chunks: pieces(m) }), expected)
        }
      })

      it('equals sodium-native 5.1.0 for every shared function: bytes, states, returns, throws', () => {
        const same = (f, ours, theirs) => {
          let a, b
          try { a = sodium[f](...ours) } catch (e) { a = 'threw' }
          try { b = SodiumNative[f](...theirs) } catch (e) { b = 'threw' }
          assert.strictEqual(a, b, `${f}: ${a} vs ${b}`)
          return a
        }
        const twin = (n) => { const a = random(n); return [a, Buffer.from(a)] }
        for (let i = 0; i < 40; i++) {
          const m = random(crypto.randomInt(0, 1000))
          // one-shot: sizes drawn across and just beyond the valid ranges
          const outlen = [15, 16, 32, 64, 65][i % 5]
          const key = [null, random(16), random(64), random(15), random(65), new Uint8Array(0)][i % 6]
          const [o1, o2] = [new Uint8Array(outlen), Buffer.alloc(outlen)]
          same('crypto_generichash', [o1, m, key], [o2, m, key])
          assert.strictEqual(toHex(o1), toHex(o2))
          for (const [f, n] of [['crypto_hash', 64], ['crypto_hash_sha256', 32], ['crypto_hash_sha512', 64]]) {
            const size = i % 7 === 0 ? n - 1 : n
            const [a, b] = [new Uint8Array(size), Buffer.alloc(size)]
            same(f, [a, m], [b, m])
            assert.strictEqual(toHex(a), toHex(b), f)
          }
          const [k, kk] = twin(i % 9 === 0 ? 15 : 16)
          const [s1, s2] = [new Uint8Array(8), Buffer.alloc(8)]
          same('crypto_shorthash', [s1, m, k], [s2, m, kk])
          assert.strictEqual(toHex(s1), toHex(s2))

          // streaming: identical state bytes after every call, identical output
          for (const p of ['sha256', 'sha512']) {
            const f = `crypto_hash_${p}`
            const [st1, st2] = [new Uint8Array(sodium[`${f}_STATEBYTES`]), Buffer.alloc(SodiumNative[`${f}_STATEBYTES`])]
            same(`${f}_init`, [st1], [st2])
            for (const c of pieces(m)) { same(`${f}_update`, [st1, c], [st2, c]); assert.strictEqual(toHex(st1), toHex(st2)) }
            const [a, b] = [new Uint8Array(sodium[`${f}_BYTES`]), Buffer.alloc(SodiumNative[`${f}_BYTES`])]
            same(`${f}_final`, [st1, a], [st2, b])
            assert.strictEqual(toHex(a), toHex(b), f)
          }
          // init takes libsodium's ranges in both: output 1..64, key 0..64 (empty = none)
          const gkey = [null, random(1), random(16), random(64), new Uint8Array(0)][i % 5]
          const glen = [1, 8, 16, 32, 64][i % 5]
          const [g1, g2] = [new Uint8Array(sodium.crypto_generichash_STATEBYTES), Buffer.alloc(SodiumNative.crypto_generichash_STATEBYTES)]
          same('crypto_generichash_init', [g1, gkey, glen], [g2, gkey, glen])
          for (const c of pieces(m)) { same('crypto_generichash_update', [g1, c], [g2, c]); assert.strictEqual(toHex(g1), toHex(g2)) }
          const [a, b] = [new Uint8Array(glen), Buffer.alloc(glen)]
          same('crypto_generichash_final', [g1, a], [g2, b])
          assert.strictEqual(toHex(a), toHex(b))
          same('crypto_generichash_final', [g1, a], [g2, b]) // both refuse a second final
        }
        // bad lengths that both refuse (sodium-native aborts the process on some others: see below)
        const st = [new Uint8Array(SodiumNative.crypto_generichash_STATEBYTES), Buffer.alloc(SodiumNative.crypto_generichash_STATEBYTES)]
        assert.strictEqual(same('crypto_generichash_init', [st[0], null, 65], [st[1], null, 65]), 'threw')
        assert.strictEqual(same('crypto_generichash_init', [st[0], random(65), 32], [st[1], random(65), 32]), 'threw')
        assert.strictEqual(same('crypto_generichash_init', [st[0], null, 0], [st[1], null, 0]), 'threw')
        assert.strictEqual(same('crypto_hash_sha256_final', [new Uint8Array(104), new Uint8Array(31)], [Buffer.alloc(104), Buffer.alloc(31)]), 'threw')
        assert.strictEqual(same('crypto_shorthash', [new Uint8Array(9), random(3), random(16)], [Buffer.alloc(9), random(3), random(16)]), 'threw')
        // sodium-native 5.1.0 aborts on crypto_generichash_final with a 0- or >64-byte output
        // (libsodium's sodium_misuse()); natrium throws a RangeError instead (tested above).
      })
    })
  })
}

function expectCount (rows, n) {
  assert.strictEqual(rows.length, n)
  return rows
}

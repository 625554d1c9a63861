'use strict'
// randombytes_*, sodium_* helpers, crypto_verify_*, the hex/base64 codecs and guarded memory:
// libsodium's own vectors (test/default/randombytes.exp, codecs.c/.exp), BigInt arithmetic,
// Buffer's hex/base64 codecs and Buffer.compare as references, and sodium-native 5.1.0 on the same
// inputs for every function it also has (same bytes out, same result, same throw/no-throw).
const assert = require('assert')
const SodiumNative = require('sodium-native')
const { backends, hex, toHex, random, vectors, byName } = require('./helpers')

const copy = (x) => (ArrayBuffer.isView(x) ? new Uint8Array(x) : x)

// Calls natrium and sodium-native with copies of the same arguments: both throw, or both return
// the same value and leave the same bytes in every buffer argument.
function sameAsSodiumNative (sodium, name, args, why = '') {
  const ours = args.map(copy)
  const theirs = args.map(copy)
  let r1, r2, e1, e2
  try { r1 = sodium[name](...ours) } catch (err) { e1 = err }
  try { r2 = SodiumNative[name](...theirs) } catch (err) { e2 = err }
  const what = `${name} ${why}`
  assert.strictEqual(e1 === undefined, e2 === undefined,
    `${what}: natrium ${e1 ? 'threw ' + e1.message : 'returned'}, sodium-native ${e2 ? 'threw ' + e2.message : 'returned'}`)
  if (e1) {
    // ours are TypeError/RangeError for bad arguments, plain Error for a refusal; never a crash
    assert.ok(e1 instanceof Error, what)
    return e1
  }
  assert.deepStrictEqual(r1, r2, `${what}: results`)
  ours.forEach((x, i) => { if (ArrayBuffer.isView(x)) assert.strictEqual(toHex(x), toHex(theirs[i]), `${what}: argument ${i}`) })
  return r1
}

// Little-endian unsigned integers, as libsodium's sodium_increment/add/sub/compare read them.
const toBig = (b) => BigInt('0x' + (Buffer.from(b).reverse().toString('hex') || '0'))
function fromBig (n, len) {
  const out = new Uint8Array(len)
  for (let i = 0; i < len; i++) { out[i] = Number(n & 0xffn); n >>= 8n }
  return out
}

const VARIANTS = {
  sodium_base64_VARIANT_ORIGINAL: (b) => Buffer.from(b).toString('base64'),
  sodium_base64_VARIANT_ORIGINAL_NO_PADDING: (b) => Buffer.from(b).toString('base64').replace(/=+$/, ''),
  sodium_base64_VARIANT_URLSAFE: (b) => Buffer.from(b).toString('base64').replace(/\+/g, '-').replace(/\//g, '_'),
  sodium_base64_VARIANT_URLSAFE_NO_PADDING: (b) => Buffer.from(b).toString('base64url')
}

// Functions this file calls only through composed names, in full (see byName in helpers.js)
const BY_NAME = [
  'crypto_verify_32',
  'crypto_verify_64'
]

for (const { name: backend, sodium: surface } of backends) {
  const { sodium, calledEveryName } = byName(surface, BY_NAME)
  describe(`utils [${backend}]`, () => {
    after(calledEveryName)
    describe('randombytes', () => {
      it('randombytes_random: 32-bit unsigned integers, high bit set about half the time', () => {
        const draws = Array.from({ length: 1000 }, () => sodium.randombytes_random())
        assert.ok(draws.every((n) => Number.isInteger(n) && n >= 0 && n <= 0xffffffff))
        const high = draws.filter((n) => n >= 2 ** 31).length
        assert.ok(high > 350 && high < 650, `${high} of 1000 draws had the high bit set`)
        assert.ok(new Set(draws).size > 990)
      })

      it('randombytes_uniform: within [0, upper_bound), spread evenly, 0 and 1 give 0', () => {
        const counts = new Array(10).fill(0)
        for (let i = 0; i < 10000; i++) counts[sodium.randombytes_uniform(10)]++
        // each bucket expects 1000 (sd 30): 700..1300 is ten standard deviations
        assert.ok(counts.every((c) => c > 700 && c < 1300), `buckets: ${counts}`)
        for (const bound of [3, 1000, 2 ** 31 + 1, 0xffffffff]) {
          for (let i = 0; i < 200; i++) {
            const n = sodium.randombytes_uniform(bound)
            assert.ok(Number.isInteger(n) && n >= 0 && n < bound, `${n} for ${bound}`)
          }
        }
        assert.strictEqual(sodium.randombytes_uniform(1), 0)
        assert.strictEqual(sodium.randombytes_uniform(0), 0)
        assert.throws(() => sodium.randombytes_uniform(2 ** 32), /^RangeError: upper_bound must be an integer between 0 and 4294967295$/)
        assert.throws(() => sodium.randombytes_uniform(1.5), RangeError)
        assert.throws(() => sodium.randombytes_uniform('10'), /^TypeError: upper_bound must be a number$/)
      })

      it('randombytes_buf: fills exactly the view, every byte value appears in 64 KiB', () => {
        const big = new Uint8Array(65536)
        sodium.randombytes_buf(big)
        assert.strictEqual(new Set(big).size, 256)
        const backing = new Uint8Array(64)
        const view = new Uint32Array(backing.buffer, 16, 8) // bytes 16..47
        sodium.randombytes_buf(view)
        assert.ok(backing.subarray(0, 16).every((b) => b === 0) && backing.subarray(48).every((b) => b === 0))
        assert.ok(!backing.subarray(16, 48).every((b) => b === 0))
        sodium.randombytes_buf(new Uint8Array(0))
      })

      it('randombytes_buf_deterministic: libsodium test/default/randombytes.exp', () => {
        const [{ seed, out }] = vectors('libsodium/randombytes.json').tests
        const buf = new Uint8Array(out.length / 2)
        sodium.randombytes_buf_deterministic(buf, hex(seed))
        assert.strictEqual(toHex(buf), out)
        // a shorter output is a prefix of the same ChaCha20 stream
        const short = new Uint8Array(7)
        sodium.randombytes_buf_deterministic(short, hex(seed))
        assert.strictEqual(toHex(short), out.slice(0, 14))
      })

      it('randombytes_buf_deterministic: same as sodium-native, same refusals', () => {
        for (const len of [0, 1, 63, 64, 65, 1000]) {
          sameAsSodiumNative(sodium, 'randombytes_buf_deterministic', [new Uint8Array(len), random(32)], `len ${len}`)
        }
        for (const seedLen of [0, 31, 33]) {
          const err = sameAsSodiumNative(sodium, 'randombytes_buf_deterministic', [new Uint8Array(8), random(seedLen)], `seed ${seedLen}`)
          assert.ok(err instanceof RangeError && /^seed must be randombytes_SEEDBYTES bytes long$/.test(err.message), err.message)
        }
        sameAsSodiumNative(sodium, 'randombytes_buf', [new Uint8Array(0)])
      })
    })

    describe('comparison and arithmetic', () => {
      it('sodium_memcmp: equality, as Buffer.equals; sodium-native agrees; lengths must match', () => {
        for (const len of [0, 1, 16, 33, 100]) {
          const a = random(len)
          assert.strictEqual(sodium.sodium_memcmp(a, new Uint8Array(a)), true)
          for (let i = 0; i < len; i += 7) {
            const b = new Uint8Array(a); b[i] ^= 0x80
            assert.strictEqual(sodium.sodium_memcmp(a, b), false)
            sameAsSodiumNative(sodium, 'sodium_memcmp', [a, b])
          }
          sameAsSodiumNative(sodium, 'sodium_memcmp', [a, new Uint8Array(a)])
        }
        const err = sameAsSodiumNative(sodium, 'sodium_memcmp', [random(16), random(15)])
        assert.match(err.message, /^b must be a_len bytes long$/)
      })

      it('sodium_compare: little-endian order, as Buffer.compare on reversed bytes; sodium-native agrees', () => {
        for (let i = 0; i < 300; i++) {
          const len = i % 40
          const a = random(len)
          const b = i % 3 === 0 ? new Uint8Array(a) : random(len)
          if (len && i % 3 === 1) b.set(a.subarray(1), 1) // differ only in the least significant byte
          const expected = Buffer.compare(Buffer.from(a).reverse(), Buffer.from(b).reverse())
          assert.strictEqual(sodium.sodium_compare(a, b), expected)
          sameAsSodiumNative(sodium, 'sodium_compare', [a, b])
        }
        sameAsSodiumNative(sodium, 'sodium_compare', [random(8), random(9)])
      })

      it('sodium_increment, sodium_add, sodium_sub: BigInt arithmetic mod 2^(8n); sodium-native agrees', () => {
        for (let i = 0; i < 200; i++) {
          const len = [0, 1, 2, 7, 8, 24, 33, 64][i % 8]
          const mod = 1n << BigInt(8 * len)
          const a = random(len)
          const b = i % 5 === 0 ? new Uint8Array(len).fill(0xff) : random(len)
          const n = new Uint8Array(a)
          sodium.sodium_increment(n)
          assert.strictEqual(toHex(n), toHex(fromBig((toBig(a) + 1n) % mod, len)))
          const sum = new Uint8Array(a)
          sodium.sodium_add(sum, b)
          assert.strictEqual(toHex(sum), toHex(fromBig((toBig(a) + toBig(b)) % mod, len)))
          const diff = new Uint8Array(a)
          sodium.sodium_sub(diff, b)
          assert.strictEqual(toHex(diff), toHex(fromBig((toBig(a) - toBig(b) + mod) % mod, len)))
          for (const f of ['sodium_add', 'sodium_sub']) sameAsSodiumNative(sodium, f, [a, b])
          sameAsSodiumNative(sodium, 'sodium_increment', [a])
        }
        // carries across the whole number, and a + a / a - a through one buffer
        const ones = new Uint8Array(24).fill(0xff)
        sodium.sodium_increment(ones)
        assert.ok(ones.every((x) => x === 0))
        const a = random(16)
        const twice = fromBig((toBig(a) * 2n) % (1n << 128n), 16)
        sodium.sodium_add(a, a)
        assert.strictEqual(toHex(a), toHex(twice))
        sodium.sodium_sub(a, a)
        assert.ok(a.every((x) => x === 0))
        for (const f of ['sodium_add', 'sodium_sub']) {
          const err = sameAsSodiumNative(sodium, f, [random(8), random(7)])
          assert.ok(err instanceof RangeError && err.message === 'b must be a_len bytes long', err.message)
        }
      })

      it('sodium_is_zero: whole buffer or its first nlen bytes; sodium-native agrees', () => {
        const n = new Uint8Array(32)
        assert.strictEqual(sodium.sodium_is_zero(n), true)
        n[20] = 1
        assert.strictEqual(sodium.sodium_is_zero(n), false)
        assert.strictEqual(sodium.sodium_is_zero(n, 20), true)
        assert.strictEqual(sodium.sodium_is_zero(n, 21), false)
        assert.strictEqual(sodium.sodium_is_zero(n, null), false)
        assert.strictEqual(sodium.sodium_is_zero(n, 0), true)
        assert.strictEqual(sodium.sodium_is_zero(new Uint8Array(0)), true)
        for (const len of [undefined, 0, 20, 21, 32, 33]) sameAsSodiumNative(sodium, 'sodium_is_zero', [n, len], `len ${len}`)
        assert.throws(() => sodium.sodium_is_zero(n, 33), /^RangeError: nlen must be an integer between 0 and 32$/)
      })

      it('sodium_memzero: zeroes exactly the view', () => {
        const backing = new Uint8Array(40).fill(7)
        sodium.sodium_memzero(new Uint16Array(backing.buffer, 8, 8))
        assert.strictEqual(toHex(backing), '07'.repeat(8) + '00'.repeat(16) + '07'.repeat(16))
        sameAsSodiumNative(sodium, 'sodium_memzero', [random(33)])
      })

      it('crypto_verify_16/32/64: equal is true, any changed byte is false, other lengths throw', () => {
        for (const n of [16, 32, 64]) {
          const f = sodium[`crypto_verify_${n}`]
          const x = random(n)
          const y = new Uint8Array(x)
          assert.strictEqual(f(x, y), true)
          for (let i = 0; i < n; i++) {
            y[i] ^= 1 << (i % 8)
            assert.strictEqual(f(x, y), false, `byte ${i}`)
            y[i] = x[i]
          }
          assert.throws(() => f(random(n - 1), y), new RegExp(`^RangeError: x must be crypto_verify_${n}_BYTES bytes long$`))
          assert.throws(() => f(x, random(n + 1)), new RegExp(`^RangeError: y must be crypto_verify_${n}_BYTES bytes long$`))
        }
      })
    })

    describe('padding', () => {
      it('sodium_pad/unpad: ISO/IEC 7816-4 round trips at every block size 1..40', () => {
        for (let blocksize = 1; blocksize <= 40; blocksize++) {
          for (const unpadded of [0, 1, blocksize - 1, blocksize, blocksize + 1, 3 * blocksize + 2]) {
            if (unpadded < 0) continue
            const padded = unpadded + blocksize - (unpadded % blocksize)
            const buf = random(padded + 5)
            const data = toHex(buf.subarray(0, unpadded))
            const tail = toHex(buf.subarray(padded))
            assert.strictEqual(sodium.sodium_pad(buf, unpadded, blocksize), padded)
            assert.strictEqual(toHex(buf.subarray(0, unpadded)), data)
            assert.strictEqual(buf[unpadded], 0x80)
            assert.ok(buf.subarray(unpadded + 1, padded).every((b) => b === 0))
            assert.strictEqual(toHex(buf.subarray(padded)), tail, 'bytes past the padding are untouched')
            assert.strictEqual(sodium.sodium_unpad(buf, padded, blocksize), unpadded)
          }
        }
      })

      it('sodium_pad/unpad: same as sodium-native, including its refusals', () => {
        for (let i = 0; i < 200; i++) {
          const blocksize = 1 + (i % 37)
          const unpadded = (i * 7) % 50
          const padded = unpadded + blocksize - (unpadded % blocksize)
          const buf = random(padded + (i % 3))
          sameAsSodiumNative(sodium, 'sodium_pad', [buf, unpadded, blocksize])
          const p = new Uint8Array(buf)
          sodium.sodium_pad(p, unpadded, blocksize)
          sameAsSodiumNative(sodium, 'sodium_unpad', [p, padded, blocksize])
        }
        const buf = new Uint8Array(16)
        for (const [u, b, why] of [[17, 1, 'unpadded past buf'], [0, 17, 'blocksize past buf'], [0, 0, 'blocksize 0'], [16, 4, 'no room for the padding'], [13, 8, 'padded to exactly buf']]) {
          sameAsSodiumNative(sodium, 'sodium_pad', [buf, u, b], why)
        }
        for (const [p, b, why] of [[17, 1, 'padded past buf'], [16, 17, 'blocksize past buf'], [16, 0, 'blocksize 0']]) {
          const err = sameAsSodiumNative(sodium, 'sodium_unpad', [buf, p, b], why)
          assert.ok(err instanceof RangeError, why)
        }
        assert.throws(() => sodium.sodium_pad(new Uint8Array(7), 5, 4),
          /^RangeError: buf must be at least unpadded_buflen \+ blocksize - unpadded_buflen % blocksize bytes long$/)
      })

      it('sodium_unpad: bad padding throws (sodium-native returns an unspecified number there)', () => {
        const bad = [
          ['no 0x80 marker', new Uint8Array(16), 16, 16],
          ['non-zero byte after the marker', hex('41414180000001'), 7, 7],
          ['marker outside the last block', hex('4180000000000000'), 8, 4],
          ['padded_buflen shorter than a block', hex('80000000'), 1, 2]
        ]
        for (const [why, buf, padded, blocksize] of bad) {
          assert.throws(() => sodium.sodium_unpad(buf, padded, blocksize), /^Error: unsupported\/invalid padding$/, why)
        }
        assert.strictEqual(sodium.sodium_unpad(hex('41418000'), 4, 4), 2)
      })
    })

    describe('hex', () => {
      it('sodium_bin2hex: as Buffer.toString("hex") at 0..100 bytes, no NUL, no byte past hex', () => {
        assert.strictEqual((() => { const h = new Uint8Array(32); sodium.sodium_bin2hex(h, Buffer.from('0123456789ABCDEF')); return Buffer.from(h).toString() })(),
          '30313233343536373839414243444546') // libsodium test/default/codecs.exp
        for (let len = 0; len <= 100; len++) {
          const bin = random(len)
          const backing = new Uint8Array(2 * len + 2).fill(0xee)
          sodium.sodium_bin2hex(backing.subarray(1, 2 * len + 1), bin)
          assert.strictEqual(Buffer.from(backing.subarray(1, 2 * len + 1)).toString('latin1'), Buffer.from(bin).toString('hex'))
          assert.ok(backing[0] === 0xee && backing[2 * len + 1] === 0xee)
        }
        assert.throws(() => sodium.sodium_bin2hex(new Uint8Array(7), random(4)), /^RangeError: hex must be bin_len \* 2 bytes long$/)
        assert.throws(() => sodium.sodium_bin2hex(new Uint8Array(9), random(4)), RangeError)
        const shared = new Uint8Array(12)
        assert.throws(() => sodium.sodium_bin2hex(shared.subarray(0, 8), shared.subarray(4, 8)), /^RangeError: hex must not overlap bin$/)
      })

      it('sodium_hex2bin: round trips, either case, returns the bytes written', () => {
        for (let len = 0; len <= 60; len++) {
          const bin = random(len)
          for (const text of [Buffer.from(bin).toString('hex'), Buffer.from(bin).toString('hex').toUpperCase()]) {
            const out = new Uint8Array(len + 3).fill(0xee)
            assert.strictEqual(sodium.sodium_hex2bin(out, Buffer.from(text), null), len)
            assert.strictEqual(toHex(out.subarray(0, len)), toHex(bin))
            assert.ok(out.subarray(len).every((b) => b === 0xee))
          }
        }
      })

      it('sodium_hex2bin: ignore skips its characters between byte pairs only', () => {
        // libsodium test/default/codecs.c: "Cafe : 6942" with ignore ": " -> 4 bytes cafe6942
        const out = new Uint8Array(4)
        assert.strictEqual(sodium.sodium_hex2bin(out, Buffer.from('Cafe : 6942'), Buffer.from(': ')), 4)
        assert.strictEqual(toHex(out), 'cafe6942')
        for (let i = 0; i < 50; i++) {
          const bin = random(1 + (i % 20))
          const text = Buffer.from(bin).toString('hex').match(/../g).join(i % 2 ? ':' : ' - ')
          const b = new Uint8Array(bin.length)
          assert.strictEqual(sodium.sodium_hex2bin(b, Buffer.from(text), Buffer.from(' :-')), bin.length)
          assert.strictEqual(toHex(b), toHex(bin))
          if (bin.length > 1) assert.throws(() => sodium.sodium_hex2bin(new Uint8Array(bin.length), Buffer.from(text), null), /^Error: invalid input$/)
        }
        // an ignore byte inside a pair, and one not listed, are errors
        assert.throws(() => sodium.sodium_hex2bin(new Uint8Array(4), Buffer.from('c:afe'), Buffer.from(':')), /invalid input/)
        assert.throws(() => sodium.sodium_hex2bin(new Uint8Array(4), Buffer.from('ca;fe'), Buffer.from(':')), /invalid input/)
        // libsodium skips NUL bytes whenever ignore is given (strchr() finds the terminator)
        assert.strictEqual(sodium.sodium_hex2bin(new Uint8Array(2), Buffer.from('ca\0fe'), new Uint8Array(0)), 2)
        assert.throws(() => sodium.sodium_hex2bin(new Uint8Array(2), Buffer.from('ca\0fe'), null), /invalid input/)
      })

      it('sodium_hex2bin: invalid input and a short bin throw and leave bin zeroed', () => {
        // libsodium test/default/codecs.c: odd digit counts and a trailing '*'
        for (const [text, ignore] of [['de:ad:be:eff', ':'], ['de:ad:be:ef*', ':'], ['abc', null], ['zz', null], ['0x12', null]]) {
          const bin = new Uint8Array(8).fill(0x55)
          assert.throws(() => sodium.sodium_hex2bin(bin, Buffer.from(text), ignore && Buffer.from(ignore)), /^Error: invalid input$/, text)
          assert.ok(bin.every((b) => b === 0), `${text}: bin zeroed`)
        }
        const bin = new Uint8Array(3).fill(0x55)
        assert.throws(() => sodium.sodium_hex2bin(bin, Buffer.from('deadbeef'), null), /^Error: invalid input$/)
        assert.ok(bin.every((b) => b === 0))
        assert.strictEqual(sodium.sodium_hex2bin(new Uint8Array(0), new Uint8Array(0), null), 0)
        assert.throws(() => sodium.sodium_hex2bin(new Uint8Array(4), 'cafe', null), /^TypeError: hex must be a TypedArray$/)
      })
    })

    describe('base64', () => {
      it('sodium_base64_encoded_len: the text length plus a NUL, per variant', () => {
        for (const [v, encode] of Object.entries(VARIANTS)) {
          for (let len = 0; len <= 40; len++) {
            assert.strictEqual(sodium.sodium_base64_encoded_len(len, sodium[v]), encode(new Uint8Array(len)).length + 1)
          }
        }
        assert.strictEqual(sodium.sodium_base64_encoded_len(3221225468, sodium.sodium_base64_VARIANT_ORIGINAL), 4294967293)
        assert.throws(() => sodium.sodium_base64_encoded_len(3221225469, 1), /^RangeError: bin_len must be an integer between 0 and 3221225468$/)
      })

      it('every variant: as Buffer base64/base64url at 0..100 bytes, and back', () => {
        for (const [v, encode] of Object.entries(VARIANTS)) {
          for (let len = 0; len <= 100; len++) {
            const bin = random(len)
            const b64 = new Uint8Array(sodium.sodium_base64_encoded_len(len, sodium[v]) - 1)
            sodium.sodium_bin2base64(b64, bin, sodium[v])
            assert.strictEqual(Buffer.from(b64).toString('latin1'), encode(bin), `${v} ${len}`)
            const back = new Uint8Array(len + 2).fill(0xee)
            assert.strictEqual(sodium.sodium_base642bin(back, b64, null, sodium[v]), len)
            assert.strictEqual(toHex(back.subarray(0, len)), toHex(bin))
            assert.ok(back[len] === 0xee && back[len + 1] === 0xee)
          }
        }
      })

      it('sodium_bin2base64: libsodium test/default/codecs.exp', () => {
        const { tests } = vectors('libsodium/base64_encode.json')
        for (const t of tests) {
          const b64 = new Uint8Array(t.b64.length)
          sodium.sodium_bin2base64(b64, hex(t.bin), sodium[t.variant])
          assert.strictEqual(Buffer.from(b64).toString('latin1'), t.b64)
        }
      })

      it('sodium_base642bin: libsodium test/default/codecs.c verdicts', () => {
        const { tests } = vectors('libsodium/base64_decode.json')
        for (const t of tests) {
          const bin = new Uint8Array(t.bin_maxlen).fill(0x55)
          const call = () => sodium.sodium_base642bin(bin, Buffer.from(t.b64, 'latin1'), t.ignore === null ? null : Buffer.from(t.ignore, 'latin1'), sodium[t.variant])
          const label = `${JSON.stringify(t.b64)} ignore ${JSON.stringify(t.ignore)} ${t.variant}`
          if (t.valid) {
            const stripped = t.ignore ? t.b64.split('').filter((c) => !t.ignore.includes(c)).join('') : t.b64
            const expected = Buffer.from(stripped, 'base64')
            assert.strictEqual(call(), expected.length, label)
            assert.strictEqual(toHex(bin.subarray(0, expected.length)), expected.toString('hex'), label)
          } else {
            assert.throws(call, /^Error: invalid input$/, label)
            assert.ok(bin.every((b) => b === 0), `${label}: bin zeroed`)
          }
        }
      })

      it('sodium_base642bin: ignore, padding and alphabet rules', () => {
        const { sodium_base64_VARIANT_ORIGINAL: O, sodium_base64_VARIANT_URLSAFE_NO_PADDING: U } = sodium
        const out = new Uint8Array(32)
        const text = Buffer.from('This is a journey into sound').toString('base64')
        const wrapped = Buffer.from(text.slice(0, 10) + '\r\n' + text.slice(10, 20) + ' ' + text.slice(20))
        assert.strictEqual(sodium.sodium_base642bin(out, wrapped, Buffer.from('\r\n '), O), 28)
        assert.strictEqual(Buffer.from(out.subarray(0, 28)).toString(), 'This is a journey into sound')
        assert.throws(() => sodium.sodium_base642bin(out, wrapped, null, O), /invalid input/)
        // the other alphabet, padding where none is expected, missing padding, a short bin
        assert.throws(() => sodium.sodium_base642bin(out, Buffer.from('+/8='), null, U), /invalid input/)
        assert.throws(() => sodium.sodium_base642bin(out, Buffer.from('-_8'), null, O), /invalid input/)
        assert.throws(() => sodium.sodium_base642bin(out, Buffer.from('YQ=='), null, U), /invalid input/)
        assert.throws(() => sodium.sodium_base642bin(out, Buffer.from('YQ'), null, O), /invalid input/)
        assert.throws(() => sodium.sodium_base642bin(new Uint8Array(1), Buffer.from('YWI='), null, O), /invalid input/)
        assert.strictEqual(sodium.sodium_base642bin(new Uint8Array(2), Buffer.from('YWI='), null, O), 2)
      })

      it('variant must be one of the four sodium_base64_VARIANT_* values', () => {
        const bin = random(5)
        for (const v of [2, 4, 6]) {
          assert.throws(() => sodium.sodium_base64_encoded_len(5, v), /^RangeError: variant must be a sodium_base64_VARIANT_\* constant$/)
          assert.throws(() => sodium.sodium_bin2base64(new Uint8Array(8), bin, v), /^RangeError: variant /)
          assert.throws(() => sodium.sodium_base642bin(new Uint8Array(8), Buffer.from('YWJj'), null, v), /^RangeError: variant /)
        }
        for (const v of [0, 8, -1, 1.5]) {
          assert.throws(() => sodium.sodium_bin2base64(new Uint8Array(8), bin, v), /^RangeError: variant must be an integer between 1 and 7$/)
        }
        assert.throws(() => sodium.sodium_bin2base64(new Uint8Array(8), bin, '1'), /^TypeError: variant must be a number$/)
        assert.throws(() => sodium.sodium_bin2base64(new Uint8Array(7), bin, 1),
          /^RangeError: b64 must be sodium_base64_encoded_len\(bin_len, variant\) - 1 bytes long$/)
        assert.throws(() => sodium.sodium_bin2base64(new Uint8Array(8), bin, 3), RangeError) // 7 without padding
      })
    })

    describe('guarded memory', function () {
      before(function () { if (backend !== 'native') this.skip() })

      it('sodium_malloc: a Buffer of size bytes filled with 0xdb (libsodium GARBAGE_VALUE), as sodium-native', () => {
        assert.strictEqual(sodium.sodium_malloc(8).secure, backend === 'native')
        for (const size of [0, 1, 15, 16, 4095, 4096, 4097, 100000]) {
          const ours = sodium.sodium_malloc(size)
          const theirs = SodiumNative.sodium_malloc(size)
          assert.ok(Buffer.isBuffer(ours))
          assert.strictEqual(ours.length, size)
          assert.ok(ours.every((b) => b === 0xdb))
          assert.strictEqual(toHex(ours), toHex(theirs))
          ours.fill(0x42) // usable
          sodium.sodium_free(ours)
          SodiumNative.sodium_free(theirs)
        }
        assert.throws(() => sodium.sodium_malloc(-1), /^RangeError: size must be an integer between 0 and 4294967295$/)
      })

      it('sodium_free: detaches the buffer; other buffers are left alone', () => {
        const buf = sodium.sodium_malloc(64)
        const view = new Uint8Array(buf.buffer, 8, 8)
        sodium.sodium_free(buf)
        assert.strictEqual(buf.length, 0)
        assert.strictEqual(buf.buffer.byteLength, 0)
        assert.strictEqual(view.length, 0)
        sodium.sodium_free(buf) // a second free is ignored, as in sodium-native
        SodiumNative.sodium_free(buf)
        assert.throws(() => sodium.sodium_mprotect_readwrite(buf), /^(TypeError: ptr is detached|Error: failed to unlock buffer)$/)
        const plain = Buffer.from('still here')
        sodium.sodium_free(plain)
        assert.strictEqual(plain.toString(), 'still here')
        // a view into a sodium_malloc buffer is not itself `secure`: ignored, as in sodium-native
        const region = sodium.sodium_malloc(32)
        sodium.sodium_free(region.subarray(16))
        assert.strictEqual(region.length, 32)
        sodium.sodium_free(region)
        assert.strictEqual(region.length, 0)
      })

      it('sodium_mprotect_noaccess -> readwrite and readonly -> readwrite keep the contents', () => {
        const buf = sodium.sodium_malloc(100)
        buf.fill(0x42)
        sodium.sodium_mprotect_noaccess(buf)
        sodium.sodium_mprotect_readwrite(buf) // nothing may touch buf in between: it would fault
        assert.ok(buf.every((b) => b === 0x42))
        sodium.sodium_mprotect_readonly(buf)
        assert.ok(buf.every((b) => b === 0x42))
        sodium.sodium_mprotect_readwrite(buf)
        buf[0] = 1
        assert.strictEqual(buf[0], 1)
        sodium.sodium_mprotect_noaccess(buf)
        sodium.sodium_free(buf) // libsodium makes the pages writable again before releasing them
        const empty = sodium.sodium_malloc(0)
        sodium.sodium_mprotect_noaccess(empty)
        sodium.sodium_mprotect_readwrite(empty)
      })

      it('sodium_mprotect_*: refuse memory that did not come from sodium_malloc', () => {
        for (const f of ['noaccess', 'readonly', 'readwrite']) {
          assert.throws(() => sodium[`sodium_mprotect_${f}`](Buffer.alloc(16)), /^Error: failed to (un)?lock buffer$/)
        }
      })

      it('sodium_mlock/munlock: munlock wipes; sodium-native agrees', () => {
        const buf = random(64)
        sameAsSodiumNative(sodium, 'sodium_mlock', [buf])
        sodium.sodium_mlock(buf)
        sodium.sodium_munlock(buf)
        assert.ok(buf.every((b) => b === 0))
        sameAsSodiumNative(sodium, 'sodium_munlock', [random(64)])
        sameAsSodiumNative(sodium, 'sodium_memzero', [random(8)])
      })
    })
  })
}

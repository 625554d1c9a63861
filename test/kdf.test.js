'use strict'
// crypto_kdf (BLAKE2b), HKDF-SHA-256/512 and PBKDF2-HMAC-SHA-512/256: Wycheproof HKDF and PBKDF2
// vectors, libsodium's own test/default vectors, streaming extract against one-shot, length and
// overlap rules, async against sync, and differential checks against node:crypto and sodium-native.
const assert = require('assert')
const crypto = require('crypto')
const SodiumNative = require('sodium-native')
const { backends, hex, toHex, random, wycheproof, vectors, byName } = require('./helpers')

const HKDF = { sha256: 'crypto_kdf_hkdf_sha256', sha512: 'crypto_kdf_hkdf_sha512' }
const PBKDF2 = { sha512: 'extension_pbkdf2_sha512', sha256: 'extension_pbkdf2_sha256' }
const rangeError = (name) => (e) => e instanceof RangeError && e.message.startsWith(`${name} must be`)

// A call that may throw synchronously or return a Promise that rejects: 'threw' either way.
async function outcome (fn) {
  try {
    return await fn()
  } catch (e) {
    return 'threw'
  }
}

// Functions this file calls only through composed names, in full (see byName in helpers.js)
const BY_NAME = [
  'crypto_kdf_blake2b_derive_from_key',
  'crypto_kdf_hkdf_sha256_extract',
  'crypto_kdf_hkdf_sha256_expand',
  'crypto_kdf_hkdf_sha256_keygen',
  'crypto_kdf_hkdf_sha512_extract',
  'crypto_kdf_hkdf_sha512_expand',
  'crypto_kdf_hkdf_sha512_keygen'
]

for (const { name: backend, sodium: surface } of backends) {
  const { sodium, calledEveryName } = byName(surface, BY_NAME)
  const extract = (p, salt, ikm) => {
    const prk = new Uint8Array(sodium[`${p}_KEYBYTES`])
    assert.strictEqual(sodium[`${p}_extract`](prk, salt, ikm), undefined)
    return prk
  }
  const expand = (p, len, ctx, prk) => {
    const out = new Uint8Array(len)
    assert.strictEqual(sodium[`${p}_expand`](out, ctx, prk), undefined)
    return toHex(out)
  }
  const pbkdf2 = (hash, passwd, salt, iter, outlen) => {
    const out = new Uint8Array(outlen)
    assert.strictEqual(sodium[PBKDF2[hash]](out, passwd, salt, iter, outlen), undefined)
    return toHex(out)
  }

  describe(`kdf [${backend}]`, () => {
    after(calledEveryName)
    describe('known answers', () => {
      it('crypto_kdf: libsodium test/default/kdf.c vectors (both names), lengths outside 16..64 refused', () => {
        const rows = vectors('libsodium/kdf.json').tests.filter((t) => t.kind === 'blake2b')
        assert.strictEqual(rows.length, 76)
        let refused = 0
        for (const t of rows) {
          for (const p of ['crypto_kdf', 'crypto_kdf_blake2b']) {
            const subkey = new Uint8Array(t.length)
            const call = () => sodium[`${p}_derive_from_key`](subkey, t.id, hex(t.ctx), hex(t.key))
            if (t.subkey === null) {
              assert.throws(call, rangeError('subkey'), `length ${t.length}`)
              refused++
              continue
            }
            assert.strictEqual(call(), undefined)
            assert.strictEqual(toHex(subkey), t.subkey, `${p} id ${t.id} length ${t.length}`)
          }
        }
        assert.strictEqual(refused, 2 * 17) // lengths 0..15 and 65
      })

      it('HKDF: libsodium test/default/kdf_hkdf.c (PRK, 99 output lengths) and kdf_hkdf4.c vectors', () => {
        const rows = vectors('libsodium/kdf.json').tests.filter((t) => t.kind.startsWith('hkdf'))
        assert.strictEqual(rows.length, 8)
        for (const t of rows) {
          const hash = /hkdf_(sha\d+)/.exec(t.kind)[1]
          const p = HKDF[hash]
          const prk = extract(p, t.salt === null ? null : hex(t.salt), hex(t.ikm))
          if (t.expand) {
            assert.strictEqual(toHex(prk), t.prk)
            assert.strictEqual(t.expand.length, 99)
            const ctx = hex(t.ctx)
            t.expand.forEach((out, i) => {
              ctx[0] = i
              assert.strictEqual(expand(p, i, ctx, prk), out, `${p} ${i} bytes`)
            })
          } else {
            const out = expand(p, t.length, hex(t.ctx), prk)
            assert.strictEqual(out.slice(2 * t.offset, 2 * t.offset + t.out.length), t.out, `${p} ${t.length} bytes at ${t.offset}`)
          }
        }
      })

      for (const hash of ['sha256', 'sha512']) {
        const p = HKDF[hash]
        it(`${p}: Wycheproof hkdf_${hash}_test.json (extract, streamed extract, expand; sizes over BYTES_MAX refused)`, () => {
          let refused = 0
          const tests = wycheproof(`hkdf_${hash}_test.json`)
          for (const t of tests) {
            const [ikm, salt, info] = [t.ikm, t.salt, t.info].map(hex)
            // an empty salt may be given as null: RFC 5869 then uses HashLen zero bytes, as for ''
            const prk = extract(p, salt.length || t.tcId % 2 ? salt : null, ikm)
            const state = new Uint8Array(sodium[`${p}_STATEBYTES`])
            sodium[`${p}_extract_init`](state, salt)
            sodium[`${p}_extract_update`](state, ikm.subarray(0, t.tcId % ikm.length))
            sodium[`${p}_extract_update`](state, ikm.subarray(t.tcId % ikm.length))
            const prk2 = new Uint8Array(prk.length)
            sodium[`${p}_extract_final`](state, prk2)
            assert.strictEqual(toHex(prk2), toHex(prk), `tcId ${t.tcId} streamed extract`)
            if (t.result === 'valid') {
              assert.strictEqual(expand(p, t.size, info, prk), t.okm, `tcId ${t.tcId}`)
            } else {
              assert.ok(t.flags.includes('SizeTooLarge'))
              assert.throws(() => sodium[`${p}_expand`](new Uint8Array(t.size), info, prk), rangeError('out'), `tcId ${t.tcId}`)
              refused++
            }
          }
          assert.strictEqual(refused, 3)
        })
      }

      for (const hash of ['sha256', 'sha512']) {
        const p = PBKDF2[hash]
        it(`${p}: Wycheproof pbkdf2_hmac${hash}_test.json (an empty password is refused, as sodium-native does)`, () => {
          let refused = 0
          for (const t of wycheproof(`pbkdf2_hmac${hash}_test.json`)) {
            const [pw, salt] = [t.password, t.salt].map(hex)
            assert.strictEqual(t.result, 'valid')
            if (pw.length === 0) {
              assert.throws(() => sodium[p](new Uint8Array(t.dkLen), pw, salt, t.iterationCount, t.dkLen), rangeError('passwd'))
              refused++
              continue
            }
            assert.strictEqual(pbkdf2(hash, pw, salt, t.iterationCount, t.dkLen), t.dk, `tcId ${t.tcId}`)
          }
          assert.strictEqual(refused, 1)
        })
      }
    })

    describe('HKDF behaviour', () => {
      for (const p of Object.values(HKDF)) {
        it(`${p}: streamed extract equals one-shot over random splits; null salt equals empty salt`, () => {
          for (let i = 0; i < 30; i++) {
            const salt = i % 5 ? random(crypto.randomInt(0, 200)) : null
            const ikm = random(crypto.randomInt(0, 500))
            const state = new Uint8Array(sodium[`${p}_STATEBYTES`])
            assert.strictEqual(sodium[`${p}_extract_init`](state, salt), undefined)
            for (let at = 0; at < ikm.length;) {
              const n = crypto.randomInt(0, ikm.length - at + 1)
              assert.strictEqual(sodium[`${p}_extract_update`](state, ikm.subarray(at, at + n)), undefined)
              at += n
            }
            const prk = new Uint8Array(sodium[`${p}_KEYBYTES`])
            assert.strictEqual(sodium[`${p}_extract_final`](state, prk), undefined)
            assert.strictEqual(toHex(prk), toHex(extract(p, salt, ikm)))
          }
          const ikm = random(40)
          assert.strictEqual(toHex(extract(p, null, ikm)), toHex(extract(p, new Uint8Array(0), ikm)))
          assert.strictEqual(toHex(extract(p, null, ikm)), toHex(extract(p, new Uint8Array(sodium[`${p}_KEYBYTES`]), ikm)))
          const prk = random(sodium[`${p}_KEYBYTES`])
          assert.strictEqual(expand(p, 50, null, prk), expand(p, 50, new Uint8Array(0), prk))
        })

        it(`${p}: expand takes 0..BYTES_MAX bytes, refuses more, and refuses out overlapping prk or ctx`, () => {
          const max = sodium[`${p}_BYTES_MAX`]
          assert.strictEqual(max, 255 * sodium[`${p}_KEYBYTES`])
          assert.strictEqual(sodium[`${p}_BYTES_MIN`], 0)
          const prk = random(sodium[`${p}_KEYBYTES`])
          const ctx = random(10)
          const long = expand(p, max, ctx, prk)
          assert.strictEqual(expand(p, 100, ctx, prk), long.slice(0, 200), 'a shorter output is a prefix')
          assert.strictEqual(expand(p, 0, ctx, prk), '')
          assert.throws(() => sodium[`${p}_expand`](new Uint8Array(max + 1), ctx, prk), rangeError('out'))
          assert.throws(() => sodium[`${p}_expand`](new Uint8Array(10), ctx, random(sodium[`${p}_KEYBYTES`] - 1)), rangeError('prk'))
          const buf = new Uint8Array(300)
          buf.set(prk, 100)
          const overlap = (e) => e instanceof RangeError && /^out must not overlap (prk|ctx)$/.test(e.message)
          assert.throws(() => sodium[`${p}_expand`](buf.subarray(0, 101), ctx, buf.subarray(100, 100 + prk.length)), overlap)
          assert.throws(() => sodium[`${p}_expand`](buf.subarray(0, 50), buf.subarray(49, 60), prk), overlap)
          assert.strictEqual(sodium[`${p}_expand`](buf.subarray(0, 100), null, buf.subarray(100, 100 + prk.length)), undefined)
        })

        it(`${p}: keygen fills KEYBYTES with fresh random bytes; wrong sizes are refused`, () => {
          const [a, b] = [new Uint8Array(sodium[`${p}_KEYBYTES`]), new Uint8Array(sodium[`${p}_KEYBYTES`])]
          sodium[`${p}_keygen`](a)
          sodium[`${p}_keygen`](b)
          assert.notStrictEqual(toHex(a), toHex(b))
          assert.throws(() => sodium[`${p}_keygen`](new Uint8Array(a.length + 1)), rangeError('prk'))
          assert.throws(() => sodium[`${p}_extract`](new Uint8Array(a.length - 1), null, random(3)), rangeError('prk'))
          assert.throws(() => sodium[`${p}_extract_init`](new Uint8Array(sodium[`${p}_STATEBYTES`] + 1), null), rangeError('state'))
          const state = new Uint8Array(sodium[`${p}_STATEBYTES`])
          sodium[`${p}_extract_init`](state, null)
          assert.throws(() => sodium[`${p}_extract_final`](state, new Uint8Array(a.length + 1)), rangeError('prk'))
        })
      }
    })

    describe('crypto_kdf behaviour', () => {
      it('subkey ids up to 2^64 - 1 are accepted; fractions, negatives and 2^64 are not', () => {
        const key = new Uint8Array(sodium.crypto_kdf_KEYBYTES)
        sodium.crypto_kdf_keygen(key)
        const ctx = random(8)
        const derive = (id) => {
          const subkey = new Uint8Array(32)
          sodium.crypto_kdf_derive_from_key(subkey, id, ctx, key)
          return toHex(subkey)
        }
        const ids = [0, 1, 2 ** 32, 2 ** 53 - 1, 2 ** 60, 2 ** 64 - 2 ** 11]
        assert.strictEqual(new Set(ids.map(derive)).size, ids.length)
        for (const bad of [1.5, -1, 2 ** 64, Infinity, NaN]) {
          assert.throws(() => derive(bad), rangeError('subkey_id'), String(bad))
        }
        assert.throws(() => derive('1'), (e) => e instanceof TypeError && e.message === 'subkey_id must be a number')
      })
    })

    describe('PBKDF2 behaviour', () => {
      for (const [hash, p] of Object.entries(PBKDF2)) {
        it(`${p}: writes the first outlen bytes of out and leaves the rest; outlen 0 writes nothing`, () => {
          const [pw, salt] = [random(10), random(16)]
          const expected = crypto.pbkdf2Sync(pw, salt, 3, 70, hash).toString('hex')
          const out = new Uint8Array(100).fill(0xee)
          sodium[p](out, pw, salt, 3, 70)
          assert.strictEqual(toHex(out), expected + 'ee'.repeat(30))
          const untouched = new Uint8Array(5).fill(0xee)
          sodium[p](untouched, pw, salt, 3, 0)
          assert.ok(untouched.every((b) => b === 0xee))
        })

        it(`${p}: out may be the passwd or salt buffer itself`, () => {
          const [pw, salt] = [random(40), random(40)]
          const expected = crypto.pbkdf2Sync(pw, salt, 2, 40, hash).toString('hex')
          const a = pw.slice()
          sodium[p](a, a, salt, 2, 40)
          assert.strictEqual(toHex(a), expected)
          const b = salt.slice()
          sodium[p](b, pw, b, 2, 40)
          assert.strictEqual(toHex(b), expected)
        })

        it(`${p}: refuses iter 0, outlen over BYTES_MAX, out shorter than outlen, and empty out, passwd or salt`, () => {
          const max = sodium[`${p}_BYTES_MAX`]
          // (2^32 - 1) blocks of HASHBYTES, capped at SIZE_MAX (32-bit on wasm32)
          const sizeMax = backend === 'wasm' ? 2 ** 32 - 1 : Number.MAX_SAFE_INTEGER
          assert.strictEqual(max, Math.min((2 ** 32 - 1) * sodium[`${p}_HASHBYTES`], sizeMax))
          assert.strictEqual(sodium[`${p}_ITERATIONS_MIN`], 1)
          assert.strictEqual(sodium[`${p}_SALTBYTES`], 16)
          const [pw, salt] = [random(8), random(16)]
          assert.throws(() => sodium[p](new Uint8Array(16), pw, salt, 0, 16), rangeError('iter'))
          assert.throws(() => sodium[p](new Uint8Array(16), pw, salt, 1, max + 1), rangeError('outlen'))
          // outlen = BYTES_MAX passes the C's own limit; only out's length stops it
          assert.throws(() => sodium[p](new Uint8Array(16), pw, salt, 1, max), rangeError('out'))
          assert.throws(() => sodium[p](new Uint8Array(16), pw, salt, 1, 17), rangeError('out'))
          assert.throws(() => sodium[p](new Uint8Array(0), pw, salt, 1, 0), rangeError('out'))
          assert.throws(() => sodium[p](new Uint8Array(16), new Uint8Array(0), salt, 1, 16), rangeError('passwd'))
          assert.throws(() => sodium[p](new Uint8Array(16), pw, new Uint8Array(0), 1, 16), rangeError('salt'))
          assert.throws(() => sodium[p](new Uint8Array(16), pw, salt, 1.5, 16), rangeError('iter'))
          assert.throws(() => sodium[p](new Uint8Array(16), pw, salt, '1', 16), TypeError)
        })
      }

      it('the *_async forms resolve with undefined and the same bytes as the sync forms', async () => {
        for (const [hash, p] of Object.entries(PBKDF2)) {
          const jobs = Array.from({ length: 6 }, (_, i) => {
            const [pw, salt, iter, outlen] = [random(1 + i * 20), random(16), 1 + i * 300, 1 + i * 30]
            const out = new Uint8Array(outlen + i)
            return { promise: sodium[`${p}_async`](out, pw, salt, iter, outlen), out, expected: pbkdf2(hash, pw, salt, iter, outlen) }
          })
          for (const job of jobs) {
            assert.ok(job.promise instanceof Promise)
            assert.strictEqual(await job.promise, undefined)
            assert.strictEqual(toHex(job.out).slice(0, job.expected.length), job.expected)
          }
        }
      })

      it('the *_async forms throw on bad arguments before any work starts, and take a callback', async () => {
        for (const p of Object.values(PBKDF2)) {
          const fn = sodium[`${p}_async`]
          assert.throws(() => fn(new Uint8Array(16), new Uint8Array(0), random(16), 1, 16), rangeError('passwd'))
          assert.throws(() => fn(new Uint8Array(8), random(8), random(16), 1, 16), rangeError('out'))
          assert.throws(() => fn(new Uint8Array(16), random(8), random(16), 0, 16), rangeError('iter'))
          const out = new Uint8Array(32)
          const [pw, salt] = [random(8), random(16)]
          await new Promise((resolve, reject) => fn(out, pw, salt, 5, 32, (err, result) => {
            if (err) return reject(err)
            try {
              assert.strictEqual(result, undefined)
              assert.strictEqual(toHex(out), pbkdf2(p.endsWith('512') ? 'sha512' : 'sha256', pw, salt, 5, 32))
              resolve()
            } catch (e) { reject(e) }
          }))
        }
      })
    })

    describe('differential', () => {
      it('HKDF equals node:crypto hkdfSync; extract equals HMAC(salt, ikm)', () => {
        for (const [hash, p] of Object.entries(HKDF)) {
          const max = sodium[`${p}_BYTES_MAX`]
          for (let i = 0; i < 40; i++) {
            const [ikm, salt, info] = [random(crypto.randomInt(0, 200)), random(crypto.randomInt(0, 100)), random(crypto.randomInt(0, 300))]
            const len = i < 3 ? max : crypto.randomInt(1, 600)
            const expected = Buffer.from(crypto.hkdfSync(hash, ikm, salt, info, len)).toString('hex')
            const prk = extract(p, salt, ikm)
            assert.strictEqual(toHex(prk), crypto.createHmac(hash, salt).update(ikm).digest('hex'))
            assert.strictEqual(expand(p, len, info, prk), expected, `${p} ${len} bytes`)
          }
        }
      })

      it('PBKDF2 equals node:crypto pbkdf2Sync on random passwords, salts, counts and lengths', () => {
        for (const hash of ['sha256', 'sha512']) {
          for (let i = 0; i < 40; i++) {
            const [pw, salt] = [random(crypto.randomInt(1, 300)), random(crypto.randomInt(1, 64))]
            const [iter, outlen] = [crypto.randomInt(1, 60), crypto.randomInt(1, 400)]
            assert.strictEqual(pbkdf2(hash, pw, salt, iter, outlen), crypto.pbkdf2Sync(pw, salt, iter, outlen, hash).toString('hex'),
              `${hash} pw ${pw.length} salt ${salt.length} iter ${iter} outlen ${outlen}`)
          }
        }
      })

      it('crypto_kdf_derive_from_key and crypto_kdf_keygen match sodium-native 5.1.0', () => {
        for (let i = 0; i < 40; i++) {
          const key = random(32)
          const ctx = random(8)
          const id = [crypto.randomInt(0, 2 ** 48 - 1), 2 ** 53 - 1, 2 ** 60][i % 3]
          const len = crypto.randomInt(16, 65)
          const [ours, theirs] = [new Uint8Array(len), new Uint8Array(len)]
          assert.strictEqual(sodium.crypto_kdf_derive_from_key(ours, id, ctx, key), SodiumNative.crypto_kdf_derive_from_key(theirs, id, ctx, key))
          assert.strictEqual(toHex(ours), toHex(theirs), `id ${id} len ${len}`)
        }
        const ok = [new Uint8Array(32), 1, random(8), random(32)]
        for (const [i, bad] of [[0, new Uint8Array(15)], [0, new Uint8Array(65)], [2, random(7)], [2, random(9)], [3, random(31)], [3, random(33)]]) {
          const args = ok.slice()
          args[i] = bad
          assert.throws(() => sodium.crypto_kdf_derive_from_key(...args))
          assert.throws(() => SodiumNative.crypto_kdf_derive_from_key(...args))
        }
        for (const impl of [sodium, SodiumNative]) {
          const k = new Uint8Array(32)
          assert.strictEqual(impl.crypto_kdf_keygen(k), undefined)
          assert.ok(k.some((b) => b !== 0))
          assert.throws(() => impl.crypto_kdf_keygen(new Uint8Array(31)))
        }
      })

      it('extension_pbkdf2_sha512 and its _async match sodium-native 5.1.0: bytes, results, throws', async () => {
        const p = 'extension_pbkdf2_sha512'
        for (let i = 0; i < 12; i++) {
          const [pw, salt] = [random(crypto.randomInt(1, 200)), random(crypto.randomInt(1, 40))]
          const [iter, outlen] = [crypto.randomInt(1, 200), crypto.randomInt(0, 300)]
          const size = outlen + crypto.randomInt(0, 3) || 1
          const [a, b, c, d] = [0, 0, 0, 0].map(() => new Uint8Array(size).fill(0x5a))
          assert.strictEqual(sodium[p](a, pw, salt, iter, outlen), SodiumNative[p](b, pw, salt, iter, outlen))
          assert.strictEqual(toHex(a), toHex(b), `iter ${iter} outlen ${outlen} out ${size}`)
          assert.strictEqual(await sodium[`${p}_async`](c, pw, salt, iter, outlen), await SodiumNative[`${p}_async`](d, pw, salt, iter, outlen))
          assert.strictEqual(toHex(c), toHex(a))
          assert.strictEqual(toHex(d), toHex(a))
        }
        // the same bad inputs fail in both, sync and async
        const [pw, salt] = [random(8), random(16)]
        const cases = [
          [new Uint8Array(16), pw, salt, 0, 16],
          [new Uint8Array(16), pw, salt, 1, sodium[`${p}_BYTES_MAX`] + 1],
          [new Uint8Array(16), pw, salt, 1, 17],
          [new Uint8Array(0), pw, salt, 1, 0],
          [new Uint8Array(16), new Uint8Array(0), salt, 1, 16],
          [new Uint8Array(16), pw, new Uint8Array(0), 1, 16]
        ]
        for (const args of cases) {
          for (const fn of [p, `${p}_async`]) {
            assert.strictEqual(await outcome(() => sodium[fn](...args)), 'threw', `${fn} natrium ${args.slice(3)}`)
            assert.strictEqual(await outcome(() => SodiumNative[fn](...args)), 'threw', `${fn} sodium-native ${args.slice(3)}`)
          }
        }
      })
    })
  })
}

'use strict'
// The main API against libsodium-wrappers-sumo 0.8.4, on every backend:
//   - coverage: every function and constant it exports exists;
//   - differential: the same inputs give identical results in every outputFormat (random
//     results are checked by libsodium-wrappers instead: round trips, key relations);
//   - errors: each argument of each call is swapped for a bad value of every class (wrong type,
//     null, one byte more or less, bad numbers, bad outputFormat) and both libraries must throw
//     in the same cases, with the same error classes and, for libsodium's refusals, the same
//     messages. The cases where natrium deliberately differs are listed in DIFFERENCES, and the
//     sweep fails if the list is not exactly what it observes.
const assert = require('assert')
const lsw = require('libsodium-wrappers-sumo')
const { backends } = require('./helpers')
const wrappers = require('../lib/surfaces/wrappers')
const { load } = require('../lib/loader')

// every backend under test
const targets = backends.map(({ name }) => ({ name, make: () => wrappers(load(name)) }))
const makeCases = require('./wrappers-cases')

// functions libsodium-wrappers gives no trailing outputFormat
const NO_FORMAT = new Set(['add', 'compare', 'crypto_auth_hmacsha256_verify', 'crypto_auth_hmacsha512256_verify',
  'crypto_auth_hmacsha512_verify', 'crypto_auth_verify', 'crypto_kem_primitive', 'crypto_onetimeauth_verify',
  'crypto_sign_verify_detached', 'from_base64', 'from_hex', 'from_string', 'increment', 'is_zero', 'memcmp', 'memzero',
  'output_formats', 'pad', 'sodium_bin2ip', 'sodium_version_string', 'symbols', 'to_base64', 'to_hex', 'to_string', 'unpad'])
const FORMATS = [undefined, 'uint8array', 'hex', 'base64', 'text']

// Where natrium throws and libsodium-wrappers does not (or the reverse), by function, argument
// index (or 'format') and bad-value class; docs/api.md explains each.
const DIFFERENCES = {
  // libsodium-wrappers does not check these lengths and reads past a short buffer (or ignores the
  // rest of a long one); natrium requires the length libsodium reads
  'crypto_core_ed25519_from_hash#0': ['longer', 'shorter'],
  'crypto_core_ed25519_from_uniform#0': ['longer', 'shorter'],
  'crypto_core_ristretto255_from_hash#0': ['longer', 'shorter'],
  'crypto_core_hchacha20#2': ['longer', 'shorter'],
  'crypto_core_hsalsa20#2': ['longer', 'shorter'],
  // libsodium-wrappers passes a missing Poly1305 key to libsodium as NULL, and reads 32 bytes
  // from a key of any length; natrium requires crypto_onetimeauth_KEYBYTES
  'crypto_onetimeauth_init#0': ['longer', 'null', 'shorter', 'undefined'],
  // libsodium-wrappers ignores a failed XChaCha20 box seal_open and returns garbage
  'crypto_box_curve25519xchacha20poly1305_seal_open#0': ['longer', 'shorter']
}

// libsodium-wrappers' messages for libsodium's refusals, which natrium reuses (its argument errors
// keep natrium's own messages, which name the parameter and the rule)
const REFUSALS = new Set(['invalid usage', 'internal error', 'ciphertext cannot be decrypted using that key',
  'incorrect key pair for the given ciphertext', 'incorrect secret key for the given ciphertext',
  'wrong secret key for the given ciphertext', 'incorrect signature for the given public key', 'invalid key',
  'input is an invalid element', 'scalar is 0', 'invalid reciprocate', 'invalid point or scalar is 0', 'weak public key',
  'unknown error', 'result is identity element', 'invalid IP address', 'invalid input', 'incomplete input',
  'unsupported/invalid padding', 'conversion failed'])

function sameMessage (mine, theirs) {
  return mine.constructor !== Error || !REFUSALS.has(theirs.message) || mine.message === theirs.message
}

function attempt (f) {
  try {
    return { value: f() }
  } catch (error) {
    return { error }
  }
}

function cloneArgs (args) {
  return args.map((a) => a instanceof Uint8Array ? a.slice() : a)
}

// Results compared across libraries: Uint8Arrays by content (natrium may return a Buffer where
// libsodium-wrappers returns a Uint8Array only in no case, but compare by bytes regardless).
function normalize (v) {
  if (v instanceof Uint8Array) return { bytes: Buffer.from(v).toString('hex'), type: v.constructor.name }
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const o = {}
    for (const [k, x] of Object.entries(v)) o[k] = normalize(x)
    return o
  }
  return v
}

// The bad values of each class for an argument.
function badValues (x) {
  if (x instanceof Uint8Array) {
    const longer = new Uint8Array(x.length + 1)
    longer.set(x)
    const list = [['number', 42], ['null', null], ['undefined', undefined], ['object', {}], ['Uint16Array', new Uint16Array(Math.ceil(x.length / 2) || 1)], ['longer', longer]]
    if (x.length > 0) list.push(['shorter', x.slice(0, x.length - 1)])
    return list
  }
  if (typeof x === 'string') return [['number', 42], ['null', null], ['object', {}]]
  if (typeof x === 'number') return [['negative', -1], ['fraction', 1.5], ['string', '8'], ['null', null], ['NaN', NaN]]
  if (typeof x === 'bigint') return [['negative', -1n], ['null', null]]
  return [['number', 42], ['object', {}]] // null, undefined
}

const isState = (x) => x !== null && typeof x === 'object' && x.constructor.name === 'StateAddress'


function sameErrorClass (mine, theirs) {
  if (theirs instanceof TypeError) return mine instanceof TypeError || mine instanceof RangeError
  return mine instanceof Error
}

describe('main API: libsodium-wrappers-sumo 0.8.4 compatibility', function () {
  before(() => lsw.ready)

  for (const { name: backend, make: makeApi } of targets) {
    describe(`[${backend}]`, () => {
      let nat, cases
      before(async () => {
        await lsw.ready
        nat = makeApi()
        cases = makeCases(lsw)
      })

      it('exports every function and constant libsodium-wrappers-sumo exports', () => {
        const missing = []
        let functions = 0
        for (const [key, v] of Object.entries(lsw)) {
          if (key === 'libsodium') continue // the Emscripten module object
          if (typeof v === 'function') functions++
          if (typeof nat[key] !== typeof v) missing.push(`${key} (${typeof v})`)
        }
        assert.deepStrictEqual(missing, [])
        assert.ok(functions >= 260, `libsodium-wrappers-sumo exports ${functions} functions`)
      })

      it('has a differential case for every function', () => {
        const without = Object.keys(lsw).filter((k) => typeof lsw[k] === 'function' && !cases[k])
        assert.deepStrictEqual(without, [])
      })

      it('constants: the same values (libsodium-wrappers overflows the 64-bit maxima to negative numbers)', () => {
        for (const [key, v] of Object.entries(lsw)) {
          if (typeof v === 'function' || key === 'libsodium' || key === 'ready') continue
          if (typeof v === 'number' && v < 0) {
            // wasm32 libsodium-wrappers prints SIZE_MAX-derived maxima as negative int32s
            assert.ok(nat[key] > 0 && Number.isSafeInteger(nat[key]), key)
          } else {
            assert.deepStrictEqual(nat[key], v, key)
          }
        }
      })

      it('ready is an already-resolved Promise; backend names the backend', async () => {
        assert.ok(nat.ready instanceof Promise)
        assert.strictEqual(await nat.ready, undefined)
        assert.strictEqual(nat.backend, backend)
        assert.ok(!Object.keys(nat).includes('backend'))
      })

      it('deterministic functions: identical results in every outputFormat', function () {
        this.timeout(60000)
        let compared = 0
        for (const c of Object.values(cases)) {
          if (c.random) continue
          const formats = NO_FORMAT.has(c.name) ? [undefined] : c.slow ? [undefined, 'hex'] : FORMATS
          for (let i = 0; i < (c.slow ? 1 : 3); i++) {
            for (const format of formats) {
              const make = c.make()
              const a1 = cloneArgs(make(lsw))
              const a2 = cloneArgs(make(nat))
              const extra = format === undefined ? [] : [format]
              const r1 = attempt(() => lsw[c.name](...a1, ...extra))
              const r2 = attempt(() => nat[c.name](...a2, ...extra))
              const where = `${c.name}(${format || ''})`
              assert.strictEqual(!!r2.error, !!r1.error, `${where}: libsodium-wrappers ${r1.error ? 'threw ' + r1.error.message : 'returned'}, natrium ${r2.error ? 'threw ' + r2.error.stack : 'returned'}`)
              if (r1.error) {
                assert.ok(sameErrorClass(r2.error, r1.error), `${where}: ${r2.error.constructor.name} vs ${r1.error.constructor.name}`)
                assert.ok(sameMessage(r2.error, r1.error), `${where}: '${r2.error.message}' vs '${r1.error.message}'`)
                continue
              }
              if (!c.opaque) assert.deepStrictEqual(normalize(r2.value), normalize(r1.value), where)
              for (const m of c.mutates || []) assert.deepStrictEqual(normalize(a2[m]), normalize(a1[m]), `${where} argument ${m}`)
              compared++
            }
          }
        }
        assert.ok(compared > 1500, `${compared} comparisons`)
      })

      it('functions with random results: checked with libsodium-wrappers, in every outputFormat', function () {
        this.timeout(60000)
        for (const c of Object.values(cases)) {
          if (!c.random) continue
          for (let i = 0; i < (c.slow ? 1 : 3); i++) {
            const make = c.make()
            const args = make(nat)
            c.check(nat[c.name](...args), args, make.extra)
          }
          // every format gives strings (or objects of strings) where bytes were returned
          if (NO_FORMAT.has(c.name)) continue
          const r = nat[c.name](...c.make()(nat), 'hex')
          const values = r && typeof r === 'object' ? Object.values(r) : [r]
          for (const v of values) assert.ok(typeof v !== 'object' || v === null || v.constructor.name === 'StateAddress', c.name)
        }
      })

      it('errors: throws in the same cases as libsodium-wrappers, for every argument', function () {
        this.timeout(120000)
        const observed = {}
        const note = (key, label) => { if (!(observed[key] = observed[key] || []).includes(label)) observed[key].push(label) }
        for (const [c, seed] of Object.values(cases).flatMap((c) => [[c, 0], [c, 1]])) {
          makeCases.seed(`${c.name}/${seed}`)
          const make = c.make()
          const valid = make(lsw)
          const validNat = make(nat)
          const positions = valid.map((x, i) => i)
          if (!NO_FORMAT.has(c.name)) positions.push('format')
          for (const i of positions) {
            if (i !== 'format' && isState(validNat[i])) {
              // A bad state address makes libsodium-wrappers write through it into its heap
              // (and may abort the process): natrium alone is checked, it must throw TypeError.
              for (const bad of [null, 42, {}, new Uint8Array(64)]) {
                const a = cloneArgs(make(nat))
                a[i] = bad
                assert.throws(() => nat[c.name](...a), TypeError, `${c.name}#${i}`)
              }
              continue
            }
            const bad = i === 'format' ? [['unknown', 'bogus'], ['uppercase', 'HEX'], ['number', 5], ['object', {}]] : badValues(valid[i])
            for (const [label, value] of bad) {
              if (c.slow && (label === 'longer' || label === 'shorter')) continue
              const run = (lib) => {
                const a = cloneArgs(make(lib))
                if (i === 'format') a.push(value)
                else a[i] = value
                return attempt(() => lib[c.name](...a))
              }
              const r1 = run(lsw)
              const r2 = run(nat)
              const key = `${c.name}#${i}`
              if (!!r1.error !== !!r2.error) {
                note(key, label)
                continue
              }
              if (r1.error) {
                assert.ok(sameErrorClass(r2.error, r1.error), `${key} ${label}: natrium ${r2.error.constructor.name} (${r2.error.message}), libsodium-wrappers ${r1.error.constructor.name} (${r1.error.message})`)
                assert.ok(sameMessage(r2.error, r1.error), `${key} ${label}: '${r2.error.message}' vs '${r1.error.message}'`)
              } else if (!c.random && !c.opaque) {
                assert.deepStrictEqual(normalize(r2.value), normalize(r1.value), `${key} ${label}`)
              }
            }
          }
        }
        for (const labels of Object.values(observed)) labels.sort()
        const expected = {}
        for (const [k, v] of Object.entries(DIFFERENCES)) expected[k] = v.slice().sort()
        assert.deepStrictEqual(observed, expected)
      })
    })
  }
})

// The Buffer-free codecs (lib/surfaces/wrappers/io.js) write what Buffer#toString writes, at every
// length 0..1000 (random bytes) and across their 8192-digit chunks, in every base64 variant.
describe('main API codecs: hex and base64 as Buffer writes them', () => {
  const crypto = require('crypto')
  const { codecs } = require('../lib/surfaces/wrappers/io')
  const nat = wrappers(load(backends[0].name))
  const V = { ORIGINAL: 1, ORIGINAL_NO_PADDING: 3, URLSAFE: 5, URLSAFE_NO_PADDING: 7 }
  const variants = (B) => {
    const padded = B.toString('base64')
    const url = padded.replace(/\+/g, '-').replace(/\//g, '_')
    return { [V.ORIGINAL]: padded, [V.ORIGINAL_NO_PADDING]: padded.replace(/=+$/, ''), [V.URLSAFE]: url, [V.URLSAFE_NO_PADDING]: url.replace(/=+$/, '') }
  }
  const check = (n) => {
    const b = new Uint8Array(crypto.randomBytes(n))
    const B = Buffer.from(b)
    assert.strictEqual(codecs.hex(b), B.toString('hex'), `hex of ${n} bytes`)
    assert.strictEqual(nat.to_hex(b), B.toString('hex'), `to_hex of ${n} bytes`)
    for (const [v, want] of Object.entries(variants(B))) {
      assert.strictEqual(nat.to_base64(b, Number(v)), want, `to_base64 variant ${v} of ${n} bytes`)
      assert.deepStrictEqual(nat.from_base64(want, Number(v)), b, `from_base64 variant ${v} of ${n} bytes`)
    }
    assert.strictEqual(codecs.base64(b, true, false), B.toString('base64url'), `base64url of ${n} bytes`)
    // a view into a larger buffer, at an odd offset
    const big = new Uint8Array(n + 7)
    big.set(b, 3)
    const view = big.subarray(3, 3 + n)
    assert.strictEqual(codecs.hex(view), B.toString('hex'), `hex of a ${n}-byte view`)
    assert.strictEqual(codecs.base64(view, false, true), B.toString('base64'), `base64 of a ${n}-byte view`)
  }
  it('every length 0..1000', () => {
    for (let n = 0; n <= 1000; n++) check(n)
  })
  it('around the chunk sizes, and 1 MiB', () => {
    for (const n of [4095, 4096, 4097, 6141, 6142, 6143, 6144, 6145, 6146, 12288, 12289, 100000, 1 << 20]) check(n)
  })
})

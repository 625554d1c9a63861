'use strict'
// The two backends side by side: the same functions and constants, byte-identical outputs for
// every deterministic AEAD function on random inputs (including aliased and overlapping
// arguments), the same error class and message for the same bad call of ANY function in the
// symbol table, and NATRIUM_BACKEND selecting the backend in a fresh process.
const assert = require('assert')
const crypto = require('crypto')
const path = require('path')
const { load } = require('../lib/loader')
const { symbols } = require('../lib/symbols')
const { random, toHex, execNode } = require('./helpers')
const { constant, wellFormed } = require('./table-args')

const root = path.join(__dirname, '..')
const only = process.env.NATRIUM_TEST_BACKENDS
const both = !only || (only.includes('native') && only.includes('wasm'))

// Outcome of fn(...args): its return value, or the class and message of what it threw.
function outcome (fn, args) {
  try {
    return { returned: fn(...args) }
  } catch (err) {
    return { threw: `${err.constructor.name}: ${err.message}` }
  }
}

// Deep copies of an argument list (TypedArrays keep their type; views that share an ArrayBuffer
// keep sharing it, at the same offsets), so each backend works on its own copy.
// (Detached views are passed as they are: they have no bytes to copy.)
function cloneArgs (args) {
  const buffers = new Map()
  return args.map((a) => {
    if (!ArrayBuffer.isView(a) || a instanceof DataView || isDetached(a)) return a
    if (!buffers.has(a.buffer)) buffers.set(a.buffer, a.buffer.slice(0))
    return new a.constructor(buffers.get(a.buffer), a.byteOffset, a.length)
  })
}

function isDetached (view) {
  try {
    return new Uint8Array(view.buffer) && false
  } catch {
    return true
  }
}

function bytes (a) {
  if (!ArrayBuffer.isView(a)) return a
  return isDetached(a) ? 'detached' : toHex(new Uint8Array(a.buffer, a.byteOffset, a.byteLength))
}

const argumentError = (r) => /^(TypeError|RangeError): /.test(r.threw)

// The one way messages may differ: a range bounded by SIZE_MAX (2^32 - 1 on wasm32), e.g.
// "outlen must be an integer between 0 and <max>" where <max> is a *_MAX constant.
const RANGE = /^(RangeError: \S+ must be an integer between \d+ and )(\d+)$/
function sizeBound (ra, rb) {
  const [a, b] = [RANGE.exec(ra.threw || ''), RANGE.exec(rb.threw || '')]
  return a !== null && b !== null && a[1] === b[1] && Number(b[2]) < Number(a[2]) && Number(b[2]) <= 2 ** 32
}

// Run the same call on both backends; assert the same outcome and the same bytes in every
// argument afterwards (outputs written, inputs untouched, failures wiped alike). Options:
// `checksOnly`: compare argument errors only (an AES-256-GCM state of random bytes: its layout is
// that of the code that reads it, libsodium's AES-NI or natrium's portable code); `random`: the
// function draws random bytes, so its outputs (and returned value) are compared only when it threw; `opaque`: the
// indices of state buffers, whose layout is the platform's (size_t fields, SIMD-specific
// representations), so their bytes are not compared.
function same (native, wasm, name, args, why, options = {}) {
  const a = cloneArgs(args)
  const b = cloneArgs(args)
  return compare(name, why, a, b, outcome(native[name], a), outcome(wasm[name], b), options)
}

// The same for a Promise-returning function: what each Promise settles to, and the argument
// bytes once both have settled (the native backend writes its outputs when the work is done).
async function sameSettled (native, wasm, name, args, why, options = {}) {
  const a = cloneArgs(args)
  const b = cloneArgs(args)
  const [ra, rb] = await Promise.all([settled(outcome(native[name], a)), settled(outcome(wasm[name], b))])
  return compare(name, why, a, b, ra, rb, options)
}

async function settled (r) {
  if (!(r.returned instanceof Promise)) return r
  try {
    return { resolved: await r.returned }
  } catch (err) {
    return { rejected: `${err.constructor.name}: ${err.message}` }
  }
}

function compare (name, why, a, b, ra, rb, { checksOnly = false, random = false, opaque = [] }) {
  if (checksOnly && !argumentError(ra) && !argumentError(rb)) return ra
  const shown = (r) => (random && 'returned' in r ? { returned: typeof r.returned } : r)
  if (!sizeBound(ra, rb)) assert.deepStrictEqual(shown(rb), shown(ra), `${name} (${why}): native ${JSON.stringify(ra)}, wasm ${JSON.stringify(rb)}`)
  if (!random || ra.threw) {
    const visible = (list) => list.map((x, i) => (opaque.includes(i) ? 'opaque' : bytes(x)))
    assert.deepStrictEqual(visible(b), visible(a), `${name} (${why}): argument bytes differ`)
  }
  return ra
}

function detached (n) {
  const view = new Uint8Array(n)
  structuredClone(view.buffer, { transfer: [view.buffer] })
  return view
}

// Bad values for one argument, by kind. Every one must be refused (or accepted) identically.
// Numbers stay out of range (an in-range huge work factor would run for ever on both).
function badValues (binding, a) {
  if (a.kind === 'num') {
    // bounds: numbers or constant names (others, relative to an argument, are left to the contract)
    const [lo, hi] = a.range.map((c) => (typeof c === 'number' || typeof c === 'string' ? constant(binding, c) : undefined))
    const values = [undefined, null, 'x', '1', true, 1n, {}, new Uint8Array(1), -1, -0.5, 0.5, NaN, Infinity, -Infinity, 2 ** 64, 2 ** 70]
    if (lo > 0) values.push(lo - 1, lo + 0.5)
    if (hi + 1 < Number.MAX_SAFE_INTEGER) values.push(hi + 1)
    return values
  }
  const values = [undefined, null, 'x', 1, true, 1n, {}, [], new DataView(new ArrayBuffer(4)), Object.create(Uint8Array.prototype), detached(8), detached(0)]
  if (a.kind !== 'nul') values.push(new Uint8Array(0), random(1), random(65))
  return values
}

let loadError = null
const [native, wasm] = both ? ['native', 'wasm'].map((name) => {
  try {
    return load(name).binding
  } catch (err) {
    loadError = err
    return null
  }
}) : []

if (!both) {
  describe('backends (native vs wasm)', () => { it('needs both backends', function () { this.skip() }) })
} else if (loadError) {
  // npm test needs both backends built (npm run build): say so as a failure, not a crash
  describe('backends (native vs wasm)', () => { it('both backends load', () => { throw loadError }) })
} else {
  describe('backends (native vs wasm)', () => {
    it('export the same functions and the same constants (but the SIZE_MAX-bound *_MAX)', () => {
      const fns = (b) => Object.keys(b).filter((k) => typeof b[k] === 'function').sort()
      const nativeOnly = Object.keys(symbols).filter((k) => symbols[k].native)
      assert.deepStrictEqual(fns(wasm), fns(native).filter((k) => !nativeOnly.includes(k)))
      const consts = (b) => Object.keys(b).filter((k) => typeof b[k] !== 'function').sort()
      assert.deepStrictEqual(consts(wasm), consts(native))
      assert.ok(consts(native).length > 300)
      for (const k of consts(native)) {
        if (wasm[k] === native[k]) continue
        // libsodium bounds these by SIZE_MAX, which is 2^32 - 1 on wasm32
        assert.match(k, /_MAX$/, `${k}: native ${native[k]}, wasm ${wasm[k]}`)
        assert.ok(wasm[k] < native[k] && wasm[k] <= 2 ** 32, `${k}: native ${native[k]}, wasm ${wasm[k]}`)
      }
    })

    describe('every deterministic AEAD function gives the same bytes on random inputs', () => {
      const names = ['xchacha20poly1305_ietf', 'chacha20poly1305_ietf', 'chacha20poly1305', 'aegis128l', 'aegis256', 'aes256gcm']
      const sizes = [0, 1, 15, 16, 17, 63, 64, 65, 255, 256, 1000, 4096, 65537]
      for (const name of names) {
        const p = `crypto_aead_${name}`
        it(name, function () {
          const A = native[`${p}_ABYTES`]
          for (const len of sizes.concat([crypto.randomInt(0, 3000), crypto.randomInt(0, 3000)])) {
            const k = random(native[`${p}_KEYBYTES`])
            const n = random(native[`${p}_NPUBBYTES`])
            const m = random(len)
            const ad = len % 2 ? random(crypto.randomInt(0, 50)) : null
            const enc = same(native, wasm, `${p}_encrypt`, [new Uint8Array(len + A), m, ad, null, n, k], `len ${len}`)
            assert.strictEqual(enc.returned, len + A)
            same(native, wasm, `${p}_encrypt_detached`, [new Uint8Array(len), new Uint8Array(A), m, ad, null, n, k], `len ${len}`)
            const c = new Uint8Array(len + A)
            native[`${p}_encrypt`](c, m, ad, null, n, k)
            assert.strictEqual(same(native, wasm, `${p}_decrypt`, [new Uint8Array(len), null, c, ad, n, k], `len ${len}`).returned, len)
            same(native, wasm, `${p}_decrypt_detached`, [new Uint8Array(len), null, c.subarray(0, len), c.subarray(len), ad, n, k], `len ${len}`)
            // a forged tag: the same Error, outputs wiped the same way
            const forged = c.slice()
            forged[crypto.randomInt(0, forged.length)] ^= 1 << crypto.randomInt(0, 8)
            const bad = same(native, wasm, `${p}_decrypt`, [new Uint8Array(len).fill(0xaa), null, forged, ad, n, k], `forged, len ${len}`)
            assert.strictEqual(bad.threw, 'Error: could not verify data')
            same(native, wasm, `${p}_decrypt_detached`, [new Uint8Array(len).fill(0xaa), null, forged.subarray(0, len), forged.subarray(len), ad, n, k], `forged, len ${len}`)
          }
        })
      }

      // A state is laid out by the code that made it (libsodium's AES-NI code natively on this
      // CPU, natrium's portable code on wasm): each backend gets its own, and the answers agree.
      it('aes256gcm with a precomputed key (beforenm / *_afternm)', function () {
        const p = 'crypto_aead_aes256gcm'
        for (const len of [0, 1, 16, 100, 5000]) {
          const k = random(32)
          const n = random(12)
          const m = random(len)
          const ad = len % 2 ? random(len % 37) : null
          const ctx = {}
          for (const [b, sodium] of [['native', native], ['wasm', wasm]]) {
            ctx[b] = new Uint8Array(sodium[`${p}_STATEBYTES`])
            sodium[`${p}_beforenm`](ctx[b], k)
          }
          const both = (fn, make) => {
            const out = {}
            for (const [b, sodium] of [['native', native], ['wasm', wasm]]) {
              const args = make(ctx[b])
              let threw = null
              try { sodium[`${p}_${fn}`](...args) } catch (e) { threw = `${e.constructor.name}: ${e.message}` }
              out[b] = { threw, bytes: args.filter((a) => a instanceof Uint8Array && a !== ctx[b]).map(toHex) }
            }
            assert.deepStrictEqual(out.wasm, out.native, `${fn}, len ${len}`)
            return out.native
          }
          const c = new Uint8Array(len + 16)
          native[`${p}_encrypt`](c, m, ad, null, n, k)
          assert.strictEqual(both('encrypt_afternm', (st) => [new Uint8Array(len + 16), m, ad, null, n, st]).bytes[0], toHex(c))
          both('encrypt_detached_afternm', (st) => [new Uint8Array(len), new Uint8Array(16), m, ad, null, n, st])
          assert.strictEqual(both('decrypt_afternm', (st) => [new Uint8Array(len), null, c, ad, n, st]).bytes[0], toHex(m))
          both('decrypt_detached_afternm', (st) => [new Uint8Array(len), null, c.subarray(0, len), c.subarray(len), ad, n, st])
          const forged = c.slice()
          forged[crypto.randomInt(0, forged.length)] ^= 1
          assert.strictEqual(both('decrypt_afternm', (st) => [new Uint8Array(len).fill(0xaa), null, forged, ad, n, st]).threw, 'Error: could not verify data')
        }
      })

      it('aliased and overlapping arguments behave alike (in place, partial overlap, shared ArrayBuffers)', () => {
        const p = 'crypto_aead_xchacha20poly1305_ietf'
        const k = random(32)
        const n = random(24)
        for (const len of [0, 1, 32, 100]) {
          const ab = new Uint8Array(random(2 * len + 100)).buffer
          const at = (off, size) => new Uint8Array(ab, off, size)
          // in place: c and m start at the same byte
          same(native, wasm, `${p}_encrypt`, [at(0, len + 16), at(0, len), null, null, n, k], `in place, len ${len}`)
          same(native, wasm, `${p}_decrypt`, [at(0, len), null, at(0, len + 16), null, n, k], `in place open, len ${len}`)
          same(native, wasm, `${p}_encrypt_detached`, [at(0, len), at(len + 20, 16), at(0, len), at(len + 40, 7), null, n, k], `detached in place, len ${len}`)
          // partial overlap (refused when both are non-empty), and ad inside the output
          for (const shift of [1, 15, 16, len]) {
            same(native, wasm, `${p}_encrypt`, [at(shift, len + 16), at(0, len), null, null, n, k], `c = m + ${shift}, len ${len}`)
            same(native, wasm, `${p}_encrypt`, [at(0, len + 16), at(shift, len), null, null, n, k], `m = c + ${shift}, len ${len}`)
            same(native, wasm, `${p}_encrypt`, [at(0, len + 16), at(len + 40, len), at(shift, 9), null, n, k], `ad inside c, len ${len}`)
          }
          // the tag over the message, over the ciphertext; key and nonce inside the output
          same(native, wasm, `${p}_encrypt_detached`, [at(0, len), at(len > 8 ? 8 : 0, 16), at(len + 40, len), null, null, n, k], `mac over c, len ${len}`)
          same(native, wasm, `${p}_encrypt_detached`, [at(len + 40, len), at(len > 8 ? 8 : 0, 16), at(0, len), null, null, n, k], `mac over m, len ${len}`)
          same(native, wasm, `${p}_encrypt`, [at(0, len + 16), at(len + 40, len), null, null, at(4, 24), at(8, 32)], `n and k inside c, len ${len}`)
        }
        // three views bridged into one region: a, b disjoint, c overlapping both
        const ab = new Uint8Array(random(200)).buffer
        same(native, wasm, `${p}_encrypt_detached`, [new Uint8Array(ab, 0, 40), new Uint8Array(ab, 100, 16), new Uint8Array(ab, 30, 40), new Uint8Array(ab, 60, 50), null, n, k], 'bridged')
      })

      it('every TypedArray type, Buffers from the shared pool and SharedArrayBuffers give the same bytes', () => {
        const p = 'crypto_aead_chacha20poly1305_ietf'
        const k = random(32)
        const n = random(12)
        const m = random(48)
        const types = [Int8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array, BigInt64Array, BigUint64Array]
        for (const T of types) {
          const view = (b) => new T(new Uint8Array(b).buffer, 0, b.length / T.BYTES_PER_ELEMENT)
          const npub = 12 % T.BYTES_PER_ELEMENT ? n : view(n) // 12 bytes are not a whole number of 64-bit words
          same(native, wasm, `${p}_encrypt`, [view(new Uint8Array(64)), view(m), view(random(16)), null, npub, view(k)], T.name)
          same(native, wasm, `${p}_encrypt`, [view(new Uint8Array(64)), view(m), null, null, view(random(16)), view(k)], `${T.name}, wrong nonce length`)
        }
        const pooled = () => Buffer.from(random(24)) // small Buffers share one pool ArrayBuffer
        same(native, wasm, `${p}_encrypt`, [Buffer.alloc(64), Buffer.from(m), pooled(), null, Buffer.from(n), Buffer.from(k)], 'Buffer')
        same(native, wasm, `${p}_encrypt`, [Buffer.alloc(24 + 16), pooled(), pooled(), null, Buffer.from(n), Buffer.from(k)], 'pooled Buffers')
        // a subclass whose accessors lie: both backends use the real length and bytes
        class Liar extends Uint8Array {
          get length () { return 1 }
          get byteLength () { return 1 }
          get byteOffset () { return 3 }
        }
        const liar = (b) => { const l = new Liar(b.length); l.set(b); return l }
        same(native, wasm, `${p}_encrypt`, [liar(new Uint8Array(64)), liar(m), null, null, liar(n), liar(k)], 'lying subclass')
        const shared = new Uint8Array(new SharedArrayBuffer(200))
        shared.set(random(200))
        same(native, wasm, `${p}_encrypt`, [shared.subarray(0, 64), shared.subarray(100, 148), null, null, shared.subarray(160, 172), shared.subarray(168, 200)], 'SharedArrayBuffer')
      })

      it('survives memory growth between and during calls (a 24 MB message, then small ones)', () => {
        const p = 'crypto_aead_xchacha20poly1305_ietf'
        const k = random(32)
        const n = random(24)
        const big = new Uint8Array(24 << 20)
        big.fill(7)
        same(native, wasm, `${p}_encrypt`, [new Uint8Array(big.length + 16), big, null, null, n, k], '24 MB')
        for (let i = 0; i < 5; i++) same(native, wasm, `${p}_encrypt`, [new Uint8Array(26), random(10), null, null, n, k], 'small after big')
      })
    })

    describe('wasm glue', () => {
      it('a trap inside the module restarts it and is reported as an Error', () => {
        // A fresh copy of the glue over an Instance whose nat_call traps once, as libsodium's
        // abort() would (a native process would end there).
        const wasmBackend = require('../lib/backends/wasm')
        const bytes = require('fs').readFileSync(require.resolve('../lib/natrium.wasm'))
        const RealInstance = WebAssembly.Instance
        let trip = false
        WebAssembly.Instance = function (module, imports) {
          const real = new RealInstance(module, imports).exports
          return {
            exports: Object.assign({}, real, {
              nat_call (index, argc) {
                if (trip) { trip = false; throw new WebAssembly.RuntimeError('unreachable') }
                return real.nat_call(index, argc)
              }
            })
          }
        }
        let fresh
        try {
          fresh = wasmBackend({ module: bytes }).binding
        } finally {
          WebAssembly.Instance = RealInstance
        }
        const p = 'crypto_aead_xchacha20poly1305_ietf'
        const args = [new Uint8Array(116), random(100), null, null, random(24), random(32)]
        trip = true
        assert.throws(() => fresh[`${p}_encrypt`](...args),
          (e) => e.constructor === Error && e.message === `natrium.wasm: ${p}_encrypt trapped (unreachable); the module was restarted`)
        same(native, fresh, `${p}_encrypt`, args, 'after a restart')
      })

      it('calls of changing shapes and sizes in a row stay correct (cached views, scratch reuse)', () => {
        const p = 'crypto_aead_chacha20poly1305'
        const k = random(32)
        const n = random(8)
        for (const len of [5, 5, 500, 5, 70000, 70000, 3, 17 << 20, 1, 0, 2]) {
          same(native, wasm, `${p}_encrypt`, [new Uint8Array(len + 16), random(len), len % 2 ? random(3) : null, null, n, k], `len ${len}`)
        }
      })
    })

    // A streaming state begun on one backend and carried on by the other gives what staying on
    // one gives (the caller's bytes are in one layout everywhere), except Poly1305's, whose
    // implementations keep different states: there the other backend refuses it.
    describe('streaming states move between the backends', () => {
      const key = random(32)
      const msg = random(300)
      const sk = new Uint8Array(64)
      native.crypto_sign_keypair(new Uint8Array(32), sk)
      const hashLike = (init, update, finish, outLen, initArgs = []) => (b, st, step) => {
        if (step === 0) return b[init](st, ...initArgs)
        if (step === 1) return b[update](st, msg)
        const o = new Uint8Array(outLen)
        b[finish](st, o, ...(finish.endsWith('final_create') ? [sk] : []))
        return toHex(o)
      }
      const FAMILIES = {
        crypto_auth_hmacsha256: hashLike('crypto_auth_hmacsha256_init', 'crypto_auth_hmacsha256_update', 'crypto_auth_hmacsha256_final', 32, [key]),
        crypto_auth_hmacsha512: hashLike('crypto_auth_hmacsha512_init', 'crypto_auth_hmacsha512_update', 'crypto_auth_hmacsha512_final', 64, [key]),
        crypto_auth_hmacsha512256: hashLike('crypto_auth_hmacsha512256_init', 'crypto_auth_hmacsha512256_update', 'crypto_auth_hmacsha512256_final', 32, [key]),
        crypto_generichash: hashLike('crypto_generichash_init', 'crypto_generichash_update', 'crypto_generichash_final', 32, [key, 32]),
        crypto_hash_sha256: hashLike('crypto_hash_sha256_init', 'crypto_hash_sha256_update', 'crypto_hash_sha256_final', 32),
        crypto_hash_sha512: hashLike('crypto_hash_sha512_init', 'crypto_hash_sha512_update', 'crypto_hash_sha512_final', 64),
        crypto_hash_sha3256: hashLike('crypto_hash_sha3256_init', 'crypto_hash_sha3256_update', 'crypto_hash_sha3256_final', 32),
        crypto_hash_sha3512: hashLike('crypto_hash_sha3512_init', 'crypto_hash_sha3512_update', 'crypto_hash_sha3512_final', 64),
        crypto_xof_shake128: hashLike('crypto_xof_shake128_init', 'crypto_xof_shake128_update', 'crypto_xof_shake128_squeeze', 50),
        crypto_xof_shake256: hashLike('crypto_xof_shake256_init', 'crypto_xof_shake256_update', 'crypto_xof_shake256_squeeze', 50),
        crypto_xof_turboshake128: hashLike('crypto_xof_turboshake128_init_with_domain', 'crypto_xof_turboshake128_update', 'crypto_xof_turboshake128_squeeze', 50, [0x1f]),
        crypto_xof_turboshake256: hashLike('crypto_xof_turboshake256_init', 'crypto_xof_turboshake256_update', 'crypto_xof_turboshake256_squeeze', 50),
        crypto_kdf_hkdf_sha256: hashLike('crypto_kdf_hkdf_sha256_extract_init', 'crypto_kdf_hkdf_sha256_extract_update', 'crypto_kdf_hkdf_sha256_extract_final', 32, [key]),
        crypto_kdf_hkdf_sha512: hashLike('crypto_kdf_hkdf_sha512_extract_init', 'crypto_kdf_hkdf_sha512_extract_update', 'crypto_kdf_hkdf_sha512_extract_final', 64, [key]),
        crypto_sign: hashLike('crypto_sign_init', 'crypto_sign_update', 'crypto_sign_final_create', 64),
        crypto_stream_xchacha20_xor: (b, st, step) => {
          if (step === 0) return b.crypto_stream_xchacha20_xor_init(st, new Uint8Array(24), key)
          const o = new Uint8Array(step === 1 ? 7 : 70)
          b.crypto_stream_xchacha20_xor_update(st, o, msg.subarray(0, o.length))
          return toHex(o)
        },
        crypto_secretstream_xchacha20poly1305: (b, st, step) => {
          // a pull state begun on one backend opens the second chunk on the other
          if (step === 0) return b.crypto_secretstream_xchacha20poly1305_init_pull(st, SS.header, key)
          const m = new Uint8Array(10)
          b.crypto_secretstream_xchacha20poly1305_pull(st, m, new Uint8Array(1), SS.chunks[step - 1], null)
          return toHex(m)
        },
        crypto_onetimeauth: hashLike('crypto_onetimeauth_init', 'crypto_onetimeauth_update', 'crypto_onetimeauth_final', 16, [key])
      }
      const SS = { header: new Uint8Array(24), chunks: [new Uint8Array(27), new Uint8Array(27)] }
      {
        const st = new Uint8Array(native.crypto_secretstream_xchacha20poly1305_STATEBYTES)
        native.crypto_secretstream_xchacha20poly1305_init_push(st, SS.header, key)
        for (const c of SS.chunks) native.crypto_secretstream_xchacha20poly1305_push(st, c, msg.subarray(0, 10), null, 0)
      }
      for (const [family, run] of Object.entries(FAMILIES)) {
        it(family, () => {
          const size = native[`${family}_STATEBYTES`]
          const results = {}
          for (const [from, to] of [['native', 'native'], ['wasm', 'wasm'], ['native', 'wasm'], ['wasm', 'native']]) {
            const b = { native, wasm }
            const st = new Uint8Array(size)
            run(b[from], st, 0)
            run(b[from], st, 1)
            try { results[`${from}->${to}`] = run(b[to], st, 2) } catch (err) { results[`${from}->${to}`] = `${err.constructor.name}: ${err.message}` }
          }
          assert.strictEqual(results['wasm->wasm'], results['native->native'])
          // crypto_onetimeauth too: every Poly1305 of ours keeps one layout (src/crypto/poly1305_impl.h)
          const moved = results['native->native']
          assert.deepStrictEqual([results['native->wasm'], results['wasm->native']], [moved, moved])
        })
      }
    })

    describe('the sodium-native surface\'s JavaScript parts answer alike on both backends', () => {
      const sodiumNative = require('../lib/surfaces/sodium-native')
      const N = sodiumNative(load('native'))
      const W = sodiumNative(load('wasm'))
      const detachedView = () => { const v = new Uint8Array(8); structuredClone(v.buffer, { transfer: [v.buffer] }); return v }
      const shrunk = () => { const rab = new ArrayBuffer(16, { maxByteLength: 16 }); const v = new Uint8Array(rab, 0, 16); rab.resize(0); return v }
      const outcome = (f) => { try { const r = f(); return r && r.buffer ? 'a buffer' : String(r) } catch (e) { return `${e.constructor.name}: ${e.message}` } }
      for (const fname of ['sodium_malloc', 'sodium_free', 'sodium_mprotect_noaccess', 'sodium_mprotect_readonly', 'sodium_mprotect_readwrite', 'sodium_mlock', 'sodium_munlock', 'crypto_generichash_batch']) {
        it(fname, () => {
          for (const v of [undefined, null, 'x', 1, -1, 2 ** 33, 1.5, {}, [], new DataView(new ArrayBuffer(4)), detachedView(), shrunk(), new Uint8Array(4), Object.create(Uint8Array.prototype)]) {
            const args = fname === 'crypto_generichash_batch' ? [v, [new Uint8Array(3)]] : [v]
            assert.strictEqual(outcome(() => W[fname](...args)), outcome(() => N[fname](...args)), `${fname}(${Object.prototype.toString.call(v)})`)
          }
        })
      }
      it('sodium_free frees only what sodium_malloc returned, once; mprotect takes any view of the region', () => {
        for (const S of [N, W]) {
          const r = S.sodium_malloc(32)
          S.sodium_free(r.subarray(16))
          assert.strictEqual(r.length, 32, S.backend)
          S.sodium_mprotect_readonly(r.subarray(4))
          S.sodium_mprotect_readwrite(r)
          S.sodium_free(r)
          assert.strictEqual(r.length, 0, S.backend)
          S.sodium_free(r)
        }
      })
    })

    describe('the same bad call throws the same error on both backends', () => {
      const label = (v) => {
        if (ArrayBuffer.isView(v)) return v instanceof DataView ? 'DataView' : `${v.constructor.name}(${v.length})`
        if (typeof v === 'bigint') return `${v}n`
        return typeof v === 'object' && v !== null ? Object.prototype.toString.call(v) : String(v)
      }
      // Functions whose outputs are random: only their errors are compared. (A `random: true` in
      // the symbol table would say this better than a pattern over names.)
      const RANDOM = /(_keygen|_keypair|_random|^randombytes_(buf|uniform)|_seal|_enc|_init_push|_str)(_async)?$/
      for (const [name, entry] of Object.entries(symbols)) {
        if (entry.native) continue
        const promised = entry.returns === 'promise'
        it(name, async () => {
          const run = promised ? sameSettled : same
          const options = {
            checksOnly: /^crypto_aead_aes256gcm_\w+_afternm$/.test(name),
            random: RANDOM.test(name),
            opaque: entry.args.map((a, i) => (a.kind === 'state' ? i : -1)).filter((i) => i >= 0)
          }
          const good = wellFormed(native, entry)
          await run(native, wasm, name, [], 'no arguments', options)
          await run(native, wasm, name, good.slice(0, -1), 'one argument short', options)
          await run(native, wasm, name, good.concat([new Uint8Array(3), 'x']), 'two extra arguments', options)
          for (const [i, a] of entry.args.entries()) {
            for (const v of badValues(native, a)) {
              const args = good.slice()
              args[i] = v
              await run(native, wasm, name, args, `${a.name} = ${label(v)}`, options)
            }
          }
        })
      }
    })

    describe('NATRIUM_BACKEND picks the backend in a fresh process', () => {
      const child = (backend, code) => execNode(['-e', code], {
        cwd: root, env: Object.assign({}, process.env, { NATRIUM_BACKEND: backend }), stdio: 'pipe'
      }).trim()
      const probe = `const s = require('./lib/sodium-native'); const k = new Uint8Array(32).fill(1), n = new Uint8Array(24).fill(2)
        const c = new Uint8Array(19); s.crypto_aead_xchacha20poly1305_ietf_encrypt(c, Buffer.from('abc'), null, null, n, k)
        console.log(s.backend, Buffer.from(c).toString('hex'))`
      it('wasm and native load what was asked and agree', () => {
        const [wb, wc] = child('wasm', probe).split(' ')
        const [nb, nc] = child('native', probe).split(' ')
        assert.strictEqual(wb, 'wasm')
        assert.strictEqual(nb, 'native')
        assert.strictEqual(wc, nc)
        assert.match(wc, /^[0-9a-f]{38}$/)
      })
      it('an unknown backend is an error, not a fallback', () => {
        assert.throws(() => child('fast', "require('./')"), /NATRIUM_BACKEND must be one of native, wasm/)
      })
    })
  })
}

'use strict'
// The WebAssembly backend's generated functions (lib/backends/wasm-functions/<family>.js): the fast path
// (arguments written straight into the module's slots, write-only outputs not copied in) answers
// as the generic path and the native backend do: results, errors, outputs left alone after an
// argument error, wiped after a refusal, in place, overlapping, sharing an ArrayBuffer. The
// whole contract, misuse and family suites run once more through the generic path only
// (NATRIUM_WASM_GENERIC=1), so both paths pass them.
const assert = require('assert')
const path = require('path')
const { backends, random, spawnNode } = require('./helpers')

const CHILD = process.env.NATRIUM_WASM_GENERIC === '1'
const wasm = backends.find((b) => b.name === 'wasm')
const native = backends.find((b) => b.name === 'native')

const fill = (n, v) => new Uint8Array(n).fill(v)
const outcome = (fn) => {
  try {
    const r = fn()
    return { r }
  } catch (err) {
    return { threw: `${err.constructor.name}: ${err.message}`, code: err.code }
  }
}

describe('wasm functions (generated)', function () {
  before(function () {
    if (!wasm || !native) this.skip()
  })

  it('every function of the module is a plain function named for it, pointing at its table entry in the source', function () {
    const fs = require('fs')
    const FAMILY = require('../lib/backends/wasm-functions/index').family
    const text = (f) => fs.readFileSync(path.join(__dirname, '..', 'lib', 'backends', 'wasm-functions', `${f}.js`), 'utf8')
    for (const [name, fn] of Object.entries(wasm.raw)) {
      if (typeof fn !== 'function') continue
      assert.strictEqual(fn.name, name)
      const f = FAMILY[name]
      assert.match(text(f), new RegExp(`// ${name}: lib/symbols/${f}\\.js\\n  function ${name} \\(`), name)
    }
  })

  it('every generated main-API function is named for itself and names its spec and table entry', function () {
    const fs = require('fs')
    const FAMILY = require('../lib/surfaces/wrappers/functions/index').family
    const api = require('../lib/surfaces/wrappers')(wasm.backend)
    for (const [name, f] of Object.entries(FAMILY)) {
      assert.strictEqual(api[name].name, name)
      const text = fs.readFileSync(path.join(__dirname, '..', 'lib', 'surfaces', 'wrappers', 'functions', `${f}.js`), 'utf8')
      assert.match(text, new RegExp(`// ${name}: lib/surfaces/wrappers/spec\\.js, raw \\w+: lib/symbols/${f}\\.js\\n  function ${name} \\(`), name)
    }
  })

  it('a stack trace of a bad argument names the generated function', function () {
    const err = outcome(() => { try { wasm.raw.crypto_aead_xchacha20poly1305_ietf_encrypt(fill(26, 0), fill(10, 0), null, null, fill(23, 0), fill(32, 0)) } catch (e) { return e.stack } })
    assert.match(err.r, /crypto_aead_xchacha20poly1305_ietf_encrypt/)
  })

  for (const [what, args, out] of [
    ['good call', (k) => [fill(26, 0xaa), random(10), null, null, random(24), k], 0],
    ['bad key length: output left alone', () => [fill(26, 0xaa), random(10), null, null, random(24), random(31)], 0],
    ['bad output length: output left alone', (k) => [fill(25, 0xaa), random(10), null, null, random(24), k], 0],
    ['nsec not null', (k) => [fill(26, 0xaa), random(10), null, random(1), random(24), k], 0],
    ['with additional data', (k) => [fill(26, 0xaa), random(10), random(7), null, random(24), k], 0]
  ]) {
    it(`xchacha20poly1305 encrypt, ${what}: the same outcome and output bytes as native`, function () {
      const k = random(32)
      const a = args(k)
      const b = a.map((x) => x instanceof Uint8Array ? x.slice() : x)
      const x = outcome(() => wasm.raw.crypto_aead_xchacha20poly1305_ietf_encrypt(...a))
      const y = outcome(() => native.raw.crypto_aead_xchacha20poly1305_ietf_encrypt(...b))
      assert.deepStrictEqual(x, y)
      assert.deepStrictEqual(a[out], b[out])
    })
  }

  it('a refused decrypt wipes the output on both backends; a good one writes it', function () {
    const k = random(32)
    const n = random(24)
    const m = random(40)
    const c = new Uint8Array(56)
    native.raw.crypto_aead_xchacha20poly1305_ietf_encrypt(c, m, null, null, n, k)
    for (const backend of [wasm, native]) {
      const out = fill(40, 0xaa)
      assert.strictEqual(backend.raw.crypto_aead_xchacha20poly1305_ietf_decrypt(out, null, c, null, n, k), 40)
      assert.deepStrictEqual(out, m)
      const bad = c.slice()
      bad[3] ^= 1
      const wiped = fill(40, 0xaa)
      assert.throws(() => backend.raw.crypto_aead_xchacha20poly1305_ietf_decrypt(wiped, null, bad, null, n, k), (e) => e.code === 'ERR_NATRIUM_REFUSED')
      assert.deepStrictEqual(wiped, new Uint8Array(40))
    }
  })

  it('in place, partly overlapping, and sharing one ArrayBuffer without overlap: as native', function () {
    const k = random(32)
    const n = random(24)
    for (const layout of ['in place', 'overlap', 'apart', 'pool']) {
      const run = (backend) => {
        const ab = new ArrayBuffer(200)
        const whole = new Uint8Array(ab)
        whole.set(random(200).fill(5))
        const m = new Uint8Array(ab, 10, 30)
        const c = layout === 'in place' ? new Uint8Array(ab, 10, 46) : layout === 'overlap' ? new Uint8Array(ab, 20, 46) : new Uint8Array(ab, 100, 46)
        const key = layout === 'pool' ? new Uint8Array(ab, 160, 32) : k
        if (layout === 'pool') key.set(k)
        const r = outcome(() => backend.raw.crypto_aead_xchacha20poly1305_ietf_encrypt(c, m, null, null, n, key))
        return { r, bytes: Buffer.from(whole).toString('hex') }
      }
      assert.deepStrictEqual(run(wasm), run(native), layout)
    }
  })

  it('hash, generichash and a state stream: the fast path agrees with native at lengths 1..300', function () {
    for (let len = 1; len <= 300; len += 7) {
      const m = random(len)
      for (const [fn, size] of [['crypto_hash_sha256', 32], ['crypto_hash_sha512', 64], ['crypto_generichash', 32]]) {
        const a = new Uint8Array(size)
        const b = new Uint8Array(size)
        wasm.raw[fn](a, m)
        native.raw[fn](b, m)
        assert.deepStrictEqual(a, b, `${fn} ${len}`)
      }
      const sa = new Uint8Array(native.raw.crypto_hash_sha256_STATEBYTES)
      const sb = new Uint8Array(native.raw.crypto_hash_sha256_STATEBYTES)
      wasm.raw.crypto_hash_sha256_init(sa)
      native.raw.crypto_hash_sha256_init(sb)
      wasm.raw.crypto_hash_sha256_update(sa, m)
      native.raw.crypto_hash_sha256_update(sb, m)
      assert.deepStrictEqual(sa, sb)
    }
  })

  it('the contract, misuse and family suites pass through the generic path only (child process, NATRIUM_WASM_GENERIC=1)', function () {
    if (CHILD) this.skip()
    this.timeout(300000)
    const mocha = require.resolve('mocha/bin/mocha.js')
    const env = { ...process.env, NATRIUM_WASM_GENERIC: '1', NATRIUM_TEST_BACKENDS: 'native,wasm' }
    const files = ['contract', 'misuse', 'backends', 'aead', 'hash', 'box', 'sign', 'utils', 'wrappers', 'wasm-functions'].map((f) => path.join(__dirname, `${f}.test.js`))
    const r = spawnNode([mocha, '--reporter', 'dot', '--timeout', '120000', ...files], { env, encoding: 'utf8' })
    assert.strictEqual(r.status, 0, r.stdout + r.stderr)
    assert.match(r.stdout, /(\d+) passing/)
    assert.doesNotMatch(r.stdout, /failing/)
  })
})

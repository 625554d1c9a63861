'use strict'
// Safe under misuse (issue 15): every reproducer of the hostile-input campaign, on both backends,
// each in its own child process so that a crash is a failure of its own and not of the suite.
// A child prints one JSON line: what the call gave (bytes as hex, or the error it threw or
// rejected with); the parent checks it is a clear refusal or the right answer.
const assert = require('assert')
const path = require('path')
const { backends, execNode } = require('./helpers')

const root = path.join(__dirname, '..')

// Runs `body` (an async function body; `sn` is natrium/sodium-native, `sodium` natrium, `hex(b)`
// and `report(x)`) under NATRIUM_BACKEND=backend; returns what it reported.
function child (backend, body, flags = []) {
  const script = `
    const sn = require(${JSON.stringify(path.join(root, 'lib', 'sodium-native.js'))})
    const sodium = require(${JSON.stringify(path.join(root, 'lib', 'index.js'))})
    const hex = (b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex')
    const report = (x) => process.stdout.write(JSON.stringify(x) + '\\n')
    const settle = (p) => p.then((v) => ({ resolved: v === undefined ? null : v }), (e) => ({ rejected: e.constructor.name + ': ' + e.message }))
    const attempt = (f) => { try { return { returned: f() } } catch (e) { return { threw: e.constructor.name + ': ' + e.message } } }
    ;(async () => { ${body} })().catch((e) => { report({ crashed: String(e && e.stack) }); process.exitCode = 3 })
  `
  const out = execNode([...flags, '-e', script], { env: { ...process.env, NATRIUM_BACKEND: backend } })
  const lines = out.trim().split('\n').filter(Boolean)
  return lines.map((l) => JSON.parse(l))
}

for (const { name } of backends) {
  describe(`misuse [${name}]`, function () {
    this.timeout(120000)

    describe('*_async functions own their memory', () => {
      const LOST = /^Error: \S+_async: out was detached, freed or resized while the work ran; nothing was written$/

      it('crypto_pwhash_async: the output freed with sodium_free while the job runs', () => {
        const [r] = child(name, `
          const b = sn.sodium_malloc(32)
          const p = settle(sn.crypto_pwhash_async(b, Buffer.from('pw'), Buffer.alloc(16), 3, 8 << 20, 2))
          sn.sodium_free(b)
          report(await p)`)
        // native: the job finished into its own memory, and the freed view gets nothing;
        // wasm: the work ran during the call, before the free
        if (name === 'native') assert.match(r.rejected, LOST)
        else assert.deepStrictEqual(r, { resolved: null })
      })

      it('crypto_pwhash_async: the output on a resizable ArrayBuffer resized to 0', () => {
        const [r] = child(name, `
          const rab = new ArrayBuffer(32, { maxByteLength: 64 })
          const p = settle(sn.crypto_pwhash_async(new Uint8Array(rab, 0, 32), Buffer.from('pw'), Buffer.alloc(16), 3, 8 << 20, 2))
          rab.resize(0)
          report(await p)`)
        if (name === 'native') assert.match(r.rejected, LOST)
        else assert.deepStrictEqual(r, { resolved: null })
      })

      it('crypto_pwhash_async: the output transferred away and collected', () => {
        const [r] = child(name, `
          let out = new Uint8Array(32)
          const p = settle(sn.crypto_pwhash_async(out, Buffer.from('pw'), Buffer.alloc(16), 3, 8 << 20, 2))
          let moved = structuredClone(out.buffer, { transfer: [out.buffer] })
          moved = null
          out = null
          for (let i = 0; i < 5; i++) { globalThis.gc(); await new Promise((resolve) => setImmediate(resolve)) }
          report(await p)`, ['--expose-gc'])
        assert.ok(r.rejected ? LOST.test(r.rejected) : name === 'wasm', JSON.stringify(r))
      })

      it('crypto_pwhash_scryptsalsa208sha256_async: the password shrunk while the job runs hashes the password given', () => {
        const [r, ref] = child(name, `
          const rab = new ArrayBuffer(16, { maxByteLength: 16 })
          const pw = new Uint8Array(rab)
          pw.set(Buffer.from('correct horse ok'))
          const out = new Uint8Array(32)
          const p = settle(sn.crypto_pwhash_scryptsalsa208sha256_async(out, pw, Buffer.alloc(32, 1), 524288, 16 << 20))
          rab.resize(0)
          report({ ...(await p), out: hex(out) })
          const ref = new Uint8Array(32)
          sn.crypto_pwhash_scryptsalsa208sha256(ref, Buffer.from('correct horse ok'), Buffer.alloc(32, 1), 524288, 16 << 20)
          report({ out: hex(ref) })`)
        assert.deepStrictEqual(r, { resolved: null, out: ref.out })
      })

      it('extension_pbkdf2_sha512_async: the output shrunk while the job runs', () => {
        const [r] = child(name, `
          const rab = new ArrayBuffer(64, { maxByteLength: 64 })
          const p = settle(sn.extension_pbkdf2_sha512_async(new Uint8Array(rab, 0, 64), Buffer.from('pw'), Buffer.from('salt'), 200000, 64))
          rab.resize(8)
          report(await p)`)
        if (name === 'native') assert.match(r.rejected, LOST)
        else assert.deepStrictEqual(r, { resolved: null })
      })

      it('extension_pbkdf2_sha256_async writes only the first outlen bytes of a longer out', () => {
        const [r, ref] = child(name, `
          const out = new Uint8Array(48).fill(0xee)
          report({ ...(await settle(sn.extension_pbkdf2_sha256_async(out, Buffer.from('pw'), Buffer.from('salt'), 1000, 32))), out: hex(out) })
          const ref = new Uint8Array(48).fill(0xee)
          sn.extension_pbkdf2_sha256(ref, Buffer.from('pw'), Buffer.from('salt'), 1000, 32)
          report({ out: hex(ref) })`)
        assert.deepStrictEqual(r, { resolved: null, out: ref.out })
        assert.match(ref.out, /e{32}$/)
      })

      it('crypto_pwhash_str_verify_async: the password and string may change at once', () => {
        const [r] = child(name, `
          const str = new Uint8Array(sn.crypto_pwhash_STRBYTES)
          sn.crypto_pwhash_str(str, Buffer.from('pw'), 1, 8 << 20)
          const pw = Buffer.from('pw')
          const p = settle(sn.crypto_pwhash_str_verify_async(str, pw))
          pw.fill(0)
          str.fill(0)
          report(await p)`)
        assert.deepStrictEqual(r, { resolved: true })
      })

      it('refuse an empty password in _str_async and _str_verify_async, as the native backend always did', () => {
        const [a, b] = child(name, `
          report(attempt(() => sn.crypto_pwhash_str_async(new Uint8Array(sn.crypto_pwhash_STRBYTES), new Uint8Array(0), 1, 8 << 20)))
          report(attempt(() => sn.crypto_pwhash_scryptsalsa208sha256_str_verify_async(new Uint8Array(sn.crypto_pwhash_scryptsalsa208sha256_STRBYTES), new Uint8Array(0))))`)
        assert.deepStrictEqual(a, { threw: 'RangeError: passwd must be at least 1 bytes long' })
        assert.deepStrictEqual(b, { threw: 'RangeError: passwd must be at least 1 bytes long' })
      })
    })
  })
}

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

    describe('no caller code runs inside a call, and a call from inside one is refused', () => {
      it('sodium-native surface: a TypedArray whose prototype is a Proxy (the trap calls natrium)', () => {
        const [r, ref] = child(name, `
          let traps = 0
          const evil = (u) => Object.setPrototypeOf(u, new Proxy(Uint8Array.prototype, {
            getPrototypeOf (t) { traps++; sn.crypto_generichash(new Uint8Array(32), new Uint8Array(100)); return Object.getPrototypeOf(t) }
          }))
          const c = new Uint8Array(20)
          sn.crypto_secretbox_easy(c, evil(new Uint8Array(4)), new Uint8Array(24), new Uint8Array(32))
          report({ c: hex(c), traps })
          const c2 = new Uint8Array(20)
          sn.crypto_secretbox_easy(c2, new Uint8Array(4), new Uint8Array(24), new Uint8Array(32))
          report({ c: hex(c2), traps: 0 })`)
        assert.deepStrictEqual(r, ref)
      })

      it('main API: a nonce whose length getter makes a failing call does not change the outer call', () => {
        const [r, ref] = child(name, `
          let gets = 0
          class N extends Uint8Array {
            get length () {
              gets++
              try { sodium.crypto_aead_chacha20poly1305_ietf_encrypt_detached('a 32-byte message the attacker set', null, null, 'bad', new Uint8Array(32)) } catch {}
              return 12
            }
          }
          const k = new Uint8Array(32).fill(1)
          const a = sodium.crypto_aead_chacha20poly1305_ietf_encrypt_detached(new Uint8Array(16), null, null, new N(12), k)
          report({ c: hex(a.ciphertext), mac: hex(a.mac), gets })
          const b = sodium.crypto_aead_chacha20poly1305_ietf_encrypt_detached(new Uint8Array(16), null, null, new Uint8Array(12), k)
          report({ c: hex(b.ciphertext), mac: hex(b.mac), gets: 0 })`)
        assert.deepStrictEqual(r, ref)
        assert.strictEqual(r.c.length, 32)
      })

      it('main API: a nonce whose length getter calls crypto_secretbox_easy does not change the outer call', () => {
        const [r, ref] = child(name, `
          let gets = 0
          const k = new Uint8Array(32).fill(2)
          class M extends Uint8Array { get length () { gets++; sodium.crypto_secretbox_easy('inner message', new Uint8Array(24).fill(7), k); return 24 } }
          report({ c: sodium.to_hex(sodium.crypto_secretbox_easy('outer', new M(24), k)), gets })
          report({ c: sodium.to_hex(sodium.crypto_secretbox_easy('outer', new Uint8Array(24), k)), gets: 0 })`)
        assert.deepStrictEqual(r, ref)
      })

      it('patched Uint8Array.prototype.set and fill never see the bytes of a call', () => {
        const [r] = child(name, `
          const seen = []
          const proto = Object.getPrototypeOf(Uint8Array.prototype)
          for (const m of ['set', 'fill', 'subarray', 'slice', 'indexOf']) {
            const orig = proto[m]
            proto[m] = function (...args) { seen.push(m); return orig.apply(this, args) }
          }
          const key = sodium.crypto_secretbox_keygen()
          const n = new Uint8Array(24)
          seen.length = 0
          const c = sodium.crypto_secretbox_easy('a message', n, key)
          sodium.crypto_secretbox_open_easy(c, n, key)
          const o = new Uint8Array(32)
          sn.crypto_generichash(o, key)
          sn.crypto_aead_xchacha20poly1305_ietf_encrypt(new Uint8Array(25), new Uint8Array(9), null, null, new Uint8Array(24), key)
          report({ seen })`)
        assert.deepStrictEqual(r, { seen: [] })
      })

      it('look-alike objects and subclasses are judged by their internal slots, with the parameter named', () => {
        const [a, b, c, d] = child(name, `
          const fake = Object.create(Uint8Array.prototype)
          report(attempt(() => sodium.crypto_generichash(32, fake)))
          report(attempt(() => sn.crypto_generichash(new Uint8Array(32), fake)))
          class Liar extends Uint8Array { get length () { return 1e9 } get byteLength () { return 1e9 } }
          report(attempt(() => sodium.to_hex(sodium.crypto_generichash(32, new Liar(3)))))
          report(attempt(() => sodium.to_hex(sodium.crypto_generichash(32, new Uint8Array(3)))))`)
        assert.deepStrictEqual(a, { threw: 'TypeError: message must be a Uint8Array or a string, got an object' })
        assert.deepStrictEqual(b, { threw: 'TypeError: in must be a TypedArray' })
        assert.deepStrictEqual(c, d)
      })

      it('a replaced random source that calls natrium is refused with a clear error, every time', () => {
        const [r, after] = child(name, `
          const real = globalThis.crypto
          Object.defineProperty(globalThis, 'crypto', {
            configurable: true,
            value: { getRandomValues (a) { sn.crypto_generichash(new Uint8Array(32), new Uint8Array(5)); return real.getRandomValues(a) } }
          })
          report(attempt(() => sodium.to_hex(sodium.randombytes_buf(16))))
          report(attempt(() => sodium.crypto_generichash(16, 'abc', null, 'hex')))`)
        // native: libsodium reads the OS generator, never globalThis.crypto; wasm: the source is
        // read once, so every later call (whose restarted module draws a seed) is refused too
        if (name === 'native') {
          assert.match(r.returned, /^[0-9a-f]{32}$/)
          assert.deepStrictEqual(after, { returned: 'cf4ab791c62b8d2b2109c90275287816' })
        } else {
          for (const x of [r, after]) assert.match(x.threw, /^Error: natrium.wasm: \w+ trapped \(natrium.wasm: crypto_generichash was called while another natrium call was running/)
        }
      })

      it('a state object is checked without running its code', () => {
        const [r] = child(name, `
          let traps = 0
          const handler = new Proxy({}, { get () { traps++; return () => { traps++ } } })
          const out = []
          for (const s of [new Proxy({}, handler), { name: 'crypto_generichash' }, Object.create(sodium.StateAddress.prototype)]) {
            out.push(attempt(() => sodium.crypto_generichash_update(s, 'x')).threw)
          }
          report({ out, traps })`)
        assert.strictEqual(r.traps, 0)
        for (const m of r.out) assert.match(m, /^TypeError: state_address must be a crypto_generichash(_blake2b)? state \(from crypto_generichash(_blake2b)?_init\), got an object$/)
      })
    })

    describe('a state and an output never share bytes', () => {
      it('crypto_generichash_final and crypto_xof_shake128_squeeze refuse an out inside the state', () => {
        const [a, b] = child(name, `
          const st = new Uint8Array(sn.crypto_generichash_STATEBYTES + 64)
          const state = st.subarray(0, sn.crypto_generichash_STATEBYTES)
          sn.crypto_generichash_init(state, null, 32)
          sn.crypto_generichash_update(state, Buffer.from('abc'))
          report(attempt(() => sn.crypto_generichash_final(state, st.subarray(10, 42))))
          const xs = new Uint8Array(sn.crypto_xof_shake128_STATEBYTES)
          sn.crypto_xof_shake128_init(xs)
          report(attempt(() => sn.crypto_xof_shake128_squeeze(xs, xs.subarray(0, 16))))`)
        assert.deepStrictEqual(a, { threw: 'RangeError: out must not overlap state' })
        assert.deepStrictEqual(b, { threw: 'RangeError: out must not overlap state' })
      })
    })

    describe('a refused call leaves its outputs zeroed and its state as it was', () => {
      it('the reproducers: seal to a low-order key, a zero scalar, a zero tweak, a forged chunk, a finished SHA-3', () => {
        const [r] = child(name, `
          const filled = (n) => new Uint8Array(n).fill(0xaa)
          const zeroed = (b) => b.every((x) => x === 0)
          const out = {}
          for (const p of ['crypto_box', 'crypto_box_curve25519xchacha20poly1305']) {
            const c = filled(10 + sn[p + '_SEALBYTES'])
            out[p + '_seal'] = [attempt(() => sn[p + '_seal'](c, new Uint8Array(10), new Uint8Array(32))).threw, zeroed(c)]
          }
          for (const f of ['crypto_scalarmult_ed25519_base', 'crypto_scalarmult_ed25519_base_noclamp']) {
            const q = filled(32)
            out[f] = [attempt(() => sn[f](q, new Uint8Array(32))).threw, zeroed(q)]
          }
          const [pk, scalar] = [filled(32), filled(32)]
          out.keypair_add = [attempt(() => sn.extension_tweak_ed25519_keypair_add(pk, scalar, new Uint8Array(32), new Uint8Array(32))).threw, zeroed(pk) && zeroed(scalar)]
          const key = new Uint8Array(32).fill(3)
          const st = new Uint8Array(sn.crypto_secretstream_xchacha20poly1305_STATEBYTES)
          sn.crypto_secretstream_xchacha20poly1305_init_pull(st, new Uint8Array(24), key)
          const before = hex(st)
          const [m, tag] = [filled(13), filled(1)]
          out.pull = [attempt(() => sn.crypto_secretstream_xchacha20poly1305_pull(st, m, tag, new Uint8Array(30), null)).threw, zeroed(m) && zeroed(tag), hex(st) === before]
          const h = new Uint8Array(sn.crypto_hash_sha3256_STATEBYTES)
          sn.crypto_hash_sha3256_init(h)
          sn.crypto_hash_sha3256_final(h, new Uint8Array(32))
          const done = hex(h)
          const digest = filled(32)
          out.sha3_final = [attempt(() => sn.crypto_hash_sha3256_final(h, digest)).threw, zeroed(digest), hex(h) === done]
          out.sha3_update = [attempt(() => sn.crypto_hash_sha3256_update(h, new Uint8Array(5))).threw, true, hex(h) === done]
          report(out)`)
        assert.deepStrictEqual(r, {
          crypto_box_seal: ['Error: crypto_box_seal failed', true],
          crypto_box_curve25519xchacha20poly1305_seal: ['Error: crypto_box_curve25519xchacha20poly1305_seal failed', true],
          crypto_scalarmult_ed25519_base: ['Error: crypto_scalarmult_ed25519_base failed', true],
          crypto_scalarmult_ed25519_base_noclamp: ['Error: crypto_scalarmult_ed25519_base_noclamp failed', true],
          keypair_add: ['Error: failed to add tweak to keypair', true],
          pull: ['Error: pull failed', true, true],
          sha3_final: ['Error: crypto_hash_sha3256_final failed', true, true],
          sha3_update: ['Error: crypto_hash_sha3256_update failed', true, true]
        })
      })

      it('refusals carry code ERR_NATRIUM_REFUSED; argument errors and natrium\'s own failures do not', () => {
        const [r] = child(name, `
          const code = (f) => { try { f() } catch (e) { return [e.constructor.name, e.code === undefined ? null : e.code] } }
          report([
            code(() => sn.crypto_box_seal(new Uint8Array(48), new Uint8Array(0), new Uint8Array(32))),
            code(() => sn.crypto_box_seal(new Uint8Array(47), new Uint8Array(0), new Uint8Array(32))),
            code(() => sn.crypto_aead_xchacha20poly1305_ietf_decrypt(new Uint8Array(1), null, new Uint8Array(17), null, new Uint8Array(24), new Uint8Array(32)))
          ])`)
        assert.deepStrictEqual(r, [['Error', 'ERR_NATRIUM_REFUSED'], ['RangeError', null], ['Error', 'ERR_NATRIUM_REFUSED']])
      })
    })
  })
}

'use strict'
// Salsa20 and the Poly1305 under XSalsa20-Poly1305: on wasm our own code (src/crypto/salsa20.c,
// four blocks per SIMD128 pass, one block in scalar C; libsodium's crypto_stream_salsa20* and
// crypto_onetimeauth_poly1305* wrapped at link time, so crypto_secretbox, crypto_box and
// crypto_stream_xsalsa20 run it); natively libsodium's own. Both must give libsodium's bytes:
// references are libsodium itself (sodium-native 5.1.0) and @noble/ciphers' XSalsa20-Poly1305
// (an independent implementation). Every length 0..1100 and around 1 MiB, block counters that
// carry from word 8 into word 9, in place and out of place, tampered boxes refused.
const assert = require('assert')
const crypto = require('crypto')
const SodiumNative = require('sodium-native')
const { backends, toHex, random } = require('./helpers')

let xsalsa20poly1305, xsalsa20 // @noble/ciphers is ESM only
before(async () => {
  ({ xsalsa20poly1305, xsalsa20 } = await import('@noble/ciphers/salsa.js'))
})

const LENGTHS = Array.from({ length: 1101 }, (_, n) => n)
  .concat([(1 << 20) - 1, 1 << 20, (1 << 20) + 63, (1 << 20) + 65])

for (const { name: backend, sodium } of backends) {
  describe(`salsa20-fast: crypto_stream_salsa20, crypto_secretbox [${backend}]`, () => {
    // libsodium's reference Salsa20 core (crypto_core_salsa20: input = nonce || 64-bit counter),
    // which neither build replaces, block by block
    const keystream = (n, nonce, ic, key) => {
      const ks = new Uint8Array(Math.ceil(n / 64) * 64); const input = new Uint8Array(16)
      input.set(nonce)
      const view = new DataView(input.buffer)
      for (let j = 0; j * 64 < n; j++) {
        view.setBigUint64(8, (BigInt(ic) + BigInt(j)) & 0xffffffffffffffffn, true)
        sodium.crypto_core_salsa20(ks.subarray(64 * j, 64 * j + 64), input, key, null)
      }
      return ks.subarray(0, n)
    }

    it('crypto_stream_salsa20_xor_ic at every length 0..1100 and around 1 MiB, counters carrying into word 9: libsodium\'s core, and sodium-native (32-bit counters)', function () {
      this.timeout(60000)
      const pool = random((1 << 20) + 100)
      const counters = [0, 1, 0xfffffffd, 0xffffffff, 2 ** 32 - 2, 2 ** 53 - 3]
      for (const n of LENGTHS) {
        const m = pool.subarray(n % 5, (n % 5) + n)
        const nonce = random(8); const key = random(32)
        const ic = counters[n % counters.length]
        const ks = keystream(n, nonce, ic, key)
        const expected = toHex(Uint8Array.from(m, (b, i) => b ^ ks[i]))
        const out = new Uint8Array(n)
        sodium.crypto_stream_salsa20_xor_ic(out, m, nonce, ic, key)
        assert.strictEqual(toHex(out), expected, `length ${n} ic ${ic}`)
        const inPlace = Uint8Array.from(m)
        sodium.crypto_stream_salsa20_xor_ic(inPlace, inPlace, nonce, ic, key)
        assert.strictEqual(toHex(inPlace), expected, `in place, length ${n} ic ${ic}`)
        if (ic < 2 ** 32) {
          const ref = Buffer.alloc(n)
          SodiumNative.crypto_stream_salsa20_xor_ic(ref, m, nonce, ic, key)
          assert.strictEqual(toHex(ref), expected, `sodium-native, length ${n} ic ${ic}`)
        }
      }
    })

    it('crypto_stream_salsa20, _xor and crypto_stream_xsalsa20(_xor) at every length 0..600: libsodium and noble', () => {
      for (let n = 0; n <= 600; n++) {
        const key = random(32); const n8 = random(8); const n24 = random(24); const m = random(n)
        const ks = new Uint8Array(n); const ksRef = Buffer.alloc(n)
        sodium.crypto_stream_salsa20(ks, n8, key)
        SodiumNative.crypto_stream_salsa20(ksRef, n8, key)
        assert.strictEqual(toHex(ks), toHex(ksRef), `salsa20 keystream ${n}`)
        const c = new Uint8Array(n)
        sodium.crypto_stream_salsa20_xor(c, m, n8, key)
        assert.strictEqual(toHex(c), toHex(Uint8Array.from(m, (b, i) => b ^ ksRef[i])), `salsa20_xor ${n}`)
        const x = new Uint8Array(n)
        sodium.crypto_stream_xsalsa20_xor(x, m, n24, key)
        assert.strictEqual(toHex(x), toHex(xsalsa20(key, n24, m)), `xsalsa20_xor ${n}`)
        const xk = new Uint8Array(n)
        sodium.crypto_stream(xk, n24, key)
        assert.strictEqual(toHex(xk), toHex(xsalsa20(key, n24, new Uint8Array(n))), `crypto_stream ${n}`)
      }
    })

    it('crypto_secretbox_easy / _detached at every length 0..1100 and around 1 MiB: noble and libsodium; open round trips; every tampered byte refused', function () {
      this.timeout(60000)
      const pool = random((1 << 20) + 100)
      for (const n of LENGTHS) {
        const m = pool.subarray(n % 3, (n % 3) + n)
        const key = random(32); const nonce = random(24)
        const c = new Uint8Array(n + 16)
        sodium.crypto_secretbox_easy(c, m, nonce, key)
        assert.strictEqual(toHex(c), toHex(xsalsa20poly1305(key, nonce).encrypt(m)), `easy ${n}`)
        const ref = Buffer.alloc(n + 16)
        SodiumNative.crypto_secretbox_easy(ref, m, nonce, key)
        assert.strictEqual(toHex(c), toHex(ref), `easy vs libsodium ${n}`)
        const cd = new Uint8Array(n); const mac = new Uint8Array(16)
        sodium.crypto_secretbox_detached(cd, mac, m, nonce, key)
        assert.strictEqual(toHex(mac) + toHex(cd), toHex(c), `detached ${n}`)
        const back = new Uint8Array(n)
        assert.strictEqual(sodium.crypto_secretbox_open_easy(back, c, nonce, key), true, `open ${n}`)
        assert.strictEqual(toHex(back), toHex(m), `opened ${n}`)
        if (n <= 300) {
          const at = crypto.randomInt(0, n + 16)
          const bad = Uint8Array.from(c); bad[at] ^= 1 << crypto.randomInt(0, 8)
          const out = new Uint8Array(n).fill(0xa5)
          assert.strictEqual(sodium.crypto_secretbox_open_easy(out, bad, nonce, key), false, `tampered byte ${at} of ${n}`)
          assert.ok(out.every((b) => b === 0), `output zeroed on refusal (${n})`)
        }
      }
    })

    it('crypto_secretbox_easy and _open_easy with c and m overlapping (message 16 bytes after the box, and the box 16 after the message): libsodium\'s bytes', () => {
      for (const n of [0, 1, 15, 16, 17, 31, 32, 33, 64, 100, 255, 256, 257, 1000]) {
        const m = random(n); const key = random(32); const nonce = random(24)
        const expected = Buffer.alloc(n + 16)
        SodiumNative.crypto_secretbox_easy(expected, m, nonce, key)
        const b = new Uint8Array(n + 32)
        b.set(m, 16)
        sodium.crypto_secretbox_easy(b.subarray(0, n + 16), b.subarray(16, 16 + n), nonce, key)
        assert.strictEqual(toHex(b.subarray(0, n + 16)), toHex(expected), `sealed over its message, ${n}`)
        assert.strictEqual(sodium.crypto_secretbox_open_easy(b.subarray(16, 16 + n), b.subarray(0, n + 16), nonce, key), true)
        assert.strictEqual(toHex(b.subarray(16, 16 + n)), toHex(m), `opened over its box, ${n}`)
        const d = new Uint8Array(n + 32)
        d.set(m, 0)
        sodium.crypto_secretbox_easy(d.subarray(16, n + 32), d.subarray(0, n), nonce, key)
        assert.strictEqual(toHex(d.subarray(16, n + 32)), toHex(expected), `sealed 16 bytes after its message, ${n}`)
      }
    })

    it('crypto_box_easy / crypto_box_open_easy (X25519 + XSalsa20-Poly1305): libsodium, both directions', () => {
      const a = { pk: Buffer.alloc(32), sk: Buffer.alloc(32) }; const b = { pk: Buffer.alloc(32), sk: Buffer.alloc(32) }
      SodiumNative.crypto_box_keypair(a.pk, a.sk); SodiumNative.crypto_box_keypair(b.pk, b.sk)
      for (const n of [0, 1, 15, 16, 31, 32, 33, 63, 64, 65, 200, 257, 1000]) {
        const m = random(n); const nonce = random(24)
        const c = new Uint8Array(n + 16)
        sodium.crypto_box_easy(c, m, nonce, b.pk, a.sk)
        const ref = Buffer.alloc(n + 16)
        SodiumNative.crypto_box_easy(ref, m, nonce, b.pk, a.sk)
        assert.strictEqual(toHex(c), toHex(ref), `box ${n}`)
        const back = new Uint8Array(n)
        assert.strictEqual(sodium.crypto_box_open_easy(back, c, nonce, a.pk, b.sk), true)
        assert.strictEqual(toHex(back), toHex(m))
        c[n] ^= 0x80
        assert.strictEqual(sodium.crypto_box_open_easy(back, c, nonce, a.pk, b.sk), false, `tampered box ${n}`)
      }
    })
  })
}

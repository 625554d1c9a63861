'use strict'
// crypto_aead_*: Wycheproof vectors, libsodium's own vector for the original ChaCha20-Poly1305,
// round trips, tampering, overlap rules, and differential checks against node:crypto and
// sodium-native on random inputs.
const assert = require('assert')
const crypto = require('crypto')
const SodiumNative = require('sodium-native')
const { backends, hex, toHex, random, wycheproof, vectors, byName } = require('./helpers')

const WYCHEPROOF = {
  xchacha20poly1305_ietf: 'xchacha20_poly1305_test.json',
  chacha20poly1305_ietf: 'chacha20_poly1305_test.json',
  aes256gcm: 'aes_gcm_test.json'
}
const ALL = ['xchacha20poly1305_ietf', 'chacha20poly1305_ietf', 'chacha20poly1305', 'aes256gcm', 'aegis128l', 'aegis256']

// Functions this file calls only through composed names, in full (see byName in helpers.js)
const BY_NAME = [
  'crypto_aead_xchacha20poly1305_ietf_encrypt_detached',
  'crypto_aead_xchacha20poly1305_ietf_decrypt_detached',
  'crypto_aead_xchacha20poly1305_ietf_keygen',
  'crypto_aead_chacha20poly1305_ietf_decrypt',
  'crypto_aead_chacha20poly1305_ietf_decrypt_detached',
  'crypto_aead_chacha20poly1305_ietf_keygen',
  'crypto_aead_chacha20poly1305_decrypt',
  'crypto_aead_chacha20poly1305_encrypt_detached',
  'crypto_aead_chacha20poly1305_decrypt_detached',
  'crypto_aead_chacha20poly1305_keygen',
  'crypto_aead_aegis128l_encrypt',
  'crypto_aead_aegis128l_decrypt',
  'crypto_aead_aegis128l_encrypt_detached',
  'crypto_aead_aegis128l_decrypt_detached',
  'crypto_aead_aegis128l_keygen',
  'crypto_aead_aegis256_encrypt',
  'crypto_aead_aegis256_decrypt',
  'crypto_aead_aegis256_encrypt_detached',
  'crypto_aead_aegis256_decrypt_detached',
  'crypto_aead_aegis256_keygen'
]

for (const { name: backend, sodium: surface } of backends) {
  const { sodium, calledEveryName } = byName(surface, BY_NAME)
  describe(`aead [${backend}]`, () => {
    after(calledEveryName)
    for (const [name, file] of Object.entries(WYCHEPROOF)) {
      const p = `crypto_aead_${name}`
      it(`${name}: Wycheproof ${file}`, function () {
        let ran = 0
        for (const t of wycheproof(file)) {
          const [k, iv, aad, msg, ct, tag] = [t.key, t.iv, t.aad, t.msg, t.ct, t.tag].map(hex)
          // libsodium takes only its own key/nonce/tag sizes; other sizes are refused up front
          if (k.length !== sodium[`${p}_KEYBYTES`] || iv.length !== sodium[`${p}_NPUBBYTES`] ||
              tag.length !== sodium[`${p}_ABYTES`]) {
            assert.throws(() => sodium[`${p}_decrypt`](new Uint8Array(ct.length), null, Buffer.concat([ct, tag]), aad, iv, k), RangeError)
            continue
          }
          ran++
          const c = Buffer.concat([ct, tag])
          const m = new Uint8Array(ct.length)
          if (t.result === 'valid') {
            const out = new Uint8Array(msg.length + tag.length)
            assert.strictEqual(sodium[`${p}_encrypt`](out, msg, aad, null, iv, k), out.length, `tcId ${t.tcId}`)
            assert.strictEqual(toHex(out), toHex(c), `tcId ${t.tcId} encrypt`)
            assert.strictEqual(sodium[`${p}_decrypt`](m, null, c, aad, iv, k), msg.length)
            assert.strictEqual(toHex(m), toHex(msg), `tcId ${t.tcId} decrypt`)
          } else {
            m.fill(0xaa)
            assert.throws(() => sodium[`${p}_decrypt`](m, null, c, aad, iv, k), /could not verify data/, `tcId ${t.tcId}`)
            assert.ok(m.every((b) => b === 0), `tcId ${t.tcId}: m must be zeroed on failure`)
          }
        }
        assert.ok(ran >= 60, `only ${ran} vectors fit libsodium's sizes`)
        // AES-GCM: the 256-bit-key, 96-bit-IV, 128-bit-tag groups (39 valid, 27 forgeries)
        if (name === 'aes256gcm') assert.strictEqual(ran, 66)
      })
    }

    // Wycheproof's AEGIS files use 128-bit tags; libsodium's AEGIS always uses 256-bit tags.
    for (const name of ['aegis128l', 'aegis256']) {
      it(`${name}: libsodium test/default/aead_${name}.c vectors (256-bit tags)`, () => {
        const p = `crypto_aead_${name}`
        const { tests } = vectors(`libsodium/aead_${name}.json`)
        assert.strictEqual(tests.length, 64)
        for (const t of tests) {
          const [k, n, m, ad] = [t.key, t.nonce, t.message, t.ad].map(hex)
          const c = new Uint8Array(m.length)
          const mac = new Uint8Array(32)
          sodium[`${p}_encrypt_detached`](c, mac, m, ad, null, n, k)
          assert.strictEqual(toHex(c), t.ciphertext)
          assert.strictEqual(toHex(mac), t.mac)
          const back = new Uint8Array(m.length)
          sodium[`${p}_decrypt_detached`](back, null, c, mac, ad, n, k)
          assert.strictEqual(toHex(back), t.message)
        }
      })
    }

    it('chacha20poly1305 (original): libsodium test/default/aead_chacha20poly1305.c vector', () => {
      const k = hex('4290bcb154173531f314af57f3be3b5006da371ece272afa1b5dbdd1100a1007')
      const n = hex('cd7cf67be39c794a')
      const ad = hex('87e229d4500845a079c0')
      const m = hex('86d09974840bded2a5ca')
      const c = new Uint8Array(m.length + 16)
      sodium.crypto_aead_chacha20poly1305_encrypt(c, m, ad, null, n, k)
      assert.strictEqual(toHex(c), 'e3e446f7ede9a19b62a4677dabf4e3d24b876bb284753896e1d6')
    })

    it('aes256gcm is available (libsodium\'s hardware code where the CPU has it, natrium\'s portable code elsewhere)', () => {
      assert.strictEqual(sodium.crypto_aead_aes256gcm_is_available(), true)
    })

    for (const name of ALL) {
      const p = `crypto_aead_${name}`
      describe(name, () => {
        const setup = (len) => {
          const k = new Uint8Array(sodium[`${p}_KEYBYTES`])
          sodium[`${p}_keygen`](k)
          return { k, n: random(sodium[`${p}_NPUBBYTES`]), m: random(len), ad: random(7), A: sodium[`${p}_ABYTES`] }
        }

        it('combined and detached round trips agree, with and without ad, at 0..300 bytes', () => {
          for (const len of [0, 1, 15, 16, 17, 63, 64, 65, 300]) {
            const { k, n, m, ad, A } = setup(len)
            for (const a of [ad, null]) {
              const c = new Uint8Array(len + A)
              sodium[`${p}_encrypt`](c, m, a, null, n, k)
              const cd = new Uint8Array(len)
              const mac = new Uint8Array(A)
              assert.strictEqual(sodium[`${p}_encrypt_detached`](cd, mac, m, a, null, n, k), A)
              assert.strictEqual(toHex(c), toHex(cd) + toHex(mac))
              const back = new Uint8Array(len)
              assert.strictEqual(sodium[`${p}_decrypt`](back, null, c, a, n, k), len)
              assert.strictEqual(toHex(back), toHex(m))
              const back2 = new Uint8Array(len)
              sodium[`${p}_decrypt_detached`](back2, null, cd, mac, a, n, k)
              assert.strictEqual(toHex(back2), toHex(m))
            }
          }
        })

        it('any flipped bit of c, ad, nonce or key fails and zeroes the output', () => {
          const { k, n, m, ad, A } = setup(40)
          const c = new Uint8Array(40 + A)
          sodium[`${p}_encrypt`](c, m, ad, null, n, k)
          for (const [what, buf] of [['c', c], ['ad', ad], ['n', n], ['k', k]]) {
            for (const i of [0, buf.length - 1]) {
              buf[i] ^= 0x01
              const out = new Uint8Array(40).fill(0x55)
              assert.throws(() => sodium[`${p}_decrypt`](out, null, c, ad, n, k), /could not verify data/, `${what}[${i}]`)
              assert.ok(out.every((b) => b === 0), `${what}[${i}]: output not zeroed`)
              buf[i] ^= 0x01
            }
          }
          assert.throws(() => sodium[`${p}_decrypt`](new Uint8Array(40), null, c, null, n, k), /could not verify data/, 'dropped ad')
        })

        it('encrypts in place (c and m start at the same byte) and refuses partial overlap', () => {
          const { k, n, m, A } = setup(32)
          const expected = new Uint8Array(32 + A)
          sodium[`${p}_encrypt`](expected, m, null, null, n, k)
          const buf = new Uint8Array(32 + A)
          buf.set(m)
          sodium[`${p}_encrypt`](buf, buf.subarray(0, 32), null, null, n, k)
          assert.strictEqual(toHex(buf), toHex(expected))
          const shifted = new Uint8Array(33 + A)
          assert.throws(() => sodium[`${p}_encrypt`](shifted.subarray(1), shifted.subarray(0, 32), null, null, n, k),
            (e) => e instanceof RangeError && /^c must not overlap m/.test(e.message))
        })

        it('refuses a ciphertext shorter than the tag', () => {
          const { k, n, A } = setup(0)
          assert.throws(() => sodium[`${p}_decrypt`](new Uint8Array(0), null, new Uint8Array(A - 1), null, n, k),
            (e) => e instanceof RangeError && e.message.startsWith('c must be at least'))
        })
      })
    }

    describe('differential', () => {
      it('chacha20poly1305_ietf and aes256gcm equal node:crypto on random inputs', () => {
        for (const [name, algo] of [['chacha20poly1305_ietf', 'chacha20-poly1305'], ['aes256gcm', 'aes-256-gcm']]) {
          for (let i = 0; i < 50; i++) {
            const len = crypto.randomInt(0, 2000)
            const [k, n, m, ad] = [random(32), random(12), random(len), random(crypto.randomInt(0, 40))]
            const cipher = crypto.createCipheriv(algo, k, n, { authTagLength: 16 })
            cipher.setAAD(ad, { plaintextLength: len })
            const expected = Buffer.concat([cipher.update(m), cipher.final(), cipher.getAuthTag()])
            const c = new Uint8Array(len + 16)
            sodium[`crypto_aead_${name}_encrypt`](c, m, ad, null, n, k)
            assert.strictEqual(toHex(c), expected.toString('hex'), `${name} len ${len}`)
          }
        }
      })

      it('every AEAD shared with sodium-native 5.1.0 gives identical bytes and the same throw/no-throw', () => {
        for (const name of ['xchacha20poly1305_ietf', 'chacha20poly1305_ietf']) {
          const p = `crypto_aead_${name}`
          for (let i = 0; i < 30; i++) {
            const len = crypto.randomInt(0, 500)
            const [k, n, m, ad] = [random(32), random(sodium[`${p}_NPUBBYTES`]), random(len), i % 3 ? random(i) : null]
            const ours = new Uint8Array(len + 16)
            const theirs = new Uint8Array(len + 16)
            assert.strictEqual(sodium[`${p}_encrypt`](ours, m, ad, null, n, k), SodiumNative[`${p}_encrypt`](theirs, m, ad, null, n, k))
            assert.strictEqual(toHex(ours), toHex(theirs))
            if (i % 2) ours[crypto.randomInt(0, ours.length)] ^= 1
            const a = new Uint8Array(len)
            const b = new Uint8Array(len)
            let ra, rb
            try { ra = sodium[`${p}_decrypt`](a, null, ours, ad, n, k) } catch (e) { ra = 'threw' }
            try { rb = SodiumNative[`${p}_decrypt`](b, null, ours, ad, n, k) } catch (e) { rb = 'threw' }
            assert.strictEqual(ra, rb)
            assert.strictEqual(toHex(a), toHex(b))
          }
          // bad lengths throw in both
          for (const bad of [[new Uint8Array(3), random(2), null, null, random(sodium[`${p}_NPUBBYTES`]), random(32)],
            [new Uint8Array(18), random(2), null, null, random(5), random(32)],
            [new Uint8Array(18), random(2), null, null, random(sodium[`${p}_NPUBBYTES`]), random(31)]]) {
            assert.throws(() => sodium[`${p}_encrypt`](...bad))
            assert.throws(() => SodiumNative[`${p}_encrypt`](...bad))
          }
        }
      })
    })
  })
}

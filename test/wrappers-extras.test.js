'use strict'
// The main API beyond the sweep in wrappers.test.js: results that share nothing, edge cases of
// libsodium's refusals next to libsodium-wrappers', the documented differences (each one shown),
// states, and natrium's additions (AES-256-GCM, HKDF, PBKDF2, *_async) against node:crypto.
const assert = require('assert')
const crypto = require('crypto')
const lsw = require('libsodium-wrappers-sumo')
const { backends, random } = require('./helpers')
const wrappers = require('../lib/surfaces/wrappers')
const { load } = require('../lib/loader')

// every backend under test
const targets = backends.map(({ name }) => ({ name, make: () => wrappers(load(name)) }))

const hex = (b) => Buffer.from(b).toString('hex')
const both = (nat, f) => {
  const run = (lib) => { try { return { value: f(lib) } } catch (error) { return { error } } }
  return [run(nat), run(lsw)]
}

for (const { name: backend, make: makeApi } of targets) {
  describe(`main API extras [${backend}]`, () => {
    let nat
    before(async () => {
      await lsw.ready
      nat = makeApi()
    })

    describe('results', () => {
      it('are independent Uint8Arrays: own ArrayBuffer of exactly their length, nothing shared', () => {
        const key = nat.crypto_secretbox_keygen()
        const nonce = nat.randombytes_buf(24)
        const seen = new Set()
        for (const m of [new Uint8Array(0), random(10), random(48), random(49), random(200), random(5000)]) {
          for (const r of [nat.crypto_secretbox_easy(m, nonce, key), nat.crypto_generichash(64, m), nat.crypto_hash_sha256(m),
            nat.crypto_sign_keypair().privateKey, nat.randombytes_buf(m.length)]) {
            assert.strictEqual(Object.getPrototypeOf(r), Uint8Array.prototype)
            assert.strictEqual(r.byteOffset, 0)
            assert.strictEqual(r.buffer.byteLength, r.length)
            assert.ok(!seen.has(r.buffer), 'a result shares its ArrayBuffer')
            seen.add(r.buffer)
          }
        }
      })

      it('stay unchanged by later calls (scratch memory is never handed out)', () => {
        const key = random(32)
        const c1 = nat.crypto_secretbox_easy('one', random(24), key)
        const copy = c1.slice()
        for (let i = 0; i < 10; i++) nat.crypto_secretbox_easy('two', random(24), key)
        assert.strictEqual(hex(c1), hex(copy))
        const kp = nat.crypto_sign_keypair()
        const sk = kp.privateKey.slice()
        nat.crypto_sign_keypair()
        nat.crypto_box_keypair()
        assert.strictEqual(hex(kp.privateKey), hex(sk))
      })

      it('read inputs as they are at each call: the same key object, changed in place, reused', () => {
        const key = random(32)
        const nonce = random(24)
        const m = random(10)
        for (let i = 0; i < 4; i++) {
          key[0] = i
          const mine = nat.crypto_secretbox_easy(m, nonce, key)
          assert.strictEqual(hex(mine), hex(lsw.crypto_secretbox_easy(m, nonce, key)), `round ${i}`)
        }
      })

      it('take Buffers, views at an offset and UTF-8 strings as inputs', () => {
        const pool = Buffer.from(random(100))
        const key = pool.subarray(7, 39)
        const nonce = new Uint8Array(pool.buffer, pool.byteOffset + 50, 24)
        const expected = lsw.crypto_secretbox_easy('héllo', nonce.slice(), key.slice())
        assert.strictEqual(hex(nat.crypto_secretbox_easy('héllo', nonce, key)), hex(expected))
        assert.strictEqual(hex(nat.crypto_secretbox_easy(Buffer.from('héllo'), nonce, key)), hex(expected))
      })

      it('refuse TypedArrays other than Uint8Array, as libsodium-wrappers does', () => {
        assert.throws(() => nat.crypto_hash_sha256(new Uint16Array(4)), TypeError)
        assert.throws(() => nat.crypto_hash_sha256(new DataView(new ArrayBuffer(4))), TypeError)
        assert.throws(() => lsw.crypto_hash_sha256(new Uint16Array(4)), TypeError)
      })

      it('outputFormat: hex, base64 (URL-safe, unpadded) and text as libsodium-wrappers formats them', () => {
        const m = random(37)
        assert.strictEqual(nat.crypto_hash_sha256(m, 'hex'), lsw.crypto_hash_sha256(m, 'hex'))
        assert.strictEqual(nat.crypto_hash_sha256(m, 'base64'), lsw.crypto_hash_sha256(m, 'base64'))
        const key = random(32)
        const n = random(24)
        const c = nat.crypto_secretbox_easy('text ✓', n, key)
        assert.strictEqual(nat.crypto_secretbox_open_easy(c, n, key, 'text'), 'text ✓')
        assert.throws(() => nat.crypto_secretbox_open_easy(nat.crypto_secretbox_easy(new Uint8Array([0xff]), n, key), n, key, 'text'), TypeError)
        assert.deepStrictEqual(nat.crypto_box_seed_keypair(new Uint8Array(32), 'base64'), lsw.crypto_box_seed_keypair(new Uint8Array(32), 'base64'))
        assert.deepStrictEqual(nat.output_formats(), lsw.output_formats())
      })

      it('symbols() lists every export, as libsodium-wrappers\' does', () => {
        const mine = new Set(nat.symbols())
        for (const s of lsw.symbols()) if (s !== 'libsodium') assert.ok(mine.has(s), s)
        assert.deepStrictEqual(nat.symbols(), Object.keys(nat).sort())
      })
    })

    describe('libsodium refusals: the same errors as libsodium-wrappers', () => {
      const zero = new Uint8Array(32)
      const cases = {
        'scalar_invert(0), Ed25519': (o) => o.crypto_core_ed25519_scalar_invert(zero),
        'scalar_invert(0), Ristretto255': (o) => o.crypto_core_ristretto255_scalar_invert(zero),
        'scalarmult with a small-order point': (o) => o.crypto_scalarmult(random(32), zero),
        'scalarmult_ed25519_base(0)': (o) => o.crypto_scalarmult_ed25519_base(zero),
        'scalarmult_ristretto255 to the identity': (o) => o.crypto_scalarmult_ristretto255(zero, o.crypto_core_ristretto255_random()),
        'box_easy with a small-order key': (o) => o.crypto_box_easy('x', random(24), zero, random(32)),
        'box_beforenm with a small-order key': (o) => o.crypto_box_beforenm(zero, random(32)),
        'box_seal to a small-order key': (o) => o.crypto_box_seal('x', zero),
        'kx session keys with a small-order key': (o) => o.crypto_kx_client_session_keys(random(32), random(32), zero),
        'pk_to_curve25519 of a non-point': (o) => o.crypto_sign_ed25519_pk_to_curve25519(new Uint8Array(32).fill(255)),
        'core_ed25519_add of a non-point (y = 2)': (o) => { const p = new Uint8Array(32); p[0] = 2; return o.crypto_core_ed25519_add(p, p) },
        'sign_open with the wrong key': (o) => o.crypto_sign_open(o.crypto_sign('m', o.crypto_sign_keypair().privateKey), o.crypto_sign_keypair().publicKey),
        'aead decrypt with the wrong key': (o) => o.crypto_aead_xchacha20poly1305_ietf_decrypt(null, random(40), null, random(24), random(32)),
        'secretbox_open_detached of a forgery': (o) => o.crypto_secretbox_open_detached(random(5), random(16), random(24), random(32)),
        'box_open_easy_afternm of a forgery': (o) => o.crypto_box_open_easy_afternm(random(20), random(24), random(32)),
        'argon2i below its opslimit': (o) => o.crypto_pwhash(16, 'x', random(16), 1, 8192, o.crypto_pwhash_ALG_ARGON2I13),
        'scrypt_ll with N not a power of 2': (o) => o.crypto_pwhash_scryptsalsa208sha256_ll('x', 'y', 3, 1, 1, 16),
        'ip2bin of a bad address': (o) => o.sodium_ip2bin('1.2.3'),
        'unpad of bad padding': (o) => o.unpad(new Uint8Array(8), 8),
        'from_base64 with trailing bits set': (o) => o.from_base64('ab')
      }
      for (const [what, f] of Object.entries(cases)) {
        it(what, () => {
          const [mine, theirs] = both(nat, f)
          assert.ok(theirs.error, 'libsodium-wrappers should refuse')
          assert.ok(mine.error, 'natrium should refuse')
          assert.strictEqual(mine.error.constructor, Error)
          assert.strictEqual(mine.error.message, theirs.error.message)
        })
      }

      it('verify functions answer false, secretstream pull false, needs_rehash true, as libsodium-wrappers does', () => {
        const pairs = [
          (o) => o.crypto_sign_verify_detached(random(64), 'm', o.crypto_sign_keypair().publicKey),
          (o) => o.crypto_auth_verify(random(32), 'm', random(32)),
          (o) => o.crypto_pwhash_str_verify('not a hash', 'pw'),
          (o) => o.crypto_pwhash_str_verify('$argon2id$' + 'x'.repeat(200), 'pw'),
          (o) => o.crypto_pwhash_str_needs_rehash('not a hash', 1, 8192),
          (o) => o.crypto_secretstream_xchacha20poly1305_pull(o.crypto_secretstream_xchacha20poly1305_init_pull(random(24), random(32)), random(40), null)
        ]
        for (const f of pairs) {
          const [mine, theirs] = both(nat, f)
          assert.deepStrictEqual(mine, theirs)
        }
      })
    })

    describe('documented differences (docs/api.md): natrium checks what libsodium-wrappers lets through', () => {
      it('numbers from 2^31 on: natrium takes what libsodium takes, libsodium-wrappers refuses', () => {
        const [mine, theirs] = both(nat, (o) => o.randombytes_uniform(2 ** 31 + 5))
        assert.ok(theirs.error instanceof TypeError)
        assert.ok(mine.value < 2 ** 31 + 5)
        const [c] = both(nat, (o) => o.crypto_stream_chacha20_xor_ic('x', new Uint8Array(8), 2 ** 40, new Uint8Array(32)))
        assert.strictEqual(c.value.length, 1)
      })

      it('kdf subkey_len outside 16..64: natrium throws, libsodium-wrappers returns uninitialised bytes', () => {
        const [mine, theirs] = both(nat, (o) => o.crypto_kdf_derive_from_key(8, 1, 'abcdefgh', new Uint8Array(32)))
        assert.ok(mine.error instanceof RangeError)
        assert.strictEqual(theirs.value.length, 8)
      })

      it('secretstream tag above 255 and XOF domain 0: natrium throws, libsodium-wrappers truncates', () => {
        const k = new Uint8Array(32)
        let [mine, theirs] = both(nat, (o) => o.crypto_secretstream_xchacha20poly1305_push(o.crypto_secretstream_xchacha20poly1305_init_push(k).state, 'x', null, 256))
        assert.ok(mine.error instanceof RangeError)
        assert.ok(theirs.value)
        ;[mine, theirs] = both(nat, (o) => o.crypto_xof_shake128_init_with_domain(0))
        assert.ok(mine.error instanceof RangeError)
        assert.ok(!theirs.error)
      })

      it('scrypt below its minimum limits, or with an empty password (_str): natrium throws, libsodium-wrappers clamps or accepts', function () {
        this.timeout(10000)
        let [mine, theirs] = both(nat, (o) => o.crypto_pwhash_scryptsalsa208sha256_str('pw', 1, 16777216))
        assert.ok(mine.error instanceof RangeError)
        assert.ok(theirs.value.startsWith('$7$'))
        ;[mine, theirs] = both(nat, (o) => o.crypto_pwhash_scryptsalsa208sha256_str('', 32768, 16777216))
        assert.ok(mine.error instanceof TypeError)
        assert.ok(theirs.value.startsWith('$7$'))
      })

      it('a failed XChaCha20 box seal: natrium throws, libsodium-wrappers returns garbage', () => {
        const [mine, theirs] = both(nat, (o) => o.crypto_box_curve25519xchacha20poly1305_seal('x', new Uint8Array(32)))
        assert.strictEqual(mine.error.message, 'invalid usage')
        assert.strictEqual(theirs.value.length, 49)
      })
    })

    describe('streaming states', () => {
      it('are StateAddress objects for one family; a wrong or finished state is refused', () => {
        const st = nat.crypto_generichash_init(null, 32)
        assert.strictEqual(st.constructor.name, 'StateAddress')
        assert.throws(() => nat.crypto_hash_sha256_update(st, 'x'), TypeError)
        assert.throws(() => nat.crypto_generichash_update(7, 'x'), TypeError)
        nat.crypto_generichash_update(st, 'x')
        const h = nat.crypto_generichash_final(st, 32)
        assert.strictEqual(hex(h), hex(nat.crypto_generichash(32, 'x')))
        assert.throws(() => nat.crypto_generichash_update(st, 'x'), /finalized/)
        assert.throws(() => nat.crypto_generichash_final(st, 32), /finalized/)
      })

      it('are independent: two interleaved streams give their own results', () => {
        const a = nat.crypto_hash_sha512_init()
        const b = nat.crypto_hash_sha512_init()
        nat.crypto_hash_sha512_update(a, 'a')
        nat.crypto_hash_sha512_update(b, 'b')
        assert.strictEqual(hex(nat.crypto_hash_sha512_final(b)), hex(lsw.crypto_hash_sha512('b')))
        assert.strictEqual(hex(nat.crypto_hash_sha512_final(a)), hex(lsw.crypto_hash_sha512('a')))
      })

      it('secretstream: natrium pushes, libsodium-wrappers pulls, with a rekey in between, and back', () => {
        const key = random(32)
        const { state, header } = nat.crypto_secretstream_xchacha20poly1305_init_push(key)
        const pull = lsw.crypto_secretstream_xchacha20poly1305_init_pull(header, key)
        const T = nat.crypto_secretstream_xchacha20poly1305_TAG_FINAL
        const chunks = ['one', 'two', 'three']
        chunks.forEach((m, i) => {
          const c = nat.crypto_secretstream_xchacha20poly1305_push(state, m, 'ad', i === 2 ? T : 0)
          const r = lsw.crypto_secretstream_xchacha20poly1305_pull(pull, c, 'ad', 'text')
          assert.deepStrictEqual(r, { message: m, tag: i === 2 ? T : 0 })
          if (i === 0) {
            assert.strictEqual(nat.crypto_secretstream_xchacha20poly1305_rekey(state), true)
            lsw.crypto_secretstream_xchacha20poly1305_rekey(pull)
          }
        })
        const back = lsw.crypto_secretstream_xchacha20poly1305_init_push(key)
        const mine = nat.crypto_secretstream_xchacha20poly1305_init_pull(back.header, key)
        const c = lsw.crypto_secretstream_xchacha20poly1305_push(back.state, 'hi', null, 0)
        assert.deepStrictEqual(nat.crypto_secretstream_xchacha20poly1305_pull(mine, c, null, 'text'), { message: 'hi', tag: 0 })
      })
    })

    describe('AES-256-GCM', () => {
      it('agrees with node:crypto, combined, detached and with a precomputed key', function () {
        assert.strictEqual(nat.crypto_aead_aes256gcm_is_available(), true)
        for (const len of [0, 1, 16, 100, 1000]) {
          const [key, nonce, m, ad] = [random(32), random(12), random(len), random(len % 7)]
          const cipher = crypto.createCipheriv('aes-256-gcm', key, nonce)
          cipher.setAAD(ad)
          const ct = Buffer.concat([cipher.update(m), cipher.final()])
          const tag = cipher.getAuthTag()
          assert.strictEqual(hex(nat.crypto_aead_aes256gcm_encrypt(m, ad, null, nonce, key)), hex(Buffer.concat([ct, tag])))
          const d = nat.crypto_aead_aes256gcm_encrypt_detached(m, ad, null, nonce, key)
          assert.deepStrictEqual([hex(d.ciphertext), hex(d.mac)], [hex(ct), hex(tag)])
          assert.strictEqual(hex(nat.crypto_aead_aes256gcm_decrypt(null, Buffer.concat([ct, tag]), ad, nonce, key)), hex(m))
          assert.strictEqual(hex(nat.crypto_aead_aes256gcm_decrypt_detached(null, ct, tag, ad, nonce, key)), hex(m))
          const st = nat.crypto_aead_aes256gcm_beforenm(key)
          assert.strictEqual(hex(nat.crypto_aead_aes256gcm_encrypt_afternm(m, ad, null, nonce, st)), hex(Buffer.concat([ct, tag])))
          assert.strictEqual(hex(nat.crypto_aead_aes256gcm_decrypt_afternm(null, Buffer.concat([ct, tag]), ad, nonce, st)), hex(m))
          const da = nat.crypto_aead_aes256gcm_encrypt_detached_afternm(m, ad, null, nonce, st)
          assert.strictEqual(hex(nat.crypto_aead_aes256gcm_decrypt_detached_afternm(null, da.ciphertext, da.mac, ad, nonce, st)), hex(m))
        }
        assert.strictEqual(nat.crypto_aead_aes256gcm_keygen().length, 32)
      })

      it('refuses a forgery with libsodium-wrappers\' message', function () {
        const [key, nonce] = [random(32), random(12)]
        const c = nat.crypto_aead_aes256gcm_encrypt('m', null, null, nonce, key)
        c[0] ^= 1
        assert.throws(() => nat.crypto_aead_aes256gcm_decrypt(null, c, null, nonce, key), /^Error: ciphertext cannot be decrypted using that key$/)
      })
    })

    describe('HKDF-SHA-256/512', () => {
      for (const [h, size] of [['sha256', 32], ['sha512', 64]]) {
        it(`${h}: extract + expand = node:crypto hkdfSync; streaming extract = one-shot`, () => {
          for (const len of [0, 1, 32, 100, 255 * size]) {
            const [ikm, salt, info] = [random(len % 90 + 1), random(len % 33), random(len % 20)]
            const prk = nat[`crypto_kdf_hkdf_${h}_extract`](salt, ikm)
            assert.strictEqual(prk.length, size)
            const okm = nat[`crypto_kdf_hkdf_${h}_expand`](len, info, prk)
            // node:crypto refuses a 0-byte output from Node 22 on ("Deriving bits failed")
            if (len === 0) assert.strictEqual(okm.length, 0)
            else assert.strictEqual(hex(okm), hex(Buffer.from(crypto.hkdfSync(h, ikm, salt, info, len))))
            const st = nat[`crypto_kdf_hkdf_${h}_extract_init`](salt)
            nat[`crypto_kdf_hkdf_${h}_extract_update`](st, ikm.subarray(0, 3))
            nat[`crypto_kdf_hkdf_${h}_extract_update`](st, ikm.subarray(3))
            assert.strictEqual(hex(nat[`crypto_kdf_hkdf_${h}_extract_final`](st)), hex(prk))
          }
          assert.throws(() => nat[`crypto_kdf_hkdf_${h}_expand`](255 * size + 1, null, random(size)), RangeError)
          assert.strictEqual(nat[`crypto_kdf_hkdf_${h}_keygen`]().length, size)
        })
      }
    })

    describe('PBKDF2-HMAC-SHA-256/512 and the *_async functions', () => {
      for (const h of ['sha256', 'sha512']) {
        it(`crypto_pbkdf2_hmac_${h}(_async) = node:crypto pbkdf2Sync`, async () => {
          for (const [len, iter] of [[16, 1], [32, 1000], [100, 3]]) {
            const [pw, salt] = [random(len % 13 + 1), random(16)]
            const want = hex(crypto.pbkdf2Sync(pw, salt, iter, len, h))
            assert.strictEqual(hex(nat[`crypto_pbkdf2_hmac_${h}`](len, pw, salt, iter)), want)
            assert.strictEqual(await nat[`crypto_pbkdf2_hmac_${h}_async`](len, pw, salt, iter, 'hex'), want)
          }
          await assert.rejects(nat[`crypto_pbkdf2_hmac_${h}_async`](16, 'pw', 'salt', 0), RangeError)
        })
      }

      it('crypto_pwhash_async and the scrypt one resolve to the synchronous result', async function () {
        this.timeout(20000)
        const [pw, salt] = ['password', random(16)]
        const alg = nat.crypto_pwhash_ALG_ARGON2ID13
        assert.strictEqual(hex(await nat.crypto_pwhash_async(32, pw, salt, 2, 65536, alg)), hex(lsw.crypto_pwhash(32, pw, salt, 2, 65536, alg)))
        const s2 = random(32)
        assert.strictEqual(await nat.crypto_pwhash_scryptsalsa208sha256_async(32, pw, s2, 32768, 16777216, 'hex'),
          lsw.crypto_pwhash_scryptsalsa208sha256(32, pw, s2, 32768, 16777216, 'hex'))
      })

      it('the _str_async functions give strings the synchronous verifiers accept, and verify', async function () {
        this.timeout(20000)
        for (const [p, ops, mem] of [['crypto_pwhash', 2, 65536], ['crypto_pwhash_scryptsalsa208sha256', 32768, 16777216]]) {
          for (const pw of ['pw', '']) {
            if (pw === '' && p !== 'crypto_pwhash') continue // scrypt _str refuses an empty password (see docs)
            const s = await nat[`${p}_str_async`](pw, ops, mem)
            assert.ok(lsw[`${p}_str_verify`](s, pw), `${p}('${pw}')`)
            assert.strictEqual(await nat[`${p}_str_verify_async`](s, pw), true)
            assert.strictEqual(await nat[`${p}_str_verify_async`](s, pw + 'x'), false)
            assert.strictEqual(await nat[`${p}_str_verify_async`]('garbage', pw), false)
          }
        }
      })

      it('reject (never throw) on bad arguments', async () => {
        const calls = [
          () => nat.crypto_pwhash_async(8, 'pw', random(16), 2, 65536, 2),
          () => nat.crypto_pwhash_async(32, 'pw', random(15), 2, 65536, 2),
          () => nat.crypto_pwhash_str_async(null, 2, 65536),
          () => nat.crypto_pwhash_str_verify_async(42, 'pw'),
          () => nat.crypto_pwhash_scryptsalsa208sha256_str_async('pw', 1, 16777216),
          () => nat.crypto_pbkdf2_hmac_sha256_async(16, 'pw', 'salt', 1000, 'bogus')
        ]
        for (const call of calls) {
          let p
          assert.doesNotThrow(() => { p = call() })
          await assert.rejects(p)
        }
      })

      it('native: the work runs off the main thread (timers fire while it runs)', async function () {
        if (backend !== 'native') this.skip()
        this.timeout(20000)
        let ticks = 0
        const timer = setInterval(() => ticks++, 1)
        const start = Date.now()
        await Promise.all([1, 2].map(() => nat.crypto_pwhash_async(32, 'pw', random(16), 3, 64 * 1024 * 1024, 2)))
        clearInterval(timer)
        assert.ok(ticks >= 3, `${ticks} timer ticks in ${Date.now() - start} ms`)
      })
    })
  })
}

'use strict'
// A valid call for every function libsodium-wrappers-sumo 0.8.4 exports, for the differential
// tests in wrappers.test.js. make() draws fresh random inputs and returns (lib) => arguments
// (a function of the library because streaming states and keys made by one library are used
// with it); the same inputs go to natrium and to libsodium-wrappers.
//
//   det(name, make)           deterministic: both libraries must answer identically, in every
//                             outputFormat
//   rand(name, make, check)   random output: check(result, args, extra) verifies it with
//                             libsodium-wrappers (round trip, key relation, range); extra is
//                             what make() attached for it (a secret key, a stream header)
//   options: { opaque }       the result is a state object (compared for throwing only),
//            { mutates: [i] } the function changes argument i in place (compared after the call),
//            { slow }          skip the per-argument error sweep's expensive variants
const crypto = require('crypto')
const assert = require('assert')

const rnd = (n) => new Uint8Array(crypto.randomBytes(n))

// The choices between argument forms (which message length, key or null...) come from a small
// seedable generator, so the error sweep sees the same forms on every run; the bytes themselves
// are random.
let state = 1
const choose = (n) => {
  state ^= state << 13
  state ^= state >>> 17
  state ^= state << 5
  return (state >>> 0) % n
}
const pick = (list) => list[choose(list.length)]
const eq = (a, b, msg) => assert.deepStrictEqual(Buffer.from(a).toString('hex'), Buffer.from(b).toString('hex'), msg)
const fixed = (...args) => () => args
const withExtra = (f, extra) => Object.assign(f, { extra })

// messages of the lengths that matter (empty, one byte, around the 64-byte scratch limit, a few
// blocks) and UTF-8 strings
const message = () => pick([rnd(0), rnd(1), rnd(10), rnd(63), rnd(64), rnd(65), rnd(300), 'héllo wörld ✓', ''])
const maybe = (f) => choose(2) ? f() : null

module.exports = function cases (lsw) {
  const C = {}
  // make() may return the arguments themselves (fixed(...) as make) or a (lib) => arguments
  const norm = (make) => () => { const r = make(); return typeof r === 'function' ? r : () => r }
  const det = (name, make, opts = {}) => { C[name] = Object.assign({ name, make: norm(make), random: false }, opts) }
  const rand = (name, make, check, opts = {}) => { C[name] = Object.assign({ name, make: norm(make), random: true, check }, opts) }
  const K = (c) => lsw[c]

  // --- crypto_aead_* ---------------------------------------------------------------------------
  for (const p of ['aegis128l', 'aegis256', 'chacha20poly1305', 'chacha20poly1305_ietf', 'xchacha20poly1305_ietf']) {
    const a = `crypto_aead_${p}`
    const key = () => rnd(K(`${a}_KEYBYTES`))
    const npub = () => rnd(K(`${a}_NPUBBYTES`))
    det(`${a}_encrypt`, () => fixed(message(), maybe(message), null, npub(), key()))
    det(`${a}_encrypt_detached`, () => fixed(message(), maybe(message), null, npub(), key()))
    det(`${a}_decrypt`, () => {
      const [k, n, ad] = [key(), npub(), maybe(message)]
      return fixed(null, lsw[`${a}_encrypt`](message(), ad, null, n, k), ad, n, k)
    })
    det(`${a}_decrypt_detached`, () => {
      const [k, n, ad] = [key(), npub(), maybe(message)]
      const { ciphertext, mac } = lsw[`${a}_encrypt_detached`](message(), ad, null, n, k)
      return fixed(null, ciphertext, mac, ad, n, k)
    })
    rand(`${a}_keygen`, fixed(), (k) => assert.strictEqual(k.length, K(`${a}_KEYBYTES`)))
  }

  // --- crypto_auth_*, crypto_onetimeauth_* ---------------------------------------------------------
  for (const p of ['crypto_auth', 'crypto_auth_hmacsha256', 'crypto_auth_hmacsha512', 'crypto_auth_hmacsha512256', 'crypto_onetimeauth']) {
    const key = () => rnd(K(`${p}_KEYBYTES`))
    det(p, () => fixed(message(), key()))
    det(`${p}_verify`, () => {
      const [m, k] = [message(), key()]
      return fixed(choose(2) ? lsw[p](m, k) : rnd(K(`${p}_BYTES`)), m, k)
    })
    rand(`${p}_keygen`, fixed(), (k) => assert.strictEqual(k.length, K(`${p}_KEYBYTES`)))
    if (p === 'crypto_auth') continue
    // HMAC keys may have any length (or be null); Poly1305 keys are KEYBYTES
    const streamKey = () => p === 'crypto_onetimeauth' ? key() : pick([rnd(0), rnd(32), rnd(100), null])
    det(`${p}_init`, () => fixed(streamKey()), { opaque: true })
    det(`${p}_update`, () => {
      const [k, m] = [streamKey(), message()]
      return (lib) => [lib[`${p}_init`](k), m]
    })
    det(`${p}_final`, () => {
      const [k, m1, m2] = [streamKey(), message(), message()]
      return (lib) => {
        const st = lib[`${p}_init`](k)
        lib[`${p}_update`](st, m1)
        lib[`${p}_update`](st, m2)
        return [st]
      }
    })
  }

  // --- crypto_box_*, crypto_box_curve25519xchacha20poly1305_* --------------------------------------
  for (const b of ['crypto_box', 'crypto_box_curve25519xchacha20poly1305']) {
    const kp = () => lsw[`${b}_seed_keypair`](rnd(32))
    const nonce = () => rnd(K(`${b}_NONCEBYTES`))
    const keyType = b === 'crypto_box' ? 'x25519' : 'curve25519'
    rand(`${b}_keypair`, fixed(), (r) => {
      assert.strictEqual(r.keyType, keyType)
      eq(lsw.crypto_scalarmult_base(r.privateKey), r.publicKey)
    })
    det(`${b}_seed_keypair`, () => fixed(rnd(K(`${b}_SEEDBYTES`))))
    det(`${b}_beforenm`, () => { const [x, y] = [kp(), kp()]; return fixed(x.publicKey, y.privateKey) })
    det(`${b}_easy`, () => { const [x, y] = [kp(), kp()]; return fixed(message(), nonce(), x.publicKey, y.privateKey) })
    det(`${b}_detached`, () => { const [x, y] = [kp(), kp()]; return fixed(message(), nonce(), x.publicKey, y.privateKey) })
    det(`${b}_open_easy`, () => {
      const [x, y, n] = [kp(), kp(), nonce()]
      return fixed(lsw[`${b}_easy`](message(), n, x.publicKey, y.privateKey), n, y.publicKey, x.privateKey)
    })
    det(`${b}_open_detached`, () => {
      const [x, y, n] = [kp(), kp(), nonce()]
      const { ciphertext, mac } = lsw[`${b}_detached`](message(), n, x.publicKey, y.privateKey)
      return fixed(ciphertext, mac, n, y.publicKey, x.privateKey)
    })
    det(`${b}_easy_afternm`, () => fixed(message(), nonce(), rnd(32)))
    det(`${b}_open_easy_afternm`, () => {
      const [k, n] = [rnd(32), nonce()]
      return fixed(lsw[`${b}_easy_afternm`](message(), n, k), n, k)
    })
    if (b !== 'crypto_box') {
      det(`${b}_detached_afternm`, () => fixed(message(), nonce(), rnd(32)))
      det(`${b}_open_detached_afternm`, () => {
        const [k, n] = [rnd(32), nonce()]
        const { ciphertext, mac } = lsw[`${b}_detached_afternm`](message(), n, k)
        return fixed(ciphertext, mac, n, k)
      })
    }
    rand(`${b}_seal`, () => { const x = kp(); return withExtra(fixed(message(), x.publicKey), x.privateKey) }, (c, [m, pk], sk) => {
      eq(lsw[`${b}_seal_open`](c, pk, sk), typeof m === 'string' ? Buffer.from(m) : m)
    })
    det(`${b}_seal_open`, () => {
      const x = kp()
      return fixed(lsw[`${b}_seal`](message(), x.publicKey), x.publicKey, x.privateKey)
    })
  }

  // --- crypto_core_* -------------------------------------------------------------------------------
  for (const g of ['crypto_core_ed25519', 'crypto_core_ristretto255']) {
    const point = () => lsw[`${g}_random`]()
    const scalar = () => lsw[`${g}_scalar_random`]()
    det(`${g}_add`, () => fixed(point(), point()))
    det(`${g}_sub`, () => fixed(point(), point()))
    det(`${g}_is_valid_point`, () => fixed(pick([point(), rnd(32)])))
    det(`${g}_from_hash`, () => fixed(rnd(64)))
    for (const op of ['add', 'sub', 'mul']) det(`${g}_scalar_${op}`, () => fixed(scalar(), scalar()))
    for (const op of ['negate', 'complement', 'invert']) det(`${g}_scalar_${op}`, () => fixed(scalar()))
    det(`${g}_scalar_reduce`, () => fixed(rnd(64)))
    rand(`${g}_random`, fixed(), (p) => assert.ok(lsw[`${g}_is_valid_point`](p)))
    rand(`${g}_scalar_random`, fixed(), (s) => {
      // already reduced: reducing it again (zero-extended to 64 bytes) gives it back
      const wide = new Uint8Array(64)
      wide.set(s)
      eq(lsw[`${g}_scalar_reduce`](wide), s)
    })
  }
  det('crypto_core_ed25519_from_uniform', () => fixed(rnd(32)))
  for (const c of ['hchacha20', 'hsalsa20']) {
    det(`crypto_core_${c}`, () => fixed(rnd(16), rnd(32), maybe(() => rnd(16))))
  }

  // --- crypto_generichash -------------------------------------------------------------------------
  const ghKey = () => pick([null, rnd(16), rnd(32), rnd(64), rnd(1), 'a string key'])
  det('crypto_generichash', () => fixed(pick([1, 16, 32, 64]), message(), ghKey()))
  det('crypto_generichash_init', () => fixed(ghKey(), 32), { opaque: true })
  det('crypto_generichash_update', () => {
    const [k, m] = [ghKey(), message()]
    return (lib) => [lib.crypto_generichash_init(k, 32), m]
  })
  det('crypto_generichash_final', () => {
    const [k, len, m1, m2] = [ghKey(), pick([16, 32, 64]), message(), message()]
    return (lib) => {
      const st = lib.crypto_generichash_init(k, len)
      lib.crypto_generichash_update(st, m1)
      lib.crypto_generichash_update(st, m2)
      return [st, len]
    }
  })
  rand('crypto_generichash_keygen', fixed(), (k) => assert.strictEqual(k.length, 32))
  det('crypto_generichash_blake2b_salt_personal', () => fixed(pick([16, 32, 64]), maybe(() => rnd(32)), maybe(() => rnd(16)), maybe(() => rnd(16))))

  // --- crypto_hash_* --------------------------------------------------------------------------------
  det('crypto_hash', () => fixed(message()))
  for (const h of ['sha256', 'sha512', 'sha3256', 'sha3512']) {
    const p = `crypto_hash_${h}`
    det(p, () => fixed(message()))
    det(`${p}_init`, fixed(), { opaque: true })
    det(`${p}_update`, () => { const m = message(); return (lib) => [lib[`${p}_init`](), m] })
    det(`${p}_final`, () => {
      const [m1, m2] = [message(), message()]
      return (lib) => {
        const st = lib[`${p}_init`]()
        lib[`${p}_update`](st, m1)
        lib[`${p}_update`](st, m2)
        return [st]
      }
    })
  }

  // --- crypto_ipcrypt_* -------------------------------------------------------------------------------
  for (const [v, K1, T] of [['', 'KEYBYTES', null], ['_nd', 'ND_KEYBYTES', 'ND_TWEAKBYTES'], ['_ndx', 'NDX_KEYBYTES', 'NDX_TWEAKBYTES'], ['_pfx', 'PFX_KEYBYTES', null]]) {
    const p = `crypto_ipcrypt${v}`
    const key = () => rnd(K(`crypto_ipcrypt_${K1}`))
    const input = () => rnd(16)
    rand(`${p}_keygen`, fixed(), (k) => assert.strictEqual(k.length, K(`crypto_ipcrypt_${K1}`)))
    if (T) {
      det(`${p}_encrypt`, () => fixed(input(), rnd(K(`crypto_ipcrypt_${T}`)), key()))
      det(`${p}_decrypt`, () => { const k = key(); return fixed(lsw[`${p}_encrypt`](input(), rnd(K(`crypto_ipcrypt_${T}`)), k), k) })
    } else {
      det(`${p}_encrypt`, () => fixed(input(), key()))
      det(`${p}_decrypt`, () => fixed(input(), key()))
    }
  }

  // --- crypto_kdf_* ------------------------------------------------------------------------------------
  det('crypto_kdf_derive_from_key', () => fixed(pick([16, 32, 64]), pick([0, 1, 2 ** 31 - 1, 12345n, 2n ** 64n - 1n, 2n ** 53n + 1n]), pick(['context_', 'Examples', 'héllo!']), rnd(32)))
  rand('crypto_kdf_keygen', fixed(), (k) => assert.strictEqual(k.length, 32))

  // --- crypto_kem_* -------------------------------------------------------------------------------------
  for (const [k, keyType] of [['crypto_kem', 'xwing'], ['crypto_kem_xwing', 'xwing'], ['crypto_kem_mlkem768', 'ml-kem-768']]) {
    const kp = () => lsw[`${k}_seed_keypair`](rnd(K(`${k}_SEEDBYTES`)))
    rand(`${k}_keypair`, fixed(), (r) => {
      assert.strictEqual(r.keyType, keyType)
      const { ciphertext, sharedSecret } = lsw[`${k}_enc`](r.publicKey)
      eq(lsw[`${k}_dec`](ciphertext, r.privateKey), sharedSecret)
    })
    det(`${k}_seed_keypair`, () => fixed(rnd(K(`${k}_SEEDBYTES`))))
    rand(`${k}_enc`, () => { const x = kp(); return withExtra(fixed(x.publicKey), x.privateKey) }, (r, args, sk) => {
      eq(lsw[`${k}_dec`](r.ciphertext, sk), r.sharedSecret)
    })
    det(`${k}_dec`, () => { const x = kp(); return fixed(lsw[`${k}_enc`](x.publicKey).ciphertext, x.privateKey) })
    if (k !== 'crypto_kem') det(`${k}_enc_deterministic`, () => fixed(kp().publicKey, rnd(32)))
  }
  det('crypto_kem_primitive', fixed())

  // --- crypto_kx_* ---------------------------------------------------------------------------------------
  rand('crypto_kx_keypair', fixed(), (r) => {
    assert.strictEqual(r.keyType, 'x25519')
    eq(lsw.crypto_scalarmult_base(r.privateKey), r.publicKey)
  })
  det('crypto_kx_seed_keypair', () => fixed(rnd(32)))
  det('crypto_kx_client_session_keys', () => {
    const [c, s] = [lsw.crypto_kx_keypair(), lsw.crypto_kx_keypair()]
    return fixed(c.publicKey, c.privateKey, s.publicKey)
  })
  det('crypto_kx_server_session_keys', () => {
    const [c, s] = [lsw.crypto_kx_keypair(), lsw.crypto_kx_keypair()]
    return fixed(s.publicKey, s.privateKey, c.publicKey)
  })

  // --- crypto_pwhash_* (small limits) ----------------------------------------------------------------------
  const password = () => pick([rnd(0), rnd(8), 'correct horse', ''])
  const argon = () => pick([[1, 8192, 2], [3, 8192, 1], [2, 16384, 2]]) // opslimit, memlimit, alg
  det('crypto_pwhash', () => { const [o, m, a] = argon(); return fixed(pick([16, 32, 65]), password(), rnd(16), o, m, a) }, { slow: true })
  const SCRYPT = [32768, 16777216]
  det('crypto_pwhash_scryptsalsa208sha256', () => fixed(pick([16, 32]), password(), rnd(32), ...SCRYPT), { slow: true })
  det('crypto_pwhash_scryptsalsa208sha256_ll', () => fixed(password(), rnd(16), pick([2, 16, 64]), 1, pick([1, 2]), pick([16, 32, 64])), { slow: true })
  const nonEmpty = () => pick([rnd(8), 'correct horse'])
  rand('crypto_pwhash_str', () => fixed(password(), 2, 8192), (s, [pw]) => {
    assert.ok(s.startsWith('$argon2id$'))
    assert.ok(lsw.crypto_pwhash_str_verify(s, pw))
  }, { slow: true })
  det('crypto_pwhash_str_verify', () => {
    const pw = password()
    return fixed(lsw.crypto_pwhash_str(pw, 2, 8192), choose(2) ? pw : 'wrong')
  }, { slow: true })
  det('crypto_pwhash_str_needs_rehash', () => fixed(lsw.crypto_pwhash_str('pw', 2, 8192), pick([1, 2, 3]), pick([8192, 16384])), { slow: true })
  rand('crypto_pwhash_scryptsalsa208sha256_str', () => fixed(nonEmpty(), ...SCRYPT), (s, [pw]) => {
    assert.ok(s.startsWith('$7$'))
    assert.ok(lsw.crypto_pwhash_scryptsalsa208sha256_str_verify(s, pw))
  }, { slow: true })
  det('crypto_pwhash_scryptsalsa208sha256_str_verify', () => {
    const pw = nonEmpty()
    return fixed(lsw.crypto_pwhash_scryptsalsa208sha256_str(pw, ...SCRYPT), choose(2) ? pw : 'wrong')
  }, { slow: true })

  // --- crypto_scalarmult_* -------------------------------------------------------------------------------------
  det('crypto_scalarmult', () => fixed(rnd(32), lsw.crypto_box_keypair().publicKey))
  det('crypto_scalarmult_base', () => fixed(rnd(32)))
  for (const s of ['crypto_scalarmult_ed25519', 'crypto_scalarmult_ed25519_noclamp']) {
    det(s, () => fixed(lsw.crypto_core_ed25519_scalar_random(), lsw.crypto_core_ed25519_random()))
  }
  for (const s of ['crypto_scalarmult_ed25519_base', 'crypto_scalarmult_ed25519_base_noclamp']) {
    det(s, () => fixed(lsw.crypto_core_ed25519_scalar_random()))
  }
  det('crypto_scalarmult_ristretto255', () => fixed(lsw.crypto_core_ristretto255_scalar_random(), lsw.crypto_core_ristretto255_random()))
  det('crypto_scalarmult_ristretto255_base', () => fixed(lsw.crypto_core_ristretto255_scalar_random()))

  // --- crypto_secretbox_* ---------------------------------------------------------------------------------------
  const sbKey = () => rnd(32)
  const sbNonce = () => rnd(24)
  rand('crypto_secretbox_keygen', fixed(), (k) => assert.strictEqual(k.length, 32))
  det('crypto_secretbox_easy', () => fixed(message(), sbNonce(), sbKey()))
  det('crypto_secretbox_detached', () => fixed(message(), sbNonce(), sbKey()))
  det('crypto_secretbox_open_easy', () => { const [k, n] = [sbKey(), sbNonce()]; return fixed(lsw.crypto_secretbox_easy(message(), n, k), n, k) })
  det('crypto_secretbox_open_detached', () => {
    const [k, n] = [sbKey(), sbNonce()]
    const { mac, cipher } = lsw.crypto_secretbox_detached(message(), n, k)
    return fixed(cipher, mac, n, k)
  })

  // --- crypto_secretstream_xchacha20poly1305_* -----------------------------------------------------------------------
  {
    const s = 'crypto_secretstream_xchacha20poly1305'
    const tag = () => pick([0, 1, 2, 3])
    rand(`${s}_keygen`, fixed(), (k) => assert.strictEqual(k.length, 32))
    rand(`${s}_init_push`, () => fixed(rnd(32)), (r, [k]) => {
      assert.strictEqual(r.header.length, 24)
      lsw[`${s}_init_pull`](r.header, k) // a header libsodium-wrappers accepts
    }, { opaque: true })
    det(`${s}_init_pull`, () => fixed(rnd(24), rnd(32)), { opaque: true })
    // push output depends on the state's random header: checked by pulling with libsodium-wrappers
    rand(`${s}_push`, () => {
      const [k, m, ad, t] = [rnd(32), message(), maybe(message), tag()]
      const seen = { k }
      return withExtra((lib) => {
        const r = lib[`${s}_init_push`](k)
        seen.header = r.header
        return [r.state, m, ad, t]
      }, seen)
    }, (c, [, m, ad, t], { k, header }) => {
      const r = lsw[`${s}_pull`](lsw[`${s}_init_pull`](header, k), c, ad)
      eq(r.message, typeof m === 'string' ? Buffer.from(m) : m)
      assert.strictEqual(r.tag, t)
    })
    det(`${s}_pull`, () => {
      const [k, ad] = [rnd(32), maybe(message)]
      const { state, header } = lsw[`${s}_init_push`](k)
      const c1 = lsw[`${s}_push`](state, message(), ad, tag())
      const c = choose(4) ? c1 : rnd(c1.length)
      return (lib) => [lib[`${s}_init_pull`](header, k), c, ad]
    })
    det(`${s}_rekey`, () => {
      const [k, h] = [rnd(32), rnd(24)]
      return (lib) => [lib[`${s}_init_pull`](h, k)]
    })
  }

  // --- crypto_shorthash_* ------------------------------------------------------------------------------------------
  det('crypto_shorthash', () => fixed(message(), rnd(16)))
  det('crypto_shorthash_siphashx24', () => fixed(message(), rnd(16)))
  rand('crypto_shorthash_keygen', fixed(), (k) => assert.strictEqual(k.length, 16))

  // --- crypto_sign_* --------------------------------------------------------------------------------------------------
  const signKp = () => lsw.crypto_sign_seed_keypair(rnd(32))
  rand('crypto_sign_keypair', fixed(), (r) => {
    assert.strictEqual(r.keyType, 'ed25519')
    eq(lsw.crypto_sign_ed25519_sk_to_pk(r.privateKey), r.publicKey)
  })
  det('crypto_sign_seed_keypair', () => fixed(rnd(32)))
  det('crypto_sign', () => fixed(message(), signKp().privateKey))
  det('crypto_sign_detached', () => fixed(message(), signKp().privateKey))
  det('crypto_sign_open', () => {
    const kp = signKp()
    return fixed(lsw.crypto_sign(message(), kp.privateKey), choose(4) ? kp.publicKey : signKp().publicKey)
  })
  det('crypto_sign_verify_detached', () => {
    const [kp, m] = [signKp(), message()]
    return fixed(lsw.crypto_sign_detached(m, kp.privateKey), choose(2) ? m : 'other', kp.publicKey)
  })
  det('crypto_sign_ed25519_pk_to_curve25519', () => fixed(signKp().publicKey))
  det('crypto_sign_ed25519_sk_to_curve25519', () => fixed(signKp().privateKey))
  det('crypto_sign_ed25519_sk_to_pk', () => fixed(signKp().privateKey))
  det('crypto_sign_ed25519_sk_to_seed', () => fixed(signKp().privateKey))
  det('crypto_sign_init', fixed(), { opaque: true })
  det('crypto_sign_update', () => { const m = message(); return (lib) => [lib.crypto_sign_init(), m] })
  const signed = (lib, m1, m2) => {
    const st = lib.crypto_sign_init()
    lib.crypto_sign_update(st, m1)
    lib.crypto_sign_update(st, m2)
    return st
  }
  det('crypto_sign_final_create', () => {
    const [kp, m1, m2] = [signKp(), message(), message()]
    return (lib) => [signed(lib, m1, m2), kp.privateKey]
  })
  det('crypto_sign_final_verify', () => {
    const [kp, m1, m2] = [signKp(), message(), message()]
    const sig = lsw.crypto_sign_final_create(signed(lsw, m1, m2), kp.privateKey)
    const other = choose(2) ? m2 : 'other'
    return (lib) => [signed(lib, m1, other), sig, kp.publicKey]
  })

  // --- crypto_stream_* -------------------------------------------------------------------------------------------------
  rand('crypto_stream_keygen', fixed(), (k) => assert.strictEqual(k.length, 32))
  for (const [p, N] of [['crypto_stream_chacha20', 8], ['crypto_stream_chacha20_ietf', 12], ['crypto_stream_xchacha20', 24]]) {
    if (p !== 'crypto_stream_chacha20_ietf') rand(`${p}_keygen`, fixed(), (k) => assert.strictEqual(k.length, 32))
    det(`${p}_xor`, () => fixed(message(), rnd(N), rnd(32)))
    det(`${p}_xor_ic`, () => fixed(message(), rnd(N), pick([0, 1, 1000, 2 ** 31 - 1]), rnd(32)))
  }
  det('crypto_stream_chacha20', () => fixed(pick([0, 1, 64, 100]), rnd(32), rnd(8)))

  // --- crypto_xof_* ------------------------------------------------------------------------------------------------------
  for (const x of ['shake128', 'shake256', 'turboshake128', 'turboshake256']) {
    const p = `crypto_xof_${x}`
    det(p, () => fixed(pick([0, 1, 32, 200]), message()))
    det(`${p}_init`, fixed(), { opaque: true })
    det(`${p}_init_with_domain`, () => fixed(pick([1, 0x1f, 0x7f])), { opaque: true })
    det(`${p}_update`, () => { const m = message(); return (lib) => [lib[`${p}_init`](), m] })
    det(`${p}_squeeze`, () => {
      const [m, d, n1, n2] = [message(), pick([null, 0x0b, 0x7f]), pick([1, 50, 200]), pick([0, 1, 64])]
      return (lib) => {
        const st = d === null ? lib[`${p}_init`]() : lib[`${p}_init_with_domain`](d)
        lib[`${p}_update`](st, m)
        lib[`${p}_squeeze`](st, n1)
        return [st, n2]
      }
    })
  }

  // --- randombytes_* ----------------------------------------------------------------------------------------------------
  rand('randombytes_buf', () => fixed(pick([0, 1, 24, 64, 65, 1000])), (r, [n]) => assert.strictEqual(r.length, n))
  det('randombytes_buf_deterministic', () => fixed(pick([0, 1, 24, 64, 65, 1000]), rnd(32)))
  rand('randombytes_random', fixed(), (r) => assert.ok(Number.isInteger(r) && r >= 0 && r <= 0xffffffff))
  rand('randombytes_uniform', () => fixed(pick([1, 2, 10, 2 ** 31 - 1])), (r, [u]) => assert.ok(Number.isInteger(r) && r >= 0 && r < u))
  det('randombytes_stir', fixed())
  det('randombytes_close', fixed())

  // --- sodium_* and helpers ------------------------------------------------------------------------------------------------
  det('sodium_version_string', fixed())
  det('sodium_ip2bin', () => fixed(pick(['192.168.1.1', '::1', '2001:db8::8a2e:370:7334', '::ffff:10.0.0.1', '0.0.0.0'])))
  det('sodium_bin2ip', () => fixed(pick([rnd(16), lsw.sodium_ip2bin('10.1.2.3'), lsw.sodium_ip2bin('fe80::1')])))
  const bytes = () => pick([rnd(0), rnd(1), rnd(16), rnd(65)])
  det('to_hex', () => fixed(pick([bytes(), 'héllo'])))
  det('from_hex', () => fixed(pick([Buffer.from(rnd(20)).toString('hex'), 'ABCDEF', 'abc', 'zz', '', 'a b'])))
  det('to_base64', () => fixed(pick([bytes(), 'héllo']), pick([undefined, 1, 3, 5, 7])))
  det('from_base64', () => {
    const v = pick([undefined, 1, 3, 5, 7])
    return fixed(pick([lsw.to_base64(bytes(), v), 'ab', 'ab==', 'YQ', 'YQ==', '']), v)
  })
  det('to_string', () => fixed(pick([Buffer.from('héllo ✓'), new Uint8Array([0xff]), rnd(0)])))
  det('from_string', () => fixed(pick(['héllo ✓', '', '\ud800'])))
  det('memcmp', () => { const a = bytes(); return fixed(a, pick([a.slice(), rnd(a.length)])) })
  det('compare', () => { const a = bytes(); return fixed(a, pick([a.slice(), rnd(a.length)])) })
  det('is_zero', () => fixed(pick([new Uint8Array(10), rnd(10), rnd(0)])))
  det('increment', () => fixed(pick([rnd(8), new Uint8Array(4).fill(255), rnd(0)])), { mutates: [0] })
  det('add', () => { const a = bytes(); return fixed(a, rnd(a.length)) }, { mutates: [0] })
  det('memzero', () => fixed(rnd(10)), { mutates: [0] })
  det('pad', () => fixed(bytes(), pick([1, 8, 16, 64, 100])))
  det('unpad', () => { const bs = pick([1, 8, 16]); return fixed(pick([lsw.pad(bytes(), bs), rnd(16)]), bs) })
  det('output_formats', fixed())
  det('symbols', fixed(), { opaque: true })
  return C
}

// seed(text): restart the choices from a seed derived from text
module.exports.seed = function seed (text) {
  state = 1
  for (const ch of String(text)) state = (Math.imul(state, 31) + ch.charCodeAt(0)) | 0
  if (state === 0) state = 1
}

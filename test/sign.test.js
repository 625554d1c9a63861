'use strict'
// crypto_sign_*: RFC 8032 vectors (Ed25519 and Ed25519ph), Wycheproof ed25519, libsodium's own
// test/default/sign.c table, round trips, tampering, key conversions checked through X25519,
// overlap rules, and differential checks against node:crypto and sodium-native 5.1.0 (including
// its extension_tweak_ed25519_* functions).
const assert = require('assert')
const crypto = require('crypto')
const SodiumNative = require('sodium-native')
const lsw = require('libsodium-wrappers-sumo')
const { backends, hex, toHex, random, wycheproof, vectors, byName } = require('./helpers')
const { symbols } = require('../lib/symbols')

const RFC = vectors('rfc8032.json')
const TABLE = vectors('libsodium/sign.json').tests
const PH = vectors('libsodium/sign_ed25519ph.json').tests
const BAD_PK = vectors('libsodium/sign_bad_pk.json').tests

// node:crypto imports raw Ed25519/X25519 keys through fixed DER prefixes (RFC 8410).
const PKCS8 = { ed25519: '302e020100300506032b657004220420', x25519: '302e020100300506032b656e04220420' }
const SPKI = { ed25519: '302a300506032b6570032100', x25519: '302a300506032b656e032100' }
const nodePrivate = (type, raw) => crypto.createPrivateKey({ key: Buffer.concat([hex(PKCS8[type]), raw]), format: 'der', type: 'pkcs8' })
const nodePublic = (type, raw) => crypto.createPublicKey({ key: Buffer.concat([hex(SPKI[type]), raw]), format: 'der', type: 'spki' })
const rawPublic = (key) => key.export({ format: 'der', type: 'spki' }).subarray(12)

// Order of the prime-order subgroup, little-endian (adding it to S makes a malleated signature).
const L = hex('edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010')
function addL (s) {
  let carry = 0
  for (let i = 0; i < 32; i++) {
    const v = s[i] + L[i] + carry
    s[i] = v & 0xff
    carry = v >> 8
  }
}

// A fresh copy of each buffer argument (Buffer#slice would share memory), so that the two
// libraries' outputs can be compared.
const copy = (a) => (a instanceof Uint8Array ? new Uint8Array(a) : a)
const rangeError = (name) => (e) => e instanceof RangeError && e.message.startsWith(`${name} `)

// Functions this file calls only through composed names, in full (see byName in helpers.js)
const BY_NAME = [
  'crypto_sign_ed25519_open',
  'crypto_sign_ed25519_detached',
  'crypto_sign_ed25519ph_final_create'
]

for (const { name: backend, sodium: surface } of backends) {
  const { sodium, calledEveryName } = byName(surface, BY_NAME)
  const keypair = () => {
    const pk = new Uint8Array(32)
    const sk = new Uint8Array(64)
    sodium.crypto_sign_keypair(pk, sk)
    return { pk, sk }
  }
  const seedKeypair = (seed) => {
    const pk = new Uint8Array(32)
    const sk = new Uint8Array(64)
    sodium.crypto_sign_seed_keypair(pk, sk, seed)
    return { pk, sk }
  }
  const detached = (m, sk, p = 'crypto_sign') => {
    const sig = new Uint8Array(64)
    sodium[`${p}_detached`](sig, m, sk)
    return sig
  }
  const scalarOf = (sk) => {
    const n = new Uint8Array(32)
    sodium.extension_tweak_ed25519_sk_to_scalar(n, sk)
    return n
  }
  const ph = (p, chunks, finish) => {
    const state = new Uint8Array(sodium.crypto_sign_STATEBYTES)
    sodium[`${p}_init`](state)
    for (const c of chunks) sodium[`${p}_update`](state, c)
    return finish(state)
  }

  describe(`sign [${backend}]`, () => {
    after(calledEveryName)
    describe('known answers', () => {
      for (const v of RFC.ed25519) {
        it(`RFC 8032 7.1 ${v.name}: keys, both signing modes, open and verify, under both names`, () => {
          const [seed, m] = [hex(v.seed), hex(v.message)]
          for (const p of ['crypto_sign', 'crypto_sign_ed25519']) {
            const pk = new Uint8Array(32)
            const sk = new Uint8Array(64)
            sodium[`${p}_seed_keypair`](pk, sk, seed)
            assert.strictEqual(toHex(pk), v.pk)
            assert.strictEqual(toHex(sk), v.seed + v.pk)
            assert.strictEqual(toHex(detached(m, sk, p)), v.sig)
            const sm = new Uint8Array(m.length + 64)
            assert.strictEqual(sodium[p](sm, m, sk), undefined)
            assert.strictEqual(toHex(sm), v.sig + v.message)
            const back = new Uint8Array(m.length)
            assert.strictEqual(sodium[`${p}_open`](back, sm, pk), true)
            assert.strictEqual(toHex(back), v.message)
            assert.strictEqual(sodium[`${p}_verify_detached`](hex(v.sig), m, pk), true)
          }
        })
      }

      it('RFC 8032 7.3 Ed25519ph TEST abc, in one update and byte by byte, under both names', () => {
        const [v] = RFC.ed25519ph
        const { pk, sk } = seedKeypair(hex(v.seed))
        assert.strictEqual(toHex(pk), v.pk)
        const m = hex(v.message)
        for (const p of ['crypto_sign', 'crypto_sign_ed25519ph']) {
          for (const chunks of [[m], [...m].map((b) => Uint8Array.of(b)), [new Uint8Array(0), m]]) {
            const sig = new Uint8Array(64)
            ph(p, chunks, (state) => sodium[`${p}_final_create`](state, sig, sk))
            assert.strictEqual(toHex(sig), v.sig)
            assert.strictEqual(ph(p, chunks, (state) => sodium[`${p}_final_verify`](state, sig, pk)), true)
          }
        }
        // prehashing is domain-separated from pure Ed25519
        assert.notStrictEqual(toHex(detached(m, sk)), v.sig)
        assert.strictEqual(sodium.crypto_sign_verify_detached(hex(v.sig), m, pk), false)
      })

      it('libsodium test/default/sign.c: the ed25519ph answers of sign.exp', () => {
        for (const v of PH) {
          const { pk, sk } = seedKeypair(hex(v.seed))
          assert.strictEqual(toHex(pk), v.pk)
          if (v.sk) assert.strictEqual(toHex(sk), v.sk)
          const m = hex(v.message)
          const half = m.length >> 1
          const sig = new Uint8Array(64)
          ph('crypto_sign', [m], (state) => sodium.crypto_sign_final_create(state, sig, sk))
          assert.strictEqual(toHex(sig), v.sig)
          assert.strictEqual(ph('crypto_sign', [m.subarray(0, half), m.subarray(half)],
            (state) => sodium.crypto_sign_final_verify(state, sig, pk)), true)
        }
      })

      it('Wycheproof ed25519_test.json: every valid signature verifies, no invalid one does', () => {
        let valid = 0
        let invalid = 0
        for (const t of wycheproof('ed25519_test.json')) {
          const [pk, m, sig] = [hex(t.group.publicKey.pk), hex(t.msg), hex(t.sig)]
          if (t.result === 'valid') {
            assert.strictEqual(sodium.crypto_sign_verify_detached(sig, m, pk), true, `tcId ${t.tcId}`)
            const sm = Buffer.concat([sig, m])
            assert.strictEqual(sodium.crypto_sign_open(new Uint8Array(m.length), sm, pk), true, `tcId ${t.tcId} open`)
            valid++
          } else if (sig.length < 64) {
            assert.throws(() => sodium.crypto_sign_verify_detached(sig, m, pk), rangeError('sig'), `tcId ${t.tcId}`)
            invalid++
          } else {
            assert.strictEqual(sodium.crypto_sign_verify_detached(sig, m, pk), false, `tcId ${t.tcId}`)
            invalid++
          }
        }
        assert.deepStrictEqual([valid, invalid], [88, 63])
      })

      it('libsodium test/default/sign.c: 1024 vectors, malleated and forged signatures, short messages', () => {
        for (let i = 0; i < TABLE.length; i++) {
          const v = TABLE[i]
          const [pk, m] = [hex(v.pk), hex(v.message)]
          const sk = Buffer.concat([hex(v.seed), pk])
          const sm = new Uint8Array(m.length + 64)
          sodium.crypto_sign(sm, m, sk)
          assert.strictEqual(toHex(sm.subarray(0, 64)), v.sig, `row ${i}`)
          assert.strictEqual(toHex(detached(m, sk)), v.sig, `row ${i} detached`)
          assert.strictEqual(sodium.crypto_sign_verify_detached(hex(v.sig), m, pk), true, `row ${i} verify`)
          const back = new Uint8Array(m.length)
          assert.strictEqual(sodium.crypto_sign_open(back, sm, pk), true, `row ${i} open`)
          assert.strictEqual(toHex(back), v.message)
          // S + L verifies in lax implementations; libsodium requires a canonical S
          addL(sm.subarray(32, 64))
          assert.strictEqual(sodium.crypto_sign_open(back, sm, pk), false, `row ${i} malleable`)
          assert.ok(back.every((b) => b === 0), `row ${i}: m not zeroed`)
          sm[i + 63]++
          assert.strictEqual(sodium.crypto_sign_open(back, sm, pk), false, `row ${i} forged`)
          assert.throws(() => sodium.crypto_sign_open(new Uint8Array(0), sm.subarray(0, i % 64), pk),
            rangeError('sm'), `row ${i} short`)
        }
      })

      it('libsodium test/default/sign.c: high bits of S and the public keys it must refuse', () => {
        const v = TABLE[1023]
        const [m, sig] = [hex(v.message), hex(v.sig)]
        for (let j = 1; j < 8; j++) {
          sig[63] ^= j << 5
          assert.strictEqual(sodium.crypto_sign_verify_detached(sig, m, hex(v.pk)), false, `S high bits ${j}`)
          sig[63] ^= j << 5
        }
        assert.strictEqual(BAD_PK.length, 5)
        for (const { pk } of BAD_PK) {
          assert.strictEqual(sodium.crypto_sign_verify_detached(sig, m, hex(pk)), false, pk)
        }
        // the all-0xff R of the C test, with the zero key
        const forged = new Uint8Array(64).fill(0xff, 0, 32)
        forged[0] = 0xdb
        assert.strictEqual(sodium.crypto_sign_verify_detached(forged, m, new Uint8Array(32)), false)
      })
    })

    describe('keys', () => {
      it('keypair, sk_to_pk, sk_to_seed and seed_keypair agree', () => {
        for (let i = 0; i < 20; i++) {
          const { pk, sk } = keypair()
          const pk2 = new Uint8Array(32)
          sodium.crypto_sign_ed25519_sk_to_pk(pk2, sk)
          assert.strictEqual(toHex(pk2), toHex(pk))
          const seed = new Uint8Array(32)
          sodium.crypto_sign_ed25519_sk_to_seed(seed, sk)
          assert.strictEqual(toHex(seed), toHex(sk.subarray(0, 32)))
          const again = seedKeypair(seed)
          assert.strictEqual(toHex(again.pk), toHex(pk))
          assert.strictEqual(toHex(again.sk), toHex(sk))
          const named = { pk: new Uint8Array(32), sk: new Uint8Array(64) }
          sodium.crypto_sign_ed25519_seed_keypair(named.pk, named.sk, seed)
          assert.strictEqual(toHex(named.sk), toHex(sk))
        }
        const a = keypair()
        const b = keypair()
        assert.notStrictEqual(toHex(a.sk), toHex(b.sk))
        const c = { pk: new Uint8Array(32), sk: new Uint8Array(64) }
        sodium.crypto_sign_ed25519_keypair(c.pk, c.sk)
        assert.strictEqual(sodium.crypto_sign_verify_detached(detached(random(9), c.sk), random(9), c.pk), false)
        const m = random(9)
        assert.strictEqual(sodium.crypto_sign_ed25519_verify_detached(detached(m, c.sk), m, c.pk), true)
      })

      it('pk_to_curve25519 and sk_to_curve25519 give X25519 key pairs node:crypto agrees with', () => {
        for (let i = 0; i < 10; i++) {
          const a = keypair()
          const b = keypair()
          const conv = ({ pk, sk }) => {
            const xpk = new Uint8Array(32)
            const xsk = new Uint8Array(32)
            sodium.crypto_sign_ed25519_pk_to_curve25519(xpk, pk)
            sodium.crypto_sign_ed25519_sk_to_curve25519(xsk, sk)
            const xsk2 = new Uint8Array(32)
            sodium.crypto_sign_ed25519_sk_to_curve25519(xsk2, sk.subarray(0, 32)) // the seed alone
            assert.strictEqual(toHex(xsk2), toHex(xsk))
            return { xpk, priv: nodePrivate('x25519', xsk) }
          }
          const [xa, xb] = [conv(a), conv(b)]
          assert.strictEqual(toHex(rawPublic(crypto.createPublicKey(xa.priv))), toHex(xa.xpk))
          const ab = crypto.diffieHellman({ privateKey: xa.priv, publicKey: nodePublic('x25519', xb.xpk) })
          const ba = crypto.diffieHellman({ privateKey: xb.priv, publicKey: nodePublic('x25519', xa.xpk) })
          assert.strictEqual(ab.toString('hex'), ba.toString('hex'))
          if (typeof sodium.crypto_scalarmult === 'function') {
            const q = new Uint8Array(32)
            sodium.crypto_scalarmult(q, new Uint8Array(xa.priv.export({ format: 'der', type: 'pkcs8' }).subarray(16)), xb.xpk)
            assert.strictEqual(toHex(q), ab.toString('hex'))
          }
        }
      })

      it('pk_to_curve25519 throws for small-order and non-canonical keys, with its output zeroed', () => {
        for (const { pk } of BAD_PK) {
          const out = new Uint8Array(32).fill(0x55)
          assert.throws(() => sodium.crypto_sign_ed25519_pk_to_curve25519(out, hex(pk)),
            (e) => e.constructor === Error && e.message === 'crypto_sign_ed25519_pk_to_curve25519 failed', pk)
          assert.ok(out.every((b) => b === 0), pk)
        }
      })

      it('sk_to_curve25519 takes exactly a secret key or a seed', () => {
        for (const n of [0, 31, 33, 63, 65]) {
          assert.throws(() => sodium.crypto_sign_ed25519_sk_to_curve25519(new Uint8Array(32), new Uint8Array(n)),
            (e) => e instanceof RangeError &&
              e.message === 'ed25519sk must be crypto_sign_SECRETKEYBYTES or crypto_sign_SEEDBYTES bytes long', `${n}`)
        }
      })
    })

    describe('tampering and argument rules', () => {
      it('a flipped bit of the message, signature or key fails; open zeroes m', () => {
        const { pk, sk } = keypair()
        const m = random(100)
        const sig = detached(m, sk)
        const sm = Buffer.concat([sig, m])
        for (const [what, buf] of [['m', m], ['sig', sig], ['pk', pk]]) {
          for (const i of [0, 31, buf.length - 1]) {
            buf[i] ^= 0x01
            assert.strictEqual(sodium.crypto_sign_verify_detached(sig, m, pk), false, `${what}[${i}]`)
            buf[i] ^= 0x01
          }
        }
        for (const i of [0, 40, 63, 64, sm.length - 1]) {
          sm[i] ^= 0x80
          const out = new Uint8Array(100).fill(0xaa)
          assert.strictEqual(sodium.crypto_sign_open(out, sm, pk), false, `sm[${i}]`)
          assert.ok(out.every((b) => b === 0), `sm[${i}]: m not zeroed`)
          sm[i] ^= 0x80
        }
        assert.strictEqual(sodium.crypto_sign_verify_detached(sig, m, keypair().pk), false, 'other key')
        assert.strictEqual(sodium.crypto_sign_verify_detached(sig, m, pk), true)
      })

      it('a detached signature with trailing bytes is refused (sodium-native checked only its head)', () => {
        const { pk, sk } = keypair()
        const m = random(10)
        const sig = Buffer.concat([detached(m, sk), Buffer.alloc(1)])
        assert.strictEqual(sodium.crypto_sign_verify_detached(sig, m, pk), false)
        assert.strictEqual(sodium.crypto_sign_ed25519_verify_detached(sig, m, pk), false)
        assert.strictEqual(sodium.crypto_sign_verify_detached(sig.subarray(0, 64), m, pk), true)
        assert.throws(() => sodium.crypto_sign_verify_detached(sig.subarray(0, 63), m, pk), rangeError('sig'))
      })

      it('signs and opens in place; refuses overlaps that would corrupt the answer', () => {
        const { pk, sk } = keypair()
        const m = random(70)
        const expected = Buffer.concat([detached(m, sk), m])
        const buf = new Uint8Array(134)
        buf.set(m)
        sodium.crypto_sign(buf, buf.subarray(0, 70), sk) // m at the start of sm, as libsodium's own test
        assert.strictEqual(toHex(buf), toHex(expected))
        assert.strictEqual(sodium.crypto_sign_open(buf.subarray(0, 70), buf, pk), true)
        assert.strictEqual(toHex(buf.subarray(0, 70)), toHex(m))

        const shared = new Uint8Array(200)
        shared.set(m, 10)
        assert.throws(() => sodium.crypto_sign_detached(shared.subarray(0, 64), shared.subarray(10, 80), sk), rangeError('sig'))
        const big = new Uint8Array(64 + 70)
        big.set(sk, 64)
        assert.throws(() => sodium.crypto_sign(big, m, big.subarray(64, 128)), rangeError('sm'))
        const kp = new Uint8Array(96)
        assert.throws(() => sodium.crypto_sign_seed_keypair(kp.subarray(0, 32), kp.subarray(16, 80), random(32)), rangeError('pk'))
        assert.throws(() => sodium.crypto_sign_seed_keypair(kp.subarray(0, 32), kp.subarray(32, 96), kp.subarray(40, 72)), rangeError('sk'))
        assert.throws(() => sodium.crypto_sign_keypair(kp.subarray(0, 32), kp.subarray(0, 64)), rangeError('pk'))
      })

      it('checks lengths as sodium-native does', () => {
        const { pk, sk } = keypair()
        assert.throws(() => sodium.crypto_sign(new Uint8Array(64 + 4), random(5), sk), rangeError('sm'))
        assert.throws(() => sodium.crypto_sign_open(new Uint8Array(5), new Uint8Array(64 + 4), pk), rangeError('m'))
        assert.throws(() => sodium.crypto_sign_open(new Uint8Array(0), new Uint8Array(63), pk), rangeError('sm'))
        assert.throws(() => sodium.crypto_sign_detached(new Uint8Array(64), random(1), sk.subarray(0, 32)), rangeError('sk'))
        assert.throws(() => sodium.crypto_sign_seed_keypair(new Uint8Array(32), new Uint8Array(64), random(31)), rangeError('seed'))
        assert.throws(() => sodium.crypto_sign_init(new Uint8Array(sodium.crypto_sign_STATEBYTES - 1)), rangeError('state'))
      })

      it('ed25519ph: final_create and final_verify wipe the state; a changed chunk fails', () => {
        const { pk, sk } = keypair()
        const m = random(300)
        const sig = new Uint8Array(64)
        const state = new Uint8Array(sodium.crypto_sign_STATEBYTES)
        sodium.crypto_sign_init(state)
        sodium.crypto_sign_update(state, m)
        assert.ok(state.some((b) => b !== 0))
        sodium.crypto_sign_final_create(state, sig, sk)
        assert.ok(state.every((b) => b === 0), 'state wiped by final_create')
        sodium.crypto_sign_ed25519ph_init(state)
        sodium.crypto_sign_ed25519ph_update(state, m.subarray(0, 100))
        sodium.crypto_sign_ed25519ph_update(state, m.subarray(100))
        assert.strictEqual(sodium.crypto_sign_ed25519ph_final_verify(state, sig, pk), true)
        assert.ok(state.every((b) => b === 0), 'state wiped by final_verify')
        m[299] ^= 1
        assert.strictEqual(ph('crypto_sign', [m], (s) => sodium.crypto_sign_final_verify(s, sig, pk)), false)
        m[299] ^= 1
        sig[5] ^= 1
        assert.strictEqual(ph('crypto_sign', [m], (s) => sodium.crypto_sign_final_verify(s, sig, pk)), false)
      })
    })

    describe('extension_tweak_ed25519', () => {
      it('a tweaked key pair derived from the secret side matches the one derived from the public side', () => {
        for (let i = 0; i < 10; i++) {
          const { pk, sk } = keypair()
          const ns = random(i * 7)
          const scalar = scalarOf(sk)
          const tpk = new Uint8Array(32)
          sodium.extension_tweak_ed25519_pk(tpk, pk, ns)
          const tscalar = new Uint8Array(32)
          sodium.extension_tweak_ed25519_scalar(tscalar, scalar, ns)
          const kp = { pk: new Uint8Array(32), scalar: new Uint8Array(32) }
          sodium.extension_tweak_ed25519_keypair(kp.pk, kp.scalar, scalar, ns)
          assert.strictEqual(toHex(kp.pk), toHex(tpk))
          assert.strictEqual(toHex(kp.scalar), toHex(tscalar))
          // base + add reproduce the same pair in two steps
          const [n, p] = [new Uint8Array(32), new Uint8Array(32)]
          sodium.extension_tweak_ed25519_base(n, p, ns)
          const [tpk2, tscalar2, pk3, scalar3] = [new Uint8Array(32), new Uint8Array(32), new Uint8Array(32), new Uint8Array(32)]
          sodium.extension_tweak_ed25519_pk_add(tpk2, pk, p)
          sodium.extension_tweak_ed25519_scalar_add(tscalar2, scalar, n)
          assert.strictEqual(toHex(tpk2), toHex(tpk))
          assert.strictEqual(toHex(tscalar2), toHex(tscalar))
          sodium.extension_tweak_ed25519_keypair_add(pk3, scalar3, scalar, n)
          assert.strictEqual(toHex(pk3), toHex(tpk))
          assert.strictEqual(toHex(scalar3), toHex(tscalar))
          // signatures by the tweaked scalar are plain Ed25519 under the tweaked key
          const m = random(i * 13)
          const sig = new Uint8Array(64)
          sodium.extension_tweak_ed25519_sign_detached(sig, m, tscalar, tpk)
          const sig2 = new Uint8Array(64)
          sodium.extension_tweak_ed25519_sign_detached(sig2, m, tscalar, null)
          assert.strictEqual(toHex(sig2), toHex(sig))
          assert.strictEqual(sodium.crypto_sign_verify_detached(sig, m, tpk), true)
          assert.ok(crypto.verify(null, m, nodePublic('ed25519', tpk), sig), 'node:crypto verifies it')
          assert.strictEqual(sodium.crypto_sign_verify_detached(sig, m, pk), false)
          // the untweaked scalar signs for the original key
          sodium.extension_tweak_ed25519_sign_detached(sig, m, scalar)
          assert.strictEqual(sodium.crypto_sign_verify_detached(sig, m, pk), true)
        }
      })

      it('refuses what the curve arithmetic refuses, with sodium-native\'s messages', () => {
        const zero = new Uint8Array(32)
        const small = hex(BAD_PK[3].pk) // 02 00..: not a point
        assert.throws(() => sodium.extension_tweak_ed25519_pk(new Uint8Array(32), small, random(3)), /^Error: failed to tweak public key$/)
        assert.throws(() => sodium.extension_tweak_ed25519_pk_add(new Uint8Array(32), small, keypair().pk), /^Error: failed to add tweak to public key$/)
        assert.throws(() => sodium.extension_tweak_ed25519_keypair_add(new Uint8Array(32), new Uint8Array(32), zero, zero), /^Error: failed to add tweak to keypair$/)
        assert.throws(() => sodium.extension_tweak_ed25519_sign_detached(new Uint8Array(64), random(3), zero), /^Error: failed to compute signature$/)
        assert.throws(() => sodium.extension_tweak_ed25519_sign_detached(new Uint8Array(64), random(3), random(32), new Uint8Array(31)), rangeError('pk'))
        assert.strictEqual(sodium.extension_tweak_ed25519_BYTES, 32)
        assert.strictEqual(sodium.extension_tweak_ed25519_SCALARBYTES, 32)
      })
    })

    describe('differential', () => {
      it('equals node:crypto Ed25519 on random messages (signatures byte-identical both ways)', () => {
        const seed = random(32)
        const { pk, sk } = seedKeypair(seed)
        const priv = nodePrivate('ed25519', seed)
        const pub = nodePublic('ed25519', pk)
        assert.strictEqual(toHex(rawPublic(crypto.createPublicKey(priv))), toHex(pk))
        for (let i = 0; i < 60; i++) {
          const m = random(crypto.randomInt(0, 3000))
          const expected = crypto.sign(null, m, priv)
          assert.strictEqual(toHex(detached(m, sk)), expected.toString('hex'), `len ${m.length}`)
          assert.strictEqual(sodium.crypto_sign_verify_detached(expected, m, pk), true)
          assert.ok(crypto.verify(null, m, pub, detached(m, sk)))
        }
      })

      // Natively libsodium's Ed25519 hashes with natrium's SHA-512 (deps/build.sh renames its
      // calls): every length across SHA-512's 128-byte blocks, long messages, and ed25519ph in
      // uneven chunks, against sodium-native (libsodium's own SHA-512) and node:crypto. The
      // dispatch test below runs this again on the portable SHA-512.
      it('SHA-512 inside Ed25519: every length 0..400, 100 KB and 1 MB (+1), ed25519ph in chunks: sodium-native, node:crypto, libsodium.js', async function () {
        await lsw.ready
        this.timeout(120000)
        const seed = random(32)
        const { pk, sk } = seedKeypair(seed)
        const priv = nodePrivate('ed25519', seed)
        const pool = random((1 << 20) + 1)
        const lengths = Array.from({ length: 401 }, (_, i) => i).concat([100 * 1024, 1 << 20, (1 << 20) + 1])
        const skb = Buffer.from(sk)
        for (const n of lengths) {
          const m = pool.subarray(pool.length - n)
          const sig = detached(m, sk)
          const ref = Buffer.alloc(64)
          SodiumNative.crypto_sign_detached(ref, Buffer.from(m.buffer, m.byteOffset, m.length), skb)
          assert.strictEqual(toHex(sig), ref.toString('hex'), `length ${n}`)
          if (n % 50 === 0 || n > 400) assert.strictEqual(toHex(sig), crypto.sign(null, m, priv).toString('hex'), `node ${n}`)
          assert.strictEqual(sodium.crypto_sign_verify_detached(sig, m, pk), true, `verify ${n}`)
          if (n > 400 || n % 40 === 0) {
            const st = new Uint8Array(sodium.crypto_sign_STATEBYTES)
            sodium.crypto_sign_init(st)
            for (let at = 0; at < n;) {
              const k = Math.min(n - at, [0, 1, 127, 128, 129, 5000][crypto.randomInt(0, 6)])
              sodium.crypto_sign_update(st, m.subarray(at, at + k))
              at += k
            }
            const ph = new Uint8Array(64)
            sodium.crypto_sign_final_create(st, ph, sk)
            // sodium-native has no ed25519ph: libsodium.js (libsodium's own SHA-512, in wasm)
            const rst = lsw.crypto_sign_init()
            lsw.crypto_sign_update(rst, m)
            assert.strictEqual(toHex(ph), toHex(lsw.crypto_sign_final_create(rst, sk)), `ed25519ph ${n}`)
          }
        }
      })

      it('equals sodium-native 5.1.0 for every crypto_sign function it has', () => {
        const SN = SodiumNative
        const same = (f, args) => {
          const ours = args.map(copy)
          const theirs = args.map(copy)
          let ro, rt
          try { ro = sodium[f](...ours) } catch (e) { ro = 'threw' }
          try { rt = SN[f](...theirs) } catch (e) { rt = 'threw' }
          assert.strictEqual(ro, rt, `${f} returned differently`)
          ours.forEach((a, i) => { if (a instanceof Uint8Array) assert.strictEqual(toHex(a), toHex(theirs[i]), `${f} arg ${i}`) })
          return ro
        }
        for (let i = 0; i < 25; i++) {
          const seed = random(32)
          const m = random(crypto.randomInt(0, 500))
          const { pk, sk } = seedKeypair(seed)
          same('crypto_sign_seed_keypair', [new Uint8Array(32), new Uint8Array(64), seed])
          same('crypto_sign', [new Uint8Array(m.length + 64), m, sk])
          same('crypto_sign_detached', [new Uint8Array(64), m, sk])
          const sm = Buffer.concat([detached(m, sk), m])
          if (i % 2) sm[crypto.randomInt(0, sm.length)] ^= 1 << crypto.randomInt(0, 8)
          same('crypto_sign_open', [new Uint8Array(m.length).fill(7), sm, pk])
          same('crypto_sign_verify_detached', [sm.subarray(0, 64), m, pk])
          same('crypto_sign_ed25519_sk_to_pk', [new Uint8Array(32), sk])
          same('crypto_sign_ed25519_pk_to_curve25519', [new Uint8Array(32), pk])
          same('crypto_sign_ed25519_pk_to_curve25519', [new Uint8Array(32), random(32)]) // often refused
          same('crypto_sign_ed25519_sk_to_curve25519', [new Uint8Array(32), sk])
          same('crypto_sign_ed25519_sk_to_curve25519', [new Uint8Array(32), seed])
        }
        for (const { pk } of BAD_PK) assert.strictEqual(same('crypto_sign_ed25519_pk_to_curve25519', [new Uint8Array(32), hex(pk)]), 'threw')
        // keypair is random: compare shapes and that each one's keys are consistent in the other
        const k = { pk: new Uint8Array(32), sk: new Uint8Array(64) }
        SN.crypto_sign_keypair(k.pk, k.sk)
        const pk2 = new Uint8Array(32)
        sodium.crypto_sign_ed25519_sk_to_pk(pk2, k.sk)
        assert.strictEqual(toHex(pk2), toHex(k.pk))
        // bad lengths throw in both
        const { pk, sk } = keypair()
        for (const [f, args] of [
          ['crypto_sign_keypair', [new Uint8Array(31), new Uint8Array(64)]],
          ['crypto_sign_seed_keypair', [new Uint8Array(32), new Uint8Array(64), random(33)]],
          ['crypto_sign', [new Uint8Array(65), random(2), sk]],
          ['crypto_sign_open', [new Uint8Array(1), new Uint8Array(63), pk]],
          ['crypto_sign_open', [new Uint8Array(2), new Uint8Array(65), pk]],
          ['crypto_sign_detached', [new Uint8Array(63), random(2), sk]],
          ['crypto_sign_verify_detached', [new Uint8Array(63), random(2), pk]],
          ['crypto_sign_verify_detached', [new Uint8Array(64), random(2), random(31)]],
          ['crypto_sign_ed25519_sk_to_pk', [new Uint8Array(32), random(63)]],
          ['crypto_sign_ed25519_pk_to_curve25519', [new Uint8Array(31), pk]],
          ['crypto_sign_ed25519_sk_to_curve25519', [new Uint8Array(32), random(48)]]
        ]) {
          assert.strictEqual(same(f, args), 'threw', f)
        }
      })

      it('equals sodium-native 5.1.0 for every extension_tweak_ed25519 function', () => {
        const SN = SodiumNative
        const same = (f, args) => {
          const ours = args.map(copy)
          const theirs = args.map(copy)
          let ro, rt
          try { ro = sodium[f](...ours) } catch (e) { ro = `threw ${e.message}` }
          try { rt = SN[f](...theirs) } catch (e) { rt = 'threw' }
          assert.strictEqual(typeof ro === 'string' ? 'threw' : ro, rt, `${f}: ${ro}`)
          // a refused call zeroes natrium's outputs (sodium-native leaves what libsodium wrote)
          const outputs = symbols[f].args.map((a) => a.kind === 'out')
          ours.forEach((a, i) => {
            if (!(a instanceof Uint8Array)) return
            if (typeof ro === 'string' && outputs[i]) assert.ok(a.every((b) => b === 0), `${f} arg ${i} not zeroed`)
            else assert.strictEqual(toHex(a), toHex(theirs[i]), `${f} arg ${i}`)
          })
          return ro
        }
        const b32 = () => new Uint8Array(32)
        for (let i = 0; i < 25; i++) {
          const { pk, sk } = keypair()
          const ns = random(crypto.randomInt(0, 64))
          const m = random(crypto.randomInt(0, 300))
          const scalar = scalarOf(sk)
          const rnd = random(32)
          same('extension_tweak_ed25519_base', [b32(), b32(), ns])
          same('extension_tweak_ed25519_sk_to_scalar', [b32(), sk])
          same('extension_tweak_ed25519_scalar', [b32(), scalar, ns])
          same('extension_tweak_ed25519_scalar', [b32(), rnd, ns])
          same('extension_tweak_ed25519_pk', [b32(), pk, ns])
          same('extension_tweak_ed25519_pk', [b32(), rnd, ns]) // often not a point
          same('extension_tweak_ed25519_keypair', [b32(), b32(), scalar, ns])
          same('extension_tweak_ed25519_keypair', [b32(), b32(), rnd, ns])
          same('extension_tweak_ed25519_scalar_add', [b32(), scalar, rnd])
          same('extension_tweak_ed25519_pk_add', [b32(), pk, keypair().pk])
          same('extension_tweak_ed25519_pk_add', [b32(), pk, rnd])
          same('extension_tweak_ed25519_keypair_add', [b32(), b32(), scalar, rnd])
          same('extension_tweak_ed25519_sign_detached', [new Uint8Array(64), m, scalar, pk])
          same('extension_tweak_ed25519_sign_detached', [new Uint8Array(64), m, scalar])
          same('extension_tweak_ed25519_sign_detached', [new Uint8Array(64), m, rnd]) // bit 255 may be set
          same('extension_tweak_ed25519_sign_detached', [new Uint8Array(64), m, rnd, random(32)])
        }
        const zero = b32()
        same('extension_tweak_ed25519_keypair_add', [b32(), b32(), zero, zero]) // refused: outputs zeroed
        same('extension_tweak_ed25519_sign_detached', [new Uint8Array(64), random(5), zero])
        same('extension_tweak_ed25519_base', [b32(), b32(), new Uint8Array(0)])
        for (const [f, args] of [
          ['extension_tweak_ed25519_base', [new Uint8Array(31), b32(), random(3)]],
          ['extension_tweak_ed25519_sk_to_scalar', [b32(), random(32)]],
          ['extension_tweak_ed25519_scalar', [b32(), random(33), random(3)]],
          ['extension_tweak_ed25519_pk', [new Uint8Array(33), keypair().pk, random(3)]],
          ['extension_tweak_ed25519_keypair', [b32(), b32(), random(31), random(3)]],
          ['extension_tweak_ed25519_scalar_add', [b32(), b32(), random(31)]],
          ['extension_tweak_ed25519_pk_add', [b32(), b32(), random(31)]],
          ['extension_tweak_ed25519_keypair_add', [b32(), b32(), b32(), random(33)]],
          ['extension_tweak_ed25519_sign_detached', [new Uint8Array(64), random(3), random(31)]],
          ['extension_tweak_ed25519_sign_detached', [new Uint8Array(64), random(3), random(32), random(31)]]
        ]) {
          assert.ok(same(f, args).startsWith('threw'), f)
        }
      })
    })
  })
}

// The SHA-2 inside natrium's Ed25519 is chosen at load time: the test above again on the portable
// SHA-512 (child process, NATRIUM_DISABLE_SIMD=1).
describe('sign: Ed25519 on the portable SHA-512', function () {
  before(function () {
    if (process.env.NATRIUM_SIGN_CHILD === '1' || !backends.some((b) => b.name === 'native')) this.skip()
  })

  it('passes the SHA-512 test with NATRIUM_DISABLE_SIMD=1', function () {
    this.timeout(240000)
    const { spawnNode } = require('./helpers')
    const mocha = require.resolve('mocha/bin/mocha.js')
    const env = { ...process.env, NATRIUM_DISABLE_SIMD: '1', NATRIUM_SIGN_CHILD: '1', NATRIUM_TEST_BACKENDS: 'native' }
    const r = spawnNode([mocha, '--reporter', 'dot', '--timeout', '240000', '--grep', 'SHA-512 inside Ed25519', __filename], { env, encoding: 'utf8' })
    assert.strictEqual(r.status, 0, r.stdout + r.stderr)
    assert.match(r.stdout, /1 passing/)
  })
})

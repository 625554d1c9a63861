'use strict'
// crypto_kem_*: ML-KEM-768 against Wycheproof (keygen from seed, decapsulation including implicit
// rejection, deterministic encapsulation including FIPS 203's modulus check), libsodium's own
// X-Wing (draft-connolly-cfrg-xwing-kem) and ML-KEM known answers, X-Wing rebuilt from its parts
// with node:crypto (SHAKE256, X25519, SHA3-256), round trips, tampering, argument checks, and
// libsodium-wrappers-sumo 0.8.4 (libsodium 1.0.22 in wasm; sodium-native 5.1.0 has no KEM).
// ML-KEM-768 and X-Wing are our own C (src/crypto/mlkem768*.c, xwing.c): natively the file runs
// again in child processes with each kernel set forced (NATRIUM_MLKEM=portable / avx2 / avx512vl,
// NATRIUM_DISABLE_SIMD=1) and with libsodium's own code (NATRIUM_MLKEM=libsodium), and gdb shows
// which one answers. test/c/mlkem768.c compares ours with libsodium's in C on many more seeds.
const assert = require('assert')
const crypto = require('crypto')
const fs = require('fs')
const path = require('path')
const { spawnSync } = require('child_process')
const Wrappers = require('libsodium-wrappers-sumo')
const { backends, hex, toHex, random, wycheproof, vectors, byName, gdbEntered, rerunNative, cpuFlags } = require('./helpers')

const CHILD = process.env.NATRIUM_KEM_CHILD === '1'

const mlkem = 'crypto_kem_mlkem768'
const xwing = 'crypto_kem_xwing'
const SETS = ['crypto_kem', xwing, mlkem]

const shake256 = (data, n) => crypto.createHash('shake256', { outputLength: n }).update(data).digest()
const sha3 = (...parts) => crypto.createHash('sha3-256').update(Buffer.concat(parts)).digest()
// X25519 with raw keys through node's DER encodings (RFC 8410)
const x25519Private = (sk) => crypto.createPrivateKey({ key: Buffer.concat([hex('302e020100300506032b656e04220420'), sk]), format: 'der', type: 'pkcs8' })
const x25519Base = (sk) => crypto.createPublicKey(x25519Private(sk)).export({ format: 'der', type: 'spki' }).subarray(-32)
const x25519 = (sk, pk) => crypto.diffieHellman({
  privateKey: x25519Private(sk),
  publicKey: crypto.createPublicKey({ key: Buffer.concat([hex('302a300506032b656e032100'), pk]), format: 'der', type: 'spki' })
})
const XWING_LABEL = hex('5c2e2f2f5e5c') // "\.//^\"

// Functions this file calls only through composed names, in full (see byName in helpers.js)
const BY_NAME = [
  'crypto_kem_keypair',
  'crypto_kem_seed_keypair',
  'crypto_kem_enc',
  'crypto_kem_dec',
  'crypto_kem_xwing_keypair',
  'crypto_kem_xwing_seed_keypair',
  'crypto_kem_xwing_enc',
  'crypto_kem_xwing_dec',
  'crypto_kem_xwing_enc_deterministic',
  'crypto_kem_mlkem768_keypair',
  'crypto_kem_mlkem768_seed_keypair',
  'crypto_kem_mlkem768_enc',
  'crypto_kem_mlkem768_dec',
  'crypto_kem_mlkem768_enc_deterministic'
]

for (const { name: backend, sodium: surface } of backends) {
  const { sodium, calledEveryName } = byName(surface, BY_NAME)
  describe(`kem [${backend}]`, () => {
    after(calledEveryName)
    const size = (p, what) => sodium[`${p}_${what}`]
    const keypair = (p, seed) => {
      const pk = new Uint8Array(size(p, 'PUBLICKEYBYTES'))
      const sk = new Uint8Array(size(p, 'SECRETKEYBYTES'))
      if (seed) sodium[`${p}_seed_keypair`](pk, sk, seed)
      else sodium[`${p}_keypair`](pk, sk)
      return { pk, sk }
    }
    const enc = (p, pk, seed) => {
      const ct = new Uint8Array(size(p, 'CIPHERTEXTBYTES'))
      const ss = new Uint8Array(size(p, 'SHAREDSECRETBYTES'))
      if (seed) sodium[`${p}_enc_deterministic`](ct, ss, pk, seed)
      else sodium[`${p}_enc`](ct, ss, pk)
      return { ct, ss }
    }
    const dec = (p, ct, sk) => {
      const ss = new Uint8Array(size(p, 'SHAREDSECRETBYTES'))
      sodium[`${p}_dec`](ss, ct, sk)
      return ss
    }
    const rangeError = (name) => (e) => e instanceof RangeError && e.message.startsWith(`${name} must be`)

    describe('ML-KEM-768: Wycheproof', () => {
      it('mlkem_768_keygen_seed_test.json: seed -> ek, dk', () => {
        const tests = wycheproof('mlkem_768_keygen_seed_test.json')
        for (const t of tests) {
          const { pk, sk } = keypair(mlkem, hex(t.seed))
          assert.strictEqual(toHex(pk), t.ek, `tcId ${t.tcId}`)
          assert.strictEqual(toHex(sk), t.dk, `tcId ${t.tcId}`)
        }
        assert.strictEqual(tests.length, 100)
      })

      it('mlkem_768_test.json: keygen from seed, decapsulation (implicit rejection included)', () => {
        let decapsulated = 0
        for (const t of wycheproof('mlkem_768_test.json')) {
          const seed = hex(t.seed)
          if (seed.length !== size(mlkem, 'SEEDBYTES')) {
            assert.strictEqual(t.result, 'invalid')
            assert.throws(() => keypair(mlkem, seed), rangeError('seed'), `tcId ${t.tcId}`)
            continue
          }
          const { pk, sk } = keypair(mlkem, seed)
          if (t.ek) assert.strictEqual(toHex(pk), t.ek, `tcId ${t.tcId} ek`)
          const c = hex(t.c)
          if (c.length !== size(mlkem, 'CIPHERTEXTBYTES')) {
            assert.strictEqual(t.result, 'invalid')
            assert.throws(() => dec(mlkem, c, sk), rangeError('ct'), `tcId ${t.tcId}`)
            continue
          }
          assert.strictEqual(t.result, 'valid')
          assert.strictEqual(toHex(dec(mlkem, c, sk)), t.K, `tcId ${t.tcId} (${t.comment || t.flags})`)
          decapsulated++
        }
        assert.strictEqual(decapsulated, 153)
      })

      it('mlkem_768_encaps_test.json: deterministic encapsulation, FIPS 203 modulus check', () => {
        const counts = { valid: 0, refused: 0, length: 0 }
        for (const t of wycheproof('mlkem_768_encaps_test.json')) {
          const [ek, m] = [hex(t.ek), hex(t.m)]
          const ct = new Uint8Array(size(mlkem, 'CIPHERTEXTBYTES')).fill(0xaa)
          const ss = new Uint8Array(32).fill(0xaa)
          const call = () => sodium[`${mlkem}_enc_deterministic`](ct, ss, ek, m)
          if (ek.length !== size(mlkem, 'PUBLICKEYBYTES')) {
            assert.throws(call, rangeError('pk'), `tcId ${t.tcId}`)
            counts.length++
          } else if (t.result === 'invalid') {
            assert.throws(call, (e) => !(e instanceof RangeError) && e.message === `${mlkem}_enc_deterministic failed`, `tcId ${t.tcId}`)
            assert.throws(() => enc(mlkem, ek), (e) => e.message === `${mlkem}_enc failed`)
            assert.ok(ct.every((b) => b === 0) && ss.every((b) => b === 0), `tcId ${t.tcId}: outputs not zeroed`)
            counts.refused++
          } else {
            call()
            assert.strictEqual(toHex(ct), t.c, `tcId ${t.tcId}`)
            assert.strictEqual(toHex(ss), t.K, `tcId ${t.tcId}`)
            counts.valid++
          }
        }
        assert.deepStrictEqual(counts, { valid: 133, refused: 112, length: 20 })
      })

      it('mlkem_768_semi_expanded_decaps_test.json: expanded keys, lengths; libsodium skips the key hash check', () => {
        for (const t of wycheproof('mlkem_768_semi_expanded_decaps_test.json')) {
          const [dk, c] = [hex(t.dk), hex(t.c)]
          const flag = t.flags[0]
          if (flag === 'IncorrectCiphertextLength') assert.throws(() => dec(mlkem, c, dk), rangeError('ct'))
          else if (flag === 'IncorrectDecapsulationKeyLength') assert.throws(() => dec(mlkem, c, dk), rangeError('sk'))
          else if (flag === 'InvalidDecapsulationKey') {
            // libsodium 1.0.22 does not run FIPS 203 section 7.3's decapsulation key check
            // (H(ek) stored in dk): such keys decapsulate to some secret rather than fail
            assert.strictEqual(dec(mlkem, c, dk).length, 32)
          } else {
            assert.strictEqual(t.result, 'valid')
            assert.strictEqual(toHex(dec(mlkem, c, dk)), t.K, `tcId ${t.tcId}`)
          }
        }
      })
    })

    describe('libsodium test/default known answers', () => {
      for (const [p, file] of [[xwing, 'kem_xwing'], [mlkem, 'kem_mlkem768']]) {
        it(`${file}.c: keys, ciphertext prefixes and shared secrets`, () => {
          const { tests } = vectors(`libsodium/${file}.json`)
          assert.ok(tests.length >= 3)
          for (const t of tests) {
            const { pk, sk } = keypair(p, hex(t.seed))
            assert.ok(toHex(pk).startsWith(t.pk_prefix), `${t.name}: pk`)
            if (t.sk) assert.strictEqual(toHex(sk), t.sk)
            if (t.sk_prefix) assert.ok(toHex(sk).startsWith(t.sk_prefix), `${t.name}: sk`)
            const { ct, ss } = enc(p, pk, hex(t.randomness))
            assert.ok(toHex(ct).startsWith(t.ct_prefix), `${t.name}: ct`)
            assert.strictEqual(toHex(ss), t.ss, `${t.name}: ss`)
            assert.strictEqual(toHex(dec(p, ct, sk)), t.ss, `${t.name}: dec`)
          }
        })
      }
    })

    describe('X-Wing', () => {
      it('is ML-KEM-768 + X25519 + SHA3-256 as the draft specifies (node:crypto for the parts)', () => {
        for (let i = 0; i < 8; i++) {
          const seed = random(32)
          const { pk, sk } = keypair(xwing, seed)
          assert.strictEqual(toHex(sk), toHex(seed)) // the secret key is the seed
          const expanded = shake256(seed, 96)
          const m = keypair(mlkem, expanded.subarray(0, 64))
          const skX = expanded.subarray(64, 96)
          const pkX = x25519Base(skX)
          assert.strictEqual(toHex(pk), toHex(m.pk) + pkX.toString('hex'))

          const eseed = random(64)
          const { ct, ss } = enc(xwing, pk, eseed)
          const em = enc(mlkem, m.pk, eseed.subarray(0, 32))
          const ekX = eseed.subarray(32, 64)
          const ctX = x25519Base(ekX)
          assert.strictEqual(toHex(ct), toHex(em.ct) + ctX.toString('hex'))
          const expected = sha3(em.ss, x25519(ekX, pkX), ctX, pkX, XWING_LABEL)
          assert.strictEqual(toHex(ss), expected.toString('hex'))
          assert.strictEqual(toHex(dec(xwing, ct, sk)), toHex(ss))
        }
      })

      it('crypto_kem_* is X-Wing', () => {
        assert.strictEqual(sodium.crypto_kem_PRIMITIVE, 'xwing')
        const seed = random(32)
        const a = keypair('crypto_kem', seed)
        const b = keypair(xwing, seed)
        assert.strictEqual(toHex(a.pk), toHex(b.pk))
        assert.strictEqual(toHex(a.sk), toHex(b.sk))
        const { ct, ss } = enc('crypto_kem', a.pk)
        assert.strictEqual(toHex(dec(xwing, ct, b.sk)), toHex(ss))
        const e = enc(xwing, b.pk)
        assert.strictEqual(toHex(dec('crypto_kem', e.ct, a.sk)), toHex(e.ss))
      })

      it('refuses an X25519 share of low order (all-zero secret), leaving its output zeroed', () => {
        const { pk, sk } = keypair(xwing)
        const { ct } = enc(xwing, pk)
        ct.fill(0, size(mlkem, 'CIPHERTEXTBYTES')) // X25519 part: the point 0
        const ss = new Uint8Array(32).fill(0x55)
        assert.throws(() => sodium[`${xwing}_dec`](ss, ct, sk), (e) => !(e instanceof RangeError) && e.message === `${xwing}_dec failed`)
        assert.ok(ss.every((b) => b === 0))
        const badPk = pk.slice()
        badPk.fill(0, size(mlkem, 'PUBLICKEYBYTES'))
        assert.throws(() => enc(xwing, badPk), (e) => e.message === `${xwing}_enc failed`)
        assert.throws(() => enc(xwing, badPk, random(64)), (e) => e.message === `${xwing}_enc_deterministic failed`)
      })
    })

    for (const p of SETS) {
      describe(p, () => {
        it('random and seeded key pairs round trip; seeds are deterministic, keys differ', () => {
          for (let i = 0; i < 5; i++) {
            const { pk, sk } = keypair(p)
            const { ct, ss } = enc(p, pk)
            assert.strictEqual(toHex(dec(p, ct, sk)), toHex(ss))
            const again = enc(p, pk)
            assert.notStrictEqual(toHex(again.ct), toHex(ct))
            assert.notStrictEqual(toHex(again.ss), toHex(ss))
          }
          const seed = random(size(p, 'SEEDBYTES'))
          const a = keypair(p, seed)
          const b = keypair(p, seed)
          assert.strictEqual(toHex(a.pk), toHex(b.pk))
          assert.strictEqual(toHex(a.sk), toHex(b.sk))
          assert.notStrictEqual(toHex(keypair(p).pk), toHex(keypair(p).pk))
        })

        it('a tampered ciphertext decapsulates to another secret (implicit rejection), not an error', () => {
          const { pk, sk } = keypair(p)
          const { ct, ss } = enc(p, pk)
          for (const i of [0, 500, size(mlkem, 'CIPHERTEXTBYTES') - 1, ct.length - 1]) {
            const bad = ct.slice()
            bad[i] ^= 0x01
            const got = dec(p, bad, sk)
            assert.notStrictEqual(toHex(got), toHex(ss), `byte ${i}`)
            assert.strictEqual(toHex(dec(p, bad, sk)), toHex(got), 'rejection must be deterministic')
            if (p === mlkem) {
              // FIPS 203 ML-KEM.Decaps_internal: K-bar = J(z || c) = SHAKE256(z || c, 32)
              const z = sk.subarray(sk.length - 32)
              assert.strictEqual(toHex(got), shake256(Buffer.concat([z, bad]), 32).toString('hex'))
            }
          }
        })

        it('refuses wrong lengths and overlapping buffers, naming the argument', () => {
          const { pk, sk } = keypair(p)
          const [PK, SK, CT, SS, SEED] = ['PUBLICKEYBYTES', 'SECRETKEYBYTES', 'CIPHERTEXTBYTES', 'SHAREDSECRETBYTES', 'SEEDBYTES'].map((w) => size(p, w))
          const msg = (x, c) => (e) => e instanceof RangeError && e.message === `${x} must be ${p}_${c} bytes long`
          assert.throws(() => sodium[`${p}_keypair`](new Uint8Array(PK + 1), new Uint8Array(SK)), msg('pk', 'PUBLICKEYBYTES'))
          assert.throws(() => sodium[`${p}_seed_keypair`](new Uint8Array(PK), new Uint8Array(SK), new Uint8Array(SEED - 1)), msg('seed', 'SEEDBYTES'))
          assert.throws(() => sodium[`${p}_enc`](new Uint8Array(CT), new Uint8Array(SS - 1), pk), msg('ss', 'SHAREDSECRETBYTES'))
          assert.throws(() => sodium[`${p}_dec`](new Uint8Array(SS), new Uint8Array(CT), sk.subarray(1)), msg('sk', 'SECRETKEYBYTES'))
          const joint = new Uint8Array(CT + SS)
          assert.throws(() => sodium[`${p}_enc`](joint.subarray(0, CT), joint.subarray(CT - 1, CT - 1 + SS), pk),
            (e) => e instanceof RangeError && e.message === 'ct must not overlap ss')
          const inPlace = new Uint8Array(Math.max(PK, CT) + SS)
          inPlace.set(pk)
          assert.throws(() => sodium[`${p}_enc`](inPlace.subarray(0, CT), new Uint8Array(SS), inPlace.subarray(0, PK)),
            (e) => e instanceof RangeError && e.message === 'ct must not overlap pk')
        })
      })
    }

    it('enc_deterministic seeds: 64 bytes for X-Wing, 32 for ML-KEM-768', () => {
      for (const [p, n] of [[xwing, 64], [mlkem, 32]]) {
        const { pk } = keypair(p)
        assert.throws(() => enc(p, pk, random(n - 1)), (e) => e instanceof RangeError && e.message === `seed must be ${n} bytes long`)
        assert.throws(() => enc(p, pk, random(n + 1)), RangeError)
        const seed = random(n)
        assert.strictEqual(toHex(enc(p, pk, seed).ct), toHex(enc(p, pk, seed).ct))
      }
    })

    describe('differential: libsodium-wrappers-sumo 0.8.4 (libsodium 1.0.22)', () => {
      before(() => Wrappers.ready)

      it('every KEM function gives the same bytes on random seeds', () => {
        for (const [p, encSeed] of [['crypto_kem', 0], [xwing, 64], [mlkem, 32]]) {
          for (let i = 0; i < 5; i++) {
            const seed = random(size(p, 'SEEDBYTES'))
            const ours = keypair(p, seed)
            const theirs = Wrappers[`${p}_seed_keypair`](seed)
            assert.strictEqual(toHex(ours.pk), toHex(theirs.publicKey))
            assert.strictEqual(toHex(ours.sk), toHex(theirs.privateKey))
            let ct
            if (encSeed) {
              const s = random(encSeed)
              const a = enc(p, ours.pk, s)
              const b = Wrappers[`${p}_enc_deterministic`](ours.pk, s)
              assert.strictEqual(toHex(a.ct), toHex(b.ciphertext))
              assert.strictEqual(toHex(a.ss), toHex(b.sharedSecret))
              ct = a.ct
            } else {
              ct = Wrappers[`${p}_enc`](ours.pk).ciphertext
            }
            if (i % 2) ct[crypto.randomInt(0, ct.length)] ^= 1 << crypto.randomInt(0, 8)
            assert.strictEqual(toHex(dec(p, ct, ours.sk)), toHex(Wrappers[`${p}_dec`](ct, ours.sk)))
          }
        }
      })
    })
  })
}

// Natively: the whole file once per implementation, and gdb's view of which one runs.
const native = backends.find((b) => b.name === 'native')
const addon = path.join(__dirname, '..', 'build', 'Release', 'natrium.node')

describe('kem dispatch', function () {
  before(function () {
    if (CHILD || !native) this.skip()
  })

  const child = (env) => rerunNative([__filename], { ...env, NATRIUM_KEM_CHILD: '1' })

  it('libsodium\'s own ML-KEM and X-Wing pass this file (NATRIUM_MLKEM=libsodium)', function () {
    this.timeout(240000)
    child({ NATRIUM_MLKEM: 'libsodium' })
  })

  it('the portable kernels pass this file (NATRIUM_MLKEM=portable, and NATRIUM_DISABLE_SIMD=1)', function () {
    this.timeout(240000)
    child({ NATRIUM_MLKEM: 'portable' })
    child({ NATRIUM_DISABLE_SIMD: '1' })
  })

  it('the AVX2 kernels pass this file (NATRIUM_MLKEM=avx2)', function () {
    if (!cpuFlags().has('avx2')) this.skip()
    this.timeout(240000)
    child({ NATRIUM_MLKEM: 'avx2' })
  })

  it('the AVX2 kernels on the AVX-512VL four-way Keccak pass this file (NATRIUM_MLKEM=avx512vl)', function () {
    if (!cpuFlags().has('avx512vl')) this.skip()
    this.timeout(240000)
    child({ NATRIUM_MLKEM: 'avx512vl' })
  })

  // gdb's dprintf prints a line each time a function is entered: a decapsulation runs
  // libsodium's reference code or ours, and ours one set of kernels.
  const fns = ['_sodium_mlkem768_ref_dec', 'nat_mlkem768_ours_dec', 'matrix_hash_portable', 'matrix_hash_avx2',
    'matrix_hash_avx512vl', 'basemul_acc_portable', 'basemul_acc_avx2']
  function traced (env) {
    const script = `const s = require(${JSON.stringify(addon)});
      const pk = new Uint8Array(1184), sk = new Uint8Array(2400), ct = new Uint8Array(1088), ss = new Uint8Array(32);
      s.crypto_kem_mlkem768_keypair(pk, sk); s.crypto_kem_mlkem768_enc(ct, ss, pk);
      process.stdout.write('DECAPSULATING\\n'); s.crypto_kem_mlkem768_dec(ss, ct, sk);`
    return gdbEntered(fns, script, { env, after: 'DECAPSULATING' })
  }

  it('each forced implementation is the one that runs, and unforced the best this CPU has (gdb)', async function () {
    if (process.platform !== 'linux' || process.arch !== 'x64' || !fs.existsSync(addon) ||
        spawnSync('sh', ['-c', 'command -v gdb']).status !== 0) this.skip()
    this.timeout(120000)
    const flags = cpuFlags()
    const portableSet = ['nat_mlkem768_ours_dec', 'matrix_hash_portable', 'basemul_acc_portable']
    const avx2Set = ['nat_mlkem768_ours_dec', 'matrix_hash_avx2', 'basemul_acc_avx2']
    const best = flags.has('avx512vl') ? ['nat_mlkem768_ours_dec', 'matrix_hash_avx512vl', 'basemul_acc_avx2']
      : flags.has('avx2') ? avx2Set : portableSet
    const [auto, portable, off, libsodium, avx2] = await Promise.all([traced({}), traced({ NATRIUM_MLKEM: 'portable' }),
      traced({ NATRIUM_DISABLE_SIMD: '1' }), traced({ NATRIUM_MLKEM: 'libsodium' }), traced({ NATRIUM_MLKEM: 'avx2' })])
    assert.deepStrictEqual(auto, best)
    assert.deepStrictEqual(portable, portableSet)
    assert.deepStrictEqual(off, portableSet)
    if (flags.has('avx2')) assert.deepStrictEqual(avx2, avx2Set)
    assert.deepStrictEqual(libsodium, ['_sodium_mlkem768_ref_dec'])
  })
})

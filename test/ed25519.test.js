'use strict'
// Ed25519's fixed-base a B in our own C (src/crypto/ed25519_mulx.c on fe25519_64.h), which the
// addon's Linux link --wraps over libsodium's ge25519_scalarmult_base, ge25519_p3_tobytes and
// crypto_scalarmult_curve25519_base, so crypto_sign_keypair / _seed_keypair / _detached / crypto_sign,
// crypto_scalarmult_ed25519_base(_noclamp), crypto_scalarmult_ristretto255_base,
// crypto_scalarmult_base and crypto_box_keypair run it on x86-64 with BMI2/ADX; and verify's
// double-base product, point decoding and encoding, --wrapped over libsodium's
// ge25519_double_scalarmult_vartime, ge25519_frombytes_negate_vartime and ge25519_tobytes (verify
// against sodium-native and node:crypto below). On every backend:
// those functions against sodium-native 5.1.0 (libsodium's own ref10; libsodium-wrappers-sumo
// for ristretto255, which sodium-native lacks) and node:crypto on random
// and edge scalars and seeds. Natively this file, sign.test.js, core.test.js and box.test.js run
// again with libsodium's own code forced (NATRIUM_ED25519=libsodium, NATRIUM_DISABLE_SIMD=1);
// gdb shows which code a crypto_sign_detached runs. The table's generator must reproduce the
// committed header. The C-level proof (10^6 scalars against libsodium's __real_ functions, the
// public API with ours on and off, valgrind's constant-time check) is test/c/ed25519.c.
const assert = require('assert')
const crypto = require('crypto')
const fs = require('fs')
const path = require('path')
const { spawnSync } = require('child_process')
const SodiumNative = require('sodium-native')
const lsw = require('libsodium-wrappers-sumo')
const { backends, hex, toHex, random, gdbEntered, rerunNative, spawnNode, hasMulx } = require('./helpers')

const CHILD = process.env.NATRIUM_ED25519_CHILD === '1'
const PKCS8 = hex('302e020100300506032b657004220420')
const nodePublicRaw = (seed) => crypto.createPublicKey(crypto.createPrivateKey({ key: Buffer.concat([PKCS8, seed]), format: 'der', type: 'pkcs8' }))
  .export({ format: 'der', type: 'spki' }).subarray(12)
const nodeSign = (m, seed) => crypto.sign(null, m, crypto.createPrivateKey({ key: Buffer.concat([PKCS8, seed]), format: 'der', type: 'pkcs8' }))

// scalars where a recoding or table slip would show: 0, 1, small, L - 1, L, L + 1, p, 2^255 - 1,
// all 0xff (bit 255 set: libsodium's a[31] <= 127 precondition broken, its result kept), every
// digit 8, each single bit
const EDGES = ['', '01', '02', '08', '10', '11',
  'ecd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010',
  'edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010',
  'eed3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010',
  'edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
  'ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
  'ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff',
  '8888888888888888888888888888888888888888888888888888888888888808']
  .map((h) => { const a = new Uint8Array(32); a.set(hex(h)); return a })
for (let bit = 0; bit < 256; bit += 7) { const a = new Uint8Array(32); a[bit >> 3] = 1 << (bit & 7); EDGES.push(a) }

const BASE_FNS = ['crypto_scalarmult_ed25519_base', 'crypto_scalarmult_ed25519_base_noclamp',
  'crypto_scalarmult_ristretto255_base', 'crypto_scalarmult_base']
// the result (hex) or 'throws': both libraries must agree
function run (s, fn, n) {
  const q = new Uint8Array(32)
  try { s[fn](q, n); return toHex(q) } catch { return 'throws' }
}
function reference (fn, n) {
  if (fn !== 'crypto_scalarmult_ristretto255_base') return run(SodiumNative, fn, Buffer.from(n))
  try { return toHex(lsw.crypto_scalarmult_ristretto255_base(n)) } catch { return 'throws' }
}

for (const { name: backend, sodium } of backends) {
  describe(`ed25519 fixed-base [${backend}]`, () => {
    before(() => lsw.ready)

    it('the fixed-base functions equal sodium-native 5.1.0 (ristretto255: libsodium.js) on edge scalars and 2000 random ones', () => {
      const scalars = [...EDGES]
      for (let i = 0; i < (CHILD ? 300 : 2000); i++) scalars.push(random(32))
      let thrown = 0
      for (const n of scalars) {
        for (const fn of BASE_FNS) {
          const want = reference(fn, n)
          if (want === 'throws') thrown++
          assert.strictEqual(run(sodium, fn, n), want, `${fn} ${toHex(n)}`)
        }
      }
      assert.ok(thrown > 0 && thrown < 20, `${thrown} refusals (0 and L: the ed25519 ones)`)
    })

    it('seed_keypair and detached signatures equal sodium-native and node:crypto on 500 random seeds', () => {
      for (let i = 0; i < (CHILD ? 100 : 500); i++) {
        const seed = random(32)
        const m = random(i % 70)
        const [pk, sk, pk2, sk2] = [new Uint8Array(32), new Uint8Array(64), Buffer.alloc(32), Buffer.alloc(64)]
        sodium.crypto_sign_seed_keypair(pk, sk, seed)
        SodiumNative.crypto_sign_seed_keypair(pk2, sk2, Buffer.from(seed))
        assert.strictEqual(toHex(pk), pk2.toString('hex'))
        assert.strictEqual(toHex(pk), nodePublicRaw(seed).toString('hex'))
        const [sig, sig2] = [new Uint8Array(64), Buffer.alloc(64)]
        sodium.crypto_sign_detached(sig, m, sk)
        SodiumNative.crypto_sign_detached(sig2, Buffer.from(m), sk2)
        assert.strictEqual(toHex(sig), sig2.toString('hex'))
        assert.strictEqual(toHex(sig), nodeSign(m, seed).toString('hex'))
        assert.strictEqual(sodium.crypto_sign_verify_detached(sig, m, pk), true)
      }
    })

    it('verify answers as sodium-native 5.1.0 (and node:crypto where libsodium\'s extra rules do not apply) on valid, tampered, non-canonical and small-order inputs', () => {
      const small = ['0100000000000000000000000000000000000000000000000000000000000000',
        'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
        '0000000000000000000000000000000000000000000000000000000000000080',
        '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05',
        'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa',
        'eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f'].map(hex) // the last: y = p + 1
      const L = hex('edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010')
      const sn = (sig, m, pk) => SodiumNative.crypto_sign_verify_detached(Buffer.from(sig), Buffer.from(m), Buffer.from(pk))
      const nodeVerify = (sig, m, pk) => crypto.verify(null, m, crypto.createPublicKey({
        key: Buffer.concat([hex('302a300506032b6570032100'), pk]), format: 'der', type: 'spki' }), sig)
      let accepted = 0
      let cases = 0
      for (let i = 0; i < (CHILD ? 60 : 300); i++) {
        const [pk, sk, sig] = [new Uint8Array(32), new Uint8Array(64), new Uint8Array(64)]
        sodium.crypto_sign_seed_keypair(pk, sk, random(32))
        const m = random(i % 40)
        sodium.crypto_sign_detached(sig, m, sk)
        const flip = (a, bit) => { const b = Uint8Array.from(a); b[bit >> 3] ^= 1 << (bit & 7); return b }
        const withS = (add) => { // s + L: the same equation, non-canonical
          const b = Uint8Array.from(sig)
          let c = 0
          for (let k = 0; k < 32; k++) { c += b[32 + k] + (add ? L[k] : 0); b[32 + k] = c & 255; c >>= 8 }
          return b
        }
        const both = [[sig, m, pk], [flip(sig, i % 512), m, pk], [sig, m, flip(pk, (i * 7) % 256)]]
        if (m.length) both.push([sig, flip(m, (i * 5) % (8 * m.length)), pk])
        const sodiumOnly = [[withS(true), m, pk], [Uint8Array.from([...small[i % small.length], ...sig.subarray(32)]), m, pk],
          [sig, m, small[(i >> 1) % small.length]], [random(64), m, pk]]
        for (const [g, mm, k] of both) {
          const got = sodium.crypto_sign_verify_detached(g, mm, k)
          assert.strictEqual(got, sn(g, mm, k), `verify ${toHex(g)} ${toHex(mm)} ${toHex(k)}`)
          assert.strictEqual(got, nodeVerify(g, mm, k), `node:crypto ${toHex(g)} ${toHex(mm)} ${toHex(k)}`)
          accepted += got
          cases++
        }
        for (const [g, mm, k] of sodiumOnly) {
          assert.strictEqual(sodium.crypto_sign_verify_detached(g, mm, k), sn(g, mm, k), `verify ${toHex(g)} ${toHex(mm)} ${toHex(k)}`)
          cases++
        }
      }
      assert.ok(accepted > 0 && accepted < cases / 2, `${accepted} of ${cases} accepted`)
    })

    it('crypto_sign_keypair and crypto_box_keypair make pairs the other library accepts', () => {
      for (let i = 0; i < 50; i++) {
        const [pk, sk, pk2] = [new Uint8Array(32), new Uint8Array(64), Buffer.alloc(32)]
        sodium.crypto_sign_keypair(pk, sk)
        SodiumNative.crypto_sign_ed25519_sk_to_pk(pk2, Buffer.from(sk))
        assert.strictEqual(toHex(pk), pk2.toString('hex'))
        const [bpk, bsk, bpk2] = [new Uint8Array(32), new Uint8Array(32), Buffer.alloc(32)]
        sodium.crypto_box_keypair(bpk, bsk)
        SodiumNative.crypto_scalarmult_base(bpk2, Buffer.from(bsk))
        assert.strictEqual(toHex(bpk), bpk2.toString('hex'))
      }
    })
  })
}

const native = backends.find((b) => b.name === 'native')
const addon = path.join(__dirname, '..', 'build', 'Release', 'natrium.node')

describe('ed25519 fixed-base table', () => {
  it('scripts/gen-ed25519-table.js reproduces src/crypto/ed25519_base_table.h', () => {
    const r = spawnNode([path.join(__dirname, '..', 'scripts', 'gen-ed25519-table.js'), '--check'], { encoding: 'utf8' })
    assert.strictEqual(r.status, 0, r.stderr)
  })
})

describe('ed25519 dispatch', function () {
  before(function () {
    if (CHILD || !native) this.skip()
  })

  const files = [__filename, 'sign.test.js', 'core.test.js', 'box.test.js'].map((f) => path.resolve(__dirname, f))
  it('libsodium\'s own fixed-base passes this file, sign, core and box (NATRIUM_ED25519=libsodium, NATRIUM_DISABLE_SIMD=1)', function () {
    if (!hasMulx()) this.skip() // libsodium's already runs by default: the rerun would repeat it
    this.timeout(480000)
    rerunNative(files, { NATRIUM_ED25519: 'libsodium', NATRIUM_ED25519_CHILD: '1' })
    rerunNative([__filename], { NATRIUM_DISABLE_SIMD: '1', NATRIUM_ED25519_CHILD: '1' })
  })

  // gdb's dprintf prints a line each time a function is entered
  const fns = ['nat_ed25519_scalarmult_base_mulx', 'nat_ed25519_p3_tobytes_mulx', 'ge25519_scalarmult_base',
    'ge25519_p3_tobytes', 'nat_x25519_base_mulx', 'crypto_scalarmult_curve25519_ref10_base',
    'nat_ed25519_frombytes_negate_vartime_mulx', 'nat_ed25519_double_scalarmult_vartime_mulx', 'nat_ed25519_tobytes_mulx',
    'ge25519_frombytes_negate_vartime', 'ge25519_double_scalarmult_vartime', 'ge25519_tobytes']
  function traced (env) {
    const script = `const s = require(${JSON.stringify(addon)});
      const pk = new Uint8Array(32), sk = new Uint8Array(64), sig = new Uint8Array(64), q = new Uint8Array(32);
      s.crypto_sign_keypair(pk, sk);
      process.stdout.write('SIGN\\n'); s.crypto_sign_detached(sig, new Uint8Array(10), sk); s.crypto_scalarmult_base(q, sk.subarray(0, 32));
      if (!s.crypto_sign_verify_detached(sig, new Uint8Array(10), pk)) throw new Error('verify');`
    return gdbEntered(fns, script, { env, after: 'SIGN' })
  }

  it('crypto_sign_detached, crypto_scalarmult_base and crypto_sign_verify_detached run ours on x86-64 with BMI2/ADX, libsodium\'s when forced (gdb)', async function () {
    if (process.platform !== 'linux' || process.arch !== 'x64' || !fs.existsSync(addon) ||
        spawnSync('sh', ['-c', 'command -v gdb']).status !== 0) this.skip()
    this.timeout(120000)
    const [auto, libsodium, off] = await Promise.all([traced({}), traced({ NATRIUM_ED25519: 'libsodium' }), traced({ NATRIUM_DISABLE_SIMD: '1' })])
    const sodiumOwn = ['ge25519_scalarmult_base', 'ge25519_p3_tobytes', 'crypto_scalarmult_curve25519_ref10_base',
      'ge25519_frombytes_negate_vartime', 'ge25519_double_scalarmult_vartime', 'ge25519_tobytes']
    assert.deepStrictEqual(auto, hasMulx() ? ['nat_ed25519_scalarmult_base_mulx', 'nat_ed25519_p3_tobytes_mulx', 'nat_x25519_base_mulx',
      'nat_ed25519_frombytes_negate_vartime_mulx', 'nat_ed25519_double_scalarmult_vartime_mulx', 'nat_ed25519_tobytes_mulx'] : sodiumOwn)
    assert.deepStrictEqual(libsodium, sodiumOwn)
    assert.deepStrictEqual(off, sodiumOwn)
  })
})

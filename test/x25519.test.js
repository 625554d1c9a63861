'use strict'
// X25519 in our own C (src/crypto/x25519*.c, fe25519_51.h, fe25519_64.h) behind libsodium's
// crypto_scalarmult_curve25519, which the addon's Linux link --wrap's (src/crypto/x25519_wrap.c),
// so crypto_scalarmult, crypto_box_beforenm and crypto_kx_* run it too. On every backend:
// Wycheproof x25519_test.json, RFC 7748's vectors and iterated function, and random pairs (with
// bit 255 set, non-canonical u in [p, 2^255), small u) against node:crypto's X25519 (OpenSSL),
// crypto_box_beforenm and crypto_kx session keys against the shared secret node:crypto derives.
// Natively this file runs again in child processes with each ladder forced
// (NATRIUM_X25519=portable / mulx / ifma, NATRIUM_DISABLE_SIMD=1) and with libsodium's own code
// (NATRIUM_X25519=libsodium), together with core.test.js and box.test.js; gdb shows which runs.
// The C-level proof (field against a big-integer reference, 10^6 pairs against libsodium,
// valgrind's constant-time check) is test/c/x25519.c.
const assert = require('assert')
const crypto = require('crypto')
const fs = require('fs')
const path = require('path')
const { spawnSync } = require('child_process')
const { backends, hex, toHex, wycheproof, vectors, gdbEntered, rerunNative, cpuFlags, hasMulx } = require('./helpers')

const CHILD = process.env.NATRIUM_X25519_CHILD === '1'
const SPKI_X25519 = hex('302a300506032b656e032100')
const PKCS8_X25519 = hex('302e020100300506032b656e04220420')
const nodePrivate = (raw) => crypto.createPrivateKey({ key: Buffer.concat([PKCS8_X25519, raw]), format: 'der', type: 'pkcs8' })
const nodePublic = (raw) => crypto.createPublicKey({ key: Buffer.concat([SPKI_X25519, raw]), format: 'der', type: 'spki' })
const nodeX25519 = (n, u) => {
  try {
    return toHex(crypto.diffieHellman({ privateKey: nodePrivate(n), publicKey: nodePublic(u) }))
  } catch { return 'refused' } // OpenSSL refuses an all-zero result too
}

// u: random, bit 255 set, in [p, 2^255) (non-canonical, bit 255 either way) or small
function pickU (i) {
  const u = crypto.randomBytes(32)
  switch (i % 8) {
    case 0: u[31] |= 0x80; break
    case 1: u[31] &= 0x7f; break
    case 2: u.fill(0xff, 1); u[0] = 0xed + (u[0] % 19); u[31] = 0x7f | (crypto.randomBytes(1)[0] & 0x80); break
    case 3: u.fill(0, 1); break
    default: break
  }
  return u
}

for (const { name: backend, sodium } of backends) {
  describe(`x25519 [${backend}]`, () => {
    const x25519 = (n, p) => {
      const q = new Uint8Array(32)
      try { sodium.crypto_scalarmult_curve25519(q, n, p) } catch (e) {
        assert.strictEqual(e.message, 'crypto_scalarmult_curve25519 failed')
        assert.ok(q.every((b) => b === 0))
        return 'refused'
      }
      return toHex(q)
    }

    it('Wycheproof x25519_test.json: every case, the all-zero shared secrets refused', () => {
      let n = 0
      for (const t of wycheproof('x25519_test.json')) {
        const got = x25519(hex(t.private), hex(t.public))
        if (/^0+$/.test(t.shared)) assert.strictEqual(got, 'refused', `tcId ${t.tcId}`)
        else assert.strictEqual(got, t.shared, `tcId ${t.tcId} (${t.comment})`)
        n++
      }
      assert.ok(n > 500)
    })

    it('RFC 7748: the two vectors and the iterated function after 1 and 1000 rounds', () => {
      const v = vectors('rfc7748_x25519.json')
      for (const t of v.scalarmult) assert.strictEqual(x25519(hex(t.scalar), hex(t.u)), t.out)
      let k = hex(v.iterated.start)
      let u = hex(v.iterated.start)
      for (let i = 1; i <= 1000; i++) {
        const r = hex(x25519(k, u))
        u = k
        k = r
        if (v.iterated.after[i]) assert.strictEqual(toHex(k), v.iterated.after[i], `after ${i}`)
      }
    })

    it('2000 random (scalar, u) pairs equal node:crypto X25519 (bit 255 set, u >= p, small u)', () => {
      for (let i = 0; i < 2000; i++) {
        const n = crypto.randomBytes(32)
        const u = pickU(i)
        assert.strictEqual(x25519(n, u), nodeX25519(n, u), `n ${n.toString('hex')} u ${u.toString('hex')}`)
      }
    })

    it('crypto_scalarmult, crypto_box_beforenm and crypto_kx_* agree with node:crypto\'s shared secret', () => {
      for (let i = 0; i < 20; i++) {
        const a = crypto.randomBytes(32)
        const b = crypto.randomBytes(32)
        const pa = new Uint8Array(32)
        const pb = new Uint8Array(32)
        sodium.crypto_scalarmult_base(pa, a)
        sodium.crypto_scalarmult_base(pb, b)
        const shared = nodeX25519(a, Buffer.from(pb))
        const q = new Uint8Array(32)
        sodium.crypto_scalarmult(q, a, pb)
        assert.strictEqual(toHex(q), shared)
        // crypto_box_beforenm = HSalsa20(shared, 0)
        const k = new Uint8Array(32)
        sodium.crypto_box_beforenm(k, pb, a)
        const want = new Uint8Array(32)
        sodium.crypto_core_hsalsa20(want, new Uint8Array(16), hex(shared), null)
        assert.strictEqual(toHex(k), toHex(want))
        // crypto_kx: BLAKE2b-512(shared || client_pk || server_pk), split rx | tx
        const rx = new Uint8Array(32)
        const tx = new Uint8Array(32)
        sodium.crypto_kx_client_session_keys(rx, tx, pa, a, pb)
        const h = new Uint8Array(64)
        sodium.crypto_generichash(h, Buffer.concat([hex(shared), pa, pb]))
        assert.strictEqual(toHex(rx), toHex(h.subarray(0, 32)))
        assert.strictEqual(toHex(tx), toHex(h.subarray(32)))
        const srx = new Uint8Array(32)
        const stx = new Uint8Array(32)
        sodium.crypto_kx_server_session_keys(srx, stx, pb, b, pa)
        assert.strictEqual(toHex(srx), toHex(tx))
        assert.strictEqual(toHex(stx), toHex(rx))
      }
    })
  })
}

// Natively: this file, core.test.js and box.test.js once per implementation, and gdb's view of
// which ladder runs.
const native = backends.find((b) => b.name === 'native')
const addon = path.join(__dirname, '..', 'build', 'Release', 'natrium.node')
const hasIfma = () => hasMulx() && ['avx512f', 'avx512vl', 'avx512ifma'].every((f) => cpuFlags().has(f))

describe('x25519 dispatch', function () {
  before(function () {
    if (CHILD || !native) this.skip()
  })

  const child = (env) => rerunNative([__filename, path.join(__dirname, 'core.test.js'), path.join(__dirname, 'box.test.js')], { ...env, NATRIUM_X25519_CHILD: '1' })

  it('libsodium\'s own X25519 passes these files (NATRIUM_X25519=libsodium)', function () {
    this.timeout(240000)
    child({ NATRIUM_X25519: 'libsodium' })
  })

  it('the portable ladder passes them (NATRIUM_X25519=portable, and NATRIUM_DISABLE_SIMD=1)', function () {
    if (process.arch !== 'x64') this.skip() // the portable ladder already runs by default
    this.timeout(240000)
    child({ NATRIUM_X25519: 'portable' })
    child({ NATRIUM_DISABLE_SIMD: '1' })
  })

  it('the MULX/ADX ladder passes them (NATRIUM_X25519=mulx)', function () {
    if (!hasMulx()) this.skip()
    this.timeout(240000)
    child({ NATRIUM_X25519: 'mulx' })
  })

  it('the four-lane AVX-512 IFMA ladder passes them (NATRIUM_X25519=ifma)', function () {
    if (!hasIfma()) this.skip()
    this.timeout(240000)
    child({ NATRIUM_X25519: 'ifma' })
  })

  // gdb's dprintf prints a line each time a function is entered: a crypto_box_beforenm runs
  // libsodium's ladder or one of ours.
  const fns = ['crypto_scalarmult_curve25519_sandy2x', 'crypto_scalarmult_curve25519_ref10',
    'nat_x25519_portable_ladder', 'nat_x25519_mulx_ladder', 'nat_x25519_ifma_ladder']
  function traced (env) {
    const script = `const s = require(${JSON.stringify(addon)});
      const pk = new Uint8Array(32), sk = new Uint8Array(32), k = new Uint8Array(32);
      s.crypto_box_keypair(pk, sk);
      process.stdout.write('BEFORENM\\n'); s.crypto_box_beforenm(k, pk, sk);`
    return gdbEntered(fns, script, { env, after: 'BEFORENM' })
  }

  it('each forced implementation is the one crypto_box_beforenm runs; unforced, the faster (timed at load) of our IFMA and MULX ladders where the CPU has AVX-512 IFMA, our MULX ladder on x86-64 with BMI2 and ADX, else libsodium\'s AVX one (gdb)', async function () {
    if (process.platform !== 'linux' || process.arch !== 'x64' || !fs.existsSync(addon) ||
        spawnSync('sh', ['-c', 'command -v gdb']).status !== 0) this.skip()
    this.timeout(120000)
    const avx = cpuFlags().has('avx')
    const [auto, portable, off, libsodium, mulx, ifma] = await Promise.all([traced({}), traced({ NATRIUM_X25519: 'portable' }),
      traced({ NATRIUM_DISABLE_SIMD: '1' }), traced({ NATRIUM_X25519: 'libsodium' }), traced({ NATRIUM_X25519: 'mulx' }),
      traced({ NATRIUM_X25519: 'ifma' })])
    const sodiumOwn = [avx ? 'crypto_scalarmult_curve25519_sandy2x' : 'crypto_scalarmult_curve25519_ref10']
    const ours = hasMulx() ? ['nat_x25519_mulx_ladder'] : ['nat_x25519_portable_ladder']
    if (hasIfma()) {
      assert.ok(['nat_x25519_mulx_ladder', 'nat_x25519_ifma_ladder'].includes(auto.join()), `unforced: ${auto}`)
    } else {
      assert.deepStrictEqual(auto, hasMulx() ? ours : avx ? sodiumOwn : ours)
    }
    assert.deepStrictEqual(portable, ['nat_x25519_portable_ladder'])
    assert.deepStrictEqual(off, ['nat_x25519_portable_ladder'])
    assert.deepStrictEqual(libsodium, sodiumOwn)
    assert.deepStrictEqual(mulx, ours)
    assert.deepStrictEqual(ifma, hasIfma() ? ['nat_x25519_ifma_ladder'] : ours)
  })

})

'use strict'
// scrypt on our own core (src/crypto/scrypt*.c): libsodium's crypto_pwhash_scryptsalsa208sha256,
// _str, _str_verify and _ll keep their parameter logic and refusals, and their escrypt core is
// linked to ours (--wrap, src/crypto/scrypt.h) on both backends; scalar C in wasm, natively the
// fastest of scalar C, SSE2 and AVX-512VL timed at load. Natively this file runs again once per
// ROMix (NATRIUM_SCRYPT_IMPL=portable / sse2 / avx512vl, NATRIUM_DISABLE_SIMD=1). References:
// RFC 7914 section 12 (N = 2^20 natively), node:crypto's scryptSync (OpenSSL), scrypt-js (an
// independent JavaScript scrypt) and libsodium-wrappers-sumo (libsodium's own escrypt, wasm) on
// random passwords, salts and lengths at N 2..2^16, r 1..16, p 1..3; the _async variants several
// at a time on libuv's pool; an allocation that fails. libsodium's own pwhash_scrypt vectors are
// in test/pwhash.test.js.
const assert = require('assert')
const crypto = require('crypto')
const fs = require('fs')
const path = require('path')
const scryptJs = require('scrypt-js')
const wrappers = require('libsodium-wrappers-sumo')
const { backends, toHex, random, rerunNative } = require('./helpers')

const CHILD = process.env.NATRIUM_SCRYPT_CHILD === '1'
const S = 'crypto_pwhash_scryptsalsa208sha256'
const text = (s) => new Uint8Array(Buffer.from(s))
const node = (pw, salt, N, r, p, len) =>
  toHex(crypto.scryptSync(pw, salt, len, { N, r, p, maxmem: 256 * N * r * p + (64 << 20) }))

before(async () => { await wrappers.ready })

// RFC 7914 section 12
const RFC = [
  ['', '', 16, 1, 1, '77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906'],
  ['password', 'NaCl', 1024, 8, 16, 'fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640'],
  ['pleaseletmein', 'SodiumChloride', 16384, 8, 1, '7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2d5432955613f0fcf62d49705242a9af9e61e85dc0d651e40dfcf017b45575887'],
  ['pleaseletmein', 'SodiumChloride', 1048576, 8, 1, '2101cb9b6a511aaeaddbbe09cf70f881ec568d574a2ffd4dabe5ee9820adaa478e56fd8f4ba5d09ffa1c6d927c40f4c337304049e8a952fbcbf45c6fa77a41a4']
]

for (const { name: backend, sodium } of backends) {
  describe(`scrypt-fast: ${S} [${backend}]`, () => {
    const ll = (pw, salt, N, r, p, len) => {
      const out = new Uint8Array(len)
      sodium[`${S}_ll`](out, pw, salt, N, r, p)
      return toHex(out)
    }

    // N = 2^20 (1 GiB, ~10 s here) only with NATRIUM_TEST_SCRYPT_1GIB=1, natively
    it('RFC 7914 section 12', function () {
      this.timeout(120000)
      for (const [P, salt, N, r, p, dk] of RFC) {
        if (N === 1048576 && (backend !== 'native' || CHILD || !process.env.NATRIUM_TEST_SCRYPT_1GIB)) continue
        assert.strictEqual(ll(text(P), text(salt), N, r, p, 64), dk, `N=${N} r=${r} p=${p}`)
      }
    })

    it('random passwords, salts and lengths, N 2..2^16, r 1..16, p 1..3: node:crypto, scrypt-js and libsodium-wrappers-sumo', function () {
      this.timeout(240000)
      let budget = CHILD ? 1 << 17 : 1 << 19 // sum of N * r * p
      const cases = [[2, 1, 1], [4, 16, 3], [1 << 16, 8, 1], [1 << 10, 16, 3]]
      if (!CHILD) cases.push([1 << 16, 1, 1])
      while (budget > 0) {
        const N = 2 ** (1 + crypto.randomInt(16)), r = 1 + crypto.randomInt(16), p = 1 + crypto.randomInt(3)
        if (N * r * p > (1 << 16)) continue
        cases.push([N, r, p])
        budget -= N * r * p
      }
      let k = 0
      for (const [N, r, p] of cases) {
        const pw = random(crypto.randomInt(130)), salt = random(crypto.randomInt(130))
        const len = 1 + crypto.randomInt(140)
        const got = ll(pw, salt, N, r, p, len)
        // OpenSSL refuses N >= 2^(16 r)
        if (N < 2 ** (16 * r)) assert.strictEqual(got, node(pw, salt, N, r, p, len), `N=${N} r=${r} p=${p} node:crypto`)
        if (N * r * p <= 1 << 12 || N >= 2 ** (16 * r)) {
          assert.strictEqual(got, toHex(scryptJs.syncScrypt(pw, salt, N, r, p, len)), `N=${N} r=${r} p=${p} scrypt-js`)
          assert.strictEqual(got, toHex(wrappers[`${S}_ll`](pw, salt, N, r, p, len)), `N=${N} r=${r} p=${p} libsodium`)
        }
        // misaligned output, password and salt views
        if (k++ % 4 === 0) {
          const o = new Uint8Array(len + 3), a = new Uint8Array(pw.length + 1), b = new Uint8Array(salt.length + 5)
          a.set(pw, 1), b.set(salt, 5)
          sodium[`${S}_ll`](o.subarray(3), a.subarray(1), b.subarray(5), N, r, p)
          assert.strictEqual(toHex(o.subarray(3)), got, 'misaligned')
        }
      }
    })

    it('_str and _str_verify: strings libsodium-wrappers-sumo accepts, and its strings verify here', function () {
      if (CHILD) this.skip() // the children test the ROMix
      this.timeout(60000)
      const STR = sodium[`${S}_STRBYTES`]
      const ops = sodium[`${S}_OPSLIMIT_INTERACTIVE`], mem = sodium[`${S}_MEMLIMIT_INTERACTIVE`]
      const pw = 'correct horse ' + crypto.randomInt(1e9)
      const out = new Uint8Array(STR)
      sodium[`${S}_str`](out, text(pw), ops, mem)
      const str = Buffer.from(out).toString('latin1').replace(/\0+$/, '')
      assert.match(str, /^\$7\$/)
      assert.strictEqual(wrappers[`${S}_str_verify`](str, pw), true)
      assert.strictEqual(wrappers[`${S}_str_verify`](str, pw + '!'), false)
      const theirs = new Uint8Array(STR)
      theirs.set(Buffer.from(wrappers[`${S}_str`](pw, ops, mem), 'latin1'))
      assert.strictEqual(sodium[`${S}_str_verify`](theirs, text(pw)), true)
      assert.strictEqual(sodium[`${S}_str_verify`](theirs, text(pw + '!')), false)
    })

    it('the opslimit/memlimit API equals libsodium-wrappers-sumo', function () {
      if (CHILD) this.skip()
      const salt = random(sodium[`${S}_SALTBYTES`]), pw = random(20)
      for (const [ops, mem] of [[32768, 16 << 20], [524288, 16 << 20], [1 << 20, 1 << 24]]) {
        const out = new Uint8Array(40)
        sodium[S](out, pw, salt, ops, mem)
        assert.strictEqual(toHex(out), toHex(wrappers[S](40, pw, salt, ops, mem)), `ops ${ops} mem ${mem}`)
      }
    })

    it('_async: eight hashes at once give the synchronous answers', async function () {
      if (CHILD) this.skip()
      this.timeout(120000)
      const ops = sodium[`${S}_OPSLIMIT_MIN`], mem = sodium[`${S}_MEMLIMIT_MIN`]
      const jobs = Array.from({ length: 8 }, (_, i) => ({ pw: random(10 + i), salt: random(32), out: new Uint8Array(32 + i) }))
      await Promise.all(jobs.map((j) => sodium[`${S}_async`](j.out, j.pw, j.salt, ops, mem)))
      for (const j of jobs) {
        const want = new Uint8Array(j.out.length)
        sodium[S](want, j.pw, j.salt, ops, mem)
        assert.strictEqual(toHex(j.out), toHex(want))
        assert.strictEqual(toHex(want), toHex(wrappers[S](want.length, j.pw, j.salt, ops, mem)))
      }
      const STR = sodium[`${S}_STRBYTES`]
      const strs = Array.from({ length: 4 }, () => new Uint8Array(STR))
      await Promise.all(strs.map((s, i) => sodium[`${S}_str_async`](s, text('pw' + i), ops, mem)))
      const ok = await Promise.all(strs.map((s, i) => sodium[`${S}_str_verify_async`](s, text('pw' + i))))
      assert.deepStrictEqual(ok, [true, true, true, true])
      const bad = await Promise.all(strs.map((s, i) => sodium[`${S}_str_verify_async`](s, text('pw' + (i + 1)))))
      assert.deepStrictEqual(bad, [false, false, false, false])
    })

    it('refuses what libsodium refuses, and an allocation that fails, the output zeroed', () => {
      const call = (N, r, p) => {
        const out = new Uint8Array(32).fill(0x5a)
        assert.throws(() => sodium[`${S}_ll`](out, text('pw'), text('salt'), N, r, p),
          (e) => e.message === `${S}_ll failed`, `N=${N} r=${r} p=${p}`)
        assert.ok(out.every((b) => b === 0), 'output not zeroed')
      }
      for (const [N, r, p] of [[0, 1, 1], [1, 1, 1], [3, 1, 1], [16, 0, 1], [16, 1, 0], [16, 2 ** 15, 2 ** 15], [2 ** 32, 1, 1]]) call(N, r, p)
      // 2 TiB natively (the mapping fails), more than wasm32's address space in wasm
      call(2 ** 31, 8, 1)
      assert.strictEqual(ll(text('pw'), text('salt'), 16, 1, 1, 16), node(text('pw'), text('salt'), 16, 1, 1, 16))
    })
  })
}

describe('scrypt-fast: every native ROMix', () => {
  const native = backends.find((b) => b.name === 'native')
  const cpuFlags = () => new Set((fs.readFileSync('/proc/cpuinfo', 'utf8').match(/^flags\s*:(.*)$/m) || ['', ''])[1].trim().split(/\s+/))

  before(function () {
    if (CHILD || !native || process.arch !== 'x64' || process.platform !== 'linux') this.skip()
  })

  const child = (env) => rerunNative([__filename], { ...env, NATRIUM_SCRYPT_CHILD: '1' })

  it('the portable ROMix passes this file (NATRIUM_SCRYPT_IMPL=portable, and NATRIUM_DISABLE_SIMD=1)', function () {
    this.timeout(480000)
    child({ NATRIUM_SCRYPT_IMPL: 'portable' })
    child({ NATRIUM_DISABLE_SIMD: '1' })
  })

  it('the SSE2 ROMix passes this file (NATRIUM_SCRYPT_IMPL=sse2)', function () {
    this.timeout(240000)
    child({ NATRIUM_SCRYPT_IMPL: 'sse2' })
  })

  it('the AVX-512VL ROMix passes this file (NATRIUM_SCRYPT_IMPL=avx512vl)', function () {
    const f = cpuFlags()
    if (!f.has('avx512f') || !f.has('avx512vl')) this.skip()
    this.timeout(240000)
    child({ NATRIUM_SCRYPT_IMPL: 'avx512vl' })
  })

  it('the addon links libsodium\'s scrypt to our core (--wrap): escrypt_kdf_sse and _nosse are gone', function () {
    const addon = require('../lib/loader').load('native').file
    if (!addon || !fs.existsSync(addon)) this.skip()
    const r = require('child_process').spawnSync('nm', [addon], { encoding: 'utf8', maxBuffer: 64 << 20 })
    if (r.error || r.status !== 0 || !/ nat_scrypt$/m.test(r.stdout)) this.skip() // no nm, or stripped
    assert.match(r.stdout, / __wrap_escrypt_kdf_sse$/m)
    assert.doesNotMatch(r.stdout, / escrypt_kdf_(sse|nosse)$/m)
  })
})

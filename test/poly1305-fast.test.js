'use strict'
// crypto_onetimeauth* (Poly1305): both backends run our own code (src/crypto/poly1305*.c: natively
// AVX-512 IFMA, AVX2 or 64-bit C by CPUID; in wasm SIMD128 from 256 bytes, 26-bit C below), and
// must give libsodium's tags. Natively the file runs again once per implementation
// (NATRIUM_POLY1305_IMPL=portable / portable26 / avx2 / avx512ifma, NATRIUM_DISABLE_SIMD=1), and
// gdb shows which one ran.
// References: libsodium itself (sodium-native 5.1.0 natively built, libsodium-wrappers-sumo's
// wasm), @noble/ciphers' poly1305 (independent), and a BigInt Poly1305 here (RFC 8439 section
// 2.5.1 read literally) for the crafted edge cases. RFC 8439 section 2.5.2 and appendix A.3
// vectors; every message length 0..2100 (the vector kernels start at 256 and 512 bytes) and
// around 1 MiB, misaligned; one byte at a time and random splits; the carry edges: r with every
// bit clamping allows, s = 2^128 - 1, and with r = 1 blocks that sum to p - 3 .. p + 3 before the
// final reduction, in every lane.
const assert = require('assert')
const crypto = require('crypto')
const fs = require('fs')
const path = require('path')
const { spawnSync } = require('child_process')
const SodiumNative = require('sodium-native')
const wrappers = require('libsodium-wrappers-sumo')
const { backends, hex, toHex, random, vectors, gdbEntered, rerunNative, cpuFlags } = require('./helpers')

const CHILD = process.env.NATRIUM_POLY1305_CHILD === '1'

let noble // @noble/ciphers is ESM only
before(async () => {
  noble = (await import('@noble/ciphers/_poly1305.js')).poly1305
  await wrappers.ready
})

// RFC 8439 section 2.5.1, in BigInt.
const P = (1n << 130n) - 5n
function reference (m, key) {
  const le = (b) => b.reduceRight((acc, x) => (acc << 8n) | BigInt(x), 0n)
  const r = le(key.subarray(0, 16)) & 0x0ffffffc0ffffffc0ffffffc0fffffffn
  const s = le(key.subarray(16, 32))
  let a = 0n
  for (let i = 0; i < m.length; i += 16) {
    const block = m.subarray(i, i + 16)
    a = ((a + le(block) + (1n << BigInt(8 * block.length))) * r) % P
  }
  const t = (a + s) & ((1n << 128n) - 1n)
  return Buffer.from(Array.from({ length: 16 }, (_, i) => Number((t >> BigInt(8 * i)) & 0xffn))).toString('hex')
}

const libsodium = (m, key) => {
  const out = Buffer.alloc(16)
  SodiumNative.crypto_onetimeauth(out, m, key)
  return toHex(out)
}

// r = 1, s = 2^128 - 1, n blocks whose values (2^128 + m_i) sum to k p + d, k = n / 4 + 1:
// sum m_i = F (2^128 - 1) + (F - 5k + d) with F = 4k - n all-ones blocks last, the first of them
// lowered (test/c/poly1305.c builds the same).
function carryEdges () {
  const key = new Uint8Array(32)
  key[0] = 1
  key.fill(0xff, 16)
  const out = []
  for (let n = 1; n <= 160; n += n < 40 ? 1 : 17) {
    for (let d = -3; d <= 3; d++) {
      const k = Math.floor(n / 4) + 1
      const f = 4 * k - n
      const fix = f - 5 * k + d
      if (f > n || fix > 0) continue
      const m = new Uint8Array(16 * n)
      m.fill(0xff, 16 * (n - f))
      m[16 * (n - f)] = 0xff + fix
      out.push({ m, key, where: `r = 1: ${n} blocks sum to ${k} p ${d >= 0 ? '+' : ''}${d}` })
    }
  }
  return out
}

for (const { name: backend, sodium } of backends) {
  describe(`poly1305-fast: crypto_onetimeauth [${backend}]`, () => {
    const oneShot = (m, key) => {
      const out = new Uint8Array(16)
      sodium.crypto_onetimeauth(out, m, key)
      return toHex(out)
    }
    const stream = (chunks, key) => {
      const st = new Uint8Array(sodium.crypto_onetimeauth_STATEBYTES)
      sodium.crypto_onetimeauth_init(st, key)
      for (const c of chunks) sodium.crypto_onetimeauth_update(st, c)
      const out = new Uint8Array(16)
      sodium.crypto_onetimeauth_final(st, out)
      return toHex(out)
    }

    it('RFC 8439 section 2.5.2 and appendix A.3 #1-#11: one-shot, streamed, byte by byte, verify', () => {
      const tests = vectors('rfc8439_poly1305.json').tests
      assert.strictEqual(tests.length, 12)
      for (const t of tests) {
        const [m, key] = [hex(t.message), hex(t.key)]
        assert.strictEqual(reference(m, key), t.tag, t.vector)
        assert.strictEqual(oneShot(m, key), t.tag, t.vector)
        assert.strictEqual(stream([m.subarray(0, 17), m.subarray(17)], key), t.tag, t.vector)
        assert.strictEqual(stream(Array.from(m, (_, i) => m.subarray(i, i + 1)), key), t.tag, t.vector)
        assert.strictEqual(sodium.crypto_onetimeauth_verify(hex(t.tag), m, key), true, t.vector)
      }
    })

    it('every message length 0..2100, random keys, misaligned: libsodium (both builds) and noble', function () {
      this.timeout(60000)
      const pool = random(2200)
      for (let n = 0; n <= 2100; n++) {
        const m = pool.subarray(n % 13, (n % 13) + n)
        const key = random(32)
        const expected = libsodium(m, key)
        assert.strictEqual(toHex(wrappers.crypto_onetimeauth(m, key)), expected, `mlen ${n}`)
        assert.strictEqual(toHex(noble(m, key)), expected, `noble, mlen ${n}`)
        assert.strictEqual(oneShot(m, key), expected, `mlen ${n}`)
        const cut = crypto.randomInt(0, n + 1)
        assert.strictEqual(stream([m.subarray(0, cut), m.subarray(cut)], key), expected, `mlen ${n} cut ${cut}`)
      }
    })

    it('long messages around 1 MiB and 64 KiB, one-shot and in uneven chunks: libsodium', function () {
      this.timeout(60000)
      const pool = random((1 << 20) + 600)
      for (const n of [(1 << 16) - 1, 1 << 16, (1 << 16) + 129, (1 << 20) - 129, 1 << 20, (1 << 20) + 1, (1 << 20) + 511]) {
        const m = pool.subarray(n % 7, (n % 7) + n)
        const key = random(32)
        const expected = libsodium(m, key)
        assert.strictEqual(oneShot(m, key), expected, `mlen ${n}`)
        const chunks = []
        for (let at = 0; at < n;) {
          const len = Math.min(n - at, [1, 15, 255, 513, 4096, 100003][chunks.length % 6])
          chunks.push(m.subarray(at, at + len))
          at += len
        }
        assert.strictEqual(stream(chunks, key), expected, `chunked mlen ${n}`)
      }
    })

    it('arbitrary chunkings: one byte at a time, and random splits at block and vector edges', function () {
      this.timeout(60000)
      const edges = [0, 1, 15, 16, 17, 255, 256, 257, 511, 512, 513, 1024]
      for (let n = 0; n <= 700; n += 1 + (n >> 5)) {
        const [m, key] = [random(n), random(32)]
        assert.strictEqual(stream(Array.from(m, (_, i) => m.subarray(i, i + 1)), key), libsodium(m, key), `bytewise ${n}`)
      }
      for (let trial = 0; trial < 200; trial++) {
        const n = crypto.randomInt(0, 4000)
        const [m, key] = [random(n), random(32)]
        const chunks = []
        for (let at = 0; at < n;) {
          const len = Math.min(n - at, crypto.randomInt(2) ? edges[crypto.randomInt(edges.length)] : crypto.randomInt(1200))
          chunks.push(m.subarray(at, at + len))
          at += len
        }
        assert.strictEqual(stream(chunks, key), libsodium(m, key), `${n} bytes in ${chunks.map((c) => c.length)}`)
      }
    })

    it('the carry edges: largest r and s, all-ones messages; sums at p - 3 .. p + 3 (and 2p, 3p, ...)', () => {
      const key = new Uint8Array(32).fill(0xff)
      const ones = new Uint8Array(2100).fill(0xff)
      for (let n = 0; n <= 2100; n += 1 + (n % 7)) {
        const m = ones.subarray(0, n)
        const expected = reference(m, key)
        assert.strictEqual(libsodium(m, key), expected, `r, s max, mlen ${n}`)
        assert.strictEqual(oneShot(m, key), expected, `r, s max, mlen ${n}`)
      }
      for (const { m, key, where } of carryEdges()) {
        const expected = reference(m, key)
        assert.strictEqual(libsodium(m, key), expected, where)
        assert.strictEqual(oneShot(m, key), expected, where)
        assert.strictEqual(stream([m.subarray(0, 16), m.subarray(16)], key), expected, where)
      }
    })
  })
}

// Natively: the whole file once per implementation, and gdb's view of which one runs.
const native = backends.find((b) => b.name === 'native')
const addon = path.join(__dirname, '..', 'build', 'Release', 'natrium.node')
const x64 = process.platform === 'linux' && process.arch === 'x64'
const hasIfma = () => ['avx512f', 'avx512ifma', 'avx512vl'].every((f) => cpuFlags().has(f))

describe('poly1305-fast dispatch', function () {
  before(function () {
    if (CHILD || !native) this.skip()
  })

  const child = (env) => rerunNative([__filename], { ...env, NATRIUM_POLY1305_CHILD: '1' })

  it('the portable C passes this file (NATRIUM_POLY1305_IMPL=portable and portable26, NATRIUM_DISABLE_SIMD=1)', function () {
    this.timeout(480000)
    child({ NATRIUM_POLY1305_IMPL: 'portable' })
    child({ NATRIUM_POLY1305_IMPL: 'portable26' })
    child({ NATRIUM_DISABLE_SIMD: '1' })
  })

  it('the AVX2 kernel passes this file (NATRIUM_POLY1305_IMPL=avx2)', function () {
    if (!x64 || !cpuFlags().has('avx2')) this.skip()
    this.timeout(240000)
    child({ NATRIUM_POLY1305_IMPL: 'avx2' })
  })

  it('the AVX-512 IFMA kernel passes this file (NATRIUM_POLY1305_IMPL=avx512ifma)', function () {
    if (!x64 || !hasIfma()) this.skip()
    this.timeout(240000)
    child({ NATRIUM_POLY1305_IMPL: 'avx512ifma' })
  })

  // gdb's dprintf prints a line each time a function is entered: a 4 KB tag enters the chosen
  // kernel (and the AVX-512 IFMA one, for its tail, the AVX2 one).
  const KERNELS = ['nat_poly1305_blocks_avx512ifma', 'nat_poly1305_blocks_avx2', 'nat_poly1305_blocks_portable64',
    'nat_poly1305_blocks_portable26']
  function traced (env) {
    const script = `const s = require(${JSON.stringify(addon)});
      process.stdout.write('HASHING\\n'); s.crypto_onetimeauth(new Uint8Array(16), new Uint8Array(4096 + 48), new Uint8Array(32));`
    return gdbEntered(KERNELS, script, { env, after: 'HASHING' }).then((hit) => hit[0])
  }

  it('each forced implementation is the one that runs, and unforced the best this CPU has (gdb)', async function () {
    if (!x64 || !fs.existsSync(addon) || spawnSync('sh', ['-c', 'command -v gdb']).status !== 0) this.skip()
    this.timeout(120000)
    const best = hasIfma() ? KERNELS[0] : cpuFlags().has('avx2') ? KERNELS[1] : KERNELS[2]
    const runs = await Promise.all([{}, { NATRIUM_POLY1305_IMPL: 'portable' }, { NATRIUM_POLY1305_IMPL: 'portable26' },
      { NATRIUM_DISABLE_SIMD: '1' }, { NATRIUM_POLY1305_IMPL: 'avx2' }, { NATRIUM_POLY1305_IMPL: 'avx512ifma' }].map(traced))
    assert.deepStrictEqual(runs, [best, KERNELS[2], KERNELS[3], KERNELS[2],
      cpuFlags().has('avx2') ? KERNELS[1] : KERNELS[2], hasIfma() ? KERNELS[0] : KERNELS[2]])
  })
})

'use strict'
// crypto_generichash* (BLAKE2b): both backends run our own code (src/crypto/blake2b*.c, whole
// blocks hashed straight from the input; scalar C in wasm, natively AVX2 or scalar C, whichever
// the CPU runs faster, timed at load); both must give libsodium's bytes and leave
// libsodium's state bytes. Natively the file runs again once per compression function
// (NATRIUM_BLAKE2B_IMPL=portable / avx2, NATRIUM_DISABLE_SIMD=1), and gdb shows which one ran. References: libsodium itself
// (sodium-native 5.1.0, native; libsodium-wrappers-sumo, wasm) and @noble/hashes' BLAKE2b (an
// independent implementation with salt and personalization). Every output length 1..64 x key
// length 0..64; every message length 0..1100 and around 1 MiB; salt and personal present or
// absent; streaming in uneven chunks with the state compared byte for byte after every call;
// final at every buffered length; states handed back and forth with libsodium mid-stream; the
// last-node flag. libsodium's own vectors are in test/hash.test.js.
const assert = require('assert')
const crypto = require('crypto')
const SodiumNative = require('sodium-native')
const wrappers = require('libsodium-wrappers-sumo')
const fs = require('fs')
const path = require('path')
const { spawnSync } = require('child_process')
const { backends, toHex, random, gdbEntered, rerunNative, cpuFlags } = require('./helpers')

const CHILD = process.env.NATRIUM_BLAKE2B_CHILD === '1'

const STATEBYTES = 384
// blake2b_state (libsodium's blake2.h, packed): h[8], t[2], f[2] (uint64), buf[256], size_t
// buflen, uint8_t last_node. In a caller's buffer size_t is 8 bytes on every backend (the wasm
// build converts its 4-byte one: src/hash.c).
const BUFLEN_AT = 352
// Lengths at and around the 128-byte block and the 256-byte buffer.
const EDGES = [0, 1, 2, 63, 64, 65, 127, 128, 129, 191, 255, 256, 257, 383, 384, 385, 511, 512, 513, 1000]

let blake2b // @noble/hashes is ESM only
before(async () => {
  blake2b = (await import('@noble/hashes/blake2.js')).blake2b
  await wrappers.ready
})

// noble's options from ours (null or empty = absent, as in libsodium).
function noble (m, outlen, key, salt, personal) {
  const opts = { dkLen: outlen }
  if (key && key.length) opts.key = key
  if (salt) opts.salt = salt
  if (personal) opts.personalization = personal
  return toHex(blake2b(m, opts))
}

// On wasm the file's tests run once per compression function, forced (the build times the two
// after 4096 blocks and keeps the faster: src/crypto/blake2b_dispatch.c); natively the child
// runs below do that.
const runs = []
for (const b of backends) {
  if (b.name === 'wasm') for (const kernel of ['portable', 'simd128']) runs.push({ ...b, kernel })
  else runs.push({ ...b, kernel: null })
}

for (const { name: backend, sodium, raw, kernel } of runs) {
  describe(`blake2b-fast: crypto_generichash [${backend}${kernel ? ', ' + kernel : ''}]`, () => {
    if (kernel) {
      before(() => assert.strictEqual(raw.natrium_wasm_blake2b_kernel(kernel), kernel))
      after(() => raw.natrium_wasm_blake2b_kernel('timed'))
    }
    const word = 8
    const stream = (chunks, { key = null, outlen, salt, personal }) => {
      const st = new Uint8Array(STATEBYTES)
      if (salt !== undefined) sodium.crypto_generichash_blake2b_init_salt_personal(st, key, outlen, salt, personal)
      else sodium.crypto_generichash_init(st, key, outlen)
      for (const c of chunks) sodium.crypto_generichash_update(st, c)
      const out = new Uint8Array(outlen)
      sodium.crypto_generichash_final(st, out)
      return toHex(out)
    }

    it('every output length 1..64 x key length 0..64 (and null), one-shot and streaming: libsodium-wrappers-sumo and noble', function () {
      this.timeout(60000)
      let i = 0
      for (let outlen = 1; outlen <= 64; outlen++) {
        for (let keylen = -1; keylen <= 64; keylen++) {
          const m = random(EDGES[i++ % EDGES.length])
          const key = keylen < 0 ? null : random(keylen)
          const where = `outlen ${outlen} keylen ${keylen} mlen ${m.length}`
          const expected = toHex(wrappers.crypto_generichash(outlen, m, key))
          assert.strictEqual(noble(m, outlen, key), expected, where)
          const out = new Uint8Array(outlen)
          sodium.crypto_generichash_blake2b(out, m, key)
          assert.strictEqual(toHex(out), expected, where)
          if (outlen >= 16 && (key === null || key.length >= 16)) {
            out.fill(0)
            sodium.crypto_generichash(out, m, key)
            assert.strictEqual(toHex(out), expected, `crypto_generichash ${where}`)
          }
          const cut = crypto.randomInt(0, m.length + 1)
          assert.strictEqual(stream([m.subarray(0, cut), m.subarray(cut)], { key, outlen }), expected, `streaming ${where}`)
        }
      }
    })

    it('every message length 0..1100 and lengths around 1 MiB, keyed and not: libsodium (sodium-native), and node:crypto\'s blake2b512', function () {
      this.timeout(60000)
      const pool = random((1 << 20) + 300)
      const lengths = Array.from({ length: 1101 }, (_, n) => n)
        .concat([(1 << 20) - 129, (1 << 20) - 1, 1 << 20, (1 << 20) + 1, (1 << 20) + 128, (1 << 20) + 129, (1 << 20) + 257])
      for (const n of lengths) {
        const m = pool.subarray(n % 7, (n % 7) + n)
        for (const key of [null, pool.subarray(n % 50, (n % 50) + 16 + (n % 49))]) {
          const [ours, ref] = [new Uint8Array(64), Buffer.alloc(64)]
          sodium.crypto_generichash(ours, m, key)
          SodiumNative.crypto_generichash(ref, m, key)
          assert.strictEqual(toHex(ours), toHex(ref), `mlen ${n} key ${key && key.length}`)
          // unkeyed BLAKE2b-512 is also OpenSSL's (node:crypto), an independent implementation
          if (key === null) assert.strictEqual(toHex(ours), crypto.createHash('blake2b512').update(m).digest('hex'), `node:crypto, mlen ${n}`)
        }
      }
    })

    it('salt and personal (each present or absent), keyed or not, one-shot and streaming: noble', () => {
      for (const mlen of EDGES) {
        for (const keylen of [0, 1, 16, 64]) {
          for (const [salt, personal] of [[null, null], [random(16), null], [null, random(16)], [random(16), random(16)]]) {
            const outlen = [1, 16, 32, 64][(mlen + keylen) % 4]
            const [m, key] = [random(mlen), keylen ? random(keylen) : null]
            const expected = noble(m, outlen, key, salt, personal)
            const where = `mlen ${mlen} keylen ${keylen} salt ${!!salt} personal ${!!personal}`
            const out = new Uint8Array(outlen)
            sodium.crypto_generichash_blake2b_salt_personal(out, m, key, salt, personal)
            assert.strictEqual(toHex(out), expected, where)
            const cut = crypto.randomInt(0, mlen + 1)
            assert.strictEqual(stream([m.subarray(0, cut), m.subarray(cut)], { key, outlen, salt, personal }), expected, `streaming ${where}`)
          }
        }
      }
      // with neither salt nor personal, the same as crypto_generichash_blake2b
      const [m, key] = [random(300), random(20)]
      const [a, b] = [new Uint8Array(40), new Uint8Array(40)]
      sodium.crypto_generichash_blake2b_salt_personal(a, m, key, null, null)
      sodium.crypto_generichash_blake2b(b, m, key)
      assert.strictEqual(toHex(a), toHex(b))
    })

    it('streaming in uneven chunks (0, 1, 127, 128, 129, ... bytes): libsodium\'s state bytes after every call, its output', function () {
      this.timeout(60000)
      const sizes = [0, 1, 2, 63, 64, 65, 127, 128, 129, 130, 255, 256, 257, 383, 384, 385, 1000, 4096]
      const patterns = [
        Array(300).fill(1), [127, 1, 128, 129, 0, 256, 257, 1, 383], [256, 256, 256, 0, 0, 1],
        [129, 129, 129, 129], [128, 128, 128], [255, 2, 255, 2, 4096, 1000, 3]
      ]
      for (let i = 0; i < 60; i++) patterns.push(Array.from({ length: crypto.randomInt(1, 12) }, () => sizes[crypto.randomInt(0, sizes.length)]))
      for (const [p, pattern] of patterns.entries()) {
        const key = [null, random(1), random(16), random(64)][p % 4]
        const outlen = [64, 1, 32, 17][p % 4]
        const [ours, ref] = [new Uint8Array(STATEBYTES), Buffer.alloc(STATEBYTES)]
        sodium.crypto_generichash_init(ours, key, outlen)
        SodiumNative.crypto_generichash_init(ref, key, outlen)
        assert.strictEqual(toHex(ours), toHex(ref), `init, pattern ${p}`)
        for (const [j, n] of pattern.entries()) {
          const c = random(n)
          sodium.crypto_generichash_update(ours, c)
          SodiumNative.crypto_generichash_update(ref, c)
          assert.strictEqual(toHex(ours), toHex(ref), `pattern ${p} after chunk ${j} (${n} bytes)`)
        }
        const [a, b] = [new Uint8Array(outlen), Buffer.alloc(outlen)]
        sodium.crypto_generichash_final(ours, a)
        SodiumNative.crypto_generichash_final(ref, b)
        assert.strictEqual(toHex(a), toHex(b), `pattern ${p} output`)
        assert.strictEqual(toHex(ours), toHex(ref), `pattern ${p} state after final`)
      }
    })

    it('final at every buffered length: after 0..700 bytes in one or two updates, keyed and not', () => {
      const m = random(700)
      for (let n = 0; n <= 700; n++) {
        const key = n % 3 === 0 ? random(1 + (n % 64)) : null
        const cut = n % 2 ? n : crypto.randomInt(0, n + 1)
        const [ours, ref] = [new Uint8Array(STATEBYTES), Buffer.alloc(STATEBYTES)]
        sodium.crypto_generichash_init(ours, key, 64)
        SodiumNative.crypto_generichash_init(ref, key, 64)
        for (const c of [m.subarray(0, cut), m.subarray(cut, n)]) {
          sodium.crypto_generichash_update(ours, c)
          SodiumNative.crypto_generichash_update(ref, c)
        }
        const buffered = Buffer.from(ours.buffer).readUInt32LE(BUFLEN_AT)
        assert.ok(buffered <= 256 && (n + (key ? 128 : 0) <= 256 ? buffered === n + (key ? 128 : 0) : buffered > 128), `buflen ${buffered} after ${n}`)
        const [a, b] = [new Uint8Array(64), Buffer.alloc(64)]
        sodium.crypto_generichash_final(ours, a)
        SodiumNative.crypto_generichash_final(ref, b)
        assert.strictEqual(toHex(a), toHex(b), `${n} bytes, cut at ${cut}`)
        assert.strictEqual(toHex(ours), toHex(ref), `state after final, ${n} bytes`)
      }
    })

    it('a state moves between libsodium (sodium-native) and this backend at any point', () => {
      for (let i = 0; i < 40; i++) {
        const key = i % 2 ? random(32) : null
        const m = random(crypto.randomInt(0, 2000))
        const st = Buffer.alloc(STATEBYTES)
        const libs = [sodium, SodiumNative]
        libs[crypto.randomInt(0, 2)].crypto_generichash_init(st, key, 32)
        let at = 0
        while (at < m.length) {
          const n = Math.min(m.length - at, [1, 127, 128, 129, 300][crypto.randomInt(0, 5)])
          libs[crypto.randomInt(0, 2)].crypto_generichash_update(st, m.subarray(at, at + n))
          at += n
        }
        const out = Buffer.alloc(32)
        libs[crypto.randomInt(0, 2)].crypto_generichash_final(st, out)
        const ref = Buffer.alloc(32)
        SodiumNative.crypto_generichash(ref, m, key)
        assert.strictEqual(toHex(out), toHex(ref), `case ${i}`)
      }
    })

    it('in place (the output over the input) and misaligned, keyed and not', () => {
      for (const len of [0, 1, 63, 64, 127, 128, 129, 256, 257, 1000]) {
        for (const key of [null, random(32)]) {
          const buf = random(len + 70)
          const m = buf.subarray(3, 3 + len)
          const ref = Buffer.alloc(64)
          SodiumNative.crypto_generichash(ref, Buffer.from(m), key && Buffer.from(key))
          sodium.crypto_generichash(buf.subarray(1, 65), m, key)
          assert.strictEqual(toHex(buf.subarray(1, 65)), toHex(ref), `${len} ${!!key}`)
        }
      }
    })

    it('the last-node flag in a state is honoured as libsodium does (f[1] set at final)', () => {
      const m = random(300)
      const [ours, ref] = [new Uint8Array(STATEBYTES), Buffer.alloc(STATEBYTES)]
      sodium.crypto_generichash_init(ours, null, 64)
      SodiumNative.crypto_generichash_init(ref, null, 64)
      sodium.crypto_generichash_update(ours, m)
      SodiumNative.crypto_generichash_update(ref, m)
      ours[BUFLEN_AT + word] = 1
      ref[BUFLEN_AT + 8] = 1
      const [a, b, plain] = [new Uint8Array(64), Buffer.alloc(64), new Uint8Array(64)]
      sodium.crypto_generichash_final(ours, a)
      SodiumNative.crypto_generichash_final(ref, b)
      sodium.crypto_generichash(plain, m, null)
      assert.strictEqual(toHex(a), toHex(b))
      assert.notStrictEqual(toHex(a), toHex(plain), 'the flag changes the output')
    })
  })
}

describe('blake2b-fast: the wasm build\'s timed choice', function () {
  const wasm = backends.find((b) => b.name === 'wasm')
  before(function () { if (!wasm) this.skip() })

  it('hashes with the portable C for its first 4096 blocks, then with the faster kernel of the two, timed once; the same bytes throughout', () => {
    const { raw } = wasm
    assert.strictEqual(raw.natrium_wasm_blake2b_kernel('timed'), 'portable')
    const m = random(1000); const out = new Uint8Array(32)
    const ref = Buffer.alloc(32)
    SodiumNative.crypto_generichash(ref, m)
    const expected = toHex(ref)
    let calls = 0
    for (; calls < 600; calls++) { // 8 blocks a call
      raw.crypto_generichash(out, m, null)
      assert.strictEqual(toHex(out), expected, `call ${calls}`)
      if (calls < 511) assert.strictEqual(raw.natrium_wasm_blake2b_kernel(), 'portable', `untimed at call ${calls}`)
    }
    assert.ok(['portable', 'simd128'].includes(raw.natrium_wasm_blake2b_kernel()), raw.natrium_wasm_blake2b_kernel())
    assert.throws(() => raw.natrium_wasm_blake2b_kernel('avx2'), /unknown kernel avx2/)
  })
})

// Natively: the whole file once per compression function, and gdb's view of which one runs.
const native = backends.find((b) => b.name === 'native')
const addon = path.join(__dirname, '..', 'build', 'Release', 'natrium.node')

describe('blake2b-fast dispatch', function () {
  before(function () {
    if (CHILD || !native) this.skip()
  })

  const child = (env) => rerunNative([__filename], { ...env, NATRIUM_BLAKE2B_CHILD: '1' })

  it('the portable compression passes this file (NATRIUM_BLAKE2B_IMPL=portable, and NATRIUM_DISABLE_SIMD=1)', function () {
    this.timeout(240000)
    child({ NATRIUM_BLAKE2B_IMPL: 'portable' })
    child({ NATRIUM_DISABLE_SIMD: '1' })
  })

  it('the AVX2 compression passes this file (NATRIUM_BLAKE2B_IMPL=avx2)', function () {
    if (!cpuFlags().has('avx2')) this.skip()
    this.timeout(240000)
    child({ NATRIUM_BLAKE2B_IMPL: 'avx2' })
  })

  // gdb's dprintf prints a line each time a function is entered. The load-time timing calls
  // both; the hash after it calls the one chosen.
  function traced (env) {
    const script = `const s = require(${JSON.stringify(addon)});
      process.stdout.write('HASHING\\n'); s.crypto_generichash(new Uint8Array(32), new Uint8Array(1000));`
    const fns = ['nat_blake2b_compress_avx2', 'nat_blake2b_compress_portable']
    return gdbEntered(fns, script, { env, after: 'HASHING' }).then((hit) => new Set(hit))
  }

  it('each forced compression function is the one that runs, and unforced one of them does (gdb)', async function () {
    if (process.platform !== 'linux' || process.arch !== 'x64' || !fs.existsSync(addon) ||
        spawnSync('sh', ['-c', 'command -v gdb']).status !== 0) this.skip()
    this.timeout(120000)
    const avx2 = cpuFlags().has('avx2')
    const [auto, portable, forced] = await Promise.all([traced({}), traced({ NATRIUM_BLAKE2B_IMPL: 'portable' }),
      traced({ NATRIUM_BLAKE2B_IMPL: 'avx2' })])
    assert.deepStrictEqual([...portable], ['nat_blake2b_compress_portable'])
    assert.deepStrictEqual([...forced], [avx2 ? 'nat_blake2b_compress_avx2' : 'nat_blake2b_compress_portable'])
    assert.strictEqual(auto.size, 1, [...auto].join())
  })
})

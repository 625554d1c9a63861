'use strict'
// natrium's own SHA-2 (src/crypto/sha2.c), behind crypto_hash_sha256/sha512, crypto_hash,
// crypto_auth(_hmacsha*), HKDF and PBKDF2: FIPS 180-4 examples; every length 0..300 and large
// random inputs against node:crypto and sodium-native (libsodium); random streaming splits with
// state bytes identical to libsodium's after every call; states handed back and forth with
// libsodium mid-stream; garbage and wrapping states; HMAC, HKDF and PBKDF2 against node:crypto.
// The compression function is chosen at load time (SHA-NI / AVX-512VL or AVX2 on x86-64, else
// portable C): this file runs again in a child process with NATRIUM_DISABLE_SIMD=1, so the
// portable code is tested on CPUs that have the extensions too, and with NATRIUM_SHA512_IMPL=avx2
// where AVX-512VL would run; gdb shows which code actually ran.
const assert = require('assert')
const crypto = require('crypto')
const fs = require('fs')
const path = require('path')
const { spawnSync } = require('child_process')
const SodiumNative = require('sodium-native')
const { backends, toHex, random, vectors, spawnNode, gdbEntered, cpuFlags } = require('./helpers')

const CHILD = process.env.NATRIUM_SHA2_CHILD === '1'
const BYTES = { sha256: 32, sha512: 64 }
const BLOCK = { sha256: 64, sha512: 128 }

// Random cut points, biased towards block boundaries: `m` fed to update() in 0..8 pieces.
function pieces (m, block) {
  const cuts = Array.from({ length: crypto.randomInt(0, 9) }, () => {
    const c = crypto.randomInt(0, m.length + 1)
    return crypto.randomInt(0, 2) ? c : Math.min(m.length, c - (c % block) + crypto.randomInt(-1, 2))
  }).map((c) => Math.max(0, c)).sort((a, b) => a - b)
  const out = []
  let at = 0
  for (const c of cuts.concat(m.length)) { out.push(m.subarray(at, c)); at = c }
  return out
}

function message (t) {
  return t.ascii !== undefined ? new Uint8Array(Buffer.from(t.ascii, 'latin1')) : new Uint8Array(t.count).fill(parseInt(t.repeat, 16))
}

const nodeHash = (p, m) => crypto.createHash(p).update(m).digest('hex')

// sodium-native runs libsodium's own SHA-2 on Buffers.
function theirs (p, m) {
  const out = Buffer.alloc(BYTES[p])
  SodiumNative[`crypto_hash_${p}`](out, Buffer.from(m.buffer, m.byteOffset, m.length))
  return out.toString('hex')
}

for (const { name: backend, sodium } of backends) {
  describe(`sha2-fast [${backend}]`, () => {
    const ours = (p, m) => {
      const out = new Uint8Array(BYTES[p])
      sodium[`crypto_hash_${p}`](out, m)
      return toHex(out)
    }
    const stream = (p, chunks) => {
      const st = new Uint8Array(sodium[`crypto_hash_${p}_STATEBYTES`])
      const out = new Uint8Array(BYTES[p])
      sodium[`crypto_hash_${p}_init`](st)
      for (const c of chunks) sodium[`crypto_hash_${p}_update`](st, c)
      sodium[`crypto_hash_${p}_final`](st, out)
      return toHex(out)
    }

    it('FIPS 180-4 examples (test/vectors/nist_sha.json): one-shot and streamed in many chunk sizes', () => {
      const ts = vectors('nist_sha.json').tests.filter((t) => t.primitive in BYTES)
      assert.ok(ts.length >= 8)
      for (const t of ts) {
        const p = t.primitive
        const m = message(t)
        assert.strictEqual(ours(p, m), t.out, `${p} ${m.length}`)
        if (p === 'sha512') {
          const out = new Uint8Array(64)
          sodium.crypto_hash(out, m)
          assert.strictEqual(toHex(out), t.out)
        }
        for (const size of [1, 3, 55, 63, 64, 65, 111, 127, 128, 129, 1000, 65536]) {
          if (size < 55 && m.length > 5000) continue // a million calls would only test the binding
          const chunks = []
          for (let at = 0; at < m.length; at += size) chunks.push(m.subarray(at, at + size))
          assert.strictEqual(stream(p, chunks), t.out, `${p} ${m.length} in ${size}-byte chunks`)
        }
      }
    })

    it('every length 0..300, at every alignment, equals node:crypto and sodium-native (libsodium)', () => {
      const buf = random(300 + 8)
      for (let n = 0; n <= 300; n++) {
        const m = buf.subarray(n % 8, n % 8 + n)
        for (const p of ['sha256', 'sha512']) {
          const expected = nodeHash(p, m)
          assert.strictEqual(ours(p, m), expected, `${p} length ${n}`)
          assert.strictEqual(theirs(p, m), expected, `libsodium ${p} length ${n}`)
          assert.strictEqual(stream(p, pieces(m, BLOCK[p])), expected, `${p} streamed, length ${n}`)
        }
        const out = new Uint8Array(64)
        sodium.crypto_hash(out, m)
        assert.strictEqual(toHex(out), nodeHash('sha512', m), `crypto_hash length ${n}`)
      }
    })

    it('large random inputs (to 1.5 MB) equal node:crypto and sodium-native, one-shot and streamed', () => {
      for (const n of [100 * 1024, 1 << 20, (1 << 20) + 17, crypto.randomInt(1500000), crypto.randomInt(300000)]) {
        const m = random(n)
        for (const p of ['sha256', 'sha512']) {
          const expected = nodeHash(p, m)
          assert.strictEqual(ours(p, m), expected, `${p} ${n}`)
          assert.strictEqual(theirs(p, m), expected, `libsodium ${p} ${n}`)
          assert.strictEqual(stream(p, pieces(m, BLOCK[p])), expected, `${p} streamed ${n}`)
        }
      }
    })

    it('streaming leaves the state byte for byte as libsodium leaves it, after every call', () => {
      for (let i = 0; i < 100; i++) {
        const m = random(crypto.randomInt(0, 5000))
        for (const p of ['sha256', 'sha512']) {
          const f = `crypto_hash_${p}`
          // a stale buffer: libsodium's init sets only the hash and the counter, not the block buffer
          const fill = random(sodium[`${f}_STATEBYTES`])
          const [a, b] = [new Uint8Array(fill), Buffer.from(fill)]
          sodium[`${f}_init`](a)
          SodiumNative[`${f}_init`](b)
          assert.strictEqual(toHex(a), toHex(b), `${p} init`)
          for (const c of pieces(m, BLOCK[p])) {
            sodium[`${f}_update`](a, c)
            SodiumNative[`${f}_update`](b, Buffer.from(c))
            assert.strictEqual(toHex(a), toHex(b), `${p} update of ${c.length}`)
          }
          const [x, y] = [new Uint8Array(BYTES[p]), Buffer.alloc(BYTES[p])]
          sodium[`${f}_final`](a, x)
          SodiumNative[`${f}_final`](b, y)
          assert.strictEqual(toHex(x), toHex(y), `${p} final`)
          assert.strictEqual(toHex(a), toHex(b), `${p} state after final`)
          assert.ok(a.every((v) => v === 0), 'final wipes the state')
        }
      }
    })

    it('a state moves between natrium and libsodium at any point (init, any update, final)', () => {
      for (let i = 0; i < 100; i++) {
        const m = random(crypto.randomInt(0, 3000))
        for (const p of ['sha256', 'sha512']) {
          const f = `crypto_hash_${p}`
          const impls = [(g, st, ...r) => sodium[`${f}${g}`](st, ...r), (g, st, ...r) => SodiumNative[`${f}${g}`](st, ...r)]
          const pick = () => impls[crypto.randomInt(0, 2)]
          const st = Buffer.alloc(SodiumNative[`${f}_STATEBYTES`]) // both accept a Buffer
          pick()('_init', st)
          for (const c of pieces(m, BLOCK[p])) pick()('_update', st, Buffer.from(c))
          const out = Buffer.alloc(BYTES[p])
          pick()('_final', st, out)
          assert.strictEqual(out.toString('hex'), nodeHash(p, m), `${p} ${m.length}`)
        }
        // the two directions the brief names, explicitly: init theirs, update ours, final theirs; and back
        const st = Buffer.alloc(SodiumNative.crypto_hash_sha256_STATEBYTES)
        const out = Buffer.alloc(32)
        SodiumNative.crypto_hash_sha256_init(st)
        sodium.crypto_hash_sha256_update(st, m)
        SodiumNative.crypto_hash_sha256_final(st, out)
        assert.strictEqual(out.toString('hex'), nodeHash('sha256', m))
        sodium.crypto_hash_sha256_init(st)
        SodiumNative.crypto_hash_sha256_update(st, Buffer.from(m))
        sodium.crypto_hash_sha256_final(st, out)
        assert.strictEqual(out.toString('hex'), nodeHash('sha256', m))
      }
    })

    it('garbage states (any bytes, bit counters about to wrap) give libsodium\'s bytes, never a crash', () => {
      for (let i = 0; i < 200; i++) {
        for (const p of ['sha256', 'sha512']) {
          const f = `crypto_hash_${p}`
          const a = random(sodium[`${f}_STATEBYTES`])
          const dv = new DataView(a.buffer)
          // counter: uint64 at 32 (SHA-256); low word of SHA-512's 128-bit count at 72 (high at 64)
          const at = p === 'sha256' ? 32 : 72
          if (i % 3 === 0) dv.setBigUint64(at, 0xffffffffffffffffn - BigInt(crypto.randomInt(0, 50000)), true)
          const b = Buffer.from(a)
          const m = random(crypto.randomInt(0, 2000))
          for (const c of pieces(m, BLOCK[p])) {
            sodium[`${f}_update`](a, c)
            SodiumNative[`${f}_update`](b, Buffer.from(c))
          }
          assert.strictEqual(toHex(a), toHex(b), `${p} state`)
          const [x, y] = [new Uint8Array(BYTES[p]), Buffer.alloc(BYTES[p])]
          sodium[`${f}_final`](a, x)
          SodiumNative[`${f}_final`](b, y)
          assert.strictEqual(toHex(x), toHex(y), `${p} final`)
        }
      }
    })

    describe('HMAC, HKDF, PBKDF2 on this SHA-2', () => {
      const HMACS = [['crypto_auth_hmacsha256', 'sha256', 32], ['crypto_auth_hmacsha512', 'sha512', 64],
        ['crypto_auth_hmacsha512256', 'sha512', 32], ['crypto_auth', 'sha512', 32]]

      it('HMAC one-shot and verify equal node:crypto; streaming with keys of any length too', () => {
        for (let i = 0; i < 150; i++) {
          const m = random(crypto.randomInt(0, i < 140 ? 700 : 200000))
          const k = random(32)
          for (const [f, algo, n] of HMACS) {
            const expected = crypto.createHmac(algo, k).update(m).digest().subarray(0, n)
            const out = new Uint8Array(n)
            sodium[f](out, m, k)
            assert.strictEqual(toHex(out), toHex(expected), `${f} ${m.length}`)
            assert.strictEqual(sodium[`${f}_verify`](out, m, k), true)
            out[crypto.randomInt(0, n)] ^= 1 << crypto.randomInt(0, 8)
            assert.strictEqual(sodium[`${f}_verify`](out, m, k), false)
            if (f === 'crypto_auth') continue
            const key = random(crypto.randomInt(0, 300)) // longer than a block: hashed first
            const st = new Uint8Array(sodium[`${f}_STATEBYTES`])
            sodium[`${f}_init`](st, key)
            for (const c of pieces(m, 64)) sodium[`${f}_update`](st, c)
            sodium[`${f}_final`](st, out)
            assert.strictEqual(toHex(out), toHex(crypto.createHmac(algo, key).update(m).digest().subarray(0, n)), `${f} streaming, key ${key.length}`)
          }
          const libsodium = Buffer.alloc(32)
          SodiumNative.crypto_auth(libsodium, Buffer.from(m), Buffer.from(k))
          const out = new Uint8Array(32)
          sodium.crypto_auth(out, m, k)
          assert.strictEqual(toHex(out), libsodium.toString('hex'), 'crypto_auth vs sodium-native')
        }
      })

      it('an HMAC state is two libsodium hash states: ictx has absorbed key ^ ipad, octx key ^ opad', () => {
        for (const [f, p] of [['crypto_auth_hmacsha256', 'sha256'], ['crypto_auth_hmacsha512', 'sha512']]) {
          const half = SodiumNative[`crypto_hash_${p}_STATEBYTES`]
          for (const len of [0, 1, 32, BLOCK[p], BLOCK[p] + 1, 300]) {
            let key = random(len)
            const st = new Uint8Array(sodium[`${f}_STATEBYTES`])
            sodium[`${f}_init`](st, key)
            if (len > BLOCK[p]) key = crypto.createHash(p).update(key).digest()
            for (const [pad, at] of [[0x36, 0], [0x5c, half]]) {
              const block = Buffer.alloc(BLOCK[p], pad)
              for (let j = 0; j < key.length; j++) block[j] ^= key[j]
              const expected = Buffer.alloc(half)
              SodiumNative[`crypto_hash_${p}_init`](expected)
              SodiumNative[`crypto_hash_${p}_update`](expected, block)
              // libsodium's init leaves the rest of the buffer alone; after a full block it is all block
              assert.strictEqual(toHex(st.subarray(at, at + half)), expected.toString('hex'), `${f} key ${len} pad ${pad}`)
            }
          }
        }
      })

      it('HKDF extract/expand equal node:crypto hkdfSync; streaming extract equals one-shot', () => {
        for (let i = 0; i < 100; i++) {
          for (const [p, algo, n] of [['crypto_kdf_hkdf_sha256', 'sha256', 32], ['crypto_kdf_hkdf_sha512', 'sha512', 64]]) {
            const ikm = random(crypto.randomInt(0, 300))
            const salt = i % 5 === 0 ? null : random(crypto.randomInt(0, 200))
            const info = i % 7 === 0 ? null : random(crypto.randomInt(0, 100))
            const len = crypto.randomInt(1, i % 10 === 0 ? 255 * n + 1 : 300)
            const prk = new Uint8Array(n)
            sodium[`${p}_extract`](prk, salt, ikm)
            const okm = new Uint8Array(len)
            sodium[`${p}_expand`](okm, info, prk)
            const expected = Buffer.from(crypto.hkdfSync(algo, ikm, salt || new Uint8Array(0), info || new Uint8Array(0), len))
            assert.strictEqual(toHex(okm), expected.toString('hex'), `${p} ${len}`)
            const st = new Uint8Array(sodium[`${p}_STATEBYTES`])
            sodium[`${p}_extract_init`](st, salt)
            for (const c of pieces(ikm, 64)) sodium[`${p}_extract_update`](st, c)
            const prk2 = new Uint8Array(n)
            sodium[`${p}_extract_final`](st, prk2)
            assert.strictEqual(toHex(prk2), toHex(prk))
          }
        }
      })

      it('PBKDF2-HMAC-SHA-256/512 equal node:crypto pbkdf2Sync', () => {
        for (let i = 0; i < 30; i++) {
          for (const [hash, n] of [['sha256', 32], ['sha512', 64]]) {
            const passwd = random(crypto.randomInt(1, 200)) // longer than a block too
            const salt = random(crypto.randomInt(1, 100))
            const iter = [1, 2, 3, crypto.randomInt(1, 3000)][i % 4]
            const outlen = crypto.randomInt(1, 3 * n + 2)
            const out = new Uint8Array(outlen)
            sodium[`extension_pbkdf2_${hash}`](out, passwd, salt, iter, outlen)
            assert.strictEqual(toHex(out), crypto.pbkdf2Sync(passwd, salt, iter, outlen, hash).toString('hex'), `${hash} ${iter} ${outlen}`)
          }
        }
      })
    })
  })
}

// The portable compression functions on this CPU: the whole file again, NATRIUM_DISABLE_SIMD=1.
const native = backends.find((b) => b.name === 'native')
const addon = path.join(__dirname, '..', 'build', 'Release', 'natrium.node')

describe('sha2-fast dispatch', function () {
  before(function () {
    if (CHILD || !native) this.skip()
  })

  function child (extra) {
    const mocha = require.resolve('mocha/bin/mocha.js')
    const env = { ...process.env, ...extra, NATRIUM_SHA2_CHILD: '1', NATRIUM_TEST_BACKENDS: 'native' }
    const r = spawnNode([mocha, '--reporter', 'dot', '--timeout', '120000', __filename], { env, encoding: 'utf8' })
    assert.strictEqual(r.status, 0, r.stdout + r.stderr)
    assert.match(r.stdout, /(\d+) passing/)
    assert.doesNotMatch(r.stdout, /failing/)
  }

  it('the portable code passes this file too (child process with NATRIUM_DISABLE_SIMD=1)', function () {
    this.timeout(120000)
    child({ NATRIUM_DISABLE_SIMD: '1' })
  })

  it('so does the AVX2 SHA-512 code where AVX-512VL would run (child process with NATRIUM_SHA512_IMPL=avx2)', function () {
    if (!cpuFlags().has('avx512vl')) this.skip()
    this.timeout(120000)
    child({ NATRIUM_SHA512_IMPL: 'avx2' })
  })

  // gdb's dprintf prints a line each time a function is entered and lets the program go on.
  function traced (env) {
    const script = `const s = require(${JSON.stringify(addon)});
      s.crypto_hash_sha256(new Uint8Array(32), new Uint8Array(1000));
      s.crypto_hash(new Uint8Array(64), new Uint8Array(1000));`
    const fns = ['sha256_blocks_shani', 'sha256_blocks_portable', 'sha512_blocks_avx512vl', 'sha512_blocks_avx2', 'sha512_blocks_portable']
    return gdbEntered(fns, script, { env }).then((hit) => new Set(hit))
  }

  it('SHA-NI / AVX-512VL / AVX2 code runs where the CPU has it, the portable code under NATRIUM_DISABLE_SIMD=1, NATRIUM_SHA512_IMPL forces one (gdb)', async function () {
    const flags = (() => {
      try {
        const line = fs.readFileSync('/proc/cpuinfo', 'utf8').split('\n').find((l) => l.startsWith('flags'))
        return new Set(line.split(':')[1].trim().split(/\s+/))
      } catch { return new Set() }
    })()
    if (process.platform !== 'linux' || process.arch !== 'x64' || !fs.existsSync(addon) ||
        spawnSync('sh', ['-c', 'command -v gdb']).status !== 0) this.skip()
    this.timeout(120000)
    const none = { NATRIUM_DISABLE_SIMD: '', NATRIUM_SHA512_IMPL: '' }
    const [fast, portable, forcedAvx2, forcedPortable] = await Promise.all([traced(none), traced({ ...none, NATRIUM_DISABLE_SIMD: '1' }),
      traced({ ...none, NATRIUM_SHA512_IMPL: 'avx2' }), traced({ ...none, NATRIUM_SHA512_IMPL: 'portable' })])
    const avx2 = flags.has('avx2') && flags.has('bmi1') && flags.has('bmi2')
    const avx512vl = avx2 && flags.has('avx512f') && flags.has('avx512vl')
    const sha256 = flags.has('sha_ni') ? 'sha256_blocks_shani' : 'sha256_blocks_portable'
    const sha512 = avx512vl ? 'sha512_blocks_avx512vl' : avx2 ? 'sha512_blocks_avx2' : 'sha512_blocks_portable'
    assert.deepStrictEqual([...fast].sort(), [sha256, sha512].sort())
    assert.deepStrictEqual([...portable].sort(), ['sha256_blocks_portable', 'sha512_blocks_portable'])
    assert.deepStrictEqual([...forcedAvx2].sort(), [sha256, avx2 ? 'sha512_blocks_avx2' : 'sha512_blocks_portable'].sort())
    assert.deepStrictEqual([...forcedPortable].sort(), [sha256, 'sha512_blocks_portable'].sort())
  })
})

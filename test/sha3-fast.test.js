'use strict'
// natrium's own Keccak (src/crypto/keccak*.c, sha3.c) behind crypto_hash_sha3256/512 and
// crypto_xof_shake128/256, turboshake128/256, on both backends. References: node:crypto (OpenSSL:
// SHA3-256/512, SHAKE128/256), @noble/hashes (all six, TurboSHAKE with its domain byte) and
// libsodium itself (libsodium-wrappers-sumo 0.8.4: its reference Keccak, compiled to wasm).
// Every length 0..1100 and lengths around the rate's multiples up to past 1 MiB; misaligned
// inputs, outputs over the input (in place); streaming in uneven chunks; XOF output squeezed in
// pieces; and on the wasm backend, the state bytes compared with libsodium.js's after every call
// (natrium's in the 64-bit layout every backend gives a caller, libsodium.js's with its 32-bit
// size_t fields widened) and states handed back and forth.
// The native states are compared with libsodium's byte for byte in C (test/c/sha3.c). NIST's and
// RFC 9861's vectors are in test/hash.test.js. The kernel is chosen at load time: this file runs
// again with NATRIUM_DISABLE_SIMD=1 (the portable kernel), and gdb shows which one ran.
const assert = require('assert')
const crypto = require('crypto')
const fs = require('fs')
const path = require('path')
const { spawnSync } = require('child_process')
const lsw = require('libsodium-wrappers-sumo')
const { backends, toHex, random, spawnNode, gdbEntered } = require('./helpers')

const CHILD = process.env.NATRIUM_SHA3_CHILD === '1'
// name, rate, node:crypto's name, output bytes (0: an XOF)
const HASHES = [['sha3256', 136, 'sha3-256', 32], ['sha3512', 72, 'sha3-512', 64]]
const XOFS = [['shake128', 168, 'shake128'], ['shake256', 136, 'shake256'], ['turboshake128', 168, null], ['turboshake256', 136, null]]

let noble // @noble/hashes is ESM only
before(async () => {
  const sha3 = await import('@noble/hashes/sha3.js')
  const addons = await import('@noble/hashes/sha3-addons.js')
  noble = {
    sha3256: (m) => sha3.sha3_256(m),
    sha3512: (m) => sha3.sha3_512(m),
    shake128: (m, n) => sha3.shake128(m, { dkLen: n }),
    shake256: (m, n) => sha3.shake256(m, { dkLen: n }),
    // noble refuses an empty output
    turboshake128: (m, n, D = 0x1f) => (n === 0 ? new Uint8Array(0) : addons.turboshake128(m, { dkLen: n, D })),
    turboshake256: (m, n, D = 0x1f) => (n === 0 ? new Uint8Array(0) : addons.turboshake256(m, { dkLen: n, D }))
  }
  await lsw.ready
})

// Cut points biased towards multiples of the rate: m fed to update() in 0..8 pieces.
function pieces (m, rate) {
  const cuts = Array.from({ length: crypto.randomInt(0, 9) }, () => {
    const c = crypto.randomInt(0, m.length + 1)
    return crypto.randomInt(0, 2) ? c : Math.max(0, Math.min(m.length, c - (c % rate) + crypto.randomInt(-1, 2)))
  }).sort((a, b) => a - b)
  const out = []
  let at = 0
  for (const c of cuts.concat(m.length)) { out.push(m.subarray(at, c)); at = c }
  return out
}

// Lengths 0..1100, then around multiples of the rate up to past 1 MiB.
function lengths (rate) {
  const n = Array.from({ length: 1101 }, (_, i) => i)
  for (const k of [9, 10, 16, 31, 32, 100, 255, 256, 1000, 4096, Math.floor((1 << 20) / rate), Math.ceil((1 << 20) / rate)]) {
    n.push(k * rate - 1, k * rate, k * rate + 1)
  }
  return n
}

const lswHash = (p, m) => lsw[`crypto_hash_${p}`](m)
const lswXof = (p, m, n) => lsw[`crypto_xof_${p}`](n, m)

for (const { name: backend, sodium } of backends) {
  describe(`sha3-fast [${backend}]`, () => {
    const hash = (p, n, m) => { const out = new Uint8Array(n); sodium[`crypto_hash_${p}`](out, m); return toHex(out) }
    const xof = (p, n, m) => { const out = new Uint8Array(n); sodium[`crypto_xof_${p}`](out, m); return toHex(out) }

    it('SHA3-256/512: every length 0..1100 and around the rate to past 1 MiB, misaligned: node:crypto; libsodium.js and noble up to 4 KiB', function () {
      this.timeout(120000)
      const pool = random((1 << 20) + 300)
      for (const [p, rate, algo, n] of HASHES) {
        for (const len of lengths(rate)) {
          const m = pool.subarray(len % 8, (len % 8) + len)
          const expected = crypto.createHash(algo).update(m).digest('hex')
          assert.strictEqual(hash(p, n, m), expected, `${p} ${len}`)
          if (len <= 4096) {
            assert.strictEqual(toHex(lswHash(p, m)), expected, `libsodium.js ${p} ${len}`)
            assert.strictEqual(toHex(noble[p](m)), expected, `noble ${p} ${len}`)
          }
        }
      }
    })

    it('SHAKE and TurboSHAKE: every length 0..1100 and around the rate to past 1 MiB, outputs of 0..600 bytes: node:crypto, noble, libsodium.js', function () {
      this.timeout(120000)
      const pool = random((1 << 20) + 300)
      for (const [p, rate, algo] of XOFS) {
        for (const len of lengths(rate)) {
          const m = pool.subarray(len % 8, (len % 8) + len)
          const n = len <= 1100 ? (len * 7) % 600 : crypto.randomInt(0, 600)
          const expected = algo
            ? crypto.createHash(algo, { outputLength: n }).update(m).digest('hex')
            : toHex(noble[p](m, n))
          assert.strictEqual(xof(p, n, m), expected, `${p} ${len} -> ${n}`)
          if (len <= 4096 || len % rate === 0) {
            if (algo) assert.strictEqual(toHex(noble[p](m, n)), expected, `noble ${p} ${len}`)
            assert.strictEqual(toHex(lswXof(p, m, n)), expected, `libsodium.js ${p} ${len}`)
          }
        }
      }
    })

    it('outputs of every length around the rate, squeezed at once and in pieces, with any domain byte (TurboSHAKE: noble)', () => {
      for (const [p, rate] of XOFS) {
        const m = random(crypto.randomInt(0, 500))
        for (const n of [0, 1, rate - 1, rate, rate + 1, 2 * rate - 1, 2 * rate, 2 * rate + 1, 10 * rate + 3]) {
          const whole = xof(p, n, m)
          assert.strictEqual(whole, toHex(lswXof(p, m, n)), `${p} -> ${n}`)
          const st = new Uint8Array(sodium[`crypto_xof_${p}_STATEBYTES`])
          sodium[`crypto_xof_${p}_init`](st)
          for (const c of pieces(m, rate)) sodium[`crypto_xof_${p}_update`](st, c)
          let got = ''
          for (const c of pieces(new Uint8Array(n), rate)) {
            const out = new Uint8Array(c.length)
            sodium[`crypto_xof_${p}_squeeze`](st, out)
            got += toHex(out)
          }
          assert.strictEqual(got, whole, `${p} -> ${n} squeezed in pieces`)
        }
        if (p.startsWith('turbo')) {
          for (const D of [0x01, 0x06, 0x0b, 0x1f, 0x7f]) {
            const st = new Uint8Array(sodium[`crypto_xof_${p}_STATEBYTES`])
            sodium[`crypto_xof_${p}_init_with_domain`](st, D)
            sodium[`crypto_xof_${p}_update`](st, m)
            const out = new Uint8Array(77)
            sodium[`crypto_xof_${p}_squeeze`](st, out)
            assert.strictEqual(toHex(out), toHex(noble[p](m, 77, D)), `${p} D=${D}`)
          }
        }
      }
    })

    it('streaming in uneven chunks equals the one-shot (every function, lengths to 5000)', () => {
      for (let i = 0; i < 150; i++) {
        const m = random(crypto.randomInt(0, 5000))
        for (const [p, rate, , n] of HASHES) {
          const st = new Uint8Array(sodium[`crypto_hash_${p}_STATEBYTES`])
          sodium[`crypto_hash_${p}_init`](st)
          for (const c of pieces(m, rate)) sodium[`crypto_hash_${p}_update`](st, c)
          const out = new Uint8Array(n)
          sodium[`crypto_hash_${p}_final`](st, out)
          assert.strictEqual(toHex(out), hash(p, n, m), `${p} ${m.length}`)
        }
        for (const [p, rate] of XOFS) {
          const st = new Uint8Array(sodium[`crypto_xof_${p}_STATEBYTES`])
          sodium[`crypto_xof_${p}_init`](st)
          for (const c of pieces(m, rate)) sodium[`crypto_xof_${p}_update`](st, c)
          const out = new Uint8Array(crypto.randomInt(0, 400))
          sodium[`crypto_xof_${p}_squeeze`](st, out)
          assert.strictEqual(toHex(out), xof(p, out.length, m), `${p} ${m.length}`)
        }
      }
    })

    it('in place: the output may overlap the input', () => {
      for (const len of [0, 31, 32, 64, 135, 136, 137, 1000]) {
        for (const [p, , , n] of HASHES) {
          const buf = random(Math.max(len, n) + 3)
          const m = buf.subarray(3, 3 + len)
          const expected = hash(p, n, m.slice())
          sodium[`crypto_hash_${p}`](buf.subarray(3, 3 + n), m)
          assert.strictEqual(toHex(buf.subarray(3, 3 + n)), expected, `${p} ${len}`)
        }
        for (const [p] of XOFS) {
          const n = 200
          const buf = random(Math.max(len, n) + 5)
          const m = buf.subarray(5, 5 + len)
          const expected = xof(p, n, m.slice())
          sodium[`crypto_xof_${p}`](buf.subarray(1, 1 + n), m)
          assert.strictEqual(toHex(buf.subarray(1, 1 + n)), expected, `${p} ${len}`)
        }
      }
    })

    if (backend === 'wasm') {
      // libsodium.js allocates its states (256 bytes) in its own heap; the layout is libsodium's
      // with a 32-bit size_t, as in natrium's wasm build.
      const heap = () => lsw.libsodium.HEAPU8
      const read = (addr, n) => heap().slice(addr, addr + n)
      // init writes the 200-byte Keccak state and the fields after the 224-byte struct: SHA-3's
      // size_t offset, rate, outlen and uint8_t phase; the XOFs' size_t offset, phase, domain.
      // The rest of a fresh libsodium.js state is whatever malloc left: zero it, as ours is.
      const SHA3_FIELDS_END = 224 + 3 * 4 + 1
      const XOF_FIELDS_END = 224 + 4 + 2
      const clearUnwritten = (addr, fieldsEnd) => {
        heap().fill(0, addr + 200, addr + 224)
        heap().fill(0, addr + fieldsEnd, addr + 256)
      }
      // libsodium.js's state (words 4-byte size_t fields at 224, then tail bytes) in the 64-bit
      // layout natrium's callers hold, and back
      const widen = (st, words, tail) => {
        const out = new Uint8Array(256)
        out.set(st.subarray(0, 224))
        const dv = new DataView(st.buffer, st.byteOffset)
        const ov = new DataView(out.buffer)
        for (let w = 0; w < words; w++) ov.setBigUint64(224 + 8 * w, BigInt(dv.getUint32(224 + 4 * w, true)), true)
        out.set(st.subarray(224 + 4 * words, 224 + 4 * words + tail), 224 + 8 * words)
        return out
      }
      const narrow = (st, words, tail) => {
        const out = new Uint8Array(256)
        out.set(st.subarray(0, 224))
        const dv = new DataView(st.buffer, st.byteOffset)
        const ov = new DataView(out.buffer)
        for (let w = 0; w < words; w++) ov.setUint32(224 + 4 * w, Number(dv.getBigUint64(224 + 8 * w, true)), true)
        out.set(st.subarray(224 + 8 * words, 224 + 8 * words + tail), 224 + 4 * words)
        return out
      }
      const sha3State = (addr) => widen(read(addr, 256), 3, 1)
      const xofState = (addr) => widen(read(addr, 256), 1, 2)

      it('state bytes equal libsodium.js\'s after every call, finals, squeezes and late updates included', () => {
        for (let i = 0; i < 60; i++) {
          for (const [p, rate, , n] of HASHES) {
            const ours = new Uint8Array(256)
            const theirs = lsw[`crypto_hash_${p}_init`]()
            clearUnwritten(theirs, SHA3_FIELDS_END)
            sodium[`crypto_hash_${p}_init`](ours)
            assert.strictEqual(toHex(ours), toHex(sha3State(theirs)), `${p} init`)
            for (const c of pieces(random(crypto.randomInt(0, 2000)), rate)) {
              sodium[`crypto_hash_${p}_update`](ours, c)
              lsw[`crypto_hash_${p}_update`](theirs, c)
              assert.strictEqual(toHex(ours), toHex(sha3State(theirs)), `${p} update of ${c.length}`)
            }
            const out = new Uint8Array(n)
            sodium[`crypto_hash_${p}_final`](ours, out)
            // libsodium.js frees the state in final: read it first through a copy
            const copy = lsw[`crypto_hash_${p}_init`]()
            heap().copyWithin(copy, theirs, theirs + 256)
            assert.strictEqual(toHex(out), toHex(lsw[`crypto_hash_${p}_final`](copy)), `${p} final`)
          }
          for (const [p, rate] of XOFS) {
            const D = i % 3 ? 0x1f : crypto.randomInt(1, 256)
            const ours = new Uint8Array(256)
            const theirs = lsw[`crypto_xof_${p}_init_with_domain`](D)
            clearUnwritten(theirs, XOF_FIELDS_END)
            sodium[`crypto_xof_${p}_init_with_domain`](ours, D)
            assert.strictEqual(toHex(ours), toHex(xofState(theirs)), `${p} init`)
            for (const c of pieces(random(crypto.randomInt(0, 2000)), rate)) {
              sodium[`crypto_xof_${p}_update`](ours, c)
              lsw[`crypto_xof_${p}_update`](theirs, c)
              assert.strictEqual(toHex(ours), toHex(xofState(theirs)), `${p} update of ${c.length}`)
            }
            for (const c of pieces(new Uint8Array(crypto.randomInt(0, 700)), rate)) {
              const out = new Uint8Array(c.length)
              sodium[`crypto_xof_${p}_squeeze`](ours, out)
              assert.strictEqual(toHex(out), toHex(lsw[`crypto_xof_${p}_squeeze`](theirs, c.length)), `${p} squeeze`)
              assert.strictEqual(toHex(ours), toHex(xofState(theirs)), `${p} after a squeeze of ${c.length}`)
            }
            // an update after squeezing fails in both; natrium's refusal leaves its state as it
            // was (libsodium moves its own back to absorbing)
            const late = random(crypto.randomInt(0, 300))
            const before = toHex(ours)
            assert.throws(() => sodium[`crypto_xof_${p}_update`](ours, late))
            assert.throws(() => lsw[`crypto_xof_${p}_update`](theirs, late))
            assert.strictEqual(toHex(ours), before, `${p} after a late update`)
          }
        }
      })

      it('a state moves between natrium and libsodium.js at any point', () => {
        for (let i = 0; i < 40; i++) {
          for (const [p, rate] of XOFS) {
            const m = random(crypto.randomInt(0, 3000))
            const st = new Uint8Array(256)
            const theirs = lsw[`crypto_xof_${p}_init`]()
            sodium[`crypto_xof_${p}_init`](st)
            for (const c of pieces(m, rate)) {
              if (crypto.randomInt(0, 2)) {
                sodium[`crypto_xof_${p}_update`](st, c)
              } else {
                heap().set(narrow(st, 1, 2), theirs)
                lsw[`crypto_xof_${p}_update`](theirs, c)
                st.set(xofState(theirs))
              }
            }
            heap().set(narrow(st, 1, 2), theirs)
            assert.strictEqual(toHex(lsw[`crypto_xof_${p}_squeeze`](theirs, 100)), xof(p, 100, m), `${p} ${m.length}`)
          }
        }
      })
    }
  })
}

// The portable kernel on this CPU: the whole file again, NATRIUM_DISABLE_SIMD=1; and which kernel
// ran, by gdb.
const native = backends.find((b) => b.name === 'native')
const addon = path.join(__dirname, '..', 'build', 'Release', 'natrium.node')

describe('sha3-fast dispatch', function () {
  before(function () {
    if (CHILD || !native) this.skip()
  })

  it('the portable kernel passes this file too (child process with NATRIUM_DISABLE_SIMD=1)', function () {
    this.timeout(240000)
    const mocha = require.resolve('mocha/bin/mocha.js')
    const env = { ...process.env, NATRIUM_DISABLE_SIMD: '1', NATRIUM_SHA3_CHILD: '1', NATRIUM_TEST_BACKENDS: 'native' }
    const r = spawnNode([mocha, '--reporter', 'dot', '--timeout', '240000', __filename], { env, encoding: 'utf8' })
    assert.strictEqual(r.status, 0, r.stdout + r.stderr)
    assert.match(r.stdout, /(\d+) passing/)
    assert.doesNotMatch(r.stdout, /failing/)
  })

  function traced (env) {
    const script = `const s = require(${JSON.stringify(addon)});
      s.crypto_hash_sha3256(new Uint8Array(32), new Uint8Array(1000));`
    const fns = ['nat_keccak_absorb_bmi2', 'nat_keccak_absorb_portable']
    return gdbEntered(fns, script, { env }).then((hit) => new Set(hit))
  }

  it('the BMI2 kernel runs where the CPU has BMI1 + BMI2, the portable one under NATRIUM_DISABLE_SIMD=1 (gdb)', async function () {
    const flags = (() => {
      try {
        const line = fs.readFileSync('/proc/cpuinfo', 'utf8').split('\n').find((l) => l.startsWith('flags'))
        return new Set(line.split(':')[1].trim().split(/\s+/))
      } catch { return new Set() }
    })()
    if (process.platform !== 'linux' || process.arch !== 'x64' || !fs.existsSync(addon) ||
        spawnSync('sh', ['-c', 'command -v gdb']).status !== 0) this.skip()
    this.timeout(120000)
    const [fast, portable] = await Promise.all([traced({ NATRIUM_DISABLE_SIMD: '' }), traced({ NATRIUM_DISABLE_SIMD: '1' })])
    assert.deepStrictEqual([...fast], [flags.has('bmi1') && flags.has('bmi2') ? 'nat_keccak_absorb_bmi2' : 'nat_keccak_absorb_portable'])
    assert.deepStrictEqual([...portable], ['nat_keccak_absorb_portable'])
  })
})

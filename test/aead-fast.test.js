// Our own ChaCha20-Poly1305 (src/crypto/chacha20poly1305.c: IETF, original and XChaCha20, on the
// ChaCha20 kernels of src/crypto/chacha20_*.c) against libsodium's:
// sodium-native 5.1.0 and libsodium-wrappers-sumo run libsodium's code. Every message length up to
// the cutoff + 64 (past it, libsodium's code runs behind ours natively; on wasm32 ours streams
// four blocks at a time) with every ad length 0..40, both directions, combined and detached;
// tampering at every byte; in-place operation; ad aliasing the output, where the order of reads
// and writes shows. On the wasm backend, where ours takes every length, its output is compared
// byte for byte with the native backend's across every boundary of the streaming code, up to 1 MB.
// Natively, past the cutoff, the dispatched kernel (AVX-512, AVX2, portable) runs: lengths across
// its 64/512/1024-byte steps and the 8 KB pieces Poly1305 takes, against sodium-native, with each
// kernel forced in turn in a child process (NATRIUM_CHACHA20=portable|libsodium|avx2|avx512).
// test/c/chacha20poly1305.c checks the same code in C, including the portable and wasm32 paths,
// under ASan/UBSan and valgrind.
const assert = require('assert')
const fs = require('fs')
const path = require('path')
const SodiumNative = require('sodium-native')
const wrappers = require('libsodium-wrappers-sumo')
const { spawnSync } = require('child_process')
const { backends, toHex, random, gdbEntered, rerunNative, cpuFlags } = require('./helpers')
const { load } = require('../lib/loader')
const sodiumNative = require('../lib/surfaces/sodium-native')

const header = fs.readFileSync(path.join(__dirname, '..', 'src', 'crypto', 'chacha20poly1305.h'), 'utf8')
const CUTOFF = Number(/#define NAT_CHACHA20POLY1305_SMALL_MAX (\d+)U/.exec(header)[1])
const ABYTES = 16
const CHILD = process.env.NATRIUM_CHACHA20_CHILD === '1'
const CONSTRUCTIONS = [
  { P: 'crypto_aead_xchacha20poly1305_ietf', NPUB: 24 },
  { P: 'crypto_aead_chacha20poly1305_ietf', NPUB: 12 },
  { P: 'crypto_aead_chacha20poly1305', NPUB: 8 }
]
// past the cutoff: the kernels' 64/512/1024-byte steps, the 8 KB Poly1305 pieces, large sizes
const LONG = []
for (const step of [64, 512, 1024, 8192]) {
  for (let k = 1; k <= 20; k++) if (step * k > CUTOFF) LONG.push(step * k - 1, step * k, step * k + 1)
}
LONG.push(100000, (1 << 20) - 1, 1 << 20, (1 << 20) + 63)

// The reference: libsodium through sodium-native, which lacks the original construction; for that
// one libsodium-wrappers-sumo (libsodium's own C in wasm), wrapped in sodium-native's calling
// convention (it copies its inputs first, as ad-before-c-written reads them).
before(async () => { await wrappers.ready })
const wrapped = {}
for (const { P } of CONSTRUCTIONS) {
  wrapped[`${P}_encrypt`] = (c, m, ad, nsec, npub, k) => { c.set(wrappers[`${P}_encrypt`](m, ad, null, npub, k)); return c.length }
  wrapped[`${P}_decrypt`] = (m, nsec, c, ad, npub, k) => { m.set(wrappers[`${P}_decrypt`](null, c, ad, npub, k)); return m.length }
}
const refLib = (P) => SodiumNative[`${P}_encrypt`] ? SodiumNative : wrapped

for (const { P, NPUB } of CONSTRUCTIONS) for (const { name: backend, sodium } of backends) {
  describe(`aead-fast: ${P.slice(12)}, our code [${backend}]`, () => {
    const REF = refLib(P)
    it(`cutoff read from the header (${CUTOFF} bytes)`, () => {
      assert.ok(CUTOFF >= 64 && CUTOFF <= 4096)
    })

    it(`every message length 0..${CUTOFF + 64} x ad length 0..${CHILD ? 17 : 40}: same bytes as sodium-native, both directions, combined and detached`, function () {
      this.timeout(120000) // the original construction checks against libsodium.js: slow under qemu
      // inputs are windows at varying offsets into one random pool (fresh bytes per case, cheaply)
      const pool = random(1 << 16)
      const view = (at, n) => pool.subarray(at % (pool.length - n), at % (pool.length - n) + n)
      const same = (a, b, where) => {
        if (!Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b)) assert.strictEqual(toHex(a), toHex(b), where)
      }
      const c = new Uint8Array(CUTOFF + 64 + ABYTES)
      const ref = Buffer.alloc(CUTOFF + 64 + ABYTES)
      const back = new Uint8Array(CUTOFF + 64)
      const mac = new Uint8Array(ABYTES)
      let at = 0
      for (let mlen = 0; mlen <= CUTOFF + 64; mlen++) {
        for (let adlen = 0; adlen <= (CHILD ? 17 : 40); adlen++) {
          const where = `mlen ${mlen} adlen ${adlen}`
          const k = view(at += 7919, 32)
          const npub = view(at += 7919, NPUB)
          const m = view(at += 7919, mlen)
          const ad = adlen === 0 && mlen % 2 ? null : view(at += 7919, adlen)
          const cm = c.subarray(0, mlen + ABYTES)
          const refm = ref.subarray(0, mlen + ABYTES)

          assert.strictEqual(sodium[`${P}_encrypt`](cm, m, ad, null, npub, k), mlen + ABYTES)
          REF[`${P}_encrypt`](refm, m, ad, null, npub, k)
          same(cm, refm, where)
          const bm = back.subarray(0, mlen)
          assert.strictEqual(sodium[`${P}_decrypt`](bm, null, refm, ad, npub, k), mlen)
          same(bm, m, where)

          const cd = c.subarray(0, mlen)
          assert.strictEqual(sodium[`${P}_encrypt_detached`](cd, mac, m, ad, null, npub, k), ABYTES)
          same(cd, refm.subarray(0, mlen), `${where} detached`)
          same(mac, refm.subarray(mlen), `${where} detached tag`)
          bm.fill(0)
          assert.strictEqual(sodium[`${P}_decrypt_detached`](bm, null, refm.subarray(0, mlen), refm.subarray(mlen), ad, npub, k), undefined)
          same(bm, m, `${where} detached`)
        }
      }
    })

    it('lengths around block and cutoff boundaries: same bytes as libsodium-wrappers-sumo', async () => {
      await wrappers.ready
      const lengths = [0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 191, 192, 193, 255, 256, 257,
        CUTOFF - 1, CUTOFF, CUTOFF + 1, 1000]
      for (const mlen of lengths) {
        for (const adlen of [0, 1, 16, 17, 40, 300]) {
          const [k, npub, m, ad] = [random(32), random(NPUB), random(mlen), random(adlen)]
          const c = new Uint8Array(mlen + ABYTES)
          sodium[`${P}_encrypt`](c, m, ad, null, npub, k)
          const ref = wrappers[`${P}_encrypt`](m, ad, null, npub, k)
          assert.strictEqual(toHex(c), toHex(ref), `mlen ${mlen} adlen ${adlen}`)
        }
      }
    })

    it(`${LONG.length} lengths past the cutoff up to 1 MB, misaligned, in place or not: same bytes as sodium-native, both directions`, function () {
      this.timeout(60000)
      let i = 0
      for (const mlen of LONG) {
        i++
        const adlen = [0, 1, 13, 16, 31, 300][i % 6]
        const [k, npub] = [random(32), random(NPUB)]
        const ad = adlen === 0 && i % 2 ? null : random(adlen)
        const off = i % 5 // a misaligned window into a larger buffer
        const mbuf = random(mlen + ABYTES + off)
        const m = mbuf.subarray(off, off + mlen)
        const ref = Buffer.alloc(mlen + ABYTES)
        REF[`${P}_encrypt`](ref, m, ad, null, npub, k)
        const where = `mlen ${mlen} adlen ${adlen} off ${off}`
        if (i % 2) { // in place
          const buf = mbuf.subarray(off, off + mlen + ABYTES)
          assert.strictEqual(sodium[`${P}_encrypt`](buf, m, ad, null, npub, k), mlen + ABYTES)
          assert.ok(Buffer.from(buf).equals(ref), `encrypt in place ${where}`)
          assert.strictEqual(sodium[`${P}_decrypt`](buf.subarray(0, mlen), null, buf, ad, npub, k), mlen)
          const back = Buffer.alloc(mlen)
          REF[`${P}_decrypt`](back, null, ref, ad, npub, k)
          assert.ok(Buffer.from(buf.subarray(0, mlen)).equals(back), `decrypt in place ${where}`)
        } else {
          const c = new Uint8Array(mlen + ABYTES + 3).subarray(3)
          assert.strictEqual(sodium[`${P}_encrypt`](c, m, ad, null, npub, k), mlen + ABYTES)
          assert.ok(Buffer.from(c).equals(ref), `encrypt ${where}`)
          const mac = new Uint8Array(ABYTES)
          const cd = new Uint8Array(mlen)
          sodium[`${P}_encrypt_detached`](cd, mac, m, ad, null, npub, k)
          assert.ok(Buffer.from(cd).equals(ref.subarray(0, mlen)) && Buffer.from(mac).equals(ref.subarray(mlen)), `encrypt_detached ${where}`)
          const back = new Uint8Array(mlen + 1).subarray(1)
          assert.strictEqual(sodium[`${P}_decrypt`](back, null, ref, ad, npub, k), mlen)
          assert.ok(Buffer.from(back).equals(Buffer.from(m)), `decrypt ${where}`)
          back.fill(0)
          sodium[`${P}_decrypt_detached`](back, null, ref.subarray(0, mlen), ref.subarray(mlen), ad, npub, k)
          assert.ok(Buffer.from(back).equals(Buffer.from(m)), `decrypt_detached ${where}`)
          // a flipped bit near the end of c: refused, m zeroed
          ref[mlen - 1] ^= 4
          back.fill(0xaa)
          assert.throws(() => sodium[`${P}_decrypt`](back, null, ref, ad, npub, k), /^Error: could not verify data$/)
          assert.ok(back.every((b) => b === 0), `m zeroed ${where}`)
        }
      }
    })

    for (const mlen of [0, 1, 16, 63, 64, 65, CUTOFF]) {
      it(`tampering at every byte (c, tag, ad, npub, k), mlen ${mlen}: refused, m zeroed, combined and detached`, () => {
        const [k, npub, m, ad] = [random(32), random(NPUB), random(mlen), random(mlen % 3 === 0 ? 0 : 21)]
        const c = new Uint8Array(mlen + ABYTES)
        sodium[`${P}_encrypt`](c, m, ad, null, npub, k)
        const out = new Uint8Array(mlen)
        for (const buf of [c, ad, npub, k]) {
          for (let i = 0; i < buf.length; i++) {
            const bit = 1 << (i % 8)
            buf[i] ^= bit
            out.fill(0xaa)
            assert.throws(() => sodium[`${P}_decrypt`](out, null, c, ad, npub, k), /^Error: could not verify data$/)
            assert.ok(out.every((b) => b === 0), `byte ${i}: m must be zeroed`)
            out.fill(0xaa)
            assert.throws(() => sodium[`${P}_decrypt_detached`](out, null, c.subarray(0, mlen), c.subarray(mlen), ad, npub, k),
              /^Error: could not verify data$/)
            assert.ok(out.every((b) => b === 0), `byte ${i}: m must be zeroed (detached)`)
            buf[i] ^= bit
          }
        }
        // a dropped byte is refused too (the lengths are authenticated); intact decrypts again
        if (mlen > 0) {
          assert.throws(() => sodium[`${P}_decrypt`](out.subarray(1), null, c.subarray(1), ad, npub, k), /could not verify data/)
        }
        sodium[`${P}_decrypt`](out, null, c, ad, npub, k)
        assert.strictEqual(toHex(out), toHex(m))
      })
    }

    it('in place (c and m share their first byte): same as out of place, combined and detached', () => {
      for (const mlen of [0, 1, 10, 64, 100, CUTOFF, CUTOFF + 1, CUTOFF + 64]) {
        const [k, npub, m, ad] = [random(32), random(NPUB), random(mlen), random(7)]
        const ref = new Uint8Array(mlen + ABYTES)
        REF[`${P}_encrypt`](ref, m, ad, null, npub, k)

        const buf = new Uint8Array(mlen + ABYTES)
        buf.set(m)
        sodium[`${P}_encrypt`](buf, buf.subarray(0, mlen), ad, null, npub, k)
        assert.strictEqual(toHex(buf), toHex(ref), `encrypt mlen ${mlen}`)
        assert.strictEqual(sodium[`${P}_decrypt`](buf.subarray(0, mlen), null, buf, ad, npub, k), mlen)
        assert.strictEqual(toHex(buf.subarray(0, mlen)), toHex(m), `decrypt mlen ${mlen}`)

        const mac = new Uint8Array(ABYTES)
        const cd = Uint8Array.from(m)
        sodium[`${P}_encrypt_detached`](cd, mac, cd, ad, null, npub, k)
        assert.strictEqual(toHex(cd) + toHex(mac), toHex(ref), `encrypt_detached mlen ${mlen}`)
        sodium[`${P}_decrypt_detached`](cd, null, cd, mac, ad, npub, k)
        assert.strictEqual(toHex(cd), toHex(m), `decrypt_detached mlen ${mlen}`)
      }
    })

    it('ad inside the output buffer: ad is read before c is written, as in libsodium', () => {
      for (const mlen of [0, 5, 40, 100, CUTOFF, CUTOFF + 1]) {
        for (const [start, adlen] of [[0, 20], [3, 17], [mlen, 16], [Math.max(0, mlen - 8), 24]]) {
          const [k, npub, m] = [random(32), random(NPUB), random(mlen)]
          const init = random(mlen + ABYTES)
          const run = (lib) => {
            const c = Uint8Array.from(init)
            const ad = c.subarray(start, Math.min(start + adlen, c.length))
            lib[`${P}_encrypt`](c, m, ad, null, npub, k)
            return toHex(c)
          }
          assert.strictEqual(run(sodium), run(REF), `encrypt mlen ${mlen} ad at ${start}`)

          const c = new Uint8Array(mlen + ABYTES)
          const adBuf = random(mlen)
          const ad = adBuf.subarray(0, Math.min(adlen, mlen))
          REF[`${P}_encrypt`](c, m, ad, null, npub, k)
          const out = Uint8Array.from(adBuf) // m's buffer holds ad: m is written only after the tag checks
          assert.strictEqual(sodium[`${P}_decrypt`](out, null, c, out.subarray(0, ad.length), npub, k), mlen)
          assert.strictEqual(toHex(out), toHex(m), `decrypt mlen ${mlen}`)
        }
      }
    })
  })
}

// crypto_secretstream_xchacha20poly1305 push/pull (src/crypto/secretstream.c) against libsodium
// (sodium-native): init_pull and init_push derive the same state from a header, so a push from a
// state made by init_pull is deterministic. Every chunk length 0..1100 and the kernel and 8 KB
// steps up to 1 MB, tags including REKEY and FINAL, ad present and absent; bytes and states after
// every chunk, each side pulling what the other pushed.
for (const { name: backend, sodium } of backends) {
  describe(`aead-fast: secretstream_xchacha20poly1305 push/pull, our code [${backend}]`, () => {
    const SSP = 'crypto_secretstream_xchacha20poly1305'
    it(`${CHILD ? 'every 7th chunk length' : 'every chunk length'} 0..1100 and ${LONG.length} up to 1 MB: same bytes and states as sodium-native, both directions`, function () {
      this.timeout(60000)
      const S = (fn) => SodiumNative[`${SSP}_${fn}`]
      const ss = (fn) => sodium[`${SSP}_${fn}`]
      const lengths = []
      for (let n = 0; n <= 1100; n += CHILD ? 7 : 1) lengths.push(n)
      lengths.push(...LONG)
      const [k, header] = [random(32), random(24)]
      const [ours, theirs, pullOurs, pullTheirs] = [new Uint8Array(52), Buffer.alloc(52), new Uint8Array(52), Buffer.alloc(52)]
      ss('init_pull')(ours, header, k)
      S('init_pull')(theirs, header, k)
      ss('init_pull')(pullOurs, header, k)
      S('init_pull')(pullTheirs, header, k)
      let i = 0
      for (const mlen of lengths) {
        i++
        const m = random(mlen)
        const ad = i % 3 ? random(i % 40) : null
        const tag = [0, 0, 0, 1, 2, 3][i % 6]
        const [co, ct] = [new Uint8Array(mlen + 17), Buffer.alloc(mlen + 17)]
        assert.strictEqual(ss('push')(ours, co, m, ad, tag), S('push')(theirs, ct, m, ad, tag))
        const where = `chunk ${i}, ${mlen} bytes, tag ${tag}`
        assert.ok(Buffer.from(co).equals(ct), `push ${where}`)
        assert.ok(Buffer.from(ours).equals(theirs), `state after push ${where}`)
        const [mo, mt, to, tt] = [new Uint8Array(mlen), Buffer.alloc(mlen), new Uint8Array(1), Buffer.alloc(1)]
        assert.strictEqual(ss('pull')(pullOurs, mo, to, ct, ad), mlen)
        S('pull')(pullTheirs, mt, tt, Buffer.from(co), ad)
        assert.ok(Buffer.from(mo).equals(Buffer.from(m)) && mt.equals(Buffer.from(m)), `pull ${where}`)
        assert.strictEqual(to[0], tag)
        assert.strictEqual(tt[0], tag)
        assert.ok(Buffer.from(pullOurs).equals(pullTheirs), `state after pull ${where}`)
        if (i % 50 === 0) {
          // a flipped bit in the chunk: refused, the state as it was
          const before = Uint8Array.from(pullOurs)
          co[(i * 7) % co.length] ^= 1
          assert.throws(() => ss('pull')(pullOurs, mo, to, co, ad), /pull failed/)
          assert.ok(Buffer.from(pullOurs).equals(Buffer.from(before)), `state kept after a refused pull ${where}`)
        }
      }
    })
  })
}

// The wasm backend runs our streaming code past the cutoff (the original construction's MAC
// through the scalar Poly1305, as its c rarely starts on a block boundary). The streaming code's boundaries: 64-byte groups (its four-lane Poly1305),
// the first 192 bytes, then 256-byte chunks (four ChaCha20 blocks) and a tail under 256 bytes.
const wasmBackend = backends.find((b) => b.name === 'wasm')
if (wasmBackend && !CHILD) for (const { P, NPUB } of CONSTRUCTIONS) {
  describe(`aead-fast: ${P.slice(12)}, wasm backend byte-identical to libsodium`, () => {
    const REF = refLib(P)
    const wasm = wasmBackend.sodium
    const native = sodiumNative(load('native')) // npm test requires both backends
    const lengths = []
    for (let n = 0; n <= 600; n++) lengths.push(n)
    for (let k = 10; k <= 64; k++) lengths.push(64 * k - 1, 64 * k, 64 * k + 1)
    for (let k = 1; k <= 24; k++) lengths.push(192 + 256 * k - 1, 192 + 256 * k, 192 + 256 * k + 1)
    lengths.push(1000, 1024, 65535, 65536, 65537, 100000, (1 << 20) - 1, 1 << 20, (1 << 20) + 1, (1 << 20) + 191)
    const adFor = (mlen) => {
      const adlen = mlen % 7 === 0 ? 0 : Math.floor(Math.random() * 300)
      return adlen === 0 && mlen % 2 ? null : random(adlen)
    }

    it(`${lengths.length} lengths 0..${(1 << 20) + 191} with random ad lengths: same bytes both ways, combined and detached`, function () {
      this.timeout(60000)
      for (const mlen of lengths) {
        const [k, npub, m, ad] = [random(32), random(NPUB), random(mlen), adFor(mlen)]
        const where = `mlen ${mlen} adlen ${ad ? ad.length : 'null'}`
        const c = new Uint8Array(mlen + ABYTES)
        const ref = new Uint8Array(mlen + ABYTES)
        assert.strictEqual(wasm[`${P}_encrypt`](c, m, ad, null, npub, k), mlen + ABYTES)
        REF[`${P}_encrypt`](ref, m, ad, null, npub, k)
        assert.ok(Buffer.from(c).equals(Buffer.from(ref)), `encrypt ${where}`)
        const back = new Uint8Array(mlen)
        assert.strictEqual(wasm[`${P}_decrypt`](back, null, ref, ad, npub, k), mlen)
        assert.ok(Buffer.from(back).equals(Buffer.from(m)), `decrypt ${where}`)

        const cd = new Uint8Array(mlen)
        const mac = new Uint8Array(ABYTES)
        assert.strictEqual(wasm[`${P}_encrypt_detached`](cd, mac, m, ad, null, npub, k), ABYTES)
        assert.ok(Buffer.from(cd).equals(Buffer.from(ref.subarray(0, mlen))), `encrypt_detached ${where}`)
        assert.ok(Buffer.from(mac).equals(Buffer.from(ref.subarray(mlen))), `encrypt_detached tag ${where}`)
        back.fill(0)
        wasm[`${P}_decrypt_detached`](back, null, ref.subarray(0, mlen), ref.subarray(mlen), ad, npub, k)
        assert.ok(Buffer.from(back).equals(Buffer.from(m)), `decrypt_detached ${where}`)
      }
    })

    it('in place (c and m share their first byte), past the cutoff: same bytes as the native backend', () => {
      for (const mlen of [CUTOFF + 1, 600, 1000, 4096 + 192, 65537, (1 << 20) + 1]) {
        const [k, npub, m, ad] = [random(32), random(NPUB), random(mlen), random(mlen % 50)]
        const ref = new Uint8Array(mlen + ABYTES)
        REF[`${P}_encrypt`](ref, m, ad, null, npub, k)
        const buf = new Uint8Array(mlen + ABYTES)
        buf.set(m)
        wasm[`${P}_encrypt`](buf, buf.subarray(0, mlen), ad, null, npub, k)
        assert.ok(Buffer.from(buf).equals(Buffer.from(ref)), `encrypt mlen ${mlen}`)
        assert.strictEqual(wasm[`${P}_decrypt`](buf.subarray(0, mlen), null, buf, ad, npub, k), mlen)
        assert.ok(Buffer.from(buf.subarray(0, mlen)).equals(Buffer.from(m)), `decrypt mlen ${mlen}`)

        const mac = new Uint8Array(ABYTES)
        const cd = Uint8Array.from(m)
        wasm[`${P}_encrypt_detached`](cd, mac, cd, ad, null, npub, k)
        assert.strictEqual(toHex(cd) + toHex(mac), toHex(ref), `encrypt_detached mlen ${mlen}`)
        wasm[`${P}_decrypt_detached`](cd, null, cd, mac, ad, npub, k)
        assert.ok(Buffer.from(cd).equals(Buffer.from(m)), `decrypt_detached mlen ${mlen}`)
      }
    })

    it('a flipped bit in c, the tag or ad past the cutoff: refused on both backends, m zeroed', () => {
      for (const mlen of [CUTOFF + 1, 577, 1000, 4096 + 191, 65536, (1 << 20) + 1]) {
        const [k, npub, m, ad] = [random(32), random(NPUB), random(mlen), random(1 + (mlen % 40))]
        const c = new Uint8Array(mlen + ABYTES)
        wasm[`${P}_encrypt`](c, m, ad, null, npub, k)
        // first and last byte of c, a byte in each of its 64-byte groups' ranges, the tag, ad
        const spots = [[c, 0], [c, mlen - 1], [c, 192], [c, mlen - (mlen % 64 || 64)],
          [c, Math.floor(Math.random() * mlen)], [c, mlen], [c, mlen + ABYTES - 1], [ad, 0], [ad, ad.length - 1]]
        for (const [buf, i] of spots) {
          const bit = 1 << Math.floor(Math.random() * 8)
          buf[i] ^= bit
          for (const [name, lib] of [['wasm', wasm], ['native', native]]) {
            const out = new Uint8Array(mlen).fill(0xaa)
            assert.throws(() => lib[`${P}_decrypt`](out, null, c, ad, npub, k), /^Error: could not verify data$/)
            assert.ok(out.every((b) => b === 0), `${name}: m zeroed, flip at ${i} of ${buf === c ? 'c' : 'ad'}, mlen ${mlen}`)
            out.fill(0xaa)
            assert.throws(() => lib[`${P}_decrypt_detached`](out, null, c.subarray(0, mlen), c.subarray(mlen), ad, npub, k),
              /^Error: could not verify data$/)
            assert.ok(out.every((b) => b === 0), `${name}: m zeroed (detached), flip at ${i}, mlen ${mlen}`)
          }
          buf[i] ^= bit
        }
        const out = new Uint8Array(mlen)
        assert.strictEqual(wasm[`${P}_decrypt`](out, null, c, ad, npub, k), mlen)
        assert.ok(Buffer.from(out).equals(Buffer.from(m)), `intact after the flips, mlen ${mlen}`)
      }
    })
  })
}

// Natively: the whole file once per ChaCha20 kernel, forced, in a child process.
const nativeBackend = backends.find((b) => b.name === 'native')

describe('aead-fast: every ChaCha20 kernel (NATRIUM_CHACHA20)', function () {
  before(function () {
    if (CHILD || !nativeBackend) this.skip()
  })

  const child = (env) => rerunNative([__filename], { ...env, NATRIUM_CHACHA20_CHILD: '1' })

  for (const [impl, flag] of [['portable', null], ['libsodium', null], ['avx2', 'avx2'], ['avx512', 'avx512f']]) {
    it(`the ${impl} kernel passes this file (NATRIUM_CHACHA20=${impl})`, function () {
      if (flag && !cpuFlags().has(flag)) this.skip()
      this.timeout(240000)
      child({ NATRIUM_CHACHA20: impl })
    })
  }

  // gdb's dprintf prints a line each time a function is entered. The load-time timing calls
  // every candidate; the encryption after it calls the one chosen.
  const addon = path.join(__dirname, '..', 'build', 'Release', 'natrium.node')
  const fns = ['nat_chacha20_blocks_avx512', 'nat_chacha20_blocks_avx2', 'nat_chacha20_blocks_portable', 'blocks_libsodium']
  function traced (env) {
    const script = `const s = require(${JSON.stringify(addon)});
      process.stdout.write('SEALING\\n');
      s.crypto_aead_chacha20poly1305_ietf_encrypt(new Uint8Array(4608 + 16), new Uint8Array(4608), null, null, new Uint8Array(12), new Uint8Array(32));`
    return gdbEntered(fns, script, { env, after: 'SEALING' })
  }

  it('each forced kernel is the one that runs (AVX-512 gives eight left-over blocks to AVX2), and unforced one of them does (gdb)', async function () {
    if (process.platform !== 'linux' || process.arch !== 'x64' || !fs.existsSync(addon) ||
        spawnSync('sh', ['-c', 'command -v gdb']).status !== 0) this.skip()
    this.timeout(120000)
    const flags = cpuFlags()
    const [auto, portable, lib, avx2, avx512] = await Promise.all([traced({}), traced({ NATRIUM_CHACHA20: 'portable' }),
      traced({ NATRIUM_CHACHA20: 'libsodium' }), traced({ NATRIUM_CHACHA20: 'avx2' }), traced({ NATRIUM_CHACHA20: 'avx512' })])
    assert.deepStrictEqual(portable, ['nat_chacha20_blocks_portable'])
    assert.deepStrictEqual(lib, ['blocks_libsodium'])
    if (flags.has('avx2')) assert.deepStrictEqual(avx2, ['nat_chacha20_blocks_avx2'])
    // 4608 bytes: block 0 alone (row-wise, in the AVX-512 file), then 72 blocks: four zmm passes
    // and eight left over, which go to the AVX2 code's eight-lane pass
    if (flags.has('avx512f') && flags.has('avx512vl')) assert.deepStrictEqual(avx512, ['nat_chacha20_blocks_avx512', 'nat_chacha20_blocks_avx2'])
    assert.ok(auto.length >= 1, auto.join())
  })
})

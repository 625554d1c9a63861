'use strict'
// AES-256-GCM on every backend and CPU: natrium's portable constant-time code
// (src/crypto/aes256gcm_soft.c: the wasm backend's, and the native one's where libsodium has no
// AES-NI / ARMv8 crypto code) and libsodium's hardware code, which natively answers wherever it
// can. The GCM spec's AES-256 test cases; node:crypto's aes-256-gcm on random keys, nonces, ad
// and messages at every length 0..600 and large sizes, in place and misaligned, combined,
// detached and with a precomputed key; forgeries refused with the output wiped. Natively the
// portable code is forced in a child process (NATRIUM_AES=soft) that runs this file, and gdb
// shows which code runs with and without it. (Wycheproof's aes_gcm_test.json: test/aead.test.js;
// the two backends byte for byte: test/backends.test.js.)
const assert = require('assert')
const crypto = require('crypto')
const fs = require('fs')
const path = require('path')
const { spawnSync } = require('child_process')
const { backends, hex, toHex, random, vectors, spawnNode, gdbEntered } = require('./helpers')

const CHILD = process.env.NATRIUM_AES_CHILD === '1'
const p = 'crypto_aead_aes256gcm'

function nodeGcm (k, n, m, ad) {
  const cipher = crypto.createCipheriv('aes-256-gcm', k, n)
  if (ad) cipher.setAAD(ad)
  const c = Buffer.concat([cipher.update(m), cipher.final()])
  return { c, tag: cipher.getAuthTag() }
}

// A view of `bytes` at an odd offset inside a larger buffer: nothing in the C may assume alignment.
function misaligned (bytes, offset) {
  const buf = new Uint8Array(bytes.length + offset + 3).fill(0x5c)
  buf.set(bytes, offset)
  return buf.subarray(offset, offset + bytes.length)
}

for (const { name: backend, sodium } of backends) {
  describe(`aes256gcm-fast [${backend}${CHILD ? ', NATRIUM_AES=soft' : ''}]`, function () {
    this.timeout(120000)

    it('is available', () => {
      assert.strictEqual(sodium.crypto_aead_aes256gcm_is_available(), true)
    })

    it('the GCM spec\'s AES-256 test cases 13-16 (McGrew and Viega, 96-bit IVs)', () => {
      const { tests } = vectors('gcm_spec_aes256.json')
      assert.strictEqual(tests.length, 4)
      for (const t of tests) {
        const [k, n, m, ad] = [t.key, t.iv, t.pt, t.aad].map(hex)
        const c = new Uint8Array(m.length + 16)
        assert.strictEqual(sodium[`${p}_encrypt`](c, m, ad.length ? ad : null, null, n, k), c.length)
        assert.strictEqual(toHex(c), t.ct + t.tag, `test case ${t.case}`)
        const back = new Uint8Array(m.length)
        assert.strictEqual(sodium[`${p}_decrypt`](back, null, c, ad.length ? ad : null, n, k), m.length)
        assert.strictEqual(toHex(back), t.pt)
      }
    })

    it('equals node:crypto at every length 0..600, random ad, combined and detached, both ways', () => {
      for (let len = 0; len <= 600; len++) {
        const [k, n, m] = [random(32), random(12), random(len)]
        const ad = len % 5 === 0 ? null : random(crypto.randomInt(0, 70))
        const want = nodeGcm(k, n, m, ad)
        const c = new Uint8Array(len + 16)
        sodium[`${p}_encrypt`](c, m, ad, null, n, k)
        assert.strictEqual(toHex(c), want.c.toString('hex') + want.tag.toString('hex'), `len ${len}`)
        const cd = new Uint8Array(len)
        const mac = new Uint8Array(16)
        assert.strictEqual(sodium[`${p}_encrypt_detached`](cd, mac, m, ad, null, n, k), 16)
        assert.strictEqual(toHex(cd) + toHex(mac), toHex(c), `detached, len ${len}`)
        const back = new Uint8Array(len)
        assert.strictEqual(sodium[`${p}_decrypt`](back, null, c, ad, n, k), len)
        assert.strictEqual(toHex(back), toHex(m), `decrypt, len ${len}`)
        const back2 = new Uint8Array(len)
        sodium[`${p}_decrypt_detached`](back2, null, cd, mac, ad, n, k)
        assert.strictEqual(toHex(back2), toHex(m), `decrypt_detached, len ${len}`)
      }
    })

    it('equals node:crypto at large sizes (to 1 MB), and with long ad', () => {
      for (const len of [4095, 4096, 4097, 65536 + 7, 1 << 20]) {
        const [k, n, m, ad] = [random(32), random(12), random(len), random(len % 3 === 0 ? 5000 : 17)]
        const want = nodeGcm(k, n, m, ad)
        const c = new Uint8Array(len + 16)
        sodium[`${p}_encrypt`](c, m, ad, null, n, k)
        assert.ok(Buffer.from(c.subarray(0, len)).equals(want.c), `len ${len}`)
        assert.strictEqual(toHex(c.subarray(len)), want.tag.toString('hex'), `tag, len ${len}`)
        const back = new Uint8Array(len)
        sodium[`${p}_decrypt`](back, null, c, ad, n, k)
        assert.ok(Buffer.from(back).equals(Buffer.from(m)), `decrypt, len ${len}`)
      }
    })

    it('in place and misaligned', () => {
      for (const len of [0, 1, 15, 16, 17, 47, 48, 49, 63, 64, 65, 200, 1000]) {
        const [k, n, m, ad] = [random(32), random(12), random(len), random(len % 13)]
        const want = nodeGcm(k, n, m, ad)
        const expected = want.c.toString('hex') + want.tag.toString('hex')
        // in place: c and m start at the same byte
        const buf = new Uint8Array(len + 16)
        buf.set(m)
        sodium[`${p}_encrypt`](buf, buf.subarray(0, len), ad, null, n, k)
        assert.strictEqual(toHex(buf), expected, `in place, len ${len}`)
        sodium[`${p}_decrypt`](buf.subarray(0, len), null, buf, ad, n, k)
        assert.strictEqual(toHex(buf.subarray(0, len)), toHex(m), `in place open, len ${len}`)
        // ad inside the output: it is hashed before anything is written (as libsodium does)
        if (ad.length) {
          const at = crypto.randomInt(0, len + 16)
          const out = new Uint8Array(len + 16 + ad.length)
          out.set(ad, at)
          sodium[`${p}_encrypt`](out.subarray(0, len + 16), m, out.subarray(at, at + ad.length), null, n, k)
          assert.strictEqual(toHex(out.subarray(0, len + 16)), expected, `ad at ${at} inside c, len ${len}`)
        }
        // the nonce inside the output, sealing and opening (it is read once, before any write)
        {
          const at = crypto.randomInt(0, len + 4)
          const out = new Uint8Array(len + 16 + 12)
          out.set(n, at)
          sodium[`${p}_encrypt`](out.subarray(0, len + 16), m, ad, null, out.subarray(at, at + 12), k)
          assert.strictEqual(toHex(out.subarray(0, len + 16)), expected, `npub at ${at} inside c, len ${len}`)
          const back = new Uint8Array(len + 12)
          back.set(n, at % (len + 1))
          sodium[`${p}_decrypt`](back.subarray(0, len), null, hex(expected), ad, back.subarray(at % (len + 1), at % (len + 1) + 12), k)
          assert.strictEqual(toHex(back.subarray(0, len)), toHex(m), `npub inside m, len ${len}`)
        }
        // every argument at an odd address
        for (const off of [1, 3, 7]) {
          const c = misaligned(new Uint8Array(len + 16), off)
          sodium[`${p}_encrypt`](c, misaligned(m, off + 2), misaligned(ad, off + 4), null, misaligned(n, off), misaligned(k, off + 1))
          assert.strictEqual(toHex(c), expected, `misaligned ${off}, len ${len}`)
          const ctx = misaligned(new Uint8Array(sodium[`${p}_STATEBYTES`]), off)
          sodium[`${p}_beforenm`](ctx, misaligned(k, off))
          const back = misaligned(new Uint8Array(len), off + 5)
          sodium[`${p}_decrypt_afternm`](back, null, misaligned(c, off + 2), misaligned(ad, off), n, ctx)
          assert.strictEqual(toHex(back), toHex(m), `misaligned afternm ${off}, len ${len}`)
        }
      }
    })

    it('a precomputed key (beforenm / *_afternm) gives the same bytes, for many messages', () => {
      const k = random(32)
      const ctx = new Uint8Array(sodium[`${p}_STATEBYTES`])
      sodium[`${p}_beforenm`](ctx, k)
      const saved = ctx.slice()
      for (let i = 0; i < 200; i++) {
        const len = i < 100 ? i : crypto.randomInt(0, 3000)
        const [n, m] = [random(12), random(len)]
        const ad = i % 3 ? random(i % 40) : null
        const want = nodeGcm(k, n, m, ad)
        const expected = want.c.toString('hex') + want.tag.toString('hex')
        const c = new Uint8Array(len + 16)
        assert.strictEqual(sodium[`${p}_encrypt_afternm`](c, m, ad, null, n, ctx), len + 16)
        assert.strictEqual(toHex(c), expected, `len ${len}`)
        const cd = new Uint8Array(len)
        const mac = new Uint8Array(16)
        assert.strictEqual(sodium[`${p}_encrypt_detached_afternm`](cd, mac, m, ad, null, n, ctx), 16)
        assert.strictEqual(toHex(cd) + toHex(mac), expected)
        const back = new Uint8Array(len)
        assert.strictEqual(sodium[`${p}_decrypt_afternm`](back, null, c, ad, n, ctx), len)
        assert.strictEqual(toHex(back), toHex(m))
        back.fill(0)
        sodium[`${p}_decrypt_detached_afternm`](back, null, cd, mac, ad, n, ctx)
        assert.strictEqual(toHex(back), toHex(m))
      }
      assert.strictEqual(toHex(ctx), toHex(saved), 'the state is read, never written')
      // and a state differs from one key to the next (it is not ignored)
      const other = new Uint8Array(sodium[`${p}_STATEBYTES`])
      sodium[`${p}_beforenm`](other, random(32))
      assert.notStrictEqual(toHex(other), toHex(ctx))
    })

    it('refuses every forgery (one bit of the ciphertext, the tag, ad or nonce; a wrong key) and wipes the output', () => {
      for (const len of [0, 1, 16, 33, 64, 100, 1000]) {
        const [k, n, m, ad] = [random(32), random(12), random(len), random(9)]
        const c = new Uint8Array(len + 16)
        sodium[`${p}_encrypt`](c, m, ad, null, n, k)
        const ctx = new Uint8Array(sodium[`${p}_STATEBYTES`])
        sodium[`${p}_beforenm`](ctx, k)
        const cases = []
        for (let i = 0; i < c.length; i += Math.max(1, c.length >> 4)) {
          const f = c.slice()
          f[i] ^= 1 << (i % 8)
          cases.push([`bit ${i % 8} of byte ${i}`, f, ad, n, k])
        }
        const ad2 = ad.slice(); ad2[3] ^= 0x80
        const n2 = n.slice(); n2[11] ^= 1
        const k2 = k.slice(); k2[31] ^= 1
        cases.push(['ad', c, ad2, n, k], ['nonce', c, ad, n2, k], ['key', c, ad, n, k2], ['no ad', c, null, n, k])
        for (const [what, f, a, nn, kk] of cases) {
          const out = new Uint8Array(len).fill(0xaa)
          assert.throws(() => sodium[`${p}_decrypt`](out, null, f, a, nn, kk), /^Error: could not verify data$/, `${what}, len ${len}`)
          assert.ok(out.every((b) => b === 0), `${what}, len ${len}: output not wiped`)
          const out2 = new Uint8Array(len).fill(0xaa)
          assert.throws(() => sodium[`${p}_decrypt_detached`](out2, null, f.subarray(0, len), f.subarray(len), a, nn, kk), /could not verify data/)
          assert.ok(out2.every((b) => b === 0), `${what} (detached), len ${len}: output not wiped`)
          if (kk === k) {
            const out3 = new Uint8Array(len).fill(0xaa)
            assert.throws(() => sodium[`${p}_decrypt_afternm`](out3, null, f, a, nn, ctx), /could not verify data/)
            assert.ok(out3.every((b) => b === 0), `${what} (afternm), len ${len}: output not wiped`)
          }
        }
        // in place: the ciphertext is the output, and it is wiped too
        const f = c.slice(); f[0] ^= 1
        assert.throws(() => sodium[`${p}_decrypt`](f.subarray(0, len), null, f, ad, n, k), /could not verify data/)
        assert.ok(f.subarray(0, len).every((b) => b === 0))
      }
    })
  })
}

// Natively: the portable code forced (NATRIUM_AES=soft) passes this whole file in a child process,
// and gdb shows that it is the code that runs then, and libsodium's AES-NI code otherwise.
const native = backends.find((b) => b.name === 'native')
const addon = path.join(__dirname, '..', 'build', 'Release', 'natrium.node')
const cpuHasAesni = () => {
  try {
    const line = fs.readFileSync('/proc/cpuinfo', 'utf8').split('\n').find((l) => l.startsWith('flags'))
    const flags = new Set(line.split(':')[1].trim().split(/\s+/))
    return flags.has('aes') && flags.has('pclmulqdq') && flags.has('avx')
  } catch { return false }
}

// A beforenm state holds the key schedule in the layout of the code that made it, so afternm
// takes only a state this backend's beforenm stamped: one from the other backend (another
// implementation or target), one never made, or a made one with its stamp changed is refused
// with the output zeroed, never answered with other bytes.
describe('aes256gcm-fast states', function () {
  const key = random(32)
  const n = random(12)
  const m = random(40)
  for (const { name: backend, sodium } of backends) {
    it(`${backend}: afternm refuses a state its beforenm did not make, and zeroes the output`, () => {
      const good = new Uint8Array(sodium[`${p}_STATEBYTES`])
      sodium[`${p}_beforenm`](good, key)
      const c = new Uint8Array(m.length + 16)
      sodium[`${p}_encrypt_afternm`](c, m, null, null, n, good)
      const k = crypto.createCipheriv('aes-256-gcm', key, n)
      assert.strictEqual(toHex(c), toHex(Buffer.concat([k.update(m), k.final(), k.getAuthTag()])))
      const bad = []
      for (const other of backends) {
        if (other.name === backend) continue
        const st = new Uint8Array(other.sodium[`${p}_STATEBYTES`])
        other.sodium[`${p}_beforenm`](st, key)
        bad.push([`${other.name}'s`, st])
      }
      const restamped = good.slice()
      restamped[restamped.length - 2] ^= 1
      bad.push(['zero', new Uint8Array(good.length)], ['restamped', restamped])
      for (const [what, st] of bad) {
        const out = new Uint8Array(m.length + 16).fill(0xaa)
        assert.throws(() => sodium[`${p}_encrypt_afternm`](out, m, null, null, n, st),
          (e) => e.message === 'invalid state' && e.code === 'ERR_NATRIUM_REFUSED', what)
        assert.ok(out.every((b) => b === 0), `${what}: output zeroed`)
        const mm = new Uint8Array(m.length).fill(0xaa)
        assert.throws(() => sodium[`${p}_decrypt_afternm`](mm, null, c, null, n, st), /invalid state/, what)
        assert.ok(mm.every((b) => b === 0), `${what}: message zeroed`)
      }
    })
  }
})

describe('aes256gcm-fast dispatch', function () {
  before(function () {
    if (CHILD || !native) this.skip()
  })

  it('the portable code passes this file natively (NATRIUM_AES=soft)', function () {
    this.timeout(300000)
    const mocha = require.resolve('mocha/bin/mocha.js')
    const r = spawnNode([mocha, '--reporter', 'dot', '--timeout', '240000', __filename],
      { env: { ...process.env, NATRIUM_AES: 'soft', NATRIUM_AES_CHILD: '1', NATRIUM_TEST_BACKENDS: 'native' }, encoding: 'utf8' })
    assert.strictEqual(r.status, 0, r.stdout + r.stderr)
    assert.match(r.stdout, /\b8 passing/) // every test of the native describes above (7 + the state stamps)
    assert.doesNotMatch(r.stdout, /failing/)
  })

  // gdb's dprintf prints a line each time a function is entered.
  function traced (env) {
    const script = `const s = require(${JSON.stringify(addon)});
      process.stdout.write('SEALING\\n');
      s.crypto_aead_aes256gcm_encrypt(new Uint8Array(116), new Uint8Array(100), null, null, new Uint8Array(12), new Uint8Array(32))`
    const fns = ['nat_aes256gcm_soft_encrypt_detached', 'crypto_aead_aes256gcm_encrypt_detached']
    return gdbEntered(fns, script, { env, after: 'SEALING' })
  }

  it('NATRIUM_AES=soft runs the portable code; unforced, libsodium\'s AES-NI code runs where the CPU has it (gdb)', async function () {
    if (process.platform !== 'linux' || process.arch !== 'x64' || !fs.existsSync(addon) ||
        spawnSync('sh', ['-c', 'command -v gdb']).status !== 0) this.skip()
    this.timeout(120000)
    const [auto, soft] = await Promise.all([traced({ NATRIUM_AES: '' }), traced({ NATRIUM_AES: 'soft' })])
    assert.deepStrictEqual(soft, ['nat_aes256gcm_soft_encrypt_detached'])
    assert.deepStrictEqual(auto, [cpuHasAesni() ? 'crypto_aead_aes256gcm_encrypt_detached' : 'nat_aes256gcm_soft_encrypt_detached'])
  })
})

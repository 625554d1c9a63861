'use strict'
// crypto_box (X25519-XSalsa20-Poly1305), crypto_box_curve25519xchacha20poly1305 and crypto_kx:
// libsodium's own vectors, round trips across every variant, tampering, small-order keys, the
// overlap rules, and differential checks against sodium-native 5.1.0 (every function it has) and
// libsodium-wrappers-sumo 0.8.4 (the XChaCha20 box and the *_afternm functions sodium-native lacks).
const assert = require('assert')
const crypto = require('crypto')
const SodiumNative = require('sodium-native')
const wrappers = require('libsodium-wrappers-sumo')
const { backends, hex, toHex, random, vectors, byName } = require('./helpers')

const BOXES = ['crypto_box', 'crypto_box_curve25519xchacha20poly1305']
const SMALL_ORDER = hex(vectors('libsodium/box_small_order.json').tests[0].p)
const LENGTHS = [0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 200, 1000]

const failed = (name) => (e) => e instanceof Error && !(e instanceof RangeError) && !(e instanceof TypeError) &&
  e.message === `${name} failed`
const rangeError = (start) => (e) => e instanceof RangeError && e.message.startsWith(start)

// Functions this file calls only through composed names, in full (see byName in helpers.js)
const BY_NAME = [
  'crypto_box_curve25519xchacha20poly1305_keypair',
  'crypto_box_curve25519xchacha20poly1305_seed_keypair',
  'crypto_box_curve25519xchacha20poly1305_beforenm',
  'crypto_box_curve25519xchacha20poly1305_easy',
  'crypto_box_curve25519xchacha20poly1305_open_easy',
  'crypto_box_curve25519xchacha20poly1305_detached',
  'crypto_box_curve25519xchacha20poly1305_open_detached',
  'crypto_box_curve25519xchacha20poly1305_easy_afternm',
  'crypto_box_curve25519xchacha20poly1305_open_easy_afternm',
  'crypto_box_curve25519xchacha20poly1305_detached_afternm',
  'crypto_box_curve25519xchacha20poly1305_open_detached_afternm',
  'crypto_box_curve25519xsalsa20poly1305_keypair',
  'crypto_box_curve25519xsalsa20poly1305_seed_keypair',
  'crypto_box_curve25519xsalsa20poly1305_keypair'
]

for (const { name: backend, sodium: surface } of backends) {
  const { sodium, calledEveryName } = byName(surface, BY_NAME)
  describe(`box [${backend}]`, () => {
    after(calledEveryName)
    const keypair = (p) => {
      const pk = new Uint8Array(sodium[`${p}_PUBLICKEYBYTES`])
      const sk = new Uint8Array(sodium[`${p}_SECRETKEYBYTES`])
      sodium[`${p}_keypair`](pk, sk)
      return { pk, sk }
    }

    it('crypto_box_curve25519xsalsa20poly1305_keypair: pk = scalarmult_base(sk), fresh each call, boxes with crypto_box_easy', () => {
      const p = 'crypto_box_curve25519xsalsa20poly1305'
      const [a, b] = [keypair(p), keypair(p)]
      for (const { pk, sk } of [a, b]) {
        const base = new Uint8Array(32)
        sodium.crypto_scalarmult_base(base, sk)
        assert.strictEqual(toHex(pk), toHex(base))
      }
      assert.notStrictEqual(toHex(a.sk), toHex(b.sk))
      const [m, n] = [random(33), random(sodium.crypto_box_NONCEBYTES)]
      const c = new Uint8Array(m.length + sodium.crypto_box_MACBYTES)
      sodium.crypto_box_easy(c, m, n, b.pk, a.sk)
      const back = new Uint8Array(m.length)
      assert.strictEqual(sodium.crypto_box_open_easy(back, c, n, a.pk, b.sk), true)
      assert.strictEqual(toHex(back), toHex(m))
    })

    describe('libsodium test/default vectors', () => {
      for (const t of vectors('libsodium/box_easy.json').tests) {
        it(`box.c / box2.c / box_easy.c: ${t.m.length / 2}-byte message through every crypto_box function`, () => {
          const [aliceSk, alicePk, bobSk, bobPk, n, m, c] = [t.alice_sk, t.alice_pk, t.bob_sk, t.bob_pk, t.nonce, t.m, t.c].map(hex)
          const out = new Uint8Array(c.length)
          assert.strictEqual(sodium.crypto_box_easy(out, m, n, bobPk, aliceSk), undefined)
          assert.strictEqual(toHex(out), t.c)
          const back = new Uint8Array(m.length)
          assert.strictEqual(sodium.crypto_box_open_easy(back, c, n, alicePk, bobSk), true)
          assert.strictEqual(toHex(back), t.m)

          const cd = new Uint8Array(m.length)
          const mac = new Uint8Array(sodium.crypto_box_MACBYTES)
          sodium.crypto_box_detached(cd, mac, m, n, bobPk, aliceSk)
          assert.strictEqual(toHex(mac) + toHex(cd), t.c)
          const back2 = new Uint8Array(m.length)
          assert.strictEqual(sodium.crypto_box_open_detached(back2, cd, mac, n, alicePk, bobSk), true)
          assert.strictEqual(toHex(back2), t.m)

          // both sides derive the same precomputed key, and the afternm functions agree
          const kA = new Uint8Array(sodium.crypto_box_BEFORENMBYTES)
          const kB = new Uint8Array(sodium.crypto_box_BEFORENMBYTES)
          sodium.crypto_box_beforenm(kA, bobPk, aliceSk)
          sodium.crypto_box_beforenm(kB, alicePk, bobSk)
          assert.strictEqual(toHex(kA), toHex(kB))
          const k3 = new Uint8Array(32)
          sodium.crypto_box_curve25519xsalsa20poly1305_beforenm(k3, bobPk, aliceSk)
          assert.strictEqual(toHex(k3), toHex(kA))
          const out2 = new Uint8Array(c.length)
          sodium.crypto_box_easy_afternm(out2, m, n, kA)
          assert.strictEqual(toHex(out2), t.c)
          const back3 = new Uint8Array(m.length)
          assert.strictEqual(sodium.crypto_box_open_easy_afternm(back3, c, n, kB), true)
          assert.strictEqual(toHex(back3), t.m)
          const cd2 = new Uint8Array(m.length)
          const mac2 = new Uint8Array(16)
          sodium.crypto_box_detached_afternm(cd2, mac2, m, n, kA)
          assert.strictEqual(toHex(mac2) + toHex(cd2), t.c)
          const back4 = new Uint8Array(m.length)
          assert.strictEqual(sodium.crypto_box_open_detached_afternm(back4, cd2, mac2, n, kB), true)
          assert.strictEqual(toHex(back4), t.m)
        })
      }

      it('box_seed.c and xchacha20.c: seed key pairs (and the xsalsa20poly1305 names)', () => {
        for (const t of vectors('libsodium/box_seed_keypair.json').tests) {
          const names = t.primitive === 'crypto_box' ? ['crypto_box', 'crypto_box_curve25519xsalsa20poly1305'] : [t.primitive]
          for (const p of names) {
            const pk = new Uint8Array(32)
            const sk = new Uint8Array(32)
            sodium[`${p}_seed_keypair`](pk, sk, hex(t.seed))
            assert.strictEqual(toHex(pk), t.pk, p)
            assert.strictEqual(toHex(sk), t.sk, p)
          }
        }
      })

      it('kx.c: seed key pair and the four session keys', () => {
        const t = vectors('libsodium/kx.json').tests[0]
        const [cpk, csk, spk, ssk] = [32, 32, 32, 32].map((n) => new Uint8Array(n))
        sodium.crypto_kx_seed_keypair(cpk, csk, hex(t.client_seed))
        assert.strictEqual(toHex(cpk), t.client_pk)
        assert.strictEqual(toHex(csk), t.client_sk)
        sodium.crypto_kx_seed_keypair(spk, ssk, hex(t.server_seed))
        const [crx, ctx, srx, stx] = [32, 32, 32, 32].map((n) => new Uint8Array(n))
        sodium.crypto_kx_client_session_keys(crx, ctx, cpk, csk, spk)
        sodium.crypto_kx_server_session_keys(srx, stx, spk, ssk, cpk)
        assert.deepStrictEqual([crx, ctx, srx, stx].map(toHex), [t.client_rx, t.client_tx, t.server_rx, t.server_tx])
      })
    })

    for (const p of BOXES) {
      describe(p, () => {
        const A = sodium[`${p}_MACBYTES`]
        const N = sodium[`${p}_NONCEBYTES`]
        const S = sodium[`${p}_SEALBYTES`]

        it('easy, detached and both afternm forms agree and open, at 0..1000 bytes', () => {
          const alice = keypair(p)
          const bob = keypair(p)
          const k = new Uint8Array(sodium[`${p}_BEFORENMBYTES`])
          const k2 = new Uint8Array(k.length)
          sodium[`${p}_beforenm`](k, bob.pk, alice.sk)
          sodium[`${p}_beforenm`](k2, alice.pk, bob.sk)
          assert.strictEqual(toHex(k), toHex(k2))
          for (const len of LENGTHS) {
            const m = random(len)
            const n = random(N)
            const c = new Uint8Array(len + A)
            sodium[`${p}_easy`](c, m, n, bob.pk, alice.sk)
            const cd = new Uint8Array(len)
            const mac = new Uint8Array(A)
            sodium[`${p}_detached`](cd, mac, m, n, bob.pk, alice.sk)
            assert.strictEqual(toHex(mac) + toHex(cd), toHex(c), `detached ${len}`)
            const ca = new Uint8Array(len + A)
            sodium[`${p}_easy_afternm`](ca, m, n, k)
            assert.strictEqual(toHex(ca), toHex(c), `easy_afternm ${len}`)
            const cda = new Uint8Array(len)
            const maca = new Uint8Array(A)
            sodium[`${p}_detached_afternm`](cda, maca, m, n, k)
            assert.strictEqual(toHex(maca) + toHex(cda), toHex(c), `detached_afternm ${len}`)

            const outs = [new Uint8Array(len), new Uint8Array(len), new Uint8Array(len), new Uint8Array(len)]
            assert.strictEqual(sodium[`${p}_open_easy`](outs[0], c, n, alice.pk, bob.sk), true)
            assert.strictEqual(sodium[`${p}_open_detached`](outs[1], cd, mac, n, alice.pk, bob.sk), true)
            assert.strictEqual(sodium[`${p}_open_easy_afternm`](outs[2], c, n, k2), true)
            assert.strictEqual(sodium[`${p}_open_detached_afternm`](outs[3], cd, mac, n, k2), true)
            for (const o of outs) assert.strictEqual(toHex(o), toHex(m), `open ${len}`)
          }
        })

        it('seal and seal_open round trip; each seal uses a fresh ephemeral key', () => {
          const bob = keypair(p)
          for (const len of LENGTHS) {
            const m = random(len)
            const c1 = new Uint8Array(len + S)
            const c2 = new Uint8Array(len + S)
            sodium[`${p}_seal`](c1, m, bob.pk)
            sodium[`${p}_seal`](c2, m, bob.pk)
            assert.notStrictEqual(toHex(c1), toHex(c2))
            const back = new Uint8Array(len)
            assert.strictEqual(sodium[`${p}_seal_open`](back, c1, bob.pk, bob.sk), true)
            assert.strictEqual(toHex(back), toHex(m))
          }
        })

        it('seal is an ordinary box from the ephemeral key, nonce = BLAKE2b-192(epk || pk)', () => {
          const bob = keypair(p)
          const m = random(50)
          const c = new Uint8Array(50 + S)
          sodium[`${p}_seal`](c, m, bob.pk)
          const epk = c.subarray(0, 32)
          const n = new Uint8Array(N) // node:crypto's BLAKE2b has no 24-byte output length
          SodiumNative.crypto_generichash(n, Buffer.concat([epk, bob.pk]))
          const back = new Uint8Array(50)
          assert.strictEqual(sodium[`${p}_open_easy`](back, c.subarray(32), n, epk, bob.sk), true)
          assert.strictEqual(toHex(back), toHex(m))
        })

        it('every flipped bit of c, mac, nonce or key fails, returns false and zeroes m', () => {
          const alice = keypair(p)
          const bob = keypair(p)
          const m = random(40)
          const n = random(N)
          const c = new Uint8Array(40 + A)
          sodium[`${p}_easy`](c, m, n, bob.pk, alice.sk)
          const k = new Uint8Array(32)
          sodium[`${p}_beforenm`](k, alice.pk, bob.sk)
          for (const [what, buf] of [['c', c], ['n', n], ['pk', alice.pk], ['sk', bob.sk], ['k', k]]) {
            for (const i of [0, A - 1, A, buf.length - 1]) {
              if (i >= buf.length) continue
              for (const bit of [0x01, 0x80]) {
                if (what === 'sk' && ((i === 0 && bit === 0x01) || (i === 31 && bit === 0x80))) continue // clamped away
                if (what === 'pk' && i === 31 && bit === 0x80) continue // X25519 ignores bit 255
                buf[i] ^= bit
                const out = new Uint8Array(40).fill(0x55)
                const ok = what === 'k'
                  ? sodium[`${p}_open_easy_afternm`](out, c, n, k)
                  : sodium[`${p}_open_easy`](out, c, n, alice.pk, bob.sk)
                assert.strictEqual(ok, false, `${what}[${i}] ^ ${bit}`)
                assert.ok(out.every((b) => b === 0), `${what}[${i}]: m not zeroed`)
                const outd = new Uint8Array(40).fill(0x55)
                if (what !== 'k') {
                  assert.strictEqual(sodium[`${p}_open_detached`](outd, c.subarray(A), c.subarray(0, A), n, alice.pk, bob.sk), false)
                  assert.ok(outd.every((b) => b === 0))
                }
                buf[i] ^= bit
              }
            }
          }
          // the untampered box still opens
          const out = new Uint8Array(40)
          assert.strictEqual(sodium[`${p}_open_easy`](out, c, n, alice.pk, bob.sk), true)
          assert.strictEqual(toHex(out), toHex(m))
        })

        it('seal_open with the wrong key pair, or a tampered or truncated box, returns false', () => {
          const bob = keypair(p)
          const eve = keypair(p)
          const m = random(33)
          const c = new Uint8Array(33 + S)
          sodium[`${p}_seal`](c, m, bob.pk)
          const out = new Uint8Array(33).fill(0x55)
          assert.strictEqual(sodium[`${p}_seal_open`](out, c, eve.pk, eve.sk), false)
          assert.strictEqual(sodium[`${p}_seal_open`](out, c, bob.pk, eve.sk), false)
          assert.strictEqual(sodium[`${p}_seal_open`](out, c, eve.pk, bob.sk), false)
          assert.strictEqual(sodium[`${p}_seal_open`](out, c, bob.sk, bob.pk), false) // swapped, as box_seal.c tries
          for (const i of [0, 31, 32, 47, 48, c.length - 1]) {
            c[i] ^= 1
            assert.strictEqual(sodium[`${p}_seal_open`](out, c, bob.pk, bob.sk), false, `c[${i}]`)
            c[i] ^= 1
          }
          assert.strictEqual(sodium[`${p}_seal_open`](out.subarray(1), c.subarray(0, c.length - 1), bob.pk, bob.sk), false)
          assert.ok(out.every((b) => b === 0), 'm not zeroed')
          assert.throws(() => sodium[`${p}_seal_open`](new Uint8Array(0), c.subarray(0, S - 1), bob.pk, bob.sk),
            rangeError(`c must be at least ${p}_SEALBYTES bytes long`))
          assert.throws(() => sodium[`${p}_open_easy`](new Uint8Array(0), c.subarray(0, A - 1), random(N), bob.pk, bob.sk),
            rangeError(`c must be at least ${p}_MACBYTES bytes long`))
        })

        it('a small-order public key is refused: box/beforenm/seal throw with every output zeroed, open returns false', () => {
          const me = keypair(p)
          const m = random(10)
          const n = random(N)
          const filled = (len) => new Uint8Array(len).fill(0xaa)
          const zero = (...bufs) => bufs.every((b) => b.every((x) => x === 0))
          const k = filled(32)
          assert.throws(() => sodium[`${p}_beforenm`](k, SMALL_ORDER, me.sk), failed(`${p}_beforenm`))
          const c = filled(10 + A)
          assert.throws(() => sodium[`${p}_easy`](c, m, n, SMALL_ORDER, me.sk), failed(`${p}_easy`))
          const [cd, mac] = [filled(10), filled(A)]
          assert.throws(() => sodium[`${p}_detached`](cd, mac, m, n, SMALL_ORDER, me.sk), failed(`${p}_detached`))
          // libsodium writes the ephemeral public key into c before it refuses the recipient's key
          const sealed = filled(10 + S)
          assert.throws(() => sodium[`${p}_seal`](sealed, m, SMALL_ORDER), failed(`${p}_seal`))
          assert.ok(zero(k, c, cd, mac, sealed), 'a refused call left bytes in an output')
          const out = filled(10)
          assert.strictEqual(sodium[`${p}_open_easy`](out, random(10 + A), n, SMALL_ORDER, me.sk), false)
          assert.strictEqual(sodium[`${p}_open_detached`](out, random(10), random(A), n, SMALL_ORDER, me.sk), false)
          assert.ok(zero(out))
          // an all-zero public key has small order too
          assert.throws(() => sodium[`${p}_beforenm`](new Uint8Array(32), new Uint8Array(32), me.sk), failed(`${p}_beforenm`))
        })

        it('boxes and opens in place (libsodium moves overlapping m and c itself)', () => {
          const alice = keypair(p)
          const bob = keypair(p)
          const n = random(N)
          for (const len of [0, 1, 40, 300]) {
            const m = random(len)
            const expected = new Uint8Array(len + A)
            sodium[`${p}_easy`](expected, m, n, bob.pk, alice.sk)
            for (const offset of [0, A]) { // m at the start of c, or where the ciphertext goes
              const buf = new Uint8Array(len + A)
              buf.set(m, offset)
              sodium[`${p}_easy`](buf, buf.subarray(offset, offset + len), n, bob.pk, alice.sk)
              assert.strictEqual(toHex(buf), toHex(expected), `easy in place at ${offset}, ${len} bytes`)
              assert.strictEqual(sodium[`${p}_open_easy`](buf.subarray(offset, offset + len), buf, n, alice.pk, bob.sk), true)
              assert.strictEqual(toHex(buf.subarray(offset, offset + len)), toHex(m), `open in place at ${offset}`)
            }
            const sealed = new Uint8Array(len + S)
            sealed.set(m)
            sodium[`${p}_seal`](sealed, sealed.subarray(0, len), bob.pk)
            const back = new Uint8Array(len)
            assert.strictEqual(sodium[`${p}_seal_open`](back, sealed, bob.pk, bob.sk), true)
            assert.strictEqual(toHex(back), toHex(m), 'seal in place')
          }
        })

        it('refuses a mac inside c and a key pair sharing bytes', () => {
          const me = keypair(p)
          const buf = new Uint8Array(64)
          assert.throws(() => sodium[`${p}_detached`](buf.subarray(0, 32), buf.subarray(16, 16 + A), random(32), random(N), me.pk, me.sk),
            rangeError('mac must not overlap c'))
          assert.throws(() => sodium[`${p}_detached_afternm`](buf.subarray(0, 32), buf.subarray(16, 16 + A), random(32), random(N), random(32)),
            rangeError('mac must not overlap c'))
          assert.throws(() => sodium[`${p}_keypair`](buf.subarray(0, 32), buf.subarray(16, 48)), rangeError('pk must not overlap sk'))
          assert.throws(() => sodium[`${p}_seed_keypair`](buf.subarray(0, 32), buf.subarray(0, 32), random(32)), rangeError('pk must not overlap sk'))
        })

        it('beforenm is HSalsa20/HChaCha20 of the X25519 shared secret (a zero input block)', () => {
          const a = keypair(p)
          const b = keypair(p)
          const shared = new Uint8Array(32)
          sodium.crypto_scalarmult(shared, a.sk, b.pk)
          const expected = new Uint8Array(32)
          sodium[p === 'crypto_box' ? 'crypto_core_hsalsa20' : 'crypto_core_hchacha20'](expected, new Uint8Array(16), shared, null)
          const k = new Uint8Array(32)
          sodium[`${p}_beforenm`](k, b.pk, a.sk)
          assert.strictEqual(toHex(k), toHex(expected))
        })
      })
    }

    describe('crypto_kx', () => {
      const kxPair = () => {
        const pk = new Uint8Array(32)
        const sk = new Uint8Array(32)
        sodium.crypto_kx_keypair(pk, sk)
        return { pk, sk }
      }

      it('client and server derive matching keys (client rx = server tx and vice versa)', () => {
        for (let i = 0; i < 20; i++) {
          const client = kxPair()
          const server = kxPair()
          const [crx, ctx, srx, stx] = [0, 0, 0, 0].map(() => new Uint8Array(32))
          sodium.crypto_kx_client_session_keys(crx, ctx, client.pk, client.sk, server.pk)
          sodium.crypto_kx_server_session_keys(srx, stx, server.pk, server.sk, client.pk)
          assert.strictEqual(toHex(crx), toHex(stx))
          assert.strictEqual(toHex(ctx), toHex(srx))
          assert.notStrictEqual(toHex(crx), toHex(ctx))
        }
      })

      it('keys depend on both public keys, and the key pair is X25519 (pk = base * sk)', () => {
        const client = kxPair()
        const server = kxPair()
        const pk = new Uint8Array(32)
        sodium.crypto_scalarmult_base(pk, client.sk)
        assert.strictEqual(toHex(pk), toHex(client.pk))
        const a = [new Uint8Array(32), new Uint8Array(32)]
        sodium.crypto_kx_client_session_keys(a[0], a[1], client.pk, client.sk, server.pk)
        const wrongPk = Uint8Array.from(client.pk)
        wrongPk[0] ^= 1
        const b = [new Uint8Array(32), new Uint8Array(32)]
        sodium.crypto_kx_client_session_keys(b[0], b[1], wrongPk, client.sk, server.pk)
        assert.notStrictEqual(toHex(a[0]), toHex(b[0]))
      })

      it('rx or tx may be null: both sides then get one shared key, client tx = server rx (kx.c)', () => {
        const client = kxPair()
        const server = kxPair()
        const [crx, ctx] = [new Uint8Array(32), new Uint8Array(32)]
        sodium.crypto_kx_client_session_keys(crx, ctx, client.pk, client.sk, server.pk)
        const single = []
        for (const [side, own, peer] of [['client', client, server], ['server', server, client]]) {
          for (const args of [[new Uint8Array(32), null], [null, new Uint8Array(32)], [undefined, new Uint8Array(32)]]) {
            sodium[`crypto_kx_${side}_session_keys`](...args, own.pk, own.sk, peer.pk)
            single.push(toHex(args[0] || args[1]))
          }
        }
        // libsodium writes rx then tx (client) or tx then rx (server) through one pointer: the
        // key that survives is the client-to-server key on both sides
        assert.deepStrictEqual(single, Array(6).fill(toHex(ctx)))
      })

      it('refuses rx and tx both null, one buffer for both, and a small-order peer key', () => {
        const client = kxPair()
        const server = kxPair()
        assert.throws(() => sodium.crypto_kx_client_session_keys(null, null, client.pk, client.sk, server.pk),
          (e) => e instanceof TypeError && e.message.startsWith('rx '))
        const buf = new Uint8Array(48)
        assert.throws(() => sodium.crypto_kx_server_session_keys(buf.subarray(0, 32), buf.subarray(16), server.pk, server.sk, client.pk),
          rangeError('rx must not overlap tx'))
        const rx = new Uint8Array(32).fill(9)
        assert.throws(() => sodium.crypto_kx_client_session_keys(rx, null, client.pk, client.sk, SMALL_ORDER),
          failed('crypto_kx_client_session_keys'))
        assert.throws(() => sodium.crypto_kx_server_session_keys(rx, null, server.pk, server.sk, SMALL_ORDER),
          failed('crypto_kx_server_session_keys'))
        assert.ok(rx.every((b) => b === 0), 'rx not zeroed on failure')
        assert.throws(() => sodium.crypto_kx_client_session_keys(new Uint8Array(31), null, client.pk, client.sk, server.pk),
          rangeError('rx must be crypto_kx_SESSIONKEYBYTES bytes long'))
      })
    })

    describe('differential', () => {
      before(() => wrappers.ready)

      it('every box/kx function shared with sodium-native 5.1.0: same bytes, same answer', () => {
        const p = 'crypto_box'
        for (let i = 0; i < 30; i++) {
          const seed = random(32)
          const ours = [new Uint8Array(32), new Uint8Array(32)]
          const theirs = [new Uint8Array(32), new Uint8Array(32)]
          sodium.crypto_box_seed_keypair(...ours, seed)
          SodiumNative.crypto_box_seed_keypair(...theirs, seed)
          assert.deepStrictEqual(ours.map(toHex), theirs.map(toHex))
          sodium.crypto_kx_seed_keypair(...ours, seed)
          SodiumNative.crypto_kx_seed_keypair(...theirs, seed)
          assert.deepStrictEqual(ours.map(toHex), theirs.map(toHex))

          const alice = keypair(p)
          const bob = { pk: new Uint8Array(32), sk: new Uint8Array(32) }
          SodiumNative.crypto_box_keypair(bob.pk, bob.sk)
          const len = crypto.randomInt(0, 300)
          const m = random(len)
          const n = random(24)
          const c1 = new Uint8Array(len + 16)
          const c2 = new Uint8Array(len + 16)
          sodium.crypto_box_easy(c1, m, n, bob.pk, alice.sk)
          SodiumNative.crypto_box_easy(c2, m, n, bob.pk, alice.sk)
          assert.strictEqual(toHex(c1), toHex(c2))
          const d1 = [new Uint8Array(len), new Uint8Array(16)]
          const d2 = [new Uint8Array(len), new Uint8Array(16)]
          sodium.crypto_box_detached(...d1, m, n, bob.pk, alice.sk)
          SodiumNative.crypto_box_detached(...d2, m, n, bob.pk, alice.sk)
          assert.deepStrictEqual(d1.map(toHex), d2.map(toHex))
          if (i % 3 === 1) c1[crypto.randomInt(0, c1.length)] ^= 1
          const o1 = new Uint8Array(len)
          const o2 = new Uint8Array(len)
          // where an open answers false natrium zeroes m (sodium-native leaves what was there)
          const opened = sodium.crypto_box_open_easy(o1, c1, n, alice.pk, bob.sk)
          assert.strictEqual(opened, SodiumNative.crypto_box_open_easy(o2, c1, n, alice.pk, bob.sk))
          assert.strictEqual(toHex(o1), opened ? toHex(o2) : '00'.repeat(len))
          if (i % 3 === 2) d1[1][0] ^= 1
          const openedDetached = sodium.crypto_box_open_detached(o1, d1[0], d1[1], n, alice.pk, bob.sk)
          assert.strictEqual(openedDetached, SodiumNative.crypto_box_open_detached(o2, d1[0], d1[1], n, alice.pk, bob.sk))
          assert.strictEqual(toHex(o1), openedDetached ? toHex(o2) : '00'.repeat(len))

          // seal: each side opens the other's; tampered boxes fail in both
          const s1 = new Uint8Array(len + 48)
          const s2 = new Uint8Array(len + 48)
          sodium.crypto_box_seal(s1, m, bob.pk)
          SodiumNative.crypto_box_seal(s2, m, bob.pk)
          if (i % 2) { s1[crypto.randomInt(0, s1.length)] ^= 4; s2[crypto.randomInt(0, s2.length)] ^= 4 }
          for (const s of [s1, s2]) {
            const a = new Uint8Array(len)
            const b = new Uint8Array(len)
            assert.strictEqual(sodium.crypto_box_seal_open(a, s, bob.pk, bob.sk), SodiumNative.crypto_box_seal_open(b, s, bob.pk, bob.sk))
            assert.strictEqual(toHex(a), toHex(b))
          }

          const server = { pk: new Uint8Array(32), sk: new Uint8Array(32) }
          SodiumNative.crypto_kx_keypair(server.pk, server.sk)
          for (const side of ['client', 'server']) {
            const fn = `crypto_kx_${side}_session_keys`
            const k1 = [new Uint8Array(32), new Uint8Array(32)]
            const k2 = [new Uint8Array(32), new Uint8Array(32)]
            sodium[fn](...k1, alice.pk, alice.sk, server.pk)
            SodiumNative[fn](...k2, alice.pk, alice.sk, server.pk)
            assert.deepStrictEqual(k1.map(toHex), k2.map(toHex))
            sodium[fn](k1[0], null, alice.pk, alice.sk, server.pk)
            SodiumNative[fn](k2[0], null, alice.pk, alice.sk, server.pk)
            assert.strictEqual(toHex(k1[0]), toHex(k2[0]))
          }
        }

        // refusals: both throw on a small-order key and on bad lengths, both answer false to a short box
        const me = keypair('crypto_box')
        const both = (fn, ...args) => {
          assert.throws(() => sodium[fn](...args), fn)
          assert.throws(() => SodiumNative[fn](...args), fn)
        }
        both('crypto_box_easy', new Uint8Array(26), random(10), random(24), SMALL_ORDER, me.sk)
        both('crypto_box_seal', new Uint8Array(58), random(10), SMALL_ORDER)
        both('crypto_kx_client_session_keys', new Uint8Array(32), null, me.pk, me.sk, SMALL_ORDER)
        both('crypto_kx_server_session_keys', null, null, me.pk, me.sk, random(32))
        both('crypto_box_easy', new Uint8Array(25), random(10), random(24), me.pk, me.sk)
        both('crypto_box_easy', new Uint8Array(26), random(10), random(23), me.pk, me.sk)
        both('crypto_box_open_easy', new Uint8Array(0), random(15), random(24), me.pk, me.sk)
        both('crypto_box_seal_open', new Uint8Array(1), random(48), me.pk, me.sk)
        both('crypto_box_keypair', new Uint8Array(31), new Uint8Array(32))
        both('crypto_kx_seed_keypair', new Uint8Array(32), new Uint8Array(32), random(31))
        assert.strictEqual(sodium.crypto_box_open_easy(new Uint8Array(0), random(16), random(24), me.pk, me.sk), false)
        assert.strictEqual(SodiumNative.crypto_box_open_easy(new Uint8Array(0), random(16), random(24), me.pk, me.sk), false)
      })

      it('the XChaCha20 box and the afternm functions equal libsodium-wrappers-sumo', () => {
        for (const p of BOXES) {
          for (let i = 0; i < 20; i++) {
            const a = keypair(p)
            const b = keypair(p)
            const len = crypto.randomInt(0, 300)
            const m = random(len)
            const n = random(sodium[`${p}_NONCEBYTES`])
            const k = new Uint8Array(32)
            sodium[`${p}_beforenm`](k, b.pk, a.sk)
            assert.strictEqual(toHex(k), toHex(wrappers[`${p}_beforenm`](b.pk, a.sk)))
            const c = new Uint8Array(len + 16)
            sodium[`${p}_easy`](c, m, n, b.pk, a.sk)
            assert.strictEqual(toHex(c), toHex(wrappers[`${p}_easy`](m, n, b.pk, a.sk)))
            sodium[`${p}_easy_afternm`](c, m, n, k)
            assert.strictEqual(toHex(c), toHex(wrappers[`${p}_easy_afternm`](m, n, k)))
            assert.strictEqual(toHex(wrappers[`${p}_open_easy_afternm`](c, n, k)), toHex(m))
            const cd = new Uint8Array(len)
            const mac = new Uint8Array(16)
            sodium[`${p}_detached`](cd, mac, m, n, b.pk, a.sk)
            const w = wrappers[`${p}_detached`](m, n, b.pk, a.sk)
            assert.strictEqual(toHex(cd) + toHex(mac), toHex(w.ciphertext) + toHex(w.mac))
            const seed = random(32)
            const kp = wrappers[`${p}_seed_keypair`](seed)
            const pk = new Uint8Array(32)
            const sk = new Uint8Array(32)
            sodium[`${p}_seed_keypair`](pk, sk, seed)
            assert.strictEqual(toHex(pk) + toHex(sk), toHex(kp.publicKey) + toHex(kp.privateKey))
            const sealed = wrappers[`${p}_seal`](m, b.pk)
            const back = new Uint8Array(len)
            assert.strictEqual(sodium[`${p}_seal_open`](back, sealed, b.pk, b.sk), true)
            assert.strictEqual(toHex(back), toHex(m))
          }
        }
      })
    })
  })
}

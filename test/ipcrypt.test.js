'use strict'
// crypto_ipcrypt_* and sodium_ip2bin/sodium_bin2ip: the specification vectors libsodium checks in
// test/default/ipcrypt.c, its address-parsing verdicts from test/default/codecs*.c, round trips,
// prefix preservation (pfx), tweak behaviour (nd, ndx) and aliasing rules. sodium-native has no
// ipcrypt, so there is no differential here.
const assert = require('assert')
const { backends, hex, toHex, random, vectors, byName } = require('./helpers')

const VARIANTS = {
  deterministic: { p: 'crypto_ipcrypt', K: 'KEYBYTES', IN: 'BYTES', OUT: 'BYTES' },
  nd: { p: 'crypto_ipcrypt_nd', K: 'ND_KEYBYTES', IN: 'ND_INPUTBYTES', OUT: 'ND_OUTPUTBYTES', T: 'ND_TWEAKBYTES' },
  ndx: { p: 'crypto_ipcrypt_ndx', K: 'NDX_KEYBYTES', IN: 'NDX_INPUTBYTES', OUT: 'NDX_OUTPUTBYTES', T: 'NDX_TWEAKBYTES' },
  pfx: { p: 'crypto_ipcrypt_pfx', K: 'PFX_KEYBYTES', IN: 'PFX_BYTES', OUT: 'PFX_BYTES' }
}

// the first `bits` bits (most significant first) of a and b agree
function samePrefix (a, b, bits) {
  for (let i = 0; i < bits; i++) {
    const mask = 0x80 >> (i % 8)
    if ((a[i >> 3] & mask) !== (b[i >> 3] & mask)) return false
  }
  return true
}
const flipBit = (buf, bit) => { buf[bit >> 3] ^= 0x80 >> (bit % 8) }

// Functions this file calls only through composed names, in full (see byName in helpers.js)
const BY_NAME = [
  'crypto_ipcrypt_keygen',
  'crypto_ipcrypt_nd_keygen',
  'crypto_ipcrypt_ndx_keygen',
  'crypto_ipcrypt_pfx_encrypt'
]

for (const { name: backend, sodium: surface } of backends) {
  const { sodium, calledEveryName } = byName(surface, BY_NAME)
  describe(`ipcrypt [${backend}]`, () => {
    after(calledEveryName)
    const size = (c) => sodium[`crypto_ipcrypt_${c}`]
    const enc = (v, input, k, t) => {
      const { p, OUT } = VARIANTS[v]
      const out = new Uint8Array(size(OUT))
      if (t) sodium[`${p}_encrypt`](out, input, t, k)
      else sodium[`${p}_encrypt`](out, input, k)
      return out
    }
    const dec = (v, c, k) => {
      const out = new Uint8Array(size(VARIANTS[v].IN))
      sodium[`${VARIANTS[v].p}_decrypt`](out, c, k)
      return out
    }

    it('sizes match the header', () => {
      assert.deepStrictEqual(
        ['BYTES', 'KEYBYTES', 'ND_KEYBYTES', 'ND_TWEAKBYTES', 'ND_INPUTBYTES', 'ND_OUTPUTBYTES', 'NDX_KEYBYTES',
          'NDX_TWEAKBYTES', 'NDX_INPUTBYTES', 'NDX_OUTPUTBYTES', 'PFX_KEYBYTES', 'PFX_BYTES'].map(size),
        [16, 16, 16, 8, 16, 24, 32, 16, 16, 32, 32, 16]) // libsodium test/default/ipcrypt.exp
    })

    it('libsodium test/default/ipcrypt.c specification vectors, decrypting back', () => {
      const { tests } = vectors('libsodium/ipcrypt.json')
      assert.strictEqual(tests.length, 25)
      for (const t of tests) {
        const out = enc(t.variant, hex(t.input), hex(t.key), t.tweak && hex(t.tweak))
        assert.strictEqual(toHex(out), t.output, t.name)
        assert.strictEqual(toHex(dec(t.variant, out, hex(t.key))), t.input, `${t.name}: decrypt`)
        // the vector's input is the address in its name
        const bin = new Uint8Array(16)
        sodium.sodium_ip2bin(bin, Buffer.from(t.ip))
        assert.strictEqual(toHex(bin), t.input, `${t.name}: sodium_ip2bin`)
      }
    })

    for (const [v, { p, K, T }] of Object.entries(VARIANTS)) {
      it(`${v}: keygen, random round trips, in-place where the sizes allow`, () => {
        const k = new Uint8Array(size(K))
        sodium[`${p}_keygen`](k)
        assert.ok(!k.every((b) => b === 0))
        for (let i = 0; i < 64; i++) {
          const input = random(16)
          const t = T && random(size(T))
          const c = enc(v, input, k, t)
          assert.strictEqual(toHex(dec(v, c, k)), toHex(input))
          if (T) assert.strictEqual(toHex(c.subarray(0, t.length)), toHex(t), 'the tweak leads the output')
          else {
            const inPlace = new Uint8Array(input)
            sodium[`${p}_encrypt`](inPlace, inPlace, k)
            assert.strictEqual(toHex(inPlace), toHex(c))
            sodium[`${p}_decrypt`](inPlace, inPlace, k)
            assert.strictEqual(toHex(inPlace), toHex(input))
          }
        }
      })
    }

    it('deterministic and pfx: same key and input give the same output, another key another', () => {
      for (const v of ['deterministic', 'pfx']) {
        const input = random(16)
        const k = random(size(VARIANTS[v].K))
        assert.strictEqual(toHex(enc(v, input, k)), toHex(enc(v, input, k)))
        const k2 = new Uint8Array(k); k2[0] ^= 1
        assert.notStrictEqual(toHex(enc(v, input, k2)), toHex(enc(v, input, k)))
      }
    })

    it('nd and ndx: any tweak change changes the ciphertext block', () => {
      for (const v of ['nd', 'ndx']) {
        const { K, T } = VARIANTS[v]
        const k = random(size(K))
        const input = random(16)
        const t = random(size(T))
        const base = toHex(enc(v, input, k, t).subarray(t.length))
        for (let i = 0; i < t.length; i++) {
          const t2 = new Uint8Array(t); t2[i] ^= 1
          assert.notStrictEqual(toHex(enc(v, input, k, t2).subarray(t.length)), base, `${v} tweak byte ${i}`)
        }
      }
    })

    it('pfx: flipping bit n keeps the first n bits of the output, IPv6 and IPv4-mapped', () => {
      const k = random(32)
      for (let bits = 0; bits <= 128; bits++) {
        const a = random(16); a[0] = 0x20; a[1] = 0x01
        const b = new Uint8Array(a); flipBit(b, bits)
        const ca = enc('pfx', a, k)
        const cb = enc('pfx', b, k)
        assert.ok(samePrefix(ca, cb, bits), `IPv6 /${bits}`)
        if (bits < 128) assert.ok(!samePrefix(ca, cb, bits + 1), `IPv6 /${bits}: bit ${bits} differs`)
      }
      const mapped = hex('00000000000000000000ffff')
      for (let bits = 0; bits <= 32; bits++) {
        const a = new Uint8Array(16); a.set(mapped); a.set(random(4), 12)
        const b = new Uint8Array(a); flipBit(b, 96 + bits)
        const ca = enc('pfx', a, k)
        assert.strictEqual(toHex(ca.subarray(0, 12)), toHex(mapped), 'IPv4 stays IPv4-mapped')
        assert.ok(samePrefix(ca, enc('pfx', b, k), 96 + bits), `IPv4 /${bits}`)
      }
    })

    it('wrong sizes are RangeErrors naming the parameter and its constant', () => {
      const k16 = random(16)
      assert.throws(() => sodium.crypto_ipcrypt_encrypt(new Uint8Array(15), random(16), k16), /^RangeError: out must be crypto_ipcrypt_BYTES bytes long$/)
      assert.throws(() => sodium.crypto_ipcrypt_decrypt(new Uint8Array(16), random(16), random(32)), /^RangeError: k must be crypto_ipcrypt_KEYBYTES bytes long$/)
      assert.throws(() => sodium.crypto_ipcrypt_nd_encrypt(new Uint8Array(24), random(16), random(16), k16), /^RangeError: t must be crypto_ipcrypt_ND_TWEAKBYTES bytes long$/)
      assert.throws(() => sodium.crypto_ipcrypt_nd_decrypt(new Uint8Array(16), random(16), k16), /^RangeError: in must be crypto_ipcrypt_ND_OUTPUTBYTES bytes long$/)
      assert.throws(() => sodium.crypto_ipcrypt_ndx_encrypt(new Uint8Array(32), random(16), random(16), k16), /^RangeError: k must be crypto_ipcrypt_NDX_KEYBYTES bytes long$/)
      assert.throws(() => sodium.crypto_ipcrypt_pfx_keygen(new Uint8Array(16)), /^RangeError: k must be crypto_ipcrypt_PFX_KEYBYTES bytes long$/)
    })

    it('aliasing: out may be in for the 16-byte constructions, never partly; nd/ndx out shares nothing', () => {
      const mem = random(64)
      assert.throws(() => sodium.crypto_ipcrypt_encrypt(mem.subarray(0, 16), mem.subarray(8, 24), random(16)), /^RangeError: out must not overlap in$/)
      assert.throws(() => sodium.crypto_ipcrypt_pfx_decrypt(mem.subarray(1, 17), mem.subarray(0, 16), random(32)), /^RangeError: out must not overlap in$/)
      assert.throws(() => sodium.crypto_ipcrypt_nd_encrypt(mem.subarray(0, 24), mem.subarray(8, 24), random(8), random(16)), /^RangeError: out must not overlap in$/)
      assert.throws(() => sodium.crypto_ipcrypt_nd_encrypt(mem.subarray(0, 24), random(16), mem.subarray(0, 8), random(16)), /^RangeError: out must not overlap t$/)
      assert.throws(() => sodium.crypto_ipcrypt_ndx_decrypt(mem.subarray(16, 32), mem.subarray(0, 32), random(32)), /^RangeError: out must not overlap in$/)
    })

    describe('sodium_ip2bin / sodium_bin2ip', () => {
      it('libsodium test/default/codecs*.c verdicts and round trips', () => {
        const { tests } = vectors('libsodium/ip2bin.json')
        for (const t of tests) {
          const bin = new Uint8Array(16).fill(0x55)
          if (t.valid) {
            sodium.sodium_ip2bin(bin, Buffer.from(t.ip))
            if (t.text) {
              const ip = new Uint8Array(39)
              const n = sodium.sodium_bin2ip(ip, bin)
              assert.strictEqual(Buffer.from(ip.subarray(0, n)).toString(), t.text)
            }
          } else {
            assert.throws(() => sodium.sodium_ip2bin(bin, Buffer.from(t.ip)), /^Error: invalid IP address$/, JSON.stringify(t.ip))
            assert.ok(bin.every((b) => b === 0), `${t.ip}: bin zeroed`)
          }
        }
        assert.throws(() => sodium.sodium_ip2bin(new Uint8Array(16), new Uint8Array(0)), /invalid IP address/)
      })

      it('IPv4 maps to ::ffff:a.b.c.d; text stops at a NUL; case does not matter', () => {
        const bin = new Uint8Array(16)
        sodium.sodium_ip2bin(bin, Buffer.from('192.168.1.1'))
        assert.strictEqual(toHex(bin), '00000000000000000000ffffc0a80101')
        const mapped = new Uint8Array(16)
        sodium.sodium_ip2bin(mapped, Buffer.from('::ffff:192.168.1.1'))
        assert.strictEqual(toHex(mapped), toHex(bin))
        sodium.sodium_ip2bin(mapped, Buffer.from('192.168.1.1\0garbage'))
        assert.strictEqual(toHex(mapped), toHex(bin))
        const lower = new Uint8Array(16)
        const upper = new Uint8Array(16)
        sodium.sodium_ip2bin(lower, Buffer.from('2001:db8::abcd'))
        sodium.sodium_ip2bin(upper, Buffer.from('2001:DB8::ABCD'))
        assert.strictEqual(toHex(lower), '20010db800000000000000000000abcd')
        assert.strictEqual(toHex(upper), toHex(lower))
      })

      it('sodium_bin2ip: shortest text (RFC 5952 style), IPv4-mapped as dotted quad; returns its length', () => {
        const cases = [
          ['00000000000000000000000000000000', '::'],
          ['00000000000000000000000000000001', '::1'],
          ['ffffffffffffffffffffffffffffffff', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
          ['00000000000000000000ffffffffffff', '255.255.255.255'],
          ['20010db8000000010000000000000001', '2001:db8:0:1::1'],
          ['20010db8000100000001000000000000', '2001:db8:1:0:1::']
        ]
        for (const [b, text] of cases) {
          const ip = new Uint8Array(45).fill(0xee)
          const n = sodium.sodium_bin2ip(ip, hex(b))
          assert.strictEqual(n, text.length)
          assert.strictEqual(Buffer.from(ip.subarray(0, n)).toString(), text)
          assert.ok(ip.subarray(n).every((x) => x === 0xee), 'no NUL, nothing past the text')
          const back = new Uint8Array(16)
          sodium.sodium_ip2bin(back, ip.subarray(0, n))
          assert.strictEqual(toHex(back), b)
        }
        for (let i = 0; i < 100; i++) {
          const b = random(16)
          if (i % 2) b.set(hex('00000000000000000000ffff'))
          const ip = new Uint8Array(39)
          const back = new Uint8Array(16)
          sodium.sodium_ip2bin(back, ip.subarray(0, sodium.sodium_bin2ip(ip, b)))
          assert.strictEqual(toHex(back), toHex(b))
        }
        assert.throws(() => sodium.sodium_bin2ip(new Uint8Array(38), random(16)), /^RangeError: ip must be at least 39 bytes long$/)
        assert.throws(() => sodium.sodium_bin2ip(new Uint8Array(39), random(4)), /^RangeError: bin must be crypto_ipcrypt_BYTES bytes long$/)
      })
    })
  })
}

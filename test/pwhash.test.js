'use strict'
// crypto_pwhash_*: libsodium's own Argon2i/Argon2id/scrypt tables (test/default/pwhash_*.c; RFC
// 9106's section 5 vectors need Argon2's secret and associated data, which libsodium's API does not
// take), RFC 7914's scrypt vectors through the low-level _ll, node:crypto's scrypt on random
// parameters, hash-string round trips and rehash rules, and sodium-native 5.1.0 for every
// function both have (sync and async). Limits stay small except for one interactive-limits case.
const assert = require('assert')
const crypto = require('crypto')
const SodiumNative = require('sodium-native')
const { backends, toHex, random, vectors, byName } = require('./helpers')

const ARGON2ID = 2
const ARGON2I = 1
const SMALL = { ops: 1, mem: 8192 } // Argon2's minimum: one pass over 8 KiB
const scrypt = 'crypto_pwhash_scryptsalsa208sha256'

// libsodium's pickparams() (crypto_pwhash/scryptsalsa208sha256/pwhash_scryptsalsa208sha256.c):
// how crypto_pwhash_scryptsalsa208sha256 turns opslimit and memlimit into scrypt's N, r and p.
// C integer division throughout.
function scryptParams (opslimit, memlimit) {
  const ops = Math.max(opslimit, 32768)
  const r = 8
  let logN = 1
  let p
  const fits = (maxN) => { while (logN < 63 && 2 ** logN <= Math.floor(maxN / 2)) logN++ }
  if (ops < Math.floor(memlimit / 32)) {
    p = 1
    fits(Math.floor(ops / (r * 4)))
  } else {
    fits(Math.floor(memlimit / (r * 128)))
    const maxrp = Math.min(Math.floor(Math.floor(ops / 4) / 2 ** logN), 0x3fffffff)
    p = Math.floor(maxrp / r)
  }
  return { N: 2 ** logN, r, p }
}

// A hash string in a STRBYTES buffer, NUL-padded, as libsodium writes it.
function strBuf (str, bytes) {
  const b = new Uint8Array(bytes)
  b.set(Buffer.from(str, 'latin1'))
  return b
}
const strOf = (b) => Buffer.from(b.subarray(0, b.indexOf(0))).toString('latin1')
const text = (s) => new Uint8Array(Buffer.from(s, 'utf8'))

function outcome (fn) {
  try {
    return { value: fn() }
  } catch (err) {
    return { threw: err.constructor.name }
  }
}

// Functions this file calls only through composed names, in full (see byName in helpers.js)
const BY_NAME = [
  'crypto_pwhash_argon2id_str_needs_rehash',
  'crypto_pwhash_scryptsalsa208sha256_str_needs_rehash'
]

for (const { name: backend, sodium: surface } of backends) {
  const { sodium, calledEveryName } = byName(surface, BY_NAME)
  describe(`pwhash [${backend}]`, () => {
    after(calledEveryName)
    const STRBYTES = sodium.crypto_pwhash_STRBYTES
    const SALTBYTES = sodium.crypto_pwhash_SALTBYTES

    for (const [file, alg, p] of [['pwhash_argon2id', ARGON2ID, 'crypto_pwhash_argon2id'], ['pwhash_argon2i', ARGON2I, 'crypto_pwhash_argon2i']]) {
      describe(`libsodium test/default/${file}.c`, () => {
        const { tests } = vectors(`libsodium/${file}.json`)

        it('tv/tv2: crypto_pwhash (even rows) and the per-algorithm function (odd rows) give the expected hashes', () => {
          const rows = tests.filter((t) => t.kind === 'hash')
          assert.strictEqual(rows.length, 10)
          for (const [i, t] of rows.entries()) {
            const passwd = Buffer.from(t.passwd, 'hex')
            const salt = Buffer.from(t.salt, 'hex').subarray(0, SALTBYTES)
            const out = new Uint8Array(t.outlen)
            const generic = () => sodium.crypto_pwhash(out, passwd, salt, t.opslimit, t.memlimit, alg)
            const specific = () => sodium[p](out, passwd, salt, t.opslimit, t.memlimit, alg)
            if (t.outlen < sodium.crypto_pwhash_BYTES_MIN) {
              assert.throws(generic, (e) => e instanceof RangeError && e.message === 'out must be at least crypto_pwhash_BYTES_MIN bytes long')
              assert.throws(specific, RangeError)
            } else if (t.fails) {
              // Argon2i needs three passes: the generic range admits opslimit 1, libsodium refuses
              assert.strictEqual(alg, ARGON2I)
              assert.throws(generic, (e) => !(e instanceof RangeError) && e.message === 'crypto_pwhash failed')
              assert.throws(specific, (e) => e instanceof RangeError && /^opslimit must be an integer between 3 and/.test(e.message))
            } else {
              if (i % 2) specific()
              else generic()
              assert.strictEqual(toHex(out), t.out, `row ${i}`)
            }
          }
        })

        it('tv3: str_verify accepts exactly the strings libsodium accepts', () => {
          const rows = tests.filter((t) => t.kind === 'str_verify')
          assert.ok(rows.some((t) => t.valid))
          for (const t of rows) {
            const str = strBuf(t.str, STRBYTES)
            assert.strictEqual(sodium.crypto_pwhash_str_verify(str, text(t.passwd)), t.valid, t.str)
            assert.strictEqual(sodium[`${p}_str_verify`](str, text(t.passwd)), t.valid, `${p}: ${t.str}`)
          }
        })
      })
    }

    describe(`libsodium test/default/pwhash_scrypt.c`, () => {
      const { tests } = vectors('libsodium/pwhash_scrypt.json')

      it('tv/tv2: every limit pair is below sodium-native\'s minimum, and its hash is scrypt with libsodium\'s N, r, p', () => {
        const rows = tests.filter((t) => t.kind === 'hash' && !t.fails)
        assert.strictEqual(rows.length, 11)
        let checked = 0
        for (const t of rows) {
          const { N, r, p } = scryptParams(t.opslimit, t.memlimit)
          if (N * r * p > 64 * 1024) continue // the costlier half, to keep the suite fast
          const passwd = Buffer.from(t.passwd, 'hex')
          const salt = Buffer.from(t.salt, 'hex')
          assert.throws(() => sodium[scrypt](new Uint8Array(t.outlen), passwd, salt, t.opslimit, t.memlimit), RangeError)
          const out = new Uint8Array(t.outlen)
          sodium[`${scrypt}_ll`](out, passwd, salt, N, r, p)
          assert.strictEqual(toHex(out), t.out)
          checked++
        }
        assert.strictEqual(checked, 6)
      })

      it('tv3: str_verify accepts exactly the strings libsodium accepts', () => {
        const STR = sodium[`${scrypt}_STRBYTES`]
        let checked = 0
        for (const t of tests.filter((t) => t.kind === 'str_verify')) {
          if (t.str.length >= STR) continue // one invalid string longer than any hash string
          if (t.valid && t.str[3] === 'B') continue // N = 2^13 with p = 3: costly, and five more like it
          if (t.passwd === '') {
            // sodium-native refuses an empty passwd here; so do we
            assert.throws(() => sodium[`${scrypt}_str_verify`](strBuf(t.str, STR), new Uint8Array(0)), RangeError)
            continue
          }
          assert.strictEqual(sodium[`${scrypt}_str_verify`](strBuf(t.str, STR), text(t.passwd)), t.valid, t.str)
          checked++
        }
        assert.strictEqual(checked, 26)
      })
    })

    describe('scrypt low level (_ll)', () => {
      it('RFC 7914 section 12 vectors', () => {
        const { tests } = vectors('rfc7914.json')
        for (const t of tests.filter((t) => !t.slow)) {
          const out = new Uint8Array(t.dkLen)
          sodium[`${scrypt}_ll`](out, text(t.P), text(t.S), t.N, t.r, t.p)
          assert.strictEqual(toHex(out), t.DK)
        }
      })

      it('equals node:crypto scryptSync on random small N, r, p, lengths', () => {
        for (let i = 0; i < 40; i++) {
          const N = 2 ** crypto.randomInt(1, 11)
          const r = crypto.randomInt(1, 9)
          const p = crypto.randomInt(1, 4)
          const [passwd, salt] = [random(crypto.randomInt(0, 80)), random(crypto.randomInt(0, 80))]
          const out = new Uint8Array(crypto.randomInt(1, 150))
          sodium[`${scrypt}_ll`](out, passwd, salt, N, r, p)
          const expected = crypto.scryptSync(passwd, salt, out.length, { N, r, p })
          assert.strictEqual(toHex(out), expected.toString('hex'), `N=${N} r=${r} p=${p}`)
        }
      })

      it('libsodium refuses bad N, r, p (Error); values past the C types are RangeErrors', () => {
        const call = (N, r, p) => () => sodium[`${scrypt}_ll`](new Uint8Array(32), text('pw'), text('salt'), N, r, p)
        for (const [N, r, p] of [[0, 1, 1], [1, 1, 1], [24, 1, 1], [16, 0, 1], [16, 1, 0], [16, 2 ** 15, 2 ** 15], [2 ** 33, 1, 1]]) {
          assert.throws(call(N, r, p), (e) => !(e instanceof RangeError) && e.message === `${scrypt}_ll failed`, `N=${N} r=${r} p=${p}`)
        }
        assert.throws(call(16, 2 ** 32, 1), (e) => e instanceof RangeError && e.message.startsWith('r must be an integer between 0 and 4294967295'))
        assert.throws(call(2 ** 53, 1, 1), RangeError)
        assert.throws(call(16.5, 1, 1), RangeError)
        assert.throws(() => { const b = new Uint8Array(40); sodium[`${scrypt}_ll`](b.subarray(0, 32), b.subarray(30), text('s'), 16, 1, 1) },
          (e) => e instanceof RangeError && e.message === 'buf must not overlap passwd')
      })
    })

    describe('scrypt (crypto_pwhash_scryptsalsa208sha256)', () => {
      it('is scrypt with libsodium\'s N, r, p from opslimit and memlimit: equals node:crypto', () => {
        // both of libsodium's branches: opslimit bounds N (p = 1), or memlimit bounds N and p grows
        const cases = [[32768, 16777216], [65536, 33554432], [2 ** 20, 16777216]]
        for (const [ops, mem] of cases) {
          const [passwd, salt] = [random(crypto.randomInt(0, 40)), random(32)]
          const out = new Uint8Array(crypto.randomInt(16, 100))
          sodium[scrypt](out, passwd, salt, ops, mem)
          const { N, r, p } = scryptParams(ops, mem)
          const expected = crypto.scryptSync(passwd, salt, out.length, { N, r, p, maxmem: 256 * 1024 * 1024 })
          assert.strictEqual(toHex(out), expected.toString('hex'), `opslimit ${ops} memlimit ${mem}`)
        }
      })

      it('str round trip, wrong password, needs_rehash', () => {
        const STR = sodium[`${scrypt}_STRBYTES`]
        const [ops, mem] = [sodium[`${scrypt}_OPSLIMIT_MIN`], sodium[`${scrypt}_MEMLIMIT_MIN`]]
        const out = new Uint8Array(STR).fill(0xff)
        sodium[`${scrypt}_str`](out, text('Correct Horse'), ops, mem)
        const s = strOf(out)
        assert.ok(s.startsWith(sodium[`${scrypt}_STRPREFIX`]))
        assert.strictEqual(s.length, STR - 1)
        assert.strictEqual(sodium[`${scrypt}_str_verify`](out, text('Correct Horse')), true)
        assert.strictEqual(sodium[`${scrypt}_str_verify`](out, text('Correct Horsf')), false)
        assert.strictEqual(sodium[`${scrypt}_str_needs_rehash`](out, ops, mem), false)
        // true exactly when libsodium would pick other N, r, p for the new limits
        const same = (a, b) => JSON.stringify(a) === JSON.stringify(b)
        for (const [o, m] of [[ops * 4, mem], [ops, mem * 4], [ops * 40, mem], [ops * 40, mem * 2], [ops + 1, mem]]) {
          assert.strictEqual(sodium[`${scrypt}_str_needs_rehash`](out, o, m), !same(scryptParams(o, m), scryptParams(ops, mem)), `${o} ${m}`)
        }
        assert.strictEqual(sodium[`${scrypt}_str_needs_rehash`](out, ops * 4, mem), true)
        // an Argon2 string is not a scrypt string, and the other way round
        assert.strictEqual(sodium[`${scrypt}_str_needs_rehash`](strBuf('$argon2id$v=19$m=8,t=1,p=1$', STR), ops, mem), true)
        assert.strictEqual(sodium.crypto_pwhash_str_needs_rehash(strBuf(s, STRBYTES), 1, 8192), true)
        assert.strictEqual(sodium.crypto_pwhash_str_verify(strBuf(s, STRBYTES), text('Correct Horse')), false)
      })

      it('refuses an empty passwd in _str and _str_verify, as sodium-native does, but not in the raw hash', () => {
        const STR = sodium[`${scrypt}_STRBYTES`]
        const [ops, mem] = [sodium[`${scrypt}_OPSLIMIT_MIN`], sodium[`${scrypt}_MEMLIMIT_MIN`]]
        const empty = new Uint8Array(0)
        assert.throws(() => sodium[`${scrypt}_str`](new Uint8Array(STR), empty, ops, mem),
          (e) => e instanceof RangeError && e.message === 'passwd must be at least 1 bytes long')
        assert.throws(() => sodium[`${scrypt}_str_verify`](new Uint8Array(STR), empty), RangeError)
        sodium[scrypt](new Uint8Array(16), empty, random(32), ops, mem)
      })
    })

    describe('Argon2 hash strings', () => {
      for (const [p, alg, prefix] of [
        ['crypto_pwhash', ARGON2ID, '$argon2id$'],
        ['crypto_pwhash_argon2id', ARGON2ID, '$argon2id$'],
        ['crypto_pwhash_argon2i', ARGON2I, '$argon2i$']
      ]) {
        it(`${p}_str: NUL-padded string, verify, wrong password, needs_rehash`, () => {
          const ops = alg === ARGON2I ? 3 : 2
          const mem = 16384
          const out = new Uint8Array(STRBYTES).fill(0xff)
          sodium[`${p}_str`](out, text('Correct Horse'), ops, mem)
          const s = strOf(out)
          assert.ok(s.startsWith(`${prefix}v=19$m=16,t=${ops},p=1$`), s)
          assert.ok(out.subarray(s.length).every((b) => b === 0), 'not NUL-padded')
          assert.strictEqual(sodium[`${p}_str_verify`](out, text('Correct Horse')), true)
          assert.strictEqual(sodium.crypto_pwhash_str_verify(out, text('Correct Horse')), true)
          assert.strictEqual(sodium[`${p}_str_verify`](out, text('Correct Horse ')), false)
          assert.strictEqual(sodium[`${p}_str_needs_rehash`](out, ops, mem), false)
          assert.strictEqual(sodium.crypto_pwhash_str_needs_rehash(out, ops, mem), false)
          for (const [o, m] of [[ops + 1, mem], [ops, mem * 2], [ops, mem / 2]]) {
            assert.strictEqual(sodium[`${p}_str_needs_rehash`](out, o, m), true, `${o} ${m}`)
          }
          // a tampered string no longer verifies and reads as invalid
          const bad = out.slice()
          bad[1] ^= 0x20
          assert.strictEqual(sodium[`${p}_str_verify`](bad, text('Correct Horse')), false)
          assert.strictEqual(sodium[`${p}_str_needs_rehash`](bad, ops, mem), true)
        })
      }

      it('the Argon2i and Argon2id functions refuse each other\'s strings', () => {
        const id = new Uint8Array(STRBYTES)
        const i = new Uint8Array(STRBYTES)
        sodium.crypto_pwhash_argon2id_str(id, text('pw'), 1, 8192)
        sodium.crypto_pwhash_argon2i_str(i, text('pw'), 3, 8192)
        assert.strictEqual(sodium.crypto_pwhash_argon2i_str_verify(id, text('pw')), false)
        assert.strictEqual(sodium.crypto_pwhash_argon2id_str_verify(i, text('pw')), false)
        assert.strictEqual(sodium.crypto_pwhash_argon2i_str_needs_rehash(id, 3, 8192), true)
        assert.strictEqual(sodium.crypto_pwhash_str_verify(i, text('pw')), true)
      })

      it('crypto_pwhash_str_alg writes the chosen algorithm', () => {
        for (const [alg, prefix] of [[ARGON2I, '$argon2i$'], [ARGON2ID, '$argon2id$']]) {
          const out = new Uint8Array(STRBYTES)
          sodium.crypto_pwhash_str_alg(out, text('test'), 3, 8192, alg)
          assert.ok(strOf(out).startsWith(prefix))
          assert.strictEqual(sodium.crypto_pwhash_str_verify(out, text('test')), true)
        }
        assert.throws(() => sodium.crypto_pwhash_str_alg(new Uint8Array(STRBYTES), text('t'), 3, 8192, 3),
          (e) => e instanceof RangeError && e.message === 'alg must be an integer between 1 and 2')
      })

      it('a str buffer without a NUL is an invalid string (never read past its end)', () => {
        for (const fill of [0x24, 0x61]) {
          const str = new Uint8Array(STRBYTES).fill(fill)
          assert.strictEqual(sodium.crypto_pwhash_str_verify(str, text('pw')), false)
          assert.strictEqual(sodium.crypto_pwhash_str_needs_rehash(str, 1, 8192), true)
          assert.strictEqual(sodium.crypto_pwhash_argon2i_str_verify(str, text('pw')), false)
          const s = new Uint8Array(sodium[`${scrypt}_STRBYTES`]).fill(fill)
          assert.strictEqual(sodium[`${scrypt}_str_verify`](s, text('pw')), false)
          assert.strictEqual(sodium[`${scrypt}_str_needs_rehash`](s, 32768, 16777216), true)
        }
        // the string ends at its NUL: whatever follows it is ignored
        const out = new Uint8Array(STRBYTES)
        sodium.crypto_pwhash_str(out, text('pw'), 1, 8192)
        out.fill(0x41, strOf(out).length + 1)
        assert.strictEqual(sodium.crypto_pwhash_str_verify(out, text('pw')), true)
        assert.strictEqual(sodium.crypto_pwhash_str_needs_rehash(out, 1, 8192), false)
      })
    })

    describe('argument checks', () => {
      const salt = random(SALTBYTES)
      const ok = (f) => assert.doesNotThrow(f)
      const range = (f, msg) => assert.throws(f, (e) => e instanceof RangeError && e.message === msg, msg)

      it('crypto_pwhash: lengths, limits, alg, aliasing', () => {
        const pw = text('pw')
        ok(() => sodium.crypto_pwhash(new Uint8Array(16), pw, salt, 1, 8192, ARGON2ID))
        range(() => sodium.crypto_pwhash(new Uint8Array(15), pw, salt, 1, 8192, ARGON2ID), 'out must be at least crypto_pwhash_BYTES_MIN bytes long')
        range(() => sodium.crypto_pwhash(new Uint8Array(16), pw, random(15), 1, 8192, ARGON2ID), 'salt must be crypto_pwhash_SALTBYTES bytes long')
        range(() => sodium.crypto_pwhash(new Uint8Array(16), pw, salt, 0, 8192, ARGON2ID), 'opslimit must be an integer between 1 and 4294967295')
        range(() => sodium.crypto_pwhash(new Uint8Array(16), pw, salt, 2 ** 32, 8192, ARGON2ID), 'opslimit must be an integer between 1 and 4294967295')
        assert.throws(() => sodium.crypto_pwhash(new Uint8Array(16), pw, salt, 1, 8191, ARGON2ID), (e) => e instanceof RangeError && e.message.startsWith('memlimit must be an integer between 8192 and '))
        range(() => sodium.crypto_pwhash(new Uint8Array(16), pw, salt, 1.5, 8192, ARGON2ID), 'opslimit must be an integer between 1 and 4294967295')
        range(() => sodium.crypto_pwhash(new Uint8Array(16), pw, salt, 1, 8192, 0), 'alg must be an integer between 1 and 2')
        range(() => sodium.crypto_pwhash(new Uint8Array(16), pw, salt, 1, 8192, 3), 'alg must be an integer between 1 and 2')
        range(() => sodium.crypto_pwhash_argon2id(new Uint8Array(16), pw, salt, 1, 8192, ARGON2I), 'alg must be an integer between 2 and 2')
        assert.throws(() => sodium.crypto_pwhash(new Uint8Array(16), pw, salt, 1, 8192, '2'), TypeError)
        // libsodium clears out before reading passwd: overlapping buffers are refused
        const b = new Uint8Array(64)
        range(() => sodium.crypto_pwhash(b.subarray(0, 32), b.subarray(16, 24), salt, 1, 8192, ARGON2ID), 'out must not overlap passwd')
        range(() => sodium.crypto_pwhash(b.subarray(0, 32), pw, b.subarray(16, 32), 1, 8192, ARGON2ID), 'out must not overlap salt')
      })

      it('str functions: exact STRBYTES buffers', () => {
        range(() => sodium.crypto_pwhash_str(new Uint8Array(STRBYTES - 1), text('pw'), 1, 8192), 'out must be crypto_pwhash_STRBYTES bytes long')
        range(() => sodium.crypto_pwhash_str_verify(new Uint8Array(STRBYTES + 1), text('pw')), 'str must be crypto_pwhash_STRBYTES bytes long')
        range(() => sodium.crypto_pwhash_str_needs_rehash(new Uint8Array(10), 1, 8192), 'str must be crypto_pwhash_STRBYTES bytes long')
        range(() => sodium[`${scrypt}_str`](new Uint8Array(STRBYTES), text('pw'), 32768, 16777216), `out must be ${scrypt}_STRBYTES bytes long`)
        range(() => sodium[`${scrypt}_str_needs_rehash`](new Uint8Array(102), 32767, 16777216), 'opslimit must be an integer between 32768 and 4294967295')
      })
    })

    describe('differential: sodium-native 5.1.0', () => {
      it('crypto_pwhash (Argon2i, Argon2id): same bytes, same throw/no-throw', () => {
        for (let i = 0; i < 16; i++) {
          const alg = i % 2 ? ARGON2I : ARGON2ID
          const ops = crypto.randomInt(1, 4) // Argon2i refuses 1 and 2
          const mem = 8192 * crypto.randomInt(1, 5)
          const [passwd, salt] = [random(crypto.randomInt(0, 40)), random(SALTBYTES)]
          const len = crypto.randomInt(16, 80)
          const [a, b] = [new Uint8Array(len), new Uint8Array(len)]
          const ra = outcome(() => sodium.crypto_pwhash(a, passwd, salt, ops, mem, alg))
          const rb = outcome(() => SodiumNative.crypto_pwhash(b, passwd, salt, ops, mem, alg))
          assert.strictEqual(!!ra.threw, !!rb.threw, `alg ${alg} ops ${ops}`)
          assert.strictEqual(ra.value, rb.value)
          assert.strictEqual(toHex(a), toHex(b))
        }
        const bad = [
          [new Uint8Array(15), text('pw'), random(SALTBYTES), 1, 8192, ARGON2ID],
          [new Uint8Array(16), text('pw'), random(SALTBYTES + 1), 1, 8192, ARGON2ID],
          [new Uint8Array(16), text('pw'), random(SALTBYTES), 0, 8192, ARGON2ID],
          [new Uint8Array(16), text('pw'), random(SALTBYTES), 1, 8191, ARGON2ID],
          [new Uint8Array(16), text('pw'), random(SALTBYTES), 1, 8192, 3],
          [new Uint8Array(16), text('pw'), random(SALTBYTES), 1, 8192, ARGON2I]
        ]
        for (const args of bad) {
          assert.throws(() => sodium.crypto_pwhash(...args))
          assert.throws(() => SodiumNative.crypto_pwhash(...args))
        }
      })

      it('crypto_pwhash at the interactive limits', () => {
        const [passwd, salt] = [text('Correct Horse Battery Staple'), random(SALTBYTES)]
        const [a, b] = [new Uint8Array(32), new Uint8Array(32)]
        sodium.crypto_pwhash(a, passwd, salt, sodium.crypto_pwhash_OPSLIMIT_INTERACTIVE, sodium.crypto_pwhash_MEMLIMIT_INTERACTIVE, sodium.crypto_pwhash_ALG_DEFAULT)
        SodiumNative.crypto_pwhash(b, passwd, salt, SodiumNative.crypto_pwhash_OPSLIMIT_INTERACTIVE, SodiumNative.crypto_pwhash_MEMLIMIT_INTERACTIVE, SodiumNative.crypto_pwhash_ALG_DEFAULT)
        assert.strictEqual(toHex(a), toHex(b))
      })

      it('str, str_verify, str_needs_rehash (Argon2 and scrypt): each verifies the other\'s strings, same answers', () => {
        for (const [p, ops, mem] of [['crypto_pwhash', 2, 16384], [scrypt, 32768, 16777216]]) {
          const STR = sodium[`${p}_STRBYTES`]
          const passwd = random(crypto.randomInt(1, 30))
          const [ours, theirs] = [new Uint8Array(STR), new Uint8Array(STR)]
          sodium[`${p}_str`](ours, passwd, ops, mem)
          SodiumNative[`${p}_str`](theirs, passwd, ops, mem)
          const wrong = random(passwd.length + 1)
          for (const s of [ours, theirs]) {
            for (const pw of [passwd, wrong]) {
              assert.strictEqual(sodium[`${p}_str_verify`](s, pw), SodiumNative[`${p}_str_verify`](s, pw))
            }
            assert.strictEqual(sodium[`${p}_str_verify`](s, passwd), true)
            for (const [o, m] of [[ops, mem], [ops * 2, mem], [ops, mem * 2]]) {
              assert.strictEqual(sodium[`${p}_str_needs_rehash`](s, o, m), SodiumNative[`${p}_str_needs_rehash`](s, o, m))
            }
          }
          // a garbage string that is NUL-terminated: both call it invalid
          const junk = strBuf('$argon2id$v=19$m=junk', STR)
          assert.strictEqual(sodium[`${p}_str_verify`](junk, passwd), SodiumNative[`${p}_str_verify`](junk, passwd))
          assert.strictEqual(sodium[`${p}_str_needs_rehash`](junk, ops, mem), SodiumNative[`${p}_str_needs_rehash`](junk, ops, mem))
          for (const bad of [new Uint8Array(STR - 1), new Uint8Array(STR + 1)]) {
            assert.throws(() => sodium[`${p}_str`](bad, passwd, ops, mem))
            assert.throws(() => SodiumNative[`${p}_str`](bad, passwd, ops, mem))
            assert.throws(() => sodium[`${p}_str_verify`](bad, passwd))
            assert.throws(() => SodiumNative[`${p}_str_verify`](bad, passwd))
          }
          // empty passwords: refused by both exactly where sodium-native refuses them
          const empty = new Uint8Array(0)
          const e1 = outcome(() => sodium[`${p}_str`](new Uint8Array(STR), empty, ops, mem))
          const e2 = outcome(() => SodiumNative[`${p}_str`](new Uint8Array(STR), empty, ops, mem))
          assert.strictEqual(!!e1.threw, !!e2.threw, `${p}_str with an empty passwd`)
          const v1 = outcome(() => sodium[`${p}_str_verify`](ours, empty))
          const v2 = outcome(() => SodiumNative[`${p}_str_verify`](ours, empty))
          assert.deepStrictEqual(!!v1.threw, !!v2.threw, `${p}_str_verify with an empty passwd`)
        }
      })

      it('crypto_pwhash_scryptsalsa208sha256: same bytes, same throw/no-throw', () => {
        for (const [ops, mem] of [[32768, 16777216], [100000, 20000000], [600000, 16777216]]) {
          const [passwd, salt] = [random(crypto.randomInt(0, 30)), random(32)]
          const [a, b] = [new Uint8Array(40), new Uint8Array(40)]
          sodium[scrypt](a, passwd, salt, ops, mem)
          SodiumNative[scrypt](b, passwd, salt, ops, mem)
          assert.strictEqual(toHex(a), toHex(b))
        }
        for (const [len, saltLen, ops, mem] of [[15, 32, 32768, 16777216], [16, 31, 32768, 16777216], [16, 32, 32767, 16777216], [16, 32, 32768, 16777215]]) {
          const args = [new Uint8Array(len), text('pw'), random(saltLen), ops, mem]
          assert.throws(() => sodium[scrypt](...args))
          assert.throws(() => SodiumNative[scrypt](...args))
        }
      })
    })

    if (backend === 'native') {
      describe('async (native)', () => {
        it('crypto_pwhash_async resolves to the same bytes as crypto_pwhash and as sodium-native', async () => {
          const jobs = []
          for (let i = 0; i < 4; i++) {
            const alg = i % 2 ? ARGON2I : ARGON2ID
            const [passwd, salt] = [random(10 + i), random(SALTBYTES)]
            const [a, s, n] = [new Uint8Array(32), new Uint8Array(32), new Uint8Array(32)]
            sodium.crypto_pwhash(s, passwd, salt, 3, 16384, alg)
            const promise = sodium.crypto_pwhash_async(a, passwd, salt, 3, 16384, alg)
            assert.ok(promise instanceof Promise)
            jobs.push(Promise.all([promise, SodiumNative.crypto_pwhash_async(n, passwd, salt, 3, 16384, alg)]).then(([r]) => {
              assert.strictEqual(r, undefined)
              assert.strictEqual(toHex(a), toHex(s))
              assert.strictEqual(toHex(a), toHex(n))
            }))
          }
          await Promise.all(jobs)
        })

        it('str_async and str_verify_async (Argon2 and scrypt): booleans, the same answers as sync', async () => {
          for (const [p, ops, mem] of [['crypto_pwhash', 1, 8192], [scrypt, 32768, 16777216]]) {
            const out = new Uint8Array(sodium[`${p}_STRBYTES`])
            assert.strictEqual(await sodium[`${p}_str_async`](out, text('hunter2'), ops, mem), undefined)
            assert.strictEqual(sodium[`${p}_str_verify`](out, text('hunter2')), true)
            assert.strictEqual(SodiumNative[`${p}_str_verify`](out, text('hunter2')), true)
            assert.strictEqual(await sodium[`${p}_str_verify_async`](out, text('hunter2')), true)
            assert.strictEqual(await sodium[`${p}_str_verify_async`](out, text('hunter3')), false)
            assert.strictEqual(await SodiumNative[`${p}_str_verify_async`](out, text('hunter3')), false)
            const unterminated = new Uint8Array(out.length).fill(0x24)
            assert.strictEqual(await sodium[`${p}_str_verify_async`](unterminated, text('hunter2')), false)
          }
        })

        it('crypto_pwhash_scryptsalsa208sha256_async resolves to the same bytes as sync and sodium-native', async () => {
          const [passwd, salt] = [random(12), random(32)]
          const [a, s, n] = [new Uint8Array(48), new Uint8Array(48), new Uint8Array(48)]
          sodium[scrypt](s, passwd, salt, 65536, 16777216)
          await Promise.all([sodium[`${scrypt}_async`](a, passwd, salt, 65536, 16777216), SodiumNative[`${scrypt}_async`](n, passwd, salt, 65536, 16777216)])
          assert.strictEqual(toHex(a), toHex(s))
          assert.strictEqual(toHex(a), toHex(n))
        })

        it('bad arguments throw synchronously; a libsodium refusal rejects', async () => {
          const salt = random(SALTBYTES)
          assert.throws(() => sodium.crypto_pwhash_async(new Uint8Array(15), text('pw'), salt, 1, 8192, ARGON2ID), RangeError)
          assert.throws(() => sodium.crypto_pwhash_str_verify_async(new Uint8Array(STRBYTES), new Uint8Array(0)), RangeError)
          assert.throws(() => sodium[`${scrypt}_async`](new Uint8Array(16), new Uint8Array(0), random(32), 32768, 16777216), RangeError)
          await assert.rejects(sodium.crypto_pwhash_async(new Uint8Array(16), text('pw'), salt, 1, 8192, ARGON2I),
            (e) => !(e instanceof RangeError) && e.message === 'crypto_pwhash_async failed')
        })

        it('throw/no-throw as sodium-native for empty passwords', () => {
          const STR = STRBYTES
          const empty = new Uint8Array(0)
          const cases = [
            ['crypto_pwhash_async', () => [new Uint8Array(16), empty, random(SALTBYTES), 1, 8192, ARGON2ID]],
            ['crypto_pwhash_str_async', () => [new Uint8Array(STR), empty, 1, 8192]],
            ['crypto_pwhash_str_verify_async', () => [new Uint8Array(STR), empty]],
            [`${scrypt}_async`, () => [new Uint8Array(16), empty, random(32), 32768, 16777216]],
            [`${scrypt}_str_async`, () => [new Uint8Array(102), empty, 32768, 16777216]],
            [`${scrypt}_str_verify_async`, () => [new Uint8Array(102), empty]]
          ]
          const settle = []
          for (const [fn, args] of cases) {
            const a = outcome(() => sodium[fn](...args()))
            const b = outcome(() => SodiumNative[fn](...args()))
            assert.strictEqual(!!a.threw, !!b.threw, fn)
            for (const r of [a, b]) if (r.value) settle.push(r.value.catch(() => {}))
          }
          return Promise.all(settle)
        })
      })
    }
  })
}

'use strict'
// crypto_core_* and crypto_scalarmult_* vectors from libsodium's core*.c, scalarmult*.c and
// xchacha20.c (HChaCha20).
const crypto = require('crypto')
const { write } = require('./extract')
const { read, cArray, cStrings, hexBytes } = require('./c-source')

// X25519 (scalarmult.c): base(alice_sk), base(bob_sk), the shared secret both ways, the same with
// bit 255 of Alice's public key set (ignored by X25519), and a small-order point (refused).
{
  const c = read('scalarmult.c')
  const [alicePk, bobPk, k1, k2, k3] = read('scalarmult.exp').trim().split('\n')
  const a = cArray(c, 'alicesk')
  const b = cArray(c, 'bobsk')
  const flipped = Buffer.from(alicePk, 'hex')
  flipped[31] ^= 0x80
  write('scalarmult', 'scalarmult.c (+ .exp)', [
    { n: a, p: null, q: alicePk },
    { n: b, p: null, q: bobPk },
    { n: a, p: bobPk, q: k1 },
    { n: b, p: alicePk, q: k2 },
    { n: b, p: flipped.toString('hex'), q: k3 },
    { n: b, p: cArray(c, 'small_order_p'), q: null }
  ])
}

// HSalsa20 and Salsa20 cores. core1/core2 derive NaCl's box keys with HSalsa20; core4 is one
// Salsa20 block (printed in decimal); core5 is an HSalsa20 block, and core6 prints the Salsa20
// block of the same input minus its input words at HSalsa20's output positions (so the same bytes).
{
  const dec = (text) => Buffer.from(text.match(/\d+/g).map(Number)).toString('hex')
  const core1 = read('core1.c')
  const core2 = read('core2.c')
  const core4 = read('core4.c')
  const core5 = read('core5.c')
  write('core_salsa', 'core1.c, core2.c, core4.c, core5.c, core6.c (+ .exp)', [
    { fn: 'crypto_core_hsalsa20', k: cArray(core1, 'shared'), in: '00'.repeat(16), c: cArray(core1, 'c'), out: hexBytes(read('core1.exp')) },
    { fn: 'crypto_core_hsalsa20', k: cArray(core2, 'firstkey'), in: cArray(core2, 'nonceprefix'), c: cArray(core2, 'c'), out: hexBytes(read('core2.exp')) },
    { fn: 'crypto_core_salsa20', k: cArray(core4, 'k'), in: cArray(core4, 'in'), c: cArray(core4, 'c'), out: dec(read('core4.exp')) },
    { fn: 'crypto_core_hsalsa20', k: cArray(core5, 'k'), in: cArray(core5, 'in'), c: cArray(core5, 'c'), out: hexBytes(read('core5.exp')) },
    { fn: 'crypto_core_salsa20_minus_input', k: cArray(read('core6.c'), 'k'), in: cArray(read('core6.c'), 'in'), c: cArray(read('core6.c'), 'c'), out: hexBytes(read('core6.exp')) }
  ])
  // core3: SHA-256 of 65536 consecutive blocks (in = noncesuffix || 64-bit counter) per core.
  const core3 = read('core3.c')
  const [h20, h12, h8] = read('core3.exp').trim().split('\n')
  const base = { k: cArray(core3, 'SECONDKEY'), noncesuffix: cArray(core3, 'NONCESUFFIX'), c: cArray(core3, 'C'), blocks: 65536 }
  write('core_salsa_blocks', 'core3.c (+ .exp)', [
    { fn: 'crypto_core_salsa20', ...base, sha256: h20 },
    { fn: 'crypto_core_salsa2012', ...base, sha256: h12 },
    { fn: 'crypto_core_salsa208', ...base, sha256: h8 }
  ])
}

// HChaCha20 (xchacha20.c tv_hchacha20): ten vectors with the default constant, and the last
// key/input again with a custom constant.
{
  const text = read('xchacha20.c')
  const strings = cStrings(text, 'tvs')
  const rows = []
  for (let i = 0; i < strings.length; i += 3) rows.push({ key: strings[i], in: strings[i + 1], c: null, out: strings[i + 2] })
  const last = rows[rows.length - 1]
  const [c, out] = [...text.matchAll(/"([0-9a-f]+)",\s*\n\s*crypto_core_hchacha20_(?:CONSTBYTES|OUTPUTBYTES) \* 2 \+ 1/g)].map((m) => m[1])
  rows.push({ key: last.key, in: last.in, c, out })
  write('core_hchacha20', 'xchacha20.c', rows)
}

// Ed25519 group and scalar arithmetic (core_ed25519.c): its named constants and points, each
// printed result keyed by its label, and the from_uniform inputs. Those come from
// randombytes_buf_deterministic(r, 32, seed): the ChaCha20 (IETF) keystream under key `seed` and
// nonce "LibsodiumDRG"; the seed is sodium_malloc()'s fill (0xdb bytes) incremented once per row.
{
  const text = read('core_ed25519.c')
  const names = ['non_canonical_p', 'non_canonical_invalid_p', 'max_canonical_p', 'not_main_subgroup_p', 'L_p1', 'L', 'L_1', 'sc_8', 'sc_highbit']
  const constants = Object.fromEntries(names.map((n) => [n, cArray(text, n)]))
  const results = {}
  const fromUniform = []
  const seed = Buffer.alloc(32, 0xdb)
  for (const [, label, hex] of read('core_ed25519.exp').matchAll(/^(.+): ([0-9a-f]{64})$/gm)) {
    const u = label.match(/^from_uniform_deterministic \((\d+)\)$/)
    if (!u) { results[label] = hex; continue }
    const iv = Buffer.concat([Buffer.alloc(4), Buffer.from('LibsodiumDRG')])
    const r = crypto.createCipheriv('chacha20', seed, iv).update(Buffer.alloc(32)).toString('hex')
    fromUniform.push({ r, p: hex })
    for (let i = 0; i < 32 && ++seed[i] === 0; i++);
  }
  write('core_ed25519', 'core_ed25519.c (+ .exp)', [{ constants, results, from_uniform: fromUniform }])
}

// Ed25519 scalar multiplication edge cases (scalarmult_ed25519.c): the points it feeds in.
{
  const text = read('scalarmult_ed25519.c')
  const names = ['non_canonical_p', 'non_canonical_invalid_p', 'max_canonical_p', 'not_main_subgroup_p', 'B']
  write('scalarmult_ed25519', 'scalarmult_ed25519.c', [Object.fromEntries(names.map((n) => [n, cArray(text, n)]))])
}

// Ristretto255 (core_ristretto255.c, scalarmult_ristretto255.c): the invalid encodings, the
// hash-to-group inputs and outputs, and the encodings of 0*B .. 15*B. These are RFC 9496's
// Appendix A vectors; test/vectors/ristretto255_rfc9496.json holds them as the RFC gives them.
{
  const text = read('core_ristretto255.c')
  const hashes = cStrings(text, 'hash_hex')
  const outputs = read('core_ristretto255.exp').trim().split('\n').filter((l) => /^[0-9a-f]{64}$/.test(l))
  if (hashes.length !== outputs.length) throw new Error('core_ristretto255: hash/output count mismatch')
  const multiples = read('scalarmult_ristretto255.exp').trim().split('\n').filter((l) => /^[0-9a-f]{64}$/.test(l))
  write('core_ristretto255', 'core_ristretto255.c, scalarmult_ristretto255.c (+ .exp)', [{
    bad_encodings: cStrings(text, 'bad_encodings_hex'),
    from_hash: hashes.map((h, i) => ({ r: h, p: outputs[i] })),
    multiples
  }])
}

// Keccak-p[1600] permutations (core_keccak1600.c): 24 rounds of the zero state and of a pattern
// state, 12 rounds of the zero state, and the first 32 bytes after two permutations of each kind.
{
  const text = read('core_keccak1600.c')
  const twice = Object.fromEntries([...read('core_keccak1600.exp').matchAll(/After (\d+)\+\d+ rounds: ([0-9a-f]{64})/g)].map((m) => [m[1], m[2]]))
  write('core_keccak1600', 'core_keccak1600.c (+ .exp)', [
    { rounds: 24, input: '00'.repeat(200), output: cArray(text, 'keccak_f_1600_zero_expected') },
    { rounds: 24, input: cArray(text, 'keccak_f_1600_pattern_input'), output: cArray(text, 'keccak_f_1600_pattern_expected') },
    { rounds: 12, input: '00'.repeat(200), output: cArray(text, 'keccak_p_12_zero_expected') },
    { rounds: 24, input: '00'.repeat(200), twice_prefix: twice[24] },
    { rounds: 12, input: '00'.repeat(200), twice_prefix: twice[12] }
  ])
}

'use strict'
// Password hashing: scrypt at N = 2^12 ... 2^20 (r = 8, p = 1) and Argon2id at t = 2, m = 19 MiB
// (OWASP's first choice) and t = 3, m = 64 MiB (libsodium's MODERATE), p = 1, 32-byte output.
// No "(alloc)" rows: a 32-byte allocation is noise next to milliseconds of hashing.
const ref = require('./ref')
const { TAG, fill } = require('../inputs')

const R = 8
const P = 1
const ARGON2ID13 = 2 // crypto_pwhash_ALG_ARGON2ID13

// sodium-native has only the opslimit/memlimit form. libsodium's pickparams() gives r = 8,
// p = 1 and N = 2^k exactly for opslimit = 32 * 2^k and memlimit > 32 * opslimit (and at least
// MEMLIMIT_MIN); the check below proves the mapping on every run.
const scryptLimits = (N, min) => [32 * N, Math.max(min, 2048 * N)]

function scryptCase (b, log2N) {
  const N = 2 ** log2N
  const pw = fill(TAG.PW, 16)
  const salt = fill(TAG.SALT, 32)
  let expected = null
  const maxmem = 256 * N * R + (64 << 20)
  return {
    family: 'pwhash',
    op: 'scrypt',
    size: N,
    label: `N=2^${log2N}`,
    heavy: true,
    cost: N / 4096, // relative time of one call, for the ETA
    ceiling: { op: 'scrypt', args: [N, R, P] },
    ref: 'node:crypto',
    expect: () => (expected = expected || ref.scrypt(pw, salt, N, R, P, 32)),
    contenders: [
      ...b.raw('crypto_pwhash_scryptsalsa208sha256_ll', { outs: [32], call: (f, out) => f(out, pw, salt, N, R, P), sodiumNative: false, alloc: false }),
      ...b.sodiumNative((sn) => {
        const [ops, mem] = scryptLimits(N, sn.crypto_pwhash_scryptsalsa208sha256_MEMLIMIT_MIN)
        const out = new Uint8Array(32)
        return () => { sn.crypto_pwhash_scryptsalsa208sha256(out, pw, salt, ops, mem); return out }
      }),
      ...b.node((c) => () => c.scryptSync(pw, salt, 32, { N, r: R, p: P, maxmem })),
      ...b.lsw('crypto_pwhash_scryptsalsa208sha256_ll', (f) => () => f(pw, salt, N, R, P, 32)),
      ...b.noble('@noble/hashes', (n) => () => n.scrypt(pw, salt, { N, r: R, p: P, dkLen: 32, maxmem })),
      ...b.scryptJs((s) => () => s.syncScrypt(pw, salt, N, R, P, 32)),
      ...b.hashWasm((hw) => () => hw.scrypt({ password: pw, salt, costFactor: N, blockSize: R, parallelism: P, hashLength: 32, outputType: 'binary' }), { defer: true })
    ]
  }
}

function argon2Case (b, t, mib) {
  const pw = fill(TAG.PW, 16)
  const salt = fill(TAG.SALT, 16)
  const mem = mib * 1024 * 1024
  const kib = mib * 1024
  let expected = null
  return {
    family: 'pwhash',
    op: 'argon2id',
    size: mib,
    label: `t=${t}, m=${mib} MiB`,
    heavy: true,
    cost: (t * mib) / 10,
    ceiling: { op: 'argon2id', args: [t, mem] },
    ref: 'libsodium-wrappers-sumo',
    expect: () => (expected = expected || ref.lsw().crypto_pwhash(32, pw, salt, t, mem, ARGON2ID13)),
    contenders: [
      ...b.raw('crypto_pwhash', { outs: [32], call: (f, out) => f(out, pw, salt, t, mem, ARGON2ID13), alloc: false }),
      ...(typeof require('crypto').argon2Sync === 'function'
        ? b.node((c) => () => c.argon2Sync('argon2id', { message: pw, nonce: salt, parallelism: 1, tagLength: 32, memory: kib, passes: t }))
        : b.none('node', 'node:crypto', `node:crypto has Argon2 from Node 24.7 (this is ${process.version})`)),
      ...b.lsw('crypto_pwhash', (f) => () => f(32, pw, salt, t, mem, ARGON2ID13)),
      ...b.noble('@noble/hashes', (n) => () => n.argon2id(pw, salt, { t, m: kib, p: 1, dkLen: 32 })),
      ...b.hashWasm((hw) => () => hw.argon2id({ password: pw, salt, iterations: t, memorySize: kib, parallelism: 1, hashLength: 32, outputType: 'binary' }), { defer: true }),
      // the argon2 package is async only (it hashes on the libuv thread pool)
      ...b.argon2((a) => {
        const options = { type: a.argon2id, raw: true, salt: Buffer.from(salt), timeCost: t, memoryCost: kib, parallelism: 1, hashLength: 32 }
        const password = Buffer.from(pw)
        return () => a.hash(password, options)
      }, { defer: true })
    ]
  }
}

module.exports = function pwhashCases (b, { quick }) {
  const exponents = quick ? [12, 14] : [12, 14, 16, 18, 20]
  const argon2 = quick ? [[2, 19]] : [[2, 19], [3, 64]]
  return [
    ...exponents.map((e) => scryptCase(b, e)),
    ...argon2.map(([t, m]) => argon2Case(b, t, m))
  ]
}

'use strict'
// Issue 10's hash and signature bars, side by side in one process: natrium's main API
// (require('natrium') on each backend, a new result per call) against node:crypto,
// libsodium-wrappers-sumo 0.8.4 (libsodium.js, wasm) and sodium-native 5.1.0 (native libsodium,
// its own API, output reused), round after round alternated, so a busy machine slows every
// contender of a round alike. Reports the median ops/s and the median per-round ratio of each
// natrium backend to the best other contender. Answers are compared before anything is timed.
//   node bench/hash-bars.js [row-regex] [rounds] [ms] [--openssl]
//   e.g. node bench/hash-bars.js 'sha3|shake' 9 100
// --openssl adds OpenSSL's own C on this machine (`openssl speed -evp`, 1 s per row; node:crypto
// runs the same code) as ops/s, at 1 KB and up, where openssl has the algorithm.
// NATRIUM_BASELINE=<another built checkout of natrium> adds its two backends as "before native"
// and "before wasm", timed in the same rounds, and the after / before ratios.
const crypto = require('crypto')
const path = require('path')
const lsw = require('libsodium-wrappers-sumo')
const SodiumNative = require('sodium-native')
const { load } = require(path.join(__dirname, '..', 'lib', 'loader'))
const wrappers = require(path.join(__dirname, '..', 'lib', 'surfaces', 'wrappers'))
const { TAG, fill, sizeLabel, SIZES } = require('./inputs')

const args = process.argv.slice(2).filter((a) => a !== '--openssl')
const withOpenssl = process.argv.includes('--openssl')
const filter = new RegExp(args[0] || '.', 'i')
const rounds = Number(args[1]) || 9
const ms = Number(args[2]) || 100
const natrium = { native: wrappers(load('native')), wasm: wrappers(load('wasm')) }
const baselineDir = process.env.NATRIUM_BASELINE
const before = baselineDir && (() => {
  const wrap = require(path.join(baselineDir, 'lib', 'surfaces', 'wrappers'))
  const { load: loadBefore } = require(path.join(baselineDir, 'lib', 'loader'))
  return { native: wrap(loadBefore('native')), wasm: wrap(loadBefore('wasm')) }
})()

const { rate, median, sink, cpuName: machineName } = require('./cpu-rate')
const hex = (b) => Buffer.from(b).toString('hex')

// contenders: { name: fn }, the natrium ones named 'natrium native' / 'natrium wasm'
function row (label, contenders) {
  if (!filter.test(label)) return
  const names = Object.keys(contenders)
  const answers = names.map((k) => { const r = contenders[k](); return typeof r === 'boolean' ? String(r) : hex(r) })
  for (let i = 1; i < names.length; i++) {
    if (answers[i] !== answers[0]) throw new Error(`${label}: ${names[i]} answers differently from ${names[0]}`)
  }
  // V8 compiles wasm in tiers, the optimised code in the background: warm every contender up
  for (let w = 0; w < 5; w++) for (const k of names) rate(contenders[k], ms)
  const ops = Object.fromEntries(names.map((k) => [k, []]))
  const nat = names.filter((k) => k.startsWith('natrium'))
  const peers = names.filter((k) => PEERS.includes(k))
  const ratio = {}
  for (let r = 0; r < rounds; r++) {
    const round = {}
    for (const k of names) ops[k].push(round[k] = rate(contenders[k], ms))
    for (const a of nat) for (const b of peers) (ratio[`${a}/${b}`] = ratio[`${a}/${b}`] || []).push(round[a] / round[b])
  }
  if (before) {
    for (let r = 0; r < rounds; r++) {
      for (const k of ['native', 'wasm']) {
        const a = ops[`natrium ${k}`][r]
        const b = ops[`before ${k}`][r]
        ;(ratio[`after/before ${k}`] = ratio[`after/before ${k}`] || []).push(a / b)
      }
    }
  }
  const cell = (k) => (k in ops ? Math.round(median(ops[k])).toLocaleString('en') : '')
  const x = (a, b) => (ratio[`${a}/${b}`] ? `${median(ratio[`${a}/${b}`]).toFixed(2)}x` : '')
  const [op, size] = [label.replace(/ [\d.]+ [KM]?B$/, ''), SIZE_OF[label.replace(/^.* ([\d.]+ [KM]?B)$/, '$1')]]
  console.log(`| ${label} | ${COLUMNS.map(cell).join(' | ')} | ${x('natrium native', 'node:crypto')} | ` +
    `${x('natrium native', 'libsodium.js')} | ${x('natrium wasm', 'libsodium.js')} |` + (withOpenssl ? ` ${opensslOps(op, size)} |` : '') +
    (before ? ` ${cell('before native')} | ${cell('before wasm')} | ${x('after', 'before native')} | ${x('after', 'before wasm')} |` : ''))
}
const PEERS = ['node:crypto', 'libsodium.js']
const COLUMNS = ['natrium native', 'natrium wasm', 'node:crypto', 'libsodium.js', 'sodium-native']

// `openssl speed -evp <alg> -bytes <size> -seconds 1`: its last line is the throughput in
// thousands of bytes per second.
const OPENSSL = { 'blake2b-512': 'blake2b512', sha512: 'sha512', 'sha3-256': 'sha3-256', 'sha3-512': 'sha3-512', shake128: 'shake128', shake256: 'shake256' }
function opensslOps (op, size) {
  if (!withOpenssl || !OPENSSL[op] || size < 1024) return ''
  const r = require('child_process').spawnSync('openssl', ['speed', '-seconds', '1', '-bytes', String(size), '-evp', OPENSSL[op]], { encoding: 'utf8' })
  const last = (r.stdout || '').trim().split('\n').pop() || ''
  const kbs = /([\d.]+)k\s*$/.exec(last)
  return kbs ? Math.round(Number(kbs[1]) * 1000 / size).toLocaleString('en') : ''
}

const SIZE_OF = Object.fromEntries(SIZES.map((n) => [sizeLabel(n), n]))
const nodeHash = (alg, m, opts) => () => crypto.createHash(alg, opts).update(m).digest()

lsw.ready.then(() => {
  const cpuName = machineName()
  console.log(`${cpuName}; Node ${process.version}; OpenSSL ${process.versions.openssl}; median of ${rounds} alternated rounds of ${ms} ms CPU; ratios are medians of per-round ratios`)
  console.log(`| row | ${COLUMNS.join(' | ')} | native × node | native × libsodium.js | wasm × libsodium.js |${withOpenssl ? ' openssl speed (C) |' : ''}` +
    (before ? ' before native | before wasm | native after/before | wasm after/before |' : ''))
  console.log(`|---|${COLUMNS.map(() => '---:').join('|')}|---:|---:|---:|${withOpenssl ? '---:|' : ''}${before ? '---:|---:|---:|---:|' : ''}`)
  const seed = fill(TAG.SEED, 32)
  const kp = natrium.native.crypto_sign_seed_keypair(seed)
  const edKey = crypto.createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]), format: 'der', type: 'pkcs8' })
  const edPub = crypto.createPublicKey(edKey)
  const snSk = Buffer.from(kp.privateKey)
  const snPk = Buffer.from(kp.publicKey)
  for (const size of SIZES) {
    const m = fill(TAG.MSG, size)
    const mb = Buffer.from(m)
    const s = sizeLabel(size)
    const out64 = Buffer.alloc(64)
    const out32 = Buffer.alloc(32)
    const both = (f) => ({
      'natrium native': () => f(natrium.native),
      'natrium wasm': () => f(natrium.wasm),
      ...(before ? { 'before native': () => f(before.native), 'before wasm': () => f(before.wasm) } : {})
    })
    row(`blake2b-512 ${s}`, {
      ...both((n) => n.crypto_generichash(64, m, null)),
      'node:crypto': nodeHash('blake2b512', m),
      'libsodium.js': () => lsw.crypto_generichash(64, m, null),
      'sodium-native': () => { SodiumNative.crypto_generichash(out64, mb); return out64 }
    })
    row(`blake2b-256 ${s}`, {
      ...both((n) => n.crypto_generichash(32, m, null)),
      'libsodium.js': () => lsw.crypto_generichash(32, m, null),
      'sodium-native': () => { SodiumNative.crypto_generichash(out32, mb); return out32 }
    })
    row(`sha512 ${s}`, {
      ...both((n) => n.crypto_hash_sha512(m)),
      'node:crypto': nodeHash('sha512', m),
      'libsodium.js': () => lsw.crypto_hash_sha512(m),
      'sodium-native': () => { SodiumNative.crypto_hash_sha512(out64, mb); return out64 }
    })
    row(`sha3-256 ${s}`, {
      ...both((n) => n.crypto_hash_sha3256(m)),
      'node:crypto': nodeHash('sha3-256', m),
      'libsodium.js': () => lsw.crypto_hash_sha3256(m)
    })
    row(`sha3-512 ${s}`, {
      ...both((n) => n.crypto_hash_sha3512(m)),
      'node:crypto': nodeHash('sha3-512', m),
      'libsodium.js': () => lsw.crypto_hash_sha3512(m)
    })
    row(`shake128 ${s}`, {
      ...both((n) => n.crypto_xof_shake128(32, m)),
      'node:crypto': nodeHash('shake128', m, { outputLength: 32 }),
      'libsodium.js': () => lsw.crypto_xof_shake128(32, m)
    })
    row(`shake256 ${s}`, {
      ...both((n) => n.crypto_xof_shake256(64, m)),
      'node:crypto': nodeHash('shake256', m, { outputLength: 64 }),
      'libsodium.js': () => lsw.crypto_xof_shake256(64, m)
    })
    row(`turboshake128 ${s}`, {
      ...both((n) => n.crypto_xof_turboshake128(32, m)),
      'libsodium.js': () => lsw.crypto_xof_turboshake128(32, m)
    })
    row(`turboshake256 ${s}`, {
      ...both((n) => n.crypto_xof_turboshake256(64, m)),
      'libsodium.js': () => lsw.crypto_xof_turboshake256(64, m)
    })
    row(`ed25519 sign ${s}`, {
      ...both((n) => n.crypto_sign_detached(m, kp.privateKey)),
      'node:crypto': () => crypto.sign(null, m, edKey),
      'libsodium.js': () => lsw.crypto_sign_detached(m, kp.privateKey),
      'sodium-native': () => { SodiumNative.crypto_sign_detached(out64, mb, snSk); return out64 }
    })
    // Poly1305 (crypto_onetimeauth): node:crypto has no Poly1305 of its own
    const otKey = fill(TAG.KEY, 32)
    const out16 = Buffer.alloc(16)
    row(`poly1305 ${s}`, {
      ...both((n) => n.crypto_onetimeauth(m, otKey)),
      'libsodium.js': () => lsw.crypto_onetimeauth(m, otKey),
      'sodium-native': () => { SodiumNative.crypto_onetimeauth(out16, mb, Buffer.from(otKey)); return out16 }
    })
    const sig = natrium.native.crypto_sign_detached(m, kp.privateKey)
    row(`ed25519 verify ${s}`, {
      ...both((n) => n.crypto_sign_verify_detached(sig, m, kp.publicKey)),
      'node:crypto': () => crypto.verify(null, m, edPub, sig),
      'libsodium.js': () => lsw.crypto_sign_verify_detached(sig, m, kp.publicKey),
      'sodium-native': () => SodiumNative.crypto_sign_verify_detached(Buffer.from(sig), mb, snPk)
    })
  }
  if (sink() === 0.5) console.log(sink())
})

'use strict'
// Issue 10's ChaCha20-Poly1305 bars, side by side in one process: natrium's main API
// (require('natrium') on each backend, a new result per call) against node:crypto's
// chacha20-poly1305 (IETF only), libsodium-wrappers-sumo 0.8.4 (libsodium.js, wasm) and
// sodium-native 5.1.0 (native libsodium, its own API), round after round alternated, so a busy
// machine slows every contender of a round alike. Like against like: the main API allocates a
// result per call, as node:crypto and libsodium.js do; sodium-native writes into a buffer the
// caller reuses, so it is timed both ways ("sodium-native" reuses, "sodium-native (alloc)" makes
// a Buffer per call), and natrium's own sodium-native surface on the native backend
// ("natrium native (reused)") is timed against the reusing one. From 100 KB on, a fresh result
// per call costs more than the cipher (V8 allocates and collects the ArrayBuffer; on a VM, fresh
// pages fault in): that, not the kernel, is most of the gap between the two kinds of row. Reports the median ops/s
// and the median per-round ratio of each natrium backend to the others. Answers are compared
// before anything is timed. `openssl speed -evp chacha20-poly1305` (OpenSSL's own C, 1 s per
// size, at 1 KB and up) is the C reference for the IETF rows.
// --base=DIR adds another built checkout's main API on the native backend ("base native", e.g.
// main's) to every round, for a before/after in one process.
//   node bench/chacha-bars.js [row-regex] [rounds] [ms] [--no-openssl] [--base=DIR]
//   e.g. node bench/chacha-bars.js 'ietf.*1 MB' 9 100
const crypto = require('crypto')
const path = require('path')
const lsw = require('libsodium-wrappers-sumo')
const SodiumNative = require('sodium-native')
const { load } = require(path.join(__dirname, '..', 'lib', 'loader'))
const wrappers = require(path.join(__dirname, '..', 'lib', 'surfaces', 'wrappers'))
const { TAG, fill, sizeLabel, SIZES } = require('./inputs')

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'))
const withOpenssl = !process.argv.includes('--no-openssl')
const filter = new RegExp(args[0] || '.', 'i')
const rounds = Number(args[1]) || 9
const ms = Number(args[2]) || 100
const natrium = { native: wrappers(load('native')), wasm: wrappers(load('wasm')) }
const natriumSN = require(path.join(__dirname, '..', 'lib', 'surfaces', 'sodium-native'))(load('native'))
const baseDir = (process.argv.find((a) => a.startsWith('--base=')) || '').slice(7)
const base = baseDir
  ? require(path.join(path.resolve(baseDir), 'lib', 'surfaces', 'wrappers'))(require(path.join(path.resolve(baseDir), 'lib', 'loader')).load('native'))
  : null

const { rate, median, sink, cpuName: machineName } = require('./cpu-rate')
const hex = (b) => Buffer.from(b).toString('hex')

const COLUMNS = ['natrium native', ...(base ? ['base native'] : []), 'natrium wasm', 'node:crypto', 'libsodium.js', 'sodium-native (alloc)', 'natrium native (reused)', 'sodium-native']
const opensslCache = {}
function opensslOps (size) {
  if (!withOpenssl || size < 1024) return ''
  if (!(size in opensslCache)) {
    const r = require('child_process').spawnSync('openssl', ['speed', '-seconds', '1', '-bytes', String(size), '-evp', 'chacha20-poly1305'], { encoding: 'utf8' })
    const kbs = /([\d.]+)k\s*$/.exec(((r.stdout || '').trim().split('\n').pop()) || '')
    opensslCache[size] = kbs ? Number(kbs[1]) * 1000 / size : 0
  }
  return opensslCache[size]
}

// Every row's contenders are made before any row is timed: timed while each of its closures was
// the only one made from its source text (which V8 compiles specialised to that closure), the
// first row's first contender ran at 0.67-0.73x the speed of the same code listed second (Zen 5,
// Node 20: natrium native's IETF 10 B row read 1.21-1.32x libsodium.js where a second copy of it
// read 1.72-1.90x; made first, the two read 0.94-1.06x of each other).
const rows = []
function row (...args) { rows.push(args) }

function timeRow (label, size, contenders, ietf, sameBytes = true) {
  if (!filter.test(label)) return
  const names = Object.keys(contenders)
  // (secretstream: each contender's stream has its own random header, so only lengths compare)
  const answers = names.map((k) => (sameBytes ? hex(contenders[k]()) : String(contenders[k]().length)))
  for (let i = 1; i < names.length; i++) {
    if (answers[i] !== answers[0]) throw new Error(`${label}: ${names[i]} answers differently from ${names[0]}`)
  }
  for (let w = 0; w < 5; w++) for (const k of names) rate(contenders[k], ms)
  const ops = Object.fromEntries(names.map((k) => [k, []]))
  const ratio = {}
  const pairs = [...(base ? [['natrium native', 'base native'], ['base native', 'libsodium.js']] : []), ['natrium native', 'node:crypto'], ['natrium native', 'libsodium.js'], ['natrium native', 'sodium-native (alloc)'], ['natrium native (reused)', 'sodium-native'], ['natrium wasm', 'libsodium.js']]
  for (let r = 0; r < rounds; r++) {
    const round = {}
    for (const k of names) ops[k].push(round[k] = rate(contenders[k], ms))
    for (const [a, b] of pairs) if (b in round) (ratio[`${a}/${b}`] = ratio[`${a}/${b}`] || []).push(round[a] / round[b])
  }
  const cell = (k) => (k in ops ? Math.round(median(ops[k])).toLocaleString('en') : '')
  const x = (a, b) => (ratio[`${a}/${b}`] ? `${median(ratio[`${a}/${b}`]).toFixed(2)}x` : '')
  const ossl = ietf ? opensslOps(size) : ''
  const vsOssl = ossl ? `${(median(ops['natrium native']) / ossl).toFixed(2)}x` : ''
  console.log(`| ${label} | ${COLUMNS.map(cell).join(' | ')} | ${pairs.map(([a, b]) => x(a, b)).join(' | ')} | ` +
    `${ossl ? Math.round(ossl).toLocaleString('en') : ''} | ${vsOssl} |`)
}

lsw.ready.then(() => {
  const cpuName = machineName()
  console.log(`${cpuName}; Node ${process.version}; median of ${rounds} alternated rounds of ${ms} ms CPU; ratios are medians of per-round ratios; ops/s`)
  console.log(`| row | ${COLUMNS.join(' | ')} | ${base ? 'native × base | base × libsodium.js | ' : ''}native × node | native × libsodium.js | native × sodium-native (both alloc) | native × sodium-native (both reused) | wasm × libsodium.js | openssl speed (C) | native × openssl |`)
  console.log(`|---|${COLUMNS.map(() => '---:').join('|')}|${base ? '---:|---:|' : ''}---:|---:|---:|---:|---:|---:|---:|`)
  const k = fill(TAG.KEY, 32)
  const kb = Buffer.from(k)
  const ad = fill(TAG.SEED, 16)
  const adb = Buffer.from(ad)
  for (const size of SIZES) {
    const m = fill(TAG.MSG, size)
    const mb = Buffer.from(m)
    const s = sizeLabel(size)
    const out = Buffer.alloc(size + 17)
    const out16 = out.subarray(0, size + 16)
    for (const [name, nlen] of [['chacha20poly1305_ietf', 12], ['chacha20poly1305', 8], ['xchacha20poly1305_ietf', 24]]) {
      const P = `crypto_aead_${name}`
      const npub = fill(TAG.NONCE, nlen)
      const npubb = Buffer.from(npub)
      const contenders = {
        'natrium native': () => natrium.native[`${P}_encrypt`](m, ad, null, npub, k),
        ...(base ? { 'base native': () => base[`${P}_encrypt`](m, ad, null, npub, k) } : {}),
        'natrium wasm': () => natrium.wasm[`${P}_encrypt`](m, ad, null, npub, k),
        'libsodium.js': () => lsw[`${P}_encrypt`](m, ad, null, npub, k)
      }
      if (name === 'chacha20poly1305_ietf') {
        contenders['node:crypto'] = () => {
          const c = crypto.createCipheriv('chacha20-poly1305', kb, npubb, { authTagLength: 16 })
          c.setAAD(adb)
          const body = c.update(mb)
          c.final()
          return Buffer.concat([body, c.getAuthTag()])
        }
      }
      if (SodiumNative[`${P}_encrypt`]) {
        contenders['sodium-native (alloc)'] = () => { const c = Buffer.alloc(size + 16); SodiumNative[`${P}_encrypt`](c, mb, adb, null, npubb, kb); return c }
        contenders['natrium native (reused)'] = () => { natriumSN[`${P}_encrypt`](out16, mb, adb, null, npubb, kb); return out16 }
        contenders['sodium-native'] = () => { SodiumNative[`${P}_encrypt`](out16, mb, adb, null, npubb, kb); return out16 }
      }
      row(`${name.replace('chacha20poly1305', 'chacha20-poly1305')} encrypt ${s}`, size, contenders, name === 'chacha20poly1305_ietf')
    }
    // secretstream: one push per call into a stream opened once per contender
    const SS = 'crypto_secretstream_xchacha20poly1305'
    const nat = { native: natrium.native[`${SS}_init_push`](k).state, wasm: natrium.wasm[`${SS}_init_push`](k).state }
    if (base) nat.base = base[`${SS}_init_push`](k).state
    const lst = lsw[`${SS}_init_push`](k).state
    const snState = Buffer.alloc(SodiumNative[`${SS}_STATEBYTES`] || 52)
    SodiumNative[`${SS}_init_push`](snState, Buffer.alloc(24), kb)
    const natSN = Buffer.alloc(snState.length)
    natriumSN[`${SS}_init_push`](natSN, Buffer.alloc(24), kb)
    row(`secretstream push ${s}`, size, {
      'natrium native': () => natrium.native[`${SS}_push`](nat.native, m, null, 0),
      ...(base ? { 'base native': () => base[`${SS}_push`](nat.base, m, null, 0) } : {}),
      'natrium wasm': () => natrium.wasm[`${SS}_push`](nat.wasm, m, null, 0),
      'libsodium.js': () => lsw[`${SS}_push`](lst, m, null, 0),
      'sodium-native (alloc)': () => { const c = Buffer.alloc(size + 17); SodiumNative[`${SS}_push`](snState, c, mb, null, 0); return c },
      'natrium native (reused)': () => { natriumSN[`${SS}_push`](natSN, out.subarray(0, size + 17), mb, null, 0); return out.subarray(0, size + 17) },
      'sodium-native': () => { SodiumNative[`${SS}_push`](snState, out.subarray(0, size + 17), mb, null, 0); return out.subarray(0, size + 17) }
    }, false, false)
  }
  for (const args of rows) timeRow(...args)
  if (sink() === 0.5) console.log(sink())
})

#!/usr/bin/env node
'use strict'
// Issue 11's bars: the main API (require('natrium'), the backend NATRIUM_BACKEND names) against
// libsodium-wrappers-sumo 0.8.4 on small calls, each allocating its result, alternated round by
// round in one process, in CPU time (bench/cpu-rate.js); the median of the per-round ratios to
// libsodium-wrappers (> 1: natrium is faster). --base DIR adds another checkout of natrium (with its builds) to every row, in the same
// process, for before/after numbers.
//   NATRIUM_BACKEND=wasm node scripts/main-bars.js [--base DIR] [--rounds N] [--ms N] [filter]
const path = require('path')
const args = process.argv.slice(2)
const option = (name, fallback) => {
  const i = args.indexOf(name)
  if (i < 0) return fallback
  const v = args[i + 1]
  args.splice(i, 2)
  return v
}
const base = option('--base', null)
const rounds = Number(option('--rounds', 11))
const ms = Number(option('--ms', 100))
const filter = new RegExp(args[0] || '.')

const lsw = require('libsodium-wrappers-sumo')
const natrium = require('..')
const before = base ? require(path.resolve(base)) : null
if (before && before.backend !== natrium.backend) throw new Error(`--base loaded the ${before.backend} backend, this checkout ${natrium.backend}`)

const { rate: cpuRate, median, cpuName, sink } = require('../bench/cpu-rate')
const rate = (fn) => cpuRate(fn, ms)

function row (label, make, random = false) {
  if (!filter.test(label)) return
  const contenders = [['libsodium-wrappers-sumo', make(lsw)], ['natrium', make(natrium)]]
  if (before) contenders.push(['natrium before', make(before)])
  // the answers agree before anything is timed
  const want = Buffer.from(contenders[0][1]()).toString('hex')
  for (const [name, fn] of contenders) {
    const got = Buffer.from(fn()).toString('hex')
    if (random ? got.length !== want.length : got !== want) throw new Error(`${label}: ${name} answers differently`)
  }
  for (let i = 0; i < 5; i++) for (const [, fn] of contenders) rate(fn)
  const ops = contenders.map(() => [])
  const ratios = contenders.map(() => [])
  for (let r = 0; r < rounds; r++) {
    const round = contenders.map(([, fn], i) => { const x = rate(fn); ops[i].push(x); return x })
    round.forEach((x, i) => ratios[i].push(x / round[0]))
  }
  const cells = contenders.map(([name], i) => `${name} ${Math.round(median(ops[i])).toLocaleString('en')}/s` +
    (i === 0 ? '' : ` (${median(ratios[i]).toFixed(2)}×)`))
  console.log(`| ${label} | ${cells.join(' | ')} |`)
}

lsw.ready.then(() => {
  console.log(`${cpuName()}; Node ${process.version}; natrium backend ${natrium.backend}; median of ${rounds} alternated rounds of ${ms} ms CPU time`)
  const m10 = new Uint8Array(10).fill(7)
  const m64 = new Uint8Array(64).fill(9)
  const key = new Uint8Array(32).fill(1)
  const npub = new Uint8Array(24).fill(2)
  const c10 = natrium.crypto_aead_xchacha20poly1305_ietf_encrypt(m10, null, null, npub, key)
  const kp = natrium.crypto_box_seed_keypair(new Uint8Array(32).fill(3))
  const sk = natrium.crypto_sign_seed_keypair(new Uint8Array(32).fill(4)).privateKey
  row('XChaCha20-Poly1305 encrypt 10 B', (s) => () => s.crypto_aead_xchacha20poly1305_ietf_encrypt(m10, null, null, npub, key))
  row('XChaCha20-Poly1305 decrypt 10 B', (s) => () => s.crypto_aead_xchacha20poly1305_ietf_decrypt(null, c10, null, npub, key))
  row('SHA-256 64 B', (s) => () => s.crypto_hash_sha256(m64))
  row('SHA-512 64 B', (s) => () => s.crypto_hash_sha512(m64))
  row('BLAKE2b-256 64 B', (s) => () => s.crypto_generichash(32, m64))
  row('crypto_box_easy 64 B', (s) => () => s.crypto_box_easy(m64, npub, kp.publicKey, kp.privateKey))
  row('Ed25519 sign 10 B', (s) => () => s.crypto_sign_detached(m10, sk))
  // more small calls, for the native backend's "no row slower" bar
  row('crypto_secretbox_easy 10 B', (s) => () => s.crypto_secretbox_easy(m10, npub, key))
  row('crypto_auth 64 B', (s) => () => s.crypto_auth(m64, key))
  row('randombytes_buf 24', (s) => () => s.randombytes_buf(24), true)
  row('SHA-256 10 B (hex)', (s) => () => s.crypto_hash_sha256(m10, 'hex'))
  if (sink() === 0.5) console.log(sink())
})

'use strict'
// Issue 10's scrypt bar: natrium's main API on each backend (a new result per call) against
// crypto.scryptSync, r = 8, p = 1, N = 2^12..2^20 by default, CPU time, the three alternated in
// each round; the median of the per-round ratios to node:crypto. Answers are compared first.
// --base=DIR adds another built checkout's two backends (e.g. main's) to every round, for a
// before/after in one process.
//   node bench/scrypt-bars.js [log2 N list, e.g. 12,14,16] [rounds] [--base=DIR]
const crypto = require('crypto')
const path = require('path')
const { rate: cpuRate, median: med } = require('./cpu-rate')
const args = process.argv.slice(2).filter((a) => !a.startsWith('--'))
const base = (process.argv.find((a) => a.startsWith('--base=')) || '').slice(7)
const backendsOf = (dir) => {
  const { load } = require(path.join(dir, 'lib', 'loader'))
  const wrappers = require(path.join(dir, 'lib', 'surfaces', 'wrappers'))
  return { native: wrappers(load('native')), wasm: wrappers(load('wasm')) }
}
const nat = backendsOf(path.join(__dirname, '..'))
const before = base ? backendsOf(path.resolve(base)) : null
const pw = Buffer.from('password'), salt = Buffer.alloc(32, 7)
const logs = (args[0] || '12,13,14,15,16,18,20').split(',').map(Number)
const rounds = Number(args[1] || 5)
for (const lg of logs) {
  const N = 2 ** lg
  const c = {
    node: () => crypto.scryptSync(pw, salt, 32, { N, r: 8, p: 1, maxmem: 256 * N * 8 + (64 << 20) }),
    native: () => nat.native.crypto_pwhash_scryptsalsa208sha256_ll(pw, salt, N, 8, 1, 32),
    wasm: () => nat.wasm.crypto_pwhash_scryptsalsa208sha256_ll(pw, salt, N, 8, 1, 32),
  }
  if (before) {
    c['base native'] = () => before.native.crypto_pwhash_scryptsalsa208sha256_ll(pw, salt, N, 8, 1, 32)
    c['base wasm'] = () => before.wasm.crypto_pwhash_scryptsalsa208sha256_ll(pw, salt, N, 8, 1, 32)
  }
  const want = Buffer.from(c.node()).toString('hex')
  for (const [k, f] of Object.entries(c)) if (Buffer.from(f()).toString('hex') !== want) throw new Error(k + ' differs at ' + lg)
  const budget = Math.max(0.15, 2 ** lg / 2 ** 14 * 0.05)
  const ratios = {}, ops = {}
  for (const k in c) ops[k] = [], ratios[k] = []
  for (let r = 0; r < rounds; r++) {
    const rate = {}
    for (const [k, f] of Object.entries(c)) { rate[k] = cpuRate(f, budget * 1000); ops[k].push(rate[k]) }
    for (const k in c) ratios[k].push(rate[k] / rate.node)
  }
  const cell = (k) => `${k} ${med(ops[k]).toFixed(2)}/s (${med(ratios[k]).toFixed(2)}x)`
  console.log(`N=2^${lg}: node ${med(ops.node).toFixed(2)}/s ${Object.keys(c).filter((k) => k !== 'node').map(cell).join(' ')}`)
}

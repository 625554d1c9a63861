'use strict'
// Issue 10's scrypt bar: natrium's main API on each backend (a new result per call) against
// crypto.scryptSync, r = 8, p = 1, N = 2^12..2^20 by default, CPU time, the three alternated in
// each round; the median of the per-round ratios to node:crypto. Answers are compared first.
//   node bench/scrypt-bars.js [log2 N list, e.g. 12,14,16] [rounds]
const crypto = require('crypto')
const path = require('path')
const dir = path.join(__dirname, '..')
const { load } = require(path.join(dir, 'lib', 'loader'))
const wrappers = require(path.join(dir, 'lib', 'surfaces', 'wrappers'))
const nat = { native: wrappers(load('native')), wasm: wrappers(load('wasm')) }
const { rate: cpuRate, median: med } = require('./cpu-rate')
const pw = Buffer.from('password'), salt = Buffer.alloc(32, 7)
const logs = (process.argv[2] || '12,13,14,15,16,18,20').split(',').map(Number)
const rounds = Number(process.argv[3] || 5)
for (const lg of logs) {
  const N = 2 ** lg
  const c = {
    node: () => crypto.scryptSync(pw, salt, 32, { N, r: 8, p: 1, maxmem: 256 * N * 8 + (64 << 20) }),
    native: () => nat.native.crypto_pwhash_scryptsalsa208sha256_ll(pw, salt, N, 8, 1, 32),
    wasm: () => nat.wasm.crypto_pwhash_scryptsalsa208sha256_ll(pw, salt, N, 8, 1, 32),
  }
  const want = Buffer.from(c.node()).toString('hex')
  for (const [k, f] of Object.entries(c)) if (Buffer.from(f()).toString('hex') !== want) throw new Error(k + ' differs at ' + lg)
  const budget = Math.max(0.15, 2 ** lg / 2 ** 14 * 0.05)
  const ratios = { native: [], wasm: [] }, ops = { node: [], native: [], wasm: [] }
  for (let r = 0; r < rounds; r++) {
    const rate = {}
    for (const [k, f] of Object.entries(c)) { rate[k] = cpuRate(f, budget * 1000); ops[k].push(rate[k]) }
    ratios.native.push(rate.native / rate.node); ratios.wasm.push(rate.wasm / rate.node)
  }
  console.log(`N=2^${lg}: node ${med(ops.node).toFixed(2)}/s native ${med(ops.native).toFixed(2)}/s (${med(ratios.native).toFixed(2)}x) wasm ${med(ops.wasm).toFixed(2)}/s (${med(ratios.wasm).toFixed(2)}x)`)
}

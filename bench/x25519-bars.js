'use strict'
// Issue 13's X25519 bars, side by side in one process, round after round alternated: natrium's
// main API (crypto_scalarmult, a new result per call) natively with each implementation (copies of
// the .node loaded with NATRIUM_X25519=libsodium, portable, mulx and ifma set: each copy has its own
// dispatch), node:crypto's X25519 (diffieHellman on KeyObjects made once), natrium's wasm backend
// and libsodium-wrappers 0.8.4 (Emscripten). Reports the median ops/s, the median per-round
// ratios and, from the TSC-less CPU time, an estimate of cycles per operation at the clock given
// with --ghz= (default: the first CPU's nominal MHz, else /proc/cpuinfo's). Every contender's shared secret is checked
// against node:crypto's before anything is timed.
//   node bench/x25519-bars.js [rounds] [ms] [--ghz=3.7]
const crypto = require('crypto')
const fs = require('fs')
const os = require('os')
const path = require('path')
const { load } = require(path.join(__dirname, '..', 'lib', 'loader'))
const wrappers = require(path.join(__dirname, '..', 'lib', 'surfaces', 'wrappers'))
const { addonCopy } = require('./addon-copy')
const { cpuName } = require('./cpu-rate')

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'))
const rounds = Number(args[0]) || 9
const ms = Number(args[1]) || 150
const ghzArg = (process.argv.find((a) => a.startsWith('--ghz=')) || '').split('=')[1]
// the nominal clock: os.cpus() reports 0 MHz in some VMs, /proc/cpuinfo the TSC's
const cpuinfoMHz = () => {
  try { return Number((fs.readFileSync('/proc/cpuinfo', 'utf8').match(/^cpu MHz\s*:\s*([\d.]+)/m) || [])[1]) || 0 } catch { return 0 }
}
const ghz = Number(ghzArg) || (os.cpus()[0].speed || cpuinfoMHz()) / 1000

const sodiumWrappers = require('libsodium-wrappers')

async function main () {
  await sodiumWrappers.ready
  const contenders = {
    'natrium native': wrappers(load('native')),
    'native libsodium': wrappers(addonCopy({ NATRIUM_X25519: 'libsodium' })),
    'native portable': wrappers(addonCopy({ NATRIUM_X25519: 'portable' })),
    'native mulx': wrappers(addonCopy({ NATRIUM_X25519: 'mulx' })),
    'native ifma': wrappers(addonCopy({ NATRIUM_X25519: 'ifma' })),
    'natrium wasm': wrappers(load('wasm'))
  }
  const n = crypto.randomBytes(32)
  const u = crypto.randomBytes(32)
  u[31] &= 0x7f
  const spki = Buffer.concat([Buffer.from('302a300506032b656e032100', 'hex'), u])
  const pkcs8 = Buffer.concat([Buffer.from('302e020100300506032b656e04220420', 'hex'), n])
  const privateKey = crypto.createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' })
  const publicKey = crypto.createPublicKey({ key: spki, format: 'der', type: 'spki' })
  const want = crypto.diffieHellman({ privateKey, publicKey }).toString('hex')

  const fns = {}
  for (const [name, s] of Object.entries(contenders)) fns[name] = () => s.crypto_scalarmult(n, u)
  fns['node:crypto'] = () => crypto.diffieHellman({ privateKey, publicKey })
  fns['libsodium-wrappers'] = () => sodiumWrappers.crypto_scalarmult(n, u)
  for (const [name, fn] of Object.entries(fns)) {
    if (Buffer.from(fn()).toString('hex') !== want) throw new Error(`${name} answers differently from node:crypto`)
  }

  let sink = 0
  const cpu = () => { const t = process.cpuUsage(); return (t.user + t.system) / 1e6 }
  const rate = (fn, budget) => {
    let k = 0
    const t0 = cpu()
    let t
    do { sink ^= fn()[0]; k++; t = cpu() } while (t - t0 < budget / 1000)
    return k / (t - t0)
  }
  const median = (v) => v.slice().sort((p, q) => p - q)[v.length >> 1]
  const names = Object.keys(fns)
  const pairs = [['natrium native', 'node:crypto'], ['native mulx', 'node:crypto'], ['native ifma', 'node:crypto'], ['native ifma', 'native mulx'], ['native mulx', 'native libsodium'],
    ['native portable', 'native libsodium'], ['natrium wasm', 'libsodium-wrappers']]
  for (let w = 0; w < 3; w++) for (const k of names) rate(fns[k], ms / 2)
  const got = Object.fromEntries(names.map((k) => [k, []]))
  const ratio = {}
  for (let r = 0; r < rounds; r++) {
    const round = {}
    for (const k of names) got[k].push(round[k] = rate(fns[k], ms))
    for (const [a, b] of pairs) (ratio[`${a}/${b}`] = ratio[`${a}/${b}`] || []).push(round[a] / round[b])
  }
  console.log(`X25519 shared secret, ops/s (median of ${rounds} alternated rounds of ${ms} ms CPU time); ` +
    `${cpuName()}, Node ${process.version}; cycles/op at ${ghz.toFixed(2)} GHz`)
  console.log('| contender | ops/s | ≈ cycles/op |')
  console.log('|---|---:|---:|')
  for (const k of names) {
    const m = median(got[k])
    console.log(`| ${k} | ${Math.round(m).toLocaleString('en')} | ${Math.round(ghz * 1e9 / m / 1000)}k |`)
  }
  console.log('| ratio | median per round |')
  console.log('|---|---:|')
  for (const [a, b] of pairs) console.log(`| ${a} / ${b} | ${median(ratio[`${a}/${b}`]).toFixed(2)}x |`)
  if (sink === 256) console.log('')
}
main()

'use strict'
// crypto_aead_xchacha20poly1305_ietf_encrypt (or _decrypt) through the binding: natrium's native
// backend vs sodium-native 5.1.0, same inputs, reused output buffer.
//   node bench/xchacha_small.js [sizes...] [--rounds N] [--op encrypt|decrypt]
// Rounds of ~5 ms alternate between the two libraries so drift (clock, other load) hits both
// alike. Each round is timed on the wall clock and in CPU time (process.cpuUsage): on a busy
// machine the wall clock also counts the time the process waited for a core, the CPU time does
// not. Reported: the median round of each, and the ratio of the medians.
const natrium = require('../lib/sodium-native')
const sodium = require('sodium-native')

const args = process.argv.slice(2)
const flag = (name, dflt) => { const i = args.indexOf(name); return i < 0 ? dflt : args.splice(i, 2)[1] }
const rounds = Number(flag('--rounds', 41))
const op = flag('--op', 'encrypt')
const sizes = args.length ? args.map(Number) : [10, 1024]

function round (lib, size) {
  const k = new Uint8Array(32).fill(7)
  const npub = new Uint8Array(24).fill(9)
  const m = new Uint8Array(size).fill(1)
  const c = new Uint8Array(size + 16)
  lib.crypto_aead_xchacha20poly1305_ietf_encrypt(c, m, null, null, npub, k)
  const fn = op === 'encrypt'
    ? () => lib.crypto_aead_xchacha20poly1305_ietf_encrypt(c, m, null, null, npub, k)
    : () => lib.crypto_aead_xchacha20poly1305_ietf_decrypt(m, null, c, null, npub, k)
  const n = Math.max(1000, Math.floor(4e6 / (size + 400)))
  let sink = 0
  const cpu0 = process.cpuUsage()
  const t0 = process.hrtime.bigint()
  for (let i = 0; i < n; i++) sink += fn()
  const wall = Number(process.hrtime.bigint() - t0)
  const cpu = process.cpuUsage(cpu0)
  if (sink !== n * (op === 'encrypt' ? size + 16 : size)) throw new Error('bad result')
  return { wall: wall / n, cpu: (cpu.user + cpu.system) * 1e3 / n }
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1] }
for (const size of sizes) {
  const r = { natrium: [], sodium: [] }
  for (let i = 0; i < 3; i++) { round(natrium, size); round(sodium, size) } // warm up both
  for (let i = 0; i < rounds; i++) {
    const pair = i % 2 ? [['sodium', sodium], ['natrium', natrium]] : [['natrium', natrium], ['sodium', sodium]]
    for (const [name, lib] of pair) r[name].push(round(lib, size))
  }
  const line = (what) => {
    const a = median(r.natrium.map((x) => x[what])), b = median(r.sodium.map((x) => x[what]))
    return `${what} ${(1e3 / a).toFixed(3)} vs ${(1e3 / b).toFixed(3)} M ops/s (${a.toFixed(0)} vs ${b.toFixed(0)} ns) ` +
      `= ${(b / a).toFixed(2)}x`
  }
  console.log(`${op} ${size} B natrium vs sodium-native: ${line('wall')}; ${line('cpu')}`)
}

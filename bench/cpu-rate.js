'use strict'
// What the bars scripts share (bench/*-bars.js; bench/index.js names the CPU with it too): calls per second of CPU time, and the
// median of alternated rounds. Calls go in batches that double until a batch takes 0.2 ms:
// process.cpuUsage() is a system call (1-5 microseconds on a VM), so reading it after every call
// would time the clock, not a 10-byte operation, and pull every ratio of the small rows towards 1.
let sink = 0

// Seconds of CPU time (user + system) this process has used.
function cpu () {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1e6
}

// Calls of fn per CPU second over about ms milliseconds; each result is folded into a sink so
// that it is used.
function rate (fn, ms) {
  let n = 0
  let batch = 1
  const t0 = cpu()
  let t = t0
  do {
    const before = t
    for (let i = 0; i < batch; i++) {
      const r = fn()
      sink ^= r && r.length ? r[0] : r ? 1 : 0
    }
    n += batch
    t = cpu()
    if (t - before < 0.0002) batch *= 2
  } while (t - t0 < ms / 1000)
  return n / (t - t0)
}

const median = (v) => v.slice().sort((p, q) => p - q)[v.length >> 1]

// The CPU's name with its family and model (a VM often reports only "AMD EPYC", and the family is
// what tells a Zen 3 from a Zen 5), e.g. "AMD EPYC (family 25, model 17)".
function cpuName () {
  let name = require('os').cpus()[0].model.trim()
  try {
    const info = require('fs').readFileSync('/proc/cpuinfo', 'utf8')
    const family = /^cpu family\s*:\s*(\d+)/m.exec(info)
    const model = /^model\s*:\s*(\d+)/m.exec(info)
    if (family && model) name += ` (family ${family[1]}, model ${model[1]})`
  } catch {}
  return name
}

module.exports = { cpu, rate, median, cpuName, sink: () => sink }

'use strict'
// Runs the cases: for each contender, setup (keys imported, inputs made, outside the loop), one
// checked call (two for random outputs), then timing. A contender whose answer is wrong, or that
// throws, is reported and never timed.
const Benchmark = require('benchmark')
const { Skip } = require('./contenders')
const ref = require('./cases/ref')

// Call the contender's function as it is (no source rewriting), so closures over the prepared
// inputs work and every contender runs through the same one-line wrapper.
Benchmark.support.decompilation = false

// Every result lands here, so no call can be optimised away as dead code.
const sink = { value: null }

// Benchmark.js: a sample is a calibrated loop of at least minTime; minSamples of them, then
// more until maxTime has passed since the minimum was reached.
const SETTINGS = {
  full: { minSamples: 5, maxTime: 0.15, minTime: 0.05 },
  // the default run: the same sample count, shorter samples (margins a little wider)
  default: { minSamples: 5, maxTime: 0.12, minTime: 0.04 },
  quick: { minSamples: 3, maxTime: 0.05, minTime: 0.01 }
}

// Heavy cases (password hashing: up to a minute per call in pure JavaScript at scrypt N = 2^20)
// are timed one call per sample, as a Benchmark.js deferred test would (without its per-sample
// pretest call), for sync and async contenders alike. Samples: Benchmark.js's default 5, fewer
// for calls of seconds; a checked call of a second or more (its warm-up is noise then) is the
// first sample. The margin of error says what few samples cost. ceiling.c applies the same rule.
function heavySamples (seconds, quick) {
  if (quick) return 2
  return seconds < 1 ? 5 : seconds < 3 ? 4 : seconds < 10 ? 3 : seconds < 30 ? 2 : 1
}

// Student's t, two-sided 95 %, by degrees of freedom: Benchmark.js's table
const T95 = [NaN, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
  2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052,
  2.048, 2.045, 2.042]

async function timeCalls (call, first, { minSamples, maxTime }) {
  const periods = first === null ? [] : [first]
  // the checked call, when it counts as a sample, also counts towards maxTime
  const start = process.hrtime.bigint() - BigInt(Math.round((first || 0) * 1e9))
  while (periods.length < minSamples || Number(process.hrtime.bigint() - start) / 1e9 < maxTime) {
    const t0 = process.hrtime.bigint()
    sink.value = await call()
    periods.push(Number(process.hrtime.bigint() - t0) / 1e9)
  }
  const n = periods.length
  const mean = periods.reduce((a, b) => a + b, 0) / n
  const variance = n > 1 ? periods.reduce((a, p) => a + (p - mean) ** 2, 0) / (n - 1) : NaN
  const rme = n > 1 ? ((T95[n - 1] || 1.96) * Math.sqrt(variance / n) / mean) * 100 : null
  return { hz: 1 / mean, rme, samples: n, mean }
}

function snapshot (x) {
  if (x instanceof Uint8Array) return Uint8Array.prototype.slice.call(x)
  if (Array.isArray(x)) return x.map(snapshot)
  if (x && typeof x === 'object' && Object.getPrototypeOf(x) === Object.prototype) {
    return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, snapshot(v)]))
  }
  return x
}

function compare (answer, expected) {
  if (typeof expected === 'boolean') {
    return answer === expected ? true : `answered ${ref.describe(answer)}, expected ${expected}`
  }
  return ref.equalBytes(answer, expected)
}

// Returns [true | why not, seconds the first call took]
async function check (c, kase, fn) {
  const norm = (r) => (c.out ? c.out(snapshot(r)) : snapshot(r))
  const started = process.hrtime.bigint()
  const result = await fn()
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  const first = norm(result)
  if (kase.expect) {
    const verdict = compare(first, await kase.expect())
    return [verdict === true ? true : `${verdict} (${kase.ref})`, seconds]
  }
  return [kase.validate(first, norm(await fn())), seconds]
}

// Benchmark.js; an async contender (fn returns a Promise) runs as a deferred test
function time (fn, async, settings) {
  return new Promise((resolve) => {
    let failure = null
    const bench = new Benchmark({
      ...settings,
      defer: async,
      async: true,
      fn: async
        ? function (deferred) {
          fn().then((r) => { sink.value = r; deferred.resolve() }, (err) => { failure = err; deferred.resolve() })
        }
        : function () { sink.value = fn() },
      onComplete () { resolve({ bench, failure: failure || bench.error || null }) }
    })
    bench.run({ async: true })
  })
}

const message = (err) => String(err && err.message ? err.message : err).split('\n')[0]

// One contender of one case: { status: ok | skip | wrong | error, hz, rme, samples, note }
async function evaluate (c, kase, settings, quick) {
  if (c.skip) return { status: 'skip', note: c.skip }
  let fn
  try {
    fn = await c.setup()
  } catch (err) {
    if (err instanceof Skip) return { status: 'skip', note: err.message }
    return { status: 'error', note: `setup threw: ${message(err)}` }
  }
  const call = c.defer ? fn : async () => fn()
  let firstCall
  try {
    const [verdict, seconds] = await check(c, kase, call)
    if (verdict !== true) return { status: 'wrong', note: `WRONG ANSWER: ${verdict}` }
    firstCall = seconds
  } catch (err) {
    return { status: 'error', note: `threw: ${message(err)}` }
  }
  if (kase.heavy) {
    try {
      const minSamples = heavySamples(firstCall, quick)
      return { status: 'ok', ...await timeCalls(call, firstCall >= 1 ? firstCall : null, { ...settings, minSamples }) }
    } catch (err) {
      return { status: 'error', note: `threw while timed: ${message(err)}` }
    }
  }
  const { bench, failure } = await time(fn, !!c.defer, settings)
  if (failure) return { status: 'error', note: `threw while timed: ${message(failure)}` }
  return {
    status: 'ok',
    hz: bench.hz,
    rme: bench.stats.rme,
    samples: bench.stats.sample.length,
    mean: bench.stats.mean
  }
}

module.exports = { evaluate, SETTINGS, sink }

'use strict'
// Runs the cases: for each contender, setup (keys imported, inputs made, outside the loop), one
// checked call (two for random outputs), then Benchmark.js timing. A contender whose answer is
// wrong, or that throws, is reported and never timed.
const Benchmark = require('benchmark')
const { Skip } = require('./contenders')
const ref = require('./cases/ref')

// Call the contender's function as it is (no source rewriting), so closures over the prepared
// inputs work and every contender runs through the same one-line wrapper.
Benchmark.support.decompilation = false

// Every result lands here, so no call can be optimised away as dead code.
const sink = { value: null }

const SETTINGS = {
  full: { minSamples: 10, maxTime: 0.75, minTime: 0.05 },
  // heavy cases (password hashing): Benchmark.js's default 5 samples, at least one call each
  heavy: { minSamples: 5, maxTime: 0.75, minTime: 0.05 },
  quick: { minSamples: 3, maxTime: 0.08, minTime: 0.01 }
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

async function check (c, kase, fn) {
  const norm = (r) => (c.out ? c.out(snapshot(r)) : snapshot(r))
  const first = norm(await fn())
  if (kase.expect) {
    const verdict = compare(first, await kase.expect())
    return verdict === true ? true : `${verdict} (${kase.ref})`
  }
  return kase.validate(first, norm(await fn()))
}

function time (fn, defer, settings) {
  return new Promise((resolve) => {
    let failure = null
    const bench = new Benchmark({
      ...settings,
      defer,
      async: true,
      fn: defer
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
async function evaluate (c, kase, settings) {
  if (c.skip) return { status: 'skip', note: c.skip }
  let fn
  try {
    fn = await c.setup()
  } catch (err) {
    if (err instanceof Skip) return { status: 'skip', note: err.message }
    return { status: 'error', note: `setup threw: ${message(err)}` }
  }
  const call = c.defer ? fn : async () => fn()
  try {
    const verdict = await check(c, kase, call)
    if (verdict !== true) return { status: 'wrong', note: `WRONG ANSWER: ${verdict}` }
  } catch (err) {
    return { status: 'error', note: `threw: ${message(err)}` }
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

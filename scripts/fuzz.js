'use strict'
// npm run fuzz: natrium's own fuzzer. Runs batches of random hostile calls (test/fuzz/worker.js:
// every function of the raw backends, natrium/sodium-native and the main API, native against
// wasm), each batch in a child process of its own, two at a time, and reports every finding: a
// difference between the backends, a broken contract (an argument error that wrote a buffer, a
// refusal that left an output, a non-Error throw) or a crash (the batch is replayed with --trace
// to name the call that crashed it).
//
//   node scripts/fuzz.js [--batches 64] [--calls 3000] [--seed 1] [--jobs 2] [--timeout 300]
//
// Seeds are --seed, --seed + 1, ...: a finding names its seed, and
// `node test/fuzz/worker.js <seed> <calls> --trace` replays that batch exactly. Exits 1 on any
// finding. Extra environment (e.g. LD_PRELOAD for the sanitizer run) passes to the batches.
const { spawn } = require('child_process')
const path = require('path')

const WORKER = path.join(__dirname, '..', 'test', 'fuzz', 'worker.js')

function option (args, name, fallback) {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? Number(args[i + 1]) : fallback
}

// One batch: resolves { seed, findings, crashed, output } once its process has ended.
function batch (seed, calls, { timeout, trace = false, execArgv = [] }) {
  return new Promise((resolve) => {
    const args = ['--expose-gc', ...execArgv, WORKER, String(seed), String(calls)]
    if (trace) args.push('--trace')
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.on('data', (d) => { out += d })
    child.stderr.on('data', (d) => { err += d })
    const timer = setTimeout(() => child.kill('SIGKILL'), timeout * 1000)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      const lines = out.split('\n').filter(Boolean).map((l) => { try { return JSON.parse(l) } catch { return { text: l } } })
      const done = lines.find((l) => l.done)
      resolve({
        seed,
        findings: lines.filter((l) => l.finding),
        traces: lines.filter((l) => l.trace).map((l) => l.trace),
        crashed: !done || code !== 0 ? { code, signal, stderr: err.slice(-2000) } : null
      })
    })
  })
}

async function fuzz ({ batches = 64, calls = 3000, seed = 1, jobs = 2, timeout = 300, execArgv = [], log = () => {} } = {}) {
  const findings = []
  let next = 0
  let finished = 0
  const started = Date.now()
  async function lane () {
    while (next < batches) {
      const s = seed + next++
      const r = await batch(s, calls, { timeout, execArgv })
      for (const f of r.findings) findings.push(f)
      if (r.crashed) {
        // replay with a trace of every call: the last one traced is where it died
        const replay = await batch(s, calls, { timeout, trace: true, execArgv })
        findings.push({ finding: 'crash', seed: s, ...r.crashed, lastCall: replay.traces[replay.traces.length - 1] || null })
      }
      finished++
      const eta = Math.round((Date.now() - started) / finished * (batches - finished) / 1000)
      log(`fuzz: ${finished}/${batches} batches (${finished * calls} calls), ${findings.length} findings, about ${eta} s left`)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, jobs) }, lane))
  return findings
}

module.exports = { fuzz, batch }

if (require.main === module) {
  const args = process.argv.slice(2)
  const options = {
    batches: option(args, 'batches', 64),
    calls: option(args, 'calls', 3000),
    seed: option(args, 'seed', 1),
    jobs: option(args, 'jobs', 2),
    timeout: option(args, 'timeout', 300),
    log: (line) => process.stderr.write(`${line}\n`)
  }
  const t0 = Date.now()
  fuzz(options).then((findings) => {
    for (const f of findings) console.log(JSON.stringify(f))
    const total = options.batches * options.calls
    console.log(`fuzz: ${total} calls in ${options.batches} batches (seeds ${options.seed}..${options.seed + options.batches - 1}), ` +
      `${((Date.now() - t0) / 1000).toFixed(1)} s, ${findings.length} findings`)
    process.exitCode = findings.length ? 1 : 0
  })
}

'use strict'
// Prints the README's benchmark summary from bench/results/latest.json: for the headline
// operations (bench/selection.js, the rows the default `npm run bench` also times), ops/sec of
// natrium (native, wasm) and the peers, from one full run (`npm run bench -- --full`).
// Usage: node scripts/readme-bench.js [run.json] > /tmp/summary.md (then paste under
// "## Benchmarks"); run.json: another run's JSON (`npm run bench -- --json run.json`).
const path = require('path')
const latest = require(process.argv[2] ? path.resolve(process.argv[2]) : '../bench/results/latest.json')

const ROWS = require('../bench/selection').HEADLINE
const COLS = [['natrium native', 'natrium'], ['natrium wasm', 'natrium wasm'], ['sodium-native', 'sodium-native'],
  ['node:crypto', 'node:crypto'], ['libsodium-wrappers', 'libsodium-wrappers'], ['C ceiling', 'C (same libsodium)']]

const fmt = (hz) => hz >= 100 ? Math.round(hz).toLocaleString('en-US') : hz.toPrecision(3)
const sizeOf = (c) => (c.size === null || c.size === undefined ? null : c.label || String(c.size))

const { meta } = latest
console.log(`${meta.cpu || ''} · Node ${meta.node || process.version} · ${meta.date || ''} · ${meta.mode || 'full'} run, ops/sec (higher is better)\n`)
console.log(`| operation | ${COLS.map((c) => c[1]).join(' | ')} | natrium ÷ best peer | wasm ÷ libsodium-wrappers |`)
console.log(`|---|${COLS.map(() => '---:').join('|')}|---:|---:|`)
for (const [op, size] of ROWS) {
  const c = latest.cases.find((x) => x.op === op && (size === null || sizeOf(x) === size))
  if (!c) continue
  // libsodium-wrappers: its -sumo build where the slim one lacks the function (same code)
  const hz = (name) => {
    const r = c.results.find((x) => (x.contender === name || x.contender === name + '-sumo') && x.status === 'ok')
    return r ? r.hz : null
  }
  const peers = c.results.filter((x) => x.status === 'ok' && !/^natrium|^C ceiling/.test(x.contender)).map((x) => x.hz)
  const best = peers.length ? Math.max(...peers) : null
  const nat = hz('natrium native')
  const wasm = hz('natrium wasm')
  const lsjs = hz('libsodium-wrappers')
  const cells = COLS.map(([name]) => { const v = hz(name); return v === null ? '—' : fmt(v) })
  console.log(`| ${c.op}${size ? ' ' + size : ''} | ${cells.join(' | ')} | ${nat && best ? (nat / best).toFixed(2) + '×' : '—'} | ${wasm && lsjs ? (wasm / lsjs).toFixed(2) + '×' : '—'} |`)
}

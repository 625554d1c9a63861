'use strict'
// The browser benchmark's outputs, shared by the page (bundled) and the server (Node): the seed
// article's table (ops/sec per library and "factor faster" for natrium against each peer) as
// markdown and HTML, the header lines that name the machine and the browser, and the SVG chart
// (bench/report.js's panels: grouped bars per size, log scale). No I/O here.
const { panel, svgHead, esc, COLOURS, fmtHz, fmtRatio, fmtDuration } = require('../report')

const NATRIUM = 'natrium-wasm'
const PEERS = [['libsodium-wrappers', 'libsodium-wrappers'], ['noble', '@noble/*']]
const COLUMNS = [[NATRIUM, 'natrium (wasm)'], ...PEERS]
const ok = (r) => r && r.status === 'ok' && r.hz > 0

function median (xs) {
  const s = xs.slice().sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

// natrium against each peer: the median, and the range, of the ratios of the same round (the two
// rows of a round ran seconds apart, so a slow spell of the machine hits both)
function ratios (kase) {
  const nat = kase.results.find((r) => r.lib === NATRIUM)
  kase.factor = {}
  for (const [id] of PEERS) {
    const peer = kase.results.find((r) => r.lib === id)
    if (!ok(nat) || !ok(peer)) continue
    const n = Math.min(nat.rounds.length, peer.rounds.length)
    const per = []
    for (let i = 0; i < n; i++) per.push(nat.rounds[i].hz / peer.rounds[i].hz)
    if (per.length) kase.factor[id] = { median: median(per), min: Math.min(...per), max: Math.max(...per), rounds: per.length }
  }
  return kase.factor
}

function headerLines (m) {
  const s = m.settings
  return [
    `${m.cpu}${m.cores ? ` (${m.cores} cores)` : ''} · ${m.browser || 'browser'}${m.os ? ` on ${m.os}` : ''} · ${(m.started || m.date || '').slice(0, 10)}`,
    `natrium ${m.natrium.version}${m.natrium.commit ? ` @ ${m.natrium.commit}` : ''} (wasm, browser entry) on libsodium ${m.libsodium} · ` +
      `${m.mode === 'quick' ? 'quick smoke run (short timings, 1 KB only: not for quoting)' : `${m.mode} run`}`,
    `Benchmark.js ${m.benchmarkjs}: ≥ ${s.minSamples} samples of ≥ ${s.minTime} s, ${s.maxTime} s per row` +
      (s.big ? ` (AEAD from 100 KB: ≥ ${s.big.minTime} s, ${s.big.maxTime} s)` : '') + ', ' +
      `${m.rounds} round${m.rounds === 1 ? '' : 's'}, median` + (m.filter ? ` · --filter ${m.filter}` : '') + (m.duration ? ` · took ${fmtDuration(m.duration)}` : '')
  ]
}

const HOW_TO_READ =
  'ops/sec: higher is better, the median of the rounds (± the median relative margin of error at 95 % of a round). ' +
  'Every library is called as its users call it, a new Uint8Array per result: natrium\'s main API and libsodium-wrappers ' +
  'take the same arguments; noble signs with the 32-byte seed and makes its cipher per message (its API). ' +
  '"natrium ÷ …" is the median of the same round\'s ratios (their range in brackets): above 1× natrium is faster. ' +
  'Every answer was checked before anything was timed: signatures equal to node:crypto\'s, ciphertexts to libsodium\'s, ' +
  'each library verifying and decrypting the others\' outputs and refusing forgeries.'

function cell (r) {
  if (!r) return '—'
  if (r.status === 'wrong') return 'WRONG ANSWER'
  if (r.status === 'error') return 'ERROR'
  if (!ok(r)) return '…'
  return `${fmtHz(r.hz)}${r.rme === undefined || r.rme === null ? '' : ` ±${r.rme.toFixed(1)} %`}`
}

function factorCell (f) {
  if (!f) return '—'
  return f.rounds > 1 ? `${fmtRatio(f.median)} (${f.min.toFixed(2)}–${f.max.toFixed(2)})` : fmtRatio(f.median)
}

function rows (run) {
  return run.cases.map((c) => {
    const by = (id) => c.results.find((r) => r.lib === id)
    return {
      op: c.op,
      size: c.label || '—',
      cells: COLUMNS.map(([id]) => cell(by(id))),
      factors: PEERS.map(([id]) => factorCell(c.factor && c.factor[id])),
      behind: PEERS.some(([id]) => c.factor && c.factor[id] && c.factor[id].median < 1)
    }
  })
}

function problems (run) {
  return run.cases.flatMap((c) => c.results.filter((r) => r.status === 'wrong' || r.status === 'error')
    .map((r) => `${r.contender}, ${c.op}${c.label ? ` ${c.label}` : ''}: ${r.note}`))
}

function markdown (run) {
  const head = ['operation', 'size', ...COLUMNS.map(([, n]) => n), ...PEERS.map(([, n]) => `natrium ÷ ${n}`)]
  const lines = [
    '# natrium in the browser', '',
    ...headerLines(run.meta).map((l) => `${l}  `), '',
    HOW_TO_READ, '',
    `Versions: ${Object.entries(run.meta.versions).map(([k, v]) => `${k} ${v}`).join(' · ')}`, '',
    `| ${head.join(' | ')} |`,
    `|---|---|${head.slice(2).map(() => '---:').join('|')}|`
  ]
  for (const r of rows(run)) lines.push(`| ${r.op} | ${r.size} | ${r.cells.join(' | ')} | ${r.factors.join(' | ')} |`)
  const bad = problems(run)
  if (bad.length) lines.push('', ...bad.map((p) => `- **${p}**`))
  return `${lines.join('\n')}\n`
}


function html (run) {
  const head = ['operation', 'size', ...COLUMNS.map(([, n]) => n), ...PEERS.map(([, n]) => `natrium ÷ ${n}`)]
  const out = ['<table><thead><tr>', ...head.map((h, i) => `<th${i > 1 ? ' class="num"' : ''}>${esc(h)}</th>`), '</tr></thead><tbody>']
  for (const r of rows(run)) {
    out.push(`<tr${r.behind ? ' class="behind"' : ''}><td>${esc(r.op)}</td><td>${esc(r.size)}</td>` +
      [...r.cells, ...r.factors].map((x) => `<td class="num">${esc(x)}</td>`).join('') + '</tr>')
  }
  out.push('</tbody></table>')
  const bad = problems(run)
  if (bad.length) out.push(`<ul class="wrong">${bad.map((p) => `<li>${esc(p)}</li>`).join('')}</ul>`)
  out.push(`<p class="note">${esc(HOW_TO_READ)}</p>`)
  return out.join('')
}

function svg (run) {
  const ops = []
  for (const c of run.cases) {
    let group = ops.find(([op]) => op === c.op)
    if (!group) ops.push(group = [c.op, []])
    group[1].push(c)
  }
  const cols = 3
  const pw = 410
  const ph = 220
  const width = cols * pw + 20
  const legend = COLOURS.filter(([n]) => ['natrium wasm', 'libsodium-wrappers', '@noble/*'].includes(n))
  const head = 100
  const height = head + Math.ceil(ops.length / cols) * ph + 10
  const [line1, line2, line3] = headerLines(run.meta)
  const out = svgHead(width, height, 'natrium in the browser', [line1, line2, line3])
  legend.forEach(([name, colour], i) => {
    const lx = 14 + i * 205
    out.push(`<rect x="${lx}" y="80" width="12" height="12" fill="${colour}"/><text x="${lx + 17}" y="90.5" class="legend">${esc(name)}</text>`)
  })
  ops.forEach(([op, cases], i) => {
    out.push(panel(op, cases, 10 + (i % cols) * pw, head + Math.floor(i / cols) * ph, pw, ph))
  })
  out.push('</svg>')
  return out.join('\n')
}

module.exports = { ratios, headerLines, markdown, html, svg, problems, median, NATRIUM, PEERS }

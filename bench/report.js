'use strict'
// The run's outputs: markdown tables (one per operation), the JSON record, and an SVG chart of
// small multiples (one panel per operation, grouped bars per size, log scale).

const RME_FLAG = 5 // percent

const isNatrium = (r) => r.lib === 'natrium-native' || r.lib === 'natrium-wasm'
const isPeer = (r) => !isNatrium(r) && r.lib !== 'c'
const ok = (r) => r.status === 'ok'

function groupByOp (cases) {
  const ops = new Map()
  for (const c of cases) {
    if (!ops.has(c.op)) ops.set(c.op, [])
    ops.get(c.op).push(c)
  }
  return ops
}

function fmtHz (hz) {
  if (hz >= 100) return Math.round(hz).toLocaleString('en-US')
  return hz.toPrecision(3)
}

function fmtShort (hz) {
  if (hz >= 1e6) return `${(hz / 1e6).toPrecision(3)}M`
  if (hz >= 1e3) return `${(hz / 1e3).toPrecision(3)}k`
  return hz.toPrecision(3)
}

const fmtRatio = (x) => (x >= 100 ? `${Math.round(x)}×` : x >= 10 ? `${x.toFixed(1)}×` : `${x.toFixed(2)}×`)

function fmtDuration (seconds) {
  const s = Math.round(seconds)
  if (s < 60) return `${s} s`
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`
}

const MODES = {
  quick: 'quick smoke run (short timings, fewer sizes: not for quoting)',
  default: 'default run (the seed article\'s table and the headline rows, shorter samples; `--full` for every operation)',
  full: 'full run'
}

function headerLines (meta) {
  const m = meta
  return [
    `${m.cpu} (${m.cores} cores, ${m.memoryGiB} GiB${m.cpuFlags && m.cpuFlags.length ? `; ${m.cpuFlags.join(', ')}` : ''}) · ${m.os} · Node ${m.node} (V8 ${m.v8}, OpenSSL ${m.openssl}) · ${m.date}`,
    `natrium ${m.natrium.version}${m.natrium.commit ? ` @ ${m.natrium.commit}` : ''} on libsodium ${m.libsodium} · ` +
      `${MODES[m.mode] || `${m.mode} run`} · ` +
      `Benchmark.js ${m.benchmarkjs}: ≥ ${m.settings.minSamples} samples of ≥ ${m.settings.minTime} s, then ${m.settings.maxTime} s more` +
      (m.mode === 'quick' ? '' : ' (password hashing: 1 to 5 samples of one call)') +
      (m.duration ? ` · took ${fmtDuration(m.duration)}` : '') +
      (m.filter ? ` · --filter ${m.filter}` : '') + (m.only ? ` · --only ${m.only}` : '')
  ]
}

const HOW_TO_READ =
  'ops/sec: higher is better, ± the relative margin of error at 95 % (⚠ above 5 %: a noisy row). ' +
  '"natrium native"/"natrium wasm" call the raw surface with output buffers allocated once and reused ' +
  '(as sodium-native does); "(alloc)" rows allocate a new Uint8Array per call, the policy of node:crypto, ' +
  'libsodium-wrappers, noble, tweetnacl and hash-wasm. "× node" divides by node:crypto, "× best peer" by the ' +
  'fastest library that is neither natrium nor C, "% of C" compares with the same libsodium called from C ' +
  '(the ceiling). Every row\'s answer was checked before it was timed.'

function tableFor (op, cases) {
  const sized = cases.some((c) => c.label)
  const lines = []
  lines.push(sized
    ? '| size | library | ops/sec | ± | × node | × best peer | % of C |'
    : '| library | ops/sec | ± | × node | × best peer | % of C |')
  lines.push(sized ? '|---|---|---:|---:|---:|---:|---:|' : '|---|---:|---:|---:|---:|---:|')
  const notes = new Map() // note -> sizes
  for (const c of cases) {
    const timed = c.results.filter(ok).sort((a, b) => b.hz - a.hz)
    const node = c.results.find((r) => r.lib === 'node' && ok(r))
    const peers = timed.filter(isPeer)
    const best = peers.length ? peers[0].hz : null
    const ceiling = c.results.find((r) => r.lib === 'c' && ok(r))
    timed.forEach((r, i) => {
      const name = isNatrium(r) ? `**${r.contender}**` : r.contender
      const rme = r.rme === null ? 'one call ⚠' : `${r.rme.toFixed(1)} %${r.rme > RME_FLAG ? ' ⚠' : ''}`
      const cells = [
        name,
        fmtHz(r.hz),
        rme,
        node ? fmtRatio(r.hz / node.hz) : '—',
        best ? fmtRatio(r.hz / best) : '—',
        ceiling ? `${Math.round((r.hz / ceiling.hz) * 100)} %` : '—'
      ]
      if (sized) cells.unshift(i === 0 ? c.label : '')
      lines.push(`| ${cells.join(' | ')} |`)
    })
    // a library that did not load is said once, above the tables
    for (const r of c.results.filter((x) => !ok(x) && !x.absent)) {
      const text = r.status === 'skip' ? `not timed: ${r.note}` : `**${r.status === 'wrong' ? 'WRONG ANSWER' : 'ERROR'}** ${r.contender}: ${r.note.replace(/^WRONG ANSWER: /, '')}`
      if (!notes.has(text)) notes.set(text, [])
      if (c.label) notes.get(text).push(c.label)
    }
  }
  const out = [`### ${op}`, '', ...lines]
  const allNotes = [...new Set(cases.flatMap((c) => c.notes || []))]
  if (notes.size || allNotes.length) out.push('')
  for (const n of allNotes) out.push(`- ${n}`)
  for (const [text, labels] of notes) {
    const where = labels.length && labels.length < cases.length ? ` (${labels.join(', ')})` : ''
    out.push(`- ${text}${where}`)
  }
  return out.join('\n')
}

function markdown (run) {
  const parts = ['# natrium benchmarks', '', ...headerLines(run.meta).map((l) => `${l}  `), '', HOW_TO_READ, '']
  parts.push(`Versions: ${Object.entries(run.meta.versions).map(([k, v]) => `${k} ${v}`).join(' · ')}`, '')
  const missing = Object.entries(run.meta.notLoaded || {})
  if (missing.length) parts.push(`Not in this run: ${missing.map(([k, v]) => `${k} (${v})`).join('; ')}`, '')
  const families = new Map()
  for (const [op, cases] of groupByOp(run.cases)) {
    const fam = cases[0].family
    if (!families.has(fam)) families.set(fam, [])
    families.get(fam).push(tableFor(op, cases))
  }
  for (const tables of families.values()) parts.push(...tables.flatMap((t) => [t, '']))
  return parts.join('\n')
}

// ---- SVG ----

// One colour per library; natrium's reused/allocating variants are two shades of one hue.
const COLOURS = [
  ['C ceiling', '#3b3b3b'],
  ['natrium native', '#00796b'],
  ['natrium native (alloc)', '#4db6ac'],
  ['natrium wasm', '#5e35b1'],
  ['natrium wasm (alloc)', '#9575cd'],
  ['node:crypto', '#43a047'],
  ['sodium-native', '#fb8c00'],
  ['libsodium-wrappers', '#8d6e63'],
  ['@noble/*', '#1e88e5'],
  ['tweetnacl', '#e53935'],
  ['scrypt-js', '#c0ca33'],
  ['hash-wasm', '#d81b60'],
  ['argon2', '#00acc1']
]
const legendName = (r) => (r.lib === 'noble' ? '@noble/*' : r.lib === 'libsodium-wrappers' ? 'libsodium-wrappers' : r.contender)
const colourOf = new Map(COLOURS)
const orderOf = new Map(COLOURS.map(([n], i) => [n, i]))

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

// "N=2^16" with a raised exponent
const labelSvg = (label) => esc(label).replace(/\^(\d+)/g, '<tspan dy="-4" font-size="8">$1</tspan><tspan dy="4"></tspan>')

function tick (v) {
  if (v >= 1e6) return `${v / 1e6}M`
  if (v >= 1e3) return `${v / 1e3}k`
  return String(v)
}

function panel (op, cases, x0, y0, w, h) {
  const left = 46
  const right = 8
  const top = 28
  const bottom = 34
  const pw = w - left - right
  const ph = h - top - bottom
  const out = [`<g transform="translate(${x0},${y0})">`]
  out.push(`<text x="${left}" y="17" class="title">${esc(op)}</text>`)
  const all = cases.flatMap((c) => c.results.filter(ok))
  if (!all.length) {
    out.push(`<text x="${left}" y="${top + ph / 2}" class="note">nothing timed</text></g>`)
    return out.join('')
  }
  const lo = Math.floor(Math.log10(Math.min(...all.map((r) => r.hz))))
  let hi = Math.ceil(Math.log10(Math.max(...all.map((r) => r.hz))))
  if (hi === lo) hi = lo + 1
  const y = (hz) => top + ph - ((Math.log10(hz) - lo) / (hi - lo)) * ph
  for (let d = lo; d <= hi; d++) {
    const yy = y(10 ** d).toFixed(1)
    out.push(`<line x1="${left}" x2="${left + pw}" y1="${yy}" y2="${yy}" class="grid"/>`)
    out.push(`<text x="${left - 5}" y="${(+yy + 3.5).toFixed(1)}" class="tick" text-anchor="end">${tick(10 ** d)}</text>`)
  }
  const gw = pw / cases.length
  cases.forEach((c, gi) => {
    const rows = c.results.filter((r) => ok(r) || r.status === 'wrong' || r.status === 'error')
      .sort((a, b) => (orderOf.get(legendName(a)) ?? 99) - (orderOf.get(legendName(b)) ?? 99))
    const bw = Math.min(18, (gw * 0.86) / Math.max(rows.length, 1))
    const gx = left + gi * gw + (gw - bw * rows.length) / 2
    rows.forEach((r, i) => {
      const bx = (gx + i * bw).toFixed(1)
      const label = `${r.contender}${c.label ? ` · ${c.label}` : ''}`
      if (!ok(r)) {
        out.push(`<text x="${(+bx + bw / 2).toFixed(1)}" y="${top + ph - 3}" class="wrong" text-anchor="middle"><title>${esc(label)}: ${esc(r.note)}</title>✗</text>`)
        return
      }
      const by = y(r.hz)
      out.push(`<rect x="${bx}" y="${by.toFixed(1)}" width="${(bw - 1).toFixed(1)}" height="${(top + ph - by).toFixed(1)}" fill="${colourOf.get(legendName(r)) || '#999'}">` +
        `<title>${esc(label)}: ${fmtHz(r.hz)} ops/s ${r.rme === null ? '(one call)' : `± ${r.rme.toFixed(1)} %`}</title></rect>`)
    })
    if (c.label) out.push(`<text x="${(left + gi * gw + gw / 2).toFixed(1)}" y="${top + ph + 15}" class="tick" text-anchor="middle">${labelSvg(c.label)}</text>`)
  })
  out.push(`<line x1="${left}" x2="${left + pw}" y1="${top + ph}" y2="${top + ph}" class="axis"/>`)
  out.push('</g>')
  return out.join('')
}

function svg (run) {
  const ops = [...groupByOp(run.cases)]
  const cols = 3
  const pw = 410
  const ph = 220
  const width = cols * pw + 20
  const present = new Set(run.cases.flatMap((c) => c.results.filter(ok).map(legendName)))
  const legend = COLOURS.filter(([n]) => present.has(n))
  const legendRows = Math.ceil(legend.length / 6)
  const head = 62 + legendRows * 20
  const height = head + Math.ceil(ops.length / cols) * ph + 10
  const [line1, line2] = headerLines(run.meta)
  const out = svgHead(width, height, 'natrium benchmarks', [line1, line2])
  legend.forEach(([name, colour], i) => {
    const lx = 14 + (i % 6) * 205
    const ly = 66 + Math.floor(i / 6) * 20
    out.push(`<rect x="${lx}" y="${ly}" width="12" height="12" fill="${colour}"/><text x="${lx + 17}" y="${ly + 10.5}" class="legend">${esc(name)}</text>`)
  })
  ops.forEach(([op, cases], i) => {
    out.push(panel(op, cases, 10 + (i % cols) * pw, head + Math.floor(i / cols) * ph, pw, ph))
  })
  out.push('</svg>')
  return out.join('\n')
}

// The opening of a results chart: the <svg> element, its styles, a white page, the title and one
// header line per entry of `lines`, 14 px apart (bench/report.js and bench/browser/report.js).
function svgHead (width, height, title, lines) {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif">`,
    '<style>.title{font-size:13px;font-weight:600;fill:#222}.tick{font-size:10px;fill:#555}.note{font-size:11px;fill:#888}' +
      '.grid{stroke:#e4e4e4;stroke-width:1}.axis{stroke:#888;stroke-width:1}.wrong{font-size:12px;fill:#d00;font-weight:700}' +
      '.h1{font-size:17px;font-weight:700;fill:#111}.h2{font-size:11px;fill:#555}.legend{font-size:11.5px;fill:#333}</style>',
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="14" y="24" class="h1">${title} · operations per second, log scale, higher is better</text>`,
    ...lines.map((line, i) => `<text x="14" y="${40 + 14 * i}" class="h2">${esc(line)}</text>`)
  ]
}

module.exports = { markdown, svg, svgHead, esc, panel, COLOURS, fmtHz, fmtShort, fmtRatio, fmtDuration }

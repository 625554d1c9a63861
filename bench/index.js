#!/usr/bin/env node
'use strict'
// npm run bench [-- --full | --quick] [--filter <regex>] [--only <libs>] [--json <file>]
// The default run times the seed article's table and the README's headline rows (a few minutes);
// --full times everything and alone rewrites bench/results/latest.*; --quick is CI's smoke run.
// Progress (with an ETA) goes to stderr, the markdown tables to stdout; every run is also written
// to bench/results/ (JSON, markdown, SVG). See bench/README.md.
const fs = require('fs')
const os = require('os')
const path = require('path')
const { execFileSync } = require('child_process')

const { LIBS, loadLibs, pkgVersion } = require('./libs')
const { Builder } = require('./contenders')
const { evaluate, SETTINGS } = require('./runner')
const ceiling = require('./ceiling')
const report = require('./report')
const { cpuName } = require('./cpu-rate')
const ref = require('./cases/ref')
const { SIZES, QUICK_SIZES, sizeLabel } = require('./inputs')
const { inDefault } = require('./selection')

const root = path.join(__dirname, '..')
const RESULTS = path.join(__dirname, 'results')
const FAMILIES = ['sign', 'aead', 'box', 'random', 'hash', 'pwhash', 'kem']

const USAGE = `usage: npm run bench -- [options]
  (no option)        the default run, about 3 minutes: the seed article's table (ed25519
                     keypair/sign/verify, xchacha20poly1305 keygen/encrypt/decrypt at 10 B, 1 KB,
                     100 KB, 1 MB) and the README's headline rows (bench/selection.js)
  --full             every operation at every size (11 to 16 minutes on 2 cores); a full run
                     without --filter/--only rewrites bench/results/latest.*
  --quick            short smoke run: 1 KB only, short timings, scrypt < 2^16, argon2id 19 MiB only
  --filter <regex>   only operations whose "op size" matches, e.g. 'sign', '^sha', 'encrypt 1 MB'
                     (chosen from every operation, not only the default run's)
  --only <libs>      comma-separated libraries: ${LIBS.map((l) => l.id).join(', ')}
                     ("natrium" = both backends, "c" = the C ceiling)
  --json <file>      also write the run's JSON to <file>
  --help             this text`

function parseArgs (argv) {
  const opts = { quick: false, full: false, filter: null, only: null, json: null }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    const value = () => {
      if (i + 1 >= argv.length) fail(`${a} needs a value`)
      return argv[++i]
    }
    if (a === '--quick') opts.quick = true
    else if (a === '--full') opts.full = true
    else if (a === '--filter') opts.filter = value()
    else if (a === '--only') opts.only = value()
    else if (a === '--json') opts.json = value()
    else if (a === '--help' || a === '-h') { console.log(USAGE); process.exit(0) } else fail(`unknown option ${a}`)
  }
  if (opts.quick && opts.full) fail('--quick and --full exclude each other')
  opts.mode = opts.quick ? 'quick' : opts.full ? 'full' : 'default'
  return opts
}

function fail (msg) {
  console.error(`bench: ${msg}\n${USAGE}`)
  process.exit(2)
}

function onlyMatcher (only) {
  if (!only) return () => true
  const ids = LIBS.map((l) => l.id)
  const tokens = only.split(',').map((t) => t.trim().toLowerCase()).filter(Boolean)
  for (const t of tokens) {
    if (!ids.some((id) => id === t || id.startsWith(`${t}-`))) fail(`--only: unknown library '${t}'`)
  }
  return (id) => tokens.some((t) => id === t || id.startsWith(`${t}-`))
}

function git (...args) {
  try {
    return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch {
    return null
  }
}

function cpuFlags () {
  try {
    const flags = /^flags\s*:(.*)$/m.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'))[1].trim().split(/\s+/)
    return ['avx2', 'avx512f', 'aes', 'vaes', 'sha_ni'].filter((f) => flags.includes(f))
  } catch {
    return []
  }
}

function metaFor (opts, settings) {
  const env = fs.readFileSync(path.join(root, 'deps', 'libsodium.env'), 'utf8')
  const commit = git('rev-parse', '--short', 'HEAD')
  const dirty = commit && git('status', '--porcelain', '--untracked-files=no')
  return {
    date: new Date().toISOString().slice(0, 10),
    started: new Date().toISOString(),
    cpu: cpuName(),
    cpuFlags: cpuFlags(),
    cores: os.cpus().length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()} ${process.arch}`,
    node: process.version,
    v8: process.versions.v8,
    openssl: process.versions.openssl,
    natrium: {
      version: JSON.parse(fs.readFileSync(path.join(root, 'package.json'))).version,
      commit: commit ? `${commit}${dirty ? '+dirty' : ''}` : null
    },
    libsodium: /LIBSODIUM_VERSION=(\S+)/.exec(env)[1],
    benchmarkjs: pkgVersion('benchmark'),
    mode: opts.mode,
    filter: opts.filter,
    only: opts.only,
    settings,
    heavySamples: opts.quick ? 2 : '5 (calls < 1 s), 4 (< 3 s), 3 (< 10 s), 2 (< 30 s), 1',
    versions: {}
  }
}

const labelOf = (c) => c.label || (c.size !== undefined ? sizeLabel(c.size) : '')
const nameOf = (c) => (c.label ? `${c.op} ${c.label}` : c.op)

// Progress on stderr. On a terminal, one status line updated in place (every second, so the ETA
// keeps moving during a long row): case, contender, elapsed time and ETA; elsewhere (CI, a pipe)
// plain lines only. Either way one line per finished case with its main numbers, elapsed and ETA.
// The ETA weighs the rows of heavy cases by their cost (scrypt at N = 2^20 is 256 times N = 2^12);
// until a kind of row has been timed it uses a guess for the mode.
const GUESS = { quick: { light: 0.25, heavy: 0.1 }, default: { light: 0.55, heavy: 0.15 }, full: { light: 0.9, heavy: 0.3 } }

class Progress {
  constructor (cases, mode, withC) {
    this.tty = !!process.stderr.isTTY
    this.total = cases.length
    this.done = 0
    this.start = Date.now()
    this.spent = { light: [0, 0], heavy: [0, 0] } // seconds, rows (heavy: cost units)
    this.left = { light: 0, heavy: 0 }
    this.guess = GUESS[mode]
    this.current = null // { kind, units, started, text }
    for (const c of cases) {
      const rows = c.contenders.filter((x) => !x.skip).length + (withC && c.ceiling ? 1 : 0)
      if (c.heavy) this.left.heavy += rows * (c.cost || 1)
      else this.left.light += rows
    }
    if (this.tty) {
      this.timer = setInterval(() => this.redraw(), 1000)
      this.timer.unref()
    }
  }

  rate (kind) {
    return this.spent[kind][1] ? this.spent[kind][0] / this.spent[kind][1] : this.guess[kind]
  }

  // seconds still to go: rows not yet finished at their rate, less what the current row has run
  eta () {
    let left = Math.max(0, this.left.light) * this.rate('light') + Math.max(0, this.left.heavy) * this.rate('heavy')
    if (this.current) {
      const ran = (Date.now() - this.current.started) / 1000
      left -= Math.min(ran, this.current.units * this.rate(this.current.kind))
    }
    return Math.max(0, left)
  }

  elapsed () {
    return (Date.now() - this.start) / 1000
  }

  clock () {
    return `${report.fmtDuration(this.elapsed())}, ETA ${report.fmtDuration(this.eta())}`
  }

  counter () {
    const n = String(this.total).length
    return `[${String(this.done).padStart(n)}/${this.total}]`
  }

  // a row starts: kase's contender (or the C ceiling)
  status (kase, who) {
    this.current = { kind: kase.heavy ? 'heavy' : 'light', units: kase.heavy ? kase.cost || 1 : 1, started: Date.now(), text: `${nameOf(kase)}: ${who}` }
    this.redraw()
  }

  redraw () {
    if (!this.tty || !this.current) return
    const cols = process.stderr.columns || 100
    const text = `${this.counter()} ${this.current.text} (${this.clock()})`
    process.stderr.write(`\r\x1b[2K${text.length > cols - 1 ? text.slice(0, cols - 2) + '…' : text}`)
  }

  row (kase, seconds) {
    const kind = kase.heavy ? 'heavy' : 'light'
    const units = kase.heavy ? kase.cost || 1 : 1
    this.spent[kind][0] += seconds
    this.spent[kind][1] += units
    this.left[kind] -= units
    this.current = null
  }

  line (text) {
    if (this.tty) process.stderr.write('\r\x1b[2K')
    process.stderr.write(`${text}\n`)
  }

  caseDone (kase) {
    this.done++
    this.current = null
    const timed = kase.results.filter((r) => r.status === 'ok').sort((a, b) => b.hz - a.hz)
    const pick = timed.filter((r) => r.lib === 'natrium-native' || r.lib === 'node' || r.lib === 'c')
    const peer = timed.find((r) => !r.lib.startsWith('natrium') && r.lib !== 'c' && r.lib !== 'node')
    if (peer) pick.push(peer)
    const parts = pick.map((r) => `${r.contender} ${report.fmtShort(r.hz)}/s`)
    const bad = kase.results.filter((r) => r.status === 'wrong' || r.status === 'error')
    for (const r of bad) parts.push(`${r.status === 'wrong' ? 'WRONG' : 'ERROR'} ${r.contender}`)
    const tail = this.done < this.total ? this.clock() : report.fmtDuration(this.elapsed())
    this.line(`${this.counter()} ${nameOf(kase).padEnd(30)} ${parts.join(' · ')}  (${tail})`)
  }

  end () {
    if (this.timer) clearInterval(this.timer)
    this.current = null
  }
}

async function main () {
  const opts = parseArgs(process.argv.slice(2))
  const wanted = onlyMatcher(opts.only)
  const filter = opts.filter ? new RegExp(opts.filter, 'i') : null
  const settings = SETTINGS[opts.mode]
  const meta = metaFor(opts, settings)
  const t0 = Date.now()

  await ref.init()
  const libs = await loadLibs(wanted)
  const b = new Builder(libs, wanted)
  const ctx = { sizes: opts.quick ? QUICK_SIZES : SIZES, quick: opts.quick }
  let cases = FAMILIES.flatMap((f) => require(`./cases/${f}`)(b, ctx))
  for (const c of cases) c.label = labelOf(c)
  if (filter) cases = cases.filter((c) => filter.test(nameOf(c)))
  else if (opts.mode === 'default') cases = cases.filter((c) => inDefault(c.op, c.label))
  if (!cases.length) fail(`--filter ${opts.filter} matches no operation`)
  for (const [k, v] of Object.entries(libs.versions)) meta.versions[k] = v
  meta.notLoaded = libs.notes

  const timedRows = cases.reduce((n, c) => n + c.contenders.filter((x) => !x.skip).length, 0)
  console.error(`natrium bench: ${cases.length} cases, up to ${timedRows} timed rows, ${meta.mode} run on ${meta.cpu} (${meta.cores} cores), Node ${meta.node}`)
  for (const [k, why] of Object.entries(libs.notes)) console.error(`  skipped ${k}: ${why}`)

  const session = wanted('c') ? startCeiling(opts, meta) : null
  const progress = new Progress(cases, opts.mode, !!session)
  console.error(`  estimated time: ${report.fmtDuration(progress.eta())}${opts.mode === 'default' && !filter ? ' (the default selection; --full for every operation)' : ''}`)
  for (const kase of cases) {
    kase.results = []
    if (wanted('c') && kase.ceiling) {
      progress.status(kase, 'C ceiling')
      const started = Date.now()
      kase.results.push(await ceilingRow(session, kase, meta))
      if (session) progress.row(kase, (Date.now() - started) / 1000)
    }
    for (const c of kase.contenders) {
      progress.status(kase, c.name)
      const started = Date.now()
      const r = await evaluate(c, kase, settings, opts.quick)
      if (!c.skip) progress.row(kase, (Date.now() - started) / 1000)
      kase.results.push({
        contender: c.name,
        lib: c.lib,
        pkg: c.pkg || null,
        variant: c.variant || null,
        version: libs.versions[c.pkg || c.lib] || null,
        ...(c.absent ? { absent: true } : {}),
        ...r
      })
    }
    progress.caseDone(kase)
  }
  progress.end()
  if (session) session.close()

  meta.duration = (Date.now() - t0) / 1000
  const run = {
    meta,
    cases: cases.map((c) => ({
      family: c.family,
      op: c.op,
      size: c.size === undefined ? null : c.size,
      label: c.label,
      ref: c.ref || (c.validate ? 'validated (random output)' : null),
      notes: c.notes || [],
      results: c.results
    }))
  }
  const md = report.markdown(run)
  process.stdout.write(`${md}\n`)
  writeOutputs(run, md, opts)

  const rows = run.cases.flatMap((c) => c.results)
  const passed = rows.filter((r) => r.status === 'ok').length
  const failed = rows.filter((r) => r.status === 'wrong' || r.status === 'error')
  const skipped = rows.filter((r) => r.status === 'skip').length
  for (const r of failed) console.error(`bench: ${r.status === 'wrong' ? 'wrong answer' : 'error'}: ${r.contender}: ${r.note}`)
  console.log(`bench: ${passed} passed, ${failed.length} failed, ${skipped} skipped`)
  process.exitCode = failed.length ? 1 : 0
}

// The C ceiling: built once, then asked for each case just before that case's JavaScript rows.
function startCeiling (opts, meta) {
  const built = ceiling.build()
  if (!built.exe) {
    console.error(`  skipped C ceiling: ${built.note}`)
    meta.notLoaded['C ceiling'] = built.note
    return null
  }
  meta.versions['C ceiling'] = `libsodium ${meta.libsodium}, ${process.env.CC || 'cc'} -O2`
  const seconds = { quick: 0.05, default: 0.15, full: 0.3 }[opts.mode]
  return ceiling.start(built.exe, { seconds, minSamples: opts.quick ? 3 : SETTINGS[opts.mode].minSamples })
}

async function ceilingRow (session, kase, meta) {
  const row = { contender: 'C ceiling', lib: 'c', pkg: null, variant: null, version: meta.versions['C ceiling'] || null }
  if (!session) return { ...row, absent: true, status: 'skip', note: `C ceiling: ${meta.notLoaded['C ceiling']}` }
  let r
  try {
    r = await session.measure(kase)
  } catch (err) {
    return { ...row, status: 'error', note: err.message }
  }
  if (r.error) return { ...row, status: 'skip', note: `C ceiling: ${r.error}` }
  if (r.check) return { ...row, status: 'wrong', note: `WRONG ANSWER: ${r.check}` }
  if (r.digest && kase.expect && r.digest !== ceiling.digest(await kase.expect(), ref)) {
    return { ...row, status: 'wrong', note: `WRONG ANSWER: output differs from the reference (${kase.ref})` }
  }
  return { ...row, status: 'ok', hz: r.hz, rme: r.rme < 0 ? null : r.rme, samples: r.samples }
}

function writeOutputs (run, md, opts) {
  fs.mkdirSync(RESULTS, { recursive: true })
  const stamp = run.meta.started.replace(/[:.]/g, '-').slice(0, 19)
  const base = path.join(RESULTS, `${stamp}-${run.meta.mode}`)
  const json = `${JSON.stringify(run, null, 1)}\n`
  const chart = report.svg(run)
  fs.writeFileSync(`${base}.json`, json)
  fs.writeFileSync(`${base}.md`, `${md}\n`)
  fs.writeFileSync(`${base}.svg`, chart)
  const written = [`${base}.{json,md,svg}`]
  if (opts.json) {
    fs.writeFileSync(opts.json, json)
    written.push(opts.json)
  }
  // a complete run (full, every operation and library) becomes the published "latest"
  if (opts.mode === 'full' && !opts.filter && !opts.only) {
    for (const [ext, body] of [['json', json], ['md', `${md}\n`], ['svg', chart]]) {
      fs.writeFileSync(path.join(RESULTS, `latest.${ext}`), body)
    }
    written.push(path.join(RESULTS, 'latest.{json,md,svg}'))
  }
  console.error(`bench: wrote ${written.map((p) => path.relative(process.cwd(), p)).join(', ')}`)
}

main().catch((err) => {
  console.error(err && err.stack ? err.stack : err)
  process.exit(1)
})

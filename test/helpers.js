'use strict'
// Shared test helpers. Every family test runs once per backend (noble's PLATFORMS pattern):
//   for (const { name, sodium } of backends) describe(`aead [${name}]`, () => { ... })
// `sodium` is the sodium-native surface over that backend, `raw` the backend's own binding. NATRIUM_TEST_BACKENDS=native,wasm picks
// which ones run (default: every backend that is built; `npm test` requires both once wasm lands).
const fs = require('fs')
const path = require('path')
const crypto = require('crypto')
const { spawnSync } = require('child_process')
const { load, BACKENDS } = require('../lib/loader')
const sodiumNative = require('../lib/surfaces/sodium-native')

function available () {
  const wanted = process.env.NATRIUM_TEST_BACKENDS ? process.env.NATRIUM_TEST_BACKENDS.split(',') : null
  const list = []
  for (const name of wanted || BACKENDS) {
    try {
      const backend = load(name)
      list.push({ name, raw: backend.binding, sodium: sodiumNative(backend) })
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

module.exports = { backends, hex, toHex, random, wycheproof, vectors, emulator, spawnNode, execNode }

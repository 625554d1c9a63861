'use strict'
// Loads every contender once. A library that is not installed or cannot load here is not an
// error: it becomes a note ("skipped: ...") and the suite runs without it.
const path = require('path')
const fs = require('fs')
const root = path.join(__dirname, '..')

// id: what --only matches and the chart colours by; name: the row label.
const LIBS = [
  { id: 'natrium-native', name: 'natrium native' },
  { id: 'natrium-wasm', name: 'natrium wasm' },
  { id: 'c', name: 'C ceiling' },
  { id: 'node', name: 'node:crypto' },
  { id: 'sodium-native', name: 'sodium-native' },
  { id: 'libsodium-wrappers', name: 'libsodium-wrappers' },
  { id: 'noble', name: '@noble/*' },
  { id: 'tweetnacl', name: 'tweetnacl' },
  { id: 'scrypt-js', name: 'scrypt-js' },
  { id: 'hash-wasm', name: 'hash-wasm' },
  { id: 'argon2', name: 'argon2' }
]

function pkgVersion (name) {
  try {
    return JSON.parse(fs.readFileSync(require.resolve(`${name}/package.json`, { paths: [root] }))).version
  } catch {
    // packages whose "exports" hide package.json
    try {
      return JSON.parse(fs.readFileSync(path.join(root, 'node_modules', name, 'package.json'))).version
    } catch {
      return null
    }
  }
}

function reason (err) {
  if (err && err.code === 'MODULE_NOT_FOUND') return 'not installed (npm ci)'
  if (err && err.code === 'ERR_MODULE_NOT_FOUND') return 'not installed (npm ci)'
  // the loader lists what it tried on the lines after the first: keep them, on one line, without
  // Node's "Require stack"
  const text = String(err && err.message ? err.message : err).replace(/\s*Require stack:[\s\S]*?(?=\n\s*\S+:|$)/g, '')
  return text.split('\n').map((l) => l.trim()).filter(Boolean).join(' ')
}

async function attempt (fn) {
  try {
    return { mod: await fn() }
  } catch (err) {
    return { note: reason(err) }
  }
}

// wanted(id) says whether --only keeps a library: an unwanted one is not even loaded.
async function loadLibs (wanted) {
  const libs = { versions: {}, notes: {} }
  const take = async (id, key, version, fn) => {
    if (!wanted(id)) return
    const r = await attempt(fn)
    if (r.mod) {
      libs[key] = r.mod
      libs.versions[key] = version
    } else {
      libs.notes[key] = r.note
    }
  }

  const natriumVersion = JSON.parse(fs.readFileSync(path.join(root, 'package.json'))).version
  const { load } = require('../lib/loader')
  for (const backend of ['native', 'wasm']) {
    // load(name) is the supported way to pick a backend; it throws rather than fall back
    await take(`natrium-${backend}`, `natrium-${backend}`, natriumVersion,
      () => load(backend).binding)
  }
  if (wanted('node')) {
    libs.node = require('crypto')
    libs.versions.node = `${process.version} (OpenSSL ${process.versions.openssl})`
  }
  await take('sodium-native', 'sodium-native', pkgVersion('sodium-native'), () => require('sodium-native'))
  for (const pkg of ['libsodium-wrappers', 'libsodium-wrappers-sumo']) {
    await take('libsodium-wrappers', pkg, pkgVersion(pkg), async () => {
      const m = require(pkg)
      await m.ready
      return m
    })
  }
  // noble is ESM only
  const noble = [
    ['@noble/curves', ['ed25519.js']],
    ['@noble/ciphers', ['chacha.js', 'aes.js', 'salsa.js', 'utils.js']],
    ['@noble/hashes', ['sha2.js', 'sha3.js', 'sha3-addons.js', 'blake2.js', 'hmac.js', 'scrypt.js', 'argon2.js', 'utils.js']],
    ['@noble/post-quantum', ['ml-kem.js']]
  ]
  for (const [pkg, files] of noble) {
    await take('noble', pkg, pkgVersion(pkg), async () => {
      const mod = {}
      for (const f of files) Object.assign(mod, await import(`${pkg}/${f}`))
      return mod
    })
  }
  await take('tweetnacl', 'tweetnacl', pkgVersion('tweetnacl'), () => require('tweetnacl'))
  await take('scrypt-js', 'scrypt-js', pkgVersion('scrypt-js'), () => require('scrypt-js'))
  await take('hash-wasm', 'hash-wasm', pkgVersion('hash-wasm'), () => require('hash-wasm'))
  // argon2 loads a prebuilt addon; 0.45 needs Node-API 10 and crashes Node 20 while loading, so
  // the pinned 0.44.0 (Node-API 9) is used. Load it in a child first so a crash is only a note.
  if (wanted('argon2')) {
    const { spawnSync } = require('child_process')
    const probe = spawnSync(process.execPath, ['-e', 'require("argon2")'], { cwd: root, encoding: 'utf8' })
    if (probe.status === 0) {
      await take('argon2', 'argon2', pkgVersion('argon2'), () => require('argon2'))
    } else {
      const why = probe.signal ? `its addon crashed Node while loading (${probe.signal})` : reason(probe.stderr.trim())
      libs.notes.argon2 = /Cannot find module 'argon2'/.test(probe.stderr) ? 'not installed (npm ci)' : why
    }
  }
  return libs
}

module.exports = { LIBS, loadLibs, pkgVersion }

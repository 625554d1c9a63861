'use strict'
// Finds a backend that fits this process: NATRIUM_BACKEND if set (and then only that one), else a
// prebuild for this platform/arch/libc, else a local node-gyp build, else the WebAssembly build.
// Every failure is collected so the final error says what was tried and why each failed.
const path = require('path')
const fs = require('fs')

const root = path.join(__dirname, '..')
const BACKENDS = ['native', 'wasm']
const loaded = new Map()

function libc () {
  if (process.platform !== 'linux') return ''
  const report = process.report && process.report.getReport ? process.report.getReport() : null
  // glibc reports its runtime version; musl (Alpine) does not
  return report && report.header && report.header.glibcVersionRuntime ? 'glibc' : 'musl'
}

function nativeCandidates () {
  const c = libc()
  const dir = path.join(root, 'prebuilds', `${process.platform}-${process.arch}`)
  const list = []
  if (fs.existsSync(dir)) {
    // prebuildify --tag-libc names linux files natrium.<libc>.node (or node.napi.<libc>.node)
    for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.node')).sort()) {
      const tagged = /\b(glibc|musl)\b/.exec(f)
      if (c && tagged && tagged[1] !== c) continue // never load a glibc binary on musl, or back
      if (c === 'musl' && !tagged) continue
      list.push(path.join(dir, f))
    }
  }
  list.push(path.join(root, 'build', 'Release', 'natrium.node'))
  return list
}

function loadNative (errors) {
  for (const file of nativeCandidates()) {
    if (!fs.existsSync(file)) { errors.push(`${path.relative(root, file)}: not found`); continue }
    try {
      return require(file)
    } catch (err) {
      errors.push(`${path.relative(root, file)}: ${err.message}`)
    }
  }
  return null
}

function loadWasm (errors) {
  try {
    return require('./backends/wasm')
  } catch (err) {
    errors.push(`wasm: ${err.message}`)
    return null
  }
}

// load('native' | 'wasm') loads exactly that backend or throws; load() picks the first that works.
function load (name = process.env.NATRIUM_BACKEND || '') {
  if (name && !BACKENDS.includes(name)) {
    throw new Error(`NATRIUM_BACKEND must be one of ${BACKENDS.join(', ')} (got '${name}')`)
  }
  const key = name || 'auto'
  if (loaded.has(key)) return loaded.get(key)
  const errors = []
  let binding = null
  let chosen = null
  for (const candidate of name ? [name] : BACKENDS) {
    binding = candidate === 'native' ? loadNative(errors) : loadWasm(errors)
    if (binding) { chosen = candidate; break }
  }
  if (!binding) {
    const what = name ? `the ${name} backend (forced by NATRIUM_BACKEND)` : 'any backend'
    throw new Error(`natrium could not load ${what}. Tried:\n  ${errors.join('\n  ')}`)
  }
  const backend = { name: chosen, binding }
  loaded.set(key, backend)
  return backend
}

module.exports = { load, libc, BACKENDS }

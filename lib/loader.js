'use strict'
// The Node entry's backend choice (require('natrium') and require('natrium/sodium-native') under
// Node, Bun and server bundles; browsers, workers and Deno take lib/esm/*, which never come here):
// NATRIUM_BACKEND if set (and then only that one), else a prebuild for this
// platform/arch/libc, else a local node-gyp build, else the WebAssembly build. It only chooses:
// each backend is made by lib/backends/native.js or lib/backends/wasm.js.
// Every failure is collected. When nothing loads, the error says what was tried and why each
// failed; when something does, the reasons are kept on the backend (backend.errors, and
// `backendErrors` on both surfaces). A probe that a sandbox may refuse (Deno without --allow-env,
// --allow-sys, --allow-read or --allow-ffi: process.env, process.report, the file system, dlopen)
// is a reason like any other, and the next candidate is tried.
const path = require('path')
const fs = require('fs')
const nativeBackend = require('./backends/native')

const root = path.join(__dirname, '..')
const BACKENDS = ['native', 'wasm']
const loaded = new Map()
let detectedLibc = null

// 'glibc' or 'musl' on Linux, '' elsewhere. First from the dynamic loader Node itself was linked
// to run with (ld-musl-* on musl, ld-linux-* or ld64.so.* on glibc): a few hundred bytes of its
// ELF header, read in well under a millisecond. Otherwise from the process report, where glibc
// gives its runtime version and musl (Alpine) does not; the report takes 5-10 ms, even with its
// network part (which can be slow) skipped.
function libc (errors = []) {
  if (process.platform !== 'linux') return ''
  if (detectedLibc === null) {
    detectedLibc = elfLibc(process.execPath)
    if (detectedLibc === null) {
      try {
        detectedLibc = reportLibc()
      } catch (err) { // Deno without --allow-sys refuses process.report
        errors.push(`libc: ${err.message}`)
        return ''
      }
    }
  }
  return detectedLibc
}

// An environment variable, or '' when it is unset or the sandbox refuses to tell (Deno without
// --allow-env).
function env (name, errors = []) {
  try {
    return process.env[name] || ''
  } catch (err) {
    errors.push(`env ${name}: ${err.message}`)
    return ''
  }
}

function reportLibc () {
  const report = process.report
  let header = null
  if (report && typeof report.getReport === 'function') {
    const excludeNetwork = report.excludeNetwork
    report.excludeNetwork = true
    try {
      header = report.getReport().header
    } finally {
      report.excludeNetwork = excludeNetwork
    }
  }
  return header && header.glibcVersionRuntime ? 'glibc' : 'musl'
}

// The libc that the program interpreter (PT_INTERP) of a little-endian ELF file belongs to, or null
// when the file is no such ELF, names none (a static build) or names one not known here.
function elfLibc (file) {
  let fd = null
  try {
    fd = fs.openSync(file, 'r')
    const read = (n, at) => {
      const b = Buffer.alloc(n)
      return b.subarray(0, fs.readSync(fd, b, 0, n, at))
    }
    const h = read(64, 0)
    if (h.length < 52 || h.readUInt32BE(0) !== 0x7f454c46 || h[5] !== 1) return null
    const is64 = h[4] === 2
    if (is64 && h.length < 64) return null
    const at = is64 ? Number(h.readBigUInt64LE(32)) : h.readUInt32LE(28)
    const size = h.readUInt16LE(is64 ? 54 : 42)
    const count = h.readUInt16LE(is64 ? 56 : 44)
    const table = read(size * count, at)
    for (let i = 0; (i + 1) * size <= table.length; i++) {
      const p = i * size
      if (table.readUInt32LE(p) !== 3) continue // PT_INTERP
      const offset = is64 ? Number(table.readBigUInt64LE(p + 8)) : table.readUInt32LE(p + 4)
      const length = is64 ? Number(table.readBigUInt64LE(p + 32)) : table.readUInt32LE(p + 16)
      const name = path.posix.basename(read(Math.min(length, 4096), offset).toString('latin1').split('\0')[0])
      if (name.startsWith('ld-musl-')) return 'musl'
      if (name.startsWith('ld-linux') || name.startsWith('ld64.so.')) return 'glibc'
      return null
    }
    return null
  } catch {
    return null
  } finally {
    if (fd !== null) fs.closeSync(fd)
  }
}

// Which of a package's prebuilds may load on a given platform, arch and libc, best first: a pure
// function of its arguments (tests simulate every platform with it). files are the paths under
// prebuilds/ ('linux-x64/natrium.musl.node', ...). prebuildify --tag-libc names linux files
// natrium.glibc.node / natrium.musl.node; a file tagged for the other libc is never a candidate,
// and a musl system takes no untagged linux file either (it could be glibc's).
function selectPrebuilds (files, { platform, arch, libc: c = '' }) {
  const folder = `${platform}-${arch}/`
  const list = []
  for (const f of files.filter((f) => f.startsWith(folder) && f.endsWith('.node')).sort()) {
    const tagged = /\.(glibc|musl)\./.exec(f)
    if (c && tagged && tagged[1] !== c) continue
    if (c === 'musl' && !tagged) continue
    list.push(f)
  }
  return list
}

// The prebuilds that may load here, best first, then the local build. libc is detected only when
// there are prebuilds for this platform to choose from.
function nativeCandidates ({ platform = process.platform, arch = process.arch, libc: c, dir = root, errors = [] } = {}) {
  const folder = `${platform}-${arch}`
  const prebuilds = path.join(dir, 'prebuilds', folder)
  let list = []
  let files = null
  try {
    if (fs.existsSync(prebuilds)) files = fs.readdirSync(prebuilds).map((f) => `${folder}/${f}`)
  } catch (err) { // Deno without --allow-read
    errors.push(`prebuilds/${folder}: ${err.message}`)
  }
  if (files !== null) {
    if (c === undefined) c = libc(errors)
    list = selectPrebuilds(files, { platform, arch, libc: c }).map((f) => path.join(dir, 'prebuilds', ...f.split('/')))
  }
  list.push(path.join(dir, 'build', 'Release', 'natrium.node'))
  return list
}

function loadNative (errors) {
  const files = nativeCandidates({ errors })
  if (files.length === 1) {
    const where = `prebuilds/${process.platform}-${process.arch}`
    errors.push(`${where}: no prebuild${detectedLibc ? ` for ${detectedLibc}` : ''}`) // known if there was a folder
  }
  for (const file of files) {
    try {
      if (!fs.existsSync(file)) { errors.push(`${path.relative(root, file)}: not found`); continue }
      return nativeBackend(require(file), file)
    } catch (err) { // a load error, or a sandbox refusing to read or dlopen (Deno's --allow-ffi)
      errors.push(`${path.relative(root, file)}: ${err.message}`)
    }
  }
  return null
}

// The bytes of natrium.wasm: the file next to this one, else the copy embedded in
// lib/esm/wasm-bytes.mjs (made by npm run build:wasm), which is what a server bundle
// (esbuild --platform=node --bundle, bun build) carries when it runs away from node_modules.
// Under Node itself that module loads only where require() takes ES modules (Node >= 22.12).
function wasmBytes (errors) {
  const file = path.join(__dirname, 'natrium.wasm')
  try {
    return { bytes: fs.readFileSync(file), file }
  } catch (err) {
    errors.push(`lib/natrium.wasm: ${err.message}`)
  }
  const embedded = require('./esm/wasm-bytes.mjs')
  return { bytes: embedded.default || embedded, file: 'lib/esm/wasm-bytes.mjs' }
}

// Node's random source for the WebAssembly backend, looked up on its first draw:
// globalThis.crypto (Node >= 19, and whatever a caller put there), else node:crypto's.
function nodeRandom () {
  const c = globalThis.crypto
  return c && typeof c.getRandomValues === 'function' ? c : require('crypto').webcrypto
}

function loadWasm (errors) {
  try {
    const { bytes, file } = wasmBytes(errors)
    return require('./backends/wasm')({
      module: bytes,
      random: nodeRandom,
      wrap: (ab) => Buffer.from(ab), // sodium-native's sodium_malloc gives Buffers
      generic: env('NATRIUM_WASM_GENERIC', errors) === '1',
      file
    })
  } catch (err) {
    errors.push(`wasm: ${err.message}`)
    return null
  }
}

// load('native' | 'wasm') loads exactly that backend or throws; load() picks the first that works.
// The result says which backend it is and which file it came from.
function load (name) {
  const errors = []
  if (name === undefined) name = env('NATRIUM_BACKEND', errors)
  if (name && !BACKENDS.includes(name)) {
    throw new Error(`NATRIUM_BACKEND must be one of ${BACKENDS.join(', ')} (got '${name}')`)
  }
  const key = name || 'auto'
  if (loaded.has(key)) return loaded.get(key)
  let found = null
  for (const candidate of name ? [name] : BACKENDS) {
    found = candidate === 'native' ? loadNative(errors) : loadWasm(errors)
    if (found) break
  }
  if (!found) {
    const what = name ? `the ${name} backend (forced by NATRIUM_BACKEND)` : 'any backend'
    throw new Error(`natrium could not load ${what}. Tried:\n  ${errors.join('\n  ')}`)
  }
  found.errors = Object.freeze(errors)
  loaded.set(key, found)
  return found
}

module.exports = { load, libc, env, elfLibc, reportLibc, selectPrebuilds, nativeCandidates, BACKENDS }

'use strict'
// Builds bench/ceiling.c against the addon's libsodium (deps/out/native) and runs it. Its rows
// join the tables as "C ceiling"; its outputs are checked like any contender's (a digest of the
// output against the reference answer).
const { spawn, spawnSync } = require('child_process')
const fs = require('fs')
const path = require('path')

const root = path.join(__dirname, '..')
const src = path.join(__dirname, 'ceiling.c')
const sodium = path.join(root, 'deps', 'out', 'native')
const lib = path.join(sodium, 'lib', 'libsodium.a')
const exe = path.join(root, 'build', 'bench', 'ceiling')
const sha2 = path.join(root, 'src', 'crypto', 'sha2.c')

const mtime = (f) => fs.statSync(f).mtimeMs

// Returns { exe } or { note } when there is no libsodium build or no C compiler.
function build () {
  if (!fs.existsSync(lib)) return { note: 'no libsodium build in deps/out/native (npm run build)' }
  if (fs.existsSync(exe) && [src, lib, sha2].every((f) => mtime(exe) > mtime(f))) return { exe }
  const cc = process.env.CC || 'cc'
  fs.mkdirSync(path.dirname(exe), { recursive: true })
  // deps/build.sh points libsodium's Ed25519 at natrium's SHA-512 (src/crypto/sha2.c), as in the addon
  const args = ['-O2', '-std=c11', '-Wall', '-Wextra', '-I', path.join(sodium, 'include'), src, sha2, lib, '-lm', '-pthread', '-o', exe]
  const r = spawnSync(cc, args, { encoding: 'utf8' })
  if (r.error) return { note: `no C compiler (${cc}: ${r.error.code})` }
  if (r.status !== 0) return { note: `${cc} failed: ${r.stderr.trim().split('\n')[0]}` }
  return { exe }
}

// The C program reports BLAKE2b-256 of its output; node:crypto has only BLAKE2b-512, so the
// reference build (libsodium-wrappers-sumo) hashes the expected answer.
function digest (expected, ref) {
  const bytes = typeof expected === 'boolean' ? Uint8Array.of(expected ? 1 : 0) : expected
  return Buffer.from(ref.lsw().crypto_generichash(32, bytes)).toString('hex')
}

// A running ceiling program: measure(kase) sends one case and resolves with its JSON answer, so
// each case's C row is timed right before its JavaScript rows (on a busy machine, rows timed
// minutes apart are not comparable).
function start (exePath, { seconds, minSamples }) {
  const child = spawn(exePath, [String(seconds), String(minSamples)], { stdio: ['pipe', 'pipe', 'inherit'] })
  const waiting = []
  let buffered = ''
  let failure = null
  const fail = (err) => {
    failure = err
    while (waiting.length) waiting.shift().reject(err)
  }
  child.stdout.setEncoding('utf8')
  child.stdout.on('data', (chunk) => {
    buffered += chunk
    let nl
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl)
      buffered = buffered.slice(nl + 1)
      if (line.trim() && waiting.length) waiting.shift().resolve(JSON.parse(line))
    }
  })
  child.on('error', fail)
  child.on('close', (code, signal) => fail(new Error(`the ceiling program ended (${signal || code})`)))
  let n = 0
  return {
    measure (kase) {
      if (failure) return Promise.reject(failure)
      return new Promise((resolve, reject) => {
        waiting.push({ resolve, reject })
        child.stdin.write(`c${n++} ${kase.ceiling.op} ${(kase.ceiling.args || []).join(' ')}\n`)
      })
    },
    close () {
      child.removeAllListeners('close')
      child.stdin.end()
    }
  }
}

module.exports = { build, start, digest }

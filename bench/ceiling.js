'use strict'
// Builds bench/ceiling.c against the addon's libsodium (deps/out/native) and runs it on the
// selected cases. Its rows join the tables as "C ceiling"; its outputs are checked like any
// contender's (a digest of the output against the reference answer).
const { spawn, spawnSync } = require('child_process')
const fs = require('fs')
const path = require('path')

const root = path.join(__dirname, '..')
const src = path.join(__dirname, 'ceiling.c')
const sodium = path.join(root, 'deps', 'out', 'native')
const lib = path.join(sodium, 'lib', 'libsodium.a')
const exe = path.join(root, 'build', 'bench', 'ceiling')

const mtime = (f) => fs.statSync(f).mtimeMs

// Returns { exe } or { note } when there is no libsodium build or no C compiler.
function build () {
  if (!fs.existsSync(lib)) return { note: 'no libsodium build in deps/out/native (npm run build)' }
  if (fs.existsSync(exe) && mtime(exe) > mtime(src) && mtime(exe) > mtime(lib)) return { exe }
  const cc = process.env.CC || 'cc'
  fs.mkdirSync(path.dirname(exe), { recursive: true })
  const args = ['-O2', '-std=c99', '-Wall', '-Wextra', '-I', path.join(sodium, 'include'), src, lib, '-lm', '-pthread', '-o', exe]
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

// cases: [{ kase, id }]; onResult(kase, result) for each, as the C program prints it.
function run (exePath, cases, { seconds, minSamples }, onResult) {
  return new Promise((resolve, reject) => {
    const child = spawn(exePath, [String(seconds), String(minSamples)], { stdio: ['pipe', 'pipe', 'inherit'] })
    const byId = new Map(cases.map((c) => [c.id, c.kase]))
    let buffered = ''
    child.stdout.setEncoding('utf8')
    child.stdout.on('data', (chunk) => {
      buffered += chunk
      let nl
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl)
        buffered = buffered.slice(nl + 1)
        if (!line.trim()) continue
        const r = JSON.parse(line)
        onResult(byId.get(r.id), r)
      }
    })
    child.on('error', reject)
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ceiling exited with ${code}`))))
    for (const { kase, id } of cases) {
      const args = kase.ceiling.args || []
      child.stdin.write(`${id} ${kase.ceiling.op} ${args.join(' ')}\n`)
    }
    child.stdin.end()
  })
}

module.exports = { build, run, digest }

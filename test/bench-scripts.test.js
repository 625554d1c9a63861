'use strict'
// The side-by-side scripts the README quotes its ratios from (bench/*-bars.js and the two small
// ones), each run once on one row with the shortest timing it takes: every contender is built,
// every answer checked against the others (the scripts throw on a difference) and a ratio
// printed. No timing is asserted; what fails here is a script that no longer runs, as
// x25519-bars.js and mlkem-bars.js did after the main API came to need lib/backends/native.js's
// backend object instead of a bare binding.
const assert = require('assert')
const path = require('path')
const { spawnSync } = require('child_process')

const root = path.join(__dirname, '..')
const SCRIPTS = [
  ['hash-bars.js', ['blake2b-512 10 B', '1', '5'], /\| blake2b-512 10 B \|.*\d+\.\d\dx/],
  ['chacha-bars.js', ['chacha20-poly1305_ietf encrypt 10 B', '1', '5', '--no-openssl'], /\| chacha20-poly1305_ietf encrypt 10 B \|.*\d+\.\d\dx/],
  ['scrypt-bars.js', ['10', '1'], /^N=2\^10: node [\d.]+\/s native [\d.]+\/s \([\d.]+x\) wasm [\d.]+\/s \([\d.]+x\)$/m],
  ['ed25519-bars.js', ['1', '5'], /\| verify 1 KB \|.*\d+\.\d\dx/],
  ['x25519-bars.js', ['1', '5'], /\| natrium wasm \/ libsodium-wrappers \| \d+\.\d\dx \|/],
  ['mlkem-bars.js', ['1', '5'], /\| decapsulate \|.*\d+\.\d\dx/],
  ['mlkem-wasm-bars.js', ['1', '5', '--wasm=this=lib/natrium.wasm'], /\| X-Wing decapsulate \|/],
  ['wasm-curve-bars.js', ['scalarmult_base', '1'], /\| scalarmult_base +\|.*\d+\.\d\dx/],
  ['wasm-main-bars.js', ['secretbox_easy 10 B', '1'], /\| wasm secretbox_easy 10 B \|.*\d+\.\d\dx/],
  ['xchacha_small.js', ['64', '--rounds', '1'], /^encrypt 64 B natrium vs sodium-native: .* = [\d.]+x$/m],
  ['aes256gcm_soft.js', ['1024', '--rounds', '1'], /natrium wasm \(soft\) +[\d.]+ MB\/s/]
]

describe('bench scripts', function () {
  this.timeout(120000)
  // the scripts compare against peers built for Linux x64 (sodium-native's prebuild among them):
  // run them there, natively and not under the sanitizers (test:asan preloads ASan's runtime)
  before(function () {
    if (process.platform !== 'linux' || process.arch !== 'x64' || process.env.LD_PRELOAD) this.skip()
  })
  for (const [script, args, want] of SCRIPTS) {
    it(`bench/${script} ${args.join(' ')} runs, checks its contenders' answers and prints a ratio`, function () {
      const run = spawnSync(process.execPath, [path.join(root, 'bench', script), ...args], { cwd: root, encoding: 'utf8' })
      assert.strictEqual(run.status, 0, `exit ${run.status}: ${run.stderr.slice(-2000)}`)
      assert.match(run.stdout, want)
    })
  }
})

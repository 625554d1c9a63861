'use strict'
// The native build carries libsodium's runtime-dispatched fast paths (sodium-native once lost its
// AVX2 code through a missing HAVE_AVX2INTRIN_H), and this CPU actually runs them; the wasm32
// libsodium carries its SIMD128 Argon2 (that it computes the right hashes is pwhash.test.js's
// vectors, which fail on wasm without deps/build.sh's fix_blamka).
const assert = require('assert')
const fs = require('fs')
const path = require('path')
const { execFileSync, spawnSync } = require('child_process')

const root = path.join(__dirname, '..')
const addon = path.join(root, 'build', 'Release', 'natrium.node')
const features = path.join(root, 'deps', 'out', 'native', 'features.txt')
const x64 = process.arch === 'x64' && process.platform === 'linux'

function has (cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0
}

function cpuFlags () {
  try {
    const line = fs.readFileSync('/proc/cpuinfo', 'utf8').split('\n').find((l) => l.startsWith('flags'))
    return new Set(line.split(':')[1].trim().split(/\s+/))
  } catch {
    return new Set()
  }
}

describe('native build', function () {
  before(function () {
    if (!x64 || !fs.existsSync(addon)) this.skip()
  })

  it('configure found every x86-64 SIMD header and the AVX assembly', () => {
    const text = fs.readFileSync(features, 'utf8')
    for (const def of ['HAVE_TMMINTRIN_H', 'HAVE_SMMINTRIN_H', 'HAVE_AVXINTRIN_H', 'HAVE_AVX2INTRIN_H',
      'HAVE_AVX512FINTRIN_H', 'HAVE_WMMINTRIN_H', 'HAVE_AVX_ASM', 'HAVE_CPUID']) {
      assert.match(text, new RegExp(`#define ${def} 1`), `${def} missing: that fast path would be compiled out`)
    }
  })

  it('the addon contains the SSSE3/AVX2/AVX-512/AES-NI implementations', function () {
    if (!has('nm')) this.skip()
    const syms = execFileSync('nm', [addon], { encoding: 'utf8', maxBuffer: 64 << 20 })
    for (const s of ['blake2b_compress_avx2', 'blake2b_compress_ssse3', 'argon2_fill_segment_avx2',
      'argon2_fill_segment_avx512f', 'crypto_stream_chacha20_dolbeau_avx2_implementation',
      'crypto_stream_salsa20_xmm6int_avx2_implementation', 'aegis128l_aesni_implementation',
      'crypto_scalarmult_curve25519_sandy2x']) {
      assert.match(syms, new RegExp(`\\b${s}\\b`), `${s} is not in the addon`)
    }
  })

  it('at run time this CPU is dispatched to the AVX2 / AVX-512 code (gdb breakpoints)', function () {
    const flags = cpuFlags()
    const natrium = require(addon)
    if (!has('gdb') || !flags.has('avx2') || typeof natrium.crypto_generichash !== 'function' ||
        typeof natrium.crypto_pwhash !== 'function') this.skip()
    this.timeout(120000)
    const argon2 = flags.has('avx512f') ? 'argon2_fill_segment_avx512f' : 'argon2_fill_segment_avx2'
    // crypto_generichash runs natrium's own BLAKE2b (test/blake2b-fast.test.js checks its
    // dispatch); libsodium's BLAKE2b still serves Argon2, which this reaches
    const script = `const s = require(${JSON.stringify(addon)});
      s.crypto_pwhash(new Uint8Array(32), new Uint8Array(8), new Uint8Array(16), 1, 8192, s.crypto_pwhash_ALG_ARGON2ID13);`
    // dprintf prints a line each time the function is entered and lets the program go on
    const out = spawnSync('gdb', ['-batch', '-nx', '-ex', 'set breakpoint pending on',
      '-ex', 'dprintf blake2b_compress_avx2,"HIT blake2b_compress_avx2\\n"',
      '-ex', `dprintf ${argon2},"HIT ${argon2}\\n"`,
      '-ex', 'run', '--args', process.execPath, '-e', script], { encoding: 'utf8', timeout: 110000 })
    const text = out.stdout + out.stderr
    // whole lines only: gdb also echoes each dprintf's format string when it sets it
    assert.match(text, /^HIT blake2b_compress_avx2$/m, "libsodium's BLAKE2b (in Argon2) did not run its AVX2 code")
    assert.match(text, new RegExp(`^HIT ${argon2}$`, 'm'), `Argon2 did not run ${argon2}`)
  })
})

describe('native build: Ed25519 on natrium\'s SHA-512', function () {
  before(function () {
    if (!x64 || !fs.existsSync(addon)) this.skip()
  })

  // deps/build.sh renames libsodium's SHA-512 calls in its four Ed25519 members only.
  it('libsodium\'s Ed25519 objects call nat_sodium_sha512*, and only they do (nm)', function () {
    if (!has('nm')) this.skip()
    const archive = path.join(root, 'deps', 'out', 'native', 'lib', 'libsodium.a')
    const text = execFileSync('nm', ['-A', archive], { encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] })
    const callers = (sym) => new Set(text.split('\n').filter((l) => new RegExp(`\\sU ${sym}$`).test(l)).map((l) => l.split(':')[1]))
    const members = ['libsodium_la-keypair.o', 'libsodium_la-sign.o', 'libsodium_la-open.o', 'libsodium_la-sign_ed25519.o']
    const ours = new Set([...callers('nat_sodium_sha512'), ...callers('nat_sodium_sha512_init'), ...callers('nat_sodium_sha512_update'), ...callers('nat_sodium_sha512_final')])
    assert.deepStrictEqual([...ours].sort(), members.slice().sort())
    for (const m of members) {
      for (const f of ['', '_init', '_update', '_final']) assert.ok(!callers(`crypto_hash_sha512${f}`).has(m), `${m} still calls crypto_hash_sha512${f}`)
    }
  })

  it('signing and verifying run natrium\'s SHA-512, not libsodium\'s (gdb)', function () {
    if (!has('gdb')) this.skip()
    this.timeout(120000)
    const script = `const s = require(${JSON.stringify(addon)});
      const pk = new Uint8Array(32), sk = new Uint8Array(64), sig = new Uint8Array(64), m = new Uint8Array(5000);
      s.crypto_sign_keypair(pk, sk); process.stdout.write('SIGNING\\n');
      s.crypto_sign_detached(sig, m, sk); if (!s.crypto_sign_verify_detached(sig, m, pk)) process.exit(3);`
    const fns = ['nat_sodium_sha512_update', 'crypto_hash_sha512_update']
    const args = ['-batch', '-nx', '-ex', 'set breakpoint pending on']
    for (const f of fns) args.push('-ex', `dprintf ${f},"HIT ${f}\\n"`)
    args.push('-ex', 'run', '--args', process.execPath, '-e', script)
    const out = spawnSync('gdb', args, { encoding: 'utf8', timeout: 110000 })
    const text = out.stdout + out.stderr
    const after = text.slice(text.indexOf('\nSIGNING\n'))
    assert.match(after, /^HIT nat_sodium_sha512_update$/m, 'Ed25519 did not call natrium\'s SHA-512')
    assert.doesNotMatch(after, /^HIT crypto_hash_sha512_update$/m, 'Ed25519 called libsodium\'s SHA-512')
  })
})

describe('wasm build', function () {
  const archive = path.join(root, 'deps', 'out', 'wasm32', 'lib', 'libsodium.a')
  const nm = ['llvm-nm', 'llvm-nm-14'].find(has)
  before(function () {
    if (!fs.existsSync(archive) || nm === undefined) this.skip()
  })

  it('libsodium for wasm32 has the SIMD128 Argon2 (only compiled with -msimd128; chosen whenever present)', () => {
    const syms = execFileSync(nm, ['--defined-only', archive], { encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] })
    assert.match(syms, /\bT argon2_fill_segment_wasm32\b/, 'argon2_fill_segment_wasm32 is not in the wasm32 libsodium')
  })
})

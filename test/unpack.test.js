'use strict'
// The browser entry's packed module (issue 12's bundle size): lib/esm/wasm-bytes.mjs carries
// natrium.wasm packed with raw LZMA1 and its unpacker, lib/unpack.wasm (src/unpack/unpack.c).
// Here: the embedded copy unpacks to exactly lib/natrium.wasm; the unpacker is a small module
// with no imports; it unpacks what xz packs at every length around its 16 KB steps; and each kind
// of bad input is refused with its own code (test/c/unpack.c fuzzes the same C natively, under
// ASan + UBSan and valgrind).
const assert = require('assert')
const fs = require('fs')
const path = require('path')
const { pathToFileURL } = require('url')
const { execFileSync } = require('child_process')
const { unpackFunction, crc32 } = require('../scripts/build-esm')

const lib = path.join(__dirname, '..', 'lib')
const STEP = 16384
// src/unpack/unpack.h
const ERR = { BASE64: -1, TRUNCATED: -2, DATA: -3, LENGTH: -4, END: -5, TRAILING: -6, CRC: -7 }

const xz = (bytes) => execFileSync('xz', ['--format=raw', '--lzma1=preset=9e,lc=3,lp=0,pb=0', '-c'], { input: bytes, maxBuffer: 1 << 26 })

describe('unpack (lib/unpack.wasm, the browser entry\'s packed module)', function () {
  this.timeout(60000)
  let wasm, packed, unpacker, unpack
  before(() => {
    wasm = fs.readFileSync(path.join(lib, 'natrium.wasm'))
    packed = fs.readFileSync(path.join(lib, 'natrium.wasm.lzma'))
    unpacker = fs.readFileSync(path.join(lib, 'unpack.wasm'))
    unpack = unpackFunction()
  })
  // the code an unpack of (bytes, length, crc) is refused with, or null if it is not
  const refusal = (bytes, length = wasm.length, crc = crc32(wasm), text = Buffer.from(bytes).toString('base64')) => {
    try {
      unpack(unpacker, text, length, crc)
      return null
    } catch (err) {
      assert.match(err.message, /^natrium: the embedded natrium\.wasm does not unpack: /)
      return err.code
    }
  }

  it('lib/esm/wasm-bytes.mjs gives exactly lib/natrium.wasm', async () => {
    const embedded = (await import(pathToFileURL(path.join(lib, 'esm', 'wasm-bytes.mjs')).href)).default
    assert.ok(embedded instanceof Uint8Array)
    assert.strictEqual(Buffer.compare(Buffer.from(embedded), wasm), 0)
  })

  it('the packed module and the unpacker are smaller than the module\'s hex, gzipped', () => {
    const zlib = require('zlib')
    const hex = zlib.gzipSync(wasm.toString('hex'), { level: 9 }).length
    const ours = zlib.gzipSync(fs.readFileSync(path.join(lib, 'esm', 'wasm-bytes.mjs')), { level: 9 }).length
    assert.ok(ours < 0.8 * hex, `wasm-bytes.mjs gzips to ${ours} bytes, the module's hex to ${hex}`)
  })

  it('lib/unpack.wasm is small, imports nothing and exports its memory and three functions', () => {
    const m = new WebAssembly.Module(unpacker)
    assert.deepStrictEqual(WebAssembly.Module.imports(m), [])
    assert.deepStrictEqual(WebAssembly.Module.exports(m).map((e) => `${e.kind} ${e.name}`).sort(),
      ['function unpack_arena', 'function unpack_begin', 'function unpack_step', 'memory memory'])
    assert.ok(unpacker.length < 12000, `${unpacker.length} bytes`)
  })

  it('unpacks the real module (many 16 KB steps, memory grown between them)', () => {
    assert.ok(wasm.length > 4 * STEP)
    const out = unpack(unpacker, packed.toString('base64'), wasm.length, crc32(wasm))
    assert.strictEqual(Buffer.compare(Buffer.from(out), wasm), 0)
  })

  it('unpacks what xz packs, at every length around a step', function () {
    // the build needs xz (deps/build-wasm.sh); the workflows' test legs (macOS, Windows, Alpine)
    // get the built files and may not have it
    try { execFileSync('xz', ['--version']) } catch { this.skip() }
    // compressible (long matches across step ends) and random (literals), at 0, 1, and each side of
    // one and two steps
    const lengths = [0, 1, 2, 100, STEP - 1, STEP, STEP + 1, 2 * STEP - 1, 2 * STEP + 1, 70001]
    let seed = 7
    const rand = () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24
    for (const n of lengths) {
      const text = Buffer.alloc(n)
      for (let i = 0; i < n; i++) text[i] = i % 3000 < 1500 ? 'natrium '.charCodeAt(i % 8) : rand()
      const noise = Buffer.alloc(n)
      for (let i = 0; i < n; i++) noise[i] = rand()
      for (const input of [text, noise]) {
        const out = unpack(unpacker, xz(input).toString('base64'), n, crc32(input))
        assert.strictEqual(Buffer.compare(Buffer.from(out), input), 0, `length ${n}`)
      }
    }
  })

  it('refuses a truncated stream', () => {
    assert.strictEqual(refusal(packed.subarray(0, packed.length - 1)), ERR.TRUNCATED)
    assert.strictEqual(refusal(packed.subarray(0, packed.length >> 1)), ERR.TRUNCATED)
    assert.strictEqual(refusal(packed.subarray(0, 3)), ERR.TRUNCATED)
  })

  it('refuses a flipped byte anywhere', () => {
    const corrupt = new Set([ERR.DATA, ERR.LENGTH, ERR.END, ERR.TRAILING, ERR.CRC, ERR.TRUNCATED])
    for (const at of [5, 100, packed.length >> 1, packed.length - 10, packed.length - 1]) {
      const bad = Buffer.from(packed)
      bad[at] ^= 0x10
      const code = refusal(bad)
      assert.ok(corrupt.has(code), `byte ${at} flipped: ${code}`)
    }
    const first = Buffer.from(packed)
    first[0] = 1 // the range coder's first byte is always 0
    assert.strictEqual(refusal(first), ERR.DATA)
  })

  it('refuses a CRC-32 that is not the output\'s', () => {
    assert.strictEqual(refusal(packed, wasm.length, crc32(wasm) ^ 1), ERR.CRC)
    assert.strictEqual(refusal(packed, wasm.length, 0), ERR.CRC)
  })

  it('refuses bytes after the end of the stream', () => {
    assert.strictEqual(refusal(Buffer.concat([packed, Buffer.from([0])])), ERR.TRAILING)
    assert.strictEqual(refusal(Buffer.concat([packed, Buffer.from('natrium')])), ERR.TRAILING)
  })

  it('refuses a length that is not the output\'s (the end marker must come exactly there)', () => {
    assert.strictEqual(refusal(packed, wasm.length - 1), ERR.LENGTH)
    assert.strictEqual(refusal(packed, wasm.length + 1), ERR.LENGTH)
    assert.strictEqual(refusal(packed, STEP), ERR.LENGTH)
    assert.strictEqual(refusal(packed, 0), ERR.LENGTH)
  })

  it('refuses text that is not base64', () => {
    const text = packed.toString('base64')
    assert.strictEqual(refusal(null, undefined, undefined, `${text.slice(0, 100)}*${text.slice(101)}`), ERR.BASE64)
    assert.strictEqual(refusal(null, undefined, undefined, text.slice(0, -1)), ERR.BASE64)
    assert.strictEqual(refusal(null, undefined, undefined, `${text.slice(0, 100)}=${text.slice(101)}`), ERR.BASE64)
  })
})

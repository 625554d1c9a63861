'use strict'
// natrium/sodium-native is a drop-in for sodium-native 5.1.0: every export exists with the same
// type, every constant has the same value (where 64-bit native and wasm32 agree), and the calling
// conventions match (the per-family files check outputs differentially).
const assert = require('assert')
const SodiumNative = require('sodium-native')
const { symbols } = require('../lib/symbols')
const { backends } = require('./helpers')

// Constants whose value is the platform's SIZE_MAX-derived limit: wasm32 has a 32-bit size_t.
const PLATFORM_LIMITS = /_(MESSAGEBYTES_MAX|MEMLIMIT_MAX|BYTES_MAX|PASSWD_MAX|OPSLIMIT_MAX)$/

for (const { name: backend, sodium } of backends) {
  describe(`sodium-native surface [${backend}]`, () => {
    it('exports every sodium-native 5.1.0 function and constant, with the same types', () => {
      const missing = []
      const mistyped = []
      for (const key of Object.keys(SodiumNative)) {
        if (!(key in sodium)) missing.push(key)
        else if (typeof sodium[key] !== typeof SodiumNative[key]) mistyped.push(`${key}: ${typeof sodium[key]}`)
      }
      assert.deepStrictEqual(missing, [], `missing: ${missing.join(', ')}`)
      assert.deepStrictEqual(mistyped, [])
    })

    it('every constant has sodium-native\'s value', () => {
      const differ = []
      for (const [key, value] of Object.entries(SodiumNative)) {
        if (typeof value === 'function' || !(key in sodium)) continue
        if (backend === 'wasm' && PLATFORM_LIMITS.test(key)) continue
        if (sodium[key] !== value) differ.push(`${key}: ${sodium[key]} vs ${value}`)
      }
      assert.deepStrictEqual(differ, [])
    })

    it('the *_async functions are the table\'s Promise-returning ones, each taking a callback too', async () => {
      const promised = Object.keys(symbols).filter((k) => symbols[k].returns === 'promise').sort()
      assert.ok(promised.length >= 8)
      assert.deepStrictEqual(Object.keys(sodium).filter((k) => k.endsWith('_async')).sort(), promised)
      const out = Buffer.alloc(32)
      const args = [out, Buffer.from('pw'), Buffer.alloc(16), 1000, 32]
      await sodium.extension_pbkdf2_sha256_async(...args) // a Promise
      const copy = Buffer.from(out)
      out.fill(0)
      await new Promise((resolve, reject) => sodium.extension_pbkdf2_sha256_async(...args, (err) => err ? reject(err) : resolve()))
      assert.deepStrictEqual(out, copy)
      assert.ok(!copy.equals(Buffer.alloc(32)))
    })

    it('reports its backend', () => {
      assert.strictEqual(sodium.backend, backend)
    })
  })
}

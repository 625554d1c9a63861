'use strict'
// natrium/sodium-native is a drop-in for sodium-native 5.1.0: every export exists with the same
// type, every constant has the same value (where 64-bit native and wasm32 agree), and the calling
// conventions match (the per-family files check outputs differentially).
const assert = require('assert')
const SodiumNative = require('sodium-native')
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

    it('reports its backend', () => {
      assert.strictEqual(sodium.backend, backend)
    })
  })
}

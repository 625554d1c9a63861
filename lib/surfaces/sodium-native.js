'use strict'
// The sodium-native 5.1.0 surface over a raw backend. The raw functions already use sodium-native's
// names, argument order and return values, so they are exported as they are (no JS in the hot
// path); this file adds only what cannot cross the raw contract: callbacks and arrays of buffers,
// and takes the backend's guarded-memory functions.
// sodium-native's *_async functions take an optional trailing callback and otherwise return a
// Promise. Bad arguments throw synchronously in both forms.
function withCallback (promiseFn) {
  return function (...args) {
    const callback = typeof args[args.length - 1] === 'function' ? args.pop() : null
    const promise = promiseFn(...args)
    if (!callback) return promise
    promise.then((result) => callback(null, result), (err) => callback(err))
  }
}

// Guarded memory (sodium_malloc, sodium_free, sodium_mprotect_*, sodium_mlock, sodium_munlock) is
// the backend's own (lib/backends/native.js: libsodium's guarded pages; lib/backends/wasm.js:
// ordinary buffers with the same checks): this surface never asks which backend it runs on.
const { viewArg, viewByteLength: byteLengthOf } = require('../intrinsics')
const { lazy, isLazy, assignLazy } = require('../lazy')

module.exports = function sodiumNative ({ name, binding, memory, errors = [] }) {
  const sodium = assignLazy({}, binding)
  Object.defineProperty(sodium, 'backend', { value: name, enumerable: false })
  Object.defineProperty(sodium, 'backendErrors', { value: errors, enumerable: false })

  // sodium-native's *_async functions: both backends have them (native: the work on libuv's
  // thread pool on copies the job owns; wasm: the same C run at once, settled as a Promise).
  for (const fname of Object.keys(binding)) {
    if (!fname.endsWith('_async')) continue
    if (isLazy(binding, fname)) lazy(sodium, fname, () => withCallback(binding[fname]))
    else if (typeof binding[fname] === 'function') sodium[fname] = withCallback(binding[fname])
  }

  Object.assign(sodium, memory)

  sodium.crypto_generichash_batch = function crypto_generichash_batch (out, batch, key = null) {
    viewArg(out, 'out')
    if (!Array.isArray(batch)) throw new TypeError('batch must be an Array of TypedArrays')
    const state = new Uint8Array(sodium.crypto_generichash_STATEBYTES)
    sodium.crypto_generichash_init(state, key, byteLengthOf(out))
    for (const buf of batch) sodium.crypto_generichash_update(state, buf)
    sodium.crypto_generichash_final(state, out)
  }

  return sodium
}

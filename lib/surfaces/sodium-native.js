'use strict'
// The sodium-native 5.1.0 surface over a raw backend. The raw functions already use sodium-native's
// names, argument order and return values, so they are exported as they are (no JS in the hot
// path); this file adds only what cannot cross the raw contract: callbacks, arrays of buffers,
// and the wasm stand-ins for native-only functions.
const { symbols } = require('../symbols')

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

// On wasm there is no thread pool to hand the work to: the synchronous function runs and its
// result is delivered as a Promise, so code written for the native backend keeps working.
function settledAsync (syncFn) {
  return (...args) => Promise.resolve(syncFn(...args))
}

module.exports = function sodiumNative ({ name, binding }) {
  const sodium = Object.assign({}, binding)
  Object.defineProperty(sodium, 'backend', { value: name, enumerable: false })

  for (const [fname, entry] of Object.entries(symbols)) {
    if (entry.returns !== 'promise') continue
    const raw = binding[fname] || settledAsync(binding[fname.replace(/_async$/, '')])
    sodium[fname] = withCallback(raw)
  }

  sodium.crypto_generichash_batch = function crypto_generichash_batch (out, batch, key = null) {
    if (!ArrayBuffer.isView(out)) throw new TypeError('out must be a TypedArray')
    if (!Array.isArray(batch)) throw new TypeError('batch must be an Array of TypedArrays')
    const state = new Uint8Array(sodium.crypto_generichash_STATEBYTES)
    sodium.crypto_generichash_init(state, key, out.byteLength)
    for (const buf of batch) sodium.crypto_generichash_update(state, buf)
    sodium.crypto_generichash_final(state, out)
  }

  return sodium
}

'use strict'
// The main API (require('natrium')): libsodium-wrappers(-sumo) 0.8.4's API, synchronous from the
// first line, over a raw backend. Results are new Uint8Arrays (or strings, with the optional
// trailing outputFormat), inputs are Uint8Arrays or UTF-8 strings, failures throw as in
// libsodium-wrappers. Most functions are built from the symbol table (wrappers/spec.js,
// wrappers/build.js); the rest are small adapters (wrappers/adapters.js) and natrium's additions
// (wrappers/extras.js). See docs/api.md.
const defs = require('./wrappers/spec')
const { nativeIO, wasmIO, StateAddress } = require('./wrappers/io')
const adapters = require('./wrappers/adapters')
const extras = require('./wrappers/extras')

// Constants every surface shares, minus sodium-native's own (sn_*).
function constants (binding) {
  const out = {}
  for (const [name, value] of Object.entries(binding)) {
    if (typeof value !== 'function' && !name.startsWith('sn_')) out[name] = value
  }
  return out
}

module.exports = function wrappers ({ name, binding }) {
  const io = name === 'native' ? nativeIO() : wasmIO()
  const api = constants(binding)
  // The table-built functions are built on first use: building all of them took about a third
  // of a cold require (15 ms of 60, with the symbol table they read). Until then each is an
  // enumerable accessor that replaces itself with the function, so Object.keys, `in`, identity
  // and assignment behave as for the plain property it becomes.
  const cache = Object.create(null)
  const built = (fname) => cache[fname] || (cache[fname] = require('./wrappers/build').build(fname, defs[fname], binding, io))
  const settle = (fname, value) => Reflect.defineProperty(api, fname, { value, writable: true, enumerable: true, configurable: true })
  for (const fname of Object.keys(defs)) {
    Object.defineProperty(api, fname, {
      get () {
        const fn = built(fname)
        settle(fname, fn) // fails only on a frozen API object, which keeps the accessor
        return fn
      },
      set (value) {
        if (!settle(fname, value)) throw new TypeError(`Cannot assign to read only property '${fname}' of object`)
      },
      enumerable: true,
      configurable: true
    })
  }
  adapters(api, binding, io, built)
  extras(api, binding, built)

  // Code written for libsodium-wrappers awaits this; here everything is ready at require time.
  api.ready = Promise.resolve()
  Object.defineProperty(api, 'backend', { value: name, enumerable: false })
  Object.defineProperty(api, 'StateAddress', { value: StateAddress, enumerable: false })
  return api
}

'use strict'
// The main API (require('natrium')): libsodium-wrappers(-sumo) 0.8.4's API, synchronous from the
// first line, over a raw backend. Results are new Uint8Arrays (or strings, with the optional
// trailing outputFormat), inputs are Uint8Arrays or UTF-8 strings, failures throw as in
// libsodium-wrappers. Most functions are generated (scripts/generate.js) from their definitions
// (wrappers/spec.js) and the symbol table into wrappers/functions.js, one plain function each; the
// rest are small adapters (wrappers/adapters.js) and natrium's additions (wrappers/extras.js).
// See docs/api.md.
const defs = require('./wrappers/spec')
const { mainIO, StateAddress } = require('./wrappers/io')
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
  const io = mainIO()
  const api = constants(binding)
  // one plain function per definition of wrappers/spec.js, generated into wrappers/functions.js
  const functions = require('./wrappers/functions')(binding, io, defs)
  for (const fname of Object.keys(defs)) api[fname] = functions[fname]
  const built = (fname) => functions[fname]
  adapters(api, binding, io, built)
  extras(api, binding, built)

  // Code written for libsodium-wrappers awaits this; here everything is ready at require time.
  api.ready = Promise.resolve()
  Object.defineProperty(api, 'backend', { value: name, enumerable: false })
  Object.defineProperty(api, 'StateAddress', { value: StateAddress, enumerable: false })
  return api
}

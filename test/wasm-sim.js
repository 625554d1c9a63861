'use strict'
// Until the wasm backend lands, the main API's wasm code path (lib/surfaces/wrappers/io.js's
// wasmIO, the async fallbacks) runs on a stand-in: the native binding behind the wasm glue's
// contract. Every TypedArray argument is copied in (as the glue copies into linear memory), only
// the table's output and state arguments are copied back, and native-only functions are absent.
const { symbols } = require('../lib/symbols')

module.exports = function simulateWasm (native) {
  const binding = {}
  for (const [name, value] of Object.entries(native)) {
    if (typeof value !== 'function') {
      binding[name] = value
      continue
    }
    const entry = symbols[name]
    if (!entry || entry.native) continue
    binding[name] = function (...args) {
      const copies = args.map((a) => ArrayBuffer.isView(a) ? new Uint8Array(a.buffer.slice(a.byteOffset, a.byteOffset + a.byteLength)) : a)
      const result = value(...copies)
      entry.args.forEach((spec, i) => {
        const a = args[i]
        if (ArrayBuffer.isView(a) && (spec.kind === 'out' || spec.kind === 'optOut' || spec.kind === 'state')) {
          new Uint8Array(a.buffer, a.byteOffset, a.byteLength).set(copies[i])
        }
      })
      return result
    }
  }
  return binding
}

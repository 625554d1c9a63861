'use strict'
// The native backend: the Node-API addon (build/Release/natrium.node or a prebuild), given the
// shape every backend has (lib/backends/wasm.js is the other one):
//   name          'native'
//   binding       every raw function by its libsodium name (sodium-native's argument order and
//                 results), *_async ones included, and every constant
//   memory        sodium-native's guarded-memory functions (sodium_malloc, sodium_free,
//                 sodium_mprotect_*, sodium_mlock, sodium_munlock)
//   capabilities  what this backend can do that another may not
//   newOutput     (n) => a new Uint8Array of n bytes, for an output of the next raw call (the main
//                 API's results; the WebAssembly backend then knows it shares no bytes with
//                 another argument)
//   file          the file it came from
// lib/loader.js finds the addon and calls nativeBackend; the surfaces take the result as it is.
const { unreadable } = require('../intrinsics')

const CAPABILITIES = Object.freeze({
  guardedMemory: true, // libsodium's sodium_malloc pages: guard pages, mprotect, mlock
  asyncOffThread: true, // *_async run on libuv's thread pool, on copies the job owns
  // the C reads and writes the caller's arrays where they are: a small array the JavaScript heap
  // holds is moved off it first, which costs more than a small call (see the main API's io.js)
  copiesArguments: false
})
const newOutput = (n) => new Uint8Array(n)

// sodium_malloc's buffers are libsodium's pages, marked `secure` as sodium-native does;
// sodium_free frees only the very buffer sodium_malloc returned (sodium-native keys this on its
// `secure` flag; a WeakSet asks nothing of the argument itself), and detaches it.
function guardedMemory (binding) {
  const fromMalloc = new WeakSet()
  return {
    sodium_malloc: function sodium_malloc (size) {
      const buf = binding.sodium_malloc(size)
      buf.secure = true
      fromMalloc.add(buf)
      return buf
    },
    sodium_free: function sodium_free (buf) {
      if (!fromMalloc.has(buf) || unreadable(buf)) return // not ours, or freed already
      fromMalloc.delete(buf)
      binding.sodium_free(buf)
    },
    sodium_mprotect_noaccess: binding.sodium_mprotect_noaccess,
    sodium_mprotect_readonly: binding.sodium_mprotect_readonly,
    sodium_mprotect_readwrite: binding.sodium_mprotect_readwrite,
    sodium_mlock: binding.sodium_mlock,
    sodium_munlock: binding.sodium_munlock
  }
}

module.exports = function nativeBackend (binding, file = null) {
  return { name: 'native', binding, memory: guardedMemory(binding), capabilities: CAPABILITIES, newOutput, file }
}

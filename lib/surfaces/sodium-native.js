'use strict'
// The sodium-native 5.1.0 surface over a raw backend. The raw functions already use sodium-native's
// names, argument order and return values, so they are exported as they are (no JS in the hot
// path); this file adds only what cannot cross the raw contract: callbacks, arrays of buffers,
// and the wasm stand-ins for native-only functions.
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

// Guarded memory. Native: libsodium's sodium_malloc pages, marked `secure` as sodium-native does.
// Wasm has no pages to guard or lock: sodium_malloc gives an ordinary buffer of its own (filled
// like libsodium's, 0xdb) with `secure` false, the mprotect/mlock calls only check their
// argument, and munlock still wipes. sodium_free detaches on both, and ignores what it did not
// allocate, a second free included (sodium-native's behaviour).
const fromWasmMalloc = new WeakSet()

function nativeMemory (sodium, binding) {
  sodium.sodium_malloc = function sodium_malloc (size) {
    const buf = binding.sodium_malloc(size)
    buf.secure = true
    return buf
  }
  sodium.sodium_free = function sodium_free (buf) {
    if (!buf || !buf.secure || buf.buffer.byteLength === 0) return
    binding.sodium_free(buf)
  }
}

function wasmMemory (sodium) {
  const isView = (x, name) => {
    if (!ArrayBuffer.isView(x)) throw new TypeError(`${name} must be a TypedArray`)
  }
  sodium.sodium_malloc = function sodium_malloc (size) {
    if (typeof size !== 'number') throw new TypeError('size must be a number')
    if (!Number.isInteger(size) || size < 0 || size > 0xffffffff) {
      throw new RangeError('size must be an integer between 0 and 4294967295')
    }
    const buf = Buffer.from(new ArrayBuffer(size)).fill(0xdb)
    buf.secure = false
    fromWasmMalloc.add(buf.buffer)
    return buf
  }
  sodium.sodium_free = function sodium_free (buf) {
    if (!buf || !fromWasmMalloc.has(buf.buffer)) return
    fromWasmMalloc.delete(buf.buffer)
    structuredClone(buf.buffer, { transfer: [buf.buffer] }) // detaches every view on it
  }
  for (const [fname, message] of [['noaccess', 'failed to lock buffer'], ['readonly', 'failed to unlock buffer'],
    ['readwrite', 'failed to unlock buffer']]) {
    sodium[`sodium_mprotect_${fname}`] = function (ptr) {
      isView(ptr, 'ptr')
      if (!fromWasmMalloc.has(ptr.buffer)) throw new Error(message)
    }
  }
  sodium.sodium_mlock = (addr) => isView(addr, 'addr')
  sodium.sodium_munlock = (addr) => { isView(addr, 'addr'); sodium.sodium_memzero(addr) }
}

module.exports = function sodiumNative ({ name, binding }) {
  const sodium = Object.assign({}, binding)
  Object.defineProperty(sodium, 'backend', { value: name, enumerable: false })

  // sodium-native's *_async functions: both backends have them (native: the work on libuv's
  // thread pool on copies the job owns; wasm: the same C run at once, settled as a Promise).
  for (const fname of Object.keys(binding)) {
    if (fname.endsWith('_async') && typeof binding[fname] === 'function') sodium[fname] = withCallback(binding[fname])
  }

  if (name === 'native') nativeMemory(sodium, binding)
  else wasmMemory(sodium)

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

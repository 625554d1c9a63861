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
// allocate, a second free included (sodium-native's behaviour). Arguments are read through the
// built-ins captured at load, with the checks and messages of the native C on both backends.
const { isView, typedArrayName, typedArrayBuffer, dataViewBuffer, typedArrayByteLength, dataViewByteLength, emptyViewState, DETACHED, READABLE } = require('../intrinsics')
const { lazy, isLazy, assignLazy } = require('../lazy')

const fromWasmMalloc = new WeakSet() // the buffers wasm's sodium_malloc returned
const wasmRegions = new WeakSet() // and their ArrayBuffers
const bufferOf = (x) => (typedArrayName(x) !== undefined ? typedArrayBuffer(x) : dataViewBuffer(x))
const byteLengthOf = (x) => {
  if (typedArrayName(x) !== undefined) return typedArrayByteLength(x)
  try { return dataViewByteLength(x) } catch { return 0 }
}
const unreadable = (x) => byteLengthOf(x) === 0 && emptyViewState(x) !== READABLE

// A TypedArray or DataView whose bytes can be read, or the native binding's TypeError.
function viewArg (x, name) {
  if (!isView(x)) throw new TypeError(`${name} must be a TypedArray`)
  if (unreadable(x)) throw new TypeError(emptyViewState(x) === DETACHED ? `${name} is detached` : `${name} is out of bounds`)
  return x
}

// sodium_free frees only the very buffer sodium_malloc returned (sodium-native keys this on its
// `secure` flag; a WeakSet asks nothing of the argument itself).
const fromNativeMalloc = new WeakSet()

function nativeMemory (sodium, binding) {
  sodium.sodium_malloc = function sodium_malloc (size) {
    const buf = binding.sodium_malloc(size)
    buf.secure = true
    fromNativeMalloc.add(buf)
    return buf
  }
  sodium.sodium_free = function sodium_free (buf) {
    if (!fromNativeMalloc.has(buf) || unreadable(buf)) return // not ours, or freed already
    fromNativeMalloc.delete(buf)
    binding.sodium_free(buf)
  }
}

function wasmMemory (sodium) {
  sodium.sodium_malloc = function sodium_malloc (size) {
    if (typeof size !== 'number') throw new TypeError('size must be a number')
    if (!Number.isInteger(size) || size < 0 || size > 0xffffffff) {
      throw new RangeError('size must be an integer between 0 and 4294967295')
    }
    const buf = Buffer.from(new ArrayBuffer(size)).fill(0xdb)
    buf.secure = false
    fromWasmMalloc.add(buf)
    wasmRegions.add(typedArrayBuffer(buf))
    return buf
  }
  sodium.sodium_free = function sodium_free (buf) {
    if (!fromWasmMalloc.has(buf) || unreadable(buf)) return
    fromWasmMalloc.delete(buf)
    const ab = typedArrayBuffer(buf)
    wasmRegions.delete(ab)
    structuredClone(ab, { transfer: [ab] }) // detaches every view on it
  }
  for (const [fname, message] of [['noaccess', 'failed to lock buffer'], ['readonly', 'failed to unlock buffer'],
    ['readwrite', 'failed to unlock buffer']]) {
    sodium[`sodium_mprotect_${fname}`] = function (ptr) {
      viewArg(ptr, 'ptr')
      if (!wasmRegions.has(bufferOf(ptr))) throw new Error(message)
    }
  }
  sodium.sodium_mlock = (addr) => { viewArg(addr, 'addr') }
  sodium.sodium_munlock = (addr) => { sodium.sodium_memzero(viewArg(addr, 'addr')) }
}

module.exports = function sodiumNative ({ name, binding }) {
  const sodium = assignLazy({}, binding)
  Object.defineProperty(sodium, 'backend', { value: name, enumerable: false })

  // sodium-native's *_async functions: both backends have them (native: the work on libuv's
  // thread pool on copies the job owns; wasm: the same C run at once, settled as a Promise).
  for (const fname of Object.keys(binding)) {
    if (!fname.endsWith('_async')) continue
    if (isLazy(binding, fname)) lazy(sodium, fname, () => withCallback(binding[fname]))
    else if (typeof binding[fname] === 'function') sodium[fname] = withCallback(binding[fname])
  }

  if (name === 'native') nativeMemory(sodium, binding)
  else wasmMemory(sodium)

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

'use strict'
// The built-in functions natrium calls while it holds a caller's bytes, captured when natrium
// loads. Code that runs later cannot replace them: a patched Uint8Array.prototype.set or fill
// would otherwise see keys and messages, and a getter or Proxy trap reached through `instanceof`
// or `.length` would run in the middle of a call. Everything here reads internal slots only
// (a Proxy, a subclass's getter or an object with a TypedArray prototype runs no code through it).
// (vars, not consts: V8 checks a const that a function captures for its temporal dead zone at every
// use, and these are used on every call; see lib/backends/wasm.js)
/* eslint-disable no-var */
var uncurry = Function.prototype.call.bind(Function.prototype.bind, Function.prototype.call)

var TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype)
function getter (proto, name) { return uncurry(Object.getOwnPropertyDescriptor(proto, name).get) }

// The name of a TypedArray's element type ('Uint8Array', ...), undefined for anything else.
var typedArrayName = getter(TypedArrayPrototype, Symbol.toStringTag)
var typedArrayBuffer = getter(TypedArrayPrototype, 'buffer')
var typedArrayByteOffset = getter(TypedArrayPrototype, 'byteOffset')
var typedArrayByteLength = getter(TypedArrayPrototype, 'byteLength')
var dataViewBuffer = getter(DataView.prototype, 'buffer')
var dataViewByteOffset = getter(DataView.prototype, 'byteOffset')
var dataViewByteLength = getter(DataView.prototype, 'byteLength')
var arrayBufferByteLength = getter(ArrayBuffer.prototype, 'byteLength')
var isView = ArrayBuffer.isView

var u8Set = uncurry(TypedArrayPrototype.set)
var u8Fill = uncurry(TypedArrayPrototype.fill)
var u8Subarray = uncurry(TypedArrayPrototype.subarray)
var u8IndexOf = uncurry(TypedArrayPrototype.indexOf)
var U8 = Uint8Array

function isUint8Array (x) { return typedArrayName(x) === 'Uint8Array' }

// Why a TypedArray or DataView that reads as zero bytes has none: READABLE (it is empty),
// DETACHED (its ArrayBuffer was detached: transferred, or freed by sodium_free) or OUT_OF_BOUNDS
// (it lies outside a resizable ArrayBuffer that shrank). JavaScript reads the last two as empty
// too; natrium refuses them as arguments on every backend. The built-ins used here validate the
// view first and throw for either, without reaching any caller code.
var READABLE = 0
var DETACHED = 1
var OUT_OF_BOUNDS = 2
function emptyViewState (view) {
  const isTypedArray = typedArrayName(view) !== undefined
  try {
    if (isTypedArray) u8IndexOf(view, 0)
    else dataViewByteLength(view)
    return READABLE
  } catch {
    try {
      new U8(isTypedArray ? typedArrayBuffer(view) : dataViewBuffer(view), 0, 0) // eslint-disable-line no-new
      return OUT_OF_BOUNDS
    } catch {
      return DETACHED
    }
  }
}

// The byte length of a TypedArray or DataView (0 for an unreadable DataView, which throws).
function viewByteLength (x) {
  if (typedArrayName(x) !== undefined) return typedArrayByteLength(x)
  try { return dataViewByteLength(x) } catch { return 0 }
}
// The ArrayBuffer of a TypedArray or DataView.
const viewBuffer = (x) => (typedArrayName(x) !== undefined ? typedArrayBuffer(x) : dataViewBuffer(x))
// Whether a TypedArray or DataView's bytes cannot be read (detached, out of bounds).
const unreadable = (x) => viewByteLength(x) === 0 && emptyViewState(x) !== READABLE

// A TypedArray or DataView whose bytes can be read, or the native binding's TypeError.
function viewArg (x, name) {
  if (!isView(x)) throw new TypeError(`${name} must be a TypedArray`)
  if (unreadable(x)) throw new TypeError(emptyViewState(x) === DETACHED ? `${name} is detached` : `${name} is out of bounds`)
  return x
}

module.exports = {
  viewByteLength,
  viewBuffer,
  unreadable,
  viewArg,
  typedArrayName,
  typedArrayBuffer,
  typedArrayByteOffset,
  typedArrayByteLength,
  dataViewBuffer,
  dataViewByteOffset,
  dataViewByteLength,
  arrayBufferByteLength,
  isView,
  isUint8Array,
  emptyViewState,
  READABLE,
  DETACHED,
  OUT_OF_BOUNDS,
  u8Set,
  u8Fill,
  u8Subarray,
  u8IndexOf,
  U8
}

'use strict'
// The built-in functions natrium calls while it holds a caller's bytes, captured when natrium
// loads. Code that runs later cannot replace them: a patched Uint8Array.prototype.set or fill
// would otherwise see keys and messages, and a getter or Proxy trap reached through `instanceof`
// or `.length` would run in the middle of a call. Everything here reads internal slots only
// (a Proxy, a subclass's getter or an object with a TypedArray prototype runs no code through it).
const uncurry = Function.prototype.call.bind(Function.prototype.bind, Function.prototype.call)

const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype)
const getter = (proto, name) => uncurry(Object.getOwnPropertyDescriptor(proto, name).get)

// The name of a TypedArray's element type ('Uint8Array', ...), undefined for anything else.
const typedArrayName = getter(TypedArrayPrototype, Symbol.toStringTag)
const typedArrayBuffer = getter(TypedArrayPrototype, 'buffer')
const typedArrayByteOffset = getter(TypedArrayPrototype, 'byteOffset')
const typedArrayByteLength = getter(TypedArrayPrototype, 'byteLength')
const dataViewBuffer = getter(DataView.prototype, 'buffer')
const dataViewByteOffset = getter(DataView.prototype, 'byteOffset')
const dataViewByteLength = getter(DataView.prototype, 'byteLength')
const arrayBufferByteLength = getter(ArrayBuffer.prototype, 'byteLength')
const isView = ArrayBuffer.isView

const u8Set = uncurry(TypedArrayPrototype.set)
const u8Fill = uncurry(TypedArrayPrototype.fill)
const u8Subarray = uncurry(TypedArrayPrototype.subarray)
const u8IndexOf = uncurry(TypedArrayPrototype.indexOf)
const U8 = Uint8Array

const isUint8Array = (x) => typedArrayName(x) === 'Uint8Array'

// Why a TypedArray or DataView that reads as zero bytes has none: READABLE (it is empty),
// DETACHED (its ArrayBuffer was detached: transferred, or freed by sodium_free) or OUT_OF_BOUNDS
// (it lies outside a resizable ArrayBuffer that shrank). JavaScript reads the last two as empty
// too; natrium refuses them as arguments on every backend. The built-ins used here validate the
// view first and throw for either, without reaching any caller code.
const READABLE = 0
const DETACHED = 1
const OUT_OF_BOUNDS = 2
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

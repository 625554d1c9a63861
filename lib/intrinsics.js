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

// A TypedArray or DataView whose bytes cannot be read: its ArrayBuffer was detached (transferred,
// or freed by sodium_free), or it lies outside a resizable ArrayBuffer that shrank. Both read as
// zero bytes in JavaScript; natrium refuses them as arguments on every backend ("x is detached").
// Only called for views that read as zero bytes.
function isDetached (view) {
  const buffer = typedArrayName(view) !== undefined ? typedArrayBuffer(view) : dataViewBuffer(view)
  try {
    // a view on a detached buffer cannot be made; an out-of-bounds one has its offset past the end
    new U8(buffer, 0, 0) // eslint-disable-line no-new
  } catch {
    return true
  }
  if (typedArrayName(view) !== undefined) {
    // byteOffset reads 0 when out of bounds; the view's own length stays what it was made with,
    // so a fixed-length view that lost its bytes reads byteLength 0 but is not "empty by design":
    // the ArrayBuffer is shorter than where it starts plus its declared length.
    return isOutOfBounds(view)
  }
  try {
    dataViewByteLength(view)
    return false
  } catch {
    return true // DataView getters throw on an out-of-bounds view
  }
}

// A TypedArray made with a fixed length over a resizable ArrayBuffer that has since shrunk below
// it: %TypedArray%.prototype.byteLength reads 0 and byteOffset 0, but the view is not empty by
// design. V8 keeps no public flag for it; subarray(0) of such a view throws, of an empty one not.
function isOutOfBounds (view) {
  try {
    u8Subarray(view, 0)
    return false
  } catch {
    return true
  }
}

module.exports = {
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
  isDetached,
  u8Set,
  u8Fill,
  u8Subarray,
  u8IndexOf,
  U8
}

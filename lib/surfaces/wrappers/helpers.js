'use strict'
// What every generated main-API function (lib/surfaces/wrappers/functions/<family>.js) shares:
// written once here instead of at the head of each generated file.
const { lengthError, lengthOf, isRefusal, inputTypeError, StateAddress } = require('./io')
const { isUint8Array, U8 } = require('../../intrinsics')

const U32_MAX = 0xffffffff
const EMPTY = new U8(0)
const stateOf = StateAddress.bytes

// libsodium-wrappers' unused secret nonce: null, undefined or bytes, never looked at
function _ignored (x, name) {
  if (x !== null && x !== undefined && !isUint8Array(x) && typeof x !== 'string') throw inputTypeError(name, x)
}

// An output as long as an input plus (or minus) a constant
function _outLength (v, plus, name) {
  const n = lengthOf(v) + plus
  if (n < 0) throw lengthError(name, `at least ${-plus}`, lengthOf(v))
  return n
}

// A failed raw call: libsodium's refusal gets libsodium-wrappers' message; argument errors pass through
function _refusal (err, fail) {
  if (!isRefusal(err)) throw err
  throw new Error(fail, { cause: err })
}
function _refusedOr (err, value) {
  if (!isRefusal(err)) throw err
  return value
}

module.exports = { U32_MAX, EMPTY, stateOf, _ignored, _outLength, _refusal, _refusedOr }

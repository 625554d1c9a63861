'use strict'
// How bytes cross between the main API and a raw backend: argument checks with libsodium-wrappers'
// conditions (and natrium's messages), output formats, and the allocation strategy.
//
// Allocation (native backend). V8 stores a typed array of at most 64 bytes inside its own heap;
// the first time native code asks for its bytes, V8 moves them to a fresh off-heap ArrayBuffer,
// which costs more than encrypting 10 bytes. So a small result is written into a scratch view
// that is off-heap already and then copied into a new Uint8Array (on-heap, cheap); a result
// larger than 64 bytes is allocated with its exact size (off-heap from the start) and written
// directly. Either way a result is its own Uint8Array: byteOffset 0, its own ArrayBuffer of
// exactly its length, sharing nothing with other results. A small input seen for the first time
// (a fresh nonce) is copied into a scratch view; one seen again (a key) is passed as it is.
// Scratch memory is reused, not wiped: it holds the last call's small inputs and results until
// the next call, as the JavaScript heap holds the caller's own copies.
//
// The wasm backend copies arguments into linear memory in JS, where the on-heap question never
// arises: results are plain new Uint8Array(n) and inputs are passed as they are.
const { Buffer } = require('buffer')

const SMALL = 64 // V8's typed_array_max_size_in_heap
const SLOTS = 12 // scratch areas: enough for the outputs and inputs of any one call
const FORMATS = ['uint8array', 'text', 'hex', 'base64']
const UINT8ARRAY = 0
const TEXT = 1
const HEX = 2
const BASE64 = 3

const utf8Decoder = new TextDecoder('utf-8', { fatal: true })

function describe (x) {
  if (x === null) return 'null'
  if (x === undefined) return 'undefined'
  if (typeof x === 'object') return x.constructor ? `a ${x.constructor.name}` : 'an object'
  return `a ${typeof x}`
}

// libsodium-wrappers checks the output format before anything else: a falsy value means
// 'uint8array', a non-string is a TypeError, an unknown string an Error.
function formatCode (format) {
  if (!format) return UINT8ARRAY
  if (typeof format !== 'string') {
    throw new TypeError(`outputFormat must be a string (one of ${FORMATS.join(', ')}), got ${describe(format)}`)
  }
  const code = FORMATS.indexOf(format)
  if (code < 0) throw new Error(`outputFormat must be one of ${FORMATS.join(', ')} (got '${format}')`)
  return code
}

// Node's encoders read a Buffer; a view on the bytes' own ArrayBuffer would make V8 move a small
// on-heap array off the heap, so small inputs are copied into a scratch Buffer (and wiped).
const encodeScratch = Buffer.allocUnsafeSlow(SMALL)

function encodeAs (bytes, encoding) {
  const n = bytes.length
  if (n > SMALL) return Buffer.from(bytes.buffer, bytes.byteOffset, n).toString(encoding)
  encodeScratch.set(bytes)
  const s = encodeScratch.toString(encoding, 0, n)
  encodeScratch.fill(0, 0, n)
  return s
}

// Strings as libsodium-wrappers formats them: hex lowercase, base64 URL-safe without padding,
// text strict UTF-8 (invalid bytes throw TypeError, as TextDecoder's fatal mode does).
function encode (bytes, code) {
  if (code === HEX) return encodeAs(bytes, 'hex')
  if (code === BASE64) return encodeAs(bytes, 'base64url')
  return utf8Decoder.decode(bytes)
}

function inputTypeError (name, x) {
  return new TypeError(`${name} must be a Uint8Array or a string, got ${describe(x)}`)
}

function lengthError (name, rule, n) {
  return new TypeError(`${name} must be ${rule} bytes long (got ${n})`)
}

// The input conversions every backend shares: Uint8Array (Buffer included) as is, strings as
// UTF-8, anything else a TypeError naming the parameter.
function bytesOf (x, name) {
  if (x instanceof Uint8Array) return x
  if (typeof x === 'string') return Buffer.from(x, 'utf8')
  throw inputTypeError(name, x)
}

// Numbers: libsodium-wrappers takes non-negative integers only (and, in wasm, below 2^31);
// natrium takes any integer in the range libsodium accepts, up to 2^53.
function numberOf (x, name, lo, hi) {
  if (typeof x !== 'number') throw new TypeError(`${name} must be a number, got ${describe(x)}`)
  if (!Number.isInteger(x) || x < lo || x > hi) throw new RangeError(`${name} must be an integer between ${lo} and ${hi} (got ${x})`)
  return x
}

// A streaming state: an opaque object standing for libsodium-wrappers' state address. It holds
// the raw state bytes (off-heap, so native calls never move them) and which family it is for.
class StateAddress {
  constructor (kind, size) {
    this.name = kind.replace(/_STATEBYTES$/, '')
    Object.defineProperty(this, 'bytes', { value: new Uint8Array(new ArrayBuffer(size)) })
    Object.defineProperty(this, 'finalized', { value: false, writable: true })
  }
}

// One scratch area per slot (a call uses distinct slots for its inputs and outputs), each with a
// cached view per length so the hot path allocates nothing but the result.
function scratchSlots (count) {
  const slots = []
  for (let i = 0; i < count; i++) {
    const buffer = new ArrayBuffer(SMALL)
    const views = []
    for (let n = 0; n <= SMALL; n++) views.push(new Uint8Array(buffer, 0, n))
    slots.push(views)
  }
  return slots
}

function nativeIO () {
  const slots = scratchSlots(SLOTS)
  // The last small input each slot saw: an input seen twice in a row (a key, a fixed nonce) is
  // passed as it is (V8 moves it off the heap once, then never again), a new one is copied.
  const last = new Array(SLOTS).fill(null)
  return {
    // a buffer the raw function writes n bytes into
    target (n, slot) {
      return n <= SMALL ? slots[slot][n] : new Uint8Array(n)
    },
    // the caller's result from a target: a copy of a scratch view, else the target itself
    take (t) {
      return t.length <= SMALL ? new Uint8Array(t) : t
    },
    takeAs (t, code) {
      return encode(t, code)
    },
    // input bytes the raw function can read without forcing V8 to move them on every call
    input (x, slot, name) {
      if (x instanceof Uint8Array) {
        const n = x.length
        if (n > SMALL || x === last[slot]) return x
        last[slot] = x
        const v = slots[slot][n]
        v.set(x)
        return v
      }
      if (typeof x === 'string') return Buffer.from(x, 'utf8') // pooled, off-heap
      throw inputTypeError(name, x)
    }
  }
}

function wasmIO () {
  return {
    target: (n) => new Uint8Array(n),
    take: (t) => t,
    takeAs: (t, code) => encode(t, code),
    input: (x, slot, name) => bytesOf(x, name)
  }
}

module.exports = {
  SMALL,
  SLOTS,
  FORMATS,
  UINT8ARRAY,
  TEXT,
  HEX,
  BASE64,
  formatCode,
  encode,
  encodeAs,
  bytesOf,
  numberOf,
  describe,
  inputTypeError,
  lengthError,
  StateAddress,
  nativeIO,
  wasmIO
}

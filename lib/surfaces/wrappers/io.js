'use strict'
// How bytes cross between the main API and a raw backend: argument checks with libsodium-wrappers'
// conditions (and natrium's messages), output formats, and the allocation strategy.
//
// Allocation. V8 stores a typed array of at most 64 bytes inside its own heap; the first time
// native code asks for its bytes (the native backend), or JavaScript for its ArrayBuffer (the
// WebAssembly backend, which compares the buffers of an output and the other arguments), V8 moves
// them to a fresh off-heap ArrayBuffer, which costs more than encrypting 10 bytes. So a small
// result is written into a scratch view that is off-heap already and then copied into a new
// Uint8Array (on-heap, cheap); a result larger than 64 bytes is allocated with its exact size
// (off-heap from the start) and written directly. Either way a result is its own Uint8Array:
// byteOffset 0, its own ArrayBuffer of exactly its length, sharing nothing with other results. A
// small input seen for the first time (a fresh nonce) is copied into a scratch view; one seen
// again (a key) is passed as it is. Scratch memory is reused, not wiped: it holds the last call's
// small inputs and results until the next call, as the JavaScript heap holds the caller's own
// copies. The same on both backends.
// Inputs are recognised and measured through built-ins captured at load (lib/intrinsics.js): no
// getter, Proxy trap or patched prototype method of the caller's runs during a call, so no other
// call can start in the middle of one and find the scratch views half filled.
const {
  isUint8Array, typedArrayName, typedArrayBuffer, typedArrayByteOffset, typedArrayByteLength, isView,
  emptyViewState, DETACHED, OUT_OF_BOUNDS, u8Set, u8Fill, u8Subarray, U8
} = require('../../intrinsics')

// --- codecs ---------------------------------------------------------------------------------------
// Byte <-> string conversions in plain JavaScript, so that the surfaces run wherever WebAssembly
// does (browsers, workers, Deno, Bun, workerd): no Buffer. Hex and base64 as Buffer#toString
// writes them (hex lowercase); UTF-8 through TextEncoder; Latin-1 byte for byte (TextDecoder's
// 'latin1' is windows-1252, which maps 0x80-0x9f elsewhere, so it is not used). The built-ins are
// captured at load, as in lib/intrinsics.js.
const encoder = new TextEncoder()
const encode8 = Function.prototype.call.bind(TextEncoder.prototype.encode)
const encodeInto = Function.prototype.call.bind(TextEncoder.prototype.encodeInto)
const fromCharCode = String.fromCharCode
const apply = Function.prototype.call.bind(Function.prototype.apply)

// A string as UTF-8 bytes (lone surrogates become U+FFFD, as Buffer.from(s, 'utf8') does).
const utf8 = (s) => encode8(encoder, s)

// Hex and base64 write their ASCII digits into a byte scratch and decode it with TextDecoder: one
// flat string per chunk, where a string built a digit at a time is a rope of small pieces that V8
// flattens later (about 2x slower at 32 bytes). Digits go two at a time, as 16-bit units whose
// tables are filled through their bytes, so they hold the right pair on either byte order. The
// tables and the scratch are made on first use: a cold require should not pay for them.
const asciiDecoder = new TextDecoder()
const decode = Function.prototype.call.bind(TextDecoder.prototype.decode)
const U16 = Uint16Array
const OUT_CHUNK = 8192 // digits per decode (a multiple of 4)
let digits = null // the scratch: OUT_CHUNK bytes
let digitPairs = null // the same bytes as 16-bit units
function scratchDigits () {
  if (digits === null) {
    digits = new U8(OUT_CHUNK)
    digitPairs = new U16(typedArrayBuffer(digits))
  }
  return digits
}

// A table of count digit pairs: entry i holds the digits alphabet[i >> shift], alphabet[i & mask].
function pairTable (count, alphabet, shift) {
  const t = new U16(count)
  const bytes = new U8(typedArrayBuffer(t))
  const mask = (1 << shift) - 1
  for (let i = 0; i < count; i++) {
    bytes[2 * i] = alphabet.charCodeAt(i >> shift)
    bytes[2 * i + 1] = alphabet.charCodeAt(i & mask)
  }
  return t
}
const HEX_ALPHABET = '0123456789abcdef'
let HEX_PAIRS = null // the two digits of each byte value

function hex (bytes) {
  const T = HEX_PAIRS === null ? (HEX_PAIRS = pairTable(256, HEX_ALPHABET, 4)) : HEX_PAIRS
  const D = scratchDigits()
  const P = digitPairs
  const n = typedArrayByteLength(bytes)
  let out = ''
  for (let start = 0; start < n; start += OUT_CHUNK / 2) {
    const end = start + OUT_CHUNK / 2 < n ? start + OUT_CHUNK / 2 : n
    let j = 0
    for (let i = start; i < end; i++) P[j++] = T[bytes[i]]
    out += decode(asciiDecoder, u8Subarray(D, 0, 2 * j))
  }
  return out
}

const STANDARD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const URLSAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
// Pairs of digits: 12 bits of input at a time.
let STANDARD_PAIRS = null
let URLSAFE_PAIRS = null
const PAD = 61 // '='

// base64 of bytes: urlsafe selects the alphabet, padded the trailing '='.
function base64 (bytes, urlsafe, padded) {
  const n = typedArrayByteLength(bytes)
  const T = urlsafe
    ? (URLSAFE_PAIRS === null ? (URLSAFE_PAIRS = pairTable(4096, URLSAFE, 6)) : URLSAFE_PAIRS)
    : (STANDARD_PAIRS === null ? (STANDARD_PAIRS = pairTable(4096, STANDARD, 6)) : STANDARD_PAIRS)
  const A = urlsafe ? URLSAFE : STANDARD
  const D = scratchDigits()
  const P = digitPairs
  const whole = n - n % 3
  let out = ''
  let j = 0 // in pairs
  for (let i = 0; i < whole; i += 3) {
    if (j === OUT_CHUNK / 2) {
      out += decode(asciiDecoder, D)
      j = 0
    }
    const v = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2]
    P[j] = T[v >> 12]
    P[j + 1] = T[v & 4095]
    j += 2
  }
  if (n - whole !== 0 && j === OUT_CHUNK / 2) {
    out += decode(asciiDecoder, D)
    j = 0
  }
  let k = 2 * j // in bytes
  if (n - whole === 1) {
    const v = bytes[whole]
    D[k++] = A.charCodeAt(v >> 2)
    D[k++] = A.charCodeAt((v & 3) << 4)
    if (padded) { D[k++] = PAD; D[k++] = PAD }
  } else if (n - whole === 2) {
    const v = (bytes[whole] << 8) | bytes[whole + 1]
    D[k++] = A.charCodeAt(v >> 10)
    D[k++] = A.charCodeAt((v >> 4) & 63)
    D[k++] = A.charCodeAt((v & 15) << 2)
    if (padded) D[k++] = PAD
  }
  return k === 0 ? out : out + decode(asciiDecoder, u8Subarray(D, 0, k))
}

// Strings are built a chunk at a time: one piece per byte would make a deep rope for large inputs.
const CHUNK = 8192

// The first n bytes of bytes, one character each (U+0000-U+00FF).
function latin1 (bytes, n) {
  let out = ''
  for (let start = 0; start < n; start += CHUNK) {
    const end = start + CHUNK < n ? start + CHUNK : n
    out += apply(fromCharCode, null, new U8(bytes.buffer, bytes.byteOffset + start, end - start))
  }
  return out
}

const codecs = { utf8, hex, base64, latin1 }

const SMALL = 64 // V8's typed_array_max_size_in_heap
const SLOTS = 12 // scratch areas: enough for the outputs and inputs of any one call
const FORMATS = ['uint8array', 'text', 'hex', 'base64']
const UINT8ARRAY = 0
const TEXT = 1
const HEX = 2
const BASE64 = 3

const utf8Decoder = new TextDecoder('utf-8', { fatal: true })

// What a bad argument is, from its type and internal slots only (never its own properties).
function describe (x) {
  if (x === null) return 'null'
  if (x === undefined) return 'undefined'
  if (typeof x !== 'object') return `a ${typeof x}`
  const name = typedArrayName(x)
  if (name !== undefined) return `a ${name}`
  return isView(x) ? 'a DataView' : 'an object'
}

// libsodium-wrappers checks the output format before anything else: a falsy value means
// 'uint8array', a non-string is a TypeError, an unknown string an Error.
// (Each check that runs on every call is a small function with its failures out of line, so
// that V8 inlines it into the generated functions without spending their inlining budget.)
function formatCode (format) {
  return format ? formatOf(format) : UINT8ARRAY
}
function formatOf (format) {
  if (typeof format !== 'string') {
    throw new TypeError(`outputFormat must be a string (one of ${FORMATS.join(', ')}), got ${describe(format)}`)
  }
  const code = FORMATS.indexOf(format)
  if (code < 0) throw new Error(`outputFormat must be one of ${FORMATS.join(', ')} (got '${format}')`)
  return code
}

// bytes as 'hex', 'base64' (padded) or 'base64url' (unpadded), as Node's Buffer#toString writes
// them (the codecs above: no Buffer, so the same code runs in every runtime).
function encodeAs (bytes, encoding) {
  if (encoding === 'hex') return codecs.hex(bytes)
  return codecs.base64(bytes, encoding === 'base64url', encoding === 'base64')
}

// Strings as libsodium-wrappers formats them: hex lowercase, base64 URL-safe without padding,
// text strict UTF-8 (invalid bytes throw TypeError, as TextDecoder's fatal mode does).
function encode (bytes, code) {
  if (code === HEX) return encodeAs(bytes, 'hex')
  if (code === BASE64) return encodeAs(bytes, 'base64url')
  return utf8Decoder.decode(bytes)
}

// libsodium refused (a failed verification, an invalid point, ...): the backends mark those
// errors with this code (src/nat.h NAT_REFUSED_CODE); anything else is an argument error or
// natrium's own failure, and passes through as it is.
const isRefusal = (err) => err instanceof Error && err.code === 'ERR_NATRIUM_REFUSED'

function inputTypeError (name, x) {
  return new TypeError(`${name} must be a Uint8Array or a string, got ${describe(x)}`)
}

function lengthError (name, rule, n) {
  return new TypeError(`${name} must be ${rule} bytes long (got ${n})`)
}

// A Uint8Array argument whose bytes cannot be read: its ArrayBuffer was detached, or it lies
// outside a resizable ArrayBuffer that shrank (JavaScript reads both as empty).
function readable (x, name) {
  if (typedArrayByteLength(x) === 0) {
    const state = emptyViewState(x)
    if (state === DETACHED) throw new TypeError(`${name} is detached`)
    if (state === OUT_OF_BOUNDS) throw new TypeError(`${name} is out of bounds`)
  }
  return x
}

// The input conversions every backend shares: Uint8Array (Buffer included) as is, strings as
// UTF-8, anything else a TypeError naming the parameter.
function bytesOf (x, name) {
  if (isUint8Array(x)) return readable(x, name)
  if (typeof x === 'string') return codecs.utf8(x)
  throw inputTypeError(name, x)
}

// The length of a Uint8Array that bytesOf or a target gave (its own `length` may be a getter).
const lengthOf = typedArrayByteLength

// Numbers: libsodium-wrappers takes non-negative integers only (and, in wasm, below 2^31);
// natrium takes any integer in the range libsodium accepts, up to 2^53.
function numberOf (x, name, lo, hi) {
  return typeof x === 'number' && x >= lo && x <= hi && Number.isInteger(x) ? x : badNumber(x, name, lo, hi)
}
function badNumber (x, name, lo, hi) {
  if (typeof x !== 'number') throw new TypeError(`${name} must be a number, got ${describe(x)}`)
  throw new RangeError(`${name} must be an integer between ${lo} and ${hi} (got ${x})`)
}

// A streaming state: an opaque object standing for libsodium-wrappers' state address. It holds
// the raw state bytes (off-heap, so native calls never move them) and which family it is for, in
// private fields: a look-alike object or a Proxy is refused without running any of its code.
class StateAddress {
  #name
  #bytes
  #finalized = false
  constructor (kind, size) {
    this.#name = kind.replace(/_STATEBYTES$/, '')
    this.#bytes = new U8(new ArrayBuffer(size))
  }

  get name () { return this.#name }

  // The state's bytes for a call of family `kind`, or a TypeError/Error naming the parameter.
  static bytes (x, kind, name) {
    if (typeof x !== 'object' || x === null || !(#bytes in x) || x.#name !== kind) {
      throw new TypeError(`${name} must be a ${kind} state (from ${kind}_init), got ${describe(x)}`)
    }
    if (x.#finalized) throw new Error(`${name}: this ${kind} state was finalized; start a new one with ${kind}_init`)
    return x.#bytes
  }

  static raw (x) { return x.#bytes }
  static finalize (x) { x.#finalized = true }
}

// One scratch area per slot (a call uses distinct slots for its inputs and outputs), each with a
// cached view per length so the hot path allocates nothing but the result.
function scratchSlots (count) {
  const slots = []
  for (let i = 0; i < count; i++) {
    const buffer = new ArrayBuffer(SMALL)
    const views = []
    for (let n = 0; n <= SMALL; n++) views.push(new U8(buffer, 0, n))
    slots.push(views)
  }
  return slots
}

// How the main API hands bytes to the backend: by what the backend does with them.
function mainIO (backend) {
  return backend.capabilities.copiesArguments ? copyingIO(backend.newOutput) : inPlaceIO()
}

// For a backend that copies every argument (WebAssembly): inputs as they are, and each result
// allocated by the backend (newOutput) and written once, since nothing is gained by keeping the
// bytes off the JavaScript heap.
function copyingIO (newOutput) {
  const slots = scratchSlots(SLOTS)
  function otherInput (x, slot, name) {
    if (isUint8Array(x)) return readable(x, name) // empty
    // a short string is written into its slot's scratch (at most 3 bytes per UTF-16 unit; one
    // slot per argument, as two strings of one call are both read by it), which the call copies
    // before anything else can use it: no new ArrayBuffer per call
    if (typeof x === 'string') {
      return x.length * 3 > SMALL ? utf8(x) : slots[slot][encodeInto(encoder, x, slots[slot][SMALL]).written]
    }
    throw inputTypeError(name, x)
  }
  return {
    target: (n, slot) => newOutput(n),
    take: (t) => t,
    takeAs (t, code) {
      return encode(t, code)
    },
    input: (x, slot, name) => isUint8Array(x) && typedArrayByteLength(x) !== 0 ? x : otherInput(x, slot, name)
  }
}

// For a backend whose C works on the caller's arrays where they are (native): see "Allocation"
// at the top.
function inPlaceIO () {
  const slots = scratchSlots(SLOTS)
  // The last small input each slot saw: an input seen twice in a row (a key, a fixed nonce) is
  // passed as it is (V8 moves it off the heap once, then never again), a new one is copied.
  const last = new Array(SLOTS).fill(null)
  // a short string is written into the slot's scratch (at most 3 bytes per UTF-16 unit): no new
  // ArrayBuffer per call
  function stringInput (x, slot) {
    if (x.length * 3 > SMALL) return utf8(x)
    last[slot] = null
    return slots[slot][encodeInto(encoder, x, slots[slot][SMALL]).written]
  }
  return {
    // a buffer the raw function writes n bytes into
    target (n, slot) {
      return n <= SMALL ? slots[slot][n] : new U8(n)
    },
    // the caller's result from a target: a copy of a scratch view, else the target itself
    take (t) {
      return t.length <= SMALL ? new U8(t) : t
    },
    takeAs (t, code) {
      return encode(t, code)
    },
    // input bytes the raw function can read without forcing V8 to move them on every call
    input (x, slot, name) {
      if (isUint8Array(x)) {
        const n = typedArrayByteLength(x)
        if (n === 0) return readable(x, name)
        if (n > SMALL || x === last[slot]) return x
        last[slot] = x
        const v = slots[slot][n]
        u8Set(v, x)
        return v
      }
      if (typeof x === 'string') return stringInput(x, slot)
      throw inputTypeError(name, x)
    }
  }
}

module.exports = {
  codecs,
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
  lengthOf,
  readable,
  numberOf,
  describe,
  isRefusal,
  inputTypeError,
  lengthError,
  StateAddress,
  mainIO
}

'use strict'
// Byte <-> string conversions the surfaces need, in plain JavaScript so that they run wherever
// WebAssembly does (browsers, workers, Deno, Bun, workerd): no Buffer. Hex and base64 as
// libsodium-wrappers writes them (hex lowercase); UTF-8 through TextEncoder; Latin-1 byte for byte
// (TextDecoder's 'latin1' is windows-1252, which maps 0x80-0x9f elsewhere, so it is not used).
// The built-ins are captured at load, as in lib/intrinsics.js.
const { typedArrayByteLength, U8 } = require('./intrinsics')

const encoder = new TextEncoder()
const encodeInto = Function.prototype.call.bind(TextEncoder.prototype.encode)
const fromCharCode = String.fromCharCode
const apply = Function.prototype.call.bind(Function.prototype.apply)

// A string as UTF-8 bytes (lone surrogates become U+FFFD, as Buffer.from(s, 'utf8') does).
const utf8 = (s) => encodeInto(encoder, s)

const HEX = []
for (let i = 0; i < 256; i++) HEX.push((i < 16 ? '0' : '') + i.toString(16))

// Strings are built a chunk at a time: one piece per byte would make a deep rope for large inputs.
const CHUNK = 8192

function hex (bytes) {
  const n = typedArrayByteLength(bytes)
  let out = ''
  for (let start = 0; start < n; start += CHUNK) {
    const end = start + CHUNK < n ? start + CHUNK : n
    let s = ''
    for (let i = start; i < end; i++) s += HEX[bytes[i]]
    out += s
  }
  return out
}

const STANDARD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const URLSAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
// Pairs of digits: 12 bits of input at a time.
function pairs (alphabet) {
  const t = []
  for (let i = 0; i < 4096; i++) t.push(alphabet[i >> 6] + alphabet[i & 63])
  return t
}
const STANDARD_PAIRS = pairs(STANDARD)
const URLSAFE_PAIRS = pairs(URLSAFE)

// base64 of bytes: urlsafe selects the alphabet, padded the trailing '='.
function base64 (bytes, urlsafe, padded) {
  const n = typedArrayByteLength(bytes)
  const P = urlsafe ? URLSAFE_PAIRS : STANDARD_PAIRS
  const A = urlsafe ? URLSAFE : STANDARD
  const whole = n - n % 3
  let out = ''
  for (let start = 0; start < whole; start += CHUNK * 3) {
    const end = start + CHUNK * 3 < whole ? start + CHUNK * 3 : whole
    let s = ''
    for (let i = start; i < end; i += 3) {
      const v = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2]
      s += P[v >> 12] + P[v & 4095]
    }
    out += s
  }
  if (n - whole === 1) {
    const v = bytes[whole]
    out += A[v >> 2] + A[(v & 3) << 4] + (padded ? '==' : '')
  } else if (n - whole === 2) {
    const v = (bytes[whole] << 8) | bytes[whole + 1]
    out += A[v >> 10] + A[(v >> 4) & 63] + A[(v & 15) << 2] + (padded ? '=' : '')
  }
  return out
}

// The first n bytes of bytes, one character each (U+0000-U+00FF).
function latin1 (bytes, n) {
  let out = ''
  for (let start = 0; start < n; start += CHUNK) {
    const end = start + CHUNK < n ? start + CHUNK : n
    out += apply(fromCharCode, null, new U8(bytes.buffer, bytes.byteOffset + start, end - start))
  }
  return out
}

module.exports = { utf8, hex, base64, latin1 }

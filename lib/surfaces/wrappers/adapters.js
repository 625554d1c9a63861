'use strict'
// The main-API functions with no single raw counterpart of the same shape: libsodium-wrappers'
// helpers (codecs, comparisons, padding), functions that take or return strings, and the few
// places where its conditions differ from the raw layer's.
const { codecs: { utf8 }, formatCode, encode, encodeAs, bytesOf, lengthOf, readable, isRefusal, numberOf, describe, inputTypeError, lengthError, FORMATS } = require('./io')
const { isUint8Array, typedArrayBuffer, typedArrayByteOffset, u8Set, u8Fill, U8 } = require('../../intrinsics')

const BASE64_VARIANTS = Object.freeze({ ORIGINAL: 1, ORIGINAL_NO_PADDING: 3, URLSAFE: 5, URLSAFE_NO_PADDING: 7 })
const textEncoder = new TextEncoder()
const utf8Decoder = new TextDecoder('utf-8', { fatal: true })
const U64_MAX = (1n << 64n) - 1n
const HEX_DIGIT = new U8(256)
for (const c of '0123456789abcdefABCDEF') HEX_DIGIT[c.charCodeAt(0)] = 1

// The common length of two Uint8Arrays (read from their internal slots, not `length`).
function sameLengthUint8Arrays (a, b, what, [nameA, nameB] = ['b1', 'b2']) {
  if (!isUint8Array(a) || !isUint8Array(b)) {
    throw new TypeError(`${what}: both arguments must be Uint8Arrays, got ${describe(a)} and ${describe(b)}`)
  }
  readable(a, nameA)
  readable(b, nameB)
  const n = lengthOf(a)
  if (n !== lengthOf(b)) throw new TypeError(`${what}: both arguments must have the same length (got ${n} and ${lengthOf(b)})`)
  return n
}

// The length of a Uint8Array argument.
function uint8Array (x, name) {
  if (!isUint8Array(x)) throw new TypeError(`${name} must be a Uint8Array, got ${describe(x)}`)
  return lengthOf(readable(x, name))
}

function base64Variant (variant) {
  if (variant === undefined) return BASE64_VARIANTS.URLSAFE_NO_PADDING
  if (variant !== 1 && variant !== 3 && variant !== 5 && variant !== 7) {
    throw new Error(`variant must be one of base64_variants' values (1, 3, 5, 7), got ${variant}`)
  }
  return variant
}

// A hash string in the STRBYTES buffer the raw verify functions take (NUL-terminated), or null
// when it cannot fit and so cannot be one libsodium wrote.
function hashString (s, size) {
  if (typeof s !== 'string') throw new TypeError(`hashed_password must be a string, got ${describe(s)}`)
  const bytes = utf8(s)
  if (bytes.length >= size) return null
  const buf = new U8(size)
  u8Set(buf, bytes)
  return buf
}

module.exports = function adapters (api, binding, io, built) {
  // --- codecs -----------------------------------------------------------------------------------
  api.to_hex = function to_hex (input) {
    if (input === null || input === undefined) throw inputTypeError('input', input)
    return encode(bytesOf(input, 'input'), 2)
  }

  api.from_hex = function from_hex (input) {
    if (input === null || input === undefined) throw inputTypeError('input', input)
    const hex = io.input(input, 2, 'input')
    const bin = io.target(lengthOf(hex) >>> 1, 0)
    let n
    try {
      n = binding.sodium_hex2bin(bin, hex, null)
    } catch (err) {
      // libsodium stops at the first non-digit: an odd number of digits before it is invalid,
      // an even number leaves the input incomplete (libsodium-wrappers' two messages)
      let i = 0
      const n = lengthOf(hex)
      while (i < n && HEX_DIGIT[hex[i]] === 1) i++
      throw new Error(i % 2 === 1 || i === n ? 'invalid input' : 'incomplete input', { cause: err })
    }
    return n === lengthOf(bin) ? io.take(bin) : bin.slice(0, n)
  }

  api.to_base64 = function to_base64 (input, variant) {
    variant = base64Variant(variant)
    if (input === null || input === undefined) throw inputTypeError('input', input)
    const urlsafe = (variant & 4) !== 0
    const padded = (variant & 2) === 0
    let s = encodeAs(bytesOf(input, 'input'), urlsafe ? 'base64url' : 'base64')
    if (urlsafe && padded) s += '='.repeat((4 - (s.length & 3)) & 3)
    else if (!urlsafe && !padded) s = s.replace(/=+$/, '')
    return s
  }

  api.from_base64 = function from_base64 (input, variant) {
    variant = base64Variant(variant)
    if (input === null || input === undefined) throw inputTypeError('input', input)
    const b64 = io.input(input, 2, 'input')
    const bin = io.target(Math.floor(lengthOf(b64) * 3 / 4), 0)
    let n
    try {
      n = binding.sodium_base642bin(bin, b64, null, variant)
    } catch (err) {
      throw new Error('invalid input', { cause: err })
    }
    return n === lengthOf(bin) ? io.take(bin) : bin.slice(0, n)
  }

  api.from_string = function from_string (str) {
    return textEncoder.encode(str)
  }

  api.to_string = function to_string (bytes) {
    return utf8Decoder.decode(bytes)
  }

  // --- comparisons and arithmetic (constant time in the bytes' values, as in libsodium-wrappers) ---
  api.memcmp = function memcmp (b1, b2) {
    const n = sameLengthUint8Arrays(b1, b2, 'memcmp')
    let d = 0
    for (let i = 0; i < n; i++) d |= b1[i] ^ b2[i]
    return d === 0
  }

  // -1, 0 or 1 comparing b1 and b2 as little-endian numbers
  api.compare = function compare (b1, b2) {
    const n = sameLengthUint8Arrays(b1, b2, 'compare')
    let gt = 0
    let eq = 1
    for (let i = n; i-- > 0;) {
      gt |= ((b2[i] - b1[i]) >> 8) & eq
      eq &= ((b2[i] ^ b1[i]) - 1) >> 8
    }
    return gt + gt + eq - 1
  }

  api.increment = function increment (bytes) {
    const n = uint8Array(bytes, 'bytes')
    let c = 1
    for (let i = 0; i < n; i++) {
      c += bytes[i]
      bytes[i] = c & 0xff
      c >>= 8
    }
  }

  api.add = function add (a, b) {
    const n = sameLengthUint8Arrays(a, b, 'add', ['a', 'b'])
    let c = 0
    for (let i = 0; i < n; i++) {
      c += a[i] + b[i]
      a[i] = c & 0xff
      c >>= 8
    }
  }

  api.is_zero = function is_zero (bytes) {
    const n = uint8Array(bytes, 'bytes')
    let d = 0
    for (let i = 0; i < n; i++) d |= bytes[i]
    return d === 0
  }

  api.memzero = function memzero (bytes) {
    uint8Array(bytes, 'bytes')
    u8Fill(bytes, 0)
  }

  // ISO/IEC 7816-4 padding through libsodium's sodium_pad/sodium_unpad. blocksize is coerced to
  // an integer as libsodium-wrappers does (`blocksize | 0`).
  api.pad = function pad (buf, blocksize) {
    const n = uint8Array(buf, 'buf')
    blocksize |= 0
    if (blocksize <= 0) throw new Error(`blocksize must be > 0 (got ${blocksize})`)
    const out = io.target(n - (n % blocksize) + blocksize, 0)
    u8Set(out, buf)
    binding.sodium_pad(out, n, blocksize)
    return io.take(out)
  }

  api.unpad = function unpad (buf, blocksize) {
    uint8Array(buf, 'buf')
    blocksize |= 0
    if (blocksize <= 0) throw new Error(`blocksize must be > 0 (got ${blocksize})`)
    const v = io.input(buf, 2, 'buf')
    let n
    try {
      n = binding.sodium_unpad(v, lengthOf(v), blocksize)
    } catch (err) {
      if (isRefusal(err)) throw new Error('unsupported/invalid padding', { cause: err })
      throw err
    }
    const out = new U8(n) // a copy, never a view
    u8Set(out, new U8(typedArrayBuffer(buf), typedArrayByteOffset(buf), n))
    return out
  }

  // --- strings in, strings out ------------------------------------------------------------------
  api.sodium_ip2bin = function sodium_ip2bin (ip, outputFormat) {
    formatCode(outputFormat)
    if (typeof ip !== 'string') throw new TypeError(`ip must be a string, got ${describe(ip)}`)
    return built('sodium_ip2bin')(ip, outputFormat)
  }

  for (const p of ['crypto_pwhash', 'crypto_pwhash_scryptsalsa208sha256']) {
    const size = binding[`${p}_STRBYTES`]
    const rawVerify = `${p}_str_verify` // read at the call: the wasm backend compiles a family on first read
    const verify = (str, pw) => binding[rawVerify](str, pw)
    const needsRehash = `${p}_str_needs_rehash`
    api[`${p}_str_verify`] = {
      [`${p}_str_verify`] (hashedPassword, password, outputFormat) {
        formatCode(outputFormat)
        const str = hashString(hashedPassword, size)
        if (password === null || password === undefined) throw inputTypeError('password', password)
        const pw = bytesOf(password, 'password')
        if (str === null) return false
        try {
          return verify(str, pw)
        } catch (err) {
          if (isRefusal(err)) return false
          throw err
        }
      }
    }[`${p}_str_verify`]
    api[`${p}_str_needs_rehash`] = {
      [`${p}_str_needs_rehash`] (hashedPassword, opsLimit, memLimit, outputFormat) {
        formatCode(outputFormat)
        // a string too long to be libsodium's is invalid: the zero buffer answers true
        return built(needsRehash)(hashString(hashedPassword, size) || new U8(size), opsLimit, memLimit)
      }
    }[`${p}_str_needs_rehash`]
  }

  // --- crypto_kdf_derive_from_key: a string context, and a 64-bit id as a number or a BigInt ----
  const kdfContextBytes = binding.crypto_kdf_CONTEXTBYTES
  api.crypto_kdf_derive_from_key = function crypto_kdf_derive_from_key (subkeyLen, subkeyId, ctx, key, outputFormat) {
    const code = formatCode(outputFormat)
    numberOf(subkeyLen, 'subkey_len', binding.crypto_kdf_BYTES_MIN, binding.crypto_kdf_BYTES_MAX)
    let id = subkeyId
    if (typeof id === 'bigint') {
      if (id < 0n || id > U64_MAX) throw new RangeError(`subkey_id must be between 0 and 2^64 - 1 (got ${id})`)
    } else {
      numberOf(id, 'subkey_id', 0, Number.MAX_SAFE_INTEGER)
      id = BigInt(id)
    }
    if (typeof ctx !== 'string') throw new TypeError(`ctx must be a string, got ${describe(ctx)}`)
    const ctxBytes = utf8(ctx)
    if (ctxBytes.length !== kdfContextBytes) throw lengthError('ctx', `crypto_kdf_CONTEXTBYTES (${kdfContextBytes})`, ctxBytes.length)
    if (key === null || key === undefined) throw inputTypeError('key', key)
    const k = bytesOf(key, 'key')
    if (lengthOf(k) !== binding.crypto_kdf_KEYBYTES) throw lengthError('key', `crypto_kdf_KEYBYTES (${binding.crypto_kdf_KEYBYTES})`, lengthOf(k))
    // libsodium's crypto_kdf_blake2b_derive_from_key: BLAKE2b keyed with key, salt = the id as
    // 64-bit little endian then zeros, personal = ctx then zeros. Written out so ids beyond
    // 2^53 (a BigInt) stay exact; the raw crypto_kdf_derive_from_key takes a double.
    const salt = new U8(16)
    new DataView(salt.buffer).setBigUint64(0, id, true)
    const personal = new U8(16)
    personal.set(ctxBytes)
    return built('crypto_generichash_blake2b_salt_personal')(subkeyLen, k, salt, personal, FORMATS[code])
  }

  // --- libsodium-wrappers' refusals the raw layer does not make ----------------------------------
  // libsodium refuses to invert the all-zero scalar for Ed25519 too; the raw binding follows
  // sodium-native there and writes zero.
  api.crypto_core_ed25519_scalar_invert = function crypto_core_ed25519_scalar_invert (s, outputFormat) {
    const r = built('crypto_core_ed25519_scalar_invert')(s, outputFormat)
    if (api.is_zero(bytesOf(s, 's'))) throw new Error('invalid reciprocate')
    return r
  }

  // --- the rest of libsodium-wrappers' surface ----------------------------------------------------
  api.randombytes_stir = function randombytes_stir (outputFormat) {
    formatCode(outputFormat) // natrium's randombytes reads the OS generator: nothing to reseed
  }
  api.randombytes_close = function randombytes_close (outputFormat) {
    formatCode(outputFormat) // and keeps no descriptor open
  }
  api.sodium_version_string = function sodium_version_string () {
    return binding.SODIUM_VERSION_STRING
  }
  api.crypto_kem_primitive = function crypto_kem_primitive () {
    return binding.crypto_kem_PRIMITIVE
  }
  api.output_formats = function output_formats () {
    return FORMATS.slice()
  }
  api.symbols = function symbols () {
    return Object.keys(api).sort()
  }
  api.base64_variants = BASE64_VARIANTS
  return api
}

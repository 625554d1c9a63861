'use strict'
// The WebAssembly backend: lib/natrium.wasm is the same C as the native addon (the family files
// compiled against src/wasm.c instead of Node-API). This file exports the same binding object:
// every function by its libsodium name, and every constant.
//
// One call: each argument is classified into a slot in linear memory (TypedArray, number, null,
// undefined, detached, other); TypedArrays are copied into one reusable scratch area, where
// arguments that share bytes of one ArrayBuffer become ONE copy of the union of their ranges, so
// the C's overlap checks and in-place operations see what they see on native. The C does every
// check and writes the result or the error into slots; buffers it marked as written (OUT, STATE)
// are copied back, the scratch is wiped, then the result is returned or the error thrown.
const fs = require('fs')
const path = require('path')

const webcrypto = globalThis.crypto && globalThis.crypto.getRandomValues ? globalThis.crypto : require('crypto').webcrypto

const wasmModule = new WebAssembly.Module(fs.readFileSync(path.join(__dirname, '..', 'natrium.wasm')))

// Slot layout and kinds: see src/wasm.c.
const SLOT_BYTES = 24
const UNDEFINED = 0
const NULL = 1
const NUMBER = 2
const BOOL = 3
const TYPEDARRAY = 4
const DETACHED = 5
const OTHER = 6
const ERRORS = [null, TypeError, RangeError, Error]

let memory = null

// WASI, as much as libsodium uses: random bytes, and stubs for stdio it never reaches in practice.
const ERRNO_BADF = 8
const ERRNO_NOSYS = 52
const WASI = {
  random_get (ptr, len) {
    // getRandomValues takes at most 64 KiB per call
    for (let i = 0; i < len; i += 65536) {
      webcrypto.getRandomValues(new Uint8Array(memory.buffer, ptr + i, Math.min(65536, len - i)))
    }
    return 0
  },
  fd_write: () => ERRNO_BADF,
  fd_seek: () => ERRNO_BADF,
  fd_close: () => ERRNO_BADF,
  poll_oneoff: () => ERRNO_NOSYS
}

const imports = {}
for (const { module, name } of WebAssembly.Module.imports(wasmModule)) {
  if (module !== 'wasi_snapshot_preview1' || !WASI[name]) throw new Error(`natrium.wasm imports ${module}.${name}, which the glue does not provide`)
  imports[module] = imports[module] || {}
  imports[module][name] = WASI[name]
}
const wasm = new WebAssembly.Instance(wasmModule, imports).exports
memory = wasm.memory
wasm._initialize()
if (wasm.nat_init() !== 0) throw new Error('natrium.wasm: sodium_init() failed')

// Views on linear memory, recreated whenever it has grown (growth detaches the old buffer, and
// views on a detached buffer have length 0).
let u8, u32, f64
function views () {
  u8 = new Uint8Array(memory.buffer)
  u32 = new Uint32Array(memory.buffer)
  f64 = new Float64Array(memory.buffer)
}
views()

const utf8 = new TextDecoder()
function cString (ptr) {
  const end = u8.indexOf(0, ptr)
  return utf8.decode(u8.subarray(ptr, end))
}

const MAX_ARGS = wasm.nat_max_args()
const ARGS = wasm.nat_args_address() >>> 2 // u32 index of slot 0; a slot is 6 u32s
const RESULT = wasm.nat_result_address() >>> 2
const ERROR = wasm.nat_error_address() >>> 2

// The brand checks and accessors of %TypedArray%, so that subclasses and look-alikes cannot lie.
const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype)
const getter = (name) => Object.getOwnPropertyDescriptor(TypedArrayPrototype, name).get
const typedArrayTag = getter(Symbol.toStringTag) // undefined for anything but a TypedArray
const typedArrayBuffer = getter('buffer')
const typedArrayByteOffset = getter('byteOffset')
const typedArrayByteLength = getter('byteLength')

// A detached buffer reads as length 0 and cannot be wrapped (Node 20 has no .detached).
function isDetached (view) {
  try {
    new Uint8Array(typedArrayBuffer.call(view)) // eslint-disable-line no-new
    return false
  } catch {
    return true
  }
}

// Per-call state, preallocated: the arguments, then the TypedArrays among them (t) and the
// regions they are copied to (g: one per set of overlapping ranges of one ArrayBuffer).
const argv = new Array(MAX_ARGS).fill(undefined)
const tView = new Array(MAX_ARGS).fill(null)
const tSlot = new Int32Array(MAX_ARGS)
const tOffset = new Float64Array(MAX_ARGS)
const tLength = new Float64Array(MAX_ARGS)
const tRegion = new Int32Array(MAX_ARGS)
const gBuffer = new Array(MAX_ARGS).fill(null)
const gStart = new Float64Array(MAX_ARGS)
const gEnd = new Float64Array(MAX_ARGS)
const gPtr = new Float64Array(MAX_ARGS)
const gOut = new Uint8Array(MAX_ARGS)

let scratch = 0
let scratchSize = 0

function reserve (size) {
  if (size <= scratchSize) return
  if (scratch) wasm.free(scratch)
  scratchSize = Math.max(size, scratchSize * 2, 65536)
  scratch = wasm.malloc(scratchSize)
  if (scratch === 0) {
    scratchSize = 0
    throw new RangeError('natrium.wasm: out of memory')
  }
  if (u8.length === 0) views()
}

// Merge region r into region into (both of one ArrayBuffer, overlapping).
function mergeRegion (into, r, nt) {
  if (gStart[r] < gStart[into]) gStart[into] = gStart[r]
  if (gEnd[r] > gEnd[into]) gEnd[into] = gEnd[r]
  gBuffer[r] = null
  for (let t = 0; t < nt; t++) if (tRegion[t] === r) tRegion[t] = into
}

function invoke (index, argc) {
  if (argc > MAX_ARGS) argc = MAX_ARGS
  // 1. classify every argument into its slot; list the TypedArrays and group overlapping ones
  let nt = 0
  let ng = 0
  for (let i = 0; i < argc; i++) {
    const v = argv[i]
    const s = ARGS + i * 6
    if (v === null) u32[s] = NULL
    else if (v === undefined) u32[s] = UNDEFINED
    else if (typeof v === 'number') {
      u32[s] = NUMBER
      f64[(s >>> 1) + 2] = v
    } else if (typedArrayTag.call(v) === undefined) u32[s] = OTHER
    else {
      const length = typedArrayByteLength.call(v)
      if (length === 0 && isDetached(v)) {
        u32[s] = DETACHED
        continue
      }
      u32[s] = TYPEDARRAY
      const buffer = typedArrayBuffer.call(v)
      const start = typedArrayByteOffset.call(v)
      const end = start + length
      let region = -1
      if (length !== 0) {
        for (let r = 0; r < ng; r++) {
          if (gBuffer[r] !== buffer || start >= gEnd[r] || gStart[r] >= end) continue
          if (region === -1) {
            region = r
            if (start < gStart[r]) gStart[r] = start
            if (end > gEnd[r]) gEnd[r] = end
          } else {
            mergeRegion(region, r, nt) // v bridges two regions
          }
        }
      }
      if (region === -1) {
        region = ng++
        gBuffer[region] = buffer
        gStart[region] = start
        gEnd[region] = end
      }
      tView[nt] = v
      tSlot[nt] = s
      tOffset[nt] = start
      tLength[nt] = length
      tRegion[nt] = region
      nt++
    }
  }

  // 2. place the regions in the scratch area (16-byte aligned) and copy the bytes in
  let size = 0
  for (let r = 0; r < ng; r++) {
    if (gBuffer[r] === null) continue // merged into another
    gPtr[r] = size
    size += (gEnd[r] - gStart[r] + 15) & ~15
  }
  reserve(size || 16)
  for (let r = 0; r < ng; r++) {
    gOut[r] = 0
    if (gBuffer[r] === null) continue
    gPtr[r] += scratch
  }
  for (let t = 0; t < nt; t++) {
    const r = tRegion[t]
    const s = tSlot[t]
    u32[s + 2] = gPtr[r] + (tOffset[t] - gStart[r])
    u32[s + 3] = tLength[t]
  }
  for (let r = 0; r < ng; r++) {
    if (gBuffer[r] === null) continue
    u8.set(regionBytes(r, nt), gPtr[r])
  }

  // 3. call, then copy back what the C marked as written, whether it threw or not (a failed
  // open must still zero its output)
  const failed = wasm.nat_call(index, argc)
  if (u8.length === 0) views()
  for (let t = 0; t < nt; t++) if (u32[tSlot[t] + 1] !== 0) gOut[tRegion[t]] = 1
  for (let r = 0; r < ng; r++) {
    if (gOut[r] === 0 || gBuffer[r] === null) continue
    regionBytes(r, nt).set(u8.subarray(gPtr[r], gPtr[r] + (gEnd[r] - gStart[r])))
  }
  u8.fill(0, scratch, scratch + size) // no copies of keys or messages outlive the call
  for (let i = 0; i < argc; i++) argv[i] = undefined
  for (let t = 0; t < nt; t++) tView[t] = null
  for (let r = 0; r < ng; r++) gBuffer[r] = null

  if (failed !== 0) {
    const Type = ERRORS[u32[ERROR]] || Error
    throw new Type(cString((ERROR + 1) << 2))
  }
  const kind = u32[RESULT]
  if (kind === NUMBER) return f64[(RESULT >>> 1) + 2]
  if (kind === BOOL) return f64[(RESULT >>> 1) + 2] !== 0
  return undefined
}

// The bytes of region r as a Uint8Array: the argument itself when it is the region's only byte
// view, else a new view of the union range.
function regionBytes (r, nt) {
  let only = null
  for (let t = 0; t < nt; t++) {
    if (tRegion[t] !== r) continue
    if (only !== null) { only = null; break }
    only = tView[t]
  }
  if (only !== null && only instanceof Uint8Array) return only
  return new Uint8Array(gBuffer[r], gStart[r], gEnd[r] - gStart[r])
}

// One wrapper per function, made once: up to MAX_ARGS (10) positional arguments, no rest array.
function wrap (index, name) {
  const fn = function (a0, a1, a2, a3, a4, a5, a6, a7, a8, a9) {
    argv[0] = a0; argv[1] = a1; argv[2] = a2; argv[3] = a3; argv[4] = a4
    argv[5] = a5; argv[6] = a6; argv[7] = a7; argv[8] = a8; argv[9] = a9
    return invoke(index, arguments.length)
  }
  Object.defineProperty(fn, 'name', { value: name })
  return fn
}

if (MAX_ARGS !== 10) throw new Error('natrium.wasm: the glue passes 10 arguments, the module expects ' + MAX_ARGS)

const binding = {}
for (let i = 0, n = wasm.nat_function_count(); i < n; i++) {
  const name = cString(wasm.nat_function_name(i))
  binding[name] = wrap(i, name)
}
for (let i = 0, n = wasm.nat_constant_count(); i < n; i++) {
  const name = cString(wasm.nat_constant_name(i))
  const string = wasm.nat_constant_string(i)
  binding[name] = string !== 0 ? cString(string) : wasm.nat_constant_number(i)
}

module.exports = binding

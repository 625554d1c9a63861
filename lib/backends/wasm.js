'use strict'
// The WebAssembly backend: lib/natrium.wasm is the same C as the native addon (the family files
// compiled against src/wasm.c instead of Node-API). This file exports wasmBackend(options), which
// makes a backend of the same shape as lib/backends/native.js: a binding with every function by its
// libsodium name and every constant, the guarded-memory functions, the capabilities. It is the one
// glue of every runtime: Node's loader (lib/loader.js) gives it the file's bytes and node:crypto,
// the ES module build (lib/esm, scripts/build-esm.js) embedded bytes or an imported Module and
// globalThis.crypto.
//
// Every function is a plain named function, generated from the symbol table into
// wasm-functions/<family>.js: the common call (non-empty Uint8Arrays, numbers and nulls where the table has
// them, no output sharing bytes with another argument) is written straight into the module's
// slots and scratch area, outputs the C writes whole are not copied in (they are copied back only
// when the call succeeded or libsodium refused, which wipes them), and only outputs the C marked
// as written are copied back. Every other call takes the generic path below (`invoke`), which
// handles them all; the C makes every check on either path, so both answer the same.
//
// The generic path: each argument is classified into a slot in linear memory (TypedArray or DataView,
// number, null, undefined, detached, other); TypedArrays are copied into one reusable scratch area, where
// arguments that share bytes of one ArrayBuffer become ONE copy of the union of their ranges, so
// the C's overlap checks and in-place operations see what they see on native. The C does every
// check and writes the result or the error into slots; buffers it marked as written (OUT, STATE)
// are copied back, the scratch is wiped, then the result is returned or the error thrown.
//
// Misuse: a call never runs code of the caller's (arguments are read through the built-ins
// captured in lib/intrinsics.js, so getters, Proxy traps and patched prototypes are not reached);
// a call made while another is running (from a random source the caller replaced) is refused;
// argument sets too large for linear memory are refused before anything is allocated; and
// every failure leaves the per-call state as it was.
//
// The bindings the per-call code reads are vars and function declarations, not consts, lets or
// arrows: V8 checks a let or const that a closure captures for its temporal dead zone at every
// use, which costs a compare and branch each time and bytes that count against how much V8
// inlines into one optimised function (the generated functions, and the main API's over them).
/* eslint-disable no-var */
var {
  typedArrayName, typedArrayBuffer, typedArrayByteOffset, typedArrayByteLength, dataViewBuffer,
  dataViewByteOffset, dataViewByteLength, isView, isUint8Array, emptyViewState, u8Set, u8Fill, u8Subarray,
  u8IndexOf, U8, viewArg, viewBuffer, unreadable
} = require('../intrinsics')
const { lazyAll } = require('../lazy')
const { family: familyOf, load: loadFamily } = require('./wasm-functions/index')

// Slot layout and kinds: see src/wasm.h. A slot is 6 u32s: kind, output, data, len, number (f64).
var UNDEFINED = 0
var NULL = 1
var NUMBER = 2
var BOOL = 3
var TYPEDARRAY = 4
var DETACHED = 5
var OTHER = 6
var PROMISE = 7
var OUT_OF_BOUNDS = 8
const ERRORS = [null, TypeError, RangeError, Error, Error]
// nat_call's flags (WIPE_INPUTS: the fast path's buffers are copies of their own, and the C wipes
// those it did not mark as outputs) and answer bits (FAILED: the error slot is set; GREW: linear
// memory grew, so views of it must be made again)
var WIPE_INPUTS = 1
var FAILED = 1
var GREW = 2
var REFUSED = 4 // an Error whose code says libsodium refused (src/nat.h NAT_REFUSED_CODE)
const REFUSED_CODE = 'ERR_NATRIUM_REFUSED'
function refused (message) {
  const err = new Error(message)
  err.code = REFUSED_CODE
  return err
}

const ERRNO_BADF = 8
const ERRNO_NOSYS = 52
const CAPABILITIES = Object.freeze({
  guardedMemory: false, // sodium_malloc gives an ordinary buffer: no pages to guard or lock
  asyncOffThread: false, // *_async run the C during the call and return a settled Promise
  // every call copies its arguments into linear memory and its outputs back: passing a small
  // array the JavaScript heap holds costs nothing more (newOutput's arrays least of all)
  copiesArguments: true
})

const toUint8Array = (ab) => new U8(ab)
const defaultRandom = () => globalThis.crypto

function randomSource (random) {
  const s = random()
  if (!s || typeof s.getRandomValues !== 'function') {
    throw new Error('natrium.wasm: no random source (globalThis.crypto.getRandomValues is missing)')
  }
  return s
}

// wasmBackend({ module, random, wrap, generic, file }) instantiates the module and returns the backend:
//   module   a WebAssembly.Module of natrium.wasm, or its bytes (then compiled synchronously here)
//   random   () => an object with getRandomValues (Web Crypto's shape), called once, on the first
//            draw (the first call); by default globalThis.crypto
//   wrap     (ArrayBuffer) => the view sodium_malloc hands back (default: a Uint8Array; the Node
//            entry gives a Buffer, as sodium-native does)
//   generic  true: every call takes the generic path (tests)
//   file     where the module came from, for diagnostics
// The result has the shape of every backend (see lib/backends/native.js): { name, binding, memory,
// capabilities, newOutput, file }. Nothing here touches fs, path, process, Buffer or require('crypto'), and
// nothing draws random bytes, starts a timer or does I/O before the first call.
function wasmBackend ({ module: source, random = defaultRandom, wrap = toUint8Array, generic = false, file = null } = {}) {
  const wasmModule = source instanceof WebAssembly.Module ? source : new WebAssembly.Module(source)
  // WASI, as much as libsodium uses: random bytes, and stubs for stdio it never reaches in practice.
  // The random source is looked up on first use (the first call, whose sodium_init() draws from it),
  // never at load: workerd refuses random bytes in global scope, and in Node globalThis.crypto loads
  // the Web Crypto module then, 5-8 ms and 0.8 MB of heap.
  let rng = null
  const wasi = {
    random_get (ptr, len) {
      if (rng === null) rng = randomSource(random)
      // getRandomValues takes at most 64 KiB per call
      for (let i = 0; i < len; i += 65536) {
        rng.getRandomValues(new U8(memory.buffer, ptr + i, len - i < 65536 ? len - i : 65536))
      }
      return 0
    },
    fd_write: () => ERRNO_BADF,
    fd_seek: () => ERRNO_BADF,
    fd_close: () => ERRNO_BADF,
    poll_oneoff: () => ERRNO_NOSYS,
    // CLOCK_MONOTONIC for the one thing the C times (which BLAKE2b kernel is faster here:
    // src/crypto/blake2b_dispatch.c), in nanoseconds; without performance.now, no clock
    clock_time_get (id, precision, ptr) {
      if (typeof performance === 'undefined' || typeof performance.now !== 'function') return ERRNO_NOSYS
      new DataView(memory.buffer).setBigUint64(ptr, BigInt(Math.round(performance.now() * 1e6)), true)
      return 0
    }
  }

  const imports = {}
  for (const { module, name } of WebAssembly.Module.imports(wasmModule)) {
    if (module !== 'wasi_snapshot_preview1' || !wasi[name]) throw new Error(`natrium.wasm imports ${module}.${name}, which the glue does not provide`)
    imports[module] = imports[module] || {}
    imports[module][name] = wasi[name]
  }

  var wasm, memory, natCall
  var u8, u32, f64
  var outView = null // views of the scratch area that outputs are copied from (copyRegion)
  var scratch = 0 // the reusable area arguments are copied to (malloc'd, grown on demand)
  var scratchSize = 0
  // The state the generated functions (wasm-functions/<family>.js) read: scratch area, its size,
  // whether a call is running, the views of linear memory and where the argument slots are.
  var M = { scratch: 0, size: 0, busy: false, u8: null, u32: null, f64: null, args: 0 }

  // A fresh instance: at load, and after a trap (libsodium's abort() on misuse, which would end a
  // native process) left the old one in an unknown state.
  function instantiate () {
    const exports = new WebAssembly.Instance(wasmModule, imports).exports
    memory = exports.memory // random_get, called by sodium_init on the first nat_call, writes to it
    exports._initialize()
    if (exports.nat_init() !== 0) throw new Error('natrium.wasm: nat_init() failed')
    wasm = exports
    natCall = exports.nat_call // read once: the exports object's properties are not fast to load
    scratch = M.scratch = 0
    scratchSize = M.size = 0
    views()
  }

  // Views on linear memory, recreated whenever it has grown (growth detaches the old buffer, and
  // views on a detached buffer have length 0).
  function views () {
    u8 = new U8(memory.buffer)
    u32 = new Uint32Array(memory.buffer)
    f64 = new Float64Array(memory.buffer)
    M.u8 = u8
    M.u32 = u32
    M.f64 = f64
    if (outView !== null) { outView.fill(null); outLen.fill(-1) } // views of the old memory
  }

  instantiate()

  const utf8 = new TextDecoder()
  const decode = Function.prototype.call.bind(TextDecoder.prototype.decode)
  function cString (ptr) {
    const end = u8IndexOf(u8, 0, ptr)
    return decode(utf8, u8Subarray(u8, ptr, end))
  }

  const MAX_ARGS = wasm.nat_max_args()
  var ARGS = M.args = wasm.nat_args_address() >>> 2 // u32 index of slot 0; a slot is 6 u32s
  var RESULT = wasm.nat_result_address() >>> 2
  var ERROR = wasm.nat_error_address() >>> 2

  // The slot kind of a view that reads as zero bytes (see emptyViewState in lib/intrinsics.js).
  const EMPTY_VIEW_KINDS = [TYPEDARRAY, DETACHED, OUT_OF_BOUNDS]

  // Per-call state, preallocated: the arguments, then the TypedArrays among them (t) and the
  // regions they are copied to (g: one per set of overlapping ranges of one ArrayBuffer).
  const argv = new Array(MAX_ARGS).fill(undefined)
  const tSlot = new Int32Array(MAX_ARGS)
  const tOffset = new Float64Array(MAX_ARGS)
  const tLength = new Float64Array(MAX_ARGS)
  const tRegion = new Int32Array(MAX_ARGS)
  const gBuffer = new Array(MAX_ARGS).fill(null) // null: merged into another region
  const gBytes = new Array(MAX_ARGS).fill(null) // the region's bytes as a Uint8Array, if at hand
  const gStart = new Float64Array(MAX_ARGS)
  const gEnd = new Float64Array(MAX_ARGS)
  const gPtr = new Float64Array(MAX_ARGS)
  const gOut = new Uint8Array(MAX_ARGS)

  // The scratch area grows by doubling; one larger than KEEP is freed after its call, so a single
  // huge call does not pin memory that libsodium's own allocations (pwhash) may need later. An
  // allocation that fails leaves the old area in place.
  const KEEP = 16 << 20
  const LIMIT = 0xffff0000 // malloc takes a 32-bit size: nothing near 4 GiB fits in linear memory
  function reserve (size, index) {
    if (size <= scratchSize) return
    if (size > LIMIT) {
      throw new RangeError(`${names[index]}: its buffers total ${size} bytes, more than the WebAssembly backend can hold (4 GiB)`)
    }
    let want = scratchSize * 2 < KEEP ? scratchSize * 2 : KEEP
    if (want < size) want = size
    if (want < 65536) want = 65536
    let ptr = wasm.malloc(want)
    if (ptr === 0 && scratch !== 0) { release(); ptr = wasm.malloc(want) }
    if (ptr === 0 && want > size) ptr = wasm.malloc(want = size)
    if (typedArrayByteLength(u8) === 0) views()
    if (ptr === 0) throw new RangeError(`${names[index]}: out of WebAssembly memory for ${size} bytes of buffers`)
    release()
    scratch = M.scratch = ptr
    scratchSize = M.size = want
  }

  function release () {
    if (scratch !== 0) wasm.free(scratch)
    scratch = M.scratch = 0
    scratchSize = M.size = 0
  }

  // Views of the scratch area that outputs are copied back from, kept per region while the same
  // calls repeat (same place, same length), so a steady stream of calls allocates nothing. A view
  // of memory from before it grew reads as length 0, so it is replaced too.
  // The views are dropped whenever memory grows (views()), so a kept one is always readable and
  // only its place is compared (as numbers: the byteOffset and byteLength getters are calls).
  outView = new Array(MAX_ARGS).fill(null)
  var outPtr = new Float64Array(MAX_ARGS)
  var outLen = new Float64Array(MAX_ARGS).fill(-1) // -1: no view
  function copyRegion (r, dst, ptr, n) {
    if (n === 0) return
    let view = outView[r]
    if (view === null || outPtr[r] !== ptr || outLen[r] !== n) {
      view = outView[r] = u8Subarray(u8, ptr, ptr + n)
      outPtr[r] = ptr
      outLen[r] = n
    }
    u8Set(dst, view)
  }

  // Zeroes bytes [from, from + n) of linear memory: a small, 8-byte aligned area (the scratch area
  // of a call) by a loop of 8-byte stores, in a third of the time of fill (a call into C++).
  function wipe (from, n) {
    if (n > 256 || ((from | n) & 7) !== 0) return fill(from, n)
    for (let i = from >>> 3, end = (from + n) >>> 3; i < end; i++) f64[i] = 0
  }
  function fill (from, n) { u8Fill(u8, 0, from, from + n) }

  // Add TypedArray v (bytes [start, end) of buffer) to the regions: a new one, or the union of v and
  // every region it overlaps. Returns the region's number.
  function addRegion (v, buffer, start, end, ng, nt) {
    let region = -1
    if (end > start) {
      for (let r = 0; r < ng; r++) {
        if (gBuffer[r] !== buffer || start >= gEnd[r] || gStart[r] >= end) continue
        if (region === -1) {
          region = r
        } else { // v bridges two regions: fold r into region
          if (gStart[r] < gStart[region]) gStart[region] = gStart[r]
          if (gEnd[r] > gEnd[region]) gEnd[region] = gEnd[r]
          gBuffer[r] = null
          for (let t = 0; t < nt; t++) if (tRegion[t] === r) tRegion[t] = region
        }
        if (start < gStart[region]) gStart[region] = start
        if (end > gEnd[region]) gEnd[region] = end
        gBytes[region] = null // a union: a view of the range is made when it is copied
      }
    }
    if (region !== -1) return region
    gBuffer[ng] = buffer
    gBytes[ng] = isUint8Array(v) ? v : null
    gStart[ng] = start
    gEnd[ng] = end
    return ng
  }

  // Set while a call runs: a call from inside one (a random source the caller replaced, which the
  // C reaches through random_get) is refused, since both would share the slots and the scratch.
  function invoke (index, argc) {
    if (M.busy) {
      throw new Error(`natrium.wasm: ${names[index]} was called while another natrium call was running (from a getter, a Proxy trap or a replaced random source); refused`)
    }
    M.busy = true
    let nt = 0
    let ng = 0
    let size = 0
    try {
      if (argc > MAX_ARGS) argc = MAX_ARGS
      // 1. classify every argument into its slot; list the TypedArrays and group overlapping ones
      for (let i = 0; i < argc; i++) {
        const v = argv[i]
        const s = ARGS + i * 6
        if (v === null) u32[s] = NULL
        else if (v === undefined) u32[s] = UNDEFINED
        else if (typeof v === 'number') {
          u32[s] = NUMBER
          f64[(s >>> 1) + 2] = v
        } else {
          let buffer, start, length
          if (typedArrayName(v) !== undefined) {
            length = typedArrayByteLength(v)
            if (length === 0) {
              const kind = EMPTY_VIEW_KINDS[emptyViewState(v)]
              if (kind !== TYPEDARRAY) { u32[s] = kind; continue }
            }
            buffer = typedArrayBuffer(v)
            start = typedArrayByteOffset(v)
          } else if (isView(v)) { // a DataView: Node-API's napi_get_buffer_info takes them too
            const kind = EMPTY_VIEW_KINDS[emptyViewState(v)]
            if (kind !== TYPEDARRAY) { u32[s] = kind; continue }
            length = dataViewByteLength(v)
            start = dataViewByteOffset(v)
            buffer = dataViewBuffer(v)
          } else {
            u32[s] = OTHER
            continue
          }
          u32[s] = TYPEDARRAY
          const r = addRegion(v, buffer, start, start + length, ng, nt)
          if (r === ng) ng++
          tSlot[nt] = s
          tOffset[nt] = start
          tLength[nt] = length
          tRegion[nt] = r
          nt++
        }
      }

      // 2. place the regions in the scratch area (16-byte aligned), point the slots at them, copy in
      for (let r = 0; r < ng; r++) {
        gOut[r] = 0
        if (gBuffer[r] === null) continue
        gPtr[r] = size
        const n = gEnd[r] - gStart[r]
        size += n + (16 - n % 16) % 16
      }
      reserve(size === 0 ? 16 : size, index)
      for (let r = 0; r < ng; r++) {
        if (gBuffer[r] === null) continue
        const n = gEnd[r] - gStart[r]
        if (gBytes[r] === null) gBytes[r] = new U8(gBuffer[r], gStart[r], n)
        gPtr[r] += scratch
        u8Set(u8, gBytes[r], gPtr[r])
      }
      for (let t = 0; t < nt; t++) {
        const r = tRegion[t]
        u32[tSlot[t] + 2] = gPtr[r] + (tOffset[t] - gStart[r])
        u32[tSlot[t] + 3] = tLength[t]
      }

      // 3. call, then copy back what the C marked as written, whether it threw or not (a failed
      // open must still zero its output)
      let failed
      try {
        failed = natCall(index, argc, 0)
      } catch (err) {
        trapped(index, err)
      }
      if ((failed & GREW) !== 0) views()
      failed &= FAILED
      for (let t = 0; t < nt; t++) if (u32[tSlot[t] + 1] !== 0) gOut[tRegion[t]] = 1
      for (let r = 0; r < ng; r++) {
        if (gOut[r] !== 0 && gBuffer[r] !== null) copyRegion(r, gBytes[r], gPtr[r], gEnd[r] - gStart[r])
      }

      if (failed !== 0) throw callError()
      return result(u32[RESULT])
    } finally {
      // whatever happened: no key or message outlives the call in the scratch, and the per-call
      // state holds no reference to the caller's buffers
      if (scratch !== 0 && size !== 0) wipe(scratch, size)
      if (scratchSize > KEEP) release()
      for (let r = 0; r < ng; r++) { gBuffer[r] = null; gBytes[r] = null }
      for (let i = 0; i < argc; i++) argv[i] = undefined
      M.busy = false
    }
  }

  // An *_async function's result: the work ran during the call (there is no thread pool here).
  function settled (code) {
    if (code === 0) return Promise.resolve(undefined)
    if (code === 1 || code === 2) return Promise.resolve(code === 2)
    return Promise.reject(refused(cString((ERROR + 1) << 2)))
  }

  // A trap inside the C (libsodium's abort(), out of stack): start a new instance and report it as
  // an Error (invoke's finally drops the references this call holds).
  function trapped (index, err) {
    instantiate()
    throw new Error(`natrium.wasm: ${names[index]} trapped (${err && err.message}); the module was restarted`)
  }

  // --- what the generated functions (wasm-functions/<family>.js) call ---------------------------------------

  // Outputs for the next call that newOutput made (the main API's results): new arrays no caller
  // holds yet, so they share no bytes with another argument, and the fast path takes them without
  // comparing ArrayBuffers (reading the ArrayBuffer of a small array makes V8 move its bytes off
  // the heap, which costs more than a small call). The next call forgets them, whatever it does:
  // by then they are the caller's.
  var own0 = null
  var own1 = null
  var own2 = null
  function newOutput (n) {
    const t = new U8(n)
    if (own0 === null) own0 = t
    else if (own1 === null) own1 = t
    else own2 = t // a fourth would replace the third, which then takes the comparisons
    return t
  }
  function own (x) { return x === own0 || x === own1 || x === own2 }
  function disown () { own0 = own1 = own2 = null }

  // The generic path, with the arguments as given.
  function slow (index, ...args) {
    disown()
    const argc = args.length
    for (let i = 0; i < argc && i < MAX_ARGS; i++) argv[i] = args[i]
    return invoke(index, argc)
  }

  // The byte length of a Uint8Array; 0 for anything else, for an empty one (the generic path tells
  // empty, detached and out-of-bounds views apart) and for one of 1 GiB or more (the generic path
  // checks sizes against linear memory; below that, the sums here stay exact).
  function lengthOf (x) {
    if (!isUint8Array(x)) return 0
    const n = typedArrayByteLength(x)
    return n < 0x40000000 ? n : 0
  }

  // Whether output a (na bytes, ArrayBuffer ba) shares a byte with argument b (bb null: absent).
  function shared (ba, a, na, bb, b, nb) {
    if (ba !== bb || bb === null) return false
    const a0 = typedArrayByteOffset(a)
    const b0 = typedArrayByteOffset(b)
    return a0 < b0 + nb && b0 < a0 + na
  }

  // Room for n bytes in the scratch area (16-byte aligned); an absent one (-1) takes none.
  function pad (n) { return (n + 15) & -16 }


  // nat_call, which wipes the inputs (the fast path's buffers are copies of their own, each at a
  // 16-byte aligned place with its length rounded up to 16 to itself); a trap restarts the module
  // and throws, as on the generic path.
  function call (index, argc) {
    disown()
    let answer
    try {
      answer = natCall(index, argc, WIPE_INPUTS)
    } catch (err) {
      M.busy = false
      trapped(index, err)
    }
    if (answer > FAILED) views() // GREW
    return answer & FAILED
  }

  // Whether outputs that were not copied in are copied back: when the call succeeded, or when
  // libsodium refused (the C wiped them); not after an argument error (the C never wrote them).
  function kept (failed) { return failed === 0 || u32[ERROR] === REFUSED }

  // Output argument i back to the caller's dst, if the C marked it as written. The copy can fail
  // only if dst changed while the call ran (a replaced random source detached or shrank its
  // buffer): then, as on the generic path, the scratch is wiped and the error thrown.
  function copyOut (i, dst, ptr, n, size) {
    if (u32[ARGS + i * 6 + 1] === 0) return
    try {
      copyRegion(i, dst, ptr, n)
    } catch (err) {
      copyFailed(err, size)
    }
  }
  function copyFailed (err, size) {
    wipe(scratch, size)
    M.busy = false
    throw err
  }

  // Wipes the outputs' scratch bytes (the fast path places the outputs first; the C wiped the
  // rest), then returns the result the C wrote or throws its error. (The uncommon paths are
  // functions of their own, so that V8 inlines this one into the generated functions.)
  function finish (failed, outputs) {
    if (outputs !== 0) wipe(scratch, outputs)
    M.busy = false
    if (failed !== 0) throw callError()
    const kind = u32[RESULT]
    return kind === UNDEFINED ? undefined : result(kind)
  }
  function callError () {
    const kind = u32[ERROR]
    if (kind === REFUSED) return refused(cString((ERROR + 1) << 2))
    return new (ERRORS[kind] || Error)(cString((ERROR + 1) << 2))
  }
  function result (kind) {
    if (kind === NUMBER) return f64[(RESULT >>> 1) + 2]
    if (kind === BOOL) return f64[(RESULT >>> 1) + 2] !== 0
    if (kind === PROMISE) return settled(f64[(RESULT >>> 1) + 2])
    return undefined
  }

  // The slot layout this file is written for, checked against the one the module reports.
  {
    const expect = [24, 0, 4, 8, 12, 16, 10, 0, 4, 256, UNDEFINED, NULL, NUMBER, BOOL, TYPEDARRAY, DETACHED,
      OTHER, PROMISE, OUT_OF_BOUNDS, 1, 2, 3, REFUSED, WIPE_INPUTS, FAILED, GREW]
    for (let i = 0; i < expect.length; i++) {
      const got = wasm.nat_layout(i)
      if (got !== expect[i]) throw new Error(`natrium.wasm: slot layout entry ${i} is ${got}, the glue expects ${expect[i]} (src/wasm.c nat_layout)`)
    }
  }

  const binding = {}
  // The module's C strings at ptrs (function names, constants' names and values), read with one
  // decode of the span that holds them where it is ASCII (a cold require pays one decode, not a
  // thousand; the substrings share its characters), else one by one.
  function cStrings (ptrs) {
    const ends = []
    let lo = Infinity
    let hi = 0
    for (let i = 0; i < ptrs.length; i++) {
      const end = u8IndexOf(u8, 0, ptrs[i])
      ends.push(end)
      if (ptrs[i] < lo) lo = ptrs[i]
      if (end > hi) hi = end
    }
    const out = []
    const span = hi > lo && hi - lo < (1 << 20) ? decode(utf8, u8Subarray(u8, lo, hi)) : ''
    // every byte one character: the span is ASCII (a multi-byte sequence would shorten it), apart
    // from invalid bytes that became U+FFFD one each, checked per string below
    const whole = span.length === hi - lo
    for (let i = 0; i < ptrs.length; i++) {
      const s = whole ? span.slice(ptrs[i] - lo, ends[i] - lo) : ''
      out.push(whole && s.indexOf('\ufffd') < 0 ? s : cString(ptrs[i]))
    }
    return out
  }

  const functionPtrs = []
  for (let i = 0, n = wasm.nat_function_count(); i < n; i++) functionPtrs.push(wasm.nat_function_name(i))
  const names = cStrings(functionPtrs)
  const byName = new Map()
  for (let i = 0; i < names.length; i++) byName.set(names[i], i)
  const rt = {
    M, slow, lengthOf, own, bufferOf: typedArrayBuffer, shared, pad, u8Set, call, kept, copyOut, finish, TYPEDARRAY, NULL, NUMBER,
    index: (name) => byName.has(name) ? byName.get(name) : -1
  }
  // A family's functions are compiled when the first of them is read (lib/lazy.js).
  const families = Object.create(null)
  const family = (f) => families[f] || (families[f] = loadFamily(f)(rt))
  // generic: every call takes the generic path (the Node entry sets it for NATRIUM_WASM_GENERIC=1:
  // the tests run the suites both ways)
  for (const name of names) {
    if (!familyOf[name]) throw new Error(`natrium.wasm: ${name} has no entry in the symbol table (lib/symbols), so no function`)
    if (generic) binding[name] = genericFunction(byName.get(name), name)
  }
  if (!generic) lazyAll(binding, names, (name) => family(familyOf[name])[name])

  function genericFunction (index, name) {
    const fn = function () { return slow(index, ...arguments) }
    Object.defineProperty(fn, 'name', { value: name })
    return fn
  }
  {
    const count = wasm.nat_constant_count()
    const ptrs = []
    for (let i = 0; i < count; i++) {
      ptrs.push(wasm.nat_constant_name(i))
      const string = wasm.nat_constant_string(i)
      if (string !== 0) ptrs.push(string)
    }
    const strings = cStrings(ptrs)
    for (let i = 0, j = 0; i < count; i++) {
      const name = strings[j++]
      binding[name] = wasm.nat_constant_string(i) !== 0 ? strings[j++] : wasm.nat_constant_number(i)
    }
  }

  // For tests and diagnostics only (not enumerable, so the surfaces do not copy it): linear memory size.
  Object.defineProperty(binding, 'natrium_wasm_memory_bytes', { value: () => memory.buffer.byteLength })
  // For tests only (not enumerable): the BLAKE2b compression function in use, after forcing one
  // ('portable', 'simd128') or asking for the timing again ('timed'), as the C names it (the
  // numbers are blake2b_impl.h's NAT_BLAKE2B_TIMED, _PORTABLE, _SIMD128_ONLY).
  const BLAKE2B_KERNELS = { undefined: 0, timed: 1, portable: 2, simd128: 3 }
  Object.defineProperty(binding, 'natrium_wasm_blake2b_kernel', {
    value: (use) => {
      if (!(String(use) in BLAKE2B_KERNELS)) throw new RangeError(`natrium_wasm_blake2b_kernel: unknown kernel ${use}`)
      return cString(wasm.nat_blake2b_kernel(BLAKE2B_KERNELS[String(use)]))
    }
  })

  // For tests and benchmarks only (not enumerable): whose Curve25519 arithmetic runs behind
  // libsodium's X25519 and Ed25519 ('simd128': ours, 'libsodium': its ref10), after forcing one.
  const CURVE25519_IMPLS = { undefined: 0, simd128: 1, libsodium: 2 }
  Object.defineProperty(binding, 'natrium_wasm_curve25519', {
    value: (use) => {
      if (!(String(use) in CURVE25519_IMPLS)) throw new RangeError(`natrium_wasm_curve25519: unknown implementation ${use}`)
      return cString(wasm.nat_curve25519_impl(CURVE25519_IMPLS[String(use)]))
    }
  })
  // For tests only (not enumerable): how many times ours ran behind those functions.
  Object.defineProperty(binding, 'natrium_wasm_curve25519_calls', { value: () => wasm.nat_curve25519_calls() })

  return { name: 'wasm', binding, memory: guardedMemory(binding, wrap), capabilities: CAPABILITIES, newOutput, file }
}

// sodium-native's guarded-memory functions. WebAssembly has no pages to guard or lock:
// sodium_malloc gives an ordinary buffer of its own (filled like libsodium's, 0xdb) with `secure`
// false, the mprotect/mlock calls only check their argument, and munlock still wipes. sodium_free
// detaches, and ignores what it did not allocate, a second free included (sodium-native's
// behaviour). Arguments are read through the built-ins captured at load, with the checks and
// messages of the native C.
function guardedMemory (binding, wrap) {
  const fromMalloc = new WeakSet() // the buffers sodium_malloc returned
  const regions = new WeakSet() // and their ArrayBuffers
  const memory = {
    sodium_malloc (size) {
      if (typeof size !== 'number') throw new TypeError('size must be a number')
      if (!Number.isInteger(size) || size < 0 || size > 0xffffffff) {
        throw new RangeError('size must be an integer between 0 and 4294967295')
      }
      const ab = new ArrayBuffer(size)
      u8Fill(new U8(ab), 0xdb)
      const buf = wrap(ab)
      buf.secure = false
      fromMalloc.add(buf)
      regions.add(ab)
      return buf
    },
    sodium_free (buf) {
      if (!fromMalloc.has(buf) || unreadable(buf)) return
      fromMalloc.delete(buf)
      const ab = typedArrayBuffer(buf)
      regions.delete(ab)
      structuredClone(ab, { transfer: [ab] }) // detaches every view on it
    },
    sodium_mlock (addr) { viewArg(addr, 'addr') },
    sodium_munlock (addr) { binding.sodium_memzero(viewArg(addr, 'addr')) }
  }
  // sodium_mprotect_*: only a buffer from sodium_malloc (on the native backend: one with guarded pages)
  function guarded (ptr, message) {
    viewArg(ptr, 'ptr')
    if (!regions.has(viewBuffer(ptr))) throw new Error(message)
  }
  memory.sodium_mprotect_noaccess = function sodium_mprotect_noaccess (ptr) { guarded(ptr, 'failed to lock buffer') }
  memory.sodium_mprotect_readonly = function sodium_mprotect_readonly (ptr) { guarded(ptr, 'failed to unlock buffer') }
  memory.sodium_mprotect_readwrite = function sodium_mprotect_readwrite (ptr) { guarded(ptr, 'failed to unlock buffer') }
  for (const name of Object.keys(memory)) Object.defineProperty(memory[name], 'name', { value: name })
  return memory
}

module.exports = wasmBackend

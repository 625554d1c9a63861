'use strict'
// One batch of natrium's fuzzer, run in a process of its own by scripts/fuzz.js (so that a crash
// is a finding, not the end of the run):
//
//   node test/fuzz/worker.js <seed> <calls> [--trace]
//
// Each call picks a function of one surface (the raw backends, natrium/sodium-native, the main
// API) and arguments from the symbol table's rules, mutated with hostile values: every TypedArray
// kind, DataView, views at offsets, SharedArrayBuffer, resizable buffers (tracking, fixed, shrunk
// out of bounds), detached buffers, Proxies, look-alike objects, subclasses whose getters lie,
// re-enter natrium or detach their buffer, prototypes whose Proxy traps re-enter, aliasing and
// overlapping arguments, states that are foreign (from the other backend), finished, garbage or of
// another family, numbers at and past every bound, and views of 4 GiB. The same call runs on the
// native and the wasm backend (arguments built twice from one recipe) and must give the same
// outcome; on each backend a throw must be an Error with a message, an argument error must leave
// every buffer as it was, and a refusal (ERR_NATRIUM_REFUSED) must leave every output zeroed.
// Findings are printed as JSON lines {finding, seed, call, ...}; the last line is {done, calls}.
// With --trace each call is printed before it runs (to find the one that crashed a batch).
const { symbols } = require('../../lib/symbols')
const { load } = require('../../lib/loader')
const sodiumNative = require('../../lib/surfaces/sodium-native')
const wrappers = require('../../lib/surfaces/wrappers')

const seed = Number(process.argv[2] || 1) >>> 0
const CALLS = Number(process.argv[3] || 1000)
const TRACE = process.argv.includes('--trace')

// --- a seeded generator (xorshift32); every choice and every byte comes from it ---------------
let s = seed || 1
function next () {
  s ^= s << 13
  s ^= s >>> 17
  s ^= s << 5
  return s >>> 0
}
const int = (n) => n <= 0 ? 0 : next() % n
const chance = (p) => next() / 4294967296 < p
const pick = (list) => list[int(list.length)]
function bytes (n) {
  const b = new Uint8Array(n)
  for (let i = 0; i < n; i++) b[i] = next() & 0xff
  return b
}

// libsodium-wrappers' differential cases draw their bytes from crypto.randomBytes: from here on
// those come from the seed too, so a batch replays exactly.
require('crypto').randomBytes = (n) => Buffer.from(bytes(n))

const N = load('native')
const W = load('wasm')
const backends = { native: N.binding, wasm: W.binding }
const sn = { native: sodiumNative(N), wasm: sodiumNative(W) }
const api = { native: wrappers(N), wasm: wrappers(W) }

const findings = []
function finding (kind, detail) {
  findings.push(Object.assign({ finding: kind, seed }, detail))
  process.stdout.write(JSON.stringify(findings[findings.length - 1]) + '\n')
}

// --- argument recipes -------------------------------------------------------------------------
// A recipe is plain data; materialize() turns it into values for one backend, so that both get
// equal arguments (with the same aliasing) without sharing any object.
const constant = (c) => (typeof c === 'number' ? c : backends.native[c])
const KINDS = ['Uint8Array', 'Buffer', 'Int8Array', 'Uint8ClampedArray', 'Uint16Array', 'Int32Array', 'Float64Array', 'BigUint64Array', 'DataView']
const STATE_INIT = {
  crypto_aead_aes256gcm: 'crypto_aead_aes256gcm_beforenm',
  crypto_secretstream_xchacha20poly1305: 'crypto_secretstream_xchacha20poly1305_init_pull', // deterministic
  crypto_kdf_hkdf_sha256: 'crypto_kdf_hkdf_sha256_extract_init',
  crypto_kdf_hkdf_sha512: 'crypto_kdf_hkdf_sha512_extract_init'
}
const STATE_FINAL = {
  crypto_secretstream_xchacha20poly1305: null,
  crypto_kdf_hkdf_sha256: 'crypto_kdf_hkdf_sha256_extract_final',
  crypto_kdf_hkdf_sha512: 'crypto_kdf_hkdf_sha512_extract_final',
  crypto_sign: 'crypto_sign_final_create',
  crypto_sign_ed25519ph: 'crypto_sign_ed25519ph_final_create',
  crypto_aead_aes256gcm: null,
  crypto_core_keccak1600: null
}
// Work factors are drawn small: a valid but huge one would run for minutes on both backends.
const SMALL_NUMBERS = { opslimit: 3, memlimit: 4 << 20, N: 1024, r: 4, p: 2, iter: 2000, outlen: 64, size: 4096, bin_len: 4096, upper_bound: 1e9 }

// The lengths a well-formed call uses (test/table-args.js's rules, with seeded sizes).
function lengths (entry) {
  const len = {}
  const pending = []
  for (const a of entry.args) {
    if (a.kind === 'nul' || a.kind === 'num') continue
    const r = a.len
    if (!r) len[a.name] = pick([0, 1, 16, 64, 65, 300])
    else if (r.fixed !== undefined) len[a.name] = constant(r.fixed)
    else if (r.of) pending.push(a)
    else {
      const min = r.min !== undefined ? constant(r.min) : 0
      const max = r.max !== undefined ? Math.min(constant(r.max), min + 300) : min + 300
      len[a.name] = min + int(max - min + 1)
    }
  }
  for (let guard = 0; pending.length && guard < 10; guard++) {
    for (let i = pending.length - 1; i >= 0; i--) {
      const { name, len: r } = pending[i]
      if (len[r.of] === undefined) continue
      if (r.times !== undefined) len[name] = len[r.of] * r.times
      else if (r.base64 !== undefined) len[name] = backends.native.sodium_base64_encoded_len(len[r.of], constant('sodium_base64_VARIANT_ORIGINAL')) - 1
      else len[name] = Math.max(0, len[r.of] + (r.plus !== undefined ? constant(r.plus) : -constant(r.minus)))
      pending.splice(i, 1)
    }
  }
  return len
}

function numberRecipe (a) {
  const lo = typeof a.range[0] === 'object' ? 0 : constant(a.range[0])
  const hi = typeof a.range[1] === 'object' ? 4096 : constant(a.range[1])
  const small = SMALL_NUMBERS[a.name]
  const good = a.example !== undefined ? constant(a.example) : small !== undefined ? Math.min(hi, Math.max(lo, small >= lo ? lo + int(Math.min(small, hi) - lo + 1) : lo)) : lo + int(Math.min(hi - lo, 1000) + 1)
  if (chance(0.75)) return { type: 'value', value: good }
  let v = pick([lo, hi + 1 <= Number.MAX_SAFE_INTEGER ? hi + 1 : -1, lo - 1, -1, 0.5, NaN, Infinity, -Infinity, 2 ** 53, 2 ** 64, -0, '1', 1n, true, null, undefined, { valueOf: 'reenter' }])
  // a huge number the range allows would be a valid huge work factor or size: not hostile, slow
  if (typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi && v > Math.max(lo, small !== undefined ? small : 4096)) v = lo
  return { type: 'value', value: v }
}

function bufferRecipe (len, a) {
  const r = { type: 'buf', len, fill: bytes(Math.min(len, 2048)), kind: 'Uint8Array', offset: 0 }
  if (!chance(0.45)) return r
  switch (int(16)) {
    case 0: r.len = Math.max(0, len + pick([-1, 1, -len])); break
    case 1: r.kind = pick(KINDS); break
    case 2: r.offset = 1 + int(15); break
    case 3: r.shared = true; break
    case 4: r.rab = pick(['tracking', 'fixed']); r.shrink = chance(0.5); break
    case 5: r.detached = true; break
    case 6: return { type: 'proxy', len }
    case 7: return { type: 'fake' }
    case 8: r.subclass = pick(['liar', 'reenter', 'detacher']); break
    case 9: r.protoProxy = true; break
    case 10: return { type: 'value', value: pick([null, undefined, 'x', 'a string of some length', 1, {}, [], true, Symbol.iterator, 1n]) }
    case 11: r.huge = a && a.len && a.len.fixed !== undefined; break
    case 12: r.secure = true; break // from sodium_malloc (guard pages on native)
    default: r.kind = pick(['Uint8Array', 'Buffer', 'DataView'])
  }
  return r
}

function stateRecipe (a) {
  const prefix = a.len.fixed.replace(/_STATEBYTES$/, '')
  const init = STATE_INIT[prefix] || `${prefix}_init`
  const variant = chance(0.7) ? 'good' : pick(['finished', 'foreign', 'garbage', 'zero', 'short', 'other'])
  return { type: 'state', prefix, init, variant, size: constant(a.len.fixed), seedBytes: bytes(64), garbage: bytes(constant(a.len.fixed)) }
}

// A recipe for every argument of a table entry, then aliasing between two of them now and then.
function argsRecipe (entry) {
  const len = lengths(entry)
  const list = entry.args.map((a) => {
    if (a.kind === 'nul') return chance(0.9) ? { type: 'value', value: null } : bufferRecipe(1)
    if (a.kind === 'num') return numberRecipe(a)
    if (a.kind === 'state') return stateRecipe(a)
    if ((a.kind === 'opt' || a.kind === 'optOut') && chance(0.2)) return { type: 'value', value: null }
    return bufferRecipe(len[a.name], a)
  })
  const bufs = list.map((r, i) => (r.type === 'buf' && !r.huge ? i : -1)).filter((i) => i >= 0)
  if (bufs.length >= 2 && chance(0.15)) {
    const [i, j] = [pick(bufs), pick(bufs)]
    if (i !== j) list[j] = { type: 'alias', of: i, shift: pick([0, 0, 1, 3]), len: list[j].len }
  }
  if (chance(0.05)) list.pop() // one argument short
  if (chance(0.05)) list.push({ type: 'value', value: pick([null, 1, new Uint8Array(3)]) })
  return list
}

// --- materializing a recipe for one backend -----------------------------------------------------
let HUGE = null // one 4 GiB buffer, made once: only ever passed where a fixed length refuses it
function huge () {
  if (HUGE === null) HUGE = new Uint8Array(2 ** 32)
  return HUGE
}

function reenterCall (backend) {
  try { backends[backend].crypto_generichash(new Uint8Array(32), new Uint8Array(7)) } catch {}
}

function makeView (r, backend) {
  if (r.huge) return huge()
  if (r.secure) {
    const v = sn[backend].sodium_malloc(r.len)
    v.set(r.fill.subarray(0, Math.min(r.fill.length, r.len)))
    return v
  }
  const total = r.len + r.offset
  let ab
  if (r.shared) ab = new SharedArrayBuffer(total)
  else if (r.rab) ab = new ArrayBuffer(total, { maxByteLength: total + 64 })
  else ab = new ArrayBuffer(total)
  const u8 = new Uint8Array(ab)
  u8.set(r.fill.subarray(0, Math.min(r.fill.length, r.len)), r.offset)
  let view
  const elems = (size) => Math.floor(r.len / size)
  switch (r.kind) {
    case 'Buffer': view = Buffer.from(ab, r.offset, r.len); break
    case 'DataView': view = new DataView(ab, r.offset, r.rab === 'tracking' ? undefined : r.len); break
    case 'Uint8Array': case 'Int8Array': case 'Uint8ClampedArray':
      view = new globalThis[r.kind](ab, r.offset, r.rab === 'tracking' ? undefined : r.len); break
    default: {
      const size = globalThis[r.kind].BYTES_PER_ELEMENT
      view = r.offset % size === 0 ? new globalThis[r.kind](ab, r.offset, r.rab === 'tracking' ? undefined : elems(size)) : new Uint8Array(ab, r.offset, r.len)
    }
  }
  if (r.subclass) {
    const Base = Object.getPrototypeOf(view).constructor
    const Sub = class extends Base {
      get length () {
        if (r.subclass === 'reenter') reenterCall(backend)
        if (r.subclass === 'detacher') structuredClone(this.buffer, { transfer: [this.buffer] })
        return 1e6
      }

      get byteLength () { return 0 }
    }
    Object.setPrototypeOf(view, Sub.prototype)
  }
  if (r.protoProxy) {
    const proto = Object.getPrototypeOf(view)
    Object.setPrototypeOf(view, new Proxy(proto, { getPrototypeOf (t) { reenterCall(backend); return Object.getPrototypeOf(t) }, get (t, k, rcv) { reenterCall(backend); return Reflect.get(t, k, rcv) } }))
  }
  if (r.rab && r.shrink) ab.resize(Math.max(0, r.offset + (r.len >> 1) - 1))
  if (r.detached) structuredClone(ab, { transfer: [ab] })
  return view
}

function makeState (r, backend) {
  const other = backend === 'native' ? 'wasm' : 'native'
  const b = backends[r.variant === 'foreign' ? other : backend]
  if (r.variant === 'short') return new Uint8Array(r.size - 1)
  if (r.variant === 'zero') return new Uint8Array(r.size)
  if (r.variant === 'garbage') return r.garbage.slice()
  const st = new Uint8Array(r.variant === 'other' ? r.size + 8 : r.size)
  const entry = symbols[r.init]
  if (!entry || typeof b[r.init] !== 'function') return st
  let k = 0
  const args = entry.args.map((a, i) => {
    if (i === 0) return st
    if (a.kind === 'num') return a.example !== undefined ? constant(a.example) : Math.max(1, constant(a.range[0]))
    const n = a.len && a.len.fixed !== undefined ? constant(a.len.fixed) : a.len && a.len.max !== undefined ? Math.min(32, constant(a.len.max)) : 32
    const v = r.seedBytes.subarray(k % 32, k % 32 + n).slice()
    k += n
    return v.length === n ? v : new Uint8Array(n)
  })
  try { b[r.init](...args) } catch {}
  const fin = r.prefix in STATE_FINAL ? STATE_FINAL[r.prefix] : `${r.prefix}_final`
  if (r.variant === 'finished' && fin && symbols[fin]) {
    const fe = symbols[fin]
    try {
      b[fin](...fe.args.map((a, i) => {
        if (i === 0) return st
        if (a.kind === 'num') return constant(a.range[0])
        if (a.name === 'sk') return new Uint8Array(64)
        return new Uint8Array(a.len && a.len.fixed !== undefined ? constant(a.len.fixed) : a.len && a.len.min !== undefined ? Math.max(1, constant(a.len.min)) : 16)
      }))
    } catch {}
  }
  return st
}

function materialize (recipe, backend) {
  const out = []
  for (const r of recipe) {
    if (r.type === 'value') out.push(r.value && r.value.valueOf === 'reenter' ? { valueOf () { reenterCall(backend); return 1 } } : r.value)
    else if (r.type === 'buf') out.push(makeView(r, backend))
    else if (r.type === 'proxy') out.push(new Proxy(new Uint8Array(r.len), { get (t, k) { reenterCall(backend); const v = t[k]; return typeof v === 'function' ? v.bind(t) : v } }))
    else if (r.type === 'fake') out.push(Object.create(Uint8Array.prototype))
    else if (r.type === 'state') out.push(makeState(r, backend))
    else if (r.type === 'alias') {
      const base = out[r.of]
      if (!ArrayBuffer.isView(base) || viewLength(base) === null) { out.push(new Uint8Array(r.len)); continue }
      const { buffer, byteOffset } = base
      const room = buffer.byteLength - byteOffset - r.shift
      out.push(new Uint8Array(buffer, byteOffset + Math.min(r.shift, Math.max(0, buffer.byteLength - byteOffset)), Math.max(0, Math.min(r.len, room))))
    }
  }
  return out
}

// --- outcomes ---------------------------------------------------------------------------------
function viewLength (v) {
  try {
    return new Uint8Array(v.buffer, v.byteOffset, v.byteLength).length
  } catch {
    return null
  }
}

function snapshot (v) {
  if (v === HUGE) return 'huge'
  if (!ArrayBuffer.isView(v)) return typeof v === 'object' && v !== null ? 'object' : String(v)
  let b
  try {
    b = new Uint8Array(v.buffer, v.byteOffset, v.byteLength)
  } catch {
    return 'unreadable'
  }
  return Buffer.from(b).toString('hex')
}

function describeError (err) {
  if (!(err instanceof Error)) return { bad: `threw a non-Error: ${typeof err} ${String(err)}` }
  if (!err.message) return { bad: `${err.constructor.name} with an empty message` }
  return { threw: `${err.constructor.name}: ${err.message}`, refused: err.code === 'ERR_NATRIUM_REFUSED', argument: err instanceof TypeError || err instanceof RangeError }
}

// fn(...args): what it returned or threw; a Promise it returned is settled into the same record
// (handlers attached at once, so a rejection is never unhandled while the other backend runs).
function run (fn, args) {
  const before = args.map(snapshot)
  let r
  try {
    const v = fn(...args)
    r = { returned: v instanceof Promise ? 'promise' : v, promise: null }
    if (v instanceof Promise) {
      r.promise = v.then((value) => { r.resolved = value }, (err) => { Object.assign(r, describeError(err)); r.rejected = true })
    }
  } catch (err) {
    r = describeError(err)
  }
  r.before = before
  return r
}

async function settle (r) {
  if (r.promise) await r.promise
  r.promise = null
  return r
}

const show = (v) => {
  if (v === undefined) return 'undefined'
  if (v instanceof Uint8Array) return `u8:${Buffer.from(v).toString('hex')}`
  if (typeof v === 'bigint') return `${v}n`
  if (v && typeof v === 'object') {
    if (v.constructor && v.constructor.name === 'StateAddress') return 'state'
    return JSON.stringify(Object.fromEntries(Object.entries(v).map(([k, x]) => [k, show(x)])))
  }
  return JSON.stringify(v)
}

const RANDOM = /(_keygen|_keypair|_random|^randombytes_(buf|uniform|random)|_seal|_enc|_init_push|_str|_str_alg)(_async)?$/
const WASM_TOO_LARGE = /more than the WebAssembly backend can hold/
const OPAQUE_STATES = /^crypto_(onetimeauth|aead_aes256gcm)/
// The one way messages may differ: a bound that is SIZE_MAX-derived (2^32 - 1 on wasm32), e.g.
// "memlimit must be an integer between 8192 and <max>" (test/backends.test.js allows the same).
const BOUND = /^(RangeError: \S+ must be an integer between \d+ and )(\d+)( \(got [^)]*\))?$/
function sizeBound (a, b) {
  const [x, y] = [BOUND.exec(a || ''), BOUND.exec(b || '')]
  return x !== null && y !== null && x[1] === y[1] && x[3] === y[3] && Number(y[2]) < Number(x[2]) && Number(y[2]) <= 2 ** 32
}

// Checks one backend's result of a raw or sodium-native call against the contract.
function contract (where, entry, args, r) {
  if (r.bad) return finding('bad-throw', { where, problem: r.bad })
  if (r.argument && !r.rejected) {
    args.forEach((v, i) => {
      const now = snapshot(v)
      if (now !== r.before[i] && r.before[i] !== 'unreadable') finding('argument-error-wrote', { where, error: r.threw, arg: i })
    })
  }
  if (r.refused && !r.rejected && entry) {
    entry.args.forEach((a, i) => {
      if ((a.kind !== 'out' && a.kind !== 'optOut') || !ArrayBuffer.isView(args[i]) || args[i] === HUGE) return
      const now = snapshot(args[i])
      if (now !== 'unreadable' && /[^0]/.test(now)) finding('refusal-left-output', { where, error: r.threw, arg: a.name })
    })
  }
}

function same (label, rn, rw, an, aw, { random, opaque }) {
  const wasmTooLarge = rw.threw && WASM_TOO_LARGE.test(rw.threw)
  if (wasmTooLarge && (rn.argument || rn.refused)) return
  if (sizeBound(rn.threw, rw.threw)) return
  // random bytes asked for as text are valid UTF-8 or not by chance
  if (random && /not valid for encoding utf-8/.test(`${rn.threw} ${rw.threw}`)) return
  const key = (r) => JSON.stringify({ threw: r.threw || null, returned: random && !r.threw ? typeof r.returned : show(r.returned), resolved: random ? null : show(r.resolved), rejected: !!r.rejected })
  if (key(rn) !== key(rw)) return finding('backends-differ', { where: label, native: key(rn), wasm: key(rw) })
  if (random && !rn.threw) return
  for (let i = 0; i < an.length; i++) {
    if (opaque.includes(i)) continue
    const [x, y] = [snapshot(an[i]), snapshot(aw[i])]
    if (x !== y) return finding('backends-differ', { where: label, arg: i, native: x.slice(0, 80), wasm: y.slice(0, 80) })
  }
}

// --- one call on a raw or sodium-native surface -------------------------------------------------
const rawNames = Object.keys(symbols).filter((n) => !symbols[n].native)
// An AES-256-GCM state is laid out by the code that made it (libsodium's AES-NI or ARMv8 code, or
// natrium's portable code on wasm and other CPUs), so a state that is not each backend's own
// (the other backend's, garbage, zeros) may give each its own bytes.
const notOwnState = (name, recipe) => name.startsWith('crypto_aead_aes256gcm') &&
  recipe.some((r) => r.type === 'state' && ['foreign', 'garbage', 'zero'].includes(r.variant))

async function tableCall (surface, name, index) {
  const entry = symbols[name]
  const recipe = argsRecipe(entry)
  // an async job's buffers are mostly ones the caller can take away: guarded or resizable
  // (and now and then a job slow enough, ~0.1 s, to be still running when they are)
  const disturb = entry.returns === 'promise' && chance(0.5)
  if (disturb) {
    for (const r of recipe) {
      if (r.type === 'buf' && !r.huge && chance(0.8)) Object.assign(r, chance(0.5) ? { secure: true } : { rab: 'fixed', shrink: false, kind: 'Uint8Array' })
    }
    if (chance(0.4)) {
      entry.args.forEach((a, i) => {
        const slow = { memlimit: /scrypt/.test(name) ? 32 << 20 : 32 << 20, opslimit: /scrypt/.test(name) ? 1 << 20 : 3, iter: 200000 }[a.name]
        if (slow !== undefined && recipe[i] && recipe[i].type === 'value') recipe[i] = { type: 'value', value: slow }
      })
    }
  }
  const lib = surface === 'raw' ? backends : sn
  const an = materialize(recipe, 'native')
  const aw = materialize(recipe, 'wasm')
  const label = `${surface}.${name} #${index}`
  if (TRACE) process.stdout.write(JSON.stringify({ trace: label }) + '\n')
  const pn = run(lib.native[name], an)
  const pw = run(lib.wasm[name], aw)
  // While an *_async job runs, its caller may free, detach, shrink or reuse every buffer it
  // passed (the job owns copies): then only the contract is checked, not the two outcomes.
  if (disturb && pn.promise instanceof Promise) {
    for (const args of [an, aw]) args.forEach((v) => { if (chance(0.5)) unsettle(v, lib === sn ? sn : null) })
    an.length = 0 // drop the references, so that a transferred buffer can be collected
    if (typeof globalThis.gc === 'function' && chance(0.3)) globalThis.gc()
  }
  const rn = await settle(pn)
  const rw = await settle(pw)
  if (disturb && pn.returned === 'promise') return contractAfterDisturbance(label, rn, rw)
  contract(`${label} [native]`, entry, an, rn)
  contract(`${label} [wasm]`, entry, aw, rw)
  if (notOwnState(name, recipe)) return
  const opaque = entry.args.map((a, i) => (a.kind === 'state' && OPAQUE_STATES.test(a.len.fixed) ? i : -1)).filter((i) => i >= 0)
  same(label, rn, rw, an, aw, { random: RANDOM.test(name), opaque })
}

// What a caller may do to a buffer while an async job that was given it runs.
function unsettle (v, surfaces) {
  if (!ArrayBuffer.isView(v) || v === HUGE) return
  try {
    const buffer = v.buffer
    if (v.secure && surfaces && chance(0.8)) { surfaces.native.sodium_free(v); surfaces.wasm.sodium_free(v); return }
    if (buffer.resizable && chance(0.8)) { buffer.resize(pick([0, 1, v.byteLength >> 1])); return }
    if (chance(0.5) && !(buffer instanceof SharedArrayBuffer)) structuredClone(buffer, { transfer: [buffer] })
    else new Uint8Array(buffer).fill(0x5a)
  } catch {}
}

function contractAfterDisturbance (label, rn, rw) {
  for (const [where, r] of [[`${label} [native]`, rn], [`${label} [wasm]`, rw]]) {
    if (r.bad) finding('bad-throw', { where, problem: r.bad })
  }
}

// --- one call on the main API ---------------------------------------------------------------------
const cases = require('../wrappers-cases')(api.native)
const apiNames = Object.keys(api.native).filter((k) => typeof api.native[k] === 'function' && k !== 'symbols')
const MAIN_RANDOM = /(_keygen|_keypair|_random|^randombytes_|_seal|_str|_str_alg|_async|_enc|_init_push)$/

function cloneValue (v) {
  if (v instanceof Uint8Array) return new Uint8Array(v)
  return v
}

async function mainCall (name, index) {
  const label = `main.${name} #${index}`
  const c = cases[name]
  let base
  if (c && chance(0.7)) {
    try { base = c.make()(api.native) } catch { base = [] }
  } else {
    base = Array.from({ length: int(7) }, () => pick([bytes(pick([0, 1, 16, 24, 32, 64, 65])), 'text', 0, 1, 16, 32, null, undefined]))
  }
  if (base.some((v) => v && typeof v === 'object' && v.constructor && v.constructor.name === 'StateAddress')) return // states are per instance
  const recipe = base.map((v) => (v instanceof Uint8Array ? { type: 'buf', len: v.length, fill: v, kind: 'Uint8Array', offset: 0 } : { type: 'value', value: v }))
  for (let m = int(3); m > 0 && recipe.length; m--) {
    const i = int(recipe.length)
    recipe[i] = chance(0.5) ? bufferRecipe(recipe[i].len || pick([0, 1, 16, 32])) : { type: 'value', value: pick([null, undefined, 'x', '', 1.5, -1, NaN, 2 ** 53, {}, [], 1n, 'hex', 'base64', 'text', 'uint8array', 'nope']) }
  }
  const an = materialize(recipe, 'native')
  const aw = materialize(recipe, 'wasm')
  if (TRACE) process.stdout.write(JSON.stringify({ trace: label }) + '\n')
  const rn = await settle(run(api.native[name], an))
  const rw = await settle(run(api.wasm[name], aw))
  for (const [where, r] of [[`${label} [native]`, rn], [`${label} [wasm]`, rw]]) {
    if (r.bad) finding('bad-throw', { where, problem: r.bad })
  }
  same(label, rn, rw, an, aw, { random: MAIN_RANDOM.test(name) || (c && c.random), opaque: [] })
}

// --- the batch ----------------------------------------------------------------------------------
async function main () {
  for (let i = 0; i < CALLS; i++) {
    const which = int(3)
    if (which === 2) await mainCall(pick(apiNames), i)
    else await tableCall(which === 0 ? 'raw' : 'sn', pick(rawNames), i)
  }
  process.stdout.write(JSON.stringify({ done: true, seed, calls: CALLS, findings: findings.length }) + '\n')
}

main().catch((err) => {
  finding('worker-error', { problem: String(err && err.stack) })
  process.exitCode = 2
})

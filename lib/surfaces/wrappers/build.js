'use strict'
// Builds one main-API function from a definition (spec.js) and the raw symbol table: the raw
// function's non-output arguments become the caller's parameters (in order, or bound by name),
// its outputs are allocated from the table's length rules and returned, formatted as asked.
// Closures over precomputed plans, no code generation.
const { formatCode, numberOf, inputTypeError, lengthError, lengthOf, isRefusal, StateAddress, UINT8ARRAY, SLOTS } = require('./io')
const { isUint8Array, U8 } = require('../../intrinsics')

const IN = 0 // bytes: Uint8Array or string
const OPT = 1 // bytes or null/undefined
const IGNORED = 2 // libsodium's unused nsec: checked like OPT, then passed as null
const NUM = 3
const STATE = 4
const OUTLEN = 5 // the length of an output

const U32_MAX = 0xffffffff

const stateOf = StateAddress.bytes

function constant (binding, c, where) {
  const v = typeof c === 'number' ? c : binding[c]
  if (typeof v !== 'number') throw new Error(`main API: ${where} refers to unknown constant ${c}`)
  return v
}

// The caller-facing length check for an input, from the raw rule (or an override): exact (eq),
// or a range (min..max); null when the raw rule relates lengths (the C checks those).
function inputRule (binding, len, where) {
  if (!len) return null
  if (typeof len === 'string' || typeof len === 'number') len = { fixed: len }
  if (len.oneOf || len.of !== undefined) return null
  if (len.fixed !== undefined) {
    const n = constant(binding, len.fixed, where)
    return { eq: n, min: n, max: n, text: typeof len.fixed === 'string' ? `${len.fixed} (${n})` : `${n}` }
  }
  const min = len.min !== undefined ? constant(binding, len.min, where) : 0
  const max = len.max !== undefined ? constant(binding, len.max, where) : Infinity
  return { eq: -1, min, max, text: len.min !== undefined ? `at least ${len.min} (${min})` : `at most ${len.max} (${max})` }
}

function lengthMismatch (p, n) {
  const r = p.rule
  return lengthError(p.name, r.eq >= 0 || n < r.min ? r.text : `at most ${r.max}`, n)
}

// def: { params, raw?, len?, set?, outs?, keyType?, fail?, format?, init?, final?, shape? }
//   params   lsw parameter names in order; 'name=arg' binds to the raw argument `arg` (an output's
//            name binds the length of that output)
//   raw      the raw function (default: the same name)
//   len      { param: constant } length overrides where libsodium-wrappers is stricter
//   set      { arg: value } raw arguments the caller does not give
//   outs     result object keys, in libsodium-wrappers' order: { key: raw output name }
//   keyType  adds keyType to a { publicKey, privateKey } result
//   empty    parameters where null stands for an empty input
//   sizes    { output: bytes } for outputs whose raw rule is only a minimum
//   fail     the Error message when libsodium refuses (default 'invalid usage')
//   refused  the value returned, instead of throwing, when libsodium refuses
//   format   false when the function takes no trailing outputFormat
//   init     the raw state argument is created here and returned
//   final    the state is finalized after the call
//   shape    (result, outputs, code, format, state) => value, for results no other option
//            describes; ts then gives its TypeScript type (R standing for Uint8Array or string)
function compile (name, def, binding) {
  const rawName = def.raw || name
  const entry = require('../../symbols/table.json')[rawName] // lib/symbols as data, read on the first build
  const fn = binding[rawName]
  if (!entry || typeof fn !== 'function') throw new Error(`main API: ${name} needs the raw ${rawName}`)
  const args = entry.args
  const arity = args.length
  const isOut = (a) => a.kind === 'out' || a.kind === 'optOut'
  const index = (argName) => {
    const i = args.findIndex((a) => a.name === argName)
    if (i < 0) throw new Error(`main API: ${name}: raw ${rawName} has no argument ${argName}`)
    return i
  }

  let slot = 0
  const fixedArgs = new Array(arity).fill(undefined)
  const taken = new Array(arity).fill(false)
  for (const [argName, value] of Object.entries(def.set || {})) {
    const i = index(argName)
    fixedArgs[i] = value
    taken[i] = true
  }

  let stateAt = -1
  let stateKind = null
  if (def.init) {
    stateAt = args.findIndex((a) => a.kind === 'state')
    stateKind = args[stateAt].len.fixed
    taken[stateAt] = true
  }

  const params = []
  const names = def.params.split(' ').filter(Boolean)
  for (const spec of names) {
    const [pname, bound] = spec.split('=')
    const at = bound ? index(bound) : args.findIndex((a, i) => !taken[i] && !isOut(a))
    if (at < 0) throw new Error(`main API: ${name}: no raw argument left for ${pname}`)
    taken[at] = true
    const a = args[at]
    const where = `${name}(${pname})`
    // the fields the hot path reads hold small integers only (min, max: -1 for none), so every
    // parameter object keeps one hidden class
    const p = { name: pname, at, kind: 0, min: 0, max: -1, slot: 0, nullable: false, rule: null, range: null, stateKind: null, empty: null }
    if (isOut(a)) {
      p.kind = OUTLEN
      const len = a.len || {}
      p.range = {
        lo: len.min !== undefined ? constant(binding, len.min, where) : 0,
        hi: len.max !== undefined ? constant(binding, len.max, where) : U32_MAX
      }
    } else if (a.kind === 'buf' || a.kind === 'opt') {
      p.kind = a.kind === 'buf' && !(def.empty && def.empty.includes(pname)) ? IN : OPT
      if (a.kind === 'buf' && p.kind === OPT) p.empty = new U8(0)
      const override = def.len && def.len[pname]
      p.rule = inputRule(binding, override !== undefined ? override : a.len, where)
      if (p.rule !== null) {
        p.min = p.rule.min
        p.max = p.rule.max === Infinity ? -1 : p.rule.max
      }
      p.slot = -1 // assigned below, after the outputs
    } else if (a.kind === 'nul') {
      p.kind = IGNORED
      fixedArgs[at] = null
    } else if (a.kind === 'num') {
      p.kind = NUM
      p.range = {
        lo: constant(binding, a.range[0], where),
        hi: typeof a.range[1] === 'object' ? Number.MAX_SAFE_INTEGER : constant(binding, a.range[1], where)
      }
    } else if (a.kind === 'state') {
      p.kind = STATE
      p.stateKind = a.len.fixed.replace(/_STATEBYTES$/, '')
    } else {
      throw new Error(`main API: ${name}: cannot map raw argument kind ${a.kind}`)
    }
    params.push(p)
  }

  // Outputs: allocated from the table's rules, each in its own scratch slot.
  const outputs = []
  args.forEach((a, at) => {
    if (!isOut(a)) return
    const o = { name: a.name, at, slot: slot++, size: null, param: -1, of: -1, plus: 0 }
    const byParam = params.findIndex((p) => p.kind === OUTLEN && p.at === at)
    const len = a.len || {}
    if (byParam >= 0) o.param = byParam
    else if (def.sizes && def.sizes[a.name] !== undefined) o.size = def.sizes[a.name]
    else if (len.fixed !== undefined) o.size = constant(binding, len.fixed, `${name}(${a.name})`)
    else if (len.of !== undefined && len.times === undefined && len.base64 === undefined) {
      o.of = params.findIndex((p) => p.kind !== OUTLEN && args[p.at].name === len.of)
      if (o.of < 0) throw new Error(`main API: ${name}: output ${a.name} depends on ${len.of}, which is not a parameter`)
      o.plus = len.plus !== undefined ? constant(binding, len.plus, name) : -constant(binding, len.minus, name)
    } else if (!taken[at]) {
      throw new Error(`main API: ${name}: no length for output ${a.name}`)
    }
    taken[at] = true
    outputs.push(o)
  })
  for (const p of params) if (p.slot === -1) p.slot = slot++
  for (const p of params) p.nullable = p.kind === OPT || p.kind === IGNORED
  if (slot > SLOTS) throw new Error(`main API: ${name} needs ${slot} scratch slots, io.js has ${SLOTS}`)

  args.forEach((a, i) => {
    if (taken[i]) return
    if (a.kind === 'nul' || a.kind === 'opt') fixedArgs[i] = null
    else throw new Error(`main API: ${name}: raw argument ${a.name} is not given`)
  })

  const nParams = params.length
  const hasFormat = def.format !== false
  const fail = def.fail || 'invalid usage'
  const refusable = 'refused' in def
  const returnsBool = entry.returns === 'bool'
  const outKeys = def.outs ? Object.entries(def.outs).map(([k, n]) => [k, outputs.findIndex((o) => o.name === n)]) : null
  if (outputs.length > 1 && !outKeys && !def.shape) throw new Error(`main API: ${name}: several outputs need names`)
  const keyType = def.keyType || null
  const shape = def.shape || null
  return { def, entry, fn, arity, fixedArgs, stateAt, stateKind, params, outputs, nParams, hasFormat, fail, refusable, returnsBool, outKeys, keyType, shape }
}

function build (name, def, binding, io) {
  const plan = compile(name, def, binding)
  const { fn, arity, fixedArgs, stateAt, stateKind, params, outputs, nParams, hasFormat, fail, refusable, returnsBool, outKeys, keyType, shape } = plan

  function format (t, code) {
    return code === UINT8ARRAY ? io.take(t) : io.takeAs(t, code)
  }

  function result (r, targets, code, state) {
    if (shape !== null) return shape(r, targets, code, format, state)
    if (outputs.length === 0) return state !== null ? state : r
    if (outKeys === null) return format(targets[0], code)
    const o = {}
    for (let k = 0; k < outKeys.length; k++) o[outKeys[k][0]] = format(targets[outKeys[k][1]], code)
    if (keyType !== null) o.keyType = keyType
    if (state !== null) return { state, ...o }
    return o
  }

  // Everything the call needs is read into constants here: the wrapper's code is shared by every
  // function this module builds, so a property read on `def` inside it would be megamorphic.
  const isInit = stateAt >= 0
  const isFinal = def.final === true
  const refusedValue = def.refused
  const nOut = outputs.length
  const stateBytes = isInit ? constant(binding, stateKind, name) : 0
  const openStyle = returnsBool && nOut > 0 && shape === null
  const single = nOut === 1 && outKeys === null && shape === null

  // Most functions have the raw layer's own order (outputs first, then the parameters): those get
  // a template with named parameters and a direct call, which keeps small calls within a few
  // percent of calling the raw function by hand.
  const direct = !isInit && !isFinal && shape === null && outKeys === null && nOut <= 1 && nParams <= 6 &&
    Object.keys(def.set || {}).length === 0 && arity === nOut + nParams &&
    outputs.every((o, k) => o.at === k && o.param < 0) &&
    params.every((p, i) => p.at === nOut + i && p.kind !== OUTLEN)
  if (direct) {
    const o = nOut === 1 ? outputs[0] : null
    const ctx = {
      fn,
      io,
      hasFormat,
      hasOut: o !== null,
      outSlot: o !== null ? o.slot : 0,
      outSize: o !== null && o.size !== null ? o.size : -1,
      outOf: o !== null ? o.of : -1,
      outPlus: o !== null ? o.plus : 0,
      ofName: o !== null && o.of >= 0 ? params[o.of].name : '',
      fail,
      refusable,
      refusedValue,
      openStyle
    }
    const f = TEMPLATES[nParams](ctx, params)
    Object.defineProperty(f, 'name', { value: name })
    return f
  }

  // One argument array per function, reused: calls are synchronous and never re-enter. The
  // caller's buffers and the results are dropped from it after each call (`clear`), so it keeps
  // nothing alive (an argument check that throws leaves the earlier ones until the next call).
  const call = fixedArgs.slice()
  const invoke = invoker(fn, arity)
  const clearAt = params.map((p) => p.at).concat(outputs.map((o) => o.at))
  const clear = () => { for (let i = 0; i < clearAt.length; i++) call[clearAt[i]] = null }

  const wrapper = function (...given) {
    const code = hasFormat ? formatCode(given[nParams]) : UINT8ARRAY
    for (let i = 0; i < nParams; i++) convert(io, params[i], given[i], call)
    let state = null
    if (isInit) {
      state = new StateAddress(stateKind, stateBytes)
      call[stateAt] = StateAddress.raw(state)
    } else if (isFinal) {
      state = given[0]
    }
    for (let k = 0; k < nOut; k++) {
      const o = outputs[k]
      let n = o.size
      if (n === null) {
        if (o.param >= 0) {
          n = given[o.param]
        } else {
          const from = lengthOf(call[params[o.of].at])
          n = from + o.plus
          if (n < 0) throw lengthError(params[o.of].name, `at least ${-o.plus}`, from)
        }
      }
      call[o.at] = io.target(n, o.slot)
    }
    let r
    try {
      r = invoke(call)
    } catch (err) {
      clear()
      // a libsodium refusal gets libsodium-wrappers' message; argument errors pass through
      if (!isRefusal(err)) throw err
      if (refusable) return refusedValue
      throw new Error(fail, { cause: err })
    }
    if (openStyle && r === false) {
      clear()
      throw new Error(fail)
    }
    if (isFinal) StateAddress.finalize(state)
    if (single) {
      const t = call[outputs[0].at]
      clear()
      return code === UINT8ARRAY ? io.take(t) : io.takeAs(t, code)
    }
    const targets = new Array(nOut)
    for (let k = 0; k < nOut; k++) targets[k] = call[outputs[k].at]
    clear()
    return result(r, targets, code, isInit ? state : null)
  }
  Object.defineProperty(wrapper, 'name', { value: name })
  return wrapper
}

// Bytes parameters (the common case) inline; the other kinds in convertOther.
function convert (io, p, x, call) {
  const kind = p.kind
  if (kind === IN || (kind === OPT && x !== null && x !== undefined)) {
    const v = io.input(x, p.slot, p.name)
    const n = lengthOf(v)
    if (n < p.min || (p.max >= 0 && n > p.max)) throw lengthMismatch(p, n)
    call[p.at] = v
  } else if (kind === OPT) {
    call[p.at] = p.empty
  } else {
    convertOther(p, x, call)
  }
}

function convertOther (p, x, call) {
  switch (p.kind) {
    case IGNORED:
      if (x !== null && x !== undefined && !isUint8Array(x) && typeof x !== 'string') throw inputTypeError(p.name, x)
      return
    case NUM:
      call[p.at] = numberOf(x, p.name, p.range.lo, p.range.hi)
      return
    case STATE:
      call[p.at] = stateOf(x, p.stateKind, p.name)
      return
    default: // OUTLEN
      numberOf(x, p.name, p.range.lo, p.range.hi)
  }
}

// --- the direct templates ---------------------------------------------------------------------
// value(): one parameter converted for the raw call, kept small so a template can inline it for
// every parameter: bytes parameters here, the rest (null optional bytes, ignored nsec, numbers,
// states) in valueOther.
function value (io, p, x) {
  if (p.kind === IN || (p.kind === OPT && x !== null && x !== undefined)) {
    const v = io.input(x, p.slot, p.name)
    const n = lengthOf(v)
    if (n < p.min || (p.max >= 0 && n > p.max)) throw lengthMismatch(p, n)
    return v
  }
  return valueOther(p, x)
}

function valueOther (p, x) {
  const kind = p.kind
  if (kind === OPT) return p.empty
  if (kind === IGNORED) {
    if (x !== null && x !== undefined && !isUint8Array(x) && typeof x !== 'string') throw inputTypeError(p.name, x)
    return null
  }
  if (kind === NUM) return numberOf(x, p.name, p.range.lo, p.range.hi)
  return stateOf(x, p.stateKind, p.name) // STATE
}

// The output's length: fixed, or the length of parameter `of` plus `plus` (which may be negative:
// a ciphertext shorter than its tag).
function size (c, src) {
  if (c.outSize >= 0) return c.outSize
  const n = lengthOf(src) + c.outPlus
  if (n < 0) throw lengthError(c.ofName, `at least ${-c.outPlus}`, lengthOf(src))
  return n
}

function refuse (c, err) {
  if (!isRefusal(err)) throw err
  if (c.refusable) return c.refusedValue
  throw new Error(c.fail, { cause: err })
}

function noOutput (c, r) {
  if (c.openStyle && r === false) throw new Error(c.fail)
  return r
}

const pick = (i, a, b, c, d, e, f) => i === 0 ? a : i === 1 ? b : i === 2 ? c : i === 3 ? d : i === 4 ? e : f

// One template per parameter count. Everything a call reads is a closure constant (the code of a
// template is shared by every function of that arity, so reads through an object would be
// polymorphic); bytes parameters that are null where null is allowed skip value() altogether.
const TEMPLATES = [
  (c) => {
    const { fn, io, hasFormat, hasOut, outSlot } = c
    return function (f0) {
      const code = hasFormat ? formatCode(f0) : UINT8ARRAY
      let r
      if (!hasOut) {
        try { r = fn() } catch (err) { return refuse(c, err) }
        return noOutput(c, r)
      }
      const t = io.target(size(c, null), outSlot)
      try { r = fn(t) } catch (err) { return refuse(c, err) }
      if (c.openStyle && r === false) throw new Error(c.fail)
      return code === UINT8ARRAY ? io.take(t) : io.takeAs(t, code)
    }
  },
  (c, [p0]) => {
    const { fn, io, hasFormat, hasOut, outSlot } = c
    return function (a0, f0) {
      const code = hasFormat ? formatCode(f0) : UINT8ARRAY
      const x0 = (a0 === null || a0 === undefined) && p0.nullable ? p0.empty : value(io, p0, a0)
      let r
      if (!hasOut) {
        try { r = fn(x0) } catch (err) { return refuse(c, err) }
        return noOutput(c, r)
      }
      const t = io.target(size(c, x0), outSlot)
      try { r = fn(t, x0) } catch (err) { return refuse(c, err) }
      if (c.openStyle && r === false) throw new Error(c.fail)
      return code === UINT8ARRAY ? io.take(t) : io.takeAs(t, code)
    }
  },
  (c, [p0, p1]) => {
    const { fn, io, hasFormat, hasOut, outSlot, outOf } = c
    return function (a0, a1, f0) {
      const code = hasFormat ? formatCode(f0) : UINT8ARRAY
      const x0 = (a0 === null || a0 === undefined) && p0.nullable ? p0.empty : value(io, p0, a0)
      const x1 = (a1 === null || a1 === undefined) && p1.nullable ? p1.empty : value(io, p1, a1)
      let r
      if (!hasOut) {
        try { r = fn(x0, x1) } catch (err) { return refuse(c, err) }
        return noOutput(c, r)
      }
      const t = io.target(size(c, pick(outOf, x0, x1)), outSlot)
      try { r = fn(t, x0, x1) } catch (err) { return refuse(c, err) }
      if (c.openStyle && r === false) throw new Error(c.fail)
      return code === UINT8ARRAY ? io.take(t) : io.takeAs(t, code)
    }
  },
  (c, [p0, p1, p2]) => {
    const { fn, io, hasFormat, hasOut, outSlot, outOf } = c
    return function (a0, a1, a2, f0) {
      const code = hasFormat ? formatCode(f0) : UINT8ARRAY
      const x0 = (a0 === null || a0 === undefined) && p0.nullable ? p0.empty : value(io, p0, a0)
      const x1 = (a1 === null || a1 === undefined) && p1.nullable ? p1.empty : value(io, p1, a1)
      const x2 = (a2 === null || a2 === undefined) && p2.nullable ? p2.empty : value(io, p2, a2)
      let r
      if (!hasOut) {
        try { r = fn(x0, x1, x2) } catch (err) { return refuse(c, err) }
        return noOutput(c, r)
      }
      const t = io.target(size(c, pick(outOf, x0, x1, x2)), outSlot)
      try { r = fn(t, x0, x1, x2) } catch (err) { return refuse(c, err) }
      if (c.openStyle && r === false) throw new Error(c.fail)
      return code === UINT8ARRAY ? io.take(t) : io.takeAs(t, code)
    }
  },
  (c, [p0, p1, p2, p3]) => {
    const { fn, io, hasFormat, hasOut, outSlot, outOf } = c
    return function (a0, a1, a2, a3, f0) {
      const code = hasFormat ? formatCode(f0) : UINT8ARRAY
      const x0 = (a0 === null || a0 === undefined) && p0.nullable ? p0.empty : value(io, p0, a0)
      const x1 = (a1 === null || a1 === undefined) && p1.nullable ? p1.empty : value(io, p1, a1)
      const x2 = (a2 === null || a2 === undefined) && p2.nullable ? p2.empty : value(io, p2, a2)
      const x3 = (a3 === null || a3 === undefined) && p3.nullable ? p3.empty : value(io, p3, a3)
      let r
      if (!hasOut) {
        try { r = fn(x0, x1, x2, x3) } catch (err) { return refuse(c, err) }
        return noOutput(c, r)
      }
      const t = io.target(size(c, pick(outOf, x0, x1, x2, x3)), outSlot)
      try { r = fn(t, x0, x1, x2, x3) } catch (err) { return refuse(c, err) }
      if (c.openStyle && r === false) throw new Error(c.fail)
      return code === UINT8ARRAY ? io.take(t) : io.takeAs(t, code)
    }
  },
  (c, [p0, p1, p2, p3, p4]) => {
    const { fn, io, hasFormat, hasOut, outSlot, outOf } = c
    return function (a0, a1, a2, a3, a4, f0) {
      const code = hasFormat ? formatCode(f0) : UINT8ARRAY
      const x0 = (a0 === null || a0 === undefined) && p0.nullable ? p0.empty : value(io, p0, a0)
      const x1 = (a1 === null || a1 === undefined) && p1.nullable ? p1.empty : value(io, p1, a1)
      const x2 = (a2 === null || a2 === undefined) && p2.nullable ? p2.empty : value(io, p2, a2)
      const x3 = (a3 === null || a3 === undefined) && p3.nullable ? p3.empty : value(io, p3, a3)
      const x4 = (a4 === null || a4 === undefined) && p4.nullable ? p4.empty : value(io, p4, a4)
      let r
      if (!hasOut) {
        try { r = fn(x0, x1, x2, x3, x4) } catch (err) { return refuse(c, err) }
        return noOutput(c, r)
      }
      const t = io.target(size(c, pick(outOf, x0, x1, x2, x3, x4)), outSlot)
      try { r = fn(t, x0, x1, x2, x3, x4) } catch (err) { return refuse(c, err) }
      if (c.openStyle && r === false) throw new Error(c.fail)
      return code === UINT8ARRAY ? io.take(t) : io.takeAs(t, code)
    }
  },
  (c, [p0, p1, p2, p3, p4, p5]) => {
    const { fn, io, hasFormat, hasOut, outSlot, outOf } = c
    return function (a0, a1, a2, a3, a4, a5, f0) {
      const code = hasFormat ? formatCode(f0) : UINT8ARRAY
      const x0 = (a0 === null || a0 === undefined) && p0.nullable ? p0.empty : value(io, p0, a0)
      const x1 = (a1 === null || a1 === undefined) && p1.nullable ? p1.empty : value(io, p1, a1)
      const x2 = (a2 === null || a2 === undefined) && p2.nullable ? p2.empty : value(io, p2, a2)
      const x3 = (a3 === null || a3 === undefined) && p3.nullable ? p3.empty : value(io, p3, a3)
      const x4 = (a4 === null || a4 === undefined) && p4.nullable ? p4.empty : value(io, p4, a4)
      const x5 = (a5 === null || a5 === undefined) && p5.nullable ? p5.empty : value(io, p5, a5)
      let r
      if (!hasOut) {
        try { r = fn(x0, x1, x2, x3, x4, x5) } catch (err) { return refuse(c, err) }
        return noOutput(c, r)
      }
      const t = io.target(size(c, pick(outOf, x0, x1, x2, x3, x4, x5)), outSlot)
      try { r = fn(t, x0, x1, x2, x3, x4, x5) } catch (err) { return refuse(c, err) }
      if (c.openStyle && r === false) throw new Error(c.fail)
      return code === UINT8ARRAY ? io.take(t) : io.takeAs(t, code)
    }
  }
]

// A direct call with the argument array spread by hand (no Function.prototype.apply).
function invoker (fn, arity) {
  switch (arity) {
    case 0: return () => fn()
    case 1: return (c) => fn(c[0])
    case 2: return (c) => fn(c[0], c[1])
    case 3: return (c) => fn(c[0], c[1], c[2])
    case 4: return (c) => fn(c[0], c[1], c[2], c[3])
    case 5: return (c) => fn(c[0], c[1], c[2], c[3], c[4])
    case 6: return (c) => fn(c[0], c[1], c[2], c[3], c[4], c[5])
    case 7: return (c) => fn(c[0], c[1], c[2], c[3], c[4], c[5], c[6])
    default: return (c) => fn.apply(null, c)
  }
}

module.exports = { build, compile, stateOf, KINDS: { IN, OPT, IGNORED, NUM, STATE, OUTLEN } }

'use strict'
// The plan of one main-API function, from its definition (lib/surfaces/wrappers/spec.js) and the
// raw symbol table: the raw function's non-output arguments become the caller's parameters (in
// order, or bound by name), its outputs are allocated from the table's length rules and
// returned, formatted as asked. scripts/generate.js writes each plan out as a plain function
// (lib/surfaces/wrappers/functions.js) and its TypeScript declaration; nothing reads this at
// run time.
const { SLOTS } = require('../lib/surfaces/wrappers/io')
const { U8 } = require('../lib/intrinsics')

const IN = 0 // bytes: Uint8Array or string
const OPT = 1 // bytes or null/undefined
const IGNORED = 2 // libsodium's unused nsec: checked like OPT, then passed as null
const NUM = 3
const STATE = 4
const OUTLEN = 5 // the length of an output

const U32_MAX = 0xffffffff


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
  const entry = require('../lib/symbols/table.json')[rawName] // lib/symbols as data, read on the first build
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

module.exports = { compile, KINDS: { IN, OPT, IGNORED, NUM, STATE, OUTLEN } }

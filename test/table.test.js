'use strict'
// One description (CONTRIBUTING.md): lib/symbols is the only place a function's rules are written
// down, and the C, hand-written for reading, checks them in its own words. This file proves the
// two say the same thing, function by function, on every backend:
//   - every entry is well-formed: known fields and kinds only, every constant it names exists,
//     every `fails` comes with its `failsWhen`;
//   - every length rule: a call that breaks it (one byte off, past a bound) is refused with a
//     RangeError whose rule, as the C spells it ("c must be m_len + crypto_..._ABYTES bytes long"),
//     evaluates to the bound the table gives, with the same sense (exactly, at least, at most, one
//     of two); a buffer the table gives no rule takes any length, an optional one null;
//   - every num range: one past each end is refused, and the C's bounds are the table's;
//   - every `fails`: the input `failsWhen` describes makes the call fail with exactly that
//     message, as a refusal (err.code ERR_NATRIUM_REFUSED).
// The overlap rules (`apart`, `inPlace`) are proved the same way by test/contract.test.js.
// Random bytes fill what the table leaves free; no outcome here depends on them but with
// probability 2^-128 (a forged tag that verifies).
const assert = require('assert')
const { symbols } = require('../lib/symbols')
const kinds = require('../lib/symbols/kinds')
const { backends, random } = require('./helpers')
const { constant, numValue } = require('./table-args')

const BUFFERS = ['out', 'optOut', 'buf', 'opt', 'state']
const isBuffer = (a) => BUFFERS.includes(a.kind)
const LEN_KEYS = [['fixed'], ['of', 'plus'], ['of', 'minus'], ['of', 'times'], ['of', 'base64'], ['min'], ['max'], ['min', 'max'], ['min', 'max', 'oneOf']]
const PROBE_LIMIT = 1 << 20 // bounds past this are not probed (the buffer would be too large)

function validate (name, entry, sodium) {
  const problems = []
  const say = (what) => problems.push(`${name}: ${what}`)
  const isConstant = (c) => {
    try { constant(sodium, c); return true } catch { return false }
  }
  for (const k of Object.keys(entry)) if (!kinds.ENTRY_FIELDS.includes(k)) say(`unknown field ${k}`)
  if (!Array.isArray(entry.args)) return [...problems, `${name}: args is not an array`]
  if (!kinds.RETURNS.includes(entry.returns)) say(`returns ${entry.returns}`)
  const byName = new Map(entry.args.map((a) => [a.name, a]))
  if (byName.size !== entry.args.length) say('two arguments share a name')
  for (const a of entry.args) {
    for (const k of Object.keys(a)) if (!kinds.ARG_FIELDS.includes(k)) say(`${a.name}: unknown field ${k}`)
    if (!kinds.KINDS.includes(a.kind)) say(`${a.name}: kind ${a.kind}`)
    if (a.len !== undefined) {
      if (!isBuffer(a)) say(`${a.name}: a length rule on a ${a.kind}`)
      const keys = Object.keys(a.len).sort().join()
      if (!LEN_KEYS.some((ks) => ks.slice().sort().join() === keys)) say(`${a.name}: length rule ${JSON.stringify(a.len)}`)
      for (const c of [a.len.fixed, a.len.plus, a.len.minus, a.len.min, a.len.max, ...(a.len.oneOf || [])]) {
        if (c !== undefined && !isConstant(c)) say(`${a.name}: constant ${c} is not exported`)
      }
      if (a.len.of !== undefined && !(byName.has(a.len.of) && isBuffer(byName.get(a.len.of)))) say(`${a.name}: sized from ${a.len.of}`)
      if (a.len.base64 !== undefined && (byName.get(a.len.base64) || {}).kind !== 'num') say(`${a.name}: base64 of ${a.len.base64}`)
      if (a.len.oneOf && !(a.len.oneOf.length === 2 && a.len.oneOf.includes(a.len.min) && a.len.oneOf.includes(a.len.max))) say(`${a.name}: oneOf must name min and max`)
    }
    if (a.kind === 'num') {
      if (!Array.isArray(a.range) || a.range.length !== 2) say(`${a.name}: range`)
      else {
        for (const b of a.range) {
          if (typeof b === 'object' ? !(byName.has(b.of) && isBuffer(byName.get(b.of))) : !isConstant(b)) say(`${a.name}: bound ${JSON.stringify(b)}`)
        }
      }
      if (a.example !== undefined && !isConstant(a.example)) say(`${a.name}: example ${a.example}`)
      if (a.optional !== undefined && a.optional !== true) say(`${a.name}: optional`)
    } else {
      for (const k of ['range', 'example', 'optional']) if (a[k] !== undefined) say(`${a.name}: ${k} on a ${a.kind}`)
    }
    for (const other of [...(a.apart || []), ...(a.inPlace || [])]) {
      if (!(byName.has(other) && isBuffer(byName.get(other)) && other !== a.name)) say(`${a.name}: overlap rule names ${other}`)
    }
  }
  if (entry.fails !== undefined && !(typeof entry.fails === 'string' && entry.fails.length > 0)) say('fails is not a message')
  if ((entry.fails === undefined) !== (entry.failsWhen === undefined)) say('fails and failsWhen go together')
  const w = entry.failsWhen
  if (w !== undefined && !kinds.FAILS_WHEN_WORDS.includes(w)) {
    if (typeof w !== 'object' || w === null) say(`failsWhen ${JSON.stringify(w)}`)
    else {
      for (const [arg, v] of Object.entries(w)) {
        const a = byName.get(arg)
        if (!a) say(`failsWhen names ${arg}`)
        else if (a.kind === 'num' ? !isConstant(v) : !(v === null ? ['opt', 'optOut'].includes(a.kind)
          : (Number.isInteger(v) && v >= 0 && v < 256) || (typeof v === 'string' && /^([0-9a-f]{2})+$/.test(v)))) {
          say(`failsWhen ${arg}: ${JSON.stringify(v)}`)
        }
      }
    }
  }
  if (entry.native !== undefined && entry.native !== true) say('native')
  return problems
}

// The byte length of each buffer argument in a well-formed call, with some lengths given
// (`given`); the rules of the others are worked out from them, as test/table-args.js does.
function lengthsWith (sodium, entry, given = {}) {
  const len = Object.assign({}, given)
  const pending = []
  for (const a of entry.args) {
    if (!isBuffer(a) || len[a.name] !== undefined) continue
    const r = a.len
    if (!r) len[a.name] = 16
    else if (r.fixed !== undefined) len[a.name] = constant(sodium, r.fixed)
    else if (r.of !== undefined) pending.push(a)
    else if (r.min !== undefined) len[a.name] = r.max !== undefined ? constant(sodium, r.min) : Math.max(constant(sodium, r.min), 16)
    else len[a.name] = Math.min(constant(sodium, r.max), 16)
  }
  for (let guard = 0; pending.length && guard < 10; guard++) {
    for (let i = pending.length - 1; i >= 0; i--) {
      const { name, len: r } = pending[i]
      if (len[r.of] === undefined) continue
      len[name] = Math.max(0, ruleLength(sodium, entry, r, len)) // c one byte short of ABYTES: m is empty
      pending.splice(i, 1)
    }
  }
  return len
}

// The length an `of` rule asks for, given the others' lengths.
function ruleLength (sodium, entry, r, len) {
  if (r.times !== undefined) return len[r.of] * r.times
  if (r.base64 !== undefined) return sodium.sodium_base64_encoded_len(len[r.of], numValue(sodium, entry, r.base64)) - 1
  return len[r.of] + (r.plus !== undefined ? constant(sodium, r.plus) : -constant(sodium, r.minus))
}

function argsFor (sodium, entry, len) {
  return entry.args.map((a) => a.kind === 'nul' ? null : a.kind === 'num' ? numValue(sodium, entry, a.name) : random(len[a.name]))
}

// The value of a rule as the C spells it in a message: constants, <arg>_len, num arguments
// (nums: their values in the call), sizeof(<p>_state) (the table's <p>_STATEBYTES), numbers,
// sodium_base64_encoded_len(...), + - * and parentheses.
function evaluate (sodium, text, len, nums) {
  const js = text.replace(/sizeof\((\w+)_state\)/g, (_, p) => String(constant(sodium, `${p}_STATEBYTES`)))
    .replace(/sodium_base64_encoded_len\(([^,()]+), ([^,()]+)\)/g, (_, n, v) =>
      String(sodium.sodium_base64_encoded_len(evaluate(sodium, n, len, nums), evaluate(sodium, v, len, nums))))
    .replace(/[A-Za-z_]\w*/g, (id) => {
      const m = /^(\w+)_len$/.exec(id)
      if (m && len[m[1]] !== undefined) return String(len[m[1]])
      if (nums[id] !== undefined) return String(nums[id])
      return String(constant(sodium, id))
    })
  if (!/^[\d\s+\-*()]+$/.test(js)) throw new Error(`cannot evaluate the rule "${text}"`)
  return Function(`"use strict"; return (${js})`)()
}

// Call fn(...args); give back what it threw (or how its Promise rejected), or null.
async function outcome (fn, args) {
  try {
    const r = fn(...args)
    if (r instanceof Promise) await r
    return null
  } catch (err) {
    return err
  }
}

function lengthMessage (err) {
  if (!(err instanceof RangeError)) return null
  const either = /^(\w+) must be (.+) or (.+) bytes long$/.exec(err.message)
  if (either) return { name: either[1], sense: 'either', rules: [either[2], either[3]] }
  const m = /^(\w+) must be (at least |at most )?(.+) bytes long$/.exec(err.message)
  return m && { name: m[1], sense: (m[2] || 'exactly ').trim(), rules: [m[3]] }
}

for (const { name: backend, raw: sodium } of backends) {
  const present = Object.entries(symbols).filter(([, e]) => !(e.native && backend !== 'native'))

  describe(`table [${backend}]: the table is well-formed`, () => {
    it('every entry has only known fields, kinds and constants, and each `fails` its `failsWhen`', () => {
      const problems = present.flatMap(([name, entry]) => validate(name, entry, sodium))
      assert.deepStrictEqual(problems, [])
    })
  })

  describe(`table [${backend}]: the C checks exactly the table's length rules`, () => {
    it('every length rule, broken by a byte or past its bound, is refused with the table\'s bound', async () => {
      const problems = []
      for (const [fname, entry] of present) {
        const good = lengthsWith(sodium, entry)
        for (const a of entry.args) {
          if (!isBuffer(a) || !a.len) continue
          const r = a.len
          // lengths to try, each with the sense and value the table gives for a's rule
          const probes = []
          if (r.fixed !== undefined || r.of !== undefined) {
            const n = good[a.name]
            probes.push(n + 1)
            if (n > 0) probes.push(n - 1)
          } else if (r.oneOf) {
            const [lo, hi] = r.oneOf.map((c) => constant(sodium, c)).sort((x, y) => x - y)
            if (lo + 1 < hi) probes.push(lo + 1)
            if (lo > 0) probes.push(lo - 1)
            probes.push(hi + 1)
          } else {
            if (r.min !== undefined && constant(sodium, r.min) > 0) probes.push(constant(sodium, r.min) - 1)
            if (r.max !== undefined && constant(sodium, r.max) < PROBE_LIMIT) probes.push(constant(sodium, r.max) + 1)
          }
          for (const n of probes) {
            const len = lengthsWith(sodium, entry, { [a.name]: n })
            const err = await outcome(sodium[fname], argsFor(sodium, entry, len))
            const got = err && lengthMessage(err)
            const where = `${fname}(${a.name} of ${n} bytes)`
            if (!got || got.name !== a.name) {
              problems.push(`${where}: ${err ? `${err.constructor.name}: ${err.message}` : 'accepted'}`)
              continue
            }
            const nums = Object.fromEntries(entry.args.filter((b) => b.kind === 'num').map((b) => [b.name, numValue(sodium, entry, b.name)]))
            let values
            try {
              values = got.rules.map((t) => evaluate(sodium, t, len, nums))
            } catch (e) {
              problems.push(`${where}: ${e.message}`)
              continue
            }
            const table = r.fixed !== undefined || r.of !== undefined
              ? { sense: 'exactly', values: [r.fixed !== undefined ? constant(sodium, r.fixed) : ruleLength(sodium, entry, r, len)] }
              : r.oneOf ? { sense: 'either', values: r.oneOf.map((c) => constant(sodium, c)) }
                : n < (r.min !== undefined ? constant(sodium, r.min) : -1) ? { sense: 'at least', values: [constant(sodium, r.min)] }
                  : { sense: 'at most', values: [constant(sodium, r.max)] }
            if (got.sense !== table.sense || values.slice().sort().join() !== table.values.slice().sort().join()) {
              problems.push(`${where}: the C says "${err.message}" (${got.sense} ${values}), the table ${table.sense} ${table.values}`)
            }
          }
        }
      }
      assert.deepStrictEqual(problems, [])
    })

    it('a buffer the table gives no length rule takes any length, and an optional one null', async () => {
      const problems = []
      for (const [fname, entry] of present) {
        if (/^sodium_(free|mprotect_|munlock)/.test(fname)) continue // they act on sodium_malloc's memory
        for (const a of entry.args) {
          if (!isBuffer(a)) continue
          const sizesOthers = entry.args.some((b) => (b.len && b.len.of === a.name) || (b.range || []).some((x) => x && x.of === a.name))
          const tries = []
          if (!a.len && !sizesOthers) tries.push(0, 33)
          if (a.kind === 'opt' || a.kind === 'optOut') tries.push(null)
          for (const n of tries) {
            const len = lengthsWith(sodium, entry, n === null ? {} : { [a.name]: n })
            const args = argsFor(sodium, entry, len)
            if (n === null) args[entry.args.indexOf(a)] = null
            const err = await outcome(sodium[fname], args)
            if (err && (err instanceof TypeError || err instanceof RangeError) && err.message.startsWith(`${a.name} `)) {
              problems.push(`${fname}(${a.name} ${n === null ? 'null' : `of ${n} bytes`}): ${err.message}`)
            }
          }
        }
      }
      assert.deepStrictEqual(problems, [])
    })
  })

  describe(`table [${backend}]: the C checks exactly the table's number ranges`, () => {
    it('one past each end of every range is refused, naming the table\'s bounds', async () => {
      const problems = []
      for (const [fname, entry] of present) {
        const len = lengthsWith(sodium, entry)
        entry.args.forEach((a, i) => {
          if (a.kind !== 'num') return
          const [lo, hi] = a.range.map((b) => typeof b === 'object' ? ruleLength(sodium, entry, b, len) : constant(sodium, b))
          const probes = []
          if (lo > 0) probes.push(lo - 1)
          if (hi < Number.MAX_SAFE_INTEGER) probes.push(hi + 1)
          for (const v of probes) {
            const args = argsFor(sodium, entry, len)
            args[i] = v
            let err = null
            try { const r = sodium[fname](...args); if (r instanceof Promise) r.catch(() => {}) } catch (e) { err = e }
            const m = err instanceof RangeError && new RegExp(`^${a.name} must be an integer between (\\d+) and (\\d+)$`).exec(err.message)
            if (!m) problems.push(`${fname}(${a.name} = ${v}): ${err ? err.message : 'accepted'}`)
            else if (Number(m[1]) !== lo || Number(m[2]) !== hi) problems.push(`${fname}: the C's ${a.name} is ${m[1]}..${m[2]}, the table's ${lo}..${hi}`)
          }
        })
      }
      assert.deepStrictEqual(problems, [])
    })
  })

  // AES-256-GCM's afternm functions take only a state their backend's beforenm stamped
  const STATE_MAKERS = {
    crypto_aead_aes256gcm_STATEBYTES: (sodium, st) => sodium.crypto_aead_aes256gcm_beforenm(st, new Uint8Array(32).fill(7))
  }
  describe(`table [${backend}]: every \`fails\` is what the C answers to \`failsWhen\``, () => {
    for (const [fname, entry] of present) {
      if (typeof entry.failsWhen !== 'object') continue
      it(`${fname}: ${JSON.stringify(entry.failsWhen)} fails with "${entry.fails}"`, async () => {
        const args = argsFor(sodium, entry, lengthsWith(sodium, entry))
        entry.args.forEach((a, i) => {
          // a state the C checks for its maker's stamp is made by its maker, unless it is the input
          const make = a.kind === 'state' && !(a.name in entry.failsWhen) && STATE_MAKERS[a.len.fixed]
          if (make) make(sodium, args[i])
        })
        entry.args.forEach((a, i) => {
          const v = entry.failsWhen[a.name]
          if (v === undefined) return
          if (a.kind === 'num') args[i] = constant(sodium, v)
          else if (v === null) args[i] = null
          else if (typeof v === 'number') args[i].fill(v)
          else { args[i].fill(0); args[i].set(Buffer.from(v, 'hex')) }
        })
        const err = await outcome(sodium[fname], args)
        assert.ok(err, 'the call succeeded')
        assert.ok(!(err instanceof TypeError || err instanceof RangeError), `${err.constructor.name}: ${err.message}`)
        assert.strictEqual(err.message, entry.fails)
        assert.strictEqual(err.code, 'ERR_NATRIUM_REFUSED')
      })
    }
  })
}

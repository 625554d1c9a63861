'use strict'
// Table-driven checks of the raw contract for every symbol in lib/symbols: the function exists,
// a well-formed call is accepted, and every malformed argument is refused with a TypeError or
// RangeError that names the parameter, leaving the process alive; and the C refuses exactly the
// overlaps the table's `apart`/`inPlace` rules name (so the two cannot disagree).
const assert = require('assert')
const { symbols } = require('../lib/symbols')
const { backends, random } = require('./helpers')
const { constant, wellFormed } = require('./table-args')

// A well-formed call may still be refused for what the bytes mean (a forged tag, a point off the
// curve): that is a plain Error (or a false/negative return), never a TypeError or RangeError.
function callLoosely (fn, args) {
  try {
    return fn(...args)
  } catch (err) {
    if (err instanceof TypeError || err instanceof RangeError) throw err
    return err
  }
}

function throwsNaming (fn, args, type, name, why) {
  assert.throws(() => fn(...args), (err) => {
    assert.ok(err instanceof type, `${why}: expected ${type.name}, got ${err && err.name}: ${err && err.message}`)
    assert.ok(err.message.startsWith(`${name} `), `${why}: message should name '${name}': ${err.message}`)
    return true
  }, why)
}

const BUFFER_KINDS = ['out', 'optOut', 'buf', 'opt', 'state']

// The overlap rule the table states between arguments x and y (either way round), as
// { first, second, inPlace }, or null.
function overlapRule (entry, x, y) {
  for (const [a, b] of [[x, y], [y, x]]) {
    if ((a.apart || []).includes(b.name)) return { first: a.name, second: b.name, inPlace: false }
    if ((a.inPlace || []).includes(b.name)) return { first: a.name, second: b.name, inPlace: true }
  }
  return null
}

// fn(...args), and the "x must not overlap y" it threw, or null; a Promise's work is left to run.
function overlapRefusal (fn, args, pending) {
  try {
    const r = fn(...args)
    if (r instanceof Promise) pending.push(r.catch(() => {}))
    return null
  } catch (err) {
    const m = /^(\w+) must not overlap (\w+)$/.exec(err.message)
    if (m && !(err instanceof RangeError)) throw new Error(`overlap refused with ${err.constructor.name}: ${err.message}`)
    return m ? `${m[1]}~${m[2]}` : null
  }
}

for (const { name: backend, raw: sodium } of backends) {
  describe(`contract [${backend}]: overlap rules`, () => {
    // Each pair of buffer arguments of each function, made to share bytes of one ArrayBuffer: the
    // second starting one byte into the first (a partial overlap), then both at the same start
    // (in place). Only the two share anything, so only a rule between them can refuse.
    it('the C refuses exactly the overlaps the table names, for every function', async () => {
      const pending = []
      const problems = []
      for (const [fname, entry] of Object.entries(symbols)) {
        if ((entry.native && backend !== 'native') || /^sodium_(malloc|free|m(un)?lock|mprotect)/.test(fname)) continue
        const args = entry.args
        for (let i = 0; i < args.length; i++) {
          for (let j = 0; j < args.length; j++) {
            if (i === j || !BUFFER_KINDS.includes(args[i].kind) || !BUFFER_KINDS.includes(args[j].kind)) continue
            const good = wellFormed(sodium, entry, { roomy: true })
            const [li, lj] = [good[i].length, good[j].length]
            if (li === 0 || lj === 0) continue
            const rule = overlapRule(entry, args[i], args[j])
            const expected = rule ? `${rule.first}~${rule.second}` : null
            // one starts a byte into the other (which needs at least two bytes)
            const [at, bt] = li >= 2 ? [0, 1] : lj >= 2 ? [1, 0] : [-1, -1]
            if (at >= 0) {
              const partial = good.slice()
              const shared = new Uint8Array(li + lj + 1)
              partial[i] = shared.subarray(at, at + li)
              partial[j] = shared.subarray(bt, bt + lj)
              partial[i].set(good[i])
              partial[j].set(good[j])
              const got = overlapRefusal(sodium[fname], partial, pending)
              if (got !== expected) problems.push(`${fname}(${args[i].name} partly over ${args[j].name}): C ${got}, table ${expected}`)
            }
            if (i < j) {
              const same = good.slice()
              const buffer = new Uint8Array(Math.max(li, lj))
              same[i] = buffer.subarray(0, li)
              same[j] = buffer.subarray(0, lj)
              same[j].set(good[j])
              const inPlace = overlapRefusal(sodium[fname], same, pending)
              const want = rule && !rule.inPlace ? expected : null
              if (inPlace !== want) problems.push(`${fname}(${args[i].name} at the start of ${args[j].name}): C ${inPlace}, table ${want}`)
            }
          }
        }
      }
      await Promise.all(pending)
      assert.deepStrictEqual(problems, [])
    })

    it('every rule names arguments of its function, and every output sharing a call with a state is apart from it', () => {
      for (const [fname, entry] of Object.entries(symbols)) {
        const names = entry.args.map((a) => a.name)
        for (const a of entry.args) {
          for (const other of [...(a.apart || []), ...(a.inPlace || [])]) {
            assert.ok(names.includes(other) && other !== a.name, `${fname}: ${a.name} names ${other}`)
          }
        }
        const state = entry.args.find((a) => a.kind === 'state')
        for (const a of entry.args) {
          if (state && (a.kind === 'out' || a.kind === 'optOut')) assert.ok((a.apart || []).includes(state.name), `${fname}: ${a.name} is not apart from ${state.name}`)
        }
      }
    })
  })

  describe(`contract [${backend}]`, () => {
    for (const [fname, entry] of Object.entries(symbols)) {
      if (entry.native && backend !== 'native') continue
      describe(fname, () => {
        it('exists and accepts a well-formed call', async () => {
          assert.strictEqual(typeof sodium[fname], 'function', `${fname} is not exported`)
          const result = callLoosely(sodium[fname], wellFormed(sodium, entry))
          if (entry.returns === 'promise') await Promise.resolve(result).catch(() => {})
          else if (entry.returns === 'bool' && !(result instanceof Error)) assert.strictEqual(typeof result, 'boolean')
          else if (entry.returns === 'number' && !(result instanceof Error)) assert.strictEqual(typeof result, 'number')
          else if (entry.returns === 'void' && !(result instanceof Error)) assert.strictEqual(result, undefined)
        })

        entry.args.forEach((a, i) => {
          const args = () => wellFormed(sodium, entry)
          if (a.kind === 'nul') {
            it(`${a.name}: must be null`, () => {
              const bad = args(); bad[i] = new Uint8Array(1)
              throwsNaming(sodium[fname], bad, TypeError, a.name, 'non-null nsec')
            })
            return
          }
          if (a.kind === 'num') {
            it(`${a.name}: rejects a non-number and a negative`, () => {
              const bad = args(); bad[i] = 'x'
              throwsNaming(sodium[fname], bad, TypeError, a.name, 'string for a number')
              bad[i] = -1
              throwsNaming(sodium[fname], bad, RangeError, a.name, 'negative number')
            })
            return
          }
          it(`${a.name}: rejects a wrong type, a missing value and a detached buffer`, () => {
            const bad = args(); bad[i] = 'not a buffer'
            throwsNaming(sodium[fname], bad, TypeError, a.name, 'string for a buffer')
            bad[i] = {}
            throwsNaming(sodium[fname], bad, TypeError, a.name, 'object for a buffer')
            if (a.kind !== 'opt' && a.kind !== 'optOut') {
              bad[i] = undefined
              throwsNaming(sodium[fname], bad, TypeError, a.name, 'undefined for a buffer')
            }
            const d = args()
            const view = d[i]
            structuredClone(view.buffer, { transfer: [view.buffer] }) // detaches view's buffer
            throwsNaming(sodium[fname], d, TypeError, a.name, 'detached buffer')
          })
          // An argument others are sized from (m for c = m + ABYTES) moves the blame to them.
          const sizesOthers = entry.args.some((b) => b.len && b.len.of === a.name)
          const r = a.len
          if (r && !sizesOthers) {
            const exact = r.fixed !== undefined || r.of !== undefined
            it(`${a.name}: rejects a wrong length`, () => {
              const good = args()
              const n = good[i].length
              if (exact || (r.max !== undefined && constant(sodium, r.max) < 2 ** 31 - 1)) {
                const bad = good.slice(); bad[i] = random(r.max !== undefined && !exact ? constant(sodium, r.max) + 1 : n + 1)
                throwsNaming(sodium[fname], bad, RangeError, a.name, 'too long')
              }
              if ((exact || r.min !== undefined) && (exact ? n : constant(sodium, r.min)) > 0) {
                const bad = good.slice(); bad[i] = random((exact ? n : constant(sodium, r.min)) - 1)
                throwsNaming(sodium[fname], bad, RangeError, a.name, 'too short')
              }
            })
          }
        })
      })
    }
  })
}

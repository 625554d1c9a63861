'use strict'
// Table-driven checks of the raw contract for every symbol in lib/symbols: the function exists,
// a well-formed call is accepted, and every malformed argument is refused with a TypeError or
// RangeError that names the parameter, leaving the process alive.
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

for (const { name: backend, raw: sodium } of backends) {
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

'use strict'
// Well-formed arguments for any function of the symbol table (lib/symbols), from its length rules:
// shared by the contract test and the sodium-native differential test.
const { random } = require('./helpers')

function constant (sodium, c) {
  if (typeof c === 'number') return c
  const v = sodium[c]
  if (typeof v !== 'number') throw new Error(`constant ${c} is not exported`)
  return v
}

// Lengths for a well-formed call: fixed rules first, then rules relative to other arguments.
// `roomy`: a buffer with only a lower bound gets 16 bytes more than it, so that every buffer the
// rules allow to be non-empty is (the overlap tests need bytes to overlap).
function lengths (sodium, entry, { roomy = false } = {}) {
  const len = {}
  const pending = []
  for (const a of entry.args) {
    if (a.kind === 'nul' || a.kind === 'num') continue
    const r = a.len
    if (!r) len[a.name] = 16
    else if (r.fixed !== undefined) len[a.name] = constant(sodium, r.fixed)
    else if (r.of) pending.push(a)
    else if (r.min !== undefined) {
      const min = constant(sodium, r.min)
      len[a.name] = r.max !== undefined ? min : Math.max(min + (roomy ? 16 : 0), 16)
    }
    else len[a.name] = constant(sodium, r.max)
  }
  for (let guard = 0; pending.length && guard < 10; guard++) {
    for (let i = pending.length - 1; i >= 0; i--) {
      const { name, len: r } = pending[i]
      if (len[r.of] === undefined) continue
      len[name] = r.times !== undefined ? len[r.of] * r.times
        : r.base64 !== undefined ? sodium.sodium_base64_encoded_len(len[r.of], numValue(sodium, entry, r.base64)) - 1
          : len[r.of] + (r.plus !== undefined ? constant(sodium, r.plus) : -constant(sodium, r.minus))
      pending.splice(i, 1)
    }
  }
  if (pending.length) throw new Error(`unresolvable length rules: ${pending.map((a) => a.name)}`)
  return len
}

// The value a well-formed call passes for the num argument `name`.
function numValue (sodium, entry, name) {
  const a = entry.args.find((b) => b.name === name)
  return constant(sodium, a.example !== undefined ? a.example : a.range[0])
}

function wellFormed (sodium, entry, options) {
  const len = lengths(sodium, entry, options)
  return entry.args.map((a) => {
    if (a.kind === 'nul') return null
    if (a.kind === 'num') return numValue(sodium, entry, a.name)
    return random(len[a.name])
  })
}

module.exports = { constant, lengths, numValue, wellFormed }

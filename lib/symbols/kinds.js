'use strict'
// The vocabulary of the symbol table: argument kinds and length rules, as plain data.
//
// An entry is  name: { args: [...], returns, fails?, native? }
//   args     in call order (sodium-native's: outputs first). Each is { name, kind, len?, range? }:
//            out    a buffer the function writes (or updates in place)
//            buf    a read-only buffer
//            opt    a read-only buffer or null
//            optOut a buffer the function writes, or null
//            nul    must be null (libsodium's unused nsec)
//            num    an integer, within `range` ([lo, hi], bounds as numbers or constant names)
//            state  a state buffer of `len` bytes (a *_STATEBYTES constant)
//   len      a length rule (below); absent means any length
//   returns  'void' | 'bool' (verify/open: true when valid) | 'number' | 'promise'
//   fails    the Error message thrown when libsodium refuses (e.g. 'could not verify data')
//   native   true when only the native backend has it (the surfaces give wasm a JS fallback)
//
// Overlap rules, on the argument the C names first ("c must not overlap m", a RangeError):
//   apart: [names]    shares no byte with any of them (NO_ALIAS in C)
//   inPlace: [names]  starts where each of them starts, or shares no byte with it (NO_OVERLAP):
//                     libsodium works in place but not on a partial overlap
// Outputs written while a state is updated are apart from the state (STATE_APART in C).
//
// Length rules name constants, never embed code:
//   fixed(C)        exactly C bytes                   C: constant name or number
//   plus(a, C)      a's length + C                    minus(a, C): a's length - C
//   same(a)         a's length                        twice(a): 2 × a's length (hex)
//   base64(a, v)    sodium_base64_encoded_len(a's length, the value of num argument v) - 1
//   atLeast(C)      at least C bytes                  atMost(C), between(C1, C2)
// Spelled names: a family file builds entries of one shape with a helper (aead(p) gives p_encrypt,
// p_decrypt, ...), and writes out the names it expects, so that `git grep <full name>` finds the
// entry (CONTRIBUTING.md). spelled(entries, ...names) returns entries, after checking that they
// are exactly those names in that order.
function spelled (entries, ...names) {
  const got = Object.keys(entries)
  if (got.join() !== names.join()) throw new Error(`symbol table: the entries are ${got.join(', ')}, but the names written out are ${names.join(', ')}`)
  return entries
}

const arg = (kind) => (name, len, extra) => Object.assign({ name, kind }, len === undefined ? {} : { len }, extra)

module.exports = {
  spelled,
  out: arg('out'),
  buf: arg('buf'),
  opt: arg('opt'),
  optOut: arg('optOut'),
  nul: (name) => ({ name, kind: 'nul' }),
  num: (name, range) => ({ name, kind: 'num', range }),
  state: (name, len) => ({ name, kind: 'state', len: { fixed: len } }),

  fixed: (c) => ({ fixed: c }),
  plus: (a, c) => ({ of: a, plus: c }),
  minus: (a, c) => ({ of: a, minus: c }),
  same: (a) => ({ of: a, plus: 0 }),
  twice: (a) => ({ of: a, times: 2 }),
  base64: (a, v) => ({ of: a, base64: v }),
  atLeast: (c) => ({ min: c }),
  atMost: (c) => ({ max: c }),
  between: (lo, hi) => ({ min: lo, max: hi })
}

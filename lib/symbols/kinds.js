'use strict'
// The vocabulary of the symbol table: argument kinds and length rules, as plain data.
//
// An entry is  name: { args: [...], returns, fails?, failsWhen?, native? }
//   args     in call order (sodium-native's: outputs first). Each is
//            { name, kind, len?, range?, apart?, inPlace?, example?, optional? }:
//            out    a buffer the function writes (or updates in place)
//            buf    a read-only buffer
//            opt    a read-only buffer or null
//            optOut a buffer the function writes, or null
//            nul    must be null (libsodium's unused nsec)
//            num    an integer, within `range` ([lo, hi]: numbers, constant names, or a length rule
//                   such as same('n') for "at most n's length")
//            state  a state buffer of `len` bytes (a *_STATEBYTES constant)
//   len      a length rule (below); absent means any length
//   example  on a num: the value a well-formed call passes (else range[0])
//   optional on a num: undefined or null stand for "not given" (sodium_is_zero's nlen)
//   returns  'void' | 'bool' (verify/open: true when valid) | 'number' | 'promise' (an *_async
//            function: settles as the synchronous one returns or throws) | 'buffer' (sodium_malloc)
//   fails    the Error message thrown (err.code 'ERR_NATRIUM_REFUSED') when libsodium refuses
//            (e.g. 'could not verify data'); a promise rejects with it
//   failsWhen the input that makes the call fail with `fails` (test/table.test.js makes that call
//            on every backend). An object naming arguments, the others well-formed (random):
//              a byte 0..255   every byte of that buffer set to it ({ pk: 0 }: a small-order key)
//              a hex string    that buffer's leading bytes, the rest zero ({ p: '02' }: y = 2,
//                              not on the curve)
//              null            an optional buffer left out
//              a number or a constant name   for a num argument
//            {} means that well-formed random arguments fail (a forged tag, a state never
//            initialised). Or a word, when no input of the caller's provokes it:
//              'resources'     only when the system refuses (memory, page locking)
//              'unreachable'   libsodium's result is checked, but no input makes it fail
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
//   either(C1, C2)  exactly C1 or exactly C2 bytes (LEN_EITHER in C): between(C1, C2) narrowed
//                   by oneOf: [C1, C2]
//
// The C checks these rules in its own words (src/<family>.c, the macros of src/nat.h);
// test/table.test.js proves, function by function and on both backends, that it checks exactly
// these: each length and range rule with its bound and constant, the failure in `fails`.
// test/contract.test.js does the same for the overlap rules.
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
  between: (lo, hi) => ({ min: lo, max: hi }),
  either: (a, b) => ({ min: a, max: b, oneOf: [a, b] }),

  // the fields an entry and an argument may have (test/table.test.js validates every entry)
  ENTRY_FIELDS: ['family', 'args', 'returns', 'fails', 'failsWhen', 'native'],
  ARG_FIELDS: ['name', 'kind', 'len', 'range', 'apart', 'inPlace', 'example', 'optional'],
  KINDS: ['out', 'buf', 'opt', 'optOut', 'nul', 'num', 'state'],
  RETURNS: ['void', 'bool', 'number', 'promise', 'buffer'],
  FAILS_WHEN_WORDS: ['resources', 'unreachable']
}

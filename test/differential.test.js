'use strict'
// A table-wide differential test against sodium-native 5.1.0: every function both libraries have,
// called with the same well-formed random arguments (from the symbol table's length rules), must
// write the same bytes into every buffer, return the same value and throw/not throw alike; and a
// fixed-length argument one byte off must make both throw. The family test files check the same
// functions with meaningful inputs; this one makes sure none was forgotten.
const assert = require('assert')
const SodiumNative = require('sodium-native')
const { symbols } = require('../lib/symbols')
const { backends } = require('./helpers')
const { wellFormed } = require('./table-args')

// Outputs that are random by design (compared by shape only) and functions whose sodium-native
// side is unusable with arbitrary input: its stateful stream/secretstream/hash functions trust the
// state buffer (garbage states crash it), its *_wrap_* functions call missing bindings, and its
// guarded-memory functions need sodium_malloc'd buffers.
const RANDOM = /(_keygen|_keypair|_random|^randombytes_buf|^randombytes_uniform|_seal|^crypto_pwhash\w*_str)$/
const SKIP = /(_init|_update|_final|_wrap_\w+|_push|_pull|_rekey|^sodium_(malloc|free|mprotect_\w+|mlock|munlock))$/

// sodium-native 5.1.0 bugs natrium does not reproduce (see the README):
const SODIUM_NATIVE_BUGS = {
  crypto_generichash_keygen: 'always throws "status: undefined" (its binding returns nothing)',
  sodium_unpad: 'returns an uninitialised number on bad padding where natrium throws'
}

function copy (args) {
  return args.map((a) => (ArrayBuffer.isView(a) ? Buffer.from(a) : a))
}

function run (lib, fname, args) {
  try {
    const value = lib[fname](...args)
    return { value: value instanceof Promise ? 'promise' : value, args }
  } catch (err) {
    return { threw: true, args }
  }
}

// A deliberate difference: when an open answers false, natrium's outputs are zeroed (sodium-native
// leaves whatever libsodium left there); they are checked for that instead of compared.
function same (a, b, fname, why) {
  assert.strictEqual(!!a.threw, !!b.threw, `${fname} ${why}: natrium ${a.threw ? 'threw' : 'returned'}, sodium-native ${b.threw ? 'threw' : 'returned'}`)
  if (a.threw) return
  if (!RANDOM.test(fname)) {
    assert.deepStrictEqual(a.value, b.value, `${fname} ${why}: return value`)
    const outputs = symbols[fname].args.map((arg) => arg.kind === 'out' || arg.kind === 'optOut')
    a.args.forEach((x, i) => {
      if (!ArrayBuffer.isView(x)) return
      if (a.value === false && outputs[i]) assert.ok(x.every((byte) => byte === 0), `${fname} ${why}: output ${i} not zeroed after false`)
      else assert.strictEqual(x.toString('hex'), b.args[i].toString('hex'), `${fname} ${why}: argument ${i}`)
    })
  }
}

for (const { name: backend, raw, sodium } of backends) {
  describe(`sodium-native differential [${backend}]`, () => {
    const shared = Object.keys(symbols).filter((f) => typeof SodiumNative[f] === 'function' && !SKIP.test(f) &&
      !SODIUM_NATIVE_BUGS[f])

    it('covers the functions natrium shares with sodium-native', () => {
      assert.ok(shared.length >= 100, `only ${shared.length} shared functions`)
    })

    for (const fname of shared) {
      const entry = symbols[fname]
      if (entry.native && backend !== 'native') continue
      it(fname, async () => {
        for (let round = 0; round < 3; round++) {
          const args = wellFormed(raw, entry)
          const a = run(sodium, fname, copy(args))
          const b = run(SodiumNative, fname, copy(args))
          if (a.value === 'promise') {
            // both settle alike; the async functions' bytes are compared in their family tests
            continue
          }
          same(a, b, fname, `round ${round}`)
          entry.args.forEach((arg, i) => {
            if (!arg.len || arg.len.fixed === undefined || arg.kind === 'nul' || arg.kind === 'num') return
            const bad = copy(args)
            bad[i] = Buffer.alloc(bad[i].length + 1)
            same(run(sodium, fname, copy(bad)), run(SodiumNative, fname, copy(bad)), fname, `${arg.name} one byte long`)
          })
        }
      })
    }
  })
}

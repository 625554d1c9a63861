'use strict'
// randombytes_buf into 32 bytes. Checked for length, not all zero, and two calls differing.
const ref = require('./ref')

function fresh (a, b) {
  for (const x of [a, b]) {
    if (!(x instanceof Uint8Array) || x.length !== 32) return `answer is ${ref.describe(x)}`
    if (ref.allZero(x)) return 'answer is all zero'
  }
  return ref.differ(a, b) ? true : 'two calls gave the same bytes'
}

module.exports = function randomCases (b) {
  return [{
    family: 'random',
    op: 'randombytes',
    size: 32,
    ceiling: { op: 'randombytes', args: [32] },
    validate: fresh,
    contenders: [
      ...b.raw('randombytes_buf', { outs: [32], call: (f, out) => f(out) }),
      ...b.node((c) => { const out = new Uint8Array(32); return () => c.randomFillSync(out) }),
      ...b.lsw('randombytes_buf', (f) => () => f(32)),
      ...b.noble('@noble/hashes', (n) => () => n.randomBytes(32)),
      ...b.tweetnacl((t) => () => t.randomBytes(32))
    ]
  }]
}

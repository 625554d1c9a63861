'use strict'
// A short seeded run of natrium's fuzzer (scripts/fuzz.js, test/fuzz/worker.js): every function
// of every surface, native against wasm, with hostile arguments, each batch in its own process.
// `npm run fuzz` runs the long version; a finding prints the seed that replays it.
const assert = require('assert')
const { fuzz } = require('../scripts/fuzz')
const { backends } = require('./helpers')

const both = backends.length === 2

describe('fuzz (a short seeded run: 8 batches of 1500 calls)', function () {
  this.timeout(600000)
  it('finds nothing: no crash, no difference between the backends, no broken contract', async function () {
    if (!both) this.skip()
    const findings = await fuzz({ batches: 8, calls: 1500, seed: 1000 })
    assert.deepStrictEqual(findings.slice(0, 5), [], `${findings.length} findings`)
  })
})

'use strict'
// Long runs on the wasm backend leave linear memory and the JS heap flat (scripts/wasm-memory.js,
// in a child process with --expose-gc so the heap can be settled before each reading).
const assert = require('assert')
const path = require('path')
const { backends, execNode } = require('./helpers')

describe('wasm memory', function () {
  before(function () {
    if (!backends.some((b) => b.name === 'wasm')) this.skip()
  })

  it('200,000 mixed calls, interactive-limit Argon2id and 1 MiB messages: linear memory and heap stay flat', function () {
    this.timeout(120000)
    const script = `const r = require(${JSON.stringify(path.join(__dirname, '..', 'scripts', 'wasm-memory.js'))})(200000); console.log(JSON.stringify(r))`
    const r = JSON.parse(execNode(['--expose-gc', '-e', script]))
    assert.strictEqual(r.after.linear, r.before.linear, 'linear memory grew')
    assert.ok(r.after.heap - r.before.heap < 1 << 20, `JS heap grew by ${r.after.heap - r.before.heap} bytes`)
  })
})

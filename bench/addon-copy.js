'use strict'
// The native addon again, from another path, so that dlopen maps a second copy whose dispatch
// reads the environment afresh: how the bars scripts set one of our implementations against
// another (or against libsodium's code) in the same process. addonCopy({ NATRIUM_X25519:
// 'libsodium' }) returns the copy's backend (lib/backends/native.js: .binding is the raw
// functions, and the main API's surfaces take the backend itself). The copies live in a
// temporary folder removed at exit (tmpDir(), which a script may use for its own copies too).
const fs = require('fs')
const os = require('os')
const path = require('path')
const { load } = require(path.join(__dirname, '..', 'lib', 'loader'))
const nativeBackend = require(path.join(__dirname, '..', 'lib', 'backends', 'native'))

let tmp = null
let copies = 0

// The scripts' temporary folder, made on first use.
function tmpDir () {
  if (tmp === null) {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'natrium-bench-'))
    process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }))
  }
  return tmp
}

function addonCopy (env) {
  const file = path.join(tmpDir(), `natrium-${++copies}.node`)
  fs.copyFileSync(load('native').file, file)
  Object.assign(process.env, env)
  try {
    return nativeBackend(require(file), file)
  } finally {
    for (const k of Object.keys(env)) delete process.env[k]
  }
}

module.exports = { addonCopy, tmpDir }

'use strict'
// require('natrium'): the libsodium-wrappers-compatible main API on whichever backend loads
// (NATRIUM_BACKEND=native|wasm forces one). Synchronous: no need to await `ready`.
module.exports = require('./surfaces/wrappers')(require('./loader').load())

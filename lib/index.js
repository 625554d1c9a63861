'use strict'
// require('natrium'). Until the libsodium-wrappers-compatible API lands, this is the raw backend
// contract (sodium-native's conventions) plus `backend`.
module.exports = require('./sodium-native')

'use strict'
// require('natrium/sodium-native'): a drop-in for sodium-native 5.1.0 on whichever backend loads.
module.exports = require('./surfaces/sodium-native')(require('./loader').load())

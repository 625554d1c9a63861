'use strict'
// crypto_pwhash: entries land with src/pwhash.c.
module.exports = {}

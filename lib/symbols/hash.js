'use strict'
// crypto_hash: entries land with src/hash.c.
module.exports = {}

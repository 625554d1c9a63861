'use strict'
// crypto_kdf: entries land with src/kdf.c.
module.exports = {}

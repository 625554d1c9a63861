'use strict'
// crypto_kem: entries land with src/kem.c.
module.exports = {}

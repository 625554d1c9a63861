'use strict'
// crypto_secretbox: entries land with src/secretbox.c.
module.exports = {}

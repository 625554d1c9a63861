'use strict'
// crypto_sign: entries land with src/sign.c.
module.exports = {}

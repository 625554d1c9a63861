'use strict'
// crypto_utils: entries land with src/utils.c.
module.exports = {}

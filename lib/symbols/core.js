'use strict'
// crypto_core: entries land with src/core.c.
module.exports = {}

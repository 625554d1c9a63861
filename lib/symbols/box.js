'use strict'
// crypto_box: entries land with src/box.c.
module.exports = {}

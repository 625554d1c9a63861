'use strict'
// crypto_ipcrypt: entries land with src/ipcrypt.c.
module.exports = {}

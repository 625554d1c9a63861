'use strict'
// crypto_stream: entries land with src/stream.c.
module.exports = {}

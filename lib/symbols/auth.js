'use strict'
// crypto_auth: entries land with src/auth.c.
module.exports = {}

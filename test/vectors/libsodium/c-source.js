'use strict'
// Readers for libsodium's test/default/*.c programs whose vectors are C byte arrays and hex strings
// rather than `tests[] = {...}` string tables, and for the .exp files they print. Used by
// extract-box.js and extract-core.js.
const fs = require('fs')
const path = require('path')
const { src } = require('./extract')

const read = (file) => fs.readFileSync(path.join(src, 'test', 'default', file), 'utf8')

// `name[...] = { 0x.., 12, ... }` as hex (comments and whitespace ignored).
function cArray (text, name) {
  const m = text.match(new RegExp(`\\b${name}\\s*\\[[^\\]]*\\]\\s*=\\s*\\{([^}]*)\\}`))
  if (!m) throw new Error(`array ${name} not found`)
  const body = m[1].replace(/\/\*[\s\S]*?\*\//g, '')
  const bytes = body.split(',').map((s) => s.trim()).filter(Boolean).map((s) => {
    const v = Number(s)
    if (!Number.isInteger(v) || v < 0 || v > 255) throw new Error(`${name}: bad byte ${s}`)
    return v
  })
  return Buffer.from(bytes).toString('hex')
}

// Every string literal in the initializer of `name[] = { ... };`, adjacent literals joined.
function cStrings (text, name) {
  const start = text.search(new RegExp(`\\b${name}\\s*\\[\\s*\\]\\s*=\\s*\\{`))
  if (start < 0) throw new Error(`string table ${name} not found`)
  const body = text.slice(start, text.indexOf('};', start)).replace(/\/\*[\s\S]*?\*\//g, '')
  return body.replace(/"\s+"/g, '').match(/"[^"]*"/g).map((s) => s.slice(1, -1))
}

// Bytes printed as ",0x%02x" (or " %3u" decimal) runs, one entry per printed line group.
const hexBytes = (text) => Buffer.from([...text.matchAll(/0x([0-9a-f]{2})/g)].map((m) => parseInt(m[1], 16))).toString('hex')

module.exports = { read, cArray, cStrings, hexBytes }

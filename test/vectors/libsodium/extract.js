'use strict'
// Regenerates test/vectors/libsodium/*.json from libsodium 1.0.22's own test/default/*.c tables
// (the source is obtained with deps/fetch.sh). Usage: node test/vectors/libsodium/extract.js
// This file extracts the AEAD tables and then runs every extract-<family>.js beside it, which
// use the helpers exported here.
// Each C table is an array of structs of string literals; adjacent literals are concatenated.
const fs = require('fs')
const path = require('path')
const { execFileSync } = require('child_process')

const root = path.join(__dirname, '..', '..', '..')
const src = execFileSync('bash', [path.join(root, 'deps', 'fetch.sh')], { encoding: 'utf8' }).trim()

function table (file, fields) {
  const text = fs.readFileSync(path.join(src, 'test', 'default', file), 'utf8')
  const body = text.slice(text.indexOf('tests[] = {'), text.indexOf('};', text.indexOf('tests[] = {')))
  const rows = []
  for (const m of body.matchAll(/\{((?:\s*"[^"]*"\s*,?)+)\}/g)) {
    const strings = m[1].split(/"\s*,\s*"/).map((s) => s.replace(/"\s+"/g, '').replace(/^\s*"|"\s*,?\s*$/g, ''))
    if (strings.length !== fields.length) throw new Error(`${file}: row with ${strings.length} fields`)
    rows.push(Object.fromEntries(fields.map((f, i) => [f, strings[i]])))
  }
  return rows
}

// Also for files that only need their text: exported `src` is the unpacked libsodium folder.
function write (name, source, rows) {
  const out = { source: `libsodium 1.0.22-RELEASE test/default/${source}`, license: 'ISC (libsodium)', tests: rows }
  fs.writeFileSync(path.join(__dirname, `${name}.json`), JSON.stringify(out, null, 1) + '\n')
  console.log(`${name}.json: ${rows.length} vectors`)
}

module.exports = { src, table, write }

if (require.main === module) {
  const aead = ['key', 'nonce', 'message', 'ad', 'ciphertext', 'mac']
  write('aead_aegis128l', 'aead_aegis128l.c', table('aead_aegis128l.c', aead))
  write('aead_aegis256', 'aead_aegis256.c', table('aead_aegis256.c', aead))
  for (const f of fs.readdirSync(__dirname).filter((f) => /^extract-.+\.js$/.test(f)).sort()) {
    require(path.join(__dirname, f))
  }
}

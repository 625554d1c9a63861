'use strict'
// The one table of symbols: every raw function, by family (the same families as src/*.c and
// test/*.test.js). See kinds.js for the vocabulary. It drives the generic contract tests (every
// function exists on every backend, rejects bad arguments with the names given here), and is the
// source for the wasm glue, the main API and the TypeScript types as they land. The surfaces read
// it at run time as table.json, which scripts/generate.js writes from this (a JSON.parse is about
// ten times quicker than loading these modules); `npm test` fails when the two differ.
const FAMILIES = ['aead', 'auth', 'box', 'core', 'hash', 'ipcrypt', 'kdf', 'kem', 'pwhash', 'secretbox', 'sign', 'stream', 'utils']

const symbols = {}
for (const family of FAMILIES) {
  for (const [name, entry] of Object.entries(require(`./${family}`))) {
    if (symbols[name]) throw new Error(`symbol table: ${name} is listed twice`)
    symbols[name] = Object.assign({ family }, entry)
  }
}

module.exports = { FAMILIES, symbols }

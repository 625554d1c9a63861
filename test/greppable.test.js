'use strict'
// Every function is spelled with its full libsodium name where it is defined and registered, and
// in its table entry, so `git grep -n crypto_aead_xchacha20poly1305_ietf_encrypt` lists its C
// binding and its entry in lib/symbols (CONTRIBUTING.md).
// Token pasting of name fragments (nat_##p##_keygen) would hide a function from that grep: for
// each symbol of the table, some src/*.c must register it as FN(<name>) and define it, either as
// a plain `nat_<name>(` function or by passing <name> whole to a defining macro.
const assert = require('assert')
const fs = require('fs')
const path = require('path')
const { symbols } = require('../lib/symbols')

const SRC = path.join(__dirname, '..', 'src')
const files = fs.readdirSync(SRC).filter((f) => f.endsWith('.c')).map((f) => ({ f, text: fs.readFileSync(path.join(SRC, f), 'utf8') }))

describe('greppable: every function spelled in full in its C binding', () => {
  it('each symbol is registered as FN(<name>) and defined under its whole name', () => {
    const problems = []
    for (const name of Object.keys(symbols)) {
      const registered = files.filter(({ text }) => text.includes(`FN(${name})`))
      if (registered.length !== 1) {
        problems.push(`${name}: registered in ${registered.length} files`)
        continue
      }
      // the whole name as a word outside its FN(...), or a plain definition nat_<name>(
      const { f, text } = registered[0]
      const rest = text.split(`FN(${name})`).join('')
      const word = new RegExp(`(^|[^A-Za-z0-9_])(nat_)?${name}([^A-Za-z0-9_]|$)`)
      if (!word.test(rest)) problems.push(`${name}: registered in src/${f} but not defined there under its full name`)
    }
    assert.deepStrictEqual(problems, [])
  })

  it('each symbol is written out in full in its family file of the table (lib/symbols/<family>.js)', () => {
    const problems = []
    const texts = {}
    for (const [name, entry] of Object.entries(symbols)) {
      const text = texts[entry.family] = texts[entry.family] || fs.readFileSync(path.join(__dirname, '..', 'lib', 'symbols', `${entry.family}.js`), 'utf8')
      // a key (name: {...}) or a quoted name handed to spelled()
      if (!new RegExp(`(^\\s+${name}:|'${name}')`, 'm').test(text)) problems.push(`${name}: not spelled in lib/symbols/${entry.family}.js`)
    }
    assert.deepStrictEqual(problems, [])
  })

  it('no src/*.c pastes a binding\'s name together from fragments', () => {
    // allowed: a macro's definition nat_##fn( where fn is a parameter given the full name, and
    // FN(<full name>); refused: nat_##p##_keygen(, nat_crypto_##prim(, FN(p##_init)
    const problems = []
    for (const { f, text } of files) {
      text.split('\n').forEach((line, i) => {
        const def = /napi_value\s+nat_(\S*?)\(/.exec(line)
        if ((def && /##.*##|\w##/.test(def[1])) || /FN\([^)]*##/.test(line)) problems.push(`src/${f}:${i + 1}: ${line.trim()}`)
      })
    }
    assert.deepStrictEqual(problems, [])
  })

  it('each symbol is spelled in full in some test file (a BY_NAME list is proven called by byName)', () => {
    const TEST = __dirname
    const tests = fs.readdirSync(TEST).filter((f) => f.endsWith('.js')).map((f) => fs.readFileSync(path.join(TEST, f), 'utf8')).join('\n')
    const missing = Object.keys(symbols).filter((name) => !new RegExp(`(^|[^A-Za-z0-9_])${name}([^A-Za-z0-9_]|$)`).test(tests))
    assert.deepStrictEqual(missing, [])
  })
})

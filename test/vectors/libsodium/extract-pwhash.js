'use strict'
// Extracts libsodium's Argon2 and scrypt tables (test/default/pwhash_*.c) with the answers its
// .exp files expect. Run through extract.js. Rows:
//   { kind: 'hash', passwd, salt (hex), outlen, opslimit, memlimit, out (hex) | fails: true }
//   { kind: 'str_verify', passwd (text), str, valid }
// pwhash_scrypt_ll.c holds RFC 7914's vectors, kept in test/vectors/rfc7914.json instead.
const fs = require('fs')
const path = require('path')
const { src, write } = require('./extract')

const read = (file) => fs.readFileSync(path.join(src, 'test', 'default', file), 'utf8')

// The C string literal at text[i] (text[i] === '"'): its value and the index past it.
function literal (text, i) {
  let s = ''
  for (i++; text[i] !== '"'; i++) {
    if (text[i] !== '\\') { s += text[i]; continue }
    const c = text[++i]
    const esc = { n: '\n', t: '\t', '\\': '\\', '"': '"', "'": "'" }[c]
    if (esc === undefined) throw new Error(`unsupported escape \\${c}`)
    s += esc
  }
  return [s, i + 1]
}

// Every `tests[] = { {...}, ... }` array in a file, in order: rows of fields, each field a string
// (adjacent literals joined) or a number (C integer suffixes dropped).
function tables (text) {
  const out = []
  for (const m of text.matchAll(/tests\[\] = \{/g)) {
    const rows = []
    let row = null
    let field = null
    let depth = 1
    for (let i = m.index + m[0].length; depth > 0;) {
      const c = text[i]
      if (text.startsWith('/*', i)) { i = text.indexOf('*/', i) + 2; continue }
      if (c === '"') {
        const [s, next] = literal(text, i)
        field = (field || '') + s
        i = next
        continue
      }
      if (c === '{') { depth++; row = []; field = null } else if (c === '}') {
        depth--
        if (depth === 1) { if (field !== null) row.push(field); rows.push(row); row = null; field = null }
      } else if (c === ',' && depth === 2) { row.push(field); field = null } else if (depth === 2 && /[0-9]/.test(c)) {
        const num = /^[0-9]+/.exec(text.slice(i))[0]
        field = Number(num)
        i += num.length
        while (/[UL]/.test(text[i])) i++
        continue
      }
      i++
    }
    out.push(rows)
  }
  return out
}

const passwdHex = (hex, len) => {
  if (hex.length < 2 * len) throw new Error(`passwd_hex shorter than ${len} bytes`)
  return hex.slice(0, 2 * len)
}

// tv()/tv2() rows with the output .exp prints for each: a hex line, or a failure line naming
// the row ("[tv] ... [3]" in the Argon2 tests; scrypt prints "pwhash failure" and then junk).
function hashRows (rows, lines, tag) {
  return rows.map(([hex, len, salt, outlen, opslimit, memlimit], i) => {
    if (salt.length !== 64) throw new Error(`${tag} row ${i}: salt is not 32 bytes`)
    const row = { kind: 'hash', passwd: passwdHex(hex, len), salt, outlen, opslimit, memlimit }
    const line = lines.shift()
    const failure = new RegExp(`^\\[${tag}\\] pwhash failure.*\\[${i}\\]$`)
    if (failure.test(line)) return Object.assign(row, { fails: true })
    if (line === 'pwhash failure') { lines.shift(); return Object.assign(row, { fails: true }) }
    if (!/^[0-9a-f]+$/.test(line) || line.length !== 2 * outlen) throw new Error(`${tag} row ${i}: unexpected ${line}`)
    return Object.assign(row, { out: line })
  })
}

// tv3(): str_verify of each string; .exp names the rows that did not verify.
function strRows (rows, exp, failure) {
  const failed = new Set([...exp.matchAll(failure)].map((m) => Number(m[1])))
  return rows.map(([passwd, str], i) => ({ kind: 'str_verify', passwd, str, valid: !failed.has(i) }))
}

for (const name of ['pwhash_argon2id', 'pwhash_argon2i']) {
  const [tv, tv2, tv3] = tables(read(`${name}.c`))
  const exp = read(`${name}.exp`)
  const lines = exp.split('\n').filter((l) => !l.startsWith('[tv3]'))
  const rows = [...hashRows(tv, lines, 'tv'), ...hashRows(tv2, lines, 'tv2'),
    ...strRows(tv3, exp, /^\[tv3\] .*\[(\d+)\]$/gm)]
  if (lines[0] !== 'OK') throw new Error(`${name}.exp: unexpected ${lines[0]}`)
  write(name, `${name}.c (tv, tv2, tv3) and ${name}.exp`, rows)
}

{
  const [tv, tv2, tv3] = tables(read('pwhash_scrypt.c'))
  const exp = read('pwhash_scrypt.exp')
  const lines = exp.split('\n').filter((l) => !l.startsWith('pwhash_str failure'))
  const rows = [...hashRows(tv, lines, 'tv'), ...hashRows(tv2, lines, 'tv2'),
    ...strRows(tv3, exp, /^pwhash_str failure: \[(\d+)\]$/gm)]
  if (lines[0] !== 'OK') throw new Error(`pwhash_scrypt.exp: unexpected ${lines[0]}`)
  write('pwhash_scrypt', 'pwhash_scrypt.c (tv, tv2, tv3) and pwhash_scrypt.exp', rows)
}

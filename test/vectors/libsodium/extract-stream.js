'use strict'
// crypto_stream vectors from libsodium 1.0.22's test/default: chacha20.c (original and IETF
// tables, printed keystreams in chacha20.exp), xchacha20.c (XChaCha20 table and the 32-bit counter
// carry), stream.c/stream3.c/stream4.c (XSalsa20), stream2.c (Salsa20), stream5.c (Salsa2012).
// Run through extract.js. Rows are { file, key, nonce, ic, m, out[, offset] }: the cipher applied
// to m from block ic gives out (compared from byte `offset` when libsodium printed only a tail),
// or { file, key, nonce, length, sha256[, ic1_prefix] } for libsodium's hashed 4 MiB keystreams.
const fs = require('fs')
const path = require('path')
const { src, write } = require('./extract')

const read = (file) => fs.readFileSync(path.join(src, 'test', 'default', file), 'utf8')
const hex = (bytes) => Buffer.from(bytes).toString('hex')
const zeros = (n) => '00'.repeat(n)

// `static ... name[...] = { 0x1b, 0, ... };` -> hex
function cArray (text, name) {
  const m = text.match(new RegExp(`\\b${name}\\[[^\\]]*\\]\\s*=\\s*\\{([^}]*)\\}`))
  if (!m) throw new Error(`array ${name} not found`)
  return hex(m[1].split(',').map((t) => t.trim()).filter(Boolean).map(Number))
}

// The n-th `name[] = { { "..", .., N }, ... }` table (0-based): rows of string and number fields.
function cTable (text, name, n, fields) {
  let at = -1
  for (let i = 0; i <= n; i++) at = text.indexOf(`${name}[]`, at + 1)
  const body = text.slice(text.indexOf('{', at) + 1, text.indexOf('};', at))
  const rows = []
  for (const m of body.matchAll(/\{([^{}]*)\}/g)) {
    const values = [...m[1].matchAll(/"((?:[^"]|"\s*")*)"|(0x[0-9a-fA-F]+|\d+)U?/g)]
      .map((v) => (v[1] !== undefined ? v[1].replace(/"\s*"/g, '') : Number(v[2])))
    if (values.length !== fields.length) throw new Error(`${name}: row with ${values.length} fields`)
    rows.push(Object.fromEntries(fields.map((f, i) => [f, values[i]])))
  }
  return rows
}

const expLines = (file) => read(file).split('\n').filter(Boolean)
const bracketed = (line) => line.replace(/^\[|\]$/g, '')

// chacha20.c: tv() prints 5 table keystreams, 22 partial lengths, 1 full keystream, then 0x42^ks,
// the same xored back (all 0x42) and 0x42 xored from block 1; tv_ietf() prints the same shape
// for its 7-row table.
{
  const text = read('chacha20.c')
  const lines = expLines('chacha20.exp').map(bracketed)
  if (lines.length !== 64) throw new Error(`chacha20.exp: ${lines.length} lines`)
  const rows = []
  const add = (primitive, table, first) => {
    table.forEach((t, i) => rows.push({ file: 'chacha20.c', primitive, key: t.key, nonce: t.nonce, ic: t.ic || 0, m: zeros(160), out: lines[first + i] }))
    const last = table[table.length - 1]
    const tail = first + table.length + 22 + 1
    rows.push({ file: 'chacha20.c', primitive, key: last.key, nonce: last.nonce, ic: 0, m: '42'.repeat(160), out: lines[tail] })
    rows.push({ file: 'chacha20.c', primitive, key: last.key, nonce: last.nonce, ic: 1, m: lines[tail + 1], out: lines[tail + 2] })
    return tail + 3
  }
  const next = add('chacha20', cTable(text, 'tests', 0, ['key', 'nonce']), 0)
  add('chacha20_ietf', cTable(text, 'tests', 1, ['key', 'nonce', 'ic']), next)
  write('stream_chacha20', 'chacha20.c', rows)
}

// xchacha20.c: tv_stream_xchacha20's table, then 192 bytes from block 2^32 - 1 (the counter
// crossing 32 bits) under the last row's key and nonce.
{
  const table = cTable(read('xchacha20.c'), 'tvs', 1, ['key', 'nonce', 'out'])
  const rows = table.map((t) => ({ file: 'xchacha20.c', key: t.key, nonce: t.nonce, ic: 0, m: zeros(t.out.length / 2), out: t.out }))
  const last = table[table.length - 1]
  rows.push({ file: 'xchacha20.c', key: last.key, nonce: last.nonce, ic: 2 ** 32 - 1, m: zeros(192), out: expLines('xchacha20.exp')[1] })
  write('stream_xchacha20', 'xchacha20.c', rows)
}

// XSalsa20: stream3.c prints 32 keystream bytes; stream4.c xors the secretbox message and prints
// bytes 32..162; stream.c hashes 4 MiB of keystream (then again with the first 4000 bytes taken
// from block 1), and prints 192 bytes from block 2^32 - 1 and 17 blocks from 2^32 - 16 .. 2^32 - 1.
{
  const text = read('stream.c')
  const key = cArray(text, 'firstkey')
  const nonce = cArray(text, 'nonce')
  const hexOf = (file) => hex([...read(file).matchAll(/0x([0-9a-f]{2})/g)].map((m) => parseInt(m[1], 16)))
  const lines = expLines('stream.exp')
  if (lines.length !== 83) throw new Error(`stream.exp: ${lines.length} lines`)
  const rows = [
    { file: 'stream3.c', key, nonce, ic: 0, m: zeros(32), out: hexOf('stream3.exp') },
    { file: 'stream4.c', key, nonce, ic: 0, m: cArray(read('stream4.c'), 'm'), offset: 32, out: hexOf('stream4.exp') },
    { file: 'stream.c', key, nonce, length: 4194304, sha256: lines[0] },
    { file: 'stream.c', key, nonce, length: 4194304, ic1_prefix: 4000, sha256: lines[1] },
    { file: 'stream.c', key, nonce, ic: 2 ** 32 - 1, m: zeros(192), out: lines[66] }
  ]
  for (let i = 16; i > 0; i--) {
    rows.push({ file: 'stream.c', key, nonce, ic: 2 ** 32 - i, m: zeros(17 * 64), out: lines[67 + 16 - i] })
  }
  write('stream_xsalsa20', 'stream.c, stream3.c, stream4.c', rows)
}

// stream2.c: Salsa20 under the HSalsa20 subkey of stream.c's key gives the same 4 MiB hashes.
{
  const text = read('stream2.c')
  const [key, nonce] = [cArray(text, 'secondkey'), cArray(text, 'noncesuffix')]
  const lines = expLines('stream2.exp')
  write('stream_salsa20', 'stream2.c', [
    { file: 'stream2.c', key, nonce, length: 4194304, sha256: lines[0] },
    { file: 'stream2.c', key, nonce, length: 4194304, ic1_prefix: 4000, sha256: lines[1] }
  ])
}

// stream5.c: Salsa20/12 hashes 4096 keystream bytes, then prints 0..63 keystream bytes over 0xdb.
{
  const text = read('stream5.c')
  const [key, nonce] = [cArray(text, 'key'), cArray(text, 'nonce')]
  const lines = expLines('stream5.exp')
  write('stream_salsa2012', 'stream5.c', [
    { file: 'stream5.c', key, nonce, length: 4096, sha256: lines[0] },
    { file: 'stream5.c', key, nonce, ic: 0, m: zeros(63), out: lines[66].slice(0, 126) }
  ])
}

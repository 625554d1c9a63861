'use strict'
// The hash family's vectors from libsodium 1.0.22's test/default (run through extract.js).
// Tables come from the .c files; the .exp files hold what a test program printed, so the inputs
// of each printed line are rebuilt here from that program's loop (described beside each one).
const fs = require('fs')
const path = require('path')
const { src, table, write } = require('./extract')

const dir = path.join(src, 'test', 'default')
const read = (f) => fs.readFileSync(path.join(dir, f), 'utf8')
const lines = (f) => read(f).split('\n').filter((l) => l !== '')
const hex = (bytes) => Buffer.from(bytes).toString('hex')
const count = (n) => hex(Array.from({ length: n }, (_, i) => i)) // bytes 0, 1, ..., n-1

function expect (file, rows, n) {
  if (rows.length !== n) throw new Error(`${file}: ${rows.length} lines, expected ${n}`)
  return rows
}

// `unsigned char name[n] = { 0x.., 'c', ... };` or `= "..."`, as hex; `{ 0 }` zero-fills a numeric n.
function arrays (text) {
  const out = {}
  for (const m of text.matchAll(/unsigned char\s+(\w+)\[([^\]]*)\]\s*=\s*(\{[^}]*\}|"[^"]*")/g)) {
    const [, name, size, init] = m
    const byte = (s) => /^'.'$/.test(s) ? s.charCodeAt(1) : Number(s)
    let bytes = init.startsWith('"')
      ? Buffer.from(JSON.parse(init), 'latin1')
      : Buffer.from(init.slice(1, -1).split(',').map((s) => s.trim()).filter(Boolean).map(byte))
    if (/^\d+$/.test(size) && bytes.length < Number(size)) bytes = Buffer.concat([bytes, Buffer.alloc(Number(size) - bytes.length)])
    out[name] = bytes.toString('hex')
  }
  return out
}

// generichash.c: the BLAKE2b reference KAT (keyed, 64-byte key and output, inputs 0..255 bytes).
write('generichash_kat', 'generichash.c', table('generichash.c', ['in', 'key', 'out']))

// generichash.c main(): line i (0..63) = crypto_generichash(out, 1 + i, in = 0..i-1, key = 0..i);
// line 64 = unkeyed, 64-byte output of in = 0..63.
write('generichash', 'generichash.c (main) and generichash.exp', expect('generichash.exp', lines('generichash.exp').map((out, i) =>
  i < 64 ? { in: count(i), key: count(i + 1), out } : { in: count(64), key: null, out }), 65))

// generichash2.c: line i = init(key = 0..i, outlen 1 + i), update(in = 0..i-1) three times, final.
write('generichash2', 'generichash2.c and generichash2.exp', expect('generichash2.exp', lines('generichash2.exp').map((out, i) =>
  ({ key: count(i + 1), outlen: i + 1, chunks: [count(i), count(i), count(i)], out })), 64))

// generichash3.c: salt and personal are ASCII constants. Lines 0..63: init_salt_personal(key =
// 0..i, outlen 1 + i), update(in = 0..i-1), final(1 + i). Then, all with in = 0..63 and 64-byte
// outputs: streaming (64..67, 73, 74; the last two initialised for 32 bytes, finalised for 64)
// and one-shot salt_personal (68..72). keylen 0 and a NULL key both mean no key.
{
  const a = arrays(read('generichash3.c'))
  const [salt, personal, k, m] = [a.salt, a.personal, count(64), count(64)]
  const tail = [
    ['stream', null, 64, salt, personal],
    ['stream', null, 64, salt, personal],
    ['stream', k, 64, null, personal],
    ['stream', k, 64, salt, null],
    ['oneshot', null, 64, salt, personal],
    ['oneshot', null, 64, salt, personal],
    ['oneshot', k, 64, salt, personal],
    ['oneshot', k, 64, null, personal],
    ['oneshot', k, 64, salt, null],
    ['stream', null, 32, null, personal],
    ['stream', null, 32, salt, null]
  ]
  const rows = lines('generichash3.exp').map((out, i) => {
    if (i < 64) return { mode: 'stream', key: count(i + 1), outlen: i + 1, salt, personal, in: count(i), out }
    const [mode, key, outlen, s, p] = tail[i - 64]
    return { mode, key, outlen, salt: s, personal: p, in: m, out }
  })
  write('generichash3', 'generichash3.c and generichash3.exp', expect('generichash3.exp', rows, 64 + tail.length))
}

// hash.c: SHA-512 then SHA-256 of x = "testing\n" and x2 (a sentence).
{
  const text = read('hash.c')
  const literal = (name) => {
    const m = text.match(new RegExp(`\\b${name}\\[\\] =((?:\\s*"(?:[^"\\\\]|\\\\.)*")+);`))
    return [...m[1].matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((s) => JSON.parse(`"${s[1]}"`)).join('')
  }
  const [x, x2] = [literal('x'), literal('x2')].map((s) => Buffer.from(s, 'latin1').toString('hex'))
  const out = expect('hash.exp', lines('hash.exp'), 4)
  write('hash', 'hash.c and hash.exp', [
    { primitive: 'sha512', in: x, out: out[0] }, { primitive: 'sha512', in: x2, out: out[1] },
    { primitive: 'sha256', in: x, out: out[2] }, { primitive: 'sha256', in: x2, out: out[3] }
  ])
}

// hash_sha3256.c, hash_sha3512.c: crypto_hash_sha3*(out, msg, len) checked against a constant.
for (const bits of [256, 512]) {
  const file = `hash_sha3${bits}.c`
  const text = read(file)
  const a = arrays(text)
  const re = new RegExp(`crypto_hash_sha3${bits}\\(out, (\\w+), (\\d+)\\);\\s*assert\\(memcmp\\(out, (\\w+), \\d+\\) == 0\\);`, 'g')
  const rows = [...text.matchAll(re)].map(([, msg, len, out]) => ({ in: msg === 'NULL' ? '' : a[msg].slice(0, 2 * len), out: a[out] }))
  write(`hash_sha3${bits}`, file, expect(file, rows, 3))
}

// xof_*.c: `vectors[] = { { msg, msg_len, out, out_len }, ... }` (standard domain).
for (const name of ['shake128', 'shake256', 'turboshake128', 'turboshake256']) {
  const file = `xof_${name}.c`
  const text = read(file)
  const a = arrays(text)
  const body = text.slice(text.indexOf('vectors[] = {'), text.indexOf('};', text.indexOf('vectors[] = {')))
  const rows = [...body.matchAll(/\{\s*(\w+),\s*(sizeof \w+|\d+),\s*(\w+),\s*(\d+)\s*\}/g)].map(([, msg, len, out, outlen]) => {
    const n = len.startsWith('sizeof') ? a[msg].length / 2 : Number(len)
    return { in: a[msg].slice(0, 2 * n), out: a[out].slice(0, 2 * outlen) }
  })
  write(`xof_${name}`, file, expect(file, rows, 6))
}

// shorthash.c, siphashx24.c: line i = hash of in = 0..i-1 under k = 0..15.
write('shorthash', 'shorthash.c and shorthash.exp', expect('shorthash.exp', lines('shorthash.exp').map((out, i) =>
  ({ in: count(i), k: count(16), out })), 64))
write('siphashx24', 'siphashx24.c and siphashx24.exp', expect('siphashx24.exp', lines('siphashx24.exp').map((out, i) =>
  ({ in: count(i), k: count(16), out })), 64))

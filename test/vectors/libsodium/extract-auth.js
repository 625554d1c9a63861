'use strict'
// libsodium's crypto_auth / crypto_onetimeauth known answers: the inputs are read from
// test/default/{auth,auth2,auth6,onetimeauth}.c, the outputs from the matching .exp files (each
// prints tags as ",0x.." bytes). Run through extract.js, which writes auth.json beside it.
const fs = require('fs')
const path = require('path')
const { src, write } = require('./extract')

const read = (file) => fs.readFileSync(path.join(src, 'test', 'default', file), 'utf8')
const hex = (buf) => Buffer.from(buf).toString('hex')

// `static unsigned char name[N] = "..." "...";` -> its sizeof bytes (zero-padded to N, or with
// the terminating NUL when N is empty), as C lays it out.
function cString (text, name) {
  const m = new RegExp(`unsigned char\\s+${name}\\[(\\d*)\\]\\s*=\\s*((?:"(?:[^"\\\\]|\\\\.)*"\\s*)+);`).exec(text)
  if (!m) throw new Error(`no string ${name}`)
  const literal = [...m[2].matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((s) => s[1]).join('').replace(/\\(.)/g, '$1')
  const bytes = Buffer.from(literal, 'latin1')
  const size = m[1] ? Number(m[1]) : bytes.length + 1
  return Buffer.concat([bytes, Buffer.alloc(size - bytes.length)])
}

// `static unsigned char name[N] = { 0x.., ... };` -> its N bytes.
function cArray (text, name) {
  const m = new RegExp(`unsigned char\\s+${name}\\[(\\d+)\\]\\s*=\\s*\\{([^}]*)\\}`).exec(text)
  if (!m) throw new Error(`no array ${name}`)
  const bytes = Buffer.from([...m[2].matchAll(/0x([0-9a-f]{2})/gi)].map((b) => parseInt(b[1], 16)))
  if (bytes.length !== Number(m[1])) throw new Error(`${name}: ${bytes.length} bytes, declared ${m[1]}`)
  return bytes
}

// The ",0x.." bytes an .exp file prints, in order, cut into the given lengths.
function expTags (file, lengths) {
  const bytes = [...read(file).matchAll(/0x([0-9a-f]{2})/g)].map((b) => parseInt(b[1], 16))
  const total = lengths.reduce((a, b) => a + b, 0)
  if (bytes.length !== total) throw new Error(`${file}: ${bytes.length} bytes, expected ${total}`)
  let at = 0
  return lengths.map((n) => Buffer.from(bytes.slice(at, (at += n))))
}

const rows = []

// auth.c: RFC 4231's key "Jefe" in a 32-byte array, its message without the NUL; the streaming
// cases absorb c[0..1) then c[0..sizeof c - 2), and key2 is a long string with its NUL.
{
  const text = read('auth.c')
  const key = cString(text, 'key')
  const c = cString(text, 'c')
  const key2 = cString(text, 'key2')
  const streamed = Buffer.concat([c.subarray(0, 1), c.subarray(0, c.length - 2)])
  // the fourth tag is HMAC-SHA-256 printed from a zeroed 64-byte array
  const [a, a512, a512k2, a256k2] = expTags('auth.exp', [32, 64, 64, 64])
  if (!a256k2.subarray(32).equals(Buffer.alloc(32))) throw new Error('auth.exp: HMAC-SHA-256 tag is not 32 bytes')
  rows.push({ file: 'auth.c', primitive: 'crypto_auth', key: hex(key), message: hex(c.subarray(0, c.length - 1)), tag: hex(a) })
  rows.push({ file: 'auth.c', primitive: 'crypto_auth_hmacsha512', key: hex(key), message: hex(streamed), tag: hex(a512) })
  rows.push({ file: 'auth.c', primitive: 'crypto_auth_hmacsha512', key: hex(key2), message: hex(streamed), tag: hex(a512k2) })
  rows.push({ file: 'auth.c', primitive: 'crypto_auth_hmacsha256', key: hex(key2), message: hex(streamed), tag: hex(a256k2.subarray(0, 32)) })
}

// auth2.c (RFC 4868 AUTH256-4) and auth6.c (RFC 4231 case 2 with a zero-padded 32-byte key).
{
  const text = read('auth2.c')
  const [a] = expTags('auth2.exp', [32])
  rows.push({ file: 'auth2.c', primitive: 'crypto_auth_hmacsha256', key: hex(cArray(text, 'key')), message: hex(cArray(text, 'c')), tag: hex(a) })
}
{
  const text = read('auth6.c')
  const c = cString(text, 'c')
  const [a] = expTags('auth6.exp', [64])
  rows.push({ file: 'auth6.c', primitive: 'crypto_auth_hmacsha512', key: hex(cString(text, 'key')), message: hex(c.subarray(0, c.length - 1)), tag: hex(a) })
}

// onetimeauth.c: one-shot and streamed (100 + 0 + 31 bytes) Poly1305 tags of the same 131 bytes.
{
  const text = read('onetimeauth.c')
  const [a, streamed] = expTags('onetimeauth.exp', [16, 16])
  if (!a.equals(streamed)) throw new Error('onetimeauth.exp: one-shot and streamed tags differ')
  rows.push({ file: 'onetimeauth.c', primitive: 'crypto_onetimeauth', key: hex(cArray(text, 'rs')), message: hex(cArray(text, 'c')), tag: hex(a) })
}

write('auth', 'auth.c, auth2.c, auth6.c, onetimeauth.c and their .exp files', rows)

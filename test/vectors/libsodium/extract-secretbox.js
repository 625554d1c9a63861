'use strict'
// crypto_secretbox vectors from libsodium 1.0.22's test/default: secretbox.c and secretbox2.c
// (the NaCl zero-padded API), secretbox_easy.c (easy/detached, the empty message, a MAC) and
// xchacha20.c (crypto_secretbox_xchacha20poly1305). Run through extract.js.
// Rows are { file, case, key, nonce, m, c[, offset] }: c is the boxed m, compared from byte
// `offset` where libsodium printed only a tail.
const fs = require('fs')
const path = require('path')
const { src, write } = require('./extract')

const read = (file) => fs.readFileSync(path.join(src, 'test', 'default', file), 'utf8')
const hex = (bytes) => Buffer.from(bytes).toString('hex')
const bytesOf = (text) => [...text.matchAll(/0x([0-9a-f]{2})/g)].map((m) => parseInt(m[1], 16))

function cArray (text, name) {
  const m = text.match(new RegExp(`\\b${name}\\[[^\\]]*\\]\\s*=\\s*\\{([^}]*)\\}`))
  if (!m) throw new Error(`array ${name} not found`)
  return m[1].split(',').map((t) => t.trim()).filter(Boolean).map(Number)
}

{
  const box = read('secretbox.c')
  const key = hex(cArray(box, 'firstkey'))
  const nonce = hex(cArray(box, 'nonce'))
  const m = cArray(box, 'm')
  const c = cArray(read('secretbox2.c'), 'c')
  // secretbox.c prints c[16..162] twice (out of place, then in place); secretbox2.c opens its c
  // and prints m[32..162]
  const boxed = bytesOf(read('secretbox.exp')).slice(0, 147)
  const opened = bytesOf(read('secretbox2.exp'))
  const easy = read('secretbox_easy.exp').split('\n').map(bytesOf)
  const m131 = cArray(read('secretbox_easy.c'), 'm')
  write('secretbox', 'secretbox.c, secretbox2.c, secretbox_easy.c', [
    { file: 'secretbox.c', case: 'crypto_secretbox', key, nonce, m: hex(m), offset: 16, c: hex(boxed) },
    { file: 'secretbox2.c', case: 'crypto_secretbox_open', key, nonce, m: hex(opened), offset: 32, c: hex(c) },
    { file: 'secretbox_easy.c', case: 'crypto_secretbox_easy', key, nonce, m: hex(m131), c: hex(easy[0]) },
    { file: 'secretbox_easy.c', case: 'empty message', key, nonce, m: '', c: hex(easy[5].slice(0, 16)) },
    { file: 'secretbox_easy.c', case: 'bytes 10..19 of m', key, nonce, m: hex(m131.slice(10, 20)), c: hex(easy[7]) },
    // prints m[0..9] (left in place) then the 16-byte MAC of boxing m[0..9] right after it
    { file: 'secretbox_easy.c', case: 'MAC of bytes 0..9 of m', key, nonce, m: hex(m131.slice(0, 10)), mac: hex(easy[8].slice(10)) }
  ])
}

{
  const text = read('xchacha20.c')
  let at = -1
  for (let i = 0; i < 3; i++) at = text.indexOf('tvs[]', at + 1)
  const body = text.slice(at, text.indexOf('};', at))
  const rows = [...body.matchAll(/\{\s*"([0-9a-f]*)",\s*"([0-9a-f]*)",\s*"([0-9a-f]*)",\s*"([0-9a-f]*)"\s*\}/g)]
    .map(([, key, nonce, m, c]) => ({ file: 'xchacha20.c', case: 'crypto_secretbox_xchacha20poly1305_easy', key, nonce, m, c }))
  if (rows.length !== 10) throw new Error(`xchacha20.c: ${rows.length} secretbox rows`)
  write('secretbox_xchacha20poly1305', 'xchacha20.c', rows)
}

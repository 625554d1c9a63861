'use strict'
// libsodium's crypto_kdf and HKDF known answers. The inputs are built the way test/default/kdf.c,
// kdf_hkdf.c and kdf_hkdf4.c build them (restated below, checked against their text); the outputs
// are read from the .exp files. Run through extract.js, which writes kdf.json beside it.
const fs = require('fs')
const path = require('path')
const { src, write } = require('./extract')

const read = (file) => fs.readFileSync(path.join(src, 'test', 'default', file), 'utf8')
const hex = (buf) => Buffer.from(buf).toString('hex')
const bytes = (n, f) => Buffer.from(Array.from({ length: n }, (_, i) => f(i) & 0xff))
function expect (file, ...snippets) {
  const text = read(file)
  for (const s of snippets) if (!text.includes(s)) throw new Error(`${file} no longer contains: ${s}`)
}

const rows = []

// kdf.c: master_key[i] = i (32 bytes), context "KDF test". First 10 lines: 64-byte subkeys for ids
// 0..9; then for i in 0..BYTES_MAX+1: an i-byte subkey for id i, or "Failure" outside 16..64.
{
  expect('kdf.c', 'memcpy(context, "KDF test"', 'master_key[i] = i;', 'crypto_kdf_derive_from_key(subkey, (size_t) i,')
  const key = bytes(32, (i) => i)
  const ctx = Buffer.from('KDF test')
  const lines = read('kdf.exp').split('\n').filter((l) => l && !l.startsWith('tv_kdf'))
  if (lines.length !== 10 + 66) throw new Error(`kdf.exp: ${lines.length} lines`)
  lines.slice(0, 10).forEach((out, i) => rows.push({ file: 'kdf.c', kind: 'blake2b', key: hex(key), ctx: hex(ctx), id: i, length: 64, subkey: out }))
  lines.slice(10).forEach((out, i) => rows.push({ file: 'kdf.c', kind: 'blake2b', key: hex(key), ctx: hex(ctx), id: i, length: i, subkey: out.startsWith('Failure') ? null : out }))
}

// kdf_hkdf.c: ikm[i] = i (66 bytes), salt[i] = ~i (77 bytes), context[i] = i + 111 (88 bytes);
// for each hash: the PRK, then for i in 0..98 an i-byte expand with context[0] = i. Stored once
// per hash: `expand[i]` is that i-byte output, `ctx` the context with its first byte 0.
{
  expect('kdf_hkdf.c', 'master_key_len = 66', 'salt_len = 77', 'context_len = 88', 'out_len = 99',
    'master_key[i] = i;', 'salt[i] = (unsigned char) ~i;', 'context[i] = (unsigned char) (i + 111);', 'context[0] = i;')
  const sections = read('kdf_hkdf.exp').split(/\nHKDF\/SHA-(?:256|512):\n/).slice(1)
  for (const [hash, section] of [['sha256', sections[0]], ['sha512', sections[1]]]) {
    const lines = section.split('\n')
    const prk = /^PRK: ([0-9a-f]+)$/.exec(lines[0])[1]
    const expand = lines.slice(1, 100)
    expand.forEach((out, i) => { if (out.length !== 2 * i) throw new Error(`kdf_hkdf.exp ${hash} line ${i}`) })
    rows.push({
      file: 'kdf_hkdf.c',
      kind: `hkdf_${hash}_sweep`,
      salt: hex(bytes(77, (i) => ~i)),
      ikm: hex(bytes(66, (i) => i)),
      prk,
      ctx: hex(bytes(88, (j) => (j === 0 ? 0 : j + 111))),
      expand
    })
  }
}

// kdf_hkdf4.c: PRK from a NULL salt and "input key material", then slices of longer outputs.
{
  const ikm = Buffer.from('input key material')
  const cases = [
    ['sha256', 'context', 100, 0, 'sha256 expand 100 first 32'],
    ['sha256', 'context', 100, 64, 'sha256 expand 100 bytes 64-95'],
    ['sha512', 'context', 200, 0, 'sha512 expand 200 first 32'],
    ['sha512', 'context', 200, 128, 'sha512 expand 200 bytes 128-159'],
    ['sha512', 'ctx2', 128, 64, 'sha512 expand 128 second block'],
    ['sha512', 'ctx3', 64, 0, 'sha512 expand 64']
  ]
  expect('kdf_hkdf4.c', '"input key material", 18', '"context", 7', '"ctx2", 4', '"ctx3", 4')
  const exp = read('kdf_hkdf4.exp')
  for (const [hash, ctx, length, offset, label] of cases) {
    const out = new RegExp(`^${label}: ([0-9a-f]{64})$`, 'm').exec(exp)[1]
    rows.push({ file: 'kdf_hkdf4.c', kind: `hkdf_${hash}`, salt: null, ikm: hex(ikm), ctx: hex(Buffer.from(ctx)), length, offset, out })
  }
}

write('kdf', 'kdf.c, kdf_hkdf.c, kdf_hkdf4.c and their .exp files', rows)

'use strict'
// libsodium's own answers for the utils family, from test/default/randombytes.c/.exp (the
// randombytes_buf_deterministic vector) and test/default/codecs.c/.exp (base64 encodings, and
// every sodium_base642bin() call that asks for the whole input to be valid, with its verdict).
// Run through extract.js.
const fs = require('fs')
const path = require('path')
const { src, write } = require('./extract')

const read = (f) => fs.readFileSync(path.join(src, 'test', 'default', f), 'utf8')

// C string literals: adjacent literals concatenated, escapes decoded, as bytes in hex
function cString (literals) {
  const bytes = []
  for (const [, body] of literals.matchAll(/"((?:[^"\\]|\\.)*)"/g)) {
    for (let i = 0; i < body.length; i++) {
      if (body[i] !== '\\') { bytes.push(body.charCodeAt(i)); continue }
      const e = body[++i]
      if (e === 'x') {
        const hex = /^[0-9a-fA-F]+/.exec(body.slice(i + 1))[0]
        bytes.push(parseInt(hex, 16)); i += hex.length
      } else bytes.push({ n: 10, r: 13, t: 9, '\\': 92, '"': 34 }[e])
    }
  }
  return Buffer.from(bytes)
}

// randombytes_buf_deterministic(out, 100, seed) with seed = 00 01 .. 1f
{
  const c = read('randombytes.c')
  const seedText = /seed\[randombytes_SEEDBYTES\] = \{([^}]*)\}/.exec(c)[1]
  const seed = Buffer.from(seedText.match(/0x[0-9a-f]{2}/g).map((x) => parseInt(x, 16)))
  const out = /^([0-9a-f]+) \(deterministic\)$/m.exec(read('randombytes.exp'))[1]
  const outLen = +/unsigned char out\[(\d+)\]/.exec(c)[1]
  if (seed.length !== 32 || out.length !== 2 * outLen) throw new Error('randombytes: unexpected shape')
  write('randombytes', 'randombytes.c, randombytes.exp', [{ seed: seed.toString('hex'), out }])
}

const codecs = read('codecs.c')

// printf("%s\n", sodium_bin2base64(buf3, N, <bin>, LEN, VARIANT)) in order, against codecs.exp
{
  const calls = [...codecs.matchAll(/sodium_bin2base64\(buf3, \d+U,\s*(guard_page|\(const unsigned char \*\) ((?:"(?:[^"\\]|\\.)*"\s*)+)),\s*(\d+)U, (sodium_base64_VARIANT_\w+)\)/g)]
  const exp = read('codecs.exp').split('\n')
  const first = exp.indexOf('dt6: 11') + 1
  const rows = calls.map((m, i) => ({
    bin: (m[1] === 'guard_page' ? Buffer.alloc(0) : cString(m[2])).subarray(0, +m[3]).toString('hex'),
    variant: m[4],
    b64: exp[first + i]
  }))
  if (rows.length !== 12 || rows.some((r) => r.bin.length !== 2 * +calls[rows.indexOf(r)][3])) {
    throw new Error('codecs.c: unexpected sodium_bin2base64 calls')
  }
  write('base64_encode', 'codecs.c, codecs.exp', rows)
}

// assert(sodium_base642bin(bin, maxlen, "b64", LEN, ignore, NULL, NULL, VARIANT) == 0 | -1)
{
  const rows = []
  const re = /sodium_base642bin\((?:buf1, sizeof buf1|guard_page, \(size_t\) (\d+)U),\s*((?:"(?:[^"\\]|\\.)*")|b64),\s*(?:\(size_t\) (\d+)U|strlen\(b64\)),\s*(NULL|"(?:[^"\\]|\\.)*"),\s*NULL,\s*NULL,\s*(sodium_base64_VARIANT_\w+)\) == (0|-1)\)/g
  const journey = cString(/b64 = ((?:"(?:[^"\\]|\\.)*"\s*)+);/.exec(codecs)[1])
  for (const m of codecs.matchAll(re)) {
    const b64 = m[2] === 'b64' ? journey : cString(m[2])
    if (m[3] !== undefined && +m[3] !== b64.length) throw new Error(`codecs.c: length ${m[3]} for ${m[2]}`)
    rows.push({
      b64: b64.toString('latin1'),
      ignore: m[4] === 'NULL' ? null : cString(m[4]).toString('latin1'),
      variant: m[5],
      bin_maxlen: m[1] === undefined ? 1000 : +m[1],
      valid: m[6] === '0'
    })
  }
  if (rows.length !== 27) throw new Error(`codecs.c: ${rows.length} sodium_base642bin cases, expected 27`)
  write('base64_decode', 'codecs.c', rows)
}

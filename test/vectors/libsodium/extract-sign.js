'use strict'
// libsodium 1.0.22 test/default/sign.c: its 1024-row Ed25519 table (seed, pk, signature, and the
// message of row i, i bytes long) -> sign.json; the ed25519ph answers printed in sign.exp and the
// keys sign.c checks them with -> sign_ed25519ph.json; the public keys sign.c expects
// crypto_sign_verify_detached to refuse -> sign_bad_pk.json. Run through extract.js.
const fs = require('fs')
const path = require('path')
const { src, write } = require('./extract')

const dir = path.join(src, 'test', 'default')
const text = fs.readFileSync(path.join(dir, 'sign.c'), 'utf8')
const exp = fs.readFileSync(path.join(dir, 'sign.exp'), 'utf8')

const bytes = (list) => Buffer.from(list.split(',').filter((s) => s.trim()).map((s) => parseInt(s, 16)))
// The messages are C literals made only of \xHH escapes.
function cString (literal) {
  const body = literal.replace(/^"|"$/g, '')
  if (!/^(\\x[0-9a-f]{2})*$/.test(body)) throw new Error(`sign.c: unexpected literal ${body.slice(0, 40)}`)
  return Buffer.from(body.replace(/\\x/g, ''), 'hex')
}

const rows = []
for (const m of text.matchAll(/^\{\{([^}]*)\},\{([^}]*)\},\{([^}]*)\},("[^"]*")\},$/gm)) {
  const [seed, pk, sig, msg] = [bytes(m[1]), bytes(m[2]), bytes(m[3]), cString(m[4])]
  if (seed.length !== 32 || pk.length !== 32 || sig.length !== 64 || msg.length !== rows.length) {
    throw new Error(`sign.c: malformed row ${rows.length}`)
  }
  rows.push({ seed: seed.toString('hex'), pk: pk.toString('hex'), sig: sig.toString('hex'), message: msg.toString('hex') })
}
if (rows.length !== 1024) throw new Error(`sign.c: ${rows.length} rows`)
write('sign', 'sign.c (test_data[])', rows)

const printed = (label) => exp.match(new RegExp(`^${label}: \\[([0-9a-f]+)\\]$`, 'm'))[1]
// The first 64-hex-digit literal that sodium_hex2bin() writes into `dst` after `from` in sign.c
const hexInto = (dst, from = 0) => {
  const re = new RegExp(`sodium_hex2bin\\(${dst}, crypto_sign_\\w+,\\s*"([0-9a-f]{64})"`, 'g')
  re.lastIndex = from
  const m = re.exec(text)
  return { hex: m[1], end: re.lastIndex }
}
const phSeed = hexInto('sk')
const seedBytes = bytes(text.match(/keypair_seed\[\]\s*=\s*\{([^}]*)\}/)[1]).toString('hex')
write('sign_ed25519ph', 'sign.c and sign.exp', [
  {
    // crypto_sign_seed_keypair(keypair_seed), then ed25519ph over test_data[1023].m
    seed: seedBytes,
    pk: printed('pk'),
    sk: printed('sk'),
    message: rows[1023].message,
    sig: printed('ed25519ph sig')
  },
  {
    // RFC 8032 7.3 (Ed25519ph, "abc"), as sign.c sets it up
    seed: phSeed.hex,
    pk: hexInto('pk', phSeed.end).hex,
    message: Buffer.from('abc').toString('hex'),
    sig: printed('ed25519ph tv sig')
  }
])

const nonCanonical = bytes(text.match(/non_canonical_p\[32\]\s*=\s*\{([^}]*)\}/)[1]).toString('hex')
const invalid = [...text.slice(0, phSeed.end).matchAll(/sodium_hex2bin\(pk, crypto_sign_PUBLICKEYBYTES,\s*"([0-9a-f]{64})"/g)].map((m) => m[1])
write('sign_bad_pk', 'sign.c (public keys crypto_sign_verify_detached must refuse)',
  [nonCanonical, '00'.repeat(32), ...invalid].map((pk) => ({ pk })))

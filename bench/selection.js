'use strict'
// What the default run (`npm run bench`, no flag) times: the seed article's table (Ed25519
// keypair/sign/verify and XChaCha20-Poly1305 keygen/encrypt/decrypt at every size) and the
// README's headline rows. `--full` times every case; scripts/readme-bench.js prints the same
// headline rows from a full run's results/latest.json.

// The seed article's operations, at every size they have
const SEED_OPS = ['ed25519 keypair', 'ed25519 sign', 'ed25519 verify',
  'xchacha20poly1305 keygen', 'xchacha20poly1305 encrypt', 'xchacha20poly1305 decrypt']

// [op, size label or null]: the README's headline rows (a null size: the operation has none)
const HEADLINE = [
  ['xchacha20poly1305 encrypt', '10 B'], ['xchacha20poly1305 encrypt', '1 MB'],
  ['xchacha20poly1305 decrypt', '1 KB'], ['ed25519 sign', '1 KB'], ['ed25519 verify', '1 KB'],
  ['x25519 shared secret', null], ['sha256', '1 KB'], ['sha256', '1 MB'], ['sha512', '1 MB'],
  ['sha3-256', '1 MB'], ['blake2b-256', '1 MB'], ['blake2b-512', '1 MB'], ['hmac-sha256', '1 KB'],
  ['chacha20poly1305 encrypt', '1 MB'],
  ['argon2id', 't=2, m=19 MiB'], ['scrypt', 'N=2^14'], ['ml-kem-768 keypair', null],
  ['xchacha20poly1305 decrypt', '1 MB'], ['xchacha20poly1305 decrypt', '10 B']
]

const isHeadline = (op, label) => HEADLINE.some(([o, s]) => o === op && (s === null || s === (label || null)))
const inDefault = (op, label) => SEED_OPS.includes(op) || isHeadline(op, label)

module.exports = { SEED_OPS, HEADLINE, isHeadline, inDefault }

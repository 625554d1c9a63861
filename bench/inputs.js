'use strict'
// Inputs shared by every contender and by bench/ceiling.c: the same bytes everywhere, so one
// reference answer checks them all. fill() must stay identical to fill() in ceiling.c.
const TAG = { MSG: 1, KEY: 2, NONCE: 3, SEED: 4, SEED_B: 5, PW: 6, SALT: 7, ENC: 8 }

function fill (tag, n) {
  const b = new Uint8Array(n)
  for (let i = 0; i < n; i++) b[i] = (i * 131 + tag * 29 + 7) & 0xff
  return b
}

const KB = 1024
const MB = 1024 * 1024
// The seed article's sizes; 1 KB = 1024 bytes.
const SIZES = [10, KB, 100 * KB, MB]
const QUICK_SIZES = [KB]

function sizeLabel (n) {
  if (n >= MB && n % MB === 0) return `${n / MB} MB`
  if (n >= KB && n % KB === 0) return `${n / KB} KB`
  return `${n} B`
}

module.exports = { TAG, fill, SIZES, QUICK_SIZES, sizeLabel, KB, MB }

'use strict'
// crypto_box and crypto_kx vectors from libsodium's box*.c, box_seed.c, kx.c and xchacha20.c.
const { write } = require('./extract')
const { read, cArray, hexBytes } = require('./c-source')

const box = read('box.c')
const box2 = read('box2.c')
const easy = read('box_easy.c')
const easyExp = read('box_easy.exp').split('\n')
const boxExp = read('box.exp')

// box.c boxes m (after NaCl's 32 zero bytes) from Alice to Bob; box2.c opens it as Bob;
// box_easy.c prints the same box in the easy layout (mac || ciphertext), then the box of an empty
// message (its 17th printed byte is left over from the first box, so only 16 are kept).
const m = cArray(easy, 'm')
if (cArray(box, 'm') !== '00'.repeat(32) + m) throw new Error('box.c and box_easy.c messages differ')
const c = hexBytes(easyExp[0])
if (hexBytes(boxExp.split('\n').slice(0, 19).join('\n')) !== c) throw new Error('box.exp and box_easy.exp differ')
const common = {
  alice_sk: cArray(box, 'alicesk'),
  alice_pk: cArray(box2, 'alicepk'),
  bob_sk: cArray(box2, 'bobsk'),
  bob_pk: cArray(box, 'bobpk'),
  nonce: cArray(box, 'nonce')
}
write('box_easy', 'box.c, box2.c, box_easy.c (+ .exp)', [
  { ...common, m, c },
  { ...common, m: '', c: hexBytes(easyExp[1]).slice(0, 32) }
])

// box_seed.c (crypto_box) and xchacha20.c tv_box_xchacha20poly1305 (seed = 00 01 .. 1f).
const xchacha = read('xchacha20.c').slice(read('xchacha20.c').indexOf('tv_box_xchacha20poly1305(void)'))
const [xpk, xsk] = [...xchacha.matchAll(/strcmp\(hex, "([0-9a-f]{64})"\)/g)].map((x) => x[1])
const seedExp = hexBytes(read('box_seed.exp'))
write('box_seed_keypair', 'box_seed.c, xchacha20.c (+ .exp)', [
  { primitive: 'crypto_box', seed: cArray(read('box_seed.c'), 'seed'), pk: seedExp.slice(0, 64), sk: seedExp.slice(64) },
  { primitive: 'crypto_box_curve25519xchacha20poly1305', seed: Buffer.from([...Array(32).keys()]).toString('hex'), pk: xpk, sk: xsk }
])

// kx.c: the client seed is 00 01 .. 1f; the server's is that seed incremented (little-endian).
const kxExp = Object.fromEntries([...read('kx.exp').matchAll(/^(\w+): \[([0-9a-f]+)\]$/gm)].map((x) => [x[1], x[2]]))
const clientSeed = Buffer.from([...Array(32).keys()])
const serverSeed = Buffer.from(clientSeed)
serverSeed[0]++
write('kx', 'kx.c (+ .exp)', [{
  client_seed: clientSeed.toString('hex'),
  server_seed: serverSeed.toString('hex'),
  ...kxExp
}])

// The small-order point every box test rejects (box.c, box2.c, box_easy2.c, kx.c, xchacha20.c).
write('box_small_order', 'box.c', [{ p: cArray(box, 'small_order_p') }])

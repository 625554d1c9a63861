/* Salsa20 (Bernstein, "The Salsa20 family of stream ciphers", 2008): the keystream under
 * XSalsa20-Poly1305 (crypto_secretbox, crypto_box) and crypto_stream_(x)salsa20, for the wasm32
 * build.
 *
 * libsodium's wasm32 build runs its reference Salsa20 one block at a time behind a function
 * pointer, and its secretbox then hashes with its portable Poly1305: a 10-byte crypto_secretbox_easy
 * through our main API ran at 0.83x libsodium-wrappers (Intel Xeon, family 6 model 207, Node 20),
 * where the same C compiled by Emscripten has less call overhead than our reactor. The wasm link
 * wraps (deps/build-wasm.sh) libsodium's crypto_secretbox_easy, _open_easy, _detached and
 * _open_detached (one pass here), crypto_stream_salsa20, _xor and _xor_ic and its
 * crypto_onetimeauth_poly1305 functions, so every libsodium function that uses them (secretbox,
 * box, stream_xsalsa20, box_seal) runs this code and src/crypto/poly1305.h's. Natively libsodium's
 * own SSE2/AVX2 Salsa20 stays: nothing is wrapped there.
 *
 * Four blocks per SIMD128 pass (word i of block j in lane j of v128 i, as chacha20_simd128.c),
 * a single block in scalar C. Byte-identical to libsodium's crypto_stream_salsa20_xor_ic: the
 * 64-bit block counter in words 8 (low) and 9, the nonce in words 6 and 7. */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include <sodium.h>

#include "poly1305.h"

#if defined(NAT_WASM) && defined(__wasm_simd128__)
#include <wasm_simd128.h>

#include "nat_pure.h"
#include "simd128_words.h"

static inline uint32_t load32_le(const unsigned char *p) {
  uint32_t x;
  memcpy(&x, p, 4); /* wasm32 is little-endian */
  return x;
}

static inline void store32_le(unsigned char *p, uint32_t x) {
  memcpy(p, &x, 4);
}

/* the input words for key k, nonce n (8 bytes) and block counter ic */
static void salsa20_setup(uint32_t st[16], const unsigned char *n, uint64_t ic, const unsigned char *k) {
  st[0] = 0x61707865U;
  for (int i = 0; i < 4; i++) st[1 + i] = load32_le(k + 4 * i);
  st[5] = 0x3320646eU;
  st[6] = load32_le(n);
  st[7] = load32_le(n + 4);
  st[8] = (uint32_t) ic;
  st[9] = (uint32_t) (ic >> 32);
  st[10] = 0x79622d32U;
  for (int i = 0; i < 4; i++) st[11 + i] = load32_le(k + 16 + 4 * i);
  st[15] = 0x6b206574U;
}

#define ROTL32(x, n) ((x) << (n) | (x) >> (32 - (n)))
#define QR(a, b, c, d)            \
  b ^= ROTL32(a + d, 7);          \
  c ^= ROTL32(b + a, 9);          \
  d ^= ROTL32(c + b, 13);         \
  a ^= ROTL32(d + c, 18)

/* Salsa20's 20 rounds on x (no feed-forward) */
static void rounds20(uint32_t x[16]) {
  uint32_t x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3], x4 = x[4], x5 = x[5], x6 = x[6], x7 = x[7],
           x8 = x[8], x9 = x[9], x10 = x[10], x11 = x[11], x12 = x[12], x13 = x[13], x14 = x[14],
           x15 = x[15];
  for (int i = 0; i < 10; i++) {
    QR(x0, x4, x8, x12);
    QR(x5, x9, x13, x1);
    QR(x10, x14, x2, x6);
    QR(x15, x3, x7, x11);
    QR(x0, x1, x2, x3);
    QR(x5, x6, x7, x4);
    QR(x10, x11, x8, x9);
    QR(x15, x12, x13, x14);
  }
  x[0] = x0; x[1] = x1; x[2] = x2; x[3] = x3; x[4] = x4; x[5] = x5; x[6] = x6; x[7] = x7;
  x[8] = x8; x[9] = x9; x[10] = x10; x[11] = x11; x[12] = x12; x[13] = x13; x[14] = x14;
  x[15] = x15;
}

/* out = in ^ one keystream block (len <= 64 bytes of it; in == NULL: the keystream), counter
 * advanced by one */
static void block1(uint32_t st[16], unsigned char *out, const unsigned char *in, size_t len) {
  uint32_t x[16];
  unsigned char ks[64];
  memcpy(x, st, sizeof x);
  rounds20(x);
  for (int i = 0; i < 16; i++) store32_le(ks + 4 * i, x[i] + st[i]);
  for (size_t i = 0; i < len; i++) out[i] = (unsigned char) (in == NULL ? ks[i] : in[i] ^ ks[i]);
  if (++st[8] == 0) st[9]++;
  sodium_memzero(x, sizeof x);
  sodium_memzero(ks, sizeof ks);
}

/* HSalsa20 (the XSalsa20 paper, section 2): the subkey for key k and the nonce's first 16 bytes,
 * which stand where Salsa20 has its nonce and block counter */
static void hsalsa20(unsigned char out[32], const unsigned char in[16], const unsigned char k[32]) {
  uint32_t x[16];
  salsa20_setup(x, in, (uint64_t) load32_le(in + 8) | (uint64_t) load32_le(in + 12) << 32, k);
  rounds20(x);
  static const int words[8] = {0, 5, 10, 15, 6, 7, 8, 9};
  for (int i = 0; i < 8; i++) store32_le(out + 4 * i, x[words[i]]);
  sodium_memzero(x, sizeof x);
}

#define W_QR(a, b, c, d)                                         \
  b = wasm_v128_xor(b, W_ROTL(wasm_i32x4_add(a, d), 7));         \
  c = wasm_v128_xor(c, W_ROTL(wasm_i32x4_add(b, a), 9));         \
  d = wasm_v128_xor(d, W_ROTL(wasm_i32x4_add(c, b), 13));        \
  a = wasm_v128_xor(a, W_ROTL(wasm_i32x4_add(d, c), 18))

/* out = in ^ the four blocks from st's counter on (256 bytes), counter advanced by four */
static void blocks4(uint32_t st[16], unsigned char *out, const unsigned char *in) {
  v128_t s[16];
  for (int i = 0; i < 16; i++) s[i] = wasm_i32x4_splat((int) st[i]);
  s[8] = wasm_i32x4_add(s[8], wasm_i32x4_make(0, 1, 2, 3));
  /* lanes whose low word wrapped carry into word 9 (the mask is -1 there) */
  s[9] = wasm_i32x4_sub(s[9], wasm_u32x4_lt(s[8], wasm_i32x4_splat((int) st[8])));
  v128_t x0 = s[0], x1 = s[1], x2 = s[2], x3 = s[3], x4 = s[4], x5 = s[5], x6 = s[6], x7 = s[7],
         x8 = s[8], x9 = s[9], x10 = s[10], x11 = s[11], x12 = s[12], x13 = s[13], x14 = s[14],
         x15 = s[15];
  for (int i = 0; i < 10; i++) {
    W_QR(x0, x4, x8, x12);
    W_QR(x5, x9, x13, x1);
    W_QR(x10, x14, x2, x6);
    W_QR(x15, x3, x7, x11);
    W_QR(x0, x1, x2, x3);
    W_QR(x5, x6, x7, x4);
    W_QR(x10, x11, x8, x9);
    W_QR(x15, x12, x13, x14);
  }
  W_XOR_BLOCKS4(s, x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15);
  const uint32_t before = st[8];
  st[8] += 4;
  if (st[8] < before) st[9]++;
}

/* out = in ^ keystream (in == NULL: the keystream itself); out == in allowed. A last partial
 * block takes one block of the counter, as libsodium's does. */
static void salsa20_xor(unsigned char *out, const unsigned char *in, size_t len, const unsigned char *n,
                        uint64_t ic, const unsigned char *k) {
  uint32_t st[16];
  unsigned char buf[256];
  salsa20_setup(st, n, ic, k);
  if (in == NULL) {
    for (; len >= 256; len -= 256, out += 256) {
      memset(out, 0, 256);
      blocks4(st, out, out);
    }
  } else {
    for (; len >= 256; len -= 256, in += 256, out += 256) blocks4(st, out, in);
  }
  if (len > 64) { /* 2..4 blocks: one pass into a buffer */
    if (in == NULL) memset(buf, 0, len); else memcpy(buf, in, len);
    blocks4(st, buf, buf);
    memcpy(out, buf, len);
    sodium_memzero(buf, sizeof buf);
  } else if (len > 0) {
    block1(st, out, in, len);
  }
  sodium_memzero(st, sizeof st);
}

/* XSalsa20-Poly1305 (crypto_secretbox_xsalsa20poly1305) in one pass: the subkey, then block 0
 * of the keystream gives the Poly1305 key (its first 32 bytes) and encrypts the first 32 bytes
 * of the message; the rest from block 1 on. The rules are libsodium's crypto_secretbox_easy.c:
 * c and m may overlap in any way (the message is moved first), the tag is checked before
 * anything is written, m == NULL only verifies. In place (the same address) needs no move. */
static int overlap(const unsigned char *a, const unsigned char *b, size_t len) {
  return a != b && nat_overlap(a, len, b, len);
}

static void secretbox_seal(unsigned char *c, unsigned char *mac, const unsigned char *m, size_t mlen,
                           const unsigned char *n, const unsigned char *k) {
  uint32_t st[16];
  unsigned char subkey[32], block0[64];
  hsalsa20(subkey, n, k);
  if (overlap(c, m, mlen)) {
    memmove(c, m, mlen);
    m = c;
  }
  const size_t mlen0 = mlen < 32 ? mlen : 32;
  memset(block0, 0, sizeof block0);
  memcpy(block0 + 32, m, mlen0);
  salsa20_setup(st, n + 16, 0, subkey);
  block1(st, block0, block0, 32 + mlen0);
  memcpy(c, block0 + 32, mlen0);
  if (mlen > mlen0) salsa20_xor(c + mlen0, m + mlen0, mlen - mlen0, n + 16, 1, subkey);
  nat_poly1305(mac, c, mlen, block0);
  sodium_memzero(st, sizeof st);
  sodium_memzero(subkey, sizeof subkey);
  sodium_memzero(block0, sizeof block0);
}

static int secretbox_open(unsigned char *m, const unsigned char *c, const unsigned char *mac, size_t clen,
                          const unsigned char *n, const unsigned char *k) {
  uint32_t st[16];
  unsigned char subkey[32], block0[64];
  hsalsa20(subkey, n, k);
  salsa20_setup(st, n + 16, 0, subkey);
  block1(st, block0, NULL, 64);
  int rc = nat_poly1305_verify(mac, c, clen, block0);
  if (rc == 0 && m != NULL) {
    if (overlap(m, c, clen)) {
      memmove(m, c, clen);
      c = m;
    }
    const size_t mlen0 = clen < 32 ? clen : 32;
    for (size_t i = 0; i < mlen0; i++) m[i] = (unsigned char) (c[i] ^ block0[32 + i]);
    if (clen > mlen0) salsa20_xor(m + mlen0, c + mlen0, clen - mlen0, n + 16, 1, subkey);
  }
  sodium_memzero(st, sizeof st);
  sodium_memzero(subkey, sizeof subkey);
  sodium_memzero(block0, sizeof block0);
  return rc;
}

/* An input longer than size_t can count cannot be in memory. */
#define TOO_LONG(n) ((n) > SIZE_MAX)

int __wrap_crypto_stream_salsa20_xor_ic(unsigned char *c, const unsigned char *m, unsigned long long mlen,
                                        const unsigned char *n, uint64_t ic, const unsigned char *k) {
  if (TOO_LONG(mlen)) return -1;
  if (mlen > 0) salsa20_xor(c, m, (size_t) mlen, n, ic, k);
  return 0;
}

int __wrap_crypto_stream_salsa20_xor(unsigned char *c, const unsigned char *m, unsigned long long mlen,
                                     const unsigned char *n, const unsigned char *k) {
  return __wrap_crypto_stream_salsa20_xor_ic(c, m, mlen, n, 0, k);
}

int __wrap_crypto_stream_salsa20(unsigned char *c, unsigned long long clen, const unsigned char *n,
                                 const unsigned char *k) {
  if (TOO_LONG(clen)) return -1;
  if (clen > 0) salsa20_xor(c, NULL, (size_t) clen, n, 0, k);
  return 0;
}

/* libsodium's crypto_secretbox (our binding's and crypto_box's calls) */
int __wrap_crypto_secretbox_detached(unsigned char *c, unsigned char *mac, const unsigned char *m,
                                     unsigned long long mlen, const unsigned char *n, const unsigned char *k) {
  if (mlen > crypto_secretbox_MESSAGEBYTES_MAX || TOO_LONG(mlen)) sodium_misuse();
  secretbox_seal(c, mac, m, (size_t) mlen, n, k);
  return 0;
}

int __wrap_crypto_secretbox_easy(unsigned char *c, const unsigned char *m, unsigned long long mlen,
                                 const unsigned char *n, const unsigned char *k) {
  if (mlen > crypto_secretbox_MESSAGEBYTES_MAX || TOO_LONG(mlen)) sodium_misuse();
  secretbox_seal(c + crypto_secretbox_MACBYTES, c, m, (size_t) mlen, n, k);
  return 0;
}

int __wrap_crypto_secretbox_open_detached(unsigned char *m, const unsigned char *c, const unsigned char *mac,
                                          unsigned long long clen, const unsigned char *n,
                                          const unsigned char *k) {
  if (TOO_LONG(clen)) return -1;
  return secretbox_open(m, c, mac, (size_t) clen, n, k);
}

int __wrap_crypto_secretbox_open_easy(unsigned char *m, const unsigned char *c, unsigned long long clen,
                                      const unsigned char *n, const unsigned char *k) {
  if (clen < crypto_secretbox_MACBYTES || TOO_LONG(clen)) return -1;
  return secretbox_open(m, c + crypto_secretbox_MACBYTES, c, (size_t) clen - crypto_secretbox_MACBYTES, n, k);
}

/* libsodium's Poly1305 callers (secretbox, box, onetimeauth's streaming) run ours: poly1305.h's
 * answers are libsodium's, its state fits libsodium's. */
int __wrap_crypto_onetimeauth_poly1305(unsigned char *out, const unsigned char *in, unsigned long long inlen,
                                       const unsigned char *k) {
  if (TOO_LONG(inlen)) return -1;
  return nat_poly1305(out, in, inlen, k);
}

int __wrap_crypto_onetimeauth_poly1305_verify(const unsigned char *h, const unsigned char *in,
                                              unsigned long long inlen, const unsigned char *k) {
  if (TOO_LONG(inlen)) return -1;
  return nat_poly1305_verify(h, in, inlen, k);
}

int __wrap_crypto_onetimeauth_poly1305_init(crypto_onetimeauth_poly1305_state *state, const unsigned char *key) {
  nat_poly1305_init(state, key);
  return 0;
}

int __wrap_crypto_onetimeauth_poly1305_update(crypto_onetimeauth_poly1305_state *state, const unsigned char *in,
                                              unsigned long long inlen) {
  if (TOO_LONG(inlen)) return -1;
  nat_poly1305_update(state, in, (size_t) inlen);
  return 0;
}

int __wrap_crypto_onetimeauth_poly1305_final(crypto_onetimeauth_poly1305_state *state, unsigned char *out) {
  nat_poly1305_final(state, out);
  return 0;
}
#endif

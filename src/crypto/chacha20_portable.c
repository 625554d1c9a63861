/* ChaCha20, one block at a time in 32-bit scalar C (see chacha20_impl.h), and the parts every
 * implementation shares: the state set-up, HChaCha20 and the XOR of a partial last block. */
#include <string.h>

#include "chacha20_impl.h"

static uint32_t load32_le(const unsigned char *p) {
  return (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16 | (uint32_t) p[3] << 24;
}

static void store32_le(unsigned char *p, uint32_t w) {
  p[0] = (unsigned char) w;
  p[1] = (unsigned char) (w >> 8);
  p[2] = (unsigned char) (w >> 16);
  p[3] = (unsigned char) (w >> 24);
}

#define ROTL32(x, n) ((uint32_t) (((x) << (n)) | ((x) >> (32 - (n)))))
#define QUARTERROUND(a, b, c, d) \
  a += b; d = ROTL32(d ^ a, 16); \
  c += d; b = ROTL32(b ^ c, 12); \
  a += b; d = ROTL32(d ^ a, 8);  \
  c += d; b = ROTL32(b ^ c, 7)

/* The 20 rounds on x, in 16 locals so the compiler keeps them in registers. */
static void chacha20_rounds(uint32_t x[16]) {
  uint32_t x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3], x4 = x[4], x5 = x[5], x6 = x[6],
           x7 = x[7], x8 = x[8], x9 = x[9], x10 = x[10], x11 = x[11], x12 = x[12], x13 = x[13],
           x14 = x[14], x15 = x[15];
  for (int i = 0; i < 10; i++) {
    QUARTERROUND(x0, x4, x8, x12);
    QUARTERROUND(x1, x5, x9, x13);
    QUARTERROUND(x2, x6, x10, x14);
    QUARTERROUND(x3, x7, x11, x15);
    QUARTERROUND(x0, x5, x10, x15);
    QUARTERROUND(x1, x6, x11, x12);
    QUARTERROUND(x2, x7, x8, x13);
    QUARTERROUND(x3, x4, x9, x14);
  }
  x[0] = x0; x[1] = x1; x[2] = x2; x[3] = x3; x[4] = x4; x[5] = x5; x[6] = x6; x[7] = x7;
  x[8] = x8; x[9] = x9; x[10] = x10; x[11] = x11; x[12] = x12; x[13] = x13; x[14] = x14;
  x[15] = x15;
}

void nat_chacha20_blocks_portable(uint32_t st[16], unsigned char *out, const unsigned char *in,
                                  size_t nblocks, int ctr64) {
  uint32_t x[16];
  for (; nblocks > 0; nblocks--, in += 64, out += 64) {
    memcpy(x, st, sizeof x);
    chacha20_rounds(x);
    for (int i = 0; i < 16; i++) store32_le(out + 4 * i, load32_le(in + 4 * i) ^ (x[i] + st[i]));
    st[12]++;
    if (ctr64 && st[12] == 0) st[13]++;
  }
  memset(x, 0, sizeof x);
  __asm__ __volatile__("" : : "r"(x) : "memory");
}

/* Runs of fewer than eight blocks (a message's last piece, its partial block) go to the short
 * kernel: where libsodium's stream code is the long kernel, each call of it costs a key
 * conversion and its own setup, which a block or two does not repay: with libsodium's stream
 * code and the AVX2 Poly1305 (what a core without AVX-512 runs), our IETF AEAD at 576 bytes / 1 KB
 * went from 0.95x / 1.00-1.08x libsodium's own AEAD to 1.00x / 1.04x (Zen 4, bench/chacha20poly1305.c
 * with that pair forced). */
void nat_chacha20_xor(uint32_t st[16], unsigned char *out, const unsigned char *in, size_t len,
                      int ctr64) {
  const size_t whole = len / 64;
  if (whole >= 8) {
    nat_chacha20_blocks(st, out, in, whole, ctr64);
  } else if (whole > 0) {
    nat_chacha20_blocks_short(st, out, in, whole, ctr64);
  }
  len -= 64 * whole;
  if (len > 0) {
    unsigned char block[64];
    memset(block, 0, sizeof block);
    memcpy(block, in + 64 * whole, len);
    nat_chacha20_blocks_short(st, block, block, 1, ctr64);
    memcpy(out + 64 * whole, block, len);
    memset(block, 0, sizeof block);
    __asm__ __volatile__("" : : "r"(block) : "memory");
  }
}

static void init_key(uint32_t st[16], const unsigned char k[32]) {
  st[0] = NAT_CHACHA20_SIGMA0;
  st[1] = NAT_CHACHA20_SIGMA1;
  st[2] = NAT_CHACHA20_SIGMA2;
  st[3] = NAT_CHACHA20_SIGMA3;
  for (int i = 0; i < 8; i++) st[4 + i] = load32_le(k + 4 * i);
  st[12] = 0;
}

void nat_chacha20_init_ietf(uint32_t st[16], const unsigned char k[32], const unsigned char n[12]) {
  init_key(st, k);
  for (int i = 0; i < 3; i++) st[13 + i] = load32_le(n + 4 * i);
}

void nat_chacha20_init_orig(uint32_t st[16], const unsigned char k[32], const unsigned char n[8]) {
  init_key(st, k);
  st[13] = 0;
  st[14] = load32_le(n);
  st[15] = load32_le(n + 4);
}

/* The rounds without the final addition; the subkey is words 0..3 and 12..15. */
void nat_hchacha20(uint32_t subkey[8], const unsigned char in[16], const unsigned char k[32]) {
  uint32_t x[16];
  init_key(x, k);
  for (int i = 0; i < 4; i++) x[12 + i] = load32_le(in + 4 * i);
  chacha20_rounds(x);
  for (int i = 0; i < 4; i++) {
    subkey[i] = x[i];
    subkey[4 + i] = x[12 + i];
  }
  memset(x, 0, sizeof x);
  __asm__ __volatile__("" : : "r"(x) : "memory");
}

/* ML-KEM-768's kernels in portable C (see mlkem768_impl.h): FIPS 203 Algorithms 9 to 12 with
 * Montgomery products and Barrett reductions on 16-bit coefficients, Algorithm 13's rejection
 * sampling on SHAKE128 and Algorithm 8's CBD on SHAKE256, one Keccak state at a time
 * (keccak.h). */
#include <sodium.h>
#include <string.h>

#include "keccak.h"
#include "mlkem768_impl.h"
#include "sha3.h"

/* zeta^BitRev7(i) R mod q (zeta = 17, FIPS 203 section 4.3), centred: Algorithm 9 takes them in
 * order from i = 1, Algorithm 10 backwards from 127. */
const int16_t nat_mlkem_zetas[128] = {
  -1044, -758,  -359,  -1517, 1493,  1422,  287,   202,   -171,  622,   1577,  182,   962,
  -1202, -1474, 1468,  573,   -1325, 264,   383,   -829,  1458,  -1602, -130,  -681,  1017,
  732,   608,   -1542, 411,   -205,  -1571, 1223,  652,   -552,  1015,  -1293, 1491,  -282,
  -1544, 516,   -8,    -320,  -666,  -1618, -1162, 126,   1469,  -853,  -90,   -271,  830,
  107,   -1421, -247,  -951,  -398,  961,   -1508, -725,  448,   -1065, 677,   -1275, -1103,
  430,   555,   843,   -1251, 871,   1550,  105,   422,   587,   177,   -235,  -291,  -460,
  1574,  1653,  -246,  778,   1159,  -147,  -777,  1483,  -602,  1119,  -1590, 644,   -872,
  349,   418,   329,   -156,  -75,   817,   1097,  603,   610,   1322,  -1285, -1465, 384,
  -1215, -136,  1218,  -1335, -874,  220,   -1187, -1659, -1185, -1530, -1278, 794,   -1510,
  -854,  -870,  478,   -108,  -308,  996,   991,   958,   -1460, 1522,  1628,
};

/* zeta^(2 BitRev7(i) + 1) R mod q, centred: the gamma of Algorithm 11 for pair i. */
const int16_t nat_mlkem_gammas[128] = {
  -1103, 1103,  430,   -430,  555,   -555,  843,   -843,  -1251, 1251,  871,   -871,  1550,
  -1550, 105,   -105,  422,   -422,  587,   -587,  177,   -177,  -235,  235,   -291,  291,
  -460,  460,   1574,  -1574, 1653,  -1653, -246,  246,   778,   -778,  1159,  -1159, -147,
  147,   -777,  777,   1483,  -1483, -602,  602,   1119,  -1119, -1590, 1590,  644,   -644,
  -872,  872,   349,   -349,  418,   -418,  329,   -329,  -156,  156,   -75,   75,    817,
  -817,  1097,  -1097, 603,   -603,  610,   -610,  1322,  -1322, -1285, 1285,  -1465, 1465,
  384,   -384,  -1215, 1215,  -136,  136,   1218,  -1218, -1335, 1335,  -874,  874,   220,
  -220,  -1187, 1187,  -1659, 1659,  -1185, 1185,  -1530, 1530,  -1278, 1278,  794,   -794,
  -1510, 1510,  -854,  854,   -870,  870,   478,   -478,  -108,  108,   -308,  308,   996,
  -996,  991,   -991,  958,   -958,  -1460, 1460,  1522,  -1522, 1628,  -1628,
};

/* 128^-1 R^2 mod q: Algorithm 10's final 3303 = 128^-1, times R for the Montgomery product and
 * once more for the R that invntt promises. */
#define INVNTT_F 1441

/* Seven layers; a butterfly adds at most q to a coefficient's bound (|zeta b R^-1| < q), so the
 * outputs stay below 8 q < 2^15 before the last Barrett reduction. */
static void ntt_portable(nat_mlkem_poly *p) {
  int16_t *c = p->c;
  size_t k = 1;

  for (size_t len = 128; len >= 2; len >>= 1) {
    for (size_t start = 0; start < NAT_MLKEM_N; start += 2 * len) {
      const int32_t zeta = nat_mlkem_zetas[k++];
      for (size_t j = start; j < start + len; j++) {
        const int16_t t = nat_mlkem_montgomery(zeta * c[j + len]);
        c[j + len] = (int16_t) (c[j] - t);
        c[j] = (int16_t) (c[j] + t);
      }
    }
  }
  for (size_t j = 0; j < NAT_MLKEM_N; j++) c[j] = nat_mlkem_barrett(c[j]);
}

/* Gentleman-Sande butterflies; the sums are Barrett-reduced at every layer (|sum| < 2q in,
 * < q/2 out), the differences come out of a Montgomery product (< q). */
static void invntt_portable(nat_mlkem_poly *p) {
  int16_t *c = p->c;
  size_t k = 127;

  for (size_t len = 2; len <= 128; len <<= 1) {
    for (size_t start = 0; start < NAT_MLKEM_N; start += 2 * len) {
      const int32_t zeta = nat_mlkem_zetas[k--];
      for (size_t j = start; j < start + len; j++) {
        const int16_t t = c[j];
        c[j] = nat_mlkem_barrett((int16_t) (t + c[j + len]));
        c[j + len] = nat_mlkem_montgomery(zeta * (int16_t) (c[j + len] - t));
      }
    }
  }
  for (size_t j = 0; j < NAT_MLKEM_N; j++) c[j] = nat_mlkem_montgomery(INVNTT_F * c[j]);
}

/* Per pair, the three products summed in 32 bits before one Montgomery reduction each:
 * |a0 b0 + gamma R^-1 a1 b1| < 2^12 q + q q, three of them < 2^27 < q 2^15. */
static void basemul_acc_portable(nat_mlkem_poly *r, const nat_mlkem_poly a[NAT_MLKEM_K],
                                 const nat_mlkem_poly b[NAT_MLKEM_K]) {
  for (size_t i = 0; i < NAT_MLKEM_N / 2; i++) {
    int32_t even = 0, odd = 0;
    for (size_t k = 0; k < NAT_MLKEM_K; k++) {
      const int32_t a0 = a[k].c[2 * i], a1 = a[k].c[2 * i + 1];
      const int32_t b0 = b[k].c[2 * i], b1 = b[k].c[2 * i + 1];
      even += a0 * b0 + (int32_t) nat_mlkem_gammas[i] * nat_mlkem_montgomery(a1 * b1);
      odd += a0 * b1 + a1 * b0;
    }
    r->c[2 * i] = nat_mlkem_montgomery(even);
    r->c[2 * i + 1] = nat_mlkem_montgomery(odd);
  }
}

size_t nat_mlkem_rej_uniform(int16_t *r, size_t ctr, size_t n, const unsigned char *buf, size_t len) {
  for (size_t pos = 0; ctr < n && pos + 3 <= len; pos += 3) {
    const uint16_t d1 = (uint16_t) ((buf[pos] | buf[pos + 1] << 8) & 0xfff);
    const uint16_t d2 = (uint16_t) (buf[pos + 1] >> 4 | buf[pos + 2] << 4);
    if (d1 < NAT_MLKEM_Q) r[ctr++] = (int16_t) d1;
    if (d2 < NAT_MLKEM_Q && ctr < n) r[ctr++] = (int16_t) d2;
  }
  return ctr;
}

#define SHAKE128_RATE 168
#define SHAKE256_RATE 136

/* SHAKE128(rho || x || y): the 34 bytes and the padding (0x1f, then 0x80 at the rate's last
 * byte) fill one block; each squeezed block is the first 168 bytes of the state. */
void nat_mlkem_sample_ntt(nat_mlkem_poly *p, const unsigned char rho[32], unsigned char x,
                          unsigned char y) {
  unsigned char st[200] = {0};
  size_t ctr = 0;

  memcpy(st, rho, 32);
  st[32] = x;
  st[33] = y;
  st[34] = 0x1f;
  st[SHAKE128_RATE - 1] = 0x80;
  while (ctr < NAT_MLKEM_N) {
    nat_keccak_permute(st, 24);
    ctr = nat_mlkem_rej_uniform(p->c, ctr, NAT_MLKEM_N, st, SHAKE128_RATE);
  }
}

static void matrix_portable(nat_mlkem_poly a[NAT_MLKEM_K][NAT_MLKEM_K], const unsigned char rho[32],
                            int transposed) {
  for (unsigned char i = 0; i < NAT_MLKEM_K; i++) {
    for (unsigned char j = 0; j < NAT_MLKEM_K; j++) {
      if (transposed) nat_mlkem_sample_ntt(&a[i][j], rho, i, j);
      else nat_mlkem_sample_ntt(&a[i][j], rho, j, i);
    }
  }
}

static void matrix_hash_portable(nat_mlkem_poly a[NAT_MLKEM_K][NAT_MLKEM_K],
                                 const unsigned char rho[32], int transposed, unsigned char out[32],
                                 const unsigned char *in, size_t inlen, unsigned char domain) {
  matrix_portable(a, rho, transposed);
  if (domain == 0x06) nat_sha3256(out, in, inlen);
  else nat_shake256(out, 32, in, inlen);
}

/* Two bits of each 4-bit group summed minus the other two (Algorithm 8, eta = 2): adding the
 * word's even and odd bits gives the four 2-bit sums of each byte at once. */
void nat_mlkem_cbd2(nat_mlkem_poly *p, const unsigned char buf[128]) {
  for (size_t i = 0; i < NAT_MLKEM_N / 8; i++) {
    const uint32_t t = (uint32_t) buf[4 * i] | (uint32_t) buf[4 * i + 1] << 8 |
                       (uint32_t) buf[4 * i + 2] << 16 | (uint32_t) buf[4 * i + 3] << 24;
    const uint32_t s = (t & 0x55555555u) + (t >> 1 & 0x55555555u);
    for (size_t j = 0; j < 8; j++) {
      p->c[8 * i + j] = (int16_t) ((int16_t) (s >> (4 * j) & 3) - (int16_t) (s >> (4 * j + 2) & 3));
    }
  }
}

/* PRF_2(sigma, N) = SHAKE256(sigma || N, 128): 33 bytes and the padding in one block, 128
 * bytes out of one permutation. */
void nat_mlkem_noise1(nat_mlkem_poly *p, const unsigned char sigma[32], unsigned char nonce) {
  unsigned char st[200] = {0};

  memcpy(st, sigma, 32);
  st[32] = nonce;
  st[33] = 0x1f;
  st[SHAKE256_RATE - 1] = 0x80;
  nat_keccak_permute(st, 24);
  nat_mlkem_cbd2(p, st);
  sodium_memzero(st, sizeof st);
}

static void noise_portable(nat_mlkem_poly *p, size_t n, const unsigned char sigma[32]) {
  for (size_t k = 0; k < n; k++) nat_mlkem_noise1(&p[k], sigma, (unsigned char) k);
}

/* Two coefficients in three bytes, low first. */
static void encode12_portable(unsigned char r[384], const nat_mlkem_poly *p) {
  for (size_t i = 0; i < NAT_MLKEM_N / 2; i++) {
    const uint16_t a = nat_mlkem_canonical(p->c[2 * i]), b = nat_mlkem_canonical(p->c[2 * i + 1]);
    r[3 * i] = (unsigned char) a;
    r[3 * i + 1] = (unsigned char) (a >> 8 | b << 4);
    r[3 * i + 2] = (unsigned char) (b >> 4);
  }
}

static void decode12_portable(nat_mlkem_poly *p, const unsigned char a[384]) {
  for (size_t i = 0; i < NAT_MLKEM_N / 2; i++) {
    p->c[2 * i] = (int16_t) ((a[3 * i] | a[3 * i + 1] << 8) & 0xfff);
    p->c[2 * i + 1] = (int16_t) (a[3 * i + 1] >> 4 | a[3 * i + 2] << 4);
  }
}

/* Four coefficients in five bytes. */
static void compress10_portable(unsigned char r[320], const nat_mlkem_poly *p) {
  for (size_t i = 0; i < NAT_MLKEM_N / 4; i++) {
    uint32_t t[4];
    for (size_t j = 0; j < 4; j++) t[j] = nat_mlkem_compress(nat_mlkem_canonical(p->c[4 * i + j]), 10);
    r[5 * i] = (unsigned char) t[0];
    r[5 * i + 1] = (unsigned char) (t[0] >> 8 | t[1] << 2);
    r[5 * i + 2] = (unsigned char) (t[1] >> 6 | t[2] << 4);
    r[5 * i + 3] = (unsigned char) (t[2] >> 4 | t[3] << 6);
    r[5 * i + 4] = (unsigned char) (t[3] >> 2);
  }
}

static void decompress10_portable(nat_mlkem_poly *p, const unsigned char a[320]) {
  for (size_t i = 0; i < NAT_MLKEM_N / 4; i++) {
    const unsigned char *b = a + 5 * i;
    p->c[4 * i] = nat_mlkem_decompress((b[0] | (uint32_t) b[1] << 8) & 0x3ff, 10);
    p->c[4 * i + 1] = nat_mlkem_decompress((b[1] >> 2 | (uint32_t) b[2] << 6) & 0x3ff, 10);
    p->c[4 * i + 2] = nat_mlkem_decompress((b[2] >> 4 | (uint32_t) b[3] << 4) & 0x3ff, 10);
    p->c[4 * i + 3] = nat_mlkem_decompress((b[3] >> 6 | (uint32_t) b[4] << 2) & 0x3ff, 10);
  }
}

/* Two coefficients a byte, low first. */
void nat_mlkem_compress4(unsigned char r[128], const nat_mlkem_poly *p) {
  for (size_t i = 0; i < NAT_MLKEM_N / 2; i++) {
    r[i] = (unsigned char) (nat_mlkem_compress(nat_mlkem_canonical(p->c[2 * i]), 4) |
                            nat_mlkem_compress(nat_mlkem_canonical(p->c[2 * i + 1]), 4) << 4);
  }
}

void nat_mlkem_decompress4(nat_mlkem_poly *p, const unsigned char a[128]) {
  for (size_t i = 0; i < NAT_MLKEM_N / 2; i++) {
    p->c[2 * i] = nat_mlkem_decompress(a[i] & 15u, 4);
    p->c[2 * i + 1] = nat_mlkem_decompress(a[i] >> 4, 4);
  }
}

/* Each bit times 1665, by a mask. */
void nat_mlkem_from_message(nat_mlkem_poly *p, const unsigned char m[32]) {
  for (size_t i = 0; i < NAT_MLKEM_N; i++) {
    const int16_t bit = (int16_t) (m[i / 8] >> (i % 8) & 1);
    p->c[i] = (int16_t) (-bit & ((NAT_MLKEM_Q + 1) / 2));
  }
}

void nat_mlkem_to_message(unsigned char m[32], const nat_mlkem_poly *p) {
  for (size_t i = 0; i < 32; i++) {
    unsigned byte = 0;
    for (size_t j = 0; j < 8; j++) byte |= nat_mlkem_compress(nat_mlkem_canonical(p->c[8 * i + j]), 1) << j;
    m[i] = (unsigned char) byte;
  }
}

const nat_mlkem768_kernels nat_mlkem768_portable = {
  "portable", ntt_portable, invntt_portable, basemul_acc_portable, matrix_portable,
  matrix_hash_portable, noise_portable,
  encode12_portable, decode12_portable, compress10_portable, decompress10_portable,
  nat_mlkem_compress4, nat_mlkem_decompress4, nat_mlkem_from_message, nat_mlkem_to_message,
};

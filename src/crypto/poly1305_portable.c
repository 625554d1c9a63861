/* Poly1305 in portable C (see poly1305_impl.h): 64-bit words with 128-bit products where the
 * compiler has them, five 26-bit limbs everywhere (wasm32, 32-bit CPUs, MSVC). Both read and
 * write the one state layout of nat_poly1305_core; the 26-bit code converts at entry and exit. */
#include "poly1305_impl.h"

#define M26 NAT_POLY1305_M26

void nat_poly1305_blocks_portable26(nat_poly1305_core *c, const unsigned char *m, size_t blocks,
                                    unsigned hibit) {
  uint32_t r[5], l[5];
  nat_poly1305_r26(r, c);
  nat_poly1305_split26(l, c->h);
  /* clamping leaves r1..r4 below 2^26, so 5 r_i below 2^29 */
  const uint32_t r0 = r[0], r1 = r[1], r2 = r[2], r3 = r[3], r4 = r[4];
  const uint32_t s1 = r1 * 5, s2 = r2 * 5, s3 = r3 * 5, s4 = r4 * 5;
  const uint32_t top = hibit ? 1u << 24 : 0;
  uint32_t h0 = l[0], h1 = l[1], h2 = l[2], h3 = l[3], h4 = l[4];
  for (; blocks > 0; blocks--, m += 16) {
    const uint64_t m0 = nat_poly1305_load64(m), m1 = nat_poly1305_load64(m + 8);
    h0 += (uint32_t) m0 & M26;
    h1 += (uint32_t) (m0 >> 26) & M26;
    h2 += (uint32_t) (m0 >> 52 | m1 << 12) & M26;
    h3 += (uint32_t) (m1 >> 14) & M26;
    h4 += (uint32_t) (m1 >> 40) | top;
    /* limbs below 2^27 times r (and 5 r for the products at 2^130 and above) */
    const uint64_t d0 = (uint64_t) h0 * r0 + (uint64_t) h1 * s4 + (uint64_t) h2 * s3 +
                        (uint64_t) h3 * s2 + (uint64_t) h4 * s1;
    uint64_t d1 = (uint64_t) h0 * r1 + (uint64_t) h1 * r0 + (uint64_t) h2 * s4 +
                  (uint64_t) h3 * s3 + (uint64_t) h4 * s2;
    uint64_t d2 = (uint64_t) h0 * r2 + (uint64_t) h1 * r1 + (uint64_t) h2 * r0 +
                  (uint64_t) h3 * s4 + (uint64_t) h4 * s3;
    uint64_t d3 = (uint64_t) h0 * r3 + (uint64_t) h1 * r2 + (uint64_t) h2 * r1 +
                  (uint64_t) h3 * r0 + (uint64_t) h4 * s4;
    uint64_t d4 = (uint64_t) h0 * r4 + (uint64_t) h1 * r3 + (uint64_t) h2 * r2 +
                  (uint64_t) h3 * r1 + (uint64_t) h4 * r0;
    d1 += d0 >> 26;
    d2 += d1 >> 26;
    d3 += d2 >> 26;
    d4 += d3 >> 26;
    const uint64_t g0 = (d0 & M26) + (d4 >> 26) * 5;
    h0 = (uint32_t) g0 & M26;
    h1 = ((uint32_t) d1 & M26) + (uint32_t) (g0 >> 26);
    h2 = (uint32_t) d2 & M26;
    h3 = (uint32_t) d3 & M26;
    h4 = (uint32_t) d4 & M26;
  }
  uint64_t out[5] = {h0, h1, h2, h3, h4};
  nat_poly1305_pack26(c->h, out);
}

void nat_poly1305_finish_portable(const nat_poly1305_core *c, unsigned char tag[16]) {
  const uint32_t w[5] = {(uint32_t) c->h[0], (uint32_t) (c->h[0] >> 32), (uint32_t) c->h[1],
                         (uint32_t) (c->h[1] >> 32), (uint32_t) c->h[2]};
  /* h < 2^128 5 < 2p: h - p = h + 5 - 2^130 if that is not negative */
  uint32_t g[4];
  uint64_t t = (uint64_t) w[0] + 5;
  g[0] = (uint32_t) t;
  for (int i = 1; i < 4; i++) {
    t = (t >> 32) + w[i];
    g[i] = (uint32_t) t;
  }
  const uint32_t g4 = (uint32_t) (t >> 32) + w[4];
  const uint32_t use_g = 0u - ((g4 >> 2) & 1);
  const uint32_t pad[4] = {(uint32_t) c->pad[0], (uint32_t) (c->pad[0] >> 32), (uint32_t) c->pad[1],
                           (uint32_t) (c->pad[1] >> 32)};
  t = 0;
  for (int i = 0; i < 4; i++) {
    t = (t >> 32) + ((w[i] & ~use_g) | (g[i] & use_g)) + pad[i];
    tag[4 * i] = (unsigned char) t;
    tag[4 * i + 1] = (unsigned char) (t >> 8);
    tag[4 * i + 2] = (unsigned char) (t >> 16);
    tag[4 * i + 3] = (unsigned char) (t >> 24);
  }
}

#ifdef NAT_POLY1305_64
typedef unsigned __int128 u128;

/* r = r0 + r1 2^64; clamping clears r1's low two bits, so r1 2^128 = (r1 / 4) 2^130 = 5 (r1 / 4)
 * (mod p) = s1 with s1 = r1 + r1 / 4. */
void nat_poly1305_blocks_portable64(nat_poly1305_core *c, const unsigned char *m, size_t blocks,
                                    unsigned hibit) {
  const uint64_t r0 = c->r[0], r1 = c->r[1], s1 = r1 + (r1 >> 2);
  uint64_t h0 = c->h[0], h1 = c->h[1], h2 = c->h[2];
  for (; blocks > 0; blocks--, m += 16) {
    const uint64_t m0 = nat_poly1305_load64(m), m1 = nat_poly1305_load64(m + 8);
    /* h += m + hibit 2^128, the carries spelled out in 64 bits (GCC makes stack round trips of
     * (u128) x + y) */
    h0 += m0;
    uint64_t k = h0 < m0;
    h1 += k;
    k = h1 < k;
    h1 += m1;
    k += h1 < m1;
    h2 += k + hibit;
    /* h r, the terms at 2^128 and above folded back down by s1 */
    const u128 d0 = (u128) h0 * r0 + (u128) h1 * s1;
    const u128 d1 = (u128) h0 * r1 + (u128) h1 * r0 + (u128) h2 * s1 + (uint64_t) (d0 >> 64);
    const uint64_t d2 = h2 * r0 + (uint64_t) (d1 >> 64);
    /* keep 130 bits; what lies above 2^130 comes back times 5 */
    k = (d2 >> 2) + (d2 & ~(uint64_t) 3);
    h0 = (uint64_t) d0 + k;
    k = h0 < k;
    h1 = (uint64_t) d1 + k;
    h2 = (d2 & 3) + (h1 < k);
  }
  c->h[0] = h0;
  c->h[1] = h1;
  c->h[2] = h2;
}
#endif

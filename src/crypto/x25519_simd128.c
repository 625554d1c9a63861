/* X25519's ladder on the two-lane SIMD128 field (fe25519_x2.h): the wasm build's
 * crypto_scalarmult_curve25519 (x25519_dispatch.c picks it there). The step's four squarings
 * and five multiplications (libsodium's 121666 E included) go as two paired squarings and
 * three paired multiplications; the state is (x2, x3) and (z2, z3), so that the conditional
 * swap exchanges the lanes of each, and the sums and differences of a step are one vector
 * operation for both points. */
#include <stdint.h>

#include "ed25519.h"
#include "fe25519_x2.h"
#include "x25519_impl.h"

#ifdef NAT_X25519_SIMD128
/* RFC 7748 section 5 (names as there: A = x2 + z2, AA = A^2, ..., DA = D A); z2 = E (BB +
 * 121666 E), libsodium's form of E (AA + a24 E). */
static void nat_x25519_simd128_ladder(unsigned char q[32], const unsigned char k[32],
                                      const unsigned char u[32]) {
  static const uint32_t zero[10] = { 0 }, one[10] = { 1 }, c121666[10] = { 121666 };
  uint32_t x1[10], x2[10], z2[10], unused[10];
  nat_fe2 x, z, ac, bd, ab, dc, s, ss, e, m, ms, t, t2, l, r, w, ws, k121666, kx1;
  uint32_t swap = 0;

  nat_curve25519_simd128_calls++;
  nat_fe25_frombytes(x1, u);
  nat_fe2_pack(&x, one, x1);  /* (x2, x3) */
  nat_fe2_pack(&z, zero, one); /* (z2, z3) */
  nat_fe2_pack(&k121666, zero, c121666);
  nat_fe2_pack(&kx1, zero, x1);
  for (int pos = 254; pos >= 0; pos--) {
    const uint32_t bit = (k[pos >> 3] >> (pos & 7)) & 1;
    swap ^= bit;
    const nat_x2v mask = nat_x2v_splat32(0 - swap);
    nat_fe2_swap(&t, &x);
    nat_fe2_cswap(&x, &t, mask);
    nat_fe2_swap(&t, &z);
    nat_fe2_cswap(&z, &t, mask);
    swap = bit;
    nat_fe2_add(&ac, &x, &z); /* (A, C) */
    nat_fe2_sub(&bd, &x, &z); /* (B, D) */
    nat_fe2_aa(&ab, &ac, &bd);
    nat_fe2_bb(&dc, &bd, &ac);
    nat_fe2_sq(&s, &ab);       /* (AA, BB) */
    nat_fe2_mul(&m, &dc, &ab); /* (DA, CB) */
    nat_fe2_swap(&ss, &s);     /* (BB, AA) */
    nat_fe2_sub(&e, &s, &ss);  /* E in lane A */
    nat_fe2_swap(&ms, &m);
    nat_fe2_add(&t, &m, &ms);
    nat_fe2_sub(&m, &ms, &m);
    nat_fe2_ab(&t, &t, &m);    /* (DA + CB, DA - CB) */
    nat_fe2_aa(&l, &s, &e);    /* (AA, E) */
    nat_fe2_ab(&r, &ss, &k121666); /* (BB, 121666) */
    nat_fe2_sq(&t2, &t);       /* (x3', (DA - CB)^2) */
    nat_fe2_mul(&w, &l, &r);   /* (x2' = AA BB, 121666 E) */
    nat_fe2_swap(&ws, &w);
    nat_fe2_add(&ws, &ss, &ws); /* BB + 121666 E in lane A */
    nat_fe2_ab(&l, &e, &t2);    /* (E, (DA - CB)^2) */
    nat_fe2_ab(&r, &ws, &kx1);  /* (BB + 121666 E, x1) */
    nat_fe2_mul(&z, &l, &r);    /* (z2', z3') */
    nat_fe2_aa(&x, &w, &t2);    /* (x2', x3') */
  }
  const nat_x2v mask = nat_x2v_splat32(0 - swap);
  nat_fe2_swap(&t, &x);
  nat_fe2_cswap(&x, &t, mask);
  nat_fe2_swap(&t, &z);
  nat_fe2_cswap(&z, &t, mask);
  nat_fe2_unpack(x2, unused, &x);
  nat_fe2_unpack(z2, unused, &z);
  nat_fe25_invert(z2, z2);
  nat_fe2_pack(&x, x2, zero);
  nat_fe2_pack(&z, z2, zero);
  nat_fe2_mul(&x, &x, &z);
  nat_fe2_unpack(x2, unused, &x);
  nat_fe25_tobytes(q, x2);
}

const nat_x25519_kernels nat_x25519_simd128 = { "simd128", nat_x25519_simd128_ladder };
#endif

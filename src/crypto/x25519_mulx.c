/* X25519's ladder on the radix-2^64 MULX/ADX field (fe25519_64.h), x86-64 with GCC or clang;
 * x25519_dispatch.c runs it only where CPUID reports BMI2 and ADX. The steps are those of
 * x25519_portable.c, with the sums and differences of a pair fused (nat_fe64_addsub) and the
 * E chain (E, 121666 E + BB, its product) started before the cross products, so the
 * out-of-order core has the longest dependency chain in flight first (about 2 % on Zen 4,
 * measured before the field's other changes). */
#include <stdint.h>

#include "x25519_impl.h"

#ifdef NAT_X25519_MULX
#include "fe25519_64.h"

/* RFC 7748 section 5: (x2 : z2) = k' u and (x3 : z3) = (k' + 1) u for the top bits k' seen so
 * far; the swap of the step is the xor of this bit and the last one, so the points are swapped
 * into place only when the bit changes. z2 = E (BB + 121666 E), libsodium's form of
 * E (AA + a24 E). */
static void nat_x25519_mulx_ladder(unsigned char q[32], const unsigned char k[32],
                                   const unsigned char u[32]) {
  nat_fe64 x1, x2, z2, x3, z3, a, b, aa, bb, e, c, d, da, cb;
  uint64_t swap = 0;

  nat_fe64_frombytes(&x1, u);
  nat_fe64_1(&x2);
  nat_fe64_0(&z2);
  x3 = x1;
  nat_fe64_1(&z3);
  for (int pos = 254; pos >= 0; pos--) {
    const uint64_t bit = (k[pos >> 3] >> (pos & 7)) & 1;
    swap ^= bit;
    nat_fe64_cswap(&x2, &x3, swap);
    nat_fe64_cswap(&z2, &z3, swap);
    swap = bit;
    nat_fe64_addsub(&a, &b, &x2, &z2);
    nat_fe64_addsub(&c, &d, &x3, &z3);
    nat_fe64_sq(&aa, &a);
    nat_fe64_sq(&bb, &b);
    nat_fe64_sub(&e, &aa, &bb);
    nat_fe64_mul121666(&z2, &e);
    nat_fe64_mul(&da, &d, &a);
    nat_fe64_mul(&cb, &c, &b);
    nat_fe64_add(&z2, &z2, &bb);
    nat_fe64_addsub(&x3, &z3, &da, &cb);
    nat_fe64_mul(&z2, &z2, &e);
    nat_fe64_sq(&x3, &x3);
    nat_fe64_sq(&z3, &z3);
    nat_fe64_mul(&x2, &aa, &bb);
    nat_fe64_mul(&z3, &z3, &x1);
  }
  nat_fe64_cswap(&x2, &x3, swap);
  nat_fe64_cswap(&z2, &z3, swap);
  nat_fe64_invert_safegcd(&z2, &z2);
  nat_fe64_mul(&x2, &x2, &z2);
  nat_fe64_tobytes(q, &x2);
}

const nat_x25519_kernels nat_x25519_mulx = { "mulx", nat_x25519_mulx_ladder };
#endif

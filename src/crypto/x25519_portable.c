/* X25519's ladder on the portable radix-2^51 field (fe25519_51.h): every 64-bit target, and
 * wasm32 (where clang builds the 128-bit products from 64-bit ones). */
#include <stdint.h>

#include "fe25519_51.h"
#include "x25519_impl.h"

/* RFC 7748 section 5: (x2 : z2) = k' u and (x3 : z3) = (k' + 1) u for the top bits k' seen so
 * far; the swap of the step is the xor of this bit and the last one, so the points are swapped
 * into place only when the bit changes. z2 = E (BB + 121666 E), libsodium's form of
 * E (AA + a24 E). */
static void nat_x25519_portable_ladder(unsigned char q[32], const unsigned char k[32],
                                       const unsigned char u[32]) {
  nat_fe51 x1, x2, z2, x3, z3, a, b, aa, bb, e, c, d, da, cb;
  uint64_t swap = 0;

  nat_fe51_frombytes(&x1, u);
  nat_fe51_1(&x2);
  nat_fe51_0(&z2);
  x3 = x1;
  nat_fe51_1(&z3);
  for (int pos = 254; pos >= 0; pos--) {
    const uint64_t bit = (k[pos >> 3] >> (pos & 7)) & 1;
    swap ^= bit;
    nat_fe51_cswap(&x2, &x3, swap);
    nat_fe51_cswap(&z2, &z3, swap);
    swap = bit;
    nat_fe51_add(&a, &x2, &z2);
    nat_fe51_sub(&b, &x2, &z2);
    nat_fe51_add(&c, &x3, &z3);
    nat_fe51_sub(&d, &x3, &z3);
    nat_fe51_sq(&aa, &a);
    nat_fe51_sq(&bb, &b);
    nat_fe51_mul(&da, &d, &a);
    nat_fe51_mul(&cb, &c, &b);
    nat_fe51_sub(&e, &aa, &bb);
    nat_fe51_add(&x3, &da, &cb);
    nat_fe51_sub(&z3, &da, &cb);
    nat_fe51_sq(&x3, &x3);
    nat_fe51_sq(&z3, &z3);
    nat_fe51_mul(&z3, &z3, &x1);
    nat_fe51_mul(&x2, &aa, &bb);
    nat_fe51_mul121666(&z2, &e);
    nat_fe51_add(&z2, &z2, &bb);
    nat_fe51_mul(&z2, &z2, &e);
  }
  nat_fe51_cswap(&x2, &x3, swap);
  nat_fe51_cswap(&z2, &z3, swap);
  nat_fe51_invert(&z2, &z2);
  nat_fe51_mul(&x2, &x2, &z2);
  nat_fe51_tobytes(q, &x2);
}

const nat_x25519_kernels nat_x25519_portable = { "portable", nat_x25519_portable_ladder };

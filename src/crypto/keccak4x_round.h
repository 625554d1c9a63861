/* The four-way Keccak-f[1600] round and permutation that keccak4x_avx2.c and keccak4x_avx512vl.c
 * share (see keccak4x.h), and keccak2x_simd128.c's two-way one: vector register i holds lane i of
 * the states, one per 64-bit element, so a round is the scalar round (keccak_portable.c's
 * plane-by-plane theta, rho, pi, chi, iota) on all the states at once and needs no shuffles
 * between lanes. The including file defines its types and instructions first:
 *   KECCAK4X_VEC           the vector type (__m256i: four states; v128_t: two)
 *   KECCAK4X_STATES        how many states it holds (4, 2): s has 25 KECCAK4X_STATES elements
 *   KECCAK4X_SPLAT(rc)     the 64-bit rc in every element
 *   KECCAK4X_LD(i), KECCAK4X_ST(i, v)   load and store lane i of the states from and to s
 *   XOR(a, b)              a ^ b
 *   XOR5(a, b, c, d, e)    a ^ b ^ c ^ d ^ e (theta's column parity)
 *   CHI1(a, b, c)          a ^ (~b & c)
 *   ROT(x, n)              x rotated left by the constant n (0 included)
 * and then NAT_KECCAK4X_PERMUTE(name, attributes) defines void name(uint64_t s[25 * KECCAK4X_STATES]),
 * two rounds a loop step, or NAT_KECCAK4X_PERMUTE_STEP1 the same with one round a step (the
 * state copied back after it): for V8, whose register allocator spills less in the shorter loop
 * body (two-way SIMD128 on Zen 5: 0.81x the time, and half the code). */
#ifndef NAT_CRYPTO_KECCAK4X_ROUND_H
#define NAT_CRYPTO_KECCAK4X_ROUND_H

#define KECCAK4X_CHI(E, y, b0, b1, b2, b3, b4) \
  E##y##0 = CHI1(b0, b1, b2);                  \
  E##y##1 = CHI1(b1, b2, b3);                  \
  E##y##2 = CHI1(b2, b3, b4);                  \
  E##y##3 = CHI1(b3, b4, b0);                  \
  E##y##4 = CHI1(b4, b0, b1)

/* Output plane y: at column x, input lane (x + 3y mod 5, x) rotated by its rho offset n
 * (FIPS 202 table 2). */
#define KECCAK4X_PLANE(E, y, s0, d0, n0, s1, d1, n1, s2, d2, n2, s3, d3, n3, s4, d4, n4) \
  do {                                                                               \
    const KECCAK4X_VEC b0_ = ROT(XOR(s0, d0), n0), b1_ = ROT(XOR(s1, d1), n1);       \
    const KECCAK4X_VEC b2_ = ROT(XOR(s2, d2), n2), b3_ = ROT(XOR(s3, d3), n3);       \
    const KECCAK4X_VEC b4_ = ROT(XOR(s4, d4), n4);                                   \
    KECCAK4X_CHI(E, y, b0_, b1_, b2_, b3_, b4_);                                     \
  } while (0)

#define KECCAK4X_ROUND(A, E, rc)                                                           \
  do {                                                                                     \
    const KECCAK4X_VEC c0 = XOR5(A##00, A##10, A##20, A##30, A##40);                            \
    const KECCAK4X_VEC c1 = XOR5(A##01, A##11, A##21, A##31, A##41);                            \
    const KECCAK4X_VEC c2 = XOR5(A##02, A##12, A##22, A##32, A##42);                            \
    const KECCAK4X_VEC c3 = XOR5(A##03, A##13, A##23, A##33, A##43);                            \
    const KECCAK4X_VEC c4 = XOR5(A##04, A##14, A##24, A##34, A##44);                            \
    const KECCAK4X_VEC d0 = XOR(c4, ROT(c1, 1)), d1 = XOR(c0, ROT(c2, 1));                      \
    const KECCAK4X_VEC d2 = XOR(c1, ROT(c3, 1)), d3 = XOR(c2, ROT(c4, 1));                      \
    const KECCAK4X_VEC d4 = XOR(c3, ROT(c0, 1));                                                \
    KECCAK4X_PLANE(E, 0, A##00, d0, 0, A##11, d1, 44, A##22, d2, 43, A##33, d3, 21, A##44, d4, \
                   14);                                                                    \
    E##00 = XOR(E##00, KECCAK4X_SPLAT(rc));                                                \
    KECCAK4X_PLANE(E, 1, A##03, d3, 28, A##14, d4, 20, A##20, d0, 3, A##31, d1, 45, A##42, d2, \
                   61);                                                                    \
    KECCAK4X_PLANE(E, 2, A##01, d1, 1, A##12, d2, 6, A##23, d3, 25, A##34, d4, 8, A##40, d0,   \
                   18);                                                                    \
    KECCAK4X_PLANE(E, 3, A##04, d4, 27, A##10, d0, 36, A##21, d1, 10, A##32, d2, 15, A##43, d3, \
                   56);                                                                    \
    KECCAK4X_PLANE(E, 4, A##02, d2, 62, A##13, d3, 55, A##24, d4, 39, A##30, d0, 41, A##41, d1, \
                   2);                                                                     \
  } while (0)

#define KECCAK4X_LANES(P)                                                                 \
  P##00, P##01, P##02, P##03, P##04, P##10, P##11, P##12, P##13, P##14, P##20, P##21,     \
    P##22, P##23, P##24, P##30, P##31, P##32, P##33, P##34, P##40, P##41, P##42, P##43,   \
    P##44

/* The 24 rounds on the lanes a<y><x>: two a loop step, the second writing back into the first's
 * variables, or one a step and a copy. */
#define KECCAK4X_ROUNDS_BY2                                                                      \
  for (unsigned int r = 0; r < 24; r += 2) {                                                     \
    KECCAK4X_ROUND(a, e, nat_keccak_round_constants[r]);                                         \
    KECCAK4X_ROUND(e, a, nat_keccak_round_constants[r + 1]);                                     \
  }

#define KECCAK4X_ROUNDS_BY1                                                                      \
  for (unsigned int r = 0; r < 24; r++) {                                                        \
    KECCAK4X_ROUND(a, e, nat_keccak_round_constants[r]);                                         \
    a00 = e00; a01 = e01; a02 = e02; a03 = e03; a04 = e04; a10 = e10; a11 = e11; a12 = e12;      \
    a13 = e13; a14 = e14; a20 = e20; a21 = e21; a22 = e22; a23 = e23; a24 = e24; a30 = e30;      \
    a31 = e31; a32 = e32; a33 = e33; a34 = e34; a40 = e40; a41 = e41; a42 = e42; a43 = e43;      \
    a44 = e44;                                                                                   \
  }

#define KECCAK4X_PERMUTE_WITH(name, attributes, ROUNDS)                                        \
  attributes void name(uint64_t s[25 * KECCAK4X_STATES]) {                                       \
    KECCAK4X_VEC KECCAK4X_LANES(a), KECCAK4X_LANES(e);                                           \
    a00 = KECCAK4X_LD(0); a01 = KECCAK4X_LD(1); a02 = KECCAK4X_LD(2); a03 = KECCAK4X_LD(3);      \
    a04 = KECCAK4X_LD(4); a10 = KECCAK4X_LD(5); a11 = KECCAK4X_LD(6); a12 = KECCAK4X_LD(7);      \
    a13 = KECCAK4X_LD(8); a14 = KECCAK4X_LD(9); a20 = KECCAK4X_LD(10); a21 = KECCAK4X_LD(11);    \
    a22 = KECCAK4X_LD(12); a23 = KECCAK4X_LD(13); a24 = KECCAK4X_LD(14); a30 = KECCAK4X_LD(15);  \
    a31 = KECCAK4X_LD(16); a32 = KECCAK4X_LD(17); a33 = KECCAK4X_LD(18); a34 = KECCAK4X_LD(19);  \
    a40 = KECCAK4X_LD(20); a41 = KECCAK4X_LD(21); a42 = KECCAK4X_LD(22); a43 = KECCAK4X_LD(23);  \
    a44 = KECCAK4X_LD(24);                                                                       \
    ROUNDS;                                                                                      \
    KECCAK4X_ST(0, a00); KECCAK4X_ST(1, a01); KECCAK4X_ST(2, a02); KECCAK4X_ST(3, a03);          \
    KECCAK4X_ST(4, a04); KECCAK4X_ST(5, a10); KECCAK4X_ST(6, a11); KECCAK4X_ST(7, a12);          \
    KECCAK4X_ST(8, a13); KECCAK4X_ST(9, a14); KECCAK4X_ST(10, a20); KECCAK4X_ST(11, a21);        \
    KECCAK4X_ST(12, a22); KECCAK4X_ST(13, a23); KECCAK4X_ST(14, a24); KECCAK4X_ST(15, a30);      \
    KECCAK4X_ST(16, a31); KECCAK4X_ST(17, a32); KECCAK4X_ST(18, a33); KECCAK4X_ST(19, a34);      \
    KECCAK4X_ST(20, a40); KECCAK4X_ST(21, a41); KECCAK4X_ST(22, a42); KECCAK4X_ST(23, a43);      \
    KECCAK4X_ST(24, a44);                                                                        \
  }

#define NAT_KECCAK4X_PERMUTE(name, attributes) KECCAK4X_PERMUTE_WITH(name, attributes, KECCAK4X_ROUNDS_BY2)
#define NAT_KECCAK4X_PERMUTE_STEP1(name, attributes) \
  KECCAK4X_PERMUTE_WITH(name, attributes, KECCAK4X_ROUNDS_BY1)

#endif

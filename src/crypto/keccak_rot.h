/* ROT(x, n), x rotated left by one of the rho offsets FIPS 202 table 2 uses, for a Keccak
 * round on vectors without a rotate instruction (keccak4x_avx2.c, keccak2x_simd128.c; see
 * keccak4x_round.h): the including file defines ROL(x, n) (two shifts and an or) and ROL8(x),
 * ROL56(x) (a byte shuffle); 0 is nothing. */
#ifndef NAT_CRYPTO_KECCAK_ROT_H
#define NAT_CRYPTO_KECCAK_ROT_H

#define ROT(x, n) R_##n(x)
#define R_0(x) (x)
#define R_1(x) ROL(x, 1)
#define R_2(x) ROL(x, 2)
#define R_3(x) ROL(x, 3)
#define R_6(x) ROL(x, 6)
#define R_8(x) ROL8(x)
#define R_10(x) ROL(x, 10)
#define R_14(x) ROL(x, 14)
#define R_15(x) ROL(x, 15)
#define R_18(x) ROL(x, 18)
#define R_20(x) ROL(x, 20)
#define R_21(x) ROL(x, 21)
#define R_25(x) ROL(x, 25)
#define R_27(x) ROL(x, 27)
#define R_28(x) ROL(x, 28)
#define R_36(x) ROL(x, 36)
#define R_39(x) ROL(x, 39)
#define R_41(x) ROL(x, 41)
#define R_43(x) ROL(x, 43)
#define R_44(x) ROL(x, 44)
#define R_45(x) ROL(x, 45)
#define R_55(x) ROL(x, 55)
#define R_56(x) ROL56(x)
#define R_61(x) ROL(x, 61)
#define R_62(x) ROL(x, 62)

#endif

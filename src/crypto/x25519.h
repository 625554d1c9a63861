/* X25519 (RFC 7748) in our own C, with the behaviour of libsodium 1.0.22's
 * crypto_scalarmult_curve25519 and crypto_scalarmult_curve25519_base, byte for byte:
 *   - the scalar is clamped (bits 0-2 and 255 cleared, bit 254 set), u's bit 255 is ignored and a
 *     u in [p, 2^255) is used as it is;
 *   - nat_x25519_scalarmult refuses (-1, q untouched) the seven encodings libsodium's ref10 lists as
 *     small-order (0, 1, the two points of order 8, p - 1, p, p + 1, with or without bit 255), and
 *     returns -1 when the result is all zeros (q written then), as libsodium does;
 *   - nat_x25519_scalarmult_base computes k * 9 on the same ladder (libsodium: an Edwards
 *     fixed-base table, the same u) and always returns 0.
 * The ladder behind them (portable radix 2^51, or radix 2^64 with MULX/ADX) is chosen at load
 * (x25519_dispatch.c). In the addon on Linux the linker's --wrap sends libsodium's
 * crypto_scalarmult_curve25519, and so crypto_scalarmult, crypto_box_beforenm and crypto_kx_*,
 * to __wrap_crypto_scalarmult_curve25519 (x25519_wrap.c), which runs ours or libsodium's as
 * x25519_dispatch.c chose (by default libsodium's where its AVX ladder is faster; NATRIUM_X25519=
 * libsodium|portable|mulx forces one). */
#ifndef NAT_CRYPTO_X25519_H
#define NAT_CRYPTO_X25519_H

int nat_x25519_scalarmult(unsigned char *q, const unsigned char *n, const unsigned char *p);
int nat_x25519_scalarmult_base(unsigned char *q, const unsigned char *n);

/* "portable", "mulx" or "libsodium": what __wrap_crypto_scalarmult_curve25519 runs. */
const char *nat_x25519_impl(void);

int __wrap_crypto_scalarmult_curve25519(unsigned char *q, const unsigned char *n, const unsigned char *p);

#endif

/* X25519's kernels: the Montgomery ladder of RFC 7748 section 5 over one field implementation
 * each (x25519_portable.c on fe25519_51.h, x25519_mulx.c on fe25519_64.h), behind one table;
 * x25519_dispatch.c picks one at load and adds libsodium's checks around it (x25519.h).
 *
 * ladder(q, k, u): q = the canonical encoding of the u-coordinate of k * u, with k already
 * clamped (bits 0-2 and 255 clear, bit 254 set) and u read as libsodium reads it (bit 255
 * ignored, [p, 2^255) accepted). 255 ladder steps, each swapping the two points by a mask of
 * the scalar's bit (no branch, no index on a secret), then one inversion by a fixed chain. */
#ifndef NAT_CRYPTO_X25519_IMPL_H
#define NAT_CRYPTO_X25519_IMPL_H

typedef struct nat_x25519_kernels {
  const char *name;
  void (*ladder)(unsigned char q[32], const unsigned char k[32], const unsigned char u[32]);
} nat_x25519_kernels;

extern const nat_x25519_kernels nat_x25519_portable;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(_MSC_VER)
#define NAT_X25519_MULX 1
extern const nat_x25519_kernels nat_x25519_mulx;
#define NAT_X25519_IFMA 1
extern const nat_x25519_kernels nat_x25519_ifma;
#endif
#if defined(__wasm_simd128__) || defined(NAT_FE25519_X2_PORTABLE)
#define NAT_X25519_SIMD128 1
/* two field elements per multiplication (fe25519_x2.h): the wasm build's ladder */
extern const nat_x25519_kernels nat_x25519_simd128;
#endif

/* What nat_x25519_scalarmult runs (x25519_dispatch.c). */
extern const nat_x25519_kernels *nat_x25519_kernels_chosen;
/* 1 when NATRIUM_X25519=libsodium: the --wrap entry points (x25519_wrap.c) call libsodium's own. */
extern int nat_x25519_use_libsodium;

#endif

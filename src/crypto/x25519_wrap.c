/* The linker's --wrap=crypto_scalarmult_curve25519 (binding.gyp on Linux) turns every call of
 * it in the link, libsodium's own crypto_scalarmult, crypto_box_beforenm, crypto_kx_* included,
 * into calls of this; __real_ names libsodium's code. Linkers without --wrap (ld64, MSVC) keep
 * libsodium's X25519 (same bytes), and so does the wasm build (see x25519_dispatch.c): this file
 * is empty there (NAT_X25519_WRAP unset). crypto_scalarmult_curve25519_base is not a ladder:
 * it is wrapped by ed25519_mulx.c (an Edwards fixed-base table, ed25519.h), since a table beats
 * a ladder from u = 9 by about twice. */
#include "x25519.h"
#include "x25519_impl.h"

#ifdef NAT_X25519_WRAP
int __real_crypto_scalarmult_curve25519(unsigned char *q, const unsigned char *n, const unsigned char *p);

int __wrap_crypto_scalarmult_curve25519(unsigned char *q, const unsigned char *n, const unsigned char *p) {
  if (nat_x25519_use_libsodium) return __real_crypto_scalarmult_curve25519(q, n, p);
  return nat_x25519_scalarmult(q, n, p);
}
#endif

/* Poly1305: chooses the implementation behind src/crypto/poly1305.h. Today that is libsodium's
 * own (its SSE2 code on x86-64, donna elsewhere); our kernels take its place here. */
#include "poly1305.h"

void nat_poly1305_init(nat_poly1305_state *st, const unsigned char key[32]) {
  crypto_onetimeauth_poly1305_init(st, key);
}

void nat_poly1305_update(nat_poly1305_state *st, const unsigned char *m, size_t len) {
  crypto_onetimeauth_poly1305_update(st, m, (unsigned long long) len);
}

void nat_poly1305_final(nat_poly1305_state *st, unsigned char tag[16]) {
  crypto_onetimeauth_poly1305_final(st, tag);
}

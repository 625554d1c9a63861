/* PBKDF2-HMAC-SHA-512 and PBKDF2-HMAC-SHA-256 (RFC 8018, section 5.2) on our HMAC-SHA-2
 * (src/crypto/sha2.c).
 *
 *   T_i = U_1 ^ U_2 ^ ... ^ U_c,  U_1 = PRF(P, S || INT(i)),  U_j = PRF(P, U_{j-1})
 *
 * The PRF key (the password) never changes, so HMAC's keyed inner and outer hash states are
 * computed once: each U_j then costs two compression calls (inner and outer) from their
 * chaining values (nat_hmac*_iterate) instead of the four that re-keying HMAC every time costs.
 * Likewise P's state with the salt absorbed is kept, so the salt is hashed once, not per block. */
#include <string.h>

#include "pbkdf2.h"
#include "sha2.h"

static void nat_store32_be(unsigned char dst[4], uint32_t w) {
  dst[0] = (unsigned char) (w >> 24);
  dst[1] = (unsigned char) (w >> 16);
  dst[2] = (unsigned char) (w >> 8);
  dst[3] = (unsigned char) w;
}

#define NAT_PBKDF2(hash, HLEN)                                                                   \
  int nat_pbkdf2_##hash(unsigned char *out, size_t outlen, const unsigned char *passwd,          \
                        size_t passwd_len, const unsigned char *salt, size_t salt_len,           \
                        uint64_t iter) {                                                         \
    crypto_auth_hmac##hash##_state keyed, salted, st;                                            \
    unsigned char u[HLEN], t[HLEN], block_index[4];                                              \
    uint32_t block;                                                                              \
                                                                                                 \
    if (iter < extension_pbkdf2_##hash##_ITERATIONS_MIN ||                                       \
        outlen > extension_pbkdf2_##hash##_BYTES_MAX) {                                          \
      return -1;                                                                                 \
    }                                                                                            \
    nat_hmac##hash##_init(&keyed, passwd, passwd_len);                                           \
    salted = keyed;                                                                              \
    nat_hmac##hash##_update(&salted, salt, salt_len);                                            \
    /* BYTES_MAX keeps the block index within 32 bits, as INT(i) requires */                     \
    for (block = 1; outlen > 0; block++) {                                                       \
      st = salted;                                                                               \
      nat_store32_be(block_index, block);                                                        \
      nat_hmac##hash##_update(&st, block_index, sizeof block_index);                             \
      nat_hmac##hash##_final(&st, u);                                                            \
      memcpy(t, u, HLEN);                                                                        \
      nat_hmac##hash##_iterate(&keyed, u, t, iter - 1);                                          \
      size_t n = outlen < HLEN ? outlen : HLEN;                                                  \
      memcpy(out, t, n);                                                                         \
      out += n;                                                                                  \
      outlen -= n;                                                                               \
    }                                                                                            \
    sodium_memzero(&keyed, sizeof keyed);                                                        \
    sodium_memzero(&salted, sizeof salted);                                                      \
    sodium_memzero(&st, sizeof st);                                                              \
    sodium_memzero(u, sizeof u);                                                                 \
    sodium_memzero(t, sizeof t);                                                                 \
    return 0;                                                                                    \
  }

NAT_PBKDF2(sha512, crypto_auth_hmacsha512_BYTES)
NAT_PBKDF2(sha256, crypto_auth_hmacsha256_BYTES)

/* crypto_secretstream_xchacha20poly1305 push and pull on our ChaCha20 kernels.
 *
 * nat_secretstream_xchacha20poly1305_push/pull have the signatures, results, aliasing
 * rules and state updates of libsodium's crypto_secretstream_xchacha20poly1305_push/pull (the
 * state is libsodium's: init_push, init_pull and rekey stay libsodium's) and give byte-identical
 * outputs. */
#ifndef NAT_CRYPTO_SECRETSTREAM_H
#define NAT_CRYPTO_SECRETSTREAM_H

#include <sodium.h>

int nat_secretstream_xchacha20poly1305_push(crypto_secretstream_xchacha20poly1305_state *state,
                                                   unsigned char *out, unsigned long long *outlen_p,
                                                   const unsigned char *m, unsigned long long mlen,
                                                   const unsigned char *ad, unsigned long long adlen,
                                                   unsigned char tag);

int nat_secretstream_xchacha20poly1305_pull(crypto_secretstream_xchacha20poly1305_state *state,
                                                   unsigned char *m, unsigned long long *mlen_p,
                                                   unsigned char *tag_p, const unsigned char *in,
                                                   unsigned long long inlen, const unsigned char *ad,
                                                   unsigned long long adlen);

#endif

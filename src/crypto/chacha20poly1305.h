/* ChaCha20-Poly1305 with our own code: the IETF construction, the original one and
 * XChaCha20-Poly1305-IETF.
 *
 * nat_aead_<name>_{encrypt,decrypt}[_detached] have the signatures, results and aliasing rules of
 * libsodium's crypto_aead_<name>_* (c == m in place; ad may be NULL when adlen is 0; nsec is
 * unused) and give byte-identical outputs. Messages up to NAT_CHACHA20POLY1305_SMALL_MAX bytes
 * run our one-pass code (all keystream blocks in one kernel call, a 64-bit Poly1305 in locals):
 * libsodium's general path spends most of a short message's time in calls, function pointers and
 * wipes. Longer ones: natively the ChaCha20 kernel chacha20_dispatch.c chose (AVX-512F, AVX2,
 * libsodium's own stream code, portable) and the Poly1305 behind poly1305.h; on wasm32 four blocks per SIMD128 pass and a
 * four-lane Poly1305. */
#ifndef NAT_CRYPTO_CHACHA20POLY1305_H
#define NAT_CRYPTO_CHACHA20POLY1305_H

#include <sodium.h>

/* Measured with bench/xchacha_small.c (AMD EPYC, AVX2): the one-pass code took 0.45-0.65x
 * libsodium's time up to 448 bytes and 0.8-0.9x at 512. On wasm32 the same cut-off switches
 * between our two paths: in V8 the streaming one was as fast from ~400 bytes and 0.9x the one-pass
 * path's time at 448-512. */
#define NAT_CHACHA20POLY1305_SMALL_MAX 512U

#define NAT_CP_DECLARE(name)                                                                     \
  int nat_##name##_encrypt(unsigned char *c, unsigned long long *clen_p, const unsigned char *m, \
                           unsigned long long mlen, const unsigned char *ad,                     \
                           unsigned long long adlen, const unsigned char *nsec,                  \
                           const unsigned char *npub, const unsigned char *k);                   \
  int nat_##name##_decrypt(unsigned char *m, unsigned long long *mlen_p, unsigned char *nsec,    \
                           const unsigned char *c, unsigned long long clen,                      \
                           const unsigned char *ad, unsigned long long adlen,                    \
                           const unsigned char *npub, const unsigned char *k);                   \
  int nat_##name##_encrypt_detached(unsigned char *c, unsigned char *mac,                        \
                                    unsigned long long *maclen_p, const unsigned char *m,        \
                                    unsigned long long mlen, const unsigned char *ad,            \
                                    unsigned long long adlen, const unsigned char *nsec,         \
                                    const unsigned char *npub, const unsigned char *k);          \
  int nat_##name##_decrypt_detached(unsigned char *m, unsigned char *nsec,                       \
                                    const unsigned char *c, unsigned long long clen,             \
                                    const unsigned char *mac, const unsigned char *ad,           \
                                    unsigned long long adlen, const unsigned char *npub,         \
                                    const unsigned char *k);

/* nat_aead_chacha20poly1305_ietf_*, nat_aead_chacha20poly1305_*,
 * nat_aead_xchacha20poly1305_ietf_* */
NAT_CP_DECLARE(aead_chacha20poly1305_ietf)
NAT_CP_DECLARE(aead_chacha20poly1305)
NAT_CP_DECLARE(aead_xchacha20poly1305_ietf)

#endif

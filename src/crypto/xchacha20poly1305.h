/* XChaCha20-Poly1305-IETF with our own fused code.
 *
 * The four functions have the signatures, results and aliasing rules of libsodium's
 * crypto_aead_xchacha20poly1305_ietf_{encrypt,decrypt}[_detached] (c == m in place; ad may be
 * NULL when adlen is 0; nsec is unused) and give byte-identical outputs. Messages up to
 * NAT_XCHACHA20POLY1305_SMALL_MAX bytes run our one-pass code (HChaCha20, all keystream blocks
 * in one SIMD pass where the CPU allows, a 64-bit Poly1305): libsodium's general path spends most
 * of a short message's time in calls, function pointers and wipes. Natively, longer messages go
 * to libsodium unchanged, whose 8-block ChaCha20 and vectorised Poly1305 win there. On wasm32
 * (SIMD128) ours takes every length: libsodium has only portable C there (its fast ChaCha20 is
 * x86 intrinsics, its Poly1305 the 32-bit one), and ours streams four blocks per SIMD128 pass with
 * a four-lane Poly1305. */
#ifndef NAT_CRYPTO_XCHACHA20POLY1305_H
#define NAT_CRYPTO_XCHACHA20POLY1305_H

#include <sodium.h>

/* Measured with bench/xchacha_small.c (AMD EPYC, AVX2): ours takes 0.45-0.65x libsodium's time
 * up to 448 bytes and 0.8-0.9x at 512, where libsodium's 8-block AVX2 ChaCha20 starts; it still
 * won at 1 KB (0.9x) and lost from 1.5 KB, by margins within the CPU-to-CPU spread of such code.
 * On wasm32 the same cut-off switches between our two paths: in V8 the streaming one was as fast
 * from ~400 bytes and 0.9x the one-pass path's time at 448-512. */
#define NAT_XCHACHA20POLY1305_SMALL_MAX 512U

int nat_xchacha20poly1305_ietf_encrypt(unsigned char *c, unsigned long long *clen_p,
                                       const unsigned char *m, unsigned long long mlen,
                                       const unsigned char *ad, unsigned long long adlen,
                                       const unsigned char *nsec, const unsigned char *npub,
                                       const unsigned char *k);

int nat_xchacha20poly1305_ietf_decrypt(unsigned char *m, unsigned long long *mlen_p,
                                       unsigned char *nsec, const unsigned char *c,
                                       unsigned long long clen, const unsigned char *ad,
                                       unsigned long long adlen, const unsigned char *npub,
                                       const unsigned char *k);

int nat_xchacha20poly1305_ietf_encrypt_detached(unsigned char *c, unsigned char *mac,
                                                unsigned long long *maclen_p,
                                                const unsigned char *m, unsigned long long mlen,
                                                const unsigned char *ad, unsigned long long adlen,
                                                const unsigned char *nsec,
                                                const unsigned char *npub, const unsigned char *k);

int nat_xchacha20poly1305_ietf_decrypt_detached(unsigned char *m, unsigned char *nsec,
                                                const unsigned char *c, unsigned long long clen,
                                                const unsigned char *mac, const unsigned char *ad,
                                                unsigned long long adlen,
                                                const unsigned char *npub, const unsigned char *k);

#endif

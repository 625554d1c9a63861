/* ML-KEM-768 (FIPS 203) and X-Wing (draft-connolly-cfrg-xwing-kem, on ML-KEM-768 + X25519):
 * libsodium 1.0.22's crypto_kem_mlkem768_* and crypto_kem_xwing_* (and crypto_kem_*, which is
 * X-Wing), the same bytes for every input, in our own C (mlkem768.c, xwing.c, the kernels of
 * mlkem768_impl.h). Each function takes the arguments of the libsodium function of the same name
 * after "crypto_" and returns what it returns:
 *   - keypair draws the 64-byte seed (X-Wing: 32) from randombytes_buf, enc the 32-byte message
 *     (X-Wing: 64 bytes), as libsodium does, so a deterministic random source gives its bytes;
 *   - enc refuses (-1) a public key whose coefficients are not reduced mod q (FIPS 203 section
 *     7.2's modulus check); X-Wing's enc and dec refuse an X25519 share that makes the all-zero
 *     secret;
 *   - dec never fails for ML-KEM: a forged ciphertext gives J(z || c) (implicit rejection); like
 *     libsodium it does not check H(ek) inside the secret key (FIPS 203 section 7.3).
 *
 * NATRIUM_MLKEM=libsodium (read at load time, native only) sends every call to libsodium's own
 * code instead, for comparison; NATRIUM_MLKEM=portable|avx2 forces our kernels (see
 * mlkem768_dispatch.c). */
#ifndef NAT_CRYPTO_MLKEM768_H
#define NAT_CRYPTO_MLKEM768_H

#include <sodium.h>

int nat_kem_mlkem768_seed_keypair(unsigned char *pk, unsigned char *sk, const unsigned char *seed);
int nat_kem_mlkem768_keypair(unsigned char *pk, unsigned char *sk);
int nat_kem_mlkem768_enc_deterministic(unsigned char *ct, unsigned char *ss, const unsigned char *pk,
                                       const unsigned char *seed);
int nat_kem_mlkem768_enc(unsigned char *ct, unsigned char *ss, const unsigned char *pk);
int nat_kem_mlkem768_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk);

int nat_kem_xwing_seed_keypair(unsigned char *pk, unsigned char *sk, const unsigned char *seed);
int nat_kem_xwing_keypair(unsigned char *pk, unsigned char *sk);
int nat_kem_xwing_enc_deterministic(unsigned char *ct, unsigned char *ss, const unsigned char *pk,
                                    const unsigned char *seed);
int nat_kem_xwing_enc(unsigned char *ct, unsigned char *ss, const unsigned char *pk);
int nat_kem_xwing_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk);

/* "portable", "avx2", "avx512vl", "simd128" or "libsodium": what the calls above run. */
const char *nat_kem_mlkem768_impl(void);

#endif

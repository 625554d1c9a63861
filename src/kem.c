/* crypto_kem_*: X-Wing (crypto_kem_xwing, also libsodium's default crypto_kem) and ML-KEM-768
 * (crypto_kem_mlkem768).
 *
 * sodium-native has no KEM, so the calling convention follows libsodium's C signatures: outputs
 * first, lengths from the buffers, undefined on success. libsodium refuses (Error "<name> failed")
 * an ML-KEM public key whose coefficients are not reduced mod q (FIPS 203 section 7.2) and, for
 * X-Wing, an X25519 share that yields the all-zero secret; outputs are left untouched then.
 * Decapsulation of a forged ciphertext is not an error: ML-KEM's implicit rejection returns a
 * pseudorandom shared secret instead.
 *
 * Each binding calls our own C (src/crypto/mlkem768.h, which answers with libsodium's bytes, or
 * runs libsodium's code when NATRIUM_MLKEM=libsodium); impl names its functions'
 * common prefix, nat_kem_xwing or nat_kem_mlkem768. */
#include "nat.h"
#include "mlkem768.h"

/* libsodium writes outputs while it still reads inputs (ct while it reads pk, ss while it reads
 * ct), so no output may share a byte with any other argument. */
#define NAT_KEM(p, impl, keypair, seed_keypair, enc, dec)                                     \
  static napi_value nat_##keypair(napi_env env, napi_callback_info info) {                    \
    ARGS(2);                                                                                  \
    OUT(pk, 0); OUT(sk, 1);                                                                   \
    LEN_EQ(pk, p##_PUBLICKEYBYTES);                                                           \
    LEN_EQ(sk, p##_SECRETKEYBYTES);                                                           \
    NO_ALIAS(pk, sk);                                                                         \
    RETURN_OK(impl##_keypair(pk, sk));                                                        \
  }                                                                                           \
                                                                                              \
  static napi_value nat_##seed_keypair(napi_env env, napi_callback_info info) {               \
    ARGS(3);                                                                                  \
    OUT(pk, 0); OUT(sk, 1); BUF(seed, 2);                                                     \
    LEN_EQ(pk, p##_PUBLICKEYBYTES);                                                           \
    LEN_EQ(sk, p##_SECRETKEYBYTES);                                                           \
    LEN_EQ(seed, p##_SEEDBYTES);                                                              \
    NO_ALIAS(pk, sk);                                                                         \
    NO_ALIAS(sk, seed);                                                                       \
    NO_ALIAS(pk, seed);                                                                       \
    RETURN_OK(impl##_seed_keypair(pk, sk, seed));                                             \
  }                                                                                           \
                                                                                              \
  static napi_value nat_##enc(napi_env env, napi_callback_info info) {                        \
    ARGS(3);                                                                                  \
    OUT(ct, 0); OUT(ss, 1); BUF(pk, 2);                                                       \
    LEN_EQ(ct, p##_CIPHERTEXTBYTES);                                                          \
    LEN_EQ(ss, p##_SHAREDSECRETBYTES);                                                        \
    LEN_EQ(pk, p##_PUBLICKEYBYTES);                                                           \
    NO_ALIAS(ct, ss);                                                                         \
    NO_ALIAS(ct, pk);                                                                         \
    NO_ALIAS(ss, pk);                                                                         \
    RETURN_OK(impl##_enc(ct, ss, pk));                                                        \
  }                                                                                           \
                                                                                              \
  static napi_value nat_##dec(napi_env env, napi_callback_info info) {                        \
    ARGS(3);                                                                                  \
    OUT(ss, 0); BUF(ct, 1); BUF(sk, 2);                                                       \
    LEN_EQ(ss, p##_SHAREDSECRETBYTES);                                                        \
    LEN_EQ(ct, p##_CIPHERTEXTBYTES);                                                          \
    LEN_EQ(sk, p##_SECRETKEYBYTES);                                                           \
    NO_ALIAS(ss, ct);                                                                         \
    NO_ALIAS(ss, sk);                                                                         \
    RETURN_OK(impl##_dec(ss, ct, sk));                                                        \
  }

/* Encapsulation with caller-supplied randomness, for known-answer tests: libsodium names no
 * constant for its length (X-Wing: 64 bytes, the ML-KEM coins then the X25519 ephemeral secret;
 * ML-KEM-768: the 32-byte message m of FIPS 203's ML-KEM.Encaps_internal). */
#define NAT_KEM_ENC_DETERMINISTIC(p, impl, enc_deterministic, seed_bytes)                     \
  static napi_value nat_##enc_deterministic(napi_env env, napi_callback_info info) {          \
    ARGS(4);                                                                                  \
    OUT(ct, 0); OUT(ss, 1); BUF(pk, 2); BUF(seed, 3);                                         \
    LEN_EQ(ct, p##_CIPHERTEXTBYTES);                                                          \
    LEN_EQ(ss, p##_SHAREDSECRETBYTES);                                                        \
    LEN_EQ(pk, p##_PUBLICKEYBYTES);                                                           \
    LEN_EQ(seed, seed_bytes);                                                                 \
    NO_ALIAS(ct, ss);                                                                         \
    NO_ALIAS(ct, pk);                                                                         \
    NO_ALIAS(ct, seed);                                                                       \
    NO_ALIAS(ss, pk);                                                                         \
    NO_ALIAS(ss, seed);                                                                       \
    RETURN_OK(impl##_enc_deterministic(ct, ss, pk, seed));                                    \
  }

/* crypto_kem is X-Wing (libsodium's crypto_kem_* call crypto_kem_xwing_*) */
NAT_KEM(crypto_kem, nat_kem_xwing, crypto_kem_keypair, crypto_kem_seed_keypair, crypto_kem_enc,
        crypto_kem_dec)
NAT_KEM(crypto_kem_xwing, nat_kem_xwing, crypto_kem_xwing_keypair, crypto_kem_xwing_seed_keypair,
        crypto_kem_xwing_enc, crypto_kem_xwing_dec)
NAT_KEM_ENC_DETERMINISTIC(crypto_kem_xwing, nat_kem_xwing, crypto_kem_xwing_enc_deterministic, 64)
NAT_KEM(crypto_kem_mlkem768, nat_kem_mlkem768, crypto_kem_mlkem768_keypair,
        crypto_kem_mlkem768_seed_keypair, crypto_kem_mlkem768_enc, crypto_kem_mlkem768_dec)
NAT_KEM_ENC_DETERMINISTIC(crypto_kem_mlkem768, nat_kem_mlkem768, crypto_kem_mlkem768_enc_deterministic,
                          32)

NAT_FAMILY(kem,
  /* crypto_kem (X-Wing) */
  FN(crypto_kem_keypair), FN(crypto_kem_seed_keypair), FN(crypto_kem_enc), FN(crypto_kem_dec),
  /* crypto_kem_xwing */
  FN(crypto_kem_xwing_keypair), FN(crypto_kem_xwing_seed_keypair), FN(crypto_kem_xwing_enc),
  FN(crypto_kem_xwing_dec),
  FN(crypto_kem_xwing_enc_deterministic),
  /* crypto_kem_mlkem768 */
  FN(crypto_kem_mlkem768_keypair), FN(crypto_kem_mlkem768_seed_keypair),
  FN(crypto_kem_mlkem768_enc), FN(crypto_kem_mlkem768_dec),
  FN(crypto_kem_mlkem768_enc_deterministic));

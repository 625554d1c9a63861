/* crypto_sign_*: Ed25519 (RFC 8032), its ed25519ph streaming API, key conversions, and
 * sodium-native's experimental extension_tweak_ed25519_* (src/crypto/tweak.c).
 *
 * crypto_sign_* and crypto_sign_ed25519_* are the same functions in libsodium; one macro gives
 * both names sodium-native's checks (crypto_sign_open and the verifiers return a boolean). Beyond
 * sodium-native: buffers whose overlap would make libsodium compute a wrong answer are refused,
 * and a detached signature longer than crypto_sign_BYTES does not verify. */
#include "nat.h"
#include "tweak.h"

/* Exactly one of two lengths (sk_to_curve25519 takes a full secret key or its 32-byte seed). */
#define LEN_EITHER(x, a, b)                                                                    \
  do {                                                                                         \
    if (x##_len != (size_t) (a) && x##_len != (size_t) (b))                                    \
      return nat_throw_range(env, #x, "must be " #a " or " #b " bytes long");                  \
  } while (0)

#define NAT_SIGN(p, keypair, seed_keypair, open, detached, verify_detached)                     \
  /* libsodium writes sk before it has read all of seed, and pk before it copies it into sk. */ \
  NAT_KEYPAIRS(p, keypair, seed_keypair, NAT_SEED_APART)                                        \
                                                                                                \
  /* libsodium moves m into sm before signing, so m may overlap sm; sk must not. */             \
  static napi_value nat_##p(napi_env env, napi_callback_info info) {                            \
    ARGS(3);                                                                                    \
    OUT(sm, 0); BUF(m, 1); BUF(sk, 2);                                                          \
    LEN_EQ(sm, m_len + p##_BYTES);                                                              \
    LEN_EQ(sk, p##_SECRETKEYBYTES);                                                             \
    NO_ALIAS(sm, sk);                                                                           \
    RETURN_OK(p(sm, NULL, m, m_len, sk));                                                       \
  }                                                                                             \
                                                                                                \
  /* m is zeroed by libsodium when the signature does not verify. */                            \
  static napi_value nat_##open(napi_env env, napi_callback_info info) {                         \
    ARGS(3);                                                                                    \
    OUT(m, 0); BUF(sm, 1); BUF(pk, 2);                                                          \
    LEN_MIN(sm, p##_BYTES);                                                                     \
    LEN_EQ(m, sm_len - p##_BYTES);                                                              \
    LEN_EQ(pk, p##_PUBLICKEYBYTES);                                                             \
    RETURN_BOOL(open(m, NULL, sm, sm_len, pk));                                                 \
  }                                                                                             \
                                                                                                \
  /* sig is written before m is hashed a second time. */                                        \
  static napi_value nat_##detached(napi_env env, napi_callback_info info) {                     \
    ARGS(3);                                                                                    \
    OUT(sig, 0); BUF(m, 1); BUF(sk, 2);                                                         \
    LEN_EQ(sig, p##_BYTES);                                                                     \
    LEN_EQ(sk, p##_SECRETKEYBYTES);                                                             \
    NO_ALIAS(sig, m);                                                                           \
    RETURN_OK(detached(sig, NULL, m, m_len, sk));                                               \
  }                                                                                             \
                                                                                                \
  /* sodium-native takes a longer sig and checks its first 64 bytes, so a signature with        \
   * trailing garbage verified (Wycheproof ed25519 tcId 33, 34, 37): here it is answered false. */ \
  static napi_value nat_##verify_detached(napi_env env, napi_callback_info info) {              \
    ARGS(3);                                                                                    \
    BUF(sig, 0); BUF(m, 1); BUF(pk, 2);                                                         \
    LEN_MIN(sig, p##_BYTES);                                                                    \
    LEN_EQ(pk, p##_PUBLICKEYBYTES);                                                             \
    if (sig_len != p##_BYTES) return nat_bool(env, false);                                      \
    RETURN_BOOL(verify_detached(sig, m, m_len, pk));                                            \
  }

NAT_SIGN(crypto_sign, crypto_sign_keypair, crypto_sign_seed_keypair, crypto_sign_open,
         crypto_sign_detached, crypto_sign_verify_detached)
NAT_SIGN(crypto_sign_ed25519, crypto_sign_ed25519_keypair, crypto_sign_ed25519_seed_keypair,
         crypto_sign_ed25519_open, crypto_sign_ed25519_detached,
         crypto_sign_ed25519_verify_detached)

static napi_value nat_crypto_sign_ed25519_sk_to_pk(napi_env env, napi_callback_info info) {
  ARGS(2);
  OUT(pk, 0); BUF(sk, 1);
  LEN_EQ(pk, crypto_sign_PUBLICKEYBYTES);
  LEN_EQ(sk, crypto_sign_SECRETKEYBYTES);
  RETURN_OK(crypto_sign_ed25519_sk_to_pk(pk, sk));
}

static napi_value nat_crypto_sign_ed25519_sk_to_seed(napi_env env, napi_callback_info info) {
  ARGS(2);
  OUT(seed, 0); BUF(sk, 1);
  LEN_EQ(seed, crypto_sign_SEEDBYTES);
  LEN_EQ(sk, crypto_sign_SECRETKEYBYTES);
  RETURN_OK(crypto_sign_ed25519_sk_to_seed(seed, sk));
}

/* Refused (Error) for small-order, non-canonical or off-subgroup keys; x25519pk stays untouched. */
static napi_value nat_crypto_sign_ed25519_pk_to_curve25519(napi_env env, napi_callback_info info) {
  ARGS(2);
  OUT(x25519pk, 0); BUF(ed25519pk, 1);
  LEN_EQ(x25519pk, crypto_box_PUBLICKEYBYTES);
  LEN_EQ(ed25519pk, crypto_sign_PUBLICKEYBYTES);
  RETURN_OK(crypto_sign_ed25519_pk_to_curve25519(x25519pk, ed25519pk));
}

/* Only the seed (the first 32 bytes of a secret key) is read, so the seed alone is accepted. */
static napi_value nat_crypto_sign_ed25519_sk_to_curve25519(napi_env env, napi_callback_info info) {
  ARGS(2);
  OUT(x25519sk, 0); BUF(ed25519sk, 1);
  LEN_EQ(x25519sk, crypto_box_SECRETKEYBYTES);
  LEN_EITHER(ed25519sk, crypto_sign_SECRETKEYBYTES, crypto_sign_SEEDBYTES);
  RETURN_OK(crypto_sign_ed25519_sk_to_curve25519(x25519sk, ed25519sk));
}

/* Ed25519ph (RFC 8032 5.1, prehashed with SHA-512): init, update with any number of chunks, then
 * final_create or final_verify, which wipe the state as libsodium's SHA-512 final does. */
#define NAT_SIGN_PH(p, init, update, final_create, final_verify, type)                          \
  static napi_value nat_##init(napi_env env, napi_callback_info info) {                         \
    ARGS(1);                                                                                    \
    STATE(state, 0, type);                                                                      \
    int rc = init(&state);                                                                      \
    STATE_SAVE_IF_OK(state, rc);                                                                \
    RETURN_OK(rc);                                                                              \
  }                                                                                             \
                                                                                                \
  static napi_value nat_##update(napi_env env, napi_callback_info info) {                       \
    ARGS(2);                                                                                    \
    STATE(state, 0, type);                                                                      \
    BUF(m, 1);                                                                                  \
    int rc = update(&state, m, m_len);                                                          \
    STATE_SAVE_IF_OK(state, rc);                                                                \
    RETURN_OK(rc);                                                                              \
  }                                                                                             \
                                                                                                \
  static napi_value nat_##final_create(napi_env env, napi_callback_info info) {                 \
    ARGS(3);                                                                                    \
    STATE(state, 0, type);                                                                      \
    OUT(sig, 1); BUF(sk, 2);                                                                    \
    STATE_APART(state, sig);                                                                    \
    LEN_EQ(sig, crypto_sign_BYTES);                                                             \
    LEN_EQ(sk, crypto_sign_SECRETKEYBYTES);                                                     \
    int rc = final_create(&state, sig, NULL, sk);                                               \
    STATE_SAVE_IF_OK(state, rc);                                                                \
    RETURN_OK(rc);                                                                              \
  }                                                                                             \
                                                                                                \
  static napi_value nat_##final_verify(napi_env env, napi_callback_info info) {                 \
    ARGS(3);                                                                                    \
    STATE(state, 0, type);                                                                      \
    BUF(sig, 1); BUF(pk, 2);                                                                    \
    LEN_EQ(sig, crypto_sign_BYTES);                                                             \
    LEN_EQ(pk, crypto_sign_PUBLICKEYBYTES);                                                     \
    int rc = final_verify(&state, sig, pk);                                                     \
    STATE_SAVE(state);                                                                          \
    RETURN_BOOL(rc);                                                                            \
  }

NAT_SIGN_PH(crypto_sign, crypto_sign_init, crypto_sign_update, crypto_sign_final_create,
            crypto_sign_final_verify, crypto_sign_state)
NAT_SIGN_PH(crypto_sign_ed25519ph, crypto_sign_ed25519ph_init, crypto_sign_ed25519ph_update,
            crypto_sign_ed25519ph_final_create, crypto_sign_ed25519ph_final_verify,
            crypto_sign_ed25519ph_state)

/* extension_tweak_ed25519_*: sodium-native 5.1.0's experimental key tweaking, with its messages
 * when the curve arithmetic refuses. ns (a namespace) may have any length. */
static napi_value nat_extension_tweak_ed25519_base(napi_env env, napi_callback_info info) {
  ARGS(3);
  OUT(n, 0); OUT(p, 1); BUF(ns, 2);
  LEN_EQ(n, extension_tweak_ed25519_SCALARBYTES);
  LEN_EQ(p, extension_tweak_ed25519_BYTES);
  NO_ALIAS(n, p);
  nat_tweak_ed25519_base(p, n, ns, ns_len);
  return nat_undefined(env);
}

static napi_value nat_extension_tweak_ed25519_sk_to_scalar(napi_env env, napi_callback_info info) {
  ARGS(2);
  OUT(n, 0); BUF(sk, 1);
  LEN_EQ(n, extension_tweak_ed25519_SCALARBYTES);
  LEN_EQ(sk, crypto_sign_SECRETKEYBYTES);
  nat_tweak_ed25519_sk_to_scalar(n, sk);
  return nat_undefined(env);
}

static napi_value nat_extension_tweak_ed25519_scalar(napi_env env, napi_callback_info info) {
  ARGS(3);
  OUT(scalarOut, 0); BUF(scalar, 1); BUF(ns, 2);
  LEN_EQ(scalarOut, extension_tweak_ed25519_SCALARBYTES);
  LEN_EQ(scalar, extension_tweak_ed25519_SCALARBYTES);
  nat_tweak_ed25519_scalar(scalarOut, scalar, ns, ns_len);
  return nat_undefined(env);
}

static napi_value nat_extension_tweak_ed25519_pk(napi_env env, napi_callback_info info) {
  ARGS(3);
  OUT(tpk, 0); BUF(pk, 1); BUF(ns, 2);
  LEN_EQ(tpk, crypto_sign_PUBLICKEYBYTES);
  LEN_EQ(pk, crypto_sign_PUBLICKEYBYTES);
  FAIL_IF(nat_tweak_ed25519_pk(tpk, pk, ns, ns_len) != 0, "failed to tweak public key");
  return nat_undefined(env);
}

static napi_value nat_extension_tweak_ed25519_keypair(napi_env env, napi_callback_info info) {
  ARGS(4);
  OUT(pk, 0); OUT(scalarOut, 1); BUF(scalarIn, 2); BUF(ns, 3);
  LEN_EQ(pk, extension_tweak_ed25519_BYTES);
  LEN_EQ(scalarOut, extension_tweak_ed25519_SCALARBYTES);
  LEN_EQ(scalarIn, extension_tweak_ed25519_SCALARBYTES);
  NO_ALIAS(pk, scalarOut);
  nat_tweak_ed25519_keypair(pk, scalarOut, scalarIn, ns, ns_len);
  return nat_undefined(env);
}

static napi_value nat_extension_tweak_ed25519_scalar_add(napi_env env, napi_callback_info info) {
  ARGS(3);
  OUT(scalarOut, 0); BUF(scalar, 1); BUF(n, 2);
  LEN_EQ(scalarOut, extension_tweak_ed25519_SCALARBYTES);
  LEN_EQ(scalar, extension_tweak_ed25519_SCALARBYTES);
  LEN_EQ(n, extension_tweak_ed25519_SCALARBYTES);
  nat_tweak_ed25519_scalar_add(scalarOut, scalar, n);
  return nat_undefined(env);
}

static napi_value nat_extension_tweak_ed25519_pk_add(napi_env env, napi_callback_info info) {
  ARGS(3);
  OUT(tpk, 0); BUF(pk, 1); BUF(p, 2);
  LEN_EQ(tpk, crypto_sign_PUBLICKEYBYTES);
  LEN_EQ(pk, crypto_sign_PUBLICKEYBYTES);
  LEN_EQ(p, crypto_sign_PUBLICKEYBYTES);
  FAIL_IF(nat_tweak_ed25519_pk_add(tpk, pk, p) != 0, "failed to add tweak to public key");
  return nat_undefined(env);
}

static napi_value nat_extension_tweak_ed25519_keypair_add(napi_env env, napi_callback_info info) {
  ARGS(4);
  OUT(pk, 0); OUT(scalarOut, 1); BUF(scalarIn, 2); BUF(tweak, 3);
  LEN_EQ(pk, extension_tweak_ed25519_BYTES);
  LEN_EQ(scalarOut, extension_tweak_ed25519_SCALARBYTES);
  LEN_EQ(scalarIn, extension_tweak_ed25519_SCALARBYTES);
  LEN_EQ(tweak, extension_tweak_ed25519_SCALARBYTES);
  NO_ALIAS(pk, scalarOut);
  FAIL_IF(nat_tweak_ed25519_keypair_add(pk, scalarOut, scalarIn, tweak) != 0,
          "failed to add tweak to keypair");
  return nat_undefined(env);
}

/* pk may be null: then it is derived from scalar. */
static napi_value nat_extension_tweak_ed25519_sign_detached(napi_env env, napi_callback_info info) {
  ARGS(4);
  OUT(sig, 0); BUF(m, 1); BUF(scalar, 2); OPT_BUF(pk, 3);
  LEN_EQ(sig, crypto_sign_BYTES);
  LEN_EQ(scalar, extension_tweak_ed25519_SCALARBYTES);
  if (pk != NULL) LEN_EQ(pk, crypto_sign_PUBLICKEYBYTES);
  FAIL_IF(nat_tweak_ed25519_sign_detached(sig, m, m_len, scalar, pk) != 0,
          "failed to compute signature");
  return nat_undefined(env);
}

NAT_FAMILY(sign,
           FN(crypto_sign_keypair), FN(crypto_sign_seed_keypair), FN(crypto_sign),
           FN(crypto_sign_open), FN(crypto_sign_detached), FN(crypto_sign_verify_detached),
           FN(crypto_sign_ed25519_keypair), FN(crypto_sign_ed25519_seed_keypair),
           FN(crypto_sign_ed25519), FN(crypto_sign_ed25519_open),
           FN(crypto_sign_ed25519_detached), FN(crypto_sign_ed25519_verify_detached),
           FN(crypto_sign_ed25519_sk_to_pk), FN(crypto_sign_ed25519_sk_to_seed),
           FN(crypto_sign_ed25519_pk_to_curve25519), FN(crypto_sign_ed25519_sk_to_curve25519),
           FN(crypto_sign_init), FN(crypto_sign_update), FN(crypto_sign_final_create),
           FN(crypto_sign_final_verify),
           FN(crypto_sign_ed25519ph_init), FN(crypto_sign_ed25519ph_update),
           FN(crypto_sign_ed25519ph_final_create), FN(crypto_sign_ed25519ph_final_verify),
           FN(extension_tweak_ed25519_base), FN(extension_tweak_ed25519_sk_to_scalar),
           FN(extension_tweak_ed25519_scalar), FN(extension_tweak_ed25519_pk),
           FN(extension_tweak_ed25519_keypair), FN(extension_tweak_ed25519_scalar_add),
           FN(extension_tweak_ed25519_pk_add), FN(extension_tweak_ed25519_keypair_add),
           FN(extension_tweak_ed25519_sign_detached));

/* crypto_kdf (BLAKE2b), crypto_kdf_hkdf_sha256/sha512 (RFC 5869, on our HMAC-SHA-2 in
 * src/crypto/sha2.c: libsodium's bytes and states), and PBKDF2 (our own C in
 * src/crypto/pbkdf2.c) under sodium-native's extension_pbkdf2_* names. */
#include "nat.h"
#include "pbkdf2.h"
#include "sha2.h"

/* p_derive_from_key(subkey, subkey_id, ctx, key): sodium-native's order. subkey_id is libsodium's
 * uint64_t; JS numbers are exact up to 2^53. */
#define NAT_KDF_DERIVE(p, derive_from_key)                                                     \
  static napi_value nat_##derive_from_key(napi_env env, napi_callback_info info) {             \
    ARGS(4);                                                                                   \
    OUT(subkey, 0); U64(subkey_id, 1, 0, UINT64_MAX); BUF(ctx, 2); BUF(key, 3);                \
    LEN_MIN(subkey, p##_BYTES_MIN);                                                            \
    LEN_MAX(subkey, p##_BYTES_MAX);                                                            \
    LEN_EQ(ctx, p##_CONTEXTBYTES);                                                             \
    LEN_EQ(key, p##_KEYBYTES);                                                                 \
    RETURN_OK(derive_from_key(subkey, subkey_len, subkey_id, (const char *) ctx, key));        \
  }

NAT_KDF_DERIVE(crypto_kdf, crypto_kdf_derive_from_key)
NAT_KDF_DERIVE(crypto_kdf_blake2b, crypto_kdf_blake2b_derive_from_key)

static napi_value nat_crypto_kdf_keygen(napi_env env, napi_callback_info info) {
  ARGS(1);
  OUT(k, 0);
  LEN_EQ(k, crypto_kdf_KEYBYTES);
  crypto_kdf_keygen(k);
  return nat_undefined(env);
}

/* HKDF: extract(prk, salt, ikm), expand(out, ctx, prk) with the output length taken from out,
 * keygen(prk), and the streaming extract_init(state, salt) / extract_update(state, ikm) /
 * extract_final(state, prk), run by impl*. salt and ctx may be null (treated as empty). */
#define NAT_HKDF(p, impl, extract, expand, keygen, extract_init, extract_update, extract_final) \
  static napi_value nat_##extract(napi_env env, napi_callback_info info) {                     \
    ARGS(3);                                                                                   \
    OUT(prk, 0); OPT_BUF(salt, 1); BUF(ikm, 2);                                                \
    LEN_EQ(prk, p##_KEYBYTES);                                                                 \
    RETURN_OK(impl##_extract(prk, salt, salt_len, ikm, ikm_len));                              \
  }                                                                                            \
                                                                                               \
  /* Every output block is keyed with prk and hashes ctx, after earlier blocks were written: */ \
  /* out must share no byte with either. */                                                    \
  static napi_value nat_##expand(napi_env env, napi_callback_info info) {                      \
    ARGS(3);                                                                                   \
    OUT(out, 0); OPT_BUF(ctx, 1); BUF(prk, 2);                                                 \
    LEN_MAX(out, p##_BYTES_MAX);                                                               \
    LEN_EQ(prk, p##_KEYBYTES);                                                                 \
    NO_ALIAS(out, prk);                                                                        \
    NO_ALIAS(out, ctx);                                                                        \
    RETURN_OK(impl##_expand(out, out_len, (const char *) ctx, ctx_len, prk));                  \
  }                                                                                            \
                                                                                               \
  static napi_value nat_##keygen(napi_env env, napi_callback_info info) {                      \
    ARGS(1);                                                                                   \
    OUT(prk, 0);                                                                               \
    LEN_EQ(prk, p##_KEYBYTES);                                                                 \
    keygen(prk);                                                                               \
    return nat_undefined(env);                                                                 \
  }                                                                                            \
                                                                                               \
  static napi_value nat_##extract_init(napi_env env, napi_callback_info info) {                \
    ARGS(2);                                                                                   \
    STATE(state, 0, p##_state);                                                                \
    OPT_BUF(salt, 1);                                                                          \
    int rc = impl##_extract_init(&state, salt, salt_len);                                      \
    STATE_SAVE_IF_OK(state, rc);                                                               \
    RETURN_OK(rc);                                                                             \
  }                                                                                            \
                                                                                               \
  static napi_value nat_##extract_update(napi_env env, napi_callback_info info) {              \
    ARGS(2);                                                                                   \
    STATE(state, 0, p##_state);                                                                \
    BUF(ikm, 1);                                                                               \
    int rc = impl##_extract_update(&state, ikm, ikm_len);                                      \
    STATE_SAVE_IF_OK(state, rc);                                                               \
    RETURN_OK(rc);                                                                             \
  }                                                                                            \
                                                                                               \
  static napi_value nat_##extract_final(napi_env env, napi_callback_info info) {               \
    ARGS(2);                                                                                   \
    STATE(state, 0, p##_state);                                                                \
    OUT(prk, 1);                                                                               \
    STATE_APART(state, prk);                                                                   \
    LEN_EQ(prk, p##_KEYBYTES);                                                                 \
    int rc = impl##_extract_final(&state, prk);                                                \
    STATE_SAVE_IF_OK(state, rc);                                                               \
    RETURN_OK(rc);                                                                             \
  }

NAT_HKDF(crypto_kdf_hkdf_sha256, nat_hkdf_sha256, crypto_kdf_hkdf_sha256_extract,
         crypto_kdf_hkdf_sha256_expand, crypto_kdf_hkdf_sha256_keygen,
         crypto_kdf_hkdf_sha256_extract_init, crypto_kdf_hkdf_sha256_extract_update,
         crypto_kdf_hkdf_sha256_extract_final)
NAT_HKDF(crypto_kdf_hkdf_sha512, nat_hkdf_sha512, crypto_kdf_hkdf_sha512_extract,
         crypto_kdf_hkdf_sha512_expand, crypto_kdf_hkdf_sha512_keygen,
         crypto_kdf_hkdf_sha512_extract_init, crypto_kdf_hkdf_sha512_extract_update,
         crypto_kdf_hkdf_sha512_extract_final)

/* extension_pbkdf2_<hash>(out, passwd, salt, iter, outlen), defined under the full names pbkdf2
 * and pbkdf2_async: sodium-native 5.1.0's contract. The
 * first outlen bytes of out are written (out may be longer); out, passwd and salt must not be
 * empty. No overlap rule: pbkdf2.c absorbs passwd and salt before writing out.
 * NAT_PBKDF2_ARGS(hash) checks the five arguments and declares `argv` and the checked values. */
typedef struct {
  unsigned char *out;
  size_t outlen;
  const unsigned char *passwd;
  size_t passwd_len;
  const unsigned char *salt;
  size_t salt_len;
  uint64_t iter;
} nat_pbkdf2_job;

#define NAT_PBKDF2_ARGS(hash)                                                                  \
  ARGS(5);                                                                                     \
  OUT(out, 0); BUF(passwd, 1); BUF(salt, 2);                                                   \
  U64(iter, 3, extension_pbkdf2_##hash##_ITERATIONS_MIN, UINT64_MAX);                          \
  U64(outlen, 4, 0, extension_pbkdf2_##hash##_BYTES_MAX);                                      \
  LEN_MIN(out, 1);                                                                             \
  LEN_MIN(out, outlen);                                                                        \
  LEN_MIN(passwd, 1);                                                                          \
  LEN_MIN(salt, 1)

#define NAT_PBKDF2(hash, pbkdf2, pbkdf2_async)                                                 \
  static int nat_pbkdf2_##hash##_run(void *ctx) {                                              \
    const nat_pbkdf2_job *j = ctx;                                                             \
    return nat_pbkdf2_##hash(j->out, j->outlen, j->passwd, j->passwd_len, j->salt,             \
                             j->salt_len, j->iter);                                            \
  }                                                                                            \
                                                                                               \
  static napi_value nat_##pbkdf2(napi_env env, napi_callback_info info) {                      \
    NAT_PBKDF2_ARGS(hash);                                                                     \
    RETURN_OK(nat_pbkdf2_##hash(out, (size_t) outlen, passwd, passwd_len, salt, salt_len, iter)); \
  }                                                                                            \
                                                                                               \
  /* The same work on copies the job owns; the Promise resolves with undefined. Only the */    \
  /* first outlen bytes of out are the job's output (the rest of out is left alone). */        \
  static napi_value nat_##pbkdf2_async(napi_env env, napi_callback_info info) {                \
    NAT_PBKDF2_ARGS(hash);                                                                     \
    nat_job *job = nat_job_new(env, #pbkdf2_async, sizeof(nat_pbkdf2_job));                    \
    if (job == NULL) return NULL;                                                              \
    nat_pbkdf2_job *j = nat_job_ctx(job);                                                      \
    j->out = nat_job_out(env, job, argv[0], "out", out_len, (size_t) outlen);                  \
    j->outlen = (size_t) outlen;                                                               \
    j->passwd = nat_job_in(env, job, passwd, passwd_len);                                      \
    j->passwd_len = passwd_len;                                                                \
    j->salt = nat_job_in(env, job, salt, salt_len);                                            \
    j->salt_len = salt_len;                                                                    \
    j->iter = iter;                                                                            \
    return nat_job_start(env, job, nat_pbkdf2_##hash##_run, false,                             \
                         #pbkdf2_async " failed");                                             \
  }

NAT_PBKDF2(sha512, extension_pbkdf2_sha512, extension_pbkdf2_sha512_async)
NAT_PBKDF2(sha256, extension_pbkdf2_sha256, extension_pbkdf2_sha256_async)

NAT_FAMILY(kdf,
  /* crypto_kdf */
  FN(crypto_kdf_derive_from_key), FN(crypto_kdf_keygen), FN(crypto_kdf_blake2b_derive_from_key),
  /* crypto_kdf_hkdf */
  FN(crypto_kdf_hkdf_sha256_extract), FN(crypto_kdf_hkdf_sha256_expand),
  FN(crypto_kdf_hkdf_sha256_keygen), FN(crypto_kdf_hkdf_sha256_extract_init),
  FN(crypto_kdf_hkdf_sha256_extract_update), FN(crypto_kdf_hkdf_sha256_extract_final),
  FN(crypto_kdf_hkdf_sha512_extract), FN(crypto_kdf_hkdf_sha512_expand),
  FN(crypto_kdf_hkdf_sha512_keygen), FN(crypto_kdf_hkdf_sha512_extract_init),
  FN(crypto_kdf_hkdf_sha512_extract_update), FN(crypto_kdf_hkdf_sha512_extract_final),
  /* PBKDF2 (src/crypto/pbkdf2.c) */
  FN(extension_pbkdf2_sha512_async), FN(extension_pbkdf2_sha256_async),
  FN(extension_pbkdf2_sha512), FN(extension_pbkdf2_sha256));

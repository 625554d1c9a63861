/* crypto_pwhash_*: Argon2id / Argon2i (crypto_pwhash, crypto_pwhash_argon2i, crypto_pwhash_argon2id)
 * and scrypt (crypto_pwhash_scryptsalsa208sha256).
 *
 * Calling convention and checks are sodium-native's: out and salt lengths, opslimit and memlimit
 * within the MIN..MAX constants (all of which a double holds exactly), str buffers of exactly
 * STRBYTES bytes; str_verify and str_needs_rehash return booleans. The native build adds
 * Promise-returning _async variants that run on libuv's thread pool. */
#include "nat.h"

/* libsodium clears out before it reads passwd and salt, so out must not share a byte with them
 * (sodium-native does not check this and silently hashes the cleared bytes). */
#define NAT_PWHASH_NO_ALIAS(out, passwd, salt) \
  do {                                         \
    NO_ALIAS(out, passwd);                     \
    NO_ALIAS(out, salt);                       \
  } while (0)

/* A hash string arrives as a STRBYTES buffer holding a NUL-terminated string. libsodium reads it
 * up to the NUL, so it is copied into a local array first; a buffer with no NUL in it is not a
 * string libsodium could have written and counts as an invalid hash string (never read past). */
static bool nat_pwhash_str_copy(char *dst, const unsigned char *src, size_t len) {
  memcpy(dst, src, len);
  return memchr(dst, 0, len) != NULL;
}

/* Both answers are those of sodium-native: verify is true only for a valid string that matches;
 * needs_rehash is true when the parameters differ and also when the string is invalid. */
#define NAT_PWHASH_VERIFY(p, str_verify, str, passwd)                                      \
  do {                                                                                     \
    char local[p##_STRBYTES];                                                              \
    bool ok = nat_pwhash_str_copy(local, str, sizeof local) &&                             \
              str_verify(local, (const char *) passwd, passwd##_len) == 0;                 \
    sodium_memzero(local, sizeof local);                                                   \
    return nat_bool(env, ok);                                                              \
  } while (0)

#define NAT_PWHASH_NEEDS_REHASH(p, str_needs_rehash, str, opslimit, memlimit)              \
  do {                                                                                     \
    char local[p##_STRBYTES];                                                              \
    bool rehash = !nat_pwhash_str_copy(local, str, sizeof local) ||                        \
                  str_needs_rehash(local, opslimit, (size_t) memlimit) != 0;               \
    return nat_bool(env, rehash);                                                          \
  } while (0)

/* The three Argon2 sets share one shape: p is crypto_pwhash (alg chooses Argon2i or Argon2id),
 * crypto_pwhash_argon2i or crypto_pwhash_argon2id (alg must name that algorithm); p_str* are the
 * full names of p_str, p_str_verify and p_str_needs_rehash. */
#define NAT_ARGON2(p, p_str, p_str_verify, p_str_needs_rehash, alg_lo, alg_hi)               \
  static napi_value nat_##p(napi_env env, napi_callback_info info) {                         \
    ARGS(6);                                                                                 \
    OUT(out, 0); BUF(passwd, 1); BUF(salt, 2);                                               \
    U64(opslimit, 3, p##_OPSLIMIT_MIN, p##_OPSLIMIT_MAX);                                    \
    U64(memlimit, 4, p##_MEMLIMIT_MIN, p##_MEMLIMIT_MAX);                                    \
    U32(alg, 5, alg_lo, alg_hi);                                                             \
    LEN_MIN(out, p##_BYTES_MIN);                                                             \
    LEN_MAX(out, p##_BYTES_MAX);                                                             \
    LEN_EQ(salt, p##_SALTBYTES);                                                             \
    NAT_PWHASH_NO_ALIAS(out, passwd, salt);                                                  \
    RETURN_OK(p(out, out_len, (const char *) passwd, passwd_len, salt, opslimit,             \
                (size_t) memlimit, (int) alg));                                              \
  }                                                                                          \
                                                                                             \
  static napi_value nat_##p_str(napi_env env, napi_callback_info info) {                     \
    ARGS(4);                                                                                 \
    OUT(out, 0); BUF(passwd, 1);                                                             \
    U64(opslimit, 2, p##_OPSLIMIT_MIN, p##_OPSLIMIT_MAX);                                    \
    U64(memlimit, 3, p##_MEMLIMIT_MIN, p##_MEMLIMIT_MAX);                                    \
    LEN_EQ(out, p##_STRBYTES);                                                               \
    NO_ALIAS(out, passwd);                                                                   \
    RETURN_OK(p_str((char *) out, (const char *) passwd, passwd_len, opslimit,               \
                      (size_t) memlimit));                                                   \
  }                                                                                          \
                                                                                             \
  static napi_value nat_##p_str_verify(napi_env env, napi_callback_info info) {              \
    ARGS(2);                                                                                 \
    BUF(str, 0); BUF(passwd, 1);                                                             \
    LEN_EQ(str, p##_STRBYTES);                                                               \
    NAT_PWHASH_VERIFY(p, p_str_verify, str, passwd);                                         \
  }                                                                                          \
                                                                                             \
  static napi_value nat_##p_str_needs_rehash(napi_env env, napi_callback_info info) {        \
    ARGS(3);                                                                                 \
    BUF(str, 0);                                                                             \
    U64(opslimit, 1, p##_OPSLIMIT_MIN, p##_OPSLIMIT_MAX);                                    \
    U64(memlimit, 2, p##_MEMLIMIT_MIN, p##_MEMLIMIT_MAX);                                    \
    LEN_EQ(str, p##_STRBYTES);                                                               \
    NAT_PWHASH_NEEDS_REHASH(p, p_str_needs_rehash, str, opslimit, memlimit);                 \
  }

NAT_ARGON2(crypto_pwhash, crypto_pwhash_str, crypto_pwhash_str_verify,
           crypto_pwhash_str_needs_rehash, crypto_pwhash_ALG_ARGON2I13,
           crypto_pwhash_ALG_ARGON2ID13)
NAT_ARGON2(crypto_pwhash_argon2i, crypto_pwhash_argon2i_str, crypto_pwhash_argon2i_str_verify,
           crypto_pwhash_argon2i_str_needs_rehash, crypto_pwhash_argon2i_ALG_ARGON2I13,
           crypto_pwhash_argon2i_ALG_ARGON2I13)
NAT_ARGON2(crypto_pwhash_argon2id, crypto_pwhash_argon2id_str, crypto_pwhash_argon2id_str_verify,
           crypto_pwhash_argon2id_str_needs_rehash, crypto_pwhash_argon2id_ALG_ARGON2ID13,
           crypto_pwhash_argon2id_ALG_ARGON2ID13)

/* libsodium's crypto_pwhash_str with an explicit algorithm (sodium-native lacks it). */
static napi_value nat_crypto_pwhash_str_alg(napi_env env, napi_callback_info info) {
  ARGS(5);
  OUT(out, 0); BUF(passwd, 1);
  U64(opslimit, 2, crypto_pwhash_OPSLIMIT_MIN, crypto_pwhash_OPSLIMIT_MAX);
  U64(memlimit, 3, crypto_pwhash_MEMLIMIT_MIN, crypto_pwhash_MEMLIMIT_MAX);
  U32(alg, 4, crypto_pwhash_ALG_ARGON2I13, crypto_pwhash_ALG_ARGON2ID13);
  LEN_EQ(out, crypto_pwhash_STRBYTES);
  NO_ALIAS(out, passwd);
  RETURN_OK(crypto_pwhash_str_alg((char *) out, (const char *) passwd, passwd_len, opslimit,
                                  (size_t) memlimit, (int) alg));
}

/* scrypt. sodium-native refuses an empty passwd in _str and _str_verify (not in the raw hash);
 * the same calls are refused here so both throw in the same cases. */

static napi_value nat_crypto_pwhash_scryptsalsa208sha256(napi_env env, napi_callback_info info) {
  ARGS(5);
  OUT(out, 0); BUF(passwd, 1); BUF(salt, 2);
  U64(opslimit, 3, crypto_pwhash_scryptsalsa208sha256_OPSLIMIT_MIN,
      crypto_pwhash_scryptsalsa208sha256_OPSLIMIT_MAX);
  U64(memlimit, 4, crypto_pwhash_scryptsalsa208sha256_MEMLIMIT_MIN,
      crypto_pwhash_scryptsalsa208sha256_MEMLIMIT_MAX);
  LEN_MIN(out, crypto_pwhash_scryptsalsa208sha256_BYTES_MIN);
  LEN_MAX(out, crypto_pwhash_scryptsalsa208sha256_BYTES_MAX);
  LEN_EQ(salt, crypto_pwhash_scryptsalsa208sha256_SALTBYTES);
  NAT_PWHASH_NO_ALIAS(out, passwd, salt);
  RETURN_OK(crypto_pwhash_scryptsalsa208sha256(out, out_len, (const char *) passwd, passwd_len,
                                               salt, opslimit, (size_t) memlimit));
}

static napi_value nat_crypto_pwhash_scryptsalsa208sha256_str(napi_env env, napi_callback_info info) {
  ARGS(4);
  OUT(out, 0); BUF(passwd, 1);
  U64(opslimit, 2, crypto_pwhash_scryptsalsa208sha256_OPSLIMIT_MIN,
      crypto_pwhash_scryptsalsa208sha256_OPSLIMIT_MAX);
  U64(memlimit, 3, crypto_pwhash_scryptsalsa208sha256_MEMLIMIT_MIN,
      crypto_pwhash_scryptsalsa208sha256_MEMLIMIT_MAX);
  LEN_EQ(out, crypto_pwhash_scryptsalsa208sha256_STRBYTES);
  LEN_MIN(passwd, 1);
  NO_ALIAS(out, passwd);
  RETURN_OK(crypto_pwhash_scryptsalsa208sha256_str((char *) out, (const char *) passwd, passwd_len,
                                                   opslimit, (size_t) memlimit));
}

static napi_value nat_crypto_pwhash_scryptsalsa208sha256_str_verify(napi_env env,
                                                                    napi_callback_info info) {
  ARGS(2);
  BUF(str, 0); BUF(passwd, 1);
  LEN_EQ(str, crypto_pwhash_scryptsalsa208sha256_STRBYTES);
  LEN_MIN(passwd, 1);
  NAT_PWHASH_VERIFY(crypto_pwhash_scryptsalsa208sha256, crypto_pwhash_scryptsalsa208sha256_str_verify,
                    str, passwd);
}

static napi_value nat_crypto_pwhash_scryptsalsa208sha256_str_needs_rehash(napi_env env,
                                                                          napi_callback_info info) {
  ARGS(3);
  BUF(str, 0);
  U64(opslimit, 1, crypto_pwhash_scryptsalsa208sha256_OPSLIMIT_MIN,
      crypto_pwhash_scryptsalsa208sha256_OPSLIMIT_MAX);
  U64(memlimit, 2, crypto_pwhash_scryptsalsa208sha256_MEMLIMIT_MIN,
      crypto_pwhash_scryptsalsa208sha256_MEMLIMIT_MAX);
  LEN_EQ(str, crypto_pwhash_scryptsalsa208sha256_STRBYTES);
  NAT_PWHASH_NEEDS_REHASH(crypto_pwhash_scryptsalsa208sha256,
                          crypto_pwhash_scryptsalsa208sha256_str_needs_rehash, str, opslimit, memlimit);
}

/* libsodium's low-level scrypt with explicit N, r, p and any salt length (sodium-native lacks it).
 * The ranges are those of the C parameter types; libsodium itself refuses N that is not a power
 * of 2 above 1 or past 2^32, r or p of 0, r * p >= 2^30, and memory it cannot allocate. */
static napi_value nat_crypto_pwhash_scryptsalsa208sha256_ll(napi_env env, napi_callback_info info) {
  ARGS(6);
  OUT(buf, 0); BUF(passwd, 1); BUF(salt, 2);
  U64(N, 3, 0, 9007199254740991ULL);
  U32(r, 4, 0, UINT32_MAX);
  U32(p, 5, 0, UINT32_MAX);
  NAT_PWHASH_NO_ALIAS(buf, passwd, salt);
  RETURN_OK(crypto_pwhash_scryptsalsa208sha256_ll(passwd, passwd_len, salt, salt_len, N, r, p, buf,
                                                  buf_len));
}

/* Async variants: the same checks, then the work on copies the job owns (nat_job_* in nat.h):
 * the caller's buffers may change or go away while it runs. As in sodium-native, _str_async and
 * _str_verify_async refuse an empty passwd, and so does scrypt's raw _async. */
typedef struct {
  unsigned char *out;
  size_t out_len;
  const unsigned char *passwd;
  size_t passwd_len;
  const unsigned char *salt;
  unsigned long long opslimit;
  size_t memlimit;
  int alg;
  char *str; /* str_verify: a NUL-terminated copy */
} nat_pwhash_job;

static int nat_pwhash_work(void *ctx) {
  nat_pwhash_job *j = ctx;
  return crypto_pwhash(j->out, j->out_len, (const char *) j->passwd, j->passwd_len, j->salt,
                       j->opslimit, j->memlimit, j->alg);
}

static int nat_pwhash_str_work(void *ctx) {
  nat_pwhash_job *j = ctx;
  return crypto_pwhash_str((char *) j->out, (const char *) j->passwd, j->passwd_len, j->opslimit,
                           j->memlimit);
}

static int nat_pwhash_str_verify_work(void *ctx) {
  nat_pwhash_job *j = ctx;
  return crypto_pwhash_str_verify(j->str, (const char *) j->passwd, j->passwd_len);
}

static int nat_scrypt_work(void *ctx) {
  nat_pwhash_job *j = ctx;
  return crypto_pwhash_scryptsalsa208sha256(j->out, j->out_len, (const char *) j->passwd,
                                            j->passwd_len, j->salt, j->opslimit, j->memlimit);
}

static int nat_scrypt_str_work(void *ctx) {
  nat_pwhash_job *j = ctx;
  return crypto_pwhash_scryptsalsa208sha256_str((char *) j->out, (const char *) j->passwd,
                                                j->passwd_len, j->opslimit, j->memlimit);
}

static int nat_scrypt_str_verify_work(void *ctx) {
  nat_pwhash_job *j = ctx;
  return crypto_pwhash_scryptsalsa208sha256_str_verify(j->str, (const char *) j->passwd,
                                                       j->passwd_len);
}

/* An unterminated str buffer verifies as false without starting any work on it. */
static int nat_invalid_str_work(void *ctx) {
  (void) ctx;
  return -1;
}

/* A job for out (argument 0, may be NULL), passwd and salt (may be NULL); NULL after throwing. */
static nat_pwhash_job *nat_pwhash_job_new(napi_env env, nat_job **job, const char *function_name,
                                          napi_value out_view, size_t out_len,
                                          const unsigned char *passwd, size_t passwd_len,
                                          const unsigned char *salt, size_t salt_len) {
  *job = nat_job_new(env, function_name, sizeof(nat_pwhash_job));
  if (*job == NULL) return NULL;
  nat_pwhash_job *j = nat_job_ctx(*job);
  if (out_view != NULL) j->out = nat_job_out(env, *job, out_view, "out", out_len, out_len);
  j->out_len = out_len;
  j->passwd = nat_job_in(env, *job, passwd, passwd_len);
  j->passwd_len = passwd_len;
  if (salt != NULL) j->salt = nat_job_in(env, *job, salt, salt_len);
  return j;
}

static napi_value nat_crypto_pwhash_async(napi_env env, napi_callback_info info) {
  ARGS(6);
  OUT(out, 0); BUF(passwd, 1); BUF(salt, 2);
  U64(opslimit, 3, crypto_pwhash_OPSLIMIT_MIN, crypto_pwhash_OPSLIMIT_MAX);
  U64(memlimit, 4, crypto_pwhash_MEMLIMIT_MIN, crypto_pwhash_MEMLIMIT_MAX);
  U32(alg, 5, crypto_pwhash_ALG_ARGON2I13, crypto_pwhash_ALG_ARGON2ID13);
  LEN_MIN(out, crypto_pwhash_BYTES_MIN);
  LEN_MAX(out, crypto_pwhash_BYTES_MAX);
  LEN_EQ(salt, crypto_pwhash_SALTBYTES);
  NAT_PWHASH_NO_ALIAS(out, passwd, salt);
  nat_job *job;
  nat_pwhash_job *j = nat_pwhash_job_new(env, &job, "crypto_pwhash_async", argv[0], out_len, passwd,
                                         passwd_len, salt, salt_len);
  if (j == NULL) return NULL;
  j->opslimit = opslimit;
  j->memlimit = (size_t) memlimit;
  j->alg = (int) alg;
  return nat_job_start(env, job, nat_pwhash_work, false, "crypto_pwhash_async failed");
}

static napi_value nat_crypto_pwhash_str_async(napi_env env, napi_callback_info info) {
  ARGS(4);
  OUT(out, 0); BUF(passwd, 1);
  U64(opslimit, 2, crypto_pwhash_OPSLIMIT_MIN, crypto_pwhash_OPSLIMIT_MAX);
  U64(memlimit, 3, crypto_pwhash_MEMLIMIT_MIN, crypto_pwhash_MEMLIMIT_MAX);
  LEN_EQ(out, crypto_pwhash_STRBYTES);
  LEN_MIN(passwd, 1);
  NO_ALIAS(out, passwd);
  nat_job *job;
  nat_pwhash_job *j = nat_pwhash_job_new(env, &job, "crypto_pwhash_str_async", argv[0], out_len,
                                         passwd, passwd_len, NULL, 0);
  if (j == NULL) return NULL;
  j->opslimit = opslimit;
  j->memlimit = (size_t) memlimit;
  return nat_job_start(env, job, nat_pwhash_str_work, false, "crypto_pwhash_str_async failed");
}

static napi_value nat_crypto_pwhash_str_verify_async(napi_env env, napi_callback_info info) {
  ARGS(2);
  BUF(str, 0); BUF(passwd, 1);
  LEN_EQ(str, crypto_pwhash_STRBYTES);
  LEN_MIN(passwd, 1);
  nat_job *job;
  nat_pwhash_job *j = nat_pwhash_job_new(env, &job, "crypto_pwhash_str_verify_async", NULL, 0, passwd,
                                         passwd_len, NULL, 0);
  if (j == NULL) return NULL;
  j->str = (char *) nat_job_in(env, job, str, str_len);
  bool terminated = j->str != NULL && memchr(j->str, 0, str_len) != NULL;
  return nat_job_start(env, job, terminated ? nat_pwhash_str_verify_work : nat_invalid_str_work, true,
                       "crypto_pwhash_str_verify_async failed");
}

static napi_value nat_crypto_pwhash_scryptsalsa208sha256_async(napi_env env,
                                                               napi_callback_info info) {
  ARGS(5);
  OUT(out, 0); BUF(passwd, 1); BUF(salt, 2);
  U64(opslimit, 3, crypto_pwhash_scryptsalsa208sha256_OPSLIMIT_MIN,
      crypto_pwhash_scryptsalsa208sha256_OPSLIMIT_MAX);
  U64(memlimit, 4, crypto_pwhash_scryptsalsa208sha256_MEMLIMIT_MIN,
      crypto_pwhash_scryptsalsa208sha256_MEMLIMIT_MAX);
  LEN_MIN(out, crypto_pwhash_scryptsalsa208sha256_BYTES_MIN);
  LEN_MAX(out, crypto_pwhash_scryptsalsa208sha256_BYTES_MAX);
  LEN_MIN(passwd, 1);
  LEN_EQ(salt, crypto_pwhash_scryptsalsa208sha256_SALTBYTES);
  NAT_PWHASH_NO_ALIAS(out, passwd, salt);
  nat_job *job;
  nat_pwhash_job *j = nat_pwhash_job_new(env, &job, "crypto_pwhash_scryptsalsa208sha256_async", argv[0],
                                         out_len, passwd, passwd_len, salt, salt_len);
  if (j == NULL) return NULL;
  j->opslimit = opslimit;
  j->memlimit = (size_t) memlimit;
  return nat_job_start(env, job, nat_scrypt_work, false,
                       "crypto_pwhash_scryptsalsa208sha256_async failed");
}

static napi_value nat_crypto_pwhash_scryptsalsa208sha256_str_async(napi_env env,
                                                                   napi_callback_info info) {
  ARGS(4);
  OUT(out, 0); BUF(passwd, 1);
  U64(opslimit, 2, crypto_pwhash_scryptsalsa208sha256_OPSLIMIT_MIN,
      crypto_pwhash_scryptsalsa208sha256_OPSLIMIT_MAX);
  U64(memlimit, 3, crypto_pwhash_scryptsalsa208sha256_MEMLIMIT_MIN,
      crypto_pwhash_scryptsalsa208sha256_MEMLIMIT_MAX);
  LEN_EQ(out, crypto_pwhash_scryptsalsa208sha256_STRBYTES);
  LEN_MIN(passwd, 1);
  NO_ALIAS(out, passwd);
  nat_job *job;
  nat_pwhash_job *j = nat_pwhash_job_new(env, &job, "crypto_pwhash_scryptsalsa208sha256_str_async",
                                         argv[0], out_len, passwd, passwd_len, NULL, 0);
  if (j == NULL) return NULL;
  j->opslimit = opslimit;
  j->memlimit = (size_t) memlimit;
  return nat_job_start(env, job, nat_scrypt_str_work, false,
                       "crypto_pwhash_scryptsalsa208sha256_str_async failed");
}

static napi_value nat_crypto_pwhash_scryptsalsa208sha256_str_verify_async(napi_env env,
                                                                          napi_callback_info info) {
  ARGS(2);
  BUF(str, 0); BUF(passwd, 1);
  LEN_EQ(str, crypto_pwhash_scryptsalsa208sha256_STRBYTES);
  LEN_MIN(passwd, 1);
  nat_job *job;
  nat_pwhash_job *j = nat_pwhash_job_new(env, &job, "crypto_pwhash_scryptsalsa208sha256_str_verify_async",
                                         NULL, 0, passwd, passwd_len, NULL, 0);
  if (j == NULL) return NULL;
  j->str = (char *) nat_job_in(env, job, str, str_len);
  bool terminated = j->str != NULL && memchr(j->str, 0, str_len) != NULL;
  return nat_job_start(env, job, terminated ? nat_scrypt_str_verify_work : nat_invalid_str_work, true,
                       "crypto_pwhash_scryptsalsa208sha256_str_verify_async failed");
}

#define NAT_PWHASH_ASYNC                                                                       \
  FN(crypto_pwhash_async), FN(crypto_pwhash_str_async), FN(crypto_pwhash_str_verify_async),    \
    FN(crypto_pwhash_scryptsalsa208sha256_async),                                              \
    FN(crypto_pwhash_scryptsalsa208sha256_str_async),                                          \
    FN(crypto_pwhash_scryptsalsa208sha256_str_verify_async),

NAT_FAMILY(pwhash,
  NAT_PWHASH_ASYNC
  FN(crypto_pwhash), FN(crypto_pwhash_str), FN(crypto_pwhash_str_verify),
  FN(crypto_pwhash_str_needs_rehash),
  FN(crypto_pwhash_str_alg),
  FN(crypto_pwhash_argon2i), FN(crypto_pwhash_argon2i_str), FN(crypto_pwhash_argon2i_str_verify),
  FN(crypto_pwhash_argon2i_str_needs_rehash),
  FN(crypto_pwhash_argon2id), FN(crypto_pwhash_argon2id_str), FN(crypto_pwhash_argon2id_str_verify),
  FN(crypto_pwhash_argon2id_str_needs_rehash),
  /* crypto_pwhash_scryptsalsa208sha256 */
  FN(crypto_pwhash_scryptsalsa208sha256), FN(crypto_pwhash_scryptsalsa208sha256_str),
  FN(crypto_pwhash_scryptsalsa208sha256_str_verify),
  FN(crypto_pwhash_scryptsalsa208sha256_str_needs_rehash),
  FN(crypto_pwhash_scryptsalsa208sha256_ll));

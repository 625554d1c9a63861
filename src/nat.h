/* natrium's Node-API binding: the few macros every family file uses.
 *
 * One short function per libsodium symbol, in this shape:
 *
 *   static napi_value nat_crypto_secretbox_easy(napi_env env, napi_callback_info info) {
 *     ARGS(4);
 *     BUF(c, 0); BUF(m, 1); BUF(n, 2); BUF(k, 3);
 *     LEN_EQ(n, crypto_secretbox_NONCEBYTES);
 *     LEN_EQ(k, crypto_secretbox_KEYBYTES);
 *     LEN_EQ(c, m_len + crypto_secretbox_MACBYTES);
 *     RETURN_OK(crypto_secretbox_easy(c, m, m_len, n, k));
 *   }
 *
 * Declaring macros (ARGS, BUF, OUT, OPT_BUF, OPT_OUT, U32, U64, STATE) declare exactly what they name:
 * ARGS(n) declares `argv` and `outs` (the outputs OUT and OPT_OUT list, which every refusal
 * zeroes); BUF(x, i) and OUT(x, i) declare the pair `x` (unsigned char *) and `x_len` (size_t);
 * U32/U64 declare `x`; STATE(x, i, type) declares `x` (an aligned copy) and `x_buf`. Every
 * statement-like macro is a do { } while (0) that returns NULL after throwing.
 *
 * When libsodium refuses (FAIL_IF, RETURN_OK, REFUSE) or an open answers false (RETURN_BOOL),
 * every output is zeroed first, so a refused call leaves nothing of its work behind (an ephemeral
 * key, a point, a partly decoded input), and a state is written back (STATE_SAVE_IF_OK) only when
 * the call succeeded.
 *
 * The raw contract (both backends, and the sodium-native surface on top of it): libsodium's
 * names; outputs first as in sodium-native; arguments are TypedArrays, numbers or null; results
 * are undefined, a boolean (verify/open) or a number (lengths, counters). Nothing else crosses.
 *
 * Error contract (the wasm backend reproduces these texts exactly; tests compare them):
 *   TypeError  "<x> must be a TypedArray"            (missing, wrong type)
 *   TypeError  "<x> must be a TypedArray or null"    (optional buffers)
 *   TypeError  "<x> is detached"                      (detached ArrayBuffer)
 *   TypeError  "<x> is out of bounds"                 (outside a resizable ArrayBuffer that shrank)
 *   TypeError  "<x> must be a number"                 (numbers)
 *   TypeError  "<x> must be null"                     (NULL_ARG)
 *   RangeError "<x> must be <rule> bytes long"        (LEN_EQ; <rule> is the C spelling)
 *   RangeError "<x> must be at least <rule> bytes long" / "at most"  (LEN_MIN / LEN_MAX)
 *   RangeError "<x> must be an integer between <lo> and <hi>"  (numbers out of range)
 *   RangeError "<x> must not overlap <y>"             (NO_OVERLAP)
 *   RangeError "<x> must be sizeof(<type>) bytes long"  (STATE)
 *   Error      "<message>"                            (FAIL_IF: libsodium refused)
 *   Error      "<function> failed"                    (RETURN_OK: libsodium returned non-zero)
 * libsodium's refusals (the last two, and the *_async rejections) carry err.code ===
 * NAT_REFUSED_CODE, so that a caller (and the main API) tells them from natrium's own failures.
 */
#ifndef NAT_H
#define NAT_H

#define NAT_REFUSED_CODE "ERR_NATRIUM_REFUSED"

#include <sodium.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "nat_pure.h" /* nat_overlap, and what napi_args.c and wasm.c share */

#ifdef NAT_WASM
/* The same family files compile to wasm32 against src/wasm.c, which stands in for Node-API: a
 * "value" is a slot the JS glue filled (TypedArray copied into linear memory, number, null), the
 * result and any error are written back to slots the glue reads. Nothing but the nat_* helpers
 * and macros below may be used in family files outside `#ifndef NAT_WASM` blocks. The helpers
 * that read and write slots are inline, in src/wasm.h. */
#include "wasm.h"
typedef struct {
  const char *utf8name;
  napi_callback method;
} nat_export;
#define FN(name) { #name, nat_##name }
#else
#define NAPI_VERSION 8
#include <node_api.h>
typedef napi_property_descriptor nat_export;
/* Per-environment data (napi_set_instance_data): built-ins captured at load (src/init.c). */
typedef struct {
  napi_ref typedarray_index_of;
  napi_ref dataview_byte_length;
} nat_env;
/* Export table entry: the JS name is the C function name without "nat_". */
#define FN(name) { #name, NULL, nat_##name, NULL, NULL, NULL, napi_enumerable, NULL }
#endif

/* Throwing helpers; each returns NULL so a binding can `return nat_throw_...(...)`. */
napi_value nat_throw_type(napi_env env, const char *name, const char *what);
napi_value nat_throw_range(napi_env env, const char *name, const char *what);
napi_value nat_throw_error(napi_env env, const char *message);
napi_value nat_throw_refused(napi_env env, const char *message);
napi_value nat_throw_failed(napi_env env, const char *binding_name);
#ifndef NAT_WASM
bool nat_get_args(napi_env env, napi_callback_info info, napi_value *argv, size_t n);
bool nat_get_buf(napi_env env, napi_value value, const char *name, bool optional, bool output,
                 unsigned char **data, size_t *len);
bool nat_is_null(napi_env env, napi_value value);
bool nat_is_undefined(napi_env env, napi_value value);
napi_value nat_undefined(napi_env env);
napi_value nat_bool(napi_env env, bool value);
napi_value nat_number(napi_env env, double value);
#endif
bool nat_get_u64(napi_env env, napi_value value, const char *name, uint64_t lo, uint64_t hi,
                 uint64_t *out);

/* The outputs of one call, for the refusal paths to zero. */
#define NAT_MAX_OUTS 4
typedef struct {
  unsigned char *data[NAT_MAX_OUTS];
  size_t len[NAT_MAX_OUTS];
  size_t count;
} nat_outs;

static inline bool nat_outs_add(napi_env env, nat_outs *outs, unsigned char *data, size_t len) {
  if (outs->count == NAT_MAX_OUTS) {
    nat_throw_error(env, "natrium: a binding lists more than NAT_MAX_OUTS outputs");
    return false;
  }
  outs->data[outs->count] = data;
  outs->len[outs->count++] = len;
  return true;
}

static inline void nat_outs_wipe(const nat_outs *outs) {
  for (size_t i = 0; i < outs->count; i++) sodium_memzero(outs->data[i], outs->len[i]);
}

/* Fetch n arguments into `argv`; missing ones read as undefined and fail their own checks. */
#define ARGS(n)                                             \
  napi_value argv[n];                                       \
  nat_outs outs;                                            \
  outs.count = 0;                                           \
  (void) outs;                                              \
  do {                                                      \
    if (!nat_get_args(env, info, argv, n)) return NULL;     \
  } while (0)

/* A TypedArray argument (any element type; the byte view is used): declares x and x_len.
 * BUF is read-only input; OUT is any buffer the function writes (wholly or in part, including
 * in/out buffers), so the wasm glue copies it back. */
#define BUF(x, i)                                                   \
  unsigned char *x;                                                 \
  size_t x##_len;                                                   \
  do {                                                              \
    if (!nat_get_buf(env, argv[i], #x, false, false, &x, &x##_len)) return NULL; \
  } while (0)

#define OUT(x, i)                                                   \
  unsigned char *x;                                                 \
  size_t x##_len;                                                   \
  do {                                                              \
    if (!nat_get_buf(env, argv[i], #x, false, true, &x, &x##_len) || \
        !nat_outs_add(env, &outs, x, x##_len)) return NULL;         \
  } while (0)

/* An argument that must be null (libsodium's unused nsec parameters). */
#define NULL_ARG(x, i)                                                    \
  do {                                                                    \
    if (!nat_is_null(env, argv[i])) return nat_throw_type(env, #x, "must be null"); \
  } while (0)

/* Like BUF, but null or undefined give x == NULL and x_len == 0. */
#define OPT_BUF(x, i)                                              \
  unsigned char *x;                                                \
  size_t x##_len;                                                  \
  do {                                                             \
    if (!nat_get_buf(env, argv[i], #x, true, false, &x, &x##_len)) return NULL; \
  } while (0)

/* Like OUT, but null or undefined give x == NULL and x_len == 0 (crypto_kx's rx/tx). */
#define OPT_OUT(x, i)                                                          \
  unsigned char *x;                                                            \
  size_t x##_len;                                                              \
  do {                                                                         \
    if (!nat_get_buf(env, argv[i], #x, true, true, &x, &x##_len) ||            \
        (x != NULL && !nat_outs_add(env, &outs, x, x##_len))) return NULL;     \
  } while (0)

/* Integer arguments within [lo, hi] (JS numbers; exact up to 2^53). */
#define U64(x, i, lo, hi)                                          \
  uint64_t x;                                                      \
  do {                                                             \
    if (!nat_get_u64(env, argv[i], #x, (lo), (hi), &x)) return NULL; \
  } while (0)

#define U32(x, i, lo, hi)                                            \
  uint32_t x;                                                        \
  do {                                                               \
    uint64_t x##_u64_;                                               \
    if (!nat_get_u64(env, argv[i], #x, (lo), (hi), &x##_u64_)) return NULL; \
    x = (uint32_t) x##_u64_;                                         \
  } while (0)

#define LEN_EQ(x, rule)                                                  \
  do {                                                                   \
    if (x##_len != (size_t) (rule)) return nat_throw_range(env, #x, "must be " #rule " bytes long"); \
  } while (0)

#define LEN_MIN(x, rule)                                                 \
  do {                                                                   \
    if (x##_len < (size_t) (rule)) return nat_throw_range(env, #x, "must be at least " #rule " bytes long"); \
  } while (0)

#define LEN_MAX(x, rule)                                                 \
  do {                                                                   \
    if (x##_len > (size_t) (rule)) return nat_throw_range(env, #x, "must be at most " #rule " bytes long"); \
  } while (0)

/* Where libsodium forbids partial overlap of two buffers: NO_OVERLAP allows exact aliasing (x == y,
 * which libsodium supports for in-place encryption), NO_ALIAS forbids any shared byte. */
#define NO_OVERLAP(x, y)                                                            \
  do {                                                                              \
    if (x != y && nat_overlap(x, x##_len, y, y##_len)) return nat_throw_range(env, #x, "must not overlap " #y); \
  } while (0)

#define NO_ALIAS(x, y)                                                              \
  do {                                                                              \
    if (nat_overlap(x, x##_len, y, y##_len)) return nat_throw_range(env, #x, "must not overlap " #y); \
  } while (0)

/* A state buffer of exactly sizeof(type) bytes, copied into an aligned local `x` (libsodium's
 * states need 16- or 64-byte alignment that a JS buffer does not promise). STATE_SAVE writes it
 * back; every path that changed the state must call it before returning. */
#define STATE(x, i, type)                                                \
  type x;                                                                \
  unsigned char *x##_buf;                                                \
  do {                                                                   \
    size_t x##_len;                                                      \
    if (!nat_get_buf(env, argv[i], #x, false, true, &x##_buf, &x##_len)) return NULL; \
    if (x##_len != sizeof(type)) return nat_throw_range(env, #x, "must be sizeof(" #type ") bytes long"); \
    memcpy(&x, x##_buf, sizeof(type));                                   \
  } while (0)

#define STATE_SAVE(x)                        \
  do {                                       \
    memcpy(x##_buf, &x, sizeof x);           \
    sodium_memzero(&x, sizeof x);            \
  } while (0)

/* The same when the call may be refused: the caller's state changes only if rc is 0. */
#define STATE_SAVE_IF_OK(x, rc)                   \
  do {                                            \
    if ((rc) == 0) memcpy(x##_buf, &x, sizeof x); \
    sodium_memzero(&x, sizeof x);                 \
  } while (0)

/* An output y written while state x is used must not share a byte with x's buffer: the state is
 * worked on in a copy and written back by STATE_SAVE, over the output. */
#define STATE_APART(x, y)                                                                          \
  do {                                                                                             \
    if (nat_overlap(y, y##_len, x##_buf, sizeof x)) return nat_throw_range(env, #y, "must not overlap " #x); \
  } while (0)

/* A state stamped with what made it (src/auth.c's Poly1305, src/aead.c's AES-256-GCM): its last
 * 4 bytes, which the implementation leaves alone, hold `stamp`; a state without it is refused. */
static inline void nat_stamp_put(void *state, size_t size, const unsigned char stamp[4]) {
  memcpy((unsigned char *) state + size - 4, stamp, 4);
}

static inline bool nat_stamp_is(const void *state, size_t size, const unsigned char stamp[4]) {
  return memcmp((const unsigned char *) state + size - 4, stamp, 4) == 0;
}

/* libsodium refused: zero every output, throw Error(message) with code NAT_REFUSED_CODE. */
#define REFUSE(message)                       \
  do {                                        \
    nat_outs_wipe(&outs);                     \
    return nat_throw_refused(env, message);   \
  } while (0)

/* libsodium returned non-zero where that is not an expected answer: REFUSE(message). */
#define FAIL_IF(cond, message)                \
  do {                                        \
    if (cond) REFUSE(message);                \
  } while (0)

/* Return rules. RETURN_OK: 0 -> undefined, else the outputs zeroed and an Error naming the
 * function. RETURN_BOOL: 0 -> true (verify/open style), anything else -> false with the outputs
 * zeroed (an open that fails leaves no bytes in m, whatever libsodium did). */
#define RETURN_OK(call)                                              \
  do {                                                               \
    if ((call) != 0) {                                               \
      nat_outs_wipe(&outs);                                          \
      return nat_throw_failed(env, __func__);                        \
    }                                                                \
    return nat_undefined(env);                                       \
  } while (0)

#define RETURN_BOOL(call)                       \
  do {                                          \
    bool ok_ = (call) == 0;                     \
    if (!ok_) nat_outs_wipe(&outs);             \
    return nat_bool(env, ok_);                  \
  } while (0)

/* A Node-API call failed: throw its own error text unless an exception is already pending. */
napi_value nat_throw_napi(napi_env env);

/* The *_async functions: the same checks as the synchronous function, then
 *
 *   nat_job *job = nat_job_new(env, "crypto_pwhash_async", sizeof(my_ctx));
 *   my_ctx *ctx = nat_job_ctx(job);
 *   ctx->passwd = nat_job_in(env, job, passwd, passwd_len);   a copy the job owns
 *   ctx->out = nat_job_out(env, job, argv[0], "out", out_len, n);  n bytes of job memory for the
 *                                                     first n bytes of the view argv[0]
 *   return nat_job_start(env, job, work, as_bool, "crypto_pwhash_async failed");
 *
 * work(ctx) reads and writes only job memory. Native: it runs on libuv's thread pool, and on the
 * main thread afterwards each output is copied into its view if the view still has its length
 * (view_len)
 * (else the Promise rejects naming it, and no output is written). The Promise resolves with
 * undefined when work returns 0 (or, when as_bool, with work() == 0), else rejects with
 * Error(fail). Wasm: work runs at once on the call's own copies and the glue settles the Promise.
 * nat_job_in/nat_job_out give NULL when out of memory; nat_job_start then throws and frees. */
typedef int (*nat_work_fn)(void *ctx);
typedef struct nat_job nat_job;
nat_job *nat_job_new(napi_env env, const char *function_name, size_t ctx_size);
void *nat_job_ctx(nat_job *job);
unsigned char *nat_job_in(napi_env env, nat_job *job, const unsigned char *data, size_t len);
unsigned char *nat_job_out(napi_env env, nat_job *job, napi_value view, const char *name, size_t view_len,
                           size_t len);
napi_value nat_job_start(napi_env env, nat_job *job, nat_work_fn work, bool as_bool, const char *fail);

/* keypair(pk, sk) and seed_keypair(pk, sk, seed), named in full (p_keypair, p_seed_keypair), for
 * a primitive p with p_PUBLICKEYBYTES, p_SECRETKEYBYTES and p_SEEDBYTES (box, kx, sign, kem).
 * seed_checks: NAT_SEED_APART where libsodium writes an output before it has read all of seed,
 * else nothing. */
#define NAT_KEYPAIRS(p, keypair, seed_keypair, seed_checks)                               \
  static napi_value nat_##keypair(napi_env env, napi_callback_info info) {                \
    ARGS(2);                                                                              \
    OUT(pk, 0); OUT(sk, 1);                                                               \
    LEN_EQ(pk, p##_PUBLICKEYBYTES);                                                       \
    LEN_EQ(sk, p##_SECRETKEYBYTES);                                                       \
    NO_ALIAS(pk, sk);                                                                     \
    RETURN_OK(keypair(pk, sk));                                                           \
  }                                                                                       \
                                                                                          \
  static napi_value nat_##seed_keypair(napi_env env, napi_callback_info info) {           \
    ARGS(3);                                                                              \
    OUT(pk, 0); OUT(sk, 1); BUF(seed, 2);                                                 \
    LEN_EQ(pk, p##_PUBLICKEYBYTES);                                                       \
    LEN_EQ(sk, p##_SECRETKEYBYTES);                                                       \
    LEN_EQ(seed, p##_SEEDBYTES);                                                          \
    NO_ALIAS(pk, sk);                                                                     \
    seed_checks                                                                           \
    RETURN_OK(seed_keypair(pk, sk, seed));                                                \
  }

#define NAT_SEED_APART NO_ALIAS(sk, seed); NO_ALIAS(pk, seed);

/* Each family file ends with NAT_FAMILY(name, FN(a), FN(b), ...): its export table, which
 * src/init.c (native) or src/wasm.c (wasm) registers. */
typedef struct nat_family {
  const nat_export *fns;
  size_t count;
} nat_family;

#define NAT_FAMILY(family, ...)                                         \
  static const nat_export nat_##family##_fns[] = {__VA_ARGS__};         \
  const nat_family nat_family_##family = {                              \
    nat_##family##_fns, sizeof nat_##family##_fns / sizeof nat_##family##_fns[0]}

#endif

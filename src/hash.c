/* crypto_generichash (BLAKE2b), crypto_hash (SHA-2, SHA-3), crypto_xof (SHAKE, TurboSHAKE) and
 * crypto_shorthash (SipHash).
 *
 * Every function here reads all of its input before it writes its output, so out may overlap in
 * (libsodium allows it; no overlap checks). Streaming states live in caller-held buffers. */
#include "nat.h"
#include "blake2b.h"
#include "sha2.h"
#include "sha3.h"

/* BLAKE2b: our code (src/crypto/blake2b*.c, libsodium's state layout, so the checks below hold):
 * natively AVX2 or scalar C, whichever this CPU runs faster; scalar C on wasm32. */
#define NAT_BLAKE2B(f) nat_blake2b##f

/* A state buffer comes from JS and may hold anything: never initialised, reused, overwritten.
 * libsodium trusts the position fields of its BLAKE2b and Keccak states; a wild one makes it read
 * or write outside the state, and SHA-3's zeroed state (rate 0) makes update loop forever. So the
 * fields that index memory are bounded before every call that reads them. The offsets mirror
 * libsodium 1.0.22's private layouts: blake2b_state (blake2.h, packed: h[8], t[2], f[2],
 * buf[256], size_t buflen), sha3_state_internal (hash_sha3.c) and the SHAKE/TurboSHAKE
 * <name>_state_internal (ref/<name>_ref.h): a Keccak state, then size_t offset, then the rest.
 * test/hash.test.js pins these offsets, so a libsodium upgrade that moves them fails there. */
#define NAT_BLAKE2B_BUFLEN_AT (8 * (8 + 2 + 2) + 2 * 128)
#define NAT_KECCAK_OFFSET_AT sizeof(crypto_core_keccak1600_state)

static size_t nat_size_at(const void *state, size_t at) {
  size_t v;
  memcpy(&v, (const unsigned char *) state + at, sizeof v);
  return v;
}

static bool nat_blake2b_ok(const void *state) {
  return nat_size_at(state, NAT_BLAKE2B_BUFLEN_AT) <= 2 * 128;
}

/* SHAKE/TurboSHAKE: offset within the rate (BLOCKBYTES), phase absorbing (0) or squeezing (1). */
static bool nat_xof_ok(const void *state, size_t rate) {
  const unsigned char *phase =
    (const unsigned char *) state + NAT_KECCAK_OFFSET_AT + sizeof(size_t);
  return nat_size_at(state, NAT_KECCAK_OFFSET_AT) <= rate && *phase <= 1;
}

/* SHA3-256/512: offset, rate, outlen, phase. FIPS 202: rate = 200 - 2 * digest bytes. */
static bool nat_sha3_ok(const void *state, size_t outlen) {
  const size_t at = NAT_KECCAK_OFFSET_AT;
  const size_t rate = 200 - 2 * outlen;
  const unsigned char *phase = (const unsigned char *) state + at + 3 * sizeof(size_t);
  return nat_size_at(state, at) <= rate && nat_size_at(state, at + sizeof(size_t)) == rate &&
         nat_size_at(state, at + 2 * sizeof(size_t)) == outlen && *phase <= 1;
}

/* BLAKE2b, SHA-3 and SHAKE/TurboSHAKE states keep size_t fields (BLAKE2b: buflen, then
 * last_node; after the Keccak state, SHA-3: offset, rate, outlen, then phase; the XOFs: offset,
 * then phase and domain): 8 bytes each in 64-bit builds, 4 on wasm32. A caller's buffer always
 * holds the 64-bit layout, the one native libsodium (and sodium-native) writes, so that a state
 * moves between the backends with the same bytes and meaning: the wasm build converts the fields
 * of its local copy on the way in (load: a field too large for its size_t is an invalid state)
 * and back on the way out (store). nwords size_t fields at `at`, then ntail bytes. */
#ifdef NAT_WASM
static bool nat_state_load(void *state, size_t at, size_t nwords, size_t ntail) {
  unsigned char *p = (unsigned char *) state + at;
  uint64_t words[3];
  unsigned char tail[2];
  memcpy(words, p, nwords * sizeof words[0]);
  memcpy(tail, p + nwords * sizeof words[0], ntail);
  for (size_t i = 0; i < nwords; i++) {
    if (words[i] > SIZE_MAX) return false;
    size_t v = (size_t) words[i];
    memcpy(p + i * sizeof v, &v, sizeof v);
  }
  memcpy(p + nwords * sizeof(size_t), tail, ntail);
  return true;
}

static void nat_state_store(void *state, size_t at, size_t nwords, size_t ntail) {
  unsigned char *p = (unsigned char *) state + at;
  size_t fields[3];
  unsigned char tail[2];
  memcpy(fields, p, nwords * sizeof fields[0]);
  memcpy(tail, p + nwords * sizeof fields[0], ntail);
  for (size_t i = 0; i < nwords; i++) {
    uint64_t v = fields[i];
    memcpy(p + i * sizeof v, &v, sizeof v);
  }
  memcpy(p + nwords * sizeof(uint64_t), tail, ntail);
}
#else
#define nat_state_load(state, at, nwords, ntail) true
#define nat_state_store(state, at, nwords, ntail) ((void) 0)
#endif
#define nat_keccak_load(state, nwords, ntail) nat_state_load(state, NAT_KECCAK_OFFSET_AT, nwords, ntail)
#define nat_keccak_store(state, nwords, ntail) nat_state_store(state, NAT_KECCAK_OFFSET_AT, nwords, ntail)
#define nat_blake2b_load(state) nat_state_load(state, NAT_BLAKE2B_BUFLEN_AT, 1, 1)
#define nat_blake2b_store(state) nat_state_store(state, NAT_BLAKE2B_BUFLEN_AT, 1, 1)
#define nat_crypto_generichash_load(state) nat_blake2b_load(state)
#define nat_crypto_generichash_blake2b_load(state) nat_blake2b_load(state)
#define nat_crypto_hash_sha256_load(state) true
#define nat_crypto_hash_sha512_load(state) true
#define nat_crypto_hash_sha3256_load(state) nat_keccak_load(state, 3, 1)
#define nat_crypto_hash_sha3512_load(state) nat_keccak_load(state, 3, 1)
#define nat_crypto_hash_sha256_store(state) ((void) 0)
#define nat_crypto_hash_sha512_store(state) ((void) 0)
#define nat_crypto_hash_sha3256_store(state) nat_keccak_store(state, 3, 1)
#define nat_crypto_hash_sha3512_store(state) nat_keccak_store(state, 3, 1)
#define nat_xof_load(state) nat_keccak_load(state, 1, 2)
#define nat_xof_store(state) nat_keccak_store(state, 1, 2)

/* SHA-256/512 index their buffers with the byte count masked to the block size: any bytes are
 * safe (if meaningless). */
#define nat_crypto_hash_sha256_ok(state) true
#define nat_crypto_hash_sha512_ok(state) true
#define nat_crypto_hash_sha3256_ok(state) nat_sha3_ok(state, crypto_hash_sha3256_BYTES)
#define nat_crypto_hash_sha3512_ok(state) nat_sha3_ok(state, crypto_hash_sha3512_BYTES)
#define nat_crypto_generichash_ok(state) nat_blake2b_ok(state)
#define nat_crypto_generichash_blake2b_ok(state) nat_blake2b_ok(state)

#define NAT_KEYGEN(p, keygen)                                                              \
  static napi_value nat_##keygen(napi_env env, napi_callback_info info) {                  \
    ARGS(1);                                                                               \
    OUT(k, 0);                                                                             \
    LEN_EQ(k, p##_KEYBYTES);                                                               \
    keygen(k);                                                                             \
    return nat_undefined(env);                                                             \
  }

/* crypto_generichash: sodium-native checks the one-shot's lengths against BYTES_MIN and
 * KEYBYTES_MIN; its init and final, like libsodium itself, accept any output length from 1 and
 * any key length up to the maximum (an empty key means no key). The blake2b-named functions are
 * libsodium's own, with libsodium's ranges. */
static napi_value nat_crypto_generichash(napi_env env, napi_callback_info info) {
  ARGS(3);
  OUT(out, 0); BUF(in, 1); OPT_BUF(key, 2);
  LEN_MIN(out, crypto_generichash_BYTES_MIN);
  LEN_MAX(out, crypto_generichash_BYTES_MAX);
  if (key != NULL) {
    LEN_MIN(key, crypto_generichash_KEYBYTES_MIN);
    LEN_MAX(key, crypto_generichash_KEYBYTES_MAX);
  }
  RETURN_OK(NAT_BLAKE2B()(out, out_len, in, in_len, key, key_len));
}

static napi_value nat_crypto_generichash_blake2b(napi_env env, napi_callback_info info) {
  ARGS(3);
  OUT(out, 0); BUF(in, 1); OPT_BUF(key, 2);
  LEN_MIN(out, 1);
  LEN_MAX(out, crypto_generichash_blake2b_BYTES_MAX);
  LEN_MAX(key, crypto_generichash_blake2b_KEYBYTES_MAX);
  RETURN_OK(NAT_BLAKE2B()(out, out_len, in, in_len, key, key_len));
}

/* salt and personal may be null (libsodium then uses zeros). */
static napi_value nat_crypto_generichash_blake2b_salt_personal(napi_env env,
                                                               napi_callback_info info) {
  ARGS(5);
  OUT(out, 0); BUF(in, 1); OPT_BUF(key, 2); OPT_BUF(salt, 3); OPT_BUF(personal, 4);
  LEN_MIN(out, 1);
  LEN_MAX(out, crypto_generichash_blake2b_BYTES_MAX);
  LEN_MAX(key, crypto_generichash_blake2b_KEYBYTES_MAX);
  if (salt != NULL) LEN_EQ(salt, crypto_generichash_blake2b_SALTBYTES);
  if (personal != NULL) LEN_EQ(personal, crypto_generichash_blake2b_PERSONALBYTES);
  RETURN_OK(NAT_BLAKE2B(_salt_personal)(out, out_len, in, in_len, key, key_len, salt, personal));
}

static napi_value nat_crypto_generichash_blake2b_init_salt_personal(napi_env env,
                                                                    napi_callback_info info) {
  ARGS(5);
  STATE(state, 0, crypto_generichash_blake2b_state);
  OPT_BUF(key, 1);
  U32(outlen, 2, 1, crypto_generichash_blake2b_BYTES_MAX);
  OPT_BUF(salt, 3); OPT_BUF(personal, 4);
  LEN_MAX(key, crypto_generichash_blake2b_KEYBYTES_MAX);
  if (salt != NULL) LEN_EQ(salt, crypto_generichash_blake2b_SALTBYTES);
  if (personal != NULL) LEN_EQ(personal, crypto_generichash_blake2b_PERSONALBYTES);
  int rc = NAT_BLAKE2B(_init_salt_personal)(&state, key, key_len, outlen, salt, personal);
  nat_blake2b_store(&state);
  STATE_SAVE_IF_OK(state, rc);
  RETURN_OK(rc);
}

/* A second final finds the last-block flag set and fails without writing anything. */
#define NAT_GENERICHASH_STREAM(p, init, update, final)                                     \
  static napi_value nat_##init(napi_env env, napi_callback_info info) {                    \
    ARGS(3);                                                                               \
    STATE(state, 0, p##_state);                                                            \
    OPT_BUF(key, 1);                                                                       \
    U32(outlen, 2, 1, p##_BYTES_MAX);                                                      \
    LEN_MAX(key, p##_KEYBYTES_MAX);                                                        \
    int rc = NAT_BLAKE2B(_init)(&state, key, key_len, outlen);                             \
    nat_blake2b_store(&state);                                                             \
    STATE_SAVE_IF_OK(state, rc);                                                           \
    RETURN_OK(rc);                                                                         \
  }                                                                                        \
                                                                                           \
  static napi_value nat_##update(napi_env env, napi_callback_info info) {                  \
    ARGS(2);                                                                               \
    STATE(state, 0, p##_state);                                                            \
    BUF(in, 1);                                                                            \
    FAIL_IF(!nat_##p##_load(&state) || !nat_##p##_ok(&state), "invalid state");            \
    int rc = NAT_BLAKE2B(_update)(&state, in, in_len);                                     \
    nat_blake2b_store(&state);                                                             \
    STATE_SAVE_IF_OK(state, rc);                                                           \
    RETURN_OK(rc);                                                                         \
  }                                                                                        \
                                                                                           \
  static napi_value nat_##final(napi_env env, napi_callback_info info) {                   \
    ARGS(2);                                                                               \
    STATE(state, 0, p##_state);                                                            \
    OUT(out, 1);                                                                           \
    STATE_APART(state, out);                                                               \
    LEN_MIN(out, 1);                                                                       \
    LEN_MAX(out, p##_BYTES_MAX);                                                           \
    FAIL_IF(!nat_##p##_load(&state) || !nat_##p##_ok(&state), "invalid state");            \
    int rc = NAT_BLAKE2B(_final)(&state, out, out_len);                                    \
    nat_blake2b_store(&state);                                                             \
    STATE_SAVE_IF_OK(state, rc);                                                           \
    RETURN_OK(rc);                                                                         \
  }

NAT_KEYGEN(crypto_generichash, crypto_generichash_keygen)
NAT_KEYGEN(crypto_generichash_blake2b, crypto_generichash_blake2b_keygen)
NAT_GENERICHASH_STREAM(crypto_generichash, crypto_generichash_init, crypto_generichash_update,
                       crypto_generichash_final)
NAT_GENERICHASH_STREAM(crypto_generichash_blake2b, crypto_generichash_blake2b_init,
                       crypto_generichash_blake2b_update, crypto_generichash_blake2b_final)

/* crypto_hash: SHA-512 one-shot, and SHA-256, SHA-512, SHA3-256, SHA3-512 with streaming.
 * NAT_HASH(p, impl, ...) binds p* (named in full) to impl*: our faster SHA-2 and SHA-3
 * (src/crypto/sha2.c, sha3.c), with libsodium's state layout and answers. SHA-3's final on a
 * finished state fails (libsodium would still permute the state and write out; here the state is
 * left as it was and out zeroed, as for every refusal). */
static napi_value nat_crypto_hash(napi_env env, napi_callback_info info) {
  ARGS(2);
  OUT(out, 0); BUF(in, 1);
  LEN_EQ(out, crypto_hash_BYTES);
  RETURN_OK(nat_sha512(out, in, in_len));
}

#define NAT_HASH(p, impl, init, update, final)                                             \
  static napi_value nat_##p(napi_env env, napi_callback_info info) {                       \
    ARGS(2);                                                                               \
    OUT(out, 0); BUF(in, 1);                                                               \
    LEN_EQ(out, p##_BYTES);                                                                \
    RETURN_OK(impl(out, in, in_len));                                                      \
  }                                                                                        \
                                                                                           \
  static napi_value nat_##init(napi_env env, napi_callback_info info) {                    \
    ARGS(1);                                                                               \
    STATE(state, 0, p##_state);                                                            \
    int rc = impl##_init(&state);                                                          \
    nat_##p##_store(&state);                                                               \
    STATE_SAVE_IF_OK(state, rc);                                                           \
    RETURN_OK(rc);                                                                         \
  }                                                                                        \
                                                                                           \
  static napi_value nat_##update(napi_env env, napi_callback_info info) {                  \
    ARGS(2);                                                                               \
    STATE(state, 0, p##_state);                                                            \
    BUF(in, 1);                                                                            \
    FAIL_IF(!nat_##p##_load(&state) || !nat_##p##_ok(&state), "invalid state");            \
    int rc = impl##_update(&state, in, in_len);                                            \
    nat_##p##_store(&state);                                                               \
    STATE_SAVE_IF_OK(state, rc);                                                           \
    RETURN_OK(rc);                                                                         \
  }                                                                                        \
                                                                                           \
  static napi_value nat_##final(napi_env env, napi_callback_info info) {                   \
    ARGS(2);                                                                               \
    STATE(state, 0, p##_state);                                                            \
    OUT(out, 1);                                                                           \
    STATE_APART(state, out);                                                               \
    LEN_EQ(out, p##_BYTES);                                                                \
    FAIL_IF(!nat_##p##_load(&state) || !nat_##p##_ok(&state), "invalid state");            \
    int rc = impl##_final(&state, out);                                                    \
    nat_##p##_store(&state);                                                               \
    STATE_SAVE_IF_OK(state, rc);                                                           \
    RETURN_OK(rc);                                                                         \
  }

NAT_HASH(crypto_hash_sha256, nat_sha256, crypto_hash_sha256_init, crypto_hash_sha256_update,
         crypto_hash_sha256_final)
NAT_HASH(crypto_hash_sha512, nat_sha512, crypto_hash_sha512_init, crypto_hash_sha512_update,
         crypto_hash_sha512_final)
NAT_HASH(crypto_hash_sha3256, nat_sha3256, crypto_hash_sha3256_init, crypto_hash_sha3256_update,
         crypto_hash_sha3256_final)
NAT_HASH(crypto_hash_sha3512, nat_sha3512, crypto_hash_sha3512_init, crypto_hash_sha3512_update,
         crypto_hash_sha3512_final)

/* crypto_xof: the output length is out's length. Domain bytes span libsodium's unsigned char
 * except 0, which drops the padding's first 1 bit and makes M and M || 0x00 collide (RFC 9861
 * restricts TurboSHAKE further, to 0x01..0x7F; libsodium's own tests use 0x99). An update after
 * a squeeze fails and leaves the state as it was (libsodium would move it back to absorbing):
 * the next squeeze continues the stream, so output never repeats either way. */
#define NAT_XOF(p, impl, init, init_with_domain, update, squeeze)                          \
  static napi_value nat_##p(napi_env env, napi_callback_info info) {                       \
    ARGS(2);                                                                               \
    OUT(out, 0); BUF(in, 1);                                                               \
    RETURN_OK(impl(out, out_len, in, in_len));                                             \
  }                                                                                        \
                                                                                           \
  static napi_value nat_##init(napi_env env, napi_callback_info info) {                    \
    ARGS(1);                                                                               \
    STATE(state, 0, p##_state);                                                            \
    int rc = impl##_init(&state);                                                          \
    nat_xof_store(&state);                                                                 \
    STATE_SAVE_IF_OK(state, rc);                                                           \
    RETURN_OK(rc);                                                                         \
  }                                                                                        \
                                                                                           \
  static napi_value nat_##init_with_domain(napi_env env,                                   \
                                                             napi_callback_info info) {    \
    ARGS(2);                                                                               \
    STATE(state, 0, p##_state);                                                            \
    U32(domain, 1, 1, 255);                                                                \
    int rc = impl##_init_with_domain(&state, (unsigned char) domain);                      \
    nat_xof_store(&state);                                                                 \
    STATE_SAVE_IF_OK(state, rc);                                                           \
    RETURN_OK(rc);                                                                         \
  }                                                                                        \
                                                                                           \
  static napi_value nat_##update(napi_env env, napi_callback_info info) {                  \
    ARGS(2);                                                                               \
    STATE(state, 0, p##_state);                                                            \
    BUF(in, 1);                                                                            \
    FAIL_IF(!nat_xof_load(&state) || !nat_xof_ok(&state, p##_BLOCKBYTES), "invalid state"); \
    int rc = impl##_update(&state, in, in_len);                                            \
    nat_xof_store(&state);                                                                 \
    STATE_SAVE_IF_OK(state, rc);                                                           \
    RETURN_OK(rc);                                                                         \
  }                                                                                        \
                                                                                           \
  static napi_value nat_##squeeze(napi_env env, napi_callback_info info) {                 \
    ARGS(2);                                                                               \
    STATE(state, 0, p##_state);                                                            \
    OUT(out, 1);                                                                           \
    STATE_APART(state, out);                                                               \
    FAIL_IF(!nat_xof_load(&state) || !nat_xof_ok(&state, p##_BLOCKBYTES), "invalid state"); \
    int rc = impl##_squeeze(&state, out, out_len);                                         \
    nat_xof_store(&state);                                                                 \
    STATE_SAVE_IF_OK(state, rc);                                                           \
    RETURN_OK(rc);                                                                         \
  }

NAT_XOF(crypto_xof_shake128, nat_shake128, crypto_xof_shake128_init,
        crypto_xof_shake128_init_with_domain, crypto_xof_shake128_update,
        crypto_xof_shake128_squeeze)
NAT_XOF(crypto_xof_shake256, nat_shake256, crypto_xof_shake256_init,
        crypto_xof_shake256_init_with_domain, crypto_xof_shake256_update,
        crypto_xof_shake256_squeeze)
NAT_XOF(crypto_xof_turboshake128, nat_turboshake128, crypto_xof_turboshake128_init,
        crypto_xof_turboshake128_init_with_domain, crypto_xof_turboshake128_update,
        crypto_xof_turboshake128_squeeze)
NAT_XOF(crypto_xof_turboshake256, nat_turboshake256, crypto_xof_turboshake256_init,
        crypto_xof_turboshake256_init_with_domain, crypto_xof_turboshake256_update,
        crypto_xof_turboshake256_squeeze)

/* crypto_shorthash: SipHash-2-4 (64-bit output) and SipHashx-2-4 (128-bit output). */
#define NAT_SHORTHASH(p)                                                       \
  static napi_value nat_##p(napi_env env, napi_callback_info info) {           \
    ARGS(3);                                                                   \
    OUT(out, 0); BUF(in, 1); BUF(k, 2);                                        \
    LEN_EQ(out, p##_BYTES);                                                    \
    LEN_EQ(k, p##_KEYBYTES);                                                   \
    RETURN_OK(p(out, in, in_len, k));                                          \
  }

NAT_SHORTHASH(crypto_shorthash)
NAT_SHORTHASH(crypto_shorthash_siphash24)
NAT_SHORTHASH(crypto_shorthash_siphashx24)
NAT_KEYGEN(crypto_shorthash, crypto_shorthash_keygen)


NAT_FAMILY(hash,
  /* crypto_generichash */
  FN(crypto_generichash), FN(crypto_generichash_keygen), FN(crypto_generichash_init),
  FN(crypto_generichash_update), FN(crypto_generichash_final),
  FN(crypto_generichash_blake2b), FN(crypto_generichash_blake2b_keygen),
  FN(crypto_generichash_blake2b_init), FN(crypto_generichash_blake2b_update),
  FN(crypto_generichash_blake2b_final),
  FN(crypto_generichash_blake2b_salt_personal),
  FN(crypto_generichash_blake2b_init_salt_personal),
  /* crypto_hash */
  FN(crypto_hash),
  FN(crypto_hash_sha256), FN(crypto_hash_sha256_init), FN(crypto_hash_sha256_update),
  FN(crypto_hash_sha256_final),
  FN(crypto_hash_sha512), FN(crypto_hash_sha512_init), FN(crypto_hash_sha512_update),
  FN(crypto_hash_sha512_final),
  FN(crypto_hash_sha3256), FN(crypto_hash_sha3256_init), FN(crypto_hash_sha3256_update),
  FN(crypto_hash_sha3256_final),
  FN(crypto_hash_sha3512), FN(crypto_hash_sha3512_init), FN(crypto_hash_sha3512_update),
  FN(crypto_hash_sha3512_final),
  /* crypto_xof */
  FN(crypto_xof_shake128), FN(crypto_xof_shake128_init), FN(crypto_xof_shake128_init_with_domain),
  FN(crypto_xof_shake128_update), FN(crypto_xof_shake128_squeeze),
  FN(crypto_xof_shake256), FN(crypto_xof_shake256_init), FN(crypto_xof_shake256_init_with_domain),
  FN(crypto_xof_shake256_update), FN(crypto_xof_shake256_squeeze),
  FN(crypto_xof_turboshake128), FN(crypto_xof_turboshake128_init),
  FN(crypto_xof_turboshake128_init_with_domain), FN(crypto_xof_turboshake128_update),
  FN(crypto_xof_turboshake128_squeeze),
  FN(crypto_xof_turboshake256), FN(crypto_xof_turboshake256_init),
  FN(crypto_xof_turboshake256_init_with_domain), FN(crypto_xof_turboshake256_update),
  FN(crypto_xof_turboshake256_squeeze),
  /* crypto_shorthash */
  FN(crypto_shorthash),
  FN(crypto_shorthash_keygen),
  FN(crypto_shorthash_siphash24),
  FN(crypto_shorthash_siphashx24));

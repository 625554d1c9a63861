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

#define NAT_KEYGEN(prim)                                                                   \
  static napi_value nat_crypto_##prim##_keygen(napi_env env, napi_callback_info info) {    \
    ARGS(1);                                                                               \
    OUT(k, 0);                                                                             \
    LEN_EQ(k, crypto_##prim##_KEYBYTES);                                                   \
    crypto_##prim##_keygen(k);                                                             \
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
#define NAT_GENERICHASH_STREAM(prim)                                                       \
  static napi_value nat_crypto_##prim##_init(napi_env env, napi_callback_info info) {      \
    ARGS(3);                                                                               \
    STATE(state, 0, crypto_##prim##_state);                                                \
    OPT_BUF(key, 1);                                                                       \
    U32(outlen, 2, 1, crypto_##prim##_BYTES_MAX);                                          \
    LEN_MAX(key, crypto_##prim##_KEYBYTES_MAX);                                            \
    int rc = NAT_BLAKE2B(_init)(&state, key, key_len, outlen);                             \
    nat_blake2b_store(&state);                                                             \
    STATE_SAVE_IF_OK(state, rc);                                                           \
    RETURN_OK(rc);                                                                         \
  }                                                                                        \
                                                                                           \
  static napi_value nat_crypto_##prim##_update(napi_env env, napi_callback_info info) {    \
    ARGS(2);                                                                               \
    STATE(state, 0, crypto_##prim##_state);                                                \
    BUF(in, 1);                                                                            \
    FAIL_IF(!nat_crypto_##prim##_load(&state) || !nat_crypto_##prim##_ok(&state), "invalid state"); \
    int rc = NAT_BLAKE2B(_update)(&state, in, in_len);                                     \
    nat_blake2b_store(&state);                                                             \
    STATE_SAVE_IF_OK(state, rc);                                                           \
    RETURN_OK(rc);                                                                         \
  }                                                                                        \
                                                                                           \
  static napi_value nat_crypto_##prim##_final(napi_env env, napi_callback_info info) {     \
    ARGS(2);                                                                               \
    STATE(state, 0, crypto_##prim##_state);                                                \
    OUT(out, 1);                                                                           \
    STATE_APART(state, out);                                                               \
    LEN_MIN(out, 1);                                                                       \
    LEN_MAX(out, crypto_##prim##_BYTES_MAX);                                               \
    FAIL_IF(!nat_crypto_##prim##_load(&state) || !nat_crypto_##prim##_ok(&state), "invalid state"); \
    int rc = NAT_BLAKE2B(_final)(&state, out, out_len);                                    \
    nat_blake2b_store(&state);                                                             \
    STATE_SAVE_IF_OK(state, rc);                                                           \
    RETURN_OK(rc);                                                                         \
  }

NAT_KEYGEN(generichash)
NAT_KEYGEN(generichash_blake2b)
NAT_GENERICHASH_STREAM(generichash)
NAT_GENERICHASH_STREAM(generichash_blake2b)

/* crypto_hash: SHA-512 one-shot, and SHA-256, SHA-512, SHA3-256, SHA3-512 with streaming.
 * NAT_HASH(prim, impl) binds crypto_<prim>* to impl*: our faster SHA-2 and SHA-3
 * (src/crypto/sha2.c, sha3.c), with libsodium's state layout and answers. SHA-3's final on a
 * finished state fails (libsodium would still permute the state and write out; here the state is
 * left as it was and out zeroed, as for every refusal). */
static napi_value nat_crypto_hash(napi_env env, napi_callback_info info) {
  ARGS(2);
  OUT(out, 0); BUF(in, 1);
  LEN_EQ(out, crypto_hash_BYTES);
  RETURN_OK(nat_sha512(out, in, in_len));
}

#define NAT_HASH(prim, impl)                                                               \
  static napi_value nat_crypto_##prim(napi_env env, napi_callback_info info) {             \
    ARGS(2);                                                                               \
    OUT(out, 0); BUF(in, 1);                                                               \
    LEN_EQ(out, crypto_##prim##_BYTES);                                                    \
    RETURN_OK(impl(out, in, in_len));                                                      \
  }                                                                                        \
                                                                                           \
  static napi_value nat_crypto_##prim##_init(napi_env env, napi_callback_info info) {      \
    ARGS(1);                                                                               \
    STATE(state, 0, crypto_##prim##_state);                                                \
    int rc = impl##_init(&state);                                                          \
    nat_crypto_##prim##_store(&state);                                                     \
    STATE_SAVE_IF_OK(state, rc);                                                           \
    RETURN_OK(rc);                                                                         \
  }                                                                                        \
                                                                                           \
  static napi_value nat_crypto_##prim##_update(napi_env env, napi_callback_info info) {    \
    ARGS(2);                                                                               \
    STATE(state, 0, crypto_##prim##_state);                                                \
    BUF(in, 1);                                                                            \
    FAIL_IF(!nat_crypto_##prim##_load(&state) || !nat_crypto_##prim##_ok(&state), "invalid state"); \
    int rc = impl##_update(&state, in, in_len);                                            \
    nat_crypto_##prim##_store(&state);                                                     \
    STATE_SAVE_IF_OK(state, rc);                                                           \
    RETURN_OK(rc);                                                                         \
  }                                                                                        \
                                                                                           \
  static napi_value nat_crypto_##prim##_final(napi_env env, napi_callback_info info) {     \
    ARGS(2);                                                                               \
    STATE(state, 0, crypto_##prim##_state);                                                \
    OUT(out, 1);                                                                           \
    STATE_APART(state, out);                                                               \
    LEN_EQ(out, crypto_##prim##_BYTES);                                                    \
    FAIL_IF(!nat_crypto_##prim##_load(&state) || !nat_crypto_##prim##_ok(&state), "invalid state"); \
    int rc = impl##_final(&state, out);                                                    \
    nat_crypto_##prim##_store(&state);                                                     \
    STATE_SAVE_IF_OK(state, rc);                                                           \
    RETURN_OK(rc);                                                                         \
  }

NAT_HASH(hash_sha256, nat_sha256)
NAT_HASH(hash_sha512, nat_sha512)
NAT_HASH(hash_sha3256, nat_sha3256)
NAT_HASH(hash_sha3512, nat_sha3512)

/* crypto_xof: the output length is out's length. Domain bytes span libsodium's unsigned char
 * except 0, which drops the padding's first 1 bit and makes M and M || 0x00 collide (RFC 9861
 * restricts TurboSHAKE further, to 0x01..0x7F; libsodium's own tests use 0x99). An update after
 * a squeeze fails and leaves the state as it was (libsodium would move it back to absorbing):
 * the next squeeze continues the stream, so output never repeats either way. */
#define NAT_XOF(prim)                                                                      \
  static napi_value nat_crypto_xof_##prim(napi_env env, napi_callback_info info) {         \
    ARGS(2);                                                                               \
    OUT(out, 0); BUF(in, 1);                                                               \
    RETURN_OK(nat_##prim(out, out_len, in, in_len));                                       \
  }                                                                                        \
                                                                                           \
  static napi_value nat_crypto_xof_##prim##_init(napi_env env, napi_callback_info info) {  \
    ARGS(1);                                                                               \
    STATE(state, 0, crypto_xof_##prim##_state);                                            \
    int rc = nat_##prim##_init(&state);                                                    \
    nat_xof_store(&state);                                                                 \
    STATE_SAVE_IF_OK(state, rc);                                                           \
    RETURN_OK(rc);                                                                         \
  }                                                                                        \
                                                                                           \
  static napi_value nat_crypto_xof_##prim##_init_with_domain(napi_env env,                 \
                                                             napi_callback_info info) {    \
    ARGS(2);                                                                               \
    STATE(state, 0, crypto_xof_##prim##_state);                                            \
    U32(domain, 1, 1, 255);                                                                \
    int rc = nat_##prim##_init_with_domain(&state, (unsigned char) domain);                \
    nat_xof_store(&state);                                                                 \
    STATE_SAVE_IF_OK(state, rc);                                                           \
    RETURN_OK(rc);                                                                         \
  }                                                                                        \
                                                                                           \
  static napi_value nat_crypto_xof_##prim##_update(napi_env env, napi_callback_info info) { \
    ARGS(2);                                                                               \
    STATE(state, 0, crypto_xof_##prim##_state);                                            \
    BUF(in, 1);                                                                            \
    FAIL_IF(!nat_xof_load(&state) || !nat_xof_ok(&state, crypto_xof_##prim##_BLOCKBYTES), "invalid state"); \
    int rc = nat_##prim##_update(&state, in, in_len);                                      \
    nat_xof_store(&state);                                                                 \
    STATE_SAVE_IF_OK(state, rc);                                                           \
    RETURN_OK(rc);                                                                         \
  }                                                                                        \
                                                                                           \
  static napi_value nat_crypto_xof_##prim##_squeeze(napi_env env, napi_callback_info info) { \
    ARGS(2);                                                                               \
    STATE(state, 0, crypto_xof_##prim##_state);                                            \
    OUT(out, 1);                                                                           \
    STATE_APART(state, out);                                                               \
    FAIL_IF(!nat_xof_load(&state) || !nat_xof_ok(&state, crypto_xof_##prim##_BLOCKBYTES), "invalid state"); \
    int rc = nat_##prim##_squeeze(&state, out, out_len);                                   \
    nat_xof_store(&state);                                                                 \
    STATE_SAVE_IF_OK(state, rc);                                                           \
    RETURN_OK(rc);                                                                         \
  }

NAT_XOF(shake128)
NAT_XOF(shake256)
NAT_XOF(turboshake128)
NAT_XOF(turboshake256)

/* crypto_shorthash: SipHash-2-4 (64-bit output) and SipHashx-2-4 (128-bit output). */
#define NAT_SHORTHASH(prim)                                                                \
  static napi_value nat_crypto_##prim(napi_env env, napi_callback_info info) {             \
    ARGS(3);                                                                               \
    OUT(out, 0); BUF(in, 1); BUF(k, 2);                                                    \
    LEN_EQ(out, crypto_##prim##_BYTES);                                                    \
    LEN_EQ(k, crypto_##prim##_KEYBYTES);                                                   \
    RETURN_OK(crypto_##prim(out, in, in_len, k));                                          \
  }

NAT_SHORTHASH(shorthash)
NAT_SHORTHASH(shorthash_siphash24)
NAT_SHORTHASH(shorthash_siphashx24)
NAT_KEYGEN(shorthash)

#define NAT_GENERICHASH_FNS(prim)                                                          \
  FN(crypto_##prim), FN(crypto_##prim##_keygen), FN(crypto_##prim##_init),                 \
    FN(crypto_##prim##_update), FN(crypto_##prim##_final)
#define NAT_HASH_FNS(prim)                                                                 \
  FN(crypto_##prim), FN(crypto_##prim##_init), FN(crypto_##prim##_update),                 \
    FN(crypto_##prim##_final)
#define NAT_XOF_FNS(prim)                                                                  \
  FN(crypto_xof_##prim), FN(crypto_xof_##prim##_init), FN(crypto_xof_##prim##_init_with_domain), \
    FN(crypto_xof_##prim##_update), FN(crypto_xof_##prim##_squeeze)

NAT_FAMILY(hash,
  /* crypto_generichash */
  NAT_GENERICHASH_FNS(generichash),
  NAT_GENERICHASH_FNS(generichash_blake2b),
  FN(crypto_generichash_blake2b_salt_personal),
  FN(crypto_generichash_blake2b_init_salt_personal),
  /* crypto_hash */
  FN(crypto_hash),
  NAT_HASH_FNS(hash_sha256),
  NAT_HASH_FNS(hash_sha512),
  NAT_HASH_FNS(hash_sha3256),
  NAT_HASH_FNS(hash_sha3512),
  /* crypto_xof */
  NAT_XOF_FNS(shake128),
  NAT_XOF_FNS(shake256),
  NAT_XOF_FNS(turboshake128),
  NAT_XOF_FNS(turboshake256),
  /* crypto_shorthash */
  FN(crypto_shorthash),
  FN(crypto_shorthash_keygen),
  FN(crypto_shorthash_siphash24),
  FN(crypto_shorthash_siphashx24));

/* crypto_auth (HMAC-SHA-512-256), crypto_auth_hmacsha256/512/512256 and crypto_onetimeauth
 * (Poly1305), with their streaming forms.
 *
 * Every MAC here has the same one-shot shape (sodium-native's: out first, a fixed-size key, verify
 * returns a boolean), so one macro defines tag, verify and keygen, and another the streaming
 * init/update/final over a caller-held state buffer. The macros bind libsodium's name p to the
 * functions impl*: our Poly1305 (src/crypto/poly1305.h: the same tags, our own state layout) and
 * our faster HMAC-SHA-2 (src/crypto/sha2.c, the same bytes and states). */
#include "nat.h"
#include "poly1305.h"
#include "sha2.h"

/* p(out, in, k), p_verify(h, in, k) -> boolean, p_keygen(k). */
#define NAT_MAC(p, impl, verify, keygen)                                  \
  static napi_value nat_##p(napi_env env, napi_callback_info info) {      \
    ARGS(3);                                                              \
    OUT(out, 0); BUF(in, 1); BUF(k, 2);                                   \
    LEN_EQ(out, p##_BYTES);                                               \
    LEN_EQ(k, p##_KEYBYTES);                                              \
    RETURN_OK(impl(out, in, in_len, k));                                  \
  }                                                                       \
                                                                          \
  static napi_value nat_##verify(napi_env env, napi_callback_info info) { \
    ARGS(3);                                                              \
    BUF(h, 0); BUF(in, 1); BUF(k, 2);                                     \
    LEN_EQ(h, p##_BYTES);                                                 \
    LEN_EQ(k, p##_KEYBYTES);                                              \
    RETURN_BOOL(impl##_verify(h, in, in_len, k));                         \
  }                                                                       \
                                                                          \
  static napi_value nat_##keygen(napi_env env, napi_callback_info info) { \
    ARGS(1);                                                              \
    OUT(k, 0);                                                            \
    LEN_EQ(k, p##_KEYBYTES);                                              \
    keygen(k);                                                            \
    return nat_undefined(env);                                            \
  }

/* p_init(state, key): HMAC takes a key of any length (libsodium hashes keys longer than a block);
 * Poly1305 exactly KEYBYTES. The state is libsodium's own struct, copied through an aligned local
 * by STATE. */
#define NAT_HMAC_INIT(p, impl, init)                                    \
  static napi_value nat_##init(napi_env env, napi_callback_info info) { \
    ARGS(2);                                                            \
    STATE(state, 0, p##_state);                                         \
    BUF(key, 1);                                                        \
    int rc = impl##_init(&state, key, key_len);                         \
    STATE_SAVE_IF_OK(state, rc);                                        \
    RETURN_OK(rc);                                                      \
  }

#define NAT_POLY1305_INIT(p, init)                                      \
  static napi_value nat_##init(napi_env env, napi_callback_info info) { \
    ARGS(2);                                                            \
    STATE(state, 0, p##_state);                                         \
    BUF(key, 1);                                                        \
    LEN_EQ(key, p##_KEYBYTES);                                          \
    int rc = nat_onetimeauth_poly1305_init(&state, key);                \
    nat_poly1305_stamp(&state);                                         \
    STATE_SAVE_IF_OK(state, rc);                                        \
    RETURN_OK(rc);                                                      \
  }

/* SHA-2 states index their buffer by the byte count modulo the block size, so HMAC (and HKDF)
 * update/final are memory-safe on any state bytes, initialised or not. */
static bool nat_hmac_state_ok(const void *state) {
  (void) state;
  return true;
}

/* Poly1305 is src/crypto/poly1305.h's, int-returning as the macros here want. */
static int nat_onetimeauth_poly1305(unsigned char *out, const unsigned char *in, unsigned long long inlen,
                                    const unsigned char *k) {
  return nat_poly1305(out, in, inlen, k);
}

static int nat_onetimeauth_poly1305_verify(const unsigned char *h, const unsigned char *in,
                                           unsigned long long inlen, const unsigned char *k) {
  return nat_poly1305_verify(h, in, inlen, k);
}

static int nat_onetimeauth_poly1305_init(crypto_onetimeauth_poly1305_state *state, const unsigned char *key) {
  nat_poly1305_init(state, key);
  return 0;
}

static int nat_onetimeauth_poly1305_update(crypto_onetimeauth_poly1305_state *state, const unsigned char *in,
                                           unsigned long long inlen) {
  nat_poly1305_update(state, in, (size_t) inlen);
  return 0;
}

static int nat_onetimeauth_poly1305_final(crypto_onetimeauth_poly1305_state *state, unsigned char *out) {
  nat_poly1305_final(state, out);
  return 0;
}

/* A Poly1305 state holds a count of buffered bytes that update and final use as an index, so a
 * state buffer that was never initialised could make them write out of bounds. Every one of our
 * implementations keeps the same layout, on every CPU and both backends (poly1305.h), and states
 * made by libsodium's (SSE2 on x86-64, donna elsewhere; sodium-native's) differ from it: init
 * stamps the last 4 bytes of the state, which no implementation uses, with 'n', 'P' and
 * NAT_POLY1305_LAYOUT, and update/final refuse a state without the stamp (from sodium-native, an
 * older natrium whose states were libsodium's, or never initialised) instead of computing a wrong
 * tag from it, or one whose count is out of bounds. */
static const unsigned char nat_poly1305_stamp_bytes[4] = {'n', 'P', (unsigned char) (NAT_POLY1305_LAYOUT >> 8),
                                                          (unsigned char) NAT_POLY1305_LAYOUT};

static void nat_poly1305_stamp(crypto_onetimeauth_poly1305_state *state) {
  nat_stamp_put(state, sizeof *state, nat_poly1305_stamp_bytes);
}

static bool nat_poly1305_state_ok(const crypto_onetimeauth_poly1305_state *state) {
  return nat_stamp_is(state, sizeof *state, nat_poly1305_stamp_bytes) && nat_poly1305_state_valid(state);
}

/* p_update(state, in), p_final(state, out). A state that STATE_OK refuses throws Error("invalid
 * state", as src/hash.c does for its states), touching neither the buffer nor out. */
#define NAT_MAC_UPDATE_FINAL(p, impl, STATE_OK, update, final)            \
  static napi_value nat_##update(napi_env env, napi_callback_info info) { \
    ARGS(2);                                                              \
    STATE(state, 0, p##_state);                                           \
    BUF(in, 1);                                                           \
    FAIL_IF(!STATE_OK(&state), "invalid state");                          \
    int rc = impl##_update(&state, in, in_len);                           \
    STATE_SAVE_IF_OK(state, rc);                                          \
    RETURN_OK(rc);                                                        \
  }                                                                       \
                                                                          \
  static napi_value nat_##final(napi_env env, napi_callback_info info) {  \
    ARGS(2);                                                              \
    STATE(state, 0, p##_state);                                           \
    OUT(out, 1);                                                          \
    STATE_APART(state, out);                                              \
    LEN_EQ(out, p##_BYTES);                                               \
    FAIL_IF(!STATE_OK(&state), "invalid state");                          \
    int rc = impl##_final(&state, out);                                   \
    STATE_SAVE_IF_OK(state, rc);                                          \
    RETURN_OK(rc);                                                        \
  }

/* p is libsodium's name of the one-shot MAC (also its prefix: p_BYTES, p_state); the other
 * names are those of the functions defined, spelled in full so that a grep finds them. */
#define NAT_HMAC(p, impl, verify, keygen, init, update, final)                            \
  NAT_MAC(p, impl, verify, keygen) NAT_HMAC_INIT(p, impl, init)                           \
  NAT_MAC_UPDATE_FINAL(p, impl, nat_hmac_state_ok, update, final)
#define NAT_POLY1305(p, verify, keygen, init, update, final)                              \
  NAT_MAC(p, nat_onetimeauth_poly1305, verify, keygen) NAT_POLY1305_INIT(p, init)         \
  NAT_MAC_UPDATE_FINAL(p, nat_onetimeauth_poly1305, nat_poly1305_state_ok, update, final)

/* crypto_auth is HMAC-SHA-512-256 */
NAT_MAC(crypto_auth, nat_hmacsha512256, crypto_auth_verify, crypto_auth_keygen)
NAT_HMAC(crypto_auth_hmacsha256, nat_hmacsha256, crypto_auth_hmacsha256_verify, crypto_auth_hmacsha256_keygen,
         crypto_auth_hmacsha256_init, crypto_auth_hmacsha256_update, crypto_auth_hmacsha256_final)
NAT_HMAC(crypto_auth_hmacsha512, nat_hmacsha512, crypto_auth_hmacsha512_verify, crypto_auth_hmacsha512_keygen,
         crypto_auth_hmacsha512_init, crypto_auth_hmacsha512_update, crypto_auth_hmacsha512_final)
NAT_HMAC(crypto_auth_hmacsha512256, nat_hmacsha512256, crypto_auth_hmacsha512256_verify, crypto_auth_hmacsha512256_keygen,
         crypto_auth_hmacsha512256_init, crypto_auth_hmacsha512256_update, crypto_auth_hmacsha512256_final)
NAT_POLY1305(crypto_onetimeauth, crypto_onetimeauth_verify, crypto_onetimeauth_keygen,
             crypto_onetimeauth_init, crypto_onetimeauth_update, crypto_onetimeauth_final)
NAT_POLY1305(crypto_onetimeauth_poly1305, crypto_onetimeauth_poly1305_verify, crypto_onetimeauth_poly1305_keygen,
             crypto_onetimeauth_poly1305_init, crypto_onetimeauth_poly1305_update, crypto_onetimeauth_poly1305_final)

NAT_FAMILY(auth,
  /* crypto_auth */
  FN(crypto_auth), FN(crypto_auth_verify), FN(crypto_auth_keygen),
  /* crypto_auth_hmacsha256 */
  FN(crypto_auth_hmacsha256), FN(crypto_auth_hmacsha256_verify), FN(crypto_auth_hmacsha256_keygen),
    FN(crypto_auth_hmacsha256_init), FN(crypto_auth_hmacsha256_update), FN(crypto_auth_hmacsha256_final),
  /* crypto_auth_hmacsha512 */
  FN(crypto_auth_hmacsha512), FN(crypto_auth_hmacsha512_verify), FN(crypto_auth_hmacsha512_keygen),
    FN(crypto_auth_hmacsha512_init), FN(crypto_auth_hmacsha512_update), FN(crypto_auth_hmacsha512_final),
  /* crypto_auth_hmacsha512256 */
  FN(crypto_auth_hmacsha512256), FN(crypto_auth_hmacsha512256_verify), FN(crypto_auth_hmacsha512256_keygen),
    FN(crypto_auth_hmacsha512256_init), FN(crypto_auth_hmacsha512256_update), FN(crypto_auth_hmacsha512256_final),
  /* crypto_onetimeauth */
  FN(crypto_onetimeauth), FN(crypto_onetimeauth_verify), FN(crypto_onetimeauth_keygen),
    FN(crypto_onetimeauth_init), FN(crypto_onetimeauth_update), FN(crypto_onetimeauth_final),
  FN(crypto_onetimeauth_poly1305), FN(crypto_onetimeauth_poly1305_verify), FN(crypto_onetimeauth_poly1305_keygen),
    FN(crypto_onetimeauth_poly1305_init), FN(crypto_onetimeauth_poly1305_update), FN(crypto_onetimeauth_poly1305_final));

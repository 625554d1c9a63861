/* crypto_auth (HMAC-SHA-512-256), crypto_auth_hmacsha256/512/512256 and crypto_onetimeauth
 * (Poly1305), with their streaming forms.
 *
 * Every MAC here has the same one-shot shape (sodium-native's: out first, a fixed-size key, verify
 * returns a boolean), so one macro defines tag, verify and keygen, and another the streaming
 * init/update/final over a caller-held state buffer. The macros bind libsodium's name p to the
 * functions impl*: libsodium's own for Poly1305, our faster HMAC-SHA-2 (src/crypto/sha2.c, the
 * same bytes and states) for HMAC. */
#include "nat.h"
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
    int rc = init(&state, key);                                         \
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

/* libsodium's Poly1305 state is opaque, and each implementation (donna32, donna64, SSE2) keeps in
 * it a count of buffered bytes that update and final use as an index: a state buffer that was
 * never initialised would make them write out of bounds. Where the count lives and its bound (the
 * implementation's block size) are found once through the public API: after init and k bytes,
 * the count reads k for k < block and 0 at k = block. Packed in one word (offset << 8 | block;
 * 0 = not probed yet), so threads racing here store the same value. */
static size_t nat_poly1305_layout;

static unsigned long long nat_poly1305_count(const crypto_onetimeauth_poly1305_state *st, size_t at) {
  unsigned long long count;
  memcpy(&count, (const unsigned char *) st + at, sizeof count);
  return count;
}

static size_t nat_poly1305_probe(void) {
  static const unsigned char key[crypto_onetimeauth_poly1305_KEYBYTES] = {0x55};
  unsigned char m[64];
  crypto_onetimeauth_poly1305_state st;
  size_t layout = 0;
  memset(m, 0xff, sizeof m);
  memset(&st, 0, sizeof st);
  for (size_t at = 0; layout == 0 && at + sizeof(unsigned long long) <= sizeof st; at += 4) {
    size_t k = 0;
    for (; k < sizeof m; k++) {
      crypto_onetimeauth_poly1305_init(&st, key);
      crypto_onetimeauth_poly1305_update(&st, m, k);
      if (nat_poly1305_count(&st, at) != k) break;
    }
    if (k >= 16 && k < sizeof m && nat_poly1305_count(&st, at) == 0) layout = at << 8 | k;
  }
  sodium_memzero(&st, sizeof st);
  return layout;
}

static size_t nat_poly1305_layout_of_this_build(void) {
  size_t layout = nat_poly1305_layout;
  if (layout == 0) nat_poly1305_layout = layout = nat_poly1305_probe();
  return layout;
}

/* The implementations' states differ (SSE2 on x86-64, donna elsewhere, wasm32 included), and none
 * can read another's: init stamps the last 4 bytes of the state, which no implementation uses
 * (the largest, SSE2's, takes 164 of its 256), with 'n', 'P' and the layout, and update/final
 * refuse a state without this build's stamp (one from another backend or CPU family, from
 * sodium-native, or never initialised) instead of computing a wrong tag from it. */
#define NAT_POLY1305_STAMP_AT (sizeof(crypto_onetimeauth_poly1305_state) - 4)

static void nat_poly1305_stamp(crypto_onetimeauth_poly1305_state *state) {
  size_t layout = nat_poly1305_layout_of_this_build();
  unsigned char *stamp = (unsigned char *) state + NAT_POLY1305_STAMP_AT;
  stamp[0] = 'n';
  stamp[1] = 'P';
  stamp[2] = (unsigned char) (layout >> 8);
  stamp[3] = (unsigned char) layout;
}

/* If the probe found nothing (a future libsodium), every update/final is refused: safe, and the
 * tests notice. (src/hash.c pins its states' offsets instead; Poly1305's differ between
 * implementations chosen at run time, hence the probe.) */
static bool nat_poly1305_state_ok(const crypto_onetimeauth_poly1305_state *state) {
  size_t layout = nat_poly1305_layout_of_this_build();
  const unsigned char *stamp = (const unsigned char *) state + NAT_POLY1305_STAMP_AT;
  return layout != 0 && stamp[0] == 'n' && stamp[1] == 'P' && stamp[2] == (unsigned char) (layout >> 8) &&
         stamp[3] == (unsigned char) layout && nat_poly1305_count(state, layout >> 8) < (layout & 0xff);
}

_Static_assert(sizeof(crypto_onetimeauth_poly1305_state) >= 164 + 4, "room for the stamp");

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
  NAT_MAC(p, p, verify, keygen) NAT_POLY1305_INIT(p, init)                                \
  NAT_MAC_UPDATE_FINAL(p, p, nat_poly1305_state_ok, update, final)

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

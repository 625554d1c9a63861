/* crypto_secretbox (XSalsa20-Poly1305, XChaCha20-Poly1305, the NaCl zero-padded API) and
 * crypto_secretstream_xchacha20poly1305.
 *
 * Calling conventions are sodium-native's where it has the function: easy/detached encrypt return
 * undefined, open_easy/open_detached return a boolean and leave m untouched when the tag does not
 * verify (libsodium checks the tag before it writes anything). */
#include "nat.h"
#include "secretstream.h"

/* libsodium's secretbox memmove()s when c and m overlap, so any overlap of c and m is allowed
 * (in-place encryption included); only the tag must not share bytes with the message. */
#define NAT_SECRETBOX(p, easy, open_easy, detached, open_detached)                       \
  static napi_value nat_##easy(napi_env env, napi_callback_info info) {                  \
    ARGS(4);                                                                             \
    OUT(c, 0); BUF(m, 1); BUF(n, 2); BUF(k, 3);                                          \
    LEN_EQ(c, m_len + p##_MACBYTES);                                                     \
    LEN_EQ(n, p##_NONCEBYTES);                                                           \
    LEN_EQ(k, p##_KEYBYTES);                                                             \
    RETURN_OK(easy(c, m, m_len, n, k));                                                  \
  }                                                                                      \
                                                                                         \
  static napi_value nat_##open_easy(napi_env env, napi_callback_info info) {             \
    ARGS(4);                                                                             \
    OUT(m, 0); BUF(c, 1); BUF(n, 2); BUF(k, 3);                                          \
    LEN_MIN(c, p##_MACBYTES);                                                            \
    LEN_EQ(m, c_len - p##_MACBYTES);                                                     \
    LEN_EQ(n, p##_NONCEBYTES);                                                           \
    LEN_EQ(k, p##_KEYBYTES);                                                             \
    RETURN_BOOL(open_easy(m, c, c_len, n, k));                                           \
  }                                                                                      \
                                                                                         \
  static napi_value nat_##detached(napi_env env, napi_callback_info info) {              \
    ARGS(5);                                                                             \
    OUT(c, 0); OUT(mac, 1); BUF(m, 2); BUF(n, 3); BUF(k, 4);                             \
    LEN_EQ(c, m_len);                                                                    \
    LEN_EQ(mac, p##_MACBYTES);                                                           \
    LEN_EQ(n, p##_NONCEBYTES);                                                           \
    LEN_EQ(k, p##_KEYBYTES);                                                             \
    NO_ALIAS(mac, m);                                                                    \
    NO_ALIAS(mac, c);                                                                    \
    RETURN_OK(detached(c, mac, m, m_len, n, k));                                         \
  }                                                                                      \
                                                                                         \
  static napi_value nat_##open_detached(napi_env env, napi_callback_info info) {         \
    ARGS(5);                                                                             \
    OUT(m, 0); BUF(c, 1); BUF(mac, 2); BUF(n, 3); BUF(k, 4);                             \
    LEN_EQ(m, c_len);                                                                    \
    LEN_EQ(mac, p##_MACBYTES);                                                           \
    LEN_EQ(n, p##_NONCEBYTES);                                                           \
    LEN_EQ(k, p##_KEYBYTES);                                                             \
    NO_ALIAS(m, mac);                                                                    \
    RETURN_BOOL(open_detached(m, c, mac, c_len, n, k));                                  \
  }

NAT_SECRETBOX(crypto_secretbox, crypto_secretbox_easy, crypto_secretbox_open_easy,
              crypto_secretbox_detached, crypto_secretbox_open_detached)
NAT_SECRETBOX(crypto_secretbox_xchacha20poly1305, crypto_secretbox_xchacha20poly1305_easy,
              crypto_secretbox_xchacha20poly1305_open_easy,
              crypto_secretbox_xchacha20poly1305_detached,
              crypto_secretbox_xchacha20poly1305_open_detached)

/* The NaCl API: m starts with ZEROBYTES zero bytes, c with BOXZEROBYTES zero bytes, both the same
 * length. libsodium refuses shorter buffers with -1; here that is a RangeError like every other
 * length rule. XSalsa20 is not written for partially overlapping buffers, so only c == m is
 * allowed. */
#define NAT_SECRETBOX_NACL(p, open, keygen)                                              \
  static napi_value nat_##p(napi_env env, napi_callback_info info) {                     \
    ARGS(4);                                                                             \
    OUT(c, 0); BUF(m, 1); BUF(n, 2); BUF(k, 3);                                          \
    LEN_MIN(m, p##_ZEROBYTES);                                                           \
    LEN_EQ(c, m_len);                                                                    \
    LEN_EQ(n, p##_NONCEBYTES);                                                           \
    LEN_EQ(k, p##_KEYBYTES);                                                             \
    NO_OVERLAP(c, m);                                                                    \
    RETURN_OK(p(c, m, m_len, n, k));                                                     \
  }                                                                                      \
                                                                                         \
  static napi_value nat_##open(napi_env env, napi_callback_info info) {                  \
    ARGS(4);                                                                             \
    OUT(m, 0); BUF(c, 1); BUF(n, 2); BUF(k, 3);                                          \
    LEN_MIN(c, p##_ZEROBYTES);                                                           \
    LEN_EQ(m, c_len);                                                                    \
    LEN_EQ(n, p##_NONCEBYTES);                                                           \
    LEN_EQ(k, p##_KEYBYTES);                                                             \
    NO_OVERLAP(m, c);                                                                    \
    RETURN_BOOL(open(m, c, c_len, n, k));                                                \
  }                                                                                      \
                                                                                         \
  static napi_value nat_##keygen(napi_env env, napi_callback_info info) {                \
    ARGS(1);                                                                             \
    OUT(k, 0);                                                                           \
    LEN_EQ(k, p##_KEYBYTES);                                                             \
    keygen(k);                                                                           \
    return nat_undefined(env);                                                           \
  }

NAT_SECRETBOX_NACL(crypto_secretbox, crypto_secretbox_open, crypto_secretbox_keygen)
NAT_SECRETBOX_NACL(crypto_secretbox_xsalsa20poly1305, crypto_secretbox_xsalsa20poly1305_open,
                   crypto_secretbox_xsalsa20poly1305_keygen)

/* crypto_secretstream_xchacha20poly1305 */

static napi_value nat_crypto_secretstream_xchacha20poly1305_keygen(napi_env env,
                                                                   napi_callback_info info) {
  ARGS(1);
  OUT(k, 0);
  LEN_EQ(k, crypto_secretstream_xchacha20poly1305_KEYBYTES);
  crypto_secretstream_xchacha20poly1305_keygen(k);
  return nat_undefined(env);
}

static napi_value nat_crypto_secretstream_xchacha20poly1305_init_push(napi_env env,
                                                                      napi_callback_info info) {
  ARGS(3);
  STATE(state, 0, crypto_secretstream_xchacha20poly1305_state);
  OUT(header, 1); BUF(k, 2);
  STATE_APART(state, header);
  LEN_EQ(header, crypto_secretstream_xchacha20poly1305_HEADERBYTES);
  LEN_EQ(k, crypto_secretstream_xchacha20poly1305_KEYBYTES);
  int rc = crypto_secretstream_xchacha20poly1305_init_push(&state, header, k);
  STATE_SAVE_IF_OK(state, rc);
  RETURN_OK(rc);
}

static napi_value nat_crypto_secretstream_xchacha20poly1305_init_pull(napi_env env,
                                                                      napi_callback_info info) {
  ARGS(3);
  STATE(state, 0, crypto_secretstream_xchacha20poly1305_state);
  BUF(header, 1); BUF(k, 2);
  LEN_EQ(header, crypto_secretstream_xchacha20poly1305_HEADERBYTES);
  LEN_EQ(k, crypto_secretstream_xchacha20poly1305_KEYBYTES);
  int rc = crypto_secretstream_xchacha20poly1305_init_pull(&state, header, k);
  STATE_SAVE_IF_OK(state, rc);
  RETURN_OK(rc);
}

/* push(state, c, m, ad, tag) -> c's length. tag is a number (a TAG_* constant or any byte, as
 * libsodium takes an unsigned char; sodium-native truncates larger numbers, here they throw).
 * c's first byte is written before m is read, so c and m must not share any byte. MESSAGEBYTES_MAX
 * is checked here because libsodium aborts the process past it. */
static napi_value nat_crypto_secretstream_xchacha20poly1305_push(napi_env env,
                                                                 napi_callback_info info) {
  ARGS(5);
  STATE(state, 0, crypto_secretstream_xchacha20poly1305_state);
  OUT(c, 1); BUF(m, 2); OPT_BUF(ad, 3); U32(tag, 4, 0, 255);
  STATE_APART(state, c);
  LEN_MAX(m, crypto_secretstream_xchacha20poly1305_MESSAGEBYTES_MAX);
  LEN_EQ(c, m_len + crypto_secretstream_xchacha20poly1305_ABYTES);
  NO_ALIAS(c, m);
  unsigned long long clen;
  int rc = nat_secretstream_xchacha20poly1305_push(&state, c, &clen, m, m_len, ad, ad_len,
                                                          (unsigned char) tag);
  STATE_SAVE_IF_OK(state, rc);
  FAIL_IF(rc != 0, "push failed");
  return nat_number(env, (double) clen);
}

/* pull(state, m, tag, c, ad) -> m's length; tag (1 byte) receives the chunk's tag. A chunk that
 * does not verify throws, with m and tag zeroed and the state as it was. */
static napi_value nat_crypto_secretstream_xchacha20poly1305_pull(napi_env env,
                                                                 napi_callback_info info) {
  ARGS(5);
  STATE(state, 0, crypto_secretstream_xchacha20poly1305_state);
  OUT(m, 1); OUT(tag, 2); BUF(c, 3); OPT_BUF(ad, 4);
  STATE_APART(state, m);
  STATE_APART(state, tag);
  LEN_EQ(tag, 1);
  LEN_MIN(c, crypto_secretstream_xchacha20poly1305_ABYTES);
  LEN_EQ(m, c_len - crypto_secretstream_xchacha20poly1305_ABYTES);
  LEN_MAX(m, crypto_secretstream_xchacha20poly1305_MESSAGEBYTES_MAX);
  NO_ALIAS(m, c);
  NO_ALIAS(tag, c);
  NO_ALIAS(tag, m);
  unsigned long long mlen;
  int rc = nat_secretstream_xchacha20poly1305_pull(&state, m, &mlen, tag, c, c_len, ad,
                                                          ad_len);
  STATE_SAVE_IF_OK(state, rc);
  FAIL_IF(rc != 0, "pull failed");
  return nat_number(env, (double) mlen);
}

static napi_value nat_crypto_secretstream_xchacha20poly1305_rekey(napi_env env,
                                                                  napi_callback_info info) {
  ARGS(1);
  STATE(state, 0, crypto_secretstream_xchacha20poly1305_state);
  crypto_secretstream_xchacha20poly1305_rekey(&state);
  STATE_SAVE(state);
  return nat_undefined(env);
}

NAT_FAMILY(secretbox,
  /* crypto_secretbox */
  FN(crypto_secretbox_easy), FN(crypto_secretbox_open_easy), FN(crypto_secretbox_detached),
  FN(crypto_secretbox_open_detached),
  FN(crypto_secretbox_keygen),
  FN(crypto_secretbox),
  FN(crypto_secretbox_open),
  /* crypto_secretbox_xsalsa20poly1305 */
  FN(crypto_secretbox_xsalsa20poly1305),
  FN(crypto_secretbox_xsalsa20poly1305_open),
  FN(crypto_secretbox_xsalsa20poly1305_keygen),
  /* crypto_secretbox_xchacha20poly1305 */
  FN(crypto_secretbox_xchacha20poly1305_easy), FN(crypto_secretbox_xchacha20poly1305_open_easy),
  FN(crypto_secretbox_xchacha20poly1305_detached),
  FN(crypto_secretbox_xchacha20poly1305_open_detached),
  /* crypto_secretstream_xchacha20poly1305 */
  FN(crypto_secretstream_xchacha20poly1305_keygen),
  FN(crypto_secretstream_xchacha20poly1305_init_push),
  FN(crypto_secretstream_xchacha20poly1305_init_pull),
  FN(crypto_secretstream_xchacha20poly1305_push),
  FN(crypto_secretstream_xchacha20poly1305_pull),
  FN(crypto_secretstream_xchacha20poly1305_rekey));

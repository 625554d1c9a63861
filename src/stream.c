/* crypto_stream_*: XSalsa20 (crypto_stream), Salsa20 and its reduced-round variants, ChaCha20
 * (original and IETF), XChaCha20; plus sodium-native's stateful XOR API.
 *
 * Every primitive has keystream (c, n, k), xor (c, m, n, k) and keygen (k); those with a block
 * counter also have xor_ic (c, m, n, ic, k). c and m may be the same buffer but must not overlap
 * otherwise: libsodium's ciphers are written for in-place use, not for shifted buffers. */
#include "nat.h"

/* The largest integer a JS number holds exactly: the bound for 64-bit block counters. */
#define NAT_IC_MAX 9007199254740991ULL

/* MESSAGEBYTES_MAX is checked because libsodium aborts the process past it (it binds only for the
 * IETF variant; the others allow SIZE_MAX). */
#define NAT_STREAM(p, xor, keygen)                                                 \
  static napi_value nat_##p(napi_env env, napi_callback_info info) {               \
    ARGS(3);                                                                       \
    OUT(c, 0); BUF(n, 1); BUF(k, 2);                                               \
    LEN_MAX(c, p##_MESSAGEBYTES_MAX);                                              \
    LEN_EQ(n, p##_NONCEBYTES);                                                     \
    LEN_EQ(k, p##_KEYBYTES);                                                       \
    RETURN_OK(p(c, c_len, n, k));                                                  \
  }                                                                                \
                                                                                   \
  static napi_value nat_##xor(napi_env env, napi_callback_info info) {             \
    ARGS(4);                                                                       \
    OUT(c, 0); BUF(m, 1); BUF(n, 2); BUF(k, 3);                                    \
    LEN_MAX(m, p##_MESSAGEBYTES_MAX);                                              \
    LEN_EQ(c, m_len);                                                              \
    LEN_EQ(n, p##_NONCEBYTES);                                                     \
    LEN_EQ(k, p##_KEYBYTES);                                                       \
    NO_OVERLAP(c, m);                                                              \
    RETURN_OK(xor(c, m, m_len, n, k));                                             \
  }                                                                                \
                                                                                   \
  static napi_value nat_##keygen(napi_env env, napi_callback_info info) {          \
    ARGS(1);                                                                       \
    OUT(k, 0);                                                                     \
    LEN_EQ(k, p##_KEYBYTES);                                                       \
    keygen(k);                                                                     \
    return nat_undefined(env);                                                     \
  }

/* xor_ic for the 64-bit block counters (libsodium's uint64_t ic; sodium-native reads a uint32). */
#define NAT_STREAM_IC(p, xor_ic)                                                   \
  static napi_value nat_##xor_ic(napi_env env, napi_callback_info info) {          \
    ARGS(5);                                                                       \
    OUT(c, 0); BUF(m, 1); BUF(n, 2); U64(ic, 3, 0, NAT_IC_MAX); BUF(k, 4);         \
    LEN_EQ(c, m_len);                                                              \
    LEN_EQ(n, p##_NONCEBYTES);                                                     \
    LEN_EQ(k, p##_KEYBYTES);                                                       \
    NO_OVERLAP(c, m);                                                              \
    RETURN_OK(xor_ic(c, m, m_len, n, ic, k));                                      \
  }

NAT_STREAM(crypto_stream, crypto_stream_xor, crypto_stream_keygen)
NAT_STREAM(crypto_stream_xsalsa20, crypto_stream_xsalsa20_xor, crypto_stream_xsalsa20_keygen)
NAT_STREAM(crypto_stream_salsa20, crypto_stream_salsa20_xor, crypto_stream_salsa20_keygen)
NAT_STREAM(crypto_stream_salsa2012, crypto_stream_salsa2012_xor, crypto_stream_salsa2012_keygen)
NAT_STREAM(crypto_stream_chacha20, crypto_stream_chacha20_xor, crypto_stream_chacha20_keygen)
NAT_STREAM(crypto_stream_chacha20_ietf, crypto_stream_chacha20_ietf_xor,
           crypto_stream_chacha20_ietf_keygen)
NAT_STREAM(crypto_stream_xchacha20, crypto_stream_xchacha20_xor, crypto_stream_xchacha20_keygen)
NAT_STREAM_IC(crypto_stream_xsalsa20, crypto_stream_xsalsa20_xor_ic)
NAT_STREAM_IC(crypto_stream_salsa20, crypto_stream_salsa20_xor_ic)
NAT_STREAM_IC(crypto_stream_chacha20, crypto_stream_chacha20_xor_ic)
NAT_STREAM_IC(crypto_stream_xchacha20, crypto_stream_xchacha20_xor_ic)

/* The IETF counter is 32 bits and libsodium aborts when a message would run it past 2^32 blocks,
 * so ic's upper bound depends on m's length: ic + ceil(m_len / 64) <= 2^32. */
static uint64_t nat_ietf_ic_max(size_t m_len) {
  uint64_t left = (1ULL << 32) - ((uint64_t) m_len + 63) / 64;
  return left < UINT32_MAX ? left : UINT32_MAX;
}

static napi_value nat_crypto_stream_chacha20_ietf_xor_ic(napi_env env, napi_callback_info info) {
  ARGS(5);
  OUT(c, 0); BUF(m, 1); BUF(n, 2);
  LEN_MAX(m, crypto_stream_chacha20_ietf_MESSAGEBYTES_MAX);
  U32(ic, 3, 0, nat_ietf_ic_max(m_len));
  BUF(k, 4);
  LEN_EQ(c, m_len);
  LEN_EQ(n, crypto_stream_chacha20_ietf_NONCEBYTES);
  LEN_EQ(k, crypto_stream_chacha20_ietf_KEYBYTES);
  NO_OVERLAP(c, m);
  RETURN_OK(crypto_stream_chacha20_ietf_xor_ic(c, m, m_len, n, ic, k));
}

/* sodium-native's stateful XOR: init(state, n, k), update(state, c, m), final(state), for
 * crypto_stream (XSalsa20), chacha20, chacha20_ietf, xchacha20 and salsa20, so that
 * update(m1) + update(m2) + ... gives exactly the bytes of one xor(m1 || m2 || ...).
 *
 * The state (natrium's own layout, not libsodium's; the sizes match sodium-native's
 * *_xor_STATEBYTES) holds the key, the nonce, the next block counter and the keystream of the
 * last block, whose last `avail` bytes are still unused. `ready` is set by init and cleared by
 * final, so a state that was never initialized (or was finalized) is refused instead of
 * encrypting under whatever key its bytes hold. The caller's buffer is untrusted: `avail` is
 * range-checked before it indexes `block`. */
typedef int (*nat_xor_ic_fn)(unsigned char *c, const unsigned char *m, unsigned long long mlen,
                             const unsigned char *n, uint64_t ic, const unsigned char *k);

#define NAT_XOR_STATE(type, noncebytes)                                          \
  typedef struct type {                                                          \
    uint64_t counter;                                                            \
    unsigned char key[32];                                                       \
    unsigned char block[64];                                                     \
    unsigned char nonce[noncebytes];                                             \
    unsigned char avail;                                                         \
    unsigned char ready;                                                         \
  } type

NAT_XOR_STATE(crypto_stream_xor_state, crypto_stream_NONCEBYTES);
NAT_XOR_STATE(crypto_stream_chacha20_xor_state, crypto_stream_chacha20_NONCEBYTES);
NAT_XOR_STATE(crypto_stream_chacha20_ietf_xor_state, crypto_stream_chacha20_ietf_NONCEBYTES);
NAT_XOR_STATE(crypto_stream_xchacha20_xor_state, crypto_stream_xchacha20_NONCEBYTES);
NAT_XOR_STATE(crypto_stream_salsa20_xor_state, crypto_stream_salsa20_NONCEBYTES);

/* src/constants.c ("extras: stream") exports these sizes as literals. */
_Static_assert(sizeof(crypto_stream_xor_state) == 136, "crypto_stream_xor_STATEBYTES");
_Static_assert(sizeof(crypto_stream_chacha20_xor_state) == 120, "crypto_stream_chacha20_xor_STATEBYTES");
_Static_assert(sizeof(crypto_stream_chacha20_ietf_xor_state) == 120,
               "crypto_stream_chacha20_ietf_xor_STATEBYTES");
_Static_assert(sizeof(crypto_stream_xchacha20_xor_state) == 136, "crypto_stream_xchacha20_xor_STATEBYTES");
_Static_assert(sizeof(crypto_stream_salsa20_xor_state) == 120, "crypto_stream_salsa20_xor_STATEBYTES");

/* libsodium's IETF xor_ic takes a uint32_t counter; nat_xor_update keeps it below 2^32. */
static int nat_chacha20_ietf_xor_ic(unsigned char *c, const unsigned char *m,
                                    unsigned long long mlen, const unsigned char *n, uint64_t ic,
                                    const unsigned char *k) {
  return crypto_stream_chacha20_ietf_xor_ic(c, m, mlen, n, (uint32_t) ic, k);
}

/* XORs m into c, continuing the keystream where the last call stopped. Returns false, changing
 * nothing, when the message needs blocks past max_blocks (2^32 for the IETF counter). */
static bool nat_xor_update(unsigned char *c, const unsigned char *m, size_t len, uint64_t *counter,
                           unsigned char block[64], unsigned char *avail, const unsigned char *n,
                           const unsigned char *k, nat_xor_ic_fn xor_ic, uint64_t max_blocks) {
  size_t head = len < *avail ? len : *avail;
  size_t whole = (len - head) & ~(size_t) 63;
  size_t tail = (len - head) & 63;
  uint64_t blocks = whole / 64 + (tail != 0);
  if (*counter > max_blocks || blocks > max_blocks - *counter) return false;

  const unsigned char *ks = block + 64 - *avail;
  for (size_t i = 0; i < head; i++) c[i] = m[i] ^ ks[i];
  *avail = (unsigned char) (*avail - head);
  c += head;
  m += head;
  if (whole) {
    xor_ic(c, m, whole, n, *counter, k);
    *counter += whole / 64;
  }
  if (tail) {
    memset(block, 0, 64);
    xor_ic(block, block, 64, n, *counter, k);
    *counter += 1;
    for (size_t i = 0; i < tail; i++) c[whole + i] = m[whole + i] ^ block[i];
    *avail = (unsigned char) (64 - tail);
  }
  return true;
}

#define NAT_STREAM_XOR_STATEFUL(p, xor_ic, max_blocks, xor_init, xor_update, xor_final,      \
                                xor_wrap_init, xor_wrap_update, xor_wrap_final)          \
  static napi_value nat_##xor_init(napi_env env, napi_callback_info info) {              \
    ARGS(3);                                                                             \
    STATE(state, 0, p##_xor_state);                                                      \
    BUF(n, 1); BUF(k, 2);                                                                \
    LEN_EQ(n, p##_NONCEBYTES);                                                           \
    LEN_EQ(k, p##_KEYBYTES);                                                             \
    sodium_memzero(&state, sizeof state);                                                \
    memcpy(state.nonce, n, sizeof state.nonce);                                          \
    memcpy(state.key, k, sizeof state.key);                                              \
    state.ready = 1;                                                                     \
    STATE_SAVE(state);                                                                   \
    return nat_undefined(env);                                                           \
  }                                                                                      \
                                                                                         \
  static napi_value nat_##xor_update(napi_env env, napi_callback_info info) {            \
    ARGS(3);                                                                             \
    STATE(state, 0, p##_xor_state);                                                      \
    OUT(c, 1); BUF(m, 2);                                                                \
    STATE_APART(state, c);                                                               \
    LEN_EQ(c, m_len);                                                                    \
    NO_OVERLAP(c, m);                                                                    \
    bool valid = state.ready == 1 && state.avail < 64;                                   \
    bool done = valid && nat_xor_update(c, m, m_len, &state.counter, state.block,        \
                                        &state.avail, state.nonce, state.key, xor_ic,    \
                                        max_blocks);                                     \
    STATE_SAVE_IF_OK(state, done ? 0 : -1);                                              \
    FAIL_IF(!valid, "state is not initialized");                                         \
    FAIL_IF(!done, "keystream exhausted");                                               \
    return nat_undefined(env);                                                           \
  }                                                                                      \
                                                                                         \
  static napi_value nat_##xor_final(napi_env env, napi_callback_info info) {             \
    ARGS(1);                                                                             \
    STATE(state, 0, p##_xor_state);                                                      \
    sodium_memzero(&state, sizeof state);                                                \
    STATE_SAVE(state);                                                                   \
    return nat_undefined(env);                                                           \
  }                                                                                      \
                                                                                         \
  /* sodium-native 5.1.0 also names them *_wrap_* (its JS versions of those are broken). */ \
  static napi_value nat_##xor_wrap_init(napi_env env, napi_callback_info info) {         \
    return nat_##xor_init(env, info);                                                    \
  }                                                                                      \
  static napi_value nat_##xor_wrap_update(napi_env env, napi_callback_info info) {       \
    return nat_##xor_update(env, info);                                                  \
  }                                                                                      \
  static napi_value nat_##xor_wrap_final(napi_env env, napi_callback_info info) {        \
    return nat_##xor_final(env, info);                                                   \
  }

NAT_STREAM_XOR_STATEFUL(crypto_stream, crypto_stream_xsalsa20_xor_ic, UINT64_MAX,
                        crypto_stream_xor_init, crypto_stream_xor_update, crypto_stream_xor_final,
                        crypto_stream_xor_wrap_init, crypto_stream_xor_wrap_update,
                        crypto_stream_xor_wrap_final)
NAT_STREAM_XOR_STATEFUL(crypto_stream_chacha20, crypto_stream_chacha20_xor_ic, UINT64_MAX,
                        crypto_stream_chacha20_xor_init, crypto_stream_chacha20_xor_update,
                        crypto_stream_chacha20_xor_final, crypto_stream_chacha20_xor_wrap_init,
                        crypto_stream_chacha20_xor_wrap_update,
                        crypto_stream_chacha20_xor_wrap_final)
NAT_STREAM_XOR_STATEFUL(crypto_stream_chacha20_ietf, nat_chacha20_ietf_xor_ic, 1ULL << 32,
                        crypto_stream_chacha20_ietf_xor_init,
                        crypto_stream_chacha20_ietf_xor_update,
                        crypto_stream_chacha20_ietf_xor_final,
                        crypto_stream_chacha20_ietf_xor_wrap_init,
                        crypto_stream_chacha20_ietf_xor_wrap_update,
                        crypto_stream_chacha20_ietf_xor_wrap_final)
NAT_STREAM_XOR_STATEFUL(crypto_stream_xchacha20, crypto_stream_xchacha20_xor_ic, UINT64_MAX,
                        crypto_stream_xchacha20_xor_init, crypto_stream_xchacha20_xor_update,
                        crypto_stream_xchacha20_xor_final, crypto_stream_xchacha20_xor_wrap_init,
                        crypto_stream_xchacha20_xor_wrap_update,
                        crypto_stream_xchacha20_xor_wrap_final)
NAT_STREAM_XOR_STATEFUL(crypto_stream_salsa20, crypto_stream_salsa20_xor_ic, UINT64_MAX,
                        crypto_stream_salsa20_xor_init, crypto_stream_salsa20_xor_update,
                        crypto_stream_salsa20_xor_final, crypto_stream_salsa20_xor_wrap_init,
                        crypto_stream_salsa20_xor_wrap_update, crypto_stream_salsa20_xor_wrap_final)

NAT_FAMILY(stream,
  /* crypto_stream (XSalsa20) */
  FN(crypto_stream), FN(crypto_stream_xor), FN(crypto_stream_keygen),
  FN(crypto_stream_xor_init), FN(crypto_stream_xor_update), FN(crypto_stream_xor_final),
  FN(crypto_stream_xor_wrap_init), FN(crypto_stream_xor_wrap_update),
  FN(crypto_stream_xor_wrap_final),
  /* crypto_stream_xsalsa20 */
  FN(crypto_stream_xsalsa20), FN(crypto_stream_xsalsa20_xor), FN(crypto_stream_xsalsa20_keygen),
  FN(crypto_stream_xsalsa20_xor_ic),
  /* crypto_stream_salsa20 */
  FN(crypto_stream_salsa20), FN(crypto_stream_salsa20_xor), FN(crypto_stream_salsa20_keygen),
  FN(crypto_stream_salsa20_xor_ic),
  FN(crypto_stream_salsa20_xor_init), FN(crypto_stream_salsa20_xor_update),
  FN(crypto_stream_salsa20_xor_final), FN(crypto_stream_salsa20_xor_wrap_init),
  FN(crypto_stream_salsa20_xor_wrap_update), FN(crypto_stream_salsa20_xor_wrap_final),
  /* crypto_stream_salsa2012 (salsa208 is deprecated in libsodium and left out) */
  FN(crypto_stream_salsa2012), FN(crypto_stream_salsa2012_xor), FN(crypto_stream_salsa2012_keygen),
  /* crypto_stream_chacha20 */
  FN(crypto_stream_chacha20), FN(crypto_stream_chacha20_xor), FN(crypto_stream_chacha20_keygen),
  FN(crypto_stream_chacha20_xor_ic),
  FN(crypto_stream_chacha20_xor_init), FN(crypto_stream_chacha20_xor_update),
  FN(crypto_stream_chacha20_xor_final), FN(crypto_stream_chacha20_xor_wrap_init),
  FN(crypto_stream_chacha20_xor_wrap_update), FN(crypto_stream_chacha20_xor_wrap_final),
  /* crypto_stream_chacha20_ietf */
  FN(crypto_stream_chacha20_ietf), FN(crypto_stream_chacha20_ietf_xor),
  FN(crypto_stream_chacha20_ietf_keygen),
  FN(crypto_stream_chacha20_ietf_xor_ic),
  FN(crypto_stream_chacha20_ietf_xor_init), FN(crypto_stream_chacha20_ietf_xor_update),
  FN(crypto_stream_chacha20_ietf_xor_final), FN(crypto_stream_chacha20_ietf_xor_wrap_init),
  FN(crypto_stream_chacha20_ietf_xor_wrap_update), FN(crypto_stream_chacha20_ietf_xor_wrap_final),
  /* crypto_stream_xchacha20 */
  FN(crypto_stream_xchacha20), FN(crypto_stream_xchacha20_xor), FN(crypto_stream_xchacha20_keygen),
  FN(crypto_stream_xchacha20_xor_ic),
  FN(crypto_stream_xchacha20_xor_init), FN(crypto_stream_xchacha20_xor_update),
  FN(crypto_stream_xchacha20_xor_final), FN(crypto_stream_xchacha20_xor_wrap_init),
  FN(crypto_stream_xchacha20_xor_wrap_update), FN(crypto_stream_xchacha20_xor_wrap_final));

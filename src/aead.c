/* crypto_aead_*: XChaCha20-Poly1305, ChaCha20-Poly1305 (IETF and original), AES-256-GCM, AEGIS.
 *
 * All six constructions share one calling convention (sodium-native's), so one macro defines the
 * five functions of each; the checks and messages read exactly as written here. */
#include "nat.h"
#include "chacha20poly1305.h"
#include "aes256gcm.h"

/* Combined mode: encrypt returns the ciphertext length; decrypt returns the message length and
 * throws when the tag does not verify. Detached mode: encrypt returns the tag length; decrypt
 * throws on a bad tag. ad may be null; nsec must be null. On a bad tag m is zeroed here: not every
 * libsodium implementation (AES-256-GCM's) leaves it clean. */
#define NAT_OPEN_OR_WIPE(call, m, m_len)              \
  do {                                                \
    if ((call) != 0) REFUSE("could not verify data"); \
  } while (0)

/* p is libsodium's prefix (its constants are p_ABYTES, ...); the next five arguments are the full
 * names of the functions defined (so that a grep for one finds its binding); impl names the
 * functions that encrypt and decrypt: libsodium's own (impl == p), or ours (src/crypto/) with the
 * same signatures and answers where ours is faster. */
#define NAT_AEAD(p, impl, encrypt, decrypt, encrypt_detached, decrypt_detached, keygen)         \
  static napi_value nat_##encrypt(napi_env env, napi_callback_info info) {                      \
    ARGS(6);                                                                                    \
    OUT(c, 0); BUF(m, 1); OPT_BUF(ad, 2); NULL_ARG(nsec, 3); BUF(npub, 4); BUF(k, 5);           \
    LEN_EQ(c, m_len + p##_ABYTES);                                                              \
    LEN_EQ(npub, p##_NPUBBYTES);                                                                \
    LEN_EQ(k, p##_KEYBYTES);                                                                    \
    NO_OVERLAP(c, m);                                                                           \
    unsigned long long clen;                                                                    \
    FAIL_IF(impl##_encrypt(c, &clen, m, m_len, ad, ad_len, NULL, npub, k) != 0,                 \
            "could not encrypt data");                                                          \
    return nat_number(env, (double) clen);                                                      \
  }                                                                                             \
                                                                                                \
  static napi_value nat_##decrypt(napi_env env, napi_callback_info info) {                      \
    ARGS(6);                                                                                    \
    OUT(m, 0); NULL_ARG(nsec, 1); BUF(c, 2); OPT_BUF(ad, 3); BUF(npub, 4); BUF(k, 5);           \
    LEN_MIN(c, p##_ABYTES);                                                                     \
    LEN_EQ(m, c_len - p##_ABYTES);                                                              \
    LEN_EQ(npub, p##_NPUBBYTES);                                                                \
    LEN_EQ(k, p##_KEYBYTES);                                                                    \
    NO_OVERLAP(m, c);                                                                           \
    unsigned long long mlen;                                                                    \
    NAT_OPEN_OR_WIPE(impl##_decrypt(m, &mlen, NULL, c, c_len, ad, ad_len, npub, k),             \
                     m, m_len);                                                                 \
    return nat_number(env, (double) mlen);                                                      \
  }                                                                                             \
                                                                                                \
  static napi_value nat_##encrypt_detached(napi_env env,                                        \
                                                              napi_callback_info info) {        \
    ARGS(7);                                                                                    \
    OUT(c, 0); OUT(mac, 1); BUF(m, 2); OPT_BUF(ad, 3); NULL_ARG(nsec, 4); BUF(npub, 5);         \
    BUF(k, 6);                                                                                  \
    LEN_EQ(c, m_len);                                                                           \
    LEN_EQ(mac, p##_ABYTES);                                                                    \
    LEN_EQ(npub, p##_NPUBBYTES);                                                                \
    LEN_EQ(k, p##_KEYBYTES);                                                                    \
    NO_OVERLAP(c, m);                                                                           \
    NO_ALIAS(mac, m);                                                                           \
    NO_ALIAS(mac, c);                                                                           \
    unsigned long long maclen;                                                                  \
    FAIL_IF(impl##_encrypt_detached(c, mac, &maclen, m, m_len, ad, ad_len, NULL, npub, k) != 0, \
            "could not encrypt data");                                                          \
    return nat_number(env, (double) maclen);                                                    \
  }                                                                                             \
                                                                                                \
  static napi_value nat_##decrypt_detached(napi_env env,                                        \
                                                              napi_callback_info info) {        \
    ARGS(7);                                                                                    \
    OUT(m, 0); NULL_ARG(nsec, 1); BUF(c, 2); BUF(mac, 3); OPT_BUF(ad, 4); BUF(npub, 5);         \
    BUF(k, 6);                                                                                  \
    LEN_EQ(m, c_len);                                                                           \
    LEN_EQ(mac, p##_ABYTES);                                                                    \
    LEN_EQ(npub, p##_NPUBBYTES);                                                                \
    LEN_EQ(k, p##_KEYBYTES);                                                                    \
    NO_OVERLAP(m, c);                                                                           \
    NO_ALIAS(m, mac);                                                                           \
    NAT_OPEN_OR_WIPE(impl##_decrypt_detached(m, NULL, c, c_len, mac, ad, ad_len, npub, k),      \
                     m, m_len);                                                                 \
    return nat_undefined(env);                                                                  \
  }                                                                                             \
                                                                                                \
  static napi_value nat_##keygen(napi_env env, napi_callback_info info) {                       \
    ARGS(1);                                                                                    \
    OUT(k, 0);                                                                                  \
    LEN_EQ(k, p##_KEYBYTES);                                                                    \
    keygen(k);                                                                                  \
    return nat_undefined(env);                                                                  \
  }

NAT_AEAD(crypto_aead_xchacha20poly1305_ietf, nat_aead_xchacha20poly1305_ietf,
         crypto_aead_xchacha20poly1305_ietf_encrypt, crypto_aead_xchacha20poly1305_ietf_decrypt,
         crypto_aead_xchacha20poly1305_ietf_encrypt_detached, crypto_aead_xchacha20poly1305_ietf_decrypt_detached,
         crypto_aead_xchacha20poly1305_ietf_keygen)
NAT_AEAD(crypto_aead_chacha20poly1305_ietf, nat_aead_chacha20poly1305_ietf,
         crypto_aead_chacha20poly1305_ietf_encrypt, crypto_aead_chacha20poly1305_ietf_decrypt,
         crypto_aead_chacha20poly1305_ietf_encrypt_detached, crypto_aead_chacha20poly1305_ietf_decrypt_detached,
         crypto_aead_chacha20poly1305_ietf_keygen)
NAT_AEAD(crypto_aead_chacha20poly1305, nat_aead_chacha20poly1305,
         crypto_aead_chacha20poly1305_encrypt, crypto_aead_chacha20poly1305_decrypt,
         crypto_aead_chacha20poly1305_encrypt_detached, crypto_aead_chacha20poly1305_decrypt_detached,
         crypto_aead_chacha20poly1305_keygen)
NAT_AEAD(crypto_aead_aes256gcm, nat_aes256gcm,
         crypto_aead_aes256gcm_encrypt, crypto_aead_aes256gcm_decrypt,
         crypto_aead_aes256gcm_encrypt_detached, crypto_aead_aes256gcm_decrypt_detached,
         crypto_aead_aes256gcm_keygen)
NAT_AEAD(crypto_aead_aegis128l, crypto_aead_aegis128l,
         crypto_aead_aegis128l_encrypt, crypto_aead_aegis128l_decrypt,
         crypto_aead_aegis128l_encrypt_detached, crypto_aead_aegis128l_decrypt_detached,
         crypto_aead_aegis128l_keygen)
NAT_AEAD(crypto_aead_aegis256, crypto_aead_aegis256,
         crypto_aead_aegis256_encrypt, crypto_aead_aegis256_decrypt,
         crypto_aead_aegis256_encrypt_detached, crypto_aead_aegis256_decrypt_detached,
         crypto_aead_aegis256_keygen)

/* AES-256-GCM runs everywhere: libsodium's AES-NI / ARMv8 crypto code where the CPU has it, our
 * constant-time portable code elsewhere and on wasm32 (src/crypto/aes256gcm.h). */
static napi_value nat_crypto_aead_aes256gcm_is_available(napi_env env, napi_callback_info info) {
  (void) info;
  return nat_bool(env, nat_aes256gcm_is_available() == 1);
}

/* Precomputed-key AES-256-GCM: the expanded key lives in a caller-held state buffer, in the
 * layout of the code that made it (libsodium's AES-NI or ARMv8 code, or our portable one; see
 * src/crypto/aes256gcm.h). beforenm stamps the last 4 bytes, which none of them uses (libsodium's
 * largest, AES-NI's, takes 464 of the 512), with the implementation and the target, and every
 * afternm refuses a state without this build's stamp (one made by another backend or CPU family,
 * by another library, or never made by beforenm) instead of answering with wrong bytes. */
_Static_assert(sizeof(crypto_aead_aes256gcm_state) >= 464 + 4, "room for the stamp");

static void nat_aes256gcm_stamp_of_this_build(unsigned char stamp[4]) {
#if defined(__wasm__)
  const unsigned char target = 'w';
#elif defined(__x86_64__) || defined(_M_X64)
  const unsigned char target = 'x';
#elif defined(__aarch64__) || defined(_M_ARM64)
  const unsigned char target = 'a';
#else
  const unsigned char target = 'o';
#endif
  stamp[0] = 'n';
  stamp[1] = 'G';
  stamp[2] = (unsigned char) nat_aes256gcm_impl()[0];
  stamp[3] = target;
}

static void nat_aes256gcm_stamp(crypto_aead_aes256gcm_state *st) {
  unsigned char stamp[4];
  nat_aes256gcm_stamp_of_this_build(stamp);
  nat_stamp_put(st, sizeof *st, stamp);
}

static bool nat_aes256gcm_state_ok(const crypto_aead_aes256gcm_state *st) {
  unsigned char stamp[4];
  nat_aes256gcm_stamp_of_this_build(stamp);
  return nat_stamp_is(st, sizeof *st, stamp);
}

/* In each *_afternm, after the argument checks: a state this build's beforenm did not stamp is
 * refused (outputs zeroed), and the copy of it wiped, since it may hold another's key schedule. */
#define NAT_AES256GCM_STATE_OK(ctx)           \
  do {                                        \
    if (!nat_aes256gcm_state_ok(&ctx)) {      \
      sodium_memzero(&ctx, sizeof ctx);       \
      REFUSE("invalid state");                \
    }                                         \
  } while (0)

static napi_value nat_crypto_aead_aes256gcm_beforenm(napi_env env, napi_callback_info info) {
  ARGS(2);
  STATE(ctx, 0, crypto_aead_aes256gcm_state);
  BUF(k, 1);
  LEN_EQ(k, crypto_aead_aes256gcm_KEYBYTES);
  int rc = nat_aes256gcm_beforenm(&ctx, k);
  if (rc == 0) nat_aes256gcm_stamp(&ctx);
  STATE_SAVE_IF_OK(ctx, rc);
  RETURN_OK(rc);
}

static napi_value nat_crypto_aead_aes256gcm_encrypt_afternm(napi_env env, napi_callback_info info) {
  ARGS(6);
  OUT(c, 0); BUF(m, 1); OPT_BUF(ad, 2); NULL_ARG(nsec, 3); BUF(npub, 4);
  STATE(ctx, 5, crypto_aead_aes256gcm_state);
  STATE_APART(ctx, c);
  LEN_EQ(c, m_len + crypto_aead_aes256gcm_ABYTES);
  LEN_EQ(npub, crypto_aead_aes256gcm_NPUBBYTES);
  NO_OVERLAP(c, m);
  NAT_AES256GCM_STATE_OK(ctx);
  unsigned long long clen;
  int rc = nat_aes256gcm_encrypt_afternm(c, &clen, m, m_len, ad, ad_len, NULL, npub, &ctx);
  sodium_memzero(&ctx, sizeof ctx);
  FAIL_IF(rc != 0, "could not encrypt data");
  return nat_number(env, (double) clen);
}

static napi_value nat_crypto_aead_aes256gcm_decrypt_afternm(napi_env env, napi_callback_info info) {
  ARGS(6);
  OUT(m, 0); NULL_ARG(nsec, 1); BUF(c, 2); OPT_BUF(ad, 3); BUF(npub, 4);
  STATE(ctx, 5, crypto_aead_aes256gcm_state);
  STATE_APART(ctx, m);
  LEN_MIN(c, crypto_aead_aes256gcm_ABYTES);
  LEN_EQ(m, c_len - crypto_aead_aes256gcm_ABYTES);
  LEN_EQ(npub, crypto_aead_aes256gcm_NPUBBYTES);
  NO_OVERLAP(m, c);
  NAT_AES256GCM_STATE_OK(ctx);
  unsigned long long mlen;
  int rc = nat_aes256gcm_decrypt_afternm(m, &mlen, NULL, c, c_len, ad, ad_len, npub, &ctx);
  sodium_memzero(&ctx, sizeof ctx);
  NAT_OPEN_OR_WIPE(rc, m, m_len);
  return nat_number(env, (double) mlen);
}

static napi_value nat_crypto_aead_aes256gcm_encrypt_detached_afternm(napi_env env,
                                                                     napi_callback_info info) {
  ARGS(7);
  OUT(c, 0); OUT(mac, 1); BUF(m, 2); OPT_BUF(ad, 3); NULL_ARG(nsec, 4); BUF(npub, 5);
  STATE(ctx, 6, crypto_aead_aes256gcm_state);
  STATE_APART(ctx, c);
  STATE_APART(ctx, mac);
  LEN_EQ(c, m_len);
  LEN_EQ(mac, crypto_aead_aes256gcm_ABYTES);
  LEN_EQ(npub, crypto_aead_aes256gcm_NPUBBYTES);
  NO_OVERLAP(c, m);
  NO_ALIAS(mac, m);
  NO_ALIAS(mac, c);
  NAT_AES256GCM_STATE_OK(ctx);
  unsigned long long maclen;
  int rc = nat_aes256gcm_encrypt_detached_afternm(c, mac, &maclen, m, m_len, ad, ad_len,
                                                          NULL, npub, &ctx);
  sodium_memzero(&ctx, sizeof ctx);
  FAIL_IF(rc != 0, "could not encrypt data");
  return nat_number(env, (double) maclen);
}

static napi_value nat_crypto_aead_aes256gcm_decrypt_detached_afternm(napi_env env,
                                                                     napi_callback_info info) {
  ARGS(7);
  OUT(m, 0); NULL_ARG(nsec, 1); BUF(c, 2); BUF(mac, 3); OPT_BUF(ad, 4); BUF(npub, 5);
  STATE(ctx, 6, crypto_aead_aes256gcm_state);
  STATE_APART(ctx, m);
  LEN_EQ(m, c_len);
  LEN_EQ(mac, crypto_aead_aes256gcm_ABYTES);
  LEN_EQ(npub, crypto_aead_aes256gcm_NPUBBYTES);
  NO_OVERLAP(m, c);
  NO_ALIAS(m, mac);
  NAT_AES256GCM_STATE_OK(ctx);
  int rc = nat_aes256gcm_decrypt_detached_afternm(m, NULL, c, c_len, mac, ad, ad_len, npub,
                                                          &ctx);
  sodium_memzero(&ctx, sizeof ctx);
  NAT_OPEN_OR_WIPE(rc, m, m_len);
  return nat_undefined(env);
}

NAT_FAMILY(aead,
  FN(crypto_aead_xchacha20poly1305_ietf_encrypt), FN(crypto_aead_xchacha20poly1305_ietf_decrypt),
  FN(crypto_aead_xchacha20poly1305_ietf_encrypt_detached), FN(crypto_aead_xchacha20poly1305_ietf_decrypt_detached),
  FN(crypto_aead_xchacha20poly1305_ietf_keygen),
  FN(crypto_aead_chacha20poly1305_ietf_encrypt), FN(crypto_aead_chacha20poly1305_ietf_decrypt),
  FN(crypto_aead_chacha20poly1305_ietf_encrypt_detached), FN(crypto_aead_chacha20poly1305_ietf_decrypt_detached),
  FN(crypto_aead_chacha20poly1305_ietf_keygen),
  FN(crypto_aead_chacha20poly1305_encrypt), FN(crypto_aead_chacha20poly1305_decrypt),
  FN(crypto_aead_chacha20poly1305_encrypt_detached), FN(crypto_aead_chacha20poly1305_decrypt_detached),
  FN(crypto_aead_chacha20poly1305_keygen),
  FN(crypto_aead_aegis128l_encrypt), FN(crypto_aead_aegis128l_decrypt),
  FN(crypto_aead_aegis128l_encrypt_detached), FN(crypto_aead_aegis128l_decrypt_detached),
  FN(crypto_aead_aegis128l_keygen),
  FN(crypto_aead_aegis256_encrypt), FN(crypto_aead_aegis256_decrypt),
  FN(crypto_aead_aegis256_encrypt_detached), FN(crypto_aead_aegis256_decrypt_detached),
  FN(crypto_aead_aegis256_keygen),
  /* crypto_aead_aes256gcm */
  FN(crypto_aead_aes256gcm_encrypt), FN(crypto_aead_aes256gcm_decrypt),
  FN(crypto_aead_aes256gcm_encrypt_detached), FN(crypto_aead_aes256gcm_decrypt_detached),
  FN(crypto_aead_aes256gcm_keygen),
  FN(crypto_aead_aes256gcm_is_available),
  FN(crypto_aead_aes256gcm_beforenm),
  FN(crypto_aead_aes256gcm_encrypt_afternm),
  FN(crypto_aead_aes256gcm_decrypt_afternm),
  FN(crypto_aead_aes256gcm_encrypt_detached_afternm),
  FN(crypto_aead_aes256gcm_decrypt_detached_afternm));

/* crypto_box (X25519 + XSalsa20-Poly1305), crypto_box_curve25519xchacha20poly1305, crypto_kx.
 *
 * Both box constructions share libsodium's shape and sodium-native's calling convention, so one
 * macro defines each set. Opening returns a boolean. libsodium verifies the tag before it writes a
 * byte of m, so a failed open leaves m untouched; it is not wiped here because m may be the very
 * buffer that holds the ciphertext (in-place opening is supported).
 *
 * Overlap: libsodium's secretbox layers memmove() m into c (and c into m) when they overlap, and
 * every key, nonce and public key is read before the first output byte is written, so the only
 * overlaps refused are those that lose an output: mac inside c, and pk sharing bytes with sk. */
#include "nat.h"

/* Key pairs and the precomputed shared key: the same three functions for every box. */
#define NAT_BOX_KEYS(P, keypair, seed_keypair, beforenm)                                     \
  NAT_KEYPAIRS(P, keypair, seed_keypair, )                                                   \
                                                                                             \
  /* Fails (throws) when pk has small order: the shared secret would be all zeros. */        \
  static napi_value nat_##beforenm(napi_env env, napi_callback_info info) {                  \
    ARGS(3);                                                                                 \
    OUT(k, 0); BUF(pk, 1); BUF(sk, 2);                                                       \
    LEN_EQ(k, P##_BEFORENMBYTES);                                                            \
    LEN_EQ(pk, P##_PUBLICKEYBYTES);                                                          \
    LEN_EQ(sk, P##_SECRETKEYBYTES);                                                          \
    RETURN_OK(beforenm(k, pk, sk));                                                          \
  }

/* The message functions. MESSAGEBYTES_MAX is checked because libsodium aborts above it (no JS
 * buffer is that large; the check keeps the no-abort promise without relying on that). */
#define NAT_BOX(P, easy, open_easy, detached, open_detached, easy_afternm, open_easy_afternm, detached_afternm, open_detached_afternm, seal, seal_open) \
  static napi_value nat_##easy(napi_env env, napi_callback_info info) {                      \
    ARGS(5);                                                                                 \
    OUT(c, 0); BUF(m, 1); BUF(n, 2); BUF(pk, 3); BUF(sk, 4);                                 \
    LEN_MAX(m, P##_MESSAGEBYTES_MAX);                                                        \
    LEN_EQ(c, m_len + P##_MACBYTES);                                                         \
    LEN_EQ(n, P##_NONCEBYTES);                                                               \
    LEN_EQ(pk, P##_PUBLICKEYBYTES);                                                          \
    LEN_EQ(sk, P##_SECRETKEYBYTES);                                                          \
    RETURN_OK(easy(c, m, m_len, n, pk, sk));                                                 \
  }                                                                                          \
                                                                                             \
  static napi_value nat_##open_easy(napi_env env, napi_callback_info info) {                 \
    ARGS(5);                                                                                 \
    OUT(m, 0); BUF(c, 1); BUF(n, 2); BUF(pk, 3); BUF(sk, 4);                                 \
    LEN_MIN(c, P##_MACBYTES);                                                                \
    LEN_EQ(m, c_len - P##_MACBYTES);                                                         \
    LEN_EQ(n, P##_NONCEBYTES);                                                               \
    LEN_EQ(pk, P##_PUBLICKEYBYTES);                                                          \
    LEN_EQ(sk, P##_SECRETKEYBYTES);                                                          \
    RETURN_BOOL(open_easy(m, c, c_len, n, pk, sk));                                          \
  }                                                                                          \
                                                                                             \
  static napi_value nat_##detached(napi_env env, napi_callback_info info) {                  \
    ARGS(6);                                                                                 \
    OUT(c, 0); OUT(mac, 1); BUF(m, 2); BUF(n, 3); BUF(pk, 4); BUF(sk, 5);                    \
    LEN_EQ(c, m_len);                                                                        \
    LEN_EQ(mac, P##_MACBYTES);                                                               \
    LEN_EQ(n, P##_NONCEBYTES);                                                               \
    LEN_EQ(pk, P##_PUBLICKEYBYTES);                                                          \
    LEN_EQ(sk, P##_SECRETKEYBYTES);                                                          \
    NO_ALIAS(mac, c);                                                                        \
    RETURN_OK(detached(c, mac, m, m_len, n, pk, sk));                                        \
  }                                                                                          \
                                                                                             \
  static napi_value nat_##open_detached(napi_env env, napi_callback_info info) {             \
    ARGS(6);                                                                                 \
    OUT(m, 0); BUF(c, 1); BUF(mac, 2); BUF(n, 3); BUF(pk, 4); BUF(sk, 5);                    \
    LEN_EQ(m, c_len);                                                                        \
    LEN_EQ(mac, P##_MACBYTES);                                                               \
    LEN_EQ(n, P##_NONCEBYTES);                                                               \
    LEN_EQ(pk, P##_PUBLICKEYBYTES);                                                          \
    LEN_EQ(sk, P##_SECRETKEYBYTES);                                                          \
    RETURN_BOOL(open_detached(m, c, mac, c_len, n, pk, sk));                                 \
  }                                                                                          \
                                                                                             \
  static napi_value nat_##easy_afternm(napi_env env, napi_callback_info info) {              \
    ARGS(4);                                                                                 \
    OUT(c, 0); BUF(m, 1); BUF(n, 2); BUF(k, 3);                                              \
    LEN_MAX(m, P##_MESSAGEBYTES_MAX);                                                        \
    LEN_EQ(c, m_len + P##_MACBYTES);                                                         \
    LEN_EQ(n, P##_NONCEBYTES);                                                               \
    LEN_EQ(k, P##_BEFORENMBYTES);                                                            \
    RETURN_OK(easy_afternm(c, m, m_len, n, k));                                              \
  }                                                                                          \
                                                                                             \
  static napi_value nat_##open_easy_afternm(napi_env env, napi_callback_info info) {         \
    ARGS(4);                                                                                 \
    OUT(m, 0); BUF(c, 1); BUF(n, 2); BUF(k, 3);                                              \
    LEN_MIN(c, P##_MACBYTES);                                                                \
    LEN_EQ(m, c_len - P##_MACBYTES);                                                         \
    LEN_EQ(n, P##_NONCEBYTES);                                                               \
    LEN_EQ(k, P##_BEFORENMBYTES);                                                            \
    RETURN_BOOL(open_easy_afternm(m, c, c_len, n, k));                                       \
  }                                                                                          \
                                                                                             \
  static napi_value nat_##detached_afternm(napi_env env, napi_callback_info info) {          \
    ARGS(5);                                                                                 \
    OUT(c, 0); OUT(mac, 1); BUF(m, 2); BUF(n, 3); BUF(k, 4);                                 \
    LEN_EQ(c, m_len);                                                                        \
    LEN_EQ(mac, P##_MACBYTES);                                                               \
    LEN_EQ(n, P##_NONCEBYTES);                                                               \
    LEN_EQ(k, P##_BEFORENMBYTES);                                                            \
    NO_ALIAS(mac, c);                                                                        \
    RETURN_OK(detached_afternm(c, mac, m, m_len, n, k));                                     \
  }                                                                                          \
                                                                                             \
  static napi_value nat_##open_detached_afternm(napi_env env, napi_callback_info info) {     \
    ARGS(5);                                                                                 \
    OUT(m, 0); BUF(c, 1); BUF(mac, 2); BUF(n, 3); BUF(k, 4);                                 \
    LEN_EQ(m, c_len);                                                                        \
    LEN_EQ(mac, P##_MACBYTES);                                                               \
    LEN_EQ(n, P##_NONCEBYTES);                                                               \
    LEN_EQ(k, P##_BEFORENMBYTES);                                                            \
    RETURN_BOOL(open_detached_afternm(m, c, mac, c_len, n, k));                              \
  }                                                                                          \
                                                                                             \
  /* Anonymous sender: c = ephemeral pk || box(m) with nonce = BLAKE2b(epk || pk). */        \
  static napi_value nat_##seal(napi_env env, napi_callback_info info) {                      \
    ARGS(3);                                                                                 \
    OUT(c, 0); BUF(m, 1); BUF(pk, 2);                                                        \
    LEN_MAX(m, P##_MESSAGEBYTES_MAX);                                                        \
    LEN_EQ(c, m_len + P##_SEALBYTES);                                                        \
    LEN_EQ(pk, P##_PUBLICKEYBYTES);                                                          \
    RETURN_OK(seal(c, m, m_len, pk));                                                        \
  }                                                                                          \
                                                                                             \
  static napi_value nat_##seal_open(napi_env env, napi_callback_info info) {                 \
    ARGS(4);                                                                                 \
    OUT(m, 0); BUF(c, 1); BUF(pk, 2); BUF(sk, 3);                                            \
    LEN_MIN(c, P##_SEALBYTES);                                                               \
    LEN_EQ(m, c_len - P##_SEALBYTES);                                                        \
    LEN_EQ(pk, P##_PUBLICKEYBYTES);                                                          \
    LEN_EQ(sk, P##_SECRETKEYBYTES);                                                          \
    RETURN_BOOL(seal_open(m, c, c_len, pk, sk));                                             \
  }

NAT_BOX_KEYS(crypto_box, crypto_box_keypair, crypto_box_seed_keypair, crypto_box_beforenm)
NAT_BOX(crypto_box, crypto_box_easy, crypto_box_open_easy, crypto_box_detached,
        crypto_box_open_detached, crypto_box_easy_afternm, crypto_box_open_easy_afternm,
        crypto_box_detached_afternm, crypto_box_open_detached_afternm, crypto_box_seal,
        crypto_box_seal_open)
NAT_BOX_KEYS(crypto_box_curve25519xchacha20poly1305, crypto_box_curve25519xchacha20poly1305_keypair,
             crypto_box_curve25519xchacha20poly1305_seed_keypair,
             crypto_box_curve25519xchacha20poly1305_beforenm)
NAT_BOX(crypto_box_curve25519xchacha20poly1305, crypto_box_curve25519xchacha20poly1305_easy,
        crypto_box_curve25519xchacha20poly1305_open_easy,
        crypto_box_curve25519xchacha20poly1305_detached,
        crypto_box_curve25519xchacha20poly1305_open_detached,
        crypto_box_curve25519xchacha20poly1305_easy_afternm,
        crypto_box_curve25519xchacha20poly1305_open_easy_afternm,
        crypto_box_curve25519xchacha20poly1305_detached_afternm,
        crypto_box_curve25519xchacha20poly1305_open_detached_afternm,
        crypto_box_curve25519xchacha20poly1305_seal,
        crypto_box_curve25519xchacha20poly1305_seal_open)
NAT_BOX_KEYS(crypto_box_curve25519xsalsa20poly1305, crypto_box_curve25519xsalsa20poly1305_keypair,
             crypto_box_curve25519xsalsa20poly1305_seed_keypair,
             crypto_box_curve25519xsalsa20poly1305_beforenm)

/* crypto_kx: key pairs, then session keys. Either rx or tx may be null (sodium-native; libsodium
 * then derives only the other), never both: libsodium aborts on that. One buffer for both would
 * silently give the same key to both directions, so rx and tx must not share a byte. */
NAT_KEYPAIRS(crypto_kx, crypto_kx_keypair, crypto_kx_seed_keypair, )

/* Fails (throws) when the peer's public key has small order. */
#define NAT_KX_SESSION_KEYS(session_keys, side, peer)                                        \
  static napi_value nat_##session_keys(napi_env env, napi_callback_info info) {              \
    ARGS(5);                                                                                 \
    OPT_OUT(rx, 0); OPT_OUT(tx, 1);                                                          \
    BUF(side##_pk, 2); BUF(side##_sk, 3); BUF(peer##_pk, 4);                                 \
    if (rx == NULL && tx == NULL) return nat_throw_type(env, "rx", "must be a TypedArray when tx is null"); \
    if (rx != NULL) LEN_EQ(rx, crypto_kx_SESSIONKEYBYTES);                                   \
    if (tx != NULL) LEN_EQ(tx, crypto_kx_SESSIONKEYBYTES);                                   \
    LEN_EQ(side##_pk, crypto_kx_PUBLICKEYBYTES);                                             \
    LEN_EQ(side##_sk, crypto_kx_SECRETKEYBYTES);                                             \
    LEN_EQ(peer##_pk, crypto_kx_PUBLICKEYBYTES);                                             \
    NO_ALIAS(rx, tx);                                                                        \
    RETURN_OK(session_keys(rx, tx, side##_pk, side##_sk, peer##_pk));                        \
  }

NAT_KX_SESSION_KEYS(crypto_kx_client_session_keys, client, server)
NAT_KX_SESSION_KEYS(crypto_kx_server_session_keys, server, client)

NAT_FAMILY(box,
  /* crypto_box */
  FN(crypto_box_keypair), FN(crypto_box_seed_keypair), FN(crypto_box_beforenm), FN(crypto_box_easy),
  FN(crypto_box_open_easy), FN(crypto_box_detached), FN(crypto_box_open_detached),
  FN(crypto_box_easy_afternm), FN(crypto_box_open_easy_afternm), FN(crypto_box_detached_afternm),
  FN(crypto_box_open_detached_afternm), FN(crypto_box_seal), FN(crypto_box_seal_open),
  /* crypto_box_curve25519xchacha20poly1305 */
  FN(crypto_box_curve25519xchacha20poly1305_keypair),
  FN(crypto_box_curve25519xchacha20poly1305_seed_keypair),
  FN(crypto_box_curve25519xchacha20poly1305_beforenm),
  FN(crypto_box_curve25519xchacha20poly1305_easy),
  FN(crypto_box_curve25519xchacha20poly1305_open_easy),
  FN(crypto_box_curve25519xchacha20poly1305_detached),
  FN(crypto_box_curve25519xchacha20poly1305_open_detached),
  FN(crypto_box_curve25519xchacha20poly1305_easy_afternm),
  FN(crypto_box_curve25519xchacha20poly1305_open_easy_afternm),
  FN(crypto_box_curve25519xchacha20poly1305_detached_afternm),
  FN(crypto_box_curve25519xchacha20poly1305_open_detached_afternm),
  FN(crypto_box_curve25519xchacha20poly1305_seal),
  FN(crypto_box_curve25519xchacha20poly1305_seal_open),
  /* crypto_box_curve25519xsalsa20poly1305 (crypto_box's primitive, by name) */
  FN(crypto_box_curve25519xsalsa20poly1305_keypair),
  FN(crypto_box_curve25519xsalsa20poly1305_seed_keypair),
  FN(crypto_box_curve25519xsalsa20poly1305_beforenm),
  /* crypto_kx */
  FN(crypto_kx_keypair),
  FN(crypto_kx_seed_keypair),
  FN(crypto_kx_client_session_keys),
  FN(crypto_kx_server_session_keys));

/* crypto_core_* (Ed25519 and Ristretto255 group and scalar arithmetic, the HChaCha20/HSalsa20
 * key-derivation cores, the Salsa20 block cores) and crypto_scalarmult_* (X25519, Ed25519,
 * Ristretto255).
 *
 * Group operations that libsodium refuses (a point that does not decode, an identity result)
 * throw an Error, as sodium-native's do; is_valid_point answers with a boolean. Scalar arithmetic
 * cannot fail, with one exception: inverting zero (see the two scalar_invert functions).
 * Every function reads all of its inputs before it writes its output, except where a NO_OVERLAP
 * says otherwise, so an output may be the same buffer as an input (tests check each one). */
#include "nat.h"
#include "keccak.h"

/* The operations Ed25519 and Ristretto255 share, with the same names and shapes: G is the group's
 * prefix (G_BYTES, ...), the other arguments the full names of the functions defined. */
#define NAT_GROUP(G, is_valid_point, add, sub, random, scalar_random, scalar_reduce)         \
  static napi_value nat_##is_valid_point(napi_env env, napi_callback_info info) {            \
    ARGS(1);                                                                                 \
    BUF(p, 0);                                                                               \
    LEN_EQ(p, G##_BYTES);                                                                    \
    return nat_bool(env, is_valid_point(p) == 1);                                            \
  }                                                                                          \
                                                                                             \
  static napi_value nat_##add(napi_env env, napi_callback_info info) {                       \
    ARGS(3);                                                                                 \
    OUT(r, 0); BUF(p, 1); BUF(q, 2);                                                         \
    LEN_EQ(r, G##_BYTES);                                                                    \
    LEN_EQ(p, G##_BYTES);                                                                    \
    LEN_EQ(q, G##_BYTES);                                                                    \
    RETURN_OK(add(r, p, q));                                                                 \
  }                                                                                          \
                                                                                             \
  static napi_value nat_##sub(napi_env env, napi_callback_info info) {                       \
    ARGS(3);                                                                                 \
    OUT(r, 0); BUF(p, 1); BUF(q, 2);                                                         \
    LEN_EQ(r, G##_BYTES);                                                                    \
    LEN_EQ(p, G##_BYTES);                                                                    \
    LEN_EQ(q, G##_BYTES);                                                                    \
    RETURN_OK(sub(r, p, q));                                                                 \
  }                                                                                          \
                                                                                             \
  static napi_value nat_##random(napi_env env, napi_callback_info info) {                    \
    ARGS(1);                                                                                 \
    OUT(p, 0);                                                                               \
    LEN_EQ(p, G##_BYTES);                                                                    \
    random(p);                                                                               \
    return nat_undefined(env);                                                               \
  }                                                                                          \
                                                                                             \
  static napi_value nat_##scalar_random(napi_env env, napi_callback_info info) {             \
    ARGS(1);                                                                                 \
    OUT(r, 0);                                                                               \
    LEN_EQ(r, G##_SCALARBYTES);                                                              \
    scalar_random(r);                                                                        \
    return nat_undefined(env);                                                               \
  }                                                                                          \
                                                                                             \
  /* s is any 512-bit number (a hash output), reduced modulo the group order. */             \
  static napi_value nat_##scalar_reduce(napi_env env, napi_callback_info info) {             \
    ARGS(2);                                                                                 \
    OUT(r, 0); BUF(s, 1);                                                                    \
    LEN_EQ(r, G##_SCALARBYTES);                                                              \
    LEN_EQ(s, G##_NONREDUCEDSCALARBYTES);                                                    \
    scalar_reduce(r, s);                                                                     \
    return nat_undefined(env);                                                               \
  }

#define NAT_SCALAR_UNARY(G, op, out)                                                         \
  static napi_value nat_##op(napi_env env, napi_callback_info info) {                        \
    ARGS(2);                                                                                 \
    OUT(out, 0); BUF(s, 1);                                                                  \
    LEN_EQ(out, G##_SCALARBYTES);                                                            \
    LEN_EQ(s, G##_SCALARBYTES);                                                              \
    op(out, s);                                                                              \
    return nat_undefined(env);                                                               \
  }

#define NAT_SCALAR_BINARY(G, op)                                                             \
  static napi_value nat_##op(napi_env env, napi_callback_info info) {                        \
    ARGS(3);                                                                                 \
    OUT(z, 0); BUF(x, 1); BUF(y, 2);                                                         \
    LEN_EQ(z, G##_SCALARBYTES);                                                              \
    LEN_EQ(x, G##_SCALARBYTES);                                                              \
    LEN_EQ(y, G##_SCALARBYTES);                                                              \
    op(z, x, y);                                                                             \
    return nat_undefined(env);                                                               \
  }

NAT_GROUP(crypto_core_ed25519, crypto_core_ed25519_is_valid_point, crypto_core_ed25519_add,
          crypto_core_ed25519_sub, crypto_core_ed25519_random, crypto_core_ed25519_scalar_random,
          crypto_core_ed25519_scalar_reduce)
NAT_SCALAR_UNARY(crypto_core_ed25519, crypto_core_ed25519_scalar_negate, neg)
NAT_SCALAR_UNARY(crypto_core_ed25519, crypto_core_ed25519_scalar_complement, comp)
NAT_SCALAR_BINARY(crypto_core_ed25519, crypto_core_ed25519_scalar_add)
NAT_SCALAR_BINARY(crypto_core_ed25519, crypto_core_ed25519_scalar_sub)
NAT_SCALAR_BINARY(crypto_core_ed25519, crypto_core_ed25519_scalar_mul)
NAT_GROUP(crypto_core_ristretto255, crypto_core_ristretto255_is_valid_point,
          crypto_core_ristretto255_add, crypto_core_ristretto255_sub,
          crypto_core_ristretto255_random, crypto_core_ristretto255_scalar_random,
          crypto_core_ristretto255_scalar_reduce)
NAT_SCALAR_UNARY(crypto_core_ristretto255, crypto_core_ristretto255_scalar_negate, neg)
NAT_SCALAR_UNARY(crypto_core_ristretto255, crypto_core_ristretto255_scalar_complement, comp)
NAT_SCALAR_BINARY(crypto_core_ristretto255, crypto_core_ristretto255_scalar_add)
NAT_SCALAR_BINARY(crypto_core_ristretto255, crypto_core_ristretto255_scalar_sub)
NAT_SCALAR_BINARY(crypto_core_ristretto255, crypto_core_ristretto255_scalar_mul)

/* Elligator 2 map of a 255-bit string (the top bit picks the sign of x). libsodium copies r into
 * p before reading it, so the two may be one buffer but must not partly overlap. */
static napi_value nat_crypto_core_ed25519_from_uniform(napi_env env, napi_callback_info info) {
  ARGS(2);
  OUT(p, 0); BUF(r, 1);
  LEN_EQ(p, crypto_core_ed25519_BYTES);
  LEN_EQ(r, crypto_core_ed25519_UNIFORMBYTES);
  NO_OVERLAP(p, r);
  RETURN_OK(crypto_core_ed25519_from_uniform(p, r));
}

/* Elligator 2 map of 64 uniform bytes. Deprecated in libsodium's header but still exported, and
 * libsodium-wrappers 0.8.4 (whose API natrium's main surface reproduces) has it. h is read whole
 * before p is written, so the two may share bytes. */
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
static napi_value nat_crypto_core_ed25519_from_hash(napi_env env, napi_callback_info info) {
  ARGS(2);
  OUT(p, 0); BUF(h, 1);
  LEN_EQ(p, crypto_core_ed25519_BYTES);
  LEN_EQ(h, crypto_core_ed25519_HASHBYTES);
  RETURN_OK(crypto_core_ed25519_from_hash(p, h));
}
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

/* RFC 9496's hash-to-group map of 64 uniform bytes. */
static napi_value nat_crypto_core_ristretto255_from_hash(napi_env env, napi_callback_info info) {
  ARGS(2);
  OUT(p, 0); BUF(r, 1);
  LEN_EQ(p, crypto_core_ristretto255_BYTES);
  LEN_EQ(r, crypto_core_ristretto255_HASHBYTES);
  RETURN_OK(crypto_core_ristretto255_from_hash(p, r));
}

/* Zero has no inverse: libsodium writes 0 and returns -1. sodium-native ignores that answer for
 * Ed25519 (and so does this binding); Ristretto255, which sodium-native lacks, follows the
 * general rule and throws. */
static napi_value nat_crypto_core_ed25519_scalar_invert(napi_env env, napi_callback_info info) {
  ARGS(2);
  OUT(recip, 0); BUF(s, 1);
  LEN_EQ(recip, crypto_core_ed25519_SCALARBYTES);
  LEN_EQ(s, crypto_core_ed25519_SCALARBYTES);
  (void) crypto_core_ed25519_scalar_invert(recip, s);
  return nat_undefined(env);
}

static napi_value nat_crypto_core_ristretto255_scalar_invert(napi_env env, napi_callback_info info) {
  ARGS(2);
  OUT(recip, 0); BUF(s, 1);
  LEN_EQ(recip, crypto_core_ristretto255_SCALARBYTES);
  LEN_EQ(s, crypto_core_ristretto255_SCALARBYTES);
  RETURN_OK(crypto_core_ristretto255_scalar_invert(recip, s));
}

/* Keyed permutation cores: out = core(in, k, c). c (the 16-byte constant) may be null for the
 * standard "expand 32-byte k". crypto_core_salsa208 is deprecated in the header; it is bound
 * while libsodium still exports it. */
#define NAT_KEYED_CORE(C)                                                                    \
  static napi_value nat_##C(napi_env env, napi_callback_info info) {                         \
    ARGS(4);                                                                                 \
    OUT(out, 0); BUF(in, 1); BUF(k, 2); OPT_BUF(c, 3);                                       \
    LEN_EQ(out, C##_OUTPUTBYTES);                                                            \
    LEN_EQ(in, C##_INPUTBYTES);                                                              \
    LEN_EQ(k, C##_KEYBYTES);                                                                 \
    if (c != NULL) LEN_EQ(c, C##_CONSTBYTES);                                                \
    RETURN_OK(C(out, in, k, c));                                                             \
  }

NAT_KEYED_CORE(crypto_core_hchacha20)
NAT_KEYED_CORE(crypto_core_hsalsa20)
NAT_KEYED_CORE(crypto_core_salsa20)
NAT_KEYED_CORE(crypto_core_salsa2012)
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
NAT_KEYED_CORE(crypto_core_salsa208)
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

/* Keccak-p[1600] (SHA-3's permutation) on a caller-held state of
 * crypto_core_keccak1600_STATEBYTES bytes. libsodium does not bound offset and length; these
 * bindings keep every access inside the 200-byte (1600-bit) permutation state. */
static napi_value nat_crypto_core_keccak1600_init(napi_env env, napi_callback_info info) {
  ARGS(1);
  STATE(state, 0, crypto_core_keccak1600_state);
  crypto_core_keccak1600_init(&state);
  STATE_SAVE(state);
  return nat_undefined(env);
}

static napi_value nat_crypto_core_keccak1600_xor_bytes(napi_env env, napi_callback_info info) {
  ARGS(3);
  STATE(state, 0, crypto_core_keccak1600_state);
  BUF(bytes, 1);
  U64(offset, 2, 0, 200);
  LEN_MAX(bytes, 200 - offset);
  crypto_core_keccak1600_xor_bytes(&state, bytes, (size_t) offset, bytes_len);
  STATE_SAVE(state);
  return nat_undefined(env);
}

/* The state is only read here; STATE still gives the aligned copy libsodium's code expects. */
static napi_value nat_crypto_core_keccak1600_extract_bytes(napi_env env, napi_callback_info info) {
  ARGS(3);
  STATE(state, 0, crypto_core_keccak1600_state);
  OUT(bytes, 1);
  STATE_APART(state, bytes);
  U64(offset, 2, 0, 200);
  LEN_MAX(bytes, 200 - offset);
  crypto_core_keccak1600_extract_bytes(&state, bytes, (size_t) offset, bytes_len);
  sodium_memzero(&state, sizeof state);
  return nat_undefined(env);
}

/* The permutations run our Keccak (src/crypto/keccak.h: the same lanes in the same bytes of the
 * state as libsodium's, faster), which SHA-3 and the XOFs use too: libsodium's reference Keccak
 * (22 KB of the wasm module) is then linked into neither build's hot path, and wasm not at all. */
#define NAT_KECCAK1600_PERMUTE(permute, rounds)                                               \
  static napi_value nat_##permute(napi_env env, napi_callback_info info) {                    \
    ARGS(1);                                                                                  \
    STATE(state, 0, crypto_core_keccak1600_state);                                            \
    nat_keccak_permute(state.opaque, rounds);                                                 \
    STATE_SAVE(state);                                                                        \
    return nat_undefined(env);                                                                \
  }

NAT_KECCAK1600_PERMUTE(crypto_core_keccak1600_permute_24, 24)
NAT_KECCAK1600_PERMUTE(crypto_core_keccak1600_permute_12, 12)

/* Scalar multiplication q = n * p. X25519 (crypto_scalarmult, _curve25519) throws when the
 * result is all zeros (p of small order), like sodium-native, and leaves q zeroed. Ed25519 throws when p is not a
 * canonical point of the main subgroup, or n * p is the identity, or n is zero; Ristretto255 when p
 * does not decode or the result is the identity. Most of these copy n into q before reading it
 * (libsodium uses q as scratch space), so q may be n itself but must not partly overlap it. */
#define NAT_SCALARMULT(S, K)                                                                 \
  static napi_value nat_##S(napi_env env, napi_callback_info info) {                         \
    ARGS(3);                                                                                 \
    OUT(q, 0); BUF(n, 1); BUF(p, 2);                                                         \
    LEN_EQ(q, K##_BYTES);                                                                    \
    LEN_EQ(n, K##_SCALARBYTES);                                                              \
    LEN_EQ(p, K##_BYTES);                                                                    \
    NO_OVERLAP(q, n);                                                                        \
    /* x86-64's X25519 writes the all-zero result before refusing it; arm64 and wasm32 refuse \
     * without writing: zero q here so every platform leaves the same bytes. */              \
    int rc = S(q, n, p);                                                                     \
    if (rc != 0) sodium_memzero(q, q_len);                                                   \
    RETURN_OK(rc);                                                                           \
  }

#define NAT_SCALARMULT_BASE(S, K)                                                            \
  static napi_value nat_##S(napi_env env, napi_callback_info info) {                         \
    ARGS(2);                                                                                 \
    OUT(q, 0); BUF(n, 1);                                                                    \
    LEN_EQ(q, K##_BYTES);                                                                    \
    LEN_EQ(n, K##_SCALARBYTES);                                                              \
    NO_OVERLAP(q, n);                                                                        \
    RETURN_OK(S(q, n));                                                                      \
  }

NAT_SCALARMULT(crypto_scalarmult, crypto_scalarmult)
NAT_SCALARMULT_BASE(crypto_scalarmult_base, crypto_scalarmult)
NAT_SCALARMULT(crypto_scalarmult_curve25519, crypto_scalarmult_curve25519)
NAT_SCALARMULT_BASE(crypto_scalarmult_curve25519_base, crypto_scalarmult_curve25519)
NAT_SCALARMULT(crypto_scalarmult_ed25519, crypto_scalarmult_ed25519)
NAT_SCALARMULT_BASE(crypto_scalarmult_ed25519_base, crypto_scalarmult_ed25519)
NAT_SCALARMULT(crypto_scalarmult_ed25519_noclamp, crypto_scalarmult_ed25519)
NAT_SCALARMULT_BASE(crypto_scalarmult_ed25519_base_noclamp, crypto_scalarmult_ed25519)
NAT_SCALARMULT(crypto_scalarmult_ristretto255, crypto_scalarmult_ristretto255)
NAT_SCALARMULT_BASE(crypto_scalarmult_ristretto255_base, crypto_scalarmult_ristretto255)

NAT_FAMILY(core,
  /* crypto_core_ed25519 */
  FN(crypto_core_ed25519_is_valid_point), FN(crypto_core_ed25519_add), FN(crypto_core_ed25519_sub),
  FN(crypto_core_ed25519_random), FN(crypto_core_ed25519_scalar_random),
  FN(crypto_core_ed25519_scalar_invert), FN(crypto_core_ed25519_scalar_negate),
  FN(crypto_core_ed25519_scalar_complement), FN(crypto_core_ed25519_scalar_add),
  FN(crypto_core_ed25519_scalar_sub), FN(crypto_core_ed25519_scalar_mul),
  FN(crypto_core_ed25519_scalar_reduce),
  FN(crypto_core_ed25519_from_uniform),
  FN(crypto_core_ed25519_from_hash),
  /* crypto_core_ristretto255 */
  FN(crypto_core_ristretto255_is_valid_point), FN(crypto_core_ristretto255_add),
  FN(crypto_core_ristretto255_sub), FN(crypto_core_ristretto255_random),
  FN(crypto_core_ristretto255_scalar_random), FN(crypto_core_ristretto255_scalar_invert),
  FN(crypto_core_ristretto255_scalar_negate), FN(crypto_core_ristretto255_scalar_complement),
  FN(crypto_core_ristretto255_scalar_add), FN(crypto_core_ristretto255_scalar_sub),
  FN(crypto_core_ristretto255_scalar_mul), FN(crypto_core_ristretto255_scalar_reduce),
  FN(crypto_core_ristretto255_from_hash),
  /* crypto_core_hchacha20, hsalsa20, salsa20/12/8 */
  FN(crypto_core_hchacha20),
  FN(crypto_core_hsalsa20),
  FN(crypto_core_salsa20),
  FN(crypto_core_salsa2012),
  FN(crypto_core_salsa208),
  /* crypto_core_keccak1600 */
  FN(crypto_core_keccak1600_init),
  FN(crypto_core_keccak1600_xor_bytes),
  FN(crypto_core_keccak1600_extract_bytes),
  FN(crypto_core_keccak1600_permute_24),
  FN(crypto_core_keccak1600_permute_12),
  /* crypto_scalarmult */
  FN(crypto_scalarmult),
  FN(crypto_scalarmult_base),
  FN(crypto_scalarmult_curve25519),
  FN(crypto_scalarmult_curve25519_base),
  FN(crypto_scalarmult_ed25519),
  FN(crypto_scalarmult_ed25519_base),
  FN(crypto_scalarmult_ed25519_noclamp),
  FN(crypto_scalarmult_ed25519_base_noclamp),
  FN(crypto_scalarmult_ristretto255),
  FN(crypto_scalarmult_ristretto255_base));

/* The wasm build's Curve25519 (src/crypto/fe25519_x2.c, x25519_simd128.c, ed25519_simd128.c)
 * against a big-integer reference and against libsodium 1.0.22's own code, in C. Natively the
 * two-lane field runs on its portable stand-in (NAT_FE25519_X2_PORTABLE: plain, ASan + UBSan,
 * valgrind with the secrets undefined); test/c/run.sh also builds it for wasm32 with SIMD128,
 * the code the wasm module runs, and runs it under Node's WASI against libsodium's wasm32 build
 * (ref10, radix 2^25.5), every time (wasm32: always; on deps/out/wasm32 unless WASM32_SODIUM
 * names another):
 *   - the field, each lane against arithmetic mod p on 32-bit words: nat_fe2_mul and _sq (and
 *     the one-element nat_fe25_mul) on random limbs up to their input bounds (sums of two
 *     reduced elements, differences f + 2p -
 *     g) and on the edges (every limb 0, 1, its largest allowed value, mixes of them, every
 *     carry edge 2^25 / 2^26 and 2^31 - 1 for nat_fe2_carry), the output limb bounds they
 *     promise; nat_fe2_add, _sub, _carry; nat_fe25_frombytes, _tobytes (p - 1, p, p + 1,
 *     2^255 - 1, limbs just below 2^32) and the safegcd _invert (0, 1, p - 1, p, p + 1, every
 *     single bit, random, unreduced limbs);
 *   - X25519: RFC 7748 section 5.2's vectors and the iterated function (1 and 1000 rounds;
 *     X25519_ITERATIONS=1000000), nat_x25519_scalarmult with the simd128 ladder against
 *     libsodium's crypto_scalarmult_curve25519 on random (scalar, u) pairs (bit 255 set,
 *     u >= p, small u, the small-order encodings): the return code and q;
 *   - Ed25519 through the linker's --wrap, as the wasm module is linked: a B (__wrap_
 *     ge25519_scalarmult_base) against libsodium's (__real_) for random scalars and the edges
 *     (0, 1, L - 1, L, 2^255 - 1, all 0xff, every single bit, a[31] > 127 where libsodium's
 *     digit above 8 adds nothing), compared by libsodium's own encoding; ge25519_p3_tobytes
 *     and ge25519_tobytes on libsodium's points; crypto_scalarmult_curve25519_base;
 *     ge25519_double_scalarmult_vartime on random a, b < 2^253, reduced, 0, 1, L - 1, sparse
 *     and dense, with bits 253..255 set (handed to libsodium), A random, small-order and
 *     mixed-order; then crypto_sign_seed_keypair, crypto_sign_detached and
 *     crypto_sign_verify_detached with ours on and off (nat_ed25519_use_simd128): the same
 *     bytes and answers, on valid, tampered (R, s, message, key), s + L, small-order R and A,
 *     non-canonical A and random signatures, RFC 8032 TEST 1..3 and Wycheproof's
 *     ed25519_test.json;
 *   - under valgrind the scalars are marked undefined (check.h SECRET), so a branch or an index
 *     on them in the ladder, a B, the table selection or the inversion is reported.
 * CURVE_TRIALS=n sets the random rounds (default 5 10^4 in the -O3 and wasm32 builds, 2000
 * under sanitizers, 20 under valgrind): X25519 pairs and scalars n, double-base products n / 4,
 * signatures n / 10; the field runs 10 n per operation (FIELD_TRIALS=n to set it alone). The
 * session that wrote this ran CURVE_TRIALS=1000000 FIELD_TRIALS=1000000 natively and as wasm32.
 *
 * cc-sources: src/crypto/fe25519_x2.c src/crypto/x25519_simd128.c src/crypto/ed25519_simd128.c
 * cc-sources: src/crypto/x25519_dispatch.c src/crypto/x25519_portable.c src/crypto/x25519_mulx.c
 * cc-sources: src/crypto/x25519_ifma.c
 * cc-sources: src/crypto/sha2.c
 * cc-flags: -DNAT_FE25519_X2_PORTABLE -Wl,--wrap=ge25519_scalarmult_base -Wl,--wrap=ge25519_p3_tobytes
 * cc-flags: -Wl,--wrap=crypto_scalarmult_curve25519_base -Wl,--wrap=ge25519_double_scalarmult_vartime
 * cc-flags: -Wl,--wrap=ge25519_tobytes -Wl,--wrap=crypto_sign_ed25519_verify_detached
 * cc-flags: -Wl,--wrap=_crypto_sign_ed25519_verify_detached
 * wasm-flags: -Wl,--wrap=ge25519_scalarmult_base -Wl,--wrap=ge25519_p3_tobytes
 * wasm-flags: -Wl,--wrap=crypto_scalarmult_curve25519_base -Wl,--wrap=ge25519_double_scalarmult_vartime
 * wasm-flags: -Wl,--wrap=ge25519_tobytes -Wl,--wrap=crypto_sign_ed25519_verify_detached
 * wasm-flags: -Wl,--wrap=_crypto_sign_ed25519_verify_detached
 * wasm32: always */
#include <sodium.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#include "../../src/crypto/ed25519.h"
#include "../../src/crypto/fe25519_x2.h"
#include "../../src/crypto/x25519.h"
#include "../../src/crypto/x25519_impl.h"

/* libsodium's fe25519 and points in this build (as ed25519_simd128.c has them) */
#if defined(__wasm__)
typedef int32_t sodium_fe[10];
#else
typedef uint64_t sodium_fe[5];
#endif
typedef struct { sodium_fe X, Y, Z, T; } sodium_p3;
typedef struct { sodium_fe X, Y, Z; } sodium_p2;
void fe25519_tobytes(unsigned char *s, const sodium_fe h);
void fe25519_frombytes(sodium_fe h, const unsigned char *s);
int ge25519_frombytes_negate_vartime(sodium_p3 *h, const unsigned char *s);
void __real_ge25519_scalarmult_base(sodium_p3 *h, const unsigned char *a);
void __real_ge25519_p3_tobytes(unsigned char *s, const sodium_p3 *h);
void __real_ge25519_tobytes(unsigned char *s, const sodium_p2 *h);
int __real_crypto_scalarmult_curve25519_base(unsigned char *q, const unsigned char *n);
void __real_ge25519_double_scalarmult_vartime(sodium_p2 *r, const unsigned char *a, const sodium_p3 *A,
                                              const unsigned char *b);
void __wrap_ge25519_scalarmult_base(sodium_p3 *h, const unsigned char *a);
void __wrap_ge25519_p3_tobytes(unsigned char *s, const sodium_p3 *h);
void __wrap_ge25519_tobytes(unsigned char *s, const sodium_p2 *h);
int __wrap_crypto_scalarmult_curve25519_base(unsigned char *q, const unsigned char *n);
void __wrap_ge25519_double_scalarmult_vartime(sodium_p2 *r, const unsigned char *a, const sodium_p3 *A,
                                              const unsigned char *b);

static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static uint64_t rand64(void) { /* splitmix64: reproducible edges, randombytes_buf for the rest */
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

static void unhex(unsigned char *out, const char *hex) {
  for (size_t i = 0; hex[2 * i] != '\0'; i++) {
    unsigned int v;
    sscanf(hex + 2 * i, "%2x", &v);
    out[i] = (unsigned char) v;
  }
}

static void hex32(char out[65], const unsigned char b[32]) {
  for (int i = 0; i < 32; i++) sprintf(out + 2 * i, "%02x", b[i]);
}

/* ---- the reference: 512-bit numbers as 16 little-endian 32-bit words, mod p by folding ---- */

typedef struct { uint32_t w[16]; } bn;
static const unsigned char offs[10] = { 0, 26, 51, 77, 102, 128, 153, 179, 204, 230 };

static bn bn_from_limbs(const uint32_t h[10]) {
  bn r;
  memset(&r, 0, sizeof r);
  for (int i = 0; i < 10; i++) {
    const uint64_t v = (uint64_t) h[i] << (offs[i] % 32);
    const int at = offs[i] / 32;
    uint64_t c = (uint64_t) r.w[at] + (uint32_t) v;
    r.w[at] = (uint32_t) c;
    c = (c >> 32) + r.w[at + 1] + (v >> 32);
    r.w[at + 1] = (uint32_t) c;
    for (int k = at + 2; k < 16 && (c >> 32); k++) {
      c = (c >> 32) + r.w[k];
      r.w[k] = (uint32_t) c;
    }
  }
  return r;
}

static bn bn_from_bytes(const unsigned char s[32]) {
  bn r;
  memset(&r, 0, sizeof r);
  for (int i = 0; i < 32; i++) r.w[i / 4] |= (uint32_t) s[i] << (8 * (i % 4));
  return r;
}

/* x mod p, canonical, as 32 bytes (x < 2^512) */
static void bn_mod_p(unsigned char s[32], bn x) {
  for (int round = 0; round < 4; round++) { /* x = lo + 2^256 hi -> lo + 38 hi */
    uint64_t c = 0;
    uint32_t hi[8];
    memcpy(hi, x.w + 8, sizeof hi);
    memset(x.w + 8, 0, sizeof hi);
    for (int i = 0; i < 8; i++) {
      c += (uint64_t) x.w[i] + (uint64_t) hi[i] * 38;
      x.w[i] = (uint32_t) c;
      c >>= 32;
    }
    x.w[8] = (uint32_t) c;
  }
  /* now x < 2^256 + small: subtract p while x >= p (at most a few times) */
  static const uint32_t P[8] = { 0xffffffed, 0xffffffff, 0xffffffff, 0xffffffff,
                                 0xffffffff, 0xffffffff, 0xffffffff, 0x7fffffff };
  for (;;) {
    int ge = x.w[8] != 0;
    if (!ge) {
      ge = 1;
      for (int i = 7; i >= 0; i--) {
        if (x.w[i] != P[i]) { ge = x.w[i] > P[i]; break; }
      }
    }
    if (!ge) break;
    int64_t b = 0;
    for (int i = 0; i < 9; i++) {
      b += (int64_t) x.w[i] - (i < 8 ? P[i] : 0);
      x.w[i] = (uint32_t) b;
      b >>= 32;
    }
  }
  for (int i = 0; i < 32; i++) s[i] = (unsigned char) (x.w[i / 4] >> (8 * (i % 4)));
}

static bn bn_mul(const bn *a, const bn *b) { /* a, b < 2^256 */
  uint64_t t[17] = { 0 };
  bn r;
  for (int i = 0; i < 8; i++) {
    uint64_t c = 0;
    for (int j = 0; j < 8; j++) {
      const uint64_t v = (uint64_t) a->w[i] * b->w[j] + (t[i + j] & 0xffffffffu) + c;
      t[i + j] = (uint32_t) v;
      c = v >> 32;
    }
    t[i + 8] += c;
  }
  for (int i = 0; i < 16; i++) r.w[i] = (uint32_t) t[i];
  return r;
}

/* a b mod p, both any 32 canonical bytes */
static void ref_mul(unsigned char out[32], const unsigned char a[32], const unsigned char b[32]) {
  const bn x = bn_from_bytes(a), y = bn_from_bytes(b);
  bn_mod_p(out, bn_mul(&x, &y));
}

static void ref_value(unsigned char out[32], const uint32_t h[10]) { bn_mod_p(out, bn_from_limbs(h)); }

/* a^(p - 2) */
static void ref_invert(unsigned char out[32], const unsigned char a[32]) {
  unsigned char r[32] = { 1 }, base[32];
  memcpy(base, a, 32);
  static const unsigned char e[32] = { 0xeb, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                       0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                       0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f };
  for (int bit = 254; bit >= 0; bit--) {
    ref_mul(r, r, r);
    if (e[bit >> 3] >> (bit & 7) & 1) ref_mul(r, r, base);
  }
  memcpy(out, r, 32);
}

/* ---- the field ---- */

#define E_MAX ((3u << 26) + (1u << 12) - 1) /* mul/sq input bounds, even and odd limbs */
#define O_MAX ((3u << 25) + (1u << 19) - 1)
#define R_EVEN ((1u << 26) + (1u << 11))    /* reduced: limbs below these */
#define R_ODD ((1u << 25) + (1u << 18))

static uint32_t limb_below(uint32_t max, int i) { /* random in [0, max], edges often */
  switch (rand64() % 8) {
    case 0: return 0;
    case 1: return max;
    case 2: return max - (uint32_t) (rand64() % 4);
    case 3: return (uint32_t) (rand64() % 4);
    case 4: return i & 1 ? (1u << 25) : (1u << 26);
    case 5: return (i & 1 ? (1u << 25) : (1u << 26)) - 1;
    default: return (uint32_t) (rand64() % ((uint64_t) max + 1));
  }
}

static void random_input(uint32_t h[10], int edge) {
  for (int i = 0; i < 10; i++) h[i] = edge == 1 ? (i & 1 ? O_MAX : E_MAX) : limb_below(i & 1 ? O_MAX : E_MAX, i);
}

static void random_reduced(uint32_t h[10]) {
  for (int i = 0; i < 10; i++) h[i] = limb_below(i & 1 ? R_ODD - 1 : R_EVEN - 1, i);
}

static void check_reduced(const uint32_t h[10], const char *what) {
  for (int i = 0; i < 10; i++)
    CHECK(h[i] < (i & 1 ? R_ODD : R_EVEN), "%s: limb %d = %u above the reduced bound", what, i, h[i]);
}

static void check_lane(const uint32_t got[10], const unsigned char want[32], const char *what) {
  unsigned char s[32];
  nat_fe25_tobytes(s, got);
  CHECK(memcmp(s, want, 32) == 0, "%s: value differs", what);
}

static void test_field(unsigned long trials) {
  for (unsigned long t = 0; t < trials; t++) {
    uint32_t fa[10], fb[10], ga[10], gb[10], ha[10], hb[10];
    unsigned char va[32], vb[32], wa[32], wb[32], want[32];
    nat_fe2 f, g, h;
    const int edge = t < 16 ? 1 : 0; /* all limbs at their largest first */
    random_input(fa, edge);
    random_input(fb, edge);
    random_input(ga, edge && (t & 1));
    random_input(gb, edge && (t & 2));
    nat_fe2_pack(&f, fa, fb);
    nat_fe2_pack(&g, ga, gb);
    ref_value(va, fa); ref_value(vb, fb); ref_value(wa, ga); ref_value(wb, gb);
    /* mul */
    nat_fe2_mul(&h, &f, &g);
    nat_fe2_unpack(ha, hb, &h);
    check_reduced(ha, "mul A"); check_reduced(hb, "mul B");
    ref_mul(want, va, wa); check_lane(ha, want, "mul A");
    ref_mul(want, vb, wb); check_lane(hb, want, "mul B");
    /* sq */
    nat_fe2_sq(&h, &f);
    nat_fe2_unpack(ha, hb, &h);
    check_reduced(ha, "sq A"); check_reduced(hb, "sq B");
    ref_mul(want, va, va); check_lane(ha, want, "sq A");
    ref_mul(want, vb, vb); check_lane(hb, want, "sq B");
    /* the scalar multiplication, same bounds */
    nat_fe25_mul(ha, fa, gb);
    check_reduced(ha, "scalar mul");
    ref_mul(want, va, wb); check_lane(ha, want, "scalar mul");
    /* h = f g in place */
    nat_fe2_mul(&f, &f, &g);
    nat_fe2_unpack(ha, hb, &f);
    ref_mul(want, va, wa); check_lane(ha, want, "mul in place");
    /* add and sub of reduced elements stay within the mul bounds, and values are right */
    random_reduced(fa); random_reduced(fb); random_reduced(ga); random_reduced(gb);
    if (t < 16) for (int i = 0; i < 10; i++) { fa[i] = (i & 1 ? R_ODD : R_EVEN) - 1; gb[i] = fa[i]; ga[i] = 0; }
    nat_fe2_pack(&f, fa, fb);
    nat_fe2_pack(&g, ga, gb);
    ref_value(va, fa); ref_value(vb, fb); ref_value(wa, ga); ref_value(wb, gb);
    nat_fe2_add(&h, &f, &g);
    nat_fe2_unpack(ha, hb, &h);
    for (int i = 0; i < 10; i++) CHECK(ha[i] <= (i & 1 ? O_MAX : E_MAX) && hb[i] <= (i & 1 ? O_MAX : E_MAX), "add bound");
    {
      const bn x = bn_from_limbs(ha);
      bn_mod_p(want, x);
      unsigned char sum[32];
      bn y = bn_from_bytes(va), z = bn_from_bytes(wa);
      uint64_t c = 0;
      for (int i = 0; i < 16; i++) { c += (uint64_t) y.w[i] + z.w[i]; y.w[i] = (uint32_t) c; c >>= 32; }
      bn_mod_p(sum, y);
      CHECK(memcmp(want, sum, 32) == 0, "add value");
    }
    nat_fe2_sub(&h, &f, &g);
    nat_fe2_unpack(ha, hb, &h);
    for (int i = 0; i < 10; i++) CHECK(ha[i] <= (i & 1 ? O_MAX : E_MAX) && hb[i] <= (i & 1 ? O_MAX : E_MAX), "sub bound");
    {
      /* (f - g) + g = f */
      nat_fe2 back;
      uint32_t ba[10], bb2[10];
      nat_fe2_carry(&back, &h);
      nat_fe2_add(&back, &back, &g);
      nat_fe2_unpack(ba, bb2, &back);
      check_lane(ba, va, "sub A");
      check_lane(bb2, vb, "sub B");
    }
    /* carry: any limbs < 2^31 */
    for (int i = 0; i < 10; i++) {
      fa[i] = t < 8 ? 0x7fffffffu : (uint32_t) (rand64() >> 33);
      fb[i] = t < 8 ? (t & 1 ? 0 : (i & 1 ? 1u << 25 : 1u << 26)) : (uint32_t) (rand64() % 3 == 0 ? 0x7fffffffu : rand64() >> 33);
    }
    nat_fe2_pack(&f, fa, fb);
    nat_fe2_carry(&h, &f);
    nat_fe2_unpack(ha, hb, &h);
    check_reduced(ha, "carry A"); check_reduced(hb, "carry B");
    ref_value(want, fa); check_lane(ha, want, "carry A");
    ref_value(want, fb); check_lane(hb, want, "carry B");
  }
  /* frombytes / tobytes / invert */
  static const char *const edges[] = {
    "0000000000000000000000000000000000000000000000000000000000000000",
    "0100000000000000000000000000000000000000000000000000000000000000",
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", /* p - 1 */
    "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", /* p */
    "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", /* p + 1 */
    "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", /* 2^255 - 1 */
    "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff", /* bit 255 ignored */
  };
  const unsigned long n_inv = trials / 10 + 300;
  for (unsigned long t = 0; t < n_inv + 7; t++) {
    unsigned char s[32], s2[32], want[32], got[32];
    uint32_t h[10], inv[10];
    if (t < 7) unhex(s, edges[t]);
    else if (t < 7 + 256) { memset(s, 0, 32); s[(t - 7) / 8] = (unsigned char) (1 << ((t - 7) % 8)); }
    else randombytes_buf(s, 32);
    nat_fe25_frombytes(h, s);
    check_reduced(h, "frombytes");
    memcpy(s2, s, 32);
    s2[31] &= 0x7f;
    bn_mod_p(want, bn_from_bytes(s2));
    nat_fe25_tobytes(got, h);
    CHECK(memcmp(got, want, 32) == 0, "frombytes/tobytes, case %lu", t);
    if (t % 3 == 0) { /* unreduced limbs of the same value: + p in every limb pattern */
      static const uint32_t p2[10] = { 0x7ffffda, 0x3fffffe, 0x7fffffe, 0x3fffffe, 0x7fffffe,
                                       0x3fffffe, 0x7fffffe, 0x3fffffe, 0x7fffffe, 0x3fffffe };
      for (int i = 0; i < 10; i++) h[i] += p2[i];
    }
    SECRET(h, sizeof h);
    nat_fe25_invert(inv, h);
    PUBLIC(inv, sizeof inv);
    PUBLIC(h, sizeof h);
    check_reduced(inv, "invert");
    ref_invert(want, want);
    nat_fe25_tobytes(got, inv);
    CHECK(memcmp(got, want, 32) == 0, "invert, case %lu", t);
  }
  /* tobytes of limbs near 2^32 */
  for (int t = 0; t < 64; t++) {
    uint32_t h[10];
    unsigned char want[32], got[32];
    for (int i = 0; i < 10; i++) h[i] = (t & 1) ? 0xffffffffu - (uint32_t) (rand64() % 64) : (uint32_t) rand64();
    ref_value(want, h);
    nat_fe25_tobytes(got, h);
    CHECK(memcmp(got, want, 32) == 0, "tobytes of large limbs");
  }
  printf("  field: %lu rounds of mul, sq, scalar mul, add, sub, carry; %lu inversions\n", trials, n_inv + 7);
}

/* ---- X25519 ---- */

static void test_x25519(unsigned long trials) {
  static const char *v[2][3] = {
    { "a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4",
      "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c",
      "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552" },
    { "4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d",
      "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493",
      "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957" },
  };
  for (int i = 0; i < 2; i++) {
    unsigned char n[32], p[32], want[32], q[32];
    unhex(n, v[i][0]);
    unhex(p, v[i][1]);
    unhex(want, v[i][2]);
    CHECK(nat_x25519_scalarmult(q, n, p) == 0 && memcmp(q, want, 32) == 0, "RFC 7748 vector %d", i);
  }
  const char *env = getenv("X25519_ITERATIONS");
  const unsigned long last = env != NULL ? strtoul(env, NULL, 10) : (UNDER_VALGRIND ? 1 : 1000);
  unsigned char k[32] = { 9 }, u[32] = { 9 }, r[32], want[32];
  for (unsigned long i = 1; i <= last; i++) {
    CHECK(nat_x25519_scalarmult(r, k, u) == 0, "iteration %lu", i);
    memcpy(u, k, 32);
    memcpy(k, r, 32);
    if (i == 1) unhex(want, "422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079");
    else if (i == 1000) unhex(want, "684cf59ba83309552800ef566f2f4d3c1c3887c49360e3875f2eb94d99532c51");
    else if (i == 1000000) unhex(want, "7c3911e0ab2586fd864497297e575e6f3bc601c0883c30df5f4dd2d24f665424");
    else continue;
    CHECK(memcmp(k, want, 32) == 0, "RFC 7748 iterated, after %lu", i);
  }
  static const char *const small[] = {
    "0000000000000000000000000000000000000000000000000000000000000000",
    "0100000000000000000000000000000000000000000000000000000000000000",
    "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",
    "5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157",
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
  };
  unsigned long refused = 0;
  for (unsigned long t = 0; t < trials; t++) {
    unsigned char n[32], q[32], w[32];
    char hn[65], hu[65];
    randombytes_buf(n, 32);
    randombytes_buf(u, 32);
    switch (t % 16) {
      case 0: u[31] |= 0x80; break;
      case 1: u[31] &= 0x7f; break;
      case 2: memset(u + 1, 0xff, 31); u[0] = (unsigned char) (0xed + rand64() % 19);
              u[31] = (unsigned char) (0x7f | (rand64() & 0x80)); break; /* p .. 2^255 - 1 */
      case 3: memset(u + 1, 0, 31); u[31] = (unsigned char) (rand64() & 0x80); break;
      case 4: unhex(u, small[rand64() % 7]); u[31] |= (unsigned char) (rand64() & 0x80); break;
      default: break;
    }
    memset(q, 0xa5, 32);
    SECRET(n, 32);
    int rc = nat_x25519_scalarmult(q, n, u);
    PUBLIC(n, 32);
    PUBLIC(q, 32);
    PUBLIC(&rc, sizeof rc); /* the answer is public: only how it was computed must not depend on n */
    const int want_rc = crypto_scalarmult_curve25519(w, n, u);
    hex32(hn, n);
    hex32(hu, u);
    CHECK(rc == want_rc, "return %d, libsodium %d: n %s u %s", rc, want_rc, hn, hu);
    if (rc == 0) CHECK(memcmp(q, w, 32) == 0, "q differs: n %s u %s", hn, hu);
    else refused++;
  }
  CHECK(trials < 64 || refused > 0, "no small-order input was tried");
  printf("  x25519: %lu (scalar, u) pairs, %lu refused by both\n", trials, refused);
}

/* ---- Ed25519 ---- */

static const unsigned char L_bytes[32] = { 0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7,
                                           0xa2, 0xde, 0xf9, 0xde, 0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                           0, 0, 0, 0x10 };

static void enc_p3_real(unsigned char s[32], const sodium_p3 *p) { __real_ge25519_p3_tobytes(s, p); }

static void one_base(const unsigned char a_in[32]) {
  unsigned char a[32], s1[32], s2[32], s3[32], q1[32], q2[32];
  sodium_p3 ours, theirs;
  char ha[65];
  memcpy(a, a_in, 32);
  SECRET(a, 32);
  __wrap_ge25519_scalarmult_base(&ours, a);
  PUBLIC(a, 32);
  PUBLIC(&ours, sizeof ours);
  __real_ge25519_scalarmult_base(&theirs, a);
  enc_p3_real(s1, &ours);
  enc_p3_real(s2, &theirs);
  hex32(ha, a);
  CHECK(memcmp(s1, s2, 32) == 0, "a B differs: a %s", ha);
  /* our encoding of libsodium's point */
  SECRET(&theirs, sizeof theirs);
  __wrap_ge25519_p3_tobytes(s3, &theirs);
  PUBLIC(s3, 32);
  CHECK(memcmp(s3, s2, 32) == 0, "p3_tobytes differs: a %s", ha);
  /* X Y = Z T on ours, through libsodium's encoding of (X Y, Z T) as field elements */
  {
    unsigned char x[32], y[32], z[32], t[32], l[32], r[32];
    fe25519_tobytes(x, ours.X); fe25519_tobytes(y, ours.Y); fe25519_tobytes(z, ours.Z); fe25519_tobytes(t, ours.T);
    ref_mul(l, x, y);
    ref_mul(r, z, t);
    CHECK(memcmp(l, r, 32) == 0, "X Y != Z T: a %s", ha);
  }
  SECRET(a, 32);
  CHECK(__wrap_crypto_scalarmult_curve25519_base(q1, a) == 0, "x25519 base return");
  PUBLIC(a, 32);
  PUBLIC(q1, 32);
  CHECK(__real_crypto_scalarmult_curve25519_base(q2, a) == 0, "libsodium x25519 base return");
  CHECK(memcmp(q1, q2, 32) == 0, "crypto_scalarmult_curve25519_base differs: n %s", ha);
}

static void test_base(unsigned long trials) {
  unsigned char a[32];
  memset(a, 0, 32); one_base(a);
  a[0] = 1; one_base(a);
  memcpy(a, L_bytes, 32); one_base(a);
  a[0]--; one_base(a); /* L - 1 */
  memset(a, 0xff, 32); one_base(a);
  a[31] = 0x7f; one_base(a);
  for (int bit = 0; bit < 256; bit++) {
    memset(a, 0, 32);
    a[bit >> 3] = (unsigned char) (1 << (bit & 7));
    one_base(a);
    for (int i = 0; i < 32; i++) a[i] = (unsigned char) ~a[i];
    one_base(a);
  }
  for (int top = 0; top < 256; top++) { /* every top byte, a[31] > 127 included */
    randombytes_buf(a, 32);
    a[31] = (unsigned char) top;
    one_base(a);
  }
  for (unsigned long t = 0; t < trials; t++) {
    randombytes_buf(a, 32);
    if (t & 1) a[31] &= 0x7f;
    one_base(a);
  }
  printf("  ed25519 a B: %lu random scalars and %d edges\n", trials, 6 + 512 + 256);
}

/* points to multiply in verify's double-base product: libsodium's decoding of encodings */
static const char *const small_order[] = {
  "0100000000000000000000000000000000000000000000000000000000000000",
  "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
  "0000000000000000000000000000000000000000000000000000000000000080",
  "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
  "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
  "0000000000000000000000000000000000000000000000000000000000000000",
  "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
  "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
};

static void pick_scalar(unsigned char s[32], unsigned long t) {
  randombytes_buf(s, 32);
  switch (t % 12) {
    case 0: s[31] &= 0x1f; break;                       /* < 2^253 */
    case 1: { unsigned char w[64]; randombytes_buf(w, 64); crypto_core_ed25519_scalar_reduce(s, w); break; }
    case 2: memset(s, 0, 32); break;
    case 3: memset(s, 0, 32); s[0] = 1; break;
    case 4: memcpy(s, L_bytes, 32); s[0]--; break;       /* L - 1 */
    case 5: memset(s, 0, 32); for (int k = 0; k < 3; k++) { const int b = (int) (rand64() % 253); s[b >> 3] |= (unsigned char) (1 << (b & 7)); } break;
    case 6: memset(s, 0xff, 32); s[31] = 0x1f; for (int k = 0; k < 3; k++) { const int b = (int) (rand64() % 253); s[b >> 3] &= (unsigned char) ~(1 << (b & 7)); } break;
    case 7: s[31] |= 0x20; break;                       /* bits 253.. set: libsodium's code */
    default: s[31] &= 0x1f; break;
  }
}

static void one_dsm(const unsigned char a[32], const sodium_p3 *A, const unsigned char b[32]) {
  sodium_p2 r1, r2;
  unsigned char s1[32], s2[32], s3[32];
  __wrap_ge25519_double_scalarmult_vartime(&r1, a, A, b);
  __real_ge25519_double_scalarmult_vartime(&r2, a, A, b);
  __real_ge25519_tobytes(s1, &r1);
  __real_ge25519_tobytes(s2, &r2);
  CHECK(memcmp(s1, s2, 32) == 0, "double-base product differs");
  __wrap_ge25519_tobytes(s3, &r2);
  CHECK(memcmp(s3, s2, 32) == 0, "ge25519_tobytes differs");
}

static void test_dsm(unsigned long trials) {
  unsigned long done = 0;
  for (unsigned long t = 0; t < trials; t++) {
    unsigned char a[32], b[32], enc[32], k[32];
    sodium_p3 A, P;
    if (t % 5 == 4) { /* small order, or a point plus a small-order one (mixed order) */
      unhex(enc, small_order[rand64() % 8]);
      if (ge25519_frombytes_negate_vartime(&A, enc) != 0) continue;
      if (t % 10 == 9) {
        sodium_p3 S = A;
        sodium_p2 sum;
        unsigned char one[32] = { 1 };
        randombytes_buf(k, 32);
        k[31] &= 0x0f;
        __real_ge25519_scalarmult_base(&P, k);
        __real_ge25519_double_scalarmult_vartime(&sum, one, &S, k); /* S + k B */
        __real_ge25519_tobytes(enc, &sum);
        if (ge25519_frombytes_negate_vartime(&A, enc) != 0) continue;
      }
    } else {
      randombytes_buf(k, 32);
      k[31] &= 0x0f;
      __real_ge25519_scalarmult_base(&P, k);
      __real_ge25519_p3_tobytes(enc, &P);
      if (t % 5 == 3) randombytes_buf(enc, 32); /* about half of these are not on the curve */
      if (ge25519_frombytes_negate_vartime(&A, enc) != 0) continue;
    }
    pick_scalar(a, t);
    pick_scalar(b, t / 12 + t);
    one_dsm(a, &A, b);
    done++;
  }
  printf("  ed25519 double-base products: %lu\n", done);
}

/* how the verifications with ours on ran: the half-size product alone (one counted call) or,
 * where the lattice gave no short pair, libsodium's verify on our double-base product (two) */
static unsigned long verify_halfsize, verify_fallback;

static int verify_both(const unsigned char *sig, const unsigned char *m, size_t mlen, const unsigned char *pk) {
  nat_ed25519_use_simd128 = 1;
  const unsigned long calls = nat_curve25519_simd128_calls;
  const int ours = crypto_sign_verify_detached(sig, m, mlen, pk);
  verify_halfsize += nat_curve25519_simd128_calls - calls == 1;
  verify_fallback += nat_curve25519_simd128_calls - calls == 2;
  nat_ed25519_use_simd128 = 0;
  const int theirs = crypto_sign_verify_detached(sig, m, mlen, pk);
  nat_ed25519_use_simd128 = 1;
  CHECK(ours == theirs, "verify: ours %d, libsodium %d", ours, theirs);
  return ours;
}

static size_t json_hex(unsigned char *out, size_t cap, const char *p) {
  size_t n = 0;
  while (p[2 * n] != '"' && n < cap) {
    unsigned int v;
    if (sscanf(p + 2 * n, "%2x", &v) != 1) break;
    out[n++] = (unsigned char) v;
  }
  return n;
}

/* Wycheproof ed25519_test.json: the "pk", "msg", "sig" and "result" strings in file order */
static long wycheproof(const char *file) {
  FILE *f = fopen(file, "rb");
  CHECK(f != NULL, "cannot open %s", file);
  fseek(f, 0, SEEK_END);
  const long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc((size_t) size + 1);
  CHECK(text != NULL && fread(text, 1, (size_t) size, f) == (size_t) size, "short read");
  text[size] = '\0';
  fclose(f);
  unsigned char pk[32], sig[64], msg[8192];
  size_t siglen = 0, mlen = 0;
  int have_pk = 0;
  long cases = 0;
  for (const char *p = text; (p = strchr(p, '"')) != NULL; p++) {
    if (strncmp(p, "\"pk\": \"", 7) == 0) {
      have_pk = json_hex(pk, 32, p + 7) == 32;
    } else if (strncmp(p, "\"msg\": \"", 8) == 0) {
      mlen = json_hex(msg, sizeof msg, p + 8);
    } else if (strncmp(p, "\"sig\": \"", 8) == 0) {
      unsigned char raw[128];
      siglen = json_hex(raw, sizeof raw, p + 8);
      memcpy(sig, raw, siglen < 64 ? siglen : 64);
    } else if (strncmp(p, "\"result\": \"", 11) == 0 && have_pk) {
      const int valid = strncmp(p + 11, "valid", 5) == 0;
      if (siglen == 64) {
        const int r = verify_both(sig, msg, mlen, pk);
        CHECK((r == 0) == valid, "Wycheproof case %ld: verify %d, expected %s", cases, r, valid ? "valid" : "invalid");
      }
      cases++;
    }
  }
  free(text);
  return cases;
}

/* A = a B + T and R = r B + k T, T of order 8: libsodium accepts (R, r + h a) exactly when
 * k = -h mod 8 (then S B - h A = r B - h T = R); the half-size verify must too, which is why its
 * lattice is modulo 8 L. The same with R + 4 T (R's order-2 part changed) is refused by both. */
static void mixed_order(unsigned long t) {
  static const unsigned char identity[32] = { 1 };
  unsigned char T[32], a[32], r[32], aB[32], A[32], rB[32], kT[32], R[32], wide[64], h[32], ha[32], sig[64], msg[24];
  unhex(T, small_order[3 + (t & 1)]);
  crypto_core_ed25519_scalar_random(a);
  crypto_core_ed25519_scalar_random(r);
  randombytes_buf(msg, sizeof msg);
  CHECK(crypto_scalarmult_ed25519_base_noclamp(aB, a) == 0 && crypto_core_ed25519_add(A, aB, T) == 0, "A");
  CHECK(crypto_scalarmult_ed25519_base_noclamp(rB, r) == 0, "r B");
  memcpy(kT, identity, 32);
  for (int k = 0; k < 200; k++) { /* k mod 8 counts; a new r every eight: 1 R in 8 fits */
    crypto_hash_sha512_state hs;
    if (k > 0 && (k & 7) == 0) {
      crypto_core_ed25519_scalar_random(r);
      CHECK(crypto_scalarmult_ed25519_base_noclamp(rB, r) == 0, "r B");
    }
    CHECK(crypto_core_ed25519_add(R, rB, kT) == 0, "R");
    crypto_hash_sha512_init(&hs);
    crypto_hash_sha512_update(&hs, R, 32);
    crypto_hash_sha512_update(&hs, A, 32);
    crypto_hash_sha512_update(&hs, msg, sizeof msg);
    crypto_hash_sha512_final(&hs, wide);
    crypto_core_ed25519_scalar_reduce(h, wide);
    if (((h[0] + (k & 7)) & 7) == 0) {
      memcpy(sig, R, 32);
      crypto_core_ed25519_scalar_mul(ha, h, a);
      crypto_core_ed25519_scalar_add(sig + 32, r, ha);
      CHECK(verify_both(sig, msg, sizeof msg, A) == 0, "a mixed-order signature refused (k = %d)", k & 7);
      unsigned char T4[32];
      CHECK(crypto_core_ed25519_add(T4, T, T) == 0 && crypto_core_ed25519_add(T4, T4, T4) == 0, "4 T");
      CHECK(crypto_core_ed25519_add(sig, R, T4) == 0, "R + 4 T");
      CHECK(verify_both(sig, msg, sizeof msg, A) != 0, "R + 4 T verifies");
      return;
    }
    CHECK(crypto_core_ed25519_add(kT, kT, T) == 0, "k T");
  }
  CHECK(0, "no R in 200 had k = -h mod 8");
}

static void test_sign(unsigned long trials) {
  static const char *rfc[3][4] = {
    { "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
      "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
      "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b" },
    { "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
      "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
      "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00" },
    { "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
      "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
      "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a" },
  };
  for (int v = 0; v < 3; v++) {
    unsigned char seed[32], pk_want[32], pk[32], sk[64], msg[2], sig_want[64], sig[64];
    unhex(seed, rfc[v][0]);
    unhex(pk_want, rfc[v][1]);
    unhex(msg, rfc[v][2]);
    unhex(sig_want, rfc[v][3]);
    const size_t mlen = strlen(rfc[v][2]) / 2;
    crypto_sign_seed_keypair(pk, sk, seed);
    CHECK(memcmp(pk, pk_want, 32) == 0, "RFC 8032 TEST %d public key", v + 1);
    crypto_sign_detached(sig, NULL, msg, mlen, sk);
    CHECK(memcmp(sig, sig_want, 64) == 0, "RFC 8032 TEST %d signature", v + 1);
    CHECK(verify_both(sig, msg, mlen, pk) == 0, "RFC 8032 TEST %d does not verify", v + 1);
  }
  const long wp = wycheproof("test/vectors/wycheproof/ed25519_test.json");
  CHECK(wp > 100, "only %ld Wycheproof cases", wp);
  for (unsigned long t = 0; t < trials; t++) {
    unsigned char seed[32], pk[32], sk[64], pk2[32], sk2[64], sig[64], sig2[64], msg[200], tp[64];
    const size_t mlen = (size_t) (rand64() % sizeof msg);
    randombytes_buf(seed, 32);
    randombytes_buf(msg, mlen);
    nat_ed25519_use_simd128 = 1;
    crypto_sign_seed_keypair(pk, sk, seed);
    crypto_sign_detached(sig, NULL, msg, mlen, sk);
    nat_ed25519_use_simd128 = 0;
    crypto_sign_seed_keypair(pk2, sk2, seed);
    crypto_sign_detached(sig2, NULL, msg, mlen, sk2);
    nat_ed25519_use_simd128 = 1;
    CHECK(memcmp(pk, pk2, 32) == 0 && memcmp(sig, sig2, 64) == 0, "key pair or signature differs");
    CHECK(verify_both(sig, msg, mlen, pk) == 0, "a valid signature refused");
    memcpy(tp, sig, 64);
    tp[rand64() % 32] ^= (unsigned char) (1 << (rand64() % 8)); /* R */
    verify_both(tp, msg, mlen, pk);
    memcpy(tp, sig, 64);
    tp[32 + rand64() % 32] ^= (unsigned char) (1 << (rand64() % 8)); /* s */
    verify_both(tp, msg, mlen, pk);
    if (mlen > 0) {
      msg[rand64() % mlen] ^= 1;
      CHECK(verify_both(sig, msg, mlen, pk) != 0, "a changed message verifies");
    }
    memcpy(tp, pk, 32);
    tp[rand64() % 32] ^= (unsigned char) (1 << (rand64() % 8));
    verify_both(sig, msg, mlen, tp);
    { /* s + L: not canonical */
      unsigned int c = 0;
      memcpy(tp, sig, 64);
      for (int k = 0; k < 32; k++) { c += tp[32 + k] + L_bytes[k]; tp[32 + k] = (unsigned char) c; c >>= 8; }
      verify_both(tp, msg, mlen, pk);
    }
    unhex(tp, small_order[rand64() % 8]); /* small-order R, then A */
    memcpy(tp + 32, sig + 32, 32);
    verify_both(tp, msg, mlen, pk);
    unhex(tp, small_order[rand64() % 8]);
    verify_both(sig, msg, mlen, tp);
    memset(tp, 0xff, 32); /* non-canonical A */
    tp[0] = (unsigned char) (0xed + (t % 19)); tp[31] = (unsigned char) (t & 1 ? 0xff : 0x7f);
    verify_both(sig, msg, mlen, tp);
    randombytes_buf(tp, 64);
    if (t & 1) tp[63] &= 0x0f;
    verify_both(tp, msg, mlen, pk);
  }
  for (unsigned long t = 0; t < trials; t++) mixed_order(t);
  { /* Ed25519ph: _crypto_sign_ed25519_verify_detached from sign_ed25519.c */
    unsigned char pk[32], sk[64], sig[64], msg[40];
    crypto_sign_ed25519ph_state st;
    int answers[2][2];
    crypto_sign_keypair(pk, sk);
    randombytes_buf(msg, sizeof msg);
    crypto_sign_ed25519ph_init(&st);
    crypto_sign_ed25519ph_update(&st, msg, sizeof msg);
    crypto_sign_ed25519ph_final_create(&st, sig, NULL, sk);
    for (int on = 0; on < 2; on++) {
      nat_ed25519_use_simd128 = on;
      for (int bad = 0; bad < 2; bad++) {
        crypto_sign_ed25519ph_init(&st);
        crypto_sign_ed25519ph_update(&st, msg, sizeof msg - (size_t) bad);
        answers[on][bad] = crypto_sign_ed25519ph_final_verify(&st, sig, pk);
      }
    }
    nat_ed25519_use_simd128 = 1;
    CHECK(answers[1][0] == 0 && answers[0][0] == 0 && answers[1][1] != 0 && answers[0][1] != 0, "Ed25519ph");
  }
  CHECK(verify_halfsize > 4 * trials && verify_fallback * 20 < verify_halfsize,
        "verify: %lu half-size, %lu on libsodium's path", verify_halfsize, verify_fallback);
  printf("  ed25519 API: RFC 8032, %ld Wycheproof cases, %lu random key pairs and signatures, %lu mixed-order A and R;"
         " verify: %lu half-size, %lu fell back\n", wp, trials, trials, verify_halfsize, verify_fallback);
}

int main(void) {
  if (sodium_init() < 0) return 1;
  nat_x25519_kernels_chosen = &nat_x25519_simd128;
  nat_x25519_use_libsodium = 0;
  printf("curve25519_x2: ladder %s, field %s\n", nat_x25519_impl(),
#if defined(__wasm_simd128__)
         "SIMD128"
#else
         "portable stand-in"
#endif
  );
  const char *env = getenv("CURVE_TRIALS");
  const unsigned long n = env != NULL ? strtoul(env, NULL, 10) : UNDER_VALGRIND ? 20 : SANITIZED ? 2000 : 50000;
  const char *fenv = getenv("FIELD_TRIALS");
  test_field(fenv != NULL ? strtoul(fenv, NULL, 10) : 10 * n);
  test_x25519(n);
  test_base(n);
  test_dsm(n / 4);
  test_sign(n / 10);
  printf("curve25519_x2: %lu checks passed\n", checks);
  return 0;
}

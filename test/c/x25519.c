/* Our X25519 (src/crypto/x25519*.c on fe25519_51.h and fe25519_64.h) against a big-integer
 * reference and against libsodium 1.0.22's crypto_scalarmult_curve25519, in C, under ASan/UBSan
 * and valgrind (test/c/run.sh), once per ladder (run-env):
 *   - the field: every operation of each field (mul, sq, add, sub, addsub, mul121666, invert,
 *     frombytes, tobytes, cswap) against arithmetic mod p done bit by bit on 32-bit words, on random limbs and
 *     on the edges: limbs 0, 1, 2^51 - 1, 2^51, the largest each operation is specified to take,
 *     2^64 - 1 for the radix-2^64 field; values p - 1, p, p + 1, 2p, 2^255 - 1, 2^256 - 1; and the
 *     limb bounds each operation promises for its output;
 *   - RFC 7748 section 5.2's two vectors and the iterated function after 1 and 1000 rounds
 *     (X25519_ITERATIONS=1000000 for the last one);
 *   - nat_x25519_scalarmult (and _base, not wired into the addon) against libsodium's on random
 *     (scalar, u) pairs: u with bit 255 set, u in [p, 2^255) (non-canonical), small u, the
 *     small-order encodings; the return code and q (libsodium refuses the small-order list before
 *     writing q);
 *   - under valgrind the scalar is marked undefined (as Monocypher's tests do), so a branch or a
 *     memory index on it is reported; the result is declassified after.
 * X25519_TRIALS=n sets the number of random pairs (default 10^6 in the -O3 build, 2*10^4 under
 * sanitizers, 300 under valgrind); X25519_FIELD=0 skips the field checks, which do not depend on
 * the ladder chosen and so run once. NATRIUM_DISABLE_SIMD=1 only has to show that the switch
 * picks the portable ladder, which the run before it already checked on 10^6 pairs.
 *
 * cc-sources: src/crypto/x25519_portable.c src/crypto/x25519_mulx.c src/crypto/x25519_ifma.c src/crypto/x25519_dispatch.c
 * run-env: NATRIUM_X25519=portable NATRIUM_X25519=mulx,X25519_FIELD=0 NATRIUM_X25519=ifma,X25519_FIELD=0
 * run-env: NATRIUM_DISABLE_SIMD=1,X25519_FIELD=0,X25519_TRIALS=10000 */
#include <sodium.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#include "../../src/crypto/fe25519_51.h"
#include "../../src/crypto/fe25519_64.h"
#include "../../src/crypto/fe25519_ifma.h"
#include "../../src/crypto/x25519.h"
#include "../../src/crypto/x25519_impl.h"

static void hex32(char out[65], const unsigned char b[32]) {
  for (int i = 0; i < 32; i++) sprintf(out + 2 * i, "%02x", b[i]);
}

static void unhex(unsigned char *out, const char *hex) {
  for (size_t i = 0; hex[2 * i] != '\0'; i++) {
    unsigned int v;
    sscanf(hex + 2 * i, "%2x", &v);
    out[i] = (unsigned char) v;
  }
}

/* ---- the reference: numbers as little-endian 32-bit words, arithmetic mod p bit by bit ---- */

#define W 20 /* words of a reference number: 640 bits, enough for any limb vector */
typedef struct ref { uint32_t w[W]; } ref;

static const ref REF_P = { { 0xffffffed, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff,
                             0xffffffff, 0x7fffffff } };

static int ref_ge(const ref *a, const ref *b) {
  for (int i = W - 1; i >= 0; i--) {
    if (a->w[i] != b->w[i]) return a->w[i] > b->w[i];
  }
  return 1;
}

static void ref_sub_in(ref *a, const ref *b) {
  uint64_t borrow = 0;
  for (int i = 0; i < W; i++) {
    const uint64_t d = (uint64_t) a->w[i] - b->w[i] - borrow;
    a->w[i] = (uint32_t) d;
    borrow = d >> 63;
  }
}

/* x mod p by long division: r = 2r + bit, minus p whenever r >= p */
static ref ref_mod(const ref *x) {
  ref r;
  memset(&r, 0, sizeof r);
  for (int bit = 32 * W - 1; bit >= 0; bit--) {
    for (int i = W - 1; i > 0; i--) r.w[i] = r.w[i] << 1 | r.w[i - 1] >> 31;
    r.w[0] = r.w[0] << 1 | (x->w[bit / 32] >> (bit % 32) & 1);
    if (ref_ge(&r, &REF_P)) ref_sub_in(&r, &REF_P);
  }
  return r;
}

/* a b mod p for a, b < 2^320 */
static ref ref_mul(const ref *a, const ref *b) {
  ref t;
  memset(&t, 0, sizeof t);
  for (int i = 0; i < W / 2; i++) {
    uint64_t carry = 0;
    for (int j = 0; j < W / 2; j++) {
      const uint64_t s = (uint64_t) a->w[i] * b->w[j] + t.w[i + j] + carry;
      t.w[i + j] = (uint32_t) s;
      carry = s >> 32;
    }
    t.w[i + W / 2] = (uint32_t) carry;
  }
  return ref_mod(&t);
}

static ref ref_add(const ref *a, const ref *b) {
  ref t;
  uint64_t carry = 0;
  for (int i = 0; i < W; i++) {
    const uint64_t s = (uint64_t) a->w[i] + b->w[i] + carry;
    t.w[i] = (uint32_t) s;
    carry = s >> 32;
  }
  return ref_mod(&t);
}

/* (a - b) mod p for a, b already reduced */
static ref ref_sub(const ref *a, const ref *b) {
  ref t = *a;
  if (!ref_ge(a, b)) {
    uint64_t carry = 0;
    for (int i = 0; i < W; i++) {
      const uint64_t s = (uint64_t) t.w[i] + REF_P.w[i] + carry;
      t.w[i] = (uint32_t) s;
      carry = s >> 32;
    }
  }
  ref_sub_in(&t, b);
  return t;
}

static ref ref_small(uint32_t v) {
  ref r;
  memset(&r, 0, sizeof r);
  r.w[0] = v;
  return r;
}

/* a^(p - 2) by square and multiply over the bits of p - 2 */
static ref ref_invert(const ref *a) {
  ref e = REF_P, r = ref_small(1);
  e.w[0] -= 2;
  for (int bit = 254; bit >= 0; bit--) {
    r = ref_mul(&r, &r);
    if (e.w[bit / 32] >> (bit % 32) & 1) r = ref_mul(&r, a);
  }
  return r;
}

/* sum of limbs[i] 2^(radix i) */
static ref ref_from_limbs(const uint64_t *limbs, int n, int radix) {
  ref r;
  memset(&r, 0, sizeof r);
  for (int i = 0; i < n; i++) {
    for (int b = 0; b < 64; b++) {
      if (limbs[i] >> b & 1) {
        const int at = radix * i + b;
        /* add 2^at */
        uint64_t carry = (uint64_t) 1 << (at % 32);
        for (int k = at / 32; k < W && carry; k++) {
          const uint64_t s = (uint64_t) r.w[k] + carry;
          r.w[k] = (uint32_t) s;
          carry = s >> 32;
        }
      }
    }
  }
  return r;
}

static ref ref_from_bytes(const unsigned char s[32]) {
  ref r;
  memset(&r, 0, sizeof r);
  for (int i = 0; i < 32; i++) r.w[i / 4] |= (uint32_t) s[i] << (8 * (i % 4));
  return r;
}

static void ref_to_bytes(unsigned char s[32], const ref *a) {
  for (int i = 0; i < 32; i++) s[i] = (unsigned char) (a->w[i / 4] >> (8 * (i % 4)));
}

static void expect_value(const unsigned char got[32], const ref *want, const char *what) {
  unsigned char w[32];
  char g[65], x[65];
  ref_to_bytes(w, want);
  hex32(g, got);
  hex32(x, w);
  CHECK(memcmp(got, w, 32) == 0, "%s: got %s, want %s", what, g, x);
}

/* ---- operands: random and edge limbs ---- */

static uint64_t rand64(void) {
  uint64_t v;
  randombytes_buf(&v, sizeof v);
  return v;
}

/* A limb below 2^bits, at an edge one time in two. */
static uint64_t limb_edge(int bits) {
  const uint64_t top = bits == 64 ? UINT64_MAX : ((uint64_t) 1 << bits) - 1;
  const uint64_t r = rand64();
  switch (r % 16) {
    case 0: return 0;
    case 1: return 1;
    case 2: return top;
    case 3: return top - 1;
    case 4: return ((uint64_t) 1 << 51) - 1 <= top ? ((uint64_t) 1 << 51) - 1 : top;
    case 5: return ((uint64_t) 1 << 51) <= top ? (uint64_t) 1 << 51 : top;
    case 6: return 19;
    case 7: return top >> 1;
    default: return (rand64() >> (r % 4 == 0 ? (rand64() % 64) : 0)) & top;
  }
}

/* Field elements given as bytes that matter: p - 1, p, p + 1, 2^255 - 1, 0, 1 ... */
static void edge_bytes(unsigned char s[32], unsigned k) {
  memset(s, 0, 32);
  switch (k % 8) {
    case 0: break;                                             /* 0 */
    case 1: s[0] = 1; break;                                   /* 1 */
    case 2: memset(s, 0xff, 32); s[0] = 0xec; s[31] = 0x7f; break; /* p - 1 */
    case 3: memset(s, 0xff, 32); s[0] = 0xed; s[31] = 0x7f; break; /* p */
    case 4: memset(s, 0xff, 32); s[0] = 0xee; s[31] = 0x7f; break; /* p + 1 */
    case 5: memset(s, 0xff, 32); s[31] = 0x7f; break;            /* 2^255 - 1 */
    case 6: memset(s, 0xff, 32); break;                         /* 2^256 - 1 (bit 255 ignored) */
    default: randombytes_buf(s, 32); break;
  }
}

/* ---- radix 2^51 ---- */

static ref ref51(const nat_fe51 *a) { return ref_from_limbs(a->v, 5, 51); }

static void random_fe51(nat_fe51 *a, int bits) {
  for (int i = 0; i < 5; i++) a->v[i] = limb_edge(bits);
}

static int fe51_reduced(const nat_fe51 *a) {
  for (int i = 0; i < 5; i++) {
    if (a->v[i] >= ((uint64_t) 1 << 51) + ((uint64_t) 1 << 18)) return 0;
  }
  return 1;
}

static void test_fe51(unsigned long trials) {
  for (unsigned long t = 0; t < trials; t++) {
    nat_fe51 a, b, r, br;
    unsigned char out[32];
    random_fe51(&a, 54);
    random_fe51(&b, 54);
    const ref ra = ref51(&a), rb = ref51(&b);

    nat_fe51_mul(&r, &a, &b);
    CHECK(fe51_reduced(&r), "fe51 mul output bound");
    nat_fe51_tobytes(out, &r);
    const ref want_mul = ref_mul(&ra, &rb);
    expect_value(out, &want_mul, "fe51 mul");

    nat_fe51_sq(&r, &a);
    CHECK(fe51_reduced(&r), "fe51 sq output bound");
    nat_fe51_tobytes(out, &r);
    const ref want_sq = ref_mul(&ra, &ra);
    expect_value(out, &want_sq, "fe51 sq");

    nat_fe51_mul121666(&r, &a);
    CHECK(fe51_reduced(&r), "fe51 mul121666 output bound");
    nat_fe51_tobytes(out, &r);
    const ref k121666 = ref_small(121666);
    const ref want_k = ref_mul(&ra, &k121666);
    expect_value(out, &want_k, "fe51 mul121666");

    /* add and sub take reduced operands (limbs < 2^51 + 2^18) */
    nat_fe51 ar, bq;
    random_fe51(&ar, 51);
    random_fe51(&bq, 51);
    if (t & 1) { ar.v[t % 5] += (uint64_t) 1 << 18; bq.v[(t / 5) % 5] += ((uint64_t) 1 << 18) - 1; }
    const ref lar = ref51(&ar), lbq = ref51(&bq);
    const ref rar = ref_mod(&lar), rbq = ref_mod(&lbq);
    nat_fe51_add(&r, &ar, &bq);
    nat_fe51_tobytes(out, &r);
    const ref want_add = ref_add(&rar, &rbq);
    expect_value(out, &want_add, "fe51 add");
    nat_fe51_sub(&r, &ar, &bq);
    for (int i = 0; i < 5; i++) CHECK(r.v[i] < (uint64_t) 1 << 54, "fe51 sub output bound");
    nat_fe51_tobytes(out, &r);
    const ref want_sub = ref_sub(&rar, &rbq);
    expect_value(out, &want_sub, "fe51 sub");
    /* and a sum or difference goes on into mul (the ladder's pattern) */
    nat_fe51_mul(&br, &r, &a);
    nat_fe51_tobytes(out, &br);
    const ref want_sm = ref_mul(&want_sub, &ra);
    expect_value(out, &want_sm, "fe51 mul of a difference");

    /* tobytes from any limbs below 2^63 */
    random_fe51(&r, 63);
    nat_fe51_tobytes(out, &r);
    const ref lr = ref51(&r);
    const ref want_tb = ref_mod(&lr);
    expect_value(out, &want_tb, "fe51 tobytes");

    /* frombytes then tobytes: the value mod p of the 255 low bits */
    unsigned char s[32];
    edge_bytes(s, (unsigned) t);
    nat_fe51_frombytes(&r, s);
    CHECK(fe51_reduced(&r), "fe51 frombytes bound");
    nat_fe51_tobytes(out, &r);
    unsigned char s255[32];
    memcpy(s255, s, 32);
    s255[31] &= 0x7f;
    const ref rs = ref_from_bytes(s255);
    const ref want_fb = ref_mod(&rs);
    expect_value(out, &want_fb, "fe51 frombytes/tobytes");

    /* cswap */
    nat_fe51 x = a, y = b;
    nat_fe51_cswap(&x, &y, t & 1);
    CHECK(memcmp(&x, (t & 1) ? &b : &a, sizeof x) == 0 && memcmp(&y, (t & 1) ? &a : &b, sizeof y) == 0,
          "fe51 cswap %lu", t & 1);

    if (t % 64 == 0) {
      nat_fe51_invert(&r, &a);
      nat_fe51_tobytes(out, &r);
      const ref ma = ref_mod(&ra);
      const ref want_inv = ref_invert(&ma);
      expect_value(out, &want_inv, "fe51 invert");
    }
  }
}

/* ---- radix 2^64 ---- */

#ifdef NAT_FE25519_64
#include <cpuid.h>
/* BMI2 and ADX (CPUID leaf 7 EBX bits 8 and 19), as x25519_dispatch.c asks */
static int cpu_has_mulx(void) {
  unsigned int a, b = 0, c, d;
  if (__get_cpuid_max(0, NULL) < 7) return 0;
  __cpuid_count(7, 0, a, b, c, d);
  return (b >> 8 & 1) && (b >> 19 & 1);
}

static ref ref64(const nat_fe64 *a) { return ref_from_limbs(a->v, 4, 64); }

static void random_fe64(nat_fe64 *a) {
  for (int i = 0; i < 4; i++) a->v[i] = limb_edge(64);
  /* p, 2p, 2p + 37 = 2^256 - 1 and their neighbours now and then */
  switch (rand64() % 16) {
    case 0: a->v[0] = 0xffffffffffffffed - (rand64() % 3) + 1; a->v[1] = a->v[2] = UINT64_MAX; a->v[3] = 0x7fffffffffffffff; break;
    case 1: a->v[0] = 0xffffffffffffffda + (rand64() % 40); a->v[1] = a->v[2] = a->v[3] = UINT64_MAX; break;
    default: break;
  }
}

static void test_fe64(unsigned long trials) {
  for (unsigned long t = 0; t < trials; t++) {
    nat_fe64 a, b, r;
    unsigned char out[32];
    random_fe64(&a);
    random_fe64(&b);
    const ref ra = ref64(&a), rb = ref64(&b);

    nat_fe64_mul(&r, &a, &b);
    nat_fe64_tobytes(out, &r);
    const ref want_mul = ref_mul(&ra, &rb);
    expect_value(out, &want_mul, "fe64 mul");
    nat_fe64_mul(&r, &a, &a);
    nat_fe64_tobytes(out, &r);
    const ref want_sq = ref_mul(&ra, &ra);
    expect_value(out, &want_sq, "fe64 mul (a a)");
    nat_fe64_sq(&r, &a);
    nat_fe64_tobytes(out, &r);
    expect_value(out, &want_sq, "fe64 sq");
    r = a;
    nat_fe64_mul(&r, &r, &b); /* output aliasing an input */
    nat_fe64_tobytes(out, &r);
    expect_value(out, &want_mul, "fe64 mul in place");

    nat_fe64_mul121666(&r, &a);
    nat_fe64_tobytes(out, &r);
    const ref k121666 = ref_small(121666);
    const ref want_k = ref_mul(&ra, &k121666);
    expect_value(out, &want_k, "fe64 mul121666");

    const ref ma = ref_mod(&ra), mb = ref_mod(&rb);
    nat_fe64_add(&r, &a, &b);
    nat_fe64_tobytes(out, &r);
    const ref want_add = ref_add(&ma, &mb);
    expect_value(out, &want_add, "fe64 add");
    nat_fe64_sub(&r, &a, &b);
    nat_fe64_tobytes(out, &r);
    const ref want_sub = ref_sub(&ma, &mb);
    expect_value(out, &want_sub, "fe64 sub");
    nat_fe64 s_, d_;
    nat_fe64_addsub(&s_, &d_, &a, &b);
    nat_fe64_tobytes(out, &s_);
    expect_value(out, &want_add, "fe64 addsub (sum)");
    nat_fe64_tobytes(out, &d_);
    expect_value(out, &want_sub, "fe64 addsub (difference)");

    nat_fe64_tobytes(out, &a);
    expect_value(out, &ma, "fe64 tobytes");

    unsigned char s[32], s255[32];
    edge_bytes(s, (unsigned) t);
    nat_fe64_frombytes(&r, s);
    nat_fe64_tobytes(out, &r);
    memcpy(s255, s, 32);
    s255[31] &= 0x7f;
    const ref rs = ref_from_bytes(s255);
    const ref want_fb = ref_mod(&rs);
    expect_value(out, &want_fb, "fe64 frombytes/tobytes");

    nat_fe64 x = a, y = b;
    nat_fe64_cswap(&x, &y, t & 1);
    CHECK(memcmp(&x, (t & 1) ? &b : &a, sizeof x) == 0 && memcmp(&y, (t & 1) ? &a : &b, sizeof y) == 0,
          "fe64 cswap %lu", t & 1);

    if (t % 64 == 0) {
      nat_fe64_invert(&r, &a);
      nat_fe64_tobytes(out, &r);
      const ref want_inv = ref_invert(&ma);
      expect_value(out, &want_inv, "fe64 invert");
    }
  }
}
#endif

/* ---- X25519 ---- */

static int ours(unsigned char q[32], const unsigned char n[32], const unsigned char p[32]) {
  unsigned char k[32];
  memcpy(k, n, 32);
  SECRET(k, 32);
  const int rc = nat_x25519_scalarmult(q, k, p);
  PUBLIC(q, 32);
  PUBLIC(&rc, sizeof rc);
  return rc;
}

static void test_rfc7748(void) {
  static const char *const v[2][3] = {
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
    CHECK(ours(q, n, p) == 0 && memcmp(q, want, 32) == 0, "RFC 7748 vector %d", i);
  }
  /* the iterated function: k = u = 9; then (k, u) = (X25519(k, u), k) */
  const char *env = getenv("X25519_ITERATIONS");
  const unsigned long last = env != NULL ? strtoul(env, NULL, 10) : (UNDER_VALGRIND ? 1 : 1000);
  unsigned char k[32] = { 9 }, u[32] = { 9 }, r[32], want[32];
  for (unsigned long i = 1; i <= last; i++) {
    CHECK(ours(r, k, u) == 0, "iteration %lu", i);
    memcpy(u, k, 32);
    memcpy(k, r, 32);
    if (i == 1) unhex(want, "422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079");
    else if (i == 1000) unhex(want, "684cf59ba83309552800ef566f2f4d3c1c3887c49360e3875f2eb94d99532c51");
    else if (i == 1000000) unhex(want, "7c3911e0ab2586fd864497297e575e6f3bc601c0883c30df5f4dd2d24f665424");
    else continue;
    CHECK(memcmp(k, want, 32) == 0, "RFC 7748 iterated, after %lu", i);
  }
}

/* u: random, with bit 255 set or not, or in [p, 2^255), or small, or one of libsodium's
 * small-order encodings (with bit 255 either way). */
static void pick_u(unsigned char u[32], unsigned long t) {
  randombytes_buf(u, 32);
  switch (t % 16) {
    case 0: u[31] |= 0x80; break;
    case 1: u[31] &= 0x7f; break;
    case 2: /* p .. 2^255 - 1 */
      memset(u + 1, 0xff, 31);
      u[0] = (unsigned char) (0xed + rand64() % 19);
      u[31] = (unsigned char) (0x7f | (rand64() & 0x80));
      break;
    case 3: memset(u + 1, 0, 31); u[31] = (unsigned char) (rand64() & 0x80); break; /* 0 .. 255 */
    case 4: {
      static const char *const small[] = {
        "0000000000000000000000000000000000000000000000000000000000000000",
        "0100000000000000000000000000000000000000000000000000000000000000",
        "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",
        "5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157",
        "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
      };
      unhex(u, small[rand64() % 7]);
      u[31] |= (unsigned char) (rand64() & 0x80);
      break;
    }
    default: break;
  }
}

static void test_differential(unsigned long trials) {
  unsigned long refused = 0;
  for (unsigned long t = 0; t < trials; t++) {
    unsigned char n[32], u[32], q[32], want[32];
    char hn[65], hu[65];
    randombytes_buf(n, 32);
    pick_u(u, t);
    memset(q, 0xa5, 32);
    const int rc = ours(q, n, u);
    const int want_rc = crypto_scalarmult_curve25519(want, n, u);
    hex32(hn, n);
    hex32(hu, u);
    CHECK(rc == want_rc, "return %d, libsodium %d: n %s u %s", rc, want_rc, hn, hu);
    if (rc == 0) {
      CHECK(memcmp(q, want, 32) == 0, "q differs: n %s u %s", hn, hu);
    } else {
      refused++;
      /* refused before any arithmetic (libsodium's ref10), or an all-zero result */
      int untouched = 1, zero = 1;
      for (int i = 0; i < 32; i++) { untouched &= q[i] == 0xa5; zero &= q[i] == 0; }
      CHECK(untouched || zero, "refused, q neither untouched nor zero: u %s", hu);
    }
    if (t % 8 == 0) {
      unsigned char k[32];
      memcpy(k, n, 32);
      SECRET(k, 32);
      CHECK(nat_x25519_scalarmult_base(q, k) == 0, "base");
      PUBLIC(q, 32);
      crypto_scalarmult_curve25519_base(want, n);
      CHECK(memcmp(q, want, 32) == 0, "base differs: n %s", hn);
    }
  }
  CHECK(trials < 64 || refused > 0, "no small-order input was tried");
  printf("  %lu (scalar, u) pairs vs libsodium, %lu refused by both\n", trials, refused);
}

/* ---- four elements at once, radix 2^51, AVX-512 IFMA ---- */

#ifdef NAT_FE25519_IFMA
/* AVX512F, AVX512IFMA, AVX512VL and the OS's AVX-512 state, as x25519_dispatch.c asks */
static int cpu_has_ifma(void) {
  unsigned int a, b, c, d, b7 = 0, xcr0, xcr0_hi;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c >> 27 & 1) || __get_cpuid_max(0, NULL) < 7) return 0;
  __asm__ volatile("xgetbv" : "=a"(xcr0), "=d"(xcr0_hi) : "c"(0));
  __cpuid_count(7, 0, a, b7, c, d);
  return (xcr0 & 0xe6) == 0xe6 && (b7 >> 16 & 1) && (b7 >> 21 & 1) && (b7 >> 31 & 1);
}

NAT_IFMA_TARGET static void fe4_set(nat_fe4 *r, const nat_fe51 lanes[4]) {
  for (int i = 0; i < 5; i++)
    r->v[i] = _mm256_set_epi64x((long long) lanes[3].v[i], (long long) lanes[2].v[i], (long long) lanes[1].v[i],
                                (long long) lanes[0].v[i]);
}

NAT_IFMA_TARGET static void fe4_get(nat_fe51 lanes[4], const nat_fe4 *a) {
  uint64_t w[4];
  for (int i = 0; i < 5; i++) {
    _mm256_storeu_si256((__m256i *) w, a->v[i]);
    for (int l = 0; l < 4; l++) lanes[l].v[i] = w[l];
  }
}

NAT_IFMA_TARGET static void fe4_mul(nat_fe4 *r, const nat_fe4 *a, const nat_fe4 *b) { nat_fe4_mul(r, a, b); }
NAT_IFMA_TARGET static void fe4_carry(nat_fe4 *r, const nat_fe4 *a) { nat_fe4_carry(r, a); }

/* mul: any limbs below 2^52 (the edges 2^52 - 1, 2^51, 2^51 - 1 ... included) give a b mod p in
 * every lane, limbs below 2^51 + 2^18; carry: any limbs below 2^64, the same value, the same bound */
static void test_fe4(unsigned long trials) {
  const uint64_t bound = ((uint64_t) 1 << 51) + ((uint64_t) 1 << 18);
  for (unsigned long t = 0; t < trials; t++) {
    nat_fe51 a[4], b[4], r[4];
    nat_fe4 va, vb, vr;
    unsigned char out[32];
    for (int l = 0; l < 4; l++) {
      random_fe51(&a[l], 52);
      random_fe51(&b[l], 52);
    }
    fe4_set(&va, a);
    fe4_set(&vb, b);
    fe4_mul(&vr, &va, &vb);
    fe4_get(r, &vr);
    for (int l = 0; l < 4; l++) {
      for (int i = 0; i < 5; i++) CHECK(r[l].v[i] < bound, "fe4 mul output bound");
      nat_fe51_tobytes(out, &r[l]);
      const ref ra = ref51(&a[l]), rb = ref51(&b[l]);
      const ref want = ref_mul(&ra, &rb);
      expect_value(out, &want, "fe4 mul");
    }
    for (int l = 0; l < 4; l++) random_fe51(&a[l], 64);
    fe4_set(&va, a);
    fe4_carry(&vr, &va);
    fe4_get(r, &vr);
    for (int l = 0; l < 4; l++) {
      for (int i = 0; i < 5; i++) CHECK(r[l].v[i] < bound, "fe4 carry output bound");
      nat_fe51_tobytes(out, &r[l]);
      const ref ra = ref51(&a[l]);
      const ref want = ref_mod(&ra);
      expect_value(out, &want, "fe4 carry");
    }
  }
}
#endif

int main(void) {
  if (sodium_init() < 0) return 1;
#ifdef NAT_X25519_MULX
  /* valgrind's CPUID reports no ADX, so the dispatcher keeps the portable ladder there; valgrind
   * runs MULX/ADCX/ADOX all the same, and the constant-time check must see the MULX ladder too */
  const char *force = getenv("NATRIUM_X25519");
  if (UNDER_VALGRIND && force != NULL && strcmp(force, "mulx") == 0) nat_x25519_kernels_chosen = &nat_x25519_mulx;
#endif
  printf("x25519: ladder %s\n", nat_x25519_impl());
#ifdef NAT_FE25519_IFMA
  /* a forced IFMA ladder runs where the CPU has it (valgrind's CPUID has no AVX-512) */
  if (force != NULL && strcmp(force, "ifma") == 0 && cpu_has_ifma() && cpu_has_mulx())
    CHECK(strcmp(nat_x25519_impl(), "ifma") == 0, "NATRIUM_X25519=ifma runs %s", nat_x25519_impl());
#endif
  const char *env = getenv("X25519_TRIALS");
  const unsigned long trials =
      env != NULL ? strtoul(env, NULL, 10) : UNDER_VALGRIND ? 300 : SANITIZED ? 20000 : 1000000;
  const char *field_env = getenv("X25519_FIELD");
  const unsigned long field = (field_env != NULL && strcmp(field_env, "0") == 0) ? 0
                              : UNDER_VALGRIND ? 200 : SANITIZED ? 5000 : 50000;
  if (field > 0) {
    test_fe51(field);
#ifdef NAT_FE25519_64
    if (cpu_has_mulx()) test_fe64(field);
#endif
#ifdef NAT_FE25519_IFMA
    if (cpu_has_ifma() && !UNDER_VALGRIND) test_fe4(field);
#endif
  }
  test_rfc7748();
  test_differential(trials);
  printf("x25519: %lu checks passed\n", checks);
  return 0;
}

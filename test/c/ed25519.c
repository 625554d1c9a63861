/* Our Ed25519 fixed-base a B and point encoding (src/crypto/ed25519_mulx.c on fe25519_64.h)
 * against libsodium 1.0.22's own ge25519_scalarmult_base and ge25519_p3_tobytes, in C, under
 * ASan/UBSan and valgrind (test/c/run.sh). Linked as the addon is, with --wrap, so __real_ is
 * libsodium's code and libsodium's callers reach ours while nat_ed25519_use_mulx is 1:
 *   - a B for random scalars and the edges (0, 1, L - 1, L, every single bit, a[31] with bit
 *     7 set, all 0xff, 2^255 - 19 ...): the encodings (libsodium's ge25519_p3_tobytes of both
 *     points) are equal, our limbs are reduced (< 2^51, the value < p) and X Y = Z T holds;
 *   - our ge25519_p3_tobytes against libsodium's on libsodium's points, also with every limb
 *     raised by a multiple of p (unreduced input); our crypto_scalarmult_curve25519_base
 *     against libsodium's on the same scalars;
 *   - the safegcd inversion (nat_fe64_invert_safegcd) against fe25519_64.h's power chain on random
 *     values and the edges (0, 1, p - 1, p, p + 1, 2p, 2^255 - 1, 2^256 - 1, every single bit and
 *     its complement);
 *   - crypto_sign_seed_keypair, crypto_sign_detached, crypto_scalarmult_ed25519_base(_noclamp),
 *     crypto_scalarmult_ristretto255_base and crypto_scalarmult_curve25519_base with ours
 *     switched on and off: the same bytes; RFC 8032 section 7.1's first two vectors;
 *   - under valgrind the scalar is marked undefined (check.h SECRET), so a branch or a memory
 *     index on it in our code is reported;
 *   - verify's three (variable time, public inputs): our ge25519_double_scalarmult_vartime against
 *     libsodium's on random (a, A, b), A from libsodium's decoding of random points, points
 *     plus each small-order point, and the small-order points alone; scalars random below
 *     2^253, reduced mod L, 0, 1, L - 1, sparse and dense, and with bits 253..255 set (which
 *     the wrapper hands to libsodium: checked through __wrap_); the encodings equal, our limbs
 *     canonical. Our ge25519_frombytes_negate_vartime against libsodium's on random bytes (half
 *     not on the curve), points, y = p .. p + 18 and 0, 1, -1, the order-8 points, each with
 *     bit 255 clear and set: the same return value and the same X, Y, Z, T mod p. Our
 *     ge25519_tobytes on libsodium's points, also with unreduced limbs;
 *   - crypto_sign_verify_detached, crypto_sign_open and crypto_sign_ed25519_pk_to_curve25519
 *     with ours on and off: the same answers on valid signatures, flipped bits in R, s, the
 *     message and the key, s + L, s with its top bits set, small-order R and A, non-canonical A,
 *     random signatures; RFC 8032 section 7.1 TEST 1..3 and Wycheproof's ed25519_test.json (every
 *     case's expected result, both ways).
 * VERIFY_TRIALS=n sets the number of random double-base products (default 10^5 in the -O3
 * build, 2000 under sanitizers, 20 under valgrind); frombytes runs
 * half as many, the verify API rounds (about 20 verifies each) a hundredth.
 * ED25519_TRIALS=n sets the number of random scalars (default 10^6 in the -O3 build, 2*10^4
 * under sanitizers, 200 under valgrind); the crypto_sign rounds are a
 * tenth of it.
 *
 * cc-sources: src/crypto/ed25519_mulx.c src/crypto/sha2.c
 * cc-flags: -DNAT_ED25519_WRAP -Wl,--wrap=ge25519_scalarmult_base -Wl,--wrap=ge25519_p3_tobytes
 * cc-flags: -Wl,--wrap=crypto_scalarmult_curve25519_base -Wl,--wrap=ge25519_double_scalarmult_vartime
 * cc-flags: -Wl,--wrap=ge25519_tobytes -Wl,--wrap=ge25519_frombytes_negate_vartime */
#include <sodium.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#include "../../src/crypto/ed25519.h"
#include "../../src/crypto/fe25519_64.h"
#include "../../src/crypto/fe25519_51.h"

#if defined(NAT_ED25519_MULX) && defined(NAT_ED25519_WRAP)
void __real_ge25519_scalarmult_base(nat_ge25519_p3_51 *h, const unsigned char *a);
void __real_ge25519_p3_tobytes(unsigned char *s, const nat_ge25519_p3_51 *h);
int __real_crypto_scalarmult_curve25519_base(unsigned char *q, const unsigned char *n);
void __real_ge25519_double_scalarmult_vartime(nat_ge25519_p2_51 *r, const unsigned char *a, const nat_ge25519_p3_51 *A,
                                              const unsigned char *b);
void __real_ge25519_tobytes(unsigned char *s, const nat_ge25519_p2_51 *h);
int __real_ge25519_frombytes_negate_vartime(nat_ge25519_p3_51 *h, const unsigned char *s);

static void unhex(unsigned char *out, const char *hex) {
  for (size_t i = 0; hex[2 * i] != '\0'; i++) {
    unsigned int v;
    sscanf(hex + 2 * i, "%2x", &v);
    out[i] = (unsigned char) v;
  }
}

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint64_t next64(void) { /* splitmix64: reproducible runs */
  uint64_t z = (rng += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}
static void fill(unsigned char *b, size_t n) {
  for (size_t i = 0; i < n; i++) b[i] = (unsigned char) next64();
}

static void limbs_to_fe64(nat_fe64 *r, const uint64_t h[5]) { /* h reduced: each < 2^51 */
  r->v[0] = h[0] | h[1] << 51;
  r->v[1] = h[1] >> 13 | h[2] << 38;
  r->v[2] = h[2] >> 26 | h[3] << 25;
  r->v[3] = h[3] >> 39 | h[4] << 12;
}

static void check_reduced(const uint64_t h[5], const char *what) {
  static const unsigned char zero[32];
  nat_fe64 f;
  unsigned char s[32], raw[32];
  for (int i = 0; i < 5; i++) CHECK(h[i] >> 51 == 0, "%s limb %d = %llx", what, i, (unsigned long long) h[i]);
  limbs_to_fe64(&f, h);
  for (int i = 0; i < 4; i++) nat_fe64_store64(raw + 8 * i, f.v[i]);
  nat_fe64_tobytes(s, &f);
  CHECK(memcmp(s, raw, 32) == 0, "%s is not below p", what);
  (void) zero;
}

/* our a B against libsodium's */
static void one_scalar(const unsigned char a[32]) {
  nat_ge25519_p3_51 ours, theirs;
  unsigned char so[32], st[32], sn[32], k[32];
  memcpy(k, a, 32);
  SECRET(k, 32);
  nat_ed25519_scalarmult_base_mulx(&ours, k);
  PUBLIC(k, 32);
  PUBLIC(&ours, sizeof ours);
  __real_ge25519_scalarmult_base(&theirs, a);
  __real_ge25519_p3_tobytes(so, &ours);
  __real_ge25519_p3_tobytes(st, &theirs);
  CHECK(memcmp(so, st, 32) == 0, "a B differs for a[0] %02x a[31] %02x", a[0], a[31]);
  check_reduced(ours.X, "X");
  check_reduced(ours.Y, "Y");
  check_reduced(ours.Z, "Z");
  check_reduced(ours.T, "T");
  nat_fe64 x, y, z, t, xy, zt;
  unsigned char b1[32], b2[32];
  limbs_to_fe64(&x, ours.X); limbs_to_fe64(&y, ours.Y); limbs_to_fe64(&z, ours.Z); limbs_to_fe64(&t, ours.T);
  nat_fe64_mul(&xy, &x, &y);
  nat_fe64_mul(&zt, &z, &t);
  nat_fe64_tobytes(b1, &xy);
  nat_fe64_tobytes(b2, &zt);
  CHECK(memcmp(b1, b2, 32) == 0, "X Y != Z T");
  /* our encoding of libsodium's point, and of it with limbs raised by 8p (2^54 - 152, 2^54 - 8, ...) */
  nat_ed25519_p3_tobytes_mulx(sn, &theirs);
  CHECK(memcmp(sn, st, 32) == 0, "p3_tobytes differs");
  nat_ge25519_p3_51 up = theirs;
  uint64_t *limbs[3] = { up.X, up.Y, up.Z };
  const uint64_t m = next64() & 7;
  for (int c = 0; c < 3; c++) {
    limbs[c][0] += m * ((UINT64_C(1) << 54) - 152);
    for (int i = 1; i < 5; i++) limbs[c][i] += m * ((UINT64_C(1) << 54) - 8);
  }
  nat_ed25519_p3_tobytes_mulx(sn, &up);
  CHECK(memcmp(sn, st, 32) == 0, "p3_tobytes differs on unreduced limbs (8p times %llu)", (unsigned long long) m);
  /* X25519's base: the u of clamp(a) B */
  unsigned char uo[32], ut[32];
  SECRET(k, 32);
  nat_x25519_base_mulx(uo, k);
  PUBLIC(k, 32);
  PUBLIC(uo, 32);
  CHECK(__real_crypto_scalarmult_curve25519_base(ut, a) == 0, "libsodium's X25519 base failed");
  CHECK(memcmp(uo, ut, 32) == 0, "X25519 base differs for a[0] %02x a[31] %02x", a[0], a[31]);
}

/* the safegcd inversion against the power chain of fe25519_64.h */
static void one_inverse(const uint64_t in[4]) {
  nat_fe64 a, want, got;
  unsigned char w[32], g[32];
  nat_fe64 k;
  memcpy(a.v, in, 32);
  memcpy(k.v, in, 32);
  SECRET(k.v, 32);
  nat_fe64_invert_safegcd(&got, &k);
  PUBLIC(k.v, 32);
  PUBLIC(got.v, 32);
  nat_fe64_invert(&want, &a);
  nat_fe64_tobytes(w, &want);
  nat_fe64_tobytes(g, &got);
  CHECK(memcmp(w, g, 32) == 0, "1/a differs for a = %016llx %016llx %016llx %016llx", (unsigned long long) in[3],
        (unsigned long long) in[2], (unsigned long long) in[1], (unsigned long long) in[0]);
}

static void set_bytes(unsigned char a[32], const char *hex) {
  memset(a, 0, 32);
  unhex(a, hex);
}

/* libsodium's public API with ours on and off */
static void one_api_round(void) {
  unsigned char seed[32], pk1[32], sk1[64], pk2[32], sk2[64], msg[100], sig1[64], sig2[64], n[32], q1[32], q2[32];
  fill(seed, 32);
  const size_t mlen = (size_t) (next64() % sizeof msg);
  fill(msg, mlen);
  fill(n, 32);
  nat_ed25519_use_mulx = 1;
  crypto_sign_seed_keypair(pk1, sk1, seed);
  crypto_sign_detached(sig1, NULL, msg, mlen, sk1);
  nat_ed25519_use_mulx = 0;
  crypto_sign_seed_keypair(pk2, sk2, seed);
  crypto_sign_detached(sig2, NULL, msg, mlen, sk2);
  CHECK(memcmp(pk1, pk2, 32) == 0 && memcmp(sk1, sk2, 64) == 0, "crypto_sign_seed_keypair differs");
  CHECK(memcmp(sig1, sig2, 64) == 0, "crypto_sign_detached differs");
  CHECK(crypto_sign_verify_detached(sig1, msg, mlen, pk1) == 0, "signature does not verify");
  int (*fns[4])(unsigned char *, const unsigned char *) = { crypto_scalarmult_ed25519_base,
    crypto_scalarmult_ed25519_base_noclamp, crypto_scalarmult_ristretto255_base, crypto_scalarmult_curve25519_base };
  for (int f = 0; f < 4; f++) {
    nat_ed25519_use_mulx = 1;
    const int r1 = fns[f](q1, n);
    nat_ed25519_use_mulx = 0;
    const int r2 = fns[f](q2, n);
    CHECK(r1 == r2 && memcmp(q1, q2, 32) == 0, "scalarmult base function %d differs", f);
  }
}

/* ---- verify ---- */

/* the canonical bytes of five limbs < 2^63 */
static void fe51_bytes(unsigned char s[32], const uint64_t h[5]) {
  nat_fe51 f;
  memcpy(f.v, h, 40);
  nat_fe51_tobytes(s, &f);
}

static int p3_same(const nat_ge25519_p3_51 *x, const nat_ge25519_p3_51 *y) {
  const uint64_t *a[4] = { x->X, x->Y, x->Z, x->T }, *b[4] = { y->X, y->Y, y->Z, y->T };
  for (int c = 0; c < 4; c++) {
    unsigned char u[32], v[32];
    fe51_bytes(u, a[c]);
    fe51_bytes(v, b[c]);
    if (memcmp(u, v, 32) != 0) return 0;
  }
  return 1;
}

static const char *small_order[] = {
  "0100000000000000000000000000000000000000000000000000000000000000", /* identity */
  "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", /* y = -1, order 2 */
  "0000000000000000000000000000000000000000000000000000000000000000", /* y = 0, order 4 */
  "0000000000000000000000000000000000000000000000000000000000000080",
  "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05", /* order 8 */
  "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
  "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
  "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
};
#define N_SMALL (sizeof small_order / sizeof small_order[0])

/* our frombytes_negate_vartime against libsodium's on s */
static void one_frombytes(const unsigned char s[32]) {
  nat_ge25519_p3_51 ours, theirs;
  memset(&ours, 0, sizeof ours);
  memset(&theirs, 0, sizeof theirs);
  const int ro = nat_ed25519_frombytes_negate_vartime_mulx(&ours, s);
  const int rt = __real_ge25519_frombytes_negate_vartime(&theirs, s);
  CHECK(ro == rt, "frombytes_negate_vartime returns %d, libsodium %d (s[0] %02x s[31] %02x)", ro, rt, s[0], s[31]);
  if (ro == 0 && rt == 0) {
    CHECK(p3_same(&ours, &theirs), "frombytes_negate_vartime point differs (s[0] %02x s[31] %02x)", s[0], s[31]);
    CHECK(memcmp(ours.Y, theirs.Y, 40) == 0, "frombytes_negate_vartime Y limbs differ");
  }
}

/* a scalar of one of the kinds listed above the file */
static void verify_scalar(unsigned char a[32], long i) {
  static const char *fixed[] = { "", "01", "ecd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010",
    "edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010",
    "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff1f" };
  switch (i % 8) {
  case 0: case 1: case 2:
    fill(a, 32);
    a[31] &= 0x1f;
    break;
  case 3: {
    unsigned char wide[64];
    fill(wide, 64);
    crypto_core_ed25519_scalar_reduce(a, wide);
    break;
  }
  case 4:
    set_bytes(a, fixed[(i / 8) % 5]);
    break;
  case 5: /* sparse */
    memset(a, 0, 32);
    for (int k = 0; k < 3; k++) { const int bit = (int) (next64() % 253); a[bit >> 3] |= (unsigned char) (1 << (bit & 7)); }
    break;
  case 6: /* dense */
    memset(a, 0xff, 32);
    a[31] = 0x1f;
    for (int k = 0; k < 3; k++) { const int bit = (int) (next64() % 253); a[bit >> 3] &= (unsigned char) ~(1 << (bit & 7)); }
    break;
  default: /* bits 253..255 too: through the wrapper, to libsodium */
    fill(a, 32);
    a[31] |= (unsigned char) (0x20 << (next64() % 3));
    break;
  }
}

static unsigned char pool[64][32]; /* encodings of points: random, plus small order, small order */

static void one_dsm(long i) {
  unsigned char a[32], b[32], eo[32], et[32];
  nat_ge25519_p3_51 A;
  nat_ge25519_p2_51 ro, rt;
  const unsigned char *enc = pool[next64() % 64];
  CHECK(__real_ge25519_frombytes_negate_vartime(&A, enc) == 0, "pool point does not decode");
  verify_scalar(a, i);
  verify_scalar(b, i / 8 + (long) (next64() & 7));
  nat_ed25519_use_mulx = 1;
  __wrap_ge25519_double_scalarmult_vartime(&ro, a, &A, b);
  __real_ge25519_double_scalarmult_vartime(&rt, a, &A, b);
  __real_ge25519_tobytes(et, &rt);
  if (i & 1) __real_ge25519_tobytes(eo, &ro);
  else nat_ed25519_tobytes_mulx(eo, &ro);
  CHECK(memcmp(eo, et, 32) == 0, "double_scalarmult_vartime differs (a[31] %02x b[31] %02x)", a[31], b[31]);
  if (i & 3) return;
  if (nat_ed25519_dsm_in_range(a, b)) {
    check_reduced(ro.X, "dsm X");
    check_reduced(ro.Y, "dsm Y");
    check_reduced(ro.Z, "dsm Z");
  }
  /* every fourth: our tobytes on libsodium's point, and with limbs raised by m 8p */
  nat_ed25519_tobytes_mulx(eo, &rt);
  CHECK(memcmp(eo, et, 32) == 0, "tobytes differs");
  nat_ge25519_p2_51 up = rt;
  uint64_t *limbs[3] = { up.X, up.Y, up.Z };
  const uint64_t m = next64() & 7;
  for (int c = 0; c < 3; c++) {
    limbs[c][0] += m * ((UINT64_C(1) << 54) - 152);
    for (int k = 1; k < 5; k++) limbs[c][k] += m * ((UINT64_C(1) << 54) - 8);
  }
  nat_ed25519_tobytes_mulx(eo, &up);
  CHECK(memcmp(eo, et, 32) == 0, "tobytes differs on unreduced limbs");
}

/* the verify API with ours on and off */
static int verify_both(const unsigned char *sig, const unsigned char *m, size_t mlen, const unsigned char *pk) {
  unsigned char sm[64 + 128], out[128], x1[32], x2[32];
  unsigned long long ol1 = 0, ol2 = 0;
  nat_ed25519_use_mulx = 1;
  const int r1 = crypto_sign_verify_detached(sig, m, mlen, pk);
  nat_ed25519_use_mulx = 0;
  const int r2 = crypto_sign_verify_detached(sig, m, mlen, pk);
  CHECK(r1 == r2, "crypto_sign_verify_detached: ours %d, libsodium %d", r1, r2);
  if (mlen <= 128) {
    memcpy(sm, sig, 64);
    memcpy(sm + 64, m, mlen);
    nat_ed25519_use_mulx = 1;
    const int o1 = crypto_sign_open(out, &ol1, sm, 64 + mlen, pk);
    nat_ed25519_use_mulx = 0;
    const int o2 = crypto_sign_open(out, &ol2, sm, 64 + mlen, pk);
    CHECK(o1 == o2 && ol1 == ol2 && o1 == r1, "crypto_sign_open differs");
  }
  nat_ed25519_use_mulx = 1;
  const int c1 = crypto_sign_ed25519_pk_to_curve25519(x1, pk);
  nat_ed25519_use_mulx = 0;
  const int c2 = crypto_sign_ed25519_pk_to_curve25519(x2, pk);
  CHECK(c1 == c2 && (c1 != 0 || memcmp(x1, x2, 32) == 0), "crypto_sign_ed25519_pk_to_curve25519 differs");
  return r1;
}

static const unsigned char L_bytes[32] = { 0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7,
                                           0xa2, 0xde, 0xf9, 0xde, 0x14, [31] = 0x10 };

static void one_verify_round(long i) {
  unsigned char seed[32], pk[32], sk[64], msg[100], sig[64], t[64], tp[32], tm[100];
  fill(seed, 32);
  const size_t mlen = (size_t) (next64() % sizeof msg);
  fill(msg, mlen);
  crypto_sign_seed_keypair(pk, sk, seed);
  crypto_sign_detached(sig, NULL, msg, mlen, sk);
  CHECK(verify_both(sig, msg, mlen, pk) == 0, "valid signature rejected");
  const int bit = (int) (next64() % 512);
  memcpy(t, sig, 64);
  t[bit >> 3] ^= (unsigned char) (1 << (bit & 7));
  CHECK(verify_both(t, msg, mlen, pk) != 0, "signature with bit %d flipped accepted", bit);
  memcpy(tp, pk, 32);
  tp[next64() % 32] ^= (unsigned char) (1 << (next64() & 7));
  verify_both(sig, msg, mlen, tp);
  if (mlen > 0) {
    memcpy(tm, msg, mlen);
    tm[next64() % mlen] ^= 1;
    CHECK(verify_both(sig, tm, mlen, pk) != 0, "tampered message accepted");
  }
  /* s + L: the same point equation, non-canonical s (libsodium rejects) */
  memcpy(t, sig, 64);
  unsigned int c = 0;
  for (int k = 0; k < 32; k++) { c += t[32 + k] + L_bytes[k]; t[32 + k] = (unsigned char) c; c >>= 8; }
  verify_both(t, msg, mlen, pk);
  memcpy(t, sig, 64);
  t[63] |= (unsigned char) (0x20 << (i % 3));
  verify_both(t, msg, mlen, pk);
  /* small-order R, small-order or non-canonical A */
  memcpy(t, sig, 64);
  set_bytes(t, small_order[i % N_SMALL]);
  verify_both(t, msg, mlen, pk);
  set_bytes(tp, small_order[(i / N_SMALL) % N_SMALL]);
  verify_both(sig, msg, mlen, tp);
  memset(tp, 0xff, 32);
  tp[0] = (unsigned char) (0xed + (i % 19)); tp[31] = (unsigned char) (i & 1 ? 0xff : 0x7f);
  verify_both(sig, msg, mlen, tp);
  /* random */
  fill(t, 64);
  if (i & 1) t[63] &= 0x0f;
  verify_both(t, msg, mlen, pk);
}

/* Wycheproof ed25519_test.json: the "pk", "msg", "sig" and "result" strings in file order */
static size_t json_hex(unsigned char *out, size_t cap, const char *p) {
  size_t n = 0;
  while (p[2 * n] != '"' && n < cap) {
    unsigned int v;
    if (sscanf(p + 2 * n, "%2x", &v) != 1) break;
    out[n++] = (unsigned char) v;
  }
  return n;
}

static long wycheproof(const char *file) {
  FILE *f = fopen(file, "rb");
  CHECK(f != NULL, "cannot open %s", file);
  if (f == NULL) return 0;
  fseek(f, 0, SEEK_END);
  const long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc((size_t) size + 1);
  CHECK(fread(text, 1, (size_t) size, f) == (size_t) size, "short read");
  text[size] = '\0';
  fclose(f);
  unsigned char pk[32], sig[64], msg[8192];
  size_t siglen = 0, mlen = 0;
  int have_pk = 0;
  long cases = 0;
  for (const char *p = text; (p = strchr(p, '"')) != NULL;) {
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
      } else {
        CHECK(!valid, "Wycheproof case %ld: a %zu-byte signature marked valid", cases, siglen);
      }
      cases++;
    }
    p++;
  }
  free(text);
  return cases;
}

static void verify_tests(long trials) {
  /* RFC 8032 section 7.1 TEST 1..3: verify with ours */
  static const char *rfc[3][3] = {
    { "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
      "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b" },
    { "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
      "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00" },
    { "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
      "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a" },
  };
  for (int v = 0; v < 3; v++) {
    unsigned char pk[32], msg[2], sig[64];
    unhex(pk, rfc[v][0]);
    unhex(msg, rfc[v][1]);
    unhex(sig, rfc[v][2]);
    CHECK(verify_both(sig, msg, strlen(rfc[v][1]) / 2, pk) == 0, "RFC 8032 TEST %d does not verify", v + 1);
    sig[0] ^= 1;
    CHECK(verify_both(sig, msg, strlen(rfc[v][1]) / 2, pk) != 0, "RFC 8032 TEST %d verifies with R changed", v + 1);
  }
  const long wp = wycheproof("test/vectors/wycheproof/ed25519_test.json");
  CHECK(wp > 100, "only %ld Wycheproof cases", wp);

  /* frombytes: the special encodings, then random bytes */
  unsigned char s[32];
  for (size_t k = 0; k < N_SMALL; k++) {
    set_bytes(s, small_order[k]);
    one_frombytes(s);
    s[31] ^= 0x80;
    one_frombytes(s);
  }
  for (int k = 0; k <= 18; k++) { /* y = p + k, both signs */
    memset(s, 0xff, 32);
    s[0] = (unsigned char) (0xed + k);
    s[31] = 0x7f;
    one_frombytes(s);
    s[31] = 0xff;
    one_frombytes(s);
  }
  for (long k = 0; k < trials / 2; k++) {
    fill(s, 32);
    if (k & 1) { /* a point: random scalar times B, maybe plus a small-order point */
      unsigned char n[32], q[32];
      fill(n, 32);
      n[31] &= 0x0f;
      crypto_scalarmult_ed25519_base_noclamp(s, n);
      if (k & 2) {
        set_bytes(q, small_order[(k >> 2) % N_SMALL]);
        if (crypto_core_ed25519_add(n, s, q) == 0) memcpy(s, n, 32);
      }
      if (k & 4) s[31] ^= 0x80;
    }
    one_frombytes(s);
  }

  /* the double-base product: a pool of points (random, random plus small order, small order) */
  for (int k = 0; k < 64; k++) {
    unsigned char n[32], q[32];
    if (k < (int) N_SMALL) {
      set_bytes(pool[k], small_order[k]);
      continue;
    }
    fill(n, 32);
    n[31] &= 0x0f;
    crypto_scalarmult_ed25519_base_noclamp(pool[k], n);
    if (k < 40) {
      set_bytes(q, small_order[k % N_SMALL]);
      CHECK(crypto_core_ed25519_add(n, pool[k], q) == 0, "P + T failed");
      memcpy(pool[k], n, 32);
    }
  }
  for (long k = 0; k < trials; k++) one_dsm(k);
  const long rounds = trials / 100 > 0 ? trials / 100 : 1;
  for (long k = 0; k < rounds; k++) one_verify_round(k);
  nat_ed25519_use_mulx = 1;
  printf("ed25519 verify: %ld double-base products, %ld frombytes, %ld API rounds, %ld Wycheproof cases\n", trials, trials / 2,
         rounds, wp);
}

int main(void) {
  if (sodium_init() < 0) return 1;
  const int have = nat_ed25519_use_mulx; /* what the constructor found */
  unsigned int cpu_b = 0, a_, c_, d_;
  __asm__("cpuid" : "=a"(a_), "=b"(cpu_b), "=c"(c_), "=d"(d_) : "a"(7), "c"(0));
  int mulx = (cpu_b >> 8 & 1) && (cpu_b >> 19 & 1);
  if (UNDER_VALGRIND) { /* its CPUID hides ADX, yet it runs MULX/ADCX/ADOX: ask the host's flags */
    FILE *info = fopen("/proc/cpuinfo", "r");
    char line[4096];
    while (info != NULL && fgets(line, sizeof line, info) != NULL) {
      if (strncmp(line, "flags", 5) == 0) {
        mulx = strstr(line, " bmi2") != NULL && strstr(line, " adx") != NULL;
        break;
      }
    }
    if (info != NULL) fclose(info);
  }
  if (!mulx) {
    printf("ed25519: no BMI2/ADX on this CPU, nothing to test\n");
    return 0;
  }
  (void) have;
  const char *env = getenv("ED25519_TRIALS");
  long trials = env ? atol(env) : UNDER_VALGRIND ? 200 : SANITIZED ? 20000 : 1000000;

  /* RFC 8032 section 7.1, TEST 1 and TEST 2 */
  static const char *rfc[2][4] = {
    { "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
      "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
      "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b" },
    { "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
      "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
      "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00" },
  };
  for (int v = 0; v < 2; v++) {
    unsigned char seed[32], pk[32], sk[64], msg[1], sig[64], want_pk[32], want_sig[64];
    unhex(seed, rfc[v][0]);
    unhex(want_pk, rfc[v][1]);
    unhex(msg, rfc[v][2]);
    unhex(want_sig, rfc[v][3]);
    nat_ed25519_use_mulx = 1;
    crypto_sign_seed_keypair(pk, sk, seed);
    crypto_sign_detached(sig, NULL, msg, strlen(rfc[v][2]) / 2, sk);
    CHECK(memcmp(pk, want_pk, 32) == 0, "RFC 8032 TEST %d public key", v + 1);
    CHECK(memcmp(sig, want_sig, 64) == 0, "RFC 8032 TEST %d signature", v + 1);
  }

  static const uint64_t inv_edges[][4] = {
    { 0, 0, 0, 0 }, { 1, 0, 0, 0 }, { 2, 0, 0, 0 }, { 19, 0, 0, 0 },
    { UINT64_C(0xffffffffffffffec), ~UINT64_C(0), ~UINT64_C(0), UINT64_C(0x7fffffffffffffff) }, /* p - 1 */
    { UINT64_C(0xffffffffffffffed), ~UINT64_C(0), ~UINT64_C(0), UINT64_C(0x7fffffffffffffff) }, /* p */
    { UINT64_C(0xffffffffffffffee), ~UINT64_C(0), ~UINT64_C(0), UINT64_C(0x7fffffffffffffff) }, /* p + 1 */
    { ~UINT64_C(0), ~UINT64_C(0), ~UINT64_C(0), UINT64_C(0x7fffffffffffffff) },                 /* 2^255 - 1 */
    { 0, 0, 0, UINT64_C(0x8000000000000000) },                                                  /* 2^255 */
    { UINT64_C(0xffffffffffffffda), ~UINT64_C(0), ~UINT64_C(0), ~UINT64_C(0) },                 /* 2p */
    { ~UINT64_C(0), ~UINT64_C(0), ~UINT64_C(0), ~UINT64_C(0) },                                 /* 2^256 - 1 */
    { 0, 0, 0, UINT64_C(0x4000000000000000) }, { 0, 0, 1, 0 }, { 0, 1, 0, 0 },
  };
  for (size_t i = 0; i < sizeof inv_edges / sizeof inv_edges[0]; i++) one_inverse(inv_edges[i]);
  for (int bit = 0; bit < 256; bit++) {
    uint64_t x[4] = { 0, 0, 0, 0 };
    x[bit >> 6] = UINT64_C(1) << (bit & 63);
    one_inverse(x);
    for (int j = 0; j < 4; j++) x[j] = ~x[j];
    one_inverse(x);
  }
  for (long i = 0; i < trials; i++) {
    uint64_t x[4] = { next64(), next64(), next64(), next64() };
    if (i % 3 == 1) x[0] &= 0xff, x[1] = x[2] = 0, x[3] = 0; /* small */
    if (i % 3 == 2) x[1] = x[2] = ~UINT64_C(0), x[3] |= UINT64_C(0x7fffffffffffffff); /* near p, 2p, 2^256 */
    one_inverse(x);
  }

  static const char *edges[] = {
    "", "01", "02", "08", "10", "11",
    "ecd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010", /* L - 1 */
    "edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010", /* L */
    "eed3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010", /* L + 1 */
    "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", /* p */
    "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", /* 2^255 - 1 */
    "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff", /* all 0xff */
    "0000000000000000000000000000000000000000000000000000000000000080", /* bit 255 only */
    "0000000000000000000000000000000000000000000000000000000000000040", /* bit 254 (clamped) */
    "8888888888888888888888888888888888888888888888888888888888888808", /* every digit 8 */
    "7777777777777777777777777777777777777777777777777777777777777777",
    "f8ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", /* clamped max */
  };
  unsigned char a[32];
  for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
    set_bytes(a, edges[i]);
    one_scalar(a);
  }
  for (int bit = 0; bit < 256; bit++) {
    memset(a, 0, 32);
    a[bit >> 3] = (unsigned char) (1 << (bit & 7));
    one_scalar(a);
    memset(a, 0xff, 32);
    a[bit >> 3] ^= (unsigned char) (1 << (bit & 7));
    one_scalar(a);
  }
  for (int d = 0; d < 256; d++) { /* every value of the top byte */
    fill(a, 32);
    a[31] = (unsigned char) d;
    one_scalar(a);
  }
  for (long i = 0; i < trials; i++) {
    fill(a, 32);
    if (i & 1) a[31] &= 127; /* libsodium's callers' range, and the rest */
    one_scalar(a);
  }
  const long rounds = trials / 10 > 0 ? trials / 10 : 1;
  for (long i = 0; i < rounds; i++) one_api_round();
  const char *venv = getenv("VERIFY_TRIALS");
  verify_tests(venv ? atol(venv) : UNDER_VALGRIND ? 20 : SANITIZED ? 2000 : 100000);
  printf("ed25519: %lu checks passed (%ld random scalars, %ld crypto_sign rounds)\n", checks, trials, rounds);
  return 0;
}
#else
int main(void) {
  printf("ed25519: not x86-64 with the --wrap build, nothing to test\n");
  return 0;
}
#endif

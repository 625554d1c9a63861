/* Ed25519 fixed-base multiplication and point encoding on the radix-2^64 MULX/ADX field, for
 * libsodium's ge25519_scalarmult_base and ge25519_p3_tobytes (see ed25519.h), and the choice,
 * made once at load, of whether the --wrap entry points run them.
 *
 * a B: a = sum e[i] 16^i with e[i] in [-8, 8] (e[63] up to 16 when a[31] > 127: as in
 * libsodium, a digit above 8 adds nothing); the odd digits' table entries summed, times 16,
 * then the even digits' added: 64 mixed additions (extended + affine (y + x, y - x, 2dxy),
 * 7 multiplications each with the conversion back) and four doublings. Table entry j of row i
 * is j 256^i B (ed25519_base_table.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ed25519.h"

int nat_ed25519_use_mulx = 0;

const char *nat_ed25519_impl(void) {
  return nat_ed25519_use_mulx ? "mulx" : "libsodium";
}

#ifdef NAT_ED25519_MULX
#include <emmintrin.h>

#include "ed25519_base_table.h"
#include "fe25519_64.h"

typedef struct { nat_fe64 X, Y, Z, T; } nat_ge64_p3;   /* x = X/Z, y = Y/Z, XY = ZT */
typedef struct { nat_fe64 X, Y, Z, T; } nat_ge64_p1p1; /* x = X/Z, y = Y/T */
typedef struct { nat_fe64 X, Y, Z; } nat_ge64_p2;      /* x = X/Z, y = Y/Z */
typedef struct { nat_fe64 yplusx, yminusx, xy2d; } nat_ge64_precomp;

static void nat_ge64_p1p1_to_p3(nat_ge64_p3 *r, const nat_ge64_p1p1 *p) {
  nat_fe64_mul(&r->X, &p->X, &p->T);
  nat_fe64_mul(&r->Y, &p->Y, &p->Z);
  nat_fe64_mul(&r->Z, &p->Z, &p->T);
  nat_fe64_mul(&r->T, &p->X, &p->Y);
}

static void nat_ge64_p1p1_to_p2(nat_ge64_p2 *r, const nat_ge64_p1p1 *p) {
  nat_fe64_mul(&r->X, &p->X, &p->T);
  nat_fe64_mul(&r->Y, &p->Y, &p->Z);
  nat_fe64_mul(&r->Z, &p->Z, &p->T);
}

/* r = 2 p (dbl-2008-hwcd with a = -1) */
static void nat_ge64_p2_dbl(nat_ge64_p1p1 *r, const nat_ge64_p2 *p) {
  nat_fe64 xx, yy, b, a;
  nat_fe64_sq(&xx, &p->X);
  nat_fe64_sq(&yy, &p->Y);
  nat_fe64_sq(&b, &p->Z);
  nat_fe64_add(&b, &b, &b);
  nat_fe64_add(&a, &p->X, &p->Y);
  nat_fe64_sq(&a, &a);
  nat_fe64_addsub(&r->Y, &r->Z, &yy, &xx);
  nat_fe64_sub(&r->X, &a, &r->Y);
  nat_fe64_sub(&r->T, &b, &r->Z);
}

/* r = p + q, q affine (madd-2008-hwcd-3 with a = -1) */
static void nat_ge64_madd(nat_ge64_p1p1 *r, const nat_ge64_p3 *p, const nat_ge64_precomp *q) {
  nat_fe64 a, b, c, d;
  nat_fe64_addsub(&a, &b, &p->Y, &p->X);
  nat_fe64_mul(&a, &a, &q->yplusx);
  nat_fe64_mul(&b, &b, &q->yminusx);
  nat_fe64_mul(&c, &q->xy2d, &p->T);
  nat_fe64_add(&d, &p->Z, &p->Z);
  nat_fe64_addsub(&r->Y, &r->X, &a, &b);
  nat_fe64_addsub(&r->Z, &r->T, &d, &c);
}

/* t = e 256^row B for e in [-8, 16]: entry |e| of the row read by masks over all eight
 * (the identity (1, 1, 0) when |e| is 0 or above 8), then negated when e < 0 (y + x and y - x
 * swapped, 2dxy negated). The masks and ors run on SSE2 (every x86-64): each entry is six
 * 16-byte loads, a third of the scalar code's instructions. */
static void nat_ge64_select(nat_ge64_precomp *t, int row, signed char e) {
  const uint64_t neg = (uint64_t) (unsigned char) e >> 7;
  const uint64_t babs = (uint64_t) (unsigned char) (e - (signed char) ((-(signed char) neg & e) * 2));
  __m128i acc[6];
  uint64_t none = 1; /* cleared when an entry matches: then (1, 1, 0) is not added */
  for (int k = 0; k < 6; k++) acc[k] = _mm_setzero_si128();
  for (int j = 0; j < 8; j++) {
    uint64_t m = 0 - ((((babs ^ (uint64_t) (j + 1)) - 1) >> 63) & 1); /* babs < 2^8 */
    __asm__("" : "+r"(m));
    none &= ~m;
    const __m128i mv = _mm_set1_epi64x((long long) m);
    const __m128i *src = (const __m128i *) &nat_ed25519_base_table[row][j][0][0];
    for (int k = 0; k < 6; k++) acc[k] = _mm_or_si128(acc[k], _mm_and_si128(mv, _mm_load_si128(src + k)));
  }
  acc[0] = _mm_or_si128(acc[0], _mm_set_epi64x(0, (long long) none));
  acc[2] = _mm_or_si128(acc[2], _mm_set_epi64x(0, (long long) none));
  /* negation: y + x and y - x swapped, 2dxy replaced by 0 - 2dxy */
  const __m128i nv = _mm_set1_epi64x((long long) (0 - neg));
  for (int k = 0; k < 2; k++) {
    const __m128i x = _mm_and_si128(nv, _mm_xor_si128(acc[k], acc[k + 2]));
    acc[k] = _mm_xor_si128(acc[k], x);
    acc[k + 2] = _mm_xor_si128(acc[k + 2], x);
  }
  memcpy(t->yplusx.v, &acc[0], 32);
  memcpy(t->yminusx.v, &acc[2], 32);
  memcpy(t->xy2d.v, &acc[4], 32);
  nat_fe64 minus;
  nat_fe64 z;
  nat_fe64_0(&z);
  nat_fe64_sub(&minus, &z, &t->xy2d);
  nat_fe64_cswap(&t->xy2d, &minus, neg);
}

/* The canonical value of a (< 2^256) as five 51-bit limbs. */
static void nat_fe64_to51(uint64_t h[5], const nat_fe64 *a) {
  unsigned char s[32];
  nat_fe64_tobytes(s, a);
  const uint64_t v0 = nat_fe64_load64(s), v1 = nat_fe64_load64(s + 8), v2 = nat_fe64_load64(s + 16),
                 v3 = nat_fe64_load64(s + 24);
  const uint64_t mask = (UINT64_C(1) << 51) - 1;
  h[0] = v0 & mask;
  h[1] = (v0 >> 51 | v1 << 13) & mask;
  h[2] = (v1 >> 38 | v2 << 26) & mask;
  h[3] = (v2 >> 25 | v3 << 39) & mask;
  h[4] = v3 >> 12;
}

/* Five limbs of any size (< 2^64 each) in radix 2^51 to a value < 2^256 congruent to them. */
static void nat_fe64_from51(nat_fe64 *r, const uint64_t h[5]) {
  typedef unsigned __int128 u128;
  u128 t = (u128) h[0] + ((u128) h[1] << 51);
  uint64_t v0 = (uint64_t) t;
  t = (t >> 64) + ((u128) h[2] << 38);
  uint64_t v1 = (uint64_t) t;
  t = (t >> 64) + ((u128) h[3] << 25);
  uint64_t v2 = (uint64_t) t;
  t = (t >> 64) + ((u128) h[4] << 12);
  uint64_t v3 = (uint64_t) t;
  const uint64_t top = (uint64_t) (t >> 64); /* < 2^13 */
  t = (u128) v0 + 38 * (u128) top; v0 = (uint64_t) t;
  t = (u128) v1 + (uint64_t) (t >> 64); v1 = (uint64_t) t;
  t = (u128) v2 + (uint64_t) (t >> 64); v2 = (uint64_t) t;
  t = (u128) v3 + (uint64_t) (t >> 64); v3 = (uint64_t) t;
  v0 += 38 * (uint64_t) (t >> 64); /* a carry out leaves v0 < 38 * 2^13, so this one cannot */
  r->v[0] = v0; r->v[1] = v1; r->v[2] = v2; r->v[3] = v3;
}

/* p = a B, in our coordinates */
static void nat_ge64_scalarmult_base(nat_ge64_p3 *p_out, const unsigned char a[32]) {
  signed char e[64];
  signed char carry = 0;
  nat_ge64_p3 p;
  nat_ge64_p1p1 r;
  nat_ge64_p2 s;
  nat_ge64_precomp t;

  for (int i = 0; i < 32; i++) {
    e[2 * i] = (signed char) (a[i] & 15);
    e[2 * i + 1] = (signed char) (a[i] >> 4 & 15);
  }
  for (int i = 0; i < 63; i++) {
    e[i] = (signed char) (e[i] + carry);
    carry = (signed char) ((e[i] + 8) >> 4);
    e[i] = (signed char) (e[i] - carry * 16);
  }
  e[63] = (signed char) (e[63] + carry);

  nat_fe64_0(&p.X);
  nat_fe64_1(&p.Y);
  nat_fe64_1(&p.Z);
  nat_fe64_0(&p.T);
  for (int i = 1; i < 64; i += 2) {
    nat_ge64_select(&t, i / 2, e[i]);
    nat_ge64_madd(&r, &p, &t);
    nat_ge64_p1p1_to_p3(&p, &r);
  }
  s.X = p.X; s.Y = p.Y; s.Z = p.Z;
  nat_ge64_p2_dbl(&r, &s);
  nat_ge64_p1p1_to_p2(&s, &r);
  nat_ge64_p2_dbl(&r, &s);
  nat_ge64_p1p1_to_p2(&s, &r);
  nat_ge64_p2_dbl(&r, &s);
  nat_ge64_p1p1_to_p2(&s, &r);
  nat_ge64_p2_dbl(&r, &s);
  nat_ge64_p1p1_to_p3(&p, &r);
  for (int i = 0; i < 64; i += 2) {
    nat_ge64_select(&t, i / 2, e[i]);
    nat_ge64_madd(&r, &p, &t);
    nat_ge64_p1p1_to_p3(&p, &r);
  }
  *p_out = p;
  volatile signed char *v = e;
  for (int i = 0; i < 64; i++) v[i] = 0;
}

__attribute__((noinline)) void nat_ed25519_scalarmult_base_mulx(nat_ge25519_p3_51 *h, const unsigned char a[32]) {
  nat_ge64_p3 p;
  nat_ge64_scalarmult_base(&p, a);
  nat_fe64_to51(h->X, &p.X);
  nat_fe64_to51(h->Y, &p.Y);
  nat_fe64_to51(h->Z, &p.Z);
  nat_fe64_to51(h->T, &p.T);
}

/* libsodium's crypto_scalarmult_curve25519_ref10_base: n clamped, A = n B on the Edwards curve,
 * u = (Z + Y) / (Z - Y) (0 if Z = Y, as its inversion of 0 gives 0; a clamped n never gets
 * there), canonical. */
__attribute__((noinline)) void nat_x25519_base_mulx(unsigned char q[32], const unsigned char n[32]) {
  unsigned char t[32];
  nat_ge64_p3 p;
  nat_fe64 num, den;
  memcpy(t, n, 32);
  t[0] &= 248;
  t[31] &= 127;
  t[31] |= 64;
  nat_ge64_scalarmult_base(&p, t);
  nat_fe64_addsub(&num, &den, &p.Z, &p.Y);
  nat_fe64_invert_safegcd(&den, &den);
  nat_fe64_mul(&num, &num, &den);
  nat_fe64_tobytes(q, &num);
  volatile unsigned char *v = t;
  for (int i = 0; i < 32; i++) v[i] = 0;
}

static void nat_ed25519_xyz_tobytes(unsigned char s[32], const uint64_t X[5], const uint64_t Y[5], const uint64_t Z[5]) {
  nat_fe64 x, y, z;
  unsigned char xs[32];
  nat_fe64_from51(&x, X);
  nat_fe64_from51(&y, Y);
  nat_fe64_from51(&z, Z);
  nat_fe64_invert_safegcd(&z, &z);
  nat_fe64_mul(&x, &x, &z);
  nat_fe64_mul(&y, &y, &z);
  nat_fe64_tobytes(s, &y);
  nat_fe64_tobytes(xs, &x);
  s[31] ^= (unsigned char) ((xs[0] & 1) << 7);
}

__attribute__((noinline)) void nat_ed25519_p3_tobytes_mulx(unsigned char s[32], const nat_ge25519_p3_51 *h) {
  nat_ed25519_xyz_tobytes(s, h->X, h->Y, h->Z);
}

/* libsodium's ge25519_tobytes (of a ge25519_p2: X, Y, Z as in ge25519_p3) */
__attribute__((noinline)) void nat_ed25519_tobytes_mulx(unsigned char s[32], const nat_ge25519_p2_51 *h) {
  nat_ed25519_xyz_tobytes(s, h->X, h->Y, h->Z);
}

/* ---- verify: libsodium's ge25519_double_scalarmult_vartime, ge25519_tobytes and
 * ge25519_frombytes_negate_vartime on this field. All their inputs are public (a public key, a
 * signature, the hash of public data), so these run in variable time: branches and table indexes
 * on the digits. */

typedef struct { nat_fe64 yplusx, yminusx, z2, t2d; } nat_ge64_cached; /* (Y + X, Y - X, 2 Z, 2 d T) */

static void nat_ge64_p3_to_cached(nat_ge64_cached *c, const nat_ge64_p3 *p) {
  nat_fe64 d2;
  memcpy(d2.v, nat_ed25519_d2, 32);
  nat_fe64_addsub(&c->yplusx, &c->yminusx, &p->Y, &p->X);
  nat_fe64_add(&c->z2, &p->Z, &p->Z);
  nat_fe64_mul(&c->t2d, &p->T, &d2);
}

/* r = p + q or p - q (neg 1), q cached (add-2008-hwcd-3 with a = -1): the madd above with
 * 2 Z1 Z2 for 2 Z1; minus q is q with Y + X and Y - X swapped and T negated. */
static void nat_ge64_add_cached(nat_ge64_p1p1 *r, const nat_ge64_p3 *p, const nat_ge64_cached *q, int neg) {
  nat_fe64 a, b, c, d;
  nat_fe64_addsub(&a, &b, &p->Y, &p->X);
  nat_fe64_mul(&a, &a, neg ? &q->yminusx : &q->yplusx);
  nat_fe64_mul(&b, &b, neg ? &q->yplusx : &q->yminusx);
  nat_fe64_mul(&c, &q->t2d, &p->T);
  nat_fe64_mul(&d, &p->Z, &q->z2);
  nat_fe64_addsub(&r->Y, &r->X, &a, &b);
  if (neg) nat_fe64_addsub(&r->T, &r->Z, &d, &c);
  else nat_fe64_addsub(&r->Z, &r->T, &d, &c);
}

/* r = p + q or p - q (neg 1), q affine (y + x, y - x, 2 d x y) straight from a table */
static void nat_ge64_madd_vartime(nat_ge64_p1p1 *r, const nat_ge64_p3 *p, const uint64_t q[3][4], int neg) {
  nat_fe64 a, b, c, d, qp, qm, qt;
  memcpy(qp.v, q[neg], 32);
  memcpy(qm.v, q[1 - neg], 32);
  memcpy(qt.v, q[2], 32);
  nat_fe64_addsub(&a, &b, &p->Y, &p->X);
  nat_fe64_mul(&a, &a, &qp);
  nat_fe64_mul(&b, &b, &qm);
  nat_fe64_mul(&c, &qt, &p->T);
  nat_fe64_add(&d, &p->Z, &p->Z);
  nat_fe64_addsub(&r->Y, &r->X, &a, &b);
  if (neg) nat_fe64_addsub(&r->T, &r->Z, &d, &c);
  else nat_fe64_addsub(&r->Z, &r->T, &d, &c);
}

/* The width-w non-adjacent form of s < 2^253: s = sum r[i] 2^i, each r[i] 0 or odd with
 * |r[i]| < 2^(w - 1), nonzero digits at least w apart. A window that would carry past bit 255
 * needs s >= 2^(256 - w) + ... > 2^253, so none is lost. */
static void nat_wnaf_vartime(signed char r[256], const unsigned char s[32], int w) {
  uint64_t x[5] = { nat_fe64_load64(s), nat_fe64_load64(s + 8), nat_fe64_load64(s + 16), nat_fe64_load64(s + 24), 0 };
  const uint64_t width = (uint64_t) 1 << w, mask = width - 1;
  uint64_t carry = 0;
  memset(r, 0, 256);
  int pos = 0;
  while (pos < 256) {
    const int idx = pos >> 6, bit = pos & 63;
    const uint64_t buf = bit < 64 - w ? x[idx] >> bit : (x[idx] >> bit) | (x[idx + 1] << (64 - bit));
    const uint64_t window = carry + (buf & mask);
    if ((window & 1) == 0) {
      pos++;
      continue;
    }
    if (window < width / 2) {
      carry = 0;
      r[pos] = (signed char) window;
    } else {
      carry = 1;
      r[pos] = (signed char) ((int) window - (int) width);
    }
    pos += w;
  }
}

/* r = a A + b B for a, b < 2^253 (what libsodium's verify passes: h reduced mod L, s checked
 * canonical): A's odd multiples A .. 15 A cached (width 5), B's from the table (width 8), one
 * loop of doublings from the top digit; a doubling followed by another skips T (p1p1 to p2). */
static void nat_ge64_double_scalarmult_vartime(nat_ge64_p2 *r, const unsigned char *a, const nat_ge64_p3 *A,
                                               const unsigned char *b) {
  signed char as[256], bs[256];
  nat_ge64_cached Ai[8];
  nat_ge64_p1p1 t;
  nat_ge64_p3 u, A2;
  nat_wnaf_vartime(as, a, 5);
  nat_wnaf_vartime(bs, b, 8);
  nat_ge64_p3_to_cached(&Ai[0], A);
  {
    nat_ge64_p2 s = { A->X, A->Y, A->Z };
    nat_ge64_p2_dbl(&t, &s);
    nat_ge64_p1p1_to_p3(&A2, &t);
  }
  for (int i = 1; i < 8; i++) {
    nat_ge64_add_cached(&t, &A2, &Ai[i - 1], 0);
    nat_ge64_p1p1_to_p3(&u, &t);
    nat_ge64_p3_to_cached(&Ai[i], &u);
  }
  int i = 255;
  while (i >= 0 && as[i] == 0 && bs[i] == 0) i--;
  nat_fe64_0(&r->X);
  nat_fe64_1(&r->Y);
  nat_fe64_1(&r->Z);
  for (; i >= 0; i--) {
    nat_ge64_p2_dbl(&t, r);
    if (as[i]) {
      nat_ge64_p1p1_to_p3(&u, &t);
      const int d = as[i];
      nat_ge64_add_cached(&t, &u, &Ai[(d < 0 ? -d : d) >> 1], d < 0);
    }
    if (bs[i]) {
      nat_ge64_p1p1_to_p3(&u, &t);
      const int d = bs[i];
      nat_ge64_madd_vartime(&t, &u, nat_ed25519_base_odd[(d < 0 ? -d : d) >> 1], d < 0);
    }
    nat_ge64_p1p1_to_p2(r, &t);
  }
}

/* 1 when libsodium's slide_vartime represents both scalars exactly and so ours gives the same
 * point: below 2^253. Above, its carry out of bit 255 is dropped; those go to libsodium's code. */
int nat_ed25519_dsm_in_range(const unsigned char *a, const unsigned char *b) {
  return ((a[31] | b[31]) & 0xe0) == 0;
}

__attribute__((noinline)) void nat_ed25519_double_scalarmult_vartime_mulx(nat_ge25519_p2_51 *r, const unsigned char *a,
                                                                          const nat_ge25519_p3_51 *A,
                                                                          const unsigned char *b) {
  nat_ge64_p3 p;
  nat_ge64_p2 q;
  nat_fe64_from51(&p.X, A->X);
  nat_fe64_from51(&p.Y, A->Y);
  nat_fe64_from51(&p.Z, A->Z);
  nat_fe64_from51(&p.T, A->T);
  nat_ge64_double_scalarmult_vartime(&q, a, &p, b);
  nat_fe64_to51(r->X, &q.X);
  nat_fe64_to51(r->Y, &q.Y);
  nat_fe64_to51(r->Z, &q.Z);
}

/* r = a^((p - 5) / 8) = a^(2^252 - 3): the inversion chain to 2^250 - 1, two squarings, times a */
static void nat_fe64_pow22523(nat_fe64 *r, const nat_fe64 *a) {
  nat_fe64 t0, t1, t2;
  nat_fe64_sq(&t0, a);
  nat_fe64_sqn(&t1, &t0, 2);
  nat_fe64_mul(&t1, a, &t1);       /* 9 */
  nat_fe64_mul(&t0, &t0, &t1);     /* 11 */
  nat_fe64_sq(&t0, &t0);           /* 22 */
  nat_fe64_mul(&t0, &t1, &t0);     /* 2^5 - 1 */
  nat_fe64_sqn(&t1, &t0, 5);
  nat_fe64_mul(&t0, &t1, &t0);     /* 2^10 - 1 */
  nat_fe64_sqn(&t1, &t0, 10);
  nat_fe64_mul(&t1, &t1, &t0);     /* 2^20 - 1 */
  nat_fe64_sqn(&t2, &t1, 20);
  nat_fe64_mul(&t1, &t2, &t1);     /* 2^40 - 1 */
  nat_fe64_sqn(&t1, &t1, 10);
  nat_fe64_mul(&t0, &t1, &t0);     /* 2^50 - 1 */
  nat_fe64_sqn(&t1, &t0, 50);
  nat_fe64_mul(&t1, &t1, &t0);     /* 2^100 - 1 */
  nat_fe64_sqn(&t2, &t1, 100);
  nat_fe64_mul(&t1, &t2, &t1);     /* 2^200 - 1 */
  nat_fe64_sqn(&t1, &t1, 50);
  nat_fe64_mul(&t0, &t1, &t0);     /* 2^250 - 1 */
  nat_fe64_sqn(&t0, &t0, 2);       /* 2^252 - 4 */
  nat_fe64_mul(r, &t0, a);         /* 2^252 - 3 */
}

static int nat_fe64_iszero_vartime(const nat_fe64 *a) {
  unsigned char s[32];
  unsigned char acc = 0;
  nat_fe64_tobytes(s, a);
  for (int i = 0; i < 32; i++) acc |= s[i];
  return acc == 0;
}

static int nat_fe64_isnegative(const nat_fe64 *a) {
  unsigned char s[32];
  nat_fe64_tobytes(s, a);
  return s[0] & 1;
}

/* libsodium's ge25519_frombytes_negate_vartime: y from s (bit 255 dropped; y >= p kept, as its
 * fe25519_frombytes does), x = u v^3 (u v^7)^((p - 5) / 8) with u = y^2 - 1, v = d y^2 + 1;
 * v x^2 = u: x; v x^2 = -u: x sqrt(-1); neither: -1. Then x negated unless its parity differs
 * from bit 255 of s (so the point is minus the encoded one; x = 0 is never rejected), Z = 1,
 * T = x y. Y goes back in libsodium's own limbs (the 51-bit split of s), X and T canonical. */
__attribute__((noinline)) int nat_ed25519_frombytes_negate_vartime_mulx(nat_ge25519_p3_51 *h, const unsigned char *s) {
  nat_fe64 y, u, v, v3, x, vxx, chk, one, d, t;
  nat_fe64_frombytes(&y, s);
  memcpy(d.v, nat_ed25519_d, 32);
  nat_fe64_1(&one);
  nat_fe64_sq(&u, &y);
  nat_fe64_mul(&v, &u, &d);
  nat_fe64_sub(&u, &u, &one);
  nat_fe64_add(&v, &v, &one);
  nat_fe64_sq(&v3, &v);
  nat_fe64_mul(&v3, &v3, &v);    /* v^3 */
  nat_fe64_sq(&x, &v3);
  nat_fe64_mul(&x, &x, &v);
  nat_fe64_mul(&x, &x, &u);      /* u v^7 */
  nat_fe64_pow22523(&x, &x);
  nat_fe64_mul(&x, &x, &v3);
  nat_fe64_mul(&x, &x, &u);
  nat_fe64_sq(&vxx, &x);
  nat_fe64_mul(&vxx, &vxx, &v);
  nat_fe64_sub(&chk, &vxx, &u);
  if (!nat_fe64_iszero_vartime(&chk)) {
    nat_fe64_add(&chk, &vxx, &u);
    if (!nat_fe64_iszero_vartime(&chk)) return -1;
    nat_fe64 m1;
    memcpy(m1.v, nat_ed25519_sqrtm1, 32);
    nat_fe64_mul(&x, &x, &m1);
  }
  if (nat_fe64_isnegative(&x) == (s[31] >> 7)) {
    nat_fe64 z;
    nat_fe64_0(&z);
    nat_fe64_sub(&x, &z, &x);
  }
  nat_fe64_mul(&t, &x, &y);
  nat_fe64_to51(h->X, &x);
  const uint64_t w0 = nat_fe64_load64(s), w1 = nat_fe64_load64(s + 8), w2 = nat_fe64_load64(s + 16),
                 w3 = nat_fe64_load64(s + 24);
  const uint64_t mask = (UINT64_C(1) << 51) - 1;
  h->Y[0] = w0 & mask;
  h->Y[1] = (w0 >> 51 | w1 << 13) & mask;
  h->Y[2] = (w1 >> 38 | w2 << 26) & mask;
  h->Y[3] = (w2 >> 25 | w3 << 39) & mask;
  h->Y[4] = (w3 >> 12) & mask;
  memset(h->Z, 0, sizeof h->Z);
  h->Z[0] = 1;
  nat_fe64_to51(h->T, &t);
  return 0;
}

#if !defined(__wasm__)
#include <cpuid.h>
/* CPUID leaf 7 (subleaf 0) EBX bits 8 (BMI2) and 19 (ADX), as x25519_dispatch.c asks. */
static int nat_ed25519_cpu_has_mulx(void) {
  unsigned int a, b = 0, c, d;
  if (__get_cpuid_max(0, NULL) < 7) return 0;
  __cpuid_count(7, 0, a, b, c, d);
  return (b >> 8 & 1) && (b >> 19 & 1);
}

/* NATRIUM_ED25519=libsodium or NATRIUM_DISABLE_SIMD set (and not "0"): libsodium's own code. */
__attribute__((constructor)) static void nat_ed25519_dispatch(void) {
  const char *off = getenv("NATRIUM_DISABLE_SIMD");
  const char *force = getenv("NATRIUM_ED25519");
  const int simd_off = off != NULL && off[0] != '\0' && strcmp(off, "0") != 0;
  nat_ed25519_use_mulx = nat_ed25519_cpu_has_mulx() && !simd_off &&
                         !(force != NULL && strcmp(force, "libsodium") == 0);
}
#endif
#endif

#ifdef NAT_ED25519_WRAP
void __real_ge25519_scalarmult_base(nat_ge25519_p3_51 *h, const unsigned char *a);
void __real_ge25519_p3_tobytes(unsigned char *s, const nat_ge25519_p3_51 *h);

void __wrap_ge25519_scalarmult_base(nat_ge25519_p3_51 *h, const unsigned char *a) {
#ifdef NAT_ED25519_MULX
  if (nat_ed25519_use_mulx) {
    nat_ed25519_scalarmult_base_mulx(h, a);
    return;
  }
#endif
  __real_ge25519_scalarmult_base(h, a);
}

int __real_crypto_scalarmult_curve25519_base(unsigned char *q, const unsigned char *n);

int __wrap_crypto_scalarmult_curve25519_base(unsigned char *q, const unsigned char *n) {
#ifdef NAT_ED25519_MULX
  if (nat_ed25519_use_mulx) {
    nat_x25519_base_mulx(q, n);
    return 0;
  }
#endif
  return __real_crypto_scalarmult_curve25519_base(q, n);
}

void __wrap_ge25519_p3_tobytes(unsigned char *s, const nat_ge25519_p3_51 *h) {
#ifdef NAT_ED25519_MULX
  if (nat_ed25519_use_mulx) {
    nat_ed25519_p3_tobytes_mulx(s, h);
    return;
  }
#endif
  __real_ge25519_p3_tobytes(s, h);
}

void __real_ge25519_double_scalarmult_vartime(nat_ge25519_p2_51 *r, const unsigned char *a, const nat_ge25519_p3_51 *A,
                                              const unsigned char *b);
void __real_ge25519_tobytes(unsigned char *s, const nat_ge25519_p2_51 *h);
int __real_ge25519_frombytes_negate_vartime(nat_ge25519_p3_51 *h, const unsigned char *s);

void __wrap_ge25519_double_scalarmult_vartime(nat_ge25519_p2_51 *r, const unsigned char *a, const nat_ge25519_p3_51 *A,
                                              const unsigned char *b) {
#ifdef NAT_ED25519_MULX
  if (nat_ed25519_use_mulx && nat_ed25519_dsm_in_range(a, b)) {
    nat_ed25519_double_scalarmult_vartime_mulx(r, a, A, b);
    return;
  }
#endif
  __real_ge25519_double_scalarmult_vartime(r, a, A, b);
}

void __wrap_ge25519_tobytes(unsigned char *s, const nat_ge25519_p2_51 *h) {
#ifdef NAT_ED25519_MULX
  if (nat_ed25519_use_mulx) {
    nat_ed25519_tobytes_mulx(s, h);
    return;
  }
#endif
  __real_ge25519_tobytes(s, h);
}

int __wrap_ge25519_frombytes_negate_vartime(nat_ge25519_p3_51 *h, const unsigned char *s) {
#ifdef NAT_ED25519_MULX
  if (nat_ed25519_use_mulx) return nat_ed25519_frombytes_negate_vartime_mulx(h, s);
#endif
  return __real_ge25519_frombytes_negate_vartime(h, s);
}
#endif

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
  nat_fe64_invert(&den, &den);
  nat_fe64_mul(&num, &num, &den);
  nat_fe64_tobytes(q, &num);
  volatile unsigned char *v = t;
  for (int i = 0; i < 32; i++) v[i] = 0;
}

__attribute__((noinline)) void nat_ed25519_p3_tobytes_mulx(unsigned char s[32], const nat_ge25519_p3_51 *h) {
  nat_fe64 x, y, z;
  unsigned char xs[32];
  nat_fe64_from51(&x, h->X);
  nat_fe64_from51(&y, h->Y);
  nat_fe64_from51(&z, h->Z);
  nat_fe64_invert(&z, &z);
  nat_fe64_mul(&x, &x, &z);
  nat_fe64_mul(&y, &y, &z);
  nat_fe64_tobytes(s, &y);
  nat_fe64_tobytes(xs, &x);
  s[31] ^= (unsigned char) ((xs[0] & 1) << 7);
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
#endif

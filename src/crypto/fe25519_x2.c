/* The two-lane field of fe25519_x2.h: multiplication, squaring, carrying, conversion and a
 * constant-time inversion. Only the wasm build uses it (and the C harness, natively on the
 * portable stand-in), so it is empty unless SIMD128 is there or NAT_FE25519_X2_PORTABLE is set.
 *
 * Multiplication, by rows of f (operand scanning): per pair of f's limbs 2a, 2a+1 twenty
 * extmuls into ten 64-bit column sums (lanes: element A, element B), with g's limbs prepared
 * once in every position and factor they are needed in: g itself, t (g shifted by one limb,
 * so that an odd limb of g sits in a low half and an even one in a high half), 19 g and 19 t
 * for the products that wrap past 2^255 (2^255 = 19), and 2 f for odd x odd (2^26 2^26 =
 * 2 2^51). Ten live sums, the row and a temporary fit V8's sixteen xmm registers; the
 * prepared g's are reloaded from the stack. Column by column (product scanning) measured 1.4x
 * slower. Then the ten sums are carried as in ref10 (two interleaved chains). */
#include <stdint.h>
#include <string.h>

#include "fe25519_x2.h"

#if defined(__wasm_simd128__) || defined(NAT_FE25519_X2_PORTABLE)

#if defined(__clang__)
#define NAT_UNROLL _Pragma("clang loop unroll(full)")
#elif defined(__GNUC__)
#define NAT_UNROLL _Pragma("GCC unroll 16")
#else
#define NAT_UNROLL
#endif

static inline nat_x2v nat_x2v_mul19_32(nat_x2v x) {
  return nat_x2v_mul32(x, nat_x2v_splat32(19));
}

/* 19 x in 64-bit lanes (x < 2^40) by shifts: i64x2.mul is no single instruction on x86 */
static inline nat_x2v nat_x2v_mul19_64(nat_x2v x) {
  nat_x2v x2 = nat_x2v_shl64(x, 1);
#if defined(__wasm_simd128__)
  __asm__ volatile("" : "+r"(x2)); /* else clang folds the shifts back into i64x2.mul */
#endif
  return nat_x2v_add64(nat_x2v_add64(x, x2), nat_x2v_shl64(x2, 3));
}

/* ten column sums (< 2^64) to reduced limbs in the two-lane layout */
static inline void nat_fe2_carry_pack(nat_fe2 *h, nat_x2v c[10]) {
  const nat_x2v m26 = nat_x2v_splat64((1 << 26) - 1), m25 = nat_x2v_splat64((1 << 25) - 1);
  nat_x2v t;
#define NAT_FE2_CARRY(i, j, bits, m)      \
  t = nat_x2v_shr64(c[i], bits);          \
  c[j] = nat_x2v_add64(c[j], t);          \
  c[i] = nat_x2v_and(c[i], m);
  NAT_FE2_CARRY(0, 1, 26, m26) NAT_FE2_CARRY(4, 5, 26, m26)
  NAT_FE2_CARRY(1, 2, 25, m25) NAT_FE2_CARRY(5, 6, 25, m25)
  NAT_FE2_CARRY(2, 3, 26, m26) NAT_FE2_CARRY(6, 7, 26, m26)
  NAT_FE2_CARRY(3, 4, 25, m25) NAT_FE2_CARRY(7, 8, 25, m25)
  NAT_FE2_CARRY(4, 5, 26, m26) NAT_FE2_CARRY(8, 9, 26, m26)
  t = nat_x2v_shr64(c[9], 25);
  c[9] = nat_x2v_and(c[9], m25);
  c[0] = nat_x2v_add64(c[0], nat_x2v_mul19_64(t));
  NAT_FE2_CARRY(0, 1, 26, m26)
#undef NAT_FE2_CARRY
  NAT_UNROLL for (int k = 0; k < 5; k++) h->v[k] = nat_x2v_shuffle(c[2 * k], c[2 * k + 1], 0, 2, 4, 6);
}

/* t[b] = (g[2b - 1], g[2b]) in each lane (t[0]'s low half and t[5]'s high half unused) */
static inline void nat_fe2_shifted(nat_x2v t[6], const nat_x2v g[5]) {
  t[0] = nat_x2v_shuffle(g[0], g[0], 0, 1, 0, 1);
  NAT_UNROLL for (int b = 1; b < 5; b++) t[b] = nat_x2v_shuffle(g[b - 1], g[b], 2, 3, 4, 5);
  t[5] = nat_x2v_shuffle(g[4], g[4], 2, 3, 2, 3);
}

#define NAT_FE2_ACC(k, mac, a, b) c[(k) % 10] = mac(c[(k) % 10], a, b)

void nat_fe2_mul(nat_fe2 *h, const nat_fe2 *fp, const nat_fe2 *gp) {
  nat_x2v f[5], g[5], g19[5], t[6], t19[6], f2[5], c[10];
  NAT_UNROLL for (int k = 0; k < 5; k++) {
    f[k] = fp->v[k];
    g[k] = gp->v[k];
  }
  NAT_UNROLL for (int b = 0; b < 5; b++) g19[b] = nat_x2v_mul19_32(g[b]);
  nat_fe2_shifted(t, g);
  NAT_UNROLL for (int b = 0; b < 6; b++) t19[b] = nat_x2v_mul19_32(t[b]);
  NAT_UNROLL for (int a = 0; a < 5; a++) f2[a] = nat_x2v_add32(f[a], f[a]);
  NAT_UNROLL for (int k = 0; k < 10; k++) c[k] = nat_x2v_splat64(0);
  NAT_UNROLL for (int a = 0; a < 5; a++) {
    NAT_UNROLL for (int b = 0; b < 5; b++) {
      int k = 2 * a + 2 * b; /* even x even */
      NAT_FE2_ACC(k, nat_x2v_maclo, f[a], k >= 10 ? g19[b] : g[b]);
      k = 2 * a + 2 * b + 1; /* even x odd */
      NAT_FE2_ACC(k, nat_x2v_maclo, f[a], k >= 10 ? t19[b + 1] : t[b + 1]);
      k = 2 * a + 2 * b + 2; /* odd x odd, times 2 */
      NAT_FE2_ACC(k, nat_x2v_machi, f2[a], k >= 10 ? g19[b] : g[b]);
      k = 2 * a + 1 + 2 * b; /* odd x even */
      NAT_FE2_ACC(k, nat_x2v_machi, f[a], k >= 10 ? t19[b] : t[b]);
    }
  }
  nat_fe2_carry_pack(h, c);
}

/* The 55 products f_i f_j (i <= j) with their factors split so that no 32-bit operand
 * overflows: 2 and 4 on the left (2 f, 4 f), 19 on the right (19 f, 19 t). */
void nat_fe2_sq(nat_fe2 *h, const nat_fe2 *fp) {
  nat_x2v f[5], f19[5], t[6], t19[6], f2[5], f4[5], c[10];
  NAT_UNROLL for (int k = 0; k < 5; k++) f[k] = fp->v[k];
  NAT_UNROLL for (int b = 0; b < 5; b++) f19[b] = nat_x2v_mul19_32(f[b]);
  nat_fe2_shifted(t, f);
  NAT_UNROLL for (int b = 0; b < 6; b++) t19[b] = nat_x2v_mul19_32(t[b]);
  NAT_UNROLL for (int a = 0; a < 5; a++) {
    f2[a] = nat_x2v_add32(f[a], f[a]);
    f4[a] = nat_x2v_shl32(f[a], 2);
  }
  NAT_UNROLL for (int k = 0; k < 10; k++) c[k] = nat_x2v_splat64(0);
  NAT_UNROLL for (int a = 0; a < 5; a++) {
    NAT_FE2_ACC(4 * a, nat_x2v_maclo, f[a], 4 * a >= 10 ? f19[a] : f[a]);            /* f_2a^2 */
    NAT_FE2_ACC(4 * a + 2, nat_x2v_machi, f2[a], 4 * a + 2 >= 10 ? f19[a] : f[a]);   /* 2 f_2a+1^2 */
    NAT_UNROLL for (int b = a; b < 5; b++) {
      int k;
      if (b > a) {
        k = 2 * a + 2 * b; /* 2 f_2a f_2b */
        NAT_FE2_ACC(k, nat_x2v_maclo, f2[a], k >= 10 ? f19[b] : f[b]);
        k = 2 * a + 2 * b + 2; /* 4 f_2a+1 f_2b+1 */
        NAT_FE2_ACC(k, nat_x2v_machi, f4[a], k >= 10 ? f19[b] : f[b]);
        k = 2 * a + 1 + 2 * b; /* 2 f_2a+1 f_2b */
        NAT_FE2_ACC(k, nat_x2v_machi, f2[a], k >= 10 ? t19[b] : t[b]);
      }
      k = 2 * a + 2 * b + 1; /* 2 f_2a f_2b+1 */
      NAT_FE2_ACC(k, nat_x2v_maclo, f2[a], k >= 10 ? t19[b + 1] : t[b + 1]);
    }
  }
  nat_fe2_carry_pack(h, c);
}
#undef NAT_FE2_ACC

/* The same product for one element in scalar code (i64.mul of 32-bit limbs, as ref10): where
 * only one product is wanted it costs about two thirds of a paired one. */
void nat_fe25_mul(uint32_t h[10], const uint32_t f[10], const uint32_t g[10]) {
  static const unsigned char w[10] = { 26, 25, 26, 25, 26, 25, 26, 25, 26, 25 };
  uint64_t c[10] = { 0 };
  uint32_t g19[10], f2[10];
  NAT_UNROLL for (int i = 0; i < 10; i++) {
    g19[i] = 19 * g[i];
    f2[i] = (i & 1) ? 2 * f[i] : f[i];
  }
  NAT_UNROLL for (int i = 0; i < 10; i++) {
    NAT_UNROLL for (int j = 0; j < 10; j++) {
      const uint64_t a = (i & 1) && (j & 1) ? f2[i] : f[i], b = i + j >= 10 ? g19[j] : g[j];
      c[(i + j) % 10] += a * b;
    }
  }
#define NAT_FE25_CARRY(i, j)   \
  c[j] += c[i] >> w[i];        \
  c[i] &= ((uint64_t) 1 << w[i]) - 1;
  NAT_FE25_CARRY(0, 1) NAT_FE25_CARRY(4, 5) NAT_FE25_CARRY(1, 2) NAT_FE25_CARRY(5, 6)
  NAT_FE25_CARRY(2, 3) NAT_FE25_CARRY(6, 7) NAT_FE25_CARRY(3, 4) NAT_FE25_CARRY(7, 8)
  NAT_FE25_CARRY(4, 5) NAT_FE25_CARRY(8, 9)
  c[0] += 19 * (c[9] >> 25);
  c[9] &= ((uint64_t) 1 << 25) - 1;
  NAT_FE25_CARRY(0, 1)
#undef NAT_FE25_CARRY
  NAT_UNROLL for (int i = 0; i < 10; i++) h[i] = (uint32_t) c[i];
}

/* One pass: every limb masked to its width plus the carry out of the limb below (19 times
 * limb 9's into limb 0), all at once: limbs < 2^31 in, reduced out. */
void nat_fe2_carry(nat_fe2 *h, const nat_fe2 *f) {
  const nat_x2v mask = nat_x2v_make32((1 << 26) - 1, (1 << 26) - 1, (1 << 25) - 1, (1 << 25) - 1);
  nat_x2v ce[5], co[5], m[5];
  NAT_UNROLL for (int k = 0; k < 5; k++) {
    ce[k] = nat_x2v_shr32(f->v[k], 26); /* lanes 0, 1: out of the even limb */
    co[k] = nat_x2v_shr32(f->v[k], 25); /* lanes 2, 3: out of the odd limb */
    m[k] = nat_x2v_and(f->v[k], mask);
  }
  const nat_x2v into0 = nat_x2v_mul32(nat_x2v_shuffle(co[4], ce[0], 2, 3, 4, 5), nat_x2v_make32(19, 19, 1, 1));
  h->v[0] = nat_x2v_add32(m[0], into0);
  NAT_UNROLL for (int k = 1; k < 5; k++) h->v[k] = nat_x2v_add32(m[k], nat_x2v_shuffle(co[k - 1], ce[k], 2, 3, 4, 5));
}

static const unsigned char nat_fe25_width[10] = { 26, 25, 26, 25, 26, 25, 26, 25, 26, 25 };
static const unsigned char nat_fe25_offset[10] = { 0, 26, 51, 77, 102, 128, 153, 179, 204, 230 };

static uint64_t nat_fe25_load64(const unsigned char *s) {
  uint64_t x = 0;
  for (int i = 7; i >= 0; i--) x = x << 8 | s[i];
  return x;
}

void nat_fe25_frombytes(uint32_t h[10], const unsigned char s[32]) {
  for (int i = 0; i < 10; i++) {
    const int off = nat_fe25_offset[i];
    /* 8 bytes from off / 8 (the last limb reads bytes 24..31) */
    const int at = off / 8 > 24 ? 24 : off / 8;
    h[i] = (uint32_t) (nat_fe25_load64(s + at) >> (off - 8 * at)) & (((uint32_t) 1 << nat_fe25_width[i]) - 1);
  }
}

/* one carry pass over ten 64-bit limbs, limb 9's carry times 19 into limb 0 */
static void nat_fe25_carry64(uint64_t t[10]) {
  for (int i = 0; i < 10; i++) {
    const uint64_t c = t[i] >> nat_fe25_width[i];
    t[i] &= ((uint64_t) 1 << nat_fe25_width[i]) - 1;
    if (i < 9) t[i + 1] += c;
    else t[0] += 19 * c;
  }
}

/* ref10's fe25519_tobytes on exact limbs: after three passes every limb is within its width
 * (a value below 2^255 + 19); q = 1 iff the value is at least p; then value + 19 q with bit
 * 255 dropped is value - q p. */
void nat_fe25_tobytes(unsigned char s[32], const uint32_t h[10]) {
  uint64_t t[10];
  for (int i = 0; i < 10; i++) t[i] = h[i];
  nat_fe25_carry64(t);
  nat_fe25_carry64(t);
  nat_fe25_carry64(t);
  uint64_t q = (t[0] + 19) >> 26;
  for (int i = 1; i < 10; i++) q = (t[i] + q) >> nat_fe25_width[i];
  t[0] += 19 * q;
  for (int i = 0; i < 9; i++) {
    t[i + 1] += t[i] >> nat_fe25_width[i];
    t[i] &= ((uint64_t) 1 << nat_fe25_width[i]) - 1;
  }
  t[9] &= ((uint64_t) 1 << 25) - 1;
  memset(s, 0, 32);
  for (int i = 0; i < 10; i++) {
    const int off = nat_fe25_offset[i];
    const uint64_t v = t[i] << (off % 8);
    for (int b = 0; b < 5 && off / 8 + b < 32; b++) s[off / 8 + b] |= (unsigned char) (v >> (8 * b));
  }
}

void nat_fe2_pack(nat_fe2 *h, const uint32_t a[10], const uint32_t b[10]) {
  for (int k = 0; k < 5; k++) h->v[k] = nat_x2v_make32(a[2 * k], b[2 * k], a[2 * k + 1], b[2 * k + 1]);
}

void nat_fe2_unpack(uint32_t a[10], uint32_t b[10], const nat_fe2 *h) {
  for (int k = 0; k < 5; k++) {
    a[2 * k] = nat_x2v_lane(h->v[k], 0);
    b[2 * k] = nat_x2v_lane(h->v[k], 1);
    a[2 * k + 1] = nat_x2v_lane(h->v[k], 2);
    b[2 * k + 1] = nat_x2v_lane(h->v[k], 3);
  }
}

/* ---- 1 / a by Bernstein and Yang's safegcd ("Fast constant-time gcd computation and modular
 * inversion", 2019), half-delta divsteps, on 30-bit signed digits so that every product is
 * 32 x 32 -> 64 bits (libsecp256k1's modinv32 is the model of the algorithm; the native
 * radix-2^62 version is in ed25519_mulx.c). (delta, f, g) = (1/2, p, a); 600 divsteps (> 590,
 * the bound for 256-bit inputs) in twenty rounds of 30, each run on the low 32 bits of f and
 * g collecting the transition matrix (u v; q r) scaled by 2^30 (|u| + |v| <= 2^30), then
 * applied to f, g (nine digits: eight in [0, 2^30), the top one signed) and to d, e (f = d a,
 * g = e a mod p; the division by 2^30 made exact by adding a multiple md p, md < 2^30, so
 * |d| and |e| grow by p at most per round). At the end f = +-1 and 1/a = +-d. About a
 * seventh of the work of the power chain (254 squarings), no branch or index on a value. */
#define NAT_M30 ((int32_t) 0x3fffffff)
typedef struct { int32_t v[9]; } nat_s30; /* sum v[i] 2^(30 i) */

static const nat_s30 nat_s30_p = { { NAT_M30 - 18, NAT_M30, NAT_M30, NAT_M30, NAT_M30, NAT_M30, NAT_M30, NAT_M30, 32767 } };

/* 30 divsteps; *zeta is -(delta + 1/2). A step: when delta > 0, f, u, v enter negated; when
 * g is odd they are added to g, q, r; when both hold (the swap), g, q, r (now g - f ...) are
 * added back to f, u, v, which makes those the old g, q, r; then g halves and u, v double. */
static void nat_divsteps_30(int32_t *zeta, uint32_t f, uint32_t g, int32_t t[4]) {
  uint32_t u = 1, v = 0, q = 0, r = 1;
  uint32_t z = (uint32_t) *zeta;
  for (int i = 0; i < 30; i++) {
    uint32_t c1 = 0 - (z >> 31);  /* delta > 0 */
    const uint32_t c2 = 0 - (g & 1); /* g odd */
    const uint32_t x = (f ^ c1) - c1, y = (u ^ c1) - c1, w = (v ^ c1) - c1;
    g += x & c2; q += y & c2; r += w & c2;
    c1 &= c2;
    z = (z ^ c1) - 1;
    f += g & c1; u += q & c1; v += r & c1;
    g >>= 1; u <<= 1; v <<= 1;
  }
  *zeta = (int32_t) z;
  t[0] = (int32_t) u; t[1] = (int32_t) v; t[2] = (int32_t) q; t[3] = (int32_t) r;
}

/* (f, g) = ((u f + v g) / 2^30, (q f + r g) / 2^30), exact */
static void nat_s30_update_fg(nat_s30 *f, nat_s30 *g, const int32_t t[4]) {
  const int64_t u = t[0], v = t[1], q = t[2], r = t[3];
  int64_t cf = u * f->v[0] + v * g->v[0];
  int64_t cg = q * f->v[0] + r * g->v[0];
  cf >>= 30; cg >>= 30;
  for (int i = 1; i < 9; i++) {
    cf += u * f->v[i] + v * g->v[i];
    cg += q * f->v[i] + r * g->v[i];
    f->v[i - 1] = (int32_t) (cf & NAT_M30);
    g->v[i - 1] = (int32_t) (cg & NAT_M30);
    cf >>= 30; cg >>= 30;
  }
  f->v[8] = (int32_t) cf;
  g->v[8] = (int32_t) cg;
}

/* (d, e) = ((u d + v e + md p) / 2^30, (q d + r e + me p) / 2^30) */
static void nat_s30_update_de(nat_s30 *d, nat_s30 *e, const int32_t t[4], uint32_t pinv) {
  const int64_t u = t[0], v = t[1], q = t[2], r = t[3];
  const int64_t md = (int64_t) ((0 - ((uint32_t) t[0] * (uint32_t) d->v[0] + (uint32_t) t[1] * (uint32_t) e->v[0]) * pinv) & NAT_M30);
  const int64_t me = (int64_t) ((0 - ((uint32_t) t[2] * (uint32_t) d->v[0] + (uint32_t) t[3] * (uint32_t) e->v[0]) * pinv) & NAT_M30);
  int64_t cd = u * d->v[0] + v * e->v[0] + md * nat_s30_p.v[0];
  int64_t ce = q * d->v[0] + r * e->v[0] + me * nat_s30_p.v[0];
  cd >>= 30; ce >>= 30;
  for (int i = 1; i < 9; i++) {
    cd += u * d->v[i] + v * e->v[i] + md * nat_s30_p.v[i];
    ce += q * d->v[i] + r * e->v[i] + me * nat_s30_p.v[i];
    d->v[i - 1] = (int32_t) (cd & NAT_M30);
    e->v[i - 1] = (int32_t) (ce & NAT_M30);
    cd >>= 30; ce >>= 30;
  }
  d->v[8] = (int32_t) cd;
  e->v[8] = (int32_t) ce;
}

/* bits [off, off + w) of the value whose 30-bit digits are x[0..8] (w <= 26) */
static uint32_t nat_s30_bits(const uint32_t x[9], int off, int w) {
  const int i = off / 30, o = off % 30;
  uint64_t b = (uint64_t) x[i] >> o;
  if (i + 1 < 9) b |= (uint64_t) x[i + 1] << (30 - o);
  return (uint32_t) b & (((uint32_t) 1 << w) - 1);
}

void nat_fe25_invert(uint32_t out[10], const uint32_t in[10]) {
  unsigned char s[32];
  nat_fe25_tobytes(s, in); /* canonical: a in [0, p) */
  nat_s30 f = nat_s30_p, g, d = { { 0 } }, e = { { 1 } };
  for (int i = 0; i < 9; i++) {
    /* digit i: bits 30 i .. 30 i + 29 */
    const int at = (30 * i) / 8 > 24 ? 24 : (30 * i) / 8;
    g.v[i] = (int32_t) ((nat_fe25_load64(s + at) >> (30 * i - 8 * at)) & NAT_M30);
  }
  /* p^-1 mod 2^32 by Newton's iteration (each step doubles the correct low bits) */
  uint32_t pinv = 0xffffffedu;
  for (int i = 0; i < 5; i++) pinv *= 2 - 0xffffffedu * pinv;
  int32_t zeta = -1; /* delta = 1/2 */
  int32_t t[4];
  for (int round = 0; round < 20; round++) {
    nat_divsteps_30(&zeta, (uint32_t) f.v[0] | (uint32_t) f.v[1] << 30, (uint32_t) g.v[0] | (uint32_t) g.v[1] << 30, t);
    nat_s30_update_de(&d, &e, t, pinv);
    nat_s30_update_fg(&f, &g, t);
  }
  /* 1/a = sign(f) d, d in (-21p, 21p): negated digit by digit when f < 0, 32 p added (the sum
   * is in (11p, 53p), below 2^261), carried into nine exact digits, then split into ten limbs
   * whose carries fold what is above 2^255 back in */
  const int64_t neg = f.v[8] >> 31;
  uint32_t x[9];
  int64_t acc = 0;
  for (int i = 0; i < 9; i++) {
    acc += ((d.v[i] ^ neg) - neg) + 32 * (int64_t) nat_s30_p.v[i];
    x[i] = (uint32_t) (acc & NAT_M30);
    acc >>= 30;
  }
  uint64_t w[10];
  for (int i = 0; i < 9; i++) w[i] = nat_s30_bits(x, nat_fe25_offset[i], nat_fe25_width[i]);
  w[9] = (uint64_t) (x[7] >> 20 | x[8] << 10); /* bits 230 .. 261 */
  nat_fe25_carry64(w);
  nat_fe25_carry64(w);
  for (int i = 0; i < 10; i++) out[i] = (uint32_t) w[i];
}
#endif

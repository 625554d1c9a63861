/* ML-KEM-768 (FIPS 203) on the kernels of mlkem768_impl.h: K-PKE (section 5), the
 * Fujisaki-Okamoto transform with implicit rejection (section 6), the byte encodings and
 * compression (section 4.2.1), with libsodium 1.0.22's behaviour at its edges (see
 * mlkem768.h). Constant time in every secret: the only branches and indexes that depend on data
 * are the matrix sampling's rejection loop (on the public seed rho) and the modulus check of a
 * public key. */
#include <sodium.h>
#include <string.h>

#include "mlkem768.h"
#include "mlkem768_impl.h"
#include "sha3.h"

#define Q NAT_MLKEM_Q
#define N NAT_MLKEM_N
#define K NAT_MLKEM_K
#define POLYBYTES 384                  /* 12 bits a coefficient */
#define POLYVECBYTES (K * POLYBYTES)   /* 1152: ByteEncode_12 of t-hat or s-hat */
#define DU_BYTES 320                   /* d_u = 10 */
#define DV_BYTES 128                   /* d_v = 4 */
#define PKBYTES crypto_kem_mlkem768_PUBLICKEYBYTES
#define SKBYTES crypto_kem_mlkem768_SECRETKEYBYTES
#define CTBYTES crypto_kem_mlkem768_CIPHERTEXTBYTES

_Static_assert(PKBYTES == POLYVECBYTES + 32, "ek = ByteEncode_12(t-hat) || rho");
_Static_assert(SKBYTES == POLYVECBYTES + PKBYTES + 64, "dk = dk_pke || ek || H(ek) || z");
_Static_assert(CTBYTES == K * DU_BYTES + DV_BYTES, "c = c1 || c2");
_Static_assert(CTBYTES % 8 == 0, "differ_mask compares eight bytes at a time");

typedef nat_mlkem_poly poly;

/* test/c/mlkem768.c's constant-time check marks secrets undefined under valgrind; this tells it
 * which derived bytes are public by design (rho, which the matrix sampling branches on). */
#ifndef NAT_DECLASSIFY
#define NAT_DECLASSIFY(p, len) ((void) (p), (void) (len))
#endif

static const nat_mlkem768_kernels *kernels(void) {
  return nat_mlkem768_kernels_chosen != NULL ? nat_mlkem768_kernels_chosen : &NAT_MLKEM768_BASELINE;
}

/* FIPS 203 section 7.2's modulus check: ByteEncode_12(ByteDecode_12(ek)) = ek, i.e. every
 * 12-bit value below q. Public data, so it may stop early. */
static int ek_is_reduced(const unsigned char ek[POLYVECBYTES]) {
  for (size_t i = 0; i < POLYVECBYTES; i += 3) {
    const unsigned a = (ek[i] | ek[i + 1] << 8) & 0xfff, b = ek[i + 1] >> 4 | ek[i + 2] << 4;
    if (a >= Q || b >= Q) return 0;
  }
  return 1;
}

/* x R mod q for Montgomery-reduced products that no invntt follows: R^2 mod q = 1353. */
static void times_r(poly *p) {
  for (size_t i = 0; i < N; i++) p->c[i] = nat_mlkem_montgomery(1353 * (int32_t) p->c[i]);
}

static void add_to(poly *r, const poly *a) {
  for (size_t i = 0; i < N; i++) r->c[i] = (int16_t) (r->c[i] + a->c[i]);
}

/* G (SHA3-512) of 32 bytes and one more or of two 32-byte halves. */
static void g_hash(unsigned char out[64], const unsigned char *a, const unsigned char *b, size_t blen) {
  unsigned char in[64];
  memcpy(in, a, 32);
  memcpy(in + 32, b, blen);
  nat_sha3512(out, in, 32 + blen);
  sodium_memzero(in, sizeof in);
}

/* K-PKE.KeyGen (Algorithm 13) from d: ek = ByteEncode_12(t-hat) || rho, dk_pke = ByteEncode_12(s-hat). */
static void kpke_keygen(unsigned char ek[PKBYTES], unsigned char dk[POLYVECBYTES],
                        const unsigned char d[32]) {
  const nat_mlkem768_kernels *kn = kernels();
  const unsigned char k = K;
  unsigned char rho_sigma[64];
  poly a[K][K], se[2 * K], t;
  poly *s = se, *e = se + K;

  g_hash(rho_sigma, d, &k, 1);
  NAT_DECLASSIFY(rho_sigma, 32);
  kn->matrix(a, rho_sigma, 0);
  kn->noise(se, 2 * K, rho_sigma + 32);
  for (size_t i = 0; i < K; i++) {
    kn->ntt(&s[i]);
    kn->ntt(&e[i]);
  }
  for (size_t i = 0; i < K; i++) {
    kn->basemul_acc(&t, a[i], s);
    times_r(&t);
    add_to(&t, &e[i]);
    kn->encode12(ek + i * POLYBYTES, &t);
    kn->encode12(dk + i * POLYBYTES, &s[i]);
  }
  memcpy(ek + POLYVECBYTES, rho_sigma, 32);
  sodium_memzero(rho_sigma, sizeof rho_sigma);
  sodium_memzero(se, sizeof se);
  sodium_memzero(&t, sizeof t);
}

/* K-PKE.Encrypt (Algorithm 14): c from ek (decoded unreduced: dec re-encrypts with the ek inside
 * a secret key that nothing checked), its transposed matrix a (sampled by the caller, together
 * with a hash), the message m and the randomness r. */
static void kpke_encrypt(unsigned char c[CTBYTES], const unsigned char ek[PKBYTES], const poly a[K][K],
                         const unsigned char m[32], const unsigned char r[32]) {
  const nat_mlkem768_kernels *kn = kernels();
  poly t[K], noise[2 * K + 1], u, v, mu;
  poly *y = noise, *e1 = noise + K, *e2 = noise + 2 * K;

  for (size_t i = 0; i < K; i++) kn->decode12(&t[i], ek + i * POLYBYTES);
  kn->noise(noise, 2 * K + 1, r);
  for (size_t i = 0; i < K; i++) kn->ntt(&y[i]);
  for (size_t i = 0; i < K; i++) {
    kn->basemul_acc(&u, a[i], y);
    kn->invntt(&u);
    add_to(&u, &e1[i]);
    kn->compress10(c + i * DU_BYTES, &u);
  }
  kn->basemul_acc(&v, t, y);
  kn->invntt(&v);
  add_to(&v, e2);
  kn->from_message(&mu, m);
  add_to(&v, &mu);
  kn->compress4(c + K * DU_BYTES, &v);
  sodium_memzero(noise, sizeof noise);
  sodium_memzero(&u, sizeof u);
  sodium_memzero(&v, sizeof v);
  sodium_memzero(&mu, sizeof mu);
}

/* K-PKE.Decrypt (Algorithm 15). */
static void kpke_decrypt(unsigned char m[32], const unsigned char dk[POLYVECBYTES],
                         const unsigned char c[CTBYTES]) {
  const nat_mlkem768_kernels *kn = kernels();
  poly u[K], s[K], v, w;

  for (size_t i = 0; i < K; i++) {
    kn->decompress10(&u[i], c + i * DU_BYTES);
    kn->ntt(&u[i]);
    kn->decode12(&s[i], dk + i * POLYBYTES);
  }
  kn->basemul_acc(&w, s, u);
  kn->invntt(&w);
  kn->decompress4(&v, c + K * DU_BYTES);
  for (size_t i = 0; i < N; i++) v.c[i] = (int16_t) (v.c[i] - w.c[i]);
  kn->to_message(m, &v);
  sodium_memzero(s, sizeof s);
  sodium_memzero(&v, sizeof v);
  sodium_memzero(&w, sizeof w);
}

/* ML-KEM.KeyGen_internal (Algorithm 16): seed = d || z. */
int nat_mlkem768_ours_seed_keypair(unsigned char *pk, unsigned char *sk, const unsigned char *seed) {
  kpke_keygen(pk, sk, seed);
  memcpy(sk + POLYVECBYTES, pk, PKBYTES);
  nat_sha3256(sk + POLYVECBYTES + PKBYTES, pk, PKBYTES);
  memcpy(sk + POLYVECBYTES + PKBYTES + 32, seed + 32, 32);
  return 0;
}

/* ML-KEM.Encaps_internal (Algorithm 17), after the modulus check: (K, r) = G(m || H(ek)). */
int nat_mlkem768_ours_enc_deterministic(unsigned char *ct, unsigned char *ss,
                                                const unsigned char *pk, const unsigned char *seed) {
  unsigned char h[32], kr[64];
  poly a[K][K];

  if (!ek_is_reduced(pk)) return -1;
  kernels()->matrix_hash(a, pk + POLYVECBYTES, 1, h, pk, PKBYTES, 0x06); /* H(ek) = SHA3-256 */
  g_hash(kr, seed, h, 32);
  kpke_encrypt(ct, pk, a, seed, kr + 32);
  memcpy(ss, kr, 32);
  sodium_memzero(kr, sizeof kr);
  return 0;
}

/* 0xff if a and b differ anywhere, else 0, without a branch on either: eight bytes at a time
 * (len a multiple of 8), d | -d has its top bit set exactly when d is not zero. */
static unsigned char differ_mask(const unsigned char *a, const unsigned char *b, size_t len) {
  uint64_t d = 0;
  for (size_t i = 0; i < len; i += 8) {
    uint64_t x, y;
    memcpy(&x, a + i, 8);
    memcpy(&y, b + i, 8);
    d |= x ^ y;
  }
  unsigned char mask = (unsigned char) (0u - (unsigned) ((d | (0 - d)) >> 63));
#if defined(__GNUC__) || defined(__clang__)
  __asm__ volatile("" : "+r"(mask)); /* keep the compiler from turning the select into a branch */
#endif
  return mask;
}

/* ML-KEM.Decaps_internal (Algorithm 18): m' = Decrypt(c), (K', r') = G(m' || h), K-bar =
 * J(z || c) = SHAKE256(z || c, 32), c' = Encrypt(ek, m', r'); K' if c' = c, else K-bar. */
int nat_mlkem768_ours_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk) {
  const unsigned char *ek = sk + POLYVECBYTES, *h = ek + PKBYTES, *z = h + 32;
  unsigned char m[32], kr[64], again[CTBYTES], zc[32 + CTBYTES], reject[32];
  poly a[K][K];

  memcpy(zc, z, 32);
  memcpy(zc + 32, ct, CTBYTES);
  kernels()->matrix_hash(a, ek + POLYVECBYTES, 1, reject, zc, sizeof zc, 0x1f); /* J = SHAKE256 */
  kpke_decrypt(m, sk, ct);
  g_hash(kr, m, h, 32);
  kpke_encrypt(again, ek, a, m, kr + 32);
  const unsigned char mask = differ_mask(ct, again, CTBYTES);
  for (size_t i = 0; i < 32; i++) ss[i] = (unsigned char) (kr[i] ^ (mask & (kr[i] ^ reject[i])));
  sodium_memzero(m, sizeof m);
  sodium_memzero(kr, sizeof kr);
  sodium_memzero(again, sizeof again);
  sodium_memzero(zc, 32);
  sodium_memzero(reject, sizeof reject);
  return 0;
}

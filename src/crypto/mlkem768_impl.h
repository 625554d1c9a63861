/* ML-KEM-768's kernels (FIPS 203 sections 4.3 and 4.2.2): the number-theoretic transform, its
 * inverse, the multiplication of NTT representations, and the sampling of the matrix and of the
 * noise, in several implementations behind one table (mlkem768_dispatch.c picks one at load);
 * mlkem768.c builds K-PKE and the Fujisaki-Okamoto transform on them.
 *
 * A polynomial is 256 int16_t coefficients, in FIPS 203's order (an NTT representation in the
 * bit-reversed order of Algorithm 9's output), held as any representative mod q = 3329 within
 * the bounds each kernel states. Montgomery arithmetic with R = 2^16: a product mod q comes out
 * times R^-1, so basemul_acc's result carries a factor R^-1 and invntt multiplies by R, which
 * cancel (mlkem768.c multiplies by R where no invntt follows). Every kernel's result is the same
 * value mod q as FIPS 203's; mlkem768.c reduces to [0, q) before anything is encoded, so every
 * implementation gives the same bytes. */
#ifndef NAT_CRYPTO_MLKEM768_IMPL_H
#define NAT_CRYPTO_MLKEM768_IMPL_H

#include <stddef.h>
#include <stdint.h>

#define NAT_MLKEM_Q 3329
#define NAT_MLKEM_N 256
#define NAT_MLKEM_K 3
/* q^-1 mod 2^16 */
#define NAT_MLKEM_QINV 62209

typedef struct nat_mlkem_poly {
  _Alignas(32) int16_t c[NAT_MLKEM_N];
} nat_mlkem_poly;

typedef struct nat_mlkem768_kernels {
  const char *name;
  /* Algorithm 9 in place: in |c| <= q, out |c| < q. */
  void (*ntt)(nat_mlkem_poly *p);
  /* Algorithm 10 in place, times R: in |c| < q, out |c| < q. */
  void (*invntt)(nat_mlkem_poly *p);
  /* r = R^-1 sum_k a[k] b[k] (Algorithms 11 and 12): |a| < 2^12 (a decoded, unreduced key),
   * |b| < q; out |r| < q. */
  void (*basemul_acc)(nat_mlkem_poly *r, const nat_mlkem_poly a[NAT_MLKEM_K],
                      const nat_mlkem_poly b[NAT_MLKEM_K]);
  /* Algorithm 13 (rows 4 and 5 of K-PKE.KeyGen, 4 to 8 of K-PKE.Encrypt): a[i][j] =
   * SampleNTT(rho || j || i), or SampleNTT(rho || i || j) transposed; coefficients in [0, q). */
  void (*matrix)(nat_mlkem_poly a[NAT_MLKEM_K][NAT_MLKEM_K], const unsigned char rho[32],
                 int transposed);
  /* matrix(a, rho, transposed), and besides out = the first 32 bytes of the rate-136 Keccak
   * sponge of in with the padding byte domain: 0x06 SHA3-256 (H of a public key), 0x1f
   * SHAKE256 (J(z || c)), which may then share permutations with the matrix's sampling. */
  void (*matrix_hash)(nat_mlkem_poly a[NAT_MLKEM_K][NAT_MLKEM_K], const unsigned char rho[32],
                      int transposed, unsigned char out[32], const unsigned char *in, size_t inlen,
                      unsigned char domain);
  /* Algorithm 8 with eta = 2: p[k] = SamplePolyCBD_2(PRF_2(sigma, k)) for k < n (n <= 2K + 1:
   * K-PKE.KeyGen's s and e, K-PKE.Encrypt's y, e1 and e2, each in one call); coefficients in
   * [-2, 2]. */
  void (*noise)(nat_mlkem_poly *p, size_t n, const unsigned char sigma[32]);
  /* ByteEncode_12 of the representatives in [0, q) of any int16_t coefficients (section 4.2.1). */
  void (*encode12)(unsigned char r[384], const nat_mlkem_poly *p);
  /* ByteDecode_12 without the reduction mod q: values up to 4095, which the kernels accept. */
  void (*decode12)(nat_mlkem_poly *p, const unsigned char a[384]);
  /* ByteEncode_10(Compress_10) of any int16_t coefficients (reduced mod q first), and
   * Decompress_10(ByteDecode_10): out in [0, q). */
  void (*compress10)(unsigned char r[320], const nat_mlkem_poly *p);
  void (*decompress10)(nat_mlkem_poly *p, const unsigned char a[320]);
  /* The same with d = 4 (ByteEncode_4(Compress_4), Decompress_4(ByteDecode_4)), and with d = 1
   * for the message: Decompress_1(ByteDecode_1(m)), ByteEncode_1(Compress_1). */
  void (*compress4)(unsigned char r[128], const nat_mlkem_poly *p);
  void (*decompress4)(nat_mlkem_poly *p, const unsigned char a[128]);
  void (*from_message)(nat_mlkem_poly *p, const unsigned char m[32]);
  void (*to_message)(unsigned char m[32], const nat_mlkem_poly *p);
} nat_mlkem768_kernels;

/* Portable C, every platform (mlkem768_portable.c); the scalar pieces the vector kernels reuse. */
extern const nat_mlkem768_kernels nat_mlkem768_portable;
/* Montgomery reduction: a R^-1 mod q in (-q, q) for |a| < q 2^15. */
static inline int16_t nat_mlkem_montgomery(int32_t a) {
  const int16_t t = (int16_t) (uint16_t) ((uint32_t) a * NAT_MLKEM_QINV);
  return (int16_t) ((a - (int32_t) t * NAT_MLKEM_Q) >> 16);
}
/* Barrett reduction: a mod q in [-(q-1)/2, (q-1)/2] for any int16_t a. */
static inline int16_t nat_mlkem_barrett(int16_t a) {
  const int16_t t = (int16_t) (((int32_t) a * 20159 + (1 << 25)) >> 26);
  return (int16_t) (a - t * NAT_MLKEM_Q);
}
/* The representative in [0, q) of any int16_t. */
static inline uint16_t nat_mlkem_canonical(int16_t a) {
  const int16_t r = nat_mlkem_barrett(a);
  return (uint16_t) (r + ((r >> 15) & NAT_MLKEM_Q));
}
/* Compress_d (section 4.2.1) of x in [0, q): round(2^d x / q) mod 2^d, for d = 1, 4, 10. The
 * division by q is a multiplication: ((x 2^d + 1664) 161271) >> 29 equals the quotient for every
 * such x and d (test/c/mlkem768.c checks all of them), and takes the same time for each. */
static inline uint32_t nat_mlkem_compress(uint16_t x, unsigned d) {
  return (uint32_t) (((((uint64_t) x << d) + NAT_MLKEM_Q / 2) * 161271) >> 29) & ((1u << d) - 1);
}
/* Decompress_d: round(q y / 2^d). */
static inline int16_t nat_mlkem_decompress(uint32_t y, unsigned d) {
  return (int16_t) ((y * NAT_MLKEM_Q + (1u << (d - 1))) >> d);
}
/* zeta^BitRev7(i) R mod q and the gammas zeta^(2 BitRev7(i) + 1) R mod q, centred. */
extern const int16_t nat_mlkem_zetas[128];
extern const int16_t nat_mlkem_gammas[128];
/* SampleNTT(rho || x || y) on one Keccak state. */
void nat_mlkem_sample_ntt(nat_mlkem_poly *p, const unsigned char rho[32], unsigned char x,
                          unsigned char y);
/* SamplePolyCBD_2(PRF_2(sigma, nonce)) on one Keccak state. */
void nat_mlkem_noise1(nat_mlkem_poly *p, const unsigned char sigma[32], unsigned char nonce);
/* Rejection sampling (Algorithm 7's loop) from len bytes of XOF output into r[ctr..n): returns
 * the new count. Variable time on public data only (the matrix seed is public). */
size_t nat_mlkem_rej_uniform(int16_t *r, size_t ctr, size_t n, const unsigned char *buf, size_t len);
/* SamplePolyCBD_2 of 128 bytes. */
void nat_mlkem_cbd2(nat_mlkem_poly *p, const unsigned char buf[128]);
/* The compress4, decompress4, from_message and to_message kernels in scalar C. */
void nat_mlkem_compress4(unsigned char r[128], const nat_mlkem_poly *p);
void nat_mlkem_decompress4(nat_mlkem_poly *p, const unsigned char a[128]);
void nat_mlkem_from_message(nat_mlkem_poly *p, const unsigned char m[32]);
void nat_mlkem_to_message(unsigned char m[32], const nat_mlkem_poly *p);

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define NAT_MLKEM_X86 1
/* AVX2 (mlkem768_avx2.c): 16 coefficients per ymm, four-way Keccak (keccak4x_avx2.c). */
extern const nat_mlkem768_kernels nat_mlkem768_avx2;
/* The same with the four-way Keccak in AVX-512VL (keccak4x_avx512vl.c): vprolq and vpternlogq
 * on ymm registers. */
extern const nat_mlkem768_kernels nat_mlkem768_avx512vl;
/* Fills the AVX2 rejection sampling's table: once, before nat_mlkem768_avx2 or _avx512vl is used. */
void nat_mlkem768_avx2_init(void);
#endif

#if defined(__wasm_simd128__)
#define NAT_MLKEM_SIMD128 1
/* WebAssembly SIMD128 (mlkem768_simd128.c): eight coefficients per v128, Barrett products. */
extern const nat_mlkem768_kernels nat_mlkem768_simd128;
#endif

/* The kernels every machine this is built for runs: SIMD128 in wasm (the module requires it, so
 * the portable set is left out of it; test/c/mlkem768.c still runs both under Node's WASI), the
 * portable C elsewhere. */
#ifdef NAT_MLKEM_SIMD128
#define NAT_MLKEM768_BASELINE nat_mlkem768_simd128
#else
#define NAT_MLKEM768_BASELINE nat_mlkem768_portable
#endif

/* The kernels mlkem768_dispatch.c chose (NULL: libsodium's code answers). */
extern const nat_mlkem768_kernels *nat_mlkem768_kernels_chosen;

/* ML-KEM.KeyGen_internal, Encaps_internal (after the modulus check) and Decaps_internal on the
 * chosen kernels (mlkem768.c); mlkem768_dispatch.c's nat_kem_mlkem768_* call them. */
int nat_mlkem768_ours_seed_keypair(unsigned char *pk, unsigned char *sk, const unsigned char *seed);
int nat_mlkem768_ours_enc_deterministic(unsigned char *ct, unsigned char *ss, const unsigned char *pk,
                                        const unsigned char *seed);
int nat_mlkem768_ours_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk);
/* X-Wing on nat_kem_mlkem768_* (xwing.c). */
int nat_xwing_ours_seed_keypair(unsigned char *pk, unsigned char *sk, const unsigned char *seed);
int nat_xwing_ours_enc_deterministic(unsigned char *ct, unsigned char *ss, const unsigned char *pk,
                                     const unsigned char *seed);
int nat_xwing_ours_dec(unsigned char *ss, const unsigned char *ct, const unsigned char *sk);

#endif

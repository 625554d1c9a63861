/* ChaCha20 (RFC 8439 section 2.3) in several implementations, for chacha20poly1305.c;
 * chacha20_dispatch.c picks one when the library is loaded.
 *
 * The state is ChaCha20's 16 input words: the constant, the key, then the block counter in word 12
 * (ctr64 = 0: the IETF variant's 32-bit counter, which wraps within word 12) or words 12 and 13
 * (ctr64 = 1: the original 64-bit counter, word 12 low), then the nonce. A kernel XORs nblocks
 * whole keystream blocks onto in (out == in allowed; any alignment) and advances the counter
 * in st by nblocks. */
#ifndef NAT_CRYPTO_CHACHA20_IMPL_H
#define NAT_CRYPTO_CHACHA20_IMPL_H

#include <stddef.h>
#include <stdint.h>

typedef void (*nat_chacha20_blocks_fn)(uint32_t st[16], unsigned char *out,
                                       const unsigned char *in, size_t nblocks, int ctr64);

/* One block at a time, 32-bit scalar C: every platform. */
void nat_chacha20_blocks_portable(uint32_t st[16], unsigned char *out, const unsigned char *in,
                                  size_t nblocks, int ctr64);

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define NAT_CHACHA20_X86 1
/* AVX2: eight blocks, word i of block j in lane j of ymm i; fewer than eight, two blocks per ymm
 * row by row. */
void nat_chacha20_blocks_avx2(uint32_t st[16], unsigned char *out, const unsigned char *in,
                              size_t nblocks, int ctr64);
/* AVX-512F: sixteen blocks in sixteen zmm, the same layout; what is left goes to the AVX2 code. */
void nat_chacha20_blocks_avx512(uint32_t st[16], unsigned char *out, const unsigned char *in,
                                size_t nblocks, int ctr64);
#endif

#if defined(__wasm_simd128__)
/* SIMD128: four blocks, word i of block j in lane j of v128 i. */
void nat_chacha20_blocks_simd128(uint32_t st[16], unsigned char *out, const unsigned char *in,
                                 size_t nblocks, int ctr64);
#endif

/* "expand 32-byte k" */
#define NAT_CHACHA20_SIGMA0 0x61707865U
#define NAT_CHACHA20_SIGMA1 0x3320646eU
#define NAT_CHACHA20_SIGMA2 0x79622d32U
#define NAT_CHACHA20_SIGMA3 0x6b206574U

/* The implementation chacha20_dispatch.c chose, and its name ("portable", "libsodium": its
 * stream functions, "avx2", "avx512", "simd128"). */
void nat_chacha20_blocks(uint32_t st[16], unsigned char *out, const unsigned char *in,
                         size_t nblocks, int ctr64);
const char *nat_chacha20_impl(void);
/* The same for the few blocks of a short message: our AVX2 code where the CPU has it, unless a
 * test forced another. */
void nat_chacha20_blocks_short(uint32_t st[16], unsigned char *out, const unsigned char *in,
                               size_t nblocks, int ctr64);

/* out = in ^ keystream for any len (out == in allowed); a partial last block uses one block of
 * the counter, as libsodium's stream functions do. */
void nat_chacha20_xor(uint32_t st[16], unsigned char *out, const unsigned char *in, size_t len,
                      int ctr64);

/* st = the input words for key k and counter 0; the nonce fills words 13..15 (IETF, 96 bits) or
 * 14..15 (original, 64 bits). */
void nat_chacha20_init_ietf(uint32_t st[16], const unsigned char k[32], const unsigned char n[12]);
void nat_chacha20_init_orig(uint32_t st[16], const unsigned char k[32], const unsigned char n[8]);

/* HChaCha20 (draft-irtf-cfrg-xchacha-03 section 2.2): the 32-byte subkey for k and the 16-byte
 * in, as words (the key words of the state that follows). */
void nat_hchacha20(uint32_t subkey[8], const unsigned char in[16], const unsigned char k[32]);

#endif

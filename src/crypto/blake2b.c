/* BLAKE2b (RFC 7693) on libsodium's state layout: see blake2b.h.
 *
 * init, update and final leave the state as libsodium 1.0.22's blake2b-ref.c does; the
 * one-shot functions hash whole blocks straight from the input. The compression function is the
 * one blake2b_dispatch.c chose (blake2b_impl.h). */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "blake2b.h"
#include "blake2b_impl.h"

#define BLOCK 128

typedef struct {
  uint64_t h[8];
  uint64_t t[2];
  uint64_t f[2];
  uint8_t buf[2 * BLOCK];
  size_t buflen;
  uint8_t last_node;
} blake2b_state;

/* libsodium's struct is packed; ours has no padding before last_node, so the offsets agree. */
_Static_assert(offsetof(blake2b_state, buf) == 96, "blake2b_state.buf");
_Static_assert(offsetof(blake2b_state, buflen) == 352, "blake2b_state.buflen");
_Static_assert(offsetof(blake2b_state, last_node) == 352 + sizeof(size_t), "last_node");
_Static_assert(sizeof(blake2b_state) <= sizeof(crypto_generichash_blake2b_state), "state size");

static const uint64_t IV[8] = {NAT_BLAKE2B_IV0, NAT_BLAKE2B_IV1, NAT_BLAKE2B_IV2, NAT_BLAKE2B_IV3,
                               NAT_BLAKE2B_IV4, NAT_BLAKE2B_IV5, NAT_BLAKE2B_IV6, NAT_BLAKE2B_IV7};

static inline uint64_t load64_le(const unsigned char *p) {
  uint64_t x = 0;
  for (int i = 7; i >= 0; i--) x = x << 8 | p[i];
  return x;
}

static inline void store64_le(unsigned char *p, uint64_t x) {
  for (int i = 0; i < 8; i++) p[i] = (unsigned char) (x >> (8 * i));
}

/* RFC 7693 section 2.5: h = IV xor the parameter block (digest length, key length, fanout 1,
 * depth 1, then zeros but for salt and personal). */
static void init_h(uint64_t h[8], size_t outlen, size_t keylen, const unsigned char *salt,
                   const unsigned char *personal) {
  memcpy(h, IV, sizeof IV);
  h[0] ^= (uint64_t) outlen | (uint64_t) keylen << 8 | 1U << 16 | 1U << 24;
  if (salt != NULL) {
    h[4] ^= load64_le(salt);
    h[5] ^= load64_le(salt + 8);
  }
  if (personal != NULL) {
    h[6] ^= load64_le(personal);
    h[7] ^= load64_le(personal + 8);
  }
}

/* Streaming, following blake2b-ref.c: a key is the first block; update keeps the last 129..256
 * bytes buffered (only final compresses with the last-block flag). */
int nat_blake2b_init_salt_personal(crypto_generichash_blake2b_state *state,
                                   const unsigned char *key, size_t keylen, size_t outlen,
                                   const unsigned char *salt, const unsigned char *personal) {
  blake2b_state *S = (blake2b_state *) (void *) state;
  if (outlen == 0 || outlen > 64 || keylen > 64) return -1;
  if (key == NULL) keylen = 0;
  init_h(S->h, outlen, keylen, salt, personal);
  /* blake2b_init0 zeroes t through last_node (not the bytes after it) */
  memset(S->t, 0, offsetof(blake2b_state, last_node) + 1 - offsetof(blake2b_state, t));
  if (keylen > 0) {
    memcpy(S->buf, key, keylen);
    S->buflen = BLOCK;
  }
  return 0;
}

int nat_blake2b_init(crypto_generichash_blake2b_state *state, const unsigned char *key,
                     size_t keylen, size_t outlen) {
  return nat_blake2b_init_salt_personal(state, key, keylen, outlen, NULL, NULL);
}

/* libsodium's update compresses the first buffered block whenever more than 256 bytes are at
 * hand, then moves the second down: the state afterwards holds the last 129..256 bytes of
 * everything absorbed, and past them the bytes 128 before (the last block moved down left its
 * copy there). We compress the same blocks, whole ones straight from in, and leave the same
 * bytes. */
int nat_blake2b_update(crypto_generichash_blake2b_state *state, const unsigned char *in,
                       size_t inlen) {
  blake2b_state *S = (blake2b_state *) (void *) state;
  size_t left = S->buflen, fill = 2 * BLOCK - left;
  if (inlen <= fill) {
    if (inlen > 0) memcpy(S->buf + left, in, inlen);
    S->buflen = left + inlen;
    return 0;
  }
  memcpy(S->buf + left, in, fill);
  in += fill;
  inlen -= fill;
  nat_blake2b_compress(S->h, S->t, S->f[0], S->f[1], S->buf, 1, BLOCK);
  if (inlen <= BLOCK) {
    memcpy(S->buf, S->buf + BLOCK, BLOCK);
    memcpy(S->buf + BLOCK, in, inlen);
    S->buflen = BLOCK + inlen;
    return 0;
  }
  nat_blake2b_compress(S->h, S->t, S->f[0], S->f[1], S->buf + BLOCK, 1, BLOCK);
  const size_t blocks = (inlen - BLOCK - 1) / BLOCK;
  nat_blake2b_compress(S->h, S->t, S->f[0], S->f[1], in, blocks, BLOCK);
  in += blocks * BLOCK;
  inlen -= blocks * BLOCK; /* 129..256 */
  memcpy(S->buf, in, inlen);
  memcpy(S->buf + inlen, S->buf + inlen - BLOCK, 2 * BLOCK - inlen);
  S->buflen = inlen;
  return 0;
}

int nat_blake2b_final(crypto_generichash_blake2b_state *state, unsigned char *out,
                      size_t outlen) {
  blake2b_state *S = (blake2b_state *) (void *) state;
  unsigned char buffer[64];
  if (outlen == 0 || outlen > 64 || S->f[0] != 0) return -1;
  if (S->buflen > BLOCK) {
    nat_blake2b_compress(S->h, S->t, S->f[0], S->f[1], S->buf, 1, BLOCK);
    S->buflen -= BLOCK;
    memcpy(S->buf, S->buf + BLOCK, S->buflen);
  }
  if (S->last_node) S->f[1] = (uint64_t) -1;
  S->f[0] = (uint64_t) -1;
  memset(S->buf + S->buflen, 0, 2 * BLOCK - S->buflen);
  nat_blake2b_compress(S->h, S->t, S->f[0], S->f[1], S->buf, 1, S->buflen);
  for (int i = 0; i < 8; i++) store64_le(buffer + 8 * i, S->h[i]);
  memcpy(out, buffer, outlen);
  sodium_memzero(S->h, sizeof S->h);
  sodium_memzero(S->buf, sizeof S->buf);
  sodium_memzero(buffer, sizeof buffer);
  return 0;
}

#ifdef __wasm_simd128__
#include <wasm_simd128.h>

/* wasm32: the one-shot's blocks are put together 16 bytes at a time in SIMD128 registers and
 * stored whole, the digest copied straight out of h (wasm is little-endian), and h and the block
 * wiped by v128 stores. memset and memcpy into the block, the digest stored a byte at a time and
 * sodium_memzero (two calls deep) cost about a third as much as the compression of the block,
 * which also waited for its 8-byte loads of bytes just written by smaller stores (no store
 * forwarding). 64 bytes, the module's function alone (Zen 5, family 26 model 2, Node 20): ... */

/* block = the n bytes that end at end, then zeros; the 16 bytes before end are readable if
 * readable16 (the partial 16 are then taken from them, moved down by a swizzle, which gives 0
 * for the lanes whose index reaches 16). */
static void zero_padded(unsigned char block[BLOCK], const unsigned char *end, size_t n,
                        int readable16) {
  const v128_t lanes = wasm_i8x16_make(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  for (size_t from = 0; from < BLOCK; from += 16) {
    v128_t v = wasm_i64x2_splat(0);
    if (from + 16 <= n) {
      v = wasm_v128_load(end - n + from);
    } else if (from < n && readable16) {
      v = wasm_i8x16_swizzle(wasm_v128_load(end - 16),
                             wasm_i8x16_add(lanes, wasm_i8x16_splat((int8_t) (16 - (n - from)))));
    } else if (from < n) {
      unsigned char t[16] = {0};
      memcpy(t, end - n + from, n - from);
      v = wasm_v128_load(t);
      memset(t, 0, sizeof t);
      __asm__ __volatile__("" : : "r"(t) : "memory");
    }
    wasm_v128_store(block + from, v);
  }
}

/* (the barrier in the loop keeps clang from turning it into a call of memset) */
static void wipe(void *p, size_t len) {
  for (size_t i = 0; i < len; i += 16) {
    wasm_v128_store((unsigned char *) p + i, wasm_i64x2_splat(0));
    __asm__ __volatile__("" : : "r"(p) : "memory");
  }
}
#else
static void zero_padded(unsigned char block[BLOCK], const unsigned char *end, size_t n,
                        int readable16) {
  (void) readable16;
  memset(block, 0, BLOCK);
  if (n > 0) memcpy(block, end - n, n);
}
#endif

/* One-shot: the key block (if any), the whole blocks but the last straight from in, then the
 * last 0..128 bytes zero-padded with the last-block flag (a key alone is the last block).
 * Inlined into both entry points, so that nat_blake2b's copy has no salt or personal to test. */
static inline __attribute__((always_inline)) int
one_shot(unsigned char *out, size_t outlen, const unsigned char *in, size_t inlen,
         const unsigned char *key, size_t keylen, const unsigned char *salt,
         const unsigned char *personal) {
  uint64_t h[8], t[2] = {0, 0};
  unsigned char block[BLOCK] __attribute__((aligned(16)));
  if (outlen == 0 || outlen > 64 || keylen > 64) return -1;
  if (key == NULL) keylen = 0;
  init_h(h, outlen, keylen, salt, personal);
  if (keylen > 0) {
    zero_padded(block, key + keylen, keylen, keylen >= 16);
    if (inlen > 0) nat_blake2b_compress(h, t, 0, 0, block, 1, BLOCK);
  }
  if (keylen == 0 || inlen > 0) {
    const size_t blocks = inlen > 0 ? (inlen - 1) / BLOCK : 0;
    if (blocks > 0) nat_blake2b_compress(h, t, 0, 0, in, blocks, BLOCK);
    zero_padded(block, in + inlen, inlen - blocks * BLOCK, inlen >= 16); /* 0..128 bytes */
    inlen -= blocks * BLOCK;
  } else {
    inlen = BLOCK;
  }
  nat_blake2b_compress(h, t, (uint64_t) -1, 0, block, 1, inlen);
#ifdef __wasm_simd128__
  size_t i = 0;
  for (; i + 16 <= outlen; i += 16) { /* (the barrier: clang would call memcpy for this loop) */
    wasm_v128_store(out + i, wasm_v128_load((unsigned char *) h + i));
    __asm__ __volatile__("" : : "r"(out) : "memory");
  }
  if (i < outlen) memcpy(out + i, (unsigned char *) h + i, outlen - i);
  wipe(h, sizeof h);
  wipe(block, sizeof block);
#else
  for (int i = 0; i < 8; i++) store64_le(block + 8 * i, h[i]);
  memcpy(out, block, outlen);
  sodium_memzero(h, sizeof h);
  sodium_memzero(block, sizeof block);
#endif
  return 0;
}

int nat_blake2b_salt_personal(unsigned char *out, size_t outlen, const unsigned char *in,
                              size_t inlen, const unsigned char *key, size_t keylen,
                              const unsigned char *salt, const unsigned char *personal) {
  return one_shot(out, outlen, in, inlen, key, keylen, salt, personal);
}

int nat_blake2b(unsigned char *out, size_t outlen, const unsigned char *in, size_t inlen,
                const unsigned char *key, size_t keylen) {
  return one_shot(out, outlen, in, inlen, key, keylen, NULL, NULL);
}

/* For the wasm link's --wrap (blake2b.h). An input longer than size_t can count cannot be in
 * memory; libsodium would read past the end of it, these refuse it. */
#if SIZE_MAX < ULLONG_MAX
#define TOO_LONG(n) ((n) > SIZE_MAX)
#else
#define TOO_LONG(n) 0
#endif

int __wrap_crypto_generichash_blake2b(unsigned char *out, size_t outlen, const unsigned char *in,
                                      unsigned long long inlen, const unsigned char *key,
                                      size_t keylen) {
  if (TOO_LONG(inlen)) return -1;
  return nat_blake2b(out, outlen, in, (size_t) inlen, key, keylen);
}

int __wrap_crypto_generichash_blake2b_salt_personal(unsigned char *out, size_t outlen,
                                                    const unsigned char *in,
                                                    unsigned long long inlen,
                                                    const unsigned char *key, size_t keylen,
                                                    const unsigned char *salt,
                                                    const unsigned char *personal) {
  if (TOO_LONG(inlen)) return -1;
  return nat_blake2b_salt_personal(out, outlen, in, (size_t) inlen, key, keylen, salt, personal);
}

int __wrap_crypto_generichash_blake2b_init(crypto_generichash_blake2b_state *state,
                                           const unsigned char *key, size_t keylen,
                                           size_t outlen) {
  return nat_blake2b_init(state, key, keylen, outlen);
}

int __wrap_crypto_generichash_blake2b_init_salt_personal(crypto_generichash_blake2b_state *state,
                                                         const unsigned char *key, size_t keylen,
                                                         size_t outlen,
                                                         const unsigned char *salt,
                                                         const unsigned char *personal) {
  return nat_blake2b_init_salt_personal(state, key, keylen, outlen, salt, personal);
}

int __wrap_crypto_generichash_blake2b_update(crypto_generichash_blake2b_state *state,
                                             const unsigned char *in, unsigned long long inlen) {
  if (TOO_LONG(inlen)) return -1;
  return nat_blake2b_update(state, in, (size_t) inlen);
}

int __wrap_crypto_generichash_blake2b_final(crypto_generichash_blake2b_state *state,
                                            unsigned char *out, size_t outlen) {
  return nat_blake2b_final(state, out, outlen);
}

int __wrap__crypto_generichash_blake2b_pick_best_implementation(void) {
  return 0;
}

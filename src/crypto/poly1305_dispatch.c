/* Poly1305: the buffering every implementation shares, and the choice of the blocks function,
 * made once when the library is loaded (before any thread can call in).
 *
 * x86-64: AVX-512 IFMA where the CPU has AVX-512 F, VL and IFMA and the OS saves zmm state, else
 * AVX2 where it has AVX2 and the OS saves ymm state, else the 64-bit portable C. Each vector kernel
 * hashes short runs of blocks with the portable code itself, so this order never loses badly: on
 * Zen 5 (family 26) at 1 MB, see bench/poly1305.c for the cycles per byte.
 * wasm32: SIMD128 (every runtime natrium targets has it; the build always enables it), with the
 * 26-bit C for short runs. Elsewhere: the portable C (64-bit words where the compiler has 128-bit
 * products, 26-bit limbs otherwise: 32-bit CPUs, MSVC).
 *
 * NATRIUM_DISABLE_SIMD set (and not "0") keeps the portable code; NATRIUM_POLY1305_IMPL=portable,
 * portable26, avx2 or avx512ifma forces one (if the CPU has it), so the tests run every path on
 * one machine. */
#include <stdlib.h>
#include <string.h>

#include "poly1305_impl.h"

#ifdef NAT_POLY1305_X86
#include <cpuid.h>
#endif

#ifdef NAT_POLY1305_64
static void blocks_portable(nat_poly1305_core *c, const unsigned char *m, size_t blocks) {
  nat_poly1305_blocks_portable64(c, m, blocks, 1);
}
#define LAST_BLOCK nat_poly1305_blocks_portable64
#else
#define LAST_BLOCK nat_poly1305_blocks_portable26
#endif

#ifndef NAT_POLY1305_SIMD128
static void blocks_portable26(nat_poly1305_core *c, const unsigned char *m, size_t blocks) {
  nat_poly1305_blocks_portable26(c, m, blocks, 1);
}
#endif

#ifndef NAT_POLY1305_64
#define blocks_portable blocks_portable26
#endif

#ifdef NAT_POLY1305_SIMD128
static nat_poly1305_blocks_fn blocks_impl = nat_poly1305_blocks_simd128;
static const char *impl_name = "simd128";
#else
static nat_poly1305_blocks_fn blocks_impl = blocks_portable;
static const char *impl_name = "portable";
#endif
static void (*last_block)(nat_poly1305_core *, const unsigned char *, size_t, unsigned) = LAST_BLOCK;
/* Runs of fewer blocks than this go to last_block (the 64-bit C) directly: the vector kernels
 * would pass them on to it themselves, through one or two calls whose prologues (six registers
 * saved, the stack aligned for zmm spills) cost a fifth of a 64-byte message (bench/poly1305.c,
 * Intel Xeon family 6 model 207: 64 B IFMA 1.11 GB/s, portable 1.39; Zen 4 1.65 against 1.80).
 * 0 (every run to blocks_impl) unless a vector kernel is chosen. */
static size_t vector_min = 0;

const char *nat_poly1305_impl(void) {
  return impl_name;
}

static nat_poly1305_core *core_of(nat_poly1305_state *st) {
  return (nat_poly1305_core *) (void *) st;
}

void nat_poly1305_init(nat_poly1305_state *st, const unsigned char key[32]) {
  nat_poly1305_core *c = core_of(st);
  c->h[0] = c->h[1] = c->h[2] = 0;
  c->r[0] = nat_poly1305_load64(key) & 0x0ffffffc0fffffffULL;
  c->r[1] = nat_poly1305_load64(key + 8) & 0x0ffffffc0ffffffcULL;
  c->pad[0] = nat_poly1305_load64(key + 16);
  c->pad[1] = nat_poly1305_load64(key + 24);
  c->leftover = 0;
  memset(c->buf, 0, sizeof c->buf);
}

void nat_poly1305_update(nat_poly1305_state *st, const unsigned char *m, size_t len) {
  nat_poly1305_core *c = core_of(st);
  size_t left = (size_t) (c->leftover & 15); /* in bounds whatever the state holds */
  if (len == 0) return;
  if (left != 0) {
    size_t want = 16 - left;
    if (want > len) want = len;
    memcpy(c->buf + left, m, want);
    left += want;
    m += want;
    len -= want;
    if (left < 16) {
      c->leftover = left;
      return;
    }
    last_block(c, c->buf, 1, 1);
  }
  if (len >= 16) {
    if (len / 16 < vector_min) {
      last_block(c, m, len / 16, 1);
    } else {
      blocks_impl(c, m, len / 16);
    }
    m += len & ~(size_t) 15;
    len &= 15;
  }
  if (len != 0) memcpy(c->buf, m, len);
  c->leftover = len;
}

void nat_poly1305_final(nat_poly1305_state *st, unsigned char tag[16]) {
  nat_poly1305_core *c = core_of(st);
  const size_t left = (size_t) (c->leftover & 15);
  if (left != 0) {
    c->buf[left] = 1;
    memset(c->buf + left + 1, 0, 15 - left);
    last_block(c, c->buf, 1, 0);
  }
  nat_poly1305_finish_portable(c, tag);
  sodium_memzero(st, sizeof *st - 4);
}

/* Only the count of buffered bytes (public: it follows from the message length) is an index; h
 * is secret and is not looked at (a garbage h gives a garbage tag, nothing worse). */
int nat_poly1305_state_valid(const nat_poly1305_state *st) {
  nat_poly1305_core c;
  memcpy(&c, st, sizeof c);
  return c.leftover < 16;
}

int nat_poly1305(unsigned char out[16], const unsigned char *m, unsigned long long mlen,
                 const unsigned char key[32]) {
  nat_poly1305_state st;
  nat_poly1305_init(&st, key);
  nat_poly1305_update(&st, m, (size_t) mlen);
  nat_poly1305_final(&st, out);
  return 0;
}

int nat_poly1305_verify(const unsigned char h[16], const unsigned char *m, unsigned long long mlen,
                        const unsigned char key[32]) {
  unsigned char correct[16];
  nat_poly1305(correct, m, mlen, key);
  const int rc = crypto_verify_16(h, correct);
  sodium_memzero(correct, sizeof correct);
  return rc;
}

/* wasm32: no environment to read (and no getenv import for the glue to provide) */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__wasm__)
typedef struct {
  const char *name;
  nat_poly1305_blocks_fn fn;
} candidate;

#ifdef NAT_POLY1305_X86
/* CPUID leaf 1 ECX bits 27 (OSXSAVE), 28 (AVX); leaf 7 EBX bits 5 (AVX2), 16 (AVX512F), 21
 * (AVX512IFMA), 31 (AVX512VL); XCR0 bits 1, 2 (xmm, ymm) and 5, 6, 7 (opmask, zmm, zmm16-31):
 * the OS saves that state. Best last. */
static size_t cpu_candidates(candidate *list) {
  unsigned int a, b, c, d, b7 = 0, xcr0 = 0, xcr0_hi;
  size_t n = 0;

  list[n++] = (candidate){"portable", blocks_portable};
  list[n++] = (candidate){"portable26", blocks_portable26};
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c >> 27 & 1) || !(c >> 28 & 1)) return n;
  __asm__ volatile("xgetbv" : "=a"(xcr0), "=d"(xcr0_hi) : "c"(0));
  if (__get_cpuid_max(0, NULL) >= 7) __cpuid_count(7, 0, a, b7, c, d);
  if ((xcr0 & 0x06) != 0x06 || !(b7 >> 5 & 1)) return n;
  list[n++] = (candidate){"avx2", nat_poly1305_blocks_avx2};
  if ((xcr0 & 0xe6) != 0xe6 || !(b7 >> 16 & 1) || !(b7 >> 21 & 1) || !(b7 >> 31 & 1)) return n;
  list[n++] = (candidate){"avx512ifma", nat_poly1305_blocks_avx512ifma};
  return n;
}
#else
static size_t cpu_candidates(candidate *list) {
  size_t n = 0;
  list[n++] = (candidate){"portable", blocks_portable};
  list[n++] = (candidate){"portable26", blocks_portable26};
  return n;
}
#endif

__attribute__((constructor)) static void nat_poly1305_dispatch(void) {
  candidate list[4];
  const size_t n = cpu_candidates(list);
  const char *off = getenv("NATRIUM_DISABLE_SIMD");
  const char *force = getenv("NATRIUM_POLY1305_IMPL");
  size_t pick = 0;

  if (off != NULL && off[0] != '\0' && strcmp(off, "0") != 0) {
    pick = 0; /* as for BLAKE2b: NATRIUM_DISABLE_SIMD wins over a forced implementation */
  } else if (force != NULL && force[0] != '\0') {
    for (size_t k = 0; k < n; k++) {
      if (strcmp(force, list[k].name) == 0) pick = k;
    }
  } else {
    pick = n - 1;
    if (pick == 1) pick = 0; /* portable26 is for tests only */
  }
  blocks_impl = list[pick].fn;
  impl_name = list[pick].name;
  if (blocks_impl == blocks_portable26) last_block = nat_poly1305_blocks_portable26;
#ifdef NAT_POLY1305_X86
  if (blocks_impl == nat_poly1305_blocks_avx2) vector_min = NAT_POLY1305_AVX2_X4_MIN;
  if (blocks_impl == nat_poly1305_blocks_avx512ifma) {
    vector_min = NAT_POLY1305_IFMA_MIN < NAT_POLY1305_AVX2_X4_MIN ? NAT_POLY1305_IFMA_MIN
                                                                  : NAT_POLY1305_AVX2_X4_MIN;
  }
#endif
}
#endif

/* scrypt: libsodium's escrypt_kdf (see scrypt.h) with our ROMix and reused scratch memory.
 *
 * Why the memory is reused: libsodium maps a fresh region for every call (mmap with
 * MAP_POPULATE, then munmap), and the kernel zeroes every page of it first. For N = 2^14, r = 8
 * (16 MiB, libsodium's interactive limit) that costs about 7 ms per call on a Zen 5 VM against
 * 0.15 ms for memory already mapped, a sixth of the whole hash; at N = 2^18 (256 MiB) faulting
 * in a fresh region took 1.2 s of CPU there against 0.55 s for the whole hash in one reused.
 * So a region that was used is wiped (sodium_memzero of every byte the call wrote: B, V and XY
 * all hold words derived from the password) and kept for the next call, in a slot that any
 * thread may take (an atomic exchange: the *_async variants run on libuv's pool, several at a
 * time; a thread that finds no slot to take maps its own region).
 *
 * What is kept is bounded, in two kinds of slot:
 * - NAT_SCRYPT_CACHE_SLOTS (2) regions of at most NAT_SCRYPT_CACHE_MAX (65 MiB: N = 2^16 at
 *   r = 8, B and XY beside it), kept as they are, one per thread hashing at the same time;
 * - one region of at most NAT_SCRYPT_LAZY_MAX (1 GiB + 1 MiB: N = 2^20 at r = 8, libsodium's
 *   sensitive limit), kept only where madvise(MADV_FREE) is accepted (Linux 4.5+, macOS, the
 *   BSDs): after the wipe its pages are handed to the kernel to take back whenever memory runs
 *   short (they then read as zero pages, which the wiped bytes were anyway), and until then the
 *   next call reuses them without a fault. MADV_FREE of a reused 256 MiB region with huge pages
 *   cost about 5 ms (after a 17 ms wipe) on the Zen 5 VM, and the next call ran as fast as in a
 *   region simply kept.
 * A larger region, or one no slot takes, is unmapped after its call, unwiped (as libsodium's:
 * the pages go back to the kernel, which zeroes them before anyone sees them).
 *
 * Regions that may be kept are mapped with transparent huge pages asked for where Linux offers
 * them: the first call's page faults, 12 ms for 16 MiB here, drop to 0.5 ms, and ROMix at 2^18
 * and 2^20 in a reused region took 0.87-0.91x its time in small pages (fewer TLB misses).
 * The kernel's compaction for huge pages can make the first call slower (up to 3x at 256 MiB on
 * Zen 4, mapped afresh every call); a kept region pays it once.
 *
 * An allocation that fails returns -1 with errno ENOMEM, writing nothing, as libsodium does. */
#if !defined(_DEFAULT_SOURCE) && !defined(_WIN32)
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS and MADV_HUGEPAGE under -std=c11 (glibc, musl) */
#endif
#include <errno.h>
#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "pbkdf2.h"
#include "scrypt.h"
#include "scrypt_impl.h"

#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#if defined(MAP_ANON) || defined(MAP_ANONYMOUS)
#define NAT_SCRYPT_MMAP 1
#ifndef MAP_ANON
#define MAP_ANON MAP_ANONYMOUS
#endif
#endif
#endif

#if defined(__wasm__)
/* Nothing to gain in wasm32: linear memory is never given back, so malloc's freed chunk is
 * reused at no cost and nothing is faulted in twice; and a region held between calls changes
 * where later allocations land (fuzz seed 1001 then traps in crypto_pwhash_str_async; see the
 * commit message). Each call mallocs, wipes and frees, as libsodium's escrypt does there. */
#define NAT_SCRYPT_CACHE_SLOTS 0
#elif defined(_MSC_VER) && !defined(__clang__)
#define NAT_SCRYPT_CACHE_SLOTS 0 /* no <stdatomic.h> in every MSVC: nothing is kept */
#else
#include <stdatomic.h>
#define NAT_SCRYPT_CACHE_SLOTS 2
#if defined(__aarch64__) && defined(__GNUC__) && !defined(__clang__)
/* gcc's default outline atomics call libgcc helpers whose first use asks glibc's __getauxval
 * whether the CPU has LSE; musl has no __getauxval, so the linux-arm64 musl build could not load.
 * The inline ARMv8.0 exclusive-load/store sequences need nothing and run on every arm64 CPU. */
#pragma GCC target("no-outline-atomics")
#endif
#endif
/* 64 MiB of V, and B and XY beside it */
#define NAT_SCRYPT_CACHE_MAX ((size_t) 65 << 20)
/* The lazily freed slot: only with mmap and MADV_FREE, and only where slots are kept at all. */
#if NAT_SCRYPT_CACHE_SLOTS > 0 && defined(NAT_SCRYPT_MMAP) && defined(MADV_FREE)
#define NAT_SCRYPT_LAZY 1
/* 1 GiB of V, and B and XY beside it */
#define NAT_SCRYPT_LAZY_MAX (((size_t) 1 << 30) + ((size_t) 1 << 20))
#endif

/* A region: this header at an aligned address inside the allocation, the data 64 bytes after. */
typedef struct nat_scrypt_region {
  void *base;   /* what mmap or malloc returned */
  size_t total; /* bytes mapped (mmap) or 0 (malloc) */
  size_t size;  /* usable bytes from data */
  uint8_t *data;
} nat_scrypt_region;

#define NAT_SCRYPT_HUGE ((size_t) 2 << 20)

#ifdef NAT_SCRYPT_MMAP
/* Whether a region of this size may be kept after its call (then it asks for huge pages). */
static int region_keepable(size_t size) {
#if defined(NAT_SCRYPT_LAZY)
  if (size <= NAT_SCRYPT_LAZY_MAX) return 1;
#endif
  return NAT_SCRYPT_CACHE_SLOTS > 0 && size <= NAT_SCRYPT_CACHE_MAX;
}
#endif

static nat_scrypt_region *region_alloc(size_t size) {
  const size_t head = 64;
  nat_scrypt_region *region;
  uint8_t *start;

#ifdef NAT_SCRYPT_MMAP
  /* large regions start on a 2 MiB boundary, so that all of them can be huge pages; the header
   * then sits at the end of the page before (never in a page that MADV_FREE hands back) */
  const size_t align = size >= NAT_SCRYPT_HUGE ? NAT_SCRYPT_HUGE : 64;
  const size_t page = 4096;
  if (size > SIZE_MAX - head - align - page) return NULL;
  size_t total = (size + head + align + page - 1) & ~(page - 1);
  void *base = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_ANON | MAP_PRIVATE, -1, 0);
  if (base == MAP_FAILED) return NULL;
  start = (uint8_t *) (((uintptr_t) base + head + align - 1) & ~(uintptr_t) (align - 1)) - head;
#if defined(MADV_HUGEPAGE)
  if (align == NAT_SCRYPT_HUGE && region_keepable(size)) (void) madvise(base, total, MADV_HUGEPAGE);
#endif
#else
  const size_t total = 0;
  if (size > SIZE_MAX - head - 63) return NULL;
  void *base = malloc(size + head + 63);
  if (base == NULL) return NULL;
  start = (uint8_t *) (((uintptr_t) base + 63) & ~(uintptr_t) 63);
#endif
  region = (nat_scrypt_region *) (void *) start;
  region->base = base;
  region->total = total;
  region->size = size;
  region->data = start + head;
  return region;
}

/* The region goes back to the system. Kept in the process (malloc), it is wiped first. */
static void region_free(nat_scrypt_region *region, size_t used) {
#ifdef NAT_SCRYPT_MMAP
  (void) used;
  (void) munmap(region->base, region->total);
#else
  void *base = region->base;
  sodium_memzero(region->data, used);
  sodium_memzero(region, sizeof *region);
  free(base);
#endif
}

#if NAT_SCRYPT_CACHE_SLOTS > 0
static _Atomic(nat_scrypt_region *) cache[NAT_SCRYPT_CACHE_SLOTS];
#endif
#if defined(NAT_SCRYPT_LAZY)
static _Atomic(nat_scrypt_region *) cache_lazy;
#endif

static nat_scrypt_region *region_take(size_t need) {
#if defined(NAT_SCRYPT_LAZY)
  if (need > NAT_SCRYPT_CACHE_MAX) {
    nat_scrypt_region *region = atomic_exchange(&cache_lazy, NULL);
    if (region != NULL) {
      if (region->size >= need) return region;
      region_free(region, 0); /* (wiped) too small: the larger one this call maps may be kept */
    }
    return region_alloc(need);
  }
#endif
#if NAT_SCRYPT_CACHE_SLOTS > 0
  for (size_t i = 0; i < NAT_SCRYPT_CACHE_SLOTS; i++) {
    nat_scrypt_region *region = atomic_exchange(&cache[i], NULL);
    if (region == NULL) continue;
    if (region->size >= need) return region;
    region_free(region, 0); /* (wiped) too small: the larger one this call maps may be kept */
  }
#endif
  return region_alloc(need);
}

/* After a call: wiped and cached, or given back (see the top of this file). */
static void region_give(nat_scrypt_region *region, size_t used) {
#if defined(NAT_SCRYPT_LAZY)
  if (region->size > NAT_SCRYPT_CACHE_MAX && region->size <= NAT_SCRYPT_LAZY_MAX) {
    nat_scrypt_region *expected = NULL;
    sodium_memzero(region->data, used);
    /* whole huge pages from data (2 MiB aligned), so that none is split; the tail stays */
    if (madvise(region->data, used & ~(NAT_SCRYPT_HUGE - 1), MADV_FREE) == 0 &&
        atomic_compare_exchange_strong(&cache_lazy, &expected, region)) {
      return;
    }
    region_free(region, 0);
    return;
  }
#endif
#if NAT_SCRYPT_CACHE_SLOTS > 0
  if (region->size <= NAT_SCRYPT_CACHE_MAX) {
    sodium_memzero(region->data, used);
    for (size_t i = 0; i < NAT_SCRYPT_CACHE_SLOTS; i++) {
      nat_scrypt_region *expected = NULL;
      if (atomic_compare_exchange_strong(&cache[i], &expected, region)) return;
    }
    region_free(region, 0);
    return;
  }
#endif
  region_free(region, used);
}

size_t nat_scrypt_cached_bytes(void) {
  size_t n = 0;
#if NAT_SCRYPT_CACHE_SLOTS > 0
  for (size_t i = 0; i < NAT_SCRYPT_CACHE_SLOTS; i++) {
    nat_scrypt_region *region = atomic_load(&cache[i]);
    if (region != NULL) n += region->size;
  }
#endif
#if defined(NAT_SCRYPT_LAZY)
  nat_scrypt_region *lazy = atomic_load(&cache_lazy);
  if (lazy != NULL) n += lazy->size;
#endif
  return n;
}

size_t nat_scrypt_cached_regions(void) {
  size_t n = 0;
#if NAT_SCRYPT_CACHE_SLOTS > 0
  for (size_t i = 0; i < NAT_SCRYPT_CACHE_SLOTS; i++) n += atomic_load(&cache[i]) != NULL;
#endif
#if defined(NAT_SCRYPT_LAZY)
  n += atomic_load(&cache_lazy) != NULL;
#endif
  return n;
}

#if NAT_SCRYPT_CACHE_SLOTS > 0
/* 1 if the region is all zero bytes; it is given back to a slot either way. */
static int region_wiped(nat_scrypt_region *region) {
  uint8_t acc = 0;
  for (size_t k = 0; k < region->size; k++) acc |= region->data[k];
  region_give(region, 0);
  return acc == 0;
}
#endif

int nat_scrypt_cache_wiped(void) {
  int wiped = 1;
#if NAT_SCRYPT_CACHE_SLOTS > 0
  for (size_t i = 0; i < NAT_SCRYPT_CACHE_SLOTS; i++) {
    nat_scrypt_region *region = atomic_exchange(&cache[i], NULL);
    if (region != NULL) wiped &= region_wiped(region);
  }
#endif
#if defined(NAT_SCRYPT_LAZY)
  nat_scrypt_region *lazy = atomic_exchange(&cache_lazy, NULL);
  if (lazy != NULL) wiped &= region_wiped(lazy);
#endif
  return wiped;
}

int nat_scrypt(const uint8_t *passwd, size_t passwdlen, const uint8_t *salt, size_t saltlen,
               uint64_t N, uint32_t r_, uint32_t p_, uint8_t *buf, size_t buflen) {
  const size_t r = r_, p = p_;
  size_t B_size, V_size, XY_size, need;
  nat_scrypt_region *region;
  uint8_t *B;
  uint32_t *V, *XY;

  /* libsodium's checks, in its order, with its errno values */
#if SIZE_MAX > UINT32_MAX
  if (buflen > (((uint64_t) 1 << 32) - 1) * 32) {
    errno = EFBIG;
    return -1;
  }
#endif
  if ((uint64_t) r * (uint64_t) p >= ((uint64_t) 1 << 30)) {
    errno = EFBIG;
    return -1;
  }
  if (N > UINT32_MAX) {
    errno = EFBIG;
    return -1;
  }
  if ((N & (N - 1)) != 0 || N < 2) {
    errno = EINVAL;
    return -1;
  }
  if (r == 0 || p == 0) {
    errno = EINVAL;
    return -1;
  }
  if (r > SIZE_MAX / 128 / p ||
#if SIZE_MAX / 256 <= UINT32_MAX
      r > SIZE_MAX / 256 ||
#endif
      N > SIZE_MAX / 128 / r) {
    errno = ENOMEM;
    return -1;
  }
  B_size = (size_t) 128 * r * p;
  V_size = (size_t) 128 * r * (size_t) N;
  need = B_size + V_size;
  if (need < V_size) {
    errno = ENOMEM;
    return -1;
  }
  XY_size = (size_t) 256 * r + 64;
  need += XY_size;
  if (need < XY_size) {
    errno = ENOMEM;
    return -1;
  }
  if ((region = region_take(need)) == NULL) {
    errno = ENOMEM;
    return -1;
  }
  B = region->data;
  V = (uint32_t *) (void *) (B + B_size);
  XY = (uint32_t *) (void *) ((uint8_t *) V + V_size);

  /* 1: (B_0 ... B_{p-1}) <- PBKDF2(P, S, 1, p * 128 * r); cannot fail (B_size < 2^37) */
  (void) nat_pbkdf2_sha256(B, B_size, passwd, passwdlen, salt, saltlen, 1);
  /* 2-3: B_i <- ROMix(B_i, N) */
  for (size_t i = 0; i < p; i++) nat_scrypt_romix(&B[128 * r * i], r, (uint32_t) N, V, XY);
  /* 5: DK <- PBKDF2(P, B, 1, dkLen); buflen was checked above */
  (void) nat_pbkdf2_sha256(buf, buflen, passwd, passwdlen, B, B_size, 1);

  region_give(region, need);
  return 0;
}

int __wrap_escrypt_kdf_sse(void *local, const uint8_t *passwd, size_t passwdlen,
                           const uint8_t *salt, size_t saltlen, uint64_t N, uint32_t r,
                           uint32_t p, uint8_t *buf, size_t buflen) {
  (void) local;
  return nat_scrypt(passwd, passwdlen, salt, saltlen, N, r, p, buf, buflen);
}

int __wrap_escrypt_kdf_nosse(void *local, const uint8_t *passwd, size_t passwdlen,
                             const uint8_t *salt, size_t saltlen, uint64_t N, uint32_t r,
                             uint32_t p, uint8_t *buf, size_t buflen) {
  (void) local;
  return nat_scrypt(passwd, passwdlen, salt, saltlen, N, r, p, buf, buflen);
}

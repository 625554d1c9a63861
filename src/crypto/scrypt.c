/* scrypt: libsodium's escrypt_kdf (see scrypt.h) with our ROMix and reused scratch memory.
 *
 * Why the memory is reused: libsodium maps a fresh region for every call (mmap with
 * MAP_POPULATE, then munmap), and the kernel zeroes every page of it first. For N = 2^14, r = 8
 * (16 MiB, libsodium's interactive limit) that costs about 7 ms per call on a Zen 5 VM against
 * 0.15 ms for memory already mapped, a sixth of the whole hash. So a region that was used is
 * wiped (sodium_memzero of every byte the call wrote: B, V and XY all hold words derived from
 * the password) and kept for the next call, in one of NAT_SCRYPT_CACHE_SLOTS slots that any
 * thread may take (an atomic exchange: the *_async variants run on libuv's pool, several at a
 * time; a thread that finds every slot empty maps its own region).
 *
 * What is kept is bounded: NAT_SCRYPT_CACHE_SLOTS regions of at most NAT_SCRYPT_CACHE_MAX bytes
 * each, 2 x 64 MiB, one region per thread that hashes at the same time up to two. 64 MiB is
 * N = 2^16 at r = 8, four times libsodium's interactive limit: beyond it a hash takes a quarter
 * of a second or more, mapping costs a tenth of that or less, and holding the memory would be
 * the larger cost to the process. A larger region is unmapped after its call, unwiped (as
 * libsodium's: the pages go back to the kernel, which zeroes them before anyone sees them).
 * Regions that may be kept are mapped with transparent huge pages asked for where Linux offers
 * them: the first call's page faults, 12 ms for 16 MiB here, drop to 0.5 ms. Larger ones are
 * not: at 256 MiB (N = 2^18) the kernel's compaction for huge pages made some calls take up to
 * 3x as long as with small pages (alternated runs on this VM), and they are mapped afresh each
 * time.
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

/* A region: this header at an aligned address inside the allocation, the data 64 bytes after. */
typedef struct nat_scrypt_region {
  void *base;   /* what mmap or malloc returned */
  size_t total; /* bytes mapped (mmap) or 0 (malloc) */
  size_t size;  /* usable bytes from data */
  uint8_t *data;
} nat_scrypt_region;

#define NAT_SCRYPT_HUGE ((size_t) 2 << 20)

static nat_scrypt_region *region_alloc(size_t size) {
  const size_t head = 64;
  nat_scrypt_region *region;
  uint8_t *start;

#ifdef NAT_SCRYPT_MMAP
  /* large regions start on a 2 MiB boundary, so that all of them can be huge pages */
  const size_t align = size >= NAT_SCRYPT_HUGE ? NAT_SCRYPT_HUGE : 64;
  const size_t page = 4096;
  if (size > SIZE_MAX - head - align - page) return NULL;
  size_t total = (size + head + align + page - 1) & ~(page - 1);
  void *base = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_ANON | MAP_PRIVATE, -1, 0);
  if (base == MAP_FAILED) return NULL;
  start = (uint8_t *) (((uintptr_t) base + head + align - 1) & ~(uintptr_t) (align - 1)) - head;
#if defined(MADV_HUGEPAGE)
  if (align == NAT_SCRYPT_HUGE && size <= NAT_SCRYPT_CACHE_MAX) {
    (void) madvise(base, total, MADV_HUGEPAGE);
  }
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

static nat_scrypt_region *region_take(size_t need) {
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

size_t nat_scrypt_cached_regions(void) {
  size_t n = 0;
#if NAT_SCRYPT_CACHE_SLOTS > 0
  for (size_t i = 0; i < NAT_SCRYPT_CACHE_SLOTS; i++) n += atomic_load(&cache[i]) != NULL;
#endif
  return n;
}

int nat_scrypt_cache_wiped(void) {
#if NAT_SCRYPT_CACHE_SLOTS > 0
  for (size_t i = 0; i < NAT_SCRYPT_CACHE_SLOTS; i++) {
    nat_scrypt_region *region = atomic_exchange(&cache[i], NULL);
    if (region == NULL) continue;
    uint8_t acc = 0;
    for (size_t k = 0; k < region->size; k++) acc |= region->data[k];
    region_give(region, 0);
    if (acc != 0) return 0;
  }
#endif
  return 1;
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

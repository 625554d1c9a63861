/* src/unpack/unpack.c (lib/unpack.wasm's C) natively, plainly, under ASan + UBSan and valgrind
 * (test/c/run.sh): it unpacks the real packed module (lib/natrium.wasm.lzma, made by
 * npm run build:wasm) to exactly lib/natrium.wasm, refuses each kind of bad input with its code,
 * and survives random corruptions (flipped bits, cuts, appended bytes, wrong lengths, garbage)
 * with a refusal and no read or write outside its arena. The arena is a malloc'd block of exactly
 * the size unpack_step asks for, grown by realloc as the JS grows memory, so a byte outside it is
 * a redzone (ASan) or an invalid access (valgrind). UNPACK_SEED=n repeats a run.
 *
 * cc-sources: src/unpack/unpack.c */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../src/unpack/unpack.h"

#include "check.h"

static unsigned char *read_file(const char *name, size_t *len) {
  FILE *f = fopen(name, "rb");
  CHECK(f != NULL, "cannot open %s (npm run build:wasm makes it)", name);
  fseek(f, 0, SEEK_END);
  const long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *b = malloc((size_t) n + 1);
  CHECK(b && fread(b, 1, (size_t) n, f) == (size_t) n, "cannot read %s", name);
  fclose(f);
  *len = (size_t) n;
  return b;
}

/* bitwise CRC-32, independent of unpack.c's table */
static uint32_t crc32_ref(const unsigned char *p, size_t n) {
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; i++) {
    c ^= p[i];
    for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1)));
  }
  return ~c;
}

static char *base64(const unsigned char *b, size_t n, size_t *out_len) {
  static const char T[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  char *a = malloc((n + 2) / 3 * 4 + 1);
  size_t o = 0;
  for (size_t i = 0; i < n; i += 3) {
    const uint32_t v = (uint32_t) b[i] << 16 | (i + 1 < n ? (uint32_t) b[i + 1] << 8 : 0) | (i + 2 < n ? b[i + 2] : 0);
    a[o++] = T[v >> 18 & 63];
    a[o++] = T[v >> 12 & 63];
    a[o++] = i + 1 < n ? T[v >> 6 & 63] : '=';
    a[o++] = i + 2 < n ? T[v & 63] : '=';
  }
  *out_len = o;
  return a;
}

static uint64_t rng;
static uint64_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

/* Unpacks text (len characters) as the JS does, into an arena grown exactly as asked; returns
 * the code, and on success the output (malloc'd, *out) whose length the caller declared. */
static int run_unpack(const char *text, size_t len, uint32_t out_len, uint32_t crc, unsigned char **out) {
  unsigned char *arena = malloc(len ? len : 1);
  memcpy(arena, text, len);
  unpack_test_arena = arena;
  unpack_test_arena_size = (unsigned int) len;
  const int at = unpack_begin((unsigned int) len, out_len, crc);
  int r = at;
  while (r > 0) {
    r = unpack_step();
    if (r > 0 && (unsigned int) r > unpack_test_arena_size) {
      /* without the arena it asks for, a step decodes nothing and asks again */
      CHECK(unpack_step() == r, "a step with too small an arena did not ask for the same again");
      arena = realloc(arena, (size_t) r);
      unpack_test_arena = arena;
      unpack_test_arena_size = (unsigned int) r;
    }
  }
  if (r == 0 && out) {
    *out = malloc(out_len ? out_len : 1);
    memcpy(*out, arena + at, out_len);
  }
  free(arena);
  unpack_test_arena = NULL;
  unpack_test_arena_size = 0;
  /* once done or refused, a further step says the same and touches nothing */
  CHECK(unpack_step() == r, "a step after the end changed its answer");
  return r;
}

static unsigned char *wasm, *packed;
static size_t wasm_len, packed_len;
static uint32_t wasm_crc;

/* The packed bytes p (n) as base64, unpacked with the real module's length and CRC. */
static int unpack_bytes(const unsigned char *p, size_t n, uint32_t out_len, uint32_t crc, unsigned char **out) {
  size_t tl;
  char *t = base64(p, n, &tl);
  const int r = run_unpack(t, tl, out_len, crc, out);
  free(t);
  return r;
}

static void test_round_trip(void) {
  unsigned char *out = NULL;
  CHECK(unpack_bytes(packed, packed_len, (uint32_t) wasm_len, wasm_crc, &out) == 0, "the real module does not unpack");
  CHECK(memcmp(out, wasm, wasm_len) == 0, "the real module unpacks to other bytes");
  free(out);
}

static void test_refusals(void) {
  const uint32_t n = (uint32_t) wasm_len;
  CHECK(unpack_bytes(packed, packed_len, n, wasm_crc ^ 1, NULL) == UNPACK_ERR_CRC, "bad CRC");
  CHECK(unpack_bytes(packed, packed_len, n - 1, wasm_crc, NULL) == UNPACK_ERR_LENGTH, "declared 1 byte short");
  CHECK(unpack_bytes(packed, packed_len, n + 1, wasm_crc, NULL) == UNPACK_ERR_LENGTH, "declared 1 byte long");
  CHECK(unpack_bytes(packed, packed_len, 0, wasm_crc, NULL) == UNPACK_ERR_LENGTH, "declared empty");
  CHECK(unpack_bytes(packed, packed_len - 1, n, wasm_crc, NULL) == UNPACK_ERR_TRUNCATED, "the last byte cut");
  CHECK(unpack_bytes(packed, packed_len / 2, n, wasm_crc, NULL) == UNPACK_ERR_TRUNCATED, "half cut");
  CHECK(unpack_bytes(packed, 4, n, wasm_crc, NULL) == UNPACK_ERR_TRUNCATED, "4 bytes");
  unsigned char *longer = malloc(packed_len + 3);
  memcpy(longer, packed, packed_len);
  for (size_t extra = 1; extra <= 3; extra++) {
    longer[packed_len + extra - 1] = (unsigned char) extra;
    CHECK(unpack_bytes(longer, packed_len + extra, n, wasm_crc, NULL) == UNPACK_ERR_TRAILING, "%zu trailing bytes", extra);
  }
  longer[packed_len] = 0;
  CHECK(unpack_bytes(longer, packed_len + 1, n, wasm_crc, NULL) == UNPACK_ERR_TRAILING, "a trailing 0");
  memcpy(longer, packed, packed_len);
  longer[0] = 1;
  CHECK(unpack_bytes(longer, packed_len, n, wasm_crc, NULL) == UNPACK_ERR_DATA, "first byte not 0");
  free(longer);
  /* base64: a bad character, a bad length, padding in the middle */
  size_t tl;
  char *t = base64(packed, packed_len, &tl);
  t[tl / 2] = '*';
  CHECK(run_unpack(t, tl, n, wasm_crc, NULL) == UNPACK_ERR_BASE64, "a '*' in the text");
  t[tl / 2] = '=';
  CHECK(run_unpack(t, tl, n, wasm_crc, NULL) == UNPACK_ERR_BASE64, "a '=' in the middle");
  free(t);
  t = base64(packed, packed_len, &tl);
  CHECK(run_unpack(t, tl - 1, n, wasm_crc, NULL) == UNPACK_ERR_BASE64, "text length not a multiple of 4");
  free(t);
  CHECK(run_unpack("", 0, 0, 0, NULL) == UNPACK_ERR_TRUNCATED, "empty text");
  /* an arena the text does not fit */
  unsigned char small[8] = "AAAAAAAA";
  unpack_test_arena = small;
  unpack_test_arena_size = 4;
  CHECK(unpack_begin(8, 1, 0) == UNPACK_ERR_MEMORY, "text larger than the arena");
  CHECK(unpack_step() == UNPACK_ERR_MEMORY, "a step after a refused begin");
  unpack_test_arena_size = sizeof small;
  CHECK(unpack_begin(8, 0x7FFFFFF0u, 0) == UNPACK_ERR_MEMORY, "an output past 2^31");
}

/* Random corruptions of the real packed module: each is refused without a memory error. A draw
 * that changes nothing (a byte overwritten by its own value: CI's seed 4768742882682748714, round
 * 181) must give the very module back and is not counted as a corruption. */
static void test_corruptions(int rounds) {
  unsigned char *p = malloc(packed_len + 64);
  int refused = 0, unchanged = 0;
  for (int i = 0; i < rounds; i++) {
    memcpy(p, packed, packed_len);
    size_t n = packed_len;
    uint32_t len = (uint32_t) wasm_len, crc = wasm_crc;
    switch (i % 5) {
    case 0: /* one bit */
      p[next() % n] ^= (unsigned char) (1u << (next() % 8));
      break;
    case 1: /* a few bytes, anywhere */
      for (int k = 1 + (int) (next() % 8); k > 0; k--) p[next() % n] = (unsigned char) next();
      break;
    case 2: /* cut, and maybe a bit flipped before the cut */
      n = 1 + next() % (n - 1);
      if (next() & 1) p[next() % n] ^= 0x80;
      break;
    case 3: /* bytes appended, or the tail overwritten */
      if (next() & 1) {
        const size_t k = 1 + next() % 64;
        for (size_t j = 0; j < k; j++) p[n + j] = (unsigned char) next();
        n += k;
      } else {
        for (size_t j = n - 1 - next() % 16; j < n; j++) p[j] = (unsigned char) next();
      }
      break;
    default: /* a wrong length, or a late bit with a wrong CRC */
      if (next() & 1) len = (uint32_t) (next() % (2 * wasm_len));
      else {
        p[n - 1 - next() % 64] ^= 1;
        crc = (uint32_t) next();
      }
    }
    /* a byte overwritten by itself, or a CRC drawn equal to the true one, is no corruption:
     * such an input must give the module back, and does not count */
    const int same = n == packed_len && len == wasm_len && crc == wasm_crc && memcmp(p, packed, n) == 0;
    unsigned char *out = NULL;
    const int r = unpack_bytes(p, n, len, crc, &out);
    CHECK(r <= 0 && r >= UNPACK_ERR_STATE, "round %d: code %d", i, r);
    if (r == 0) {
      CHECK(len == wasm_len && memcmp(out, wasm, wasm_len) == 0, "round %d: accepted other bytes", i);
      free(out);
    } else refused++;
    if (same) {
      CHECK(r == 0, "round %d: the unchanged module refused (code %d)", i, r);
      unchanged++;
    }
  }
  free(p);
  printf("unpack: %d of %d corruptions of the real module refused (%d draws left it unchanged)\n", refused,
         rounds - unchanged, unchanged);
  CHECK(refused == rounds - unchanged, "a corruption was accepted");
}

/* Garbage streams (first byte 0, then random), small and quick: the decoder on every kind of
 * symbol sequence, lengths up to 64 KiB (several steps). */
static void test_garbage(int rounds) {
  unsigned char p[2048];
  int ended = 0;
  for (int i = 0; i < rounds; i++) {
    const size_t n = 5 + next() % (sizeof p - 5);
    for (size_t j = 0; j < n; j++) p[j] = (unsigned char) next();
    p[0] = 0;
    const uint32_t len = (uint32_t) (next() % 65536);
    const int r = unpack_bytes(p, n, len, (uint32_t) next(), NULL);
    CHECK(r < 0 && r >= UNPACK_ERR_STATE, "garbage round %d: code %d", i, r);
    if (r == UNPACK_ERR_END || r == UNPACK_ERR_TRAILING || r == UNPACK_ERR_CRC) ended++;
  }
  printf("unpack: %d garbage streams refused (%d reached an end marker)\n", rounds, ended);
}

int main(void) {
  const char *seed = getenv("UNPACK_SEED");
  rng = seed ? strtoull(seed, NULL, 10) : (uint64_t) time(NULL) * 2654435761u;
  if (rng == 0) rng = 1;
  printf("unpack: UNPACK_SEED=%llu\n", (unsigned long long) rng);
  CHECK(unpack_step() == UNPACK_ERR_STATE, "a step before any begin");
  wasm = read_file("lib/natrium.wasm", &wasm_len);
  packed = read_file("lib/natrium.wasm.lzma", &packed_len);
  wasm_crc = crc32_ref(wasm, wasm_len);
  test_round_trip();
  test_refusals();
  const int slow = UNDER_VALGRIND ? 20 : SANITIZED ? 5 : 1;
  test_corruptions(200 / slow);
  test_garbage(20000 / slow);
  test_round_trip(); /* the state of a refused run does not leak into the next */
  printf("unpack: %lu checks passed\n", checks);
  free(wasm);
  free(packed);
  return 0;
}

/* The pure C that the Node-API helpers (src/napi_args.c) and their WebAssembly stand-ins
 * (src/wasm.c) must compute identically, written once: the overlap test, the integer range test,
 * the refusal's function name and the texts of the errors (both backends throw the same bytes;
 * tests compare them). No Node-API, no allocation, no formatted printing (the wasm build has none
 * to spare). src/nat.h includes it, so the family files' overlap macros use it too. */
#ifndef NAT_PURE_H
#define NAT_PURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Every error message keeps at most NAT_MESSAGE_MAX - 1 bytes. */
#define NAT_MESSAGE_MAX 256

/* a and b share a byte (an empty buffer shares none). */
static inline bool nat_overlap(const unsigned char *a, size_t a_len, const unsigned char *b, size_t b_len) {
  if (a_len == 0 || b_len == 0) return false;
  uintptr_t a0 = (uintptr_t) a, b0 = (uintptr_t) b;
  return a0 < b0 + b_len && b0 < a0 + a_len;
}

/* d is an integer within [lo, hi]. 2^64 is the first double past the uint64_t range, and the range
 * test comes before the conversion (wasm traps on an out-of-range one). */
static inline bool nat_u64_in_range(double d, uint64_t lo, uint64_t hi) {
  return d >= (double) lo && d <= (double) hi && d < 18446744073709551616.0 && d == (double) (uint64_t) d;
}

/* The libsodium name of a binding, from its C function's name (nat_<libsodium name>). */
static inline const char *nat_libsodium_name(const char *binding_name) {
  return strncmp(binding_name, "nat_", 4) == 0 ? binding_name + 4 : binding_name;
}

/* out = the parts one after the other, cut at NAT_MESSAGE_MAX - 1 bytes. */
static inline void nat_message(char out[NAT_MESSAGE_MAX], const char *const *parts, size_t count) {
  size_t n = 0;
  for (size_t i = 0; i < count; i++) {
    for (const char *p = parts[i]; *p != '\0' && n < NAT_MESSAGE_MAX - 1; p++) out[n++] = *p;
  }
  out[n] = '\0';
}

/* The decimal digits of x at the end of buf; returns the first digit. */
static inline char *nat_u64_text(char buf[21], uint64_t x) {
  char *p = buf + 20;
  *p = '\0';
  do {
    *--p = (char) ('0' + x % 10);
    x /= 10;
  } while (x != 0);
  return p;
}

/* "must be an integer between <lo> and <hi>" (the RangeError of a number out of range). */
static inline void nat_range_message(char out[NAT_MESSAGE_MAX], uint64_t lo, uint64_t hi) {
  char lo_text[21], hi_text[21];
  const char *parts[] = {"must be an integer between ", nat_u64_text(lo_text, lo), " and ", nat_u64_text(hi_text, hi)};
  nat_message(out, parts, sizeof parts / sizeof parts[0]);
}

#endif

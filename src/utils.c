/* randombytes_*, sodium_* helpers (comparison, big-number arithmetic, padding, hex and base64
 * codecs), crypto_verify_*, and the guarded-memory functions (native only).
 *
 * sodium-native 5.1.0 has most of these: its argument order, return values and throw cases are
 * kept (sodium_memcmp/compare/add/sub demand equal lengths; sodium_is_zero's nlen may be omitted;
 * sodium_pad/unpad take the lengths as numbers). The codecs follow libsodium's C signatures with
 * the lengths implied by the buffers. */
#include "nat.h"

/* randombytes */

static napi_value nat_randombytes_random(napi_env env, napi_callback_info info) {
  return nat_number(env, (double) randombytes_random());
}

static napi_value nat_randombytes_uniform(napi_env env, napi_callback_info info) {
  ARGS(1);
  U32(upper_bound, 0, 0, UINT32_MAX);
  return nat_number(env, (double) randombytes_uniform(upper_bound));
}

static napi_value nat_randombytes_buf(napi_env env, napi_callback_info info) {
  ARGS(1);
  OUT(buf, 0);
  randombytes_buf(buf, buf_len);
  return nat_undefined(env);
}

static napi_value nat_randombytes_buf_deterministic(napi_env env, napi_callback_info info) {
  ARGS(2);
  OUT(buf, 0); BUF(seed, 1);
  LEN_EQ(seed, randombytes_SEEDBYTES);
  randombytes_buf_deterministic(buf, buf_len, seed);
  return nat_undefined(env);
}

/* Comparison and big-number arithmetic (little-endian, as libsodium's nonces and counters).
 * Parameter names are the header's, except a and b for sodium_memcmp/compare (b1_ and b2_ there). */

static napi_value nat_sodium_memcmp(napi_env env, napi_callback_info info) {
  ARGS(2);
  BUF(a, 0); BUF(b, 1);
  LEN_EQ(b, a_len);
  return nat_bool(env, sodium_memcmp(a, b, a_len) == 0);
}

static napi_value nat_sodium_compare(napi_env env, napi_callback_info info) {
  ARGS(2);
  BUF(a, 0); BUF(b, 1);
  LEN_EQ(b, a_len);
  return nat_number(env, sodium_compare(a, b, a_len));
}

static napi_value nat_sodium_increment(napi_env env, napi_callback_info info) {
  ARGS(1);
  OUT(n, 0);
  sodium_increment(n, n_len);
  return nat_undefined(env);
}

/* a may be b (a + a, a - a work byte by byte), as in sodium-native. */
static napi_value nat_sodium_add(napi_env env, napi_callback_info info) {
  ARGS(2);
  OUT(a, 0); BUF(b, 1);
  LEN_EQ(b, a_len);
  sodium_add(a, b, a_len);
  return nat_undefined(env);
}

static napi_value nat_sodium_sub(napi_env env, napi_callback_info info) {
  ARGS(2);
  OUT(a, 0); BUF(b, 1);
  LEN_EQ(b, a_len);
  sodium_sub(a, b, a_len);
  return nat_undefined(env);
}

/* sodium-native lets sodium_is_zero's length be left out (undefined); null means the same here. */
static bool nat_omitted(napi_env env, napi_value value) {
  return nat_is_undefined(env, value) || nat_is_null(env, value);
}

static napi_value nat_sodium_is_zero(napi_env env, napi_callback_info info) {
  ARGS(2);
  BUF(n, 0);
  if (nat_omitted(env, argv[1])) return nat_bool(env, sodium_is_zero(n, n_len) == 1);
  U64(nlen, 1, 0, n_len);
  return nat_bool(env, sodium_is_zero(n, (size_t) nlen) == 1);
}

static napi_value nat_sodium_memzero(napi_env env, napi_callback_info info) {
  ARGS(1);
  OUT(pnt, 0);
  sodium_memzero(pnt, pnt_len);
  return nat_undefined(env);
}

/* crypto_verify_16/32/64: constant-time equality of fixed-size secrets, true when equal */
#define NAT_VERIFY(p)                                                                   \
  static napi_value nat_##p(napi_env env, napi_callback_info info) {                    \
    ARGS(2);                                                                            \
    BUF(x, 0); BUF(y, 1);                                                               \
    LEN_EQ(x, p##_BYTES);                                                               \
    LEN_EQ(y, p##_BYTES);                                                               \
    RETURN_BOOL(p(x, y));                                                               \
  }

NAT_VERIFY(crypto_verify_16)
NAT_VERIFY(crypto_verify_32)
NAT_VERIFY(crypto_verify_64)

/* ISO/IEC 7816-4 padding. The checks are sodium-native's (both lengths within buf, a block of at
 * least one byte, room for the padded length), so libsodium's own refusal cannot happen in pad. */
static napi_value nat_sodium_pad(napi_env env, napi_callback_info info) {
  ARGS(3);
  OUT(buf, 0);
  U64(unpadded_buflen, 1, 0, buf_len);
  U64(blocksize, 2, 1, buf_len);
  LEN_MIN(buf, unpadded_buflen + blocksize - unpadded_buflen % blocksize);
  size_t padded_buflen;
  FAIL_IF(sodium_pad(&padded_buflen, buf, unpadded_buflen, blocksize, buf_len) != 0,
          "sodium_pad failed");
  return nat_number(env, (double) padded_buflen);
}

static napi_value nat_sodium_unpad(napi_env env, napi_callback_info info) {
  ARGS(3);
  BUF(buf, 0);
  U64(padded_buflen, 1, 0, buf_len);
  U64(blocksize, 2, 1, buf_len);
  size_t unpadded_buflen;
  FAIL_IF(sodium_unpad(&unpadded_buflen, buf, padded_buflen, blocksize) != 0,
          "unsupported/invalid padding");
  return nat_number(env, (double) unpadded_buflen);
}

/* Hex and base64 codecs. libsodium's encoders end the text with a NUL that a JS buffer of the
 * exact text length has no room for, so the last few bytes are encoded through a local; its
 * decoders take `ignore` as a C string, rebuilt here from the buffer. */

/* The four sodium_base64_VARIANT_* values are 1, 3, 5 and 7; libsodium aborts on any other. */
#define BASE64_VARIANT(x, i)                                                    \
  U32(x, i, sodium_base64_VARIANT_ORIGINAL, sodium_base64_VARIANT_URLSAFE_NO_PADDING); \
  do {                                                                          \
    if ((x & 1U) == 0) return nat_throw_range(env, #x, "must be a sodium_base64_VARIANT_* constant"); \
  } while (0)

/* The largest bin_len whose encoded length (with its NUL) still fits a 32-bit size_t, so the
 * wasm32 build and 64-bit builds give the same answers. */
#define NAT_BASE64_BIN_LEN_MAX 3221225468U

/* ignore as a NUL-terminated set of its bytes. A NUL byte cannot be part of a C string; libsodium
 * skips NUL input bytes anyway whenever ignore is not NULL (strchr() finds the terminator). */
static const char *nat_ignore_set(char set[256], const unsigned char *ignore, size_t ignore_len) {
  if (ignore == NULL) return NULL;
  bool seen[256] = {false};
  size_t n = 0;
  for (size_t i = 0; i < ignore_len; i++) {
    if (ignore[i] != 0 && !seen[ignore[i]]) {
      seen[ignore[i]] = true;
      set[n++] = (char) ignore[i];
    }
  }
  set[n] = 0;
  return set;
}

static napi_value nat_sodium_bin2hex(napi_env env, napi_callback_info info) {
  ARGS(2);
  OUT(hex, 0); BUF(bin, 1);
  LEN_EQ(hex, bin_len * 2);
  NO_ALIAS(hex, bin);
  if (bin_len == 0) return nat_undefined(env);
  /* all bytes but the last in place: their NUL lands where the last byte's digits go */
  sodium_bin2hex((char *) hex, bin_len * 2 - 1, bin, bin_len - 1);
  char last[3];
  sodium_bin2hex(last, sizeof last, bin + bin_len - 1, 1);
  memcpy(hex + bin_len * 2 - 2, last, 2);
  return nat_undefined(env);
}

/* Decoders need the whole input to be valid (libsodium's *_end pointer is not asked for). */
static napi_value nat_sodium_hex2bin(napi_env env, napi_callback_info info) {
  ARGS(3);
  OUT(bin, 0); BUF(hex, 1); OPT_BUF(ignore, 2);
  NO_ALIAS(bin, hex);
  char set[256];
  size_t decoded;
  if (sodium_hex2bin(bin, bin_len, (const char *) hex, hex_len, nat_ignore_set(set, ignore, ignore_len),
                     &decoded, NULL) != 0) {
    sodium_memzero(bin, bin_len);
    REFUSE("invalid input");
  }
  return nat_number(env, (double) decoded);
}

static napi_value nat_sodium_base64_encoded_len(napi_env env, napi_callback_info info) {
  ARGS(2);
  U64(bin_len, 0, 0, NAT_BASE64_BIN_LEN_MAX);
  BASE64_VARIANT(variant, 1);
  return nat_number(env, (double) sodium_base64_encoded_len((size_t) bin_len, (int) variant));
}

static napi_value nat_sodium_bin2base64(napi_env env, napi_callback_info info) {
  ARGS(3);
  OUT(b64, 0); BUF(bin, 1);
  BASE64_VARIANT(variant, 2);
  LEN_EQ(b64, sodium_base64_encoded_len(bin_len, variant) - 1);
  NO_ALIAS(b64, bin);
  /* Whole 3-byte groups but the last in place (their NUL lands where the last group's text
   * goes), then the last 1 to 3 bytes. */
  size_t head = bin_len == 0 ? 0 : (bin_len - 1) / 3 * 3;
  size_t head_chars = head / 3 * 4;
  if (head > 0) sodium_bin2base64((char *) b64, head_chars + 1, bin, head, (int) variant);
  char tail[5];
  sodium_bin2base64(tail, sizeof tail, bin + head, bin_len - head, (int) variant);
  memcpy(b64 + head_chars, tail, b64_len - head_chars);
  return nat_undefined(env);
}

static napi_value nat_sodium_base642bin(napi_env env, napi_callback_info info) {
  ARGS(4);
  OUT(bin, 0); BUF(b64, 1); OPT_BUF(ignore, 2);
  BASE64_VARIANT(variant, 3);
  NO_ALIAS(bin, b64);
  char set[256];
  size_t decoded;
  if (sodium_base642bin(bin, bin_len, (const char *) b64, b64_len, nat_ignore_set(set, ignore, ignore_len),
                        &decoded, NULL, (int) variant) != 0) {
    sodium_memzero(bin, bin_len);
    REFUSE("invalid input");
  }
  return nat_number(env, (double) decoded);
}

#ifndef NAT_WASM
/* Guarded memory (native only: wasm linear memory has no pages to protect).
 *
 * sodium_malloc returns a Buffer over libsodium's allocation (guard pages, canary, mlock'd, filled
 * with 0xdb). Its ArrayBuffer carries a type tag, so the functions below act only on memory that
 * really came from sodium_malloc: libsodium would read the region's header page in front of any
 * other pointer. sodium_free detaches the ArrayBuffer (no view can reach the memory again); Node
 * then releases its backing store and the finalizer gives the pages back to libsodium.
 *
 * V8 counts the region's bytes (they back an ArrayBuffer) but not libsodium's guard and canary
 * pages around it: those (NAT_SECURE_PAGES pages of 4 KiB per region, mlock'd) are reported with
 * napi_adjust_external_memory, so that many small unreferenced regions are collected too. As with
 * every Node-API finalizer, the pages go back only after the running JavaScript yields (Node
 * defers finalizers to the event loop): a synchronous loop of sodium_malloc holds all of them. */
static const napi_type_tag nat_secure_tag = {0x6e6174726975d5a1ULL, 0x736f6469756d0b7cULL};

#define NAT_SECURE_PAGES 4

static int64_t nat_secure_footprint(void) { return NAT_SECURE_PAGES * 4096; }

static void nat_secure_finalize(napi_env env, void *data, void *hint) {
  int64_t total;
  sodium_free(data);
  /* a finalizer cannot throw: a failed adjustment only leaves V8's estimate high */
  (void) napi_adjust_external_memory(env, -(int64_t) (intptr_t) hint, &total);
}

/* The ArrayBuffer under a TypedArray argument when it came from sodium_malloc, else NULL. */
static napi_value nat_secure_arraybuffer(napi_env env, napi_value view) {
  napi_value arraybuffer;
  bool tagged = false;
  if (napi_get_typedarray_info(env, view, NULL, NULL, NULL, &arraybuffer, NULL) != napi_ok ||
      napi_check_object_type_tag(env, arraybuffer, &nat_secure_tag, &tagged) != napi_ok || !tagged) {
    return NULL;
  }
  return arraybuffer;
}

static napi_value nat_sodium_malloc(napi_env env, napi_callback_info info) {
  ARGS(1);
  U32(size, 0, 0, UINT32_MAX);
  void *ptr = sodium_malloc(size);
  if (ptr == NULL) return nat_throw_failed(env, __func__);
  napi_value buf, arraybuffer;
  int64_t footprint = nat_secure_footprint(), total;
  /* Fails where external buffers are not allowed (Node with the V8 sandbox). */
  if (napi_create_external_buffer(env, size, ptr, nat_secure_finalize, (void *) (intptr_t) footprint,
                                  &buf) != napi_ok) {
    napi_value error = nat_throw_napi(env);
    sodium_free(ptr);
    return error;
  }
  /* From here the finalizer owns ptr, and gives back what is reported here. */
  if (napi_adjust_external_memory(env, footprint, &total) != napi_ok) return nat_throw_napi(env);
  if (napi_get_typedarray_info(env, buf, NULL, NULL, NULL, &arraybuffer, NULL) != napi_ok ||
      napi_type_tag_object(env, arraybuffer, &nat_secure_tag) != napi_ok) {
    return nat_throw_napi(env);
  }
  return buf;
}

/* Memory that did not come from sodium_malloc is left alone, as sodium-native does. */
static napi_value nat_sodium_free(napi_env env, napi_callback_info info) {
  ARGS(1);
  BUF(ptr, 0);
  napi_value arraybuffer = nat_secure_arraybuffer(env, argv[0]);
  if (arraybuffer != NULL && napi_detach_arraybuffer(env, arraybuffer) != napi_ok) {
    return nat_throw_napi(env);
  }
  return nat_undefined(env);
}

/* The region's start, not the view's: sodium-native passes buf.buffer too. An empty region
 * (sodium_malloc(0)) has no address on the JS side, and nothing to protect. */
#define NAT_MPROTECT(mprotect, fail)                                                    \
  static napi_value nat_##mprotect(napi_env env, napi_callback_info info) {             \
    ARGS(1);                                                                            \
    BUF(ptr, 0);                                                                        \
    napi_value arraybuffer = nat_secure_arraybuffer(env, argv[0]);                      \
    void *region = NULL;                                                                \
    FAIL_IF(arraybuffer == NULL ||                                                      \
              napi_get_arraybuffer_info(env, arraybuffer, &region, NULL) != napi_ok,    \
            fail);                                                                      \
    FAIL_IF(region != NULL && mprotect(region) != 0, fail);                             \
    return nat_undefined(env);                                                          \
  }

NAT_MPROTECT(sodium_mprotect_noaccess, "failed to lock buffer")
NAT_MPROTECT(sodium_mprotect_readonly, "failed to unlock buffer")
NAT_MPROTECT(sodium_mprotect_readwrite, "failed to unlock buffer")

static napi_value nat_sodium_mlock(napi_env env, napi_callback_info info) {
  ARGS(1);
  BUF(addr, 0);
  FAIL_IF(sodium_mlock(addr, addr_len) != 0, "memory lock failed");
  return nat_undefined(env);
}

/* libsodium wipes the memory before unlocking it. */
static napi_value nat_sodium_munlock(napi_env env, napi_callback_info info) {
  ARGS(1);
  OUT(addr, 0);
  FAIL_IF(sodium_munlock(addr, addr_len) != 0, "memory unlock failed");
  return nat_undefined(env);
}

#define NAT_UTILS_MEMORY                                                                 \
  FN(sodium_malloc), FN(sodium_free), FN(sodium_mprotect_noaccess),                      \
    FN(sodium_mprotect_readonly), FN(sodium_mprotect_readwrite), FN(sodium_mlock),       \
    FN(sodium_munlock),
#else
#define NAT_UTILS_MEMORY
#endif

NAT_FAMILY(utils,
  NAT_UTILS_MEMORY
  /* randombytes */
  FN(randombytes_random),
  FN(randombytes_uniform),
  FN(randombytes_buf),
  FN(randombytes_buf_deterministic),
  /* sodium helpers */
  FN(sodium_memcmp),
  FN(sodium_compare),
  FN(sodium_increment),
  FN(sodium_add),
  FN(sodium_sub),
  FN(sodium_is_zero),
  FN(sodium_memzero),
  FN(sodium_pad),
  FN(sodium_unpad),
  /* crypto_verify */
  FN(crypto_verify_16),
  FN(crypto_verify_32),
  FN(crypto_verify_64),
  /* codecs */
  FN(sodium_bin2hex),
  FN(sodium_hex2bin),
  FN(sodium_base64_encoded_len),
  FN(sodium_bin2base64),
  FN(sodium_base642bin));

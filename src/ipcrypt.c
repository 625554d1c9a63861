/* crypto_ipcrypt_*: IP address encryption (deterministic, nd, ndx, pfx), and libsodium's
 * sodium_ip2bin/sodium_bin2ip, which turn addresses into the 16-byte form these functions take.
 *
 * sodium-native has none of these: libsodium's C signatures, outputs first, lengths implied. */
#include "nat.h"

/* The macros take the full names of the functions they define, and constant names without their
 * crypto_ipcrypt_ prefix, which they paste back so that the length checks spell the names in their
 * messages (a constant passed whole would be expanded). */
#define NAT_IPCRYPT_KEYGEN(fn, KEYBYTES)                                                 \
  static napi_value nat_##fn(napi_env env, napi_callback_info info) {                    \
    ARGS(1);                                                                             \
    OUT(k, 0);                                                                           \
    LEN_EQ(k, crypto_ipcrypt_##KEYBYTES);                                                \
    fn(k);                                                                               \
    return nat_undefined(env);                                                           \
  }

NAT_IPCRYPT_KEYGEN(crypto_ipcrypt_keygen, KEYBYTES)
NAT_IPCRYPT_KEYGEN(crypto_ipcrypt_nd_keygen, ND_KEYBYTES)
NAT_IPCRYPT_KEYGEN(crypto_ipcrypt_ndx_keygen, NDX_KEYBYTES)
NAT_IPCRYPT_KEYGEN(crypto_ipcrypt_pfx_keygen, PFX_KEYBYTES)

/* Length-preserving constructions (one AES block, or pfx's prefix-preserving bit walk): libsodium
 * reads the whole input before it writes, so out may be in (in-place), but not partly over it. */
#define NAT_IPCRYPT_BLOCK(fn, BYTES, KEYBYTES)                                           \
  static napi_value nat_##fn(napi_env env, napi_callback_info info) {                    \
    ARGS(3);                                                                             \
    OUT(out, 0); BUF(in, 1); BUF(k, 2);                                                  \
    LEN_EQ(out, crypto_ipcrypt_##BYTES);                                                 \
    LEN_EQ(in, crypto_ipcrypt_##BYTES);                                                  \
    LEN_EQ(k, crypto_ipcrypt_##KEYBYTES);                                                \
    NO_OVERLAP(out, in);                                                                 \
    fn(out, in, k);                                                                      \
    return nat_undefined(env);                                                           \
  }

NAT_IPCRYPT_BLOCK(crypto_ipcrypt_encrypt, BYTES, KEYBYTES)
NAT_IPCRYPT_BLOCK(crypto_ipcrypt_decrypt, BYTES, KEYBYTES)
NAT_IPCRYPT_BLOCK(crypto_ipcrypt_pfx_encrypt, PFX_BYTES, PFX_KEYBYTES)
NAT_IPCRYPT_BLOCK(crypto_ipcrypt_pfx_decrypt, PFX_BYTES, PFX_KEYBYTES)

/* Tweaked constructions: the output is the tweak followed by the encrypted block, and libsodium
 * writes the tweak first, so out must not share a byte with in or t. */
#define NAT_IPCRYPT_TWEAKED(encrypt, decrypt, PREFIX)                                              \
  static napi_value nat_##encrypt(napi_env env, napi_callback_info info) {                         \
    ARGS(4);                                                                                       \
    OUT(out, 0); BUF(in, 1); BUF(t, 2); BUF(k, 3);                                                 \
    LEN_EQ(out, crypto_ipcrypt_##PREFIX##_OUTPUTBYTES);                                            \
    LEN_EQ(in, crypto_ipcrypt_##PREFIX##_INPUTBYTES);                                              \
    LEN_EQ(t, crypto_ipcrypt_##PREFIX##_TWEAKBYTES);                                               \
    LEN_EQ(k, crypto_ipcrypt_##PREFIX##_KEYBYTES);                                                 \
    NO_ALIAS(out, in);                                                                             \
    NO_ALIAS(out, t);                                                                              \
    encrypt(out, in, t, k);                                                                        \
    return nat_undefined(env);                                                                     \
  }                                                                                                \
                                                                                                   \
  static napi_value nat_##decrypt(napi_env env, napi_callback_info info) {                         \
    ARGS(3);                                                                                       \
    OUT(out, 0); BUF(in, 1); BUF(k, 2);                                                            \
    LEN_EQ(out, crypto_ipcrypt_##PREFIX##_INPUTBYTES);                                             \
    LEN_EQ(in, crypto_ipcrypt_##PREFIX##_OUTPUTBYTES);                                             \
    LEN_EQ(k, crypto_ipcrypt_##PREFIX##_KEYBYTES);                                                 \
    NO_ALIAS(out, in);                                                                             \
    decrypt(out, in, k);                                                                           \
    return nat_undefined(env);                                                                     \
  }

NAT_IPCRYPT_TWEAKED(crypto_ipcrypt_nd_encrypt, crypto_ipcrypt_nd_decrypt, ND)
NAT_IPCRYPT_TWEAKED(crypto_ipcrypt_ndx_encrypt, crypto_ipcrypt_ndx_decrypt, NDX)

/* Text to the 16-byte form (IPv4 as an IPv4-mapped IPv6 address). libsodium stops at the first
 * NUL in ip, as it would for a C string. On failure bin is zeroed (the IPv6 parser may have
 * written part of it). */
static napi_value nat_sodium_ip2bin(napi_env env, napi_callback_info info) {
  ARGS(2);
  OUT(bin, 0); BUF(ip, 1);
  LEN_EQ(bin, crypto_ipcrypt_BYTES);
  NO_ALIAS(bin, ip);
  if (sodium_ip2bin(bin, (const char *) ip, ip_len) != 0) {
    sodium_memzero(bin, bin_len);
    REFUSE("invalid IP address");
  }
  return nat_undefined(env);
}

/* The 16-byte form to text; returns the text's length. libsodium's longest text is a full IPv6
 * address, 8 groups of 4 hex digits and 7 colons: 39 bytes, which ip must have room for. The text
 * goes through a local because libsodium also writes a NUL (and refuses a text that would not fit
 * with it, so the copy below stays within 39 bytes). */
static napi_value nat_sodium_bin2ip(napi_env env, napi_callback_info info) {
  ARGS(2);
  OUT(ip, 0); BUF(bin, 1);
  LEN_MIN(ip, 39);
  LEN_EQ(bin, crypto_ipcrypt_BYTES);
  char text[39 + 1];
  FAIL_IF(sodium_bin2ip(text, sizeof text, bin) == NULL, "sodium_bin2ip failed");
  size_t text_len = strlen(text);
  memcpy(ip, text, text_len);
  return nat_number(env, (double) text_len);
}

NAT_FAMILY(ipcrypt,
  FN(crypto_ipcrypt_keygen),
  FN(crypto_ipcrypt_encrypt),
  FN(crypto_ipcrypt_decrypt),
  FN(crypto_ipcrypt_nd_keygen),
  FN(crypto_ipcrypt_nd_encrypt),
  FN(crypto_ipcrypt_nd_decrypt),
  FN(crypto_ipcrypt_ndx_keygen),
  FN(crypto_ipcrypt_ndx_encrypt),
  FN(crypto_ipcrypt_ndx_decrypt),
  FN(crypto_ipcrypt_pfx_keygen),
  FN(crypto_ipcrypt_pfx_encrypt),
  FN(crypto_ipcrypt_pfx_decrypt),
  /* IP address text <-> 16 bytes */
  FN(sodium_ip2bin),
  FN(sodium_bin2ip));

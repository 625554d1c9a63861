/* Differential test of src/crypto/xchacha20poly1305.c against libsodium, in C, so it can run under
 * ASan/UBSan and valgrind (test/c/run.sh builds it both ways, with the SIMD/128-bit code and with
 * -DNAT_XCHACHA20POLY1305_PORTABLE, the 26-bit Poly1305 wasm32 runs) and for wasm32 itself
 * (WASM32_SODIUM=...: the SIMD128 kernels and the long-message path). The source is included, not
 * linked, to reach its static parts: each keystream kernel and the Poly1305 on chosen keys. Exits
 * non-zero on the first difference. */
#include <stdio.h>
#include <stdlib.h>

#include "../../src/crypto/xchacha20poly1305.c"

#define SMALL NAT_XCHACHA20POLY1305_SMALL_MAX
#define ABYTES crypto_aead_xchacha20poly1305_ietf_ABYTES

static unsigned long checks;

#define CHECK(cond, ...)                                                   \
  do {                                                                     \
    checks++;                                                              \
    if (!(cond)) {                                                         \
      fprintf(stderr, "%s:%d: %s: ", __FILE__, __LINE__, #cond);           \
      fprintf(stderr, __VA_ARGS__);                                        \
      fputc('\n', stderr);                                                 \
      exit(1);                                                             \
    }                                                                      \
  } while (0)

static int all_zero(const unsigned char *p, size_t n) {
  unsigned char acc = 0;
  for (size_t i = 0; i < n; i++) acc |= p[i];
  return acc == 0;
}

/* Bytes skewed towards 0x00 and 0xff, where carries in Poly1305 and in the counters live. */
static void fill(unsigned char *p, size_t n, int skewed) {
  randombytes_buf(p, n);
  if (!skewed) return;
  for (size_t i = 0; i < n; i++) {
    const unsigned char pick = p[i] & 3;
    p[i] = pick == 0 ? 0x00 : pick == 1 ? 0xff : (unsigned char) randombytes_uniform(256);
  }
}

/* This build's keystream kernel vs libsodium's XChaCha20 stream (the same blocks while the 32-bit
 * counter does not wrap), for every block count up to the largest short message's. */
static void test_keystream(void) {
  unsigned char k[32], npub[24], ours[64 * NAT_XCHACHA_MAX_BLOCKS + 64],
    ref[64 * NAT_XCHACHA_MAX_BLOCKS];
  if (!fused(0)) return; /* x86-64 without AVX2: the kernel is never called */
  for (int trial = 0; trial < 200; trial++) {
    for (size_t n = 1; n <= NAT_XCHACHA_MAX_BLOCKS; n++) {
      fill(k, sizeof k, trial & 1);
      fill(npub, sizeof npub, trial & 1);
      crypto_stream_xchacha20(ref, 64 * n, npub, k);
      memset(ours, 0xa5, sizeof ours);
      xchacha20_keystream(ours, n, npub, k);
      CHECK(memcmp(ours, ref, 64 * n) == 0, "keystream, %zu blocks", n);
      CHECK(ours[64 * n] == 0xa5, "keystream wrote past %zu blocks", n);
    }
  }
}

#if defined(NAT_XCHACHA_SIMD128)
/* The four-block kernel (wasm32) vs libsodium's XChaCha20 stream: blocks 0..15 in four calls,
 * the first three through chacha20_x4_keystream, the last XORed onto a message. */
static void test_keystream_x4(void) {
  unsigned char k[32], npub[24], msg[256], ours[1024], ref[1024];
  for (int trial = 0; trial < 2000; trial++) {
    v128_t s[16];
    fill(k, sizeof k, trial & 1);
    fill(npub, sizeof npub, trial & 1);
    fill(msg, sizeof msg, 0);
    crypto_stream_xchacha20(ref, sizeof ref, npub, k);
    chacha20_x4_init(s, npub, k);
    for (int i = 0; i < 3; i++) chacha20_x4_keystream(ours + 256 * i, s);
    chacha20_x4_xor(ours + 768, msg, s);
    for (int i = 0; i < 256; i++) ours[768 + i] ^= msg[i];
    CHECK(memcmp(ours, ref, sizeof ref) == 0, "four-block keystream, trial %d", trial);
  }
}
#endif

/* Our Poly1305 over nblocks whole blocks. With pre >= 0 (wasm32 only), the four-lane code takes
 * the largest multiple of 4 blocks after the first pre, the scalar code the rest. */
static void our_poly1305(unsigned char tag[16], const unsigned char key[32],
                         const unsigned char *msg, size_t nblocks, int pre) {
  poly1305 st;
  poly1305_init(&st, key);
#if defined(NAT_XCHACHA_SIMD128)
  if (pre >= 0 && nblocks >= (size_t) pre + 4) {
    const size_t quads = (nblocks - (size_t) pre) / 4;
    poly1305_x4 px;
    poly1305_blocks(&st, msg, (size_t) pre);
    poly1305_x4_begin(&px, &st, msg + 16 * pre);
    poly1305_x4_blocks(&px, msg + 16 * pre + 64, 4 * (quads - 1));
    poly1305_x4_end(&px, &st);
    poly1305_blocks(&st, msg + 16 * (pre + 4 * quads), nblocks - (size_t) pre - 4 * quads);
    poly1305_finish(&st, tag);
    return;
  }
#endif
  (void) pre;
  poly1305_blocks(&st, msg, nblocks);
  poly1305_finish(&st, tag);
}

/* The variants of our Poly1305 this build has: -1 scalar; on wasm32 also 0..5 (four-lane). */
#if defined(NAT_XCHACHA_SIMD128)
#define POLY_VARIANTS 7
#else
#define POLY_VARIANTS 1
#endif

/* Our Poly1305 vs libsodium's on whole blocks (where both set the 2^128 bit on every block), with
 * keys and messages full of 0xff to reach the carries and the final subtraction of p. */
static void test_poly1305(void) {
  unsigned char key[32], msg[16 * 40], ours[16], ref[16];
  for (int trial = 0; trial < 20000; trial++) {
    const size_t nblocks = (size_t) randombytes_uniform(41);
    fill(key, sizeof key, trial & 1);
    fill(msg, sizeof msg, trial & 1);
    if (trial % 7 == 0) memset(msg, 0xff, sizeof msg);
    if (trial % 11 == 0) memset(key, 0xff, sizeof key);
    crypto_onetimeauth_poly1305(ref, msg, 16 * nblocks, key);
    for (int pre = -1; pre < POLY_VARIANTS - 1; pre++) {
      our_poly1305(ours, key, msg, nblocks, pre);
      CHECK(memcmp(ours, ref, 16) == 0, "poly1305, %zu blocks, pre %d, trial %d", nblocks, pre,
            trial);
    }
  }
}

/* Random inputs almost never reach the rare carries (h1 overflowing into h2, h at or above p
 * before the final subtraction). With r = 1, h is the plain sum of the blocks plus 2^128 each
 * (folded mod 2^130 - 5): n blocks adding up to 2^128 - 1 - t, or all 0xff, put h right at
 * 2^130 - 1 - t, p and 2^130 + 2^128 - 1 - t, where every carry and the subtraction happen. */
static void test_poly1305_carries(void) {
  unsigned char key[32] = {1}, msg[16 * 12], ours[16], ref[16];
  for (size_t n = 1; n <= 12; n++) {
    for (unsigned t = 0; t < 12; t++) {
      for (size_t split = 0; split <= n; split++) {
        if (split == n) {
          memset(msg, 0xff, sizeof msg);
        } else {
          memset(msg, 0, sizeof msg);
          memset(msg + 16 * split, 0xff, 16);
        }
        msg[16 * (split % n)] = (unsigned char) (0xff - t);
        fill(key + 16, 16, (int) t & 1); /* s: the final addition's carries */
        crypto_onetimeauth_poly1305(ref, msg, 16 * n, key);
        for (int pre = -1; pre < POLY_VARIANTS - 1; pre++) {
          our_poly1305(ours, key, msg, n, pre);
          CHECK(memcmp(ours, ref, 16) == 0, "poly1305 carries, %zu blocks, t %u, split %zu, pre %d",
                n, t, split, pre);
        }
      }
    }
  }
}

/* poly1305_finish from states the block loop can leave but inputs rarely reach (limbs at their
 * bounds, h at or past 2^130), against a plain reduction: tag = ((h mod p) + s) mod 2^128. h is
 * set through the state's own fields, so this reaches the carries of the final reduction that
 * no chosen message reliably does. The reference uses the harness's 128-bit integers. */
typedef unsigned __int128 ref_u128;

static void ref_tag(unsigned char tag[16], ref_u128 lo, unsigned hi, const unsigned char s[16]) {
  /* h = hi 2^128 + lo < 2^132: fold what lies above 2^130 (x 5), then subtract p if needed */
  const ref_u128 p_lo = ~(ref_u128) 0 - 4; /* p = 3 2^128 + (2^128 - 5) */
  const ref_u128 add = (ref_u128) (hi >> 2) * 5;
  hi &= 3;
  if (lo + add < lo) hi++;
  lo += add;
  if (hi > 3 || (hi == 3 && lo >= p_lo)) lo -= p_lo; /* h - p < 2^128: only lo matters */
  ref_u128 sv = 0;
  for (int i = 15; i >= 0; i--) sv = sv << 8 | s[i];
  lo += sv;
  for (int i = 0; i < 16; i++) tag[i] = (unsigned char) (lo >> (8 * i));
}

/* A limb value of `bits` bits, often at its extremes: 0, all ones, all ones but a little. */
static uint64_t extreme_limb(unsigned bits) {
  const uint64_t ones = bits == 64 ? ~(uint64_t) 0 : ((uint64_t) 1 << bits) - 1;
  uint64_t r;
  randombytes_buf(&r, sizeof r);
  switch (randombytes_uniform(4)) {
    case 0: return 0;
    case 1: return ones;
    case 2: return ones - randombytes_uniform(8);
    default: return r & ones;
  }
}

static void test_poly1305_finish_states(void) {
  unsigned char key[32] = {0}, ours[16], ref[16];
  for (int trial = 0; trial < 200000; trial++) {
    poly1305 st;
    ref_u128 lo;
    unsigned hi;
    fill(key + 16, 16, trial & 1);
    poly1305_init(&st, key);
#ifdef NAT_POLY1305_64
    /* the loop leaves h2 <= 4 */
    st.h0 = extreme_limb(64);
    st.h1 = extreme_limb(64);
    st.h2 = randombytes_uniform(5);
    lo = (ref_u128) st.h1 << 64 | st.h0;
    hi = (unsigned) st.h2;
#else
    /* the loop leaves every limb below 2^26 but h1, which may carry a few bits more */
    for (int i = 0; i < 5; i++) st.h[i] = (uint32_t) extreme_limb(26);
    if (trial & 2) st.h[1] += 1 + (uint32_t) randombytes_uniform(64);
    ref_u128 v = 0;
    hi = 0;
    for (int i = 4; i >= 0; i--) {
      /* v = v 2^26 + h[i], tracking the bits above 2^128 in hi */
      hi = (unsigned) (hi << 26 | (unsigned) (v >> 102));
      v = v << 26;
      if (v + st.h[i] < v) hi++;
      v += st.h[i];
    }
    lo = v;
#endif
    poly1305_finish(&st, ours);
    ref_tag(ref, lo, hi, key + 16);
    CHECK(memcmp(ours, ref, 16) == 0, "poly1305_finish from a chosen state, trial %d", trial);
  }
}

/* Our AEAD vs libsodium's for one (mlen, adlen): combined and detached, both directions, in place,
 * NULL ad, and a tampered byte. */
#define MAXLEN ((1U << 20) + 256)
static unsigned char m[MAXLEN], c1[MAXLEN + ABYTES], c2[MAXLEN + ABYTES], out[MAXLEN + ABYTES];

static void test_aead_once(size_t mlen, size_t adlen, int skewed) {
  unsigned char k[32], npub[24], ad[64], mac1[ABYTES], mac2[ABYTES];
  unsigned long long len1 = 1234, len2 = 5678;

  fill(k, sizeof k, skewed);
  fill(npub, sizeof npub, skewed);
  fill(m, mlen, skewed);
  fill(ad, adlen, skewed);
  const unsigned char *adp = adlen == 0 && skewed ? NULL : ad;

  /* combined */
  CHECK(crypto_aead_xchacha20poly1305_ietf_encrypt(c1, &len1, m, mlen, adp, adlen, NULL, npub,
                                                   k) == 0, "ref encrypt");
  CHECK(nat_xchacha20poly1305_ietf_encrypt(c2, &len2, m, mlen, adp, adlen, NULL, npub, k) == 0,
        "encrypt");
  CHECK(len1 == len2 && memcmp(c1, c2, mlen + ABYTES) == 0, "encrypt mlen %zu adlen %zu", mlen,
        adlen);
  CHECK(nat_xchacha20poly1305_ietf_encrypt(c2, NULL, m, mlen, adp, adlen, NULL, npub, k) == 0,
        "encrypt, NULL clen_p");
  memset(out, 0xa5, mlen + 1);
  CHECK(nat_xchacha20poly1305_ietf_decrypt(out, &len2, NULL, c1, mlen + ABYTES, adp, adlen, npub,
                                           k) == 0, "decrypt mlen %zu adlen %zu", mlen, adlen);
  CHECK(len2 == mlen && memcmp(out, m, mlen) == 0 && out[mlen] == 0xa5, "decrypt output");

  /* detached */
  CHECK(crypto_aead_xchacha20poly1305_ietf_encrypt_detached(c1, mac1, &len1, m, mlen, adp, adlen,
                                                            NULL, npub, k) == 0, "ref detached");
  CHECK(nat_xchacha20poly1305_ietf_encrypt_detached(c2, mac2, &len2, m, mlen, adp, adlen, NULL,
                                                    npub, k) == 0, "detached");
  CHECK(len1 == len2 && memcmp(c1, c2, mlen) == 0 && memcmp(mac1, mac2, ABYTES) == 0,
        "encrypt_detached mlen %zu adlen %zu", mlen, adlen);
  memset(out, 0xa5, mlen + 1);
  CHECK(nat_xchacha20poly1305_ietf_decrypt_detached(out, NULL, c1, mlen, mac1, adp, adlen, npub,
                                                    k) == 0, "decrypt_detached");
  CHECK(memcmp(out, m, mlen) == 0 && out[mlen] == 0xa5, "decrypt_detached output");

  /* in place (c == m): encrypt, then decrypt back */
  memcpy(out, m, mlen);
  CHECK(nat_xchacha20poly1305_ietf_encrypt(out, &len2, out, mlen, adp, adlen, NULL, npub, k) == 0,
        "in-place encrypt");
  crypto_aead_xchacha20poly1305_ietf_encrypt(c1, &len1, m, mlen, adp, adlen, NULL, npub, k);
  CHECK(memcmp(out, c1, mlen + ABYTES) == 0, "in-place encrypt mlen %zu", mlen);
  CHECK(nat_xchacha20poly1305_ietf_decrypt(out, &len2, NULL, out, mlen + ABYTES, adp, adlen, npub,
                                           k) == 0 && memcmp(out, m, mlen) == 0,
        "in-place decrypt mlen %zu", mlen);

  /* a tampered ciphertext, tag or ad byte: both refuse, m is zeroed, the length is 0 */
  const size_t total = mlen + ABYTES + adlen;
  const size_t pos = (size_t) randombytes_uniform((uint32_t) total);
  unsigned char *target = pos < mlen + ABYTES ? c1 + pos : ad + (pos - mlen - ABYTES);
  *target ^= (unsigned char) (1U << randombytes_uniform(8));
  memset(out, 0xa5, mlen + 1);
  len2 = 99;
  CHECK(nat_xchacha20poly1305_ietf_decrypt(out, &len2, NULL, c1, mlen + ABYTES, ad, adlen, npub,
                                           k) == -1, "tampered decrypt at %zu", pos);
  CHECK(crypto_aead_xchacha20poly1305_ietf_decrypt(out + 1, NULL, NULL, c1, mlen + ABYTES, ad,
                                                   adlen, npub, k) == -1, "ref agrees");
  CHECK(len2 == 0 && all_zero(out, mlen), "tampered decrypt leaves zeros, mlen %zu", mlen);
  memset(out, 0xa5, mlen + 1);
  CHECK(nat_xchacha20poly1305_ietf_decrypt_detached(out, NULL, c1, mlen, c1 + mlen, ad, adlen,
                                                    npub, k) == -1 && all_zero(out, mlen),
        "tampered decrypt_detached at %zu", pos);
}

/* Every byte position, for a few lengths: each single-bit flip must be refused. */
static void test_tamper_everywhere(size_t mlen, size_t adlen) {
  unsigned char k[32], npub[24], ad[128], *c = c1;
  fill(k, sizeof k, 0);
  fill(npub, sizeof npub, 0);
  fill(m, mlen, 0);
  fill(ad, adlen, 0);
  nat_xchacha20poly1305_ietf_encrypt(c, NULL, m, mlen, ad, adlen, NULL, npub, k);
  for (size_t pos = 0; pos < mlen + ABYTES + adlen + 24 + 32; pos++) {
    unsigned char *p = pos < mlen + ABYTES            ? c + pos
                       : pos < mlen + ABYTES + adlen  ? ad + (pos - mlen - ABYTES)
                       : pos < mlen + ABYTES + adlen + 24 ? npub + (pos - mlen - ABYTES - adlen)
                                                          : k + (pos - mlen - ABYTES - adlen - 24);
    const unsigned char bit = (unsigned char) (1U << (pos % 8));
    *p ^= bit;
    memset(out, 0xa5, mlen + 1);
    CHECK(nat_xchacha20poly1305_ietf_decrypt(out, NULL, NULL, c, mlen + ABYTES, ad, adlen, npub,
                                             k) == -1 && all_zero(out, mlen),
          "flip at %zu (mlen %zu adlen %zu)", pos, mlen, adlen);
    *p ^= bit;
  }
  /* a shorter or longer ciphertext is refused too (wrong length in the tag) */
  if (mlen > 0) {
    CHECK(nat_xchacha20poly1305_ietf_decrypt(out, NULL, NULL, c, mlen + ABYTES - 1, ad, adlen, npub,
                                             k) == -1, "truncated");
  }
  CHECK(nat_xchacha20poly1305_ietf_decrypt(out, NULL, NULL, c, mlen + ABYTES, ad, adlen, npub, k) ==
          0 && memcmp(out, m, mlen) == 0, "untampered after the flips");
}

int main(void) {
  if (sodium_init() < 0) return 1;
  printf("build: %s ChaCha20 (%s), %s Poly1305\n",
#if defined(NAT_XCHACHA_AVX2)
         "AVX2", fused(0) ? "tested" : "no AVX2 here: libsodium's code runs",
#elif defined(NAT_XCHACHA_SIMD128)
         "SIMD128", "tested, and the four-block path for long messages",
#else
         "portable", "tested",
#endif
#ifdef NAT_POLY1305_64
         "64-bit"
#elif defined(NAT_XCHACHA_SIMD128)
         "26-bit limb and four-lane"
#else
         "26-bit limb"
#endif
  );
  test_keystream();
#if defined(NAT_XCHACHA_SIMD128)
  test_keystream_x4();
#endif
  test_poly1305();
  test_poly1305_carries();
  test_poly1305_finish_states();
  for (int skewed = 0; skewed < 2; skewed++) {
    for (size_t mlen = 0; mlen <= SMALL + 64; mlen++) {
      for (size_t adlen = 0; adlen <= 40; adlen++) test_aead_once(mlen, adlen, skewed);
    }
  }
  /* past the cutoff: natively libsodium's own code, reached through ours; on wasm32 our streaming
   * path, whose boundaries are 192 + multiples of 256 bytes (chacha20_x4) and multiples of 64
   * (four Poly1305 blocks) */
  for (size_t mlen = SMALL + 65; mlen <= SMALL + 1100; mlen++) {
    test_aead_once(mlen, mlen % 41, (int) mlen & 1);
  }
  for (size_t base = 1024; base + 128 < MAXLEN; base += base / 2 + 64) {
    for (size_t mlen = (base & ~(size_t) 63) - 65; mlen <= (base & ~(size_t) 63) + 65; mlen++) {
      if (mlen % 64 <= 1 || mlen % 64 == 63) test_aead_once(mlen, 17, 0);
    }
  }
  test_aead_once(1U << 20, 0, 0);
  test_aead_once((1U << 20) + 191, 33, 1);
  const size_t tamper_lengths[] = {0,         1,         15,        16,        17,
                                   63,        64,        65,        127,       128,
                                   129,       SMALL - 1, SMALL,     SMALL + 1, SMALL + 64,
                                   1000,      2048 + 192};
  for (size_t i = 0; i < sizeof tamper_lengths / sizeof tamper_lengths[0]; i++) {
    test_tamper_everywhere(tamper_lengths[i], i % 3 == 0 ? 0 : 7 * i);
  }
  printf("ok: %lu checks\n", checks);
  return 0;
}

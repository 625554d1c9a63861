/* Differential test of src/crypto/chacha20poly1305.c (IETF, original and XChaCha20-Poly1305) and
 * the ChaCha20 kernels of src/crypto/chacha20_*.c against libsodium, in C, so it can run under
 * ASan/UBSan and valgrind (test/c/run.sh builds it both ways, with the SIMD/128-bit code and with
 * -DNAT_CHACHA20POLY1305_PORTABLE, the 26-bit Poly1305 wasm32 runs), once per kernel the
 * dispatcher can be forced to, and for wasm32 itself (WASM32_SODIUM=...: the SIMD128 kernels and
 * the long-message path). The AEAD source is included, not linked, to reach its static parts: the
 * keystream code and the Poly1305 on chosen keys. Exits non-zero on the first difference.
 *
 * cc-sources: src/crypto/chacha20_dispatch.c src/crypto/chacha20_portable.c
 * cc-sources: src/crypto/chacha20_avx2.c src/crypto/chacha20_avx512.c src/crypto/chacha20_simd128.c
 * cc-sources: src/crypto/poly1305_dispatch.c src/crypto/poly1305_portable.c src/crypto/poly1305_avx2.c
 * cc-sources: src/crypto/poly1305_avx512ifma.c src/crypto/poly1305_simd128.c src/crypto/secretstream.c
 * run-env: NATRIUM_CHACHA20=portable NATRIUM_CHACHA20=libsodium NATRIUM_CHACHA20=avx2
 * run-env: NATRIUM_CHACHA20=avx512 NATRIUM_CHACHA20=
 * variants: simd portable */
#include <stdio.h>
#include <stdlib.h>

#include "../../src/crypto/chacha20poly1305.c"
#include "secretstream.h"

#include "check.h"

#define SMALL NAT_CHACHA20POLY1305_SMALL_MAX
#define ABYTES 16U

/* Test inputs from a fast generator seeded once from libsodium: libsodium's randombytes makes a
 * system call per call, which took most of this harness's time. */
static uint64_t rng_state;

static uint64_t rnd64(void) {
  /* splitmix64 */
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static uint32_t rnd_uniform(uint32_t n) {
  return (uint32_t) ((rnd64() >> 32) * n >> 32);
}

static void rnd_buf(void *p, size_t n) {
  unsigned char *b = p;
  while (n >= 8) {
    const uint64_t r = rnd64();
    memcpy(b, &r, 8);
    b += 8;
    n -= 8;
  }
  if (n > 0) {
    const uint64_t r = rnd64();
    memcpy(b, &r, n);
  }
}

static int all_zero(const unsigned char *p, size_t n) {
  unsigned char acc = 0;
  for (size_t i = 0; i < n; i++) acc |= p[i];
  return acc == 0;
}

/* Bytes skewed towards 0x00 and 0xff, where carries in Poly1305 and in the counters live. */
static void fill(unsigned char *p, size_t n, int skewed) {
  rnd_buf(p, n);
  if (!skewed) return;
  for (size_t i = 0; i < n; i++) {
    const unsigned char pick = p[i] & 3;
    p[i] = pick == 0 ? 0x00 : pick == 1 ? 0xff : (unsigned char) rnd_uniform(256);
  }
}

/* The dispatched kernel vs libsodium's streams: the original (64-bit counter, from near 2^32 and
 * near 2^64 too, where libsodium's counter carries and wraps) and the IETF one (32-bit counter,
 * up to its last block, past which libsodium refuses), every block count 0..40 and odd lengths,
 * in place and misaligned. Then the short-message keystream code of this file. */
static void test_kernels(void) {
  static unsigned char msg[64 * 80 + 8], ref[64 * 80 + 8], ours[64 * 80 + 8];
  unsigned char k[32], n[12];
  const int trials = UNDER_VALGRIND ? 8 : 60;
  for (int trial = 0; trial < trials; trial++) {
    for (size_t len = 0; len <= 64 * 41; len += trial % 3 == 0 ? 1 : 64) {
      const size_t off = (size_t) trial % 7;
      uint32_t st[16];
      uint64_t ic;
      fill(k, sizeof k, trial & 1);
      fill(n, sizeof n, trial & 1);
      fill(msg, len + off, 0);
      switch (trial % 4) {
        case 0: ic = 0; break;
        case 1: ic = 0xffffffffULL - rnd_uniform(48); break;
        case 2: ic = ~0ULL - rnd_uniform(48); break;
        default: ic = rnd_uniform(1U << 30); break;
      }
      crypto_stream_chacha20_xor_ic(ref, msg + off, len, n, ic, k);
      nat_chacha20_init_orig(st, k, n);
      st[12] = (uint32_t) ic;
      st[13] = (uint32_t) (ic >> 32);
      memcpy(ours + off, msg + off, len);
      ours[off + len] = 0x5a;
      nat_chacha20_xor(st, ours + off, ours + off, len, 1);
      CHECK(memcmp(ours + off, ref, len) == 0 && ours[off + len] == 0x5a,
            "original stream, %zu bytes from counter %llx (%s)", len, (unsigned long long) ic,
            nat_chacha20_impl());
      const uint64_t next = ic + (len + 63) / 64;
      CHECK(st[12] == (uint32_t) next && st[13] == (uint32_t) (next >> 32), "counter after");

      const uint32_t ic32 = trial % 4 == 1 ? (uint32_t) (0x100000000ULL - (len + 63) / 64)
                                           : (uint32_t) ic;
      if ((uint64_t) ic32 + (len + 63) / 64 > 0x100000000ULL) continue;
      crypto_stream_chacha20_ietf_xor_ic(ref, msg + off, len, n, ic32, k);
      nat_chacha20_init_ietf(st, k, n);
      st[12] = ic32;
      nat_chacha20_xor(st, ours, msg + off, len, 0);
      CHECK(memcmp(ours, ref, len) == 0, "IETF stream, %zu bytes from counter %x (%s)", len, ic32,
            nat_chacha20_impl());
    }
  }
  /* HChaCha20 */
  for (int trial = 0; trial < 1000; trial++) {
    unsigned char in[16], sub[32], mine[32];
    uint32_t w[8];
    fill(k, sizeof k, trial & 1);
    fill(in, sizeof in, trial & 1);
    crypto_core_hchacha20(sub, in, k, NULL);
    nat_hchacha20(w, in, k);
    for (int i = 0; i < 32; i++) mine[i] = (unsigned char) (w[i / 4] >> (8 * (i % 4)));
    CHECK(memcmp(sub, mine, 32) == 0, "hchacha20");
  }
  /* keystream_small: blocks 0..n-1 of a state, the state left alone */
  for (int trial = 0; trial < 200; trial++) {
    for (size_t nb = 1; nb <= NAT_CHACHA_MAX_BLOCKS; nb++) {
      uint32_t st[16], copy[16];
      fill(k, sizeof k, trial & 1);
      fill(n, sizeof n, trial & 1);
      nat_chacha20_init_ietf(st, k, n);
      memcpy(copy, st, sizeof st);
      crypto_stream_chacha20_ietf(ref, 64 * nb, n, k);
      memset(ours, 0xa5, 64 * nb + 64);
      keystream_small(ours, nb, st, 0);
      CHECK(memcmp(ours, ref, 64 * nb) == 0 && ours[64 * nb] == 0xa5, "keystream_small %zu", nb);
      CHECK(memcmp(st, copy, sizeof st) == 0, "keystream_small left the state");
    }
  }
}

#if defined(NAT_CHACHA_SIMD128)
/* The four-block kernel (wasm32) vs libsodium's IETF stream: blocks 0..15 in four calls, the
 * first three through chacha20_x4_keystream, the last XORed onto a message. */
static void test_keystream_x4(void) {
  unsigned char k[32], n[12], msg[256], ours[1024], ref[1024];
  for (int trial = 0; trial < 2000; trial++) {
    v128_t s[16];
    uint32_t st[16];
    fill(k, sizeof k, trial & 1);
    fill(n, sizeof n, trial & 1);
    fill(msg, sizeof msg, 0);
    crypto_stream_chacha20_ietf(ref, sizeof ref, n, k);
    nat_chacha20_init_ietf(st, k, n);
    chacha20_x4_init(s, st);
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
#if defined(NAT_CHACHA_SIMD128)
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
#if defined(NAT_CHACHA_SIMD128)
#define POLY_VARIANTS 7
#else
#define POLY_VARIANTS 1
#endif

/* Our Poly1305 vs libsodium's on whole blocks (where both set the 2^128 bit on every block), with
 * keys and messages full of 0xff to reach the carries and the final subtraction of p. */
static void test_poly1305(void) {
  unsigned char key[32], msg[16 * 40], ours[16], ref[16];
  for (int trial = 0; trial < 20000; trial++) {
    const size_t nblocks = (size_t) rnd_uniform(41);
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
  rnd_buf(&r, sizeof r);
  switch (rnd_uniform(4)) {
    case 0: return 0;
    case 1: return ones;
    case 2: return ones - rnd_uniform(8);
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
    st.h2 = rnd_uniform(5);
    lo = (ref_u128) st.h1 << 64 | st.h0;
    hi = (unsigned) st.h2;
#else
    /* the loop leaves every limb below 2^26 but h1, which may carry a few bits more */
    for (int i = 0; i < 5; i++) st.h[i] = (uint32_t) extreme_limb(26);
    if (trial & 2) st.h[1] += 1 + (uint32_t) rnd_uniform(64);
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

/* The three constructions, ours and libsodium's: the same signatures. */
typedef int (*enc_fn)(unsigned char *, unsigned long long *, const unsigned char *,
                      unsigned long long, const unsigned char *, unsigned long long,
                      const unsigned char *, const unsigned char *, const unsigned char *);
typedef int (*dec_fn)(unsigned char *, unsigned long long *, unsigned char *,
                      const unsigned char *, unsigned long long, const unsigned char *,
                      unsigned long long, const unsigned char *, const unsigned char *);
typedef int (*encd_fn)(unsigned char *, unsigned char *, unsigned long long *,
                       const unsigned char *, unsigned long long, const unsigned char *,
                       unsigned long long, const unsigned char *, const unsigned char *,
                       const unsigned char *);
typedef int (*decd_fn)(unsigned char *, unsigned char *, const unsigned char *,
                       unsigned long long, const unsigned char *, const unsigned char *,
                       unsigned long long, const unsigned char *, const unsigned char *);
typedef struct {
  const char *name;
  size_t npub;
  enc_fn enc, ref_enc;
  dec_fn dec, ref_dec;
  encd_fn encd, ref_encd;
  decd_fn decd, ref_decd;
} aead;

#define AEAD(name, npub)                                                                   \
  {#name, npub, nat_aead_##name##_encrypt, crypto_aead_##name##_encrypt,                   \
   nat_aead_##name##_decrypt, crypto_aead_##name##_decrypt,                                \
   nat_aead_##name##_encrypt_detached, crypto_aead_##name##_encrypt_detached,              \
   nat_aead_##name##_decrypt_detached, crypto_aead_##name##_decrypt_detached}
static const aead aeads[] = {AEAD(chacha20poly1305_ietf, 12), AEAD(chacha20poly1305, 8),
                             AEAD(xchacha20poly1305_ietf, 24)};

/* Our AEAD vs libsodium's for one (mlen, adlen): combined and detached, both directions, in place,
 * misaligned, NULL ad, and a tampered byte. */
#define MAXLEN ((1U << 20) + 256)
static unsigned char m[MAXLEN + 8], c1[MAXLEN + ABYTES], c2[MAXLEN + ABYTES + 8],
  out[MAXLEN + ABYTES + 8];

static void test_aead_once(const aead *A, size_t mlen, size_t adlen, int skewed) {
  unsigned char k[32], npub[24], ad[64], mac1[ABYTES], mac2[ABYTES];
  unsigned long long len1 = 1234, len2 = 5678;
  const size_t off = (mlen + adlen) % 4; /* misaligned buffers now and then */
  unsigned char *mm = m + off, *cc = c2 + (off ^ 1), *oo = out + (off ^ 2);

  fill(k, sizeof k, skewed);
  fill(npub, sizeof npub, skewed);
  fill(mm, mlen, skewed);
  fill(ad, adlen, skewed);
  SECRET(k, sizeof k);
  SECRET(mm, mlen);
  const unsigned char *adp = adlen == 0 && skewed ? NULL : ad;

  /* combined */
  CHECK(A->ref_enc(c1, &len1, mm, mlen, adp, adlen, NULL, npub, k) == 0, "ref encrypt");
  CHECK(A->enc(cc, &len2, mm, mlen, adp, adlen, NULL, npub, k) == 0, "encrypt");
  PUBLIC(c1, mlen + ABYTES);
  PUBLIC(cc, mlen + ABYTES);
  CHECK(len1 == len2 && memcmp(c1, cc, mlen + ABYTES) == 0, "%s encrypt mlen %zu adlen %zu (%s)",
        A->name, mlen, adlen, nat_chacha20_impl());
  CHECK(A->enc(cc, NULL, mm, mlen, adp, adlen, NULL, npub, k) == 0, "encrypt, NULL clen_p");
  /* decryption branches on the verification result, a function of the key: public from here */
  PUBLIC(k, sizeof k);
  memset(oo, 0xa5, mlen + 1);
  const int dret = A->dec(oo, &len2, NULL, c1, mlen + ABYTES, adp, adlen, npub, k);
  PUBLIC(oo, mlen + 1);
  PUBLIC(mm, mlen);
  CHECK(dret == 0, "%s decrypt mlen %zu adlen %zu", A->name, mlen, adlen);
  CHECK(len2 == mlen && memcmp(oo, mm, mlen) == 0 && oo[mlen] == 0xa5, "decrypt output");

  /* detached */
  SECRET(k, sizeof k);
  SECRET(mm, mlen);
  CHECK(A->ref_encd(c1, mac1, &len1, mm, mlen, adp, adlen, NULL, npub, k) == 0, "ref detached");
  CHECK(A->encd(cc, mac2, &len2, mm, mlen, adp, adlen, NULL, npub, k) == 0, "detached");
  PUBLIC(k, sizeof k);
  PUBLIC(mm, mlen);
  PUBLIC(c1, mlen);
  PUBLIC(cc, mlen);
  PUBLIC(mac1, ABYTES);
  PUBLIC(mac2, ABYTES);
  CHECK(len1 == len2 && memcmp(c1, cc, mlen) == 0 && memcmp(mac1, mac2, ABYTES) == 0,
        "%s encrypt_detached mlen %zu adlen %zu", A->name, mlen, adlen);
  memset(oo, 0xa5, mlen + 1);
  CHECK(A->decd(oo, NULL, c1, mlen, mac1, adp, adlen, npub, k) == 0, "decrypt_detached");
  PUBLIC(oo, mlen + 1);
  CHECK(memcmp(oo, mm, mlen) == 0 && oo[mlen] == 0xa5, "decrypt_detached output");

  /* in place (c == m): encrypt, then decrypt back */
  memcpy(oo, mm, mlen);
  CHECK(A->enc(oo, &len2, oo, mlen, adp, adlen, NULL, npub, k) == 0, "in-place encrypt");
  A->ref_enc(c1, &len1, mm, mlen, adp, adlen, NULL, npub, k);
  PUBLIC(oo, mlen + ABYTES);
  PUBLIC(c1, mlen + ABYTES);
  CHECK(memcmp(oo, c1, mlen + ABYTES) == 0, "%s in-place encrypt mlen %zu", A->name, mlen);
  CHECK(A->dec(oo, &len2, NULL, oo, mlen + ABYTES, adp, adlen, npub, k) == 0 &&
          memcmp(oo, mm, mlen) == 0, "%s in-place decrypt mlen %zu", A->name, mlen);
  PUBLIC(k, sizeof k);

  /* a tampered ciphertext, tag or ad byte: both refuse, m is zeroed, the length is 0 */
  const size_t total = mlen + ABYTES + adlen;
  const size_t pos = (size_t) rnd_uniform((uint32_t) total);
  unsigned char *target = pos < mlen + ABYTES ? c1 + pos : ad + (pos - mlen - ABYTES);
  *target ^= (unsigned char) (1U << rnd_uniform(8));
  memset(oo, 0xa5, mlen + 1);
  len2 = 99;
  CHECK(A->dec(oo, &len2, NULL, c1, mlen + ABYTES, ad, adlen, npub, k) == -1,
        "tampered decrypt at %zu", pos);
  CHECK(A->ref_dec(oo + 1, NULL, NULL, c1, mlen + ABYTES, ad, adlen, npub, k) == -1,
        "ref agrees");
  memset(oo, 0xa5, mlen + 1);
  CHECK(A->dec(oo, &len2, NULL, c1, mlen + ABYTES, ad, adlen, npub, k) == -1, "again");
  CHECK(len2 == 0 && all_zero(oo, mlen), "tampered decrypt leaves zeros, mlen %zu", mlen);
  memset(oo, 0xa5, mlen + 1);
  CHECK(A->decd(oo, NULL, c1, mlen, c1 + mlen, ad, adlen, npub, k) == -1 && all_zero(oo, mlen),
        "tampered decrypt_detached at %zu", pos);
}

/* Every byte position, for a few lengths: each single-bit flip must be refused. */
static void test_tamper_everywhere(const aead *A, size_t mlen, size_t adlen) {
  unsigned char k[32], npub[24], ad[128], *c = c1;
  const size_t nl = A->npub;
  fill(k, sizeof k, 0);
  fill(npub, sizeof npub, 0);
  fill(m, mlen, 0);
  fill(ad, adlen, 0);
  A->enc(c, NULL, m, mlen, ad, adlen, NULL, npub, k);
  for (size_t pos = 0; pos < mlen + ABYTES + adlen + nl + 32; pos++) {
    unsigned char *p = pos < mlen + ABYTES            ? c + pos
                       : pos < mlen + ABYTES + adlen  ? ad + (pos - mlen - ABYTES)
                       : pos < mlen + ABYTES + adlen + nl ? npub + (pos - mlen - ABYTES - adlen)
                                                          : k + (pos - mlen - ABYTES - adlen - nl);
    const unsigned char bit = (unsigned char) (1U << (pos % 8));
    *p ^= bit;
    memset(out, 0xa5, mlen + 1);
    CHECK(A->dec(out, NULL, NULL, c, mlen + ABYTES, ad, adlen, npub, k) == -1 &&
            all_zero(out, mlen),
          "%s flip at %zu (mlen %zu adlen %zu)", A->name, pos, mlen, adlen);
    *p ^= bit;
  }
  /* a shorter ciphertext is refused too (wrong length in the tag) */
  if (mlen > 0) {
    CHECK(A->dec(out, NULL, NULL, c, mlen + ABYTES - 1, ad, adlen, npub, k) == -1, "truncated");
  }
  CHECK(A->dec(out, NULL, NULL, c, mlen + ABYTES, ad, adlen, npub, k) == 0 &&
          memcmp(out, m, mlen) == 0, "untampered after the flips");
}

/* RFC 8439 section 2.8.2: the AEAD test vector (IETF construction). */
static void test_rfc8439(void) {
  static const char pt[] = "Ladies and Gentlemen of the class of '99: If I could offer you only "
                           "one tip for the future, sunscreen would be it.";
  const unsigned char ad[12] = {0x50, 0x51, 0x52, 0x53, 0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7};
  const unsigned char nonce[12] = {0x07, 0, 0, 0, 0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47};
  const unsigned char c_head[16] = {0xd3, 0x1a, 0x8d, 0x34, 0x64, 0x8e, 0x60, 0xdb,
                                    0x7b, 0x86, 0xaf, 0xbc, 0x53, 0xef, 0x7e, 0xc2};
  const unsigned char tag[16] = {0x1a, 0xe1, 0x0b, 0x59, 0x4f, 0x09, 0xe2, 0x6a,
                                 0x7e, 0x90, 0x2e, 0xcb, 0xd0, 0x60, 0x06, 0x91};
  unsigned char k[32], c[sizeof pt - 1 + ABYTES];
  for (int i = 0; i < 32; i++) k[i] = (unsigned char) (0x80 + i);
  CHECK(nat_aead_chacha20poly1305_ietf_encrypt(c, NULL, (const unsigned char *) pt,
                                               sizeof pt - 1, ad, sizeof ad, NULL, nonce, k) == 0,
        "rfc8439");
  CHECK(sizeof pt - 1 == 114 && memcmp(c, c_head, 16) == 0 && memcmp(c + 114, tag, 16) == 0,
        "RFC 8439 2.8.2 vector");
}

/* secretstream push/pull (secretstream.c) vs libsodium's from the same state: chunk lengths
 * 0..1100 and a few long ones, every tag, ad present and absent; out, the states after each
 * chunk, pulls both ways, and a forged chunk refused with the state kept. */
static void test_secretstream(size_t step) {
  crypto_secretstream_xchacha20poly1305_state ours, ref, pull_ours, pull_ref;
  unsigned char k[32], header[24], ad[40], tag_o, tag_r;
  unsigned long long lo, lr;
  fill(k, sizeof k, 0);
  SECRET(k, sizeof k);
  crypto_secretstream_xchacha20poly1305_init_push(&ref, header, k);
  crypto_secretstream_xchacha20poly1305_init_pull(&ours, header, k);
  PUBLIC(k, sizeof k);
  PUBLIC(&ours, sizeof ours);
  PUBLIC(&ref, sizeof ref);
  pull_ours = ours;
  pull_ref = ref;
  size_t i = 0;
  for (size_t mlen = 0; mlen <= 1100 + 4 * 8192; mlen += mlen < 1100 ? step : 8191, i++) {
    const unsigned char tag = (unsigned char) (i % 7 == 6 ? crypto_secretstream_xchacha20poly1305_TAG_REKEY
                                               : i % 11 == 10 ? crypto_secretstream_xchacha20poly1305_TAG_PUSH
                                                              : 0);
    const size_t adlen = i % 3 ? i % 40 : 0;
    fill(m, mlen, (int) i & 1);
    fill(ad, adlen, 0);
    SECRET(m, mlen);
    CHECK(nat_secretstream_xchacha20poly1305_push(&ours, c2, &lo, m, mlen, adlen ? ad : NULL,
                                                  adlen, tag) == 0, "push");
    CHECK(crypto_secretstream_xchacha20poly1305_push(&ref, c1, &lr, m, mlen, adlen ? ad : NULL,
                                                     adlen, tag) == 0, "ref push");
    PUBLIC(m, mlen);
    PUBLIC(c1, mlen + 17);
    PUBLIC(c2, mlen + 17);
    PUBLIC(&ours, sizeof ours);
    PUBLIC(&ref, sizeof ref);
    CHECK(lo == lr && memcmp(c1, c2, mlen + 17) == 0, "secretstream push, %zu bytes", mlen);
    CHECK(memcmp(&ours, &ref, sizeof ours) == 0, "secretstream state after push, %zu bytes", mlen);
    if (i % 5 == 4) {
      crypto_secretstream_xchacha20poly1305_state kept = pull_ours;
      c2[(i * 13) % (mlen + 17)] ^= 1;
      lo = 7;
      CHECK(nat_secretstream_xchacha20poly1305_pull(&pull_ours, out, &lo, &tag_o, c2, mlen + 17,
                                                    adlen ? ad : NULL, adlen) == -1 &&
              lo == 0 && tag_o == 0xff && memcmp(&kept, &pull_ours, sizeof kept) == 0,
            "forged chunk, %zu bytes", mlen);
      c2[(i * 13) % (mlen + 17)] ^= 1;
    }
    CHECK(nat_secretstream_xchacha20poly1305_pull(&pull_ours, out, &lo, &tag_o, c1, mlen + 17,
                                                  adlen ? ad : NULL, adlen) == 0 &&
            lo == mlen && tag_o == tag && memcmp(out, m, mlen) == 0,
          "pull, %zu bytes", mlen);
    CHECK(crypto_secretstream_xchacha20poly1305_pull(&pull_ref, out, &lr, &tag_r, c2, mlen + 17,
                                                     adlen ? ad : NULL, adlen) == 0 &&
            memcmp(out, m, mlen) == 0, "ref pull, %zu bytes", mlen);
    CHECK(memcmp(&pull_ours, &pull_ref, sizeof pull_ours) == 0, "state after pull");
  }
  /* shorter than ABYTES: refused, outputs set as libsodium sets them */
  lo = 5;
  tag_o = 0;
  CHECK(nat_secretstream_xchacha20poly1305_pull(&pull_ours, out, &lo, &tag_o, c1, 16, NULL, 0) ==
          -1 && lo == 0 && tag_o == 0xff, "short chunk");
}

int main(void) {
  if (sodium_init() < 0) return 1;
  randombytes_buf(&rng_state, sizeof rng_state);
  printf("build: %s ChaCha20 kernel (%s), %s Poly1305 in the short path\n", nat_chacha20_impl(),
#if defined(NAT_CHACHA_SIMD128)
         "and the SIMD128 four-block path for long messages",
#else
         "natively for long messages",
#endif
#ifdef NAT_POLY1305_64
         "64-bit"
#elif defined(NAT_CHACHA_SIMD128)
         "26-bit limb and four-lane"
#else
         "26-bit limb"
#endif
  );
  /* under valgrind (about 50x slower): every path, fewer lengths */
  const size_t big = UNDER_VALGRIND ? 65536 : MAXLEN, step = UNDER_VALGRIND ? 5 : 1;
  test_kernels();
#if defined(NAT_CHACHA_SIMD128)
  test_keystream_x4();
#endif
  test_poly1305();
  test_poly1305_carries();
  test_poly1305_finish_states();
  test_rfc8439();
  test_secretstream(step);
  for (size_t a = 0; a < sizeof aeads / sizeof aeads[0]; a++) {
    const aead *A = &aeads[a];
    for (int skewed = 0; skewed < 2; skewed++) {
      for (size_t mlen = 0; mlen <= SMALL + 64; mlen += step) {
        for (size_t adlen = 0; adlen <= 40; adlen += skewed ? step : 3 * step) {
          test_aead_once(A, mlen, adlen, skewed);
        }
      }
    }
    /* past the cutoff: the dispatched kernel's 64/512/1024-byte steps and the 8 KB Poly1305
     * pieces natively; on wasm32 192 + multiples of 256 bytes (chacha20_x4) and multiples of 64
     * (four Poly1305 blocks) */
    for (size_t mlen = SMALL + 65; mlen <= 1100; mlen += step) {
      test_aead_once(A, mlen, mlen % 41, (int) mlen & 1);
    }
    for (size_t base = 1024; base + 128 < big; base += base / 2 + 64) {
      for (size_t mlen = (base & ~(size_t) 63) - 65; mlen <= (base & ~(size_t) 63) + 65; mlen++) {
        if (mlen % 64 <= 1 || mlen % 64 == 63) test_aead_once(A, mlen, 17, 0);
      }
    }
    for (size_t mlen = 8192 - 1; mlen <= 8192 * 3 + 1; mlen += 8192 - 1) test_aead_once(A, mlen, 5, 1);
    if (!UNDER_VALGRIND) {
      test_aead_once(A, 1U << 20, 0, 0);
      test_aead_once(A, (1U << 20) + 191, 33, 1);
    }
    const size_t tamper_lengths[] = {0,   1,   15,        16,    17,        63,
                                     64,  65,  127,       128,   129,       SMALL - 1,
                                     SMALL, SMALL + 1, SMALL + 64, 1000, 2048 + 192};
    for (size_t i = 0; i < sizeof tamper_lengths / sizeof tamper_lengths[0]; i++) {
      test_tamper_everywhere(A, tamper_lengths[i], i % 3 == 0 ? 0 : 7 * i);
    }
  }
  printf("ok: %lu checks (%s)\n", checks, nat_chacha20_impl());
  return 0;
}

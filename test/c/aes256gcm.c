/* Test of src/crypto/aes256gcm_soft.c (the portable, constant-time AES-256-GCM) in C, under
 * ASan/UBSan and valgrind (test/c/run.sh): the bitsliced S-box on all 256 bytes against one
 * computed from its definition (inverse in GF(2^8), then the affine map), McGrew and Viega's
 * AES-256 test cases 13-16 (the GCM spec's), and, where libsodium has AES-256-GCM on this CPU
 * (AES-NI or ARMv8 crypto), every function against libsodium's on random keys, nonces, ad and
 * messages at every length to 600 and a few large ones, in place, with forged tags (libsodium's
 * outputs then too). Under valgrind the key and message are marked undefined for the encryption,
 * the GHASH and the key schedule, so a branch or memory index on either is reported. The
 * dispatcher's choice is checked too: run with NATRIUM_AES=soft and without.
 *
 * cc-sources: src/crypto/aes256gcm_dispatch.c
 * run-env: NATRIUM_AES=soft NATRIUM_AES= */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/crypto/aes256gcm_soft.c"

#include "check.h"

static void unhex(unsigned char *out, const char *hex) {
  for (size_t i = 0; hex[2 * i]; i++) {
    unsigned int v;
    sscanf(hex + 2 * i, "%2x", &v);
    out[i] = (unsigned char) v;
  }
}

static unsigned char gf_mul(unsigned char a, unsigned char b) {
  unsigned char r = 0;
  while (b) {
    if (b & 1) r ^= a;
    a = (unsigned char) (a << 1 ^ (a & 0x80 ? 0x1b : 0));
    b >>= 1;
  }
  return r;
}

static void test_sbox(void) {
  for (int x = 0; x < 256; x++) {
    unsigned char inv = 0;
    for (int y = 1; y < 256 && x != 0; y++) {
      if (gf_mul((unsigned char) x, (unsigned char) y) == 1) inv = (unsigned char) y;
    }
    unsigned char s = 0x63;
    for (int i = 0; i < 8; i++) {
      const int bit = (inv >> i ^ inv >> ((i + 4) % 8) ^ inv >> ((i + 5) % 8) ^
                       inv >> ((i + 6) % 8) ^ inv >> ((i + 7) % 8)) & 1;
      s ^= (unsigned char) (bit << i);
    }
    unsigned char in[64], out[64];
    uint64_t q[8];
    for (int j = 0; j < 64; j++) in[j] = (unsigned char) (x + 37 * j);
    pack(q, in);
    sub_bytes(q);
    unpack(out, q);
    CHECK(out[0] == s, "S-box(%02x) = %02x, want %02x", x, out[0], s);
    unsigned char w[4] = {(unsigned char) x, 0, 0, 0};
    sub_word(w);
    CHECK(w[0] == s, "sub_word(%02x)", x);
  }
  /* every position of the bitsliced words, all four blocks */
  unsigned char in[64], out[64];
  uint64_t q[8];
  randombytes_buf(in, sizeof in);
  pack(q, in);
  unpack(out, q);
  CHECK(memcmp(in, out, 64) == 0, "pack/unpack");
}

static const struct {
  const char *k, *iv, *p, *a, *c, *t;
} mcgrew_viega[] = {
  /* test case 13 */
  {"0000000000000000000000000000000000000000000000000000000000000000", "000000000000000000000000",
   "", "", "", "530f8afbc74536b9a963b4f1c4cb738b"},
  /* 14 */
  {"0000000000000000000000000000000000000000000000000000000000000000", "000000000000000000000000",
   "00000000000000000000000000000000", "", "cea7403d4d606b6e074ec5d3baf39d18",
   "d0d1c8a799996bf0265b98b5d48ab919"},
  /* 15 */
  {"feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308", "cafebabefacedbaddecaf888",
   "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b5"
   "25b16aedf5aa0de657ba637b391aafd255",
   "",
   "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838"
   "c5f61e6393ba7a0abcc9f662898015ad",
   "b094dac5d93471bdec1a502270e3cc6c"},
  /* 16 */
  {"feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308", "cafebabefacedbaddecaf888",
   "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b5"
   "25b16aedf5aa0de657ba637b39",
   "feedfacedeadbeeffeedfacedeadbeefabaddad2",
   "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838"
   "c5f61e6393ba7a0abcc9f662",
   "76fc6ece0f4e1768cddf8853bb2d551b"},
};

static void test_vectors(void) {
  for (size_t n = 0; n < sizeof mcgrew_viega / sizeof mcgrew_viega[0]; n++) {
    unsigned char k[32], iv[12], p[64], a[32], c[64], t[16], out[64 + 16], back[64];
    unsigned long long outlen, backlen;
    const size_t plen = strlen(mcgrew_viega[n].p) / 2, alen = strlen(mcgrew_viega[n].a) / 2;
    unhex(k, mcgrew_viega[n].k);
    unhex(iv, mcgrew_viega[n].iv);
    unhex(p, mcgrew_viega[n].p);
    unhex(a, mcgrew_viega[n].a);
    unhex(c, mcgrew_viega[n].c);
    unhex(t, mcgrew_viega[n].t);
    CHECK(nat_aes256gcm_encrypt(out, &outlen, p, plen, a, alen, NULL, iv, k) == 0, "encrypt");
    CHECK(outlen == plen + 16 && memcmp(out, c, plen) == 0 && memcmp(out + plen, t, 16) == 0,
          "test case %zu", n + 13);
    CHECK(nat_aes256gcm_decrypt(back, &backlen, NULL, out, outlen, a, alen, iv, k) == 0 &&
            backlen == plen && memcmp(back, p, plen) == 0, "decrypt test case %zu", n + 13);
  }
}

/* Ours against libsodium's hardware code (when this CPU has it), every function. */
static void test_against_libsodium(void) {
  static unsigned char m[70000], ad[300], c1[70000 + 16], c2[70000 + 16], d1[70000], d2[70000];
  CRYPTO_ALIGN(16) crypto_aead_aes256gcm_state s1, s2;
  unsigned char k[32], npub[12];
  unsigned long long l1, l2;
  const size_t big[] = {1000, 4095, 4096, 4097, 65536, 70000};
  if (crypto_aead_aes256gcm_is_available() != 1) {
    printf("  (libsodium has no AES-256-GCM on this CPU: vectors only)\n");
    return;
  }
  for (size_t i = 0; i < 601 + sizeof big / sizeof big[0]; i++) {
    const size_t mlen = i <= 600 ? i : big[i - 601];
    const size_t adlen = randombytes_uniform(sizeof ad + 1) * (i % 3 != 0);
    randombytes_buf(k, sizeof k);
    randombytes_buf(npub, sizeof npub);
    randombytes_buf(m, mlen);
    randombytes_buf(ad, adlen);
    crypto_aead_aes256gcm_encrypt(c1, &l1, m, mlen, ad, adlen, NULL, npub, k);
    /* ours through the soft functions, whatever the dispatcher chose */
    nat_aes256gcm_soft_beforenm(&s2, k);
    CHECK(nat_aes256gcm_soft_encrypt_detached_afternm(c2, c2 + mlen, &l2, m, mlen, ad, adlen,
                                                      NULL, npub, &s2) == 0 && l2 == 16,
          "encrypt %zu", mlen);
    CHECK(memcmp(c1, c2, mlen + 16) == 0, "ciphertext, %zu bytes, ad %zu", mlen, adlen);
    /* the dispatched API (soft or libsodium's), one-shot and precomputed, combined and detached */
    memset(c2, 0, mlen + 16);
    CHECK(nat_aes256gcm_encrypt(c2, &l2, m, mlen, ad, adlen, NULL, npub, k) == 0 &&
            l2 == mlen + 16 && memcmp(c1, c2, mlen + 16) == 0, "nat encrypt %zu", mlen);
    nat_aes256gcm_beforenm(&s1, k);
    memcpy(c2, m, mlen); /* in place */
    CHECK(nat_aes256gcm_encrypt_detached_afternm(c2, c2 + mlen, &l2, c2, mlen, ad, adlen, NULL,
                                                 npub, &s1) == 0 &&
            memcmp(c1, c2, mlen + 16) == 0, "in place %zu", mlen);
    CHECK(nat_aes256gcm_decrypt_afternm(d2, &l2, NULL, c1, mlen + 16, ad, adlen, npub, &s1) == 0 &&
            l2 == mlen && memcmp(d2, m, mlen) == 0, "decrypt_afternm %zu", mlen);
    CHECK(nat_aes256gcm_soft_decrypt_detached_afternm(c2, NULL, c2, mlen, c2 + mlen, ad, adlen,
                                                      npub, &s2) == 0 &&
            memcmp(c2, m, mlen) == 0, "decrypt in place %zu", mlen);
    CHECK(nat_aes256gcm_soft_decrypt_detached_afternm(NULL, NULL, c1, mlen, c1 + mlen, ad, adlen,
                                                      npub, &s2) == 0, "verify only %zu", mlen);
    /* the one-shot functions (key schedule and H in the first batch) */
    memset(c2, 0, mlen + 16);
    CHECK(nat_aes256gcm_soft_encrypt_detached(c2, c2 + mlen, &l2, m, mlen, ad, adlen, NULL, npub,
                                              k) == 0 && l2 == 16 &&
            memcmp(c1, c2, mlen + 16) == 0, "soft one-shot %zu", mlen);
    CHECK(nat_aes256gcm_soft_decrypt_detached(c2, NULL, c2, mlen, c2 + mlen, ad, adlen, npub, k) ==
            0 && memcmp(c2, m, mlen) == 0, "soft one-shot open in place %zu", mlen);
    /* ad inside the output (both hash ad before writing c) */
    if (mlen >= 8 && adlen > 0) {
      static unsigned char b1[70000 + 16 + 300], b2[70000 + 16 + 300];
      const size_t at = randombytes_uniform((uint32_t) (mlen + 16));
      memset(b1, 0, mlen + 16 + adlen);
      memcpy(b1 + at, ad, adlen);
      memcpy(b2, b1, mlen + 16 + adlen);
      crypto_aead_aes256gcm_encrypt(b1, &l1, m, mlen, b1 + at, adlen, NULL, npub, k);
      nat_aes256gcm_soft_encrypt_detached(b2, b2 + mlen, NULL, m, mlen, b2 + at, adlen, NULL,
                                          npub, k);
      CHECK(memcmp(b1, b2, mlen + 16 + adlen) == 0, "ad at %zu inside c, %zu bytes", at, mlen);
      memcpy(b2, b1, mlen + 16 + adlen);
      memcpy(b2 + at, ad, adlen);
      CHECK(nat_aes256gcm_soft_encrypt_detached_afternm(b2, b2 + mlen, NULL, m, mlen, b2 + at,
                                                        adlen, NULL, npub, &s2) == 0 &&
              memcmp(b1, b2, mlen + 16) == 0, "afternm, ad at %zu inside c", at);
    }
    /* a forgery: one bit anywhere in c, the tag or ad */
    const size_t flip = randombytes_uniform((uint32_t) (mlen + 16 + adlen));
    if (flip < mlen + 16) c1[flip] ^= (unsigned char) (1 << randombytes_uniform(8));
    else ad[flip - mlen - 16] ^= 1;
    memset(d1, 0x11, mlen);
    memset(d2, 0x22, mlen);
    const int r1 = crypto_aead_aes256gcm_decrypt(d1, &l1, NULL, c1, mlen + 16, ad, adlen, npub, k);
    const int r2 = nat_aes256gcm_decrypt(d2, &l2, NULL, c1, mlen + 16, ad, adlen, npub, k);
    CHECK(r1 == -1 && r2 == -1 && l1 == 0 && l2 == 0, "forgery accepted, %zu bytes", mlen);
    CHECK(memcmp(d1, d2, mlen) == 0, "outputs after a forgery, %zu bytes", mlen);
    const int r3 = nat_aes256gcm_soft_decrypt_detached_afternm(d2, NULL, c1, mlen, c1 + mlen, ad,
                                                               adlen, npub, &s2);
    CHECK(r3 == -1 && memcmp(d1, d2, mlen) == 0, "soft forgery, %zu bytes", mlen);
    memset(d2, 0x22, mlen);
    CHECK(nat_aes256gcm_soft_decrypt_detached(d2, NULL, c1, mlen, c1 + mlen, ad, adlen, npub, k) ==
            -1 && memcmp(d1, d2, mlen) == 0, "soft one-shot forgery, %zu bytes", mlen);
  }
  /* short ciphertexts */
  CHECK(nat_aes256gcm_decrypt(d2, &l2, NULL, c1, 15, NULL, 0, npub, k) == -1 && l2 == 0, "short");
}

/* Under valgrind: key and message undefined through the key schedule, the keystream and the
 * GHASH of the ciphertext (the decryption runs the same code); only the outputs are then made
 * defined. */
static void test_constant_time(void) {
  CRYPTO_ALIGN(16) crypto_aead_aes256gcm_state st;
  unsigned char k[32], npub[12], m[200], ad[40], c[200], mac[16], tag[16];
  first_batch first;
  round_keys sk;
  randombytes_buf(k, sizeof k);
  randombytes_buf(npub, sizeof npub);
  randombytes_buf(m, sizeof m);
  randombytes_buf(ad, sizeof ad);
  SECRET(k, sizeof k);
  SECRET(m, sizeof m);
  nat_aes256gcm_soft_beforenm(&st, k);
  nat_aes256gcm_soft_encrypt_detached_afternm(c, mac, NULL, m, sizeof m, ad, sizeof ad, NULL, npub,
                                              &st);
  const soft_state *s = (const soft_state *) (const void *) &st;
  widen_keys(sk, s);
  first_afternm(&first, sk, npub);
  gcm_ctr(m, c, sizeof c, &first, sk, npub);
  ghash g;
  gcm_tag_ad(&g, s, ad, sizeof ad);
  gcm_tag_final(tag, &g, sizeof ad, c, sizeof c, first.ks);
  SECRET(k, sizeof k);
  SECRET(m, sizeof m);
  nat_aes256gcm_soft_encrypt_detached(c, mac, NULL, m, sizeof m, ad, sizeof ad, NULL, npub, k);
  PUBLIC(c, sizeof c);
  PUBLIC(mac, sizeof mac);
  PUBLIC(k, sizeof k);
  PUBLIC(m, sizeof m);
  PUBLIC(&first, sizeof first);
  PUBLIC(tag, sizeof tag);
  PUBLIC(&st, sizeof st);
  PUBLIC(sk, sizeof sk);
  CHECK(memcmp(tag, mac, 16) == 0, "tag of the same ciphertext");
}

int main(void) {
  if (sodium_init() < 0) return 1;
  const char *force = getenv("NATRIUM_AES");
  const int forced = force != NULL && strcmp(force, "soft") == 0;
  CHECK(strcmp(nat_aes256gcm_impl(), forced || crypto_aead_aes256gcm_is_available() != 1
                                         ? "soft" : "libsodium") == 0,
        "dispatcher chose %s", nat_aes256gcm_impl());
  CHECK(nat_aes256gcm_is_available() == 1, "is_available");
  test_sbox();
  test_vectors();
  test_against_libsodium();
  test_constant_time();
  printf("aes256gcm (%s): %lu checks passed\n", nat_aes256gcm_impl(), checks);
  return 0;
}

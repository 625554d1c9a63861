/* crypto_secretstream_xchacha20poly1305 push and pull (see secretstream.h).
 *
 * One chunk, under the state's key k and 96-bit nonce (a 32-bit counter, then the 64-bit inonce):
 *   keystream = ChaCha20-IETF(k, nonce) from block 0
 *   polykey   = block 0;  tag block = block 1 ^ (tag, 0, ..., 0);  c = m ^ blocks 2, 3, ...
 *   out       = tag block[0] || c || Poly1305(polykey, ad || pad16(ad) || tag block || c ||
 *               zeros(mlen % 16) || le64(adlen) || le64(64 + mlen))
 * (the zeros after c are libsodium's: (0x10 - 64 + mlen) & 0xf of them, which the format keeps);
 * then inonce ^= the MAC's first 8 bytes, the counter goes up by one, and the key is renewed
 * (libsodium's rekey) on TAG_REKEY or when the counter wraps to 0. libsodium makes three stream
 * calls per chunk; here chunks up to SMALL bytes take all their keystream blocks in one kernel
 * call, longer ones blocks 0 and 1 in one and the message through the dispatched kernel, 8 KB at a
 * time with Poly1305 following while c is in the L1 cache. Reads and writes come in libsodium's
 * order (ad is absorbed before out is written; pull writes m only after the MAC checks). */
#include <string.h>

#include "chacha20_impl.h"
#include "poly1305.h"
#include "secretstream.h"

#define SMALL 512U
#define CHUNK 8192U
#define ABYTES crypto_secretstream_xchacha20poly1305_ABYTES

static const unsigned char zeros[16];

static void store64_le(unsigned char p[8], uint64_t w) {
  for (int i = 0; i < 8; i++) p[i] = (unsigned char) (w >> (8 * i));
}

/* Keystream blocks 0 and 1 (and 2.. for a short chunk) into ks, st at the next block after them;
 * Poly1305 keyed and ad absorbed with its padding. Returns how many message bytes ks holds. */
static size_t begin(uint32_t st[16], unsigned char *ks, nat_poly1305_state *ps,
                    const crypto_secretstream_xchacha20poly1305_state *state, size_t mlen,
                    const unsigned char *ad, size_t adlen) {
  const size_t nblocks = mlen <= SMALL ? 2 + (mlen + 63) / 64 : 2;
  nat_chacha20_init_ietf(st, state->k, state->nonce);
  memset(ks, 0, 64 * nblocks);
  nat_chacha20_blocks_short(st, ks, ks, nblocks, 0);
  nat_poly1305_init(ps, ks);
  if (adlen > 0) nat_poly1305_update(ps, ad, adlen);
  nat_poly1305_update(ps, zeros, (16 - adlen % 16) % 16);
  return mlen <= SMALL ? mlen : 0;
}

static void finish(nat_poly1305_state *ps, size_t mlen, size_t adlen, unsigned char mac[16]) {
  unsigned char lens[16];
  nat_poly1305_update(ps, zeros, mlen % 16);
  store64_le(lens, (uint64_t) adlen);
  store64_le(lens + 8, 64 + (uint64_t) mlen);
  nat_poly1305_update(ps, lens, 16);
  nat_poly1305_final(ps, mac);
}

static void xor_bytes(unsigned char *out, const unsigned char *in, const unsigned char *ks,
                      size_t len) {
  for (size_t i = 0; i < len; i++) out[i] = in[i] ^ ks[i];
}

/* inonce ^= mac[0..8]; counter + 1; rekey on TAG_REKEY or a counter back at 0 */
static void advance(crypto_secretstream_xchacha20poly1305_state *state, const unsigned char mac[16],
                    unsigned char tag) {
  for (int i = 0; i < 8; i++) state->nonce[4 + i] ^= mac[i];
  sodium_increment(state->nonce, 4);
  if ((tag & crypto_secretstream_xchacha20poly1305_TAG_REKEY) != 0 ||
      sodium_is_zero(state->nonce, 4)) {
    crypto_secretstream_xchacha20poly1305_rekey(state);
  }
}

int nat_secretstream_xchacha20poly1305_push(crypto_secretstream_xchacha20poly1305_state *state,
                                                   unsigned char *out, unsigned long long *outlen_p,
                                                   const unsigned char *m, unsigned long long mlen,
                                                   const unsigned char *ad, unsigned long long adlen,
                                                   unsigned char tag) {
  unsigned char ks[64 * (2 + SMALL / 64)];
  uint32_t st[16];
  nat_poly1305_state ps;

  if (mlen > crypto_secretstream_xchacha20poly1305_MESSAGEBYTES_MAX) {
    /* libsodium stops the process here */
    return crypto_secretstream_xchacha20poly1305_push(state, out, outlen_p, m, mlen, ad, adlen,
                                                      tag);
  }
  if (outlen_p != NULL) *outlen_p = 0;
  const size_t n = (size_t) mlen;
  unsigned char *c = out + 1, *mac = out + 1 + n;
  const size_t in_ks = begin(st, ks, &ps, state, n, ad, (size_t) adlen);
  ks[64] ^= tag;
  nat_poly1305_update(&ps, ks + 64, 64);
  out[0] = ks[64];
  if (in_ks == n) {
    xor_bytes(c, m, ks + 128, n);
    nat_poly1305_update(&ps, c, n);
  } else {
    for (size_t i = 0; i < n; i += CHUNK) {
      const size_t len = n - i < CHUNK ? n - i : CHUNK;
      nat_chacha20_xor(st, c + i, m + i, len, 0);
      nat_poly1305_update(&ps, c + i, len);
    }
  }
  finish(&ps, n, (size_t) adlen, mac);
  advance(state, mac, tag);
  sodium_memzero(ks, sizeof ks);
  sodium_memzero(st, sizeof st);
  sodium_memzero(&ps, sizeof ps);
  if (outlen_p != NULL) *outlen_p = ABYTES + mlen;
  return 0;
}

int nat_secretstream_xchacha20poly1305_pull(crypto_secretstream_xchacha20poly1305_state *state,
                                                   unsigned char *m, unsigned long long *mlen_p,
                                                   unsigned char *tag_p, const unsigned char *in,
                                                   unsigned long long inlen, const unsigned char *ad,
                                                   unsigned long long adlen) {
  unsigned char ks[64 * (2 + SMALL / 64)], mac[16];
  uint32_t st[16];
  nat_poly1305_state ps;

  if (inlen >= ABYTES && inlen - ABYTES > crypto_secretstream_xchacha20poly1305_MESSAGEBYTES_MAX) {
    return crypto_secretstream_xchacha20poly1305_pull(state, m, mlen_p, tag_p, in, inlen, ad,
                                                      adlen);
  }
  if (mlen_p != NULL) *mlen_p = 0;
  if (tag_p != NULL) *tag_p = 0xff;
  if (inlen < ABYTES) return -1;
  const size_t n = (size_t) (inlen - ABYTES);
  const unsigned char *c = in + 1;
  const size_t in_ks = begin(st, ks, &ps, state, n, ad, (size_t) adlen);
  const unsigned char tag = ks[64] ^ in[0];
  ks[64] = in[0];
  nat_poly1305_update(&ps, ks + 64, 64);
  nat_poly1305_update(&ps, c, n);
  finish(&ps, n, (size_t) adlen, mac);
  int ret = 0;
  if (sodium_memcmp(mac, c + n, sizeof mac) != 0) {
    ret = -1;
  } else {
    if (in_ks == n) {
      xor_bytes(m, c, ks + 128, n);
    } else {
      nat_chacha20_xor(st, m, c, n, 0);
    }
    advance(state, mac, tag);
    if (mlen_p != NULL) *mlen_p = n;
    if (tag_p != NULL) *tag_p = tag;
  }
  sodium_memzero(ks, sizeof ks);
  sodium_memzero(st, sizeof st);
  sodium_memzero(&ps, sizeof ps);
  sodium_memzero(mac, sizeof mac);
  return ret;
}

/* SHA-3, SHAKE and TurboSHAKE on libsodium 1.0.22's states: see sha3.h.
 *
 * The sponge (FIPS 202 section 4) follows libsodium's hash_sha3.c and <name>_ref.c step for
 * step, so that states stay byte-identical to libsodium's, but hands whole blocks to the Keccak
 * kernel (keccak.h) straight from the input, and the one-shot functions absorb their last block
 * together with the padding, in one kernel call. */
#include <stdint.h>
#include <string.h>

#include "keccak.h"
#include "sha3.h"

#define PHASE_ABSORBING 0
#define PHASE_DONE 1 /* SHA-3: finalized; XOFs: squeezing */
#define SHA3_DOMAIN 0x06
#define MAX_RATE 168

typedef struct {
  crypto_core_keccak1600_state keccak;
  size_t offset;
  size_t rate;
  size_t outlen;
  uint8_t phase;
} sha3_state;

typedef struct {
  crypto_core_keccak1600_state keccak;
  size_t offset;
  uint8_t phase;
  unsigned char domain;
} xof_state;

/* src/hash.c's state checks read offset right after the Keccak state, as libsodium lays it out. */
_Static_assert(offsetof(sha3_state, offset) == sizeof(crypto_core_keccak1600_state), "offset");
_Static_assert(offsetof(sha3_state, phase) == sizeof(crypto_core_keccak1600_state) +
                                                3 * sizeof(size_t), "sha3 phase");
_Static_assert(offsetof(xof_state, phase) == sizeof(crypto_core_keccak1600_state) + sizeof(size_t),
               "xof phase");
_Static_assert(sizeof(sha3_state) <= sizeof(crypto_hash_sha3256_state), "sha3 state size");
_Static_assert(sizeof(sha3_state) <= sizeof(crypto_hash_sha3512_state), "sha3 state size");
_Static_assert(sizeof(xof_state) <= sizeof(crypto_xof_shake128_state), "xof state size");
_Static_assert(sizeof(xof_state) <= sizeof(crypto_xof_shake256_state), "xof state size");
_Static_assert(sizeof(xof_state) <= sizeof(crypto_xof_turboshake128_state), "xof state size");
_Static_assert(sizeof(xof_state) <= sizeof(crypto_xof_turboshake256_state), "xof state size");

static void xor_bytes(unsigned char *st, size_t offset, const unsigned char *in, size_t len) {
  for (size_t i = 0; i < len; i++) st[offset + i] ^= in[i];
}

/* libsodium's update: a full block waits, unpermuted, at offset == rate until more input (or
 * the final) comes. Here: top up a partial block; then every whole block but the input's last
 * block (which may be whole) goes to the kernel; the rest is xored in and waits. */
static int sponge_update(unsigned char st[200], size_t *offset, uint8_t *phase, size_t rate,
                         unsigned int rounds, const unsigned char *in, size_t inlen) {
  int ret = 0;

  if (*phase != PHASE_ABSORBING) {
    nat_keccak_permute(st, rounds);
    *phase = PHASE_ABSORBING;
    *offset = 0;
    ret = -1;
  }
  if (inlen == 0) return ret;
  if (*offset == rate) {
    nat_keccak_permute(st, rounds);
    *offset = 0;
  }
  if (*offset > 0) {
    const size_t fill = rate - *offset;
    if (inlen <= fill) {
      xor_bytes(st, *offset, in, inlen);
      *offset += inlen;
      return ret;
    }
    xor_bytes(st, *offset, in, fill);
    in += fill;
    inlen -= fill;
    nat_keccak_permute(st, rounds);
  }
  const size_t blocks = (inlen - 1) / rate;
  nat_keccak_absorb(st, in, blocks, rate, rounds);
  in += blocks * rate;
  inlen -= blocks * rate; /* 1..rate */
  xor_bytes(st, 0, in, inlen);
  *offset = inlen;
  return ret;
}

/* The padding (FIPS 202 section 5.1, with the domain bits: B.2), then the permutation. */
static void sponge_pad(unsigned char st[200], size_t offset, size_t rate, unsigned int rounds,
                       unsigned char domain) {
  if (offset == rate) {
    nat_keccak_permute(st, rounds);
    offset = 0;
  }
  st[offset] ^= domain;
  st[rate - 1] ^= 0x80;
  nat_keccak_permute(st, rounds);
}

/* From offset on, as libsodium squeezes: the next block is permuted only when it is needed. */
static void sponge_squeeze(unsigned char st[200], size_t *offset, size_t rate,
                           unsigned int rounds, unsigned char *out, size_t outlen) {
  while (outlen > 0) {
    if (*offset == rate) {
      nat_keccak_permute(st, rounds);
      *offset = 0;
    }
    const size_t n = outlen < rate - *offset ? outlen : rate - *offset;
    memcpy(out, st + *offset, n);
    *offset += n;
    out += n;
    outlen -= n;
  }
}

/* One shot: the whole blocks, then the tail with its padding as one more block. */
static void sponge_oneshot(unsigned char st[200], size_t rate, unsigned int rounds,
                           unsigned char domain, const unsigned char *in, size_t inlen) {
  unsigned char block[MAX_RATE];
  const size_t blocks = inlen / rate, tail = inlen % rate;

  memset(st, 0, 200);
  nat_keccak_absorb(st, in, blocks, rate, rounds);
  memset(block, 0, rate);
  if (tail > 0) memcpy(block, in + blocks * rate, tail);
  block[tail] ^= domain;
  block[rate - 1] ^= 0x80;
  nat_keccak_absorb(st, block, 1, rate, rounds);
  sodium_memzero(block, sizeof block);
}

/* SHA-3 (hash_sha3.c), with the rate and outlen the state holds. */
static int sha3_init(sha3_state *s, size_t rate, size_t outlen) {
  memset(s->keccak.opaque, 0, 200);
  s->offset = 0;
  s->rate = rate;
  s->outlen = outlen;
  s->phase = PHASE_ABSORBING;
  return 0;
}

static int sha3_update(sha3_state *s, const unsigned char *in, size_t inlen) {
  return sponge_update(s->keccak.opaque, &s->offset, &s->phase, s->rate, 24, in, inlen);
}

static int sha3_final(sha3_state *s, unsigned char *out) {
  int ret = 0;

  if (s->phase != PHASE_ABSORBING) {
    nat_keccak_permute(s->keccak.opaque, 24);
    ret = -1;
  } else {
    sponge_pad(s->keccak.opaque, s->offset, s->rate, 24, SHA3_DOMAIN);
  }
  memcpy(out, s->keccak.opaque, s->outlen);
  s->offset = 0;
  s->phase = PHASE_DONE;
  return ret;
}

static int sha3_oneshot(unsigned char *out, size_t outlen, size_t rate, const unsigned char *in,
                        size_t inlen) {
  crypto_core_keccak1600_state st;

  sponge_oneshot(st.opaque, rate, 24, SHA3_DOMAIN, in, inlen);
  memcpy(out, st.opaque, outlen);
  sodium_memzero(&st, sizeof st);
  return 0;
}

int nat_sha3256_init(crypto_hash_sha3256_state *state) {
  return sha3_init((sha3_state *) (void *) state, 136, crypto_hash_sha3256_BYTES);
}

int nat_sha3256_update(crypto_hash_sha3256_state *state, const unsigned char *in, size_t inlen) {
  return sha3_update((sha3_state *) (void *) state, in, inlen);
}

int nat_sha3256_final(crypto_hash_sha3256_state *state, unsigned char *out) {
  return sha3_final((sha3_state *) (void *) state, out);
}

int nat_sha3256(unsigned char *out, const unsigned char *in, size_t inlen) {
  return sha3_oneshot(out, crypto_hash_sha3256_BYTES, 136, in, inlen);
}

int nat_sha3512_init(crypto_hash_sha3512_state *state) {
  return sha3_init((sha3_state *) (void *) state, 72, crypto_hash_sha3512_BYTES);
}

int nat_sha3512_update(crypto_hash_sha3512_state *state, const unsigned char *in, size_t inlen) {
  return sha3_update((sha3_state *) (void *) state, in, inlen);
}

int nat_sha3512_final(crypto_hash_sha3512_state *state, unsigned char *out) {
  return sha3_final((sha3_state *) (void *) state, out);
}

int nat_sha3512(unsigned char *out, const unsigned char *in, size_t inlen) {
  return sha3_oneshot(out, crypto_hash_sha3512_BYTES, 72, in, inlen);
}

/* The XOFs (<name>_ref.c): the rate and the rounds are the function's, the domain the state's. */
static int xof_init(xof_state *s, unsigned char domain) {
  memset(s->keccak.opaque, 0, 200);
  s->offset = 0;
  s->phase = PHASE_ABSORBING;
  s->domain = domain;
  return 0;
}

static int xof_update(xof_state *s, size_t rate, unsigned int rounds, const unsigned char *in,
                      size_t inlen) {
  return sponge_update(s->keccak.opaque, &s->offset, &s->phase, rate, rounds, in, inlen);
}

static int xof_squeeze(xof_state *s, size_t rate, unsigned int rounds, unsigned char *out,
                       size_t outlen) {
  if (s->phase == PHASE_ABSORBING) {
    sponge_pad(s->keccak.opaque, s->offset, rate, rounds, s->domain);
    s->offset = 0;
    s->phase = PHASE_DONE;
  }
  sponge_squeeze(s->keccak.opaque, &s->offset, rate, rounds, out, outlen);
  return 0;
}

static int xof_oneshot(unsigned char *out, size_t outlen, size_t rate, unsigned int rounds,
                       unsigned char domain, const unsigned char *in, size_t inlen) {
  crypto_core_keccak1600_state st;
  size_t offset = 0;

  sponge_oneshot(st.opaque, rate, rounds, domain, in, inlen);
  sponge_squeeze(st.opaque, &offset, rate, rounds, out, outlen);
  sodium_memzero(&st, sizeof st);
  return 0;
}

int nat_shake128(unsigned char *out, size_t outlen, const unsigned char *in, size_t inlen) {
  return xof_oneshot(out, outlen, crypto_xof_shake128_BLOCKBYTES, 24,
                     crypto_xof_shake128_DOMAIN_STANDARD, in, inlen);
}

int nat_shake128_init(crypto_xof_shake128_state *state) {
  return xof_init((xof_state *) (void *) state, crypto_xof_shake128_DOMAIN_STANDARD);
}

int nat_shake128_init_with_domain(crypto_xof_shake128_state *state, unsigned char domain) {
  return xof_init((xof_state *) (void *) state, domain);
}

int nat_shake128_update(crypto_xof_shake128_state *state, const unsigned char *in, size_t inlen) {
  return xof_update((xof_state *) (void *) state, crypto_xof_shake128_BLOCKBYTES, 24, in, inlen);
}

int nat_shake128_squeeze(crypto_xof_shake128_state *state, unsigned char *out, size_t outlen) {
  return xof_squeeze((xof_state *) (void *) state, crypto_xof_shake128_BLOCKBYTES, 24, out,
                     outlen);
}

int nat_shake256(unsigned char *out, size_t outlen, const unsigned char *in, size_t inlen) {
  return xof_oneshot(out, outlen, crypto_xof_shake256_BLOCKBYTES, 24,
                     crypto_xof_shake256_DOMAIN_STANDARD, in, inlen);
}

int nat_shake256_init(crypto_xof_shake256_state *state) {
  return xof_init((xof_state *) (void *) state, crypto_xof_shake256_DOMAIN_STANDARD);
}

int nat_shake256_init_with_domain(crypto_xof_shake256_state *state, unsigned char domain) {
  return xof_init((xof_state *) (void *) state, domain);
}

int nat_shake256_update(crypto_xof_shake256_state *state, const unsigned char *in, size_t inlen) {
  return xof_update((xof_state *) (void *) state, crypto_xof_shake256_BLOCKBYTES, 24, in, inlen);
}

int nat_shake256_squeeze(crypto_xof_shake256_state *state, unsigned char *out, size_t outlen) {
  return xof_squeeze((xof_state *) (void *) state, crypto_xof_shake256_BLOCKBYTES, 24, out,
                     outlen);
}

int nat_turboshake128(unsigned char *out, size_t outlen, const unsigned char *in, size_t inlen) {
  return xof_oneshot(out, outlen, crypto_xof_turboshake128_BLOCKBYTES, 12,
                     crypto_xof_turboshake128_DOMAIN_STANDARD, in, inlen);
}

int nat_turboshake128_init(crypto_xof_turboshake128_state *state) {
  return xof_init((xof_state *) (void *) state, crypto_xof_turboshake128_DOMAIN_STANDARD);
}

int nat_turboshake128_init_with_domain(crypto_xof_turboshake128_state *state,
                                       unsigned char domain) {
  return xof_init((xof_state *) (void *) state, domain);
}

int nat_turboshake128_update(crypto_xof_turboshake128_state *state, const unsigned char *in,
                             size_t inlen) {
  return xof_update((xof_state *) (void *) state, crypto_xof_turboshake128_BLOCKBYTES, 12, in,
                    inlen);
}

int nat_turboshake128_squeeze(crypto_xof_turboshake128_state *state, unsigned char *out,
                              size_t outlen) {
  return xof_squeeze((xof_state *) (void *) state, crypto_xof_turboshake128_BLOCKBYTES, 12, out,
                     outlen);
}

int nat_turboshake256(unsigned char *out, size_t outlen, const unsigned char *in, size_t inlen) {
  return xof_oneshot(out, outlen, crypto_xof_turboshake256_BLOCKBYTES, 12,
                     crypto_xof_turboshake256_DOMAIN_STANDARD, in, inlen);
}

int nat_turboshake256_init(crypto_xof_turboshake256_state *state) {
  return xof_init((xof_state *) (void *) state, crypto_xof_turboshake256_DOMAIN_STANDARD);
}

int nat_turboshake256_init_with_domain(crypto_xof_turboshake256_state *state,
                                       unsigned char domain) {
  return xof_init((xof_state *) (void *) state, domain);
}

int nat_turboshake256_update(crypto_xof_turboshake256_state *state, const unsigned char *in,
                             size_t inlen) {
  return xof_update((xof_state *) (void *) state, crypto_xof_turboshake256_BLOCKBYTES, 12, in,
                    inlen);
}

int nat_turboshake256_squeeze(crypto_xof_turboshake256_state *state, unsigned char *out,
                              size_t outlen) {
  return xof_squeeze((xof_state *) (void *) state, crypto_xof_turboshake256_BLOCKBYTES, 12, out,
                     outlen);
}

/*
 * The C ceiling: the benchmark's operations called straight from C on the same libsodium build
 * as the addon (deps/out/native), so the tables show how close a binding comes to pure C.
 *
 * usage: ceiling SECONDS MIN_SAMPLES < cases
 * Each input line is "<id> <op> [a] [b] [c]"; each case prints one JSON line on stdout:
 *   {"id":..., "hz":..., "rme":..., "samples":..., "digest":"<BLAKE2b-256 of the output>"}
 * or {"id":..., "check":"<why a random output is unsound>"} or {"id":..., "error":"..."}.
 * Inputs come from fill(), identical to bench/inputs.js, so the JS side checks the digest
 * against its reference answer. Operations with random outputs check themselves instead.
 * Timing follows Benchmark.js: samples of a calibrated number of calls until SECONDS have passed
 * and at least MIN_SAMPLES were taken (fewer for calls of 0.1 s or more, as bench/runner.js does
 * for password hashing); rme is the 95 % margin of error of the mean, in percent.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

enum { T_MSG = 1, T_KEY = 2, T_NONCE = 3, T_SEED = 4, T_SEED_B = 5, T_PW = 6, T_SALT = 7, T_ENC = 8 };

static void fill(unsigned char *b, size_t n, unsigned tag) {
  for (size_t i = 0; i < n; i++) b[i] = (unsigned char) (i * 131u + tag * 29u + 7u);
}

/* One case's state: inputs, output, parameters. Sized for the largest (ML-KEM-768 keys). */
static struct {
  unsigned char *m, *c, *out;
  size_t mlen, clen, outlen;
  unsigned char key[32], nonce[24], seed[64], sk_a[32], pk_b[32], sig[64];
  unsigned char pk[crypto_kem_mlkem768_PUBLICKEYBYTES], sk[crypto_kem_mlkem768_SECRETKEYBYTES];
  unsigned char ct[crypto_kem_mlkem768_CIPHERTEXTBYTES], ss[crypto_kem_mlkem768_SHAREDSECRETBYTES];
  unsigned long long a, b, c3;
} s;

static volatile unsigned char sink;

typedef int (*aead_enc_fn)(unsigned char *, unsigned long long *, const unsigned char *,
                           unsigned long long, const unsigned char *, unsigned long long,
                           const unsigned char *, const unsigned char *, const unsigned char *);
typedef int (*aead_dec_fn)(unsigned char *, unsigned long long *, unsigned char *,
                           const unsigned char *, unsigned long long, const unsigned char *,
                           unsigned long long, const unsigned char *, const unsigned char *);
static aead_enc_fn aead_enc;
static aead_dec_fn aead_dec;

static void alloc_buffers(size_t mlen, size_t clen, size_t outlen) {
  s.mlen = mlen;
  s.clen = clen;
  s.outlen = outlen;
  s.m = malloc(mlen ? mlen : 1);
  s.c = malloc(clen ? clen : 1);
  s.out = calloc(1, outlen ? outlen : 1);
  if (!s.m || !s.c || !s.out) {
    fputs("ceiling: out of memory\n", stderr);
    exit(1);
  }
  fill(s.m, mlen, T_MSG);
  fill(s.key, sizeof s.key, T_KEY);
  fill(s.nonce, sizeof s.nonce, T_NONCE);
}

static void free_buffers(void) {
  free(s.m);
  free(s.c);
  free(s.out);
  s.m = s.c = s.out = NULL;
}

/* ---- setup (returns NULL or why the case cannot run), run (one timed call), check ---- */

static const char *setup_keypair(void) { alloc_buffers(0, 0, 64); return NULL; }
static void run_keypair(void) { crypto_sign_keypair(s.pk, s.out); }
static const char *check_keypair(void) {
  unsigned char pk[32], sk[64], first[64];
  run_keypair();
  memcpy(first, s.out, 64);
  crypto_sign_seed_keypair(pk, sk, s.out);
  if (memcmp(pk, s.pk, 32) != 0 || memcmp(sk, s.out, 64) != 0) return "public key does not match the secret key";
  run_keypair();
  return memcmp(first, s.out, 64) != 0 ? NULL : "two key pairs came out equal";
}

static const char *setup_sign(void) {
  alloc_buffers(s.a, 0, 64);
  fill(s.seed, 32, T_SEED);
  crypto_sign_seed_keypair(s.pk, s.sk, s.seed);
  return NULL;
}
static void run_sign(void) { crypto_sign_detached(s.out, NULL, s.m, s.mlen, s.sk); }

static const char *setup_verify(void) {
  setup_sign();
  s.outlen = 1;
  crypto_sign_detached(s.sig, NULL, s.m, s.mlen, s.sk);
  return NULL;
}
static void run_verify(void) { s.out[0] = crypto_sign_verify_detached(s.sig, s.m, s.mlen, s.pk) == 0; }

static const char *setup_random(void) { alloc_buffers(0, 0, s.a ? s.a : 32); return NULL; }
static void run_random(void) { randombytes_buf(s.out, s.outlen); }
static void run_aead_keygen(void) { crypto_aead_xchacha20poly1305_ietf_keygen(s.out); }
static const char *check_fresh(void (*run)(void)) {
  unsigned char first[64];
  run();
  memcpy(first, s.out, s.outlen);
  if (sodium_is_zero(first, s.outlen)) return "output is all zero";
  run();
  return memcmp(first, s.out, s.outlen) != 0 ? NULL : "two calls gave the same bytes";
}
static const char *check_random(void) { return check_fresh(run_random); }
static const char *check_aead_keygen(void) { return check_fresh(run_aead_keygen); }

static const char *pick_aead(const char *op) {
  if (strncmp(op, "xchacha20poly1305_", 18) == 0) {
    aead_enc = crypto_aead_xchacha20poly1305_ietf_encrypt;
    aead_dec = crypto_aead_xchacha20poly1305_ietf_decrypt;
  } else if (strncmp(op, "chacha20poly1305_", 17) == 0) {
    aead_enc = crypto_aead_chacha20poly1305_ietf_encrypt;
    aead_dec = crypto_aead_chacha20poly1305_ietf_decrypt;
  } else {
    if (!crypto_aead_aes256gcm_is_available()) return "no AES-NI on this CPU";
    aead_enc = crypto_aead_aes256gcm_encrypt;
    aead_dec = crypto_aead_aes256gcm_decrypt;
  }
  return NULL;
}
static const char *setup_encrypt(void) { alloc_buffers(s.a, 0, s.a + 16); return NULL; }
static void run_encrypt(void) { aead_enc(s.out, NULL, s.m, s.mlen, NULL, 0, NULL, s.nonce, s.key); }
static const char *setup_decrypt(void) {
  alloc_buffers(s.a, s.a + 16, s.a);
  aead_enc(s.c, NULL, s.m, s.mlen, NULL, 0, NULL, s.nonce, s.key);
  return NULL;
}
static void run_decrypt(void) {
  if (aead_dec(s.out, NULL, NULL, s.c, s.clen, NULL, 0, s.nonce, s.key) != 0) s.out[0] ^= 1;
}

static const char *setup_dh(void) {
  alloc_buffers(s.a, s.a + 16, s.a > 32 ? s.a + 16 : 32);
  fill(s.sk_a, 32, T_SEED);
  fill(s.seed, 32, T_SEED_B);
  return crypto_scalarmult_base(s.pk_b, s.seed) == 0 ? NULL : "crypto_scalarmult_base failed";
}
static void run_x25519(void) { if (crypto_scalarmult(s.out, s.sk_a, s.pk_b) != 0) s.out[0] ^= 1; }
static void run_beforenm(void) { if (crypto_box_beforenm(s.out, s.pk_b, s.sk_a) != 0) s.out[0] ^= 1; }
static const char *setup_secretbox(void) { setup_dh(); s.outlen = s.mlen + 16; return NULL; }
static void run_secretbox(void) { crypto_secretbox_easy(s.out, s.m, s.mlen, s.nonce, s.key); }
static const char *setup_secretbox_open(void) {
  setup_dh();
  s.outlen = s.mlen;
  crypto_secretbox_easy(s.c, s.m, s.mlen, s.nonce, s.key);
  return NULL;
}
static void run_secretbox_open(void) {
  if (crypto_secretbox_open_easy(s.out, s.c, s.clen, s.nonce, s.key) != 0) s.out[0] ^= 1;
}
static const char *setup_box(void) { setup_dh(); s.outlen = s.mlen + 16; return NULL; }
static void run_box(void) {
  if (crypto_box_easy(s.out, s.m, s.mlen, s.nonce, s.pk_b, s.sk_a) != 0) s.out[0] ^= 1;
}
static const char *setup_box_open(void) {
  setup_dh();
  s.outlen = s.mlen;
  return crypto_box_easy(s.c, s.m, s.mlen, s.nonce, s.pk_b, s.sk_a) == 0 ? NULL : "crypto_box_easy failed";
}
static void run_box_open(void) {
  if (crypto_box_open_easy(s.out, s.c, s.clen, s.nonce, s.pk_b, s.sk_a) != 0) s.out[0] ^= 1;
}

static const char *setup_hash32(void) { alloc_buffers(s.a, 0, 32); return NULL; }
static const char *setup_hash64(void) { alloc_buffers(s.a, 0, 64); return NULL; }
static void run_sha256(void) { crypto_hash_sha256(s.out, s.m, s.mlen); }
static void run_sha512(void) { crypto_hash_sha512(s.out, s.m, s.mlen); }
static void run_sha3_256(void) { crypto_hash_sha3256(s.out, s.m, s.mlen); }
static void run_sha3_512(void) { crypto_hash_sha3512(s.out, s.m, s.mlen); }
static void run_blake2b_256(void) { crypto_generichash(s.out, 32, s.m, s.mlen, NULL, 0); }
static void run_blake2b_512(void) { crypto_generichash(s.out, 64, s.m, s.mlen, NULL, 0); }
static void run_shake128(void) { crypto_xof_shake128(s.out, 32, s.m, s.mlen); }
static void run_shake256(void) { crypto_xof_shake256(s.out, 64, s.m, s.mlen); }
static void run_turboshake128(void) { crypto_xof_turboshake128(s.out, 32, s.m, s.mlen); }
static void run_turboshake256(void) { crypto_xof_turboshake256(s.out, 64, s.m, s.mlen); }
static void run_hmac_sha256(void) { crypto_auth_hmacsha256(s.out, s.m, s.mlen, s.key); }

/* password hashing: m = password (16 bytes), c = salt */
static const char *setup_pwhash(size_t saltlen) {
  alloc_buffers(16, saltlen, 32);
  fill(s.m, 16, T_PW);
  fill(s.c, saltlen, T_SALT);
  return NULL;
}
static const char *setup_scrypt(void) { return setup_pwhash(32); }
static void run_scrypt(void) {
  if (crypto_pwhash_scryptsalsa208sha256_ll(s.m, 16, s.c, 32, s.a, (uint32_t) s.b, (uint32_t) s.c3, s.out, 32) != 0)
    s.out[0] ^= 1;
}
static const char *setup_argon2id(void) { return setup_pwhash(16); }
static void run_argon2id(void) {
  if (crypto_pwhash(s.out, 32, (const char *) s.m, 16, s.c, s.a, (size_t) s.b, crypto_pwhash_ALG_ARGON2ID13) != 0)
    s.out[0] ^= 1;
}

static const char *setup_kem(void) {
  alloc_buffers(0, 0, 32);
  fill(s.seed, 64, T_SEED);
  crypto_kem_mlkem768_seed_keypair(s.pk, s.sk, s.seed);
  return NULL;
}
static void run_kem_keypair(void) { crypto_kem_mlkem768_keypair(s.pk, s.sk); }
static const char *check_kem_keypair(void) {
  unsigned char ct[crypto_kem_mlkem768_CIPHERTEXTBYTES], ss[32], back[32], first[32];
  for (int i = 0; i < 2; i++) {
    run_kem_keypair();
    if (crypto_kem_mlkem768_enc(ct, ss, s.pk) != 0 || crypto_kem_mlkem768_dec(back, ct, s.sk) != 0 ||
        memcmp(ss, back, 32) != 0)
      return "the key pair does not decapsulate what its public key encapsulates";
    if (i == 0) memcpy(first, s.pk, 32);
  }
  return memcmp(first, s.pk, 32) != 0 ? NULL : "two key pairs came out equal";
}
static void run_kem_enc(void) { if (crypto_kem_mlkem768_enc(s.ct, s.out, s.pk) != 0) s.out[0] ^= 1; }
static const char *check_kem_enc(void) {
  unsigned char back[32];
  run_kem_enc();
  if (crypto_kem_mlkem768_dec(back, s.ct, s.sk) != 0 || memcmp(back, s.out, 32) != 0)
    return "decapsulation gives another shared secret";
  return NULL;
}
static const char *setup_kem_dec(void) {
  unsigned char coins[32];
  setup_kem();
  fill(coins, 32, T_ENC);
  return crypto_kem_mlkem768_enc_deterministic(s.ct, s.ss, s.pk, coins) == 0 ? NULL : "encapsulation failed";
}
static void run_kem_dec(void) { if (crypto_kem_mlkem768_dec(s.out, s.ct, s.sk) != 0) s.out[0] ^= 1; }

typedef struct {
  const char *name;
  const char *(*setup)(void);
  void (*run)(void);
  const char *(*check)(void); /* random outputs only; the rest are checked by digest */
} op_t;

static const op_t OPS[] = {
  { "ed25519_keypair", setup_keypair, run_keypair, check_keypair },
  { "ed25519_sign", setup_sign, run_sign, NULL },
  { "ed25519_verify", setup_verify, run_verify, NULL },
  { "xchacha20poly1305_keygen", setup_random, run_aead_keygen, check_aead_keygen },
  { "xchacha20poly1305_encrypt", setup_encrypt, run_encrypt, NULL },
  { "xchacha20poly1305_decrypt", setup_decrypt, run_decrypt, NULL },
  { "chacha20poly1305_encrypt", setup_encrypt, run_encrypt, NULL },
  { "chacha20poly1305_decrypt", setup_decrypt, run_decrypt, NULL },
  { "aes256gcm_encrypt", setup_encrypt, run_encrypt, NULL },
  { "aes256gcm_decrypt", setup_decrypt, run_decrypt, NULL },
  { "x25519", setup_dh, run_x25519, NULL },
  { "box_beforenm", setup_dh, run_beforenm, NULL },
  { "secretbox_easy", setup_secretbox, run_secretbox, NULL },
  { "secretbox_open", setup_secretbox_open, run_secretbox_open, NULL },
  { "box_easy", setup_box, run_box, NULL },
  { "box_open", setup_box_open, run_box_open, NULL },
  { "randombytes", setup_random, run_random, check_random },
  { "sha256", setup_hash32, run_sha256, NULL },
  { "sha512", setup_hash64, run_sha512, NULL },
  { "sha3_256", setup_hash32, run_sha3_256, NULL },
  { "sha3_512", setup_hash64, run_sha3_512, NULL },
  { "blake2b_256", setup_hash32, run_blake2b_256, NULL },
  { "blake2b_512", setup_hash64, run_blake2b_512, NULL },
  { "shake128", setup_hash32, run_shake128, NULL },
  { "shake256", setup_hash64, run_shake256, NULL },
  { "turboshake128", setup_hash32, run_turboshake128, NULL },
  { "turboshake256", setup_hash64, run_turboshake256, NULL },
  { "hmac_sha256", setup_hash32, run_hmac_sha256, NULL },
  { "scrypt", setup_scrypt, run_scrypt, NULL },
  { "argon2id", setup_argon2id, run_argon2id, NULL },
  { "mlkem768_keypair", setup_kem, run_kem_keypair, check_kem_keypair },
  { "mlkem768_enc", setup_kem, run_kem_enc, check_kem_enc },
  { "mlkem768_dec", setup_kem_dec, run_kem_dec, NULL },
};

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double) t.tv_sec + (double) t.tv_nsec * 1e-9;
}

/* Student's t, two-sided 95 %, by degrees of freedom (the table Benchmark.js uses) */
static double t95(int df) {
  static const double T[] = { 0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                              2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086,
                              2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042 };
  return df < 1 ? T[1] : df <= 30 ? T[df] : 1.96;
}

#define MAX_SAMPLES 2000

static void measure(const op_t *op, double seconds, int min_samples, double *hz, double *rme, int *n) {
  static double period[MAX_SAMPLES];
  const double target = seconds / 20 > 0.001 ? seconds / 20 : 0.001;
  unsigned long iters = 1;
  double dt;
  *n = 0;
  for (;;) { /* calibrate (and warm up): calls per sample so one sample takes ~target */
    double t0 = now();
    for (unsigned long i = 0; i < iters; i++) op->run();
    dt = now() - t0;
    if (dt >= target || iters >= (1ul << 30)) break;
    iters = dt > 0 ? (unsigned long) ((double) iters * target / dt * 1.05) + 1 : iters * 10;
  }
  if (iters == 1 && dt >= 0.1) {
    /* calls of a tenth of a second or more (password hashing): the rule of bench/runner.js,
       and the calibrating call counts as the first sample */
    int heavy = dt < 1 ? 5 : dt < 3 ? 4 : dt < 10 ? 3 : dt < 30 ? 2 : 1;
    if (min_samples > heavy) min_samples = heavy;
    period[(*n)++] = dt;
  }
  double start = now() - (*n ? dt : 0), sum = *n ? period[0] : 0; /* a counted call counts towards SECONDS too */
  while (*n < MAX_SAMPLES && (*n < min_samples || now() - start < seconds)) {
    double t0 = now();
    for (unsigned long i = 0; i < iters; i++) op->run();
    period[*n] = (now() - t0) / (double) iters;
    sum += period[(*n)++];
    sink ^= s.out[0];
  }
  double mean = sum / *n, var = 0;
  for (int i = 0; i < *n; i++) var += (period[i] - mean) * (period[i] - mean);
  var = *n > 1 ? var / (*n - 1) : 0;
  *hz = 1 / mean;
  *rme = *n > 1 ? sqrt(var / *n) * t95(*n - 1) / mean * 100 : -1; /* -1: one sample, no margin */
}

int main(int argc, char **argv) {
  double seconds = argc > 1 ? atof(argv[1]) : 0.5;
  int min_samples = argc > 2 ? atoi(argv[2]) : 5;
  char line[256], id[64], name[64];

  if (sodium_init() < 0) {
    fputs("ceiling: sodium_init failed\n", stderr);
    return 1;
  }
  while (fgets(line, sizeof line, stdin)) {
    const op_t *op = NULL;
    s.a = s.b = s.c3 = 0;
    if (sscanf(line, "%63s %63s %llu %llu %llu", id, name, &s.a, &s.b, &s.c3) < 2) continue;
    for (size_t i = 0; i < sizeof OPS / sizeof OPS[0]; i++)
      if (strcmp(OPS[i].name, name) == 0) op = &OPS[i];
    if (!op) {
      printf("{\"id\":\"%s\",\"error\":\"unknown operation %s\"}\n", id, name);
      fflush(stdout);
      continue;
    }
    const char *why = strstr(name, "poly1305_") || strstr(name, "gcm_") ? pick_aead(name) : NULL;
    if (!why) why = op->setup();
    if (why) {
      printf("{\"id\":\"%s\",\"error\":\"%s\"}\n", id, why);
    } else if (op->check && (why = op->check()) != NULL) {
      printf("{\"id\":\"%s\",\"check\":\"%s\"}\n", id, why);
    } else {
      char hex[65] = "";
      if (!op->check) { /* the JS side compares this with its reference answer */
        unsigned char digest[32];
        op->run();
        crypto_generichash(digest, 32, s.out, s.outlen, NULL, 0);
        sodium_bin2hex(hex, sizeof hex, digest, 32);
      }
      double hz, rme;
      int n;
      measure(op, seconds, min_samples, &hz, &rme, &n);
      printf("{\"id\":\"%s\",\"hz\":%.6g,\"rme\":%.4g,\"samples\":%d,\"digest\":\"%s\"}\n", id, hz, rme, n, hex);
    }
    fflush(stdout);
    free_buffers();
  }
  return 0;
}

/* Which of libsodium's x86-64 code paths the Windows build (deps/out/win32) runs, under Wine
 * (test/build.test.js). The counterpart of the gdb breakpoints that the Linux build's test sets:
 * linked with -Wl,--wrap=<f> for each function below, every reference libsodium makes to <f>,
 * including the one that installs it in a dispatch pointer, goes to __wrap_<f>, which counts the
 * call and jumps on to the real code without touching a register, so the calls run as they would.
 * Prints libsodium's CPU detection, the calls counted, and outputs the test checks with node:crypto. */
#include <sodium.h>
#include <stdio.h>
#include <string.h>

unsigned long long hits_blake2b_compress_avx2;
unsigned long long hits_argon2_fill_segment_avx2;
unsigned long long hits_argon2_fill_segment_avx512f;

/* x86-64 Windows and System V alike: bump the counter, tail-jump, nothing else */
__asm__(".globl __wrap_blake2b_compress_avx2\n"
        "__wrap_blake2b_compress_avx2:\n"
        "  lock incq hits_blake2b_compress_avx2(%rip)\n"
        "  jmp __real_blake2b_compress_avx2\n"
        ".globl __wrap_argon2_fill_segment_avx2\n"
        "__wrap_argon2_fill_segment_avx2:\n"
        "  lock incq hits_argon2_fill_segment_avx2(%rip)\n"
        "  jmp __real_argon2_fill_segment_avx2\n"
        ".globl __wrap_argon2_fill_segment_avx512f\n"
        "__wrap_argon2_fill_segment_avx512f:\n"
        "  lock incq hits_argon2_fill_segment_avx512f(%rip)\n"
        "  jmp __real_argon2_fill_segment_avx512f\n");

static void print_hex(const char *name, const unsigned char *b, size_t len) {
  printf("%s ", name);
  for (size_t i = 0; i < len; i++) printf("%02x", b[i]);
  printf("\n");
}

int main(void) {
  unsigned char key[32], nonce[12], hash[64], pw_hash[32], salt[16] = {0};
  unsigned char m[1000], c[sizeof m + crypto_aead_aes256gcm_ABYTES];
  unsigned long long c_len = 0;

  if (sodium_init() < 0) return 1;
  for (size_t i = 0; i < sizeof key; i++) key[i] = (unsigned char) i;
  for (size_t i = 0; i < sizeof nonce; i++) nonce[i] = (unsigned char) (0xa0 + i);
  for (size_t i = 0; i < sizeof m; i++) m[i] = (unsigned char) (i * 7);

  printf("has_avx2 %d\nhas_avx512f %d\nhas_aesni %d\nhas_pclmul %d\naes256gcm_is_available %d\n",
         sodium_runtime_has_avx2(), sodium_runtime_has_avx512f(), sodium_runtime_has_aesni(),
         sodium_runtime_has_pclmul(), crypto_aead_aes256gcm_is_available());
  crypto_generichash(hash, sizeof hash, m, sizeof m, NULL, 0);
  if (crypto_pwhash(pw_hash, sizeof pw_hash, "password", 8, salt, 2, 1 << 20, crypto_pwhash_ALG_ARGON2ID13) != 0) return 1;
  if (crypto_aead_aes256gcm_is_available() &&
      crypto_aead_aes256gcm_encrypt(c, &c_len, m, sizeof m, NULL, 0, NULL, nonce, key) != 0) return 1;
  printf("blake2b_compress_avx2 %llu\nargon2_fill_segment_avx2 %llu\nargon2_fill_segment_avx512f %llu\n",
         hits_blake2b_compress_avx2, hits_argon2_fill_segment_avx2, hits_argon2_fill_segment_avx512f);
  print_hex("blake2b512", hash, sizeof hash);
  print_hex("argon2id", pw_hash, sizeof pw_hash);
  print_hex("aes256gcm", c, (size_t) c_len);
  return 0;
}

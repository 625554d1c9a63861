/* Keccak-f[1600]: the dispatcher (see keccak.h). It picks one implementation when the library is
 * loaded, before any thread can call in:
 *   x86-64 with BMI1 + BMI2   the scalar C compiled for them ("bmi2")
 *   everything else           the scalar C ("portable")
 * NATRIUM_DISABLE_SIMD set (and not "0") at load time keeps the portable code, as for SHA-2:
 * the tests run every path on a CPU that has the extensions.
 *
 * Why no SIMD Keccak: a 64-bit scalar round is ~130 single-cycle operations (theta 55, rho 24,
 * chi 50 with andn, iota 1), which x86-64 cores with 4 to 6 integer ALUs run at 27 TSC cycles a
 * round on Zen 4 (family 25): 650 cycles per permutation against 700 for OpenSSL 3.0's assembly
 * (node:crypto) and 960 for libsodium 1.0.22's reference code. One Keccak state in AVX-512
 * registers (a plane per register) needs per round about 20 lane permutations (theta's
 * neighbours, pi's transpose, chi's neighbours) and 6 rotations, all on the two shuffle/shift
 * pipes, which Zen 4 runs at half rate on 512-bit registers: by that count no faster than the
 * scalar code there. That is an estimate, not a measurement; a single-state AVX-512 Keccak
 * would pay where 512-bit shuffles run at full rate (Zen 5, Intel), and only there. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "keccak.h"

#ifdef NAT_KECCAK_X86
#include <cpuid.h>
#endif

static nat_keccak_permute_fn permute_impl = nat_keccak_permute_portable;
static nat_keccak_absorb_fn absorb_impl = nat_keccak_absorb_portable;
static const char *impl_name = "portable";

void nat_keccak_permute(unsigned char state[200], unsigned int rounds) {
  permute_impl(state, rounds);
}

void nat_keccak_absorb(unsigned char state[200], const unsigned char *in, size_t blocks,
                       size_t rate, unsigned int rounds) {
  absorb_impl(state, in, blocks, rate, rounds);
}

const char *nat_keccak_impl(void) {
  return impl_name;
}

#ifdef NAT_KECCAK_X86
/* CPUID leaf 7 EBX: bit 3 BMI1, bit 8 BMI2. */
static bool cpu_has_bmi1_bmi2(void) {
  unsigned int a, b = 0, c, d;

  if (__get_cpuid_max(0, NULL) < 7) return false;
  __cpuid_count(7, 0, a, b, c, d);
  return (b >> 3 & 1) && (b >> 8 & 1);
}

__attribute__((constructor)) static void nat_keccak_dispatch(void) {
  const char *off = getenv("NATRIUM_DISABLE_SIMD");

  if (off != NULL && off[0] != '\0' && strcmp(off, "0") != 0) return;
  if (cpu_has_bmi1_bmi2()) {
    permute_impl = nat_keccak_permute_bmi2;
    absorb_impl = nat_keccak_absorb_bmi2;
    impl_name = "bmi2";
  }
}
#endif

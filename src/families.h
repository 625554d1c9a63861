/* The list of family files (one per libsodium family, matching test/<family>.test.js). Both
 * src/init.c (native) and src/wasm.c (wasm) register exactly these tables. */
#ifndef NAT_FAMILIES_H
#define NAT_FAMILIES_H

#include "nat.h"

#define NAT_FAMILIES(X) \
  X(aead)               \
  X(auth)               \
  X(box)                \
  X(core)               \
  X(hash)               \
  X(ipcrypt)            \
  X(kdf)                \
  X(kem)                \
  X(pwhash)             \
  X(secretbox)          \
  X(sign)               \
  X(stream)             \
  X(utils)

#define NAT_DECLARE_FAMILY(f) extern const nat_family nat_family_##f;
NAT_FAMILIES(NAT_DECLARE_FAMILY)
#undef NAT_DECLARE_FAMILY

extern const nat_family *const nat_families[];
extern const size_t nat_families_count;

#endif

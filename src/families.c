#include "families.h"

#define NAT_FAMILY_REF(f) &nat_family_##f,
const nat_family *const nat_families[] = {NAT_FAMILIES(NAT_FAMILY_REF)};
#undef NAT_FAMILY_REF

const size_t nat_families_count = sizeof nat_families / sizeof nat_families[0];

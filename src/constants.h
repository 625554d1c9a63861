#ifndef NAT_CONSTANTS_H
#define NAT_CONSTANTS_H

#include <sodium.h>

typedef struct nat_constant {
  const char *name;
  unsigned long long number; /* when string is NULL */
  const char *string;
} nat_constant;

extern const nat_constant nat_constants[];
extern const size_t nat_constants_count;

#endif

/* sha2: our own C; lands with its fast path. */
#include "sha2.h"

typedef int nat_sha2_placeholder;

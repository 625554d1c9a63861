/* xchacha20poly1305: our own C; lands with its fast path. */
#include "xchacha20poly1305.h"

typedef int nat_xchacha20poly1305_placeholder;

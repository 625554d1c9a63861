/* tweak: our own C; lands with its family. */
#include "tweak.h"

typedef int nat_tweak_placeholder;

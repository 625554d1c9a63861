/* pbkdf2: our own C; lands with its family. */
#include "pbkdf2.h"

typedef int nat_pbkdf2_placeholder;

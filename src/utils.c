/* crypto_utils: placeholder until this family's bindings land. */
#include "nat.h"

static napi_value nat_utils_placeholder(napi_env env, napi_callback_info info) {
  (void) info;
  return nat_undefined(env);
}

NAT_FAMILY(utils, FN(utils_placeholder));

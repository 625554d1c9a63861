/* crypto_stream: placeholder until this family's bindings land. */
#include "nat.h"

static napi_value nat_stream_placeholder(napi_env env, napi_callback_info info) {
  (void) info;
  return nat_undefined(env);
}

NAT_FAMILY(stream, FN(stream_placeholder));

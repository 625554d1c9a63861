/* Module init for the native backend: sodium_init() once, then every family's export table and
 * every constant. Context-aware (NAPI_MODULE_INIT), so it loads in worker_threads too. */
#include "constants.h"
#include "families.h"
#include "nat.h"

static bool nat_set_constants(napi_env env, napi_value exports) {
  for (size_t i = 0; i < nat_constants_count; i++) {
    const nat_constant *c = &nat_constants[i];
    napi_value v;
    napi_status status;
    if (c->string != NULL) {
      status = napi_create_string_utf8(env, c->string, NAPI_AUTO_LENGTH, &v);
    } else {
      /* as sodium-native: values past 2^53 - 1 read as Number.MAX_SAFE_INTEGER */
      unsigned long long n = c->number > 9007199254740991ULL ? 9007199254740991ULL : c->number;
      status = napi_create_double(env, (double) n, &v);
    }
    if (status != napi_ok || napi_set_named_property(env, exports, c->name, v) != napi_ok) return false;
  }
  return true;
}

NAPI_MODULE_INIT() {
  /* sodium_init() is idempotent and thread-safe; every worker's init calls it. */
  if (sodium_init() < 0) {
    napi_throw_error(env, NULL, "sodium_init() failed");
    return NULL;
  }
  for (size_t i = 0; i < nat_families_count; i++) {
    if (napi_define_properties(env, exports, nat_families[i]->count, nat_families[i]->fns) != napi_ok) {
      napi_throw_error(env, NULL, "natrium: could not register exports");
      return NULL;
    }
  }
  if (!nat_set_constants(env, exports)) {
    napi_throw_error(env, NULL, "natrium: could not register constants");
    return NULL;
  }
  return exports;
}

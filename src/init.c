/* Module init for the native backend: sodium_init() once, then every family's export table and
 * every constant. Context-aware (NAPI_MODULE_INIT), so it loads in worker_threads too. */
#include <stdlib.h>

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

/* The built-ins nat_get_buf calls to tell an empty view from a detached or out-of-bounds one
 * (src/napi_args.c), captured at load so that code run later cannot replace them. */
static void nat_env_finalize(napi_env env, void *data, void *hint) {
  (void) hint;
  nat_env *e = data;
  /* a finalizer cannot throw */
  if (e->typedarray_index_of != NULL) (void) napi_delete_reference(env, e->typedarray_index_of);
  if (e->dataview_byte_length != NULL) (void) napi_delete_reference(env, e->dataview_byte_length);
  free(e);
}

static napi_value nat_get_path(napi_env env, napi_value from, const char *a, const char *b) {
  napi_value v = NULL;
  if (napi_get_named_property(env, from, a, &v) != napi_ok) return NULL;
  if (b != NULL && napi_get_named_property(env, v, b, &v) != napi_ok) return NULL;
  return v;
}

static bool nat_capture_builtins(napi_env env) {
  nat_env *e = calloc(1, sizeof *e);
  if (e == NULL) return false;
  if (napi_set_instance_data(env, e, nat_env_finalize, NULL) != napi_ok) {
    free(e);
    return false;
  }
  napi_value global, u8proto, typedarray_proto, index_of, dataview_proto, object, gopd, key, args[2],
    descriptor, byte_length;
  /* %TypedArray%.prototype.indexOf and the getter of DataView.prototype.byteLength */
  if (napi_get_global(env, &global) != napi_ok ||
      (u8proto = nat_get_path(env, global, "Uint8Array", "prototype")) == NULL ||
      napi_get_prototype(env, u8proto, &typedarray_proto) != napi_ok ||
      (index_of = nat_get_path(env, typedarray_proto, "indexOf", NULL)) == NULL ||
      napi_create_reference(env, index_of, 1, &e->typedarray_index_of) != napi_ok ||
      (dataview_proto = nat_get_path(env, global, "DataView", "prototype")) == NULL ||
      (object = nat_get_path(env, global, "Object", NULL)) == NULL ||
      (gopd = nat_get_path(env, object, "getOwnPropertyDescriptor", NULL)) == NULL ||
      napi_create_string_utf8(env, "byteLength", NAPI_AUTO_LENGTH, &key) != napi_ok) {
    return false;
  }
  args[0] = dataview_proto;
  args[1] = key;
  return napi_call_function(env, object, gopd, 2, args, &descriptor) == napi_ok &&
         (byte_length = nat_get_path(env, descriptor, "get", NULL)) != NULL &&
         napi_create_reference(env, byte_length, 1, &e->dataview_byte_length) == napi_ok;
}

/* A failed step throws natrium's message, unless Node-API already has an exception pending (then
 * napi_throw_error declines, and that exception is the one the require sees). */
NAPI_MODULE_INIT() {
  /* sodium_init() is idempotent and thread-safe; every worker's init calls it. */
  if (sodium_init() < 0) {
    (void) napi_throw_error(env, NULL, "sodium_init() failed");
    return NULL;
  }
  for (size_t i = 0; i < nat_families_count; i++) {
    if (napi_define_properties(env, exports, nat_families[i]->count, nat_families[i]->fns) != napi_ok) {
      (void) napi_throw_error(env, NULL, "natrium: could not register exports");
      return NULL;
    }
  }
  if (!nat_capture_builtins(env)) {
    (void) napi_throw_error(env, NULL, "natrium: could not capture the built-ins it checks views with");
    return NULL;
  }
  if (!nat_set_constants(env, exports)) {
    (void) napi_throw_error(env, NULL, "natrium: could not register constants");
    return NULL;
  }
  return exports;
}

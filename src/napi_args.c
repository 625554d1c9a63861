/* The Node-API side of the helpers in nat.h: reading the arguments (TypedArrays, numbers, null)
 * and throwing the errors users see. src/wasm.c implements the same functions for the wasm build;
 * the pure C both need (overlap and range tests, message texts) is src/nat_pure.h. (libsodium's
 * own sodium_* helpers are bound in src/utils.c.)
 *
 * Every Node-API status is checked, as Node's own NODE_API_CALL does: a call that fails throws
 * napi_get_last_error_info's text unless an exception is already pending (nat_throw_napi). The
 * statuses that answer a question about the argument (napi_invalid_arg: not a view;
 * napi_number_expected: not a number) become natrium's TypeErrors instead. */
#include "nat.h"


/* Zero-length views may have no backing store; libsodium still gets a valid pointer. */
static unsigned char nat_empty[1];

static napi_value nat_throw(napi_env env, napi_status (*thrower)(napi_env, const char *, const char *),
                            const char *name, const char *what) {
  char msg[NAT_MESSAGE_MAX];
  const char *parts[] = {name, " ", what};
  nat_message(msg, parts, 3);
  if (thrower(env, NULL, msg) != napi_ok) nat_throw_napi(env);
  return NULL;
}

napi_value nat_throw_type(napi_env env, const char *name, const char *what) {
  return nat_throw(env, napi_throw_type_error, name, what);
}

napi_value nat_throw_range(napi_env env, const char *name, const char *what) {
  return nat_throw(env, napi_throw_range_error, name, what);
}

napi_value nat_throw_error(napi_env env, const char *message) {
  if (napi_throw_error(env, NULL, message) != napi_ok) nat_throw_napi(env);
  return NULL;
}

napi_value nat_throw_refused(napi_env env, const char *message) {
  if (napi_throw_error(env, NAT_REFUSED_CODE, message) != napi_ok) nat_throw_napi(env);
  return NULL;
}

napi_value nat_throw_failed(napi_env env, const char *binding_name) {
  char msg[NAT_MESSAGE_MAX];
  const char *parts[] = {nat_libsodium_name(binding_name), " failed"};
  nat_message(msg, parts, 2);
  return nat_throw_refused(env, msg);
}

napi_value nat_throw_napi(napi_env env) {
  bool pending = false;
  if (napi_is_exception_pending(env, &pending) == napi_ok && pending) return NULL;
  const napi_extended_error_info *info = NULL;
  bool known = napi_get_last_error_info(env, &info) == napi_ok && info != NULL && info->error_message != NULL;
  /* nothing is left to report a failure of this throw with */
  (void) napi_throw_error(env, NULL, known ? info->error_message : "Node-API call failed");
  return NULL;
}

bool nat_get_args(napi_env env, napi_callback_info info, napi_value *argv, size_t n) {
  size_t argc = n;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok) {
    nat_throw_napi(env);
    return false;
  }
  /* napi_get_cb_info already fills missing arguments with undefined */
  return true;
}

/* A failed napi_typeof throws its own error; the caller's refusal then finds it pending. */
static bool nat_is_type(napi_env env, napi_value value, napi_valuetype type) {
  napi_valuetype t;
  if (napi_typeof(env, value, &t) != napi_ok) {
    nat_throw_napi(env);
    return false;
  }
  return t == type;
}

bool nat_is_null(napi_env env, napi_value value) { return nat_is_type(env, value, napi_null); }

bool nat_is_undefined(napi_env env, napi_value value) { return nat_is_type(env, value, napi_undefined); }

/* A view that reads as zero bytes is empty, or its ArrayBuffer was detached, or it lies outside a
 * resizable ArrayBuffer that shrank (V8 reads the last two as empty too). The built-ins captured
 * in src/init.c validate a view first and throw for either; a thrown exception is cleared here. */
typedef enum { NAT_VIEW_EMPTY, NAT_VIEW_DETACHED, NAT_VIEW_OUT_OF_BOUNDS } nat_view_state;

static nat_view_state nat_empty_view_state(napi_env env, napi_value value, bool is_typedarray) {
  napi_value ab = NULL;
  bool detached = false;
  if ((is_typedarray ? napi_get_typedarray_info(env, value, NULL, NULL, NULL, &ab, NULL)
                     : napi_get_dataview_info(env, value, NULL, NULL, &ab, NULL)) == napi_ok &&
      napi_is_detached_arraybuffer(env, ab, &detached) == napi_ok && detached) {
    return NAT_VIEW_DETACHED;
  }
  nat_env *e = NULL;
  napi_value fn, zero, result;
  if (napi_get_instance_data(env, (void **) &e) != napi_ok || e == NULL ||
      napi_get_reference_value(env, is_typedarray ? e->typedarray_index_of : e->dataview_byte_length,
                               &fn) != napi_ok ||
      napi_create_uint32(env, 0, &zero) != napi_ok) {
    return NAT_VIEW_EMPTY;
  }
  if (napi_call_function(env, value, fn, is_typedarray ? 1 : 0, &zero, &result) == napi_ok) return NAT_VIEW_EMPTY;
  /* the built-in threw (the view is out of bounds): that exception is replaced by ours */
  napi_value ignored;
  if (napi_get_and_clear_last_exception(env, &ignored) != napi_ok) return NAT_VIEW_EMPTY;
  return NAT_VIEW_OUT_OF_BOUNDS;
}

bool nat_get_buf(napi_env env, napi_value value, const char *name, bool optional, bool output,
                 unsigned char **data, size_t *len) {
  (void) output; /* only the wasm glue needs to know what to copy back */
  void *ptr;
  size_t length;
  /* napi_get_buffer_info takes any ArrayBufferView and gives its byte length directly: the
   * cheapest way through Node-API (napi_get_typedarray_info first works out the element type). */
  napi_status status = napi_get_buffer_info(env, value, &ptr, &length);
  if (status != napi_ok) {
    if (status != napi_invalid_arg) { /* not "value is no view": a failure of Node-API itself */
      nat_throw_napi(env);
      return false;
    }
    napi_valuetype t = napi_undefined;
    if (napi_typeof(env, value, &t) != napi_ok) {
      nat_throw_napi(env);
      return false;
    }
    if (optional && (t == napi_null || t == napi_undefined)) {
      *data = NULL;
      *len = 0;
      return true;
    }
    nat_throw_type(env, name, optional ? "must be a TypedArray or null" : "must be a TypedArray");
    return false;
  }
  if (length == 0) {
    bool is_typedarray = false;
    if (napi_is_typedarray(env, value, &is_typedarray) != napi_ok) {
      nat_throw_napi(env);
      return false;
    }
    switch (nat_empty_view_state(env, value, is_typedarray)) {
      case NAT_VIEW_DETACHED:
        nat_throw_type(env, name, "is detached");
        return false;
      case NAT_VIEW_OUT_OF_BOUNDS:
        nat_throw_type(env, name, "is out of bounds");
        return false;
      case NAT_VIEW_EMPTY:
        break;
    }
    ptr = nat_empty; /* an empty view may have no backing store */
  }
  *data = ptr;
  *len = length;
  return true;
}

bool nat_get_u64(napi_env env, napi_value value, const char *name, uint64_t lo, uint64_t hi,
                 uint64_t *out) {
  double d;
  napi_status status = napi_get_value_double(env, value, &d);
  if (status != napi_ok) {
    if (status == napi_number_expected) nat_throw_type(env, name, "must be a number");
    else nat_throw_napi(env);
    return false;
  }
  if (!nat_u64_in_range(d, lo, hi)) {
    char what[NAT_MESSAGE_MAX];
    nat_range_message(what, lo, hi);
    nat_throw_range(env, name, what);
    return false;
  }
  *out = (uint64_t) d;
  return true;
}

napi_value nat_undefined(napi_env env) {
  napi_value v;
  if (napi_get_undefined(env, &v) != napi_ok) return nat_throw_napi(env);
  return v;
}

napi_value nat_bool(napi_env env, bool value) {
  napi_value v;
  if (napi_get_boolean(env, value, &v) != napi_ok) return nat_throw_napi(env);
  return v;
}

napi_value nat_number(napi_env env, double value) {
  napi_value v;
  napi_status status = value >= 0 && value <= 4294967295.0 && value == (double) (uint32_t) value
                         ? napi_create_uint32(env, (uint32_t) value, &v)
                         : napi_create_double(env, value, &v);
  if (status != napi_ok) return nat_throw_napi(env);
  return v;
}

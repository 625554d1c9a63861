/* The wasm stand-in for Node-API (src/wasm.c), as the family files see it through nat.h: the
 * argument slots the JS glue (lib/backends/wasm.js) fills before each call and the result slot it
 * reads after, and the smallest helpers of nat.h that read and write them, inline here (the
 * others are in src/wasm.c).
 *
 * The glue and src/wasm.c share one layout, fixed here and checked at compile time (src/wasm.c)
 * and by the glue at load (nat_layout):
 *   slot   (24 bytes)  u32 kind, u32 output, u32 data, u32 len, f64 number
 *   args   NAT_MAX_ARGS slots, argument i in args[i]; the glue fills the first argc of them
 *   result one slot: kind (NAT_UNDEFINED, NAT_BOOL, NAT_NUMBER or NAT_PROMISE) and number */
#ifndef NAT_WASM_H
#define NAT_WASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Arguments a function may read; nat_get_args refuses more, so a test finds any such function. */
#define NAT_MAX_ARGS 10

/* Slot kinds. The glue writes the argument kinds; src/wasm.c writes the result kinds. */
enum {
  NAT_UNDEFINED = 0,
  NAT_NULL = 1,
  NAT_NUMBER = 2,
  NAT_BOOL = 3,
  NAT_TYPEDARRAY = 4,
  NAT_DETACHED = 5, /* a TypedArray whose ArrayBuffer is detached */
  NAT_OTHER = 6,    /* anything else: strings, objects, booleans as arguments, BigInts */
  NAT_PROMISE = 7,  /* result of an *_async function: number 0 resolves with undefined, 1 with
                       false, 2 with true; 3 rejects as NAT_REFUSED with the error message */
  NAT_OUT_OF_BOUNDS = 8 /* a view outside a resizable ArrayBuffer that shrank */
};

struct nat_slot {
  uint32_t kind;
  uint32_t output;
  unsigned char *data;
  uint32_t len;
  double number;
};

struct nat_wasm_call {
  size_t argc;
};

typedef struct nat_slot *napi_value;
typedef struct nat_wasm_env *napi_env;
typedef struct nat_wasm_call *napi_callback_info;
typedef napi_value (*napi_callback)(napi_env env, napi_callback_info info);

extern struct nat_slot nat_args[NAT_MAX_ARGS];
extern struct nat_slot nat_result;

/* Out of line (src/wasm.c): the arguments; a buffer argument that is neither a TypedArray nor an
 * absent optional one (it throws). */
bool nat_get_args(napi_env env, napi_callback_info info, napi_value *argv, size_t n);
bool nat_bad_buf(napi_value value, const char *name, bool optional);

/* A buffer argument: its copy in linear memory; an output is marked, so that the glue copies it
 * back. Inline, as a binding's calls of it were a fifth of the binding's own time; its error
 * path is one call of three arguments, so each use adds little to the module. */
static inline bool nat_get_buf(napi_env env, napi_value value, const char *name, bool optional,
                               bool output, unsigned char **data, size_t *len) {
  (void) env;
  if (value->kind == NAT_TYPEDARRAY) {
    if (output) value->output = 1;
    *data = value->data;
    *len = value->len;
    return true;
  }
  if (!optional || (value->kind != NAT_NULL && value->kind != NAT_UNDEFINED)) {
    return nat_bad_buf(value, name, optional);
  }
  *data = NULL;
  *len = 0;
  return true;
}

static inline bool nat_is_null(napi_env env, napi_value value) {
  (void) env;
  return value->kind == NAT_NULL;
}

static inline bool nat_is_undefined(napi_env env, napi_value value) {
  (void) env;
  return value->kind == NAT_UNDEFINED;
}

static inline napi_value nat_set_result(uint32_t kind, double number) {
  nat_result.kind = kind;
  nat_result.number = number;
  return &nat_result; /* any non-NULL value means "returned" */
}

static inline napi_value nat_undefined(napi_env env) {
  (void) env;
  return nat_set_result(NAT_UNDEFINED, 0);
}

static inline napi_value nat_bool(napi_env env, bool value) {
  (void) env;
  return nat_set_result(NAT_BOOL, value ? 1 : 0);
}

static inline napi_value nat_number(napi_env env, double value) {
  (void) env;
  return nat_set_result(NAT_NUMBER, value);
}

#endif

/* The wasm side of the helpers in nat.h: what src/napi_args.c does with Node-API, done on slots that
 * the JS glue (lib/backends/wasm.js) fills before each call and reads after it. The slot layout
 * and the helpers on a binding's common path are in src/wasm.h (inline); this file has the rest:
 *   error  u32 kind (NAT_TYPE_ERROR, ...), then the message, NUL-terminated
 * nat_call(i, argc, flags) runs function #i of the flattened family tables and answers
 * NAT_CALL_FAILED clear (result set) or set (error set), and NAT_CALL_GREW if linear memory grew
 * (the glue's views of it are then stale). Buffers are copies in linear memory; nat_get_buf sets
 * `output` on each slot the function may write (OUT, STATE), and the glue copies back exactly
 * those. With NAT_CALL_WIPE_INPUTS (the glue's fast path: each buffer a copy of its own, at a
 * 16-byte aligned address with its length rounded up to 16 bytes its own too) the other buffers
 * are wiped here before returning, in fewer instructions than the glue's own wipe. */
#include <stdlib.h>
#include <wasm_simd128.h>

#include "blake2b_impl.h"
#include "constants.h"
#include "ed25519.h"
#include "x25519_impl.h"
#include "families.h"
#include "nat.h"

#define NAT_EXPORT(name) __attribute__((export_name(#name)))

/* NAT_REFUSED: an Error with code NAT_REFUSED_CODE (libsodium refused) */
enum { NAT_NO_ERROR = 0, NAT_TYPE_ERROR = 1, NAT_RANGE_ERROR = 2, NAT_ERROR = 3, NAT_REFUSED = 4 };

/* nat_call's flags and answer bits */
enum { NAT_CALL_WIPE_INPUTS = 1 };
enum { NAT_CALL_FAILED = 1, NAT_CALL_GREW = 2 };

_Static_assert(sizeof(struct nat_slot) == 24 && offsetof(struct nat_slot, output) == 4 &&
                 offsetof(struct nat_slot, data) == 8 && offsetof(struct nat_slot, len) == 12 &&
                 offsetof(struct nat_slot, number) == 16,
               "lib/backends/wasm.js reads this layout");

struct nat_slot nat_args[NAT_MAX_ARGS];
struct nat_slot nat_result;
static struct {
  uint32_t kind;
  char message[NAT_MESSAGE_MAX];
} nat_error;

static napi_callback *nat_functions;
static const char **nat_function_names;
static size_t nat_function_total;

/* libsodium is built with its assert()s (blake2b, Argon2) and wasi-libc's arc4random has some;
 * wasi-libc's __assert_fail would print the failed expression to stderr with fprintf, which
 * links all of printf (about 12 KB of the module) for a message the glue drops (fd_write is a
 * stub). An assertion that fails traps here instead, as abort() does after that message: the
 * glue reports the trap and starts a fresh instance. */
_Noreturn void __assert_fail(const char *expr, const char *file, int line, const char *func) {
  (void) expr;
  (void) file;
  (void) line;
  (void) func;
  __builtin_trap();
}

/* libsodium's Argon2 starts on its portable fill_segment and sodium_init (nat_init) moves it to
 * the SIMD128 one (argon2-core.c: fill_segment = argon2_fill_segment_ref, then
 * argon2_fill_segment_wasm32 in argon2_pick_best_implementation), so every hash runs the SIMD128
 * code. The link wraps that first reference (deps/build-wasm.sh): the portable fill_segment
 * (18 KB of the module) is left out, and the stand-in runs the SIMD128 code too. The position is
 * argon2-core.h's argon2_position_t, passed by value as there. */
struct Argon2_instance_t;
struct nat_argon2_position {
  uint32_t pass;
  uint32_t lane;
  uint8_t slice;
  uint32_t index;
};
void argon2_fill_segment_wasm32(const struct Argon2_instance_t *instance,
                                struct nat_argon2_position position);
void __wrap_argon2_fill_segment_ref(const struct Argon2_instance_t *instance,
                                    struct nat_argon2_position position);
void __wrap_argon2_fill_segment_ref(const struct Argon2_instance_t *instance,
                                    struct nat_argon2_position position) {
  argon2_fill_segment_wasm32(instance, position);
}

/* message = a then b (src/nat_pure.h: the same texts as src/napi_args.c's) */
static void nat_set_error(uint32_t kind, const char *a, const char *b) {
  const char *parts[] = {a, b};
  nat_message(nat_error.message, parts, 2);
  nat_error.kind = kind;
}

/* "<name> <what>", as src/napi_args.c's */
static napi_value nat_throw(uint32_t kind, const char *name, const char *what) {
  const char *parts[] = {name, " ", what};
  nat_message(nat_error.message, parts, 3);
  nat_error.kind = kind;
  return NULL;
}

napi_value nat_throw_type(napi_env env, const char *name, const char *what) {
  (void) env;
  return nat_throw(NAT_TYPE_ERROR, name, what);
}

napi_value nat_throw_range(napi_env env, const char *name, const char *what) {
  (void) env;
  return nat_throw(NAT_RANGE_ERROR, name, what);
}

napi_value nat_throw_error(napi_env env, const char *message) {
  (void) env;
  nat_set_error(NAT_ERROR, message, "");
  return NULL;
}

napi_value nat_throw_refused(napi_env env, const char *message) {
  (void) env;
  nat_set_error(NAT_REFUSED, message, "");
  return NULL;
}

napi_value nat_throw_failed(napi_env env, const char *binding_name) {
  (void) env;
  return nat_throw(NAT_REFUSED, nat_libsodium_name(binding_name), "failed");
}

/* As napi_get_cb_info: arguments the caller did not pass read as undefined. */
bool nat_get_args(napi_env env, napi_callback_info info, napi_value *argv, size_t n) {
  if (n > NAT_MAX_ARGS) {
    nat_throw_error(env, "natrium: the wasm glue passes at most NAT_MAX_ARGS arguments");
    return false;
  }
  for (size_t i = 0; i < n; i++) {
    if (i >= info->argc) nat_args[i].kind = NAT_UNDEFINED;
    argv[i] = &nat_args[i];
  }
  return true;
}

bool nat_bad_buf(napi_value value, const char *name, bool optional) {
  if (value->kind == NAT_DETACHED) nat_throw_type(NULL, name, "is detached");
  else if (value->kind == NAT_OUT_OF_BOUNDS) nat_throw_type(NULL, name, "is out of bounds");
  else nat_throw_type(NULL, name, optional ? "must be a TypedArray or null" : "must be a TypedArray");
  return false;
}

bool nat_get_u64(napi_env env, napi_value value, const char *name, uint64_t lo, uint64_t hi,
                 uint64_t *out) {
  if (value->kind != NAT_NUMBER) {
    nat_throw_type(env, name, "must be a number");
    return false;
  }
  double d = value->number;
  if (!nat_u64_in_range(d, lo, hi)) {
    char what[NAT_MESSAGE_MAX];
    nat_range_message(what, lo, hi);
    nat_throw_range(env, name, what);
    return false;
  }
  *out = (uint64_t) d;
  return true;
}

napi_value nat_throw_napi(napi_env env) { return nat_throw_error(env, "natrium: internal error"); }

/* The *_async functions: no thread pool here, so the work runs at once, on the call's own copies
 * in linear memory (the glue copies outputs back as for any call), and the glue turns the
 * NAT_PROMISE result into a settled Promise. */
struct nat_job {
  size_t ctx_size;
  unsigned char ctx[];
};

nat_job *nat_job_new(napi_env env, const char *function_name, size_t ctx_size) {
  (void) function_name;
  nat_job *job = calloc(1, sizeof *job + ctx_size);
  if (job == NULL) nat_throw_error(env, "out of memory");
  else job->ctx_size = ctx_size;
  return job;
}

void *nat_job_ctx(nat_job *job) { return job->ctx; }

unsigned char *nat_job_in(napi_env env, nat_job *job, const unsigned char *data, size_t len) {
  (void) env, (void) job, (void) len;
  return (unsigned char *) data;
}

unsigned char *nat_job_out(napi_env env, nat_job *job, napi_value view, const char *name, size_t view_len,
                           size_t len) {
  (void) env, (void) job, (void) name, (void) view_len, (void) len;
  return view->data;
}

napi_value nat_job_start(napi_env env, nat_job *job, nat_work_fn work, bool as_bool, const char *fail) {
  int rc = work(job->ctx);
  sodium_memzero(job->ctx, job->ctx_size);
  free(job);
  if (as_bool) return nat_set_result(NAT_PROMISE, rc == 0 ? 2 : 1);
  if (rc == 0) return nat_set_result(NAT_PROMISE, 0);
  nat_throw_refused(env, fail);
  nat_error.kind = NAT_NO_ERROR; /* not thrown: the message is the rejection's */
  return nat_set_result(NAT_PROMISE, 3);
}

/* Exports for the glue. */

/* After the reactor's _initialize(): the flat function table. 0 on success. sodium_init() waits
 * for the first nat_call: it draws random bytes, and the glue's source of them
 * (crypto.getRandomValues) is a module Node loads on first use, 5-8 ms of a cold require. */
NAT_EXPORT(nat_init) int nat_init(void) {
  size_t total = 0;
  for (size_t f = 0; f < nat_families_count; f++) total += nat_families[f]->count;
  nat_functions = malloc(total * sizeof *nat_functions);
  nat_function_names = malloc(total * sizeof *nat_function_names);
  if (nat_functions == NULL || nat_function_names == NULL) return -1;
  for (size_t f = 0; f < nat_families_count; f++) {
    for (size_t i = 0; i < nat_families[f]->count; i++, nat_function_total++) {
      nat_functions[nat_function_total] = nat_families[f]->fns[i].method;
      nat_function_names[nat_function_total] = nat_families[f]->fns[i].utf8name;
    }
  }
  return 0;
}

NAT_EXPORT(nat_function_count) size_t nat_function_count(void) { return nat_function_total; }

NAT_EXPORT(nat_function_name) const char *nat_function_name(size_t i) {
  return i < nat_function_total ? nat_function_names[i] : NULL;
}

NAT_EXPORT(nat_constant_count) size_t nat_constant_count(void) { return nat_constants_count; }

NAT_EXPORT(nat_constant_name) const char *nat_constant_name(size_t i) {
  return i < nat_constants_count ? nat_constants[i].name : NULL;
}

/* NULL for a number constant */
NAT_EXPORT(nat_constant_string) const char *nat_constant_string(size_t i) {
  return i < nat_constants_count ? nat_constants[i].string : NULL;
}

/* as init.c (and sodium-native): values past 2^53 - 1 read as Number.MAX_SAFE_INTEGER */
NAT_EXPORT(nat_constant_number) double nat_constant_number(size_t i) {
  if (i >= nat_constants_count) return 0;
  unsigned long long n = nat_constants[i].number;
  return (double) (n > 9007199254740991ULL ? 9007199254740991ULL : n);
}

NAT_EXPORT(nat_args_address) struct nat_slot *nat_args_address(void) { return nat_args; }
NAT_EXPORT(nat_result_address) struct nat_slot *nat_result_address(void) { return &nat_result; }
NAT_EXPORT(nat_error_address) void *nat_error_address(void) { return &nat_error; }
NAT_EXPORT(nat_max_args) size_t nat_max_args(void) { return NAT_MAX_ARGS; }

/* The layout above, as numbers the glue reads once at load and compares with the offsets and
 * kinds its per-function code is written with (lib/backends/wasm.js), so the two can never
 * silently disagree: entry i of this list, 0 past its end. */
static const uint32_t nat_layout_values[] = {
  sizeof(struct nat_slot), offsetof(struct nat_slot, kind), offsetof(struct nat_slot, output),
  offsetof(struct nat_slot, data), offsetof(struct nat_slot, len), offsetof(struct nat_slot, number),
  NAT_MAX_ARGS, offsetof(__typeof__(nat_error), kind), offsetof(__typeof__(nat_error), message),
  NAT_MESSAGE_MAX, NAT_UNDEFINED, NAT_NULL, NAT_NUMBER, NAT_BOOL, NAT_TYPEDARRAY, NAT_DETACHED,
  NAT_OTHER, NAT_PROMISE, NAT_OUT_OF_BOUNDS, NAT_TYPE_ERROR, NAT_RANGE_ERROR, NAT_ERROR, NAT_REFUSED,
  NAT_CALL_WIPE_INPUTS, NAT_CALL_FAILED, NAT_CALL_GREW};
NAT_EXPORT(nat_layout) uint32_t nat_layout(size_t i) {
  return i < sizeof nat_layout_values / sizeof nat_layout_values[0] ? nat_layout_values[i] : 0;
}

/* For the tests (lib/backends/wasm.js natrium_wasm_blake2b_kernel): which BLAKE2b compression
 * function runs (blake2b_dispatch.c). which: 0 leaves it, else blake2b_impl.h's NAT_BLAKE2B_TIMED
 * (start over: portable, timed after 4096 blocks), _PORTABLE or _SIMD128_ONLY. Returns the name
 * of the one in use ("portable" until the first 4096 blocks are hashed). */
NAT_EXPORT(nat_blake2b_kernel) const char *nat_blake2b_kernel(int which) {
  if (which >= NAT_BLAKE2B_TIMED && which <= NAT_BLAKE2B_SIMD128_ONLY) nat_blake2b_use(which);
  return nat_blake2b_impl();
}

/* For the tests and benchmarks (lib/backends/wasm.js natrium_wasm_curve25519): whose Curve25519
 * arithmetic runs behind libsodium's X25519 (crypto_scalarmult_curve25519) and Ed25519
 * (ge25519_scalarmult_base, _p3_tobytes, _double_scalarmult_vartime, _tobytes and
 * crypto_scalarmult_curve25519_base): which 0 leaves it, 1 ours on two-lane SIMD128
 * (x25519_simd128.c, ed25519_simd128.c), 2 libsodium's own ref10. Returns "simd128" or
 * "libsodium". */
NAT_EXPORT(nat_curve25519_impl) const char *nat_curve25519_impl(int which) {
  if (which == 1 || which == 2) {
    nat_x25519_use_libsodium = which == 2;
    nat_ed25519_use_simd128 = which == 1;
  }
  return nat_x25519_use_libsodium ? "libsodium" : "simd128";
}

/* For the tests: nat_curve25519_simd128_calls (ed25519.h) */
NAT_EXPORT(nat_curve25519_calls) double nat_curve25519_calls(void) { return (double) nat_curve25519_simd128_calls; }


/* The buffers of the call that the function did not mark as outputs (NAT_CALL_WIPE_INPUTS): each
 * has its length rounded up to 16 bytes to itself (see the top), so whole v128 stores; the
 * barrier keeps them, and keeps clang from making the loop a call of memset. */
static void nat_wipe_inputs(size_t argc) {
  for (size_t i = 0; i < argc; i++) {
    if (nat_args[i].kind != NAT_TYPEDARRAY || nat_args[i].output) continue;
    unsigned char *p = nat_args[i].data;
    for (size_t j = 0; j < nat_args[i].len; j += 16) {
      wasm_v128_store(p + j, wasm_i64x2_splat(0));
      __asm__ __volatile__("" : : "r"(p) : "memory");
    }
  }
}

static int nat_run(size_t index, struct nat_wasm_call *call) {
  static int sodium_ready;
  if (!sodium_ready) {
    if (sodium_init() < 0) {
      nat_throw_error(NULL, "natrium.wasm: sodium_init() failed");
      return NAT_CALL_FAILED;
    }
    sodium_ready = 1;
  }
  if (index >= nat_function_total) {
    nat_throw_error(NULL, "natrium: no such function");
    return NAT_CALL_FAILED;
  }
  if (nat_functions[index](NULL, call) != NULL) return 0;
  if (nat_error.kind == NAT_NO_ERROR) nat_throw_error(NULL, "natrium: function returned no value");
  return NAT_CALL_FAILED;
}

NAT_EXPORT(nat_call) int nat_call(size_t index, size_t argc, int flags) {
  struct nat_wasm_call call = {argc < NAT_MAX_ARGS ? argc : NAT_MAX_ARGS};
  size_t pages = __builtin_wasm_memory_size(0);
  for (size_t i = 0; i < call.argc; i++) nat_args[i].output = 0;
  nat_error.kind = NAT_NO_ERROR;
  int answer = nat_run(index, &call);
  if (flags & NAT_CALL_WIPE_INPUTS) nat_wipe_inputs(call.argc);
  if (__builtin_wasm_memory_size(0) != pages) answer |= NAT_CALL_GREW;
  return answer;
}

/* Loads a natrium.node without Node (test/platform.test.js, for builds no Node here can run: musl).
 * Node-API is stubbed: the functions below hand back a placeholder handle wherever Node would
 * write a value, and every other napi_* function the module imports is a stub generated beside
 * this file that returns napi_ok and writes nothing; this program exports them all (-rdynamic).
 * So the system's dynamic loader must resolve every other symbol from its own libc at dlopen
 * (RTLD_NOW), and the module's init runs for real: sodium_init() with its CPU detection, our own
 * dispatch constructors, and the registration of every export, which napi_define_properties counts.
 *   napi_stub_load <natrium.node>   prints "registered <n> functions" */
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

static size_t registered;
static int handle; /* what every napi_value / napi_ref handed out points to */

int napi_get_global(void *env, void **result) {
  (void) env;
  *result = &handle;
  return 0;
}

int napi_get_undefined(void *env, void **result) {
  (void) env;
  *result = &handle;
  return 0;
}

int napi_get_boolean(void *env, int value, void **result) {
  (void) env;
  (void) value;
  *result = &handle;
  return 0;
}

int napi_get_named_property(void *env, void *object, const char *name, void **result) {
  (void) env;
  (void) object;
  (void) name;
  *result = &handle;
  return 0;
}

int napi_get_prototype(void *env, void *object, void **result) {
  (void) env;
  (void) object;
  *result = &handle;
  return 0;
}

int napi_call_function(void *env, void *recv, void *func, size_t argc, void *const *argv, void **result) {
  (void) env;
  (void) recv;
  (void) func;
  (void) argc;
  (void) argv;
  *result = &handle;
  return 0;
}

int napi_create_reference(void *env, void *value, uint32_t refcount, void **result) {
  (void) env;
  (void) value;
  (void) refcount;
  *result = &handle;
  return 0;
}

int napi_create_string_utf8(void *env, const char *str, size_t length, void **result) {
  (void) env;
  (void) str;
  (void) length;
  *result = &handle;
  return 0;
}

int napi_create_double(void *env, double value, void **result) {
  (void) env;
  (void) value;
  *result = &handle;
  return 0;
}

int napi_create_uint32(void *env, uint32_t value, void **result) {
  (void) env;
  (void) value;
  *result = &handle;
  return 0;
}

int napi_define_properties(void *env, void *object, size_t count, const void *properties) {
  (void) env;
  (void) object;
  (void) properties;
  registered += count;
  return 0;
}

int main(int argc, char **argv) {
  void *module;
  void *(*init)(void *env, void *exports);
  int env = 0, exports = 0;

  if (argc != 2) return 2;
  module = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (module == NULL) {
    printf("dlopen: %s\n", dlerror());
    return 1;
  }
  *(void **) &init = dlsym(module, "napi_register_module_v1");
  if (init == NULL) {
    printf("no napi_register_module_v1\n");
    return 1;
  }
  if (init(&env, &exports) != &exports) {
    printf("init failed\n");
    return 1;
  }
  printf("registered %zu functions\n", registered);
  return 0;
}

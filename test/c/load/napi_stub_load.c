/* Loads a natrium.node without Node (test/platform.test.js, for builds no Node here can run: musl).
 * The napi_* functions the module imports are stubs, generated beside this file, that return
 * napi_ok and write nothing; this program exports them (-rdynamic). So the system's dynamic
 * loader must resolve every other symbol from its own libc at dlopen (RTLD_NOW), and the module's
 * init runs for real: sodium_init() with its CPU detection, our own dispatch constructors, and the
 * registration of every export, which napi_define_properties below counts.
 *   napi_stub_load <natrium.node>   prints "registered <n> functions" */
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>

static size_t registered;

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

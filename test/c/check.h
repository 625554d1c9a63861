/* What every harness in test/c/ shares.
 *   CHECK(cond, fmt, ...)  counts a check; on failure prints file:line, the condition and the
 *                          message, and ends the run with status 1
 *   SECRET(p, n)           under valgrind (test/c/run.sh runs every harness there once) marks n
 *                          bytes undefined to memcheck, so a branch or an address that depends on
 *                          them is reported (Monocypher's constant-time habit); PUBLIC undoes it.
 *                          Elsewhere both do nothing.
 *   UNDER_VALGRIND         nonzero when running under valgrind (harnesses run fewer rounds there)
 *   SANITIZED              1 when built with AddressSanitizer */
#ifndef NAT_TEST_C_CHECK_H
#define NAT_TEST_C_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#if defined(__has_include) && !defined(__wasm__)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED(p, n)
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED(p, n)
#define UNDER_VALGRIND RUNNING_ON_VALGRIND
#endif
#endif
#ifndef SECRET
#define SECRET(p, n) ((void) (p), (void) (n))
#define PUBLIC(p, n) ((void) (p), (void) (n))
#define UNDER_VALGRIND 0
#endif

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

static unsigned long checks;

#define CHECK(cond, ...)                                                   \
  do {                                                                     \
    checks++;                                                              \
    if (!(cond)) {                                                         \
      fprintf(stderr, "%s:%d: %s: ", __FILE__, __LINE__, #cond);           \
      fprintf(stderr, __VA_ARGS__);                                        \
      fputc('\n', stderr);                                                 \
      exit(1);                                                             \
    }                                                                      \
  } while (0)

#endif

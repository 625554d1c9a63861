/* Keeps the linux glibc prebuild loadable on glibc 2.28 (the floor in docs/platforms.md).
 *
 * Until glibc 2.33, fstat() was a wrapper in libc_nonshared.a around the exported __fxstat();
 * since 2.33 it is an exported function, fstat@GLIBC_2.33. libsodium's randombytes calls fstat()
 * (to check /dev/urandom when getrandom() is missing), so a build on a current glibc needs 2.33 to
 * load at all. Every glibc still exports __fxstat under its first version (a compat symbol from
 * 2.33 on, never removed), so this definition in terms of the versioned __fxstat loads on old and
 * new glibc alike. It is hidden (-fvisibility=hidden) and is bound at link time to libsodium.a's
 * calls, which are linked into the same module; nothing outside the addon sees it.
 * musl and other systems compile this file to nothing. */
#if defined(__linux__)
#include <features.h>
#endif

#if defined(__GLIBC__)
#if defined(__x86_64__)
#define NAT_FXSTAT_NODE "GLIBC_2.2.5"
#define NAT_STAT_VER 1 /* _STAT_VER_LINUX: struct stat as <sys/stat.h> declares it */
#elif defined(__aarch64__)
#define NAT_FXSTAT_NODE "GLIBC_2.17"
#define NAT_STAT_VER 0 /* _STAT_VER_KERNEL, the only version the generic Linux ABI has */
#endif
#endif

#ifdef NAT_FXSTAT_NODE
struct stat;
int __fxstat(int ver, int fd, struct stat *buf);
int fstat(int fd, struct stat *buf);

__asm__(".symver __fxstat,__fxstat@" NAT_FXSTAT_NODE);

int fstat(int fd, struct stat *buf) { return __fxstat(NAT_STAT_VER, fd, buf); }
#else
/* ISO C forbids an empty translation unit. */
typedef int nat_glibc_fstat_unused;
#endif

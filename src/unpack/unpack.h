/* lib/unpack.wasm's interface (src/unpack/unpack.c), also compiled natively by test/c/unpack.c. */
#ifndef NAT_UNPACK_H
#define NAT_UNPACK_H

#define UNPACK_STEP 16384 /* bytes of output per unpack_step() */

/* Refusals (returned by unpack_begin and unpack_step; lib/esm/wasm-bytes.mjs names them). */
#define UNPACK_ERR_BASE64 (-1)    /* not base64 (character, length or padding) */
#define UNPACK_ERR_TRUNCATED (-2) /* the packed bytes end before the stream does */
#define UNPACK_ERR_DATA (-3)      /* not LZMA: a distance before the output's start, a bad first byte */
#define UNPACK_ERR_LENGTH (-4)    /* the output would be longer or shorter than declared */
#define UNPACK_ERR_END (-5)       /* the end marker is not followed by a finished range coder */
#define UNPACK_ERR_TRAILING (-6)  /* bytes after the end of the stream */
#define UNPACK_ERR_CRC (-7)       /* the output's CRC-32 is not the one declared */
#define UNPACK_ERR_MEMORY (-8)    /* the text is larger than the arena, or the output cannot be addressed */
#define UNPACK_ERR_STATE (-9)     /* unpack_step before a successful unpack_begin */

#if defined(__wasm__) && !defined(__wasi__) /* lib/unpack.wasm (wasm32, no WASI) */
#define UNPACK_EXPORT(name) __attribute__((export_name(#name), visibility("default")))
#else
#define UNPACK_EXPORT(name)
#endif

UNPACK_EXPORT(unpack_arena) unsigned int unpack_arena(void);
UNPACK_EXPORT(unpack_begin) int unpack_begin(unsigned int text_len, unsigned int out_len, unsigned int crc);
UNPACK_EXPORT(unpack_step) int unpack_step(void);

#if !defined(__wasm__) || defined(__wasi__)
/* natively, the arena is the caller's buffer (test/c/unpack.c) */
extern unsigned char *unpack_test_arena;
extern unsigned int unpack_test_arena_size;
#endif

#endif

/* lib/unpack.wasm: what turns the packed natrium.wasm embedded in lib/esm/wasm-bytes.mjs back into
 * its bytes in a browser bundle (scripts/build-esm.js). The module is packed with raw LZMA1
 * (xz --format=raw --lzma1=preset=9e,lc=3,lp=0,pb=0: 0.26x of the module, against 0.36x for gzip
 * of its hex) and carried as base64; this decoder is small enough (a few KB) that the pair is
 * smaller than the module's hex once a server gzips the bundle.
 *
 * No libc, no imports: one linear memory, the decoder's state in static data, and an arena from
 * __heap_base on. The caller (JS, or test/c/unpack.c natively) works in three moves:
 *   unpack_arena()                  the arena's address: where to write the base64 text
 *   unpack_begin(text, len, crc)    checks the lengths; returns the arena offset (> 0) where the
 *                                   output will be, or < 0
 *   unpack_step()                   decodes 64 KB more of the base64 (in place), or else up to
 *                                   UNPACK_STEP more bytes of output; returns
 *                                   > 0: call again once the arena has at least that many bytes
 *                                        (it decodes nothing until it has: the caller grows memory)
 *                                     0: done: the whole output is there, checked
 *                                   < 0: refused (UNPACK_ERR_*), and every later step refuses too
 * The output is len bytes exactly, followed in the stream by LZMA's end-of-payload marker, then
 * nothing; its CRC-32 (IEEE, as zlib's crc32) must be crc. Every read of the input and every write
 * of the output is checked against the text's length, the declared length and the arena's size,
 * so corrupt input is refused with a code, never a read or a write outside the arena.
 *
 * LZMA itself as in the LZMA SDK's specification (lzma-specification.txt, "LZMA Decoding"),
 * with lc = 3, lp = 0, pb = 0 fixed: 8 literal contexts from the previous byte's top 3 bits, one
 * position state. */
#include "unpack.h"

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;

/* The arena: offset 0 up to arena_size(), whose end the caller moves (memory.grow). */
#if defined(__wasm__) && !defined(__wasi__) /* lib/unpack.wasm; a wasm32-wasi test build takes the caller's */
extern u8 __heap_base;
static u8 *arena_base(void) { return &__heap_base; }
static u32 arena_size(void) {
  return (u32) __builtin_wasm_memory_size(0) * 65536u - (u32) (unsigned long) &__heap_base;
}
#else
u8 *unpack_test_arena;
u32 unpack_test_arena_size;
static u8 *arena_base(void) { return unpack_test_arena; }
static u32 arena_size(void) { return unpack_test_arena_size; }
#endif

#define LC 3
#define STATES 12
#define PROB_INIT 1024 /* 0.5 in 11 bits */
#define TOP (1u << 24)

/* Probabilities, in the specification's order. */
enum {
  IS_MATCH = 0,
  IS_REP = IS_MATCH + STATES,
  IS_REP_G0 = IS_REP + STATES,
  IS_REP_G1 = IS_REP_G0 + STATES,
  IS_REP_G2 = IS_REP_G1 + STATES,
  IS_REP0_LONG = IS_REP_G2 + STATES,
  POS_SLOT = IS_REP0_LONG + STATES,     /* [4][64] */
  SPEC_POS = POS_SLOT + 4 * 64,         /* 1 + 128 - 14 */
  ALIGN = SPEC_POS + 115,               /* [16] */
  LEN = ALIGN + 16,                     /* choice, choice2, low[8], mid[8], high[256] */
  REP_LEN = LEN + 2 + 8 + 8 + 256,
  LITERAL = REP_LEN + 2 + 8 + 8 + 256,  /* [1 << LC][0x300] */
  PROBS = LITERAL + (0x300 << LC)
};

static struct {
  u32 text_len, text_pos, pad, in_len, in_pos, out, out_len, out_pos, crc, crc_acc;
  u32 range, code, state, rep0, rep1, rep2, rep3, pending; /* pending: match bytes still to copy */
  int status;                           /* 0 not begun, 1 decoding, 2 done, < 0 refused */
  u16 probs[PROBS];
  u32 crc_table[256];
} s;

/* The arena's address in linear memory (the offsets below are from it). */
u32 unpack_arena(void) { return (u32) (unsigned long) arena_base(); }

/* The sextet of a base64 character, or 64 for anything else. */
static u32 sextet(u32 c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return 64;
}

/* Decodes the base64 characters [from, to) of the text at a into bytes at a + from / 4 * 3 (each
 * group of 4 characters becomes 3 bytes written at or before where it was read, so in place is
 * safe). to is a multiple of 4; the text's last group may end in s.pad '='. 0, or -1. */
static int base64_in_place(u8 *a, u32 from, u32 to) {
  u32 o = from / 4 * 3;
  for (u32 i = from; i < to; i += 4) {
    const int last = i + 4 == s.text_len;
    const u32 c0 = sextet(a[i]), c1 = sextet(a[i + 1]);
    const u32 c2 = last && s.pad == 2 ? 0 : sextet(a[i + 2]);
    const u32 c3 = last && s.pad >= 1 ? 0 : sextet(a[i + 3]);
    if ((c0 | c1 | c2 | c3) & 64) return -1;
    const u32 v = c0 << 18 | c1 << 12 | c2 << 6 | c3;
    a[o++] = (u8) (v >> 16);
    if (!last || s.pad < 2) a[o++] = (u8) (v >> 8);
    if (!last || s.pad < 1) a[o++] = (u8) v;
  }
  return 0;
}

static void crc_init(void) {
  for (u32 n = 0; n < 256; n++) {
    u32 c = n;
    for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    s.crc_table[n] = c;
  }
}

/* CRC-32 of p[0..n) continued from c (0xFFFFFFFF at the start, complemented at the end) */
static u32 crc_update(u32 c, const u8 *p, u32 n) {
  for (u32 i = 0; i < n; i++) c = s.crc_table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
  return c;
}

/* Checks what can be checked before decoding and lays out the arena: the packed bytes at 0, the
 * output from the returned offset (> 0, 16-aligned) on. The decoding, base64 first, is done by
 * unpack_step a piece per call: V8 runs a long call to its end in the baseline code it started
 * in, and the next call of the same function in the optimised code once that is ready. */
int unpack_begin(u32 text_len, u32 out_len, u32 crc) {
  s.status = UNPACK_ERR_STATE;
  if (text_len > arena_size()) return s.status = UNPACK_ERR_MEMORY;
  if (text_len % 4 != 0) return s.status = UNPACK_ERR_BASE64;
  const u8 *a = arena_base();
  s.pad = text_len && a[text_len - 1] == '=' ? a[text_len - 2] == '=' ? 2 : 1 : 0;
  const u32 n = text_len / 4 * 3 - s.pad;
  /* offsets stay below 2^31 (they are the return values) */
  const u32 out = (n + 16u) & ~15u;
  if (out_len > 0x7FFF0000u - out) return s.status = UNPACK_ERR_MEMORY;
  s.text_len = text_len;
  s.text_pos = 0;
  s.in_len = n;
  s.out = out;
  s.out_len = out_len;
  s.out_pos = 0;
  s.crc = crc;
  s.crc_acc = 0xFFFFFFFFu;
  s.state = s.rep0 = s.rep1 = s.rep2 = s.rep3 = s.pending = 0;
  for (u32 i = 0; i < PROBS; i++) s.probs[i] = PROB_INIT;
  crc_init();
  s.status = 1;
  return (int) out;
}

/* The base64 phase of unpack_step: BASE64_STEP characters a call; after the last, the range
 * coder's start (its first byte is always 0, then 4 bytes of code). */
#define BASE64_STEP 65536u
static int base64_step(u8 *a) {
  const u32 left = s.text_len - s.text_pos;
  const u32 to = s.text_pos + (left < BASE64_STEP ? left : BASE64_STEP);
  if (base64_in_place(a, s.text_pos, to) != 0) return UNPACK_ERR_BASE64;
  s.text_pos = to;
  if (to < s.text_len) return 1;
  if (s.in_len < 5) return UNPACK_ERR_TRUNCATED;
  if (a[0] != 0) return UNPACK_ERR_DATA;
  s.range = 0xFFFFFFFFu;
  s.code = (u32) a[1] << 24 | (u32) a[2] << 16 | (u32) a[3] << 8 | a[4];
  s.in_pos = 5;
  return 1;
}

/* The range decoder, on locals of decode(): a read past the input sets err and gives 0, after
 * which every bit decodes as garbage but stays in bounds; err is checked per symbol. */
typedef struct {
  const u8 *in;
  u32 in_len, in_pos, range, code;
  int err;
} rc_t;

static inline void rc_normalize(rc_t *rc) {
  if (rc->range < TOP) {
    rc->range <<= 8;
    u32 b = 0;
    if (rc->in_pos < rc->in_len) b = rc->in[rc->in_pos++];
    else rc->err = UNPACK_ERR_TRUNCATED;
    rc->code = rc->code << 8 | b;
  }
}

static inline u32 rc_bit(rc_t *rc, u16 *p) {
  rc_normalize(rc);
  const u32 bound = (rc->range >> 11) * *p;
  if (rc->code < bound) {
    rc->range = bound;
    *p = (u16) (*p + ((2048u - *p) >> 5));
    return 0;
  }
  rc->range -= bound;
  rc->code -= bound;
  *p = (u16) (*p - (*p >> 5));
  return 1;
}

static inline u32 rc_tree(rc_t *rc, u16 *p, int bits) {
  u32 m = 1;
  for (int i = 0; i < bits; i++) m = m << 1 | rc_bit(rc, p + m);
  return m - (1u << bits);
}

static inline u32 rc_reverse(rc_t *rc, u16 *p, int bits) {
  u32 m = 1, sym = 0;
  for (int i = 0; i < bits; i++) {
    const u32 bit = rc_bit(rc, p + m);
    m = m << 1 | bit;
    sym |= bit << i;
  }
  return sym;
}

static inline u32 rc_direct(rc_t *rc, int bits) {
  u32 v = 0;
  for (int i = 0; i < bits; i++) {
    rc_normalize(rc);
    rc->range >>= 1;
    const u32 bit = rc->code >= rc->range;
    if (bit) rc->code -= rc->range;
    v = v << 1 | bit;
  }
  return v;
}

/* A match length, 0-based (the real length is this + 2). */
static inline __attribute__((always_inline)) u32 decode_len(rc_t *rc, u16 *p) {
  if (!rc_bit(rc, p)) return rc_tree(rc, p + 2, 3);
  if (!rc_bit(rc, p + 1)) return 8 + rc_tree(rc, p + 10, 3);
  return 16 + rc_tree(rc, p + 18, 8);
}

static inline __attribute__((always_inline)) u32 decode_distance(rc_t *rc, u32 len) {
  const u32 slot = rc_tree(rc, s.probs + POS_SLOT + 64 * (len < 3 ? len : 3), 6);
  if (slot < 4) return slot;
  const int direct = (int) (slot >> 1) - 1;
  u32 dist = (2 | (slot & 1)) << direct;
  if (slot < 14) return dist + rc_reverse(rc, s.probs + SPEC_POS + dist - slot, direct);
  dist += rc_direct(rc, direct - 4) << 4;
  return dist + rc_reverse(rc, s.probs + ALIGN, 4);
}

/* One LZMA symbol at out[pos]: a literal (written), or a match (reps updated, its length left in
 * s.pending for the copy), or the end marker (returns 1). < 0: refused. */
static inline __attribute__((always_inline)) int decode_symbol(rc_t *rc, u8 *out, u32 pos) {
  u16 *const p = s.probs;
  const u32 st = s.state;
  if (!rc_bit(rc, p + IS_MATCH + st)) {
    u16 *lit = p + LITERAL + 0x300 * (pos ? out[pos - 1] >> (8 - LC) : 0);
    u32 sym = 1;
    if (pos >= s.out_len) return UNPACK_ERR_LENGTH; /* the end marker was due here */
    if (st >= 7) { /* after a match: the byte at rep0 steers the first bits */
      if (s.rep0 >= pos) return UNPACK_ERR_DATA;
      u32 match = out[pos - s.rep0 - 1];
      while (sym < 0x100) {
        const u32 mbit = (match >> 7) & 1;
        match <<= 1;
        const u32 bit = rc_bit(rc, lit + 0x100 + (mbit << 8) + sym);
        sym = sym << 1 | bit;
        if (bit != mbit) break;
      }
    }
    while (sym < 0x100) sym = sym << 1 | rc_bit(rc, lit + sym);
    out[pos] = (u8) sym;
    s.state = st < 4 ? 0 : st < 10 ? st - 3 : st - 6;
    return 0;
  }
  u32 len;
  if (!rc_bit(rc, p + IS_REP + st)) {
    s.rep3 = s.rep2;
    s.rep2 = s.rep1;
    s.rep1 = s.rep0;
    len = decode_len(rc, p + LEN);
    s.state = st < 7 ? 7 : 10;
    const u32 dist = decode_distance(rc, len);
    if (dist == 0xFFFFFFFFu) return 1;
    s.rep0 = dist;
  } else {
    if (!rc_bit(rc, p + IS_REP_G0 + st)) {
      if (!rc_bit(rc, p + IS_REP0_LONG + st)) { /* one byte at rep0 */
        s.state = st < 7 ? 9 : 11;
        s.pending = 1;
        return s.rep0 >= pos ? UNPACK_ERR_DATA : 0; /* before the start of the output */
      }
    } else {
      u32 dist;
      if (!rc_bit(rc, p + IS_REP_G1 + st)) {
        dist = s.rep1;
      } else {
        if (!rc_bit(rc, p + IS_REP_G2 + st)) {
          dist = s.rep2;
        } else {
          dist = s.rep3;
          s.rep3 = s.rep2;
        }
        s.rep2 = s.rep1;
      }
      s.rep1 = s.rep0;
      s.rep0 = dist;
    }
    len = decode_len(rc, p + REP_LEN);
    s.state = st < 7 ? 8 : 11;
  }
  if (s.rep0 >= pos) return UNPACK_ERR_DATA; /* before the start of the output */
  s.pending = len + 2;
  return 0;
}

int unpack_step(void) {
  if (s.status != 1) return s.status == 0 ? UNPACK_ERR_STATE : s.status == 2 ? 0 : s.status;
  if (s.text_pos < s.text_len || s.text_len == 0) { /* begin checked that the text fits */
    const int r = s.text_len ? base64_step(arena_base()) : UNPACK_ERR_TRUNCATED;
    if (r < 0) return s.status = r;
    if (s.text_pos < s.text_len) return (int) s.text_len;
    return (int) (s.out + (s.out_len < UNPACK_STEP ? s.out_len : UNPACK_STEP));
  }
  const u32 left = s.out_len - s.out_pos;
  const u32 end = s.out_pos + (left < UNPACK_STEP ? left : UNPACK_STEP);
  /* the arena must hold the packed bytes (before s.out) and the output up to end */
  if (arena_size() < s.out + end) return (int) (s.out + end);
  u8 *const a = arena_base();
  u8 *const out = a + s.out;
  rc_t rc = {a, s.in_len, s.in_pos, s.range, s.code, 0};
  u32 pos = s.out_pos;
  const u32 start = pos;
  int r;
  for (;;) {
    if (s.pending) { /* a match's bytes up to this step's end, the rest on the next step */
      if (s.pending > s.out_len - pos) { r = UNPACK_ERR_LENGTH; break; }
      const u32 n = s.pending < end - pos ? s.pending : end - pos;
      const u8 *from = out + pos - s.rep0 - 1;
      for (u32 i = 0; i < n; i++) out[pos + i] = from[i];
      pos += n;
      s.pending -= n;
    }
    if (pos == end && (pos < s.out_len || s.pending)) { r = 1; break; } /* more on the next step */
    r = decode_symbol(&rc, out, pos);
    if (rc.err) r = rc.err;
    if (r < 0) break;
    if (r == 1) { /* the end marker: only at the declared length, then nothing */
      if (pos != s.out_len) r = UNPACK_ERR_LENGTH;
      else {
        rc_normalize(&rc);
        if (rc.err) r = rc.err;
        else if (rc.code != 0) r = UNPACK_ERR_END;
        else if (rc.in_pos != rc.in_len) r = UNPACK_ERR_TRAILING;
        else r = ~crc_update(s.crc_acc, out + start, pos - start) == s.crc ? 0 : UNPACK_ERR_CRC;
      }
      break;
    }
    if (!s.pending) pos++; /* a literal */
  }
  if (r == 1) s.crc_acc = crc_update(s.crc_acc, out + start, pos - start);
  s.out_pos = pos;
  s.in_pos = rc.in_pos;
  s.range = rc.range;
  s.code = rc.code;
  if (r < 0) return s.status = r;
  if (r == 0) return s.status = 2, 0;
  return (int) (s.out + pos + (s.out_len - pos < UNPACK_STEP ? s.out_len - pos : UNPACK_STEP));
}

/* fuzz/fuzz.h: shared by the fuzz targets. FUZZ_CHECK aborts on a broken
   invariant so libFuzzer (or the plain driver) reports the input. */
#ifndef DNNMEM_FUZZ_H
#define DNNMEM_FUZZ_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_CHECK(cond)                                                        \
  do {                                                                          \
    if (!(cond)) {                                                              \
      fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__, #cond); \
      abort();                                                                  \
    }                                                                           \
  } while (0)

/* Reads little pieces of the fuzz input; past the end every read gives 0. */
typedef struct fuzz_input {
  const uint8_t *data;
  size_t size, pos;
} fuzz_input;

static inline uint32_t fuzz_u8(fuzz_input *in) { return in->pos < in->size ? in->data[in->pos++] : 0; }
/* Low byte first on every compiler (the operands of | are unsequenced). */
static inline uint32_t fuzz_u16(fuzz_input *in) {
  uint32_t lo = fuzz_u8(in);
  return lo | (fuzz_u8(in) << 8);
}
static inline uint32_t fuzz_u32(fuzz_input *in) {
  uint32_t lo = fuzz_u16(in);
  return lo | (fuzz_u16(in) << 16);
}
static inline int fuzz_more(const fuzz_input *in) { return in->pos < in->size; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#ifdef DNNMEM_H_INCLUDED
/* A small record for the exact and conflict targets (the corpus encoding:
   flags, lower, length, size, then as the flags say an alignment, a fixed
   offset, a hint (only with hints), a gap over the inside of the lifetime
   with a window). Returns 1 when it got a window. flags 255: a negative
   size (bad input now and then). */
static inline int fuzz_small_record(fuzz_input *in, dnnmem_interval *r, dnnmem_gap *gap, int hints) {
  uint32_t flags = fuzz_u8(in);
  int window = 0;
  memset(r, 0, sizeof(*r));
  r->lower = fuzz_u8(in) % 12;
  r->upper = r->lower + 1 + fuzz_u8(in) % 6;
  r->size = 1 + fuzz_u8(in) % 6;
  if (flags & 1) r->alignment = (int64_t)1 << (fuzz_u8(in) % 3);
  if ((flags & 6) == 6) {
    r->flags |= DNNMEM_INTERVAL_FIXED;
    r->fixed_offset = (int64_t)(fuzz_u8(in) % 8) * 4;
  }
  if (hints && (flags & 8)) {
    r->flags |= DNNMEM_INTERVAL_HINT;
    r->hint = fuzz_u8(in) % 16;
  }
  if ((flags & 48) && r->upper - r->lower >= 3) {
    gap->lower = r->lower + 1;
    gap->upper = r->upper - 1;
    gap->window_lower = gap->window_upper = 0;
    if ((flags & 48) == 48 && r->size >= 2) {
      gap->window_lower = 1;
      gap->window_upper = r->size;
      window = 1;
    }
    r->gaps = gap;
    r->num_gaps = 1;
  }
  if (flags == 255) r->size = -3;
  return window;
}

/* dnnmem_plan_solve of a problem of at least one record: its scratch size
   (with these options) is at most bytes, and half of it is refused, never
   overrun. */
static inline void fuzz_plan_short_scratch(const dnnmem_intervals *p, const dnnmem_plan_options *opt, int64_t *off,
                                           size_t bytes) {
  size_t own = 0;
  unsigned char *tight;
  dnnmem_plan_result res;
  FUZZ_CHECK(dnnmem_plan_solve_scratch_size(p, opt, &own) == DNNMEM_OK && own <= bytes);
  tight = (unsigned char *)malloc(own / 2 + 1);
  FUZZ_CHECK(dnnmem_plan_solve(p, opt, off, &res, tight, own / 2) == DNNMEM_ERR_SCRATCH_TOO_SMALL);
  free(tight);
}

/* The exact and conflict targets' problem (the corpus encoding): an
   alignment of 1, 2 or 4, a count up to FUZZ_SMALL_RECORDS, then that many
   small records, kept in s (windows: 1 when a record got a window). */
#define FUZZ_SMALL_RECORDS 7
#define FUZZ_WINDOW_ORACLE_RECORDS 4 /* ref_plan_optimum with windows searches every offset */
typedef struct fuzz_small {
  dnnmem_interval r[FUZZ_SMALL_RECORDS];
  dnnmem_gap gaps[FUZZ_SMALL_RECORDS];
  int windows;
} fuzz_small;

static inline dnnmem_intervals fuzz_small_problem(fuzz_input *in, fuzz_small *s, int hints) {
  dnnmem_intervals p;
  int i;
  p.alignment = (int64_t)1 << (fuzz_u8(in) % 3);
  p.count = (int32_t)(fuzz_u8(in) % (FUZZ_SMALL_RECORDS + 1));
  p.records = s->r;
  s->windows = 0;
  for (i = 0; i < p.count; i++) s->windows |= fuzz_small_record(in, &s->r[i], &s->gaps[i], hints);
  return p;
}
#endif
#endif

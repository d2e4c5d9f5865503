/* fuzz/fuzz.h: shared by the fuzz targets. FUZZ_CHECK aborts on a broken
   invariant so libFuzzer (or the plain driver) reports the input. */
#ifndef DNNMEM_FUZZ_H
#define DNNMEM_FUZZ_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

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
#endif

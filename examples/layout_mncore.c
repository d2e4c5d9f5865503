/* examples/layout_mncore.c: a 1024x512 matrix spread over an MN-Core board
   with PFN's TensorLayout notation: where does an element live, what does
   one PE hold, and which DMA descriptors fill it.

   build: cc -std=c99 -I. -o layout_mncore examples/layout_mncore.c */
#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"

#include <stdio.h>
#include <string.h>

int main(void) {
  const char *text = "((16_L2B, 8_L1B, 8:8), (16_MAB, 8:1, 4_PE))";
  const char *board = "L2B=16,L1B=8,MAB=16,PE=4";
  dnnmem_layout layout;
  dnnmem_layout_machine machine;
  dnnmem_layout_result stats;
  dnnmem_layout_run runs[16];
  dnnmem_layout_slot slot;
  int64_t err, index[2] = {333, 222}, units[DNNMEM_LAYOUT_MAX_LEVELS], address, back[2];
  int32_t count;
  dnnmem_error bad;
  int32_t lv, i;
  uint8_t padding;
  dnnmem_result r = dnnmem_layout_parse(text, strlen(text), &layout, &err);
  if (r == DNNMEM_OK) r = dnnmem_layout_machine_parse(board, strlen(board), &machine, &err);
  if (r == DNNMEM_OK && (r = dnnmem_layout_bind(&layout, &machine, &bad)) != DNNMEM_OK)
    err = bad.index >= 0 ? layout.factors[bad.index].position : 0; /* the factor's byte */
  if (r != DNNMEM_OK) {
    fprintf(stderr, "byte %lld: %s\n", (long long)err, dnnmem_result_text(r));
    return 1;
  }
  /* forward: element (333, 222) */
  dnnmem_layout_forward(&layout, index, units, &address, &padding);
  printf("%s\nelement (333, 222) ->", text);
  for (lv = 0; lv < layout.num_levels; lv++) printf(" %s %lld", layout.level_names[lv], (long long)units[lv]);
  printf(", address %lld\n", (long long)address);
  /* inverse: which element sits there */
  dnnmem_layout_inverse(&layout, units, address, back, &slot);
  printf("inverse -> (%lld, %lld)%s\n", (long long)back[0], (long long)back[1],
         slot == DNNMEM_LAYOUT_SLOT_ELEMENT ? "" : " (not an element)");
  /* sizes */
  dnnmem_layout_measure(&layout, &stats);
  printf("%lld elements over %lld PEs, %lld words each, %lld copies\n", (long long)stats.size,
         (long long)stats.units, (long long)stats.cosize, (long long)stats.replicas);
  /* what that PE holds, as contiguous runs (DMA descriptors); more than 16
     runs answer DNNMEM_ERR_OUTPUT_TOO_SMALL with the first 16 and the count */
  r = dnnmem_layout_runs(&layout, units, runs, 16, &count);
  if (r != DNNMEM_OK && r != DNNMEM_ERR_OUTPUT_TOO_SMALL) return 1;
  printf("that PE holds %lld runs:", (long long)count);
  for (i = 0; i < count && i < 3; i++)
    printf(" [element %lld -> address %lld, %lld long]", (long long)runs[i].element,
           (long long)runs[i].address, (long long)runs[i].length);
  printf("%s\n", count > 3 ? " ..." : "");
  return 0;
}

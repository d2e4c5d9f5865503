/* Plans one arena for five tensors and prints each offset (the smallest
   complete program; examples/engine.c starts from a graph). Build: cc -I. examples/plan_arena.c -lm */
#include <stdio.h>
#include <stdlib.h>
#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"

int main(void) {
  /* lifetimes [lower, upper) in steps, sizes in bytes */
  dnnmem_interval t[5] = {{.lower = 0, .upper = 2, .size = 4096}, {.lower = 1, .upper = 3, .size = 8192},
                          {.lower = 2, .upper = 4, .size = 4096}, {.lower = 3, .upper = 5, .size = 8192},
                          {.lower = 0, .upper = 5, .size = 1024}};
  dnnmem_intervals problem = {.records = t, .count = 5, .alignment = 64}; /* 64-byte offsets */
  dnnmem_plan_result res;
  int64_t offsets[5];
  size_t bytes;
  void *scratch;
  int i;
  if (dnnmem_plan_solve_scratch_size(&problem, NULL, &bytes) != DNNMEM_OK) return 1; /* NULL: best */
  scratch = malloc(bytes);
  if (dnnmem_plan_solve(&problem, NULL, offsets, &res, scratch, bytes) != DNNMEM_OK) return 1;
  for (i = 0; i < 5; i++) printf("tensor %d at %lld\n", i, (long long)offsets[i]);
  printf("arena %lld bytes (lower bound %lld, %s, by %s)\n", (long long)res.arena,
         (long long)res.lower_bound, res.optimal ? "optimal" : "not proven",
         dnnmem_plan_algo_name(res.algo));
  free(scratch);
  return 0;
}

/* examples/engine.c: dnnmem.h inside an engine, the README's three
   snippets as one program (tests/cli_demo.sh checks that the README shows
   these lines and that the program prints what the README says).

   A training step of a 4-layer chain: x -> f1 -> f2 -> f3 -> f4, then the
   gradients g4 .. g1, each reading the previous gradient and the forward
   value of its layer. Sizes in bytes, times in ns.
     1. graph -> lifetimes -> one arena and an offset per value;
     2. the same step within a smaller budget, recomputing forward values,
        and the arena of that schedule;
     3. each op on the CPU or the accelerator, conversions paid once.
   Build: cc -I. examples/engine.c -lm (make builds build/example_engine). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"

#define N 9
#define MB (1 << 20)

/* node v's inputs are in_ids[in_offsets[v] .. in_offsets[v + 1]) */
static const int32_t in_offsets[N + 1] = {0, 0, 1, 2, 3, 4, 5, 7, 9, 11};
static const int32_t in_ids[11] = {0, 1, 2, 3, 4, 5, 3, 6, 2, 7, 1};
static const char *const names[N] = {"x", "f1", "f2", "f3", "f4", "g4", "g3", "g2", "g1"};
static const int64_t sizes[N] = {MB, 2 * MB, 2 * MB, 2 * MB, 2 * MB, 2 * MB, 2 * MB, 2 * MB, MB};
static const int64_t times[N] = {0, 300, 300, 300, 300, 600, 600, 600, 600};
static const uint8_t is_output[N] = {0, 0, 0, 0, 0, 0, 0, 0, 1};

static int plan_arena(const dnnmem_graph *graph) {
  /* README: plan */
  dnnmem_interval records[N];
  dnnmem_intervals problem = {records, N, 64};             /* 64-byte aligned offsets */
  dnnmem_plan_result plan;
  int64_t offsets[N];
  size_t bytes;
  void *scratch;
  unsigned char *arena;
  if (dnnmem_graph_intervals(graph, sizes, is_output, records, NULL) != DNNMEM_OK) /* value v: [v, last use + 1) */
    return 1;                                     /* DNNMEM_ERR_NOT_TOPOLOGICAL: number it inputs first */
  if (dnnmem_plan_solve_scratch_size(&problem, NULL, &bytes) != DNNMEM_OK) return 1; /* ask (NULL: best) ... */
  scratch = malloc(bytes);
  if (dnnmem_plan_solve(&problem, NULL, offsets, &plan, scratch, bytes) != DNNMEM_OK) return 1; /* ... pass */
  free(scratch);
  arena = (unsigned char *)malloc((size_t)plan.arena);      /* one allocation for every value */
  /* value v lives at arena + offsets[v] */
  printf("arena %lld bytes, lower bound %lld%s\n", (long long)plan.arena, (long long)plan.lower_bound,
         plan.optimal ? " (optimal)" : "");
  /* README end */
  printf("%s at %lld, %s at %lld\n", names[1], (long long)offsets[1], names[8], (long long)offsets[8]);
  free(arena);
  return 0;
}

static int recompute(const dnnmem_graph *graph) {
  /* README: remat */
  dnnmem_remat_problem problem = {graph, sizes, times, is_output};
  dnnmem_remat_options options;
  dnnmem_remat_result result;
  dnnmem_remat_plan_result arena;
  dnnmem_interval records[2 * N];
  int32_t sequence[2 * N];                                  /* room for 2N steps is plenty */
  int64_t offsets[2 * N];
  dnnmem_rng rng;
  size_t bytes, plan_bytes;
  void *scratch;
  memset(&options, 0, sizeof options);                     /* zeroed: the defaults (annealing) */
  options.budget = 7 * MB;                                  /* the row order holds 10 MB at once */
  dnnmem_rng_seed(&rng, 1);
  if (dnnmem_remat_solve_scratch_size(&problem, &options, 2 * N, &bytes) != DNNMEM_OK) return 1;
  scratch = malloc(bytes);
  if (dnnmem_remat_solve(&problem, &options, &rng, sequence, 2 * N, &result, scratch, bytes) != DNNMEM_OK)
    return 1;                                               /* DNNMEM_ERR_INFEASIBLE: no sequence fits */
  if (dnnmem_remat_plan_scratch_size(&problem, NULL, sequence, result.length, 64, &plan_bytes) != DNNMEM_OK) return 1;
  scratch = realloc(scratch, plan_bytes);                   /* one offset per computed instance */
  if (dnnmem_remat_plan(&problem, NULL, sequence, result.length, 64, records, offsets, &arena, scratch,
                        plan_bytes) != DNNMEM_OK)
    return 1;
  free(scratch);
  printf("%d steps (%d recomputed), peak %lld, time %lld ns, arena %lld\n", (int)result.length,
         (int)result.recomputations, (long long)result.peak, (long long)result.time, (long long)arena.arena);
  /* README end */
  return 0;
}

static int place(const dnnmem_graph *graph) {
  static const int64_t cpu_time[N] = {0, 900, 900, 900, 900, 1800, 1800, 1800, 1800};
  static const int64_t acc_time[N] = {DNNMEM_PLACE_UNSUPPORTED, 100, 1500, DNNMEM_PLACE_UNSUPPORTED, 100,
                                      200, 200, 200, 200};  /* f2 is slow there, f3 cannot run there */
  static const int64_t xfer[N] = {100, 100, 100, 100, 100, 100, 100, 100, 100};
  /* README: place */
  dnnmem_place_problem problem = {graph, cpu_time, acc_time, xfer, NULL, is_output}; /* NULL: no op pinned */
  dnnmem_place_result result;
  uint8_t device[N];                                        /* DNNMEM_PLACE_CPU or _ACC per op */
  size_t bytes;
  void *scratch;
  if (dnnmem_place_solve_scratch_size(&problem, NULL, &bytes) != DNNMEM_OK) return 1;
  scratch = malloc(bytes);
  if (dnnmem_place_solve(&problem, NULL, device, &result, scratch, bytes) != DNNMEM_OK) return 1;
  free(scratch);
  printf("%lld ns (every op the accelerator runs on it: %lld ns)\n", (long long)result.time,
         (long long)result.all_acc_time);
  /* README end */
  {
    int v;
    for (v = 0; v < N; v++) printf("%s%s %s", v ? ", " : "", names[v], device[v] == DNNMEM_PLACE_CPU ? "cpu" : "acc");
    printf("\n");
  }
  return 0;
}

int main(void) {
  static const dnnmem_graph g = {N, in_offsets, in_ids}, *graph = &g;
  return plan_arena(graph) || recompute(graph) || place(graph);
}

/* offline: near misses dumped by DNNMEM__DUMP_NEAR, reordered and planned */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#define STB_DS_IMPLEMENTATION
#include <stb/stb_ds.h>
#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "examples/dnnmem_files.h"

static double now(void) { struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec / 1e9; }

int main(int argc, char **argv) {
  files_graph g; files_error err; dnnmem_remat_problem p;
  FILE *f; int evals = argc > 3 ? atoi(argv[3]) : 200, full = argc > 4 ? atoi(argv[4]) : 1;
  long long time_, peak, arena, budget; int len, st = 0, fits0 = 0, fits1 = 0;
  double s0 = 0, s1 = 0;
  if (files_read_graph(argv[1], &g, &err) != 0) { fprintf(stderr, "graph\n"); return 1; }
  files_graph_remat_problem(&g, &p);
  f = fopen(argv[2], "r");
  while (fscanf(f, " S %lld %lld %lld %lld %d", &time_, &peak, &arena, &budget, &len) == 5) {
    int32_t *seq = malloc(len * sizeof(int32_t)), *x = malloc(len * sizeof(int32_t)), j;
    dnnmem_plan_options po; dnnmem_remat_plan_result pr0, pr1; size_t bytes = 0, rb;
    dnnmem_interval *rec = malloc(len * sizeof(*rec)); int64_t *off = malloc(len * sizeof(int64_t));
    unsigned char *mem; double t0, t1, t2; int64_t ra;
    for (j = 0; j < len; j++) if (fscanf(f, "%d", &seq[j]) != 1) return 2;
    dnnmem_remat_arena_options(budget, len, &po);
    dnnmem_remat_plan_scratch_size(&p, &po, seq, len, 0, &bytes);
    rb = (size_t)dnnmem__remat_reorder_bytes(p.graph->num_nodes, len);
    mem = malloc(bytes > rb ? bytes : rb);
    memcpy(x, seq, len * sizeof(int32_t));
    t0 = now();
    if (full) dnnmem_remat_plan(&p, &po, seq, len, 0, rec, off, &pr0, mem, bytes); else pr0.arena = arena;
    t1 = now();
    ra = dnnmem__remat_reorder_in(&p, x, len, budget, evals, NULL, NULL, mem, rb);
    dnnmem_remat_plan(&p, &po, x, len, 0, rec, off, &pr1, mem, bytes);
    t2 = now();
    if (pr1.time != time_) printf("TIME MISMATCH\n");
    st++; fits0 += pr0.arena <= budget; fits1 += pr1.arena <= budget;
    s0 += (double)pr0.arena / budget; s1 += (double)pr1.arena / budget;
    printf("#%d time %lld peak %.4f plan %.4f (dump %.4f) -> reorder ff %.4f peak %.4f plan %.4f%s  [%.1fs %.1fs]\n", st, time_,
           (double)peak / budget, (double)pr0.arena / budget, (double)arena / budget, (double)ra / budget,
           (double)pr1.peak / budget, (double)pr1.arena / budget, pr1.arena <= budget ? " FIT" : "", t1 - t0, t2 - t1);
    fflush(stdout);
    free(seq); free(x); free(rec); free(off); free(mem);
  }
  printf("states %d fits before %d after %d mean plan/B %.4f -> %.4f\n", st, fits0, fits1, s0 / st, s1 / st);
  return 0;
}

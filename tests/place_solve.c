/* tests/place_solve.c: times dnnmem_place_solve alone, for bench_flow's
   placement against 0.1.0 (make bench builds it twice: against this
   dnnmem.h as build/place_solve and against 0.1.0's as
   build/v0.1.0/place_solve), so that both are timed in CPU time, which a
   loaded machine distorts less than wall time.
     usage: place_solve FILE REPS
   FILE: "n" then per op "cpu acc xfer device output k id..." (times in ns,
   -1 unsupported; device 0 any, 1 cpu, 2 acc), as bench_flow writes it.
   Prints "optimum FIRST_WALL_MS MIN_CPU_MS": the first solve in fresh
   scratch (page faults included, as the tool's time_ms), then the least
   CPU time of REPS solves in the same scratch. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double wall_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double cpu_ms(void) { return (double)clock() * 1e3 / CLOCKS_PER_SEC; }

static void *take(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p) {
    fprintf(stderr, "place_solve: out of memory\n");
    exit(1);
  }
  return p;
}

int main(int argc, char **argv) {
  FILE *f = argc > 2 ? fopen(argv[1], "r") : NULL;
  int reps = argc > 2 ? atoi(argv[2]) : 0, i;
  int32_t n, v, e = 0, cap = 1024, *offsets, *ids;
  int64_t *cpu, *acc, *xfer;
  uint8_t *device, *output, *placed;
  dnnmem_graph g;
  dnnmem_place_problem p;
  dnnmem_place_result r;
  size_t bytes = 0;
  void *mem;
  double first = 0, best = 1e30;
  if (!f || reps < 1 || fscanf(f, "%d", &n) != 1 || n < 1) {
    fprintf(stderr, "usage: place_solve FILE REPS\n");
    return 2;
  }
  cpu = (int64_t *)take(8 * (size_t)n);
  acc = (int64_t *)take(8 * (size_t)n);
  xfer = (int64_t *)take(8 * (size_t)n);
  device = (uint8_t *)take((size_t)n);
  output = (uint8_t *)take((size_t)n);
  placed = (uint8_t *)take((size_t)n);
  offsets = (int32_t *)take(4 * ((size_t)n + 1));
  ids = (int32_t *)take(4 * (size_t)cap);
  offsets[0] = 0;
  for (v = 0; v < n; v++) {
    long long c, a, x;
    int d, o, k, j;
    if (fscanf(f, "%lld %lld %lld %d %d %d", &c, &a, &x, &d, &o, &k) != 6) return 2;
    cpu[v] = c;
    acc[v] = a;
    xfer[v] = x;
    device[v] = (uint8_t)d;
    output[v] = (uint8_t)o;
    for (j = 0; j < k; j++) {
      if (e == cap) {
        cap *= 2;
        ids = (int32_t *)realloc(ids, 4 * (size_t)cap);
        if (!ids) return 1;
      }
      if (fscanf(f, "%d", &ids[e++]) != 1) return 2;
    }
    offsets[v + 1] = e;
  }
  fclose(f);
  memset(&g, 0, sizeof(g));
  g.num_nodes = n;
  g.in_offsets = offsets;
  g.in_ids = ids;
  memset(&p, 0, sizeof(p));
  p.graph = &g;
  p.cpu_time = cpu;
  p.acc_time = acc;
  p.xfer = xfer;
  p.device = device;
  p.is_output = output;
#if DNNMEM_VERSION_MAJOR == 0 && DNNMEM_VERSION_MINOR == 1
  if (dnnmem_place_scratch_size(n, e, &bytes) != DNNMEM_OK) return 1;
#else
  if (dnnmem_place_solve_scratch_size(&p, NULL, &bytes) != DNNMEM_OK) return 1;
#endif
  mem = take(bytes);
  for (i = 0; i <= reps; i++) {
    double w = wall_ms(), c = cpu_ms();
    if (dnnmem_place_solve(&p, NULL, placed, &r, mem, bytes) != DNNMEM_OK) {
      fprintf(stderr, "place_solve: the solve failed\n");
      return 1;
    }
    c = cpu_ms() - c;
    w = wall_ms() - w;
    if (i == 0) first = w; /* fresh scratch: not among the CPU times */
    else if (c < best) best = c;
  }
  printf("%lld %.3f %.3f\n", (long long)r.time, first, best);
  free(mem);
  free(cpu);
  free(acc);
  free(xfer);
  free(device);
  free(output);
  free(placed);
  free(offsets);
  free(ids);
  return 0;
}

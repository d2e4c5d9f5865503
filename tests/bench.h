/* tests/bench.h: what the benchmarks (make bench) share: the library, the
   tool's data reader (examples/dnnmem_files.h on stb_ds), the oracles of
   tests/ref.h and a wall clock. Include it first, once per benchmark. */
#ifndef DNNMEM_TESTS_BENCH_H
#define DNNMEM_TESTS_BENCH_H
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define STB_DS_IMPLEMENTATION
#include <stb/stb_ds.h>
#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "../examples/dnnmem_files.h"
#include "ref.h"

#if defined(__GNUC__) || defined(__clang__)
#define BENCH_FN static __attribute__((unused))
#else
#define BENCH_FN static
#endif

/* Wall-clock milliseconds (monotonic). */
BENCH_FN double bench_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* A graph CSV; 0 with the reader's FILE:LINE message on stderr when it
   cannot be read. */
BENCH_FN int bench_read_graph(const char *path, files_graph *g) {
  files_error err;
  if (files_read_graph(path, g, &err) == 0) return 1;
  files_error_print(stderr, &err);
  return 0;
}
#endif

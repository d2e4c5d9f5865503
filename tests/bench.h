/* tests/bench.h: what the benchmarks (make bench) share: the library, the
   tool's data reader (examples/dnnmem_files.h on stb_ds), the oracles of
   tests/ref.h and a wall clock. Include it first, once per benchmark. */
#ifndef DNNMEM_TESTS_BENCH_H
#define DNNMEM_TESTS_BENCH_H
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
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

/* This process's CPU milliseconds (clock): comparisons of two searches
   that other processes on a shared machine do not skew. */
BENCH_FN double bench_cpu_ms(void) { return (double)clock() * 1e3 / CLOCKS_PER_SEC; }

/* A graph CSV; 0 with the reader's FILE:LINE message on stderr when it
   cannot be read. */
BENCH_FN int bench_read_graph(const char *path, files_graph *g) {
  files_error err;
  if (files_read_graph(path, g, &err) == 0) return 1;
  files_error_print(stderr, &err);
  return 0;
}

static int bench__by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of the files in dir that end in suffix and contain none of the
   strings in skip (NULL-terminated; skip may be NULL), sorted; *out_count
   of them (0 and NULL when dir cannot be read). Free with bench_list_free. */
BENCH_FN char **bench_list(const char *dir, const char *suffix, const char *const *skip, size_t *out_count) {
  DIR *d = opendir(dir);
  struct dirent *e;
  char **names = NULL;
  size_t count = 0, k;
  *out_count = 0;
  if (!d) return NULL;
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name), s = strlen(suffix);
    int keep = len > s && strcmp(e->d_name + len - s, suffix) == 0;
    for (k = 0; keep && skip && skip[k]; k++) keep = strstr(e->d_name, skip[k]) == NULL;
    if (!keep) continue;
    names = (char **)realloc(names, (count + 1) * sizeof(char *));
    names[count] = (char *)malloc(len + 1);
    memcpy(names[count++], e->d_name, len + 1);
  }
  closedir(d);
  if (count) qsort(names, count, sizeof(char *), bench__by_name);
  *out_count = count;
  return names;
}

BENCH_FN void bench_list_free(char **names, size_t count) {
  size_t i;
  for (i = 0; i < count; i++) free(names[i]);
  free(names);
}
#endif

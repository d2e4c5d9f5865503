/* tests/remat_graph.h: reads a dnnmem graph CSV into a dnnmem_remat_problem,
   for the remat test and benchmark (include after dnnmem.h); also points a
   problem at arrays (remat_problem_point). Times are read in microseconds
   and kept in integer nanoseconds, as the tool does. */
#ifndef DNNMEM_TESTS_REMAT_GRAPH_H
#define DNNMEM_TESTS_REMAT_GRAPH_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct remat_graph {
  int32_t n, *off, *ids;
  int64_t *size, *time;
  uint8_t *out;
  dnnmem_graph graph;
  dnnmem_remat_problem p; /* points into the arrays above */
} remat_graph;

/* Points a problem (and its graph) at per-node arrays. */
static void remat_problem_point(dnnmem_remat_problem *p, dnnmem_graph *graph, int32_t n,
                                const int32_t *off, const int32_t *ids, const int64_t *size,
                                const int64_t *time, const uint8_t *out) {
  graph->num_nodes = n;
  graph->in_offsets = off;
  graph->in_ids = ids;
  p->graph = graph;
  p->sizes = size;
  p->times = time;
  p->is_output = out;
}

static int read_graph(const char *path, remat_graph *g) {
  FILE *f = fopen(path, "r");
  char line[1 << 16];
  int32_t cap = 1024, ecap = 4096, e = 0;
  if (!f) return 0;
  memset(g, 0, sizeof(*g));
  g->off = (int32_t *)malloc((size_t)(cap + 1) * 4);
  g->ids = (int32_t *)malloc((size_t)ecap * 4);
  g->size = (int64_t *)malloc((size_t)cap * 8);
  g->time = (int64_t *)malloc((size_t)cap * 8);
  g->out = (uint8_t *)malloc((size_t)cap);
  g->off[0] = 0;
  while (fgets(line, sizeof(line), f)) {
    char *field[11], *p = line;
    int k = 0;
    if (line[0] == '#' || strncmp(line, "id,", 3) == 0) continue;
    while (k < 11 && p) {
      field[k++] = p;
      p = strchr(p, ',');
      if (p) *p++ = 0;
    }
    if (k < 11) continue;
    if (g->n >= cap) {
      cap *= 2;
      g->off = (int32_t *)realloc(g->off, (size_t)(cap + 1) * 4);
      g->size = (int64_t *)realloc(g->size, (size_t)cap * 8);
      g->time = (int64_t *)realloc(g->time, (size_t)cap * 8);
      g->out = (uint8_t *)realloc(g->out, (size_t)cap);
    }
    g->size[g->n] = atoll(field[3]);
    g->time[g->n] = (int64_t)(atof(field[4]) * 1e3 + 0.5);
    g->out[g->n] = (uint8_t)atoi(field[9]);
    for (p = field[10]; *p && *p != '\n';) {
      char *end;
      long id = strtol(p, &end, 10);
      if (end == p) break;
      if (e >= ecap) {
        ecap *= 2;
        g->ids = (int32_t *)realloc(g->ids, (size_t)ecap * 4);
      }
      g->ids[e++] = (int32_t)id;
      p = end;
    }
    g->off[++g->n] = e;
  }
  fclose(f);
  remat_problem_point(&g->p, &g->graph, g->n, g->off, g->ids, g->size, g->time, g->out);
  return g->n > 0;
}

static void remat_graph_free(remat_graph *g) {
  free(g->off);
  free(g->ids);
  free(g->size);
  free(g->time);
  free(g->out);
}

#endif

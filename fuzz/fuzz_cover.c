/* fuzz/fuzz_cover.c: path-cover grouping. The first byte picks the check:
   0 chains of intervals, dnnmem_plan_chains (groups valid, count == max
   overlap recounted here, the groups those of the documented rule),
   1 DAG path cover (every vertex once, consecutive vertices joined by an
   edge, count == n - brute-force maximum path matching), 2 the transitive
   variant (consecutive vertices reachable, count == brute-force largest
   antichain), 3 W (paths walk edges, every edge covered as often as
   reported, W == brute-force largest edge antichain). Graphs are tiny and
   may have cycles, self-loops or bad ids: then the error code is checked.
   Short scratch must always be refused. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "../tests/ref.h"

/* ---- intervals ------------------------------------------------------------ */

static void fuzz_intervals(fuzz_input *in) {
  int32_t n = (int32_t)(fuzz_u8(in) % 65), i, k, groups, best = 0;
  dnnmem_plan_chains_result chained;
  dnnmem_error e;
  uint32_t shape = fuzz_u8(in);
  dnnmem_interval *r = (dnnmem_interval *)calloc((size_t)n + 1, sizeof(dnnmem_interval));
  int32_t *group_of = (int32_t *)malloc(((size_t)n + 1) * sizeof(int32_t));
  int32_t *order = (int32_t *)malloc(((size_t)n + 1) * sizeof(int32_t));
  int32_t *seen = (int32_t *)calloc((size_t)n + 1, sizeof(int32_t));
  size_t bytes = 0;
  unsigned char *scratch;
  dnnmem_intervals problem;
  dnnmem_result res;
  for (i = 0; i < n; i++) {
    int64_t lo = (int64_t)(fuzz_u8(in) % (shape & 1 ? 16 : 64));
    int64_t len = (int64_t)(fuzz_u8(in) % (shape & 2 ? 4 : 40)); /* 0: an invalid record */
    if (shape & 4) lo = lo * 1000003 - 5000000000LL; /* far from zero */
    r[i].lower = lo;
    r[i].upper = lo + len;
    r[i].size = (int64_t)fuzz_u8(in);
  }
  problem.records = r;
  problem.count = n;
  problem.alignment = 0;
  FUZZ_CHECK(dnnmem_plan_chains_scratch_size(&problem, &bytes) == DNNMEM_OK);
  FUZZ_CHECK(bytes <= DNNMEM_PLAN_CHAINS_SCRATCH_BYTES(n));
  scratch = (unsigned char *)malloc(bytes + 16);
  res = dnnmem_plan_chains(&problem, group_of, order, &chained, scratch + (shape >> 4), bytes);
  groups = chained.groups;
  if (dnnmem_intervals_check(&problem, &e) != DNNMEM_OK) { /* the same error, named the same */
    FUZZ_CHECK(res == dnnmem_intervals_check(&problem, NULL));
    FUZZ_CHECK(groups == 0 && chained.error.index == e.index && chained.error.field == e.field);
  } else {
    FUZZ_CHECK(res == DNNMEM_OK);
    /* independent lower bound: the maximum number alive at some lower */
    for (i = 0; i < n; i++) {
      int32_t alive = 0, j;
      for (j = 0; j < n; j++) alive += r[j].lower <= r[i].lower && r[i].lower < r[j].upper;
      if (alive > best) best = alive;
    }
    FUZZ_CHECK(groups == best);
    ref_plan_chains_rule(r, n, seen); /* seen[] doubles as the expected groups */
    for (i = 0; i < n; i++) FUZZ_CHECK(group_of[i] == seen[i]);
    memset(seen, 0, ((size_t)n + 1) * sizeof(int32_t));
    for (k = 0; k < n; k++) {
      int32_t id = order[k];
      FUZZ_CHECK(id >= 0 && id < n);
      FUZZ_CHECK(++seen[id] == 1);
      FUZZ_CHECK(group_of[id] >= 0 && group_of[id] < groups);
      if (k == 0) FUZZ_CHECK(group_of[id] == 0);
      else if (group_of[id] == group_of[order[k - 1]]) FUZZ_CHECK(r[order[k - 1]].upper <= r[id].lower);
      else FUZZ_CHECK(group_of[id] == group_of[order[k - 1]] + 1);
    }
    /* a short buffer is refused, never overrun */
    if (bytes > 16) {
      unsigned char *tight = (unsigned char *)malloc(bytes - 16);
      FUZZ_CHECK(dnnmem_plan_chains(&problem, group_of, order, &chained, tight, bytes - 16) ==
                 DNNMEM_ERR_SCRATCH_TOO_SMALL);
      free(tight);
    }
  }
  free(scratch);
  free(r);
  free(group_of);
  free(order);
  free(seen);
}


/* ---- tiny graphs ---------------------------------------------------------- */

#define FG_MAX_N 8
#define FG_MAX_M 10

typedef struct fuzz_graph {
  int32_t n, m;
  int32_t in_offsets[FG_MAX_N + 1], in_ids[FG_MAX_M], head[FG_MAX_M];
  unsigned char reach[REF_COVER_MAX_N][REF_COVER_MAX_N]; /* path of length >= 1 */
  int bad_id, cyclic;
  dnnmem_graph g;
} fuzz_graph;

static void fuzz_graph_read(fuzz_input *in, fuzz_graph *t) {
  int32_t v, k, a;
  uint32_t mode = fuzz_u8(in);
  t->n = 1 + (int32_t)(fuzz_u8(in) % FG_MAX_N);
  t->m = 0;
  t->bad_id = 0;
  t->in_offsets[0] = 0;
  for (v = 0; v < t->n; v++) {
    int32_t ins = (int32_t)(fuzz_u8(in) % 4);
    for (k = 0; k < ins && t->m < FG_MAX_M; k++) {
      uint32_t byte = fuzz_u8(in);
      int32_t u;
      if (mode & 1) u = (int32_t)(byte % (uint32_t)t->n); /* anything: cycles possible */
      else u = v == 0 ? -1 : (int32_t)(byte % (uint32_t)v); /* smaller ids: a DAG */
      if (u < 0) break;
      if ((mode & 2) && byte == 255) u = t->n + 3, t->bad_id = 1;
      t->in_ids[t->m] = u;
      t->head[t->m] = v;
      t->m++;
    }
    t->in_offsets[v + 1] = t->m;
  }
  t->g.num_nodes = t->n;
  t->g.in_offsets = t->in_offsets;
  t->g.in_ids = t->in_ids;
  memset(t->reach, 0, sizeof(t->reach));
  if (!t->bad_id) ref_cover_reach(&t->g, t->reach);
  t->cyclic = 0;
  for (a = 0; a < t->n; a++) t->cyclic |= t->reach[a][a];
}

static int fuzz_has_edge(const fuzz_graph *t, int32_t from, int32_t to) {
  int32_t k;
  for (k = 0; k < t->m; k++)
    if (t->in_ids[k] == from && t->head[k] == to) return 1;
  return 0;
}

static void fuzz_dag(fuzz_input *in, int32_t transitive) {
  fuzz_graph t;
  int32_t path_of[FG_MAX_N], order[FG_MAX_N], seen[FG_MAX_N] = {0}, paths, k;
  size_t bytes = 0;
  unsigned char *scratch;
  dnnmem_cover_options options;
  dnnmem_cover_result result = {-1, -1, {-1, DNNMEM_FIELD_NONE, -1}};
  dnnmem_result res;
  options.transitive = transitive;
  fuzz_graph_read(in, &t);
  res = dnnmem_cover_vertices_scratch_size(&t.g, &options, &bytes);
  if (t.bad_id) { /* refused before any scratch is looked at */
    FUZZ_CHECK(res == DNNMEM_ERR_ID_RANGE);
    FUZZ_CHECK(dnnmem_cover_vertices(&t.g, &options, path_of, order, &result, NULL, 0) == DNNMEM_ERR_ID_RANGE);
    FUZZ_CHECK(result.paths == -1);
    return;
  }
  FUZZ_CHECK(res == DNNMEM_OK);
  scratch = (unsigned char *)malloc(bytes + 16);
  res = dnnmem_cover_vertices(&t.g, &options, path_of, order, &result, scratch + t.m % 16, bytes);
  paths = result.paths;
  if (t.cyclic) {
    FUZZ_CHECK(res == DNNMEM_ERR_CYCLE && paths == -1);
  } else {
    FUZZ_CHECK(res == DNNMEM_OK && result.path_nodes == t.n);
    if (transitive) FUZZ_CHECK(paths == ref_cover_chains(&t.g));
    else FUZZ_CHECK(paths == ref_cover_vertex_paths(&t.g));
    for (k = 0; k < t.n; k++) {
      int32_t v = order[k];
      FUZZ_CHECK(v >= 0 && v < t.n && ++seen[v] == 1);
      FUZZ_CHECK(path_of[v] >= 0 && path_of[v] < paths);
      if (k == 0) FUZZ_CHECK(path_of[v] == 0);
      else if (path_of[v] == path_of[order[k - 1]])
        FUZZ_CHECK(transitive ? t.reach[order[k - 1]][v] : fuzz_has_edge(&t, order[k - 1], v));
      else FUZZ_CHECK(path_of[v] == path_of[order[k - 1]] + 1);
    }
    if (bytes > 16) {
      unsigned char *tight = (unsigned char *)malloc(bytes - 16);
      FUZZ_CHECK(dnnmem_cover_vertices(&t.g, &options, path_of, order, NULL, tight, bytes - 16) ==
                 DNNMEM_ERR_SCRATCH_TOO_SMALL);
      free(tight);
    }
  }
  free(scratch);
}

static void fuzz_edges(fuzz_input *in) {
  fuzz_graph t;
  int64_t uses[FG_MAX_M], offsets[FG_MAX_M + 1], total = -1, walked[FG_MAX_M] = {0};
  int32_t nodes[256], w, p, k, j;
  size_t bytes = 0;
  unsigned char *scratch;
  dnnmem_cover_result result = {-1, -1, {-1, DNNMEM_FIELD_NONE, -1}};
  dnnmem_result res;
  fuzz_graph_read(in, &t);
  res = dnnmem_cover_edges_scratch_size(&t.g, NULL, &bytes);
  if (t.bad_id) { /* refused before any scratch is looked at */
    FUZZ_CHECK(res == DNNMEM_ERR_ID_RANGE);
    FUZZ_CHECK(dnnmem_cover_edges(&t.g, NULL, uses, offsets, nodes, 256, &result, NULL, 0) == DNNMEM_ERR_ID_RANGE);
    FUZZ_CHECK(result.paths == -1);
    return;
  }
  FUZZ_CHECK(res == DNNMEM_OK);
  scratch = (unsigned char *)malloc(bytes + 16);
  res = dnnmem_cover_edges(&t.g, NULL, uses, offsets, nodes, 256, &result, scratch + t.n % 16, bytes);
  w = result.paths;
  total = result.path_nodes;
  if (t.cyclic) {
    FUZZ_CHECK(res == DNNMEM_ERR_CYCLE && w == -1);
  } else if (res == DNNMEM_ERR_OUTPUT_TOO_SMALL) {
    FUZZ_CHECK(total > 256 && w == ref_cover_w(&t.g));
  } else {
    FUZZ_CHECK(res == DNNMEM_OK);
    FUZZ_CHECK(w == ref_cover_w(&t.g));
    FUZZ_CHECK(offsets[0] == 0 && offsets[w] == total);
    for (p = 0; p < w; p++) {
      int64_t i;
      FUZZ_CHECK(offsets[p + 1] >= offsets[p] + 2);
      for (i = offsets[p]; i + 1 < offsets[p + 1]; i++) {
        int32_t first = -1;
        for (k = 0; k < t.m && first < 0; k++)
          if (t.in_ids[k] == nodes[i] && t.head[k] == nodes[i + 1]) first = k;
        FUZZ_CHECK(first >= 0);
        walked[first]++;
      }
    }
    for (k = 0; k < t.m; k++) {
      int32_t first = k;
      for (j = 0; j < k; j++)
        if (t.in_ids[j] == t.in_ids[k] && t.head[j] == t.head[k]) {
          first = j;
          break;
        }
      FUZZ_CHECK(uses[k] >= 1 && uses[k] == walked[first]);
    }
    if (bytes > 16) {
      unsigned char *tight = (unsigned char *)malloc(bytes - 16);
      FUZZ_CHECK(dnnmem_cover_edges(&t.g, NULL, NULL, NULL, NULL, 0, NULL, tight, bytes - 16) ==
                 DNNMEM_ERR_SCRATCH_TOO_SMALL);
      free(tight);
    }
  }
  free(scratch);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in;
  in.data = data;
  in.size = size;
  in.pos = 0;
  (void)fuzz_u32; /* fuzz.h helpers this target does not need */
  (void)fuzz_more;
  switch (fuzz_u8(&in) % 4) {
    case 1:
      fuzz_dag(&in, 0);
      break;
    case 2:
      fuzz_dag(&in, 1);
      break;
    case 3:
      fuzz_edges(&in);
      break;
    default:
      fuzz_intervals(&in);
      break;
  }
  return 0;
}

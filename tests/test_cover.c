/* tests/test_cover.c: path-cover grouping (dnnmem_cover_*). */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "ref.h"

/* ---- the calls, in the shape these tests use ------------------------------ */

#define TRANSITIVE 1

/* dnnmem_plan_chains on bare records (no alignment). */
static dnnmem_result chains(const dnnmem_interval *r, int32_t n, int32_t *group_of, int32_t *order,
                            int32_t *groups, void *scratch, size_t bytes) {
  dnnmem_intervals problem;
  dnnmem_plan_chains_result result;
  dnnmem_result code;
  problem.records = r;
  problem.count = n;
  problem.alignment = 0;
  code = dnnmem_plan_chains(&problem, group_of, order, &result, scratch, bytes);
  if (code == DNNMEM_OK) *groups = result.groups;
  return code;
}

static dnnmem_result chains_scratch_size(int32_t n, size_t *bytes) {
  dnnmem_intervals problem;
  problem.records = NULL; /* not read */
  problem.count = n;
  problem.alignment = 0;
  return dnnmem_plan_chains_scratch_size(&problem, bytes);
}

static dnnmem_result vertices_scratch_size(const dnnmem_graph *g, int32_t transitive, size_t *bytes) {
  dnnmem_cover_options options;
  options.transitive = transitive;
  return dnnmem_cover_vertices_scratch_size(g, &options, bytes);
}

/* dnnmem_cover_vertices; *paths (may be NULL) the path count. */
static dnnmem_result vertices(const dnnmem_graph *g, int32_t transitive, int32_t *path_of, int32_t *order,
                              int32_t *paths, void *scratch, size_t bytes) {
  dnnmem_cover_options options;
  dnnmem_cover_result result = {-1, -1, {-1, DNNMEM_FIELD_NONE, -1}};
  dnnmem_result r;
  options.transitive = transitive;
  r = dnnmem_cover_vertices(g, &options, path_of, order, &result, scratch, bytes);
  if (r == DNNMEM_OK) CHECK_EQ(result.path_nodes, g->num_nodes);
  if (paths && r == DNNMEM_OK) *paths = result.paths;
  return r;
}

/* dnnmem_cover_edges; *total and *w (may be NULL) from the result, also
   when the path array is too small. */
static dnnmem_result edges(const dnnmem_graph *g, int64_t *uses, int64_t *offsets, int32_t *nodes,
                           int64_t capacity, int64_t *total, int32_t *w, void *scratch, size_t bytes) {
  dnnmem_cover_result result = {-1, -1, {-1, DNNMEM_FIELD_NONE, -1}};
  dnnmem_result r = dnnmem_cover_edges(g, NULL, uses, offsets, nodes, capacity, &result, scratch, bytes);
  if (r == DNNMEM_OK || r == DNNMEM_ERR_OUTPUT_TOO_SMALL) {
    if (total) *total = result.path_nodes;
    if (w) *w = result.paths;
  }
  return r;
}

/* ---- helpers: independent recounts -------------------------------------- */

/* max over every lower x of #{i : lower[i] <= x < upper[i]}, by brute force */
static int32_t brute_overlap_max(const dnnmem_interval *r, int32_t n) {
  int32_t best = 0, i, j;
  for (i = 0; i < n; i++) {
    int32_t alive = 0;
    for (j = 0; j < n; j++)
      if (r[j].lower <= r[i].lower && r[i].lower < r[j].upper) alive++;
    if (alive > best) best = alive;
  }
  return best;
}

/* Runs the cover and checks every structural property independently.
   Returns the group count (-1 on an error result). */
static int32_t cover_and_check(const dnnmem_interval *r, int32_t n) {
  size_t bytes = 0;
  int32_t *group_of = (int32_t *)malloc(((size_t)n + 1) * sizeof(int32_t));
  int32_t *order = (int32_t *)malloc(((size_t)n + 1) * sizeof(int32_t));
  int32_t *seen = (int32_t *)calloc((size_t)n + 1, sizeof(int32_t));
  int32_t groups = -7, k;
  void *scratch;
  CHECK_EQ(chains_scratch_size(n, &bytes), DNNMEM_OK);
  CHECK(bytes <= DNNMEM_PLAN_CHAINS_SCRATCH_BYTES(n));
  scratch = malloc(bytes + 1);
  /* an odd pointer: any alignment must be accepted */
  if (chains(r, n, group_of, order, &groups, (char *)scratch + 1, bytes) !=
      DNNMEM_OK) {
    CHECK(0);
    groups = -1;
  } else {
    int32_t prev_group = 0;
    CHECK(groups >= 0 && groups <= n);
    for (k = 0; k < n; k++) {
      int32_t id = order[k];
      CHECK(id >= 0 && id < n);
      if (id < 0 || id >= n) continue;
      seen[id]++;
      CHECK_EQ(seen[id], 1);
      CHECK(group_of[id] >= 0 && group_of[id] < groups);
      /* groups appear in order, each contiguous; a group's chain in time order */
      CHECK(group_of[id] == prev_group || group_of[id] == prev_group + 1 || k == 0);
      if (k == 0) CHECK_EQ(group_of[id], 0);
      if (k > 0 && group_of[id] == group_of[order[k - 1]])
        CHECK(r[order[k - 1]].upper <= r[id].lower);
      /* groups are numbered by creation: first lowers never decrease */
      if (k > 0 && group_of[id] != group_of[order[k - 1]]) {
        int32_t j = k - 1;
        while (j > 0 && group_of[order[j - 1]] == group_of[order[k - 1]]) j--;
        CHECK(r[order[j]].lower <= r[id].lower);
      }
      prev_group = group_of[id];
    }
    if (n > 0) CHECK_EQ(group_of[order[n - 1]], groups - 1);
  }
  free(scratch);
  free(group_of);
  free(order);
  free(seen);
  return groups;
}

/* ---- LeapMind's examples --------------------------------------------------- */

/* LeapMind's worst case for the old order: a chain where every tensor lives
   two steps, [i, i+2). The grouping must alternate: evens, then odds. */
static void test_seed_chain_alternates(void) {
  dnnmem_interval r[9];
  int32_t group_of[9], order[9], groups = 0, i;
  unsigned char scratch[DNNMEM_PLAN_CHAINS_SCRATCH_BYTES(9)];
  for (i = 0; i < 9; i++) r[i] = ref_plan_record(i, i + 2, 100);
  CHECK_EQ(chains(r, 9, group_of, order, &groups, scratch, sizeof(scratch)),
           DNNMEM_OK);
  CHECK_EQ(groups, 2);
  for (i = 0; i < 9; i++) CHECK_EQ(group_of[i], i % 2);
  for (i = 0; i < 5; i++) CHECK_EQ(order[i], 2 * i);
  for (i = 0; i < 4; i++) CHECK_EQ(order[5 + i], 2 * i + 1);
}

/* LeapMind's figure 2 shape: a value with two consumers lives longer.
   Graph 0 -> 1 -> 2 -> 3 and 0 -> 3 (a skip): lifetimes from the graph
   rule [i, max(i, consumers) + 1): 0:[0,4) 1:[1,3) 2:[2,4) 3:[3,4).
   overlap_max is 3 (at step 3: values 0, 2 and 3). */
static void test_seed_skip_connection(void) {
  int32_t in_offsets[5] = {0, 0, 1, 2, 4};
  int32_t in_ids[4] = {0, 1, 2, 0};
  int64_t sizes[4] = {4, 4, 4, 4};
  dnnmem_graph g;
  dnnmem_interval r[4];
  int32_t group_of[4], order[4], groups = 0;
  unsigned char scratch[DNNMEM_PLAN_CHAINS_SCRATCH_BYTES(4)];
  g.num_nodes = 4;
  g.in_offsets = in_offsets;
  g.in_ids = in_ids;
  CHECK_EQ(dnnmem_graph_intervals(&g, sizes, NULL, r, NULL), DNNMEM_OK);
  CHECK_EQ(r[0].upper, 4);
  CHECK_EQ(r[1].upper, 3);
  CHECK_EQ(chains(r, 4, group_of, order, &groups, scratch, sizeof(scratch)),
           DNNMEM_OK);
  CHECK_EQ(groups, 3);
  CHECK_EQ(groups, brute_overlap_max(r, 4));
  /* 0 alone; 1 then 3 (1 ends at 3); 2 alone */
  CHECK_VALUES(group_of, 0, 1, 2, 1);
  CHECK_VALUES(order, 0, 1, 3, 2);
}

/* ---- the deterministic rules ---------------------------------------------- */

/* Best fit: a record joins the free group whose last member ended latest. */
static void test_best_fit_rule(void) {
  dnnmem_interval r[5];
  int32_t group_of[5], order[5], groups = 0;
  unsigned char scratch[DNNMEM_PLAN_CHAINS_SCRATCH_BYTES(5)];
  r[0] = ref_plan_record(0, 1, 8); /* sorted second (shorter): group 1, ends 1 */
  r[1] = ref_plan_record(0, 3, 8); /* longest first: group 0, ends 3 */
  r[2] = ref_plan_record(5, 6, 8); /* both free: group 0 ended later */
  r[3] = ref_plan_record(5, 7, 8); /* sorted before r[2] (longer): group 0 */
  r[4] = ref_plan_record(7, 9, 8); /* free: group 0 (ends 7), group 1 (ends 6): 0 */
  CHECK_EQ(chains(r, 5, group_of, order, &groups, scratch, sizeof(scratch)),
           DNNMEM_OK);
  CHECK_EQ(groups, 2);
  CHECK_EQ(group_of[1], 0);
  CHECK_EQ(group_of[0], 1);
  CHECK_EQ(group_of[3], 0);
  CHECK_EQ(group_of[2], 1);
  CHECK_EQ(group_of[4], 0);
}

/* Equal sizes and ends: the older group (smaller number) is preferred. */
static void test_tie_prefers_older_group(void) {
  dnnmem_interval r[3];
  int32_t group_of[3], groups = 0;
  unsigned char scratch[DNNMEM_PLAN_CHAINS_SCRATCH_BYTES(3)];
  r[0] = ref_plan_record(0, 2, 1);
  r[1] = ref_plan_record(0, 2, 1); /* same everything: index order, group 1 */
  r[2] = ref_plan_record(2, 3, 1);
  CHECK_EQ(chains(r, 3, group_of, NULL, &groups, scratch, sizeof(scratch)),
           DNNMEM_OK);
  CHECK_EQ(groups, 2);
  CHECK_VALUES(group_of, 0, 1, 0);
}

/* The size rule: the free group whose last member's size is closest wins,
   even over a group that ended later. */
static void test_closest_size_rule(void) {
  dnnmem_interval r[6];
  int32_t group_of[6], groups = 0;
  unsigned char scratch[DNNMEM_PLAN_CHAINS_SCRATCH_BYTES(6)];
  r[0] = ref_plan_record(0, 5, 100); /* group 0, ends 5 */
  r[1] = ref_plan_record(0, 4, 10);  /* group 1, ends 4 */
  r[2] = ref_plan_record(0, 3, 55);  /* group 2, ends 3 */
  r[3] = ref_plan_record(6, 7, 12);  /* all free: 10 is closest -> group 1 */
  r[4] = ref_plan_record(6, 7, 80);  /* 100 (d 20) vs 55 (d 25): group 0 */
  r[5] = ref_plan_record(6, 7, 1);   /* only 55 left: group 2 */
  CHECK_EQ(chains(r, 6, group_of, NULL, &groups, scratch, sizeof(scratch)),
           DNNMEM_OK);
  CHECK_EQ(groups, 3);
  CHECK_VALUES(group_of, 0, 1, 2, 1, 0, 2);
  /* equal distances: the later end wins (77 is 22 from 55 and from 99) */
  r[0] = ref_plan_record(0, 5, 99);
  r[3] = ref_plan_record(6, 7, 77);
  r[4] = ref_plan_record(6, 7, 10);
  r[5] = ref_plan_record(6, 7, 10);
  CHECK_EQ(chains(r, 6, group_of, NULL, &groups, scratch, sizeof(scratch)),
           DNNMEM_OK);
  CHECK_EQ(group_of[3], 0);
}

static void test_rule_matches_reference(void) {
  FOR_TRIALS(rng, 77, trial, 300) {
    int32_t n = (int32_t)dnnmem_rng_below(&rng, 80), i, groups = 0;
    dnnmem_interval *r = (dnnmem_interval *)malloc(((size_t)n + 1) * sizeof(dnnmem_interval));
    int32_t *mine = (int32_t *)malloc(((size_t)n + 1) * sizeof(int32_t));
    int32_t *want = (int32_t *)malloc(((size_t)n + 1) * sizeof(int32_t));
    size_t bytes = 0;
    void *scratch;
    for (i = 0; i < n; i++) {
      int64_t lo = dnnmem_rng_below(&rng, 40);
      r[i] = ref_plan_record(lo, lo + 1 + dnnmem_rng_below(&rng, 10),
                           dnnmem_rng_below(&rng, trial % 2 ? 4 : 1000));
    }
    CHECK_EQ(chains_scratch_size(n, &bytes), DNNMEM_OK);
    scratch = malloc(bytes);
    CHECK_EQ(chains(r, n, mine, NULL, &groups, scratch, bytes), DNNMEM_OK);
    ref_plan_chains_rule(r, n, want);
    for (i = 0; i < n; i++) CHECK_EQ(mine[i], want[i]);
    free(scratch);
    free(r);
    free(mine);
    free(want);
  }
}

/* ---- random instances: count == independent max overlap ------------------- */

static void test_random_equals_overlap_max(void) {
  FOR_TRIALS(rng, 12345, trial, 400) {
    int32_t n = (int32_t)dnnmem_rng_below(&rng, 60), i;
    int64_t horizon = 1 + dnnmem_rng_below(&rng, 50);
    dnnmem_interval *r = (dnnmem_interval *)malloc(((size_t)n + 1) * sizeof(dnnmem_interval));
    for (i = 0; i < n; i++) {
      int64_t lo = dnnmem_rng_below(&rng, (uint32_t)horizon);
      int64_t len = 1 + dnnmem_rng_below(&rng, trial % 3 == 0 ? 3 : 20);
      r[i] = ref_plan_record(lo - 1000000007LL * (trial % 2), lo + len - 1000000007LL * (trial % 2),
                           dnnmem_rng_below(&rng, 5));
    }
    CHECK_EQ(cover_and_check(r, n), brute_overlap_max(r, n));
    free(r);
  }
}

/* the same records in another order give the same count */
static void test_permutation_same_count(void) {
  dnnmem_rng rng;
  dnnmem_interval r[40], p[40];
  int32_t i, a, b;
  dnnmem_rng_seed(&rng, 7);
  for (i = 0; i < 40; i++) {
    int64_t lo = dnnmem_rng_below(&rng, 30);
    r[i] = ref_plan_record(lo, lo + 1 + dnnmem_rng_below(&rng, 8), 1);
    p[i] = r[i];
  }
  for (i = 39; i > 0; i--) {
    dnnmem_interval t;
    a = (int32_t)dnnmem_rng_below(&rng, (uint32_t)i + 1);
    t = p[i];
    p[i] = p[a];
    p[a] = t;
  }
  a = cover_and_check(r, 40);
  b = cover_and_check(p, 40);
  CHECK_EQ(a, b);
  CHECK_EQ(a, brute_overlap_max(r, 40));
}

/* extreme times: no arithmetic on them may overflow; a lifetime longer
   than INT64_MAX is refused */
static void test_extreme_times(void) {
  dnnmem_interval r[4];
  r[0] = ref_plan_record(INT64_MIN, -1, 1);
  r[1] = ref_plan_record(INT64_MIN, -2, 1);
  r[2] = ref_plan_record(0, INT64_MAX, 1);
  r[3] = ref_plan_record(INT64_MAX - 1, INT64_MAX, 1);
  CHECK_EQ(cover_and_check(r, 4), 2);
  r[0] = ref_plan_record(INT64_MIN, 0, 1);
  {
    dnnmem_intervals problem = {r, 4, 0};
    CHECK_EQ(dnnmem_intervals_check(&problem, NULL), DNNMEM_ERR_OVERFLOW);
  }
}

/* gaps are ignored: a record occupies its whole lifetime */
static void test_gaps_ignored(void) {
  dnnmem_gap gap;
  dnnmem_interval r[2];
  int32_t groups = 0;
  unsigned char scratch[DNNMEM_PLAN_CHAINS_SCRATCH_BYTES(2)];
  gap.lower = 2;
  gap.upper = 8;
  gap.window_lower = gap.window_upper = 0;
  r[0] = ref_plan_record(0, 10, 4);
  r[0].gaps = &gap;
  r[0].num_gaps = 1;
  r[1] = ref_plan_record(3, 5, 4);
  CHECK_EQ(chains(r, 2, NULL, NULL, &groups, scratch, sizeof(scratch)),
           DNNMEM_OK);
  CHECK_EQ(groups, 2);
}

/* ---- bad input and scratch ------------------------------------------------ */

static void test_intervals_bad_input(void) {
  dnnmem_interval r[3];
  int32_t group_of[3] = {-5, -5, -5}, groups = -5;
  size_t bytes = 0;
  unsigned char scratch[DNNMEM_PLAN_CHAINS_SCRATCH_BYTES(3)];
  r[0] = ref_plan_record(0, 2, 1);
  r[1] = ref_plan_record(3, 3, 1); /* empty */
  r[2] = ref_plan_record(1, 2, 1);
  CHECK_EQ(chains(r, 3, group_of, NULL, &groups, scratch, sizeof(scratch)),
           DNNMEM_ERR_EMPTY_INTERVAL);
  CHECK_EQ(groups, -5); /* nothing written on error */
  CHECK_EQ(group_of[0], -5);
  r[1] = ref_plan_record(3, 4, -1);
  CHECK_EQ(chains(r, 3, NULL, NULL, &groups, scratch, sizeof(scratch)),
           DNNMEM_ERR_NEGATIVE);
  CHECK_EQ(chains(r, -1, NULL, NULL, &groups, scratch, sizeof(scratch)),
           DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(chains(NULL, 3, NULL, NULL, &groups, scratch, sizeof(scratch)),
           DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(chains_scratch_size(-1, &bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(chains_scratch_size(3, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  /* empty input: zero groups, any scratch */
  CHECK_EQ(chains(NULL, 0, NULL, NULL, &groups, NULL, 0), DNNMEM_ERR_SCRATCH_TOO_SMALL);
  CHECK_EQ(chains_scratch_size(0, &bytes), DNNMEM_OK);
  CHECK_EQ(chains(NULL, 0, NULL, NULL, &groups, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(groups, 0);
}

static void test_intervals_short_scratch(void) {
  dnnmem_interval r[20];
  int32_t group_of[20], groups = -5, i;
  size_t bytes = 0, short_by;
  unsigned char *scratch;
  for (i = 0; i < 20; i++) r[i] = ref_plan_record(i, i + 3, 1);
  CHECK_EQ(chains_scratch_size(20, &bytes), DNNMEM_OK);
  scratch = (unsigned char *)malloc(bytes);
  for (short_by = 1; short_by <= bytes; short_by += 7) {
    /* aligned pointer, one byte short or more: the error, never an overrun
       (ASan watches the malloc'd block) */
    CHECK_EQ(chains(r, 20, group_of, NULL, &groups, scratch + short_by,
                                    bytes - short_by),
             DNNMEM_ERR_SCRATCH_TOO_SMALL);
  }
  CHECK_EQ(groups, -5);
  CHECK_EQ(chains(r, 20, group_of, NULL, &groups, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(groups, 3);
  free(scratch);
}


/* ---- DAG path covers and W ------------------------------------------------ */

#define TG_MAX_N 12
#define TG_MAX_M 40

/* a small test graph in CSR, built from an edge list */
typedef struct test_graph {
  int32_t n, m;
  int32_t in_offsets[TG_MAX_N + 1], in_ids[TG_MAX_M];
  int32_t edge_from[TG_MAX_M], edge_to[TG_MAX_M];
  dnnmem_graph g;
} test_graph;

static void tg_build(test_graph *t, int32_t n, int32_t m, const int32_t *from, const int32_t *to) {
  int32_t v, k, pos = 0;
  t->n = n;
  t->m = m;
  t->in_offsets[0] = 0;
  for (v = 0; v < n; v++) {
    for (k = 0; k < m; k++)
      if (to[k] == v) {
        t->in_ids[pos] = from[k];
        t->edge_from[pos] = from[k];
        t->edge_to[pos] = v;
        pos++;
      }
    t->in_offsets[v + 1] = pos;
  }
  t->g.num_nodes = n;
  t->g.in_offsets = t->in_offsets;
  t->g.in_ids = t->in_ids;
}

static int tg_has_edge(const test_graph *t, int32_t from, int32_t to) {
  int32_t k;
  for (k = 0; k < t->m; k++)
    if (t->edge_from[k] == from && t->edge_to[k] == to) return 1;
  return 0;
}

/* Runs dnnmem_cover_vertices and checks the cover; returns the path count. */
static int32_t dag_cover_and_check(const test_graph *t, int32_t flags) {
  unsigned char reach[REF_COVER_MAX_N][REF_COVER_MAX_N];
  int32_t path_of[TG_MAX_N], order[TG_MAX_N], seen[TG_MAX_N] = {0}, paths = -1, k;
  size_t bytes = 0;
  void *scratch;
  ref_cover_reach(&t->g, reach);
  CHECK_EQ(vertices_scratch_size(&t->g, flags, &bytes), DNNMEM_OK);
  scratch = malloc(bytes + 3);
  CHECK_EQ(vertices(&t->g, flags, path_of, order, &paths, (char *)scratch + 3, bytes),
           DNNMEM_OK);
  free(scratch);
  for (k = 0; k < t->n; k++) {
    int32_t v = order[k];
    CHECK(v >= 0 && v < t->n);
    if (v < 0 || v >= t->n) return -1;
    CHECK_EQ(++seen[v], 1);
    CHECK(path_of[v] >= 0 && path_of[v] < paths);
    if (k == 0) CHECK_EQ(path_of[v], 0);
    else if (path_of[v] == path_of[order[k - 1]]) {
      if (flags & TRANSITIVE) CHECK(reach[order[k - 1]][v] && order[k - 1] != v);
      else CHECK(tg_has_edge(t, order[k - 1], v));
    } else {
      CHECK_EQ(path_of[v], path_of[order[k - 1]] + 1);
    }
  }
  return paths;
}

/* Runs dnnmem_cover_edges and checks the paths; returns W. */
static int32_t edge_cover_and_check(const test_graph *t) {
  int64_t uses[TG_MAX_M], offsets[TG_MAX_M + 2], total = -1, walked[TG_MAX_M] = {0};
  int32_t nodes[4096], w = -1, p, k;
  size_t bytes = 0;
  void *scratch;
  CHECK_EQ(dnnmem_cover_edges_scratch_size(&t->g, NULL, &bytes), DNNMEM_OK);
  scratch = malloc(bytes);
  CHECK_EQ(edges(&t->g, uses, offsets, nodes, 4096, &total, &w, scratch, bytes),
           DNNMEM_OK);
  free(scratch);
  CHECK(w >= 0 && w <= t->m);
  if (w < 0 || w > t->m) return -1;
  CHECK_EQ(offsets[0], 0);
  CHECK_EQ(offsets[w], total);
  for (p = 0; p < w; p++) {
    int64_t i;
    CHECK(offsets[p + 1] >= offsets[p] + 2); /* a path has an edge */
    for (i = offsets[p]; i + 1 < offsets[p + 1]; i++) {
      int32_t a = nodes[i], b = nodes[i + 1], first = -1;
      for (k = 0; k < t->m; k++)
        if (t->edge_from[k] == a && t->edge_to[k] == b) {
          if (first < 0) first = k;
        }
      CHECK(first >= 0); /* consecutive vertices are joined by an edge */
      if (first >= 0) walked[first]++;
    }
  }
  for (k = 0; k < t->m; k++) {
    int32_t first = k, j;
    for (j = 0; j < k; j++)
      if (t->edge_from[j] == t->edge_from[k] && t->edge_to[j] == t->edge_to[k]) {
        first = j;
        break;
      }
    CHECK(uses[k] >= 1);
    CHECK_EQ(uses[k], walked[first]); /* every edge covered, counts agree */
  }
  return w;
}

static int32_t overlap_of_graph(const test_graph *t) {
  dnnmem_interval r[TG_MAX_N];
  int64_t sizes[TG_MAX_N];
  int32_t v;
  for (v = 0; v < t->n; v++) sizes[v] = 1;
  if (dnnmem_graph_intervals(&t->g, sizes, NULL, r, NULL) != DNNMEM_OK) return -1;
  return brute_overlap_max(r, t->n);
}

/* ResNet-style blocks: x -> a -> b -> add(b, x) -> ...; LeapMind's post says W = 2
   at every depth. Node 0 is the input. */
static void build_resnet(test_graph *t, int32_t blocks) {
  int32_t from[TG_MAX_M], to[TG_MAX_M], m = 0, b, x = 0, n = 1;
  for (b = 0; b < blocks; b++) {
    int32_t a = n, c = n + 1, add = n + 2;
    from[m] = x, to[m++] = a;
    from[m] = a, to[m++] = c;
    from[m] = c, to[m++] = add;
    from[m] = x, to[m++] = add;
    x = add;
    n += 3;
  }
  tg_build(t, n, m, from, to);
}

static void test_resnet_w_is_two(void) {
  test_graph t;
  int32_t blocks;
  for (blocks = 1; blocks <= 3; blocks++) {
    build_resnet(&t, blocks);
    CHECK_EQ(edge_cover_and_check(&t), 2);
    CHECK_EQ(ref_cover_w(&t.g), 2);
    /* x -> a -> b -> add -> ... visits every vertex: one path */
    CHECK_EQ(dag_cover_and_check(&t, 0), 1);
    CHECK_EQ(dag_cover_and_check(&t, TRANSITIVE), 1);
    CHECK(overlap_of_graph(&t) <= 2 * 2);
  }
}

static void test_chain_and_fan(void) {
  test_graph t;
  int32_t from[8], to[8];
  /* a chain: one path, W = 1 */
  from[0] = 0, to[0] = 1, from[1] = 1, to[1] = 2, from[2] = 2, to[2] = 3;
  tg_build(&t, 4, 3, from, to);
  CHECK_EQ(dag_cover_and_check(&t, 0), 1);
  CHECK_EQ(edge_cover_and_check(&t), 1);
  /* a fan 0 -> {1,2,3} -> 4: three paths cover the edges, three vertex paths */
  from[0] = 0, to[0] = 1, from[1] = 0, to[1] = 2, from[2] = 0, to[2] = 3;
  from[3] = 1, to[3] = 4, from[4] = 2, to[4] = 4, from[5] = 3, to[5] = 4;
  tg_build(&t, 5, 6, from, to);
  CHECK_EQ(edge_cover_and_check(&t), 3);
  CHECK_EQ(dag_cover_and_check(&t, 0), 3);
  CHECK_EQ(dag_cover_and_check(&t, TRANSITIVE), 3);
  /* the transitive variant joins across: 0->1, 2->3 with 0->3 only through... */
  from[0] = 0, to[0] = 1, from[1] = 1, to[1] = 2, from[2] = 0, to[2] = 3, from[3] = 3, to[3] = 2;
  tg_build(&t, 4, 4, from, to); /* diamond 0 -> {1,3} -> 2 */
  CHECK_EQ(dag_cover_and_check(&t, 0), 2);
  CHECK_EQ(dag_cover_and_check(&t, TRANSITIVE), 2);
  CHECK_EQ(edge_cover_and_check(&t), 2);
  /* x * x: a repeated input is one edge */
  from[0] = 0, to[0] = 1, from[1] = 0, to[1] = 1;
  tg_build(&t, 2, 2, from, to);
  CHECK_EQ(edge_cover_and_check(&t), 1);
  CHECK_EQ(dag_cover_and_check(&t, 0), 1);
}

/* A case where skipping helps: two chains crossing, 0->2, 1->2, 2->3, 2->4.
   Plain: {0,2,3}, {1}, {4} = 3 paths; transitive: {0,2,3}, {1,4} = 2. */
static void test_transitive_skips(void) {
  test_graph t;
  int32_t from[4] = {0, 1, 2, 2}, to[4] = {2, 2, 3, 4};
  tg_build(&t, 5, 4, from, to);
  CHECK_EQ(dag_cover_and_check(&t, 0), 3);
  CHECK_EQ(dag_cover_and_check(&t, TRANSITIVE), 2);
  CHECK_EQ(edge_cover_and_check(&t), 2);
}

/* random small DAGs, numbered in a shuffled (non-topological) order */
static void test_random_dags_brute_force(void) {
  FOR_TRIALS(rng, 99, trial, 300) {
    int32_t n = 1 + (int32_t)dnnmem_rng_below(&rng, 9), m = 0, a, b, perm[TG_MAX_N];
    int32_t from[TG_MAX_M], to[TG_MAX_M], max_m = 1 + (int32_t)dnnmem_rng_below(&rng, 14);
    uint32_t density = 1 + dnnmem_rng_below(&rng, 6);
    test_graph t;
    for (a = 0; a < n; a++) perm[a] = a;
    if (trial % 2)
      for (a = n - 1; a > 0; a--) {
        int32_t j = (int32_t)dnnmem_rng_below(&rng, (uint32_t)a + 1), tmp = perm[a];
        perm[a] = perm[j];
        perm[j] = tmp;
      }
    for (a = 0; a < n && m < max_m; a++)
      for (b = a + 1; b < n && m < max_m; b++)
        if (dnnmem_rng_below(&rng, 8) < density) {
          from[m] = perm[a], to[m] = perm[b], m++;
          if (m < max_m && dnnmem_rng_below(&rng, 10) == 0) from[m] = perm[a], to[m] = perm[b], m++;
        }
    tg_build(&t, n, m, from, to);
    CHECK_EQ(dag_cover_and_check(&t, 0), ref_cover_vertex_paths(&t.g));
    CHECK_EQ(dag_cover_and_check(&t, TRANSITIVE), ref_cover_chains(&t.g));
    CHECK_EQ(edge_cover_and_check(&t), ref_cover_w(&t.g));
  }
}

/* LeapMind's theorem overlap_max <= 2W on topologically numbered DAGs
   without isolated vertices (lifetimes [i, last consumer + 1)). */
static void test_overlap_at_most_two_w(void) {
  FOR_TRIALS(rng, 2021, trial, 300) {
    int32_t n = 2 + (int32_t)dnnmem_rng_below(&rng, 10), m = 0, v, w, from[TG_MAX_M], to[TG_MAX_M];
    test_graph t;
    for (v = 1; v < n && m < TG_MAX_M; v++) {
      int32_t ins = 1 + (int32_t)dnnmem_rng_below(&rng, 3), i;
      for (i = 0; i < ins && m < TG_MAX_M; i++) {
        from[m] = (int32_t)dnnmem_rng_below(&rng, (uint32_t)v);
        to[m++] = v;
      }
    }
    tg_build(&t, n, m, from, to);
    w = edge_cover_and_check(&t);
    CHECK(overlap_of_graph(&t) <= 2 * w);
    /* and LeapMind's placement: groups one after another, each record at
       the height of its lifetime so far, stays within 2 W max_size */
    {
      dnnmem_interval r[TG_MAX_N];
      int64_t sizes[TG_MAX_N], height[TG_MAX_N + 1] = {0}, max_size = 0, arena = 0, x;
      int32_t order[TG_MAX_N], groups = 0, k;
      unsigned char scratch[DNNMEM_PLAN_CHAINS_SCRATCH_BYTES(TG_MAX_N)];
      for (v = 0; v < n; v++) {
        sizes[v] = 1 + dnnmem_rng_below(&rng, 100);
        if (sizes[v] > max_size) max_size = sizes[v];
      }
      CHECK_EQ(dnnmem_graph_intervals(&t.g, sizes, NULL, r, NULL), DNNMEM_OK);
      CHECK_EQ(chains(r, n, NULL, order, &groups, scratch, sizeof(scratch)), DNNMEM_OK);
      for (k = 0; k < n; k++) {
        const dnnmem_interval *q = &r[order[k]];
        int64_t top = 0;
        for (x = q->lower; x < q->upper; x++) top = height[x] > top ? height[x] : top;
        for (x = q->lower; x < q->upper; x++) height[x] = top + q->size;
        if (top + q->size > arena) arena = top + q->size;
      }
      CHECK(arena <= (int64_t)groups * max_size);
      CHECK(arena <= 2 * (int64_t)w * max_size);
    }
  }
}

static void test_dag_bad_input(void) {
  int32_t off_cycle[3] = {0, 1, 2}, ids_cycle[2] = {1, 0};
  int32_t off_self[2] = {0, 1}, ids_self[1] = {0};
  int32_t off_range[3] = {0, 0, 1}, ids_range[1] = {5};
  int32_t off_bad[3] = {0, 2, 1}, ids_bad[2] = {1, 1};
  int32_t path_of[2] = {-5, -5}, paths = -5, w = -5;
  int64_t total = -5;
  dnnmem_graph g;
  unsigned char scratch[8192];
  size_t bytes = 0;
  g.num_nodes = 2, g.in_offsets = off_cycle, g.in_ids = ids_cycle;
  CHECK_EQ(vertices(&g, 0, path_of, NULL, &paths, scratch, sizeof(scratch)), DNNMEM_ERR_CYCLE);
  CHECK_EQ(vertices(&g, TRANSITIVE, path_of, NULL, &paths, scratch, sizeof(scratch)),
           DNNMEM_ERR_CYCLE);
  CHECK_EQ(edges(&g, NULL, NULL, NULL, 0, &total, &w, scratch, sizeof(scratch)),
           DNNMEM_ERR_CYCLE);
  g.num_nodes = 1, g.in_offsets = off_self, g.in_ids = ids_self;
  CHECK_EQ(vertices(&g, 0, path_of, NULL, &paths, scratch, sizeof(scratch)), DNNMEM_ERR_CYCLE);
  CHECK_EQ(edges(&g, NULL, NULL, NULL, 0, &total, &w, scratch, sizeof(scratch)),
           DNNMEM_ERR_CYCLE);
  g.num_nodes = 2, g.in_offsets = off_range, g.in_ids = ids_range;
  CHECK_EQ(vertices(&g, 0, path_of, NULL, &paths, scratch, sizeof(scratch)), DNNMEM_ERR_ID_RANGE);
  CHECK_EQ(edges(&g, NULL, NULL, NULL, 0, &total, &w, scratch, sizeof(scratch)),
           DNNMEM_ERR_ID_RANGE);
  g.in_offsets = off_bad, g.in_ids = ids_bad;
  CHECK_EQ(vertices(&g, 0, path_of, NULL, &paths, scratch, sizeof(scratch)),
           DNNMEM_ERR_INVALID_ARGUMENT);
  g.num_nodes = 0, g.in_offsets = off_range, g.in_ids = NULL;
  CHECK_EQ(vertices(&g, 0, path_of, NULL, &paths, scratch, sizeof(scratch)),
           DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(edges(&g, NULL, NULL, NULL, 0, &total, &w, scratch, sizeof(scratch)),
           DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(vertices(NULL, 0, path_of, NULL, &paths, scratch, sizeof(scratch)),
           DNNMEM_ERR_INVALID_ARGUMENT);
  { /* W has no transitive variant */
    dnnmem_cover_options transitive = {1};
    g.num_nodes = 1, g.in_offsets = off_range, g.in_ids = NULL;
    CHECK_EQ(dnnmem_cover_edges_scratch_size(&g, &transitive, &bytes), DNNMEM_ERR_INVALID_ARGUMENT);
    CHECK_EQ(dnnmem_cover_edges(&g, &transitive, NULL, NULL, NULL, 0, NULL, scratch, sizeof(scratch)),
             DNNMEM_ERR_INVALID_ARGUMENT);
  }
  g.num_nodes = -1;
  CHECK_EQ(vertices_scratch_size(&g, 0, &bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_cover_edges_scratch_size(&g, NULL, &bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(vertices_scratch_size(NULL, 0, &bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  g.num_nodes = 1;
  CHECK_EQ(vertices_scratch_size(&g, 0, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(path_of[0], -5);
  CHECK_EQ(paths, -5);
  CHECK_EQ(w, -5);
  CHECK_EQ(total, -5);
}

static void test_dag_short_scratch_and_short_paths(void) {
  test_graph t;
  int32_t flags, nodes[64], w = -5;
  int64_t total = -5, uses[TG_MAX_M];
  size_t bytes = 0, short_by;
  unsigned char *scratch;
  build_resnet(&t, 3);
  for (flags = 0; flags <= 1; flags++) {
    CHECK_EQ(vertices_scratch_size(&t.g, flags, &bytes), DNNMEM_OK);
    scratch = (unsigned char *)malloc(bytes);
    for (short_by = 1; short_by <= bytes; short_by += 13)
      CHECK_EQ(vertices(&t.g, flags, NULL, NULL, NULL, scratch + short_by, bytes - short_by),
               DNNMEM_ERR_SCRATCH_TOO_SMALL);
    CHECK_EQ(vertices(&t.g, flags, NULL, NULL, NULL, NULL, bytes), DNNMEM_ERR_SCRATCH_TOO_SMALL);
    free(scratch);
  }
  CHECK_EQ(dnnmem_cover_edges_scratch_size(&t.g, NULL, &bytes), DNNMEM_OK);
  scratch = (unsigned char *)malloc(bytes);
  for (short_by = 1; short_by <= bytes; short_by += 13)
    CHECK_EQ(edges(&t.g, NULL, NULL, NULL, 0, &total, &w, scratch + short_by, bytes - short_by),
             DNNMEM_ERR_SCRATCH_TOO_SMALL);
  CHECK_EQ(w, -5);
  /* W alone, then too short a path array: W and the length still reported */
  CHECK_EQ(edges(&t.g, NULL, NULL, NULL, 0, &total, &w, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(w, 2);
  CHECK_EQ(total, 2 + 12); /* two paths, twelve edges each walked once */
  w = -5;
  CHECK_EQ(edges(&t.g, uses, NULL, nodes, total - 1, &total, &w, scratch, bytes),
           DNNMEM_ERR_OUTPUT_TOO_SMALL);
  CHECK_EQ(w, 2);
  CHECK_EQ(uses[0], 1);
  CHECK_EQ(edges(&t.g, uses, NULL, nodes, total, &total, &w, scratch, bytes), DNNMEM_OK);
  /* NULL options (the defaults) and no outputs at all */
  CHECK_EQ(dnnmem_cover_edges(&t.g, NULL, NULL, NULL, NULL, 0, NULL, scratch, bytes), DNNMEM_OK);
  free(scratch);
  {
    dnnmem_cover_result plain = {-1, -1, {-1, DNNMEM_FIELD_NONE, -1}};
    int32_t paths = -1;
    CHECK_EQ(dnnmem_cover_vertices_scratch_size(&t.g, NULL, &bytes), DNNMEM_OK);
    scratch = (unsigned char *)malloc(bytes);
    CHECK_EQ(dnnmem_cover_vertices(&t.g, NULL, NULL, NULL, &plain, scratch, bytes), DNNMEM_OK);
    CHECK_EQ(vertices(&t.g, 0, NULL, NULL, &paths, scratch, bytes), DNNMEM_OK);
    CHECK_EQ(plain.paths, paths);
    CHECK_EQ(plain.path_nodes, t.n);
    CHECK_EQ(dnnmem_cover_vertices(&t.g, NULL, NULL, NULL, NULL, scratch, bytes), DNNMEM_OK);
    free(scratch);
  }
}

/* The transitive DAG cover of the interval DAG (i -> j when upper[i] <=
   lower[j]) is the minimum grouping too: both must equal the max overlap. */
static void test_interval_dag_matches_greedy(void) {
  FOR_TRIALS(rng, 4, trial, 200) {
    int32_t n = 1 + (int32_t)dnnmem_rng_below(&rng, 14), i, j, m = 0, paths = -1, plain = -1;
    int32_t in_offsets[15], in_ids[14 * 14];
    dnnmem_interval r[14];
    dnnmem_graph g;
    size_t bytes = 0;
    void *scratch;
    for (i = 0; i < n; i++) {
      int64_t lo = dnnmem_rng_below(&rng, 12);
      r[i] = ref_plan_record(lo, lo + 1 + dnnmem_rng_below(&rng, 5), 1);
    }
    in_offsets[0] = 0;
    for (j = 0; j < n; j++) {
      for (i = 0; i < n; i++)
        if (r[i].upper <= r[j].lower) in_ids[m++] = i;
      in_offsets[j + 1] = m;
    }
    g.num_nodes = n;
    g.in_offsets = in_offsets;
    g.in_ids = in_ids;
    CHECK_EQ(vertices_scratch_size(&g, TRANSITIVE, &bytes), DNNMEM_OK);
    scratch = malloc(bytes);
    CHECK_EQ(vertices(&g, TRANSITIVE, NULL, NULL, &paths, scratch, bytes), DNNMEM_OK);
    free(scratch);
    /* the interval DAG is transitively closed: skipping changes nothing */
    CHECK_EQ(vertices_scratch_size(&g, 0, &bytes), DNNMEM_OK);
    scratch = malloc(bytes);
    CHECK_EQ(vertices(&g, 0, NULL, NULL, &plain, scratch, bytes), DNNMEM_OK);
    free(scratch);
    CHECK_EQ(paths, brute_overlap_max(r, n));
    CHECK_EQ(plain, paths);
    CHECK_EQ(cover_and_check(r, n), paths);
  }
}

/* Kuhn's simple augmenting paths on an adjacency matrix: an independent
   maximum matching for mid-sized graphs. adj[u * n + v]: u may precede v. */
static int kuhn_try(const unsigned char *adj, int32_t n, int32_t u, int32_t *match_of_v,
                    unsigned char *seen) {
  int32_t v;
  for (v = 0; v < n; v++) {
    if (!adj[(size_t)u * (size_t)n + (size_t)v] || seen[v]) continue;
    seen[v] = 1;
    if (match_of_v[v] < 0 || kuhn_try(adj, n, match_of_v[v], match_of_v, seen)) {
      match_of_v[v] = u;
      return 1;
    }
  }
  return 0;
}

static int32_t kuhn_matching(const unsigned char *adj, int32_t n) {
  int32_t *match_of_v = (int32_t *)malloc((size_t)n * sizeof(int32_t)), u, size = 0;
  unsigned char *seen = (unsigned char *)malloc((size_t)n);
  for (u = 0; u < n; u++) match_of_v[u] = -1;
  for (u = 0; u < n; u++) {
    memset(seen, 0, (size_t)n);
    size += kuhn_try(adj, n, u, match_of_v, seen);
  }
  free(match_of_v);
  free(seen);
  return size;
}

/* mid-sized random DAGs (many Hopcroft-Karp phases) against Kuhn */
static void test_mid_dags_against_kuhn(void) {
  FOR_TRIALS(rng, 31337, trial, 12) {
    int32_t n = 50 + (int32_t)dnnmem_rng_below(&rng, 150), v, k, m = 0, paths = -1, chains = -1;
    int32_t window = 2 + (int32_t)dnnmem_rng_below(&rng, 30);
    int32_t *off = (int32_t *)malloc(((size_t)n + 1) * sizeof(int32_t));
    int32_t *ids = (int32_t *)malloc((size_t)n * 4 * sizeof(int32_t));
    unsigned char *adj = (unsigned char *)calloc((size_t)n * (size_t)n, 1);
    dnnmem_graph g;
    size_t bytes = 0, b2 = 0;
    void *scratch;
    off[0] = 0;
    for (v = 0; v < n; v++) {
      int32_t c = v ? (int32_t)dnnmem_rng_below(&rng, 5) : 0, lo = v > window ? v - window : 0;
      for (k = 0; k < c; k++) {
        int32_t u = lo + (int32_t)dnnmem_rng_below(&rng, (uint32_t)(v - lo));
        ids[m++] = u;
        adj[(size_t)u * (size_t)n + (size_t)v] = 1;
      }
      off[v + 1] = m;
    }
    g.num_nodes = n;
    g.in_offsets = off;
    g.in_ids = ids;
    CHECK_EQ(vertices_scratch_size(&g, 0, &bytes), DNNMEM_OK);
    CHECK_EQ(vertices_scratch_size(&g, TRANSITIVE, &b2), DNNMEM_OK);
    if (b2 > bytes) bytes = b2;
    scratch = malloc(bytes);
    CHECK_EQ(vertices(&g, 0, NULL, NULL, &paths, scratch, bytes), DNNMEM_OK);
    CHECK_EQ(paths, n - kuhn_matching(adj, n));
    /* transitive closure (ids are topological: one forward sweep) */
    for (v = n - 1; v >= 0; v--) {
      int32_t x, y;
      for (x = v + 1; x < n; x++)
        if (adj[(size_t)v * (size_t)n + (size_t)x])
          for (y = x + 1; y < n; y++)
            if (adj[(size_t)x * (size_t)n + (size_t)y]) adj[(size_t)v * (size_t)n + (size_t)y] = 1;
    }
    CHECK_EQ(vertices(&g, TRANSITIVE, NULL, NULL, &chains, scratch, bytes),
             DNNMEM_OK);
    CHECK_EQ(chains, n - kuhn_matching(adj, n));
    free(scratch);
    free(off);
    free(ids);
    free(adj);
  }
}

/* W's path offsets without the vertices: the same offsets as with them;
   a negative capacity, NULL scratch and a NULL size pointer refused. The
   diamond 0->1->3, 0->2->3 needs two paths of three vertices. */
static void test_edges_offsets_only(void) {
  static const int32_t from[4] = {0, 0, 1, 2}, to[4] = {1, 2, 3, 3};
  test_graph t;
  int64_t offsets[5] = {-1, -1, -1, -1, -1}, with_nodes[5] = {-1, -1, -1, -1, -1}, uses[4];
  int32_t nodes[6] = {-1, -1, -1, -1, -1, -1}, w = -5, k;
  int64_t total = -5;
  size_t bytes = 0;
  unsigned char *scratch;
  tg_build(&t, 4, 4, from, to);
  CHECK_EQ(dnnmem_cover_edges_scratch_size(&t.g, NULL, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_cover_edges_scratch_size(&t.g, NULL, &bytes), DNNMEM_OK);
  scratch = (unsigned char *)malloc(bytes);
  CHECK_EQ(edges(&t.g, NULL, offsets, NULL, -1, &total, &w, scratch, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(edges(&t.g, NULL, offsets, NULL, 0, &total, &w, NULL, bytes), DNNMEM_ERR_SCRATCH_TOO_SMALL);
  CHECK_EQ(w, -5);
  /* offsets alone: capacity 0 is fine, nothing is written to path_nodes */
  CHECK_EQ(edges(&t.g, uses, offsets, NULL, 0, &total, &w, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(w, 2);
  CHECK_EQ(total, 6);
  CHECK_VALUES(offsets, 0, 3, 6);
  for (k = 0; k < 4; k++) CHECK_EQ(uses[k], 1);
  CHECK_EQ(edges(&t.g, NULL, with_nodes, nodes, 6, &total, &w, scratch, bytes), DNNMEM_OK);
  for (k = 0; k < 3; k++) CHECK_EQ(with_nodes[k], offsets[k]);
  /* both paths run 0 -> x -> 3 and together pass 1 and 2 */
  CHECK_EQ(nodes[0], 0);
  CHECK_EQ(nodes[2], 3);
  CHECK_EQ(nodes[3], 0);
  CHECK_EQ(nodes[5], 3);
  CHECK_EQ(nodes[1] + nodes[4], 3);
  CHECK(nodes[1] != nodes[4]);
  free(scratch);
}

/* The transitive cover's flow network (2V + 2 nodes, 3V + E arcs) leaves
   the engine's int32 range above about 357 million vertices: the scratch
   size says DNNMEM_ERR_TOO_MANY. The graph has no edges, so its offsets
   are zero pages (calloc) that cost address space, not memory. */
static void test_transitive_too_many(void) {
  const int32_t n = (INT32_MAX / 2 - 2) / 3 + 1;
  int32_t *offsets = (int32_t *)calloc((size_t)n + 1, sizeof(int32_t));
  dnnmem_graph g;
  dnnmem_cover_options transitive = {1};
  size_t bytes = 0;
  unsigned char scratch[64];
  if (!offsets) {
    fprintf(stderr, "test_transitive_too_many: no address space for %d offsets, skipped\n", (int)n);
    return;
  }
  g.num_nodes = n;
  g.in_offsets = offsets;
  g.in_ids = NULL;
  CHECK_EQ(dnnmem_cover_vertices_scratch_size(&g, &transitive, &bytes), DNNMEM_ERR_TOO_MANY);
  CHECK_EQ(bytes, 0);
  /* the operation refuses it with the same code, whatever scratch it is given */
  CHECK_EQ(dnnmem_cover_vertices(&g, &transitive, NULL, NULL, NULL, scratch, sizeof(scratch)),
           DNNMEM_ERR_TOO_MANY);
  g.num_nodes = n - 1; /* one below the limit: a size (too big to allocate here, but defined) */
  CHECK_HUGE_SIZE(dnnmem_cover_vertices_scratch_size(&g, &transitive, &bytes), bytes, (size_t)n * 8);
  free(offsets);
}

int main(void) {
  RUN(test_seed_chain_alternates);
  RUN(test_seed_skip_connection);
  RUN(test_best_fit_rule);
  RUN(test_tie_prefers_older_group);
  RUN(test_closest_size_rule);
  RUN(test_rule_matches_reference);
  RUN(test_random_equals_overlap_max);
  RUN(test_permutation_same_count);
  RUN(test_extreme_times);
  RUN(test_gaps_ignored);
  RUN(test_intervals_bad_input);
  RUN(test_intervals_short_scratch);
  RUN(test_resnet_w_is_two);
  RUN(test_chain_and_fan);
  RUN(test_transitive_skips);
  RUN(test_random_dags_brute_force);
  RUN(test_mid_dags_against_kuhn);
  RUN(test_overlap_at_most_two_w);
  RUN(test_interval_dag_matches_greedy);
  RUN(test_dag_bad_input);
  RUN(test_dag_short_scratch_and_short_paths);
  RUN(test_edges_offsets_only);
  RUN(test_transitive_too_many);
  return test_finish("test_cover");
}

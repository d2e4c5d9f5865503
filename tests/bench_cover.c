/* tests/bench_cover.c: path-cover grouping, speed and the W table.
   Run from the repository root (make bench). Reads ../shared/data/models
   when present (else tests/data); prints markdown tables. */
#include "bench.h"

/* ---- 1: a million intervals ---------------------------------------------- */

static void bench_intervals(void) {
  const int32_t n = 1000000;
  dnnmem_interval *r = (dnnmem_interval *)calloc((size_t)n, sizeof(dnnmem_interval));
  int32_t *group_of = (int32_t *)malloc((size_t)n * sizeof(int32_t));
  int32_t *order = (int32_t *)malloc((size_t)n * sizeof(int32_t));
  size_t bytes = 0;
  void *scratch;
  dnnmem_rng rng;
  int shape;
  const char *names[3] = {"random lowers, lengths 1..1000", "chain [i, i+2)",
                          "sorted lowers, lengths 1..100000"};
  dnnmem_intervals problem = {r, n, 0};
  dnnmem_plan_chains_scratch_size(&problem, &bytes);
  scratch = malloc(bytes);
  printf("## chains: dnnmem_plan_chains on 1,000,000 intervals\n\n");
  printf("| instance | groups | best of 3 (ms) | intervals/s |\n|---|---|---|---|\n");
  for (shape = 0; shape < 3; shape++) {
    int32_t i, groups = 0, rep;
    dnnmem_plan_chains_result chained;
    double best = 1e30;
    dnnmem_rng_seed(&rng, 42 + (uint64_t)shape);
    for (i = 0; i < n; i++) {
      int64_t lo, len;
      if (shape == 0) lo = dnnmem_rng_below(&rng, (uint32_t)n), len = 1 + dnnmem_rng_below(&rng, 1000);
      else if (shape == 1) lo = i, len = 2;
      else lo = i, len = 1 + dnnmem_rng_below(&rng, 100000);
      r[i].lower = lo;
      r[i].upper = lo + len;
      r[i].size = 1 + dnnmem_rng_below(&rng, 4096);
    }
    for (rep = 0; rep < 3; rep++) {
      double t0 = bench_now_ms(), t;
      if (dnnmem_plan_chains(&problem, group_of, order, &chained, scratch, bytes) != DNNMEM_OK) {
        printf("| %s | error | | |\n", names[shape]);
        break;
      }
      groups = chained.groups;
      t = bench_now_ms() - t0;
      if (t < best) best = t;
    }
    printf("| %s | %d | %.1f | %.2f M |\n", names[shape], groups, best, n / best / 1e3);
  }
  printf("\n");
  free(scratch);
  free(r);
  free(group_of);
  free(order);
}

/* ---- 2 and 3: the models ------------------------------------------------- */

/* LeapMind's height placement in a given order (time steps 0..n) */
static int64_t height_arena(const dnnmem_interval *r, int32_t n, const int32_t *order, int64_t *height,
                            int64_t horizon) {
  int32_t k;
  int64_t t, arena = 0;
  for (t = 0; t < horizon; t++) height[t] = 0;
  for (k = 0; k < n; k++) {
    const dnnmem_interval *x = &r[order[k]];
    int64_t top = 0;
    for (t = x->lower; t < x->upper; t++)
      if (height[t] > top) top = height[t];
    for (t = x->lower; t < x->upper; t++) height[t] = top + x->size;
    if (top + x->size > arena) arena = top + x->size;
  }
  return arena;
}

/* the greedy with another choice among the fitting groups, for comparison:
   rule 1 = the group that ended earliest, rule 2 = the oldest group,
   rule 3 = the group that ended latest (best fit by time only). O(n g). */
static void other_rule_order(const dnnmem_interval *r, int32_t n, int rule, int32_t *order,
                             int32_t *scratch_ids) {
  int32_t *group_of = (int32_t *)malloc((size_t)n * sizeof(int32_t));
  int64_t *end = (int64_t *)malloc((size_t)n * sizeof(int64_t));
  int32_t groups = 0, k, g, pos = 0;
  ref_plan_chains_order(r, n, scratch_ids); /* the library's record order */
  for (k = 0; k < n; k++) {
    int32_t id = scratch_ids[k], pick = -1;
    for (g = 0; g < groups; g++) {
      if (end[g] > r[id].lower) continue;
      if (pick < 0 || (rule == 1 && end[g] < end[pick]) || (rule == 3 && end[g] > end[pick])) pick = g;
      if (rule == 2) break;
    }
    if (pick < 0) pick = groups++;
    group_of[id] = pick;
    end[pick] = r[id].upper;
  }
  for (g = 0; g < groups; g++)
    for (k = 0; k < n; k++)
      if (group_of[scratch_ids[k]] == g) order[pos++] = scratch_ids[k];
  free(group_of);
  free(end);
}


/* the same comparison on minimalloc's challenging interval instances */
static void bench_minimalloc_rules(void) {
  const char *dir = "../shared/data/minimalloc/challenging";
  const char *files[11] = {"A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K"};
  int64_t sums[4] = {0, 0, 0, 0};
  int fi, found = 0;
  for (fi = 0; fi < 11; fi++) {
    char path[512];
    dnnmem_interval *r;
    dnnmem_intervals problem;
    int32_t n, k, *order, *tmp, rule;
    dnnmem_plan_chains_result chained;
    int64_t horizon = 0, arena[4], *height;
    size_t bytes = 0;
    void *scratch;
    snprintf(path, sizeof(path), "%s/%s.1048576.csv", dir, files[fi]);
    if ((n = ref_plan_read_csv(path, &r)) < 0) continue;
    for (k = 0; k < n; k++)
      if (r[k].upper > horizon) horizon = r[k].upper;
    problem.records = r;
    problem.count = n;
    problem.alignment = 0;
    found = 1;
    order = (int32_t *)malloc((size_t)n * sizeof(int32_t));
    tmp = (int32_t *)malloc((size_t)n * sizeof(int32_t));
    height = (int64_t *)malloc((size_t)(horizon + 1) * sizeof(int64_t));
    dnnmem_plan_chains_scratch_size(&problem, &bytes);
    scratch = malloc(bytes);
    dnnmem_plan_chains(&problem, NULL, order, &chained, scratch, bytes);
    arena[0] = height_arena(r, n, order, height, horizon + 1);
    for (rule = 1; rule <= 3; rule++) {
      other_rule_order(r, n, rule == 1 ? 3 : rule == 2 ? 1 : 2, order, tmp);
      arena[rule] = height_arena(r, n, order, height, horizon + 1);
    }
    printf("| minimalloc %s (%d buffers) | %lld | %lld | %lld | %lld | |\n", files[fi], n,
           (long long)arena[0], (long long)arena[1], (long long)arena[2], (long long)arena[3]);
    for (rule = 0; rule < 4; rule++) sums[rule] += arena[rule] / 1024;
    free(scratch);
    free(order);
    free(tmp);
    free(height);
    free(r);
  }
  if (found)
    printf("| **minimalloc, sum (KiB)** | %lld | %lld | %lld | %lld | |\n", (long long)sums[0],
           (long long)sums[1], (long long)sums[2], (long long)sums[3]);
}

typedef struct model_row {
  char name[128];
  int32_t n, m, w, groups, dag_paths, chains;
  double ms_dag, ms_chain, ms_w;
  int64_t arena_library, arena_latest, arena_earliest, arena_oldest, max_size;
} model_row;

static void bench_models(void) {
  static const char *const skip[] = {"cover_", NULL}; /* the tool's bad-input tests */
  const char *dir = "../shared/data/models";
  size_t count = 0, i;
  char **names = bench_list(dir, ".graph.csv", skip, &count);
  model_row *rows;
  int64_t sums[4] = {0, 0, 0, 0};
  if (!names) names = bench_list(dir = "tests/data", ".graph.csv", skip, &count);
  if (!count) return;
  rows = (model_row *)calloc(count, sizeof(model_row));
  for (i = 0; i < count; i++) {
    char path[1024];
    files_graph bg;
    dnnmem_cover_options transitive = {1};
    dnnmem_cover_result res;
    dnnmem_plan_chains_result chained;
    dnnmem_intervals lifetimes = {NULL, 0, 0};
    model_row *row = &rows[i];
    size_t bytes = 0, b2 = 0, b3 = 0, b4 = 0;
    void *scratch;
    int32_t *tmp, *order, k, rep;
    dnnmem_interval *r;
    int64_t *height;
    snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
    snprintf(row->name, sizeof(row->name), "%.*s", (int)(strlen(names[i]) - 10), names[i]);
    if (!bench_read_graph(path, &bg)) {
      row->n = -1;
      continue;
    }
    row->n = bg.n;
    row->m = bg.in_offsets[bg.n];
    lifetimes.count = bg.n;
    dnnmem_cover_vertices_scratch_size(&bg.graph, NULL, &bytes);
    dnnmem_cover_vertices_scratch_size(&bg.graph, &transitive, &b2);
    dnnmem_cover_edges_scratch_size(&bg.graph, NULL, &b3);
    dnnmem_plan_chains_scratch_size(&lifetimes, &b4);
    if (b2 > bytes) bytes = b2;
    if (b3 > bytes) bytes = b3;
    if (b4 > bytes) bytes = b4;
    scratch = malloc(bytes);
    row->ms_dag = row->ms_chain = row->ms_w = 1e30;
    for (rep = 0; rep < 5; rep++) {
      double t0 = bench_now_ms(), t1, t2, t3;
      row->dag_paths = row->chains = row->w = -1;
      if (dnnmem_cover_vertices(&bg.graph, NULL, NULL, NULL, &res, scratch, bytes) == DNNMEM_OK)
        row->dag_paths = res.paths;
      t1 = bench_now_ms();
      if (dnnmem_cover_vertices(&bg.graph, &transitive, NULL, NULL, &res, scratch, bytes) == DNNMEM_OK)
        row->chains = res.paths;
      t2 = bench_now_ms();
      if (dnnmem_cover_edges(&bg.graph, NULL, NULL, NULL, NULL, 0, &res, scratch, bytes) == DNNMEM_OK)
        row->w = res.paths;
      t3 = bench_now_ms();
      if (t1 - t0 < row->ms_dag) row->ms_dag = t1 - t0;
      if (t2 - t1 < row->ms_chain) row->ms_chain = t2 - t1;
      if (t3 - t2 < row->ms_w) row->ms_w = t3 - t2;
    }
    /* the paper's lifetimes (outputs not extended) and the grouping rules */
    r = (dnnmem_interval *)calloc((size_t)bg.n, sizeof(dnnmem_interval));
    order = (int32_t *)malloc((size_t)bg.n * sizeof(int32_t));
    tmp = (int32_t *)malloc((size_t)bg.n * sizeof(int32_t));
    height = (int64_t *)malloc((size_t)(bg.n + 1) * sizeof(int64_t));
    dnnmem_graph_intervals(&bg.graph, bg.size, NULL, r, NULL);
    lifetimes.records = r;
    row->max_size = 0;
    for (k = 0; k < bg.n; k++)
      if (bg.size[k] > row->max_size) row->max_size = bg.size[k];
    dnnmem_plan_chains(&lifetimes, NULL, order, &chained, scratch, bytes);
    row->groups = chained.groups;
    row->arena_library = height_arena(r, bg.n, order, height, bg.n + 1);
    other_rule_order(r, bg.n, 3, order, tmp);
    row->arena_latest = height_arena(r, bg.n, order, height, bg.n + 1);
    other_rule_order(r, bg.n, 1, order, tmp);
    row->arena_earliest = height_arena(r, bg.n, order, height, bg.n + 1);
    other_rule_order(r, bg.n, 2, order, tmp);
    row->arena_oldest = height_arena(r, bg.n, order, height, bg.n + 1);
    free(r);
    free(order);
    free(tmp);
    free(height);
    free(scratch);
    files_graph_free(&bg);
  }
  printf("## cover: DAG path covers and W on every model (%s)\n\n", dir);
  printf("W = fewest paths covering every edge (the LeapMind paper's bound arena <= 2 W max_size); "
         "groups = overlap_max of the paper's lifetimes; paths = minimum vertex-disjoint path "
         "cover (Hopcroft-Karp); chains = the transitive variant (max flow); times best of 5.\n\n");
  printf("| model | n | edges | W | groups | paths | chains | paths ms | chains ms | W ms |\n");
  printf("|---|---|---|---|---|---|---|---|---|---|\n");
  for (i = 0; i < count; i++) {
    model_row *row = &rows[i];
    if (row->n < 0) continue;
    printf("| %s | %d | %d | %d | %d | %d | %d | %.3f | %.3f | %.3f |\n", row->name, row->n, row->m,
           row->w, row->groups, row->dag_paths, row->chains, row->ms_dag, row->ms_chain, row->ms_w);
  }
  printf("\n## cover: choice among the fitting groups vs arena (height placement group after "
         "group; graphs with the paper's lifetimes, then minimalloc's challenging instances)\n\n");
  printf("| instance | library: closest size | latest end | earliest end | oldest group | "
         "2 W max_size |\n");
  printf("|---|---|---|---|---|---|\n");
  for (i = 0; i < count; i++) {
    model_row *row = &rows[i];
    if (row->n < 0) continue;
    printf("| %s | %lld | %lld | %lld | %lld | %lld |\n", row->name, (long long)row->arena_library,
           (long long)row->arena_latest, (long long)row->arena_earliest, (long long)row->arena_oldest,
           (long long)(2 * (int64_t)row->w * row->max_size));
    sums[0] += row->arena_library / 1024;
    sums[1] += row->arena_latest / 1024;
    sums[2] += row->arena_earliest / 1024;
    sums[3] += row->arena_oldest / 1024;
  }
  printf("| **models, sum (KiB)** | %lld | %lld | %lld | %lld | |\n", (long long)sums[0],
         (long long)sums[1], (long long)sums[2], (long long)sums[3]);
  bench_minimalloc_rules();
  printf("\n");
  bench_list_free(names, count);
  free(rows);
}


/* ---- synthetic large DAGs: scaling ---------------------------------------- */

static void bench_large_dags(void) {
  const int32_t sizes[2] = {100000, 1000000};
  int si;
  printf("## cover: synthetic DAGs (1-3 inputs among the 10 previous vertices)\n\n");
  printf("| n | edges | paths | ms | chains | ms | W | ms |\n|---|---|---|---|---|---|---|---|\n");
  for (si = 0; si < 2; si++) {
    int32_t n = sizes[si], v, m = 0, paths = -1, chains = -1, w = -1;
    int32_t *off = (int32_t *)malloc(((size_t)n + 1) * sizeof(int32_t));
    int32_t *ids = (int32_t *)malloc((size_t)n * 3 * sizeof(int32_t));
    dnnmem_graph g;
    dnnmem_cover_options transitive = {1};
    dnnmem_cover_result res;
    dnnmem_rng rng;
    size_t b1 = 0, b2 = 0, b3 = 0;
    void *scratch;
    double t0, t1, t2, t3;
    dnnmem_rng_seed(&rng, 7);
    off[0] = 0;
    for (v = 0; v < n; v++) {
      int32_t k, c = v ? 1 + (int32_t)dnnmem_rng_below(&rng, 3) : 0, lo = v > 10 ? v - 10 : 0;
      for (k = 0; k < c; k++) ids[m++] = lo + (int32_t)dnnmem_rng_below(&rng, (uint32_t)(v - lo));
      off[v + 1] = m;
    }
    g.num_nodes = n;
    g.in_offsets = off;
    g.in_ids = ids;
    dnnmem_cover_vertices_scratch_size(&g, NULL, &b1);
    dnnmem_cover_vertices_scratch_size(&g, &transitive, &b2);
    dnnmem_cover_edges_scratch_size(&g, NULL, &b3);
    if (b2 > b1) b1 = b2;
    if (b3 > b1) b1 = b3;
    scratch = malloc(b1);
    t0 = bench_now_ms();
    if (dnnmem_cover_vertices(&g, NULL, NULL, NULL, &res, scratch, b1) == DNNMEM_OK) paths = res.paths;
    t1 = bench_now_ms();
    if (dnnmem_cover_vertices(&g, &transitive, NULL, NULL, &res, scratch, b1) == DNNMEM_OK) chains = res.paths;
    t2 = bench_now_ms();
    if (dnnmem_cover_edges(&g, NULL, NULL, NULL, NULL, 0, &res, scratch, b1) == DNNMEM_OK) w = res.paths;
    t3 = bench_now_ms();
    printf("| %d | %d | %d | %.1f | %d | %.1f | %d | %.1f |\n", n, m, paths, t1 - t0, chains, t2 - t1,
           w, t3 - t2);
    free(scratch);
    free(off);
    free(ids);
  }
  printf("\n");
}

int main(void) {
  bench_intervals();
  bench_models();
  bench_large_dags();
  return 0;
}

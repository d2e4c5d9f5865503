/* make bench: planning with sizes not known in advance.

   Multi-pass: the transformer graphs of tests/data (*.symbolic.csv, sizes
   at S = 2048) and the training graphs (*.train.intervals.csv of
   ../shared/data/models, else tests/data) planned in K passes, pass k holding the records that start
   in the k-th of K equal spans of time (as a runtime that learns shapes
   block by block), against one plan with every size known: the price.

   Symbolic: one stacking for every S in [64, 2048], measured at every one
   of the 1,985 values (resolve, recount, the lower bound at S): the worst
   arena / lower bound, against two baselines: the stacking of the plan at
   S = 2048 alone, resolved at each S, and the static plan for S = 2048
   (ggml's worst-case graph: its arena at every S). The GPT-style files,
   then synthetic mixed-degree records (40% constant, 40% c x S, 20%
   c x S^2 sizes; random lifetimes), which no single S represents. Then the
   resolver's speed. */
#include "bench.h"

#define S_MIN 64
#define S_MAX 2048

typedef struct sym_input {
  const char *name;
  dnnmem_interval *r;
  int64_t *c;
  int32_t n, terms;
} sym_input;

static int read_symbolic(const char *path, const char *name, sym_input *in) {
  files_intervals iv;
  files_error err;
  int32_t i, k;
  if (files_read_intervals_symbolic(path, 0, NULL, 0, &iv, &err) != 0) {
    files_error_print(stderr, &err);
    return 0;
  }
  in->name = name, in->n = iv.n, in->terms = iv.terms[0];
  in->r = (dnnmem_interval *)malloc(sizeof(dnnmem_interval) * ((size_t)iv.n + 1));
  in->c = (int64_t *)malloc(sizeof(int64_t) * ((size_t)iv.n * (size_t)iv.terms[0] + 1));
  for (i = 0; i < iv.n; i++) {
    in->r[i] = iv.records[i];
    for (k = 0; k < iv.terms[0]; k++) in->c[i * iv.terms[0] + k] = iv.coefficients[(size_t)i * FILES_POLY_STRIDE + k];
  }
  files_intervals_free(&iv);
  return 1;
}

static void synthetic(sym_input *in, uint64_t seed, int32_t n) {
  dnnmem_rng rng;
  int32_t i;
  static const int64_t lens[] = {1, 2, 3, 5, 10, 40, 100};
  dnnmem_rng_seed(&rng, seed);
  in->name = "synthetic", in->n = n, in->terms = 3;
  in->r = (dnnmem_interval *)calloc((size_t)n, sizeof(dnnmem_interval));
  in->c = (int64_t *)calloc((size_t)n * 3, sizeof(int64_t));
  for (i = 0; i < n; i++) {
    uint32_t kind = dnnmem_rng_below(&rng, 10);
    in->r[i].lower = dnnmem_rng_below(&rng, (uint32_t)(2 * n / 3));
    in->r[i].upper = in->r[i].lower + lens[dnnmem_rng_below(&rng, 7)];
    if (kind < 4) in->c[i * 3] = 1024 * (1 + (int64_t)dnnmem_rng_below(&rng, 5000));
    else if (kind < 8) in->c[i * 3 + 1] = 64 * (1 + (int64_t)dnnmem_rng_below(&rng, 200));
    else in->c[i * 3 + 2] = 16 * (1 + (int64_t)dnnmem_rng_below(&rng, 8));
  }
}

/* The sizes at s into r. */
static void sizes_at(const sym_input *in, int64_t s) {
  int32_t i;
  for (i = 0; i < in->n; i++) in->r[i].size = ref_poly(in->c + (size_t)i * in->terms, in->terms, s);
}

/* ---- multi-pass ---- */

static int64_t plan_arena(dnnmem_intervals *p) {
  size_t bytes = 0;
  int64_t *off = (int64_t *)malloc(sizeof(int64_t) * ((size_t)p->count + 1));
  dnnmem_plan_result res;
  void *scratch;
  dnnmem_plan_solve_scratch_size(p, NULL, &bytes);
  scratch = malloc(bytes);
  if (dnnmem_plan_solve(p, NULL, off, &res, scratch, bytes) != DNNMEM_OK) res.arena = -1;
  free(scratch), free(off);
  return res.arena;
}

static int64_t multi_pass_arena(dnnmem_intervals *p, int32_t passes, double *ms) {
  int64_t *off = (int64_t *)malloc(sizeof(int64_t) * ((size_t)p->count + 1)), end = 1, arena = -1;
  dnnmem_interval *r = (dnnmem_interval *)p->records;
  dnnmem_plan_result res;
  size_t bytes = 0, need;
  int32_t i, k;
  void *scratch;
  for (i = 0; i < p->count; i++)
    if (r[i].upper > end) end = r[i].upper;
  for (i = 0; i < p->count; i++) r[i].pass = 1 + (int32_t)(r[i].lower * passes / end);
  for (k = 1; k <= passes; k++) {
    dnnmem_plan_pass_scratch_size(p, NULL, k, &need);
    if (need > bytes) bytes = need;
  }
  scratch = malloc(bytes);
  *ms = bench_now_ms();
  for (k = 1; k <= passes; k++) {
    if (dnnmem_plan_pass(p, NULL, k, off, &res, scratch, bytes) != DNNMEM_OK) break;
    arena = res.arena;
  }
  *ms = bench_now_ms() - *ms;
  if (ref_plan_recount(p, off) != arena) arena = -1;
  for (i = 0; i < p->count; i++) r[i].pass = 0;
  free(scratch), free(off);
  return arena;
}

static void bench_passes(sym_input *in) {
  dnnmem_intervals p = {in->r, in->n, 0};
  int64_t one, lb;
  int32_t k;
  double ms;
  sizes_at(in, S_MAX);
  one = plan_arena(&p);
  lb = ref_plan_max_load(in->r, in->n);
  printf("%-22s %6d %12lld %6.3f", in->name, (int)in->n, (long long)one, (double)one / (double)lb);
  for (k = 2; k <= 8; k *= 2) {
    int64_t a = multi_pass_arena(&p, k, &ms);
    if (a < 0) printf("      failed");
    else printf("   %7.3f", (double)a / (double)one);
  }
  printf("  %8.1f\n", ms);
}

/* The training graphs' records (constant sizes: long-lived activations,
   where a pass cannot see what comes later). */
static void bench_passes_dir(const char *dir) {
  size_t count = 0, k;
  char **names = bench_list(dir, ".train.intervals.csv", NULL, &count), path[1024];
  for (k = 0; k < count; k++) {
    sym_input in;
    snprintf(path, sizeof path, "%s/%s", dir, names[k]);
    names[k][strlen(names[k]) - strlen(".intervals.csv")] = 0;
    if (!read_symbolic(path, names[k], &in)) continue;
    bench_passes(&in);
    free(in.r), free(in.c);
  }
  bench_list_free(names, count);
}

/* ---- symbolic ---- */

typedef struct sym_plan {
  int32_t *order, *below_offsets, *below_ids;
  dnnmem_plan_symbolic_result res;
  double ms;
} sym_plan;

static int solve(const sym_input *in, int64_t lo, int64_t hi, sym_plan *sp) {
  dnnmem_intervals iv = {in->r, in->n, 0};
  dnnmem_plan_symbolic p;
  size_t bytes = 0;
  void *scratch;
  dnnmem_result rc;
  p.intervals = &iv, p.coefficients = in->c, p.terms = in->terms, p.s_min = lo, p.s_max = hi;
  sp->order = (int32_t *)malloc(sizeof(int32_t) * ((size_t)in->n + 1));
  sp->below_offsets = (int32_t *)malloc(sizeof(int32_t) * ((size_t)in->n + 1));
  sp->below_ids = (int32_t *)malloc(sizeof(int32_t) * (size_t)DNNMEM_PLAN_SYMBOLIC_EDGES(in->n));
  if (dnnmem_plan_symbolic_solve_scratch_size(&p, NULL, &bytes) != DNNMEM_OK) return 0;
  scratch = malloc(bytes);
  sp->ms = bench_now_ms();
  rc = dnnmem_plan_symbolic_solve(&p, NULL, sp->order, sp->below_offsets, sp->below_ids,
                                  (int32_t)DNNMEM_PLAN_SYMBOLIC_EDGES(in->n), &sp->res, scratch, bytes);
  sp->ms = bench_now_ms() - sp->ms;
  free(scratch);
  return rc == DNNMEM_OK;
}

static void sym_plan_free(sym_plan *sp) { free(sp->order), free(sp->below_offsets), free(sp->below_ids); }

/* Worst arena / bound over every S of [S_MIN, S_MAX], each plan recounted
   (-1: an invalid plan); *at_min the ratio at S_MIN. static_worst: the
   plan for S_MAX kept at every S. */
static double every_s(sym_input *in, const sym_plan *sp, double *at_min, double *static_worst) {
  dnnmem_intervals iv = {in->r, in->n, 0};
  dnnmem_plan_symbolic p;
  dnnmem_plan_stacking st = {sp->order, sp->below_offsets, sp->below_ids};
  int64_t *off = (int64_t *)malloc(sizeof(int64_t) * ((size_t)in->n + 1)), s, arena = 0, top = 0;
  dnnmem_plan_result resolved;
  size_t bytes = 0;
  void *scratch;
  double worst = 0.0;
  p.intervals = &iv, p.coefficients = in->c, p.terms = in->terms, p.s_min = S_MIN, p.s_max = S_MAX;
  dnnmem_plan_lower_bound_scratch_size(&iv, &bytes);
  scratch = malloc(bytes);
  *static_worst = 0.0;
  for (s = S_MAX; s >= S_MIN; s--) {
    int64_t lb = 0;
    dnnmem_plan_result bounded;
    double q;
    if (dnnmem_plan_symbolic_resolve(&p, &st, s, off, &resolved) != DNNMEM_OK) return -1.0;
    arena = resolved.arena;
    sizes_at(in, s);
    if (s % 7 == 0 || s == S_MIN || s == S_MAX) /* the O(n^2) recount at every 7th S */
      if (ref_plan_recount(&iv, off) != arena) return -1.0;
    dnnmem_plan_lower_bound(&iv, &bounded, scratch, bytes);
    lb = bounded.lower_bound;
    if (s == S_MAX) top = arena;
    q = (double)arena / (double)lb;
    if (q > worst) worst = q;
    if ((double)top / (double)lb > *static_worst) *static_worst = (double)top / (double)lb;
    if (s == S_MIN) *at_min = q;
  }
  free(off), free(scratch);
  return worst;
}

static void bench_symbolic(sym_input *in) {
  sym_plan ours, base;
  double worst, at_min, worst_base, base_min, static_worst;
  if (!solve(in, S_MIN, S_MAX, &ours) || !solve(in, S_MAX, S_MAX, &base)) {
    printf("%-22s failed\n", in->name);
    return;
  }
  worst = every_s(in, &ours, &at_min, &static_worst);
  worst_base = every_s(in, &base, &base_min, &static_worst);
  printf("%-22s %6d %9.4f %9.4f %9.4f %9.4f %9.2f %6d %8.1f\n", in->name, (int)in->n, worst, at_min, worst_base,
         base_min, static_worst, (int)ours.res.edges, ours.ms);
  sym_plan_free(&ours), sym_plan_free(&base);
}

static void bench_resolve(sym_input *in) {
  sym_plan sp;
  dnnmem_intervals iv = {in->r, in->n, 0};
  dnnmem_plan_symbolic p;
  dnnmem_plan_stacking st;
  int64_t *off = (int64_t *)malloc(sizeof(int64_t) * ((size_t)in->n + 1)), sum = 0;
  dnnmem_plan_result resolved;
  int32_t k, reps = 20000000 / in->n;
  double t;
  if (!solve(in, S_MIN, S_MAX, &sp)) return;
  st.order = sp.order, st.below_offsets = sp.below_offsets, st.below_ids = sp.below_ids;
  p.intervals = &iv, p.coefficients = in->c, p.terms = in->terms, p.s_min = S_MIN, p.s_max = S_MAX;
  t = bench_now_ms();
  for (k = 0; k < reps; k++) {
    dnnmem_plan_symbolic_resolve(&p, &st, S_MIN + k % (S_MAX - S_MIN + 1), off, &resolved);
    sum += resolved.arena;
  }
  t = bench_now_ms() - t;
  printf("%-22s %6d %6d %10.1f   (%lld)\n", in->name, (int)in->n, (int)sp.res.edges,
         (double)in->n * reps / (t * 1e3), (long long)(sum % 7));
  sym_plan_free(&sp);
  free(off);
}

int main(void) {
  static const char *const files[] = {"gpt_mini", "gpt2_small", "llama_32l"};
  sym_input in[6];
  int32_t i, count = 0;
  char path[256];
  for (i = 0; i < 3; i++) {
    snprintf(path, sizeof path, "tests/data/%s.symbolic.csv", files[i]);
    if (read_symbolic(path, files[i], &in[count])) count++;
  }
  printf("== multi-pass planning: arena of K passes over the one-shot plan (best), sizes at S = %d ==\n", S_MAX);
  printf("%-22s %6s %12s %6s %9s %9s %9s  %8s\n", "graph", "n", "one-shot", "/bound", "K=2", "K=4", "K=8",
         "ms(K=8)");
  for (i = 0; i < count; i++) bench_passes(&in[i]);
  bench_passes_dir("../shared/data/models");
  if (!opendir("../shared/data/models")) bench_passes_dir("tests/data");
  synthetic(&in[count], 1, 300), in[count++].name = "synthetic seed 1";
  synthetic(&in[count], 2, 300), in[count++].name = "synthetic seed 2";
  synthetic(&in[count], 3, 1000), in[count++].name = "synthetic seed 3";
  printf("\n== symbolic sizes: one stacking for S in [%d, %d], arena / lower bound at every S ==\n", S_MIN, S_MAX);
  printf("%-22s %6s %9s %9s %9s %9s %9s %6s %8s\n", "records", "n", "worst", "at S_MIN", "Smax-only", "at S_MIN",
         "static", "edges", "solve ms");
  for (i = 0; i < count; i++) bench_symbolic(&in[i]);
  printf("(Smax-only: the stacking of the plan at S = %d alone, resolved at each S; static: that plan's offsets at "
         "every S)\n",
         S_MAX);
  printf("\n== resolving offsets (dnnmem_plan_symbolic_resolve, one call per S) ==\n");
  printf("%-22s %6s %6s %10s\n", "records", "n", "edges", "M rec/s");
  for (i = 0; i < count; i++) bench_resolve(&in[i]);
  for (i = 0; i < count; i++) free(in[i].r), free(in[i].c);
  return 0;
}

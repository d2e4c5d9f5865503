/* offline (issue 27, rematlifo): a descent on the nesting measure (crossing bytes of large records on the
   plateau) at equal time, peak within B; then planned by dnnmem_remat_plan and first fit */
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
static double LINE = 0.95, BIG = 0.001; static int NPAIR = 64, MINOV = 2;
typedef struct { int32_t a, b; double w; } pair_t;
static int pcmp(const void *x, const void *y) { double d = ((const pair_t *)y)->w - ((const pair_t *)x)->w; return d > 0 ? 1 : d < 0 ? -1 : 0; }

typedef struct { dnnmem__sim_work sim; dnnmem_interval *rec; int64_t *load; int32_t *big; int32_t *first_use, *ready, *latest; pair_t *pairs; int32_t np; } W;

/* the measure: sum of min size over crossing pairs (overlap >= MINOV steps) of records >= BIG*B whose
   overlap holds a step at >= LINE*B; pairs kept (heaviest first) when keep. Returns -1 invalid, else peak */
static int64_t eval(const dnnmem_remat_problem *p, const int32_t *seq, int32_t len, int64_t budget, W *w, double *x, int keep) {
  dnnmem_remat_result st; int32_t j, i, nb = 0, t; int64_t line = (int64_t)(LINE * (double)budget), big = (int64_t)(BIG * (double)budget);
  if (dnnmem__remat_sim(p, seq, len, &w->sim, &st, NULL) != DNNMEM_OK) return -1;
  dnnmem__remat_records(p, seq, len, &w->sim, w->rec);
  for (t = 0; t <= len; t++) w->load[t] = 0;
  for (j = 0; j < len; j++) w->load[w->rec[j].lower] += w->rec[j].size, w->load[w->rec[j].upper] -= w->rec[j].size;
  for (t = 1; t <= len; t++) w->load[t] += w->load[t - 1];
  /* hot[t]: prefix count of steps at >= line */
  { int64_t c = 0; for (t = 0; t < len; t++) { int64_t h = w->load[t] >= line; w->load[t] = c; c += h; } w->load[len] = c; }
  for (j = 0; j < len; j++) if (w->rec[j].size >= big) w->big[nb++] = j;
  *x = 0; if (keep) w->np = 0;
  for (i = 0; i < nb; i++) {
    dnnmem_interval *A = &w->rec[w->big[i]];
    for (j = i + 1; j < nb; j++) { /* big is in birth order: B born after A */
      dnnmem_interval *Bv = &w->rec[w->big[j]];
      if (Bv->lower >= A->upper) break;
      if (A->lower < Bv->lower && A->upper < Bv->upper && A->upper - Bv->lower >= MINOV &&
          w->load[A->upper] - w->load[Bv->lower] > 0) {
        double m = (double)(A->size < Bv->size ? A->size : Bv->size);
        *x += m;
        if (keep) { w->pairs[w->np].a = w->big[i], w->pairs[w->np].b = w->big[j], w->pairs[w->np].w = m * (double)(A->upper - Bv->lower); w->np++; }
      }
    }
  }
  return st.peak;
}

int main(int argc, char **argv) {
  files_graph g; files_error err; dnnmem_remat_problem p;
  FILE *f; int evals = argc > 3 ? atoi(argv[3]) : 2000;
  long long time_, peak, arena, budget; int len, st = 0, j, k;
  double t0 = 0;
  if (getenv("LINE")) LINE = atof(getenv("LINE"));
  if (getenv("BIG")) BIG = atof(getenv("BIG"));
  if (getenv("NPAIR")) NPAIR = atoi(getenv("NPAIR"));
  if (files_read_graph(argv[1], &g, &err) != 0) { fprintf(stderr, "graph\n"); return 1; }
  files_graph_remat_problem(&g, &p);
  for (j = 0; j < p.graph->num_nodes; j++) t0 += (double)p.times[j];
  f = fopen(argv[2], "r");
  while (fscanf(f, " %lld %lld %lld %lld %d", &budget, &time_, &peak, &arena, &len) == 5) {
    const dnnmem_graph *gg = p.graph;
    int32_t *seq = malloc(len * 4), *trial = malloc(len * 4), used = 0, taken = 0;
    dnnmem_plan_options po; dnnmem_remat_plan_result pr0, pr1; size_t bytes = 0;
    dnnmem_interval *rec = malloc(len * sizeof(*rec)); int64_t *off = malloc(3 * len * 8); int32_t *ids = malloc(3 * len * 4);
    unsigned char *mem; double ta, x0, x, x2; int64_t pk, ff0 = -1, ff1 = -1;
    dnnmem__scratch s; W w;
    for (j = 0; j < len; j++) if (fscanf(f, "%d", &seq[j]) != 1) return 2;
    dnnmem_remat_arena_options(budget, len, &po);
    dnnmem_remat_plan_scratch_size(&p, &po, seq, len, 0, &bytes);
    mem = malloc(bytes + (64 << 20));
    w.rec = malloc(len * sizeof(dnnmem_interval)); w.load = malloc((len + 1) * 8); w.big = malloc(len * 4);
    w.first_use = malloc(len * 4); w.ready = malloc(len * 4); w.latest = malloc(gg->num_nodes * 4);
    w.pairs = malloc(sizeof(pair_t) * 4000000);
    dnnmem__scratch_begin(&s, mem + bytes, 64 << 20); dnnmem__sim_layout(&s, gg->num_nodes, len, &w.sim); dnnmem__scratch_end(&s, NULL);
    if (getenv("NOPLAN")) { double xx; pk = eval(&p, seq, len, budget, &w, &xx, 0);
      printf("S %lld %.4f %.4f %.4f %.4f %.3f\n", time_, 100.0 * ((double)time_ / t0 - 1), (double)pk / budget, (double)arena / budget, (double)arena / pk, xx / budget); continue; }
    dnnmem_remat_plan(&p, &po, seq, len, 0, rec, off, &pr0, mem, bytes);
    for (j = 0; j < 4; j++) { int64_t q = dnnmem__remat_first_fit(rec, len, 0, j, 0, off, ids); if (ff0 < 0 || q < ff0) ff0 = q; }
    ta = now();
    pk = eval(&p, seq, len, budget, &w, &x0, 1); x = x0; used++;
    while (used < evals) {
      int32_t m, ok = 0;
      qsort(w.pairs, w.np, sizeof(pair_t), pcmp);
      for (j = 0; j < len; j++) w.first_use[j] = -1;
      for (k = 0; k < gg->num_nodes; k++) w.latest[k] = -1;
      for (j = 0; j < len; j++) {
        int32_t v = seq[j]; w.ready[j] = 0;
        for (k = gg->in_offsets[v]; k < gg->in_offsets[v + 1]; k++) {
          int32_t b = w.latest[gg->in_ids[k]];
          if (b >= 0 && w.first_use[b] < 0) w.first_use[b] = j;
          if (b + 1 > w.ready[j]) w.ready[j] = b + 1;
        }
        w.latest[v] = j;
      }
      { int32_t np = w.np < NPAIR ? w.np : NPAIR, fr[4 * 256], to[4 * 256], nm = 0;
        for (m = 0; m < np && m < 256; m++) {
          int32_t a = w.pairs[m].a, b = w.pairs[m].b, la = w.sim.last_use[a], lb = w.sim.last_use[b];
          if (w.ready[b] <= a) fr[nm] = b, to[nm++] = a;                 /* b born before a: a inside b */
          if (w.first_use[a] > b) fr[nm] = a, to[nm++] = b;              /* a born after b: a inside b */
          if (la > a && lb > la) fr[nm] = la, to[nm++] = lb;             /* a dies after b: b inside a */
          if (lb > b && lb > la && w.ready[lb] <= la) fr[nm] = lb, to[nm++] = la; /* b dies before a: b inside a */
        }
        for (m = 0; m < nm && used < evals && !ok; m++) {
          dnnmem__reorder_move(seq, len, fr[m], to[m], trial); used++;
          pk = eval(&p, trial, len, budget, &w, &x2, 0);
          if (pk < 0 || pk > budget || x2 >= x) continue;
          memcpy(seq, trial, len * 4); x = x2; ok = 1; taken++;
        }
      }
      if (!ok) break;
      (void)eval(&p, seq, len, budget, &w, &x, 1);
    }
    ta = now() - ta;
    dnnmem_remat_plan(&p, &po, seq, len, 0, rec, off, &pr1, mem, bytes);
    for (j = 0; j < 4; j++) { int64_t q = dnnmem__remat_first_fit(rec, len, 0, j, 0, off, ids); if (ff1 < 0 || q < ff1) ff1 = q; }
    if (pr1.time != time_) printf("TIME MISMATCH\n");
    st++;
    printf("#%d extra %.2f%% peak %.4f->%.4f X %.2f->%.2f (taken %d, %d evals %.1fs) plan %.4f->%.4f ff4 %.4f->%.4f plan/peak %.4f->%.4f%s\n", st,
           100.0 * ((double)time_ / t0 - 1), (double)pr0.peak / budget, (double)pr1.peak / budget, x0 / budget, x / budget, taken, used, ta,
           (double)pr0.arena / budget, (double)pr1.arena / budget, (double)ff0 / budget, (double)ff1 / budget,
           (double)pr0.arena / pr0.peak, (double)pr1.arena / pr1.peak, pr1.arena <= budget ? " FIT" : "");
    fflush(stdout);
  }
  return 0;
}

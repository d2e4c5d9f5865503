/* offline (issue 27, rematlifo): 0.24.0's reorder with LIFO moves (extensions that make crossing
   pairs nest) added; judged by first fit's excess as the base; then planned by dnnmem_remat_plan */
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
static int LIFO = 1, KPART = 8, BASEMOVES = 1, LIFOFIRST = 1; static long acc_l, acc_b, tri_l, tri_b;
#define MAXM 8192

static int64_t lifo_reorder(const dnnmem_remat_problem *p, int32_t *seq, int32_t len, int64_t budget,
                            int32_t evals, dnnmem__reorder_work *w, int32_t *usedp) {
  const dnnmem_graph *g = p->graph;
  int64_t arena, a2, peak;
  double excess, e2;
  int32_t used = 0, nbad, i, j, k;
  static int32_t from[MAXM], to[MAXM];
  peak = dnnmem__reorder_eval(p, seq, len, budget, 0, w, &arena, &excess);
  if (peak < 0 || peak > budget) return -1;
  used++;
  while (used < evals && arena > budget) {
    int32_t nm = 0, m;
    int32_t *latest = w->ids;
    int taken = 0;
    for (j = 0, nbad = 0; j < len; j++)
      if (w->off[j] + w->rec[j].size > budget) w->bad[nbad++] = j;
    for (i = 1; i < nbad; i++) {
      int32_t b = w->bad[i];
      int64_t t = w->off[b] + w->rec[b].size;
      for (k = i; k > 0 && w->off[w->bad[k - 1]] + w->rec[w->bad[k - 1]].size < t; k--) w->bad[k] = w->bad[k - 1];
      w->bad[k] = b;
    }
    if (nbad > 64) nbad = 64;
    for (j = 0; j < len; j++) w->first_use[j] = -1;
    for (k = 0; k < g->num_nodes; k++) latest[k] = -1;
    for (j = 0; j < len; j++) {
      int32_t v = seq[j];
      w->ready[j] = 0;
      for (k = g->in_offsets[v]; k < g->in_offsets[v + 1]; k++) {
        int32_t b = latest[g->in_ids[k]];
        if (b >= 0 && w->first_use[b] < 0) w->first_use[b] = j;
        if (b + 1 > w->ready[j]) w->ready[j] = b + 1;
      }
      latest[v] = j;
    }
    int32_t nl0 = 0, nl1 = 0;
    if (!LIFOFIRST) goto basemv;
  lifomv:
    nl0 = nm;
    if (LIFO) { /* LIFO moves first: for a record above, its crossing partners (longest overlap first) made to nest */
      for (i = 0; i < nbad && nm + 4 * KPART < MAXM; i++) {
        int32_t r = w->bad[i], q, kk;
        int32_t part[64], np = 0; int64_t ov[64];
        for (q = 0; q < len; q++) {
          int64_t o;
          if (q == r || w->rec[q].size == 0) continue;
          if (w->rec[q].lower < w->rec[r].lower && w->rec[r].lower < w->rec[q].upper && w->rec[q].upper < w->rec[r].upper)
            o = w->rec[q].upper - w->rec[r].lower;
          else if (w->rec[r].lower < w->rec[q].lower && w->rec[q].lower < w->rec[r].upper && w->rec[r].upper < w->rec[q].upper)
            o = w->rec[r].upper - w->rec[q].lower;
          else continue;
          if (o < 2) continue; /* a hand-off */
          o *= w->rec[q].size < w->rec[r].size ? w->rec[q].size : w->rec[r].size;
          for (kk = np < KPART ? np++ : KPART; kk > 0 && ov[kk - 1] < o; kk--) if (kk < KPART) part[kk] = part[kk - 1], ov[kk] = ov[kk - 1];
          if (kk < KPART) part[kk] = q, ov[kk] = o;
        }
        for (kk = 0; kk < np; kk++) {
          int32_t q = part[kk], a, b; /* a born first, dies first */
          if (w->rec[q].lower < w->rec[r].lower) a = q, b = r; else a = r, b = q;
          /* b born before a (if its inputs are ready by then) */
          if (w->ready[b] <= a) from[nm] = b, to[nm++] = a;
          /* a born after b (before its first reader) */
          if (w->first_use[a] > b) from[nm] = a, to[nm++] = b;
          /* a's last reader after b's last reader */
          { int32_t la = w->sim.last_use[a], lb = w->sim.last_use[b];
            if (la > a && lb > la && lb < len) from[nm] = la, to[nm++] = lb;
            /* b's last reader before a's last reader (after its inputs) */
            if (lb > b && la > b && w->ready[lb] <= la && lb > la) from[nm] = lb, to[nm++] = la; }
        }
      }
    }
    nl1 = nm;
    if (!LIFOFIRST) goto trymv;
  basemv:
    if (BASEMOVES) {
      for (i = 0; i < nbad && nm + 4 < MAXM; i++) {
        int32_t r = w->bad[i], last = w->sim.last_use[r], fu = w->first_use[r];
        if (fu > r + 1) from[nm] = r, to[nm++] = fu - 1, from[nm] = r, to[nm++] = r + (fu - r) / 2;
        if (last > r && last > fu) {
          int32_t e = w->ready[last] > r + 1 ? w->ready[last] : r + 1;
          if (e < last) from[nm] = last, to[nm++] = e, from[nm] = last, to[nm++] = e + (last - e) / 2;
        }
      }
      for (i = 0; i < nbad; i++) {
        int32_t r = w->bad[i], q;
        int64_t top = w->off[r] + w->rec[r].size;
        for (q = 0; q < r && nm + 2 <= MAXM; q++) {
          int32_t last = w->sim.last_use[q], fu = w->first_use[q];
          if (w->rec[q].upper <= r || w->off[q] >= top || w->rec[q].size == 0) continue;
          if (fu > r + 1 && fu - 1 > q) from[nm] = q, to[nm++] = fu - 1;
          if (last > r && last > fu && fu >= 0 && fu < r) {
            int32_t e = w->ready[last] > q + 1 ? w->ready[last] : q + 1;
            if (e <= r) from[nm] = last, to[nm++] = e;
          }
        }
      }
    }
    if (!LIFOFIRST) goto lifomv;
  trymv:
    for (m = 0; m < nm && !taken && used < evals; m++) {
      int isl = m >= nl0 && m < nl1;
      if (to[m] == from[m]) continue;
      if (isl) tri_l++; else tri_b++;
      dnnmem__reorder_move(seq, len, from[m], to[m], w->trial);
      used++;
      peak = dnnmem__reorder_eval(p, w->trial, len, budget, 0, w, &a2, &e2);
      if (peak < 0 || peak > budget || e2 >= excess) continue;
      DNNMEM_MEMCPY(seq, w->trial, (size_t)len * sizeof(int32_t));
      arena = a2, excess = e2, taken = 1;
      if (isl) acc_l++; else acc_b++;
    }
    if (!taken) break;
  }
  *usedp = used;
  return arena;
}

int main(int argc, char **argv) {
  files_graph g; files_error err; dnnmem_remat_problem p;
  FILE *f; int evals = argc > 3 ? atoi(argv[3]) : 200;
  long long time_, peak, arena, budget; int len, st = 0, fits0 = 0, fits1 = 0, j;
  double s0 = 0, s1 = 0, t0 = 0;
  if (getenv("LIFO")) LIFO = atoi(getenv("LIFO"));
  if (getenv("LIFOFIRST")) LIFOFIRST = atoi(getenv("LIFOFIRST"));
  if (getenv("KPART")) KPART = atoi(getenv("KPART"));
  if (getenv("BASEMOVES")) BASEMOVES = atoi(getenv("BASEMOVES"));
  if (files_read_graph(argv[1], &g, &err) != 0) { fprintf(stderr, "graph\n"); return 1; }
  files_graph_remat_problem(&g, &p);
  for (j = 0; j < p.graph->num_nodes; j++) t0 += (double)p.times[j];
  f = fopen(argv[2], "r");
  while (fscanf(f, " %lld %lld %lld %lld %d", &budget, &time_, &peak, &arena, &len) == 5) {
    int32_t *seq = malloc(len * sizeof(int32_t)), used = 0;
    dnnmem_plan_options po; dnnmem_remat_plan_result pr1; size_t bytes = 0, rb;
    dnnmem_interval *rec = malloc(len * sizeof(*rec)); int64_t *off = malloc(len * sizeof(int64_t));
    unsigned char *mem; double ta, tb; int64_t ra;
    dnnmem__scratch s; dnnmem__reorder_work w;
    for (j = 0; j < len; j++) if (fscanf(f, "%d", &seq[j]) != 1) return 2;
    dnnmem_remat_arena_options(budget, len, &po);
    dnnmem_remat_plan_scratch_size(&p, &po, seq, len, 0, &bytes);
    rb = (size_t)dnnmem__remat_reorder_bytes(p.graph->num_nodes, len);
    mem = malloc(bytes > rb ? bytes : rb);
    ta = now();
    dnnmem__scratch_begin(&s, mem, rb); dnnmem__reorder_layout(&s, p.graph->num_nodes, len, &w); dnnmem__scratch_end(&s, NULL);
    ra = lifo_reorder(&p, seq, len, budget, evals, &w, &used);
    tb = now();
    dnnmem_remat_plan(&p, &po, seq, len, 0, rec, off, &pr1, mem, bytes);
    if (pr1.time != time_) printf("TIME MISMATCH\n");
    st++; fits0 += arena <= budget; fits1 += pr1.arena <= budget;
    s0 += (double)arena / budget; s1 += (double)pr1.arena / budget;
    printf("#%d extra %.2f%% peak %.4f plan %.4f -> ff %.4f peak %.4f plan %.4f%s  [%d evals %.1fs, plan %.1fs]\n", st,
           100.0 * ((double)time_ / t0 - 1), (double)peak / budget, (double)arena / budget, (double)ra / budget,
           (double)pr1.peak / budget, (double)pr1.arena / budget, pr1.arena <= budget ? " FIT" : "", used, tb - ta, now() - tb);
    fflush(stdout);
    free(seq); free(rec); free(off); free(mem);
  }
  printf("lifo tried %ld taken %ld; base tried %ld taken %ld\n", tri_l, acc_l, tri_b, acc_b);
  printf("states %d fits before %d after %d mean plan/B %.4f -> %.4f\n", st, fits0, fits1, s0 / st, s1 / st);
  return 0;
}

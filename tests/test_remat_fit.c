/* tests/test_remat_fit.c: the fit (dnnmem__remat_fit), run by the
   arena-aware solve after its arena rounds when no arena fits the budget,
   or when the answer fits but a checkpoint schedule simulates faster: checkpoint schedules built
   from the forward's cut values, planned, the fastest that fits polished
   back towards the budget.
   The repeated layers of tests/ref.h (ref_remat_layers_graph) at a budget
   where the row order's plan does not fit: from a state whose only
   candidate is the row order (the main search found nothing that fits),
   the fit leaves a candidate whose arena fits, recounted here (validity,
   peak and time by ref_remat_recount, lifetimes by ref_remat_lifetimes,
   the public plan's offsets by ref_plan_recount); the same state twice
   gives the same answer. Where an arena fits already (and no checkpoint
   schedule is faster), or the solve is reorder-only or stopped, the fit
   changes nothing and plans nothing. The public solve's calls, the fit
   over a slow fit, and a stop during the fit are pinned too. */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "ref.h"
#include "remat_state.h"

#define MAXL 256

static char scratch_buf[1 << 24];

/* The arena of seq[0 .. len) by the public plan with the solve's options,
   recounted on records built by tests/ref.h; -1 if the offsets collide. */
static int64_t recount_arena(const dnnmem_remat_problem *p, int64_t budget, const int32_t *seq, int32_t len) {
  dnnmem_plan_options po;
  dnnmem_remat_plan_result pr;
  dnnmem_interval rec[MAXL], ref_rec[MAXL];
  int64_t off[MAXL], upper[MAXL], arena;
  dnnmem_intervals ip;
  size_t bytes = 0;
  void *scratch;
  int32_t j;
  dnnmem_remat_arena_options(budget, len, &po);
  CHECK_EQ(dnnmem_remat_plan_scratch_size(p, &po, seq, len, 0, &bytes), DNNMEM_OK);
  scratch = malloc(bytes);
  CHECK_EQ(dnnmem_remat_plan(p, &po, seq, len, 0, rec, off, &pr, scratch, bytes), DNNMEM_OK);
  free(scratch);
  ref_remat_lifetimes(p, seq, len, upper);
  for (j = 0; j < len; j++) ref_rec[j] = ref_plan_record(j, upper[j], p->sizes[seq[j]]);
  ip.records = ref_rec;
  ip.count = len;
  ip.alignment = 0;
  arena = ref_plan_recount(&ip, off);
  CHECK_EQ(arena, pr.arena);
  return arena;
}

/* The state the fit meets when nothing fits: remat_state's, with the row
   order planned and offered as the only arena candidate. */
static void nothing_fits(dnnmem__remat *w, dnnmem_remat_options *oo, dnnmem_rng *rng, ref_remat_graph *g,
                         int64_t budget) {
  dnnmem_remat_result row;
  remat_state(w, oo, rng, g, budget, 1, scratch_buf, sizeof(scratch_buf));
  row = dnnmem__remat_arena_try(w, w->order, g->n);
  CHECK(row.arena > budget);
  CHECK_EQ(w->arena_result.arena, row.arena);
}

/* tests/ref.h's repeated layers and its row order's peak and time. */
static void layers_graph(ref_remat_graph *g, int64_t *row_peak, int64_t *row_time) {
  int32_t a[8], b[8], sched[64], len = ref_remat_layers_graph(g, a, b, 0, sched);
  CHECK(ref_remat_recount(&g->p, sched, len, row_peak, row_time));
}

/* The layers graph and the budget of the fit's tests: 6/10 of its row
   order's peak, where the row order's plan does not fit. */
static int64_t layers_budget(ref_remat_graph *g) {
  int64_t row_peak, row_time;
  layers_graph(g, &row_peak, &row_time);
  return row_peak * 6 / 10;
}

static void test_fit_layers(void) {
  ref_remat_graph g;
  int32_t len, seq[MAXL], i;
  int64_t peak, time, row_peak, row_time, budget, base_time = 0, arena;
  dnnmem_remat_options oo;
  dnnmem_rng rng;
  dnnmem_remat_result first;
  static dnnmem__remat w;
  layers_graph(&g, &row_peak, &row_time);
  for (i = 0; i < g.n; i++) base_time += g.time[i];
  CHECK_EQ(row_time, base_time);
  budget = row_peak * 6 / 10;
  nothing_fits(&w, &oo, &rng, &g, budget);
  dnnmem__remat_fit(&w);
  CHECK(w.arena_result.arena >= 0 && w.arena_result.arena <= budget);
  len = w.arena_len;
  CHECK(len > g.n && len <= MAXL); /* recomputes */
  for (i = 0; i < len; i++) seq[i] = w.arena_cand[i];
  CHECK(ref_remat_recount(&g.p, seq, len, &peak, &time));
  CHECK_EQ(peak, w.arena_result.peak);
  CHECK_EQ(time, w.arena_result.time);
  CHECK(time > base_time);
  arena = recount_arena(&g.p, budget, seq, len);
  CHECK_EQ(arena, w.arena_result.arena);
  CHECK(arena >= peak && arena <= budget);
  /* pinned (0.25.0): the row order's 416 down to 224 in 51 steps, time 64 -> 79 */
  CHECK_EQ(peak, 224);
  CHECK_EQ(arena, 224);
  CHECK_EQ(time, 79);
  CHECK_EQ(len, 51);
  /* deterministic: the same state, the same answer */
  first = w.arena_result;
  nothing_fits(&w, &oo, &rng, &g, budget);
  dnnmem__remat_fit(&w);
  CHECK(w.arena_result.time == first.time && w.arena_result.arena == first.arena && w.arena_len == len);
  CHECK_EQ(memcmp(w.arena_cand, seq, (size_t)len * sizeof(int32_t)), 0);
}

/* A forward with skip edges (tests/ref.h's random training graph, found
   among 2,000 where the rule matters): a cut value is the ONLY forward
   value live across its step; counting any live value as a cut makes
   this one's fit miss (arena 71 > 62). */
static void test_fit_skips(void) {
  ref_remat_graph g;
  uint64_t rng64 = 63u * 7919u;
  int32_t fw = 4 + (int32_t)ref_rand(&rng64, 12), bw = 3 + (int32_t)ref_rand(&rng64, 8), seq[MAXL], len, i;
  int64_t row_peak, row_time, budget, peak, time;
  dnnmem_remat_options oo;
  dnnmem_rng rng;
  static dnnmem__remat w;
  ref_remat_random_training(&g, fw, bw, &rng64);
  for (i = 0; i < g.n; i++) seq[i] = i;
  CHECK(ref_remat_recount(&g.p, seq, g.n, &row_peak, &row_time));
  budget = row_peak * 8 / 10;
  nothing_fits(&w, &oo, &rng, &g, budget);
  dnnmem__remat_fit(&w);
  len = w.arena_len;
  CHECK(len > 0 && len <= MAXL);
  for (i = 0; i < len; i++) seq[i] = w.arena_cand[i];
  CHECK(ref_remat_recount(&g.p, seq, len, &peak, &time));
  CHECK_EQ(time, w.arena_result.time);
  CHECK_EQ(recount_arena(&g.p, budget, seq, len), w.arena_result.arena);
  CHECK_EQ(budget, 62);
  CHECK_EQ(w.arena_result.arena, 58);
  CHECK_EQ(time, 99);
  CHECK_EQ(len, 21);
}

/* Where an arena fits, the fit plans nothing and changes nothing. */
static void test_fit_idle(void) {
  ref_remat_graph g;
  int64_t row_peak, row_time;
  dnnmem_remat_options oo;
  dnnmem_rng rng;
  dnnmem_remat_result row, st;
  static dnnmem__remat w;
  layers_graph(&g, &row_peak, &row_time);
  remat_state(&w, &oo, &rng, &g, row_peak, 1, scratch_buf, sizeof(scratch_buf));
  row = dnnmem__remat_arena_try(&w, w.order, g.n);
  CHECK(row.arena <= row_peak);
  st = w.arena_result;
  w.plan_len = -1; /* a plan would set it */
  dnnmem__remat_fit(&w);
  CHECK_EQ(w.plan_len, -1);
  CHECK(w.arena_result.arena == st.arena && w.arena_result.time == st.time && w.arena_len == g.n);
}

/* Nothing fits, but the fit must not run: a reorder-only solve (its
   answer keeps every node once), or after a stop. */
static void test_fit_guards(void) {
  ref_remat_graph g;
  int32_t pass;
  int64_t budget;
  dnnmem_remat_options oo;
  dnnmem_rng rng;
  dnnmem_remat_result st;
  static dnnmem__remat w;
  budget = layers_budget(&g);
  for (pass = 0; pass < 2; pass++) {
    nothing_fits(&w, &oo, &rng, &g, budget);
    if (pass == 0) oo.reorder_only = 1; /* w.o is &oo */
    else w.halted = 1;
    st = w.arena_result;
    w.plan_len = -1;
    dnnmem__remat_fit(&w);
    CHECK_EQ(w.plan_len, -1);
    CHECK(w.arena_result.arena == st.arena && w.arena_result.time == st.time && w.arena_len == g.n);
  }
}

/* A random training graph of tests/ref.h (fw forward, bw backward nodes,
   the rest drawn from rng64) solved publicly at tenths / 10 of its row
   order's peak with the given moves and seed (capacity 1,024: it sets the
   annealer's slots, 4 per step, so its trajectory); the return code
   checked against want, the answer recounted by tests/ref.h (validity,
   peak, time, the public plan's arena). Returns the recounted time. */
static int64_t solve_case(uint64_t *rng64, int32_t fw, int32_t bw, int64_t tenths, int64_t moves, uint64_t seed,
                          dnnmem_result want, int64_t *budget, dnnmem_remat_result *res) {
  ref_remat_graph g;
  int32_t seq[1024], i;
  int64_t row_peak, row_time, peak = -1, time = -1;
  dnnmem_remat_options o;
  dnnmem_rng rng;
  ref_remat_random_training(&g, fw, bw, rng64);
  for (i = 0; i < g.n; i++) seq[i] = i;
  CHECK(ref_remat_recount(&g.p, seq, g.n, &row_peak, &row_time));
  *budget = row_peak * tenths / 10;
  o = ref_remat_options(*budget, moves);
  dnnmem_rng_seed(&rng, seed);
  CHECK_EQ(dnnmem_remat_solve(&g.p, &o, &rng, seq, 1024, res, scratch_buf, sizeof(scratch_buf)), want);
  CHECK(res->length > 0 && res->length <= MAXL);
  CHECK(ref_remat_recount(&g.p, seq, res->length, &peak, &time));
  if (want == DNNMEM_OK) CHECK(peak == res->peak && res->arena >= peak && res->arena <= *budget);
  CHECK_EQ(time, res->time);
  CHECK_EQ(recount_arena(&g.p, *budget, seq, res->length), res->arena);
  return time;
}

/* The public solve calls the fit: a random training graph (found among
   300 with few moves) where the arena rounds' 300 moves find no arena
   within the budget and the fit does (the fit off: arena 99 > 89). Then
   one move: no round runs and no arena fits. Then an answer that fits
   slowly. */
static void test_fit_solve(void) {
  uint64_t rng64 = 92u * 7919u + 17u;
  int32_t fw = 4 + (int32_t)ref_rand(&rng64, 12), bw = 3 + (int32_t)ref_rand(&rng64, 8);
  int64_t budget, time;
  dnnmem_remat_result res;
  time = solve_case(&rng64, fw, bw, 7, 300, 1, DNNMEM_OK, &budget, &res);
  /* pinned: budget 89, arena 84 in 21 steps, time 98 */
  CHECK_EQ(budget, 89);
  CHECK_EQ(res.arena, 84);
  CHECK_EQ(time, 98);
  CHECK_EQ(res.length, 21);
  /* one move: no arena round runs; no arena fits, and the answer is the
     smallest arena planned, the fit's 62 (without it: the row order's
     67) */
  rng64 = 155u * 7919u + 17u;
  fw = 4 + (int32_t)ref_rand(&rng64, 12), bw = 3 + (int32_t)ref_rand(&rng64, 8);
  time = solve_case(&rng64, fw, bw, 7, 1, 1, DNNMEM_ERR_INFEASIBLE, &budget, &res);
  CHECK_EQ(budget, 59);
  CHECK_EQ(res.arena, 62);
  CHECK_EQ(time, 109);
  /* 20 moves, an answer that fits (time 70) but slowly: the fit over a
     slow fit (FIT_SLOW) plans a faster checkpoint schedule, time 68 (found
     by review among 6,000 random solves; the fit off: 70) */
  rng64 = (uint64_t)700 * 2654435761u + 12345u;
  bw = 3 + (int32_t)ref_rand(&rng64, 8);
  fw = 4 + (int32_t)ref_rand(&rng64, 12);
  time = solve_case(&rng64, fw, bw, 8, 20, 700, DNNMEM_OK, &budget, &res);
  CHECK_EQ(budget, 60);
  CHECK_EQ(res.arena, 60);
  CHECK_EQ(time, 68);
  CHECK_EQ(res.length, 17);
}

/* The answer fits but slowly (the fit's own answer with a[i] steps
   computed twice in a row: the same peak, 4 more time each): the fit
   plans only checkpoint schedules of peak within the budget faster than
   the answer; from 6 repeats (103 > 99, the fastest checkpoint schedule
   that fits) it runs and its polished 79 is the answer; at 5 (99) it
   plans nothing. */
static void test_fit_slow(void) {
  ref_remat_graph g;
  int32_t ans[MAXL], slow[MAXL], len, n2, i, c, d;
  int64_t budget, peak, time;
  dnnmem_remat_options oo;
  dnnmem_rng rng;
  dnnmem_remat_result st;
  static dnnmem__remat w;
  budget = layers_budget(&g);
  nothing_fits(&w, &oo, &rng, &g, budget);
  CHECK_EQ(dnnmem__remat_fit(&w), 1);
  CHECK_EQ(w.arena_result.time, 79);
  len = w.arena_len;
  memcpy(ans, w.arena_cand, (size_t)len * sizeof(int32_t));
  for (d = 5; d <= 6; d++) {
    for (i = n2 = c = 0; i < len; i++) {
      slow[n2++] = ans[i];
      if (c < d && g.time[ans[i]] == 4) slow[n2++] = ans[i], c++; /* an a[i]: time 4 */
    }
    CHECK(ref_remat_recount(&g.p, slow, n2, &peak, &time));
    CHECK_EQ(time, 79 + 4 * d);
    remat_state(&w, &oo, &rng, &g, budget, 1, scratch_buf, sizeof(scratch_buf));
    st = dnnmem__remat_arena_try(&w, slow, n2);
    CHECK(st.arena <= budget && st.time == time);
    w.plan_len = -1;
    CHECK_EQ(dnnmem__remat_fit(&w), 1);
    if (d == 5) {
      CHECK_EQ(w.plan_len, -1);
      CHECK(w.arena_result.time == time && w.arena_len == n2);
      continue;
    }
    CHECK_EQ(w.arena_result.time, 79);
    CHECK(w.arena_result.arena <= budget);
    CHECK(ref_remat_recount(&g.p, w.arena_cand, w.arena_len, &peak, &time));
    CHECK_EQ(time, 79);
    CHECK_EQ(recount_arena(&g.p, budget, w.arena_cand, w.arena_len), w.arena_result.arena);
  }
}

/* A stop during the fit: polled once a plan, before it; after it says
   stop no more polls and no more plans. Stopped at the 6th spacing's
   poll, the answer is the fastest checkpoint schedule planned so far, of
   the first five (time 105); at the 7th's, the 6th's (99, unpolished); at
   time back's first poll (41) still 99, nothing polished after a stop; at
   its second (42), the polish at the budget's own aim: 83 (the
   bisection's first aim gave 84 before the budget was tried; the whole
   fit: 79). */
static int stop_calls, stop_at;
static int stop_count(void *user) {
  (void)user;
  return ++stop_calls >= stop_at;
}

static void test_fit_stop(void) {
  ref_remat_graph g;
  int64_t budget, peak, time;
  dnnmem_remat_options oo;
  dnnmem_rng rng;
  static dnnmem__remat w;
  static const int at[4] = {6, 7, 41, 42};
  static const int64_t want[4] = {105, 99, 99, 83};
  int k;
  budget = layers_budget(&g);
  for (k = 0; k < 4; k++) {
    nothing_fits(&w, &oo, &rng, &g, budget);
    oo.stop = stop_count; /* w.o is &oo */
    stop_calls = 0, stop_at = at[k];
    CHECK_EQ(dnnmem__remat_fit(&w), 1);
    CHECK_EQ(stop_calls, at[k]);
    CHECK(w.halted);
    CHECK_EQ(w.arena_result.time, want[k]);
    CHECK(w.arena_result.arena <= budget);
    CHECK(ref_remat_recount(&g.p, w.arena_cand, w.arena_len, &peak, &time));
    CHECK_EQ(time, want[k]);
    CHECK_EQ(recount_arena(&g.p, budget, w.arena_cand, w.arena_len), w.arena_result.arena);
  }
}

int main(void) {
  RUN(test_fit_layers);
  RUN(test_fit_skips);
  RUN(test_fit_idle);
  RUN(test_fit_guards);
  RUN(test_fit_solve);
  RUN(test_fit_slow);
  RUN(test_fit_stop);
  return test_finish("test_remat_fit");
}

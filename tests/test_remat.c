/* tests/test_remat.c: recompute (dnnmem_remat_*).
   Every peak and time is checked by the independent recount of
   tests/ref.h (from the definition, O(L^2), no shared code with the
   simulator); optima come from exhaustive search over sequences and from
   a forward Dijkstra without pruning for group orders; the annealer's
   temperature ratio (its logarithm: tests/test_common.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define STB_DS_IMPLEMENTATION
#include <stb/stb_ds.h>

#include "test.h"
#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "ref.h"
#include "remat_state.h"
#include "../examples/dnnmem_files.h"

/* ---- random graphs (built with tests/ref.h's ref_remat_graph) ---------- */

#define MAXN REF_REMAT_MAXN
#define MAXE REF_REMAT_MAXE

static uint64_t t_rng = 12345;
static uint32_t t_rand(uint32_t bound) { return ref_rand(&t_rng, bound); }
static void tg_random(ref_remat_graph *g, int32_t n) { ref_remat_random_graph(g, n, 0, &t_rng); }
static void tg_random_training(ref_remat_graph *g, int32_t forward, int32_t backward) {
  ref_remat_random_training(g, forward, backward, &t_rng);
}

/* the recount of tests/ref.h on a test graph */
static int recount(const ref_remat_graph *g, const int32_t *seq, int32_t len, int64_t *peak, int64_t *time) {
  return ref_remat_recount(&g->p, seq, len, peak, time);
}

#define options_for ref_remat_options

static char scratch_buf[1 << 24];

/* ---- simulator ---------------------------------------------------------------- */

static void test_simulator_vs_recount(void) {
  int trial;
  for (trial = 0; trial < 300; trial++) {
    ref_remat_graph g;
    int32_t seq[40], len = 0, v, i;
    int64_t peak, time, profile[40];
    dnnmem_remat_result st;
    dnnmem_result r;
    int ok;
    tg_random(&g, 2 + (int32_t)t_rand(7));
    /* a topological order with random recomputations, sometimes broken */
    for (v = 0; v < g.n; v++) {
      if (v > 0 && g.off[v] < g.off[v + 1] && t_rand(3) == 0) seq[len++] = (int32_t)t_rand((uint32_t)v);
      seq[len++] = v;
      if (t_rand(4) == 0) seq[len++] = (int32_t)t_rand((uint32_t)g.n);
    }
    if (t_rand(10) == 0) { /* drop a step */
      i = (int32_t)t_rand((uint32_t)len);
      memmove(seq + i, seq + i + 1, (size_t)(len - i - 1) * sizeof(int32_t));
      len--;
    }
    ok = recount(&g, seq, len, &peak, &time);
    r = dnnmem_remat_simulate(&g.p, seq, len, profile, &st, scratch_buf, sizeof(scratch_buf));
    CHECK_EQ(r == DNNMEM_OK, ok);
    if (ok && r == DNNMEM_OK) {
      int64_t mx = 0;
      CHECK_EQ(st.peak, peak);
      CHECK_EQ(st.time, time);
      CHECK_EQ(st.length, len);
      CHECK_EQ(st.recomputations, len - g.n);
      for (i = 0; i < len; i++) mx = profile[i] > mx ? profile[i] : mx;
      CHECK_EQ(mx, peak);
    }
  }
}

/* tests/ref.h's two recounts of the same definition, the literal one (every
   instance at every step, every binding searched again) and the fast one
   every test uses: the same verdict, peak and time on random sequences
   (recomputations, graph outputs, zero sizes; a tenth broken: a step
   dropped, a graph input twice or an id out of range). */
static void test_recount_vs_literal(void) {
  uint64_t rng = 2026; /* its own: the other tests' draws stay as they were */
  int trial, valid = 0;
  for (trial = 0; trial < 1000; trial++) {
    ref_remat_graph g;
    int32_t seq[64], len = 0, v, i;
    int64_t lp = -1, lt = -1, fp = -2, ft = -2;
    int lok, fok;
    if (trial % 3 == 2) ref_remat_random_training(&g, 2 + (int32_t)ref_rand(&rng, 5), 2 + (int32_t)ref_rand(&rng, 5), &rng);
    else ref_remat_random_graph(&g, 1 + (int32_t)ref_rand(&rng, 12), trial % 3, &rng);
    for (v = 0; v < g.n; v++) {
      while (v > 0 && ref_rand(&rng, 3) == 0 && len < 40) { /* recompute an earlier node that has inputs */
        int32_t u = (int32_t)ref_rand(&rng, (uint32_t)v);
        if (g.off[u] < g.off[u + 1]) seq[len++] = u;
      }
      seq[len++] = v;
    }
    switch (ref_rand(&rng, 30)) {
    case 0: /* drop a step */
      i = (int32_t)ref_rand(&rng, (uint32_t)len);
      memmove(seq + i, seq + i + 1, (size_t)(len - i - 1) * sizeof(int32_t));
      len--;
      break;
    case 1: seq[len++] = 0; break; /* node 0 has no inputs: a graph input twice */
    case 2: seq[ref_rand(&rng, (uint32_t)len)] = ref_rand(&rng, 2) ? -1 : g.n; break;
    default: break;
    }
    lok = ref_remat_recount_literal(&g.p, seq, len, &lp, &lt);
    fok = ref_remat_recount(&g.p, seq, len, &fp, &ft);
    CHECK_EQ(fok, lok);
    if (lok && fok) {
      CHECK_EQ(fp, lp);
      CHECK_EQ(ft, lt);
    }
    valid += lok;
  }
  CHECK(valid > 900 && valid < 1000); /* both kinds asked */
}

static void test_simulator_errors(void) {
  ref_remat_graph g;
  int32_t in_a[] = {0, -1}, in_b[] = {1, -1};
  int32_t good[] = {0, 1, 2}, missing[] = {0, 1}, early[] = {0, 2, 1}, twice[] = {0, 1, 0, 2},
          bad_id[] = {0, 1, 7};
  int64_t profile[3];
  dnnmem_remat_result st;
  size_t need = 0;
  ref_remat_graph_begin(&g);
  ref_remat_graph_node(&g, 4, 1, 0, NULL);
  ref_remat_graph_node(&g, 8, 2, 0, in_a);
  ref_remat_graph_node(&g, 2, 3, 1, in_b);
  CHECK_EQ(dnnmem_remat_simulate(&g.p, good, 3, profile, &st, scratch_buf, 4096), DNNMEM_OK);
  CHECK_EQ(st.peak, 12);
  CHECK_EQ(st.time, 6);
  CHECK_EQ(profile[0], 4);  /* a */
  CHECK_EQ(profile[1], 12); /* a, b */
  CHECK_EQ(profile[2], 10); /* b, c */
  CHECK_EQ(dnnmem_remat_simulate(&g.p, good, 3, NULL, NULL, scratch_buf, 4096), DNNMEM_OK);
  CHECK_EQ(dnnmem_remat_simulate(&g.p, missing, 2, NULL, &st, scratch_buf, 4096),
           DNNMEM_ERR_REMAT_MISSING_NODE);
  CHECK_EQ(dnnmem_remat_simulate(&g.p, early, 3, NULL, &st, scratch_buf, 4096),
           DNNMEM_ERR_REMAT_INPUT_NOT_READY);
  CHECK_EQ(dnnmem_remat_simulate(&g.p, twice, 4, NULL, &st, scratch_buf, 4096),
           DNNMEM_ERR_REMAT_INPUT_REPEATED);
  CHECK_EQ(dnnmem_remat_simulate(&g.p, bad_id, 3, NULL, &st, scratch_buf, 4096), DNNMEM_ERR_ID_RANGE);
  CHECK_EQ(dnnmem_remat_simulate_scratch_size(&g.p, good, 3, &need), DNNMEM_OK);
  CHECK(need <= DNNMEM_REMAT_SIMULATE_SCRATCH_BYTES(3, 3));
  CHECK_EQ(dnnmem_remat_simulate(&g.p, good, 3, NULL, &st, scratch_buf + 1, need - 16),
           DNNMEM_ERR_SCRATCH_TOO_SMALL);
  CHECK_EQ(dnnmem_remat_simulate(&g.p, good, 3, NULL, &st, scratch_buf + 3, need), DNNMEM_OK);
  CHECK_EQ(dnnmem_remat_simulate_scratch_size(NULL, good, 3, &need), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_remat_simulate_scratch_size(&g.p, good, -1, &need), DNNMEM_ERR_INVALID_ARGUMENT);
  g.size[1] = -1;
  CHECK_EQ(dnnmem_remat_simulate(&g.p, good, 3, NULL, &st, scratch_buf, 4096), DNNMEM_ERR_NEGATIVE);
  g.size[1] = 8;
  g.time[2] = -5;
  CHECK_EQ(dnnmem_remat_simulate(&g.p, good, 3, NULL, &st, scratch_buf, 4096), DNNMEM_ERR_NEGATIVE);
  g.time[2] = 3;
  g.ids[0] = 9;
  CHECK_EQ(dnnmem_remat_simulate(&g.p, good, 3, NULL, &st, scratch_buf, 4096), DNNMEM_ERR_ID_RANGE);
  g.p.graph = NULL;
  CHECK_EQ(dnnmem_remat_simulate(&g.p, good, 3, NULL, &st, scratch_buf, 4096),
           DNNMEM_ERR_INVALID_ARGUMENT);
}

/* ---- the contraction blog's example --------------------------------------------- */

/* a -> b -> c -> d -> e -> y, and b -> y: holding b across c, d, e costs
   more than recomputing it before y */
static void blog_example(ref_remat_graph *g) {
  int32_t iy[] = {4, 1, -1};
  ref_remat_graph_begin(g);
  ref_remat_graph_chain(g, ref_remat_graph_node(g, 1, 0, 0, NULL), 4, 10, 5); /* a, then b c d e */
  ref_remat_graph_node(g, 1, 5, 1, iy);                                        /* y = f(e, b) */
}

/* the answer's peak and time equal the recount of its sequence */
static void check_answer(const ref_remat_graph *g, const int32_t *seq, const dnnmem_remat_result *st) {
  int64_t peak, time;
  CHECK(recount(g, seq, st->length, &peak, &time));
  CHECK_EQ(peak, st->peak);
  CHECK_EQ(time, st->time);
  CHECK_EQ(st->recomputations, st->length - g->n);
}

static void test_blog_example(void) {
  ref_remat_graph g;
  int32_t plain[] = {0, 1, 2, 3, 4, 5}, recompute[] = {0, 1, 2, 3, 4, 1, 5}, seq[16];
  int64_t peak, time;
  dnnmem_remat_result st;
  dnnmem_remat_options o = options_for(21, 20000);
  dnnmem_rng rng;
  blog_example(&g);
  CHECK(recount(&g, plain, 6, &peak, &time));
  CHECK_EQ(peak, 30);
  CHECK(recount(&g, recompute, 7, &peak, &time));
  CHECK_EQ(peak, 21);
  CHECK_EQ(dnnmem_remat_simulate(&g.p, recompute, 7, NULL, &st, scratch_buf, 4096), DNNMEM_OK);
  CHECK_EQ(st.peak, 21);
  CHECK_EQ(st.time, 30);
  /* the annealer finds it: budget 21 at the cost of one recomputation of b */
  dnnmem_rng_seed(&rng, 7);
  CHECK_EQ(dnnmem_remat_solve(&g.p, &o, &rng, seq, 12, &st, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_OK);
  CHECK(st.peak <= 21);
  CHECK_EQ(st.time, 30);
  CHECK_EQ(st.length, 7);
  CHECK(st.moves > 0 && st.accepted <= st.moves);
  check_answer(&g, seq, &st);
  /* the budget allows the base: no recomputation */
  o.budget = 30;
  dnnmem_rng_seed(&rng, 7);
  CHECK_EQ(dnnmem_remat_solve(&g.p, &o, &rng, seq, 12, &st, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_OK);
  CHECK_EQ(st.time, 25);
  CHECK(st.peak <= 30);
  /* no budget: the lowest peak (21 is the lower bound), and DNNMEM_OK */
  o.budget = 0;
  dnnmem_rng_seed(&rng, 7);
  CHECK_EQ(dnnmem_remat_solve(&g.p, &o, &rng, seq, 12, &st, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_OK);
  CHECK_EQ(st.peak, 21);
  check_answer(&g, seq, &st);
}

/* A CNN-like ladder (conv a -> bn b -> relu r per layer; the backward g_i
   needs g_(i+1), a_i and r_i): keeping the conv outputs and recomputing
   each bn + relu pair just before its backward use is a checkpointing
   schedule that single-instance moves reach only through a worse state
   (dropping r alone keeps b). The solver must match it. */
static void test_checkpoint_ladder(void) {
  ref_remat_graph g;
  int32_t a[7], b[7], r[7], gr[8], in[4], hand[64], hand_len = 0, seq[128], i, seed;
  int64_t hand_peak, hand_time;
  dnnmem_remat_result st;
  dnnmem_remat_options o;
  dnnmem_rng rng;
  ref_remat_graph_begin(&g);
  r[0] = ref_remat_graph_node(&g, 4, 0, 0, NULL); /* the data */
  for (i = 1; i <= 6; i++) {
    in[0] = r[i - 1];
    in[1] = -1;
    a[i] = ref_remat_graph_node(&g, 4, 100, 0, in);
    in[0] = a[i];
    b[i] = ref_remat_graph_node(&g, 4, 10, 0, in);
    in[0] = b[i];
    r[i] = ref_remat_graph_node(&g, 4, 10, 0, in);
  }
  gr[7] = ref_remat_graph_node(&g, 1, 0, 0, NULL); /* the loss gradient */
  for (i = 6; i >= 1; i--) {
    in[0] = gr[i + 1];
    in[1] = a[i];
    in[2] = r[i];
    in[3] = -1;
    gr[i] = ref_remat_graph_node(&g, 4, 20, i == 1, in);
  }
  for (i = 0; i < g.n - 6; i++) hand[hand_len++] = i; /* the forward and the loss gradient */
  for (i = 6; i >= 1; i--) {
    if (i < 6) { /* r_6 is still held */
      hand[hand_len++] = b[i];
      hand[hand_len++] = r[i];
    }
    hand[hand_len++] = gr[i];
  }
  CHECK(recount(&g, hand, hand_len, &hand_peak, &hand_time));
  CHECK_EQ(hand_time, 6 * 120 + 6 * 20 + 5 * 20);
  CHECK(hand_peak < 2 * 4 * 6); /* below the row order's (a and r of every layer) */
  o = options_for(hand_peak, 100000);
  for (seed = 1; seed <= 3; seed++) {
    dnnmem_rng_seed(&rng, (uint64_t)seed);
    CHECK_EQ(dnnmem_remat_solve(&g.p, &o, &rng, seq, 2 * g.n, &st, scratch_buf,
                                sizeof(scratch_buf)),
             DNNMEM_OK);
    CHECK(st.peak <= hand_peak);
    CHECK(st.time <= hand_time);
    check_answer(&g, seq, &st);
  }
}

/* The repair: with a single move the annealer leaves its start states
   almost as they are; the greedy repair must turn many of the answers
   over the budget into valid answers within it (100 random training
   graphs, budgets from the lower bound up to the row order's peak in
   quarters, seed 1: 217 of 391 met with the repair, 184 with its rounds
   at 0; 200 graphs asked the same, 434 and 373 of 781).
   Every answer is recounted; none is above the row order's peak. */
static void test_repair(void) {
  dnnmem_remat_bound_result tb;
  ref_remat_graph g;
  int32_t seq[4 * MAXN], i, trial, met = 0, tried = 0;
  int64_t row_peak, row_time, lb, budget;
  uint64_t saved = t_rng;
  dnnmem_remat_result st;
  dnnmem_remat_options o;
  dnnmem_rng rng;
  t_rng = 12345; /* the same graphs whatever ran before */
  for (trial = 0; trial < 100; trial++) {
    tg_random_training(&g, 4 + (int32_t)t_rand(10), 3 + (int32_t)t_rand(8));
    for (i = 0; i < g.n; i++) seq[i] = i;
    CHECK(recount(&g, seq, g.n, &row_peak, &row_time));
    CHECK_EQ(dnnmem_remat_lower_bound(&g.p, &tb), DNNMEM_OK);
    lb = tb.peak;
    for (budget = lb; budget < row_peak; budget += (row_peak - lb) / 4 + 1) {
      dnnmem_result r;
      o = options_for(budget, 1);
      dnnmem_rng_seed(&rng, 1);
      r = dnnmem_remat_solve(&g.p, &o, &rng, seq, 4 * g.n, &st, scratch_buf, sizeof(scratch_buf));
      CHECK(r == DNNMEM_OK || r == DNNMEM_ERR_INFEASIBLE);
      check_answer(&g, seq, &st);
      CHECK(st.peak <= row_peak);
      CHECK_EQ(r == DNNMEM_OK, st.peak <= budget);
      met += r == DNNMEM_OK;
      tried++;
    }
  }
  CHECK_EQ(tried, 391);
  CHECK(met * 2 > tried);
  t_rng = saved;
}

/* ---- exhaustive search over sequences -------------------------------------------- */

typedef struct exhaustive {
  const ref_remat_graph *g;
  int32_t seq[16], max_len;
  int64_t budget, best_time, best_peak_any;
} exhaustive;

static void exhaustive_rec(exhaustive *e, int32_t len) {
  int64_t peak, time;
  int32_t v;
  if (recount(e->g, e->seq, len, &peak, &time)) {
    if (peak <= e->budget && time < e->best_time) e->best_time = time;
    if (peak < e->best_peak_any) e->best_peak_any = peak;
  }
  if (len == e->max_len) return;
  for (v = 0; v < e->g->n; v++) {
    int32_t k, ok = 1, i;
    /* prune: inputs must be computed before (validity is prefix-closed) */
    for (k = e->g->off[v]; k < e->g->off[v + 1] && ok; k++) {
      int found = 0;
      for (i = 0; i < len; i++) found |= e->seq[i] == e->g->ids[k];
      ok = found;
    }
    if (e->g->off[v] == e->g->off[v + 1])
      for (i = 0; i < len; i++) ok &= e->seq[i] != v;
    if (!ok) continue;
    e->seq[len] = v;
    exhaustive_rec(e, len + 1);
  }
}

/* sequences of at most V + 2 steps: the least time within budget
   (INT64_MAX: none) and the lowest peak of any */
static void exhaustive_search(exhaustive *e, const ref_remat_graph *g, int64_t budget) {
  memset(e, 0, sizeof(*e));
  e->g = g;
  e->max_len = g->n + 2;
  e->budget = budget;
  e->best_time = INT64_MAX;
  e->best_peak_any = INT64_MAX;
  exhaustive_rec(e, 0);
}

static void test_exhaustive_small(void) {
  dnnmem_remat_bound_result tb;
  int trial, solved = 0;
  for (trial = 0; trial < 40; trial++) {
    ref_remat_graph g;
    exhaustive e;
    int64_t lb;
    int32_t seq[16];
    dnnmem_remat_result st;
    dnnmem_remat_options o;
    dnnmem_rng rng;
    tg_random(&g, 3 + (int32_t)t_rand(3));
    CHECK_EQ(dnnmem_remat_lower_bound(&g.p, &tb), DNNMEM_OK);
    lb = tb.peak;
    exhaustive_search(&e, &g, 0);
    CHECK(e.best_peak_any >= lb);
    /* now the least time at the lowest reachable peak */
    exhaustive_search(&e, &g, e.best_peak_any);
    o = options_for(e.budget, 30000);
    dnnmem_rng_seed(&rng, (uint64_t)trial);
    CHECK_EQ(dnnmem_remat_solve(&g.p, &o, &rng, seq, g.n + 2, &st, scratch_buf,
                                sizeof(scratch_buf)),
             DNNMEM_OK);
    check_answer(&g, seq, &st);
    CHECK(st.peak <= e.budget);
    CHECK(st.time >= e.best_time); /* the exhaustive optimum is a true optimum */
    solved += st.time == e.best_time;
  }
  CHECK(solved >= 38); /* the annealer reaches the optimum on (almost) all */
}

/* ---- lower bound of the extra time ------------------------------------------------ */

static int64_t sum_times(const ref_remat_graph *g) {
  int64_t t = 0;
  int32_t v;
  for (v = 0; v < g->n; v++) t += g->time[v];
  return t;
}

#define TIME_BOUND_SUM 74 /* recorded with nodes too large to hold (linked pairs: 50, one cut: 46) */
static void test_time_bound(void) {
  dnnmem_remat_bound_result tb;
  ref_remat_graph g;
  int64_t extra;
  int32_t cut, trial, tight = 0, positive = 0;
  int64_t sum_extra = 0;
  size_t need = 0;
  dnnmem_remat_options o = options_for(21, 0);
  /* the contraction blog's example: at 21 bytes b must be recomputed (time
     5), and the cut at e proves it: b is needed by y after e, holding it
     breaks 21 */
  blog_example(&g);
  CHECK_EQ(dnnmem_remat_time_bound_scratch_size(&g.p, &o, &need), DNNMEM_OK);
  CHECK(need <= sizeof(scratch_buf));
  CHECK_EQ(dnnmem_remat_time_bound(&g.p, &o, &tb, scratch_buf, need), DNNMEM_OK);
  extra = tb.extra_time;
  cut = tb.cut;
  CHECK_EQ(extra, 5);
  CHECK(cut >= 3 && cut <= 5);
  CHECK_EQ(dnnmem_remat_time_bound(&g.p, &o, &tb, scratch_buf, need), DNNMEM_OK);
  extra = tb.extra_time;
  CHECK_EQ(extra, 5);
  o.bound_cuts = 1; /* the busiest step alone proves it too */
  CHECK_EQ(dnnmem_remat_time_bound(&g.p, &o, &tb, scratch_buf, need), DNNMEM_OK);
  extra = tb.extra_time;
  cut = tb.cut;
  CHECK_EQ(extra, 5);
  o.bound_cuts = 0;
  o.budget = 30;
  CHECK_EQ(dnnmem_remat_time_bound(&g.p, &o, &tb, scratch_buf, need), DNNMEM_OK);
  extra = tb.extra_time;
  cut = tb.cut;
  CHECK_EQ(extra, 0); /* the row order fits */
  CHECK_EQ(cut, -1);
  o.budget = 20;
  CHECK_EQ(dnnmem_remat_time_bound(&g.p, &o, &tb, scratch_buf, need),
           DNNMEM_ERR_INFEASIBLE);
  extra = tb.extra_time;
  cut = tb.cut; /* below the peak's lower bound */
  CHECK_EQ(extra, INT64_MAX);
  cut = 5;
  CHECK_EQ(dnnmem_remat_time_bound(&g.p, NULL, &tb, scratch_buf, need),
           DNNMEM_OK);
  extra = tb.extra_time;
  cut = tb.cut; /* no options: no budget, nothing to recompute */
  CHECK_EQ(extra, 0);
  CHECK_EQ(cut, -1);
  o.budget = 21;
  CHECK_EQ(dnnmem_remat_time_bound(&g.p, &o, &tb, scratch_buf + 3, need - 16),
           DNNMEM_ERR_SCRATCH_TOO_SMALL);
  extra = tb.extra_time;
  cut = tb.cut;
  o.bound_cuts = -1;
  CHECK_EQ(dnnmem_remat_time_bound(&g.p, &o, &tb, scratch_buf, need),
           DNNMEM_ERR_INVALID_ARGUMENT);
  extra = tb.extra_time;
  cut = tb.cut;
  CHECK_EQ(dnnmem_remat_time_bound_scratch_size(&g.p, &o, &need), DNNMEM_ERR_INVALID_ARGUMENT);
  o.bound_cuts = 0;
  g.ids[0] = 4; /* a cycle */
  CHECK_EQ(dnnmem_remat_time_bound(&g.p, &o, &tb, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_ERR_CYCLE);
  extra = tb.extra_time;
  cut = tb.cut;
  /* the multiplier's range: time per byte far above the graph's average
     (big cheap values p1, p2 dead at the cut inflate the total size). At
     241 bytes a (time 1000) cannot be held at gb's step and must be
     recomputed; the bound needs a multiplier of 1000 / 120 per byte, which
     a range capped at about the total time over the total size missed */
  {
    int32_t ix[] = {0, -1}, i1[] = {1, -1}, i2[] = {2, -1}, ia[] = {4, -1}, ib[] = {5, -1},
            igb[] = {6, 5, -1}, iga[] = {7, 4, -1};
    exhaustive e;
    ref_remat_graph_begin(&g);
    ref_remat_graph_node(&g, 0, 0, 0, NULL);     /* 0 x */
    ref_remat_graph_node(&g, 100, 1, 0, ix);     /* 1 p1 */
    ref_remat_graph_node(&g, 100, 1, 0, i1);     /* 2 p2 */
    ref_remat_graph_node(&g, 0, 1, 0, i2);       /* 3 q (a sink) */
    ref_remat_graph_node(&g, 120, 1000, 0, ix);  /* 4 a */
    ref_remat_graph_node(&g, 120, 1000, 0, ia);  /* 5 b */
    ref_remat_graph_node(&g, 1, 1, 0, ib);       /* 6 loss */
    ref_remat_graph_node(&g, 120, 10, 0, igb);   /* 7 gb */
    ref_remat_graph_node(&g, 1, 10, 1, iga);     /* 8 ga */
    o.budget = 241;
    exhaustive_search(&e, &g, o.budget);
    CHECK_EQ(e.best_time - sum_times(&g), 1000);
    CHECK_EQ(dnnmem_remat_time_bound(&g.p, &o, &tb, scratch_buf, sizeof(scratch_buf)),
             DNNMEM_OK);
    extra = tb.extra_time;
    cut = tb.cut;
    CHECK_EQ(extra, 1000);
  }
  /* never above the optimum of exhaustive search (bounded length: an upper
     bound of the true optimum), and often equal to it */
  for (trial = 0; trial < 120; trial++) {
    exhaustive e;
    dnnmem_remat_result row;
    dnnmem_remat_options row_order = options_for(0, 0);
    int32_t seq[16];
    if (trial % 3 == 0) tg_random(&g, 4 + (int32_t)t_rand(2));
    else tg_random_training(&g, 3, 2 + (int32_t)t_rand(2));
    row_order.algo = DNNMEM_REMAT_ROW_ORDER;
    CHECK_EQ(dnnmem_remat_solve(&g.p, &row_order, NULL, seq, 16, &row, scratch_buf,
                                sizeof(scratch_buf)),
             DNNMEM_OK);
    exhaustive_search(&e, &g, INT64_MAX);
    /* the lowest reachable peak, or a budget between it and the row order's */
    o.budget = e.best_peak_any +
               (int64_t)(t_rand(2) ? 0 : t_rand((uint32_t)(row.peak - e.best_peak_any + 1)));
    exhaustive_search(&e, &g, o.budget);
    o.bound_cuts = 4 * g.n; /* every cut, the best linked with every other */
    CHECK_EQ(dnnmem_remat_time_bound(&g.p, &o, &tb, scratch_buf, sizeof(scratch_buf)),
             DNNMEM_OK);
    extra = tb.extra_time;
    cut = tb.cut;
    CHECK(extra >= 0);
    sum_extra += extra;
    if (e.best_time == INT64_MAX) continue;
    CHECK(extra <= e.best_time - sum_times(&g));
    positive += e.best_time > sum_times(&g);
    tight += extra == e.best_time - sum_times(&g) && extra > 0;
  }
  /* measured: 13 optima above the base time, the bound equal on 10 (linked
     pairs: 5, one cut: 3; and on the blog's example); the cuts miss memory
     pressure spread over more steps */
  CHECK(positive >= 10);
  CHECK(tight >= 10);
  /* the bound is deterministic: its sum over these trials is recorded
     (a multiplier search that bisects differently, a cut left out, moves it) */
  printf("time bound: %lld extra over 120 trials, %d tight of %d\n", (long long)sum_extra, tight, positive);
  CHECK_EQ(sum_extra, TIME_BOUND_SUM);
}

/* ---- exact group order ---------------------------------------------------------- */

/* forward Dijkstra over held sets without pruning (Bellman-Ford style) */
static int64_t group_brute(const ref_remat_graph *g, const int32_t *members, int32_t count) {
  static int64_t best[1 << 8];
  uint32_t in_mask[8], s, w;
  int32_t i, k, j, changed = 1, target = count - 1;
  for (i = 0; i < count; i++) {
    in_mask[i] = 0;
    for (k = g->off[members[i]]; k < g->off[members[i] + 1]; k++)
      for (j = 0; j < count; j++)
        if (members[j] == g->ids[k]) in_mask[i] |= 1u << j;
  }
  for (s = 0; s < (1u << count); s++) best[s] = INT64_MAX;
  best[0] = 0;
  while (changed) {
    changed = 0;
    for (s = 0; s < (1u << count); s++) {
      if (best[s] == INT64_MAX) continue;
      for (i = 0; i < count; i++) {
        uint32_t next;
        int64_t mem = 0, c;
        if ((s >> i) & 1) next = s & ~(1u << i); /* free */
        else if ((in_mask[i] & ~s) == 0) next = s | (1u << i); /* compute */
        else continue;
        for (w = 0; w < (uint32_t)count; w++)
          if (((s | next) >> w) & 1) mem += g->size[members[w]];
        if ((s >> i) & 1) mem -= g->size[members[i]];
        c = best[s] > mem ? best[s] : mem;
        if (c < best[next]) {
          best[next] = c;
          changed = 1;
        }
      }
    }
  }
  return best[1u << target];
}

/* peak of a member order by the group model (outside inputs free, target held) */
static int64_t group_recount(const ref_remat_graph *g, const int32_t *members, int32_t count,
                             const int32_t *order, int32_t len) {
  ref_remat_graph sub;
  int32_t map[MAXN], i, k, seq[64], slen = 0;
  int64_t peak, time;
  /* a subgraph: every outside input becomes one size-0 input node */
  ref_remat_graph_begin(&sub);
  for (i = 0; i < MAXN; i++) map[i] = -1;
  for (i = 0; i < count; i++)
    for (k = g->off[members[i]]; k < g->off[members[i] + 1]; k++) {
      int32_t u = g->ids[k], j, inside = 0;
      for (j = 0; j < count; j++) inside |= members[j] == u;
      if (!inside && map[u] < 0) {
        map[u] = ref_remat_graph_node(&sub, 0, 0, 0, NULL);
        seq[slen++] = map[u];
      }
    }
  for (i = 0; i < count; i++) {
    int32_t in[16], c = 0;
    for (k = g->off[members[i]]; k < g->off[members[i] + 1]; k++) in[c++] = map[g->ids[k]];
    in[c] = -1;
    map[members[i]] = ref_remat_graph_node(&sub, g->size[members[i]], 0, i == count - 1, in);
  }
  /* members not computed by the order still have to appear: put them first
     only when they have no inside inputs... instead give them size 0 */
  for (i = 0; i < count; i++) {
    int used = 0, j;
    for (j = 0; j < len; j++) used |= order[j] == members[i];
    if (!used) sub.size[map[members[i]]] = 0;
  }
  for (i = 0; i < len; i++) seq[slen++] = map[order[i]];
  /* unused members: append harmlessly at the end is not possible for the
     target; the orders tested compute every member they need */
  {
    int32_t present[MAXN] = {0}, j;
    for (j = 0; j < slen; j++) present[seq[j]] = 1;
    for (j = 0; j < sub.n; j++)
      if (!present[j]) return -1;
  }
  if (!recount(&sub, seq, slen, &peak, &time)) return -1;
  return peak;
}

static void test_group_order_vs_brute_force(void) {
  int trial;
  for (trial = 0; trial < 200; trial++) {
    ref_remat_graph g;
    int32_t members[8], count, i, order[64], len;
    int64_t peak, brute, re;
    dnnmem_remat_result gres;
    dnnmem_result r;
    /* members: a random DAG's nodes ending with the last (a sink) */
    tg_random(&g, 3 + (int32_t)t_rand(6));
    count = 0;
    for (i = 0; i < g.n; i++)
      if (i == g.n - 1 || (i > 0 && t_rand(4) != 0)) members[count++] = i;
    if (count > 8) count = 8, members[7] = g.n - 1;
    r = dnnmem_remat_group_order(&g.p, members, count, 100000, order, 64, &gres, scratch_buf,
                                 sizeof(scratch_buf));
    CHECK_EQ(r, DNNMEM_OK);
    len = gres.length, peak = gres.peak;
    brute = group_brute(&g, members, count);
    CHECK_EQ(peak, brute);
    /* the order it returns has that peak (recounted, members it skips are
       not needed) */
    re = group_recount(&g, members, count, order, len);
    if (re >= 0) CHECK(re <= peak);
    CHECK(len >= 1 && order[len - 1] == members[count - 1]);
  }
}

static void test_group_order_example(void) {
  /* the contraction blog's figure: a -> b, a -> c, b,c -> d -> e (group {b,c,d,e}); with
     b large, computing c first keeps the peak lower */
  ref_remat_graph g;
  int32_t ia[] = {0, -1}, ibc[] = {1, 2, -1}, id[] = {3, -1};
  int32_t members[] = {1, 2, 3, 4}, order[16];
  dnnmem_remat_result res;
  size_t need = 0;
  ref_remat_graph_begin(&g);
  ref_remat_graph_node(&g, 5, 1, 0, NULL); /* a (outside) */
  ref_remat_graph_node(&g, 9, 1, 0, ia);   /* b */
  ref_remat_graph_node(&g, 2, 1, 0, ia);   /* c */
  ref_remat_graph_node(&g, 3, 1, 0, ibc);  /* d */
  ref_remat_graph_node(&g, 1, 1, 1, id);   /* e */
  CHECK_EQ(dnnmem_remat_group_order_scratch_size(&g.p, 4, 1000, 16, &need), DNNMEM_OK);
  CHECK_EQ(dnnmem_remat_group_order(&g.p, members, 4, 1000, order, 16, &res, scratch_buf + 1, need - 16),
           DNNMEM_ERR_SCRATCH_TOO_SMALL);
  CHECK_EQ(res.error.field, DNNMEM_FIELD_SCRATCH);
  CHECK_EQ(dnnmem_remat_group_order(&g.p, members, 4, 1000, order, 16, &res, scratch_buf + 1, need), DNNMEM_OK);
  CHECK_EQ(res.peak, 14); /* c(2), b(9): 11; d: 2 + 9 + 3 = 14; e: 3 + 1 */
  CHECK_EQ(res.length, 4);
  CHECK(res.time == 0 && res.recomputations == 0 && res.error.index == -1);
  CHECK_EQ(order[3], 4);
  CHECK_EQ(dnnmem_remat_group_order(&g.p, members, 4, 1, order, 16, &res, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_ERR_REMAT_STATE_LIMIT);
  CHECK_EQ(res.error.field, DNNMEM_FIELD_LIMIT);
  CHECK_EQ(dnnmem_remat_group_order(&g.p, members, 4, 1000, order, 2, &res, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_ERR_OUTPUT_TOO_SMALL);
  CHECK_EQ(res.length, 4); /* the length needed */
  CHECK_EQ(res.error.field, DNNMEM_FIELD_OUTPUT);
  CHECK_EQ(dnnmem_remat_group_order_scratch_size(&g.p, 0, 1000, 16, &need),
           DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_remat_group_order_scratch_size(&g.p, 4, 0, 16, &need),
           DNNMEM_ERR_INVALID_ARGUMENT);
}

/* ---- bad input, baselines, budgets ------------------------------------------------ */

static void test_bad_input(void) {
  dnnmem_remat_bound_result tb;
  ref_remat_graph g;
  int32_t seq[32];
  dnnmem_remat_result st;
  dnnmem_remat_options o = options_for(0, 1000), checkpoint = options_for(0, 0);
  dnnmem_rng rng;
  int64_t lb;
  int32_t v;
  dnnmem_result rc;
  dnnmem_rng before;
  dnnmem_plan_options po;
  dnnmem_remat_plan_result pr;
  dnnmem_interval recs[12];
  int64_t offs[12];
  size_t need;
  checkpoint.algo = DNNMEM_REMAT_CHECKPOINT;
  dnnmem_rng_seed(&rng, 1);
  blog_example(&g);
  /* a cycle: b's input becomes e */
  g.ids[0] = 4;
  CHECK_EQ(dnnmem_remat_solve(&g.p, &o, &rng, seq, 12, &st, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_ERR_CYCLE);
  CHECK_EQ(dnnmem_remat_solve(&g.p, &checkpoint, NULL, seq, 12, &st, scratch_buf,
                              sizeof(scratch_buf)),
           DNNMEM_ERR_CYCLE);
  g.ids[0] = 77;
  CHECK_EQ(dnnmem_remat_solve(&g.p, &o, &rng, seq, 12, &st, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_ERR_ID_RANGE);
  CHECK_EQ(dnnmem_remat_solve_scratch_size(&g.p, &o, 12, &need), DNNMEM_ERR_ID_RANGE);
  g.ids[0] = 0;
  g.size[3] = -1;
  CHECK_EQ(dnnmem_remat_solve(&g.p, &o, &rng, seq, 12, &st, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_ERR_NEGATIVE);
  g.size[3] = 10;
  g.time[3] = -1;
  CHECK_EQ(dnnmem_remat_solve(&g.p, &o, &rng, seq, 12, &st, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_ERR_NEGATIVE);
  g.time[3] = INT64_MAX / 4;
  CHECK_EQ(dnnmem_remat_solve(&g.p, &o, &rng, seq, 12, &st, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_ERR_OVERFLOW);
  g.time[3] = 5;
  /* a sequence shorter than V: the capacity needed is reported */
  memset(&st, 0, sizeof(st));
  CHECK_EQ(dnnmem_remat_solve(&g.p, &o, &rng, seq, 5, &st, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_ERR_OUTPUT_TOO_SMALL);
  CHECK_EQ(st.length, 6);
  CHECK_EQ(dnnmem_remat_solve(&g.p, &o, NULL, seq, 12, &st, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_ERR_INVALID_ARGUMENT); /* annealing needs the rng */
  CHECK_EQ(dnnmem_remat_solve(&g.p, &o, &rng, seq, 12, NULL, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_ERR_INVALID_ARGUMENT); /* the result holds the length */
  CHECK_EQ(dnnmem_remat_solve(&g.p, &o, &rng, NULL, 12, &st, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_ERR_INVALID_ARGUMENT);
  /* budget below the lower bound: infeasible before any move, the rng untouched, the start order given (here
     the row order: each graph input is already just before its first reader), its arena the public plan's */
  CHECK_EQ(dnnmem_remat_lower_bound(&g.p, &tb), DNNMEM_OK);
  lb = tb.peak;
  CHECK_EQ(lb, 21);
  o.budget = lb - 1;
  before = rng;
  CHECK_EQ(dnnmem_remat_solve(&g.p, &o, &rng, seq, 12, &st, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_ERR_INFEASIBLE);
  CHECK(memcmp(&before, &rng, sizeof(rng)) == 0);
  check_answer(&g, seq, &st);
  CHECK_EQ(st.length, 6);
  CHECK_EQ(st.moves, 0);
  CHECK_EQ(st.accepted, 0);
  for (v = 0; v < 6; v++) CHECK_EQ(seq[v], v);
  dnnmem_remat_arena_options(o.budget, st.length, &po);
  CHECK_EQ(dnnmem_remat_plan_scratch_size(&g.p, &po, seq, st.length, 0, &need), DNNMEM_OK);
  CHECK(need <= sizeof(scratch_buf));
  CHECK_EQ(dnnmem_remat_plan(&g.p, &po, seq, st.length, 0, recs, offs, &pr, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_OK);
  CHECK_EQ(st.arena, pr.arena);
  CHECK(st.arena >= st.peak);
  o.peak_only = 1; /* the same refusal, no arena */
  CHECK_EQ(dnnmem_remat_solve(&g.p, &o, &rng, seq, 12, &st, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_ERR_INFEASIBLE);
  CHECK_EQ(st.moves, 0);
  CHECK_EQ(st.arena, -1);
  o.peak_only = 0;
  o.budget = lb; /* at the bound the anneal runs */
  rc = dnnmem_remat_solve(&g.p, &o, &rng, seq, 12, &st, scratch_buf, sizeof(scratch_buf));
  CHECK(rc == DNNMEM_OK || rc == DNNMEM_ERR_INFEASIBLE);
  check_answer(&g, seq, &st);
  CHECK(st.moves > 0);
  o.budget = lb - 1;
  /* short scratch */
  CHECK_EQ(dnnmem_remat_solve_scratch_size(&g.p, &o, 12, &need), DNNMEM_OK);
  CHECK_EQ(dnnmem_remat_solve(&g.p, &o, &rng, seq, 12, &st, scratch_buf + 5, need - 32),
           DNNMEM_ERR_SCRATCH_TOO_SMALL);
  CHECK_EQ(dnnmem_remat_solve(&g.p, &o, &rng, seq, 12, &st, scratch_buf + 5, need),
           DNNMEM_ERR_INFEASIBLE);
  /* bad options, for every op that takes them */
  {
    dnnmem_remat_options bad[7];
    int i;
    for (i = 0; i < 7; i++) bad[i] = options_for(30, 1000);
    bad[0].algo = DNNMEM_REMAT_ALGO_COUNT;
    bad[1].budget = -1;
    bad[2].iterations = -1;
    bad[3].max_group_size = DNNMEM_REMAT_MAX_GROUP + 1;
    bad[4].decompose_steps = 65;
    bad[5].start_temperature = -1.0;
    bad[6].end_temperature = 1e301;
    for (i = 0; i < 7; i++) {
      CHECK_EQ(dnnmem_remat_solve(&g.p, &bad[i], &rng, seq, 12, &st, scratch_buf,
                                  sizeof(scratch_buf)),
               DNNMEM_ERR_INVALID_ARGUMENT);
      CHECK_EQ(dnnmem_remat_solve_scratch_size(&g.p, &bad[i], 12, &need),
               DNNMEM_ERR_INVALID_ARGUMENT);
      CHECK_EQ(dnnmem_remat_time_bound_scratch_size(&g.p, &bad[i], &need),
               DNNMEM_ERR_INVALID_ARGUMENT);
    }
  }
}

/* A long chain whose activations are all used again at the end, in
   reverse (a forward/backward shape): 49 nodes, the last an output. */
static void forward_backward_chain(ref_remat_graph *g) {
  int32_t v, in[3];
  ref_remat_graph_begin(g);
  ref_remat_graph_node(g, 1, 0, 0, NULL);
  for (v = 1; v < 49; v++) {
    in[0] = v - 1, in[1] = v < 25 ? -1 : 49 - v, in[2] = -1;
    ref_remat_graph_node(g, 10, 1, v == 48, in);
  }
}

static void test_baselines(void) {
  ref_remat_graph g;
  int32_t seq[256], v, needed;
  dnnmem_remat_result row, ck;
  dnnmem_remat_options o = options_for(0, 0);
  size_t need = 0;
  forward_backward_chain(&g);
  o.algo = DNNMEM_REMAT_ROW_ORDER;
  CHECK_EQ(dnnmem_remat_solve_scratch_size(&g.p, &o, 256, &need), DNNMEM_OK);
  CHECK_EQ(dnnmem_remat_solve(&g.p, &o, NULL, seq, 256, &row, scratch_buf + 7, need), DNNMEM_OK);
  CHECK_EQ(dnnmem_remat_solve(&g.p, &o, NULL, seq, 256, &row, scratch_buf + 7, need - 16),
           DNNMEM_ERR_SCRATCH_TOO_SMALL);
  CHECK_EQ(row.length, g.n);
  for (v = 0; v < g.n; v++) CHECK_EQ(seq[v], v);
  check_answer(&g, seq, &row);
  CHECK_EQ(row.moves, 0);
  o.algo = DNNMEM_REMAT_CHECKPOINT;
  CHECK_EQ(dnnmem_remat_solve(&g.p, &o, NULL, seq, 256, &ck, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_OK);
  check_answer(&g, seq, &ck);
  CHECK(ck.peak < row.peak);
  CHECK(ck.time > row.time);
  /* a budget: DNNMEM_OK exactly when the peak fits (the sequence either way) */
  o.budget = ck.peak - 1;
  CHECK_EQ(dnnmem_remat_solve(&g.p, &o, NULL, seq, 256, &ck, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_ERR_INFEASIBLE);
  check_answer(&g, seq, &ck);
  o.budget = ck.peak;
  CHECK_EQ(dnnmem_remat_solve(&g.p, &o, NULL, seq, 256, &ck, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_OK);
  /* too short: the length needed, then exactly that capacity works */
  needed = ck.length;
  CHECK(needed > 50);
  memset(&ck, 0, sizeof(ck));
  CHECK_EQ(dnnmem_remat_solve(&g.p, &o, NULL, seq, 50, &ck, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_ERR_OUTPUT_TOO_SMALL);
  CHECK_EQ(ck.length, needed);
  CHECK_EQ(dnnmem_remat_solve(&g.p, &o, NULL, seq, needed, &ck, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_OK);
  CHECK_EQ(ck.length, needed);
  o.algo = DNNMEM_REMAT_ROW_ORDER;
  CHECK_EQ(dnnmem_remat_solve(&g.p, &o, NULL, seq, g.n - 1, &row, scratch_buf,
                              sizeof(scratch_buf)),
           DNNMEM_ERR_OUTPUT_TOO_SMALL);
  CHECK_EQ(row.length, g.n);
  /* the row order is the file's order even where Kahn's order differs */
  {
    int32_t i0[] = {0, -1}, i12[] = {1, 2, -1};
    o.budget = 0;
    ref_remat_graph_begin(&g);
    ref_remat_graph_node(&g, 5, 1, 0, NULL);
    ref_remat_graph_node(&g, 5, 1, 0, i0);
    ref_remat_graph_node(&g, 5, 1, 0, NULL);
    ref_remat_graph_node(&g, 5, 1, 1, i12);
    CHECK_EQ(dnnmem_remat_solve(&g.p, &o, NULL, seq, 8, &row, scratch_buf, sizeof(scratch_buf)),
             DNNMEM_OK);
    CHECK_EQ(row.length, 4);
    for (v = 0; v < 4; v++) CHECK_EQ(seq[v], v);
    CHECK_EQ(row.peak, 15);
    /* not numbered topologically: Kahn's order */
    g.ids[0] = 3; /* node 1 now takes node 3, which takes 1: a cycle */
    CHECK_EQ(dnnmem_remat_solve(&g.p, &o, NULL, seq, 8, &row, scratch_buf, sizeof(scratch_buf)),
             DNNMEM_ERR_CYCLE);
  }
}

static void test_algo_names(void) {
  CHECK(DNNMEM_REMAT_ANNEAL == 0 && DNNMEM_REMAT_ROW_ORDER == 1 && DNNMEM_REMAT_CHECKPOINT == 2);
  CHECK_ENUM_NAMES(dnnmem_remat_algo, DNNMEM_REMAT_ALGO_COUNT, "Anneal", "anneal", "row-order", "checkpoint");
}

/* ---- the private logarithm (the annealer's temperature schedule) ------------------ */

/* distance in units in the last place (doubles of one sign) */
/* the temperature ratio's logarithm, also where end / start overflows
   (the logarithm itself: tests/test_common.c) */
static void test_log(void) {
  CHECK(fabs(dnnmem__remat_log_ratio(1e-4, 0.02) - log(0.005)) < 1e-15);
  CHECK(fabs(dnnmem__remat_log_ratio(1e299, 1e-300) - (log(1e299) - log(1e-300))) < 1e-12);
  CHECK(fabs(dnnmem__remat_log_ratio(1e-300, 1e299) - (log(1e-300) - log(1e299))) < 1e-12);
  CHECK(dnnmem__remat_log_ratio(2.0, 2.0) == 0.0);
}

/* extreme temperatures (a ratio that overflows) still anneal to a valid,
   exact answer */
static void test_extreme_temperatures(void) {
  ref_remat_graph g;
  int32_t seq[16];
  dnnmem_remat_result st;
  dnnmem_remat_options o = options_for(21, 5000);
  dnnmem_rng rng;
  blog_example(&g);
  o.start_temperature = 1e-300;
  o.end_temperature = 1e299;
  dnnmem_rng_seed(&rng, 3);
  CHECK(dnnmem_remat_solve(&g.p, &o, &rng, seq, 12, &st, scratch_buf, sizeof(scratch_buf)) >=
        DNNMEM_ERR_INFEASIBLE);
  check_answer(&g, seq, &st);
  o.start_temperature = 1e299;
  o.end_temperature = 4.9406564584124654e-324;
  CHECK(dnnmem_remat_solve(&g.p, &o, &rng, seq, 12, &st, scratch_buf, sizeof(scratch_buf)) >=
        DNNMEM_ERR_INFEASIBLE);
  check_answer(&g, seq, &st);
}

/* The shared resnet18 training graph as a recompute problem; 0 (and a
   failed check) when the file cannot be read. */
static int read_resnet18_train(files_graph *g, dnnmem_remat_problem *p) {
  files_error err;
  if (files_read_graph("tests/data/resnet18.train.graph.csv", g, &err) != 0) {
    files_error_print(stderr, &err);
    CHECK(!"tests/data/resnet18.train.graph.csv unreadable (run from the repository root)");
    return 0;
  }
  files_graph_remat_problem(g, p);
  return 1;
}

/* ---- a real training graph ---------------------------------------------------------- */

static void test_real_graph(void) {
  dnnmem_remat_bound_result tb;
  files_graph g;
  dnnmem_remat_problem p;
  dnnmem_remat_options o = options_for(0, 0);
  dnnmem_remat_result base, st, st2;
  dnnmem_rng rng;
  int32_t *seq, *seq2, capacity, i;
  size_t need;
  if (!read_resnet18_train(&g, &p)) return;
  capacity = 2 * g.n;
  seq = (int32_t *)malloc((size_t)capacity * 4);
  seq2 = (int32_t *)malloc((size_t)capacity * 4);
  CHECK_EQ(dnnmem_remat_solve_scratch_size(&p, &o, capacity, &need), DNNMEM_OK);
  CHECK(need <= sizeof(scratch_buf));
  o.algo = DNNMEM_REMAT_ROW_ORDER;
  CHECK_EQ(dnnmem_remat_solve(&p, &o, NULL, seq, capacity, &base, scratch_buf, need), DNNMEM_OK);
  o = options_for(base.peak * 3 / 5, 150000);
  dnnmem_rng_seed(&rng, 3);
  CHECK_EQ(dnnmem_remat_solve(&p, &o, &rng, seq, capacity, &st, scratch_buf, need), DNNMEM_OK);
  CHECK(st.peak <= base.peak * 3 / 5);
  CHECK(st.time <= base.time + base.time / 5); /* +12% with this seed */
  /* deterministic: the same seed gives the same sequence */
  dnnmem_rng_seed(&rng, 3);
  CHECK_EQ(dnnmem_remat_solve(&p, &o, &rng, seq2, capacity, &st2, scratch_buf, need), DNNMEM_OK);
  CHECK_EQ(st.length, st2.length);
  for (i = 0; i < st.length && i < st2.length; i++) CHECK_EQ(seq[i], seq2[i]);
  /* the simulator agrees with the reported result */
  CHECK_EQ(dnnmem_remat_simulate(&p, seq, st.length, NULL, &st2, scratch_buf,
                                 sizeof(scratch_buf)),
           DNNMEM_OK);
  CHECK_EQ(st2.peak, st.peak);
  CHECK_EQ(st2.time, st.time);
  /* the time bound is below what was found, and not trivial */
  {
    int64_t extra;
    size_t bytes = 0;
    CHECK_EQ(dnnmem_remat_time_bound_scratch_size(&p, &o, &bytes), DNNMEM_OK);
    CHECK(bytes <= sizeof(scratch_buf));
    CHECK_EQ(dnnmem_remat_time_bound(&p, &o, &tb, scratch_buf, bytes), DNNMEM_OK);
    extra = tb.extra_time;
    CHECK(extra > 0 && extra <= st.time - base.time);
  }
  /* no recomputation: a reordering, never above the row order */
  o.reorder_only = 1;
  o.budget = 0;
  CHECK_EQ(dnnmem_remat_solve(&p, &o, &rng, seq, capacity, &st, scratch_buf, need), DNNMEM_OK);
  CHECK_EQ(st.length, g.n);
  CHECK(st.peak <= base.peak);
  CHECK_EQ(st.time, base.time);
  free(seq);
  free(seq2);
  files_graph_free(&g);
}

static void test_edges_and_stop(void) {
  ref_remat_graph g;
  int32_t seq[32];
  dnnmem_remat_result st;
  dnnmem_remat_options o = options_for(0, 0);
  dnnmem_rng rng;
  size_t need, need64;
  int calls = 0;
  dnnmem_rng_seed(&rng, 1);
  /* the empty graph */
  ref_remat_graph_begin(&g);
  st.length = -1;
  CHECK_EQ(dnnmem_remat_solve(&g.p, &o, &rng, NULL, 0, &st, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_OK);
  CHECK_EQ(st.length, 0);
  CHECK_EQ(st.peak, 0);
  /* a stop callback that fires at once: still a valid, exact answer */
  blog_example(&g);
  o.budget = 21;
  o.stop = test_stop_now;
  o.stop_user = &calls;
  CHECK_EQ(dnnmem_remat_solve(&g.p, &o, &rng, seq, 12, &st, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_ERR_INFEASIBLE);
  CHECK(calls >= 1);
  check_answer(&g, seq, &st);
  CHECK(st.moves <= 256);
  /* bigger groups need more scratch: the size function sees the options */
  o.stop = NULL;
  o.iterations = 2000;
  CHECK_EQ(dnnmem_remat_solve_scratch_size(&g.p, &o, 12, &need), DNNMEM_OK);
  o.max_group_size = 64;
  CHECK_EQ(dnnmem_remat_solve_scratch_size(&g.p, &o, 12, &need64), DNNMEM_OK);
  CHECK(need64 > need);
  CHECK_EQ(dnnmem_remat_solve(&g.p, &o, &rng, seq, 12, &st, scratch_buf, need),
           DNNMEM_ERR_SCRATCH_TOO_SMALL);
  CHECK_EQ(dnnmem_remat_solve(&g.p, &o, &rng, seq, 12, &st, scratch_buf, need64), DNNMEM_OK);
  /* NULL options: the defaults (no budget) */
  CHECK_EQ(dnnmem_remat_solve_scratch_size(&g.p, NULL, 12, &need), DNNMEM_OK);
  CHECK_EQ(dnnmem_remat_solve(&g.p, NULL, &rng, seq, 12, &st, scratch_buf, need), DNNMEM_OK);
  check_answer(&g, seq, &st);
}

/* NULL and out-of-range arguments of every remat entry point give their
   documented codes; the option ranges are refused at both ends. */
static void test_argument_checks(void) {
  dnnmem_remat_bound_result tb;
  ref_remat_graph g;
  dnnmem_remat_problem p;
  dnnmem_remat_options o;
  dnnmem_remat_result st;
  dnnmem_remat_algo algo;
  int32_t seq[16] = {0}, members[4] = {1, 2, 3, 4}, order[16], cut = -5;
  int64_t lb = -1, extra = -1;
  dnnmem_remat_result gres;
  size_t need = 0;
  int i;
  /* the group-order example's graph: a; b, c from a; d from b, c; e from d */
  int32_t ia[] = {0, -1}, ibc[] = {1, 2, -1}, id[] = {3, -1}, iaa[] = {0, 0, -1};
  ref_remat_graph_begin(&g);
  ref_remat_graph_node(&g, 5, 1, 0, NULL);
  ref_remat_graph_node(&g, 9, 1, 0, ia);
  ref_remat_graph_node(&g, 2, 1, 0, ia);
  ref_remat_graph_node(&g, 3, 1, 0, ibc);
  ref_remat_graph_node(&g, 1, 1, 1, id);
  /* validation of the problem: by every entry point that takes it */
  CHECK_EQ(dnnmem_remat_lower_bound(NULL, &tb), DNNMEM_ERR_INVALID_ARGUMENT);
  lb = tb.peak;
  p = g.p;
  p.graph = NULL;
  CHECK_EQ(dnnmem_remat_lower_bound(&p, &tb), DNNMEM_ERR_INVALID_ARGUMENT);
  lb = tb.peak;
  p = g.p;
  p.sizes = NULL;
  CHECK_EQ(dnnmem_remat_lower_bound(&p, &tb), DNNMEM_ERR_INVALID_ARGUMENT);
  lb = tb.peak;
  p = g.p;
  p.times = NULL;
  CHECK_EQ(dnnmem_remat_simulate(&p, seq, 0, NULL, &st, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_ERR_INVALID_ARGUMENT);
  g.size[1] = INT64_MAX / 2 + 1; /* b and c: the sizes sum past int64 */
  g.size[2] = INT64_MAX / 2 + 1;
  CHECK_EQ(dnnmem_remat_lower_bound(&g.p, &tb), DNNMEM_ERR_OVERFLOW);
  lb = tb.peak;
  CHECK_EQ(dnnmem_remat_group_order(&g.p, members, 4, 1000, order, 16, &gres, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_ERR_OVERFLOW);
  CHECK_EQ(dnnmem_remat_time_bound(&g.p, NULL, &tb, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_ERR_OVERFLOW);
  extra = tb.extra_time;
  cut = tb.cut;
  g.size[1] = 9;
  g.size[2] = 2;
  /* the lower bound: NULL output; without is_output only the steps count */
  CHECK_EQ(dnnmem_remat_lower_bound(&g.p, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  p = g.p;
  p.is_output = NULL;
  CHECK_EQ(dnnmem_remat_lower_bound(&p, &tb), DNNMEM_OK);
  lb = tb.peak;
  CHECK_EQ(lb, 9 + 2 + 3); /* d with its inputs b and c */
  /* x * x counts x once: a node reading a twice holds 5 + 7 */
  ref_remat_graph_node(&g, 7, 1, 0, iaa);
  CHECK_EQ(dnnmem_remat_lower_bound(&g.p, &tb), DNNMEM_OK);
  lb = tb.peak;
  CHECK_EQ(lb, 14);
  g.n--;
  g.graph.num_nodes = g.n;
  /* simulate: sizes of scratch and the sequence's arguments */
  CHECK_EQ(dnnmem_remat_simulate_scratch_size(NULL, seq, 5, &need), DNNMEM_ERR_INVALID_ARGUMENT);
  p = g.p;
  p.graph = NULL;
  CHECK_EQ(dnnmem_remat_simulate_scratch_size(&p, seq, 5, &need), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_remat_simulate_scratch_size(&g.p, seq, -1, &need), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_remat_simulate_scratch_size(&g.p, seq, 5, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  g.graph.num_nodes = -1;
  CHECK_EQ(dnnmem_remat_simulate_scratch_size(&g.p, seq, 5, &need), DNNMEM_ERR_INVALID_ARGUMENT);
  g.graph.num_nodes = g.n;
  CHECK_EQ(dnnmem_remat_simulate(&g.p, seq, -1, NULL, &st, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_remat_simulate(&g.p, NULL, 5, NULL, &st, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_ERR_INVALID_ARGUMENT);
  for (i = 0; i < 5; i++) seq[i] = i;
  seq[4] = 5; /* past the last id */
  CHECK_EQ(dnnmem_remat_simulate(&g.p, seq, 5, NULL, &st, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_ERR_ID_RANGE);
  /* the times of a long sequence sum past int64: a, b, then b again and again */
  g.time[1] = INT64_MAX / 4;
  seq[0] = 0;
  for (i = 1; i < 6; i++) seq[i] = 1;
  CHECK_EQ(dnnmem_remat_simulate(&g.p, seq, 6, NULL, &st, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_ERR_OVERFLOW);
  g.time[1] = 1;
  /* options: each range at its other end, and a valid explicit value */
  {
    dnnmem_remat_options bad[6];
    for (i = 0; i < 6; i++) bad[i] = options_for(0, 0);
    bad[0].max_group_size = -1;
    bad[1].decompose_steps = -1;
    bad[2].bound_cuts = -1;
    bad[3].start_temperature = 1e301;
    bad[4].end_temperature = -1.0;
    bad[5].start_temperature = strtod("nan", NULL); /* NaN compares false: refused */
    for (i = 0; i < 6; i++) {
      CHECK_EQ(dnnmem_remat_time_bound_scratch_size(&g.p, &bad[i], &need), DNNMEM_ERR_INVALID_ARGUMENT);
      CHECK_EQ(dnnmem_remat_time_bound(&g.p, &bad[i], &tb, scratch_buf, sizeof(scratch_buf)),
               DNNMEM_ERR_INVALID_ARGUMENT);
      extra = tb.extra_time;
    }
  }
  o = options_for(0, 0);
  o.decompose_steps = 3;
  CHECK_EQ(dnnmem_remat_time_bound_scratch_size(&g.p, &o, &need), DNNMEM_OK);
  CHECK_EQ(dnnmem_remat_time_bound_scratch_size(&g.p, &o, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_remat_time_bound(&g.p, &o, NULL, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_ERR_INVALID_ARGUMENT);
  cut = tb.cut;
  /* a budget the row order fits (peak 14): no extra time, no cut */
  o.budget = 14;
  CHECK_EQ(dnnmem_remat_time_bound(&g.p, &o, &tb, scratch_buf, sizeof(scratch_buf)), DNNMEM_OK);
  extra = tb.extra_time;
  cut = tb.cut;
  CHECK_EQ(extra, 0);
  CHECK_EQ(cut, -1);
  CHECK_EQ(dnnmem_remat_algo_parse("anneal", NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_remat_algo_parse("anneal", &algo), DNNMEM_OK);
  CHECK_EQ(algo, DNNMEM_REMAT_ANNEAL);
  /* group order: every argument's range */
  CHECK_EQ(dnnmem_remat_group_order_scratch_size(&g.p, DNNMEM_REMAT_MAX_GROUP + 1, 1000, 16, &need),
           DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_remat_group_order_scratch_size(&g.p, 4, (1 << 28) + 1, 16, &need),
           DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_remat_group_order_scratch_size(&g.p, 4, 1000, -1, &need),
           DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_remat_group_order_scratch_size(&g.p, 4, 1000, 16, NULL),
           DNNMEM_ERR_INVALID_ARGUMENT);
#define GROUP(m, nm, ms, ord, cap, res) \
  dnnmem_remat_group_order(&g.p, m, nm, ms, ord, cap, res, scratch_buf, sizeof(scratch_buf))
  CHECK_EQ(GROUP(NULL, 4, 1000, order, 16, &gres), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK(gres.error.index == -1 && gres.error.field == DNNMEM_FIELD_MEMBER);
  CHECK_EQ(GROUP(members, 0, 1000, order, 16, &gres), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(GROUP(members, DNNMEM_REMAT_MAX_GROUP + 1, 1000, order, 16, &gres), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(GROUP(members, 4, 0, order, 16, &gres), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK(gres.error.index == -1 && gres.error.field == DNNMEM_FIELD_LIMIT);
  CHECK_EQ(GROUP(members, 4, (1 << 28) + 1, order, 16, &gres), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(GROUP(members, 4, 1000, order, -1, &gres), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK(gres.error.index == -1 && gres.error.field == DNNMEM_FIELD_OUTPUT);
  CHECK_EQ(GROUP(members, 4, 1000, NULL, 16, &gres), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(GROUP(members, 4, 1000, order, 16, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  members[2] = -1;
  CHECK_EQ(GROUP(members, 4, 1000, order, 16, &gres), DNNMEM_ERR_ID_RANGE);
  CHECK(gres.error.index == 2 && gres.error.field == DNNMEM_FIELD_MEMBER);
  members[2] = 5;
  CHECK_EQ(GROUP(members, 4, 1000, order, 16, &gres), DNNMEM_ERR_ID_RANGE);
  CHECK(gres.error.index == 2 && gres.error.field == DNNMEM_FIELD_MEMBER);
  members[2] = 3;
  members[0] = 2; /* c twice */
  CHECK_EQ(GROUP(members, 4, 1000, order, 16, &gres), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK(gres.error.index == 1 && gres.error.other == 0 && gres.error.field == DNNMEM_FIELD_MEMBER);
  members[0] = 1;
  /* capacity 0 with no order array: only the length and the peak */
  CHECK_EQ(GROUP(members, 4, 1000, NULL, 0, &gres), DNNMEM_ERR_OUTPUT_TOO_SMALL);
  CHECK_EQ(gres.length, 4);
#undef GROUP
}

static double progress_value;
static double progress_fixed(void *user) {
  (void)user;
  return progress_value;
}

/* Progress callbacks: one that says NaN or less than the moves' share is
   ignored (the same seed gives the same sequence as without it); one past
   1 ends the schedule at once, with a valid answer. */
static void test_progress_edges(void) {
  ref_remat_graph g;
  int32_t plain[2 * MAXN], seq[2 * MAXN], n;
  dnnmem_remat_result base, st;
  dnnmem_remat_options o;
  dnnmem_rng rng;
  double zero = 0.0, values[3];
  int i;
  values[0] = 0.0;
  values[1] = -1.0;
  values[2] = zero / zero; /* NaN */
  t_rng = 777;
  tg_random_training(&g, 12, 12);
  n = g.n;
  o = options_for(0, 20000);
  dnnmem_rng_seed(&rng, 3);
  CHECK_EQ(dnnmem_remat_solve(&g.p, &o, &rng, plain, 2 * n, &base, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_OK);
  o.progress = progress_fixed;
  for (i = 0; i < 3; i++) {
    progress_value = values[i];
    dnnmem_rng_seed(&rng, 3);
    CHECK_EQ(dnnmem_remat_solve(&g.p, &o, &rng, seq, 2 * n, &st, scratch_buf, sizeof(scratch_buf)),
             DNNMEM_OK);
    CHECK_EQ(st.length, base.length);
    CHECK_EQ(st.peak, base.peak);
    CHECK_EQ(st.time, base.time);
    CHECK_EQ(st.moves, base.moves);
    CHECK_EQ(memcmp(seq, plain, (size_t)st.length * sizeof(int32_t)), 0);
  }
  progress_value = 5.0;
  dnnmem_rng_seed(&rng, 3);
  CHECK_EQ(dnnmem_remat_solve(&g.p, &o, &rng, seq, 2 * n, &st, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_OK);
  check_answer(&g, seq, &st);
  CHECK(st.moves < base.moves);
}

/* Anneal's int32 indices: a capacity past 2^28 steps, or V x 4 x
   max_group_size + E past 2^31 - 1 edge slots (2^23 nodes with groups of
   64), is TOO_MANY from the scratch size and the solve; one node fewer
   has a size. */
static void test_too_many(void) {
  ref_remat_graph g;
  dnnmem_remat_options o = options_for(0, 100);
  dnnmem_rng rng;
  dnnmem_remat_result st;
  int32_t seq[4], n = 1 << 23, *off = (int32_t *)calloc((size_t)n + 1, sizeof(int32_t));
  int64_t *sizes = (int64_t *)calloc((size_t)n, sizeof(int64_t));
  int64_t *times = (int64_t *)calloc((size_t)n, sizeof(int64_t));
  dnnmem_graph big;
  dnnmem_remat_problem p;
  size_t bytes = 0;
  blog_example(&g);
  dnnmem_rng_seed(&rng, 1);
  CHECK_EQ(dnnmem_remat_solve_scratch_size(&g.p, &o, (1 << 28) + 1, &bytes), DNNMEM_ERR_TOO_MANY);
  CHECK_EQ(dnnmem_remat_solve(&g.p, &o, &rng, seq, (1 << 28) + 1, &st, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_ERR_TOO_MANY);
  CHECK_HUGE_SIZE(dnnmem_remat_solve_scratch_size(&g.p, &o, 1 << 28, &bytes), bytes, (size_t)1 << 28);
  if (!off || !sizes || !times) {
    fprintf(stderr, "test_too_many: no memory for %d nodes, skipped\n", (int)n);
  } else {
    big.num_nodes = n;
    big.in_offsets = off;
    big.in_ids = NULL;
    p.graph = &big;
    p.sizes = sizes;
    p.times = times;
    p.is_output = NULL;
    o.max_group_size = DNNMEM_REMAT_MAX_GROUP;
    CHECK_EQ(dnnmem_remat_solve_scratch_size(&p, &o, n, &bytes), DNNMEM_ERR_TOO_MANY);
    CHECK_EQ(dnnmem_remat_solve(&p, &o, &rng, NULL, 0, &st, scratch_buf, sizeof(scratch_buf)),
             DNNMEM_ERR_TOO_MANY);
    big.num_nodes = n - 1;
    CHECK_HUGE_SIZE(dnnmem_remat_solve_scratch_size(&p, &o, n - 1, &bytes), bytes, (size_t)n);
  }
  free(off);
  free(sizes);
  free(times);
}

/* The time bound on training graphs where a third of the nodes take no
   time (free to recompute, never in the multiplier's range): the sum of
   the bounds over 300 graphs is recorded (a zero time let into the range
   made the multiplier search loop). */
static void test_time_bound_zero_times(void) {
  uint64_t rng = 99;
  long long sum = 0;
  int32_t trial, v;
  for (trial = 0; trial < 300; trial++) {
    ref_remat_graph g;
    dnnmem_remat_options o;
    dnnmem_remat_bound_result tb;
    int64_t total = 0;
    ref_remat_random_training(&g, 3 + trial % 3, 2 + trial % 2, &rng);
    for (v = 0; v < g.n; v++) {
      if (ref_rand(&rng, 3) == 0) g.time[v] = 0;
      total += g.size[v];
    }
    memset(&o, 0, sizeof o);
    o.budget = total / 2 + 1;
    o.bound_cuts = 4 * g.n; /* every cut, the best linked with every other */
    if (dnnmem_remat_time_bound(&g.p, &o, &tb, scratch_buf, sizeof(scratch_buf)) == DNNMEM_OK)
      sum += tb.extra_time * (trial + 1);
  }
  CHECK_EQ(sum, 157797); /* linked pairs: 95658, one cut: 82378 */
}

/* More argument checks, each with its code and field: a negative step id,
   options out of range at their low end, a NULL result or sequence, the
   plan's scratch size without a graph or with a negative length. */
static void test_argument_edges(void) {
  ref_remat_graph g;
  dnnmem_remat_problem p;
  dnnmem_remat_options o;
  dnnmem_remat_result st;
  int32_t seq[8] = {0, -1, 1};
  int32_t ia[] = {0, -1};
  size_t need = 0;
  ref_remat_graph_begin(&g);
  ref_remat_graph_node(&g, 5, 1, 0, NULL);
  ref_remat_graph_node(&g, 9, 1, 1, ia);
  CHECK_EQ(dnnmem_remat_simulate(&g.p, seq, 3, NULL, &st, scratch_buf, sizeof(scratch_buf)), DNNMEM_ERR_ID_RANGE);
  CHECK(st.error.index == 1 && st.error.field == DNNMEM_FIELD_SEQUENCE);
  memset(&o, 0, sizeof o);
  o.algo = (dnnmem_remat_algo)-1;
  CHECK_EQ(dnnmem_remat_solve_scratch_size(&g.p, &o, 8, &need), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_remat_solve(&g.p, &o, NULL, seq, 8, &st, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(st.error.field, DNNMEM_FIELD_ALGO);
  o.algo = DNNMEM_REMAT_ALGO_COUNT;
  CHECK_EQ(dnnmem_remat_solve(&g.p, &o, NULL, seq, 8, &st, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(st.error.field, DNNMEM_FIELD_ALGO);
  o.algo = (dnnmem_remat_algo)0, o.budget = -1;
  CHECK_EQ(dnnmem_remat_solve(&g.p, &o, NULL, seq, 8, &st, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(st.error.field, DNNMEM_FIELD_BUDGET);
  CHECK_EQ(dnnmem_remat_solve_scratch_size(&g.p, NULL, 8, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_remat_solve_scratch_size(&g.p, NULL, -1, &need), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_remat_solve(&g.p, NULL, NULL, seq, 8, NULL, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_remat_solve(&g.p, NULL, NULL, seq, -1, &st, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(st.error.field, DNNMEM_FIELD_OUTPUT);
  CHECK_EQ(dnnmem_remat_solve(&g.p, NULL, NULL, NULL, 8, &st, scratch_buf, sizeof(scratch_buf)),
           DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(st.error.field, DNNMEM_FIELD_OUTPUT);
  /* the plan's scratch size */
  CHECK_EQ(dnnmem_remat_plan_scratch_size(NULL, NULL, seq, 2, 1, &need), DNNMEM_ERR_INVALID_ARGUMENT);
  p = g.p;
  p.graph = NULL;
  CHECK_EQ(dnnmem_remat_plan_scratch_size(&p, NULL, seq, 2, 1, &need), DNNMEM_ERR_INVALID_ARGUMENT);
  g.graph.num_nodes = -1;
  CHECK_EQ(dnnmem_remat_plan_scratch_size(&g.p, NULL, seq, 2, 1, &need), DNNMEM_ERR_INVALID_ARGUMENT);
  g.graph.num_nodes = g.n;
  CHECK_EQ(dnnmem_remat_plan_scratch_size(&g.p, NULL, seq, -1, 1, &need), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_remat_plan_scratch_size(&g.p, NULL, seq, 2, 1, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_remat_plan_scratch_size(&g.p, NULL, seq, 2, 1, &need), DNNMEM_OK);
  CHECK(need > 0);
}

/* sequence_capacity is the array's size: a solve never writes past it,
   whatever the algorithm, also when the sequence does not fit
   (OUTPUT_TOO_SMALL, result.length the capacity needed). The array is
   heap-allocated with 8 guard entries after the capacity, checked intact
   (a write past the capacity fails here without ASan too). */
static void test_capacity_guard(void) {
  ref_remat_graph g;
  int32_t algo, cap;
  dnnmem_remat_result st;
  dnnmem_rng rng;
  forward_backward_chain(&g);
  for (algo = 0; algo < DNNMEM_REMAT_ALGO_COUNT; algo++) {
    dnnmem_remat_options o = options_for(0, 2000);
    int32_t needed = -1;
    o.algo = (dnnmem_remat_algo)algo;
    for (cap = 0; cap <= 2 * g.n; cap += cap < g.n + 2 ? 1 : 7) {
      int32_t *seq = (int32_t *)malloc((size_t)(cap + 8) * sizeof(int32_t)), k;
      dnnmem_result r;
      for (k = 0; k < cap + 8; k++) seq[k] = -7;
      dnnmem_rng_seed(&rng, 1);
      memset(&st, 0, sizeof st);
      r = dnnmem_remat_solve(&g.p, &o, &rng, seq, cap, &st, scratch_buf, sizeof(scratch_buf));
      for (k = cap; k < cap + 8; k++) CHECK_EQ(seq[k], -7);
      if (r == DNNMEM_OK) {
        CHECK(st.length <= cap);
        check_answer(&g, seq, &st);
        if (needed < 0) needed = cap; /* the first capacity that fits */
      } else {
        CHECK_EQ(r, DNNMEM_ERR_OUTPUT_TOO_SMALL);
        CHECK(st.length > cap);
        CHECK_EQ(needed, -1); /* never too small after one that fitted */
        if (algo != DNNMEM_REMAT_CHECKPOINT) CHECK_EQ(st.length, g.n); /* the row order; anneal: V */
      }
      free(seq);
    }
    CHECK(needed >= g.n);
    if (algo != DNNMEM_REMAT_CHECKPOINT) CHECK_EQ(needed, g.n);
  }
}

/* The annealer is deterministic: at a fixed seed and move count its
   answer and its counts (moves tried, accepted) are recorded here, on
   resnet18.train (317 nodes, 20,000 moves): without a budget (peak only)
   once with the whole pipeline and once on the plain graph alone, and
   with a budget out of reach (45% of the row order's peak) with the arena
   bounded (the plan-guided repairs run). A change of the search moves a
   figure: re-record it (the run prints them) when the change is meant, as
   test_dual_bound does for labeling. accepted counts the moves taken, so a
   move that does nothing must not count (a CHAIN draw without a chain);
   the hash of the sequence says which of equally good answers came out. */
typedef struct anneal_record {
  int32_t no_contraction, budget_percent, peak_only;
  int64_t peak, time;
  int32_t length;
  int64_t moves, accepted;
  uint32_t hash; /* FNV-1a of the sequence */
  int64_t arena;
} anneal_record;

static void test_anneal_record(void) {
  static const anneal_record want[] = {
      {0, 0, 1, 210559392, 61130287, 336, 20225, 3424, 2983632782u, -1},
      {1, 0, 1, 196156320, 58343267, 331, 20235, 3691, 972672505u, -1},
      {0, 45, 0, 210559392, 58139881, 333, 20319, 4881, 2987547979u, 210559392},
      /* the plain pipeline from the time bound's start (without it: time
         56833307, hash 143901195u); the arena rounds' settle counts its
         repair trials as moves up to the iterations only (0.16.0 counted
         them all: the same answer after 23296 moves, 4644 accepted); the
         repair's exchange (its repairs' trials count as moves): was
         {225857184, 56517407, 328, 20000, 4586, 445737669u, 231432096}; time
         back on the answer (0.28.0), a faster fit: was {227113120,
         54695593, 329, 20000, 3711, 1111395200u, 230706080}; time back's
         single removals (issue 27's rematvit3), a faster fit: was
         {230324384, 54611364, 327, 20000, 3711, 2796101081u, 231329440} */
      {0, 60, 0, 230324384, 54066081, 328, 20000, 3711, 3474568884u, 231329440},
  };
  files_graph g;
  dnnmem_remat_problem p;
  dnnmem_remat_result st;
  dnnmem_rng rng;
  int32_t *seq;
  int64_t base_peak;
  size_t i;
  if (!read_resnet18_train(&g, &p)) return;
  seq = (int32_t *)malloc((size_t)(2 * g.n) * sizeof(int32_t));
  {
    dnnmem_remat_options o = options_for(0, 0);
    o.algo = DNNMEM_REMAT_ROW_ORDER;
    CHECK_EQ(dnnmem_remat_solve(&p, &o, NULL, seq, 2 * g.n, &st, scratch_buf, sizeof(scratch_buf)), DNNMEM_OK);
    base_peak = st.peak;
  }
  for (i = 0; i < sizeof want / sizeof want[0]; i++) {
    dnnmem_remat_options o;
    int64_t peak = -1, time = -1;
    uint32_t hash = 2166136261u;
    int32_t k;
    dnnmem_result r;
    memset(&o, 0, sizeof o);
    o.iterations = 20000;
    o.budget = base_peak * want[i].budget_percent / 100;
    o.peak_only = want[i].peak_only;
    o.no_contraction = want[i].no_contraction;
    dnnmem_rng_seed(&rng, 1);
    r = dnnmem_remat_solve(&p, &o, &rng, seq, 2 * g.n, &st, scratch_buf, sizeof(scratch_buf));
    CHECK_EQ(r, o.budget > 0 && want[i].budget_percent < 50 ? DNNMEM_ERR_INFEASIBLE : DNNMEM_OK);
    CHECK(ref_remat_recount(&p, seq, st.length, &peak, &time));
    CHECK_EQ(peak, st.peak);
    CHECK_EQ(time, st.time);
    for (k = 0; k < st.length; k++) hash = (hash ^ (uint32_t)seq[k]) * 16777619u;
    printf("anneal record: {%d, %d, %d, %lld, %lld, %d, %lld, %lld, %luu, %lld}\n", (int)o.no_contraction,
           (int)want[i].budget_percent, (int)o.peak_only, (long long)st.peak, (long long)st.time, (int)st.length,
           (long long)st.moves, (long long)st.accepted, (unsigned long)hash, (long long)st.arena);
    CHECK_EQ(st.peak, want[i].peak);
    CHECK_EQ(st.time, want[i].time);
    CHECK_EQ(st.length, want[i].length);
    CHECK_EQ(st.moves, want[i].moves);
    CHECK(st.moves <= o.iterations + o.iterations / 50); /* the repairs after the last round: a few */
    CHECK_EQ(st.accepted, want[i].accepted);
    CHECK_EQ(hash, want[i].hash);
    CHECK_EQ(st.arena, want[i].arena);
  }
  free(seq);
  files_graph_free(&g);
}

/* The time bound's network past its limits (6 V + 2 nodes, 24 V + 4 E + 8
   arcs in int32_t: two linked cuts): the scratch size is refused
   (OVERFLOW), not computed for a network that cannot be built. Called on
   the private layout with the counts alone (a graph that large would not
   fit in a test). */
static void test_time_bound_limits(void) {
  static const int32_t counts[][2] = {{800000000, 0}, {1000, 300000000}, {44739243, 0}, {44739242, 0}};
  size_t i;
  for (i = 0; i < sizeof counts / sizeof counts[0]; i++) {
    dnnmem__scratch s;
    dnnmem__tb_work w;
    size_t bytes = 0;
    int64_t arcs = 24 * (int64_t)counts[i][0] + 4 * (int64_t)counts[i][1] + 8;
    int fits = arcs <= 1073741822 && counts[i][0] <= (2147483647 - 3) / 6;
    dnnmem__scratch_begin(&s, NULL, 0);
    dnnmem__tb_layout(&s, counts[i][0], counts[i][1], &w);
    if (fits && sizeof(size_t) >= 8) {
      CHECK_EQ(dnnmem__scratch_end(&s, &bytes), DNNMEM_OK);
      CHECK_EQ(w.flow_arcs, arcs);
    } else if (!fits) {
      CHECK_EQ(dnnmem__scratch_end(&s, &bytes), DNNMEM_ERR_OVERFLOW);
      CHECK_EQ(w.flow_arcs, 0);
    }
  }
}

/* The time bound with linked pairs of cuts against the exact optimum
   (ref_remat_optimum: every sequence, no length limit) on random graphs of
   4-7 nodes at budgets from the lower bound to the row order's peak: never
   above it (a proof), and equal to it on many, pairs among them (where a
   pair gives the bound and equals the optimum, the bound made 1 larger
   would fail this check). Exhaustive search (bounded length) agrees where
   it finds a sequence: it is never below the optimum. */
static void test_time_bound_linked(void) {
  int32_t trial, feasible = 0, positive = 0, tight = 0, pairs = 0, pairs_tight = 0;
  uint64_t rng = 2027;
  { /* x (16 bytes) feeds a and c; b = f(a), c = f(b, x), d = f(y, b),
       out = f(d, a), budget 47. Computing c holds x, b, c (46): a (9
       bytes) cannot be held across it, so a is recomputed (8; the optimum
       from ref_remat_optimum). The busiest cut alone proves it: a is
       larger than the room its step leaves (1 byte). Before that rule
       (0.14.0) every cut alone proved at most 6, and the pair of c and d
       gave 8. */
    int32_t ix[] = {0, -1}, ia[] = {1, -1}, ic[] = {2, 0, -1}, id[] = {4, 2, -1}, io[] = {5, 1, -1};
    ref_remat_graph g;
    dnnmem_remat_options o;
    dnnmem_remat_bound_result tb;
    ref_remat_graph_begin(&g);
    ref_remat_graph_node(&g, 16, 0, 0, NULL); /* 0 x */
    ref_remat_graph_node(&g, 9, 8, 0, ix);    /* 1 a */
    ref_remat_graph_node(&g, 15, 7, 0, ia);   /* 2 b */
    ref_remat_graph_node(&g, 15, 4, 0, ic);   /* 3 c (a sink) */
    ref_remat_graph_node(&g, 3, 0, 0, NULL);  /* 4 y */
    ref_remat_graph_node(&g, 7, 9, 0, id);    /* 5 d */
    ref_remat_graph_node(&g, 3, 6, 1, io);    /* 6 out */
    o = options_for(47, 0);
    CHECK_EQ(ref_remat_optimum(&g.p, o.budget) - sum_times(&g), 8);
    o.bound_cuts = 1; /* the busiest step alone */
    CHECK_EQ(dnnmem_remat_time_bound(&g.p, &o, &tb, scratch_buf, sizeof(scratch_buf)), DNNMEM_OK);
    CHECK_EQ(tb.extra_time, 8);
    CHECK_EQ(tb.cut, 3);
    CHECK_EQ(tb.cut2, -1);
    o.budget = 55; /* room for a at c (9 bytes): no longer proven there */
    CHECK_EQ(ref_remat_optimum(&g.p, o.budget) - sum_times(&g), 0);
    CHECK_EQ(dnnmem_remat_time_bound(&g.p, &o, &tb, scratch_buf, sizeof(scratch_buf)), DNNMEM_OK);
    CHECK_EQ(tb.extra_time, 0);
  }
  { /* x feeds a; b = f(a), c = f(b) (a sink); y; outputs d = f(y, a) and
       e = f(d, a); budget 36. c's step holds b and c (27): neither a (11)
       nor both outputs (12) fit beside them. If c comes before e, a is
       read after c: recomputed (6); if e comes first, d and e are held at
       c. So a is recomputed: the optimum 6. One cut sees only one side
       (the Lagrangian of c's cut mixes them: at most 2); the pair of c and
       e proves 6 in both orders. */
    int32_t ix[] = {0, -1}, ia[] = {1, -1}, ib[] = {2, -1}, id[] = {4, 1, -1}, ie[] = {5, 1, -1};
    ref_remat_graph g;
    dnnmem_remat_options o;
    dnnmem_remat_bound_result tb;
    ref_remat_graph_begin(&g);
    ref_remat_graph_node(&g, 1, 0, 0, NULL);  /* 0 x */
    ref_remat_graph_node(&g, 11, 6, 0, ix);   /* 1 a */
    ref_remat_graph_node(&g, 13, 2, 0, ia);   /* 2 b */
    ref_remat_graph_node(&g, 14, 9, 0, ib);   /* 3 c (a sink) */
    ref_remat_graph_node(&g, 2, 0, 0, NULL);  /* 4 y */
    ref_remat_graph_node(&g, 7, 7, 1, id);    /* 5 d */
    ref_remat_graph_node(&g, 5, 6, 1, ie);    /* 6 e */
    o = options_for(36, 0);
    CHECK_EQ(ref_remat_optimum(&g.p, o.budget) - sum_times(&g), 6);
    o.bound_cuts = 4 * g.n; /* every cut, the best linked with every other */
    CHECK_EQ(dnnmem_remat_time_bound(&g.p, &o, &tb, scratch_buf, sizeof(scratch_buf)), DNNMEM_OK);
    CHECK_EQ(tb.extra_time, 6);
    CHECK((tb.cut == 3 && tb.cut2 == 6) || (tb.cut == 6 && tb.cut2 == 3));
    o.bound_cuts = 1; /* the busiest step alone: no pair */
    CHECK_EQ(dnnmem_remat_time_bound(&g.p, &o, &tb, scratch_buf, sizeof(scratch_buf)), DNNMEM_OK);
    CHECK(tb.extra_time <= 2);
    CHECK_EQ(tb.cut2, -1);
  }
  { /* x -> a -> b -> c -> d (a sink); y; outputs e = f(y, a), f = f(e, b),
       g = f(f, a); budget 45 (a random graph, the optimum 9 from
       ref_remat_optimum). The pair of d and g proves 9 only when the
       ancestors of g alone (y, e, f) are counted at d's cut; counted at
       g's, the pair proves 7. */
    int32_t ix[] = {0, -1}, ia[] = {1, -1}, ib[] = {2, -1}, ic[] = {3, -1}, ie[] = {5, 1, -1}, iff[] = {6, 2, -1},
            ig[] = {7, 1, -1};
    ref_remat_graph g;
    dnnmem_remat_options o;
    dnnmem_remat_bound_result tb;
    ref_remat_graph_begin(&g);
    ref_remat_graph_node(&g, 5, 0, 0, NULL);  /* 0 x */
    ref_remat_graph_node(&g, 12, 7, 0, ix);   /* 1 a */
    ref_remat_graph_node(&g, 13, 8, 0, ia);   /* 2 b */
    ref_remat_graph_node(&g, 19, 6, 0, ib);   /* 3 c */
    ref_remat_graph_node(&g, 16, 8, 0, ic);   /* 4 d (a sink) */
    ref_remat_graph_node(&g, 2, 0, 0, NULL);  /* 5 y */
    ref_remat_graph_node(&g, 8, 2, 1, ie);    /* 6 e */
    ref_remat_graph_node(&g, 1, 4, 1, iff);   /* 7 f */
    ref_remat_graph_node(&g, 3, 9, 1, ig);    /* 8 g */
    o = options_for(45, 0);
    CHECK_EQ(ref_remat_optimum(&g.p, o.budget) - sum_times(&g), 9);
    o.bound_cuts = 4 * g.n;
    CHECK_EQ(dnnmem_remat_time_bound(&g.p, &o, &tb, scratch_buf, sizeof(scratch_buf)), DNNMEM_OK);
    CHECK_EQ(tb.extra_time, 9);
    CHECK_EQ(tb.cut, 4);
    CHECK_EQ(tb.cut2, 8);
  }
  for (trial = 0; trial < 2000; trial++) {
    ref_remat_graph g;
    dnnmem_remat_options o;
    dnnmem_remat_bound_result tb, lbr;
    dnnmem_remat_result row;
    int32_t seq[16];
    int64_t opt, base;
    if (trial % 2 == 0) ref_remat_random_graph(&g, 4 + (int32_t)ref_rand(&rng, 4), 0, &rng);
    else ref_remat_random_training(&g, 2 + (int32_t)ref_rand(&rng, 2), 2 + (int32_t)ref_rand(&rng, 2), &rng);
    o = options_for(0, 0);
    o.algo = DNNMEM_REMAT_ROW_ORDER;
    CHECK_EQ(dnnmem_remat_solve(&g.p, &o, NULL, seq, 16, &row, scratch_buf, sizeof(scratch_buf)), DNNMEM_OK);
    CHECK_EQ(dnnmem_remat_lower_bound(&g.p, &lbr), DNNMEM_OK);
    o = options_for(lbr.peak + (int64_t)ref_rand(&rng, (uint32_t)(row.peak - lbr.peak + 1)), 0);
    o.bound_cuts = 4 * g.n; /* every cut, the best linked with every other */
    opt = ref_remat_optimum(&g.p, o.budget);
    CHECK_EQ(dnnmem_remat_time_bound(&g.p, &o, &tb, scratch_buf, sizeof(scratch_buf)), DNNMEM_OK);
    if (opt < 0) continue;
    if (trial < 200) { /* the bounded search never finds less */
      exhaustive e;
      exhaustive_search(&e, &g, o.budget);
      CHECK(e.best_time == INT64_MAX || e.best_time >= opt);
    }
    base = sum_times(&g);
    feasible++;
    CHECK(tb.extra_time >= 0 && tb.extra_time <= opt - base);
    positive += opt > base;
    tight += opt > base && tb.extra_time == opt - base;
    pairs += tb.cut2 >= 0;
    pairs_tight += tb.cut2 >= 0 && tb.extra_time == opt - base;
  }
  printf("time bound, linked: %d feasible of 2000, %d need extra time, bound tight on %d; a pair gives it on %d, "
         "tight on %d\n", feasible, positive, tight, pairs, pairs_tight);
  /* measured: tight on 106 (before nodes too large to hold: 27), by a pair
     on 9 */
  CHECK(tight >= 100);
  CHECK(pairs_tight >= 1);
}

/* The annealer at fixed seeds on small graphs, renumbered so that node 0
   is an op with inputs and consumers (ids rotated by one: the first node
   last; the annealer keeps the caller's ids), capacities tight (n + 3
   steps: ADDs past it refused) or loose (2 n), plain or contracted. The
   problem's arrays and the sequence are heap arrays of exactly their
   sizes; every answer is recounted. The record (peak, time, length,
   moves, accepted, FNV-1a of the sequence) is exact: the hash says which
   of equally good states came out. */
typedef struct small_record {
  int64_t peak, time;
  int32_t length;
  int64_t moves, accepted;
  uint32_t hash;
} small_record;

static small_record anneal_rotated(const ref_remat_graph *src, int32_t run) {
  int32_t n = src->n, v, k, e = 0, cap = run & 2 ? 2 * n : n + 3;
  int32_t *off = (int32_t *)malloc((size_t)(n + 1) * sizeof(int32_t));
  int32_t *ids = (int32_t *)malloc((size_t)src->off[n] * sizeof(int32_t));
  int32_t *seq = (int32_t *)malloc((size_t)cap * sizeof(int32_t));
  int64_t *size = (int64_t *)malloc((size_t)n * sizeof(int64_t));
  int64_t *time = (int64_t *)malloc((size_t)n * sizeof(int64_t));
  int64_t peak = -1, t = -1;
  uint8_t *out = (uint8_t *)malloc((size_t)n);
  dnnmem_graph g;
  dnnmem_remat_problem p;
  dnnmem_remat_options o;
  dnnmem_remat_result st;
  dnnmem_rng rng;
  small_record rec;
  size_t bytes = 0;
  void *mem;
  off[0] = 0;
  for (v = 0; v < n; v++) { /* new id v is old id (v + 1) % n */
    int32_t old = (v + 1) % n;
    for (k = src->off[old]; k < src->off[old + 1]; k++) ids[e++] = (src->ids[k] + n - 1) % n;
    off[v + 1] = e;
    size[v] = src->size[old];
    time[v] = src->time[old];
    out[v] = src->out[old];
  }
  g.num_nodes = n;
  g.in_offsets = off;
  g.in_ids = ids;
  memset(&p, 0, sizeof p);
  p.graph = &g;
  p.sizes = size;
  p.times = time;
  p.is_output = out;
  CHECK(off[1] > 0); /* node 0 reads an input */
  memset(&o, 0, sizeof o);
  o.iterations = 20000;
  o.no_contraction = run & 1;
  CHECK_EQ(dnnmem_remat_solve_scratch_size(&p, &o, cap, &bytes), DNNMEM_OK);
  mem = malloc(bytes);
  dnnmem_rng_seed(&rng, 1 + (uint64_t)run);
  CHECK_EQ(dnnmem_remat_solve(&p, &o, &rng, seq, cap, &st, mem, bytes), DNNMEM_OK);
  CHECK(st.length >= n && st.length <= cap);
  CHECK(ref_remat_recount(&p, seq, st.length, &peak, &t));
  CHECK_EQ(peak, st.peak);
  CHECK_EQ(t, st.time);
  rec.peak = st.peak, rec.time = st.time, rec.length = st.length, rec.moves = st.moves, rec.accepted = st.accepted;
  rec.hash = 2166136261u;
  for (k = 0; k < st.length; k++) rec.hash = (rec.hash ^ (uint32_t)seq[k]) * 16777619u;
  free(mem);
  free(seq);
  free(off);
  free(ids);
  free(size);
  free(time);
  free(out);
  return rec;
}

/* Random training graphs (the gradient chain), sizes 8 or 16 and times 1
   or 2 (many equal costs); recorded with 0.10.0. */
static void test_anneal_record_small(void) {
  static const small_record want[8] = {
      {72, 30, 21, 20224, 1691, 2732824408u}, {72, 30, 21, 20224, 1557, 2732824408u},
      {56, 39, 28, 20231, 1869, 1512490191u}, {56, 38, 27, 20227, 1469, 4087472011u},
      {64, 29, 22, 20224, 2126, 2701059141u}, {64, 29, 22, 20224, 2161, 2701059141u},
      {64, 30, 22, 20250, 2336, 284588632u},  {64, 29, 22, 20228, 2401, 2701059141u},
  };
  int32_t run, v, bad = 0;
  for (run = 0; run < 8; run++) {
    ref_remat_graph *src = (ref_remat_graph *)malloc(sizeof *src);
    uint64_t seed = 77 + (uint64_t)(run / 4);
    small_record r;
    ref_remat_random_training(src, 9, 9, &seed);
    for (v = 0; v < src->n; v++) {
      src->size[v] = src->size[v] % 2 ? 8 : 16;
      src->time[v] = src->time[v] == 0 ? 0 : 1 + src->time[v] % 2;
    }
    r = anneal_rotated(src, run);
    printf("      {%lld, %lld, %d, %lld, %lld, %luu},\n", (long long)r.peak, (long long)r.time, (int)r.length,
           (long long)r.moves, (long long)r.accepted, (unsigned long)r.hash);
    bad += r.peak != want[run].peak || r.time != want[run].time || r.length != want[run].length ||
           r.moves != want[run].moves || r.accepted != want[run].accepted || r.hash != want[run].hash;
    free(src);
  }
  CHECK_EQ(bad, 0);
}

/* Three parallel chains from one op to a join, one size and time per
   chain: moving a chain past another often leaves the cost as it was, so
   which of the tied states the annealer keeps (the first one reached
   after it left the best, not a later tie) shows in the sequences; on
   7 to 9 nodes a chain move's log is near its capacity (4 V + 16). 32
   runs folded into one FNV-1a of their records, recorded with 0.10.0. */
#define TIES_PEAKS 1312
#define TIES_TIMES 563
#define TIES_HASH 3657722424u
static void test_anneal_ties(void) {
  int32_t run;
  int64_t peaks = 0, times = 0;
  uint32_t hash = 2166136261u;
  for (run = 0; run < 32; run++) { /* runs 24-31: 7 to 9 nodes, chains of 2 to 4 */
    ref_remat_graph *src = (ref_remat_graph *)malloc(sizeof *src);
    int32_t in[4], x, tiny = run >= 24;
    small_record r;
    ref_remat_graph_begin(src);
    in[0] = ref_remat_graph_node(src, 8, 0, 0, NULL), in[1] = -1;
    x = ref_remat_graph_node(src, 8, 1, 0, in);
    in[0] = ref_remat_graph_chain(src, x, (tiny ? 2 : 4) + run % 3, 8, 1);
    in[1] = ref_remat_graph_chain(src, x, tiny ? 2 : 5, 16, 2);
    in[2] = tiny ? -1 : ref_remat_graph_chain(src, x, 3 + run % 2, 8, 1);
    in[3] = -1;
    ref_remat_graph_node(src, 8, 1, 1, in);
    r = anneal_rotated(src, run);
    peaks += r.peak, times += r.time;
    hash = (hash ^ (uint32_t)r.peak) * 16777619u;
    hash = (hash ^ (uint32_t)r.time) * 16777619u;
    hash = (hash ^ (uint32_t)r.length) * 16777619u;
    hash = (hash ^ (uint32_t)r.moves) * 16777619u;
    hash = (hash ^ (uint32_t)r.accepted) * 16777619u;
    hash = (hash ^ r.hash) * 16777619u;
    free(src);
  }
  printf("anneal ties: peaks %lld, times %lld, hash %luu\n", (long long)peaks, (long long)times, (unsigned long)hash);
  CHECK_EQ(peaks, TIES_PEAKS);
  CHECK_EQ(times, TIES_TIMES);
  CHECK_EQ(hash, TIES_HASH);
}

/* Chen's checkpointing at its keep rule's edges: 9 nodes (segments of
   k = 3 positions), a chain 0 -> 1 -> ... -> 8; node 5 also reads node 1
   (4 positions on, 1 % 3 != 2: not kept, recomputed in 5's segment),
   node 6 node 3 (k = 3 positions on: kept) and node 7 node 2 (5 positions
   on, but every k-th: kept). The sequence by hand: 0 1 2 3 4 1 5 6 7 8. */
static void test_checkpoint_keep_edge(void) {
  static const int32_t want[10] = {0, 1, 2, 3, 4, 1, 5, 6, 7, 8};
  ref_remat_graph g;
  dnnmem_remat_options o;
  dnnmem_remat_result st;
  int32_t in[3], v, *seq = (int32_t *)malloc(10 * sizeof(int32_t));
  int64_t peak = -1, t = -1;
  ref_remat_graph_begin(&g);
  ref_remat_graph_node(&g, 4, 0, 0, NULL);
  for (v = 1; v < 9; v++) {
    in[0] = v - 1, in[1] = v == 5 ? 1 : v == 6 ? 3 : v == 7 ? 2 : -1, in[2] = -1;
    ref_remat_graph_node(&g, 4, v, v == 8, in);
  }
  memset(&o, 0, sizeof o);
  o.algo = DNNMEM_REMAT_CHECKPOINT;
  CHECK_EQ(dnnmem_remat_solve(&g.p, &o, NULL, seq, 10, &st, scratch_buf, sizeof(scratch_buf)), DNNMEM_OK);
  CHECK_EQ(st.length, 10);
  CHECK(memcmp(seq, want, sizeof want) == 0);
  CHECK(recount(&g, seq, st.length, &peak, &t));
  CHECK(st.peak == peak && st.time == t && t == 36 + 1);
  free(seq);
}

/* A free recomputation (time 0) that lowers the peak is kept: x -> a (free,
   10 B) -> b -> c (10 B) -> d, e = (d, a). The row order holds a across c
   (peak 21); computing a again before e costs nothing and reaches the lower
   bound 12 (e with its inputs). Within the row order's peak the answer is
   the least time, then the lowest peak: time 4 (no extra), peak 12, for
   every seed and with contraction on or off (acceptance mutant f7b25f7940
   let the polish drop free recomputations: peak 21). */
static void test_free_recompute_kept(void) {
  static const int32_t in_off[7] = {0, 0, 1, 2, 3, 4, 6}, in_ids[6] = {0, 1, 2, 3, 4, 1};
  static const int64_t sizes[6] = {0, 10, 1, 10, 1, 1}, times[6] = {0, 0, 1, 1, 1, 1};
  dnnmem_graph g = {6, in_off, in_ids};
  dnnmem_remat_problem p = {&g, sizes, times, NULL};
  dnnmem_remat_bound_result lb;
  int32_t *seq = (int32_t *)malloc(12 * sizeof(int32_t)), seed, nc;
  CHECK_EQ(dnnmem_remat_lower_bound(&p, &lb), DNNMEM_OK);
  CHECK_EQ(lb.peak, 12);
  for (seed = 1; seed <= 3; seed++)
    for (nc = 0; nc < 2; nc++) {
      dnnmem_remat_options o;
      dnnmem_remat_result st;
      dnnmem_rng rng;
      int64_t peak = -1, t = -1;
      memset(&o, 0, sizeof o);
      o.budget = 21;
      o.iterations = 2000;
      o.no_contraction = nc;
      dnnmem_rng_seed(&rng, (uint64_t)seed);
      CHECK_EQ(dnnmem_remat_solve(&p, &o, &rng, seq, 12, &st, scratch_buf, sizeof(scratch_buf)), DNNMEM_OK);
      CHECK(ref_remat_recount(&p, seq, st.length, &peak, &t));
      CHECK(st.peak == peak && st.time == t);
      CHECK_EQ(st.time, 4);
      CHECK_EQ(st.peak, 12);
    }
  free(seq);
}

/* No computation in an answer is left unread (ref_remat_unread: no later
   step reads it, not an output's last instance, its node computed again
   elsewhere): the solve's last step drops them. test_free_recompute_kept's
   graph at budget 21 had 0 1 2 3 4 1 5 1 1 (a's free recomputations after
   its last use kept); now 0 1 2 3 4 1 5 for every seed, with contraction
   on or off. Then 300 random training graphs where a third of the nodes
   take no time (free recomputations change no cost, so the annealer keeps
   them), at budgets between the lower bound and the row order's peak,
   peak-only or not: every answer valid (recount), its result the recount's,
   and nothing unread when it fits (with the arena bounded, a sequence
   that does not fit is the one of least arena: the shorter one's plan
   may be larger, and is then not taken). */
static void test_trim_unread(void) {
  static const int32_t in_off[7] = {0, 0, 1, 2, 3, 4, 6}, in_ids[6] = {0, 1, 2, 3, 4, 1};
  static const int64_t sizes[6] = {0, 10, 1, 10, 1, 1}, times[6] = {0, 0, 1, 1, 1, 1};
  static const int32_t want[7] = {0, 1, 2, 3, 4, 1, 5};
  dnnmem_graph g = {6, in_off, in_ids};
  dnnmem_remat_problem p = {&g, sizes, times, NULL};
  int32_t seq[64], seed, nc, trial, v;
  uint64_t rng64 = 2718;
  for (seed = 1; seed <= 3; seed++)
    for (nc = 0; nc < 2; nc++) {
      dnnmem_remat_options o = options_for(21, 2000);
      dnnmem_remat_result st;
      dnnmem_rng rng;
      o.no_contraction = nc;
      dnnmem_rng_seed(&rng, (uint64_t)seed);
      CHECK_EQ(dnnmem_remat_solve(&p, &o, &rng, seq, 12, &st, scratch_buf, sizeof(scratch_buf)), DNNMEM_OK);
      CHECK_EQ(st.length, 7);
      CHECK_EQ(st.recomputations, 1);
      CHECK(memcmp(seq, want, sizeof want) == 0);
      CHECK_EQ(ref_remat_unread(&p, seq, st.length), 0);
    }
  for (trial = 0; trial < 300; trial++) {
    ref_remat_graph rg;
    dnnmem_remat_options o;
    dnnmem_remat_result st, base;
    dnnmem_remat_bound_result lb;
    dnnmem_rng rng;
    int64_t peak = -1, t = -1;
    dnnmem_result r;
    ref_remat_random_training(&rg, 3 + trial % 4, 2 + trial % 3, &rng64);
    for (v = 0; v < rg.n; v++)
      if (ref_rand(&rng64, 3) == 0) rg.time[v] = 0;
    memset(&o, 0, sizeof o);
    o.algo = DNNMEM_REMAT_ROW_ORDER;
    CHECK_EQ(dnnmem_remat_solve(&rg.p, &o, NULL, seq, 64, &base, scratch_buf, sizeof(scratch_buf)), DNNMEM_OK);
    CHECK_EQ(dnnmem_remat_lower_bound(&rg.p, &lb), DNNMEM_OK);
    o = options_for(lb.peak + (int64_t)ref_rand(&rng64, (uint32_t)(base.peak - lb.peak + 1)), 3000);
    o.peak_only = trial % 2;
    dnnmem_rng_seed(&rng, (uint64_t)trial);
    r = dnnmem_remat_solve(&rg.p, &o, &rng, seq, 64, &st, scratch_buf, sizeof(scratch_buf));
    CHECK(r == DNNMEM_OK || r == DNNMEM_ERR_INFEASIBLE);
    CHECK(ref_remat_recount(&rg.p, seq, st.length, &peak, &t));
    CHECK(st.peak == peak && st.time == t);
    if (r == DNNMEM_OK || o.peak_only) CHECK_EQ(ref_remat_unread(&rg.p, seq, st.length), 0);
  }
}

/* Repeated layers (the annealer's COPY: a class of 8 peers per role): 8
   layers a = f(x) (16 bytes, time 4), b = g(a) (32, time 1), c = h(b) (the
   next x), then the backward pass gb = (g, b), ga = (gb, a) from the last
   layer down. Holding every a and recomputing every b before its gb
   (time + 8) fits the budget that schedule peaks at; each seed's answer
   is recounted and recomputes no more than that. */
static void test_copy_layers(void) {
  ref_remat_graph g;
  int32_t a[8], b[8], i, seq[128], sched[64], seed;
  int64_t peak = -1, time = -1, budget, base_time = 0;
  int32_t len = ref_remat_layers_graph(&g, a, b, 0xffu, sched);
  for (i = 0; i < g.n; i++) base_time += g.time[i];
  CHECK(recount(&g, sched, len, &budget, &time));
  CHECK_EQ(time, base_time + 8);
  for (seed = 1; seed <= 8; seed++) {
    dnnmem_remat_options o = options_for(budget, 200000);
    dnnmem_remat_result st;
    dnnmem_rng rng;
    dnnmem_rng_seed(&rng, (uint64_t)seed);
    o.peak_only = 1;
    CHECK_EQ(dnnmem_remat_solve(&g.p, &o, &rng, seq, 128, &st, scratch_buf, sizeof(scratch_buf)), DNNMEM_OK);
    check_answer(&g, seq, &st);
    CHECK(recount(&g, seq, st.length, &peak, &time));
    CHECK(peak <= budget);
    CHECK(time <= base_time + 8);
  }
}

/* COPY's core (dnnmem__copy_pair) from one layer to every peer of its
   class in turn (a class-wide change), on the private state:
   test_copy_layers' 8 layers, the row-order-like schedule where only
   layer 3 recomputes b before its gb. Copying b[3] to every other
   member of its class gives each of them exactly one recomputation of b
   (time + 1 each), placed before its own gb (the sequence recounts to the
   state's peak and time); when the class holds all 8 b's the peak is the
   "hold a, recompute b" schedule's. From the schedule again, copying a
   peer that recomputes nothing to every other one removes layer 3's
   recomputation (one operation; the time without recomputation). */
static void test_copy_class(void) {
  ref_remat_graph g;
  int32_t a[8], b[8], i, k, len, seq[128], sched[64], hold[64], hlen;
  int32_t peers = 0, nops, len0, c;
  int64_t peak, time, base_time = 0, hold_peak, hold_time, time0;
  dnnmem_remat_options oo;
  dnnmem__remat w;
  dnnmem_rng arng;
  hlen = ref_remat_layers_graph(&g, a, b, 0xffu, hold); /* hold a, recompute b */
  len = ref_remat_layers_graph(&g, a, b, 1u << 3, sched); /* the same graph; only layer 3 recomputes b */
  for (i = 0; i < g.n; i++) base_time += g.time[i];
  CHECK(recount(&g, hold, hlen, &hold_peak, &hold_time));
  CHECK_EQ(hold_time, base_time + 8);
  remat_state(&w, &oo, &arng, &g, hold_peak, 0, scratch_buf, sizeof(scratch_buf));
  CHECK(w.copy_on);
  for (i = 0; i < 8; i++) peers += w.cls_hash[b[i]] == w.cls_hash[b[3]];
  CHECK(peers >= DNNMEM__REMAT_COPY_CLASS);
  CHECK_EQ(w.cls_len[b[3]], peers);
  dnnmem__anneal_load(&w, sched, len);
  len0 = len;
  time0 = w.time;
  CHECK_EQ(time0, base_time + 1);
  for (k = w.cls_lo[b[3]]; k < w.cls_lo[b[3]] + w.cls_len[b[3]]; k++)
    if (w.cls_ids[k] != b[3]) CHECK_EQ(dnnmem__copy_pair(&w, b[3], w.cls_ids[k]), 1);
  for (i = 0; i < 8; i++) CHECK_EQ(w.count[b[i]], w.cls_hash[b[i]] == w.cls_hash[b[3]] ? 2 : 1);
  len = dnnmem__slots_to_seq(&w, w.slot_node, seq);
  CHECK(recount(&g, seq, len, &peak, &time));
  CHECK_EQ(peak, w.tree[1]);
  CHECK_EQ(time, w.time);
  CHECK_EQ(time, base_time + peers);
  if (peers == 8) CHECK_EQ(peak, hold_peak);
  /* and from a peer that recomputes nothing: layer 3's recomputation goes */
  dnnmem__anneal_load(&w, sched, len0);
  nops = 0;
  c = w.cls_ids[w.cls_lo[b[3]]] == b[3] ? w.cls_ids[w.cls_lo[b[3]] + 1] : w.cls_ids[w.cls_lo[b[3]]];
  for (k = w.cls_lo[b[3]]; k < w.cls_lo[b[3]] + w.cls_len[b[3]]; k++)
    if (w.cls_ids[k] != c) nops += dnnmem__copy_pair(&w, c, w.cls_ids[k]);
  CHECK_EQ(nops, 1);
  CHECK_EQ(w.time, base_time);
  CHECK_EQ(w.count[b[3]], 1);
  printf("copy class: %d of 8 b's are peers; copied to all of them: time + %lld, peak %lld (hold a, recompute b: "
         "%lld)\n", peers, (long long)(time - base_time), (long long)peak, (long long)hold_peak);
}

/* Loose classes (dnnmem__remat_classes with loose set, as the arena
   answer's broadcast takes them): test_copy_layers' 8 layers, whose first
   and last layers differ from the others within CLASS_ROUNDS hops of the
   input x0 and of the graph's ends. The strict classes of a[3] and b[3]
   leave some of the 8 out; the loose ones are exactly the 8 a's and the 8
   b's (every member recounted against the ids, no other node in them),
   and the strict classes come back unchanged. */
static void test_loose_classes(void) {
  ref_remat_graph g;
  int32_t a[8], b[8], sched[64], i, k, strict_a, strict_b, lo_a, lo_b, loose_a, loose_b;
  dnnmem_remat_options oo;
  dnnmem__remat w;
  dnnmem_rng arng;
  int64_t peak, time;
  int32_t len = ref_remat_layers_graph(&g, a, b, 0xffu, sched);
  CHECK(recount(&g, sched, len, &peak, &time));
  remat_state(&w, &oo, &arng, &g, peak, 0, scratch_buf, sizeof(scratch_buf));
  strict_a = w.cls_len[a[3]];
  strict_b = w.cls_len[b[3]];
  lo_a = w.cls_lo[a[3]];
  lo_b = w.cls_lo[b[3]];
  CHECK(strict_a < 8 || strict_b < 8);
  dnnmem__remat_classes(&w, 1);
  loose_a = w.cls_len[a[3]];
  loose_b = w.cls_len[b[3]];
  for (i = 0; i < 8; i++) {
    CHECK_EQ(w.cls_len[a[i]], 8);
    CHECK_EQ(w.cls_lo[a[i]], w.cls_lo[a[3]]);
    CHECK_EQ(w.cls_hash[a[i]], w.cls_hash[a[3]]);
    CHECK_EQ(w.cls_len[b[i]], 8);
    CHECK_EQ(w.cls_lo[b[i]], w.cls_lo[b[3]]);
    CHECK_EQ(w.cls_hash[b[i]], w.cls_hash[b[3]]);
  }
  for (k = w.cls_lo[a[3]]; k < w.cls_lo[a[3]] + 8; k++) { /* the members are the a's */
    int found = 0;
    for (i = 0; i < 8; i++) found |= w.cls_ids[k] == a[i];
    CHECK(found);
  }
  for (k = w.cls_lo[b[3]]; k < w.cls_lo[b[3]] + 8; k++) {
    int found = 0;
    for (i = 0; i < 8; i++) found |= w.cls_ids[k] == b[i];
    CHECK(found);
  }
  dnnmem__remat_classes(&w, 0);
  CHECK_EQ(w.cls_len[a[3]], strict_a);
  CHECK_EQ(w.cls_len[b[3]], strict_b);
  CHECK_EQ(w.cls_lo[a[3]], lo_a);
  CHECK_EQ(w.cls_lo[b[3]], lo_b);
  for (i = 0; i < g.n; i++) CHECK_EQ(w.stamp[i], 0);
  printf("loose classes: a[3]'s class %d -> %d, b[3]'s %d -> %d\n", strict_a, loose_a, strict_b, loose_b);
}

/* A chain u -> s -> m -> t (sizes u, s, 16, 5; time 1; t an output) into
   g; returns m. */
static int32_t loose_chain(ref_remat_graph *g, int64_t u, int64_t s) {
  int32_t in[2] = {-1, -1}, m;
  in[0] = ref_remat_graph_node(g, u, 1, 0, NULL);
  in[0] = ref_remat_graph_node(g, s, 1, 0, in);
  m = in[0] = ref_remat_graph_node(g, 16, 1, 0, in);
  ref_remat_graph_node(g, 5, 1, 1, in);
  return m;
}

/* The members of v's class (dnnmem__remat_classes' cls_*) are exactly the
   count ids in ids. */
static void check_class(const dnnmem__remat *w, int32_t v, const int32_t *ids, int32_t count) {
  int32_t i, k;
  CHECK_EQ(w->cls_len[v], count);
  for (k = w->cls_lo[v]; k < w->cls_lo[v] + w->cls_len[v]; k++) {
    int found = 0;
    for (i = 0; i < count; i++) found |= w->cls_ids[k] == ids[i];
    CHECK(found);
  }
}

/* Where loose classes join and where they do not, on chains
   u -> s -> m -> t (loose_chain): P, 3 chains u 8, s 10; Q, 3 chains
   u 8, s 20; B: u 7, s 10; A: u 9, s 30. The m's are alike at round 0
   (own size and degrees); at round 1 (s seen) P's m's and B's m are
   alike, Q's m's apart, A's m alone; at round 2 (u seen) B's m is alone
   too. Strict: P's and Q's m's are classes of 3, A's and B's m alone.
   Loose: B's m was with P's and Q's m's at round 0 but with P's only at
   round 1, the latest round it met a class of 3: it joins P's (a latest
   round first, not the earliest). A's m met P's and Q's together only
   (round 0): it stays alone (no join where two classes meet). */
static void test_loose_classes_join(void) {
  ref_remat_graph g;
  int32_t p[4], q[3], ma, mb, i, sched[64];
  int64_t peak, time;
  dnnmem_remat_options oo;
  dnnmem__remat w;
  dnnmem_rng arng;
  ref_remat_graph_begin(&g);
  for (i = 0; i < 3; i++) p[i] = loose_chain(&g, 8, 10);
  for (i = 0; i < 3; i++) q[i] = loose_chain(&g, 8, 20);
  mb = p[3] = loose_chain(&g, 7, 10);
  ma = loose_chain(&g, 9, 30);
  for (i = 0; i < g.n; i++) sched[i] = i;
  CHECK(recount(&g, sched, g.n, &peak, &time));
  remat_state(&w, &oo, &arng, &g, peak, 0, scratch_buf, sizeof(scratch_buf));
  dnnmem__remat_classes(&w, 0);
  check_class(&w, p[0], p, 3);
  check_class(&w, q[0], q, 3);
  check_class(&w, mb, &mb, 1);
  check_class(&w, ma, &ma, 1);
  dnnmem__remat_classes(&w, 1);
  check_class(&w, p[0], p, 4); /* B's m joined P's */
  CHECK_EQ(w.cls_hash[mb], w.cls_hash[p[0]]);
  check_class(&w, q[0], q, 3);
  check_class(&w, ma, &ma, 1); /* A's m stays alone */
  printf("loose classes: B's m in a class of %d (P's 3 and it), A's m in a class of %d (alone)\n", w.cls_len[mb],
         w.cls_len[ma]);
  dnnmem__remat_classes(&w, 0);
}

/* The broadcast descent (dnnmem__remat_broadcast) on the private state:
   test_copy_layers' 8 layers, from a schedule where every layer but 3
   recomputes a (from its input x, held instead of a) and then b before
   its gb (time + 5 a layer) and layer 3 only b (+ 1), at the budget of
   that schedule or of "hold a, recompute b", the higher. The descent
   keeps a state only when it fits and is faster: the result recounts to
   the state's peak and time, fits, is never slower than the start nor
   faster than the proven time bound; copying layer 3's choice to the
   peers of its class (the least recomputing member) makes those layers
   hold a, so the time drops by 4 per peer at least, and here it ends at
   the proven bound (+ 7: the optimum). It does not show the descent doing
   what the polish cannot (on this graph a layer's switch is downhill
   alone); bert's arena answers do (tests/BENCHMARKS.md). */
static void test_broadcast_layers(void) {
  ref_remat_graph g;
  int32_t a[8], b[8], i, k, len = 0, seq[128], hold[64], hlen, peers;
  int64_t peak, time, base_time = 0, hold_peak, hold_time, start_peak, start_time, budget, polished;
  dnnmem_remat_options oo, ob;
  dnnmem_remat_bound_result tb;
  dnnmem__remat w;
  dnnmem_rng arng;
  size_t need = 0;
  hlen = ref_remat_layers_graph(&g, a, b, 0xffu, hold);
  for (i = 0; i < g.n; i++) base_time += g.time[i];
  CHECK(recount(&g, hold, hlen, &hold_peak, &hold_time));
  /* the start: hold's forward pass, then a and b again before each gb but layer 3's (b only) */
  for (k = 0; k < 1 + 3 * 8 + 1; k++) seq[len++] = hold[k]; /* x0, (a, b, c) x 8, grad */
  for (i = 7; i >= 0; i--) {
    int32_t gb = b[7] + 3 + 2 * (7 - i); /* ref_remat_layers_graph's backward ids: gb then ga per layer */
    if (i != 3) seq[len++] = a[i];
    seq[len++] = b[i];
    seq[len++] = gb;
    seq[len++] = gb + 1;
  }
  CHECK(recount(&g, seq, len, &start_peak, &start_time));
  CHECK_EQ(start_time, base_time + 7 * 5 + 1);
  budget = start_peak > hold_peak ? start_peak : hold_peak;
  remat_state(&w, &oo, &arng, &g, budget, 0, scratch_buf, sizeof(scratch_buf));
  CHECK(w.copy_on);
  peers = w.cls_len[a[3]];
  CHECK(peers >= DNNMEM__REMAT_COPY_CLASS);
  dnnmem__anneal_load(&w, seq, len);
  dnnmem__anneal_polish(&w); /* for the record: here the polish alone gets there too */
  polished = w.time;
  dnnmem__anneal_load(&w, seq, len);
  CHECK_EQ(w.time, start_time);
  dnnmem__remat_broadcast(&w);
  len = dnnmem__slots_to_seq(&w, w.slot_node, seq);
  CHECK(recount(&g, seq, len, &peak, &time));
  CHECK_EQ(peak, w.tree[1]);
  CHECK_EQ(time, w.time);
  CHECK(peak <= budget);
  CHECK(time <= start_time - 4 * (peers - 1));
  ob = options_for(budget, 0);
  CHECK_EQ(dnnmem_remat_time_bound_scratch_size(&g.p, &ob, &need), DNNMEM_OK);
  CHECK(need <= sizeof(scratch_buf));
  CHECK_EQ(dnnmem_remat_time_bound(&g.p, &ob, &tb, scratch_buf, need), DNNMEM_OK);
  CHECK(time - base_time >= tb.extra_time);
  CHECK_EQ(time - base_time, 7);
  CHECK_EQ(tb.extra_time, 7);
  printf("broadcast: %d peers of a[3]; start + %lld (peak %lld; polished alone + %lld), after + %lld (peak %lld), "
         "budget %lld, proven >= + %lld\n",
         peers, (long long)(start_time - base_time), (long long)start_peak, (long long)(polished - base_time),
         (long long)(time - base_time), (long long)peak, (long long)budget, (long long)tb.extra_time);
}

/* The repair and its exchange on the private annealing state, random
   graphs of at most 10 nodes at random budgets between the lower bound and
   the row order's peak. (1) From the row order, the greedy alone (as
   inside an exchange: w.tabu >= 0) and the repair with its exchange (each
   recomputation it added dropped in turn and the peak repaired again
   without it): the same states fit; the exchange's sequence recounts to
   the state's peak and time, is never slower than the greedy's, and never
   faster than the optimum (ref_remat_optimum). (2) An exchange over every
   recomputation keeps the peak within the budget, never raises the time,
   recounts, and stays at or above the optimum. */
static void test_repair_exchange(void) {
  uint64_t rng = 4242;
  int32_t trial, fits = 0, exchanged = 0, improved = 0, optimal_before = 0, optimal_after = 0;
  for (trial = 0; trial < 600; trial++) {
    ref_remat_graph g;
    dnnmem_remat_options o, oo;
    dnnmem_remat_bound_result lbr;
    dnnmem_remat_result row;
    dnnmem__remat w;
    dnnmem_rng arng;
    int32_t seq[4 * MAXN], len;
    int64_t budget, opt, peak, time, time_before, greedy_peak, greedy_time;
    if (trial % 2 == 0) ref_remat_random_graph(&g, 5 + (int32_t)ref_rand(&rng, 5), 0, &rng);
    else ref_remat_random_training(&g, 2 + (int32_t)ref_rand(&rng, 2), 2 + (int32_t)ref_rand(&rng, 2), &rng);
    o = options_for(0, 0);
    o.algo = DNNMEM_REMAT_ROW_ORDER;
    CHECK_EQ(dnnmem_remat_solve(&g.p, &o, NULL, seq, 4 * MAXN, &row, scratch_buf, sizeof(scratch_buf)),
             DNNMEM_OK);
    CHECK_EQ(dnnmem_remat_lower_bound(&g.p, &lbr), DNNMEM_OK);
    if (row.peak <= lbr.peak) continue;
    budget = lbr.peak + (int64_t)ref_rand(&rng, (uint32_t)(row.peak - lbr.peak));
    remat_state(&w, &oo, &arng, &g, budget, 0, scratch_buf, sizeof(scratch_buf));
    dnnmem__anneal_load(&w, w.order, g.n);
    w.tabu = g.n; /* (1) the greedy alone: as inside an exchange (no node is tabu) */
    dnnmem__anneal_repair(&w);
    w.tabu = -1;
    dnnmem__anneal_polish(&w);
    greedy_peak = w.tree[1];
    greedy_time = w.time;
    dnnmem__anneal_load(&w, w.order, g.n); /* then with its exchange */
    dnnmem__anneal_repair(&w);
    dnnmem__anneal_polish(&w);
    len = dnnmem__slots_to_seq(&w, w.slot_node, seq);
    CHECK(recount(&g, seq, len, &peak, &time));
    CHECK_EQ(peak, w.tree[1]);
    CHECK_EQ(time, w.time);
    CHECK_EQ(peak <= budget, greedy_peak <= budget);
    if (peak > budget) continue;
    fits++;
    CHECK(time <= greedy_time);
    exchanged += time < greedy_time;
    opt = ref_remat_optimum(&g.p, budget);
    CHECK(opt >= 0 && time >= opt);
    time_before = time;
    optimal_before += time == opt;
    dnnmem__anneal_exchange(&w, 40, NULL); /* (2) every recomputation */
    len = dnnmem__slots_to_seq(&w, w.slot_node, seq);
    CHECK(recount(&g, seq, len, &peak, &time));
    CHECK_EQ(peak, w.tree[1]);
    CHECK_EQ(time, w.time);
    CHECK(peak <= budget);
    CHECK(time <= time_before && time >= opt);
    improved += time < time_before;
    optimal_after += time == opt;
  }
  printf("repair: %d repaired states fit (the repair's exchange lowers %d), %d at the optimum; an exchange over "
         "every recomputation lowers %d more, then %d at the optimum\n",
         fits, exchanged, optimal_before, improved, optimal_after);
  /* recorded (re-record when the repair changes) */
  CHECK_EQ(fits, 156);
  CHECK_EQ(exchanged, 4);
  CHECK_EQ(optimal_before, 134);
}

/* The curve's knee rule (dnnmem__curve_knee) on given points (budgets
   falling, times rising), and the oracle test_remat_plan checks curves
   with (ref_curve_knee) on the same points; the first-fit rule count
   that test_remat_plan's oracle loops over. */
static void test_knee_rule(void) {
  dnnmem_remat_point pt[8];
  int64_t b1[] = {100, 90, 80, 70, 60}, t1[] = {10, 10, 10, 30, 50}; /* flat, then 2 per byte */
  int64_t t2[] = {10, 12, 14, 16, 18};                                /* a line: no knee */
  int64_t t3[] = {10, 11, 13, 16, 20};                                /* +1 each: the first */
  int64_t b4[] = {100, 90, 90, 80, 70}, t4[] = {10, 10, 10, 10, 40};  /* a repeated budget */
  int64_t t5[] = {10, 10, 30, -1, -1};                                /* nothing found below */
  int i;
#define KNEE(count, want)                               \
  do {                                                  \
    CHECK_EQ(dnnmem__curve_knee(pt, count), want);      \
    CHECK_EQ(ref_curve_knee(pt, count), want);          \
  } while (0)
  CHECK_EQ(DNNMEM__REMAT_FIT_RULES + DNNMEM__REMAT_FIT_LONG, REF_REMAT_FIT_RULES);
  CHECK_EQ(DNNMEM__REMAT_FIT_PLAIN, REF_REMAT_FIT_PLAIN);
  memset(pt, 0, sizeof(pt));
  for (i = 0; i < 5; i++) pt[i].budget = b1[i], pt[i].time = t1[i];
  KNEE(5, 2); /* slopes 0 0 2 2: budget 80 */
  for (i = 0; i < 5; i++) pt[i].time = t2[i];
  KNEE(5, -1);
  for (i = 0; i < 5; i++) pt[i].time = t3[i];
  KNEE(5, 1); /* slopes .1 .2 .3 .4: equal increases, the largest budget */
  for (i = 0; i < 5; i++) pt[i].budget = b4[i], pt[i].time = t4[i];
  KNEE(5, 3); /* 100 90 80 70: slopes 0 0 3 */
  for (i = 0; i < 5; i++) pt[i].budget = b1[i], pt[i].time = t5[i];
  KNEE(5, 1); /* slopes 0 2, then none */
  KNEE(2, -1);
  KNEE(1, -1);
#undef KNEE
}

int main(void) {
  RUN(test_simulator_vs_recount);
  RUN(test_recount_vs_literal);
  RUN(test_simulator_errors);
  RUN(test_blog_example);
  RUN(test_checkpoint_ladder);
  /* 100 random graphs of one question, the repair's (3.6 s of the 32-bit
     build's CPU): there test_repair_chain (test_remat_quality) pins its
     rounds, test_repair_exchange and test_anneal_record its results; the
     repair switched off (no rounds) fails all three there */
  RUN_LONG(test_repair);
  RUN(test_exhaustive_small);
  RUN(test_time_bound);
  RUN(test_progress_edges);
  RUN(test_too_many);
  RUN(test_group_order_example);
  RUN(test_group_order_vs_brute_force);
  RUN(test_bad_input);
  RUN(test_baselines);
  RUN(test_algo_names);
  RUN(test_log);
  RUN(test_extreme_temperatures);
  RUN(test_edges_and_stop);
  /* not in the 32-bit build (7 s of its CPU): run_tests.sh's same32 asks its
     question there (the 32-bit tool's remat of resnet18 at 60%, seed 3, with
     the time bound, equal to the 64-bit one's), test_anneal_record the
     solve's; the time bound's limit on a 32-bit SIZE_MAX (a mutant) fails
     both */
  RUN_LONG(test_real_graph);
  RUN(test_argument_checks);
  RUN(test_time_bound_zero_times);
  RUN(test_argument_edges);
  RUN(test_capacity_guard);
  RUN(test_anneal_record);
  RUN(test_time_bound_limits);
  RUN(test_anneal_record_small);
  RUN(test_anneal_ties);
  RUN(test_checkpoint_keep_edge);
  RUN(test_time_bound_linked);
  RUN(test_free_recompute_kept);
  RUN(test_trim_unread);
  RUN(test_copy_layers);
  RUN(test_copy_class);
  RUN(test_loose_classes);
  RUN(test_loose_classes_join);
  RUN(test_broadcast_layers);
  RUN(test_repair_exchange);
  RUN(test_knee_rule);
  return test_finish("test_remat");
}

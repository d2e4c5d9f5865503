/* fuzz/fuzz_remat.c: recompute (dnnmem_remat_*) on small random graphs.
   Invariants: every sequence the solver produces (annealing or a
   baseline) is valid and its reported peak and time equal the recount of
   tests/ref.h; the annealer is never worse than the row order when the
   budget allows it; a sequence too long for its capacity reports the
   capacity needed; random sequences are judged valid exactly when the
   recount says so; the time bound never exceeds the extra time of a valid
   sequence within the budget (the solver's, random ones); bad graphs
   (cycles, unknown ids, negative values) give error codes; short scratch
   gives DNNMEM_ERR_SCRATCH_TOO_SMALL; the answer's arena (dnnmem_remat_plan)
   has the definition's lifetimes, a valid plan and never beats the peak;
   short curves are monotone with every time above its proven bound; a
   stop after a few polls (a caller's time limit) still gives a valid
   answer whose arena is the public plan's, and a curve on a clock that
   ticks per call keeps the curve's invariants. */
#include <string.h>

#include "fuzz.h"
#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "tests/ref.h"

#define FN 12
#define FL (2 * FN + 4)

typedef struct fgraph {
  int32_t n, off[FN + 1], ids[FN * 3];
  int64_t size[FN], time[FN];
  uint8_t out[FN];
} fgraph;

static unsigned char scratch[1 << 21];

/* The arena of seq as the solve plans it (dnnmem_remat_arena_options). */
static int64_t plan_arena(const dnnmem_remat_problem *p, int64_t budget, const int32_t *seq, int32_t len) {
  static unsigned char plan_scratch[1 << 21];
  dnnmem_interval rec[FL];
  int64_t off[FL];
  dnnmem_plan_options po;
  dnnmem_remat_plan_result pr;
  size_t need = 0;
  dnnmem_remat_arena_options(budget, len, &po);
  FUZZ_CHECK(dnnmem_remat_plan_scratch_size(p, &po, seq, len, 0, &need) == DNNMEM_OK && need <= sizeof(plan_scratch));
  FUZZ_CHECK(dnnmem_remat_plan(p, &po, seq, len, 0, rec, off, &pr, plan_scratch, need) == DNNMEM_OK);
  return pr.arena;
}

/* the answer (sequence, result) is valid and its numbers are the recount's */
static void check_answer(const dnnmem_remat_problem *p, const int32_t *seq,
                         const dnnmem_remat_result *st) {
  int64_t peak, time;
  FUZZ_CHECK(ref_remat_recount(p, seq, st->length, &peak, &time));
  FUZZ_CHECK(peak == st->peak && time == st->time);
  FUZZ_CHECK(st->recomputations == st->length - p->graph->num_nodes);
}

/* a stop after stop_after polls; a clock that ends after clock_end calls */
static int32_t stop_polls, stop_after, clock_calls, clock_end;
static int stop_after_polls(void *user) {
  (void)user;
  return ++stop_polls >= stop_after;
}
static double clock_ticks(void *user) {
  (void)user;
  return (double)++clock_calls / (double)clock_end;
}

/* a short trade-off curve (np points): budgets from the base peak to the
   bound, times and bounds monotone, every found time above its bound */
static void check_curve(const dnnmem_remat_problem *p, const dnnmem_remat_options *co, dnnmem_rng *rng,
                        int32_t capacity, int32_t np, const dnnmem_remat_result *base, const int32_t *base_seq,
                        int64_t lb) {
  dnnmem_remat_point pts[3];
  dnnmem_remat_curve_result cr;
  size_t need = 0;
  int32_t j;
  FUZZ_CHECK(dnnmem_remat_curve_scratch_size(p, co, capacity, np, &need) == DNNMEM_OK);
  FUZZ_CHECK(need <= sizeof(scratch));
  FUZZ_CHECK(dnnmem_remat_curve(p, co, rng, capacity, pts, np, &cr, scratch, need) == DNNMEM_OK);
  FUZZ_CHECK(cr.base_peak == base->peak && cr.base_time == base->time && cr.lower_bound == lb);
  FUZZ_CHECK(pts[0].budget == base->peak && pts[np - 1].budget == (np > 1 ? lb : base->peak));
  FUZZ_CHECK(cr.knee >= -1 && cr.knee < np);
  for (j = 0; j < np; j++) {
    FUZZ_CHECK(pts[j].time < 0 || (pts[j].time >= pts[j].time_lower_bound && pts[j].peak <= pts[j].budget));
    if (j > 0)
      FUZZ_CHECK(pts[j].budget <= pts[j - 1].budget && pts[j].time_lower_bound >= pts[j - 1].time_lower_bound &&
                 (pts[j].time < 0 || (pts[j - 1].time >= 0 && pts[j].time >= pts[j - 1].time)));
    /* arenas fit and never grow as the budget falls (none: peak_only, or
       a budget of 0, which is no budget) */
    if (pts[j].time >= 0 && (co->peak_only || pts[j].budget == 0)) FUZZ_CHECK(pts[j].arena == -1);
    if (pts[j].time >= 0 && !co->peak_only && pts[j].budget > 0)
      FUZZ_CHECK(pts[j].arena >= pts[j].peak && pts[j].arena <= pts[j].budget &&
                 (j == 0 || pts[j].arena <= pts[j - 1].arena));
  }
  /* the row order fits the first budget (its peak; by the arena: when its plan fits) */
  if (co->peak_only || plan_arena(p, base->peak, base_seq, base->length) <= base->peak)
    FUZZ_CHECK(pts[0].time >= 0 && pts[0].time <= base->time);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  dnnmem_remat_bound_result tb;
  fuzz_input in;
  fgraph g;
  dnnmem_graph graph;
  dnnmem_remat_problem p;
  dnnmem_remat_options o, baseline, solved;
  dnnmem_remat_result st, base;
  dnnmem_rng rng;
  dnnmem_result r;
  int32_t v, k, seq[FL], capacity, base_seq[FL], flags;
  int64_t peak, time, lb;
  size_t need;
  int mode, bad;
  in.data = data;
  in.size = size;
  in.pos = 0;
  memset(&g, 0, sizeof(g));
  mode = (int)fuzz_u8(&in);
  bad = (mode & 7) == 7; /* sometimes: unchecked ids, negative values */
  g.n = 1 + (int32_t)(fuzz_u8(&in) % FN);
  for (v = 0; v < g.n; v++) {
    int32_t deg = (int32_t)(fuzz_u8(&in) % 3);
    g.off[v + 1] = g.off[v];
    if (v == 0) deg = 0;
    for (k = 0; k < deg; k++) {
      int32_t u = (int32_t)fuzz_u8(&in);
      u = bad ? u % (FN + 2) : u % v;
      g.ids[g.off[v + 1]++] = u;
    }
    g.size[v] = (int64_t)(fuzz_u8(&in) % 40);
    g.time[v] = (int64_t)(fuzz_u8(&in) % 10);
    if (bad && fuzz_u8(&in) == 0) g.size[v] = -1;
    g.out[v] = (uint8_t)(fuzz_u8(&in) % 5 == 0);
  }
  graph.num_nodes = g.n;
  graph.in_offsets = g.off;
  graph.in_ids = g.ids;
  p.graph = &graph;
  p.sizes = g.size;
  p.times = g.time;
  p.is_output = g.out;
  capacity = g.n + (int32_t)(fuzz_u8(&in) % (FL - g.n + 1));

  memset(&o, 0, sizeof(o));
  o.iterations = 200 + (int64_t)(fuzz_u8(&in) % 8) * 250;
  flags = (int32_t)(fuzz_u8(&in) % 4);
  o.reorder_only = flags & 1;
  o.no_contraction = (flags & 2) != 0;
  o.peak_only = (mode & 128) != 0;
  o.max_group_size = 1 + (int32_t)(fuzz_u8(&in) % 8);
  dnnmem_rng_seed(&rng, fuzz_u16(&in));
  memset(&baseline, 0, sizeof(baseline));
  baseline.algo = DNNMEM_REMAT_ROW_ORDER;

  r = dnnmem_remat_solve(&p, &baseline, NULL, base_seq, capacity, &base, scratch,
                         sizeof(scratch));
  if (r != DNNMEM_OK) {
    /* only bad graphs fail: unknown ids, cycles (self or backward edges), negatives */
    FUZZ_CHECK(bad);
    FUZZ_CHECK(r == DNNMEM_ERR_ID_RANGE || r == DNNMEM_ERR_CYCLE || r == DNNMEM_ERR_NEGATIVE);
    r = dnnmem_remat_solve(&p, &o, &rng, seq, capacity, &st, scratch, sizeof(scratch));
    FUZZ_CHECK(r == DNNMEM_ERR_ID_RANGE || r == DNNMEM_ERR_CYCLE || r == DNNMEM_ERR_NEGATIVE);
    o.budget = 100;
    r = dnnmem_remat_time_bound(&p, &o, &tb, scratch, sizeof(scratch));
    lb = tb.extra_time;
    FUZZ_CHECK(r == DNNMEM_ERR_ID_RANGE || r == DNNMEM_ERR_CYCLE || r == DNNMEM_ERR_NEGATIVE);
    return 0;
  }
  check_answer(&p, base_seq, &base);
  FUZZ_CHECK(base.length == g.n);
  if (!bad) /* topologically numbered: the row order is the identity */
    for (v = 0; v < g.n; v++) FUZZ_CHECK(base_seq[v] == v);
  FUZZ_CHECK(dnnmem_remat_lower_bound(&p, &tb) == DNNMEM_OK);
  lb = tb.peak;
  FUZZ_CHECK(lb <= base.peak);

  /* Chen's checkpointing: valid when it fits, else the length it needs */
  baseline.algo = DNNMEM_REMAT_CHECKPOINT;
  r = dnnmem_remat_solve(&p, &baseline, NULL, seq, capacity, &st, scratch, sizeof(scratch));
  FUZZ_CHECK(r == DNNMEM_OK || r == DNNMEM_ERR_OUTPUT_TOO_SMALL);
  if (r == DNNMEM_OK) {
    check_answer(&p, seq, &st);
    FUZZ_CHECK(st.peak >= lb);
  } else {
    FUZZ_CHECK(st.length > capacity);
  }

  /* the annealer, at a budget between the lower bound and above the base
     (0: none, minimise the peak) */
  {
    int64_t span = base.peak - lb + 2;
    o.budget = lb - 1 + (int64_t)(fuzz_u8(&in) % (uint32_t)(span + 2));
    if (o.budget < 0) o.budget = 0;
  }
  FUZZ_CHECK(dnnmem_remat_solve_scratch_size(&p, &o, capacity, &need) == DNNMEM_OK);
  FUZZ_CHECK(need <= sizeof(scratch));
  if (mode & 8) { /* half the size: too small while the arena rounds are on; the size is asked for any
                     budget, so without one (rounds off) half may do */
    r = dnnmem_remat_solve(&p, &o, &rng, seq, capacity, &st, scratch + 1, need / 2);
    if (o.budget > 0 && !o.peak_only) FUZZ_CHECK(r == DNNMEM_ERR_SCRATCH_TOO_SMALL);
    else FUZZ_CHECK(r == DNNMEM_ERR_SCRATCH_TOO_SMALL || r == DNNMEM_OK);
  }
  r = dnnmem_remat_solve(&p, &o, &rng, seq, capacity, &st, scratch + (mode & 7), need);
  FUZZ_CHECK(r == DNNMEM_OK || r == DNNMEM_ERR_INFEASIBLE);
  FUZZ_CHECK(st.length >= g.n && st.length <= capacity);
  check_answer(&p, seq, &st);
  FUZZ_CHECK(st.peak >= lb);
  if (o.budget > 0 && o.budget < lb) FUZZ_CHECK(r == DNNMEM_ERR_INFEASIBLE);
  if (o.budget == 0 || o.peak_only) {
    FUZZ_CHECK(st.arena == -1);
    FUZZ_CHECK((r == DNNMEM_OK) == (o.budget == 0 || st.peak <= o.budget));
    if (base.peak <= o.budget) FUZZ_CHECK(r == DNNMEM_OK && st.time <= base.time);
  } else { /* the budget bounds the arena: the public plan's, also the row order's */
    int64_t base_arena = plan_arena(&p, o.budget, base_seq, base.length);
    FUZZ_CHECK(st.arena == plan_arena(&p, o.budget, seq, st.length));
    FUZZ_CHECK(st.arena >= st.peak);
    FUZZ_CHECK((r == DNNMEM_OK) == (st.arena <= o.budget));
    if (base_arena <= o.budget) FUZZ_CHECK(r == DNNMEM_OK && st.time <= base.time);
  }
  if (o.budget == 0) FUZZ_CHECK(st.peak <= base.peak);
  if (o.reorder_only) FUZZ_CHECK(st.length == g.n);
  solved = o;

  /* the answer's own arena: one record per step with the definition's
     lifetime (ref_remat_lifetimes), their load the peak, a valid plan
     (the recount's arena) never below it; short scratch is refused */
  {
    dnnmem_interval rec[FL];
    int64_t off[FL], upper[FL];
    dnnmem_intervals ip;
    dnnmem_remat_plan_result pr;
    int32_t j;
    int64_t align = (mode & 16) ? 8 : 0;
    FUZZ_CHECK(dnnmem_remat_plan_scratch_size(&p, NULL, seq, st.length, align, &need) == DNNMEM_OK);
    FUZZ_CHECK(need <= sizeof(scratch));
    if (mode & 32)
      FUZZ_CHECK(dnnmem_remat_plan(&p, NULL, seq, st.length, align, rec, off, &pr, scratch + 1, need / 2) ==
                 DNNMEM_ERR_SCRATCH_TOO_SMALL);
    FUZZ_CHECK(dnnmem_remat_plan(&p, NULL, seq, st.length, align, rec, off, &pr, scratch + (mode & 7), need) ==
               DNNMEM_OK);
    ref_remat_lifetimes(&p, seq, st.length, upper);
    for (j = 0; j < st.length; j++)
      FUZZ_CHECK(rec[j].lower == j && rec[j].upper == upper[j] && rec[j].size == g.size[seq[j]]);
    ip.records = rec;
    ip.count = st.length;
    ip.alignment = align;
    FUZZ_CHECK(ref_plan_recount(&ip, off) == pr.arena);
    FUZZ_CHECK(pr.peak == st.peak && pr.time == st.time && pr.arena >= st.peak);
    /* the records' load is the peak; the plan's lower bound is at least
       the load and may exceed it (a proven arena bound, e.g. 74 over a
       load of 73 on one generated input) */
    FUZZ_CHECK(pr.plan.lower_bound >= st.peak);
    FUZZ_CHECK(pr.optimal == (pr.arena == pr.plan.lower_bound));
  }

  /* a short trade-off curve */
  if (mode & 64) {
    dnnmem_remat_options co = o;
    int32_t np = 1 + (int32_t)(fuzz_u8(&in) % 3);
    co.iterations = 200;
    co.spacing = (int32_t)(fuzz_u8(&in) & 1);
    check_curve(&p, &co, &rng, capacity, np, &base, base_seq, lb);
  }

  /* the time bound at the annealer's budget */
  {
    int64_t extra;
    int32_t cut;
    o.bound_cuts = (int32_t)(fuzz_u8(&in) % (FN + 1));
    r = dnnmem_remat_time_bound(&p, &o, &tb, scratch, sizeof(scratch));
    extra = tb.extra_time;
    cut = tb.cut;
    if (o.budget != 0 && o.budget < lb) { /* 0: no budget */
      FUZZ_CHECK(r == DNNMEM_ERR_INFEASIBLE);
    } else {
      FUZZ_CHECK(r == DNNMEM_OK && extra >= 0 && cut >= -1 && cut < g.n);
      if (st.peak <= o.budget) FUZZ_CHECK(extra <= st.time - base.time);
      if (o.budget == 0 || base.peak <= o.budget) FUZZ_CHECK(extra == 0);
    }
    o.bound_cuts = 0;
  }

  /* random sequences: the simulator's verdict equals the recount's */
  {
    int32_t rl = (int32_t)(fuzz_u8(&in) % FL), j;
    int ok;
    for (j = 0; j < rl; j++) seq[j] = (int32_t)(fuzz_u8(&in) % (uint32_t)g.n);
    if (fuzz_u8(&in) & 1) { /* mostly valid: the row order with insertions */
      rl = 0;
      for (v = 0; v < g.n; v++) {
        if (v > 0 && g.off[v] < g.off[v + 1] && (fuzz_u8(&in) & 1)) seq[rl++] = g.ids[g.off[v]];
        seq[rl++] = v;
      }
    }
    ok = ref_remat_recount(&p, seq, rl, &peak, &time);
    r = dnnmem_remat_simulate(&p, seq, rl, NULL, &st, scratch, sizeof(scratch));
    FUZZ_CHECK((r == DNNMEM_OK) == ok);
    if (ok) FUZZ_CHECK(st.peak == peak && st.time == time);
    if (ok) { /* at its own peak as the budget, a valid sequence respects the bound */
      int64_t extra;
      o.budget = peak;
      FUZZ_CHECK(dnnmem_remat_time_bound(&p, &o, &tb, scratch, sizeof(scratch)) ==
                 DNNMEM_OK);
      extra = tb.extra_time;
      FUZZ_CHECK(extra <= time - base.time);
    }
  }

  /* exact group order for the last node and some others */
  {
    int32_t members[DNNMEM_REMAT_MAX_GROUP], count = 0, order[64], olen;
    dnnmem_remat_result gres;
    for (v = 0; v < g.n - 1 && count < 7; v++)
      if (fuzz_u8(&in) & 1) members[count++] = v;
    members[count++] = g.n - 1;
    FUZZ_CHECK(dnnmem_remat_group_order_scratch_size(&p, count, 4096, 64, &need) ==
               DNNMEM_OK);
    FUZZ_CHECK(need <= sizeof(scratch));
    r = dnnmem_remat_group_order(&p, members, count, 4096, order, 64, &gres, scratch, need);
    FUZZ_CHECK(r == DNNMEM_OK);
    olen = gres.length;
    FUZZ_CHECK(olen >= 1 && order[olen - 1] == g.n - 1 && gres.peak >= g.size[g.n - 1]);
    for (k = 0; k < olen; k++) {
      int32_t j, inside = 0;
      for (j = 0; j < count; j++) inside |= members[j] == order[k];
      FUZZ_CHECK(inside);
    }
    if (olen > 1) { /* one step short: the length needed */
      r = dnnmem_remat_group_order(&p, members, count, 4096, order, olen - 1, &gres, scratch, need);
      FUZZ_CHECK(r == DNNMEM_ERR_OUTPUT_TOO_SMALL && gres.length == olen);
    }
  }

  /* the annealer's solve again, stopped after a few polls (a caller's
     time limit): a valid answer, and its arena the public plan's (a plan
     the stop cut is never the answer's); then a curve on a clock of a few
     ticks (its runs stopped at their shares' ends) */
  {
    int32_t after = (int32_t)fuzz_u8(&in);
    if (after > 0) {
      solved.stop = stop_after_polls;
      stop_polls = 0, stop_after = after;
      r = dnnmem_remat_solve(&p, &solved, &rng, seq, capacity, &st, scratch, sizeof(scratch));
      FUZZ_CHECK(r == DNNMEM_OK || r == DNNMEM_ERR_INFEASIBLE);
      FUZZ_CHECK(st.length >= g.n && st.length <= capacity);
      check_answer(&p, seq, &st);
      if (solved.budget > 0 && !solved.peak_only) {
        FUZZ_CHECK(st.arena == plan_arena(&p, solved.budget, seq, st.length));
        FUZZ_CHECK((r == DNNMEM_OK) == (st.arena <= solved.budget));
      } else {
        FUZZ_CHECK(st.arena == -1);
        FUZZ_CHECK((r == DNNMEM_OK) == (solved.budget == 0 || st.peak <= solved.budget));
      }
      solved.stop = NULL;
      solved.iterations = INT64_C(1) << 40; /* the clock ends each run */
      solved.progress = clock_ticks;
      clock_calls = 0, clock_end = after;
      check_curve(&p, &solved, &rng, capacity, 1 + after % 3, &base, base_seq, lb);
    }
  }
  return 0;
}

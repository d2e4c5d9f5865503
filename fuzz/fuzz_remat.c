/* fuzz/fuzz_remat.c: recompute annealing on small random graphs.
   Invariants: every sequence the solver or a baseline produces is valid and
   its reported peak and time equal an independent recount; the solver is
   never worse than the row order when the budget allows it; random
   sequences are judged valid exactly when the recount says so; the time
   bound never exceeds the extra time of a valid sequence within the
   budget (the solver's, random ones); bad graphs
   (cycles, unknown ids, negative values) give error codes; short scratch
   gives DNNMEM_ERR_SCRATCH_TOO_SMALL. */
#include <string.h>

#include "fuzz.h"
#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"

#define FN 12
#define FL (2 * FN + 4)

typedef struct fgraph {
  int32_t n, off[FN + 1], ids[FN * 3];
  int64_t size[FN], time[FN];
  uint8_t out[FN];
} fgraph;

/* validity, peak and time from the definition (independent of the header) */
static int recount(const fgraph *g, const int32_t *seq, int32_t len, int64_t *peak, int64_t *time) {
  int32_t i, j, k, v, q;
  int seen[FN] = {0};
  int64_t best = 0, t = 0;
  for (j = 0; j < len; j++) {
    v = seq[j];
    if (v < 0 || v >= g->n) return 0;
    if (g->off[v] == g->off[v + 1] && seen[v]) return 0;
    for (k = g->off[v]; k < g->off[v + 1]; k++)
      if (!seen[g->ids[k]]) return 0;
    seen[v] = 1;
    t += g->time[v];
  }
  for (v = 0; v < g->n; v++)
    if (!seen[v]) return 0;
  for (j = 0; j < len; j++) {
    int64_t mem = 0;
    for (i = 0; i <= j; i++) {
      int held = i == j, last = 1;
      v = seq[i];
      for (q = i + 1; q < len; q++) last &= seq[q] != v;
      if (last && g->out[v]) held = 1;
      for (q = j; q < len && !held; q++) {
        int uses = 0, bound = -1, r;
        if (q == i) continue;
        for (k = g->off[seq[q]]; k < g->off[seq[q] + 1]; k++) uses |= g->ids[k] == v;
        if (!uses) continue;
        for (r = 0; r < q; r++)
          if (seq[r] == v) bound = r;
        held = bound == i;
      }
      if (held) mem += g->size[v];
    }
    if (mem > best) best = mem;
  }
  *peak = best;
  *time = t;
  return 1;
}

static unsigned char scratch[1 << 21];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in;
  fgraph g;
  dnnmem_remat_problem p;
  dnnmem_remat_options o;
  dnnmem_remat_stats st, base;
  dnnmem_rng rng;
  dnnmem_result r;
  int32_t v, k, seq[FL], len, max_length, base_seq[FL], base_len;
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
  p.graph.num_nodes = g.n;
  p.graph.in_offsets = g.off;
  p.graph.in_ids = g.ids;
  p.sizes = g.size;
  p.times = g.time;
  p.is_output = g.out;
  max_length = g.n + (int32_t)(fuzz_u8(&in) % (FL - g.n + 1));

  memset(&o, 0, sizeof(o));
  o.iterations = 200 + (int64_t)(fuzz_u8(&in) % 8) * 250;
  o.flags = (int32_t)(fuzz_u8(&in) % 4);
  o.max_group_size = 1 + (int32_t)(fuzz_u8(&in) % 8);
  dnnmem_rng_seed(&rng, fuzz_u16(&in));

  r = dnnmem_remat_baseline(&p, DNNMEM_REMAT_BASELINE_ROW_ORDER, max_length, base_seq, &base_len,
                            &base, scratch, sizeof(scratch));
  if (r != DNNMEM_OK) {
    /* only bad graphs fail: unknown ids, cycles (self or backward edges), negatives */
    FUZZ_CHECK(bad);
    FUZZ_CHECK(r == DNNMEM_ERR_ID_RANGE || r == DNNMEM_ERR_CYCLE || r == DNNMEM_ERR_NEGATIVE);
    r = dnnmem_remat_solve(&p, &o, &rng, max_length, seq, &len, &st, scratch, sizeof(scratch));
    FUZZ_CHECK(r == DNNMEM_ERR_ID_RANGE || r == DNNMEM_ERR_CYCLE || r == DNNMEM_ERR_NEGATIVE);
    r = dnnmem_remat_time_bound(&p, 100, 0, &lb, NULL, scratch, sizeof(scratch));
    FUZZ_CHECK(r == DNNMEM_ERR_ID_RANGE || r == DNNMEM_ERR_CYCLE || r == DNNMEM_ERR_NEGATIVE);
    return 0;
  }
  FUZZ_CHECK(recount(&g, base_seq, base_len, &peak, &time));
  if (!bad) /* topologically numbered: the row order is the identity */
    for (v = 0; v < g.n; v++) FUZZ_CHECK(base_seq[v] == v);
  FUZZ_CHECK(peak == base.peak && time == base.time);
  FUZZ_CHECK(dnnmem_remat_lower_bound(&p, &lb) == DNNMEM_OK);
  FUZZ_CHECK(lb <= base.peak);

  /* Chen's checkpointing: valid when it fits */
  r = dnnmem_remat_baseline(&p, DNNMEM_REMAT_BASELINE_CHECKPOINT, max_length, seq, &len, &st,
                            scratch, sizeof(scratch));
  FUZZ_CHECK(r == DNNMEM_OK || r == DNNMEM_ERR_OUTPUT_TOO_SMALL);
  if (r == DNNMEM_OK) {
    FUZZ_CHECK(recount(&g, seq, len, &peak, &time));
    FUZZ_CHECK(peak == st.peak && time == st.time && st.peak >= lb);
  }

  /* the solver, at a budget between the lower bound and above the base */
  {
    int64_t span = base.peak - lb + 2;
    o.budget = lb - 1 + (int64_t)(fuzz_u8(&in) % (uint32_t)(span + 2));
    if (o.budget < 0) o.budget = 0;
  }
  FUZZ_CHECK(dnnmem_remat_solve_scratch_size_ex(g.n, g.off[g.n], max_length, o.max_group_size,
                                                &need) == DNNMEM_OK);
  FUZZ_CHECK(need <= sizeof(scratch));
  if (mode & 8) {
    r = dnnmem_remat_solve(&p, &o, &rng, max_length, seq, &len, &st, scratch + 1, need / 2);
    FUZZ_CHECK(r == DNNMEM_ERR_SCRATCH_TOO_SMALL);
  }
  r = dnnmem_remat_solve(&p, &o, &rng, max_length, seq, &len, &st, scratch + (mode & 7), need);
  FUZZ_CHECK(r == DNNMEM_OK || r == DNNMEM_ERR_INFEASIBLE);
  FUZZ_CHECK(len >= g.n && len <= max_length);
  FUZZ_CHECK(recount(&g, seq, len, &peak, &time));
  FUZZ_CHECK(peak == st.peak && time == st.time);
  FUZZ_CHECK((r == DNNMEM_OK) == (st.peak <= o.budget));
  FUZZ_CHECK(st.peak >= lb);
  if (o.budget < lb) FUZZ_CHECK(r == DNNMEM_ERR_INFEASIBLE);
  if (base.peak <= o.budget) FUZZ_CHECK(r == DNNMEM_OK && st.time <= base.time);
  if (o.flags & DNNMEM_REMAT_NO_RECOMPUTE) FUZZ_CHECK(len == g.n);

  /* the time bound at the solver's budget */
  {
    int64_t extra;
    int32_t cut;
    r = dnnmem_remat_time_bound(&p, o.budget, (int32_t)(fuzz_u8(&in) % (FN + 1)), &extra, &cut,
                                scratch, sizeof(scratch));
    if (o.budget < lb) {
      FUZZ_CHECK(r == DNNMEM_ERR_INFEASIBLE);
    } else {
      FUZZ_CHECK(r == DNNMEM_OK && extra >= 0 && cut >= -1 && cut < g.n);
      if (st.peak <= o.budget) FUZZ_CHECK(extra <= st.time - base.time);
      if (base.peak <= o.budget) FUZZ_CHECK(extra == 0);
    }
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
    ok = recount(&g, seq, rl, &peak, &time);
    r = dnnmem_remat_simulate(&p, seq, rl, &st, NULL, scratch, sizeof(scratch));
    FUZZ_CHECK((r == DNNMEM_OK) == ok);
    if (ok) FUZZ_CHECK(st.peak == peak && st.time == time);
    if (ok) { /* at its own peak as the budget, a valid sequence respects the bound */
      int64_t extra;
      FUZZ_CHECK(dnnmem_remat_time_bound(&p, peak, 0, &extra, NULL, scratch, sizeof(scratch)) ==
                 DNNMEM_OK);
      FUZZ_CHECK(extra <= time - base.time);
    }
  }

  /* exact group order for the last node and some others */
  {
    int32_t members[DNNMEM_REMAT_MAX_GROUP], count = 0, order[64], olen;
    int64_t gpeak;
    for (v = 0; v < g.n - 1 && count < 7; v++)
      if (fuzz_u8(&in) & 1) members[count++] = v;
    members[count++] = g.n - 1;
    r = dnnmem_remat_group_order(&p, members, count, 4096, order, 64, &olen, &gpeak, scratch,
                                 sizeof(scratch));
    FUZZ_CHECK(r == DNNMEM_OK);
    FUZZ_CHECK(olen >= 1 && order[olen - 1] == g.n - 1 && gpeak >= g.size[g.n - 1]);
    for (k = 0; k < olen; k++) {
      int32_t j, inside = 0;
      for (j = 0; j < count; j++) inside |= members[j] == order[k];
      FUZZ_CHECK(inside);
    }
  }
  return 0;
}

/* Tests of greedy by size and greedy by breadth (dnnmem_plan_* with algo
   greedy-size, greedy-breadth): the library's plan equals, offset for
   offset, the plain rule of tests/ref.h (ref_plan_greedy_size,
   ref_plan_greedy_breadth: breadths by a scan of all steps, neighbours by
   a scan of all records and a merge sort) on random instances with ties
   in size and offset, zero sizes, alignments and fixed records, where
   every tie-break shows; every plan is also recounted. At scale (up to
   3,000 records over thousands of time steps, so the library's time tree
   is deep and its inner nodes' segments long), the same oracles (breadth
   on a third and the overlapping copies) on random lifetimes of every
   length and on a random training-like graph repeated in time (high
   overlap), with and without zero sizes, alignments and fixed records.
   sorted-height and pathcover likewise against the height rule
   (ref_plan_sorted_height, ref_plan_pathcover: tops by a scan of the
   placed records). */
#include <stdlib.h>
#include <string.h>

#define STB_DS_IMPLEMENTATION
#include <stb/stb_ds.h>
#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "../examples/dnnmem_files.h"
#include "ref.h"
#include "test.h"

/* 1 when greedy by size's plan of p (and, with breadth, greedy by
   breadth's), sorted-height's or pathcover's differs from its rule's
   (offset for offset, arena, recount); the first five differences are
   printed. */
static int differs_from_rule(const dnnmem_intervals *p, const char *what, int32_t trial, int32_t shown, int breadth) {
  int64_t *off = (int64_t *)calloc((size_t)p->count + 1, sizeof(int64_t));
  int64_t *want = (int64_t *)calloc((size_t)p->count + 1, sizeof(int64_t));
  int32_t n = p->count, i = ref_plan_first_difference(p, DNNMEM_PLAN_GREEDY_SIZE, ref_plan_greedy_size, off, want);
  const char *algo = "greedy-size";
  if (i == -1 && breadth) {
    i = ref_plan_first_difference(p, DNNMEM_PLAN_GREEDY_BREADTH, ref_plan_greedy_breadth, off, want);
    algo = "greedy-breadth";
  }
  if (i == -1) { /* the height rule's strategies */
    i = ref_plan_first_difference(p, DNNMEM_PLAN_SORTED_HEIGHT, ref_plan_sorted_height, off, want);
    algo = "sorted-height";
  }
  if (i == -1) {
    i = ref_plan_first_difference(p, DNNMEM_PLAN_PATHCOVER, ref_plan_pathcover, off, want);
    algo = "pathcover";
  }
  if (i != -1 && shown < 5)
    fprintf(stderr, "%s %s %d: n=%d record %d at %lld, the rule says %lld\n", algo, what, trial, n, i,
            (long long)(i >= 0 && i < n ? off[i] : -1), (long long)(i >= 0 && i < n ? want[i] : -1));
  free(off), free(want);
  return i != -1;
}

static void test_same_plans_as_the_plain_rule(void) {
  int32_t bad = 0;
  FOR_TRIALS(rng, 2024, trial, 3000) {
    dnnmem_interval r[64];
    dnnmem_intervals p;
    ref_plan_random_trial(&rng, trial, r, &p, 0, 1, 0, 5, 4); /* unit 1, a few fixed records apart */
    bad += differs_from_rule(&p, "trial", trial, bad, 1);
  }
  CHECK_EQ(bad, 0);
}

/* One record: a lifetime from lo of len steps, a size (0 when zeros and
   one draw in 12 says so; from few values, so ties abound). */
static void scale_record(dnnmem_rng *rng, dnnmem_interval *r, int64_t lo, int64_t len, int zeros, int aligned) {
  memset(r, 0, sizeof *r);
  r->lower = lo;
  r->upper = lo + (len > 0 ? len : 1);
  r->size = zeros && dnnmem_rng_below(rng, 12) == 0 ? 0 : (int64_t)(1 + dnnmem_rng_below(rng, 6)) << dnnmem_rng_below(rng, 8);
  if (aligned && dnnmem_rng_below(rng, 4) == 0) r->alignment = 64;
}

static void test_same_plans_at_scale(void) {
  int32_t bad = 0;
  FOR_TRIALS(rng, 77, trial, 24) {
    int32_t n = 200 + (int32_t)dnnmem_rng_below(&rng, trial < 20 ? 1200 : 2800), i, fixed = 0;
    int zeros = trial % 3 == 1, aligned = trial % 4 == 2;
    dnnmem_interval *r = (dnnmem_interval *)calloc((size_t)n, sizeof *r);
    dnnmem_intervals p;
    if (trial % 2 == 0) { /* lifetimes of every length over a long time line (a short one: dense) */
      int64_t span = trial % 8 == 0 ? 8 + trial : 4 * (int64_t)n;
      for (i = 0; i < n; i++) {
        uint32_t roll = dnnmem_rng_below(&rng, 100);
        int64_t len = roll < 70 ? 1 + dnnmem_rng_below(&rng, 4) : roll < 95 ? 5 + dnnmem_rng_below(&rng, 120)
                                                                             : 200 + dnnmem_rng_below(&rng, (uint32_t)span);
        scale_record(&rng, &r[i], dnnmem_rng_below(&rng, (uint32_t)span), len, zeros, aligned);
      }
    } else { /* a training-like graph (forward results live until their backward step), repeated in time */
      int32_t m = 40 + (int32_t)dnnmem_rng_below(&rng, 160);
      for (i = 0; i < n; i++) {
        int32_t k = i % m, copy = i / m;
        int64_t base = (int64_t)copy * 2 * m, lo = k, len;
        uint32_t roll = dnnmem_rng_below(&rng, 10);
        if (copy > 0) { /* the same graph, sizes included */
          r[i] = r[k];
          r[i].lower += base;
          r[i].upper += base;
          continue;
        }
        len = roll < 5 ? (int64_t)(2 * m - 2 * k) : roll < 8 ? (int64_t)(1 + dnnmem_rng_below(&rng, 3)) : (int64_t)(1 + dnnmem_rng_below(&rng, (uint32_t)m));
        scale_record(&rng, &r[i], lo, len, zeros, aligned);
        if (trial % 4 == 3) r[i].upper += dnnmem_rng_below(&rng, 2) * m; /* copies overlapping in time */
      }
    }
    for (i = 0; trial % 3 == 2 && i < n && fixed < 24; i++) /* fixed records in their own 64-byte slots */
      if (dnnmem_rng_below(&rng, 40) == 0 && r[i].size <= 64) {
        r[i].flags |= DNNMEM_INTERVAL_FIXED;
        r[i].fixed_offset = 64 * (int64_t)(fixed++) * (trial % 6 == 2 ? 1 : 97);
      }
    p.records = r, p.count = n, p.alignment = trial % 5 == 4 ? 16 : 0;
    bad += differs_from_rule(&p, "scale trial", trial, bad, trial % 3 == 0 || trial % 4 == 3);
    free(r);
  }
  CHECK_EQ(bad, 0);
}

/* Greedy-breadth's sweep (no zero sizes) far apart in time: clusters of
   short records thousands of steps apart (moves past its words of marks:
   a time-tree query at the step instead) and long records of a few bytes
   whose widest step is far from an end (their other neighbours past its
   words or records: the time tree's query for the record). */
static void test_breadth_sweep_far_apart(void) {
  int32_t bad = 0;
  FOR_TRIALS(rng, 31, trial, 4) {
    int32_t n = 1800 + (int32_t)dnnmem_rng_below(&rng, 600), i;
    dnnmem_interval *r = (dnnmem_interval *)calloc((size_t)n, sizeof *r);
    dnnmem_intervals p;
    for (i = 0; i < n; i++) {
      int64_t lo = (int64_t)dnnmem_rng_below(&rng, 4) * 5000 + dnnmem_rng_below(&rng, 1500);
      scale_record(&rng, &r[i], lo, 1 + dnnmem_rng_below(&rng, 40), 0, trial % 2);
      if (dnnmem_rng_below(&rng, 10) == 0) { /* long and small */
        r[i].lower = dnnmem_rng_below(&rng, 3000);
        r[i].upper = r[i].lower + 3000 + dnnmem_rng_below(&rng, 15000);
        r[i].size = 1 + dnnmem_rng_below(&rng, 3);
      }
    }
    p.records = r, p.count = n, p.alignment = 0;
    bad += differs_from_rule(&p, "far apart", trial, bad, 1);
    free(r);
  }
  CHECK_EQ(bad, 0);
}

/* The sweep's words limit, where it decides: r = [100, 4400) of 1 byte
   has its widest step at 4300 (B, 1000 bytes), and meets A = [50, 110),
   placed before it (its group's step 50, with G, is the widest) at 1000,
   above G. Between them 1,100 one-step records of a byte (placed after r)
   put about 2,200 segments, past the sweep's 32 words: the time tree's
   query sees A, so r goes above it at 1100, not at 1000 (B's top). */
static void test_breadth_sweep_far_side(void) {
  enum { FILL = 1100, N = 4 + FILL };
  static dnnmem_interval r[N];
  dnnmem_intervals p;
  dnnmem_plan_options o;
  dnnmem_plan_result res;
  int64_t off[N];
  size_t bytes = 0;
  void *scratch;
  int32_t i;
  static const int64_t lohisize[4][3] = {{50, 51, 1000}, {50, 110, 100}, {4300, 4301, 1000}, {100, 4400, 1}};
  memset(r, 0, sizeof r);
  for (i = 0; i < 4; i++) r[i].lower = lohisize[i][0], r[i].upper = lohisize[i][1], r[i].size = lohisize[i][2];
  for (i = 0; i < FILL; i++) r[4 + i].lower = 200 + 2 * i, r[4 + i].upper = 201 + 2 * i, r[4 + i].size = 1;
  p.records = r, p.count = N, p.alignment = 0;
  memset(&o, 0, sizeof o);
  o.algo = DNNMEM_PLAN_GREEDY_BREADTH;
  CHECK_EQ(dnnmem_plan_solve_scratch_size(&p, &o, &bytes), DNNMEM_OK);
  scratch = malloc(bytes);
  CHECK_EQ(dnnmem_plan_solve(&p, &o, off, &res, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(off[0], 0);    /* G */
  CHECK_EQ(off[1], 1000); /* A, above G */
  CHECK_EQ(off[2], 0);    /* B */
  CHECK_EQ(off[3], 1100); /* r, above A */
  CHECK_EQ(off[4], 0);    /* a filler, below r */
  CHECK_EQ(differs_from_rule(&p, "far side", 0, 0, 1), 0);
  free(scratch);
}

/* greedy-breadth's plan of p (offsets in off; the arena, -1 on error). */
static int64_t breadth_plan(const dnnmem_intervals *p, int64_t *off) {
  dnnmem_plan_options o;
  dnnmem_plan_result res;
  size_t bytes = 0;
  void *scratch;
  int64_t arena = -1;
  memset(&o, 0, sizeof o);
  o.algo = DNNMEM_PLAN_GREEDY_BREADTH;
  if (dnnmem_plan_solve_scratch_size(p, &o, &bytes) != DNNMEM_OK) return -1;
  scratch = malloc(bytes);
  if (dnnmem_plan_solve(p, &o, off, &res, scratch, bytes) == DNNMEM_OK) arena = res.arena;
  free(scratch);
  return arena;
}

/* Plans r[0..n) (with room for one more record) by the sweep into off,
   and by the time tree record by record into want: the same records and
   one of zero size after all of them, at last + 1 (it meets none, and
   moves no one's widest step nor group: the same plan). Returns 1,
   reporting the first few, when an offset differs or the plan does not
   recount. */
static int32_t sweep_differs(dnnmem_interval *r, int32_t n, int64_t last, int64_t *off, int64_t *want,
                             const char *what, int32_t trial, int32_t bad) {
  dnnmem_intervals p;
  int32_t i;
  int64_t arena;
  p.records = r, p.count = n, p.alignment = 0;
  arena = breadth_plan(&p, off);
  r[n].lower = last + 1, r[n].upper = last + 2, r[n].size = 0;
  p.count = n + 1;
  breadth_plan(&p, want);
  p.count = n;
  for (i = 0; i < n && off[i] == want[i]; i++) continue;
  if (i == n && arena == ref_plan_recount(&p, off)) return 0;
  if (bad < 5)
    fprintf(stderr, "%s trial %d: n=%d record %d at %lld, the time tree's %lld\n", what, trial, n, i,
            (long long)(i < n ? off[i] : -1), (long long)(i < n ? want[i] : -1));
  return 1;
}

/* The sweep's far moves (jumps by the records alive, flips or a rebuild,
   the time tree past their bounds) at sizes the plain rule cannot check:
   5,000-12,000 records, a training-like graph repeated in time (its far
   moves swap the records alive: the time tree; once with sizes of 1-3
   bytes) and generated lifetimes (a few long ones: jumps alone), with a
   few fixed records. The same records
   and one of zero size after all of them (it meets none, and moves no
   one's widest step nor group: the same plan) are placed record by record
   by the time tree: every other offset must agree, and the plan recount. */
static void test_breadth_sweep_jumps(void) {
  int32_t bad = 0;
  FOR_TRIALS(rng, 59, trial, 4) {
    int32_t n = 5000 + (int32_t)dnnmem_rng_below(&rng, 7000), i, m = 40 + (int32_t)dnnmem_rng_below(&rng, 160);
    dnnmem_interval *r = (dnnmem_interval *)calloc((size_t)n + 1, sizeof *r);
    int64_t *off = (int64_t *)calloc((size_t)n + 1, sizeof(int64_t));
    int64_t *want = (int64_t *)calloc((size_t)n + 1, sizeof(int64_t)), last = 0;
    for (i = 0; i < n; i++) {
      if (trial % 2 == 0) { /* lifetimes as bench_plan's generated ones */
        uint32_t roll = dnnmem_rng_below(&rng, 100);
        int64_t len = roll < 80 ? 1 + dnnmem_rng_below(&rng, 3) : roll < 98 ? 4 + dnnmem_rng_below(&rng, 30)
                                                                             : 50 + dnnmem_rng_below(&rng, 500);
        scale_record(&rng, &r[i], i, len, 0, trial == 2);
      } else if (i < m) { /* a training-like graph, then its copies */
        uint32_t roll = dnnmem_rng_below(&rng, 10);
        int64_t len = roll < 5 ? 2 * (int64_t)(m - i) : 1 + dnnmem_rng_below(&rng, roll < 8 ? 3 : (uint32_t)m);
        scale_record(&rng, &r[i], i, len, 0, trial == 3);
      } else {
        r[i] = r[i % m];
        r[i].lower += (int64_t)(i / m) * 2 * m;
        r[i].upper += (int64_t)(i / m) * 2 * m;
      }
      if (trial == 1) r[i].size = 1 + dnnmem_rng_below(&rng, 3); /* bytes: gaps of one byte abound */
      if (dnnmem_rng_below(&rng, 2000) == 0 && r[i].size <= 64) { /* fixed, in its own slot */
        r[i].flags |= DNNMEM_INTERVAL_FIXED;
        r[i].fixed_offset = ((int64_t)1 << 40) + 64 * (int64_t)i;
      }
      if (r[i].upper > last) last = r[i].upper;
    }
    bad += sweep_differs(r, n, last, off, want, "jumps", trial, bad);
    free(r), free(off), free(want);
  }
  CHECK_EQ(bad, 0);
}

/* The sweep's cursors (steps, each with its free intervals, kept exact
   while the order alternates between fronts far apart): training-like
   graphs (each forward record saved until its mirror step in the backward
   pass, short temporaries beside) repeated in time, one chain or two
   offset by half a graph (more fronts at once than cursors), sizes of a
   few bytes or of kilobytes. Each plan equals the record-by-record plan
   of the time tree (the same records and one of zero size after all of
   them) and recounts. */
static void test_breadth_sweep_cursors(void) {
  int32_t bad = 0;
  FOR_TRIALS(rng, 71, trial, 6) {
    int32_t m = 20 + (int32_t)dnnmem_rng_below(&rng, 100), copies = 6 + (int32_t)dnnmem_rng_below(&rng, 10);
    int32_t chains = 1 + trial % 2, cap = 2 * m * copies * chains + 1, n = 0, k, h, j, i;
    dnnmem_interval *r = (dnnmem_interval *)calloc((size_t)cap, sizeof *r);
    int64_t *off = (int64_t *)calloc((size_t)cap, sizeof(int64_t));
    int64_t *want = (int64_t *)calloc((size_t)cap, sizeof(int64_t)), last = 0;
    for (k = 0; k < copies; k++)
      for (h = 0; h < chains; h++)
        for (j = 0; j < m; j++) {
          int64_t base = (int64_t)k * 2 * m + (int64_t)h * m, len[2];
          len[0] = 2 * (int64_t)(m - j);                   /* saved for its mirror step */
          len[1] = 1 + dnnmem_rng_below(&rng, 3);           /* a temporary */
          for (i = 0; i < 2; i++) {
            if (i == 1 && dnnmem_rng_below(&rng, 2) == 0) continue;
            r[n].lower = base + j;
            r[n].upper = base + j + len[i];
            r[n].size = trial % 3 == 0 ? 1 + dnnmem_rng_below(&rng, 3) : (int64_t)64 << dnnmem_rng_below(&rng, 6);
            if (r[n].upper > last) last = r[n].upper;
            n++;
          }
        }
    bad += sweep_differs(r, n, last, off, want, "cursors", trial, bad);
    free(r), free(off), free(want);
  }
  CHECK_EQ(bad, 0);
}

/* Greedy-size's two ways (no zero sizes): its anchor columns, time in
   blocks of 64 segments, on records whose lifetimes start and end at the
   blocks' edges or one segment beside them (a unit record at every step:
   a step is a segment), and the time tree, when the records are alive
   over more than 3 blocks each on average (most of them long here). */
static void test_size_columns_and_tree(void) {
  int32_t bad = 0;
  FOR_TRIALS(rng, 29, trial, 8) {
    int32_t n = 600 + (int32_t)dnnmem_rng_below(&rng, 600), steps = n / 2, i, fixed = 0;
    int wide = trial % 2 == 1;
    dnnmem_interval *r = (dnnmem_interval *)calloc((size_t)n, sizeof *r);
    dnnmem_intervals p;
    for (i = 0; i < n; i++) {
      int64_t lo = i < steps ? i : 64 * (int64_t)dnnmem_rng_below(&rng, (uint32_t)(steps / 64)), len;
      if (i < steps) len = 1;
      else if (wide) len = steps / 2 + dnnmem_rng_below(&rng, (uint32_t)(steps / 2));
      else len = 64 * (1 + (int64_t)dnnmem_rng_below(&rng, 3));
      if (i >= steps && dnnmem_rng_below(&rng, 3) == 0) lo += (int64_t)dnnmem_rng_below(&rng, 3) - 1; /* beside an edge */
      if (i >= steps && dnnmem_rng_below(&rng, 3) == 0) len += (int64_t)dnnmem_rng_below(&rng, 3) - 1;
      scale_record(&rng, &r[i], lo < 0 ? 0 : lo, len, 0, trial % 4 == 2);
      if (trial % 4 == 3 && dnnmem_rng_below(&rng, 50) == 0) {
        r[i].flags |= DNNMEM_INTERVAL_FIXED;
        r[i].fixed_offset = 4096 * (int64_t)(fixed++); /* its own slot */
        r[i].size = 64;
      }
    }
    p.records = r, p.count = n, p.alignment = trial % 4 == 1 ? 16 : 0;
    bad += differs_from_rule(&p, wide ? "wide trial" : "edges trial", trial, bad, 0);
    free(r);
  }
  CHECK_EQ(bad, 0);
}

/* Greedy-size's anchor columns where a query leaves many free intervals
   (its linked list of them cut in place, one node more per piece that
   leaves a part below it): sizes of many magnitudes, most records alive
   with others, lifetimes from one step to a few blocks, a quarter starting
   at a block's first segment (in the block's St, and E or T), against the
   rule. */
static void test_size_many_gaps(void) {
  int32_t bad = 0;
  FOR_TRIALS(rng, 31, trial, 8) {
    int32_t n = 1000 + (int32_t)dnnmem_rng_below(&rng, 1500), steps = n / 2, i;
    dnnmem_interval *r = (dnnmem_interval *)calloc((size_t)n, sizeof *r);
    dnnmem_intervals p;
    for (i = 0; i < n; i++) {
      uint32_t roll = dnnmem_rng_below(&rng, 10);
      int64_t lo = dnnmem_rng_below(&rng, (uint32_t)steps), len;
      len = roll < 5 ? 1 + dnnmem_rng_below(&rng, 8) : roll < 8 ? 20 + dnnmem_rng_below(&rng, 80)
                                                                : 100 + dnnmem_rng_below(&rng, 150);
      if (dnnmem_rng_below(&rng, 4) == 0) lo -= lo % 64; /* at an anchor */
      memset(&r[i], 0, sizeof r[i]);
      r[i].lower = lo;
      r[i].upper = lo + len;
      r[i].size = (int64_t)(1 + dnnmem_rng_below(&rng, 1000)) << dnnmem_rng_below(&rng, 10);
      if (trial % 2 == 1 && dnnmem_rng_below(&rng, 4) == 0) r[i].alignment = 256;
    }
    p.records = r, p.count = n, p.alignment = 0;
    bad += differs_from_rule(&p, "gaps trial", trial, bad, 0);
    free(r);
  }
  CHECK_EQ(bad, 0);
}

/* Greedy-size's long queries over many blocks: each block between a
   query's end blocks cuts its U list's runs (the bytes of its St
   entries, merged; rebuilt when read after a record started in that
   block), then the end blocks cut their entries. A unit record at every
   step (a step is a segment: 48 blocks), records alive over 2-9 blocks
   from any step or from the first step of a block (or of an aligned pair
   or quad of blocks), sizes of a few values (many placed in turn, so the
   U lists go stale between reads), against the rule. */
static void test_size_unions(void) {
  int32_t bad = 0;
  FOR_TRIALS(rng, 37, trial, 8) {
    int32_t steps = 48 * 64, n = steps + 300 + (int32_t)dnnmem_rng_below(&rng, 900), i, fixed = 0;
    dnnmem_interval *r = (dnnmem_interval *)calloc((size_t)n, sizeof *r);
    dnnmem_intervals p;
    for (i = 0; i < n; i++) {
      int64_t lo = i, len = 1;
      if (i >= steps) {
        uint32_t edge = dnnmem_rng_below(&rng, 4);
        lo = dnnmem_rng_below(&rng, (uint32_t)(steps - 9 * 64));
        if (edge > 0) lo -= lo % (64 << (edge - 1)); /* at a block's, a pair's or a quad's first step */
        len = 64 * (2 + (int64_t)dnnmem_rng_below(&rng, 8)) + (int64_t)dnnmem_rng_below(&rng, 64) - 32;
      }
      memset(&r[i], 0, sizeof r[i]);
      r[i].lower = lo;
      r[i].upper = lo + len;
      r[i].size = (int64_t)(1 + dnnmem_rng_below(&rng, 4)) << (i < steps ? dnnmem_rng_below(&rng, 3) : 3 + dnnmem_rng_below(&rng, 4));
      if (trial % 2 == 1 && i >= steps && dnnmem_rng_below(&rng, 40) == 0) {
        r[i].flags |= DNNMEM_INTERVAL_FIXED;
        r[i].fixed_offset = 1024 * (int64_t)(fixed++); /* its own slot, over several blocks */
      }
    }
    p.records = r, p.count = n, p.alignment = trial % 4 == 2 ? 8 : 0;
    bad += differs_from_rule(&p, "unions trial", trial, bad, 0);
    free(r);
  }
  CHECK_EQ(bad, 0);
}

/* The list at its bound: fixed 1-byte records at offsets 2i (every one
   a piece that leaves a part below), met by one free record: as entries
   of one block and of many, mixed lifetimes, and as T runs; the free
   record of 1 byte (the first hole) or 2 (above them all). */
static void test_size_comb(void) {
  int32_t bad = 0, mode, n, size;
  for (mode = 0; mode < 3; mode++)
    for (n = 300; n <= 3000; n *= 10)
      for (size = 1; size <= 2; size++) {
        dnnmem_interval *r = (dnnmem_interval *)calloc((size_t)n, sizeof *r);
        dnnmem_intervals p;
        int32_t i;
        for (i = 0; i < n - 1; i++) {
          r[i].size = 1;
          r[i].flags = DNNMEM_INTERVAL_FIXED;
          r[i].fixed_offset = 2 * (int64_t)i;
          r[i].lower = mode == 0 ? i % 200 : mode == 1 ? (i * 37) % 300 : 0;
          r[i].upper = mode == 0 ? r[i].lower + 1 : mode == 1 ? r[i].lower + 1 + i % 150 : 200;
        }
        r[n - 1].lower = 0, r[n - 1].upper = 300, r[n - 1].size = size;
        p.records = r, p.count = n, p.alignment = 0;
        bad += differs_from_rule(&p, "comb", mode * 10 + size, bad, 0);
        free(r);
      }
  CHECK_EQ(bad, 0);
}

/* Greedy-size's size order (size descending, then id), sorted over the
   bits where the sizes differ: one size for all, sizes differing in 8, 20
   and 30 bits (one, two and three digits) from a low bit of 0, 3 or 6,
   and in 40 bits (the general sort); many equal sizes (ties by id),
   lifetimes that meet, so the order decides the offsets, and a few fixed
   records; against the rule. From 1600 records, past the 1536 three
   10-bit digits need (the 64-bit build's 3100 covered the same lines of
   the size order in 3.2x the time). */
#define SIZE_ORDER_RECORDS 1600
static void test_size_order(void) {
  static const int bits[] = {0, 8, 20, 30, 40};
  int32_t bad = 0;
  FOR_TRIALS(rng, 41, trial, 15) {
    int32_t n = SIZE_ORDER_RECORDS + (int32_t)dnnmem_rng_below(&rng, 900), i, fixed = 0;
    int b = bits[trial % 5], low = 3 * (trial % 3);
    dnnmem_interval *r = (dnnmem_interval *)calloc((size_t)n, sizeof *r);
    dnnmem_intervals p;
    for (i = 0; i < n; i++) {
      uint64_t v = ((uint64_t)dnnmem_rng_below(&rng, 1u << 20) << 20 | dnnmem_rng_below(&rng, 1u << 20));
      r[i].lower = dnnmem_rng_below(&rng, (uint32_t)(n / 2));
      r[i].upper = r[i].lower + 1 + dnnmem_rng_below(&rng, 40);
      if (b <= 8 && dnnmem_rng_below(&rng, 2) == 0) v = 0; /* ties */
      r[i].size = (int64_t)(((uint64_t)1 << b) + (b > 0 ? v % ((uint64_t)1 << b) : 0)) << low;
      if (trial % 2 == 1 && dnnmem_rng_below(&rng, 100) == 0) {
        r[i].flags |= DNNMEM_INTERVAL_FIXED;
        r[i].fixed_offset = ((int64_t)1 << 56) + ((int64_t)1 << 48) * (int64_t)(fixed++); /* its own slot, above all */
      }
    }
    p.records = r, p.count = n, p.alignment = 0;
    bad += differs_from_rule(&p, "order trial", trial, bad, 0);
    free(r);
  }
  CHECK_EQ(bad, 0);
}

/* Fixed records may share bytes where one lives inside another's idle
   gap (the checker honours gaps; greedy-size does not, so both are alive
   together in its lists and their runs overlap). Hosts fixed in slots of
   their own with a gap, guests fixed inside a host's bytes and gap, free
   records meeting the hosts outside their gaps, a unit record at every
   step (many blocks); against the rule. Trial 0 is the review's case. */
static void test_size_fixed_in_gaps(void) {
  int32_t bad = 0;
  FOR_TRIALS(rng, 43, trial, 40) {
    int32_t steps = trial == 0 ? 330 : 64 + (int32_t)dnnmem_rng_below(&rng, 400), hosts = 1 + trial % 6;
    int32_t n = steps + 3 * hosts + (trial == 0 ? 0 : (int32_t)dnnmem_rng_below(&rng, 60)), i, h;
    dnnmem_interval *r = (dnnmem_interval *)calloc((size_t)n, sizeof *r);
    dnnmem_gap *g = (dnnmem_gap *)calloc((size_t)hosts, sizeof *g);
    dnnmem_intervals p;
    for (i = 0; i < steps; i++) r[i].lower = trial == 0 ? 0 : i, r[i].upper = r[i].lower + 1, r[i].size = 1;
    if (trial == 0) r[steps - 1].lower = 4, r[steps - 1].upper = 5;
    for (h = 0; h < hosts; h++) {
      dnnmem_interval *a = &r[steps + 3 * h], *b = a + 1, *c = a + 2;
      int64_t lo = trial == 0 ? 0 : dnnmem_rng_below(&rng, (uint32_t)(steps - 40));
      int64_t len = trial == 0 ? 10 : 12 + dnnmem_rng_below(&rng, 28), size = 100 + 10 * (int64_t)h;
      a->lower = lo, a->upper = lo + len, a->size = size;
      a->flags = DNNMEM_INTERVAL_FIXED, a->fixed_offset = 4096 * (int64_t)h;
      g[h].lower = lo + 1, g[h].upper = lo + len - 1;
      a->gaps = &g[h], a->num_gaps = 1;
      b->lower = lo + 2, b->upper = lo + len - 1 - (trial == 0 ? 0 : dnnmem_rng_below(&rng, 3));
      b->size = 10, b->flags = DNNMEM_INTERVAL_FIXED;
      b->fixed_offset = a->fixed_offset + (trial == 0 ? 50 : (int64_t)dnnmem_rng_below(&rng, (uint32_t)size - 10));
      c->lower = lo + 2, c->upper = lo + len, c->size = 40; /* meets the host at its last step */
    }
    for (i = steps + 3 * hosts; i < n; i++) {
      r[i].lower = dnnmem_rng_below(&rng, (uint32_t)steps);
      r[i].upper = r[i].lower + 1 + dnnmem_rng_below(&rng, 30);
      r[i].size = 1 + dnnmem_rng_below(&rng, 200);
    }
    p.records = r, p.count = n, p.alignment = 0;
    bad += differs_from_rule(&p, "fixed in gaps trial", trial, bad, 0);
    free(r), free(g);
  }
  CHECK_EQ(bad, 0);
}

/* 200 fixed 1-byte records at 2^20 + 2i, one at each even step (a segment
   a step), in q[0 .. 200); the rest of q's bytes zeroed. */
static void unit_fixed_steps(dnnmem_interval *q, size_t bytes) {
  int32_t i;
  memset(q, 0, bytes);
  for (i = 0; i < 200; i++) {
    q[i].lower = 2 * i, q[i].upper = 2 * i + 1, q[i].size = 1;
    q[i].flags = DNNMEM_INTERVAL_FIXED, q[i].fixed_offset = ((int64_t)1 << 20) + 2 * i;
  }
}

/* p planned by greedy-size into off. */
static void greedy_size_plan(const dnnmem_intervals *p, int64_t *off) {
  dnnmem_plan_options opt;
  dnnmem_plan_result res;
  size_t bytes = 0;
  void *scratch;
  memset(&opt, 0, sizeof opt);
  opt.algo = DNNMEM_PLAN_GREEDY_SIZE;
  CHECK_EQ(dnnmem_plan_solve_scratch_size(p, &opt, &bytes), DNNMEM_OK);
  scratch = malloc(bytes);
  CHECK_EQ(dnnmem_plan_solve(p, &opt, off, &res, scratch, bytes), DNNMEM_OK);
  free(scratch);
}

/* Greedy-size's long queries skip the entries of their end blocks' St
   lists that lie in taken bytes: in both end blocks those ending at or
   below the current free interval's start (entry by entry), and in the
   last block first the prefix of those starting at or below the first
   free byte less the list's largest size (a bound kept per block, a
   binary search). A unit record at every step (16 blocks), floors of
   large records alive over many blocks (most bytes below taken), records
   over 2-5 blocks from any step with sizes of a few small values (so an
   entry often ends exactly at a free interval's start, or one byte past
   it), a large record now and then among them (the bound), fixed records
   in their own slots low and high; against the rule. */
static void test_size_taken_below(void) {
  int32_t bad = 0;
  FOR_TRIALS(rng, 47, trial, 12) {
    int32_t steps = 16 * 64, n = steps + 200 + (int32_t)dnnmem_rng_below(&rng, 800), i, fixed = 0;
    dnnmem_interval *r = (dnnmem_interval *)calloc((size_t)n, sizeof *r);
    dnnmem_intervals p;
    for (i = 0; i < n; i++) {
      int64_t lo = i, len = 1, size = 1 + (int64_t)dnnmem_rng_below(&rng, 3);
      uint32_t roll = dnnmem_rng_below(&rng, 20);
      if (i >= steps) {
        lo = dnnmem_rng_below(&rng, (uint32_t)(steps - 5 * 64));
        len = 64 * (2 + (int64_t)dnnmem_rng_below(&rng, 4)) + (int64_t)dnnmem_rng_below(&rng, 64);
        if (trial % 3 == 1) size = 7; /* one size: entries of the bound's size end one byte past a free start */
        else size = roll < 2 ? 200 + (int64_t)dnnmem_rng_below(&rng, 300) : 1 + (int64_t)dnnmem_rng_below(&rng, trial % 3 == 0 ? 40 : 6);
        if (roll == 2) len = 64 * (6 + (int64_t)dnnmem_rng_below(&rng, 5)), lo = dnnmem_rng_below(&rng, 64); /* a floor */
      }
      r[i].lower = lo;
      r[i].upper = lo + len;
      r[i].size = size;
      if (trial % 2 == 1 && i >= steps && dnnmem_rng_below(&rng, 60) == 0) {
        r[i].flags |= DNNMEM_INTERVAL_FIXED;
        r[i].fixed_offset = (fixed % 2 ? ((int64_t)1 << 20) : 0) + 4096 * (int64_t)(fixed + 1); /* its own slot */
        fixed++;
      }
    }
    p.records = r, p.count = n, p.alignment = trial % 4 == 2 ? 8 : 0;
    bad += differs_from_rule(&p, "taken below trial", trial, bad, 0);
    free(r);
  }
  CHECK_EQ(bad, 0);
  { /* Q over blocks 1-3 meets G [0, 100) (block 1), H [0, 94) (block 2) and
       E [94, 101) (block 3, its largest: a bound of 7): the first free
       byte is 100 and E, starting 6 below it, takes it: Q at 101. Fixed
       1-byte records 2 apart at 2^20, one at each even step: a segment a
       step, 1-byte gaps between them. */
    dnnmem_interval q[204];
    dnnmem_intervals p;
    int64_t off[204];
    unit_fixed_steps(q, sizeof q);
    q[200].lower = 100, q[200].upper = 140, q[200].size = 100; /* G */
    q[201].lower = 150, q[201].upper = 215, q[201].size = 94;  /* H */
    q[202].lower = 200, q[202].upper = 210, q[202].size = 7;   /* E */
    q[203].lower = 100, q[203].upper = 220, q[203].size = 5;   /* Q */
    p.records = q, p.count = 204, p.alignment = 0;
    greedy_size_plan(&p, off);
    CHECK_EQ(off[200], 0);
    CHECK_EQ(off[201], 0);
    CHECK_EQ(off[202], 94);
    CHECK_EQ(off[203], 101);
    CHECK_EQ(differs_from_rule(&p, "taken below case", 0, 0, 0), 0);
  }
}

/* Greedy-size's first pass of a query: T's runs and the E entries meeting
   the query (the records alive at the query's first anchor, kept in two
   lists) swept together by offset into the free intervals. A unit record
   at every step (768 steps; records outnumber segments, so blocks of 16
   or 32 segments), records alive from inside one block to
   inside the next (E entries, many ending before a later query starts)
   and over several blocks (T runs), sizes of a few values so that T runs and
   E entries interleave in bytes; in odd trials fixed hosts with an idle
   gap and fixed guests inside it (alive together in the lists: pieces
   that overlap), an E entry inside a T run and a T run inside an E entry
   (a guest that outlives its host); against the rule. Then one case: X alive at block 2's
   anchor but dead before Q starts leaves its bytes to Q (Q at 100, on
   X's bytes; 160, above them, if X were taken). */
static void test_size_first_pass(void) {
  int32_t bad = 0;
  FOR_TRIALS(rng, 53, trial, 12) {
    int32_t steps = 12 * 64, hosts = trial % 2 ? 4 : 0, n = steps + 300 + (int32_t)dnnmem_rng_below(&rng, 600), i;
    dnnmem_interval *r = (dnnmem_interval *)calloc((size_t)n + 3 * (size_t)hosts, sizeof *r);
    dnnmem_gap *g = (dnnmem_gap *)calloc((size_t)hosts + 1, sizeof *g);
    dnnmem_intervals p;
    for (i = 0; i < n; i++) {
      int64_t lo = i, len = 1, size = 1 + (int64_t)dnnmem_rng_below(&rng, 2);
      if (i >= steps) {
        uint32_t roll = dnnmem_rng_below(&rng, 3);
        lo = 64 + dnnmem_rng_below(&rng, (uint32_t)(steps - 6 * 64));
        if (roll == 0) lo -= 1 + lo % 64 / 2, len = 2 + dnnmem_rng_below(&rng, 60); /* across one anchor */
        else if (roll == 1) len = 64 * (1 + (int64_t)dnnmem_rng_below(&rng, 4)) + (int64_t)dnnmem_rng_below(&rng, 64);
        else len = 1 + dnnmem_rng_below(&rng, 40);
        size = (int64_t)(1 + dnnmem_rng_below(&rng, 3)) << (2 * dnnmem_rng_below(&rng, 3));
      }
      r[i].lower = lo, r[i].upper = lo + len, r[i].size = size;
    }
    for (i = 0; i < hosts; i++) {
      dnnmem_interval *a = &r[n + 3 * i], *b = a + 1, *c = a + 2;
      int64_t lo = 64 * (2 + 2 * (int64_t)i) - 10, len = 80 + (int64_t)dnnmem_rng_below(&rng, 60);
      if (i % 2) len = 20 + (int64_t)dnnmem_rng_below(&rng, 40); /* the host ends in the block, its guest lives on */
      a->lower = lo, a->upper = lo + len, a->size = 64; /* a T run (E entry) at anchor lo + 10 */
      a->flags = DNNMEM_INTERVAL_FIXED, a->fixed_offset = 4096 + 1024 * (int64_t)i;
      g[i].lower = lo + 1, g[i].upper = lo + len - (i % 2 ? 0 : 1);
      a->gaps = &g[i], a->num_gaps = 1;
      b->lower = lo + 2, b->upper = lo + 20 + (int64_t)dnnmem_rng_below(&rng, 20); /* an E entry (T run) inside it */
      if (i % 2) b->upper = lo + len + 100 + (int64_t)dnnmem_rng_below(&rng, 60);
      b->size = 8 + (int64_t)dnnmem_rng_below(&rng, 40), b->flags = DNNMEM_INTERVAL_FIXED;
      b->fixed_offset = a->fixed_offset + (int64_t)dnnmem_rng_below(&rng, 64 - (uint32_t)b->size + 1);
      c->lower = lo + 15, c->upper = lo + 40, c->size = 3; /* meets both */
    }
    p.records = r, p.count = n + 3 * hosts, p.alignment = trial % 4 == 2 ? 4 : 0;
    bad += differs_from_rule(&p, "first pass trial", trial, bad, 0);
    free(r), free(g);
  }
  CHECK_EQ(bad, 0);
  { /* Y [100, 200) size 100 (T at anchor 128), X [120, 140) size 60 (E at
       128, on top of Y), Q [150, 160) size 50; fixed 1-byte records at
       2^20 + 2i, one at each even step: a segment a step */
    dnnmem_interval q[203];
    dnnmem_intervals p;
    int64_t off[203];
    unit_fixed_steps(q, sizeof q);
    q[200].lower = 100, q[200].upper = 200, q[200].size = 100; /* Y */
    q[201].lower = 120, q[201].upper = 140, q[201].size = 60;  /* X */
    q[202].lower = 150, q[202].upper = 160, q[202].size = 50;  /* Q */
    p.records = q, p.count = 203, p.alignment = 0;
    greedy_size_plan(&p, off);
    CHECK_EQ(off[200], 0);
    CHECK_EQ(off[201], 100);
    CHECK_EQ(off[202], 100);
    CHECK_EQ(differs_from_rule(&p, "first pass case", 0, 0, 0), 0);
  }
}

/* tests/ref.h's recount (a sweep by lower, bytes compared directly for
   records without gaps) against its literal definition (every pair
   through ref_plan_collide): 3,000 random problems of 1-40 records
   (lifetimes of 1-6 steps, some sharing ends; sizes 0-8; a third with a
   gap, half of those keeping a window; alignments, fixed records), each
   recounted at a first-fit plan (valid) and with one record moved (often
   invalid) or misaligned: the same answer, and both answers seen often;
   ref_plan_collide (direct for two records without gaps) as its pieces'
   definition on every pair of each plan. */
static void test_recount_vs_literal(void) {
  int32_t bad = 0, valid = 0, invalid = 0;
  FOR_TRIALS(rng, 61, trial, 3000) {
    static dnnmem_interval r[40];
    static dnnmem_gap g[40];
    int64_t off[40];
    int32_t order[40], n = 1 + (int32_t)dnnmem_rng_below(&rng, 40), i, j, k;
    dnnmem_intervals p;
    p.records = r, p.count = n, p.alignment = trial % 7 == 0 ? 2 : 0;
    for (i = 0; i < n; i++) {
      int64_t lo = dnnmem_rng_below(&rng, 12);
      r[i] = ref_plan_record(lo, lo + 1 + dnnmem_rng_below(&rng, 6), dnnmem_rng_below(&rng, 9));
      if (dnnmem_rng_below(&rng, 8) == 0) r[i].alignment = 4;
      if (r[i].upper - r[i].lower >= 3 && dnnmem_rng_below(&rng, 3) == 0) {
        g[i].lower = r[i].lower + 1, g[i].upper = r[i].upper - 1 - dnnmem_rng_below(&rng, 2);
        g[i].window_lower = g[i].window_upper = 0;
        if (r[i].size > 1 && dnnmem_rng_below(&rng, 2)) {
          g[i].window_lower = dnnmem_rng_below(&rng, (uint32_t)r[i].size);
          g[i].window_upper = g[i].window_lower + 1 + dnnmem_rng_below(&rng, (uint32_t)(r[i].size - g[i].window_lower));
        }
        r[i].gaps = &g[i], r[i].num_gaps = 1;
      }
      if (i % 9 == 4 && !ref_plan_fixed_collides(r, n, i, 64 * (int64_t)i)) {
        r[i].flags |= DNNMEM_INTERVAL_FIXED;
        r[i].fixed_offset = 64 * (int64_t)i;
      }
    }
    ref_plan_first_fit(&p, off, order);
    for (k = 0; k < 2; k++) {
      int64_t literal = ref_plan_recount_literal(&p, off), sweep = ref_plan_recount_sweep(&p, off);
      if (literal != sweep && bad++ < 5)
        fprintf(stderr, "recount trial %d (%s): literal %lld, sweep %lld\n", trial, k ? "moved" : "first fit",
                (long long)literal, (long long)sweep);
      valid += literal >= 0, invalid += literal < 0;
      for (i = 0; i < n; i++) /* and ref_plan_collide's shortcut against the pieces, pair by pair */
        for (j = 0; j < n; j++)
          if (ref_plan_collide(&r[i], off[i], &r[j], off[j]) != ref_plan_collide_pieces(&r[i], off[i], &r[j], off[j]) &&
              bad++ < 5)
            fprintf(stderr, "collide trial %d: records %d and %d differ\n", trial, i, j);
      i = (int32_t)dnnmem_rng_below(&rng, (uint32_t)n); /* then one record moved or misaligned */
      if (dnnmem_rng_below(&rng, 10) == 0) off[i] += 1;
      else off[i] = dnnmem_rng_below(&rng, 4) * (p.alignment ? 4 : 1);
    }
  }
  printf("recount vs literal: %d valid, %d invalid\n", valid, invalid);
  CHECK_EQ(bad, 0);
  CHECK(valid > 3000 && invalid > 1000);
}

int main(void) {
  RUN(test_recount_vs_literal);
  RUN(test_same_plans_as_the_plain_rule);
  RUN(test_same_plans_at_scale);
  RUN(test_breadth_sweep_far_apart);
  RUN(test_breadth_sweep_far_side);
  RUN(test_breadth_sweep_jumps);
  RUN(test_breadth_sweep_cursors);
  RUN(test_size_columns_and_tree);
  RUN(test_size_many_gaps);
  RUN(test_size_comb);
  RUN_LONG(test_size_unions);
  RUN(test_size_order);
  RUN(test_size_fixed_in_gaps);
  RUN(test_size_taken_below);
  RUN(test_size_first_pass);
  return test_finish("test_plan_greedy");
}

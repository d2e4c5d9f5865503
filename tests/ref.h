/* tests/ref.h: the independent oracles and recounts of dnnmem.h's answers,
   shared by the unit tests (tests/test_*.c) and the fuzz targets (fuzz/).
   One oracle per question: brute force on small inputs, or a recount that
   uses none of the code under test. Include after dnnmem.h; every function
   is static (a file uses some of them). Sections follow the header's parts. */
#ifndef DNNMEM_TESTS_REF_H
#define DNNMEM_TESTS_REF_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef REF_RECOUNT_BOTH
#include <stdio.h>
#endif

#include "dnnmem.h"

#if defined(__GNUC__) || defined(__clang__)
#define REF_FN static __attribute__((unused))
#else
#define REF_FN static
#endif

/* ==== 1. Common ========================================================== */

/* The graph of n nodes whose node v takes ids[offsets[v] .. offsets[v + 1]). */
REF_FN dnnmem_graph ref_graph(int32_t n, const int32_t *offsets, const int32_t *ids) {
  dnnmem_graph g;
  g.num_nodes = n, g.in_offsets = offsets, g.in_ids = ids;
  return g;
}

/* ==== 2. Interval planning ================================================ */

/* A plan is valid when every offset is >= 0 and a multiple of
   dnnmem_interval_alignment(record, problem->alignment), every fixed record
   sits at its fixed_offset, and no two records occupy a common byte at a
   common time. A record at offset o occupies [o, o + size) over its
   lifetime [lower, upper), except inside a gap, where it occupies only
   [o + window_lower, o + window_upper) (nothing without a window). The
   arena is max(offset + size), 0 for no records. */

/* A record with a lifetime and a size only (every other field zero). */
REF_FN dnnmem_interval ref_plan_record(int64_t lower, int64_t upper, int64_t size) {
  dnnmem_interval r;
  memset(&r, 0, sizeof r);
  r.lower = lower, r.upper = upper, r.size = size;
  return r;
}

/* The same, fixed at offset. */
REF_FN dnnmem_interval ref_plan_fixed_record(int64_t lower, int64_t upper, int64_t size, int64_t offset) {
  dnnmem_interval r = ref_plan_record(lower, upper, size);
  r.flags = DNNMEM_INTERVAL_FIXED, r.fixed_offset = offset;
  return r;
}

/* Plan options: algo, capacity and node limit; the rest zero (defaults). */
REF_FN dnnmem_plan_options ref_plan_options(dnnmem_plan_algo algo, int64_t capacity, int64_t node_limit) {
  dnnmem_plan_options opt;
  memset(&opt, 0, sizeof opt);
  opt.algo = algo;
  opt.capacity = capacity;
  opt.node_limit = node_limit;
  return opt;
}

/* The worked example of Pisarchyk & Lee ("Efficient Memory Management for
   Deep Neural Net Inference", 2020, Figure 2): {first_op, last_op, size} as
   lifetimes [first_op, last_op + 1), into r[REF_TFLITE_COUNT]. Stated
   there: operator 3's breadth is 36 + 28 + 16 = 80, the widest operator (5)
   holds 36 + 16 + 8 + 64 = 124 bytes (the plan's lower bound), and the
   positional maximums are 64, 40, 16, 8 (the shared objects' bound 128). */
#define REF_TFLITE_COUNT 8
REF_FN void ref_tflite_example(dnnmem_interval *r) {
  static const int64_t ops[REF_TFLITE_COUNT][3] = {{0, 1, 32}, {1, 4, 28}, {2, 5, 36}, {3, 5, 16},
                                                   {4, 5, 8},  {5, 7, 64}, {6, 8, 10}, {7, 8, 40}};
  int32_t i;
  for (i = 0; i < REF_TFLITE_COUNT; i++) r[i] = ref_plan_record(ops[i][0], ops[i][1] + 1, ops[i][2]);
}

/* The bytes [*lo, *hi) record r at offset o occupies at time t; 0 when it
   occupies none. */
REF_FN int ref_plan_occupied(const dnnmem_interval *r, int64_t t, int64_t o, int64_t *lo, int64_t *hi) {
  int32_t g;
  if (t < r->lower || t >= r->upper) return 0;
  *lo = o, *hi = o + r->size;
  for (g = 0; g < r->num_gaps; g++)
    if (t >= r->gaps[g].lower && t < r->gaps[g].upper)
      *lo = o + r->gaps[g].window_lower, *hi = o + r->gaps[g].window_upper;
  return *lo < *hi;
}

/* Whether a at oa and b at ob occupy a common byte at a common time:
   occupancy only changes where a lifetime or a gap starts or ends, so the
   starts of both records' pieces are the times to test. */
REF_FN int ref_plan_collide_pieces(const dnnmem_interval *a, int64_t oa, const dnnmem_interval *b, int64_t ob) {
  const dnnmem_interval *rec[2];
  int32_t k, g;
  rec[0] = a, rec[1] = b;
  for (k = 0; k < 2; k++)
    for (g = -1; g < 2 * rec[k]->num_gaps; g++) {
      int64_t t = g < 0 ? rec[k]->lower : g % 2 ? rec[k]->gaps[g / 2].upper : rec[k]->gaps[g / 2].lower;
      int64_t al, ah, bl, bh;
      if (ref_plan_occupied(a, t, oa, &al, &ah) && ref_plan_occupied(b, t, ob, &bl, &bh) && al < bh && bl < ah)
        return 1;
    }
  return 0;
}

/* The same answer: two records without gaps collide exactly when their
   lifetimes meet (the later start is then inside both), both have bytes
   and their bytes meet; pieces otherwise. (The brute-force optima and the
   recounts test millions of pairs.) */
REF_FN int ref_plan_collide(const dnnmem_interval *a, int64_t oa, const dnnmem_interval *b, int64_t ob) {
  if (a->num_gaps == 0 && b->num_gaps == 0)
    return a->lower < b->upper && b->lower < a->upper && a->size > 0 && b->size > 0 && oa < ob + b->size &&
           ob < oa + a->size;
  return ref_plan_collide_pieces(a, oa, b, ob);
}

/* 1 when record i at offset x would collide with a fixed record other
   than i (the random generators' test before fixing one). */
REF_FN int ref_plan_fixed_collides(const dnnmem_interval *r, int32_t n, int32_t i, int64_t x) {
  int32_t j;
  for (j = 0; j < n; j++)
    if (j != i && (r[j].flags & DNNMEM_INTERVAL_FIXED) && ref_plan_collide(&r[i], x, &r[j], r[j].fixed_offset))
      return 1;
  return 0;
}

/* Trial number trial's random small problem for the strategies' rule
   tests, where every tie-break shows: in r (64 records) n of them, 1-12
   (1-64 from trial 2000 on), starting in [first, first + span) with span
   2-31, 1-8 steps long; sizes 0 one time in ten, else unit x 1..4 (odd
   trials) or 1..40 (even), ragged: less up to 15 bytes; one in six aligned to 8;
   alignment 4 every fifth trial. Every third trial, about one in
   fixed_one_in fixed at 16 x 0..slots-1 where no fixed record is. */
REF_FN void ref_plan_random_trial(dnnmem_rng *rng, int32_t trial, dnnmem_interval *r, dnnmem_intervals *p,
                                  int64_t first, int64_t unit, int ragged, uint32_t fixed_one_in, uint32_t slots) {
  int32_t n = 1 + (int32_t)dnnmem_rng_below(rng, trial < 2000 ? 12 : 64), i;
  int64_t span = 2 + dnnmem_rng_below(rng, 30);
  uint32_t sizes = trial % 2 ? 4 : 40;
  p->records = r, p->count = n, p->alignment = trial % 5 == 0 ? 4 : 0;
  if (trial % 3 != 0) fixed_one_in = 0;
  for (i = 0; i < n; i++) {
    int64_t lo = first + (int64_t)dnnmem_rng_below(rng, (uint32_t)span);
    r[i] = ref_plan_record(lo, lo + 1 + (int64_t)dnnmem_rng_below(rng, 8), 0);
    r[i].size = dnnmem_rng_below(rng, 10) == 0 ? 0 : unit * (1 + (int64_t)dnnmem_rng_below(rng, sizes));
    if (ragged) r[i].size -= (int64_t)dnnmem_rng_below(rng, 16) * (r[i].size > 0);
    if (dnnmem_rng_below(rng, 6) == 0) r[i].alignment = 8;
  }
  for (i = 0; fixed_one_in > 0 && i < n; i++) {
    int64_t x = 16 * (int64_t)dnnmem_rng_below(rng, slots);
    if (dnnmem_rng_below(rng, fixed_one_in) != 0 || ref_plan_fixed_collides(r, n, i, x)) continue;
    r[i].flags |= DNNMEM_INTERVAL_FIXED;
    r[i].fixed_offset = x;
  }
}

REF_FN int64_t ref_plan_alignment(const dnnmem_interval *r, int64_t global) {
  int64_t a = r->alignment > 1 ? r->alignment : 1;
  return global > a ? global : a;
}

/* The recount from its definition, every pair by its pieces: the arena of a valid plan,
   -1 for an invalid one. O(n^2). ref_plan_recount below gives the same
   answer in less time (test_recount_vs_literal; REF_RECOUNT_BOTH runs both
   on every call). */
REF_FN int64_t ref_plan_recount_literal(const dnnmem_intervals *problem, const int64_t *offsets) {
  const dnnmem_interval *r = problem->records;
  int64_t arena = 0;
  int32_t i, j;
  for (i = 0; i < problem->count; i++) {
    if (offsets[i] < 0 || offsets[i] % ref_plan_alignment(&r[i], problem->alignment)) return -1;
    if ((r[i].flags & DNNMEM_INTERVAL_FIXED) && offsets[i] != r[i].fixed_offset) return -1;
    if (offsets[i] + r[i].size > arena) arena = offsets[i] + r[i].size;
    for (j = 0; j < i; j++)
      if (ref_plan_collide_pieces(&r[i], offsets[i], &r[j], offsets[j])) return -1;
  }
  return arena;
}

/* ids[0..n) by lower, ascending (a merge sort; tmp holds n). */
REF_FN void ref__by_lower(const dnnmem_interval *r, int32_t *ids, int32_t *tmp, int32_t n) {
  int32_t h = n / 2, i = 0, j = h, k = 0;
  if (n < 2) return;
  ref__by_lower(r, ids, tmp, h);
  ref__by_lower(r, ids + h, tmp, n - h);
  while (i < h || j < n) tmp[k++] = (j >= n || (i < h && r[ids[i]].lower <= r[ids[j]].lower)) ? ids[i++] : ids[j++];
  memcpy(ids, tmp, (size_t)n * sizeof(int32_t));
}

/* The recount, the same answer as ref_plan_recount_literal: two records
   collide only at a time both are alive (ref_plan_collide tests times
   inside both lifetimes), so with the records by lower only the pairs
   whose lifetimes meet are tested (ref_plan_collide: directly for two
   without gaps). O(n log n + the pairs alive together). The tests recount plans of thousands of records, four
   strategies a plan: every pair took most of the planning tests' time. */
REF_FN int64_t ref_plan_recount_sweep(const dnnmem_intervals *problem, const int64_t *offsets) {
  const dnnmem_interval *r = problem->records;
  int32_t n = problem->count, i, j, *ids, *tmp;
  int64_t arena = 0;
  for (i = 0; i < n; i++) {
    if (offsets[i] < 0 || offsets[i] % ref_plan_alignment(&r[i], problem->alignment)) return -1;
    if ((r[i].flags & DNNMEM_INTERVAL_FIXED) && offsets[i] != r[i].fixed_offset) return -1;
    if (offsets[i] + r[i].size > arena) arena = offsets[i] + r[i].size;
  }
  ids = (int32_t *)malloc((size_t)n * sizeof(int32_t) + 1);
  tmp = (int32_t *)malloc((size_t)n * sizeof(int32_t) + 1);
  if (!ids || !tmp) abort();
  for (i = 0; i < n; i++) ids[i] = i;
  ref__by_lower(r, ids, tmp, n);
  for (i = 0; i < n && arena >= 0; i++) {
    const dnnmem_interval *a = &r[ids[i]];
    int64_t oa = offsets[ids[i]];
    for (j = i + 1; j < n && r[ids[j]].lower < a->upper; j++) {
      const dnnmem_interval *b = &r[ids[j]];
      int64_t ob = offsets[ids[j]];
      if (ref_plan_collide(a, oa, b, ob)) {
        arena = -1;
        break;
      }
    }
  }
  free(ids), free(tmp);
  return arena;
}

/* The recount: the arena of a valid plan, -1 for an invalid one. */
REF_FN int64_t ref_plan_recount(const dnnmem_intervals *problem, const int64_t *offsets) {
#ifdef REF_RECOUNT_BOTH
  int64_t literal = ref_plan_recount_literal(problem, offsets), sweep = ref_plan_recount_sweep(problem, offsets);
  if (literal != sweep) {
    fprintf(stderr, "ref_plan_recount: the literal count %lld, the sweep %lld (%d records)\n", (long long)literal,
            (long long)sweep, problem->count);
    abort();
  }
  return sweep;
#else
  return ref_plan_recount_sweep(problem, offsets);
#endif
}

/* First fit by size, from its definition: fixed records where they must
   be; the others by size, descending (ties: index), each at the lowest
   aligned offset where it collides with no record placed before it (0 or
   the aligned end of one of them). Writes offsets; returns the arena.
   O(n^3). */
REF_FN int64_t ref_plan_first_fit_in(const dnnmem_intervals *problem, int64_t *offsets, const int32_t *order,
                                     int32_t m);
REF_FN int64_t ref_plan_first_fit(const dnnmem_intervals *problem, int64_t *offsets, int32_t *order) {
  const dnnmem_interval *r = problem->records;
  int32_t n = problem->count, i, j, k, m = 0;
  for (i = 0; i < n; i++)
    if (!(r[i].flags & DNNMEM_INTERVAL_FIXED)) order[m++] = i;
  for (i = 1; i < m; i++) /* insertion sort: size descending, then index */
    for (j = i; j > 0 && r[order[j]].size > r[order[j - 1]].size; j--) k = order[j], order[j] = order[j - 1], order[j - 1] = k;
  return ref_plan_first_fit_in(problem, offsets, order, m);
}

/* The size class of dnnmem_remat_plan's first fit rules 2 and 3: the
   largest c with 2^c <= size (0 for sizes 0 and 1). */
REF_FN int64_t ref_remat_size_class(int64_t size) {
  int64_t c = 0;
  while (c < 62 && ((int64_t)1 << (c + 1)) <= size) c++;
  return c;
}

/* Whether record x goes before y in dnnmem_remat_plan's first fit rule
   (its manual): 0 size descending; 1 size descending, then the later end;
   2 size class descending, then the later end, then size descending; 3
   size class descending, then the longer lifetime, then size descending;
   10 size descending, then the longer lifetime; ties the lower index. */
REF_FN int ref_remat_fit_before(const dnnmem_interval *r, int32_t rule, int32_t x, int32_t y) {
  int64_t kx[3], ky[3];
  int32_t i, by_class = rule == 2 || rule == 3, by_life = rule == 3 || rule == 10;
  kx[0] = by_class ? ref_remat_size_class(r[x].size) : r[x].size;
  ky[0] = by_class ? ref_remat_size_class(r[y].size) : r[y].size;
  kx[1] = rule == 0 ? 0 : by_life ? r[x].upper - r[x].lower : r[x].upper;
  ky[1] = rule == 0 ? 0 : by_life ? r[y].upper - r[y].lower : r[y].upper;
  kx[2] = r[x].size, ky[2] = r[y].size;
  for (i = 0; i < 3; i++)
    if (kx[i] != ky[i]) return kx[i] > ky[i];
  return x < y;
}

/* The lane widths of dnnmem_remat_plan's first fit rules 4-9 and 11-13
   (its manual): the sizes (> 0) by the bytes x steps of their records,
   descending, ties the larger size; rules 4-5 and 11 the first, 6-7 and
   12 the second, 8-9 and 13 the first three. Writes them to width;
   returns how many. O(n^2). */
REF_FN int32_t ref_remat_lane_widths(const dnnmem_interval *r, int32_t n, int32_t rule, int64_t *width) {
  int64_t top[3];
  double best_area;
  int32_t count = 0, i, j, k, want = rule >= 11 ? rule - 11 : (rule - 4) / 2;
  while (count < 3) {
    int64_t best = 0;
    best_area = -1;
    for (i = 0; i < n; i++) {
      double area = 0;
      if (r[i].size <= 0) continue;
      for (k = 0; k < count && top[k] != r[i].size; k++) {
      }
      if (k < count) continue; /* taken */
      for (j = 0; j < n; j++)
        if (r[j].size == r[i].size) area += (double)r[j].size * (double)(r[j].upper - r[j].lower);
      if (area > best_area || (area == best_area && r[i].size > best)) best_area = area, best = r[i].size;
    }
    if (best_area < 0) break;
    top[count++] = best;
  }
  if (want < 2) {
    if (want >= count) return 0;
    width[0] = top[want];
    return 1;
  }
  for (k = 0; k < count; k++) width[k] = top[k];
  return count;
}

/* The lowest aligned offset in [lo, hi - size of x] where record x
   collides with no placed record (offset >= 0); -1 if none. O(n^2). */
REF_FN int64_t ref_remat_lowest_in(const dnnmem_intervals *problem, const int64_t *offsets, int32_t x, int64_t lo,
                                   int64_t hi) {
  const dnnmem_interval *r = problem->records;
  int64_t a = ref_plan_alignment(&r[x], problem->alignment), best = -1;
  int32_t j, k;
  for (k = -1; k < problem->count; k++) {
    int64_t at = k < 0 ? lo : offsets[k] < 0 ? -1 : offsets[k] + r[k].size;
    if (at < lo) continue;
    at = (at + a - 1) / a * a;
    if (at > hi - r[x].size || (best >= 0 && at >= best)) continue;
    for (j = 0; j < problem->count && !(offsets[j] >= 0 && ref_plan_collide(&r[x], at, &r[j], offsets[j])); j++) {
    }
    if (j == problem->count) best = at;
  }
  return best;
}

/* The number of first-fit orders dnnmem_remat_plan tries (its private
   DNNMEM__REMAT_FIT_RULES + DNNMEM__REMAT_FIT_LONG; test_remat checks
   that they agree) and of those without lanes, which it takes also when
   they miss a capacity (rules 0-3; the others count only when they fit). */
#define REF_REMAT_FIT_RULES 14
#define REF_REMAT_FIT_PLAIN 4

/* dnnmem_remat_plan's first fit in rule's order (records without fixed
   offsets); rules 4-9 and 11-13 with lanes, from the manual: in rule 0's
   (4, 6, 8), rule 1's (5, 7, 9) or rule 10's (11, 12, 13) order, a
   record first takes the lowest offset inside the lowest lane of the
   narrowest width above its size (a lane: [offset, offset + width) of a
   placed record whose size is that width), then the lowest anywhere;
   records of size 0 at 0. Writes offsets; returns the arena. O(n^3)
   (O(n^4) with lanes). */
REF_FN int64_t ref_remat_first_fit(const dnnmem_intervals *problem, int32_t rule, int64_t *offsets, int32_t *order) {
  const dnnmem_interval *r = problem->records;
  int64_t width[3], arena = 0;
  int32_t n = problem->count, i, j, k, widths;
  for (i = 0; i < n; i++) order[i] = i;
  for (i = 1; i < n; i++)
    for (j = i; j > 0 && ref_remat_fit_before(r, rule < 4 ? rule : rule >= 10 ? 10 : rule % 2, order[j], order[j - 1]);
         j--)
      k = order[j], order[j] = order[j - 1], order[j - 1] = k;
  if (rule < 4 || rule == 10) return ref_plan_first_fit_in(problem, offsets, order, n);
  widths = ref_remat_lane_widths(r, n, rule, width);
  for (i = 0; i < n; i++) offsets[i] = -1;
  for (i = 0; i < n; i++) {
    int32_t x = order[i], c = -1;
    int64_t at = -1, lane = -1;
    if (r[x].size == 0) {
      offsets[x] = 0;
      continue;
    }
    for (k = 0; k < widths; k++)
      if (width[k] > r[x].size && (c < 0 || width[k] < width[c])) c = k;
    while (c >= 0) { /* the lanes of width c, lowest first */
      int64_t next = -1;
      for (j = 0; j < n; j++)
        if (offsets[j] > lane && r[j].size == width[c] && (next < 0 || offsets[j] < next)) next = offsets[j];
      if (next < 0) break;
      lane = next;
      if ((at = ref_remat_lowest_in(problem, offsets, x, lane, lane + width[c])) >= 0) break;
    }
    if (at < 0) at = ref_remat_lowest_in(problem, offsets, x, 0, INT64_MAX);
    offsets[x] = at;
  }
  for (i = 0; i < n; i++)
    if (offsets[i] + r[i].size > arena) arena = offsets[i] + r[i].size;
  return arena;
}

/* The curve's knee from the manual (dnnmem_remat_curve): the points with a
   time (the prefix before the first -1), a repeated budget taken once;
   slope i is the time per byte saved between kept points i and i + 1; the
   knee is the kept point between the two slopes whose increase is the
   largest, an increase counted only above 1e-9 x the two slopes' sum,
   the first (larger budget) on ties; -1 without one. Returns the index
   into pt. */
REF_FN int32_t ref_curve_knee(const dnnmem_remat_point *pt, int32_t n) {
  int32_t kept[64], m = 0, i, knee = -1;
  double slope[64], best = 0.0;
  for (i = 0; i < n && i < 64 && pt[i].time >= 0; i++)
    if (m == 0 || pt[i].budget != pt[kept[m - 1]].budget) kept[m++] = i;
  for (i = 0; i + 1 < m; i++)
    slope[i] = (double)(pt[kept[i + 1]].time - pt[kept[i]].time) /
               (double)(pt[kept[i]].budget - pt[kept[i + 1]].budget);
  for (i = 1; i + 1 < m; i++) {
    double rise = slope[i] - slope[i - 1], noise = 1e-9 * (slope[i] + slope[i - 1]);
    if (rise > noise && rise > best + noise) best = rise, knee = kept[i];
  }
  return knee;
}

/* First fit in the given order of m records: each at the lowest aligned
   offset where it collides with no record placed before it (0 or the
   aligned end of one of them); records not in order keep a fixed offset
   (or -1). Writes offsets; returns the arena. O(n^3). */
REF_FN int64_t ref_plan_first_fit_in(const dnnmem_intervals *problem, int64_t *offsets, const int32_t *order,
                                     int32_t m) {
  const dnnmem_interval *r = problem->records;
  int32_t n = problem->count, i, j, k;
  int64_t arena = 0;
  for (i = 0; i < n; i++) offsets[i] = (r[i].flags & DNNMEM_INTERVAL_FIXED) ? r[i].fixed_offset : -1;
  for (i = 0; i < m; i++) offsets[order[i]] = -1;
  for (i = 0; i < m; i++) {
    int32_t x = order[i];
    int64_t a = ref_plan_alignment(&r[x], problem->alignment), best = -1;
    for (k = -1; k < n; k++) {
      int64_t at = k < 0 ? 0 : offsets[k] < 0 ? -1 : (offsets[k] + r[k].size + a - 1) / a * a;
      if (at < 0 || (best >= 0 && at >= best)) continue;
      for (j = 0; j < n && !(offsets[j] >= 0 && ref_plan_collide(&r[x], at, &r[j], offsets[j])); j++) {
      }
      if (j == n) best = at;
    }
    offsets[x] = best;
  }
  for (i = 0; i < n; i++)
    if (offsets[i] + r[i].size > arena) arena = offsets[i] + r[i].size;
  return arena;
}

typedef struct ref_plan_search {
  const dnnmem_intervals *problem;
  int64_t *off, *best_off, best, load;
  int32_t *placed, *order, free_count, windows;
} ref_plan_search;

/* Whether record i at x collides with a placed record. */
REF_FN int ref_plan_blocked(const ref_plan_search *s, int32_t i, int64_t x) {
  int32_t j;
  for (j = 0; j < s->problem->count; j++)
    if (s->placed[j] && j != i && ref_plan_collide(&s->problem->records[i], x, &s->problem->records[j], s->off[j]))
      return 1;
  return 0;
}

REF_FN void ref_plan_found(ref_plan_search *s, int64_t top) {
  int32_t i;
  s->best = top;
  for (i = 0; i < s->problem->count; i++) s->best_off[i] = s->off[i];
}

/* Without windows: every order of the free records, each at the lowest
   valid offset above nothing but the records placed before it. Exact:
   take an optimal plan and place its free records in offset order; each
   lands at or below its optimal offset (the records placed before it sit
   at or below theirs and, without windows, wholly below it when they meet
   it in time). */
REF_FN void ref_plan_gravity(ref_plan_search *s, int32_t left, int64_t top) {
  int32_t i;
  if (top >= s->best || s->best == s->load) return;
  if (left == 0) {
    ref_plan_found(s, top);
    return;
  }
  for (i = 0; i < s->problem->count; i++) {
    const dnnmem_interval *r = &s->problem->records[i];
    int64_t x = 0, a = ref_plan_alignment(r, s->problem->alignment);
    if (s->placed[i]) continue;
    while (ref_plan_blocked(s, i, x)) x += a;
    s->off[i] = x;
    s->placed[i] = 1;
    ref_plan_gravity(s, left - 1, top > x + r->size ? top : x + r->size);
    s->placed[i] = 0;
  }
}

/* With windows (lowering a record may move a window onto another): every
   valid offset of every free record, the largest first, below the best
   arena found. Exponential in the arena: tiny inputs only. */
REF_FN void ref_plan_every_offset(ref_plan_search *s, int32_t k, int64_t top) {
  int32_t i;
  int64_t x, a;
  if (top >= s->best || s->best == s->load) return;
  if (k == s->free_count) {
    ref_plan_found(s, top);
    return;
  }
  i = s->order[k];
  a = ref_plan_alignment(&s->problem->records[i], s->problem->alignment);
  for (x = 0; x + s->problem->records[i].size < s->best; x += a) {
    if (ref_plan_blocked(s, i, x)) continue;
    s->off[i] = x;
    s->placed[i] = 1;
    ref_plan_every_offset(s, k + 1, top > x + s->problem->records[i].size ? top : x + s->problem->records[i].size);
    s->placed[i] = 0;
  }
}

/* The oracle: the minimum arena over every valid plan, or -1 when the fixed
   records collide (no valid plan). Tiny inputs only (about 7 records
   without windows, 5 small ones with). offsets (may be NULL) receives an
   optimal plan. The search stops at the load bound (the most bytes
   occupied at one time, every fixed top), which no plan beats. */
REF_FN int64_t ref_plan_optimum(const dnnmem_intervals *problem, int64_t *offsets) {
  const dnnmem_interval *r = problem->records;
  int32_t n = problem->count, i, j, g, left = 0;
  int64_t top = 0, stack = 0;
  ref_plan_search s;
  memset(&s, 0, sizeof s);
  s.problem = problem;
  s.off = (int64_t *)calloc((size_t)n + 1, sizeof(int64_t));
  s.best_off = (int64_t *)calloc((size_t)n + 1, sizeof(int64_t));
  s.placed = (int32_t *)calloc((size_t)n + 1, sizeof(int32_t));
  s.order = (int32_t *)calloc((size_t)n + 1, sizeof(int32_t));
  for (i = 0; i < n; i++) {
    int64_t a = ref_plan_alignment(&r[i], problem->alignment);
    for (g = 0; g < r[i].num_gaps; g++) s.windows |= r[i].gaps[g].window_upper > r[i].gaps[g].window_lower;
    for (g = -1; g < 2 * r[i].num_gaps; g++) { /* the load at each piece start */
      int64_t t = g < 0 ? r[i].lower : g % 2 ? r[i].gaps[g / 2].upper : r[i].gaps[g / 2].lower, sum = 0, lo, hi;
      for (j = 0; j < n; j++)
        if (ref_plan_occupied(&r[j], t, 0, &lo, &hi)) sum += hi - lo;
      if (sum > s.load) s.load = sum;
    }
    if (r[i].flags & DNNMEM_INTERVAL_FIXED) {
      if (ref_plan_blocked(&s, i, r[i].fixed_offset)) top = -1;
      s.off[i] = r[i].fixed_offset;
      s.placed[i] = 1;
      if (top >= 0 && s.off[i] + r[i].size > top) top = s.off[i] + r[i].size;
    } else {
      s.order[s.free_count++] = i;
      left++;
      stack += (r[i].size + a - 1) / a * a + a - 1; /* stacked above everything: valid */
    }
  }
  for (i = 1; i < s.free_count; i++) /* the largest first */
    for (j = i; j > 0 && r[s.order[j]].size > r[s.order[j - 1]].size; j--) {
      int32_t t = s.order[j];
      s.order[j] = s.order[j - 1], s.order[j - 1] = t;
    }
  if (top >= 0) {
    if (top > s.load) s.load = top;
    s.best = top + stack + 1;
    if (s.windows) ref_plan_every_offset(&s, 0, top);
    else ref_plan_gravity(&s, left, top);
    if (offsets)
      for (i = 0; i < n; i++) offsets[i] = s.best_off[i];
    top = s.best;
  }
  free(s.off), free(s.best_off), free(s.placed), free(s.order);
  return top;
}

/* A tiling with a known optimum: a time x bytes rectangle [0, time) x
   [0, height) cut at random (guillotine cuts, byte cuts at multiples of
   unit) into at most `pieces` records, written to r. The load is the
   height at every time, so the optimum is exactly `height`. Returns the
   number of records. */
REF_FN int32_t ref_plan_tiling(dnnmem_rng *rng, dnnmem_interval *r, int32_t pieces, int64_t time,
                               int64_t height, int64_t unit) {
  int32_t n = 1, tries = 0;
  memset(r, 0, sizeof *r);
  r[0].upper = time, r[0].size = height;
  while (n < pieces && tries++ < 100000) {
    dnnmem_interval *c = &r[dnnmem_rng_below(rng, (uint32_t)n)];
    if (dnnmem_rng_below(rng, 2)) {
      int64_t len = c->upper - c->lower, at;
      if (len < 2) continue;
      at = c->lower + 1 + (int64_t)dnnmem_rng_below(rng, (uint32_t)(len - 1));
      r[n] = *c;
      r[n].lower = at;
      c->upper = at;
    } else {
      int64_t at;
      if (c->size < 2 * unit) continue;
      at = unit * (1 + (int64_t)dnnmem_rng_below(rng, (uint32_t)(c->size / unit - 1)));
      r[n] = *c;
      r[n].size = c->size - at;
      c->size = at;
    }
    n++;
  }
  return n;
}

/* ---- aliases and in-place reuse ---- */

/* Linked records (DNNMEM_INTERVAL_ALIAS / _REUSE): two records may occupy
   a common byte at a common time only at the same offset, and only when
   they are in one alias class (the records ALIAS links join) or a REUSE
   link joins their classes. Aliased records share their offset. */

/* The alias class of record i: the record its ALIAS chain ends at, or -1
   on a cycle. O(n) per call. */
REF_FN int32_t ref_plan_alias_root(const dnnmem_intervals *problem, int32_t i) {
  int32_t steps = 0;
  while (problem->records[i].flags & DNNMEM_INTERVAL_ALIAS) {
    if (++steps > problem->count) return -1;
    i = problem->records[i].alias;
  }
  return i;
}

/* Whether records i and j may overlap: same offset, and one class or a
   reuse link between their classes. */
REF_FN int ref_plan_tied(const dnnmem_intervals *problem, const int64_t *offsets, int32_t i, int32_t j) {
  int32_t ci = ref_plan_alias_root(problem, i), cj = ref_plan_alias_root(problem, j), k;
  if (offsets[i] != offsets[j]) return 0;
  if (ci == cj) return 1;
  for (k = 0; k < problem->count; k++) {
    const dnnmem_interval *r = &problem->records[k];
    int32_t a, b;
    if (!(r->flags & DNNMEM_INTERVAL_REUSE)) continue;
    a = ref_plan_alias_root(problem, r->reuse), b = ref_plan_alias_root(problem, k);
    if ((a == ci && b == cj) || (a == cj && b == ci)) return 1;
  }
  return 0;
}

/* The recount of a plan of linked records: the arena, -1 when invalid.
   O(n^3). */
REF_FN int64_t ref_plan_tied_recount(const dnnmem_intervals *problem, const int64_t *offsets) {
  const dnnmem_interval *r = problem->records;
  int64_t arena = 0;
  int32_t i, j;
  for (i = 0; i < problem->count; i++) {
    if (offsets[i] < 0 || offsets[i] % ref_plan_alignment(&r[i], problem->alignment)) return -1;
    if ((r[i].flags & DNNMEM_INTERVAL_FIXED) && offsets[i] != r[i].fixed_offset) return -1;
    if ((r[i].flags & DNNMEM_INTERVAL_ALIAS) && offsets[i] != offsets[r[i].alias]) return -1;
    if (offsets[i] + r[i].size > arena) arena = offsets[i] + r[i].size;
    for (j = 0; j < i; j++)
      if (ref_plan_collide(&r[i], offsets[i], &r[j], offsets[j]) && !ref_plan_tied(problem, offsets, i, j))
        return -1;
  }
  return arena;
}

/* The planning operations' rule, as DNNMEM_OK or the error they must
   return: alias cycles (DNNMEM_ERR_CYCLE), one class fixed at two offsets
   (DNNMEM_ERR_PLAN_ALIAS_OFFSET), and every reuse link: A's class ends at
   B.lower + 1 and began before it, B's class begins at B.lower, the two
   classes differ (DNNMEM_ERR_PLAN_REUSE). The record rules are
   dnnmem_intervals_check's. O(n^2). */
REF_FN dnnmem_result ref_plan_reuse_rule(const dnnmem_intervals *problem) {
  const dnnmem_interval *r = problem->records;
  int32_t i, j;
  for (i = 0; i < problem->count; i++)
    if (ref_plan_alias_root(problem, i) < 0) return DNNMEM_ERR_CYCLE;
  for (i = 0; i < problem->count; i++)
    for (j = 0; j < i; j++)
      if ((r[i].flags & r[j].flags & DNNMEM_INTERVAL_FIXED) && r[i].fixed_offset != r[j].fixed_offset &&
          ref_plan_alias_root(problem, i) == ref_plan_alias_root(problem, j))
        return DNNMEM_ERR_PLAN_ALIAS_OFFSET;
  for (i = 0; i < problem->count; i++) {
    int32_t ca, cb;
    int64_t step = r[i].lower, a_lo = INT64_MAX, a_hi = INT64_MIN, b_lo = INT64_MAX;
    if (!(r[i].flags & DNNMEM_INTERVAL_REUSE)) continue;
    ca = ref_plan_alias_root(problem, r[i].reuse), cb = ref_plan_alias_root(problem, i);
    for (j = 0; j < problem->count; j++) {
      int32_t c = ref_plan_alias_root(problem, j);
      if (c == ca) a_lo = r[j].lower < a_lo ? r[j].lower : a_lo, a_hi = r[j].upper > a_hi ? r[j].upper : a_hi;
      if (c == cb) b_lo = r[j].lower < b_lo ? r[j].lower : b_lo;
    }
    if (ca == cb || a_hi != step + 1 || a_lo >= step || b_lo != step) return DNNMEM_ERR_PLAN_REUSE;
  }
  return DNNMEM_OK;
}

typedef struct ref_plan_tied_search {
  const dnnmem_intervals *problem;
  int32_t *root, *classes, count; /* classes: the class roots, largest first */
  int64_t *off, *best_off, best, align_of_class[16];
  int32_t fixed_of_class[16];
} ref_plan_tied_search;

/* Every offset of every class in turn (members placed together), each
   checked pairwise against the records placed before: exponential, tiny
   inputs only (at most 16 classes, small sizes). */
REF_FN void ref_plan_tied_place(ref_plan_tied_search *s, int32_t k, int64_t top) {
  const dnnmem_intervals *p = s->problem;
  int32_t c, i, j;
  int64_t x;
  if (top >= s->best) return;
  if (k == s->count) {
    s->best = top;
    memcpy(s->best_off, s->off, (size_t)p->count * sizeof(int64_t));
    return;
  }
  c = s->classes[k];
  for (x = 0; x < s->best; x += s->align_of_class[k]) {
    int ok = 1;
    int64_t t = top;
    if (s->fixed_of_class[k] >= 0) x = p->records[s->fixed_of_class[k]].fixed_offset;
    for (i = 0; i < p->count; i++)
      if (s->root[i] == c) s->off[i] = x, t = x + p->records[i].size > t ? x + p->records[i].size : t;
    for (i = 0; i < p->count && ok; i++) {
      if (s->root[i] != c) continue;
      for (j = 0; j < p->count && ok; j++) {
        int32_t placed = 0, m;
        for (m = 0; m < k; m++) placed |= s->root[j] == s->classes[m];
        if (placed && ref_plan_collide(&p->records[i], s->off[i], &p->records[j], s->off[j]) &&
            !ref_plan_tied(p, s->off, i, j))
          ok = 0;
      }
    }
    if (ok) ref_plan_tied_place(s, k + 1, t);
    if (s->fixed_of_class[k] >= 0) break;
  }
}

/* The oracle: the least arena of any valid plan of linked records (the
   reuse links each used or not, as the offsets say); -1 when none exists
   (fixed records collide). offsets (may be NULL) receives one. Tiny inputs. */
REF_FN int64_t ref_plan_tied_optimum(const dnnmem_intervals *problem, int64_t *offsets) {
  const dnnmem_interval *r = problem->records;
  int32_t n = problem->count, i, j;
  int64_t stack = 0;
  ref_plan_tied_search s;
  memset(&s, 0, sizeof s);
  s.problem = problem;
  s.root = (int32_t *)calloc((size_t)n + 1, sizeof(int32_t));
  s.classes = (int32_t *)calloc((size_t)n + 1, sizeof(int32_t));
  s.off = (int64_t *)calloc((size_t)n + 1, sizeof(int64_t));
  s.best_off = (int64_t *)calloc((size_t)n + 1, sizeof(int64_t));
  for (i = 0; i < n; i++) {
    int64_t a = ref_plan_alignment(&r[i], problem->alignment);
    s.root[i] = ref_plan_alias_root(problem, i);
    stack += (r[i].size + a - 1) / a * a + a - 1;
    if (r[i].flags & DNNMEM_INTERVAL_FIXED) stack += r[i].fixed_offset + r[i].size;
  }
  for (i = 0; i < n; i++) {
    int32_t seen = 0;
    for (j = 0; j < s.count; j++) seen |= s.classes[j] == s.root[i];
    if (!seen && s.count < 16) {
      s.classes[s.count] = s.root[i];
      s.align_of_class[s.count] = 1;
      s.fixed_of_class[s.count++] = -1;
    }
  }
  for (i = 0; i < n; i++)
    for (j = 0; j < s.count; j++)
      if (s.classes[j] == s.root[i]) {
        int64_t a = ref_plan_alignment(&r[i], problem->alignment);
        if (a > s.align_of_class[j]) s.align_of_class[j] = a;
        if (r[i].flags & DNNMEM_INTERVAL_FIXED) s.fixed_of_class[j] = i;
      }
  s.best = stack + 1;
  ref_plan_tied_place(&s, 0, 0);
  if (offsets && s.best <= stack) memcpy(offsets, s.best_off, (size_t)n * sizeof(int64_t));
  free(s.root), free(s.classes), free(s.off), free(s.best_off);
  return s.best <= stack ? s.best : -1;
}

/* Random linked records for tests and fuzzing: n records over [0, steps)
   with sizes 1..max_size, then each record with probability 1/3 an ALIAS
   of an earlier one, or with 1/2 a REUSE of a record that dies at its
   first step, began before it and is no smaller (when there is one). The
   result obeys the record rules; the group rule (ref_plan_reuse_rule) may
   fail. */
REF_FN void ref_plan_random_tied(dnnmem_rng *rng, dnnmem_interval *r, int32_t n, int64_t steps, int64_t max_size) {
  int32_t i, j;
  for (i = 0; i < n; i++) {
    int64_t lo = (int64_t)dnnmem_rng_below(rng, (uint32_t)steps);
    int64_t len = 1 + (int64_t)dnnmem_rng_below(rng, (uint32_t)(steps - lo));
    r[i] = ref_plan_record(lo, lo + len, 1 + (int64_t)dnnmem_rng_below(rng, (uint32_t)max_size));
  }
  for (i = 0; i < n; i++) {
    uint32_t pick = dnnmem_rng_below(rng, 6);
    if (pick < 2 && i > 0) {
      r[i].flags |= DNNMEM_INTERVAL_ALIAS;
      r[i].alias = (int32_t)dnnmem_rng_below(rng, (uint32_t)i);
    } else if (pick < 5) {
      for (j = 0; j < n; j++)
        if (j != i && r[j].upper == r[i].lower + 1 && r[j].lower < r[i].lower && r[j].size >= r[i].size &&
            !(r[j].flags & DNNMEM_INTERVAL_REUSE && r[j].reuse == i)) {
          r[i].flags |= DNNMEM_INTERVAL_REUSE;
          r[i].reuse = j;
          break;
        }
    }
  }
}

/* ---- symbolic sizes (dnnmem_plan_symbolic_*) ---- */

/* c[0] + c[1] s + ... (small values: no overflow checks). */
REF_FN int64_t ref_poly(const int64_t *c, int32_t terms, int64_t s) {
  int64_t v = 0;
  int32_t j;
  for (j = terms - 1; j >= 0; j--) v = v * s + c[j];
  return v;
}

/* The most bytes live at one time (gaps ignored): every plan's floor. */
REF_FN int64_t ref_plan_max_load(const dnnmem_interval *r, int32_t n) {
  int64_t best = 0;
  int32_t i, j;
  for (i = 0; i < n; i++) {
    int64_t sum = 0;
    for (j = 0; j < n; j++)
      if (r[j].lower <= r[i].lower && r[i].lower < r[j].upper) sum += r[j].size;
    if (sum > best) best = sum;
  }
  return best;
}

/* A symbolic tiling: the rectangle [0, time) x [0, height(S)) cut at
   random into at most `pieces` records, a time cut splitting a record's
   lifetime, a byte cut its polynomial (coefficient by coefficient). The
   load is height(S) at every time and every S, and the tiling itself is a
   plan at every S, so the best stacking meets the lower bound everywhere
   (worst ratio exactly 1). r[] gets lifetimes, c[] terms coefficients per
   record; returns the record count. */
REF_FN int32_t ref_symbolic_tiling(dnnmem_rng *rng, dnnmem_interval *r, int64_t *c, int32_t terms,
                                   int32_t pieces, int64_t time, const int64_t *height) {
  int32_t n = 1, tries = 0, j;
  memset(r, 0, sizeof *r);
  r[0].upper = time;
  for (j = 0; j < terms; j++) c[j] = height[j];
  while (n < pieces && tries++ < 100000) {
    int32_t k = (int32_t)dnnmem_rng_below(rng, (uint32_t)n), split = 0;
    if (dnnmem_rng_below(rng, 2)) {
      int64_t len = r[k].upper - r[k].lower, at;
      if (len < 2) continue;
      at = r[k].lower + 1 + (int64_t)dnnmem_rng_below(rng, (uint32_t)(len - 1));
      r[n] = r[k];
      r[n].lower = at;
      r[k].upper = at;
      for (j = 0; j < terms; j++) c[n * terms + j] = c[k * terms + j];
    } else {
      for (j = 0; j < terms; j++) {
        int64_t part = c[k * terms + j] > 0 ? (int64_t)dnnmem_rng_below(rng, (uint32_t)c[k * terms + j] + 1) : 0;
        c[n * terms + j] = c[k * terms + j] - part;
        c[k * terms + j] = part;
        split |= part > 0 && c[n * terms + j] > 0;
      }
      if (!split) { /* give back: both halves must be nonzero somewhere */
        for (j = 0; j < terms; j++) c[k * terms + j] += c[n * terms + j];
        continue;
      }
      r[n] = r[k];
    }
    n++;
  }
  return n;
}

/* The best worst ratio of any stacking, by brute force over the orders
   of n <= 7 records (a stacking is an order, each record on the highest
   earlier one it meets in time; alignment 1): the least, over orders, of
   the most arena(S) / max load(S) over every S in [lo, hi]. */
REF_FN double ref_symbolic_best_worst(const dnnmem_interval *lifetimes, const int64_t *c, int32_t terms,
                                      int32_t n, int64_t lo, int64_t hi) {
  int32_t perm[8], i, j, k;
  double best = 1e300;
  for (i = 0; i < n; i++) perm[i] = i;
  for (;;) {
    double worst = 0.0;
    int64_t s;
    for (s = lo; s <= hi; s++) {
      dnnmem_interval r[8];
      int64_t off[8], arena = 0, load;
      for (i = 0; i < n; i++) r[i] = lifetimes[i], r[i].size = ref_poly(c + i * terms, terms, s);
      for (i = 0; i < n; i++) {
        int32_t a = perm[i];
        off[a] = 0;
        for (j = 0; j < i; j++) {
          int32_t b = perm[j];
          if (r[b].lower < r[a].upper && r[a].lower < r[b].upper && off[b] + r[b].size > off[a])
            off[a] = off[b] + r[b].size;
        }
        if (off[a] + r[a].size > arena) arena = off[a] + r[a].size;
      }
      load = ref_plan_max_load(r, n);
      if ((load > 0 ? (double)arena / (double)load : 1.0) > worst) worst = load > 0 ? (double)arena / (double)load : 1.0;
    }
    if (worst < best) best = worst;
    /* next permutation (lexicographic) */
    for (k = n - 2; k >= 0 && perm[k] > perm[k + 1]; k--) {}
    if (k < 0) break;
    for (j = n - 1; perm[j] < perm[k]; j--) {}
    i = perm[k], perm[k] = perm[j], perm[j] = i;
    for (i = k + 1, j = n - 1; i < j; i++, j--) {
      int32_t t = perm[i];
      perm[i] = perm[j], perm[j] = t;
    }
  }
  return best;
}

/* ref_plan_optimum of the records of p whose ids are listed (count of
   them), less record `skip` (-1: none); links are not followed. */
REF_FN int64_t ref_plan_optimum_of(const dnnmem_intervals *p, const int32_t *ids, int32_t count, int32_t skip) {
  dnnmem_interval *sub = (dnnmem_interval *)calloc((size_t)count + 1, sizeof(dnnmem_interval));
  dnnmem_intervals q;
  int32_t i, m = 0;
  int64_t best;
  for (i = 0; i < count; i++)
    if (ids[i] != skip) sub[m++] = p->records[ids[i]];
  q.records = sub;
  q.count = m;
  q.alignment = p->alignment;
  best = ref_plan_optimum(&q, NULL);
  free(sub);
  return best;
}

/* Whether a stacking (dnnmem_plan_symbolic_solve's) lists no edge it
   could leave out: b is listed under r only when no record c that meets
   both in time lies between them (b under c and c under r, each through
   the listed edges, transitively). Such a c puts r above b's top at every
   S without the edge. Also: every edge joins records that meet in time,
   b earlier in the order than r. n <= 64. */
REF_FN int ref_symbolic_stack_irredundant(const dnnmem_interval *lifetimes, int32_t n, const int32_t *order,
                                          const int32_t *below_offsets, const int32_t *below_ids) {
  uint8_t reach[64][64]; /* reach[a][b]: a lies under b (a path of edges) */
  int32_t pos[64], i, j, k, e;
  if (n > 64) return 0;
  memset(reach, 0, sizeof reach);
  for (i = 0; i < n; i++) pos[order[i]] = i;
  for (i = 0; i < n; i++) { /* bottom-up: r's reach from its listed records */
    int32_t r = order[i];
    for (e = below_offsets[i]; e < below_offsets[i + 1]; e++) {
      int32_t b = below_ids[e];
      if (pos[b] >= i || !(lifetimes[b].lower < lifetimes[r].upper && lifetimes[r].lower < lifetimes[b].upper)) return 0;
      reach[b][r] = 1;
      for (k = 0; k < n; k++)
        if (reach[k][b]) reach[k][r] = 1;
    }
  }
  for (i = 0; i < n; i++) {
    int32_t r = order[i];
    for (e = below_offsets[i]; e < below_offsets[i + 1]; e++) {
      int32_t b = below_ids[e];
      for (j = 0; j < n; j++) {
        const dnnmem_interval *c = &lifetimes[j];
        if (j == b || j == r || !reach[b][j] || !reach[j][r]) continue;
        if (c->lower < lifetimes[b].upper && lifetimes[b].lower < c->upper && c->lower < lifetimes[r].upper &&
            lifetimes[r].lower < c->upper)
          return 0;
      }
    }
  }
  return 1;
}

#ifdef DNNMEM_FILES_H
/* Test data through the tool's reader (examples/dnnmem_files.h, included
   before this file): the records of an intervals or graph CSV without gaps,
   *out malloc'ed (the caller frees it); the count, or -1 with the reader's
   message on stderr. */
REF_FN int32_t ref_plan_read_csv(const char *path, dnnmem_interval **out) {
  files_intervals iv;
  files_error err;
  int32_t i, n;
  *out = NULL;
  if (files_read_intervals(path, 0, &iv, &err) != 0) {
    files_error_print(stderr, &err);
    return -1;
  }
  n = iv.n;
  for (i = 0; i < iv.n; i++)
    if (iv.records[i].num_gaps) n = -1; /* the gaps live in iv */
  if (n >= 0 && (*out = (dnnmem_interval *)malloc(((size_t)n + 1) * sizeof(**out))) != NULL)
    memcpy(*out, iv.records, (size_t)n * sizeof(**out));
  files_intervals_free(&iv);
  return *out ? n : -1;
}
#endif

/* The record order dnnmem_plan_chains documents: (lower, upper desc, size
   desc, index), by insertion sort into sorted. */
REF_FN void ref_plan_chains_order(const dnnmem_interval *r, int32_t n, int32_t *sorted) {
  int32_t k, j;
  for (k = 0; k < n; k++) sorted[k] = k;
  for (k = 1; k < n; k++) {
    int32_t v = sorted[k];
    for (j = k; j > 0; j--) {
      const dnnmem_interval *a = &r[v], *b = &r[sorted[j - 1]];
      int less = a->lower != b->lower   ? a->lower < b->lower
                 : a->upper != b->upper ? a->upper > b->upper
                 : a->size != b->size   ? a->size > b->size
                                        : v < sorted[j - 1];
      if (!less) break;
      sorted[j] = sorted[j - 1];
    }
    sorted[j] = v;
  }
}

/* The grouping rule dnnmem_plan_chains documents, naively in O(n g):
   records by (lower, upper desc, size desc, index), each to the free group
   (its last record ended by the record's lower) whose last size is
   closest, then the latest end, then the smallest number; else a new
   group. */
REF_FN void ref_plan_chains_rule(const dnnmem_interval *r, int32_t n, int32_t *group_of) {
  int32_t *sorted = (int32_t *)malloc(((size_t)n + 1) * sizeof(int32_t));
  int64_t *end = (int64_t *)malloc(((size_t)n + 1) * sizeof(int64_t));
  int64_t *last_size = (int64_t *)malloc(((size_t)n + 1) * sizeof(int64_t));
  int32_t k, g, groups = 0;
  ref_plan_chains_order(r, n, sorted);
  for (k = 0; k < n; k++) {
    int32_t id = sorted[k], pick = -1;
    for (g = 0; g < groups; g++) {
      int64_t dg, dp;
      if (end[g] > r[id].lower) continue;
      if (pick < 0) {
        pick = g;
        continue;
      }
      dg = last_size[g] > r[id].size ? last_size[g] - r[id].size : r[id].size - last_size[g];
      dp = last_size[pick] > r[id].size ? last_size[pick] - r[id].size : r[id].size - last_size[pick];
      if (dg < dp || (dg == dp && end[g] > end[pick])) pick = g;
    }
    if (pick < 0) pick = groups++;
    group_of[id] = pick;
    end[pick] = r[id].upper;
    last_size[pick] = r[id].size;
  }
  free(sorted);
  free(end);
  free(last_size);
}

/* (end of section 2) */

/* Pools (dnnmem_plan_pools): a plan puts record i in pool pool_of[i], one
   of those it may use, at offsets[i] within that pool's arena; inside each
   pool the plan rules above hold with the alignment max(problem's, pool's),
   and each bounded pool's arena stays within its capacity. Cost: the sum of
   size x the pool's cost. */

/* Whether record i may use pool q. */
REF_FN int ref_pools_allowed(const dnnmem_plan_pools *p, int32_t i, int32_t q) {
  int32_t k;
  if (!p->allowed_offsets) return q >= 0 && q < p->num_pools;
  for (k = p->allowed_offsets[i]; k < p->allowed_offsets[i + 1]; k++)
    if (p->allowed_ids[k] == q) return 1;
  return 0;
}

/* The records of pool q (pool_of) as a problem with the pool's alignment,
   their offsets into sub_off (when offsets given); links renumbered, a
   reuse of a record in another pool dropped (not used). Returns the
   count, -1 when an alias link leaves the pool (its class is split). */
REF_FN int32_t ref_pools_subset(const dnnmem_plan_pools *p, const int32_t *pool_of, const int64_t *offsets, int32_t q,
                                dnnmem_interval *sub, int64_t *sub_off, dnnmem_intervals *out) {
  int32_t i, m = 0, split = 0, *at = (int32_t *)calloc((size_t)p->intervals->count + 1, sizeof(int32_t));
  for (i = 0; i < p->intervals->count; i++) {
    at[i] = -1;
    if (pool_of[i] == q) {
      sub[m] = p->intervals->records[i];
      if (offsets) sub_off[m] = offsets[i];
      at[i] = m++;
    }
  }
  for (i = 0; i < m; i++) {
    if (sub[i].flags & DNNMEM_INTERVAL_ALIAS) {
      split |= at[sub[i].alias] < 0;
      sub[i].alias = at[sub[i].alias];
    }
    if ((sub[i].flags & DNNMEM_INTERVAL_REUSE) && at[sub[i].reuse] < 0) sub[i].flags &= ~DNNMEM_INTERVAL_REUSE;
    else if (sub[i].flags & DNNMEM_INTERVAL_REUSE) sub[i].reuse = at[sub[i].reuse];
  }
  free(at);
  out->records = sub;
  out->count = m;
  out->alignment = p->intervals->alignment > p->pools[q].alignment ? p->intervals->alignment : p->pools[q].alignment;
  return split ? -1 : m;
}

/* Whether any record has a link (the tied oracles then). */
REF_FN int ref_plan_has_links(const dnnmem_intervals *problem) {
  int32_t i;
  for (i = 0; i < problem->count; i++)
    if (problem->records[i].flags & (DNNMEM_INTERVAL_ALIAS | DNNMEM_INTERVAL_REUSE)) return 1;
  return 0;
}

/* The recount: the cost of a valid plan, -1 for an invalid one (a forbidden
   pool, a plan rule broken in a pool, a pool over its capacity). arenas
   (may be NULL) receives each pool's arena. */
REF_FN int64_t ref_pools_recount(const dnnmem_plan_pools *p, const int32_t *pool_of, const int64_t *offsets,
                                 int64_t *arenas) {
  int32_t n = p->intervals->count, i, q;
  int64_t cost = 0;
  dnnmem_interval *sub = (dnnmem_interval *)calloc((size_t)n + 1, sizeof(dnnmem_interval));
  int64_t *sub_off = (int64_t *)calloc((size_t)n + 1, sizeof(int64_t));
  for (i = 0; i < n && cost >= 0; i++) {
    if (!ref_pools_allowed(p, i, pool_of[i])) cost = -1;
    else cost += p->intervals->records[i].size * p->pools[pool_of[i]].cost;
  }
  for (q = 0; q < p->num_pools && cost >= 0; q++) {
    dnnmem_intervals one;
    int64_t arena = -1;
    if (ref_pools_subset(p, pool_of, offsets, q, sub, sub_off, &one) >= 0)
      arena = ref_plan_has_links(&one) ? ref_plan_tied_recount(&one, sub_off) : ref_plan_recount(&one, sub_off);
    if (arena < 0 || (p->pools[q].capacity > 0 && arena > p->pools[q].capacity)) cost = -1;
    if (arenas) arenas[q] = arena;
  }
  free(sub), free(sub_off);
  return cost;
}

/* The oracle: the least cost over every assignment of records to pools
   they may use, each alias class in one pool, whose every bounded pool's
   records fit its capacity (ref_plan_optimum per pool, ref_plan_tied_optimum
   with links); -1 when none does. Tiny inputs only (pools^n assignments,
   each pool by brute force). */
REF_FN int64_t ref_pools_optimum(const dnnmem_plan_pools *p) {
  int32_t n = p->intervals->count, i, q, *pool_of = (int32_t *)calloc((size_t)n + 1, sizeof(int32_t));
  dnnmem_interval *sub = (dnnmem_interval *)calloc((size_t)n + 1, sizeof(dnnmem_interval));
  int64_t best = -1;
  for (;;) {
    int ok = 1;
    int64_t cost = 0;
    for (i = 0; i < n && ok; i++) ok = ref_pools_allowed(p, i, pool_of[i]);
    for (i = 0; i < n && ok; i++) cost += p->intervals->records[i].size * p->pools[pool_of[i]].cost;
    if (ok && (best < 0 || cost < best)) {
      for (q = 0; q < p->num_pools && ok; q++) {
        dnnmem_intervals one;
        int64_t arena;
        int32_t m = ref_pools_subset(p, pool_of, NULL, q, sub, NULL, &one), j;
        if (m < 0) { /* a class split over pools */
          ok = 0;
          break;
        }
        arena = ref_plan_has_links(&one) ? ref_plan_tied_optimum(&one, NULL) : ref_plan_optimum(&one, NULL);
        /* -1: fixed records collide */
        for (j = 0; j < m; j++) /* a fixed offset must suit the pool's alignment */
          if ((sub[j].flags & DNNMEM_INTERVAL_FIXED) && sub[j].fixed_offset % ref_plan_alignment(&sub[j], one.alignment))
            arena = -1;
        ok = arena >= 0 && (p->pools[q].capacity == 0 || arena <= p->pools[q].capacity);
      }
      if (ok) best = cost;
    }
    for (i = 0; i < n && ++pool_of[i] == p->num_pools; i++) pool_of[i] = 0; /* the next assignment */
    if (i == n) break;
  }
  free(pool_of), free(sub);
  return best;
}

/* The oracle on the records with member[i] != 0 (each with its allowed
   list, links dropped: conflict sets take none): the least cost, -1 when
   no plan exists. */
REF_FN int64_t ref_pools_optimum_of(const dnnmem_plan_pools *p, const uint8_t *member) {
  int32_t n = p->intervals->count, i, j, m = 0, k = 0;
  dnnmem_interval *sub = (dnnmem_interval *)calloc((size_t)n + 1, sizeof(dnnmem_interval));
  int32_t *offs = (int32_t *)calloc((size_t)n + 2, sizeof(int32_t));
  int32_t *ids = (int32_t *)calloc((size_t)n * (size_t)p->num_pools + 1, sizeof(int32_t));
  dnnmem_intervals iv;
  dnnmem_plan_pools q = *p;
  int64_t best;
  for (i = 0; i < n; i++) {
    if (!member[i]) continue;
    sub[m++] = p->intervals->records[i];
    for (j = 0; p->allowed_offsets && j < p->allowed_offsets[i + 1] - p->allowed_offsets[i]; j++)
      ids[k++] = p->allowed_ids[p->allowed_offsets[i] + j];
    offs[m] = k;
  }
  iv.records = sub, iv.count = m, iv.alignment = p->intervals->alignment;
  q.intervals = &iv;
  if (p->allowed_offsets) q.allowed_offsets = offs, q.allowed_ids = ids;
  best = ref_pools_optimum(&q);
  free(sub), free(offs), free(ids);
  return best;
}

/* ==== 3. Shared objects =================================================== */

/* An assignment is valid when every id is in [0, count) and no two records
   whose lifetimes intersect share an id; its total is the sum over the ids
   in use of the largest size assigned to each. */

/* The recount: the total of a valid assignment and, in *objects (may be
   NULL), the number of ids in use; -1 for an invalid one. O(n^2). */
REF_FN int64_t ref_share_recount(const dnnmem_intervals *problem, const int32_t *object_of, int32_t *objects) {
  const dnnmem_interval *r = problem->records;
  int32_t n = problem->count, i, j, used = 0;
  int64_t total = 0;
  for (i = 0; i < n; i++) {
    int64_t size = r[i].size;
    int first = 1;
    if (object_of[i] < 0 || object_of[i] >= n) return -1;
    for (j = 0; j < n; j++) {
      if (j == i || object_of[j] != object_of[i]) continue;
      if (j < i) first = 0;
      if (r[i].lower < r[j].upper && r[j].lower < r[i].upper) return -1;
      if (r[j].size > size || (r[j].size == size && j < i)) size = -1; /* counted at its largest, first */
    }
    if (first) used++;
    if (size >= 0) total += size;
  }
  if (objects) *objects = used;
  return total;
}

REF_FN void ref_share_search(const dnnmem_interval *r, int32_t n, int32_t *obj, int64_t *size_of, int32_t i,
                             int32_t k, int64_t total, int64_t *best) {
  int32_t o, j;
  if (total >= *best) return;
  if (i == n) {
    *best = total;
    return;
  }
  for (o = 0; o <= k && o < n; o++) {
    int64_t old = size_of[o];
    for (j = 0; j < i; j++)
      if (obj[j] == o && r[i].lower < r[j].upper && r[j].lower < r[i].upper) break;
    if (j < i) continue;
    obj[i] = o;
    if (o == k) size_of[o] = 0;
    if (r[i].size > size_of[o]) size_of[o] = r[i].size;
    ref_share_search(r, n, obj, size_of, i + 1, o == k ? k + 1 : k, total - (o == k ? 0 : old) + size_of[o], best);
    size_of[o] = old;
  }
}

/* The oracle: the minimum total over every valid assignment (each set
   partition once, as a restricted growth string, with branch and bound).
   Tiny inputs only (about 9 records). */
REF_FN int64_t ref_share_optimum(const dnnmem_intervals *problem) {
  int32_t n = problem->count;
  int32_t *obj = (int32_t *)calloc((size_t)n + 1, sizeof(int32_t));
  int64_t *size_of = (int64_t *)calloc((size_t)n + 1, sizeof(int64_t)), best = INT64_MAX;
  ref_share_search(problem->records, n, obj, size_of, 0, 0, 0, &best);
  free(obj), free(size_of);
  return n == 0 ? 0 : best;
}

/* (end of section 3) */

/* ==== 4. Path covers of graphs ============================================ */

/* Brute force on tiny graphs (ids in range): edges run from in_ids[k] to
   the node whose list holds k. */
#define REF_COVER_MAX_N 16
#define REF_COVER_MAX_M 64

/* reach[a][b] = 1 when a path of one or more edges leads from a to b
   (a cycle through a: reach[a][a]). */
REF_FN void ref_cover_reach(const dnnmem_graph *g, unsigned char reach[REF_COVER_MAX_N][REF_COVER_MAX_N]) {
  int32_t a, b, c, v, k;
  memset(reach, 0, REF_COVER_MAX_N * REF_COVER_MAX_N);
  for (v = 0; v < g->num_nodes; v++)
    for (k = g->in_offsets[v]; k < g->in_offsets[v + 1]; k++) reach[g->in_ids[k]][v] = 1;
  for (c = 0; c < g->num_nodes; c++)
    for (a = 0; a < g->num_nodes; a++)
      for (b = 0; b < g->num_nodes; b++)
        if (reach[a][c] && reach[c][b]) reach[a][b] = 1;
}

static int32_t ref__cover_matching(const int32_t *from, const int32_t *to, int32_t m, int32_t k,
                                   uint32_t used_out, uint32_t used_in) {
  int32_t best, take;
  if (k == m) return 0;
  best = ref__cover_matching(from, to, m, k + 1, used_out, used_in);
  if (!(used_out >> from[k] & 1) && !(used_in >> to[k] & 1)) {
    take = 1 + ref__cover_matching(from, to, m, k + 1, used_out | 1u << from[k], used_in | 1u << to[k]);
    if (take > best) best = take;
  }
  return best;
}

/* The fewest vertex-disjoint paths along edges covering every vertex of a
   DAG: n minus the largest set of edges with at most one out and one in per
   vertex (every subset tried). */
REF_FN int32_t ref_cover_vertex_paths(const dnnmem_graph *g) {
  int32_t from[REF_COVER_MAX_M], to[REF_COVER_MAX_M], m = 0, v, k;
  for (v = 0; v < g->num_nodes; v++)
    for (k = g->in_offsets[v]; k < g->in_offsets[v + 1]; k++) from[m] = g->in_ids[k], to[m++] = v;
  return g->num_nodes - ref__cover_matching(from, to, m, 0, 0, 0);
}

/* The fewest chains of the reachability order of a DAG = its largest
   antichain (Dilworth), every vertex subset tried. */
REF_FN int32_t ref_cover_chains(const dnnmem_graph *g) {
  unsigned char reach[REF_COVER_MAX_N][REF_COVER_MAX_N];
  uint32_t set;
  int32_t best = 0, a, b;
  ref_cover_reach(g, reach);
  for (set = 1; set < (1u << g->num_nodes); set++) {
    int32_t size = 0, ok = 1;
    for (a = 0; a < g->num_nodes && ok; a++) {
      if (!(set >> a & 1)) continue;
      size++;
      for (b = 0; b < g->num_nodes; b++)
        if (b != a && (set >> b & 1) && reach[a][b]) ok = 0;
    }
    if (ok && size > best) best = size;
  }
  return best;
}

/* W of a DAG, the fewest paths walking every edge: by Dilworth on edges,
   the largest set of distinct edges no two of which lie on one path (e
   before f when e's head is f's tail or reaches it), every subset tried. */
REF_FN int32_t ref_cover_w(const dnnmem_graph *g) {
  unsigned char reach[REF_COVER_MAX_N][REF_COVER_MAX_N];
  int32_t from[REF_COVER_MAX_M], to[REF_COVER_MAX_M], d = 0, v, k, j, best = 0;
  uint32_t set;
  ref_cover_reach(g, reach);
  for (v = 0; v < g->num_nodes; v++)
    for (k = g->in_offsets[v]; k < g->in_offsets[v + 1]; k++) {
      for (j = 0; j < d; j++)
        if (from[j] == g->in_ids[k] && to[j] == v) break;
      if (j == d) from[d] = g->in_ids[k], to[d++] = v;
    }
  for (set = 1; set < (1u << d); set++) {
    int32_t size = 0, ok = 1;
    for (k = 0; k < d && ok; k++) {
      if (!(set >> k & 1)) continue;
      size++;
      for (j = 0; j < d; j++)
        if (j != k && (set >> j & 1) && (to[k] == from[j] || reach[to[k]][from[j]])) ok = 0;
    }
    if (ok && size > best) best = size;
  }
  return best;
}

/* (end of section 4) */

/* ==== 5. Recompute ======================================================== */

/* A small graph built node by node, for the recompute tests: the problem
   points into the arrays (ref_remat_graph_begin), ref_remat_graph_node
   appends a node with its inputs (a list ended by -1) and returns its id. */
#define REF_REMAT_MAXN 64
#define REF_REMAT_MAXE 256
typedef struct ref_remat_graph {
  int32_t n, off[REF_REMAT_MAXN + 1], ids[REF_REMAT_MAXE];
  int64_t size[REF_REMAT_MAXN], time[REF_REMAT_MAXN];
  uint8_t out[REF_REMAT_MAXN];
  dnnmem_graph graph;
  dnnmem_remat_problem p; /* points into the arrays above */
} ref_remat_graph;

REF_FN void ref_remat_graph_begin(ref_remat_graph *g) {
  memset(g, 0, sizeof(*g));
  g->graph.in_offsets = g->off;
  g->graph.in_ids = g->ids;
  g->p.graph = &g->graph;
  g->p.sizes = g->size;
  g->p.times = g->time;
  g->p.is_output = g->out;
}

REF_FN int32_t ref_remat_graph_node(ref_remat_graph *g, int64_t size, int64_t time, int output,
                                    const int32_t *inputs) {
  int32_t v = g->n++;
  g->size[v] = size;
  g->time[v] = time;
  g->out[v] = (uint8_t)output;
  g->off[v + 1] = g->off[v];
  while (inputs && *inputs >= 0) g->ids[g->off[v + 1]++] = *inputs++;
  g->graph.num_nodes = g->n;
  return v;
}

/* Repeated layers into g: 8 layers a = f(x) (16 bytes, time 4), b = g(a)
   (32, time 1), x' = h(b) (16, time 1), then grad and the backward pass
   gb = (grad, b), ga = (gb, a) from the last layer down (a and b: the
   layers' nodes). Its schedule into sched: every node in row order, b[i]
   recomputed before the backward step gb of each layer i in mask.
   Returns the schedule's length. */
REF_FN int32_t ref_remat_layers_graph(ref_remat_graph *g, int32_t *a, int32_t *b, unsigned mask, int32_t *sched) {
  int32_t in[3], x, grad, i, k, len = 0;
  ref_remat_graph_begin(g);
  x = ref_remat_graph_node(g, 16, 0, 0, NULL);
  sched[len++] = x;
  for (i = 0; i < 8; i++) {
    in[0] = x, in[1] = -1;
    a[i] = ref_remat_graph_node(g, 16, 4, 0, in);
    in[0] = a[i];
    b[i] = ref_remat_graph_node(g, 32, 1, 0, in);
    in[0] = b[i];
    x = ref_remat_graph_node(g, 16, 1, 0, in);
    sched[len++] = a[i], sched[len++] = b[i], sched[len++] = x;
  }
  grad = ref_remat_graph_node(g, 16, 0, 0, NULL);
  sched[len++] = grad;
  for (i = 7; i >= 0; i--) {
    in[0] = grad, in[1] = b[i], in[2] = -1;
    k = ref_remat_graph_node(g, 16, 1, 0, in);
    in[0] = k, in[1] = a[i];
    grad = ref_remat_graph_node(g, 16, 1, i == 0, in);
    if (mask >> i & 1) sched[len++] = b[i];
    sched[len++] = k, sched[len++] = grad;
  }
  return len;
}

/* Recompute options: a budget and a move count; the rest zero (defaults). */
REF_FN dnnmem_remat_options ref_remat_options(int64_t budget, int64_t iterations) {
  dnnmem_remat_options o;
  memset(&o, 0, sizeof o);
  o.budget = budget, o.iterations = iterations;
  return o;
}

/* Appends a chain of k nodes of one size and time (no outputs), the first
   taking node `from` (-1: none), each next the one before; the last id. */
REF_FN int32_t ref_remat_graph_chain(ref_remat_graph *g, int32_t from, int32_t k, int64_t size, int64_t time) {
  int32_t in[2];
  in[0] = from, in[1] = -1;
  while (k-- > 0) in[0] = ref_remat_graph_node(g, size, time, 0, in);
  return in[0];
}

/* The recompute tests' random numbers: a 64-bit LCG (state the caller's),
   its high bits modulo bound. */
REF_FN uint32_t ref_rand(uint64_t *state, uint32_t bound) {
  *state = *state * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)((*state >> 33) % bound);
}

/* A random DAG of n nodes: node v takes 1-2 inputs among earlier nodes
   (node 0, maybe 1: graph inputs); sizes 1..20 (zero_sizes: a quarter of
   them 0), times 1..9; the last node and about a sixth of the others
   outputs. */
REF_FN void ref_remat_random_graph(ref_remat_graph *g, int32_t n, int zero_sizes, uint64_t *rng) {
  int32_t v, in[3];
  ref_remat_graph_begin(g);
  for (v = 0; v < n; v++) {
    int32_t k = 0;
    int64_t size;
    if (v > 0 && !(v == 1 && ref_rand(rng, 2))) {
      in[k++] = (int32_t)ref_rand(rng, (uint32_t)v);
      if (v > 1 && ref_rand(rng, 2)) {
        in[k] = (int32_t)ref_rand(rng, (uint32_t)v);
        if (in[k] != in[0]) k++;
      }
    }
    in[k] = -1;
    size = zero_sizes && ref_rand(rng, 4) == 0 ? 0 : 1 + ref_rand(rng, 20);
    ref_remat_graph_node(g, size, 1 + ref_rand(rng, 9), v == n - 1 || ref_rand(rng, 6) == 0, in);
  }
}

/* A training-like DAG: a forward chain from the data (node 0), a gradient
   input, then a backward chain whose steps each use a forward value: the
   graphs where recomputation pays. */
REF_FN void ref_remat_random_training(ref_remat_graph *g, int32_t forward, int32_t backward, uint64_t *rng) {
  int32_t v, in[4], k;
  ref_remat_graph_begin(g);
  ref_remat_graph_node(g, 1 + ref_rand(rng, 20), 0, 0, NULL);
  for (v = 1; v <= forward; v++) {
    k = 0;
    in[k++] = v - 1;
    if (v > 1 && ref_rand(rng, 3) == 0) in[k++] = (int32_t)ref_rand(rng, (uint32_t)(v - 1));
    in[k] = -1;
    ref_remat_graph_node(g, 8 + ref_rand(rng, 12), 1 + ref_rand(rng, 9), 0, in);
  }
  ref_remat_graph_node(g, 1 + ref_rand(rng, 5), 0, 0, NULL); /* the incoming gradient */
  for (v = 0; v < backward; v++) {
    k = 0;
    in[k++] = g->n - 1;
    in[k++] = 1 + (int32_t)ref_rand(rng, (uint32_t)forward);
    in[k] = -1;
    ref_remat_graph_node(g, 1 + ref_rand(rng, 8), 1 + ref_rand(rng, 9), v == backward - 1 || ref_rand(rng, 4) == 0, in);
  }
}

/* Validity, peak and time of a recompute sequence straight from the
   definition in dnnmem.h's manual (part 5), literally: every (instance,
   step) pair, every binding searched again, O(L^3 (L + degree)); sharing
   no code with dnnmem_remat_simulate. ref_remat_recount below is the same
   count in O(L degree + n), checked against this one (tests/test_remat.c's
   test_recount_vs_literal; define REF_RECOUNT_BOTH to run both on every
   call and abort on a difference). A use of v at step q binds to the
   latest computation of v before q; instance i is held at step j when
   i == j, when a use at a step q >= j binds to it, or when it is the last
   instance of a graph output. Valid: ids in range, every input computed
   before each use, graph inputs (nodes without inputs) at most once, every
   node at least once. Returns 1 and writes *peak and *time when valid. */
REF_FN int ref_remat_recount_literal(const dnnmem_remat_problem *p, const int32_t *seq, int32_t len,
                                     int64_t *peak, int64_t *time) {
  const int32_t *off = p->graph->in_offsets, *ids = p->graph->in_ids;
  int32_t n = p->graph->num_nodes, i, j, k, v, q;
  int64_t best = 0, t = 0;
  unsigned char *seen = (unsigned char *)calloc((size_t)n + 1, 1);
  int valid = seen != NULL;
  for (j = 0; j < len && valid; j++) {
    v = seq[j];
    if (v < 0 || v >= n || (off[v] == off[v + 1] && seen[v])) {
      valid = 0;
      break;
    }
    for (k = off[v]; k < off[v + 1] && valid; k++) valid = seen[ids[k]];
    seen[v] = 1;
    t += p->times[v];
  }
  for (v = 0; v < n && valid; v++) valid = seen[v];
  free(seen);
  if (!valid) return 0;
  for (j = 0; j < len; j++) {
    int64_t mem = 0;
    for (i = 0; i <= j; i++) {
      int held = i == j, last = 1;
      v = seq[i];
      for (q = i + 1; q < len; q++) last &= seq[q] != v;
      if (last && p->is_output && p->is_output[v]) held = 1;
      for (q = j; q < len && !held; q++) {
        int uses = 0, bound = -1, r;
        if (q == i) continue;
        for (k = off[seq[q]]; k < off[seq[q] + 1]; k++) uses |= ids[k] == v;
        if (!uses) continue;
        for (r = 0; r < q; r++)
          if (seq[r] == v) bound = r;
        held = bound == i;
      }
      if (held) mem += p->sizes[v];
    }
    if (mem > best) best = mem;
  }
  *peak = best;
  *time = t;
  return 1;
}

/* Validity, peak and time of a recompute sequence from the same
   definition as ref_remat_recount_literal above, sharing no code with
   dnnmem_remat_simulate: instance i (step i) is held at the steps i..end[i],
   end[i] the last step q > i with a use that binds to i (a use of v at q
   binds to the latest computation of v before q), i if none, len - 1 when i
   is a graph output's last instance; the peak is the largest sum of the
   held sizes over the steps. O(L degree + n). Valid: ids in range, every
   input computed before each use, graph inputs (nodes without inputs) at
   most once, every node at least once. Returns 1 and writes *peak and
   *time when valid. */
REF_FN int ref_remat_recount_fast(const dnnmem_remat_problem *p, const int32_t *seq, int32_t len,
                                  int64_t *peak, int64_t *time) {
  const int32_t *off = p->graph->in_offsets, *ids = p->graph->in_ids;
  int32_t n = p->graph->num_nodes, j, k, v, q;
  int64_t best = 0, t = 0, mem = 0, gone_small[64], *gone; /* gone[j]: the sizes released after step j */
  int32_t ids_small[128], *end, *latest;
  /* on the stack when small: the exhaustive searches recount every prefix (a malloc a call was most of their time) */
  size_t steps = (size_t)(len > 0 ? len : 0) + 1, nodes = (size_t)(n > 0 ? n : 0) + 1;
  int valid;
  gone = steps <= 64 ? gone_small : (int64_t *)malloc(steps * sizeof(int64_t));
  end = steps + nodes <= 128 ? ids_small : (int32_t *)malloc((steps + nodes) * sizeof(int32_t));
  latest = end ? end + steps : NULL;
  valid = gone != NULL && end != NULL;
  for (j = 0; j < (int32_t)steps && valid; j++) gone[j] = 0;
  for (v = 0; v < n && valid; v++) latest[v] = -1;
  for (q = 0; q < len && valid; q++) {
    v = seq[q];
    if (v < 0 || v >= n || (off[v] == off[v + 1] && latest[v] >= 0)) {
      valid = 0;
      break;
    }
    for (k = off[v]; k < off[v + 1] && valid; k++) {
      valid = latest[ids[k]] >= 0;
      if (valid) end[latest[ids[k]]] = q; /* q only grows: the last use that binds */
    }
    end[q] = q;
    latest[v] = q;
    t += p->times[v];
  }
  for (v = 0; v < n && valid; v++) valid = latest[v] >= 0;
  if (valid && p->is_output)
    for (v = 0; v < n; v++)
      if (p->is_output[v]) end[latest[v]] = len - 1;
  for (j = 0; j < len && valid; j++) {
    mem += p->sizes[seq[j]];
    if (mem > best) best = mem;
    gone[end[j]] += p->sizes[seq[j]];
    mem -= gone[j];
  }
  if (gone != gone_small) free(gone);
  if (end != ids_small) free(end);
  if (!valid) return 0;
  *peak = best;
  *time = t;
  return 1;
}

/* The recount every test and fuzz target uses (the fast one; with
   REF_RECOUNT_BOTH both, aborting when they differ). */
REF_FN int ref_remat_recount(const dnnmem_remat_problem *p, const int32_t *seq, int32_t len,
                             int64_t *peak, int64_t *time) {
#ifdef REF_RECOUNT_BOTH
  int64_t lp = -1, lt = -1, fp = -1, ft = -1;
  int lok = ref_remat_recount_literal(p, seq, len, &lp, &lt), fok = ref_remat_recount_fast(p, seq, len, &fp, &ft);
  if (lok != fok || (lok && (lp != fp || lt != ft))) {
    fprintf(stderr, "ref_remat_recount: literal %d %lld %lld, fast %d %lld %lld (len %d)\n", lok, (long long)lp,
            (long long)lt, fok, (long long)fp, (long long)ft, (int)len);
    abort();
  }
#endif
  return ref_remat_recount_fast(p, seq, len, peak, time);
}

/* The lifetime of every instance of a valid sequence, from the same
   definition as ref_remat_recount: instance i (computed at step i) lives
   over [i, upper[i]), upper[i] - 1 the last step q > i with a use that
   binds to i (the latest computation of the used node before q), i if
   none, len - 1 for the last instance of a graph output. O(L^2 degree). */
REF_FN void ref_remat_lifetimes(const dnnmem_remat_problem *p, const int32_t *seq, int32_t len,
                                int64_t *upper) {
  const int32_t *off = p->graph->in_offsets, *ids = p->graph->in_ids;
  int32_t i, q, k, r;
  for (i = 0; i < len; i++) {
    int32_t v = seq[i], last = 1;
    upper[i] = i + 1;
    for (q = i + 1; q < len; q++) {
      int uses = 0, bound = -1;
      last &= seq[q] != v;
      for (k = off[seq[q]]; k < off[seq[q] + 1]; k++) uses |= ids[k] == v;
      if (!uses) continue;
      for (r = 0; r < q; r++)
        if (seq[r] == v) bound = r;
      if (bound == i) upper[i] = q + 1;
    }
    if (last && p->is_output && p->is_output[v]) upper[i] = len;
  }
}

/* The computations of a valid sequence that could be left out: step i
   whose value no later step reads (no use binds to it: the used node's
   latest computation before the use is another), that is not a graph
   output's last instance, and whose node is computed again elsewhere in
   the sequence. From the definition, O(L^2 degree). */
REF_FN int32_t ref_remat_unread(const dnnmem_remat_problem *p, const int32_t *seq, int32_t len) {
  const int32_t *off = p->graph->in_offsets, *ids = p->graph->in_ids;
  int32_t i, q, k, r, count = 0;
  for (i = 0; i < len; i++) {
    int32_t v = seq[i], read = 0, last = 1, others = 0;
    for (q = 0; q < len; q++)
      if (q != i && seq[q] == v) others++, last &= q < i;
    for (q = i + 1; q < len && !read; q++) {
      int uses = 0, bound = -1;
      for (k = off[seq[q]]; k < off[seq[q] + 1]; k++) uses |= ids[k] == v;
      if (!uses) continue;
      for (r = 0; r < q; r++)
        if (seq[r] == v) bound = r;
      read = bound == i;
    }
    if (last && p->is_output && p->is_output[v]) read = 1;
    if (!read && others > 0) count++;
  }
  return count;
}

/* The least time of a valid sequence of at most max_len steps whose peak
   (by_arena 0) or whose minimum arena over every plan of its instances
   (by_arena 1: ref_remat_lifetimes, then ref_plan_optimum) fits budget:
   every sequence tried, depth first (each step a node whose inputs have
   been computed, a graph input once). Returns the time, -1 when none fits;
   best (max_len entries, may be NULL) receives the first such sequence
   found and *best_len its length. Exponential: a handful of nodes only. */
typedef struct ref_remat_search {
  const dnnmem_remat_problem *p;
  int32_t max_len, by_arena, *seq, *best, best_len;
  int32_t *count; /* computations per node so far */
  int64_t budget, best_time, *upper;
  dnnmem_interval *rec;
} ref_remat_search;

REF_FN void ref_remat_visit(ref_remat_search *s, int32_t len) {
  const dnnmem_graph *g = s->p->graph;
  int32_t n = g->num_nodes, v, k, done = 1;
  int64_t peak, time;
  for (v = 0; v < n; v++) done &= s->count[v] > 0;
  if (done && ref_remat_recount(s->p, s->seq, len, &peak, &time) && (s->best_time < 0 || time < s->best_time)) {
    int64_t bounded = peak;
    if (s->by_arena) {
      dnnmem_intervals ip;
      ref_remat_lifetimes(s->p, s->seq, len, s->upper);
      for (k = 0; k < len; k++) s->rec[k] = ref_plan_record(k, s->upper[k], s->p->sizes[s->seq[k]]);
      ip.records = s->rec;
      ip.count = len;
      ip.alignment = 0;
      bounded = peak > s->budget ? peak : ref_plan_optimum(&ip, NULL);
    }
    if (bounded <= s->budget) {
      s->best_time = time;
      s->best_len = len;
      if (s->best) memcpy(s->best, s->seq, (size_t)len * sizeof(int32_t));
    }
  }
  if (len == s->max_len) return;
  for (v = 0; v < n; v++) {
    int ready = !(g->in_offsets[v] == g->in_offsets[v + 1] && s->count[v] > 0);
    for (k = g->in_offsets[v]; k < g->in_offsets[v + 1] && ready; k++) ready = s->count[g->in_ids[k]] > 0;
    if (!ready) continue;
    s->seq[len] = v;
    s->count[v]++;
    ref_remat_visit(s, len + 1);
    s->count[v]--;
  }
}

REF_FN int64_t ref_remat_best(const dnnmem_remat_problem *p, int32_t max_len, int64_t budget, int by_arena,
                              int32_t *best, int32_t *best_len) {
  ref_remat_search s;
  int32_t n = p->graph->num_nodes;
  memset(&s, 0, sizeof s);
  s.p = p;
  s.max_len = max_len;
  s.by_arena = by_arena;
  s.budget = budget;
  s.best_time = -1;
  s.best = best;
  s.seq = (int32_t *)calloc((size_t)max_len + 1, sizeof(int32_t));
  s.count = (int32_t *)calloc((size_t)n + 1, sizeof(int32_t));
  s.upper = (int64_t *)calloc((size_t)max_len + 1, sizeof(int64_t));
  s.rec = (dnnmem_interval *)calloc((size_t)max_len + 1, sizeof(dnnmem_interval));
  ref_remat_visit(&s, 0);
  if (best_len) *best_len = s.best_len;
  free(s.seq), free(s.count), free(s.upper), free(s.rec);
  return s.best_time;
}

/* The least time of any valid sequence (no length limit) whose peak fits
   budget, -1 when none: Dijkstra over states (C, L), C the nodes computed
   so far, L the subset whose latest instances are still to be used (live).
   Computing v (its inputs in L, a graph input only when not in C) holds
   bytes(L + v) at its step (an older instance of v has no later use: uses
   bind to the new one) and costs its time; dropping a member of L (no use
   at a later step binds to it) is free; done when C is every node and L
   holds every graph output (its last instance, held to the end). Every
   valid sequence is such a path (drop each instance after its last bound
   use) and every path a valid sequence whose memory at each step is at
   most the path's, so the least path is the optimum. 4^n states: n <= 10. */
REF_FN int64_t ref_remat_optimum(const dnnmem_remat_problem *p, int64_t budget) {
  const dnnmem_graph *g = p->graph;
  int32_t n = g->num_nodes, v, k, heap_n = 0, heap_cap = 1024;
  uint32_t full = (1u << n) - 1, outputs = 0, states = 1u << (2 * n);
  int64_t *dist = (int64_t *)malloc((size_t)states * sizeof(int64_t)), answer = -1;
  /* grown as pushed (its bound, 2 (n + 1) pushes a state, was megabytes a
     call, mapped and unmapped each time under ASan) */
  uint64_t *heap = (uint64_t *)malloc((size_t)heap_cap * sizeof(uint64_t));
  uint32_t s;
  if (!dist || !heap) abort();
  for (s = 0; s < states; s++) dist[s] = -1;
  for (v = 0; v < n; v++)
    if (p->is_output && p->is_output[v]) outputs |= 1u << v;
#define REF_PUSH(state, d)                                                                  \
  do {                                                                                      \
    uint64_t item_ = ((uint64_t)(d) << 32) | (state), t_;                                   \
    int32_t i_ = heap_n++;                                                                  \
    if (i_ == heap_cap) {                                                                   \
      heap_cap *= 2;                                                                        \
      if ((heap = (uint64_t *)realloc(heap, (size_t)heap_cap * sizeof(uint64_t))) == NULL) abort(); \
    }                                                                                       \
    heap[i_] = item_;                                                                       \
    while (i_ > 0 && heap[(i_ - 1) / 2] > heap[i_]) {                                       \
      t_ = heap[i_], heap[i_] = heap[(i_ - 1) / 2], heap[(i_ - 1) / 2] = t_, i_ = (i_ - 1) / 2; \
    }                                                                                       \
  } while (0)
  REF_PUSH(0u, 0);
  while (heap_n > 0 && answer < 0) {
    uint64_t top = heap[0], t;
    uint32_t c, l;
    int64_t d = (int64_t)(top >> 32);
    int32_t i = 0;
    heap[0] = heap[--heap_n];
    for (;;) { /* sift down */
      int32_t a = 2 * i + 1, b = a + 1, m = i;
      if (a < heap_n && heap[a] < heap[m]) m = a;
      if (b < heap_n && heap[b] < heap[m]) m = b;
      if (m == i) break;
      t = heap[i], heap[i] = heap[m], heap[m] = t, i = m;
    }
    s = (uint32_t)(top & 0xffffffffu);
    if (dist[s] >= 0) continue;
    dist[s] = d;
    c = s & full;
    l = s >> n;
    if (c == full && (l & outputs) == outputs) answer = d;
    for (v = 0; v < n; v++) {
      int64_t mem = 0;
      uint32_t nl = l | (1u << v), ok = 1;
      if (l & (1u << v)) { /* drop */
        uint32_t ns = c | ((l & ~(1u << v)) << n);
        if (dist[ns] < 0) REF_PUSH(ns, d);
      }
      if (g->in_offsets[v] == g->in_offsets[v + 1] && (c & (1u << v))) continue;
      for (k = g->in_offsets[v]; k < g->in_offsets[v + 1]; k++) ok &= (l >> g->in_ids[k]) & 1u;
      if (!ok) continue;
      for (k = 0; k < n; k++)
        if (nl & (1u << k)) mem += p->sizes[k];
      if (mem > budget) continue;
      if (dist[(c | (1u << v)) | (nl << n)] < 0) REF_PUSH((c | (1u << v)) | (nl << n), d + p->times[v]);
    }
  }
#undef REF_PUSH
  free(dist);
  free(heap);
  return answer;
}

/* (end of section 5) */

/* ==== 6. Layout arithmetic ================================================ */

#ifndef DNNMEM_NO_LAYOUT

/* Strided layouts evaluated from the definition, outer mode first: digit i
   of x is x / (product of the shapes after i) mod shape i, times stride i
   (the last mode fastest); x < size. */
REF_FN int64_t ref_layout_strided_eval(const dnnmem_layout_strided *s, int64_t x) {
  int64_t v = 0, place;
  int32_t i, j;
  for (i = 0; i < s->rank; i++) {
    for (place = 1, j = i + 1; j < s->rank; j++) place *= s->shape[j];
    v += x / place % s->shape[i] * s->stride[i];
  }
  return v;
}

REF_FN int64_t ref_layout_strided_size(const dnnmem_layout_strided *s) {
  int64_t n = 1, i;
  for (i = 0; i < s->rank; i++) n *= s->shape[i];
  return n;
}

/* The defining equations of the algebra, checked on every index. Each
   returns 1 when the answer r satisfies its equation. */

/* coalesce: the same function on [0, size), no unit mode, no two adjacent
   modes that still form one strided run. */
REF_FN int ref_layout_coalesce_ok(const dnnmem_layout_strided *in, const dnnmem_layout_strided *r) {
  int64_t x, n = ref_layout_strided_size(in);
  int32_t i;
  if (ref_layout_strided_size(r) != n) return 0;
  for (x = 0; x < n; x++)
    if (ref_layout_strided_eval(r, x) != ref_layout_strided_eval(in, x)) return 0;
  for (i = 0; i < r->rank; i++)
    if (r->shape[i] == 1 || (i > 0 && r->stride[i - 1] == r->shape[i] * r->stride[i])) return 0;
  return 1;
}

/* compose: R(x) = A(B(x)) for x in [0, size(B)). */
REF_FN int ref_layout_compose_ok(const dnnmem_layout_strided *a, const dnnmem_layout_strided *b,
                                 const dnnmem_layout_strided *r) {
  int64_t x, n = ref_layout_strided_size(b);
  if (ref_layout_strided_size(r) != n) return 0;
  for (x = 0; x < n; x++)
    if (ref_layout_strided_eval(r, x) != ref_layout_strided_eval(a, ref_layout_strided_eval(b, x)))
      return 0;
  return 1;
}

/* complement: R's strides decreasing and (R, A) (R's modes outer) a
   bijection of [0, size) onto itself with size >= m. */
REF_FN int ref_layout_complement_ok(const dnnmem_layout_strided *a, int64_t m,
                                    const dnnmem_layout_strided *r) {
  dnnmem_layout_strided cat;
  uint8_t *seen;
  int64_t x, n;
  int32_t i;
  int ok = 1;
  if (r->rank + a->rank > DNNMEM_LAYOUT_MAX_FACTORS) return 0;
  for (i = 1; i < r->rank; i++)
    if (r->stride[i - 1] <= r->stride[i]) return 0;
  cat.rank = r->rank + a->rank;
  for (i = 0; i < cat.rank; i++) {
    const dnnmem_layout_strided *from = i < r->rank ? r : a;
    int32_t j = i < r->rank ? i : i - r->rank;
    cat.shape[i] = from->shape[j];
    cat.stride[i] = from->stride[j];
  }
  n = ref_layout_strided_size(&cat);
  if (n < m) return 0;
  seen = (uint8_t *)calloc((size_t)n, 1);
  if (seen == NULL) abort();
  for (x = 0; x < n && ok; x++) {
    int64_t v = ref_layout_strided_eval(&cat, x);
    if (v >= n || seen[v]) ok = 0;
    else seen[v] = 1;
  }
  free(seen);
  return ok;
}

/* right inverse: A(R(x)) = x for x in [0, size(R)). */
REF_FN int ref_layout_right_inverse_ok(const dnnmem_layout_strided *a, const dnnmem_layout_strided *r) {
  int64_t x;
  for (x = 0; x < ref_layout_strided_size(r); x++)
    if (ref_layout_strided_eval(a, ref_layout_strided_eval(r, x)) != x) return 0;
  return 1;
}

/* reshape view: R has the asked shape and R(x) = L(x) on every index. */
REF_FN int ref_layout_reshape_ok(const dnnmem_layout_strided *in, int32_t rank, const int64_t *shape,
                                 const dnnmem_layout_strided *r) {
  int64_t x;
  int32_t j;
  if (r->rank != rank) return 0;
  for (j = 0; j < rank; j++)
    if (r->shape[j] != shape[j]) return 0;
  for (x = 0; x < ref_layout_strided_size(in); x++)
    if (ref_layout_strided_eval(r, x) != ref_layout_strided_eval(in, x)) return 0;
  return 1;
}

/* The print -> parse -> equal round trip of a finished layout: it prints
   (shorter than DNNMEM_LAYOUT_TEXT_MAX), the text parses, the parsed layout
   (bound to the machine made of l's levels when l is bound) is
   dnnmem_layout_equal to l both ways and prints the same text. Returns 1
   when all hold; *text (DNNMEM_LAYOUT_TEXT_MAX bytes, may be NULL) gets
   the text. */
REF_FN int ref_layout_round_trip_ok(const dnnmem_layout *l, char *text) {
  char first[DNNMEM_LAYOUT_TEXT_MAX], again[DNNMEM_LAYOUT_TEXT_MAX];
  int32_t len = 0, len2 = 0;
  dnnmem_layout back;
  int64_t err = -1;
  int32_t lv;
  if (text == NULL) text = first;
  text[0] = 0;
  if (dnnmem_layout_print(l, text, DNNMEM_LAYOUT_TEXT_MAX, &len) != DNNMEM_OK ||
      (size_t)len != strlen(text) || dnnmem_layout_parse(text, (size_t)len, &back, &err) != DNNMEM_OK)
    return 0;
  if (l->bound) {
    dnnmem_layout_machine m;
    memset(&m, 0, sizeof(m));
    m.num_levels = l->num_levels;
    for (lv = 0; lv < l->num_levels; lv++) {
      memcpy(m.names[lv], l->level_names[lv], DNNMEM_LAYOUT_NAME_BYTES);
      m.extents[lv] = l->level_extent[lv];
    }
    if (dnnmem_layout_bind(&back, &m, NULL) != DNNMEM_OK) return 0;
  }
  if (!dnnmem_layout_equal(l, &back) || !dnnmem_layout_equal(&back, l)) return 0;
  if (dnnmem_layout_print(&back, again, sizeof(again), &len2) != DNNMEM_OK) return 0;
  return len2 == len && memcmp(text, again, (size_t)len) == 0;
}

/* 1 when index[] lies in the padding (beyond the unpadded shape). */
REF_FN int ref_layout_is_pad(const dnnmem_layout *l, const int64_t *index) {
  int32_t a;
  for (a = 0; a < l->num_axes; a++)
    if (index[a] >= l->unpadded[a]) return 1;
  return 0;
}

/* The maps of a finished layout recounted; returns the number of broken
   invariants (0: all hold). Work is bounded by max_work:
   - when padded_size <= max_work: position <-> index, one-index forward =
     the batch forward, addresses inside [0, cosize);
   - when replicas are known, for copies r while (r + 1) * padded_size <=
     max_work: the copy's slot inverts (batch) to its own position with the
     right slot kind;
   - when units * cosize <= max_work: every slot of every unit, inverted
     one by one, is an element, padding or unused; each held slot maps
     forward to its address with the same kind, each position is held
     exactly replicas times, and the counts equal dnnmem_layout_measure's
     (elements x replicas, padding slots, unused slots). */
REF_FN int64_t ref_layout_map_errors(const dnnmem_layout *l, int64_t max_work) {
  int64_t n = l->padded_size, levels = l->num_levels, e, r, u, bad = 0;
  int64_t index[DNNMEM_LAYOUT_MAX_AXES], one[DNNMEM_LAYOUT_MAX_LEVELS], address, p;
  int64_t *units, *copy, *addresses, *positions, *hits;
  uint8_t *slots, pad;
  dnnmem_layout_result st;
  int32_t lv;
  if (n > max_work) return 0;
  units = (int64_t *)malloc((size_t)(n * (levels + 1)) * sizeof(int64_t));
  copy = (int64_t *)malloc((size_t)(n * (levels + 1)) * sizeof(int64_t));
  addresses = (int64_t *)malloc((size_t)n * sizeof(int64_t));
  positions = (int64_t *)malloc((size_t)n * sizeof(int64_t));
  hits = (int64_t *)calloc((size_t)n, sizeof(int64_t));
  slots = (uint8_t *)malloc((size_t)n);
  if (!units || !copy || !addresses || !positions || !hits || !slots) abort();
  bad += dnnmem_layout_forward_range(l, 0, n, units, addresses) != DNNMEM_OK;
  for (e = 0; e < n; e++) {
    bad += dnnmem_layout_index(l, e, index) != DNNMEM_OK;
    bad += dnnmem_layout_position(l, index, &p) != DNNMEM_OK || p != e;
    bad += dnnmem_layout_forward(l, index, one, &address, &pad) != DNNMEM_OK;
    bad += address != addresses[e] || address < 0 || address >= l->cosize;
    bad += pad != ref_layout_is_pad(l, index);
    for (lv = 0; lv < levels; lv++) bad += one[lv] != units[e * levels + lv];
  }
  if (dnnmem_layout_measure(l, &st) == DNNMEM_OK) {
    bad += st.slots != st.padded_size * st.replicas || st.capacity != st.slots + st.unused_slots ||
           st.unused_slots < 0;
    for (r = 0; r < st.replicas && (r + 1) * n <= max_work; r++) {
      int64_t offsets[DNNMEM_LAYOUT_MAX_LEVELS];
      bad += dnnmem_layout_replica_offset(l, r, offsets) != DNNMEM_OK;
      for (e = 0; e < n * levels; e++) { /* copy 0 of a broadcast-to-all level: unit 0 */
        int64_t base = units[e];
        copy[e] = (base == DNNMEM_LAYOUT_ALL ? 0 : base) + offsets[e % levels];
      }
      bad += dnnmem_layout_inverse_batch(l, n, copy, addresses, positions, slots) != DNNMEM_OK;
      for (e = 0; e < n; e++) {
        dnnmem_layout_index(l, e, index);
        bad += positions[e] != e ||
               slots[e] != (ref_layout_is_pad(l, index) ? DNNMEM_LAYOUT_SLOT_PAD : DNNMEM_LAYOUT_SLOT_ELEMENT);
      }
    }
    if (st.capacity <= max_work) {
      int64_t seen_elem = 0, seen_pad = 0, seen_unused = 0;
      for (u = 0; u < st.units; u++) {
        int64_t coords[DNNMEM_LAYOUT_MAX_LEVELS], rest = u, addr;
        for (lv = (int32_t)levels - 1; lv >= 0; lv--) {
          coords[lv] = rest % st.level_extent[lv];
          rest /= st.level_extent[lv];
        }
        for (addr = 0; addr < st.cosize; addr++) {
          dnnmem_layout_slot slot;
          bad += dnnmem_layout_inverse(l, coords, addr, index, &slot) != DNNMEM_OK;
          if (slot == DNNMEM_LAYOUT_SLOT_UNUSED) {
            seen_unused++;
            continue;
          }
          if (slot == DNNMEM_LAYOUT_SLOT_PAD) seen_pad++;
          else seen_elem++;
          bad += dnnmem_layout_forward(l, index, one, &address, &pad) != DNNMEM_OK;
          bad += address != addr || pad != (slot == DNNMEM_LAYOUT_SLOT_PAD);
          if (dnnmem_layout_position(l, index, &p) == DNNMEM_OK) hits[p]++;
          else bad++;
        }
      }
      for (e = 0; e < n; e++) bad += hits[e] != st.replicas;
      bad += seen_elem != st.size * st.replicas || seen_pad != st.padding_slots ||
             seen_unused != st.unused_slots;
    }
  }
  free(units);
  free(copy);
  free(addresses);
  free(positions);
  free(hits);
  free(slots);
  return bad;
}

/* dnnmem_layout_runs recounted on every unit, when replicas are known and
   units * padded_size <= max_work; returns the number of broken
   invariants. Each unit's runs are in element order, maximal, and every
   element of every run sits at its address (inverse map); all units
   together hold each element exactly replicas times. A list one run too
   short gives DNNMEM_ERR_OUTPUT_TOO_SMALL with the full count and the
   same first runs. */
REF_FN int64_t ref_layout_runs_errors(const dnnmem_layout *l, int64_t max_work) {
  dnnmem_layout_result st;
  dnnmem_layout_run *runs, *again;
  int64_t *seen, u, e, bad = 0, units[DNNMEM_LAYOUT_MAX_LEVELS];
  int32_t lv, a;
  if (dnnmem_layout_measure(l, &st) != DNNMEM_OK || st.units > max_work / l->padded_size) return 0;
  runs = (dnnmem_layout_run *)malloc((size_t)l->padded_size * sizeof(*runs));
  again = (dnnmem_layout_run *)malloc((size_t)l->padded_size * sizeof(*runs));
  seen = (int64_t *)calloc((size_t)l->size, sizeof(int64_t));
  if (!runs || !again || !seen) abort();
  for (u = 0; u < st.units; u++) {
    int64_t rest = u, i, t;
    int32_t count = -1, count2 = -1;
    for (lv = l->num_levels - 1; lv >= 0; lv--) {
      units[lv] = rest % st.level_extent[lv];
      rest /= st.level_extent[lv];
    }
    if (dnnmem_layout_runs(l, units, runs, (int32_t)l->padded_size, &count) != DNNMEM_OK) {
      bad++;
      continue;
    }
    if (count > 0) {
      bad += dnnmem_layout_runs(l, units, again, count - 1, &count2) != DNNMEM_ERR_OUTPUT_TOO_SMALL ||
             count2 != count || memcmp(runs, again, (size_t)(count - 1) * sizeof(*runs)) != 0;
    }
    for (i = 0; i < count; i++) {
      const dnnmem_layout_run *run = &runs[i];
      if (i > 0) {
        const dnnmem_layout_run *prev = &runs[i - 1];
        bad += run->element < prev->element + prev->length; /* element order */
        bad += run->element == prev->element + prev->length &&
               run->address == prev->address + prev->length; /* not maximal */
      }
      bad += run->length < 1 || run->element < 0 || run->element > l->size - run->length;
      for (t = 0; t < run->length && run->element >= 0 && run->element + t < l->size; t++) {
        int64_t index[DNNMEM_LAYOUT_MAX_AXES], linear = 0;
        dnnmem_layout_slot slot;
        seen[run->element + t]++;
        bad += dnnmem_layout_inverse(l, units, run->address + t, index, &slot) != DNNMEM_OK;
        if (slot != DNNMEM_LAYOUT_SLOT_ELEMENT) {
          bad++;
          continue;
        }
        for (a = 0; a < l->num_axes; a++) linear = linear * l->unpadded[a] + index[a];
        bad += linear != run->element + t;
      }
    }
  }
  for (e = 0; e < l->size; e++) bad += seen[e] != st.replicas;
  free(runs);
  free(again);
  free(seen);
  return bad;
}

/* Converting a tensor from layout f to layout t recounted from the
   definition by scanning every slot of both layouts with the inverse map
   (small machines only): each copy t holds is kept (f holds the element on
   that unit at that address), local (on that unit elsewhere) or moved
   (read from f's copy 0); a unit's copies sorted by element split into
   runs wherever the element or either address does not step by one, a
   copy is kept, or the source unit changes. Fills kept, local, moved,
   runs, copies; 0 on success. */
REF_FN int ref_layout_convert(const dnnmem_layout *f, const dnnmem_layout *t, dnnmem_layout_conversion *out) {
  int64_t unit[DNNMEM_LAYOUT_MAX_LEVELS], idx[DNNMEM_LAYOUT_MAX_AXES], fidx[DNNMEM_LAYOUT_MAX_AXES];
  int64_t fu[DNNMEM_LAYOUT_MAX_LEVELS], units_total = 1, u, a, b, n;
  int64_t *elem = (int64_t *)malloc((size_t)(t->cosize + 1) * sizeof(int64_t));
  int64_t *addr = (int64_t *)malloc((size_t)(t->cosize + 1) * sizeof(int64_t));
  int32_t lv, ax, levels = t->num_levels;
  memset(out, 0, sizeof(*out));
  for (lv = 0; lv < levels; lv++) units_total *= t->level_extent[lv];
  for (u = 0; u < units_total; u++) {
    int64_t rest = u, prev_e = -2, prev_a = -2, prev_b = -2, prev_src = -2;
    for (lv = levels - 1; lv >= 0; lv--) {
      unit[lv] = rest % t->level_extent[lv];
      rest /= t->level_extent[lv];
    }
    n = 0;
    for (a = 0; a < t->cosize; a++) {
      dnnmem_layout_slot slot;
      int64_t e = 0;
      dnnmem_layout_inverse(t, unit, a, idx, &slot);
      if (slot != DNNMEM_LAYOUT_SLOT_ELEMENT) continue;
      for (ax = 0; ax < t->num_axes; ax++) e = e * t->unpadded[ax] + idx[ax];
      elem[n] = e, addr[n] = a, n++;
    }
    for (a = 1; a < n; a++) /* insertion sort by element */
      for (b = a; b > 0 && elem[b - 1] > elem[b]; b--) {
        int64_t x = elem[b], y = addr[b];
        elem[b] = elem[b - 1], addr[b] = addr[b - 1];
        elem[b - 1] = x, addr[b - 1] = y;
      }
    for (a = 0; a < n; a++) {
      int64_t e = elem[a], rest2 = e, src = -1, from_addr = -1, found = -1;
      for (ax = t->num_axes - 1; ax >= 0; ax--) {
        idx[ax] = rest2 % t->unpadded[ax];
        rest2 /= t->unpadded[ax];
      }
      for (b = 0; b < f->cosize && found < 0; b++) {
        dnnmem_layout_slot slot;
        int same = 1;
        dnnmem_layout_inverse(f, unit, b, fidx, &slot);
        if (slot != DNNMEM_LAYOUT_SLOT_ELEMENT) continue;
        for (ax = 0; ax < t->num_axes; ax++) same &= fidx[ax] == idx[ax];
        if (same) found = b;
      }
      if (found >= 0 && found == addr[a]) {
        out->kept++;
        prev_e = -2;
        continue;
      }
      if (found >= 0) {
        out->local++;
        src = u;
        from_addr = found;
      } else {
        out->moved++;
        dnnmem_layout_forward(f, idx, fu, &from_addr, NULL);
        src = 0;
        for (lv = 0; lv < levels; lv++) src = src * t->level_extent[lv] + (fu[lv] == DNNMEM_LAYOUT_ALL ? 0 : fu[lv]);
      }
      if (!(e == prev_e + 1 && addr[a] == prev_a + 1 && from_addr == prev_b + 1 && src == prev_src)) out->runs++;
      prev_e = e, prev_a = addr[a], prev_b = from_addr, prev_src = src;
    }
    out->copies += n;
  }
  out->elements = t->size;
  free(elem);
  free(addr);
  return 0;
}

#endif /* DNNMEM_NO_LAYOUT */

/* (end of section 6) */

/* ==== 7. Max flow ========================================================= */

/* An arc pair as dnnmem_flow_add_arc takes it. */
typedef struct ref_flow_arc {
  int32_t from, to;
  int64_t cap, rcap;
} ref_flow_arc;

/* The capacity of a cut (side[v] = 1: the source side): cap of the arcs
   leaving it plus rcap of those entering it; INT64_MAX when the sum passes
   it. */
REF_FN int64_t ref_flow_cut(const ref_flow_arc *arcs, int32_t m, const uint8_t *side) {
  int64_t c = 0;
  int32_t i;
  for (i = 0; i < m; i++) {
    int64_t add = 0;
    if (side[arcs[i].from] && !side[arcs[i].to]) add = arcs[i].cap;
    if (side[arcs[i].to] && !side[arcs[i].from]) add = arcs[i].rcap;
    c = add > INT64_MAX - c ? INT64_MAX : c + add;
  }
  return c;
}

/* The minimum source-sink cut over all 2^(n-2) sides (n <= 20): by max-flow
   min-cut, the maximum flow's value. */
REF_FN int64_t ref_flow_min_cut(const ref_flow_arc *arcs, int32_t m, int32_t n, int32_t source,
                                int32_t sink) {
  uint8_t side[20];
  int64_t best = INT64_MAX, c;
  uint32_t mask;
  int32_t v;
  for (mask = 0; mask < (1u << n); mask++) {
    if (!(mask >> source & 1) || (mask >> sink & 1)) continue;
    for (v = 0; v < n; v++) side[v] = (uint8_t)(mask >> v & 1);
    c = ref_flow_cut(arcs, m, side);
    if (c < best) best = c;
  }
  return best;
}

/* (end of section 7) */

/* ==== 8. Placement ======================================================== */

/* The total time of an assignment (DNNMEM_PLACE_CPU / _ACC per node)
   straight from the cost rules: each op's time on its device; then per
   value, per_value: its xfer once if some consumer is on the other device
   or it is a graph output left on the accelerator; per_edge: its xfer per
   such consumer (and once for such an output). -1 when an op runs where it
   is unsupported or against its pin. O(V (V + E)). */
REF_FN int64_t ref_place_time(const dnnmem_place_problem *p, dnnmem_place_model model,
                              const uint8_t *device) {
  const dnnmem_graph *g = p->graph;
  int64_t total = 0;
  int32_t u, c, k;
  for (u = 0; u < g->num_nodes; u++) {
    int64_t own = device[u] == DNNMEM_PLACE_CPU ? p->cpu_time[u] : p->acc_time[u];
    uint8_t pin = p->device ? p->device[u] : (uint8_t)DNNMEM_PLACE_ANY;
    if (own < 0 || (pin != DNNMEM_PLACE_ANY && pin != device[u])) return -1;
    total += own;
  }
  for (u = 0; u < g->num_nodes; u++) {
    int crossings = 0;
    for (c = 0; c < g->num_nodes; c++) {
      int uses = 0;
      for (k = g->in_offsets[c]; k < g->in_offsets[c + 1]; k++) uses |= g->in_ids[k] == u;
      crossings += uses && device[c] != device[u];
    }
    crossings += p->is_output && p->is_output[u] && device[u] == DNNMEM_PLACE_ACC;
    if (model == DNNMEM_PLACE_PER_EDGE) total += crossings * p->xfer[u];
    else if (crossings) total += p->xfer[u];
  }
  return total;
}

/* The optimum by trying every assignment (num_nodes <= 20); -1 when none is
   feasible. */
REF_FN int64_t ref_place_optimum(const dnnmem_place_problem *p, dnnmem_place_model model) {
  uint8_t x[20];
  int64_t best = -1, t;
  uint32_t mask;
  int32_t v, n = p->graph->num_nodes;
  for (mask = 0; mask < (1u << n); mask++) {
    for (v = 0; v < n; v++) x[v] = (mask >> v & 1) ? DNNMEM_PLACE_ACC : DNNMEM_PLACE_CPU;
    t = ref_place_time(p, model, x);
    if (t >= 0 && (best < 0 || t < best)) best = t;
  }
  return best;
}

/* (end of section 8) */

/* ==== 9. Labeling ========================================================= */

/* Converting value u from label a to label b straight from the problem's
   arrays (0 for a == b). */
REF_FN int64_t ref_label_conversion(const dnnmem_label_problem *p, int32_t u, int32_t a, int32_t b) {
  int32_t k = p->num_labels;
  int64_t c = 0;
  if (a == b) return 0;
  if (p->convert) return p->convert[((size_t)u * k + a) * k + b];
  if (p->convert_rate) c = p->convert_rate[a * k + b] * (p->convert_size ? p->convert_size[u] : 1);
  if (p->convert_latency) c += p->convert_latency[a * k + b];
  return c;
}

/* The cost of a labeling straight from the rule: each node's cost on its
   label; then for every value u and every label b != label[u] that some
   consumer of u (or u's output label) has, one conversion u: label[u] ->
   b. -1 when a node sits on an unsupported label or against its pin.
   O(V (V + E) k). */
REF_FN int64_t ref_label_cost(const dnnmem_label_problem *p, const int32_t *label) {
  const dnnmem_graph *g = p->graph;
  int32_t k = p->num_labels, u, c, j, b;
  int64_t total = 0;
  for (u = 0; u < g->num_nodes; u++) {
    int64_t t;
    if (label[u] < 0 || label[u] >= k) return -1;
    t = p->node_cost[(size_t)u * k + label[u]];
    if (t < 0 || (p->pin && p->pin[u] >= 0 && p->pin[u] != label[u])) return -1;
    total += t;
  }
  for (u = 0; u < g->num_nodes; u++)
    for (b = 0; b < k; b++) {
      int reached = p->output_label && p->output_label[u] == b;
      for (c = 0; c < g->num_nodes && !reached; c++)
        for (j = g->in_offsets[c]; j < g->in_offsets[c + 1]; j++)
          if (g->in_ids[j] == u && label[c] == b) reached = 1;
      if (reached && b != label[u]) total += ref_label_conversion(p, u, label[u], b);
    }
  return total;
}

/* The optimum by trying every labeling (k^V up to about 10^6); -1 when
   none is feasible. The optimal labeling goes to best (may be NULL). */
REF_FN int64_t ref_label_optimum(const dnnmem_label_problem *p, int32_t *best) {
  int32_t n = p->graph->num_nodes, k = p->num_labels, x[24], v;
  int64_t opt = -1, t;
  for (v = 0; v < n; v++) x[v] = 0;
  for (;;) {
    t = ref_label_cost(p, x);
    if (t >= 0 && (opt < 0 || t < opt)) {
      opt = t;
      if (best) memcpy(best, x, (size_t)n * sizeof(int32_t));
    }
    for (v = 0; v < n && ++x[v] == k; v++) x[v] = 0;
    if (v == n) break;
  }
  return opt;
}

/* (end of section 9) */

/* ==== 2. Interval planning, continued ==================================== */

/* TFLite's greedy by size, the plain way (gaps ignored, as the
   heuristics do): free records by size, descending (ties by id), each in
   the smallest gap between the placed records (fixed ones first) that
   meet it in time, listed by a scan of all records and merge-sorted by
   (offset, lower, upper, id) with the running highest end, else on top of
   them; offsets[] receives the plan. O(n^2 log n). The arena, or -1 when
   out of memory. */
REF_FN int ref__greedy_before(const dnnmem_interval *r, const int64_t *off, int32_t a, int32_t b) {
  if (off[a] != off[b]) return off[a] < off[b];
  if (r[a].lower != r[b].lower) return r[a].lower < r[b].lower;
  if (r[a].upper != r[b].upper) return r[a].upper < r[b].upper;
  return a < b;
}
REF_FN void ref__greedy_msort(const dnnmem_interval *r, const int64_t *off, int32_t *x, int32_t *tmp, int32_t n) {
  int32_t h = n / 2, i = 0, j = h, k = 0;
  if (n < 2) return;
  ref__greedy_msort(r, off, x, tmp, h);
  ref__greedy_msort(r, off, x + h, tmp, n - h);
  while (i < h || j < n) tmp[k++] = (j >= n || (i < h && !ref__greedy_before(r, off, x[j], x[i]))) ? x[i++] : x[j++];
  memcpy(x, tmp, (size_t)n * sizeof(int32_t));
}
/* The rule: free records order[0..m) in turn, each in the smallest gap
   between the placed records meeting it in time (by offset, with the
   running highest end; the lowest of equal gaps), else on top of them
   (aligned); offsets[] holds the fixed ones' and receives the rest; nb and
   tmp hold n ids. Returns the arena. */
REF_FN int64_t ref__greedy_place(const dnnmem_intervals *problem, const int32_t *order, int32_t m, int32_t *nb,
                                 int32_t *tmp, int64_t *offsets) {
  const dnnmem_interval *r = problem->records;
  int32_t n = problem->count, i, j, k, c;
  int64_t arena = 0;
  for (k = 0; k < m; k++) {
    const dnnmem_interval *x = &r[order[k]];
    int64_t a = ref_plan_alignment(x, problem->alignment), prev_end = 0, best = -1, best_gap = INT64_MAX;
    for (c = 0, i = 0; i < n; i++)
      if (offsets[i] >= 0 && r[i].lower < x->upper && x->lower < r[i].upper) nb[c++] = i;
    ref__greedy_msort(r, offsets, nb, tmp, c);
    for (j = 0; j < c; j++) {
      int64_t o = offsets[nb[j]], cand = (prev_end + a - 1) / a * a;
      if (r[nb[j]].size > 0 && cand + x->size <= o && o - prev_end < best_gap) best_gap = o - prev_end, best = cand;
      if (o + r[nb[j]].size > prev_end) prev_end = o + r[nb[j]].size;
    }
    offsets[order[k]] = best >= 0 ? best : (prev_end + a - 1) / a * a;
  }
  for (i = 0; i < n; i++) arena = offsets[i] + r[i].size > arena ? offsets[i] + r[i].size : arena;
  return arena;
}
REF_FN int64_t ref_plan_greedy_size(const dnnmem_intervals *problem, int64_t *offsets) {
  const dnnmem_interval *r = problem->records;
  int32_t n = problem->count, i, m = 0;
  int32_t *order = (int32_t *)malloc((size_t)(n + 1) * sizeof(int32_t));
  int32_t *nb = (int32_t *)malloc((size_t)(n + 1) * sizeof(int32_t));
  int32_t *tmp = (int32_t *)malloc((size_t)(n + 1) * sizeof(int32_t));
  int64_t arena = 0, *size_key = (int64_t *)calloc((size_t)(n + 1), sizeof(int64_t));
  if (!order || !nb || !tmp || !size_key) {
    free(order), free(nb), free(tmp), free(size_key);
    return -1;
  }
  for (i = 0; i < n; i++) {
    offsets[i] = (r[i].flags & DNNMEM_INTERVAL_FIXED) ? r[i].fixed_offset : -1;
    size_key[i] = -r[i].size; /* sorted by (size descending, id) through the merge sort's keys */
    if (offsets[i] < 0) order[m++] = i;
  }
  { /* by size descending, then id: a merge sort on (-size, 0, 0, id) */
    dnnmem_interval *keys = (dnnmem_interval *)calloc((size_t)(n + 1), sizeof(dnnmem_interval));
    if (!keys) {
      free(order), free(nb), free(tmp), free(size_key);
      return -1;
    }
    ref__greedy_msort(keys, size_key, order, tmp, m);
    free(keys);
  }
  arena = ref__greedy_place(problem, order, m, nb, tmp, offsets);
  free(order), free(nb), free(tmp), free(size_key);
  return arena;
}

/* TFLite's greedy by breadth, the plain way: each step between
   consecutive distinct times has the sizes of the records alive over it
   (fixed ones too) as its breadth; steps ranked by breadth, descending
   (ties the earlier first); a record's key the best rank of the steps of
   its lifetime; free records by (key, size descending, id), each placed
   by greedy by size's rule. O(n^2 log n). The arena, or -1 when out of
   memory. */
REF_FN int64_t ref_plan_greedy_breadth(const dnnmem_intervals *problem, int64_t *offsets) {
  const dnnmem_interval *r = problem->records;
  int32_t n = problem->count, i, j, k, m = 0, T = 0;
  int64_t *times = (int64_t *)malloc((size_t)(2 * n + 1) * sizeof(int64_t)), arena = -1;
  int64_t *breadth = (int64_t *)calloc((size_t)(2 * n + 1), sizeof(int64_t));
  int32_t *step = (int32_t *)malloc((size_t)(2 * n + 1) * sizeof(int32_t));
  int32_t *rank = (int32_t *)malloc((size_t)(2 * n + 1) * sizeof(int32_t));
  int32_t *key = (int32_t *)malloc((size_t)(n + 1) * sizeof(int32_t));
  int32_t *order = (int32_t *)malloc((size_t)(n + 1) * sizeof(int32_t));
  int32_t *nb = (int32_t *)malloc((size_t)(n + 1) * sizeof(int32_t));
  int32_t *tmp = (int32_t *)malloc((size_t)(2 * n + 1) * sizeof(int32_t));
  dnnmem_interval *zero = (dnnmem_interval *)calloc((size_t)(2 * n + 1), sizeof(dnnmem_interval));
  if (times && breadth && step && rank && key && order && nb && tmp && zero) {
    for (i = 0; i < n; i++) times[T++] = r[i].lower, times[T++] = r[i].upper;
    for (i = 1; i < T; i++) /* insertion sort, then unique */
      for (j = i; j > 0 && times[j - 1] > times[j]; j--) {
        int64_t t = times[j];
        times[j] = times[j - 1], times[j - 1] = t;
      }
    for (i = 0, k = 0; i < T; i++)
      if (k == 0 || times[k - 1] != times[i]) times[k++] = times[i];
    T = k - 1; /* step t: [times[t], times[t + 1]) */
    for (i = 0; i < n; i++)
      for (j = 0; j < T; j++)
        if (r[i].lower <= times[j] && times[j] < r[i].upper) breadth[j] -= r[i].size; /* negated */
    for (j = 0; j < T; j++) step[j] = j;
    ref__greedy_msort(zero, breadth, step, tmp, T); /* by (-breadth, 0, 0, time) */
    for (j = 0; j < T; j++) rank[step[j]] = j;
    for (i = 0; i < n; i++) {
      key[i] = INT32_MAX;
      for (j = 0; j < T; j++)
        if (r[i].lower <= times[j] && times[j] < r[i].upper && rank[j] < key[i]) key[i] = rank[j];
      offsets[i] = (r[i].flags & DNNMEM_INTERVAL_FIXED) ? r[i].fixed_offset : -1;
      if (offsets[i] < 0) order[m++] = i;
    }
    for (i = 1; i < m; i++) /* by (key, size descending, id): stable insertion */
      for (j = i; j > 0; j--) {
        int32_t a = order[j - 1], b = order[j];
        if (key[a] < key[b] || (key[a] == key[b] && r[a].size >= r[b].size)) break;
        order[j - 1] = b, order[j] = a;
      }
    arena = ref__greedy_place(problem, order, m, nb, tmp, offsets);
  }
  free(times), free(breadth), free(step), free(rank), free(key), free(order), free(nb), free(tmp), free(zero);
  return arena;
}

/* The free records of problem into order[] sorted by (key[i] ascending,
   size descending, id): an insertion sort; their count. */
REF_FN int32_t ref__greedy_order(const dnnmem_intervals *problem, const int64_t *key, int64_t *offsets, int32_t *order) {
  const dnnmem_interval *r = problem->records;
  int32_t n = problem->count, i, k, m = 0;
  for (i = 0; i < n; i++) {
    offsets[i] = (r[i].flags & DNNMEM_INTERVAL_FIXED) ? r[i].fixed_offset : -1;
    if (offsets[i] >= 0) continue;
    for (k = m++; k > 0; k--) {
      int32_t q = order[k - 1];
      if (key[q] < key[i] || (key[q] == key[i] && r[q].size >= r[i].size)) break;
      order[k] = q;
    }
    order[k] = i;
  }
  return m;
}

/* The height rule: free records order[0..m) in turn, each at the aligned
   top of the free records placed before it that meet it in time (0 when
   none), then past every fixed record it would overlap (to its end,
   aligned, until none is met). offsets[] as for ref__greedy_gaps. */
REF_FN int64_t ref__on_top(const dnnmem_intervals *problem, int64_t *offsets, const int32_t *order, int32_t m) {
  const dnnmem_interval *r = problem->records;
  int32_t n = problem->count, i, k, moved;
  int64_t arena = 0;
  for (k = 0; k < m; k++) {
    const dnnmem_interval *x = &r[order[k]];
    int64_t a = ref_plan_alignment(x, problem->alignment), top = 0, o;
    for (i = 0; i < n; i++)
      if (offsets[i] >= 0 && !(r[i].flags & DNNMEM_INTERVAL_FIXED) && r[i].lower < x->upper && x->lower < r[i].upper &&
          offsets[i] + r[i].size > top)
        top = offsets[i] + r[i].size;
    o = (top + a - 1) / a * a;
    do
      for (moved = 0, i = 0; x->size > 0 && i < n; i++)
        if ((r[i].flags & DNNMEM_INTERVAL_FIXED) && r[i].size > 0 && r[i].lower < x->upper && x->lower < r[i].upper &&
            o < offsets[i] + r[i].size && offsets[i] < o + x->size)
          o = (offsets[i] + r[i].size + a - 1) / a * a, moved = 1;
    while (moved);
    offsets[order[k]] = o;
  }
  for (i = 0; i < n; i++) arena = offsets[i] + r[i].size > arena ? offsets[i] + r[i].size : arena;
  return arena;
}

/* sorted-height, the plain way: free records by lifetime length,
   descending, then size, descending, then id; each by the height rule. */
REF_FN int64_t ref_plan_sorted_height(const dnnmem_intervals *problem, int64_t *offsets) {
  int32_t n = problem->count, i, m;
  int32_t *order = (int32_t *)malloc((size_t)(n + 1) * sizeof(int32_t));
  int64_t arena = -1, *key = (int64_t *)malloc((size_t)(n + 1) * sizeof(int64_t));
  if (order && key) {
    for (i = 0; i < n; i++) key[i] = problem->records[i].lower - problem->records[i].upper;
    m = ref__greedy_order(problem, key, offsets, order);
    arena = ref__on_top(problem, offsets, order, m);
  }
  free(order), free(key);
  return arena;
}

/* pathcover given its chains: the free records in the order
   dnnmem_plan_chains lists them (its groups are checked against
   ref_plan_chains_rule elsewhere), each by the height rule. */
REF_FN int64_t ref_plan_pathcover(const dnnmem_intervals *problem, int64_t *offsets) {
  int32_t n = problem->count, i, m = 0;
  int32_t *order = (int32_t *)malloc((size_t)(n + 1) * sizeof(int32_t));
  dnnmem_intervals chains = *problem;
  size_t bytes = 0;
  void *scratch = NULL;
  int64_t arena = -1;
  chains.alignment = 0;
  if (order && dnnmem_plan_chains_scratch_size(&chains, &bytes) == DNNMEM_OK &&
      (scratch = malloc(bytes ? bytes : 1)) != NULL &&
      dnnmem_plan_chains(&chains, NULL, order, NULL, scratch, bytes) == DNNMEM_OK) {
    for (i = 0; i < n; i++) {
      int32_t id = order[i];
      offsets[i] = (problem->records[i].flags & DNNMEM_INTERVAL_FIXED) ? problem->records[i].fixed_offset : -1;
      if (!(problem->records[id].flags & DNNMEM_INTERVAL_FIXED)) order[m++] = id;
    }
    arena = ref__on_top(problem, offsets, order, m);
  }
  free(order), free(scratch);
  return arena;
}

/* TensorFlow Lite Micro's GreedyMemoryPlanner as its source reads, step by
   step (the oracle of greedy-tflm; no tree, no free intervals): fixed
   records first in id order, the others stacked from the tail (so the last
   added is first) and bubble-sorted by size, descending (stable); then each
   walks the placed records by offset (a list kept sorted by insertion),
   skipping those it does not meet in time, keeping the highest end so far
   as the candidate, and stops at the first whose offset leaves the size
   free above the candidate. The alignment (not in its planner) rounds the
   candidate up. Returns the arena, -1 when out of memory. */
REF_FN int64_t ref_plan_greedy_tflm(const dnnmem_intervals *problem, int64_t *offsets) {
  const dnnmem_interval *r = problem->records;
  int32_t n = problem->count, i, k, head = 0, tail = n, swapped, first = -1;
  int32_t *ids = (int32_t *)malloc((size_t)(n + 1) * sizeof(int32_t));
  int32_t *next = (int32_t *)malloc((size_t)(n + 1) * sizeof(int32_t)); /* the offset list */
  int64_t arena = 0;
  if (!ids || !next) {
    free(ids), free(next);
    return -1;
  }
  for (i = 0; i < n; i++) {
    if (r[i].flags & DNNMEM_INTERVAL_FIXED) ids[head++] = i;
    else ids[--tail] = i;
    offsets[i] = (r[i].flags & DNNMEM_INTERVAL_FIXED) ? r[i].fixed_offset : -1;
  }
  do { /* bubble sort of the online part by size, descending */
    swapped = 0;
    for (k = head + 1; k < n; k++)
      if (r[ids[k - 1]].size < r[ids[k]].size) {
        int32_t t = ids[k - 1];
        ids[k - 1] = ids[k], ids[k] = t, swapped = 1;
      }
  } while (swapped);
  for (k = 0; k < n; k++) {
    const dnnmem_interval *x = &r[ids[k]];
    int32_t prev = -1, at;
    int64_t cand = 0, a = ref_plan_alignment(x, problem->alignment);
    if (offsets[ids[k]] < 0) {
      for (at = first; at >= 0; at = next[at]) {
        int64_t aligned = (cand + a - 1) / a * a;
        if (!(r[at].lower < x->upper && x->lower < r[at].upper)) continue;
        if (offsets[at] - aligned >= x->size) break;
        if (offsets[at] + r[at].size > cand) cand = offsets[at] + r[at].size;
      }
      offsets[ids[k]] = (cand + a - 1) / a * a;
    }
    /* into the list after every entry at an offset <= its own */
    for (at = first; at >= 0 && offsets[at] <= offsets[ids[k]]; at = next[at]) prev = at;
    next[ids[k]] = prev < 0 ? first : next[prev];
    if (prev < 0) first = ids[k];
    else next[prev] = ids[k];
  }
  for (i = 0; i < n; i++) arena = offsets[i] + r[i].size > arena ? offsets[i] + r[i].size : arena;
  free(ids), free(next);
  return arena;
}

/* Where strategy algo's plan of problem departs from an oracle's (offset for
   offset, then the arena and its recount): -1 when they agree, -2 when the
   solve fails, else the first record that differs (count when only the
   arena does). off and want hold count entries: the plan's, the oracle's. */
REF_FN int32_t ref_plan_first_difference(const dnnmem_intervals *problem, dnnmem_plan_algo algo,
                                         int64_t (*oracle)(const dnnmem_intervals *, int64_t *),
                                         int64_t *off, int64_t *want) {
  dnnmem_plan_options opt;
  dnnmem_plan_result res;
  size_t bytes = 0;
  void *scratch;
  int64_t arena;
  int32_t i, n = problem->count, ok;
  memset(&opt, 0, sizeof opt);
  opt.algo = algo; /* the strategy's own scratch size, exactly */
  if (dnnmem_plan_solve_scratch_size(problem, &opt, &bytes) != DNNMEM_OK) return -2;
  scratch = malloc(bytes ? bytes : 1);
  ok = scratch != NULL && dnnmem_plan_solve(problem, &opt, off, &res, scratch, bytes) == DNNMEM_OK;
  free(scratch);
  if (!ok) return -2;
  arena = oracle(problem, want);
  for (i = 0; i < n && off[i] == want[i]; i++) continue;
  if (i < n) return i;
  return res.arena != arena || ref_plan_recount(problem, off) != arena ? n : -1;
}

#endif /* DNNMEM_TESTS_REF_H */

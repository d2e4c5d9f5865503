/* Tests of the exact interval planner (dnnmem_plan with DNNMEM_PLAN_EXACT and
   its search core): brute-force agreement on small random instances,
   constructed optima, honest proof flags, alignment, fixed offsets, gaps,
   capacity questions and bad input. Every plan is checked here by an
   independent O(n^2) recount, not by the code under test. */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"

/* ---- independent helpers ------------------------------------------------ */

/* Bytes [lo, hi) record r occupies at time t at offset o (0 when idle). */
static int occupied_at(const dnnmem_interval *r, int64_t t, int64_t o, int64_t *lo, int64_t *hi) {
  int32_t g;
  if (t < r->lower || t >= r->upper) return 0;
  *lo = o;
  *hi = o + r->size;
  for (g = 0; g < r->num_gaps; g++)
    if (t >= r->gaps[g].lower && t < r->gaps[g].upper) {
      *lo = o + r->gaps[g].window_lower;
      *hi = o + r->gaps[g].window_upper;
    }
  return *lo < *hi;
}

/* Whether records a and b at offsets oa and ob share a byte at some time:
   checks every time point where either changes. */
static int collide(const dnnmem_interval *a, int64_t oa, const dnnmem_interval *b, int64_t ob) {
  int64_t pts[4 + 64];
  int32_t np = 0, g, i;
  pts[np++] = a->lower;
  pts[np++] = b->lower;
  for (g = 0; g < a->num_gaps && np < 60; g++) pts[np++] = a->gaps[g].lower, pts[np++] = a->gaps[g].upper;
  for (g = 0; g < b->num_gaps && np < 60; g++) pts[np++] = b->gaps[g].lower, pts[np++] = b->gaps[g].upper;
  for (i = 0; i < np; i++) {
    int64_t al, ah, bl, bh;
    if (occupied_at(a, pts[i], oa, &al, &ah) && occupied_at(b, pts[i], ob, &bl, &bh) && al < bh &&
        bl < ah)
      return 1;
  }
  return 0;
}

static int64_t rec_align(const dnnmem_interval *r, int64_t global) {
  int64_t a = r->alignment > 1 ? r->alignment : 1;
  return global > a ? global : a;
}

/* Valid plan? Returns the arena, or -1. */
static int64_t recount(const dnnmem_interval *r, int32_t n, int64_t align, const int64_t *off) {
  int32_t i, j;
  int64_t arena = 0;
  for (i = 0; i < n; i++) {
    if (off[i] < 0 || off[i] % rec_align(&r[i], align)) return -1;
    if ((r[i].flags & DNNMEM_INTERVAL_FIXED) && off[i] != r[i].fixed_offset) return -1;
    if (off[i] + r[i].size > arena) arena = off[i] + r[i].size;
    for (j = 0; j < i; j++)
      if (collide(&r[i], off[i], &r[j], off[j])) return -1;
  }
  return arena;
}

/* Brute force: every order, each record at the lowest aligned offset where
   it collides with nothing placed (holes included). Without windows the
   best of these is the optimum (an optimal plan taken in offset order is
   reproduced at or below itself). */
static int64_t brute_best;
static void brute_rec(const dnnmem_interval *r, int32_t n, int64_t align, int64_t *off,
                      int32_t *used, int32_t depth, int64_t top) {
  int32_t i, j;
  if (top >= brute_best) return;
  if (depth == n) {
    brute_best = top;
    return;
  }
  for (i = 0; i < n; i++) {
    int64_t x, a = rec_align(&r[i], align);
    if (used[i]) continue;
    if (r[i].flags & DNNMEM_INTERVAL_FIXED) continue;
    for (x = 0;; x += a) {
      for (j = 0; j < n; j++)
        if (used[j] && collide(&r[i], x, &r[j], off[j])) break;
      if (j == n) break;
    }
    off[i] = x;
    used[i] = 1;
    brute_rec(r, n, align, off, used, depth + 1, top > x + r[i].size ? top : x + r[i].size);
    used[i] = 0;
  }
}

static int64_t brute_force(const dnnmem_interval *r, int32_t n, int64_t align) {
  int64_t off[16], top = 0;
  int32_t used[16], i, fixed = 0;
  brute_best = INT64_MAX;
  for (i = 0; i < n; i++) {
    used[i] = (r[i].flags & DNNMEM_INTERVAL_FIXED) != 0;
    off[i] = r[i].fixed_offset;
    if (used[i]) {
      fixed++;
      if (off[i] + r[i].size > top) top = off[i] + r[i].size;
    }
  }
  brute_rec(r, n, align, off, used, fixed, top);
  return brute_best;
}

/* Runs the exact core; returns the result code, fills out and offsets. */
static dnnmem_result solve(const dnnmem_interval *r, int32_t n, int64_t align, int64_t capacity,
                           int64_t node_limit, int64_t *off, dnnmem__exact_outcome *o) {
  size_t bytes = 0;
  void *scratch;
  dnnmem__exact_params p;
  dnnmem_result res = dnnmem__exact_scratch_size(r, n, 0, &bytes);
  if (res != DNNMEM_OK) return res;
  memset(&p, 0, sizeof p);
  p.capacity = capacity;
  p.node_limit = node_limit;
  scratch = malloc(bytes ? bytes : 1);
  res = dnnmem__exact_solve(r, n, align, &p, off, o, scratch, bytes);
  free(scratch);
  return res;
}

static void set_rec(dnnmem_interval *r, int64_t lower, int64_t upper, int64_t size) {
  memset(r, 0, sizeof *r);
  r->lower = lower;
  r->upper = upper;
  r->size = size;
}

/* ---- tests ------------------------------------------------------------- */

static void test_tiny_known(void) {
  /* three records pairwise overlapping: optimum = sum; the chain A-B, B-C
     with A, C disjoint: optimum = max pair */
  dnnmem_interval r[3];
  int64_t off[3];
  dnnmem__exact_outcome o;
  set_rec(&r[0], 0, 4, 3);
  set_rec(&r[1], 1, 5, 5);
  set_rec(&r[2], 2, 6, 2);
  CHECK_EQ(solve(r, 3, 1, 0, 0, off, &o), DNNMEM_OK);
  CHECK_EQ(o.arena, 10);
  CHECK_EQ(recount(r, 3, 1, off), 10);
  CHECK(o.optimal);
  set_rec(&r[2], 4, 6, 2);
  CHECK_EQ(solve(r, 3, 1, 0, 0, off, &o), DNNMEM_OK);
  CHECK_EQ(o.arena, 8);
  CHECK_EQ(recount(r, 3, 1, off), 8);
  CHECK(o.optimal);
}

/* Random small instance: times 0..10, sizes 1..max_size; options add
   alignments, fixed records (placed where they fit first-fit, so they never
   collide), and gaps (windows when `windows`). */
static dnnmem_gap gap_pool[64];
static void random_instance_ex(dnnmem_rng *rng, dnnmem_interval *r, int32_t n, int64_t max_size,
                               int with_align, int with_fixed, int with_gaps, int windows,
                               int64_t global_align) {
  int32_t i, j, gp = 0;
  for (i = 0; i < n; i++) {
    int64_t lo = dnnmem_rng_below(rng, 8), len = 1 + dnnmem_rng_below(rng, 5);
    set_rec(&r[i], lo, lo + len, 1 + dnnmem_rng_below(rng, (uint32_t)max_size));
    if (with_align && dnnmem_rng_below(rng, 3) == 0) r[i].alignment = 1 << dnnmem_rng_below(rng, 3);
    if (with_gaps && len >= 3 && dnnmem_rng_below(rng, 2) == 0 && gp < 64) {
      dnnmem_gap *g = &gap_pool[gp++];
      g->lower = lo + 1;
      g->upper = lo + 1 + 1 + dnnmem_rng_below(rng, (uint32_t)(len - 2));
      if (g->upper >= lo + len) g->upper = lo + len - 1;
      if (g->upper <= g->lower) g->upper = g->lower + 1;
      g->window_lower = g->window_upper = 0;
      if (windows && r[i].size >= 2 && dnnmem_rng_below(rng, 2)) {
        g->window_lower = dnnmem_rng_below(rng, (uint32_t)r[i].size);
        g->window_upper = g->window_lower + 1;
      }
      r[i].gaps = g;
      r[i].num_gaps = 1;
    }
  }
  if (with_fixed) { /* fix a few records where first fit puts them */
    for (i = 0; i < n; i++) {
      int64_t x, a;
      if (dnnmem_rng_below(rng, 4) != 0) continue;
      a = rec_align(&r[i], global_align);
      for (x = a * dnnmem_rng_below(rng, 3);; x += a) {
        for (j = 0; j < n; j++)
          if (j != i && (r[j].flags & DNNMEM_INTERVAL_FIXED) && collide(&r[i], x, &r[j], r[j].fixed_offset))
            break;
        if (j == n) break;
      }
      r[i].fixed_offset = x;
      r[i].flags |= DNNMEM_INTERVAL_FIXED;
    }
  }
}

static void random_instance(dnnmem_rng *rng, dnnmem_interval *r, int32_t n, int64_t max_size,
                            int with_align) {
  random_instance_ex(rng, r, n, max_size, with_align, 0, 0, 0, 1);
}

/* Every kind of small instance against brute force, minimising. */
static void test_brute_force_variants(void) {
  dnnmem_rng rng;
  int32_t trial, bad = 0;
  dnnmem_rng_seed(&rng, 777);
  for (trial = 0; trial < 600; trial++) {
    dnnmem_interval r[7];
    int64_t off[7], best;
    int32_t n = 2 + (int32_t)dnnmem_rng_below(&rng, 5);
    dnnmem__exact_outcome o;
    random_instance_ex(&rng, r, n, 5, trial % 2, trial % 3 == 0, trial % 4 < 2, 0,
                       trial % 5 == 0 ? 2 : 1);
    best = brute_force(r, n, trial % 5 == 0 ? 2 : 1);
    if (solve(r, n, trial % 5 == 0 ? 2 : 1, 0, 0, off, &o) != DNNMEM_OK || o.arena != best ||
        recount(r, n, trial % 5 == 0 ? 2 : 1, off) != best || !o.optimal) {
      if (bad++ < 5)
        fprintf(stderr, "variant trial %d: n=%d exact %lld brute %lld optimal %d\n", trial, n,
                (long long)o.arena, (long long)best, o.optimal);
    }
  }
  CHECK_EQ(bad, 0);
}

/* The capacity question against brute force: feasible exactly when the
   optimum fits, and never "unknown" on these tiny instances. */
static void test_capacity_brute_force(void) {
  dnnmem_rng rng;
  int32_t trial, bad = 0;
  dnnmem_rng_seed(&rng, 4242);
  for (trial = 0; trial < 400; trial++) {
    dnnmem_interval r[7];
    int64_t off[7], best, cap;
    int32_t n = 2 + (int32_t)dnnmem_rng_below(&rng, 5);
    dnnmem__exact_outcome o;
    random_instance_ex(&rng, r, n, 5, trial % 2, trial % 3 == 0, trial % 4 == 0, 0, 1);
    best = brute_force(r, n, 1);
    cap = best - 2 + (int64_t)dnnmem_rng_below(&rng, 5);
    if (cap < 1) cap = 1;
    if (solve(r, n, 1, cap, 0, off, &o) != DNNMEM_OK || o.feasible != (best <= cap) ||
        (o.feasible == 1 && (recount(r, n, 1, off) < 0 || recount(r, n, 1, off) > cap))) {
      if (bad++ < 5)
        fprintf(stderr, "capacity trial %d: cap %lld brute %lld feasible %d\n", trial,
                (long long)cap, (long long)best, o.feasible);
    }
  }
  CHECK_EQ(bad, 0);
}

/* Windows keep the search conservative: plans stay valid, never below the
   optimum, "optimal" only at the lower bound, "infeasible" never claimed. */
static void test_windows_honest(void) {
  dnnmem_rng rng;
  int32_t trial, bad = 0;
  dnnmem_rng_seed(&rng, 99);
  for (trial = 0; trial < 300; trial++) {
    dnnmem_interval r[6];
    int64_t off[6], a;
    int32_t n = 2 + (int32_t)dnnmem_rng_below(&rng, 4);
    dnnmem__exact_outcome o;
    random_instance_ex(&rng, r, n, 6, 0, 0, 1, 1, 1);
    if (solve(r, n, 1, 0, 0, off, &o) != DNNMEM_OK) {
      bad++;
      continue;
    }
    a = recount(r, n, 1, off);
    if (a != o.arena || o.lower_bound > a || (o.optimal && a != o.lower_bound)) {
      bad++;
      fprintf(stderr, "windows trial %d: arena %lld recount %lld lb %lld optimal %d\n", trial,
              (long long)o.arena, (long long)a, (long long)o.lower_bound, o.optimal);
    }
    if (o.lower_bound > 1 &&
        (solve(r, n, 1, o.lower_bound - 1, 0, off, &o) != DNNMEM_OK || o.feasible != 0))
      bad++;
  }
  CHECK_EQ(bad, 0);
}

/* Proof flags under a tiny node budget: the lower bound never exceeds the
   true optimum, optimal only when the arena is the optimum. */
static void test_budget_honest(void) {
  dnnmem_rng rng;
  int32_t trial, bad = 0;
  dnnmem_rng_seed(&rng, 31337);
  for (trial = 0; trial < 300; trial++) {
    dnnmem_interval r[7];
    int64_t off[7], best;
    int32_t n = 4 + (int32_t)dnnmem_rng_below(&rng, 3);
    dnnmem__exact_outcome o;
    random_instance_ex(&rng, r, n, 9, 0, 0, 0, 0, 1);
    best = brute_force(r, n, 1);
    if (solve(r, n, 1, 0, 1 + trial % 3, off, &o) != DNNMEM_OK) {
      bad++;
      continue;
    }
    if (recount(r, n, 1, off) != o.arena || o.arena < best || o.lower_bound > best ||
        (o.optimal && o.arena != best))
      bad++;
  }
  CHECK_EQ(bad, 0);
}

/* Guillotine cuts of a time x bytes rectangle: load equals the height at
   every time, so the optimum is the height. */
static int32_t cut_rectangle(dnnmem_rng *rng, dnnmem_interval *r, int32_t pieces, int64_t time,
                             int64_t height, int64_t unit) {
  int32_t n = 1, tries = 0;
  set_rec(&r[0], 0, time, height);
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

static void test_constructed_optima(void) {
  static dnnmem_interval r[120];
  static int64_t off[120];
  dnnmem_rng rng;
  int32_t k;
  dnnmem_rng_seed(&rng, 5);
  for (k = 0; k < 6; k++) {
    int32_t n = cut_rectangle(&rng, r, 20 + 20 * k, 200, 64 * 1024, 1024);
    dnnmem__exact_outcome o;
    CHECK_EQ(solve(r, n, 1, 0, 0, off, &o), DNNMEM_OK);
    CHECK_EQ(o.arena, 64 * 1024);
    CHECK_EQ(recount(r, n, 1, off), 64 * 1024);
    CHECK(o.optimal);
    CHECK_EQ(o.lower_bound, 64 * 1024);
  }
}

static void test_fixed_and_alignment(void) {
  /* a fixed record in the middle of the arena splits it; alignment 8 */
  dnnmem_interval r[4];
  int64_t off[4];
  dnnmem__exact_outcome o;
  set_rec(&r[0], 0, 10, 4);
  r[0].fixed_offset = 8;
  r[0].flags = DNNMEM_INTERVAL_FIXED;
  set_rec(&r[1], 0, 10, 8);
  set_rec(&r[2], 0, 10, 3);
  r[2].alignment = 8;
  set_rec(&r[3], 0, 5, 5);
  CHECK_EQ(solve(r, 4, 1, 0, 0, off, &o), DNNMEM_OK);
  CHECK_EQ(off[0], 8);
  CHECK_EQ(off[2] % 8, 0);
  CHECK_EQ(recount(r, 4, 1, off), o.arena);
  CHECK_EQ(o.arena, brute_force(r, 4, 1));
  CHECK(o.optimal);
  /* colliding fixed records are reported, not crashed on */
  r[1].fixed_offset = 10;
  r[1].flags = DNNMEM_INTERVAL_FIXED;
  CHECK_EQ(solve(r, 4, 1, 0, 0, off, &o), DNNMEM_ERR_PLAN_FIXED_COLLISION);
  /* fixed records that only touch are fine */
  r[1].fixed_offset = 12;
  CHECK_EQ(solve(r, 4, 1, 0, 0, off, &o), DNNMEM_OK);
  CHECK_EQ(recount(r, 4, 1, off), o.arena);
  /* a fixed record above the capacity: infeasible, proven */
  CHECK_EQ(solve(r, 4, 1, 15, 0, off, &o), DNNMEM_OK);
  CHECK_EQ(o.feasible, 0);
}

static void test_gaps_reuse(void) {
  /* A idles over [2, 6) (no window): B fits into the hole, arena = 4.
     With a window of 1 byte kept, B must sit above it: arena = 5. */
  dnnmem_interval r[2];
  dnnmem_gap g;
  int64_t off[2];
  dnnmem__exact_outcome o;
  set_rec(&r[0], 0, 8, 4);
  set_rec(&r[1], 2, 6, 4);
  g.lower = 2, g.upper = 6, g.window_lower = g.window_upper = 0;
  r[0].gaps = &g;
  r[0].num_gaps = 1;
  CHECK_EQ(solve(r, 2, 1, 0, 0, off, &o), DNNMEM_OK);
  CHECK_EQ(o.arena, 4);
  CHECK(o.optimal);
  CHECK_EQ(recount(r, 2, 1, off), 4);
  g.window_lower = 0, g.window_upper = 1;
  CHECK_EQ(solve(r, 2, 1, 0, 0, off, &o), DNNMEM_OK);
  CHECK_EQ(o.arena, 5);
  CHECK(o.optimal);
  CHECK_EQ(recount(r, 2, 1, off), 5);
}

static void test_bad_input(void) {
  dnnmem_interval r[2];
  int64_t off[2];
  dnnmem__exact_outcome o;
  dnnmem__exact_params p;
  size_t bytes = 0;
  char small[64];
  set_rec(&r[0], 0, 2, -1);
  set_rec(&r[1], 0, 2, 4);
  CHECK_EQ(solve(r, 2, 1, 0, 0, off, &o), DNNMEM_ERR_NEGATIVE);
  set_rec(&r[0], 3, 3, 1);
  CHECK_EQ(solve(r, 2, 1, 0, 0, off, &o), DNNMEM_ERR_EMPTY_INTERVAL);
  set_rec(&r[0], 0, 3, 1);
  r[0].alignment = 3;
  CHECK_EQ(solve(r, 2, 1, 0, 0, off, &o), DNNMEM_ERR_ALIGNMENT);
  r[0].alignment = 0;
  CHECK_EQ(solve(r, 2, 1, -5, 0, off, &o), DNNMEM_ERR_NEGATIVE);
  CHECK_EQ(solve(r, -1, 1, 0, 0, off, &o), DNNMEM_ERR_INVALID_ARGUMENT);
  /* short scratch */
  memset(&p, 0, sizeof p);
  CHECK_EQ(dnnmem__exact_scratch_size(r, 2, 0, &bytes), DNNMEM_OK);
  CHECK(bytes > sizeof small);
  CHECK_EQ(dnnmem__exact_solve(r, 2, 1, &p, off, &o, small, sizeof small),
           DNNMEM_ERR_SCRATCH_TOO_SMALL);
  /* empty input */
  CHECK_EQ(solve(r, 0, 1, 0, 0, off, &o), DNNMEM_OK);
  CHECK_EQ(o.arena, 0);
  CHECK(o.optimal);
}

static int stop_now(void *user) {
  ++*(int *)user;
  return 1;
}

static void test_stop_callback(void) {
  static dnnmem_interval r[200];
  static int64_t off[200];
  dnnmem_rng rng;
  dnnmem__exact_params p;
  dnnmem__exact_outcome o;
  size_t bytes = 0;
  void *scratch;
  int calls = 0;
  int32_t n;
  dnnmem_rng_seed(&rng, 8);
  n = cut_rectangle(&rng, r, 200, 500, 256 * 1024, 1024);
  memset(&p, 0, sizeof p);
  p.stop = stop_now;
  p.stop_user = &calls;
  CHECK_EQ(dnnmem__exact_scratch_size(r, n, 0, &bytes), DNNMEM_OK);
  scratch = malloc(bytes);
  CHECK_EQ(dnnmem__exact_solve(r, n, 1, &p, off, &o, scratch, bytes), DNNMEM_OK);
  free(scratch);
  CHECK(calls >= 1);
  CHECK_EQ(recount(r, n, 1, off), o.arena); /* the warm plan, still valid */
  CHECK(o.optimal == (o.arena == 256 * 1024));
}

/* Minimal minimalloc CSV reader (id,lower,upper,size). */
static int32_t read_minimalloc(const char *path, dnnmem_interval *r, int32_t cap) {
  FILE *f = fopen(path, "r");
  char line[256];
  int32_t n = 0;
  if (!f) return -1;
  while (fgets(line, sizeof line, f) && n < cap) {
    long long id, lo, up, sz;
    if (sscanf(line, "%lld,%lld,%lld,%lld", &id, &lo, &up, &sz) != 4) continue;
    set_rec(&r[n++], lo, up, sz);
  }
  fclose(f);
  return n;
}

static void test_minimalloc_C(void) {
  static dnnmem_interval r[256];
  static int64_t off[256];
  dnnmem__exact_outcome o;
  int32_t n = read_minimalloc("tests/data/minimalloc_C.1048576.csv", r, 256);
  CHECK_EQ(n, 203);
  if (n != 203) return;
  CHECK_EQ(solve(r, n, 1, 1039360, 0, off, &o), DNNMEM_OK);
  CHECK_EQ(o.feasible, 1);
  CHECK(recount(r, n, 1, off) >= 0 && recount(r, n, 1, off) <= 1039360);
  CHECK_EQ(solve(r, n, 1, 1039360 - 1024, 0, off, &o), DNNMEM_OK);
  CHECK_EQ(o.feasible, 0); /* below the max load: proven at once */
  CHECK_EQ(solve(r, n, 1, 0, 0, off, &o), DNNMEM_OK);
  CHECK_EQ(o.arena, 1039360);
  CHECK(o.optimal);
}


static void test_brute_force_agreement(void) {
  dnnmem_rng rng;
  int32_t trial, bad = 0;
  dnnmem_rng_seed(&rng, 12345);
  for (trial = 0; trial < 400; trial++) {
    dnnmem_interval r[7];
    int64_t off[7], best;
    int32_t n = 2 + (int32_t)dnnmem_rng_below(&rng, 5);
    dnnmem__exact_outcome o;
    random_instance(&rng, r, n, trial % 2 ? 6 : 3, trial % 3 == 0);
    best = brute_force(r, n, 1);
    if (solve(r, n, 1, 0, 0, off, &o) != DNNMEM_OK || o.arena != best ||
        recount(r, n, 1, off) != best || !o.optimal || o.lower_bound != best) {
      if (bad++ < 5)
        fprintf(stderr, "trial %d: n=%d exact %lld brute %lld optimal %d lb %lld recount %lld\n",
                trial, n, (long long)o.arena, (long long)best, o.optimal,
                (long long)o.lower_bound, (long long)recount(r, n, 1, off));
    }
  }
  CHECK_EQ(bad, 0);
}

/* ---- through the public API -------------------------------------------- */

static dnnmem_result plan_public(const dnnmem_interval *r, int32_t n, dnnmem_plan_options *opt,
                                 int64_t *off, dnnmem_plan_result *res) {
  size_t bytes = 0, check_bytes = 0;
  void *scratch;
  dnnmem_result rc = dnnmem_plan_scratch_size(r, n, opt, &bytes);
  if (rc != DNNMEM_OK) return rc;
  if (dnnmem_plan_check_scratch_size(r, n, &check_bytes) == DNNMEM_OK && check_bytes > bytes)
    bytes = check_bytes;
  scratch = malloc(bytes ? bytes : 1);
  rc = dnnmem_plan(r, n, opt, off, res, scratch, bytes);
  if (rc == DNNMEM_OK) { /* the library's own checker agrees with the recount */
    int64_t arena = -1;
    int32_t pair[2];
    if (dnnmem_plan_check(r, n, opt->alignment, off, &arena, pair, scratch, bytes) != DNNMEM_OK ||
        arena != res->arena)
      rc = DNNMEM_ERR_PLAN_OVERLAP;
  }
  free(scratch);
  return rc;
}

static void test_public_exact(void) {
  static dnnmem_interval r[256];
  static int64_t off[256];
  dnnmem_plan_options opt;
  dnnmem_plan_result res;
  dnnmem_plan_algo parsed;
  int32_t n = read_minimalloc("tests/data/minimalloc_C.1048576.csv", r, 256);
  CHECK(strcmp(dnnmem_plan_algo_name(DNNMEM_PLAN_EXACT), "exact") == 0);
  CHECK_EQ(dnnmem_plan_algo_parse("exact", &parsed), DNNMEM_OK);
  CHECK_EQ(parsed, DNNMEM_PLAN_EXACT);
  if (n != 203) {
    CHECK_EQ(n, 203);
    return;
  }
  memset(&opt, 0, sizeof opt);
  opt.algo = DNNMEM_PLAN_EXACT;
  CHECK_EQ(plan_public(r, n, &opt, off, &res), DNNMEM_OK);
  CHECK_EQ(res.arena, 1039360);
  CHECK_EQ(recount(r, n, 1, off), 1039360);
  CHECK(res.optimal);
  CHECK_EQ(res.algo, DNNMEM_PLAN_EXACT);
  CHECK_EQ(res.feasible, 1);
  /* the capacity question: yes at the optimum, a proven no below it (and
     still a valid plan in offsets) */
  opt.capacity = 1039360;
  CHECK_EQ(plan_public(r, n, &opt, off, &res), DNNMEM_OK);
  CHECK_EQ(res.feasible, 1);
  CHECK(res.arena <= 1039360);
  opt.capacity = 1039359;
  CHECK_EQ(plan_public(r, n, &opt, off, &res), DNNMEM_OK);
  CHECK_EQ(res.feasible, 0);
  CHECK(recount(r, n, 1, off) == res.arena && res.arena > 1039359);
  CHECK(res.lower_bound > 1039359);
  /* a budget of one node: an honest "unknown" */
  opt.node_limit = 1;
  opt.capacity = 1039360;
  CHECK_EQ(plan_public(r, n, &opt, off, &res), DNNMEM_OK);
  CHECK(res.feasible == -1 || res.feasible == 1);
  CHECK(res.nodes <= 1);
  /* a heuristic answers the question only when it can */
  opt.algo = DNNMEM_PLAN_NAIVE;
  CHECK_EQ(plan_public(r, n, &opt, off, &res), DNNMEM_OK);
  CHECK_EQ(res.feasible, -1);
}

/* best runs a short exact search from the heuristics' plan: on a tiling it
   reaches the optimum the heuristics miss, and is never worse than them. */
static void test_best_uses_exact(void) {
  static dnnmem_interval r[60];
  static int64_t off[60];
  dnnmem_rng rng;
  dnnmem_plan_options opt;
  dnnmem_plan_result res;
  int32_t k, improved = 0;
  dnnmem_rng_seed(&rng, 11);
  for (k = 0; k < 8; k++) {
    int32_t n = cut_rectangle(&rng, r, 40, 100, 32 * 1024, 1024), a;
    int64_t heuristic = INT64_MAX;
    memset(&opt, 0, sizeof opt);
    for (a = DNNMEM_PLAN_GREEDY_SIZE; a <= DNNMEM_PLAN_BESTFIT; a++) {
      opt.algo = (dnnmem_plan_algo)a;
      CHECK_EQ(plan_public(r, n, &opt, off, &res), DNNMEM_OK);
      if (res.arena < heuristic) heuristic = res.arena;
    }
    opt.algo = DNNMEM_PLAN_BEST;
    CHECK_EQ(plan_public(r, n, &opt, off, &res), DNNMEM_OK);
    CHECK_EQ(recount(r, n, 1, off), res.arena);
    CHECK(res.arena <= heuristic);
    CHECK(res.lower_bound <= 32 * 1024);
    CHECK(res.optimal == (res.arena == 32 * 1024));
    if (res.arena < heuristic) {
      improved++;
      CHECK_EQ(res.algo, DNNMEM_PLAN_EXACT);
    }
  }
  CHECK(improved > 0);
}

static void test_public_stop(void) {
  static dnnmem_interval r[300];
  static int64_t off[300];
  dnnmem_rng rng;
  dnnmem_plan_options opt;
  dnnmem_plan_result res;
  int calls = 0;
  int32_t n;
  dnnmem_rng_seed(&rng, 12);
  n = cut_rectangle(&rng, r, 300, 1000, 1024 * 1024, 1024);
  memset(&opt, 0, sizeof opt);
  opt.algo = DNNMEM_PLAN_EXACT;
  opt.stop = stop_now;
  opt.stop_user = &calls;
  CHECK_EQ(plan_public(r, n, &opt, off, &res), DNNMEM_OK);
  CHECK(calls >= 1);
  CHECK_EQ(recount(r, n, 1, off), res.arena);
  CHECK(res.optimal == (res.arena == 1024 * 1024));
  CHECK(res.lower_bound <= 1024 * 1024);
}

int main(void) {
  RUN(test_tiny_known);
  RUN(test_brute_force_agreement);
  RUN(test_brute_force_variants);
  RUN(test_capacity_brute_force);
  RUN(test_windows_honest);
  RUN(test_budget_honest);
  RUN(test_constructed_optima);
  RUN(test_fixed_and_alignment);
  RUN(test_gaps_reuse);
  RUN(test_bad_input);
  RUN(test_stop_callback);
  RUN(test_minimalloc_C);
  RUN(test_public_exact);
  RUN(test_best_uses_exact);
  RUN(test_public_stop);
  return test_finish("test_plan_exact");
}

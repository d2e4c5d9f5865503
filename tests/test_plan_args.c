/* tests/test_plan_args.c: part 2's entry points at their edges. Each
   argument rule by the code it must give (NULL problem, outputs, options;
   counts, gap counts and algos out of range), optional outputs left NULL,
   the checker naming the record it refuses, NULL options meaning exactly
   the zeroed defaults (including best's exact search), and a plan too big
   for the int32 time points refused before any record is read. */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "ref.h"

#define rec ref_plan_record

static dnnmem_intervals problem_of(const dnnmem_interval *r, int32_t n) {
  dnnmem_intervals p;
  p.records = r;
  p.count = n;
  p.alignment = 1;
  return p;
}

/* Every scratch size and operation refuses a NULL problem, a NULL size
   pointer, a negative count and a negative gap count; operations refuse
   records missing (sizes take them as records without gaps). */
static void test_problem_rules(void) {
  dnnmem_interval r[2] = {{0}};
  dnnmem_intervals p = problem_of(r, 2), bad;
  int64_t off[2] = {0, 8};
  size_t bytes = 0, other = 0;
  dnnmem_plan_result bounded;
  dnnmem_plan_chains_result chained;
  static char scratch[1 << 16];
  r[0] = rec(0, 2, 8), r[1] = rec(1, 3, 8);
  CHECK_EQ(dnnmem_plan_solve_scratch_size(NULL, NULL, &bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_plan_solve_scratch_size(&p, NULL, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_plan_lower_bound_scratch_size(&p, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_plan_check_scratch_size(&p, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_plan_chains_scratch_size(NULL, &bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_plan_chains_scratch_size(&p, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_plan_chains(NULL, NULL, NULL, &chained, scratch, sizeof(scratch)),
           DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK(chained.groups == 0 && chained.error.index == -1 && chained.error.field == DNNMEM_FIELD_PROBLEM);
  CHECK_EQ(dnnmem_plan_lower_bound(&p, NULL, scratch, sizeof(scratch)), DNNMEM_ERR_INVALID_ARGUMENT);
  bad = problem_of(r, -1);
  CHECK_EQ(dnnmem_plan_solve_scratch_size(&bad, NULL, &bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_plan_lower_bound(&bad, &bounded, scratch, sizeof(scratch)), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK(bounded.error.index == -1 && bounded.error.field == DNNMEM_FIELD_COUNT); /* the argument named */
  bad = problem_of(NULL, 2); /* sizing records without gaps; the operations refuse it */
  CHECK_EQ(dnnmem_plan_solve_scratch_size(&bad, NULL, &bytes), DNNMEM_OK);
  CHECK_EQ(dnnmem_plan_solve_scratch_size(&p, NULL, &other), DNNMEM_OK);
  CHECK_EQ(bytes, other); /* p: two records without gaps */
  CHECK_EQ(dnnmem_plan_check_scratch_size(&bad, &bytes), DNNMEM_OK);
  CHECK_EQ(dnnmem_plan_check(&bad, off, NULL, scratch, sizeof(scratch)), DNNMEM_ERR_INVALID_ARGUMENT);
  r[1].num_gaps = -1;
  CHECK_EQ(dnnmem_plan_solve_scratch_size(&p, NULL, &bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_plan_lower_bound_scratch_size(&p, &bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  r[1].num_gaps = 0;
  /* the empty problem: sizes exist, the bound is 0, chains make no group */
  bad = problem_of(NULL, 0);
  CHECK_EQ(dnnmem_plan_lower_bound_scratch_size(&bad, &bytes), DNNMEM_OK);
  CHECK_EQ(dnnmem_plan_lower_bound(&bad, &bounded, scratch, sizeof(scratch)), DNNMEM_OK);
  CHECK_EQ(bounded.lower_bound, 0);
  CHECK_EQ(dnnmem_plan_chains(&bad, NULL, NULL, &chained, scratch, sizeof(scratch)), DNNMEM_OK);
  CHECK_EQ(chained.groups, 0);
}

/* Pieces (records + 2 per gap) past 2^30, whose time points would pass
   int32: TOO_MANY from each scratch size, which reads only the counts
   (the gap array is never touched). */
static void test_too_many(void) {
  dnnmem_interval r[2] = {{0}};
  dnnmem_intervals p = problem_of(r, 2);
  size_t bytes = 0;
  r[0] = rec(0, 2, 8), r[1] = rec(1, 3, 8);
  r[0].num_gaps = INT32_MAX / 4 - 1; /* 2 + 2 (2^29 - 2) = 2^30 - 2 pieces: a size */
  CHECK_HUGE_SIZE(dnnmem_plan_lower_bound_scratch_size(&p, &bytes), bytes, (size_t)1 << 30);
  r[0].num_gaps = INT32_MAX / 4 + 1; /* 2^30 + 2 pieces */
  CHECK_EQ(dnnmem_plan_solve_scratch_size(&p, NULL, &bytes), DNNMEM_ERR_TOO_MANY);
  CHECK_EQ(dnnmem_plan_lower_bound_scratch_size(&p, &bytes), DNNMEM_ERR_TOO_MANY);
  CHECK_EQ(dnnmem_plan_check_scratch_size(&p, &bytes), DNNMEM_ERR_TOO_MANY);
}

/* The checker names the record it refuses (second -1), and both partners
   of an overlap, lower id first; outputs may be NULL. */
static void test_check_conflicts(void) {
  dnnmem_interval r[3] = {{0}};
  dnnmem_intervals p = problem_of(r, 3);
  int64_t off[3] = {0, 8, 0};
  dnnmem_plan_result c;
  static char scratch[1 << 14];
  r[0] = rec(0, 2, 8), r[1] = rec(1, 3, 8), r[2] = rec(2, 4, 8);
  CHECK_EQ(dnnmem_plan_check(&p, off, NULL, scratch, sizeof(scratch)), DNNMEM_OK);
  CHECK_EQ(dnnmem_plan_check(&p, off, &c, scratch, sizeof(scratch)), DNNMEM_OK);
  CHECK_EQ(c.arena, 16);
  CHECK(c.error.index == -1 && c.error.other == -1 && c.error.field == DNNMEM_FIELD_NONE);
  off[2] = 4; /* overlaps record 1 over [2, 3) */
  CHECK_EQ(dnnmem_plan_check(&p, off, NULL, scratch, sizeof(scratch)), DNNMEM_ERR_PLAN_OVERLAP);
  CHECK_EQ(dnnmem_plan_check(&p, off, &c, scratch, sizeof(scratch)), DNNMEM_ERR_PLAN_OVERLAP);
  CHECK(c.error.index == 1 && c.error.other == 2 && c.error.field == DNNMEM_FIELD_OFFSET && c.arena == 0);
  off[2] = -8;
  CHECK_EQ(dnnmem_plan_check(&p, off, NULL, scratch, sizeof(scratch)), DNNMEM_ERR_NEGATIVE);
  CHECK_EQ(dnnmem_plan_check(&p, off, &c, scratch, sizeof(scratch)), DNNMEM_ERR_NEGATIVE);
  CHECK(c.error.index == 2 && c.error.other == -1);
  off[2] = INT64_MAX - 4; /* offset + size past int64 */
  CHECK_EQ(dnnmem_plan_check(&p, off, &c, scratch, sizeof(scratch)), DNNMEM_ERR_OVERFLOW);
  CHECK(c.error.index == 2 && c.error.other == -1);
  CHECK_EQ(dnnmem_plan_check(&p, NULL, &c, scratch, sizeof(scratch)), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK(c.error.index == -1 && c.error.field == DNNMEM_FIELD_OFFSET);
}

/* Options: algos out of range either way, negative limits; NULL options
   and NULL result give what zeroed options give, on tilings where best
   needs its exact search (the heuristics miss the full rectangle). */
static void test_options(void) {
  static dnnmem_interval r[60];
  static int64_t off_null[60], off_zero[60];
  dnnmem_intervals p;
  dnnmem_plan_options opt;
  dnnmem_plan_result res;
  dnnmem_plan_algo parsed;
  size_t bytes = 0;
  char *scratch;
  int32_t n, a;
  FOR_TRIALS(rng, 11, k, 4) {
    n = ref_plan_tiling(&rng, r, 40, 100, 32 * 1024, 1024);
    p = problem_of(r, n);
    memset(&opt, 0, sizeof(opt));
    CHECK_EQ(dnnmem_plan_solve_scratch_size(&p, NULL, &bytes), DNNMEM_OK);
    scratch = (char *)malloc(bytes);
    CHECK_EQ(dnnmem_plan_solve(&p, NULL, off_null, NULL, scratch, bytes), DNNMEM_OK);
    CHECK_EQ(dnnmem_plan_solve(&p, &opt, off_zero, &res, scratch, bytes), DNNMEM_OK);
    CHECK_EQ(memcmp(off_null, off_zero, (size_t)n * sizeof(int64_t)), 0);
    CHECK_EQ(ref_plan_recount(&p, off_null), res.arena);
    opt.algo = (dnnmem_plan_algo)-1;
    CHECK_EQ(dnnmem_plan_solve(&p, &opt, off_zero, &res, scratch, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
    opt.algo = DNNMEM_PLAN_ALGO_COUNT;
    CHECK_EQ(dnnmem_plan_solve(&p, &opt, off_zero, &res, scratch, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
    opt.algo = DNNMEM_PLAN_BEST;
    opt.node_limit = -1;
    CHECK_EQ(dnnmem_plan_solve(&p, &opt, off_zero, &res, scratch, bytes), DNNMEM_ERR_NEGATIVE);
    opt.node_limit = 0;
    opt.capacity = -1;
    CHECK_EQ(dnnmem_plan_solve(&p, &opt, off_zero, &res, scratch, bytes), DNNMEM_ERR_NEGATIVE);
    CHECK_EQ(dnnmem_plan_solve(&p, NULL, NULL, &res, scratch, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
    free(scratch);
  }
  for (a = 0; a < DNNMEM_PLAN_ALGO_COUNT; a++) {
    CHECK_EQ(dnnmem_plan_algo_parse(dnnmem_plan_algo_name((dnnmem_plan_algo)a), &parsed), DNNMEM_OK);
    CHECK_EQ(parsed, a);
  }
  CHECK(dnnmem_plan_algo_name((dnnmem_plan_algo)-1) == NULL);
  CHECK(dnnmem_plan_algo_name(DNNMEM_PLAN_ALGO_COUNT) == NULL);
  CHECK_EQ(dnnmem_plan_algo_parse("greedy", &parsed), DNNMEM_ERR_PARSE);
  CHECK_EQ(dnnmem_plan_algo_parse(NULL, &parsed), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_plan_algo_parse("best", NULL), DNNMEM_ERR_INVALID_ARGUMENT);
}

/* A heuristic asked about a capacity answers from its plan and the bound:
   1 when its plan fits, 0 below the bound, -1 (unknown) between; chains
   give the same groups with or without the count's output. */
static void test_capacity_and_chains(void) {
  dnnmem_interval r[4] = {{0}};
  dnnmem_intervals p = problem_of(r, 4);
  dnnmem_plan_options opt;
  dnnmem_plan_result res;
  int64_t off[4];
  int32_t group_a[4], group_b[4];
  dnnmem_plan_chains_result chained;
  static char scratch[1 << 20];
  /* greedy by size: 8 and 6 at 0 (apart in time), 4 above them at 8, then
     3 fits neither under 8 nor between 6 and 8: 12 + 3 = 15. The bound is
     13 (4 + 3 + 6 live at steps 1 and 2), and 13 is reachable. */
  r[0] = rec(1, 4, 4), r[1] = rec(1, 3, 3), r[2] = rec(3, 6, 8), r[3] = rec(0, 3, 6);
  memset(&opt, 0, sizeof(opt));
  opt.algo = DNNMEM_PLAN_GREEDY_SIZE;
  CHECK_EQ(dnnmem_plan_solve(&p, &opt, off, &res, scratch, sizeof(scratch)), DNNMEM_OK);
  CHECK_EQ(res.lower_bound, 13);
  CHECK_EQ(res.arena, 15);
  CHECK(off[2] == 0 && off[3] == 0 && off[0] == 8 && off[1] == 12);
  CHECK_EQ(ref_plan_optimum(&p, NULL), 13);
  opt.capacity = 15;
  CHECK_EQ(dnnmem_plan_solve(&p, &opt, off, &res, scratch, sizeof(scratch)), DNNMEM_OK);
  CHECK_EQ(res.feasible, 1);
  opt.capacity = 14; /* reachable, but the heuristic cannot tell */
  CHECK_EQ(dnnmem_plan_solve(&p, &opt, off, &res, scratch, sizeof(scratch)), DNNMEM_OK);
  CHECK_EQ(res.feasible, -1);
  opt.capacity = 12;
  CHECK_EQ(dnnmem_plan_solve(&p, &opt, off, &res, scratch, sizeof(scratch)), DNNMEM_OK);
  CHECK_EQ(res.feasible, 0);
  CHECK_EQ(ref_plan_recount(&p, off), 15); /* still a valid plan, above the capacity */
  CHECK_EQ(dnnmem_plan_chains(&p, group_a, NULL, &chained, scratch, sizeof(scratch)), DNNMEM_OK);
  CHECK_EQ(dnnmem_plan_chains(&p, group_b, NULL, NULL, scratch, sizeof(scratch)), DNNMEM_OK);
  CHECK_EQ(chained.groups, 3); /* 3 records live at steps 1 and 2 */
  CHECK(chained.error.index == -1 && chained.error.field == DNNMEM_FIELD_NONE);
  r[1].size = -4; /* the record named */
  CHECK_EQ(dnnmem_plan_chains(&p, group_a, NULL, &chained, scratch, sizeof(scratch)), DNNMEM_ERR_NEGATIVE);
  CHECK(chained.groups == 0 && chained.error.index == 1 && chained.error.field == DNNMEM_FIELD_SIZE);
  CHECK_EQ(dnnmem_plan_chains(&p, group_a, NULL, &chained, NULL, 0), DNNMEM_ERR_NEGATIVE);
  r[1].size = 4;
  CHECK_EQ(dnnmem_plan_chains(&p, group_a, NULL, &chained, NULL, 0), DNNMEM_ERR_SCRATCH_TOO_SMALL);
  CHECK_EQ(chained.error.field, DNNMEM_FIELD_SCRATCH);
  CHECK_EQ(memcmp(group_a, group_b, sizeof(group_a)), 0);
}

/* A problem with links (ALIAS, REUSE) takes the tied path: the same
   argument rules there (options, outputs, the scratch), and a hint on a
   linked record that is not its group's first carries over to the group. */
static void test_linked_rules(void) {
  dnnmem_interval r[3] = {{0}};
  dnnmem_intervals p = problem_of(r, 3);
  dnnmem_plan_options opt;
  dnnmem_plan_result res;
  int64_t *off = (int64_t *)malloc(3 * sizeof(int64_t));
  size_t bytes = 0;
  void *scratch;
  r[0] = rec(0, 2, 16), r[1] = rec(1, 3, 16), r[2] = rec(0, 3, 8);
  r[1].flags = DNNMEM_INTERVAL_ALIAS | DNNMEM_INTERVAL_HINT, r[1].alias = 0, r[1].hint = 32;
  memset(&opt, 0, sizeof opt);
  opt.algo = DNNMEM_PLAN_EXACT;
  CHECK_EQ(dnnmem_plan_solve_scratch_size(&p, &opt, &bytes), DNNMEM_OK);
  scratch = malloc(bytes);
  opt.algo = (dnnmem_plan_algo)DNNMEM_PLAN_ALGO_COUNT;
  CHECK_EQ(dnnmem_plan_solve(&p, &opt, off, &res, scratch, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  opt.algo = DNNMEM_PLAN_EXACT;
  CHECK_EQ(dnnmem_plan_solve(&p, &opt, NULL, &res, scratch, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(res.error.field, DNNMEM_FIELD_OUTPUT);
  CHECK_EQ(dnnmem_plan_solve(&p, &opt, off, &res, scratch, bytes / 2), DNNMEM_ERR_SCRATCH_TOO_SMALL);
  CHECK_EQ(dnnmem_plan_solve(&p, &opt, off, &res, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(off[0], off[1]);
  CHECK_EQ(res.arena, 24);
  CHECK_EQ(res.optimal, 1);
  free(scratch);
  free(off);
}

/* The exact search's largest problem: records + 2 per gap + 2 = 2^30 - 1
   time points (the last int32 ones) is a size, one more is refused; the
   exact sizes read only the counts (one record, 2^29 - 2 gaps never
   touched). */
static void test_exact_largest(void) {
  dnnmem_interval r[2] = {{0}};
  dnnmem_intervals p = problem_of(r, 1);
  dnnmem_plan_options o;
  size_t bytes = 0;
  memset(&o, 0, sizeof o);
  o.algo = DNNMEM_PLAN_EXACT;
  r[0] = rec(0, 2, 8), r[1] = rec(1, 3, 8);
  r[0].num_gaps = INT32_MAX / 4 - 1; /* 1 + 2 (2^29 - 2) + 2 = 2^30 - 1 */
  CHECK_HUGE_SIZE(dnnmem_plan_solve_scratch_size(&p, &o, &bytes), bytes, (size_t)1 << 30);
  r[0].num_gaps = INT32_MAX / 4; /* 2^30 + 1 (refused: OVERFLOW comes first here) */
  CHECK(dnnmem_plan_solve_scratch_size(&p, &o, &bytes) != DNNMEM_OK);
  p.records = NULL, p.count = INT32_MAX / 2 - 2; /* records without gaps: 2^30 - 3 + 2 */
  CHECK_HUGE_SIZE(dnnmem_plan_solve_scratch_size(&p, &o, &bytes), bytes, (size_t)1 << 30);
  p.count++;
  CHECK(dnnmem_plan_solve_scratch_size(&p, &o, &bytes) != DNNMEM_OK);
}

int main(void) {
  RUN(test_problem_rules);
  RUN(test_linked_rules);
  RUN(test_too_many);
  RUN(test_check_conflicts);
  RUN(test_options);
  RUN(test_capacity_and_chains);
  RUN(test_exact_largest);
  return test_finish("test_plan_args");
}

/* tests/test_tour.c: every example of the manual, run as written (the same
   calls and values), with every result it states checked: the tour's one
   example per part (tour_*), then each reference section's Example
   (ref_*, in the manual's order). If this fails, the manual teaches
   something false. */
#include <stdlib.h>
#include <string.h>

#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "test.h"
#include "ref.h"

/* The tour leaves allocation to the reader; this is the "however you like". */
static void *scratch_for(size_t bytes) { return malloc(bytes ? bytes : 1); }

static dnnmem_interval tour_records[3] = {{.lower = 0, .upper = 2, .size = 4096},
                                          {.lower = 1, .upper = 3, .size = 8192},
                                          {.lower = 2, .upper = 4, .size = 4096}};

/* RESULTS AND ERRORS: a check names the record and field at fault
   (t[2].size = -1: record 2: size); success leaves {-1, NONE, -1} */
static void tour_errors(void) {
  dnnmem_interval t[3];
  dnnmem_intervals p = {t, 3, 64};
  dnnmem_error e;
  memcpy(t, tour_records, sizeof t);
  CHECK_EQ(dnnmem_intervals_check(&p, &e), DNNMEM_OK);
  CHECK(e.index == -1 && e.field == DNNMEM_FIELD_NONE && e.other == -1);
  t[2].size = -1;
  CHECK(dnnmem_intervals_check(&p, &e) != DNNMEM_OK);
  CHECK_EQ(e.index, 2);
  CHECK(strcmp(dnnmem_field_name(e.field), "size") == 0);
}

static void tour_plan(void) {
  dnnmem_intervals p = {tour_records, 3, 64};
  dnnmem_plan_result res;
  int64_t offsets[3];
  size_t bytes = 0;
  void *scratch;
  CHECK_EQ(dnnmem_plan_solve_scratch_size(&p, NULL, &bytes), DNNMEM_OK);
  scratch = scratch_for(bytes);
  CHECK_EQ(dnnmem_plan_solve(&p, NULL, offsets, &res, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(res.arena, 12288);
  CHECK_EQ(res.optimal, 1);
  CHECK_EQ(offsets[0] % 64 + offsets[1] % 64 + offsets[2] % 64, 0);
  free(scratch);
  { /* in place: t[2] as large as t[1], first without the link, then with it */
    dnnmem_interval t[3];
    dnnmem_intervals q = {t, 3, 64};
    t[0] = tour_records[0], t[1] = tour_records[1], t[2] = tour_records[2];
    t[2].size = 8192;
    CHECK_EQ(dnnmem_plan_solve_scratch_size(&q, NULL, &bytes), DNNMEM_OK);
    scratch = scratch_for(bytes);
    CHECK_EQ(dnnmem_plan_solve(&q, NULL, offsets, &res, scratch, bytes), DNNMEM_OK);
    CHECK_EQ(res.arena, 16384); /* without the link */
    free(scratch);
    t[2].flags = DNNMEM_INTERVAL_REUSE;
    t[2].reuse = 1;
    CHECK_EQ(dnnmem_plan_solve_scratch_size(&q, NULL, &bytes), DNNMEM_OK);
    scratch = scratch_for(bytes);
    CHECK_EQ(dnnmem_plan_solve(&q, NULL, offsets, &res, scratch, bytes), DNNMEM_OK);
    CHECK_EQ(res.reused, 1);
    CHECK_EQ(offsets[2], offsets[1]);
    CHECK_EQ(res.arena, 12288);
    CHECK_EQ(res.optimal, 1);
    free(scratch);
  }
}

static void tour_share(void) {
  dnnmem_intervals p = {tour_records, 3, 64};
  dnnmem_share_result res;
  int32_t object_of[3];
  int64_t object_sizes[3];
  size_t bytes = 0;
  void *scratch;
  CHECK_EQ(dnnmem_share_solve_scratch_size(&p, NULL, &bytes), DNNMEM_OK);
  scratch = scratch_for(bytes);
  CHECK_EQ(dnnmem_share_solve(&p, NULL, object_of, object_sizes, &res, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(res.objects, 2);
  CHECK_EQ(res.total, 12288);
  CHECK_EQ(object_of[0], object_of[2]);
  free(scratch);
  /* the check recounts any assignment; the bound needs none */
  CHECK_EQ(dnnmem_share_check_scratch_size(&p, &bytes), DNNMEM_OK);
  scratch = scratch_for(bytes);
  CHECK_EQ(dnnmem_share_check(&p, object_of, &res, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(res.objects, 2);
  CHECK_EQ(res.total, 12288);
  object_of[1] = object_of[0]; /* records 0 and 1 overlap in time */
  CHECK_VALUES(object_of, 0, 0, 0);
  CHECK_EQ(dnnmem_share_check(&p, object_of, &res, scratch, bytes), DNNMEM_ERR_SHARE_OVERLAP);
  CHECK_EQ(res.error.index + res.error.other, 1); /* records 0 and 1 */
  free(scratch);
  CHECK_EQ(dnnmem_share_lower_bound_scratch_size(&p, &bytes), DNNMEM_OK);
  scratch = scratch_for(bytes);
  CHECK_EQ(dnnmem_share_lower_bound(&p, &res, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(res.lower_bound, 12288);
  free(scratch);
}

/* 0 -> 1 -> 2 */
static int32_t tour_in_offsets[4] = {0, 0, 1, 2}, tour_in_ids[2] = {0, 1};

static void tour_cover(void) {
  dnnmem_graph g = {3, tour_in_offsets, tour_in_ids};
  dnnmem_cover_result res;
  size_t bytes = 0;
  void *scratch;
  CHECK_EQ(dnnmem_cover_edges_scratch_size(&g, NULL, &bytes), DNNMEM_OK);
  scratch = scratch_for(bytes);
  CHECK_EQ(dnnmem_cover_edges(&g, NULL, NULL, NULL, NULL, 0, &res, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(res.paths, 1);
  free(scratch);
}

static void tour_remat(void) {
  /* a chain of three 1 MiB values: every step holds an input and an output */
  dnnmem_graph g = {3, tour_in_offsets, tour_in_ids};
  int64_t sizes[3] = {1 << 20, 1 << 20, 1 << 20}, times[3] = {10, 20, 30};
  dnnmem_remat_problem p = {&g, sizes, times, NULL};
  dnnmem_remat_options o = {DNNMEM_REMAT_ANNEAL};
  dnnmem_remat_result res;
  dnnmem_rng rng;
  int32_t n = 3, seq[6];
  size_t bytes = 0;
  void *scratch;
  o.budget = 3 << 20;
  dnnmem_rng_seed(&rng, 1);
  CHECK_EQ(dnnmem_remat_solve_scratch_size(&p, &o, 2 * n, &bytes), DNNMEM_OK);
  scratch = scratch_for(bytes);
  CHECK_EQ(dnnmem_remat_solve(&p, &o, &rng, seq, 2 * n, &res, scratch, bytes), DNNMEM_OK);
  CHECK(res.peak <= o.budget);
  CHECK_EQ(res.length, 3); /* nothing to recompute: the row order fits */
  CHECK_EQ(res.time, 60);
  free(scratch);
}

static void tour_layout(void) {
  dnnmem_layout l;
  int64_t index[2] = {7, 5}, units[DNNMEM_LAYOUT_MAX_LEVELS], address = -1;
  CHECK_EQ(dnnmem_layout_parse("((3:8, 4_PE), (8:1))", 20, &l, NULL), DNNMEM_OK);
  CHECK_EQ(dnnmem_layout_forward(&l, index, units, &address, NULL), DNNMEM_OK);
  CHECK_EQ(units[0], 3);
  CHECK_EQ(address, 13);
}

static void tour_flow(void) {
  /* the diamond 0 -> {1, 2} -> 3 plus 1 -> 2: max flow 5 */
  dnnmem_flow f;
  dnnmem_flow_result res;
  size_t bytes = 0;
  void *scratch;
  CHECK_EQ(dnnmem_flow_scratch_size(4, 5, &bytes), DNNMEM_OK);
  scratch = scratch_for(bytes);
  CHECK_EQ(dnnmem_flow_init(&f, 4, 5, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(dnnmem_flow_add_arc(&f, 0, 1, 3, 0, NULL), DNNMEM_OK);
  CHECK_EQ(dnnmem_flow_add_arc(&f, 0, 2, 2, 0, NULL), DNNMEM_OK);
  CHECK_EQ(dnnmem_flow_add_arc(&f, 1, 2, 1, 0, NULL), DNNMEM_OK);
  CHECK_EQ(dnnmem_flow_add_arc(&f, 1, 3, 2, 0, NULL), DNNMEM_OK);
  CHECK_EQ(dnnmem_flow_add_arc(&f, 2, 3, 3, 0, NULL), DNNMEM_OK);
  CHECK_EQ(dnnmem_flow_solve(&f, 0, 3, NULL, &res), DNNMEM_OK);
  CHECK_EQ(res.value, 5);
  free(scratch);
}

static void tour_place(void) {
  /* the chain 0 -> 1 -> 2: node 0 is a graph input (CPU), 1 and 2 are much
     faster on the accelerator; converting a value costs 5 */
  dnnmem_graph g = {3, tour_in_offsets, tour_in_ids};
  int64_t cpu_time[3] = {0, 100, 100}, acc_time[3] = {DNNMEM_PLACE_UNSUPPORTED, 10, 10};
  int64_t xfer[3] = {5, 5, 5};
  dnnmem_place_problem p = {&g, cpu_time, acc_time, xfer, NULL, NULL};
  dnnmem_place_result res;
  uint8_t device[3];
  size_t bytes = 0;
  void *scratch;
  CHECK_EQ(dnnmem_place_solve_scratch_size(&p, NULL, &bytes), DNNMEM_OK);
  scratch = scratch_for(bytes);
  CHECK_EQ(dnnmem_place_solve(&p, NULL, device, &res, scratch, bytes), DNNMEM_OK);
  CHECK_VALUES(device, DNNMEM_PLACE_CPU, DNNMEM_PLACE_ACC, DNNMEM_PLACE_ACC);
  CHECK_EQ(res.time, 0 + 5 + 10 + 10); /* value 0 converted once */
  free(scratch);
  { /* the price of any assignment */
    uint8_t cpu[3] = {DNNMEM_PLACE_CPU, DNNMEM_PLACE_CPU, DNNMEM_PLACE_CPU};
    CHECK_EQ(dnnmem_place_cost_scratch_size(&p, NULL, &bytes), DNNMEM_OK);
    scratch = scratch_for(bytes);
    CHECK_EQ(dnnmem_place_cost(&p, NULL, cpu, &res, scratch, bytes), DNNMEM_OK);
    CHECK_EQ(res.time, 200);
    cpu[0] = DNNMEM_PLACE_ACC;
    CHECK_EQ(dnnmem_place_cost(&p, NULL, cpu, &res, scratch, bytes), DNNMEM_ERR_INFEASIBLE);
    CHECK_EQ(res.error.index, 0);
    free(scratch);
  }
}

/* ---- the reference sections' examples, in the manual's order ------------- */

/* 1. dnnmem_graph_intervals: the chain 0 -> 1 -> 2 */
static void ref_graph_intervals(void) {
  dnnmem_graph g = {3, tour_in_offsets, tour_in_ids};
  int64_t sizes[3] = {4096, 8192, 4096};
  dnnmem_interval records[3];
  CHECK_EQ(dnnmem_graph_intervals(&g, sizes, NULL, records, NULL), DNNMEM_OK);
  CHECK_FIELDS(records, lower, 0, 1, 2);
  CHECK_FIELDS(records, upper, 2, 3, 3);
  CHECK_FIELDS(records, size, 4096, 8192, 4096);
}

/* 2. plan with a chosen strategy */
static void ref_plan(void) {
  dnnmem_intervals p = {tour_records, 3, 64};
  dnnmem_plan_options o;
  dnnmem_plan_result res;
  int64_t offsets[3];
  size_t bytes = 0;
  void *scratch;
  memset(&o, 0, sizeof(o));
  o.algo = DNNMEM_PLAN_GREEDY_SIZE; /* zeroed: best */
  CHECK_EQ(dnnmem_plan_solve_scratch_size(&p, &o, &bytes), DNNMEM_OK);
  scratch = scratch_for(bytes);
  CHECK_EQ(dnnmem_plan_solve(&p, &o, offsets, &res, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(res.arena, 12288);
  CHECK_EQ(res.lower_bound, 12288);
  CHECK_EQ(res.optimal, 1);
  CHECK_EQ(res.algo, DNNMEM_PLAN_GREEDY_SIZE);
  CHECK_VALUES(offsets, 8192, 0, 8192);
  free(scratch);
  /* the check and the bound */
  CHECK_EQ(dnnmem_plan_check_scratch_size(&p, &bytes), DNNMEM_OK);
  scratch = scratch_for(bytes);
  CHECK_EQ(dnnmem_plan_check(&p, offsets, &res, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(res.arena, 12288);
  offsets[0] = offsets[1] = offsets[2] = 0;
  CHECK_EQ(dnnmem_plan_check(&p, offsets, &res, scratch, bytes), DNNMEM_ERR_PLAN_OVERLAP);
  CHECK_EQ(res.error.index, 0);
  CHECK_EQ(res.error.other, 1);
  free(scratch);
  CHECK_EQ(dnnmem_plan_lower_bound_scratch_size(&p, &bytes), DNNMEM_OK);
  scratch = scratch_for(bytes);
  CHECK_EQ(dnnmem_plan_lower_bound(&p, &res, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(res.lower_bound, 12288);
  free(scratch);
}

/* 2. multi-pass: t[2]'s size is known only when pass 2 starts */
static void ref_plan_pass(void) {
  dnnmem_interval t[3];
  dnnmem_intervals p = {t, 3, 64};
  dnnmem_plan_result res;
  int64_t offsets[3];
  size_t bytes = 0;
  void *scratch;
  t[0] = tour_records[0], t[1] = tour_records[1], t[2] = tour_records[2];
  t[0].pass = 1, t[1].pass = 1, t[2].pass = 2;
  CHECK_EQ(dnnmem_plan_pass_scratch_size(&p, NULL, 1, &bytes), DNNMEM_OK);
  scratch = scratch_for(bytes);
  CHECK_EQ(dnnmem_plan_pass(&p, NULL, 1, offsets, &res, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(res.arena, 12288);
  free(scratch);
  t[2].size = 16384;
  CHECK_EQ(dnnmem_plan_pass_scratch_size(&p, NULL, 2, &bytes), DNNMEM_OK);
  scratch = scratch_for(bytes);
  CHECK_EQ(dnnmem_plan_pass(&p, NULL, 2, offsets, &res, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(res.arena, 28672);
  CHECK_EQ(offsets[2], 12288); /* above pass 1's records, which stay */
  free(scratch);
  CHECK_EQ(dnnmem_plan_solve_scratch_size(&p, NULL, &bytes), DNNMEM_OK); /* planned at once */
  scratch = scratch_for(bytes);
  CHECK_EQ(dnnmem_plan_solve(&p, NULL, offsets, &res, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(res.arena, 24576);
  free(scratch);
}

/* 2. symbolic sizes: 4096 S, 8192 S and 64 bytes, S in [1, 64] */
static void ref_plan_symbolic(void) {
  dnnmem_intervals p = {tour_records, 3, 64}; /* sizes ignored */
  int64_t c[3 * 2] = {0, 4096, 0, 8192, 64, 0};
  dnnmem_plan_symbolic sp = {&p, c, 2, 1, 64};
  int32_t order[3], below_offsets[4], below_ids[DNNMEM_PLAN_SYMBOLIC_EDGES(3)];
  dnnmem_plan_symbolic_result res;
  dnnmem_plan_stacking stacking = {order, below_offsets, below_ids};
  int64_t offsets[3];
  dnnmem_plan_result at;
  size_t bytes = 0;
  void *scratch;
  CHECK_EQ(dnnmem_plan_symbolic_solve_scratch_size(&sp, NULL, &bytes), DNNMEM_OK);
  scratch = scratch_for(bytes);
  CHECK_EQ(dnnmem_plan_symbolic_solve(&sp, NULL, order, below_offsets, below_ids, DNNMEM_PLAN_SYMBOLIC_EDGES(3),
                                      &res, scratch, bytes),
           DNNMEM_OK);
  CHECK(res.worst_ratio == 1.0);
  CHECK_EQ(dnnmem_plan_symbolic_resolve(&sp, &stacking, 10, offsets, &at), DNNMEM_OK);
  CHECK_EQ(at.arena, 122880);
  CHECK_EQ(offsets[1], 40960);
  CHECK_EQ(dnnmem_plan_symbolic_resolve(&sp, &stacking, 64, offsets, &at), DNNMEM_OK);
  CHECK_EQ(at.arena, 786432);
  free(scratch);
}

/* 2. why not: the tour's records cannot fit 8192 bytes */
static void ref_plan_conflict(void) {
  dnnmem_intervals p = {tour_records, 3, 64};
  dnnmem_plan_options o;
  dnnmem_plan_conflict_result res;
  int32_t conflict[3];
  size_t bytes = 0;
  void *scratch;
  memset(&o, 0, sizeof(o));
  o.capacity = 8192;
  CHECK_EQ(dnnmem_plan_conflict_scratch_size(&p, &o, &bytes), DNNMEM_OK);
  scratch = scratch_for(bytes);
  CHECK_EQ(dnnmem_plan_conflict(&p, &o, conflict, 3, &res, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(res.feasible, 0);
  CHECK_EQ(res.count, 2);
  CHECK_EQ(res.minimal, 1);
  CHECK_VALUES(conflict, 0, 1);
  free(scratch);
}

/* 2. pools: 8 KiB of SRAM at cost 1 beside unbounded DRAM at cost 10 */
static void ref_plan_pools(void) {
  dnnmem_intervals p = {tour_records, 3, 64};
  dnnmem_pool pools[2] = {{"sram", 8192, 0, 1}, {"dram", 0, 0, 10}};
  dnnmem_plan_pools pp = {&p, pools, 2, NULL, NULL};
  dnnmem_plan_pools_result res;
  int32_t pool_of[3];
  int64_t offsets[3], arenas[2];
  size_t bytes = 0;
  void *scratch;
  CHECK_EQ(dnnmem_plan_pools_solve_scratch_size(&pp, NULL, &bytes), DNNMEM_OK);
  scratch = scratch_for(bytes);
  CHECK_EQ(dnnmem_plan_pools_solve(&pp, NULL, pool_of, offsets, arenas, &res, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(res.cost, 8192 * 1 + 8192 * 10);
  CHECK_EQ(res.optimal, 1);
  CHECK_VALUES(pool_of, 1, 0, 1);
  CHECK_VALUES(arenas, 8192, 4096);
  free(scratch);
}

/* 3. shared objects by one strategy */
static void ref_share(void) {
  dnnmem_intervals p = {tour_records, 3, 0};
  dnnmem_share_options o = {DNNMEM_SHARE_GREEDY_BREADTH};
  dnnmem_share_result res;
  int32_t object_of[3];
  int64_t object_sizes[3];
  size_t bytes = 0;
  void *scratch;
  CHECK_EQ(dnnmem_share_solve_scratch_size(&p, &o, &bytes), DNNMEM_OK);
  scratch = scratch_for(bytes);
  CHECK_EQ(dnnmem_share_solve(&p, &o, object_of, object_sizes, &res, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(res.objects, 2);
  CHECK_EQ(res.total, 12288);
  CHECK_EQ(res.optimal, 1);
  CHECK_VALUES(object_of, 0, 1, 0);
  CHECK_VALUES(object_sizes, 4096, 8192);
  free(scratch);
}

/* 4. the diamond 0 -> {1, 2} -> 3 */
static void ref_cover(void) {
  int32_t in_offsets[5] = {0, 0, 1, 2, 4}, in_ids[4] = {0, 0, 1, 2};
  dnnmem_graph g = {4, in_offsets, in_ids};
  dnnmem_cover_result res;
  int32_t path_of[4], order[4];
  size_t bytes = 0;
  void *scratch;
  CHECK_EQ(dnnmem_cover_edges_scratch_size(&g, NULL, &bytes), DNNMEM_OK);
  scratch = scratch_for(bytes);
  CHECK_EQ(dnnmem_cover_edges(&g, NULL, NULL, NULL, NULL, 0, &res, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(res.paths, 2);
  free(scratch);
  CHECK_EQ(dnnmem_cover_vertices_scratch_size(&g, NULL, &bytes), DNNMEM_OK);
  scratch = scratch_for(bytes);
  CHECK_EQ(dnnmem_cover_vertices(&g, NULL, path_of, order, &res, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(res.paths, 2);
  CHECK_VALUES(path_of, 0, 0, 1, 0);
  CHECK_VALUES(order, 0, 1, 3, 2);
  free(scratch);
}

/* 5. the trade-off curve: x -> f1 -> f2 -> f3 -> f4, g = (f4, f2), h = (g, f1) */
static void ref_remat_curve(void) {
  int32_t in_offsets[8] = {0, 0, 1, 2, 3, 4, 6, 8}, in_ids[8] = {0, 1, 2, 3, 4, 2, 5, 1};
  dnnmem_graph g = {7, in_offsets, in_ids};
  int64_t sizes[7] = {0, 1 << 20, 1 << 20, 1 << 20, 1 << 20, 1 << 20, 1 << 20};
  int64_t times[7] = {0, 10, 10, 10, 10, 10, 10};
  dnnmem_remat_problem p = {&g, sizes, times, NULL};
  dnnmem_remat_options o = {DNNMEM_REMAT_ANNEAL};
  dnnmem_remat_point points[3];
  dnnmem_remat_curve_result res;
  dnnmem_rng rng;
  size_t bytes = 0;
  void *scratch;
  o.iterations = 20000;
  dnnmem_rng_seed(&rng, 1);
  CHECK_EQ(dnnmem_remat_curve_scratch_size(&p, &o, 14, 3, &bytes), DNNMEM_OK);
  scratch = scratch_for(bytes);
  CHECK_EQ(dnnmem_remat_curve(&p, &o, &rng, 14, points, 3, &res, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(res.base_peak, 4 << 20);
  CHECK_EQ(res.base_time, 60);
  CHECK_EQ(res.lower_bound, 3 << 20);
  CHECK_FIELDS(points, budget, 4 << 20, 7 << 19, 3 << 20);
  CHECK_FIELDS(points, time, 60, 70, 70);
  CHECK_FIELDS(points, time_lower_bound, 60, 65, 70);
  CHECK_EQ(res.knee, -1);
  free(scratch);
  { /* the row order's step by step count, and the bounds */
    int32_t row[7] = {0, 1, 2, 3, 4, 5, 6};
    int64_t profile[7];
    dnnmem_remat_result sim;
    dnnmem_remat_bound_result bound;
    CHECK_EQ(dnnmem_remat_simulate_scratch_size(&p, row, 7, &bytes), DNNMEM_OK);
    scratch = scratch_for(bytes);
    CHECK_EQ(dnnmem_remat_simulate(&p, row, 7, profile, &sim, scratch, bytes), DNNMEM_OK);
    CHECK_EQ(sim.peak, 4 << 20);
    CHECK_EQ(sim.time, 60);
    free(scratch);
    CHECK_EQ(dnnmem_remat_lower_bound(&p, &bound), DNNMEM_OK);
    CHECK_EQ(bound.peak, 3 << 20);
    o.budget = 3 << 20;
    CHECK_EQ(dnnmem_remat_time_bound_scratch_size(&p, &o, &bytes), DNNMEM_OK);
    scratch = scratch_for(bytes);
    CHECK_EQ(dnnmem_remat_time_bound(&p, &o, &bound, scratch, bytes), DNNMEM_OK);
    CHECK_EQ(bound.extra_time, 10);
    free(scratch);
  }
}

/* 6. sizes of a layout on a machine, and a conversion between two layouts */
static void ref_layout(void) {
  dnnmem_layout lay, other;
  dnnmem_layout_machine pe4;
  dnnmem_layout_result sizes;
  dnnmem_layout_conversion conv;
  dnnmem_error fault;
  int64_t err = -1;
  size_t bytes = 0;
  void *scratch;
  CHECK_EQ(dnnmem_layout_parse("((3:8, 4_PE), (8:1))", 20, &lay, &err), DNNMEM_OK);
  CHECK_EQ(dnnmem_layout_machine_parse("PE=4", 4, &pe4, &err), DNNMEM_OK);
  CHECK_EQ(dnnmem_layout_bind(&lay, &pe4, &fault), DNNMEM_OK);
  CHECK_EQ(dnnmem_layout_measure(&lay, &sizes), DNNMEM_OK);
  CHECK_EQ(sizes.units, 4);
  CHECK_EQ(sizes.cosize, 24);
  CHECK_EQ(sizes.unused_slots, 0);
  CHECK_EQ(dnnmem_layout_parse("((4_PE, 3:8), (8:1))", 20, &other, &err), DNNMEM_OK);
  CHECK_EQ(dnnmem_layout_bind(&other, &pe4, &fault), DNNMEM_OK);
  CHECK_EQ(dnnmem_layout_convert_scratch_size(&lay, &other, &bytes), DNNMEM_OK);
  scratch = scratch_for(bytes);
  CHECK_EQ(dnnmem_layout_convert(&lay, &other, &conv, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(conv.copies, 96);
  CHECK_EQ(conv.kept, 16);
  CHECK_EQ(conv.local, 16);
  CHECK_EQ(conv.moved, 64);
  CHECK_EQ(conv.runs, 10);
  free(scratch);
}

/* 6. the calls on one layout, run as the manual writes them: lay is the
   tour's 12x8 tensor (row r on PE r % 4 at address r / 4 * 8), bound to
   4 PEs as in ref_layout */
static void ref_layout_maps(void) {
  dnnmem_layout lay, pad;
  dnnmem_layout_machine pe4;
  dnnmem_error fault;
  int64_t err = -1, at[2] = {7, 5}, pos = -1, units[4], addrs[4], pe3[1] = {3}, r, c;
  int64_t pes[3] = {3, 3, 0}, addresses[3] = {13, 21, 24}, held[3];
  uint8_t what[3];
  dnnmem_layout_slot slot;
  dnnmem_layout_run runs[3];
  int32_t count = -1;
  CHECK_EQ(dnnmem_layout_parse("((3:8, 4_PE), (8:1))", 20, &lay, &err), DNNMEM_OK);
  CHECK_EQ(dnnmem_layout_machine_parse("PE=4", 4, &pe4, &err), DNNMEM_OK);
  CHECK_EQ(dnnmem_layout_bind(&lay, &pe4, &fault), DNNMEM_OK);
  /* position and index */
  CHECK_EQ(dnnmem_layout_position(&lay, at, &pos), DNNMEM_OK);
  CHECK_EQ(pos, 61); /* 7 * 8 + 5 */
  at[0] = at[1] = -1;
  CHECK_EQ(dnnmem_layout_index(&lay, 61, at), DNNMEM_OK);
  CHECK_VALUES(at, 7, 5);
  /* positions [6, 10) */
  CHECK_EQ(dnnmem_layout_forward_range(&lay, 6, 4, units, addrs), DNNMEM_OK);
  CHECK_VALUES(units, 0, 0, 1, 1);
  CHECK_VALUES(addrs, 6, 7, 0, 1);
  /* the manual's one-line description of lay, on all 96 positions */
  for (r = 0; r < 12; r++)
    for (c = 0; c < 8; c++) {
      CHECK_EQ(dnnmem_layout_forward_range(&lay, r * 8 + c, 1, units, addrs), DNNMEM_OK);
      CHECK_EQ(units[0], r % 4);
      CHECK_EQ(addrs[0], r / 4 * 8 + c);
    }
  /* the inverse map */
  at[0] = at[1] = -1;
  CHECK_EQ(dnnmem_layout_inverse(&lay, pe3, 13, at, &slot), DNNMEM_OK);
  CHECK_EQ(slot, DNNMEM_LAYOUT_SLOT_ELEMENT);
  CHECK_VALUES(at, 7, 5);
  CHECK_EQ(dnnmem_layout_inverse(&lay, pe3, 24, at, &slot), DNNMEM_OK);
  CHECK_EQ(slot, DNNMEM_LAYOUT_SLOT_UNUSED);
  /* many slots of the padded layout: row 11 of PE 3 is padding */
  CHECK_EQ(dnnmem_layout_parse("(10,8)/((3:8, 4_PE), (8:1))", 27, &pad, &err), DNNMEM_OK);
  CHECK_EQ(dnnmem_layout_inverse_batch(&pad, 3, pes, addresses, held, what), DNNMEM_OK);
  CHECK_VALUES(held, 61, 93, -1); /* (7, 5); (11, 5): 11 * 8 + 5 */
  CHECK_VALUES(what, DNNMEM_LAYOUT_SLOT_ELEMENT, DNNMEM_LAYOUT_SLOT_PAD, DNNMEM_LAYOUT_SLOT_UNUSED);
  /* PE 3's runs: rows 3, 7, 11 (elements 24, 56, 88) at addresses 0, 8, 16 */
  CHECK_EQ(dnnmem_layout_runs(&lay, pe3, NULL, 0, &count), DNNMEM_ERR_OUTPUT_TOO_SMALL);
  CHECK_EQ(count, 3);
  CHECK_EQ(dnnmem_layout_runs(&lay, pe3, runs, 3, &count), DNNMEM_OK);
  CHECK_EQ(count, 3);
  CHECK_FIELDS(runs, element, 24, 56, 88);
  CHECK_FIELDS(runs, address, 0, 8, 16);
  CHECK_FIELDS(runs, length, 8, 8, 8);
}

/* 6. copies: the tensor on each of 2 MABs of 4 PEs */
static void ref_layout_copies(void) {
  dnnmem_layout rep;
  dnnmem_layout_machine mab2;
  dnnmem_error fault;
  int64_t err = -1, at[2] = {7, 5}, units[4], address = -1, offsets[2] = {-1, -1};
  CHECK_EQ(dnnmem_layout_parse("((3:8, 4_PE), (8:1); B@[MAB])", 29, &rep, &err), DNNMEM_OK);
  CHECK_EQ(rep.replicas, 0); /* unknown before binding */
  CHECK_EQ(dnnmem_layout_replica_offset(&rep, 1, offsets), DNNMEM_ERR_LAYOUT_NEEDS_MACHINE);
  CHECK_EQ(dnnmem_layout_machine_parse("MAB=2,PE=4", 10, &mab2, &err), DNNMEM_OK);
  CHECK_EQ(dnnmem_layout_bind(&rep, &mab2, &fault), DNNMEM_OK);
  CHECK_EQ(rep.replicas, 2);
  CHECK_EQ(dnnmem_layout_level_index(&rep, "PE"), 1);
  CHECK_EQ(dnnmem_layout_level_index(&rep, "MAB"), 0);
  CHECK_EQ(dnnmem_layout_level_index(&rep, "L2B"), -1);
  CHECK_EQ(dnnmem_layout_forward(&rep, at, units, &address, NULL), DNNMEM_OK);
  CHECK_VALUES(units, DNNMEM_LAYOUT_ALL, 3);
  CHECK_EQ(address, 13);
  CHECK_EQ(dnnmem_layout_replica_offset(&rep, 1, offsets), DNNMEM_OK);
  CHECK_VALUES(offsets, 1, 0);
  CHECK_EQ(dnnmem_layout_replica_offset(&rep, 2, offsets), DNNMEM_ERR_LAYOUT_INDEX);
}

/* 6. a layout built in code, printed, compared; finish refusing a collision */
static void ref_layout_built(void) {
  dnnmem_layout built = {.num_axes = 2, .num_factors = 2, .axis_first = {0, 1, 2}};
  dnnmem_layout split, transposed;
  dnnmem_error fault;
  char text[64];
  int32_t length = -1;
  int64_t err = -1;
  built.factors[0].extent = 4;
  built.factors[1].extent = 8;
  built.factors[0].level = built.factors[1].level = DNNMEM_LAYOUT_MEMORY;
  built.factors[0].stride = built.factors[1].stride = DNNMEM_LAYOUT_AUTO;
  CHECK_EQ(dnnmem_layout_finish(&built, &fault), DNNMEM_OK);
  CHECK_EQ(built.cosize, 32);
  CHECK_VALUES(built.shape, 4, 8);
  CHECK_EQ(built.factors[0].stride, 8); /* compact row-major */
  CHECK_EQ(dnnmem_layout_print(&built, text, 64, &length), DNNMEM_OK);
  CHECK(strcmp(text, "((4:8), (8:1))") == 0);
  CHECK_EQ(length, 14);
  CHECK_EQ(dnnmem_layout_parse("((2:16, 2:8), 8:1)", 18, &split, &err), DNNMEM_OK);
  CHECK_EQ(dnnmem_layout_equal(&built, &split), 1);
  CHECK_EQ(dnnmem_layout_parse("(4:1, 8:4)", 10, &transposed, &err), DNNMEM_OK);
  CHECK_EQ(dnnmem_layout_equal(&built, &transposed), 0);
  /* rows 4 apart, 8 long: factor 0's stride collides */
  built.factors[0].stride = 4;
  CHECK_EQ(dnnmem_layout_finish(&built, &fault), DNNMEM_ERR_LAYOUT_COLLISION);
  CHECK_EQ(fault.index, 0);
  CHECK_EQ(fault.field, DNNMEM_FIELD_STRIDE);
  CHECK_EQ(built.cosize, 32); /* unchanged */
  CHECK_EQ(built.factors[0].stride, 4);
}

/* 6. the strided layouts: a part, cm (column-major 4x8) and the algebra */
static void ref_layout_algebra(void) {
  dnnmem_layout lay;
  dnnmem_layout_machine pe4;
  dnnmem_layout_strided mem, cm = {2, {4, 8}, {1, 4}}, r, bad = {2, {4, 0}, {1, 4}};
  dnnmem_layout_strided rm1 = {3, {4, 1, 8}, {8, 5, 1}}, tile = {2, {4, 4}, {8, 1}};
  dnnmem_layout_strided third = {1, {4}, {3}}, tile24 = {2, {2, 4}, {8, 1}};
  dnnmem_error fault;
  int64_t err = -1, halves[3] = {4, 2, 4}, flat[1] = {32};
  CHECK_EQ(dnnmem_layout_parse("((3:8, 4_PE), (8:1))", 20, &lay, &err), DNNMEM_OK);
  CHECK_EQ(dnnmem_layout_machine_parse("PE=4", 4, &pe4, &err), DNNMEM_OK);
  CHECK_EQ(dnnmem_layout_bind(&lay, &pe4, &fault), DNNMEM_OK);
  CHECK_EQ(dnnmem_layout_part(&lay, DNNMEM_LAYOUT_MEMORY, &mem), DNNMEM_OK);
  CHECK_EQ(mem.rank, 2);
  CHECK_VALUES(mem.shape, 3, 8);
  CHECK_VALUES(mem.stride, 8, 1);
  CHECK_EQ(dnnmem_layout_part(&lay, 0, &mem), DNNMEM_OK); /* PE */
  CHECK_EQ(mem.rank, 1);
  CHECK_VALUES(mem.shape, 4);
  CHECK_VALUES(mem.stride, 1);
  /* check, size, eval */
  CHECK_EQ(dnnmem_layout_strided_check(&cm, &fault), DNNMEM_OK);
  CHECK_EQ(fault.index, -1);
  CHECK_EQ(dnnmem_layout_strided_check(&bad, &fault), DNNMEM_ERR_LAYOUT_EXTENT);
  CHECK_EQ(fault.index, 1);
  CHECK_EQ(fault.field, DNNMEM_FIELD_EXTENT);
  CHECK_EQ(dnnmem_layout_strided_size(&cm), 32);
  CHECK_EQ(dnnmem_layout_strided_eval(&cm, 13), 21); /* (1, 5): 1 + 4 * 5 */
  CHECK_EQ(ref_layout_strided_eval(&cm, 13), 21);
  /* coalesce, compose */
  CHECK_EQ(dnnmem_layout_coalesce(&rm1, &r), DNNMEM_OK);
  CHECK_EQ(r.rank, 1);
  CHECK_VALUES(r.shape, 32);
  CHECK_VALUES(r.stride, 1);
  CHECK(ref_layout_coalesce_ok(&rm1, &r));
  CHECK_EQ(dnnmem_layout_compose(&cm, &tile, &r), DNNMEM_OK);
  CHECK_EQ(r.rank, 2);
  CHECK_VALUES(r.shape, 4, 4);
  CHECK_VALUES(r.stride, 1, 4);
  CHECK(ref_layout_compose_ok(&cm, &tile, &r));
  CHECK_EQ(dnnmem_layout_compose(&cm, &third, &r), DNNMEM_ERR_LAYOUT_NOT_DIVISIBLE);
  CHECK_EQ(ref_layout_strided_eval(&cm, ref_layout_strided_eval(&third, 1)), 12); /* 0, 12, 24, 5 */
  CHECK_EQ(ref_layout_strided_eval(&cm, ref_layout_strided_eval(&third, 3)), 5);
  /* complement, right inverse */
  CHECK_EQ(dnnmem_layout_complement(&tile24, 32, &r), DNNMEM_OK);
  CHECK_EQ(r.rank, 2);
  CHECK_VALUES(r.shape, 2, 2);
  CHECK_VALUES(r.stride, 16, 4);
  CHECK(ref_layout_complement_ok(&tile24, 32, &r));
  CHECK_EQ(dnnmem_layout_right_inverse(&cm, &r), DNNMEM_OK);
  CHECK_EQ(r.rank, 2);
  CHECK_VALUES(r.shape, 8, 4);
  CHECK_VALUES(r.stride, 1, 8);
  CHECK(ref_layout_right_inverse_ok(&cm, &r));
  /* reshape views */
  CHECK_EQ(dnnmem_layout_reshape_view(&cm, 3, halves, &r), DNNMEM_OK);
  CHECK_EQ(r.rank, 3);
  CHECK_VALUES(r.shape, 4, 2, 4);
  CHECK_VALUES(r.stride, 1, 16, 4);
  CHECK(ref_layout_reshape_ok(&cm, 3, halves, &r));
  CHECK_EQ(dnnmem_layout_reshape_view(&cm, 1, flat, &r), DNNMEM_ERR_LAYOUT_NEEDS_COPY);
}

/* 7. the tour's diamond: the flow on an arc and the cut */
static void ref_flow(void) {
  dnnmem_flow f;
  dnnmem_flow_result res;
  size_t bytes = 0;
  int32_t a = -1;
  void *scratch;
  CHECK_EQ(dnnmem_flow_scratch_size(4, 5, &bytes), DNNMEM_OK);
  scratch = scratch_for(bytes);
  CHECK_EQ(dnnmem_flow_init(&f, 4, 5, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(dnnmem_flow_add_arc(&f, 0, 1, 3, 0, &a), DNNMEM_OK);
  CHECK_EQ(dnnmem_flow_add_arc(&f, 0, 2, 2, 0, NULL), DNNMEM_OK);
  CHECK_EQ(dnnmem_flow_add_arc(&f, 1, 2, 1, 0, NULL), DNNMEM_OK);
  CHECK_EQ(dnnmem_flow_add_arc(&f, 1, 3, 2, 0, NULL), DNNMEM_OK);
  CHECK_EQ(dnnmem_flow_add_arc(&f, 2, 3, 3, 0, NULL), DNNMEM_OK);
  CHECK_EQ(dnnmem_flow_solve(&f, 0, 3, NULL, &res), DNNMEM_OK);
  CHECK_EQ(res.value, 5);
  CHECK_EQ(dnnmem_flow_arc_flow(&f, a), 3);
  CHECK_EQ(dnnmem_flow_source_side(&f, 0), 1);
  CHECK_EQ(dnnmem_flow_source_side(&f, 1), 0);
  free(scratch);
}

/* 9. three devices on the chain 0 -> 1 -> 2: cpu, gpu, npu */
static void ref_label(void) {
  dnnmem_graph g = {3, tour_in_offsets, tour_in_ids};
  int64_t U = DNNMEM_LABEL_UNSUPPORTED;
  int64_t cost[3 * 3] = {0, U, U, 100, 20, 10, 100, 20, U};
  int64_t sizes[3] = {4, 4, 4}, rate[3 * 3] = {0, 1, 1, 1, 0, 1, 1, 1, 0}, latency[3 * 3] = {0, 5, 5, 5, 0, 5, 5, 5, 0};
  dnnmem_label_problem p = {&g, 3, cost, NULL, sizes, rate, latency, NULL, NULL};
  dnnmem_label_result res;
  int32_t label[3];
  size_t bytes = 0;
  void *scratch;
  CHECK_EQ(dnnmem_label_solve_scratch_size(&p, NULL, &bytes), DNNMEM_OK);
  scratch = scratch_for(bytes);
  CHECK_EQ(dnnmem_label_solve(&p, NULL, label, &res, scratch, bytes), DNNMEM_OK);
  CHECK_VALUES(label, 0, 2, 1);
  CHECK_EQ(res.cost, 0 + 10 + 9 + 20 + 9); /* each conversion 4 x 1 + 5 */
  CHECK_EQ(res.lower_bound, 48);
  CHECK_EQ(res.gap, 0);
  CHECK_EQ(res.optimal, 1);
  free(scratch);
  { /* the cost of any labeling */
    int32_t all_cpu[3] = {0, 0, 0};
    CHECK_EQ(dnnmem_label_cost_scratch_size(&p, &bytes), DNNMEM_OK);
    scratch = scratch_for(bytes);
    CHECK_EQ(dnnmem_label_cost(&p, all_cpu, &res, scratch, bytes), DNNMEM_OK);
    CHECK_EQ(res.cost, 200);
    label[2] = 2; /* node 2 on the npu, which cannot run it */
    CHECK(dnnmem_label_cost(&p, label, &res, scratch, bytes) != DNNMEM_OK);
    CHECK_EQ(res.error.index, 2);
    free(scratch);
  }
}

int main(void) {
  RUN(tour_errors);
  RUN(tour_plan);
  RUN(tour_share);
  RUN(tour_cover);
  RUN(tour_remat);
  RUN(tour_layout);
  RUN(tour_flow);
  RUN(tour_place);
  RUN(ref_graph_intervals);
  RUN(ref_plan);
  RUN(ref_plan_pass);
  RUN(ref_plan_symbolic);
  RUN(ref_plan_conflict);
  RUN(ref_plan_pools);
  RUN(ref_share);
  RUN(ref_cover);
  RUN(ref_remat_curve);
  RUN(ref_layout);
  RUN(ref_layout_maps);
  RUN(ref_layout_copies);
  RUN(ref_layout_built);
  RUN(ref_layout_algebra);
  RUN(ref_flow);
  RUN(ref_label);
  return test_finish("test_tour");
}

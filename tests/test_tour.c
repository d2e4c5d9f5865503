/* tests/test_tour.c: the manual's tour, one example per part, run as written
   (the same calls and values), with every result the tour states checked.
   If this fails, the tour teaches something false. */
#include <stdlib.h>

#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "test.h"

/* The tour leaves allocation to the reader; this is the "however you like". */
static void *scratch_for(size_t bytes) { return malloc(bytes ? bytes : 1); }

static dnnmem_interval tour_records[3] = {{.lower = 0, .upper = 2, .size = 4096},
                                          {.lower = 1, .upper = 3, .size = 8192},
                                          {.lower = 2, .upper = 4, .size = 4096}};

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
  {
    dnnmem_interval t[3];
    dnnmem_intervals q = {t, 3, 64};
    t[0] = tour_records[0], t[1] = tour_records[1], t[2] = tour_records[2];
    t[2].flags = DNNMEM_INTERVAL_REUSE;
    t[2].reuse = 1;
    CHECK_EQ(dnnmem_plan_solve_scratch_size(&q, NULL, &bytes), DNNMEM_OK);
    scratch = scratch_for(bytes);
    CHECK_EQ(dnnmem_plan_solve(&q, NULL, offsets, &res, scratch, bytes), DNNMEM_OK);
    CHECK_EQ(res.reused, 1);
    CHECK_EQ(offsets[2], offsets[1]);
    CHECK_EQ(res.arena, 12288);
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
  CHECK_EQ(device[0], DNNMEM_PLACE_CPU);
  CHECK_EQ(device[1], DNNMEM_PLACE_ACC);
  CHECK_EQ(device[2], DNNMEM_PLACE_ACC);
  CHECK_EQ(res.time, 0 + 5 + 10 + 10); /* value 0 converted once */
  free(scratch);
}

int main(void) {
  RUN(tour_plan);
  RUN(tour_share);
  RUN(tour_cover);
  RUN(tour_remat);
  RUN(tour_layout);
  RUN(tour_flow);
  RUN(tour_place);
  return test_finish("test_tour");
}

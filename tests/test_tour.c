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
  dnnmem_remat_options o;
  dnnmem_remat_result res;
  dnnmem_rng rng;
  int32_t n = 3, seq[6];
  size_t bytes = 0;
  void *scratch;
  memset(&o, 0, sizeof o); /* zeroed: the defaults, DNNMEM_REMAT_ANNEAL */
  o.budget = 3 << 20;
  dnnmem_rng_seed(&rng, 1);
  CHECK_EQ(dnnmem_remat_solve_scratch_size(&p, &o, 2 * n, &bytes), DNNMEM_OK);
  scratch = scratch_for(bytes);
  CHECK_EQ(dnnmem_remat_solve(&p, &o, &rng, seq, 2 * n, &res, scratch, bytes), DNNMEM_OK);
  CHECK(res.peak <= o.budget);
  CHECK_EQ(res.length, 3); /* nothing to recompute: the row order fits */
  CHECK_EQ(res.time, 60);
  free(scratch);
  { /* the arena res.arena reports, planned again (deterministic) */
    dnnmem_plan_options po;
    dnnmem_interval records[6];
    int64_t offsets[6];
    dnnmem_remat_plan_result arena;
    CHECK(res.arena >= res.peak && res.arena <= o.budget);
    dnnmem_remat_arena_options(o.budget, res.length, &po);
    CHECK_EQ(dnnmem_remat_plan_scratch_size(&p, &po, seq, res.length, 0, &bytes), DNNMEM_OK);
    scratch = scratch_for(bytes);
    CHECK_EQ(dnnmem_remat_plan(&p, &po, seq, res.length, 0, records, offsets, &arena, scratch, bytes), DNNMEM_OK);
    CHECK_EQ(arena.arena, res.arena);
    free(scratch);
  }
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
  { /* the network the solve cuts, to cut it elsewhere */
    dnnmem_flow f;
    dnnmem_flow_result cut;
    CHECK_EQ(dnnmem_place_network_scratch_size(&p, NULL, &bytes), DNNMEM_OK);
    scratch = scratch_for(bytes);
    CHECK_EQ(dnnmem_place_network(&p, NULL, &f, &res, scratch, bytes), DNNMEM_OK);
    CHECK_EQ(res.time, 15 + 10); /* op 1's cheaper side (10 + xfer 5), op 2's (10) */
    CHECK_EQ(res.num_free, 2);
    CHECK_EQ(res.flow_nodes, 4); /* CPU, accelerator, ops 1 and 2 */
    CHECK_EQ(res.flow_arcs, 3);  /* op 1 -> acc 85, op 2 -> acc 90, 1 <-> 2 xfer 5 */
    CHECK(res.cut == 0 && res.all_acc_time == 0 && res.greedy_time == 0 && res.conversions == 0);
    { /* exported arc by arc: 2 and 3 are ops 1 and 2 */
      static const int64_t want[3][4] = {{3, 2, 5, 5}, {2, 1, 85, 0}, {3, 1, 90, 0}};
      int32_t arc, from = -1, to = -1;
      int64_t cap = -1, reverse = -1;
      for (arc = 0; arc < 3; arc++) {
        CHECK_EQ(dnnmem_flow_arc(&f, arc, &from, &to, &cap, &reverse), DNNMEM_OK);
        CHECK(from == want[arc][0] && to == want[arc][1] && cap == want[arc][2] && reverse == want[arc][3]);
      }
    }
    CHECK_EQ(dnnmem_flow_solve(&f, 0, 1, NULL, &cut), DNNMEM_OK);
    CHECK_EQ(cut.value, 0);
    CHECK_EQ(dnnmem_flow_source_side(&f, 2) + dnnmem_flow_source_side(&f, 3), 0); /* both on the accelerator */
    free(scratch);
    { /* no room promised for arcs of your own: the per-edge model has none */
      dnnmem_place_options per_edge;
      memset(&per_edge, 0, sizeof per_edge);
      per_edge.model = DNNMEM_PLACE_PER_EDGE;
      CHECK_EQ(dnnmem_place_network_scratch_size(&p, &per_edge, &bytes), DNNMEM_OK);
      scratch = scratch_for(bytes);
      CHECK_EQ(dnnmem_place_network(&p, &per_edge, &f, &res, scratch, bytes), DNNMEM_OK);
      CHECK_EQ(dnnmem_flow_add_arc(&f, 0, 3, 1000, 0, NULL), DNNMEM_ERR_FLOW_FULL);
      free(scratch);
    }
  }
  { /* a pin is the problem's, not an arc of your own: op 2 on the CPU */
    uint8_t pin[3] = {DNNMEM_PLACE_ANY, DNNMEM_PLACE_ANY, DNNMEM_PLACE_CPU};
    dnnmem_place_problem pinned = p;
    pinned.device = pin;
    CHECK_EQ(dnnmem_place_solve_scratch_size(&pinned, NULL, &bytes), DNNMEM_OK);
    scratch = scratch_for(bytes);
    CHECK_EQ(dnnmem_place_solve(&pinned, NULL, device, &res, scratch, bytes), DNNMEM_OK);
    CHECK_VALUES(device, DNNMEM_PLACE_CPU, DNNMEM_PLACE_ACC, DNNMEM_PLACE_CPU);
    CHECK_EQ(res.time, 0 + 5 + 10 + 5 + 100);
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

/* 1. a graph numbered out of order (0 reads 2, 2 reads 1): check, test,
   order; a cycle and an id out of range refused */
static void ref_graph_order(void) {
  int32_t in_offsets[4] = {0, 1, 1, 2}, in_ids[2] = {2, 1}, order[3];
  dnnmem_graph h = {3, in_offsets, in_ids};
  dnnmem_error e;
  size_t bytes = 0;
  void *scratch;
  CHECK_EQ(dnnmem_graph_check(&h, &e), DNNMEM_OK);
  CHECK_EQ(dnnmem_graph_is_topological(&h), 0);
  CHECK_EQ(dnnmem_graph_topo_order_scratch_size(&h, &bytes), DNNMEM_OK);
  scratch = scratch_for(bytes);
  e.index = e.other = 7; /* success leaves {-1, NONE, -1} */
  CHECK_EQ(dnnmem_graph_topo_order(&h, order, scratch, bytes, &e), DNNMEM_OK);
  CHECK(e.index == -1 && e.field == DNNMEM_FIELD_NONE && e.other == -1);
  CHECK_VALUES(order, 1, 2, 0);
  in_ids[1] = 0; /* node 2 reads node 0, which reads node 2 */
  CHECK_EQ(dnnmem_graph_check(&h, &e), DNNMEM_OK);
  CHECK_EQ(dnnmem_graph_topo_order(&h, order, scratch, bytes, &e), DNNMEM_ERR_CYCLE);
  CHECK(e.index == 0 || e.index == 2);
  CHECK_EQ(e.field, DNNMEM_FIELD_INPUT);
  in_ids[1] = 3; /* no node 3 */
  CHECK_EQ(dnnmem_graph_check(&h, &e), DNNMEM_ERR_ID_RANGE);
  CHECK_EQ(e.index, 2);
  CHECK_EQ(e.field, DNNMEM_FIELD_INPUT);
  CHECK_EQ(dnnmem_graph_topo_order(&h, order, scratch, bytes, &e), DNNMEM_ERR_ID_RANGE);
  CHECK_EQ(e.index, 2);
  free(scratch);
  { /* an offset's alignment */
    dnnmem_interval t[3];
    memcpy(t, tour_records, sizeof t);
    CHECK_EQ(dnnmem_interval_alignment(&t[0], 64), 64);
    t[0].alignment = 256;
    CHECK_EQ(dnnmem_interval_alignment(&t[0], 64), 256);
    t[0].alignment = 0;
    CHECK_EQ(dnnmem_interval_alignment(&t[0], 0), 1);
  }
}

/* 1. names: one enum's round trip, a result code's, a field's */
static void ref_names(void) {
  dnnmem_plan_algo a = DNNMEM_PLAN_BEST;
  dnnmem_result r;
  dnnmem_field f;
  CHECK_EQ(dnnmem_plan_algo_parse("greedy-size", &a), DNNMEM_OK);
  CHECK_EQ(a, DNNMEM_PLAN_GREEDY_SIZE);
  CHECK(strcmp(dnnmem_plan_algo_name(a), "greedy-size") == 0);
  CHECK(dnnmem_plan_algo_name(DNNMEM_PLAN_ALGO_COUNT) == NULL);
  CHECK_EQ(dnnmem_plan_algo_parse("greedy", &a), DNNMEM_ERR_PARSE);
  CHECK_EQ(a, DNNMEM_PLAN_GREEDY_SIZE);
  CHECK_EQ(dnnmem_result_parse("DNNMEM_ERR_CYCLE", &r), DNNMEM_OK);
  CHECK_EQ(r, DNNMEM_ERR_CYCLE);
  CHECK(strcmp(dnnmem_result_name(r), "DNNMEM_ERR_CYCLE") == 0);
  CHECK(strcmp(dnnmem_result_text(r), "graph has a cycle") == 0);
  CHECK_EQ(dnnmem_field_parse("size", &f), DNNMEM_OK);
  CHECK_EQ(f, DNNMEM_FIELD_SIZE);
}

/* Every value of enum T (count of them) named and parsed back to itself;
   past the end no name; an unknown name DNNMEM_ERR_PARSE, *out unchanged. */
#define TOUR_ROUND_TRIP(T, name, parse, count)                    \
  do {                                                            \
    T tour__v = (T)0;                                             \
    int tour__k;                                                  \
    for (tour__k = 0; tour__k < (int)(count); tour__k++) {        \
      CHECK(name((T)tour__k) != NULL);                            \
      CHECK_EQ(parse(name((T)tour__k), &tour__v), DNNMEM_OK);     \
      CHECK_EQ(tour__v, tour__k);                                 \
    }                                                             \
    CHECK(name((T)(count)) == NULL);                              \
    CHECK_EQ(parse("no such name", &tour__v), DNNMEM_ERR_PARSE);  \
    CHECK_EQ(tour__v, (int)(count)-1);                            \
  } while (0)

/* 1. the names of every enum of the manual, and every result code */
static void ref_names_all(void) {
  static const dnnmem_result codes[] = {
#define TOUR_CODE(name, value, text) name,
      DNNMEM_RESULT_LIST(TOUR_CODE)
#undef TOUR_CODE
  };
  static const char *const fields[] = {
#define TOUR_FIELD(name, text) text,
      DNNMEM_FIELD_LIST(TOUR_FIELD)
#undef TOUR_FIELD
  };
  size_t i;
  dnnmem_result r = DNNMEM_OK;
  dnnmem_field f = DNNMEM_FIELD_NONE;
  TOUR_ROUND_TRIP(dnnmem_plan_algo, dnnmem_plan_algo_name, dnnmem_plan_algo_parse, DNNMEM_PLAN_ALGO_COUNT);
  TOUR_ROUND_TRIP(dnnmem_plan_stop, dnnmem_plan_stop_name, dnnmem_plan_stop_parse, DNNMEM_PLAN_STOP_COUNT);
  TOUR_ROUND_TRIP(dnnmem_plan_pools_algo, dnnmem_plan_pools_algo_name, dnnmem_plan_pools_algo_parse, DNNMEM_PLAN_POOLS_ALGO_COUNT);
  TOUR_ROUND_TRIP(dnnmem_share_algo, dnnmem_share_algo_name, dnnmem_share_algo_parse, DNNMEM_SHARE_ALGO_COUNT);
  TOUR_ROUND_TRIP(dnnmem_remat_algo, dnnmem_remat_algo_name, dnnmem_remat_algo_parse, DNNMEM_REMAT_ALGO_COUNT);
  TOUR_ROUND_TRIP(dnnmem_remat_spacing, dnnmem_remat_spacing_name, dnnmem_remat_spacing_parse, DNNMEM_REMAT_SPACING_COUNT);
  TOUR_ROUND_TRIP(dnnmem_flow_algo, dnnmem_flow_algo_name, dnnmem_flow_algo_parse, DNNMEM_FLOW_ALGO_COUNT);
  TOUR_ROUND_TRIP(dnnmem_place_model, dnnmem_place_model_name, dnnmem_place_model_parse, DNNMEM_PLACE_MODEL_COUNT);
  TOUR_ROUND_TRIP(dnnmem_label_algo, dnnmem_label_algo_name, dnnmem_label_algo_parse, DNNMEM_LABEL_ALGO_COUNT);
  TOUR_ROUND_TRIP(dnnmem_label_stop, dnnmem_label_stop_name, dnnmem_label_stop_parse, DNNMEM_LABEL_STOP_COUNT);
  for (i = 0; i < sizeof codes / sizeof codes[0]; i++) {
    CHECK(dnnmem_result_text(codes[i]) != NULL);
    CHECK_EQ(dnnmem_result_parse(dnnmem_result_name(codes[i]), &r), DNNMEM_OK);
    CHECK_EQ(r, codes[i]);
  }
  CHECK_EQ(dnnmem_result_parse("DNNMEM_ERR_NO_SUCH", &r), DNNMEM_ERR_PARSE);
  CHECK_EQ(r, codes[sizeof codes / sizeof codes[0] - 1]);
  for (i = 0; i < sizeof fields / sizeof fields[0]; i++) {
    CHECK(strcmp(dnnmem_field_name((dnnmem_field)i), fields[i]) == 0);
    CHECK_EQ(dnnmem_field_parse(fields[i], &f), DNNMEM_OK);
    CHECK_EQ(f, (int)i);
  }
  CHECK(dnnmem_field_name((dnnmem_field)i) == NULL);
  CHECK_EQ(dnnmem_field_parse("no such field", &f), DNNMEM_ERR_PARSE);
  CHECK_EQ(f, (int)i - 1);
}

/* 1. the same seed, the same draws (splitmix64's published first value) */
static void ref_rng(void) {
  dnnmem_rng r;
  dnnmem_rng_seed(&r, 0);
  CHECK(dnnmem_rng_next(&r) == 0xE220A8397B1DCDAFull);
  CHECK_EQ(dnnmem_rng_below(&r, 6), 2);
  CHECK(dnnmem_rng_uniform(&r) == 238094247788840.0 / 9007199254740992.0);
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

/* 2. chains: the fewest groups of records that never meet in time */
static void ref_plan_chains(void) {
  dnnmem_intervals p = {tour_records, 3, 64};
  dnnmem_plan_chains_result res;
  int32_t group_of[3], order[3];
  size_t bytes = 0;
  void *scratch;
  CHECK_EQ(dnnmem_plan_chains_scratch_size(&p, &bytes), DNNMEM_OK);
  CHECK(bytes <= DNNMEM_PLAN_CHAINS_SCRATCH_BYTES(3));
  scratch = scratch_for(bytes);
  CHECK_EQ(dnnmem_plan_chains(&p, group_of, order, &res, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(res.groups, 2);
  CHECK_VALUES(group_of, 0, 1, 0);
  CHECK_VALUES(order, 0, 2, 1);
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
  { /* the records at one S, for any other operation of this part */
    dnnmem_interval at10[3];
    dnnmem_error e;
    e.index = e.other = 7; /* success leaves {-1, NONE, -1} */
    CHECK_EQ(dnnmem_plan_symbolic_records(&sp, 10, at10, &e), DNNMEM_OK);
    CHECK(e.index == -1 && e.field == DNNMEM_FIELD_NONE && e.other == -1);
    CHECK_FIELDS(at10, size, 40960, 81920, 64);
    CHECK_FIELDS(at10, lower, 0, 1, 2);
    CHECK_EQ(dnnmem_plan_symbolic_records(&sp, 65, at10, &e), DNNMEM_ERR_PLAN_SYMBOL_RANGE);
    CHECK_EQ(e.index, -1);
    CHECK_EQ(e.field, DNNMEM_FIELD_SYMBOL);
  }
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
  /* the bound needs no plan; the check recounts any plan */
  CHECK_EQ(dnnmem_plan_pools_lower_bound_scratch_size(&pp, &bytes), DNNMEM_OK);
  scratch = scratch_for(bytes);
  CHECK_EQ(dnnmem_plan_pools_lower_bound(&pp, &res, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(res.lower_bound, 16384 * 1 + 4096 * (10 - 1)); /* every byte in SRAM, but at step 1 4096 of 12288 in DRAM */
  free(scratch);
  CHECK_EQ(dnnmem_plan_pools_check_scratch_size(&pp, &bytes), DNNMEM_OK);
  scratch = scratch_for(bytes);
  CHECK_EQ(dnnmem_plan_pools_check(&pp, pool_of, offsets, arenas, &res, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(res.cost, 90112);
  CHECK_VALUES(arenas, 8192, 4096);
  pool_of[0] = 0; /* record 0 into SRAM too, above record 1 */
  offsets[0] = 8192, offsets[1] = 0;
  CHECK_EQ(dnnmem_plan_pools_check(&pp, pool_of, offsets, arenas, &res, scratch, bytes),
           DNNMEM_ERR_PLAN_POOL_OVER_CAPACITY);
  CHECK_EQ(res.error.index, 0);
  CHECK_EQ(res.error.other, 0);
  free(scratch);
  { /* SRAM alone: why no plan fits */
    dnnmem_plan_pools sram = {&p, pools, 1, NULL, NULL};
    dnnmem_plan_conflict_result why;
    int32_t conflict[3];
    CHECK_EQ(dnnmem_plan_pools_conflict_scratch_size(&sram, NULL, &bytes), DNNMEM_OK);
    scratch = scratch_for(bytes);
    CHECK_EQ(dnnmem_plan_pools_conflict(&sram, NULL, conflict, 3, &why, scratch, bytes), DNNMEM_OK);
    CHECK_EQ(why.feasible, 0);
    CHECK_EQ(why.count, 2);
    CHECK_EQ(why.minimal, 1);
    CHECK_VALUES(conflict, 0, 1);
    free(scratch);
    CHECK_EQ(dnnmem_plan_pools_lower_bound_scratch_size(&sram, &bytes), DNNMEM_OK);
    scratch = scratch_for(bytes);
    CHECK_EQ(dnnmem_plan_pools_lower_bound(&sram, &res, scratch, bytes), DNNMEM_ERR_INFEASIBLE);
    free(scratch);
  }
}

/* 3. shared objects by one strategy */
static void ref_share(void) {
  dnnmem_intervals p = {tour_records, 3, 0};
  dnnmem_share_options o;
  dnnmem_share_result res;
  int32_t object_of[3];
  int64_t object_sizes[3];
  size_t bytes = 0;
  void *scratch;
  memset(&o, 0, sizeof o);
  o.algo = DNNMEM_SHARE_GREEDY_BREADTH;
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
  dnnmem_remat_options o;
  dnnmem_remat_point points[3];
  dnnmem_remat_curve_result res;
  dnnmem_rng rng;
  size_t bytes = 0;
  void *scratch;
  memset(&o, 0, sizeof o);
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
  CHECK_FIELDS(points, time_lower_bound, 60, 70, 70);
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
  { /* h from f1 .. g at the least peak, exactly (x held outside) */
    int32_t members[6] = {1, 2, 3, 4, 5, 6}, order[12];
    dnnmem_remat_result sim;
    CHECK_EQ(dnnmem_remat_group_order_scratch_size(&p, 6, 1000, 12, &bytes), DNNMEM_OK);
    scratch = scratch_for(bytes);
    CHECK_EQ(dnnmem_remat_group_order(&p, members, 6, 1000, order, 12, &sim, scratch, bytes), DNNMEM_OK);
    CHECK_EQ(sim.length, 7);
    CHECK_EQ(sim.peak, 3 << 20);
    CHECK_VALUES(order, 1, 2, 3, 4, 5, 1, 6);
    CHECK(sim.time == 0 && sim.recomputations == 0 && sim.moves == 0 && sim.arena == 0); /* the other fields zero */
    members[5] = 2; /* f2 twice */
    CHECK_EQ(dnnmem_remat_group_order(&p, members, 6, 1000, order, 12, &sim, scratch, bytes),
             DNNMEM_ERR_INVALID_ARGUMENT);
    CHECK_EQ(sim.error.index, 5);
    CHECK_EQ(sim.error.other, 1);
    CHECK_EQ(sim.error.field, DNNMEM_FIELD_MEMBER);
    free(scratch);
  }
  { /* that order's arena: its 8 instances planned as dnnmem_remat_solve does */
    int32_t seq[8] = {0, 1, 2, 3, 4, 5, 1, 6};
    dnnmem_plan_options po;
    dnnmem_interval records[8];
    int64_t offsets[8];
    dnnmem_remat_plan_result arena;
    dnnmem_remat_arena_options(3 << 20, 8, &po);
    CHECK_EQ(po.algo, DNNMEM_PLAN_EXACT);
    CHECK_EQ(po.capacity, 3 << 20);
    CHECK_EQ(po.node_limit, 1000000); /* 8,000,000 / 8 */
    CHECK_EQ(dnnmem_remat_plan_scratch_size(&p, &po, seq, 8, 0, &bytes), DNNMEM_OK);
    scratch = scratch_for(bytes);
    CHECK_EQ(dnnmem_remat_plan(&p, &po, seq, 8, 0, records, offsets, &arena, scratch, bytes), DNNMEM_OK);
    CHECK_EQ(arena.arena, 3 << 20);
    CHECK_EQ(arena.peak, 3 << 20);
    CHECK_EQ(arena.time, 70);
    CHECK_EQ(arena.optimal, 1);
    CHECK_EQ(arena.plan.feasible, 1);
    CHECK_FIELDS(records, lower, 0, 1, 2, 3, 4, 5, 6, 7);
    CHECK_FIELDS(records, upper, 7, 3, 6, 5, 6, 8, 8, 8);
    { /* the offsets recounted */
      dnnmem_intervals q = {records, 8, 0};
      dnnmem_plan_result recount;
      size_t check_bytes = 0;
      void *check_scratch;
      CHECK_EQ(dnnmem_plan_check_scratch_size(&q, &check_bytes), DNNMEM_OK);
      check_scratch = scratch_for(check_bytes);
      CHECK_EQ(dnnmem_plan_check(&q, offsets, &recount, check_scratch, check_bytes), DNNMEM_OK);
      CHECK_EQ(recount.arena, 3 << 20);
      free(check_scratch);
    }
    seq[5] = 6; /* h before g */
    CHECK_EQ(dnnmem_remat_plan(&p, &po, seq, 8, 0, records, offsets, &arena, scratch, bytes),
             DNNMEM_ERR_REMAT_INPUT_NOT_READY);
    CHECK_EQ(arena.error.index, 5);
    CHECK_EQ(arena.error.field, DNNMEM_FIELD_SEQUENCE);
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
  dnnmem_layout_factor *f = built.factors;
  f[0].extent = 4;
  f[1].extent = 8;
  f[0].level = f[1].level = DNNMEM_LAYOUT_MEMORY;
  f[0].stride = f[1].stride = DNNMEM_LAYOUT_AUTO;
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
  f[0].stride = 4;
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
  { /* an arc as added, to export the network */
    int32_t from = -1, to = -1;
    int64_t cap = -1, reverse = -1;
    CHECK_EQ(dnnmem_flow_arc(&f, a, &from, &to, &cap, &reverse), DNNMEM_OK);
    CHECK(from == 0 && to == 1 && cap == 3 && reverse == 0);
    CHECK_EQ(dnnmem_flow_arc(&f, 5, &from, &to, &cap, &reverse), DNNMEM_ERR_ID_RANGE);
  }
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
  /* the bound alone */
  CHECK_EQ(dnnmem_label_lower_bound_scratch_size(&p, NULL, &bytes), DNNMEM_OK);
  scratch = scratch_for(bytes);
  CHECK_EQ(dnnmem_label_lower_bound(&p, NULL, &res, scratch, bytes), DNNMEM_OK);
  CHECK_EQ(res.lower_bound, 48);
  CHECK_EQ(res.cost, 0);
  free(scratch);
  { /* one expansion move, from all on the cpu: who moves to the npu? */
    int32_t all_cpu[3] = {0, 0, 0}, node[3];
    dnnmem_flow f;
    dnnmem_flow_result cut;
    dnnmem_label_network_result net;
    CHECK_EQ(dnnmem_label_network_scratch_size(&p, NULL, &bytes), DNNMEM_OK);
    scratch = scratch_for(bytes);
    CHECK_EQ(dnnmem_label_network(&p, NULL, all_cpu, 2, &f, node, &net, scratch, bytes), DNNMEM_OK);
    CHECK_EQ(net.constant, 0 + 100 + 28); /* op 1's cheaper side: 10 + 9 + 9 on the npu */
    CHECK_EQ(net.num_free, 1);
    CHECK_EQ(net.approximated, 0);
    CHECK_VALUES(node, 0, 2, 0); /* ops 0 and 2 cannot run on the npu */
    CHECK_EQ(dnnmem_flow_solve(&f, 0, 1, NULL, &cut), DNNMEM_OK);
    CHECK_EQ(cut.value, 0);
    CHECK_EQ(dnnmem_flow_source_side(&f, node[1]), 0); /* op 1 moves */
    all_cpu[1] = 2;
    CHECK_EQ(dnnmem_label_cost(&p, all_cpu, &res, scratch, bytes), DNNMEM_OK); /* the move's cost, recounted */
    CHECK_EQ(res.cost, 128);
    CHECK_EQ(dnnmem_label_network(&p, NULL, all_cpu, 3, &f, node, &net, scratch, bytes), DNNMEM_ERR_ID_RANGE);
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
  RUN(ref_graph_order);
  RUN(ref_names);
  RUN(ref_names_all);
  RUN(ref_rng);
  RUN(ref_plan);
  RUN(ref_plan_chains);
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

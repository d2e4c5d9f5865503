/* tests/test_common.c: part 1, the common types (results, intervals,
   graphs). Every result code's name, text and parse; each rule of
   dnnmem_intervals_check and dnnmem_graph_check by the code it must give;
   the topological order and its scratch size; dnnmem_graph_intervals by
   hand-computed lifetimes; the rng's bound. The private helpers every part
   leans on are tests/test_common_private.c's (a file that names them
   compiles its own copy of the implementation, all that its cases reach:
   this file reaches most of the public API, and links make test's archive). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "ref.h"

/* ---- results --------------------------------------------------------------- */

#define CODE_ENTRY(code, value, text) {code, #code, value},
static const struct {
  dnnmem_result code;
  const char *name;
  int value;
} codes[] = {DNNMEM_RESULT_LIST(CODE_ENTRY)};
#define NUM_CODES ((int)(sizeof(codes) / sizeof(codes[0])))

static void test_result_names(void) {
  int i, j;
  dnnmem_result parsed;
  CHECK_EQ(codes[0].code, DNNMEM_OK);
  CHECK_EQ(DNNMEM_OK, 0);
  for (i = 0; i < NUM_CODES; i++) {
    const char *name = dnnmem_result_name(codes[i].code), *text = dnnmem_result_text(codes[i].code);
    CHECK(name != NULL && strcmp(name, codes[i].name) == 0);
    CHECK(text != NULL && text[0] != 0 && strcmp(text, "unknown result") != 0);
    CHECK_EQ(dnnmem_result_parse(codes[i].name, &parsed), DNNMEM_OK);
    CHECK_EQ(parsed, codes[i].code);
    if (i > 0) CHECK(codes[i].value < codes[i - 1].value); /* sorted, descending */
    for (j = 0; j < i; j++) CHECK(codes[j].code != codes[i].code);
  }
  /* every part has its own range: common above -100, part N in -100 N .. */
  for (i = 0; i < NUM_CODES; i++) {
    int v = -codes[i].value;
    CHECK(v < 100 || (v >= 200 && v < 1000));
    if (v >= 200) CHECK(strncmp(codes[i].name, "DNNMEM_ERR_", 11) == 0 && strchr(codes[i].name + 11, '_'));
  }
  CHECK(dnnmem_result_name((dnnmem_result)-99) == NULL);
  CHECK(strcmp(dnnmem_result_text((dnnmem_result)-99), "unknown result") == 0);
  CHECK_EQ(dnnmem_result_parse("DNNMEM_ERR_NOPE", &parsed), DNNMEM_ERR_PARSE);
  CHECK_EQ(dnnmem_result_parse("DNNMEM_OK ", &parsed), DNNMEM_ERR_PARSE);
  CHECK_EQ(dnnmem_result_parse(NULL, &parsed), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_result_parse("DNNMEM_OK", NULL), DNNMEM_ERR_INVALID_ARGUMENT);
}

/* ---- intervals ------------------------------------------------------------- */

/* dnnmem_intervals_check of one record under a global alignment. */
static dnnmem_result check_one(const dnnmem_interval *r, int64_t alignment) {
  dnnmem_intervals p;
  p.records = r;
  p.count = 1;
  p.alignment = alignment;
  return dnnmem_intervals_check(&p, NULL);
}

static void test_intervals_check(void) {
  dnnmem_interval r[2], q;
  dnnmem_gap gaps[2];
  dnnmem_intervals p;
  q = ref_plan_record(0, 4, 8);
  CHECK_EQ(check_one(&q, 0), DNNMEM_OK);
  CHECK_EQ(check_one(&q, 64), DNNMEM_OK);
  CHECK_EQ(check_one(&q, 48), DNNMEM_ERR_ALIGNMENT);
  CHECK_EQ(check_one(&q, -1), DNNMEM_ERR_ALIGNMENT);
  q.size = -1;
  CHECK_EQ(check_one(&q, 0), DNNMEM_ERR_NEGATIVE);
  q = ref_plan_record(3, 3, 1);
  CHECK_EQ(check_one(&q, 0), DNNMEM_ERR_EMPTY_INTERVAL);
  q = ref_plan_record(INT64_MIN, 1, 1); /* its length leaves int64_t */
  CHECK_EQ(check_one(&q, 0), DNNMEM_ERR_OVERFLOW);
  q = ref_plan_record(0, 1, 1);
  q.alignment = 12;
  CHECK_EQ(check_one(&q, 0), DNNMEM_ERR_ALIGNMENT);
  q.alignment = -4;
  CHECK_EQ(check_one(&q, 0), DNNMEM_ERR_ALIGNMENT);
  q = ref_plan_record(0, 1, INT64_MAX - 2); /* rounding up to 16 leaves int64_t */
  CHECK_EQ(check_one(&q, 16), DNNMEM_ERR_OVERFLOW);
  /* fixed offsets: negative, misaligned, and a sum past int64_t */
  q = ref_plan_record(0, 1, 8);
  q.flags = DNNMEM_INTERVAL_FIXED;
  q.fixed_offset = -8;
  CHECK_EQ(check_one(&q, 0), DNNMEM_ERR_NEGATIVE);
  q.fixed_offset = 4;
  CHECK_EQ(check_one(&q, 8), DNNMEM_ERR_PLAN_MISALIGNED);
  q.fixed_offset = INT64_MAX - 4;
  CHECK_EQ(check_one(&q, 0), DNNMEM_ERR_OVERFLOW);
  q = ref_plan_record(0, 1, 8);
  q.flags = DNNMEM_INTERVAL_HINT;
  q.hint = -1;
  CHECK_EQ(check_one(&q, 0), DNNMEM_ERR_NEGATIVE);
  /* gaps: count, pointer, inside the lifetime, sorted, windows in the buffer */
  q = ref_plan_record(0, 10, 8);
  q.num_gaps = -1;
  CHECK_EQ(check_one(&q, 0), DNNMEM_ERR_INVALID_ARGUMENT);
  q.num_gaps = 1;
  CHECK_EQ(check_one(&q, 0), DNNMEM_ERR_INVALID_ARGUMENT); /* gaps NULL */
  q.gaps = gaps;
  gaps[0].lower = 2, gaps[0].upper = 4, gaps[0].window_lower = 0, gaps[0].window_upper = 8;
  CHECK_EQ(check_one(&q, 0), DNNMEM_OK);
  gaps[0].window_upper = 9; /* past the buffer */
  CHECK_EQ(check_one(&q, 0), DNNMEM_ERR_BAD_GAP);
  gaps[0].window_lower = 5, gaps[0].window_upper = 4; /* reversed */
  CHECK_EQ(check_one(&q, 0), DNNMEM_ERR_BAD_GAP);
  gaps[0].window_lower = -1, gaps[0].window_upper = 4;
  CHECK_EQ(check_one(&q, 0), DNNMEM_ERR_BAD_GAP);
  gaps[0].window_lower = gaps[0].window_upper = 0;
  gaps[0].upper = 11; /* past the lifetime */
  CHECK_EQ(check_one(&q, 0), DNNMEM_ERR_BAD_GAP);
  gaps[0].lower = -1, gaps[0].upper = 3; /* before the lifetime */
  CHECK_EQ(check_one(&q, 0), DNNMEM_ERR_BAD_GAP);
  gaps[0].lower = 4, gaps[0].upper = 4; /* empty */
  CHECK_EQ(check_one(&q, 0), DNNMEM_ERR_BAD_GAP);
  gaps[0].lower = 6, gaps[0].upper = 8;
  gaps[1] = gaps[0];
  gaps[1].lower = 2, gaps[1].upper = 3; /* unsorted */
  q.num_gaps = 2;
  CHECK_EQ(check_one(&q, 0), DNNMEM_ERR_BAD_GAP);
  gaps[1].lower = 8, gaps[1].upper = 9; /* touching is fine */
  CHECK_EQ(check_one(&q, 0), DNNMEM_OK);
  /* the sum of sizes, each rounded up and one alignment step of slack */
  r[0] = ref_plan_record(0, 1, INT64_MAX / 2);
  r[1] = ref_plan_record(0, 1, INT64_MAX / 2);
  p.records = r, p.count = 2, p.alignment = 0;
  CHECK_EQ(dnnmem_intervals_check(&p, NULL), DNNMEM_OK);
  p.alignment = 2;
  CHECK_EQ(dnnmem_intervals_check(&p, NULL), DNNMEM_ERR_OVERFLOW);
  p.records = NULL;
  CHECK_EQ(dnnmem_intervals_check(&p, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  p.count = 0;
  CHECK_EQ(dnnmem_intervals_check(&p, NULL), DNNMEM_OK);
  p.count = -1;
  CHECK_EQ(dnnmem_intervals_check(&p, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_intervals_check(NULL, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  /* the alignment a record gets: the larger of its own and the global one */
  q = ref_plan_record(0, 1, 1);
  CHECK_EQ(dnnmem_interval_alignment(&q, 0), 1);
  CHECK_EQ(dnnmem_interval_alignment(&q, 64), 64);
  q.alignment = 256;
  CHECK_EQ(dnnmem_interval_alignment(&q, 64), 256);
}

/* ---- graphs ------------------------------------------------------------------ */

static void test_graph_check(void) {
  int32_t off[4] = {0, 0, 1, 3}, ids[3] = {0, 0, 1};
  dnnmem_graph g = {3, off, ids};
  CHECK_EQ(dnnmem_graph_check(&g, NULL), DNNMEM_OK);
  CHECK_EQ(dnnmem_graph_is_topological(&g), 1);
  ids[1] = 2; /* 2 -> 2: a self-loop, still a valid CSR */
  CHECK_EQ(dnnmem_graph_check(&g, NULL), DNNMEM_OK);
  CHECK_EQ(dnnmem_graph_is_topological(&g), 0);
  ids[1] = 3;
  CHECK_EQ(dnnmem_graph_check(&g, NULL), DNNMEM_ERR_ID_RANGE);
  ids[1] = -1;
  CHECK_EQ(dnnmem_graph_check(&g, NULL), DNNMEM_ERR_ID_RANGE);
  ids[1] = 0;
  off[1] = 2; /* offsets decrease */
  CHECK_EQ(dnnmem_graph_check(&g, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  off[1] = 0;
  off[0] = 1;
  CHECK_EQ(dnnmem_graph_check(&g, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  off[0] = 0;
  g.in_ids = NULL;
  CHECK_EQ(dnnmem_graph_check(&g, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  { /* at the boundary: one edge and no ids; no edges need none */
    static const int32_t one[4] = {0, 0, 1, 1}, none[4] = {0, 0, 0, 0};
    dnnmem_graph h = g;
    dnnmem_error e;
    h.in_offsets = one;
    CHECK_EQ(dnnmem_graph_check(&h, &e), DNNMEM_ERR_INVALID_ARGUMENT);
    CHECK(e.index == -1 && e.field == DNNMEM_FIELD_INPUT);
    h.in_offsets = none;
    CHECK_EQ(dnnmem_graph_check(&h, NULL), DNNMEM_OK);
  }
  g.in_offsets = NULL;
  CHECK_EQ(dnnmem_graph_check(&g, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  g.num_nodes = 0; /* the empty graph may have no arrays */
  CHECK_EQ(dnnmem_graph_check(&g, NULL), DNNMEM_OK);
  g.num_nodes = -1;
  CHECK_EQ(dnnmem_graph_check(&g, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_graph_check(NULL, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
}

static void test_topo_order(void) {
  /* 0 <- 3, 1 <- 0, 2 <- {1, 3}: sources in id order (3), then FIFO */
  int32_t off[5] = {0, 1, 2, 4, 4}, ids[4] = {3, 0, 1, 3}, order[4] = {-1, -1, -1, -1};
  dnnmem_graph g = {4, off, ids};
  dnnmem_error e;
  size_t bytes = 0;
  void *scratch;
  CHECK_EQ(dnnmem_graph_topo_order_scratch_size(&g, &bytes), DNNMEM_OK);
  CHECK(bytes >= 4 * sizeof(int32_t));
  scratch = malloc(bytes);
  CHECK_EQ(dnnmem_graph_topo_order(&g, order, scratch, bytes, NULL), DNNMEM_OK);
  CHECK_VALUES(order, 3, 0, 1, 2);
  CHECK_EQ(dnnmem_graph_topo_order(&g, order, scratch, bytes / 2, &e), DNNMEM_ERR_SCRATCH_TOO_SMALL);
  CHECK(e.index == -1 && e.field == DNNMEM_FIELD_SCRATCH);
  CHECK_EQ(dnnmem_graph_topo_order(&g, NULL, scratch, bytes, &e), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK(e.index == -1 && e.field == DNNMEM_FIELD_OUTPUT);
  ids[0] = 2; /* 0 <- 2 <- 1 <- 0: a cycle; 3 is on none */
  CHECK_EQ(dnnmem_graph_topo_order(&g, order, scratch, bytes, &e), DNNMEM_ERR_CYCLE);
  CHECK(e.index >= 0 && e.index <= 2 && e.field == DNNMEM_FIELD_INPUT);
  CHECK_EQ(dnnmem_graph_topo_order(&g, order, scratch, bytes, NULL), DNNMEM_ERR_CYCLE);
  ids[0] = 7;
  CHECK_EQ(dnnmem_graph_topo_order_scratch_size(&g, &bytes), DNNMEM_ERR_ID_RANGE);
  CHECK_EQ(dnnmem_graph_topo_order_scratch_size(&g, NULL), DNNMEM_ERR_ID_RANGE);
  ids[0] = 3;
  CHECK_EQ(dnnmem_graph_topo_order_scratch_size(&g, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_graph_topo_order_scratch_size(NULL, &bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  free(scratch);
}

static void test_graph_intervals(void) {
  /* 0 -> 1 -> 2, 0 -> 2; 3 unused and an output */
  int32_t off[5] = {0, 0, 1, 3, 3}, ids[3] = {0, 0, 1};
  int64_t sizes[4] = {10, 20, 30, 40};
  uint8_t out[4] = {0, 0, 0, 1};
  dnnmem_graph g = {4, off, ids};
  dnnmem_interval r[4];
  dnnmem_error e;
  CHECK_EQ(dnnmem_graph_intervals(&g, sizes, out, r, &e), DNNMEM_OK);
  CHECK(e.index == -1 && e.field == DNNMEM_FIELD_NONE && e.other == -1);
  CHECK(r[0].lower == 0 && r[0].upper == 3 && r[0].size == 10); /* last consumer 2 */
  CHECK(r[1].lower == 1 && r[1].upper == 3 && r[1].size == 20);
  CHECK(r[2].lower == 2 && r[2].upper == 3); /* no consumer: its own step */
  CHECK(r[3].lower == 3 && r[3].upper == 4 && r[3].flags == 0 && r[3].num_gaps == 0); /* output: to the end */
  CHECK_EQ(dnnmem_graph_intervals(&g, sizes, NULL, r, NULL), DNNMEM_OK);
  CHECK_EQ(r[3].upper, 4);
  sizes[2] = -1;
  CHECK_EQ(dnnmem_graph_intervals(&g, sizes, out, r, &e), DNNMEM_ERR_NEGATIVE);
  CHECK(e.index == 2 && e.field == DNNMEM_FIELD_SIZE);
  CHECK_EQ(dnnmem_graph_intervals(&g, sizes, out, r, NULL), DNNMEM_ERR_NEGATIVE);
  sizes[2] = 30;
  CHECK_EQ(dnnmem_graph_intervals(&g, NULL, out, r, &e), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK(e.index == -1 && e.field == DNNMEM_FIELD_SIZE);
  CHECK_EQ(dnnmem_graph_intervals(&g, sizes, out, NULL, &e), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK(e.index == -1 && e.field == DNNMEM_FIELD_OUTPUT);
  ids[0] = 2; /* 1 reads 2: not numbered topologically */
  CHECK_EQ(dnnmem_graph_intervals(&g, sizes, out, r, &e), DNNMEM_ERR_NOT_TOPOLOGICAL);
  CHECK(e.index == 1 && e.field == DNNMEM_FIELD_INPUT);
  ids[0] = 9;
  CHECK_EQ(dnnmem_graph_intervals(&g, sizes, out, r, &e), DNNMEM_ERR_ID_RANGE);
  CHECK(e.index == 1 && e.field == DNNMEM_FIELD_INPUT);
}


/* dnnmem_rng_below: 0 for bound 0 (no state used), always below the bound,
   and every value of a small bound reached. */
static void test_rng_below(void) {
  dnnmem_rng a, b;
  int seen[7] = {0}, i;
  dnnmem_rng_seed(&a, 5);
  b = a;
  CHECK_EQ(dnnmem_rng_below(&a, 0), 0);
  CHECK_EQ(dnnmem_rng_next(&a), dnnmem_rng_next(&b)); /* bound 0 left the state alone */
  for (i = 0; i < 700; i++) {
    uint32_t x = dnnmem_rng_below(&a, 7);
    CHECK(x < 7);
    if (x < 7) seen[x] = 1;
  }
  for (i = 0; i < 7; i++) CHECK_EQ(seen[i], 1);
  CHECK_EQ(dnnmem_rng_below(&a, 1), 0);
}

/* More faults, each with its code and field: a negative pass, a reuse id
   below range, a topological order's scratch size with no output or for an
   empty graph, and the order of a graph that fails its check. */
static void test_argument_edges(void) {
  dnnmem_interval r[2];
  dnnmem_intervals p;
  dnnmem_error e;
  dnnmem_graph g;
  int32_t off[3] = {0, 0, 1}, ids[1] = {2}, order[2];
  size_t bytes = 1;
  unsigned char mem[256];
  r[0] = ref_plan_record(0, 2, 8), r[1] = ref_plan_record(1, 3, 8);
  p.records = r, p.count = 2, p.alignment = 0;
  r[1].pass = -1;
  CHECK_EQ(dnnmem_intervals_check(&p, &e), DNNMEM_ERR_NEGATIVE);
  CHECK(e.index == 1 && e.field == DNNMEM_FIELD_PASS);
  r[1].pass = 0, r[1].flags = DNNMEM_INTERVAL_REUSE, r[1].reuse = -1;
  CHECK_EQ(dnnmem_intervals_check(&p, &e), DNNMEM_ERR_ID_RANGE);
  CHECK(e.index == 1 && e.field == DNNMEM_FIELD_REUSE);
  g.num_nodes = 0, g.in_offsets = NULL, g.in_ids = NULL;
  CHECK_EQ(dnnmem_graph_topo_order_scratch_size(&g, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_graph_topo_order_scratch_size(&g, &bytes), DNNMEM_OK);
  CHECK(bytes <= sizeof mem);
  CHECK_EQ(dnnmem_graph_topo_order(&g, NULL, mem, sizeof mem, &e), DNNMEM_OK);
  { /* the consumers of an empty graph without offsets (0.8.0 read in_offsets[0]) */
    dnnmem_label_problem lp;
    dnnmem_label_result lr;
    memset(&lp, 0, sizeof lp);
    lp.graph = &g, lp.num_labels = 2;
    dnnmem_result rc;
    memset(&lr, 0x55, sizeof lr);
    TEST_ASK_PASS(rc, dnnmem_label_solve_scratch_size(&lp, NULL, &test_bytes),
                  dnnmem_label_solve(&lp, NULL, NULL, &lr, test_mem, test_bytes));
    CHECK_EQ(rc, DNNMEM_OK);
    CHECK(lr.cost == 0 && lr.lower_bound == 0 && lr.optimal);
  }
  g.num_nodes = 2, g.in_offsets = off, g.in_ids = ids; /* node 1 reads node 2: out of range */
  CHECK_EQ(dnnmem_graph_topo_order(&g, order, mem, sizeof mem, &e), DNNMEM_ERR_ID_RANGE);
  CHECK(e.index == 1 && e.field == DNNMEM_FIELD_INPUT);
}

int main(void) {
  RUN(test_result_names);
  RUN(test_intervals_check);
  RUN(test_graph_check);
  RUN(test_topo_order);
  RUN(test_graph_intervals);
  RUN(test_rng_below);
  RUN(test_argument_edges);
  return test_finish("test_common");
}

/* tests/test_place.c: CPU/accelerator placement (dnnmem_place_*). The
   optimum is checked against brute force over every placement under both
   charging models, with the cost recounted here by a separate
   implementation of the rules; onnx-mlir's example structure (element-wise
   chain between matrix ops) is checked with hand-computed optima. */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "ref.h"

#define CPU DNNMEM_PLACE_CPU
#define ACC DNNMEM_PLACE_ACC
#define ANY DNNMEM_PLACE_ANY
#define NO DNNMEM_PLACE_UNSUPPORTED

typedef struct test_problem {
  int32_t n;
  int32_t offsets[32];
  int32_t ids[128];
  int64_t cpu[32], acc[32], xfer[32];
  uint8_t device[32], output[32];
  dnnmem_graph graph;
  dnnmem_place_problem p;
} test_problem;

static void problem_wire(test_problem *t) {
  t->graph = ref_graph(t->n, t->offsets, t->ids);
  memset(&t->p, 0, sizeof(t->p));
  t->p.graph = &t->graph;
  t->p.cpu_time = t->cpu;
  t->p.acc_time = t->acc;
  t->p.xfer = t->xfer;
  t->p.device = t->device;
  t->p.is_output = t->output;
}

/* The problem in heap arrays of exactly the documented sizes (n + 1
   offsets, offsets[n] ids, n of each per-node array), so that ASan sees a
   read past one (test_problem's arrays hold 32). Each call replaces the
   previous copy. */
static struct {
  dnnmem_graph graph;
  dnnmem_place_problem p;
  void *mem[8];
} exact_copy;

static const dnnmem_place_problem *exact(const test_problem *t) {
  size_t n = t->n > 0 ? (size_t)t->n : 0, e = n > 0 ? (size_t)t->offsets[n] : 0;
  exact_copy.graph = t->graph;
  exact_copy.graph.in_offsets = (const int32_t *)test_heap_copy(&exact_copy.mem[0], t->graph.in_offsets, n + 1, 32, 4);
  exact_copy.graph.in_ids = (const int32_t *)test_heap_copy(&exact_copy.mem[1], t->graph.in_ids, e, 128, 4);
  exact_copy.p = t->p;
  exact_copy.p.graph = &exact_copy.graph;
  exact_copy.p.cpu_time = (const int64_t *)test_heap_copy(&exact_copy.mem[2], t->p.cpu_time, n, 32, 8);
  exact_copy.p.acc_time = (const int64_t *)test_heap_copy(&exact_copy.mem[3], t->p.acc_time, n, 32, 8);
  exact_copy.p.xfer = (const int64_t *)test_heap_copy(&exact_copy.mem[4], t->p.xfer, n, 32, 8);
  exact_copy.p.device = (const uint8_t *)test_heap_copy(&exact_copy.mem[5], t->p.device, n, 32, 1);
  exact_copy.p.is_output = (const uint8_t *)test_heap_copy(&exact_copy.mem[6], t->p.is_output, n, 32, 1);
  return &exact_copy.p;
}

/* dnnmem_place_solve on the exact copy, the placement into a heap array of
   n, then copied to device[n]. */
static dnnmem_result solve(const test_problem *t, int per_edge, dnnmem_flow_algo algo, uint8_t *device,
                           dnnmem_place_result *res) {
  size_t bytes = 0;
  void *mem;
  uint8_t *out;
  dnnmem_place_options o;
  dnnmem_result r;
  const dnnmem_place_problem *p = exact(t);
  memset(&o, 0, sizeof(o));
  o.model = per_edge ? DNNMEM_PLACE_PER_EDGE : DNNMEM_PLACE_PER_VALUE;
  o.algo = algo;
  r = dnnmem_place_solve_scratch_size(p, &o, &bytes); /* checks the graph's CSR */
  if (r != DNNMEM_OK) return r;
  CHECK(bytes <= DNNMEM_PLACE_SCRATCH_BYTES(t->n, t->offsets[t->n]));
  mem = malloc(bytes);
  out = (uint8_t *)malloc(t->n > 0 ? (size_t)t->n : 1);
  r = dnnmem_place_solve(p, &o, out, res, mem, bytes);
  if (t->n > 0) memcpy(device, out, (size_t)t->n);
  free(mem);
  free(out);
  return r;
}

/* The conversions ref.h's ref_place_time charges for the assignment: per value,
   the values converted at least once; per edge, every crossing (consumer
   on the other device, or an output left on the accelerator). */
static int32_t ref_place_conversions(const dnnmem_place_problem *p, dnnmem_place_model model,
                                     const uint8_t *device) {
  const dnnmem_graph *g = p->graph;
  int32_t u, c, k, count = 0;
  for (u = 0; u < g->num_nodes; u++) {
    int32_t crossings = 0;
    for (c = 0; c < g->num_nodes; c++) {
      int uses = 0;
      for (k = g->in_offsets[c]; k < g->in_offsets[c + 1]; k++) uses |= g->in_ids[k] == u;
      crossings += uses && device[c] != device[u];
    }
    crossings += p->is_output && p->is_output[u] && device[u] == DNNMEM_PLACE_ACC;
    count += model == DNNMEM_PLACE_PER_EDGE ? crossings : crossings > 0;
  }
  return count;
}

/* Checks a solution: the optimum's recount, the baselines' recounts. */
static void check_result(const test_problem *t, int per_edge, const uint8_t *device,
                         const dnnmem_place_result *res) {
  uint8_t x[32] = {0};
  int32_t v, ncpu = 0;
  int32_t nfree = 0;
  CHECK_EQ(ref_place_time(&t->p, (dnnmem_place_model)(per_edge), device), res->time);
  CHECK_EQ(ref_place_conversions(&t->p, (dnnmem_place_model)(per_edge), device), res->conversions);
  CHECK(res->error.index == -1 && res->error.field == DNNMEM_FIELD_NONE && res->error.other == -1);
  for (v = 0; v < t->n; v++) nfree += t->device[v] == ANY && t->cpu[v] >= 0 && t->acc[v] >= 0;
  CHECK_EQ(res->num_free, nfree);
  CHECK(res->num_parts >= (nfree > 0) && res->num_parts <= nfree);
  for (v = 0; v < t->n; v++) ncpu += device[v] == CPU;
  CHECK_EQ(res->num_cpu, ncpu);
  CHECK_EQ(res->num_acc, t->n - ncpu);
  /* all on the accelerator where possible */
  for (v = 0; v < t->n; v++) x[v] = t->device[v] != ANY ? t->device[v] : t->acc[v] >= 0 ? ACC : CPU;
  CHECK_EQ(ref_place_time(&t->p, (dnnmem_place_model)(per_edge), x), res->all_acc_time);
  for (v = 0; v < t->n; v++)
    if (t->device[v] == ANY)
      x[v] = t->acc[v] < 0 ? CPU : t->cpu[v] < 0 ? ACC : t->acc[v] < t->cpu[v] ? ACC : CPU;
  CHECK_EQ(ref_place_time(&t->p, (dnnmem_place_model)(per_edge), x), res->greedy_time);
  for (v = 0; v < t->n; v++) x[v] = t->device[v] != ANY ? t->device[v] : t->cpu[v] >= 0 ? CPU : ACC;
  CHECK_EQ(ref_place_time(&t->p, (dnnmem_place_model)(per_edge), x), res->all_cpu_time);
  CHECK(res->time <= res->all_acc_time);
  CHECK(res->time <= res->greedy_time);
  CHECK(res->time <= res->all_cpu_time);
}

static void random_problem(dnnmem_rng *rng, test_problem *t, int32_t n) {
  int32_t v, e = 0;
  t->n = n;
  t->offsets[0] = 0;
  for (v = 0; v < n; v++) {
    int32_t k, deg = v == 0 ? 0 : (int32_t)dnnmem_rng_below(rng, v < 3 ? (uint32_t)v + 1 : 4);
    uint32_t kind = dnnmem_rng_below(rng, 10);
    for (k = 0; k < deg; k++) t->ids[e++] = (int32_t)dnnmem_rng_below(rng, (uint32_t)v);
    t->offsets[v + 1] = e;
    t->cpu[v] = (int64_t)dnnmem_rng_below(rng, 100);
    t->acc[v] = (int64_t)dnnmem_rng_below(rng, 100);
    t->xfer[v] = (int64_t)dnnmem_rng_below(rng, 60);
    t->device[v] = ANY;
    if (kind == 0) t->device[v] = CPU;
    else if (kind == 1) t->device[v] = ACC;
    else if (kind == 2) t->acc[v] = NO;
    else if (kind == 3) t->cpu[v] = NO;
    t->output[v] = dnnmem_rng_below(rng, 5) == 0;
  }
  problem_wire(t);
}

/* t with its nodes renumbered by a random permutation: the same problem,
   mostly not in topological order (the cycle check's Kahn pass runs). */
static void permuted(dnnmem_rng *rng, const test_problem *t, test_problem *out) {
  int32_t perm[32], inv[32], v, k, e = 0;
  for (v = 0; v < t->n; v++) perm[v] = v;
  for (v = t->n - 1; v > 0; v--) {
    int32_t j = (int32_t)dnnmem_rng_below(rng, (uint32_t)v + 1), x = perm[v];
    perm[v] = perm[j];
    perm[j] = x;
  }
  for (v = 0; v < t->n; v++) inv[perm[v]] = v; /* old node perm[v] is new node v */
  out->n = t->n;
  out->offsets[0] = 0;
  for (v = 0; v < t->n; v++) {
    int32_t u = perm[v];
    for (k = t->offsets[u]; k < t->offsets[u + 1]; k++) out->ids[e++] = inv[t->ids[k]];
    out->offsets[v + 1] = e;
    out->cpu[v] = t->cpu[u];
    out->acc[v] = t->acc[u];
    out->xfer[v] = t->xfer[u];
    out->device[v] = t->device[u];
    out->output[v] = t->output[u];
  }
  problem_wire(out);
}

/* Brute force over every placement, both models, both flow algorithms. */
static void test_brute_force(void) {
  FOR_TRIALS(rng, 5, iter, 300) {
    test_problem t;
    int per_edge;
    random_problem(&rng, &t, 1 + (int32_t)dnnmem_rng_below(&rng, 14));
    for (per_edge = 0; per_edge < 2; per_edge++) {
      uint8_t d1[32] = {0}, d2[32] = {0};
      dnnmem_place_result r1, r2;
      int64_t best = ref_place_optimum(&t.p, (dnnmem_place_model)(per_edge));
      CHECK_EQ(solve(&t, per_edge, DNNMEM_FLOW_BK, d1, &r1), DNNMEM_OK);
      CHECK_EQ(solve(&t, per_edge, DNNMEM_FLOW_PUSH_RELABEL, d2, &r2), DNNMEM_OK);
      CHECK_EQ(r1.time, best);
      CHECK_EQ(r2.time, best);
      {
        test_problem q;
        uint8_t d3[32] = {0};
        dnnmem_place_result r3;
        permuted(&rng, &t, &q);
        CHECK_EQ(solve(&q, per_edge, DNNMEM_FLOW_BK, d3, &r3), DNNMEM_OK);
        CHECK_EQ(r3.time, best);
        check_result(&q, per_edge, d3, &r3);
      }
      {
        /* the exported network: constant + max flow == optimum */
        size_t bytes = 0;
        void *mem;
        dnnmem_flow net;
        dnnmem_place_options o;
        dnnmem_place_result built;
        int64_t value = -1;
        dnnmem_flow_options fo = {DNNMEM_FLOW_PUSH_RELABEL, 0};
        dnnmem_flow_result fr = {-1, {-1, DNNMEM_FIELD_NONE, -1}};
        memset(&o, 0, sizeof(o));
        o.model = (dnnmem_place_model)per_edge;
        CHECK_EQ(dnnmem_place_network_scratch_size(&t.p, &o, &bytes), DNNMEM_OK);
        mem = malloc(bytes);
        CHECK_EQ(dnnmem_place_network(&t.p, &o, &net, &built, mem, bytes), DNNMEM_OK);
        CHECK_EQ(net.num_nodes, r1.flow_nodes);
        CHECK_EQ(net.num_arcs, r1.flow_arcs);
        CHECK(built.flow_nodes == r1.flow_nodes && built.flow_arcs == r1.flow_arcs && built.num_free == r1.num_free);
        CHECK(built.cut == 0 && built.conversions == 0 && built.error.index == -1);
        CHECK_EQ(dnnmem_flow_solve(&net, 0, 1, &fo, &fr), DNNMEM_OK);
        value = fr.value;
        CHECK_EQ(built.time + value, best);
        CHECK_EQ(value, r1.cut);
        free(mem);
      }
      check_result(&t, per_edge, d1, &r1);
      check_result(&t, per_edge, d2, &r2);
    }
  }
}

/* Brute force on ~20 free ops (a few cases: 2^20 placements each). */
static void test_brute_force_20(void) {
  FOR_TRIALS(rng, 99, iter, 2) {
    test_problem t;
    uint8_t d[32] = {0};
    dnnmem_place_result r;
    int32_t v;
    random_problem(&rng, &t, 18);
    for (v = 0; v < t.n; v++) /* all free, so 2^18 placements */
      if (t.device[v] != ANY || t.cpu[v] < 0 || t.acc[v] < 0) {
        t.device[v] = ANY;
        t.cpu[v] = (int64_t)dnnmem_rng_below(&rng, 100);
        t.acc[v] = (int64_t)dnnmem_rng_below(&rng, 100);
      }
    CHECK_EQ(solve(&t, iter, DNNMEM_FLOW_BK, d, &r), DNNMEM_OK);
    CHECK_EQ(r.time, ref_place_optimum(&t.p, (dnnmem_place_model)(iter)));
    CHECK_EQ(r.num_free, 18);
    check_result(&t, iter, d, &r);
  }
}

/* onnx-mlir's example structure: matmul (acc) -> k element-wise ops -> matmul (acc).
   Each element-wise op saves `gain` on the CPU; leaving the accelerator costs
   two conversions of `conv`. The chain moves iff k * gain > 2 * conv. */
static void chain(test_problem *t, int32_t k, int64_t gain, int64_t conv) {
  int32_t v;
  t->n = k + 3;
  t->offsets[0] = 0;
  for (v = 0; v < t->n; v++) {
    t->offsets[v + 1] = v == 0 ? 0 : v;
    if (v > 0) t->ids[v - 1] = v - 1;
    t->xfer[v] = conv;
    t->output[v] = 0;
    t->device[v] = ANY;
    t->cpu[v] = 100;
    t->acc[v] = 100 + gain;
  }
  t->device[0] = CPU; /* the graph input */
  t->acc[0] = NO;
  t->cpu[0] = 0;
  t->device[1] = ACC; /* matmul */
  t->cpu[1] = 5000;
  t->acc[1] = 50;
  t->device[t->n - 1] = ACC; /* matmul */
  t->cpu[t->n - 1] = 5000;
  t->acc[t->n - 1] = 50;
  t->output[t->n - 1] = 1;
  t->xfer[1] = conv;
  problem_wire(t);
}

static void test_seed_chain(void) {
  test_problem t;
  uint8_t d[32] = {0};
  dnnmem_place_result r;
  int32_t v;
  /* 4 ops saving 10 each = 40 < 2 * 30: stay on the accelerator */
  chain(&t, 4, 10, 30);
  CHECK_EQ(solve(&t, 0, DNNMEM_FLOW_BK, d, &r), DNNMEM_OK);
  for (v = 2; v < t.n - 1; v++) CHECK_EQ(d[v], ACC);
  /* input conv 30 + matmuls 100 + 4 * 110 + output conv 30 */
  CHECK_EQ(r.time, 0 + 30 + 50 + 4 * 110 + 50 + 30);
  CHECK_EQ(r.time, r.all_acc_time);
  CHECK_EQ(r.conversions, 2);
  /* 8 ops saving 10 each = 80 > 60: the chain moves to the CPU */
  chain(&t, 8, 10, 30);
  CHECK_EQ(solve(&t, 0, DNNMEM_FLOW_PUSH_RELABEL, d, &r), DNNMEM_OK);
  for (v = 2; v < t.n - 1; v++) CHECK_EQ(d[v], CPU);
  CHECK_EQ(r.time, 30 + 50 + 30 + 8 * 100 + 30 + 50 + 30);
  CHECK_EQ(r.all_acc_time - r.time, 80 - 60);
  CHECK_EQ(r.conversions, 4);
  CHECK_EQ(r.num_free, 8);
  CHECK_EQ(r.num_parts, 1);
  /* greedy moves the chain even when that loses: 4 ops, gain 10, conv 30 */
  chain(&t, 4, 10, 30);
  CHECK_EQ(solve(&t, 0, DNNMEM_FLOW_BK, d, &r), DNNMEM_OK);
  CHECK_EQ(r.greedy_time - r.time, 2 * 30 - 4 * 10);
  /* a CPU-pinned op in the middle splits the chain into two parts */
  chain(&t, 8, 10, 30);
  t.device[5] = CPU;
  problem_wire(&t);
  CHECK_EQ(solve(&t, 0, DNNMEM_FLOW_BK, d, &r), DNNMEM_OK);
  CHECK_EQ(r.num_free, 7);
  CHECK_EQ(r.num_parts, 2);
  CHECK_EQ(r.time, ref_place_optimum(&t.p, DNNMEM_PLACE_PER_VALUE));
}

/* One CPU value read by three ops on the accelerator: converted once per
   value, three times per edge. */
static void test_once_per_value(void) {
  test_problem t;
  uint8_t d[32] = {0};
  dnnmem_place_result r;
  int32_t v;
  t.n = 5;
  t.offsets[0] = 0;
  t.offsets[1] = 0;
  for (v = 1; v < 5; v++) t.offsets[v + 1] = v; /* 1, 2, 3 read 0; 4 reads 3 */
  t.ids[0] = 0;
  t.ids[1] = 0;
  t.ids[2] = 0;
  t.ids[3] = 3;
  for (v = 0; v < 5; v++) {
    t.cpu[v] = 100;
    t.acc[v] = 60;
    t.xfer[v] = 50;
    t.device[v] = ANY;
    t.output[v] = 0;
  }
  t.device[0] = CPU;
  t.cpu[0] = 0;
  t.output[1] = t.output[2] = t.output[4] = 1;
  t.device[4] = CPU;
  t.offsets[5] = 4;
  problem_wire(&t);
  /* per value: ops 1, 2 go to ACC (save 40 each, pay 50 once for value 0,
     50 each for the outputs): 1 on ACC costs 60 + 50 out vs 100 on CPU ->
     CPU better alone; with the shared input conversion nothing gains. */
  CHECK_EQ(solve(&t, 0, DNNMEM_FLOW_BK, d, &r), DNNMEM_OK);
  CHECK_EQ(r.time, ref_place_optimum(&t.p, DNNMEM_PLACE_PER_VALUE));
  check_result(&t, 0, d, &r);
  /* make outputs free: three consumers on ACC save 3 * 40 = 120 for one
     conversion of 50 */
  t.output[1] = t.output[2] = 0;
  t.output[3] = 0;
  CHECK_EQ(solve(&t, 0, DNNMEM_FLOW_BK, d, &r), DNNMEM_OK);
  CHECK_EQ(d[1], ACC);
  CHECK_EQ(d[2], ACC);
  CHECK_EQ(r.time, ref_place_optimum(&t.p, DNNMEM_PLACE_PER_VALUE));
  /* op 3 stays on the CPU: on ACC it saves 40 but its value would need
     converting (50) for op 4 */
  CHECK_EQ(d[3], CPU);
  CHECK_EQ(r.time, 0 + 50 + 60 + 60 + 100 + 100);
  CHECK_EQ(r.conversions, 1);
  check_result(&t, 0, d, &r);
  CHECK_EQ(solve(&t, 1, DNNMEM_FLOW_BK, d, &r), DNNMEM_OK);
  CHECK_EQ(r.time, ref_place_optimum(&t.p, DNNMEM_PLACE_PER_EDGE));
  check_result(&t, 1, d, &r);
}

static void test_errors(void) {
  test_problem t;
  uint8_t d[32] = {0};
  dnnmem_place_result r;
  size_t bytes = 0;
  void *mem;
  /* each fault: its code, the node and the field named */
  chain(&t, 3, 10, 30);
  t.cpu[2] = -2;
  CHECK_EQ(solve(&t, 0, DNNMEM_FLOW_BK, d, &r), DNNMEM_ERR_NEGATIVE);
  CHECK(r.error.index == 2 && r.error.field == DNNMEM_FIELD_TIME && r.error.other == -1);
  chain(&t, 3, 10, 30);
  t.xfer[2] = -1;
  CHECK_EQ(solve(&t, 0, DNNMEM_FLOW_BK, d, &r), DNNMEM_ERR_NEGATIVE);
  CHECK(r.error.index == 2 && r.error.field == DNNMEM_FIELD_SIZE);
  chain(&t, 3, 10, 30);
  t.device[2] = CPU;
  t.cpu[2] = NO;
  CHECK_EQ(solve(&t, 0, DNNMEM_FLOW_BK, d, &r), DNNMEM_ERR_PLACE_UNSUPPORTED);
  CHECK(r.error.index == 2 && r.error.field == DNNMEM_FIELD_PIN);
  chain(&t, 3, 10, 30);
  t.cpu[2] = NO;
  t.acc[2] = NO;
  CHECK_EQ(solve(&t, 0, DNNMEM_FLOW_BK, d, &r), DNNMEM_ERR_PLACE_UNSUPPORTED);
  CHECK(r.error.index == 2 && r.error.field == DNNMEM_FIELD_TIME);
  chain(&t, 3, 10, 30);
  t.device[3] = 7;
  CHECK_EQ(solve(&t, 0, DNNMEM_FLOW_BK, d, &r), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK(r.error.index == 3 && r.error.field == DNNMEM_FIELD_PIN);
  chain(&t, 3, 10, 30);
  t.ids[0] = 3; /* node 1 reads node 3, which (indirectly) reads node 1 */
  CHECK_EQ(solve(&t, 0, DNNMEM_FLOW_BK, d, &r), DNNMEM_ERR_CYCLE);
  CHECK(r.error.index >= 1 && r.error.index <= 3 && r.error.field == DNNMEM_FIELD_INPUT);
  chain(&t, 3, 10, 30);
  t.ids[1] = 1; /* self-loop */
  t.offsets[3] = 2;
  t.ids[1] = 2;
  CHECK_EQ(solve(&t, 0, DNNMEM_FLOW_BK, d, &r), DNNMEM_ERR_CYCLE);
  CHECK(r.error.index == 2 && r.error.field == DNNMEM_FIELD_INPUT);
  chain(&t, 3, 10, 30);
  t.ids[2] = 40;
  CHECK_EQ(solve(&t, 0, DNNMEM_FLOW_BK, d, &r), DNNMEM_ERR_ID_RANGE);
  chain(&t, 3, 10, 30);
  t.cpu[2] = INT64_MAX / 2;
  t.acc[3] = INT64_MAX / 2;
  CHECK_EQ(solve(&t, 0, DNNMEM_FLOW_BK, d, &r), DNNMEM_ERR_OVERFLOW);
  CHECK(r.error.index == 3 && r.error.field == DNNMEM_FIELD_TIME);
  /* times just inside the limit work */
  chain(&t, 3, 10, 30);
  t.cpu[2] = INT64_MAX / 4;
  t.acc[3] = INT64_MAX / 4;
  CHECK_EQ(solve(&t, 0, DNNMEM_FLOW_BK, d, &r), DNNMEM_OK);
  CHECK_EQ(r.time, ref_place_optimum(&t.p, DNNMEM_PLACE_PER_VALUE));
  /* short scratch */
  chain(&t, 3, 10, 30);
  CHECK_EQ(dnnmem_place_solve_scratch_size(&t.p, NULL, &bytes), DNNMEM_OK);
  mem = malloc(bytes);
  CHECK_EQ(dnnmem_place_solve(&t.p, NULL, d, &r, mem, bytes - 16), DNNMEM_ERR_SCRATCH_TOO_SMALL);
  CHECK_EQ(dnnmem_place_solve(&t.p, NULL, d, &r, mem, bytes), DNNMEM_OK);
  CHECK_EQ(dnnmem_place_solve(&t.p, NULL, NULL, &r, mem, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  {
    dnnmem_place_options bad_options = {DNNMEM_PLACE_MODEL_COUNT, DNNMEM_FLOW_BK};
    CHECK_EQ(dnnmem_place_solve_scratch_size(&t.p, &bad_options, &bytes), DNNMEM_ERR_INVALID_ARGUMENT);
    bad_options.model = DNNMEM_PLACE_PER_VALUE;
    bad_options.algo = DNNMEM_FLOW_ALGO_COUNT;
    CHECK_EQ(dnnmem_place_solve_scratch_size(&t.p, &bad_options, &bytes), DNNMEM_ERR_INVALID_ARGUMENT);
    CHECK_EQ(dnnmem_place_solve(&t.p, &bad_options, d, &r, mem, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
    CHECK_EQ(dnnmem_place_cost_scratch_size(&t.p, &bad_options, &bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  }
  CHECK_EQ(dnnmem_place_solve_scratch_size(NULL, NULL, &bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_place_solve_scratch_size(&t.p, NULL, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  free(mem);
  { /* the static bound holds for big graphs too (the arrays are not read) */
    int32_t n = 1000000, v, *offsets = (int32_t *)malloc(((size_t)n + 1) * sizeof(int32_t));
    int32_t *ids = (int32_t *)calloc(3 * (size_t)n, sizeof(int32_t));
    dnnmem_graph big;
    dnnmem_place_problem p;
    for (v = 0; v <= n; v++) offsets[v] = 3 * v;
    big.num_nodes = n;
    big.in_offsets = offsets;
    big.in_ids = ids;
    memset(&p, 0, sizeof(p));
    p.graph = &big;
    CHECK_EQ(dnnmem_place_solve_scratch_size(&p, NULL, &bytes), DNNMEM_OK);
    CHECK(bytes <= DNNMEM_PLACE_SCRATCH_BYTES(1000000, 3000000));
    CHECK(bytes > DNNMEM_PLACE_SCRATCH_BYTES(1000000, 3000000) / 2);
    big.num_nodes = 0;
    CHECK_EQ(dnnmem_place_solve_scratch_size(&p, NULL, &bytes), DNNMEM_OK);
    CHECK(bytes <= DNNMEM_PLACE_SCRATCH_BYTES(0, 0));
    free(offsets);
    free(ids);
  }
}

/* dnnmem_place_cost: agrees with the recount and refuses bad assignments. */
static void test_cost(void) {
  test_problem t;
  uint8_t x[32] = {0};
  dnnmem_place_result c;
  int32_t v;
  size_t bytes = 0;
  void *mem;
  FOR_TRIALS(rng, 17, iter, 200) {
    dnnmem_place_options o;
    random_problem(&rng, &t, 1 + (int32_t)dnnmem_rng_below(&rng, 20));
    memset(&o, 0, sizeof(o));
    o.model = (dnnmem_place_model)(iter & 1);
    CHECK_EQ(dnnmem_place_cost_scratch_size(&t.p, &o, &bytes), DNNMEM_OK);
    CHECK(bytes >= (size_t)t.n * sizeof(int32_t)); /* one stamp per node */
    mem = malloc(bytes);
    for (v = 0; v < t.n; v++) x[v] = dnnmem_rng_below(&rng, 2) ? CPU : ACC;
    if (ref_place_time(&t.p, (dnnmem_place_model)(iter & 1), x) < 0) {
      CHECK_EQ(dnnmem_place_cost(&t.p, &o, x, &c, mem, bytes), DNNMEM_ERR_INFEASIBLE);
      CHECK(c.error.index >= 0 && c.error.index < t.n);
    } else {
      CHECK_EQ(dnnmem_place_cost(&t.p, &o, x, &c, mem, bytes), DNNMEM_OK);
      CHECK_EQ(c.time, ref_place_time(&t.p, (dnnmem_place_model)(iter & 1), x));
      CHECK_EQ(c.conversions, ref_place_conversions(&t.p, (dnnmem_place_model)(iter & 1), x));
      CHECK(c.all_acc_time == 0 && c.greedy_time == 0 && c.all_cpu_time == 0 && c.cut == 0 && c.num_free == 0);
      CHECK(c.num_cpu == 0 && c.num_acc == 0 && c.num_parts == 0 && c.flow_nodes == 0 && c.flow_arcs == 0);
      CHECK(c.error.index == -1 && c.error.field == DNNMEM_FIELD_NONE);
    }
    free(mem);
  }
}

/* The cost models' names: a round trip, and unknown names refused. */
static void test_model_names(void) {
  CHECK(DNNMEM_PLACE_PER_VALUE == 0 && DNNMEM_PLACE_PER_EDGE == 1); /* 0: the zeroed options' model */
  CHECK_ENUM_NAMES(dnnmem_place_model, DNNMEM_PLACE_MODEL_COUNT, "per_edge", "per-value", "per-edge");
}

/* An empty graph and a graph with nothing free. */
static void test_trivial(void) {
  test_problem t;
  uint8_t d[32] = {0};
  dnnmem_place_result r;
  t.n = 0;
  t.offsets[0] = 0;
  problem_wire(&t);
  CHECK_EQ(solve(&t, 0, DNNMEM_FLOW_BK, d, &r), DNNMEM_OK);
  CHECK_EQ(r.time, 0);
  chain(&t, 0, 10, 30);
  CHECK_EQ(solve(&t, 0, DNNMEM_FLOW_BK, d, &r), DNNMEM_OK);
  CHECK_EQ(r.num_free, 0);
  CHECK_EQ(r.num_parts, 0);
  CHECK_EQ(r.time, 30 + 50 + 50 + 30);
}

/* NULL and out-of-range arguments of every entry point give their codes;
   the per-node checks name the right error for each array; the network
   is the one solve cuts (constant + minimum cut = the optimum). */
static void test_argument_checks(void) {
  test_problem t;
  uint8_t d[32] = {0};
  dnnmem_place_result r;
  dnnmem_place_options o, bad;
  dnnmem_place_problem p;
  dnnmem_place_model model;
  dnnmem_flow flow;
  dnnmem_flow_result fr;
  dnnmem_place_result costed;
  size_t bytes = 0;
  void *mem;
  memset(&o, 0, sizeof(o));
  memset(&bad, 0, sizeof(bad));
  bad.model = (dnnmem_place_model)-1;
  chain(&t, 3, 10, 30);
  CHECK_EQ(dnnmem_place_solve_scratch_size(&t.p, NULL, &bytes), DNNMEM_OK);
  mem = malloc(bytes);
  CHECK_EQ(dnnmem_place_solve(NULL, NULL, d, &r, mem, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  p = t.p;
  p.graph = NULL;
  CHECK_EQ(dnnmem_place_solve(&p, NULL, d, &r, mem, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_place_solve(&t.p, NULL, d, NULL, mem, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_place_solve(&t.p, &bad, d, &r, mem, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  /* each per-node array missing */
  p = t.p;
  p.cpu_time = NULL;
  CHECK_EQ(dnnmem_place_solve(&p, NULL, d, &r, mem, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  p = t.p;
  p.acc_time = NULL;
  CHECK_EQ(dnnmem_place_solve(&p, NULL, d, &r, mem, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  p = t.p;
  p.xfer = NULL;
  CHECK_EQ(dnnmem_place_solve(&p, NULL, d, &r, mem, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  /* acc_time below 0 other than UNSUPPORTED; pinned to ACC where unsupported */
  chain(&t, 3, 10, 30);
  t.acc[2] = -5;
  CHECK_EQ(dnnmem_place_solve(&t.p, NULL, d, &r, mem, bytes), DNNMEM_ERR_NEGATIVE);
  chain(&t, 3, 10, 30);
  t.device[2] = ACC;
  t.acc[2] = NO;
  CHECK_EQ(dnnmem_place_solve(&t.p, NULL, d, &r, mem, bytes), DNNMEM_ERR_PLACE_UNSUPPORTED);
  /* the sum over nodes passes int64 through acc_time, then through xfer */
  chain(&t, 3, 10, 30);
  t.acc[2] = INT64_MAX - 100;
  CHECK_EQ(dnnmem_place_solve(&t.p, NULL, d, &r, mem, bytes), DNNMEM_ERR_OVERFLOW);
  chain(&t, 3, 10, 30);
  t.xfer[2] = INT64_MAX / 2;
  CHECK_EQ(dnnmem_place_solve(&t.p, NULL, d, &r, mem, bytes), DNNMEM_ERR_OVERFLOW);
  /* a sum of exactly INT64_MAX leaves no room for the network's "infinite" */
  chain(&t, 0, 10, 0);
  t.cpu[0] = INT64_MAX - 5000 - 50 - 5000 - 50;
  CHECK_EQ(dnnmem_place_solve(&t.p, NULL, d, &r, mem, bytes), DNNMEM_ERR_OVERFLOW);
  t.cpu[0]--; /* one below: solved, every op where it is pinned */
  CHECK_EQ(dnnmem_place_solve(&t.p, NULL, d, &r, mem, bytes), DNNMEM_OK);
  CHECK_EQ(r.time, t.cpu[0] + 50 + 50);
  /* is_output and device NULL (no outputs, every op free), both models */
  chain(&t, 3, 10, 30);
  t.p.is_output = NULL;
  t.p.device = NULL;
  for (o.model = DNNMEM_PLACE_PER_VALUE; o.model <= DNNMEM_PLACE_PER_EDGE;
       o.model = (dnnmem_place_model)(o.model + 1)) {
    CHECK_EQ(dnnmem_place_solve(&t.p, &o, d, &r, mem, bytes), DNNMEM_OK);
    CHECK_EQ(r.time, ref_place_optimum(&t.p, o.model));
    CHECK_EQ(dnnmem_place_cost(&t.p, &o, d, &costed, mem, bytes), DNNMEM_OK);
    CHECK_EQ(costed.time, r.time);
    CHECK_EQ(costed.conversions, r.conversions);
  }
  /* the cost: NULL problem, bad options, NULL outputs and assignments, a device code out of range */
  chain(&t, 3, 10, 30);
  CHECK_EQ(dnnmem_place_cost(NULL, NULL, d, &costed, mem, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(costed.error.field, DNNMEM_FIELD_PROBLEM);
  CHECK_EQ(dnnmem_place_cost(&t.p, &bad, d, &costed, mem, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(costed.error.field, DNNMEM_FIELD_OPTIONS);
  CHECK_EQ(dnnmem_place_cost(&t.p, NULL, d, NULL, mem, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_place_cost(&t.p, NULL, NULL, &costed, mem, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_place_cost_scratch_size(&t.p, NULL, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_place_solve(&t.p, NULL, d, &r, mem, bytes), DNNMEM_OK);
  d[2] = 9;
  CHECK_EQ(dnnmem_place_cost(&t.p, NULL, d, &costed, mem, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK(costed.error.index == 2 && costed.error.field == DNNMEM_FIELD_OUTPUT);
  CHECK_EQ(dnnmem_place_cost(&t.p, NULL, d, &costed, mem, 0), DNNMEM_ERR_SCRATCH_TOO_SMALL);
  CHECK_EQ(costed.error.field, DNNMEM_FIELD_SCRATCH);
  /* the network: NULL outputs refused; its cut plus the constant is the optimum */
  CHECK_EQ(dnnmem_place_network(&t.p, NULL, NULL, &costed, mem, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(costed.error.field, DNNMEM_FIELD_OUTPUT);
  CHECK_EQ(dnnmem_place_network(&t.p, NULL, &flow, NULL, mem, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_place_network(NULL, NULL, &flow, &costed, mem, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(costed.error.field, DNNMEM_FIELD_PROBLEM);
  CHECK_EQ(dnnmem_place_network(&t.p, &bad, &flow, &costed, mem, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(costed.error.field, DNNMEM_FIELD_OPTIONS);
  CHECK_EQ(dnnmem_place_network(&t.p, NULL, &flow, &costed, mem, 8), DNNMEM_ERR_SCRATCH_TOO_SMALL);
  CHECK_EQ(costed.error.field, DNNMEM_FIELD_SCRATCH);
  CHECK_EQ(dnnmem_place_network_scratch_size(&t.p, NULL, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_place_network(&t.p, NULL, &flow, &costed, mem, bytes), DNNMEM_OK);
  CHECK_EQ(dnnmem_flow_solve(&flow, 0, 1, NULL, &fr), DNNMEM_OK);
  CHECK_EQ(costed.time + fr.value, ref_place_optimum(&t.p, DNNMEM_PLACE_PER_VALUE));
  CHECK_EQ(dnnmem_place_model_parse("per-edge", NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_place_model_parse("per-edge", &model), DNNMEM_OK);
  free(mem);
}

/* More faults, each with its code, node and field: an op pinned to the
   accelerator that has no accelerator time, an op with neither time; the
   cost without a result or a placement, and with NULL options (the
   defaults: per value) recounted. */
static void test_argument_edges(void) {
  test_problem t;
  dnnmem_place_result c;
  uint8_t x[2] = {CPU, ACC};
  unsigned char mem[4096];
  size_t bytes = 0;
  memset(&t, 0, sizeof t);
  t.n = 2, t.offsets[0] = 0, t.offsets[1] = 0, t.offsets[2] = 1, t.ids[0] = 0;
  t.cpu[0] = 5, t.acc[0] = 1, t.xfer[0] = 3, t.cpu[1] = 4, t.acc[1] = 2, t.xfer[1] = 1;
  t.device[0] = t.device[1] = ANY, t.output[1] = 1;
  problem_wire(&t);
  CHECK_EQ(dnnmem_place_cost_scratch_size(&t.p, NULL, &bytes), DNNMEM_OK);
  CHECK(bytes <= sizeof mem);
  CHECK_EQ(dnnmem_place_cost(&t.p, NULL, x, &c, mem, sizeof mem), DNNMEM_OK);
  CHECK_EQ(c.time, ref_place_time(&t.p, DNNMEM_PLACE_PER_VALUE, x));
  CHECK_EQ(c.time, 5 + 3 + 2 + 1); /* a on the CPU, b on the accelerator: a crosses once, b is an output */
  CHECK_EQ(dnnmem_place_cost(&t.p, NULL, x, NULL, mem, sizeof mem), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_place_cost(&t.p, NULL, NULL, &c, mem, sizeof mem), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(c.error.field, DNNMEM_FIELD_OUTPUT); /* the device array, as a bad code in it */
  x[0] = 0, x[1] = 1; /* a user's 0/1 array: 0 is DNNMEM_PLACE_ANY, no device */
  CHECK_EQ(dnnmem_place_cost(&t.p, NULL, x, &c, mem, sizeof mem), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK(c.error.index == 0 && c.error.field == DNNMEM_FIELD_OUTPUT);
  x[0] = CPU, x[1] = ACC;
  t.device[1] = ACC, t.acc[1] = NO;
  CHECK_EQ(dnnmem_place_cost(&t.p, NULL, x, &c, mem, sizeof mem), DNNMEM_ERR_PLACE_UNSUPPORTED);
  CHECK(c.error.index == 1 && c.error.field == DNNMEM_FIELD_PIN);
  t.device[1] = ANY, t.cpu[1] = NO;
  CHECK_EQ(dnnmem_place_cost(&t.p, NULL, x, &c, mem, sizeof mem), DNNMEM_ERR_PLACE_UNSUPPORTED);
  CHECK(c.error.index == 1 && c.error.field == DNNMEM_FIELD_TIME);
  /* a free CPU op and an accelerator op without accelerator time, both on the CPU */
  t.cpu[0] = 0, t.cpu[1] = 4, x[1] = CPU;
  CHECK_EQ(dnnmem_place_cost(&t.p, NULL, x, &c, mem, sizeof mem), DNNMEM_OK);
  CHECK_EQ(c.time, 0 + 4);
  { /* a flow algorithm out of range */
    dnnmem_place_options o;
    memset(&o, 0, sizeof o);
    o.algo = DNNMEM_FLOW_ALGO_COUNT;
    CHECK_EQ(dnnmem_place_cost(&t.p, &o, x, &c, mem, sizeof mem), DNNMEM_ERR_INVALID_ARGUMENT);
    CHECK_EQ(c.error.field, DNNMEM_FIELD_OPTIONS);
  }
  t.n = 0; /* the empty graph costs nothing, without a placement */
  problem_wire(&t);
  CHECK_EQ(dnnmem_place_cost(&t.p, NULL, NULL, &c, mem, sizeof mem), DNNMEM_OK);
  CHECK_EQ(c.time, 0);
}

/* The exported network holds no arc without capacity (a zero transfer or
   equal device times add none): random problems with many zero transfers
   and ties, both models, every arc read back; and a hand-counted per-edge
   network: a chain 0 -> 1 -> 2 of free ops, value 0's transfer 0 and value
   1's 5, every op faster on one device: 2 + 3 nodes, the 1 -> 2 arc and
   one terminal arc per op = 4 arcs. */
static void test_network_no_empty_arcs(void) {
  int zero_seen = 0;
  FOR_TRIALS(rng, 41, iter, 200) {
    test_problem t;
    int per_edge = iter & 1;
    int32_t v, a;
    size_t bytes = 0;
    void *mem;
    dnnmem_flow net;
    dnnmem_place_options o;
    dnnmem_place_result built, solved;
    uint8_t d[32] = {0};
    random_problem(&rng, &t, 2 + (int32_t)dnnmem_rng_below(&rng, 12));
    for (v = 0; v < t.n; v++) {
      if (dnnmem_rng_below(&rng, 2) == 0) t.xfer[v] = 0;
      if (dnnmem_rng_below(&rng, 4) == 0 && t.cpu[v] >= 0 && t.acc[v] >= 0) t.acc[v] = t.cpu[v];
    }
    memset(&o, 0, sizeof o);
    o.model = per_edge ? DNNMEM_PLACE_PER_EDGE : DNNMEM_PLACE_PER_VALUE;
    CHECK_EQ(dnnmem_place_network_scratch_size(exact(&t), &o, &bytes), DNNMEM_OK);
    mem = malloc(bytes);
    CHECK_EQ(dnnmem_place_network(exact(&t), &o, &net, &built, mem, bytes), DNNMEM_OK);
    for (a = 0; a < net.num_arcs; a++) {
      int64_t cap = -1, rcap = -1;
      CHECK_EQ(dnnmem_flow_arc(&net, a, NULL, NULL, &cap, &rcap), DNNMEM_OK);
      CHECK(cap >= 0 && rcap >= 0 && (cap > 0 || rcap > 0));
    }
    free(mem);
    CHECK_EQ(solve(&t, per_edge, DNNMEM_FLOW_BK, d, &solved), DNNMEM_OK);
    CHECK_EQ(solved.flow_arcs, built.flow_arcs);
    CHECK_EQ(solved.time, ref_place_optimum(&t.p, (dnnmem_place_model)per_edge));
    for (v = 0; v < t.n; v++) zero_seen += t.xfer[v] == 0 && t.device[v] == ANY;
  }
  CHECK(zero_seen > 100);
  {
    test_problem t;
    uint8_t d[32] = {0};
    dnnmem_place_result r;
    static const int64_t cpu[3] = {10, 40, 10}, acc[3] = {30, 20, 30}, xfer[3] = {0, 5, 7};
    int32_t v;
    t.n = 3;
    t.offsets[0] = 0, t.offsets[1] = 0, t.offsets[2] = 1, t.offsets[3] = 2;
    t.ids[0] = 0, t.ids[1] = 1;
    for (v = 0; v < 3; v++) t.cpu[v] = cpu[v], t.acc[v] = acc[v], t.xfer[v] = xfer[v], t.device[v] = ANY, t.output[v] = 0;
    problem_wire(&t);
    CHECK_EQ(solve(&t, 1, DNNMEM_FLOW_BK, d, &r), DNNMEM_OK);
    CHECK_EQ(r.flow_nodes, 5);
    CHECK_EQ(r.flow_arcs, 4);
    CHECK_EQ(r.time, ref_place_optimum(&t.p, DNNMEM_PLACE_PER_EDGE));
  }
}

/* Ties go to the accelerator: the placement's CPU set is the smallest
   optimal one (the minimum cut's smallest source side; minimum cuts form
   a lattice), i.e. the intersection of every optimum's CPU set, by brute
   force on small problems full of ties (equal times, zero transfers),
   both models, both flow algorithms. */
static void test_ties_smallest_cpu_set(void) {
  int tied = 0;
  FOR_TRIALS(rng, 77, iter, 300) {
    test_problem t;
    int per_edge, algo;
    int32_t v, n;
    random_problem(&rng, &t, 1 + (int32_t)dnnmem_rng_below(&rng, 12));
    n = t.n;
    for (v = 0; v < n; v++)
      if (dnnmem_rng_below(&rng, 2)) t.acc[v] = t.cpu[v] >= 0 ? t.cpu[v] : t.acc[v];
    for (v = 0; v < n; v++)
      if (dnnmem_rng_below(&rng, 2)) t.xfer[v] = 0;
    for (per_edge = 0; per_edge < 2; per_edge++) {
      int64_t best = ref_place_optimum(&t.p, (dnnmem_place_model)per_edge);
      uint8_t inter[32], x[32];
      uint32_t mask;
      int optima = 0;
      for (v = 0; v < n; v++) inter[v] = 1;
      for (mask = 0; mask < (1u << n); mask++) {
        for (v = 0; v < n; v++) x[v] = (mask >> v & 1) ? ACC : CPU;
        if (ref_place_time(&t.p, (dnnmem_place_model)per_edge, x) != best) continue;
        optima++;
        for (v = 0; v < n; v++) inter[v] &= x[v] == CPU;
      }
      tied += optima > 1;
      for (algo = 0; algo < 2; algo++) {
        uint8_t d[32] = {0};
        dnnmem_place_result r;
        int same = 1;
        CHECK_EQ(solve(&t, per_edge, (dnnmem_flow_algo)algo, d, &r), DNNMEM_OK);
        for (v = 0; v < n; v++) same &= (d[v] == CPU) == inter[v];
        CHECK(same);
        check_result(&t, per_edge, d, &r);
      }
    }
  }
  CHECK(tied > 300);
}

int main(void) {
  RUN(test_brute_force);
  RUN(test_brute_force_20);
  RUN(test_seed_chain);
  RUN(test_once_per_value);
  RUN(test_errors);
  RUN(test_cost);
  RUN(test_model_names);
  RUN(test_trivial);
  RUN(test_argument_checks);
  RUN(test_argument_edges);
  RUN(test_network_no_empty_arcs);
  RUN(test_ties_smallest_cpu_set);
  {
    int i;
    for (i = 0; i < 8; i++) test_heap_free(&exact_copy.mem[i]);
  }
  return test_finish("test_place");
}

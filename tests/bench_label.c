/* tests/bench_label.c: the labeling engine (dnnmem_label_*) on placement
   over three devices (make bench).

   1. Every decomposed model graph (*.dec.graph.csv in ../shared/data/models
      and tests/data) with three devices made from the graph's columns (the
      cost model of ../shared/data: CPU 100 GFLOP/s, 20 GB/s; accelerator 6
      TFLOP/s on matrix ops, 200 GB/s, 10 us dispatch):
        cpu  cpu_time (inf stays unsupported);
        npu  acc_time for the matrix ops (device 'acc' in the file:
             convolution, mm, bmm, addmm, linear), unsupported elsewhere;
        gpu  1.5 x acc_time where the accelerator runs the op, else
             cpu_time + 5 us (a generic kernel and its launch): slower than
             the accelerator, but it supports everything.
      Graph inputs are pinned to the CPU and outputs end there. Converting
      value v: cpu <-> gpu and cpu <-> npu cost the file's xfer (2 us +
      size / 10 GB/s), gpu <-> npu 1 us + size / 50 GB/s.
      Columns: the answer, the proven lower bound and the gap; each single
      device (an op the device lacks falls back by priority), greedy by
      priority (ONNX Runtime's rule: npu, gpu, cpu, the first that supports
      the op) and greedy per op (each op on its fastest device, conversions
      ignored when choosing, counted after); wall-clock time of the solve.
   2. A chain of 1,000,000 ops with three devices (random costs, conversion
      latency + size * rate): time and gap.
   Targets: gap <= 1% and under 1 s per graph; the chain under 10 s. */
#include "bench.h"

#define K 3
static const int32_t priority[K] = {2, 1, 0}; /* npu, gpu, cpu */

typedef struct bench_labeling {
  int32_t n;
  dnnmem_graph graph;
  int32_t *offsets, *ids, *pin, *out;
  int64_t *cost, *convert, *size;
  int64_t rate[K * K], latency[K * K];
  dnnmem_label_problem p;
} bench_labeling;

static void labeling_free(bench_labeling *b) {
  free(b->offsets), free(b->ids), free(b->pin), free(b->out), free(b->cost), free(b->convert), free(b->size);
  memset(b, 0, sizeof(*b));
}

/* The graph and the problem's fields both builders share (b->n ops). */
static void labeling_link(bench_labeling *b) {
  b->graph.num_nodes = b->n;
  b->graph.in_offsets = b->offsets;
  b->graph.in_ids = b->ids;
  b->p.graph = &b->graph;
  b->p.num_labels = K;
  b->p.node_cost = b->cost;
}

/* The three-device problem of a graph CSV (see the top); 0 when unreadable. */
static int labeling_from_graph(const char *path, bench_labeling *b) {
  files_graph f;
  int32_t v, a, c, e;
  memset(b, 0, sizeof(*b));
  if (!bench_read_graph(path, &f)) return 0;
  b->n = f.n;
  e = f.in_offsets[f.n];
  b->offsets = (int32_t *)malloc(((size_t)f.n + 1) * sizeof(int32_t));
  b->ids = (int32_t *)malloc(((size_t)e + 1) * sizeof(int32_t));
  b->pin = (int32_t *)malloc(((size_t)f.n + 1) * sizeof(int32_t));
  b->out = (int32_t *)malloc(((size_t)f.n + 1) * sizeof(int32_t));
  b->cost = (int64_t *)malloc(((size_t)f.n + 1) * K * sizeof(int64_t));
  b->convert = (int64_t *)malloc(((size_t)f.n + 1) * K * K * sizeof(int64_t));
  memcpy(b->offsets, f.in_offsets, ((size_t)f.n + 1) * sizeof(int32_t));
  memcpy(b->ids, f.in_ids, (size_t)e * sizeof(int32_t));
  for (v = 0; v < f.n; v++) {
    int matrix = f.device[v] == DNNMEM_PLACE_ACC;
    int64_t cpu = f.cpu_time[v], acc = f.acc_time[v], *cv = b->convert + (size_t)v * K * K;
    b->cost[v * K + 0] = cpu;
    b->cost[v * K + 1] = acc >= 0 ? acc + acc / 2 : cpu >= 0 ? cpu + 5000 : DNNMEM_LABEL_UNSUPPORTED;
    b->cost[v * K + 2] = matrix && acc >= 0 ? acc : DNNMEM_LABEL_UNSUPPORTED;
    b->pin[v] = strcmp(f.ops[v], "input") == 0 ? 0 : DNNMEM_LABEL_FREE;
    b->out[v] = f.output[v] ? 0 : DNNMEM_LABEL_FREE;
    for (a = 0; a < K; a++)
      for (c = 0; c < K; c++)
        cv[a * K + c] = a == c ? 0 : (a == 0 || c == 0) ? f.xfer[v] : 1000 + f.size[v] / 50;
  }
  files_graph_free(&f);
  labeling_link(b);
  b->p.convert = b->convert;
  b->p.pin = b->pin;
  b->p.output_label = b->out;
  return 1;
}

/* A chain of n ops, three devices: random times (1-100 us), sizes, some ops
   unsupported on the npu; conversions latency + size * rate (ns). */
static void labeling_chain(bench_labeling *b, int32_t n) {
  dnnmem_rng rng;
  int32_t v, a, c;
  memset(b, 0, sizeof(*b));
  dnnmem_rng_seed(&rng, 2026);
  b->n = n;
  b->offsets = (int32_t *)malloc(((size_t)n + 1) * sizeof(int32_t));
  b->ids = (int32_t *)malloc(((size_t)n + 1) * sizeof(int32_t));
  b->cost = (int64_t *)malloc(((size_t)n + 1) * K * sizeof(int64_t));
  b->size = (int64_t *)malloc(((size_t)n + 1) * sizeof(int64_t));
  b->offsets[0] = 0;
  for (v = 0; v < n; v++) {
    if (v > 0) b->ids[v - 1] = v - 1;
    b->offsets[v + 1] = v > 0 ? v : 0;
    for (a = 0; a < K; a++) b->cost[v * K + a] = 1000 + (int64_t)dnnmem_rng_below(&rng, 99000);
    if (dnnmem_rng_below(&rng, 4) == 0) b->cost[v * K + 2] = DNNMEM_LABEL_UNSUPPORTED;
    b->size[v] = (int64_t)dnnmem_rng_below(&rng, 4 << 20);
  }
  for (a = 0; a < K; a++)
    for (c = 0; c < K; c++) {
      b->rate[a * K + c] = a == c ? 0 : 1; /* bytes at 1 GB/s = 1 ns per byte */
      b->latency[a * K + c] = a == c ? 0 : 2000;
    }
  labeling_link(b);
  b->p.convert_size = b->size;
  b->p.convert_rate = b->rate;
  b->p.convert_latency = b->latency;
}

/* A random DAG of n ops: each op reads 1-3 of the 64 ops before it (skip
   connections, fan-out: no tree), costs and conversions as the chain's. */
static void labeling_dag(bench_labeling *b, int32_t n) {
  int32_t v, e = 0;
  dnnmem_rng rng;
  labeling_chain(b, n); /* the costs, sizes and rates */
  dnnmem_rng_seed(&rng, 2027);
  free(b->ids);
  b->ids = (int32_t *)malloc(((size_t)n * 3 + 1) * sizeof(int32_t));
  b->offsets[0] = 0;
  for (v = 0; v < n; v++) {
    int32_t d = v == 0 ? 0 : 1 + (int32_t)dnnmem_rng_below(&rng, 3), j;
    for (j = 0; j < d; j++) {
      int32_t back = 1 + (int32_t)dnnmem_rng_below(&rng, 64);
      b->ids[e++] = v - (back > v ? v : back);
    }
    b->offsets[v + 1] = e;
  }
  b->graph.in_ids = b->ids;
}

/* Cost of a baseline: each op on the first device of order[] it may take;
   per_op: its fastest device. */
static int64_t baseline(const bench_labeling *b, const int32_t *order, int per_op, int32_t *label, void *mem,
                        size_t bytes) {
  int32_t v, j;
  dnnmem_label_result cost;
  for (v = 0; v < b->n; v++) {
    label[v] = -1;
    for (j = 0; j < K; j++) {
      int32_t l = order[j];
      int64_t t = b->cost[v * K + l];
      if (t < 0 || (b->pin && b->pin[v] >= 0 && b->pin[v] != l)) continue;
      if (label[v] < 0 || (per_op && t < b->cost[v * K + label[v]])) label[v] = l;
      if (!per_op) break;
    }
  }
  if (dnnmem_label_cost(&b->p, label, &cost, mem, bytes) != DNNMEM_OK) return -1;
  return cost.cost;
}

static double pct(int64_t a, int64_t b) { return b ? 100.0 * (double)(a - b) / (double)b : 0.0; }

static int bench_models(const char *dir, int *count, double *worst_gap, double *worst_ms) {
  static const char *const skip[] = {NULL};
  size_t n = 0, i;
  char **names = bench_list(dir, ".dec.graph.csv", skip, &n);
  for (i = 0; i < n; i++) {
    char path[1024];
    bench_labeling b;
    dnnmem_label_result r;
    size_t bytes = 0, cost_bytes = 0;
    void *mem, *cost_mem;
    int32_t *label, v, j, counts[K] = {0, 0, 0};
    int64_t single[K], greedy, per_op, recount = -1;
    dnnmem_label_result costed;
    double t0, ms, gap;
    snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
    if (!labeling_from_graph(path, &b)) continue;
    dnnmem_label_solve_scratch_size(&b.p, NULL, &bytes);
    dnnmem_label_cost_scratch_size(&b.p, &cost_bytes);
    mem = malloc(bytes);
    cost_mem = malloc(cost_bytes);
    label = (int32_t *)malloc(((size_t)b.n + 1) * sizeof(int32_t));
    t0 = bench_now_ms();
    if (dnnmem_label_solve(&b.p, NULL, label, &r, mem, bytes) != DNNMEM_OK) {
      printf("| %s | error |\n", names[i]);
      labeling_free(&b);
      continue;
    }
    ms = bench_now_ms() - t0;
    dnnmem_label_cost(&b.p, label, &costed, cost_mem, cost_bytes);
    recount = costed.cost;
    for (v = 0; v < b.n; v++) counts[label[v]]++;
    for (j = 0; j < K; j++) {
      int32_t order[K], m = 0, q;
      order[m++] = j;
      for (q = 0; q < K; q++)
        if (priority[q] != j) order[m++] = priority[q];
      single[j] = baseline(&b, order, 0, label, cost_mem, cost_bytes);
    }
    greedy = baseline(&b, priority, 0, label, cost_mem, cost_bytes);
    per_op = baseline(&b, priority, 1, label, cost_mem, cost_bytes);
    gap = 100.0 * (double)r.gap / (double)(r.lower_bound ? r.lower_bound : 1);
    printf("| %s | %d | %.1f | %.1f | %.3f%% | %s | %+.1f%% | %+.1f%% | %+.1f%% | %+.1f%% | %+.1f%% | %d/%d/%d | %d | %d | "
           "%.1f |\n",
           names[i], (int)b.n, (double)r.cost / 1e3, (double)r.lower_bound / 1e3, gap,
           recount == r.cost ? "yes" : "NO", pct(single[0], r.cost), pct(single[1], r.cost), pct(single[2], r.cost),
           pct(greedy, r.cost), pct(per_op, r.cost), (int)counts[0], (int)counts[1], (int)counts[2],
           (int)r.improving_moves, (int)r.sweeps, ms);
    (*count)++;
    if (gap > *worst_gap) *worst_gap = gap;
    if (ms > *worst_ms) *worst_ms = ms;
    free(mem);
    free(cost_mem);
    free(label);
    labeling_free(&b);
  }
  bench_list_free(names, n);
  return (int)n;
}

int main(void) {
  static const char *const dirs[] = {"../shared/data/models", "../../shared/data/models", "tests/data"};
  int d, shape, count = 0, chain_n = getenv("BENCH_QUICK") ? 100000 : 1000000;
  double worst_gap = 0, worst_ms = 0;
  printf("## bench_label: placement over three devices (cpu, gpu, npu) by the labeling engine\n\n");
  printf("Times in us; single devices and greedy as %% above the answer; gap = (answer - bound) / bound.\n\n");
  printf("| graph | ops | answer | lower bound | gap | recount | cpu only | gpu only | npu only | greedy priority | greedy per op | ops cpu/gpu/npu | moves | sweeps | ms |\n");
  printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (d = 0; d < 3 && count == 0; d++) bench_models(dirs[d], &count, &worst_gap, &worst_ms); /* the first found */
  printf("\n%d graphs: worst gap %.3f%% (target <= 1%%), slowest %.1f ms (target < 1000)\n\n", count, worst_gap,
         worst_ms);
  for (shape = 0; shape < 2; shape++) {
    bench_labeling b;
    dnnmem_label_result r;
    size_t bytes = 0;
    void *mem;
    int32_t *label;
    double t0, ms;
    if (shape == 0) labeling_chain(&b, chain_n);
    else labeling_dag(&b, chain_n / 10);
    dnnmem_label_solve_scratch_size(&b.p, NULL, &bytes);
    mem = malloc(bytes);
    label = (int32_t *)malloc((size_t)chain_n * sizeof(int32_t));
    t0 = bench_now_ms();
    if (dnnmem_label_solve(&b.p, NULL, label, &r, mem, bytes) != DNNMEM_OK) {
      printf("%s: error\n", shape == 0 ? "chain" : "DAG");
      return 1;
    }
    ms = bench_now_ms() - t0;
    printf("%s of %d ops, 3 devices: answer %.1f us, bound %.1f us, gap %.4f%%, %d min cuts (%d improving), "
           "%d cycles, %d dual sweeps, %.0f ms (target < 10000), %.0f MB scratch\n",
           shape == 0 ? "chain" : "random DAG (1-3 inputs within 64 ops)", (int)b.n, (double)r.cost / 1e3,
           (double)r.lower_bound / 1e3,
           100.0 * (double)r.gap / (double)(r.lower_bound ? r.lower_bound : 1), (int)r.moves, (int)r.improving_moves,
           (int)r.cycles, (int)r.sweeps, ms, (double)bytes / 1e6);
    free(mem);
    free(label);
    labeling_free(&b);
  }
  return 0;
}

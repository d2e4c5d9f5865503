/* tests/bench_flow.c: min-cut placement and max-flow benchmarks (make bench).

   1. Placement on every graph in ../shared/data/models (tests/data without it):
      the optimum against the baselines (all on the accelerator = onnx-mlir's
      default, each op on its faster device, all on the CPU), checked against
      the independent solver (push-relabel) and a recount of the placement.
   2. Max flow on big graphs: a DNN-shaped network (the placement network of
      model graphs chained to >= 1M ops; again with pins turned into 100 s
      penalties, so that every op is a node) and a 1000x1000 4-connected grid
      with random terminal and neighbour capacities: Boykov-Kolmogorov and
      push-relabel times; with the network as written to a DIMACS file (one
      arc per line), ours and, when build/bench_boost exists (Boost.Graph's
      boykov_kolmogorov_max_flow), Boost's on the same file, side by side.
      Our times include building the adjacency inside dnnmem_flow_solve;
      Boost's exclude building its graph.
   The DIMACS files go to the build folder and are removed afterwards unless
   BENCH_KEEP_DIMACS is set. Times are wall-clock on a shared machine:
   expect noise of 10-20% (more when other jobs run).
   3. Placement of resnet18.dec chained to 1M ops against 0.1.0's tool
      (build/v0.1.0/dnnmem: make bench builds it from the git history) and
      against Boost's BK on the same network.
   usage: bench_flow [--quick | --place]   (--quick: 200k ops, 300x300 grid;
          --place: only 3.) */
#include "bench.h"

#include <math.h>

/* Memory is touched once here so that page faults of fresh memory are not
   timed (Boost faults its memory in while the graph is built, untimed; a
   reused scratch buffer has none). */
static void *xalloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p) {
    fprintf(stderr, "bench_flow: out of memory (%zu bytes)\n", bytes);
    exit(1);
  }
  memset(p, 0, bytes);
  return p;
}

#ifdef DNNMEM_PLACE_ANY /* the placement part is in this dnnmem.h */
/* ---- a placement problem read from a graph CSV -------------------------- */

typedef struct bench_graph {
  int32_t n, e, cap_n, cap_e;
  int32_t *offsets, *ids;
  int64_t *cpu, *acc, *xfer;
  uint8_t *device, *output, *is_input;
} bench_graph;

static void graph_reserve(bench_graph *g, int32_t n, int32_t e) {
  if (n + 1 > g->cap_n) {
    g->cap_n = (n + 1) * 2;
    g->offsets = (int32_t *)realloc(g->offsets, sizeof(int32_t) * (size_t)(g->cap_n + 1));
    g->cpu = (int64_t *)realloc(g->cpu, sizeof(int64_t) * (size_t)g->cap_n);
    g->acc = (int64_t *)realloc(g->acc, sizeof(int64_t) * (size_t)g->cap_n);
    g->xfer = (int64_t *)realloc(g->xfer, sizeof(int64_t) * (size_t)g->cap_n);
    g->device = (uint8_t *)realloc(g->device, (size_t)g->cap_n);
    g->output = (uint8_t *)realloc(g->output, (size_t)g->cap_n);
    g->is_input = (uint8_t *)realloc(g->is_input, (size_t)g->cap_n);
    if (!g->offsets || !g->cpu || !g->acc || !g->xfer || !g->device || !g->output || !g->is_input) exit(1);
  }
  if (e > g->cap_e) {
    g->cap_e = e * 2;
    g->ids = (int32_t *)realloc(g->ids, sizeof(int32_t) * (size_t)g->cap_e);
    if (!g->ids) exit(1);
  }
}

static void graph_free(bench_graph *g) {
  free(g->offsets);
  free(g->ids);
  free(g->cpu);
  free(g->acc);
  free(g->xfer);
  free(g->device);
  free(g->output);
  free(g->is_input);
  memset(g, 0, sizeof(*g));
}

/* Reads a dnnmem graph CSV with the tool's reader; graph inputs are pinned
   to the CPU, as the tool's place command does. 0 when unreadable. */
static int graph_read(const char *path, bench_graph *g) {
  files_graph f;
  int32_t v, k;
  memset(g, 0, sizeof(*g));
  if (!bench_read_graph(path, &f)) return 0;
  graph_reserve(g, f.n, f.in_offsets[f.n]);
  g->offsets[0] = 0;
  for (v = 0; v < f.n; v++) {
    g->cpu[v] = f.cpu_time[v];
    g->acc[v] = f.acc_time[v];
    g->xfer[v] = f.xfer[v];
    g->device[v] = f.device[v];
    g->is_input[v] = strcmp(f.ops[v], "input") == 0;
    if (g->is_input[v]) g->device[v] = DNNMEM_PLACE_CPU;
    g->output[v] = f.output[v];
    for (k = f.in_offsets[v]; k < f.in_offsets[v + 1]; k++) g->ids[g->e++] = f.in_ids[k];
    g->offsets[v + 1] = g->e;
  }
  g->n = f.n;
  files_graph_free(&f);
  return g->n > 0;
}

/* Appends copy of src to dst; src's graph inputs read dst's last output. */
static void graph_append(bench_graph *dst, const bench_graph *src) {
  int32_t base = dst->n, v, k, last_output = -1;
  for (v = dst->n - 1; v >= 0 && last_output < 0; v--)
    if (dst->output[v]) last_output = v;
  graph_reserve(dst, dst->n + src->n, dst->e + src->e + src->n);
  for (v = 0; v < src->n; v++) {
    int32_t u = base + v;
    dst->cpu[u] = src->cpu[v];
    dst->acc[u] = src->acc[v];
    dst->xfer[u] = src->xfer[v];
    dst->device[u] = src->device[v];
    dst->is_input[u] = 0;
    dst->output[u] = src->output[v];
    if (src->is_input[v] && last_output >= 0) dst->ids[dst->e++] = last_output;
    for (k = src->offsets[v]; k < src->offsets[v + 1]; k++) dst->ids[dst->e++] = base + src->ids[k];
    dst->offsets[u + 1] = dst->e;
  }
  /* the previous copy's outputs now feed the next one: only the last copy's
     outputs stay graph outputs */
  if (last_output >= 0)
    for (v = 0; v < base; v++) dst->output[v] = 0;
  dst->n += src->n;
}

static void graph_problem(bench_graph *g, dnnmem_graph *graph, dnnmem_place_problem *p) {
  graph->num_nodes = g->n;
  graph->in_offsets = g->offsets;
  graph->in_ids = g->ids;
  memset(p, 0, sizeof(*p));
  p->graph = graph;
  p->cpu_time = g->cpu;
  p->acc_time = g->acc;
  p->xfer = g->xfer;
  p->device = g->device;
  p->is_output = g->output;
}

/* ---- 1. placement on the model graphs ----------------------------------- */

static int bench_models(const char *dir) {
  size_t count = 0, i;
  char **names = bench_list(dir, ".graph.csv", NULL, &count);
  int mismatches = 0;
  if (!count) return 0;
  printf("### Min-cut placement on %s (times in us; per-value model)\n\n", dir);
  printf("| graph | ops | free | optimum | all-acc | greedy | all-cpu | vs all-acc | per-edge opt | pr agrees | solve ms |\n");
  printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (i = 0; i < count; i++) {
    bench_graph g;
    dnnmem_graph graph;
    dnnmem_place_problem p;
    dnnmem_place_options o;
    dnnmem_place_result r, r_pr, r_edge;
    size_t bytes = 0, cost_bytes = 0;
    void *mem, *cost_mem;
    uint8_t *dev, *dev_pr;
    int64_t recount = -1;
    dnnmem_place_result r_cost;
    double t0, ms;
    const char *base = names[i];
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    if (!graph_read(path, &g)) continue;
    graph_problem(&g, &graph, &p);
    dnnmem_place_solve_scratch_size(&p, NULL, &bytes);
    dnnmem_place_cost_scratch_size(&p, NULL, &cost_bytes);
    mem = xalloc(bytes);
    cost_mem = xalloc(cost_bytes);
    dev = (uint8_t *)xalloc((size_t)g.n);
    dev_pr = (uint8_t *)xalloc((size_t)g.n);
    memset(&o, 0, sizeof(o));
    t0 = bench_now_ms();
    if (dnnmem_place_solve(&p, &o, dev, &r, mem, bytes) != DNNMEM_OK) {
      printf("| %s | %d | error | | | | | | | | |\n", base, g.n);
      free(mem);
      free(cost_mem);
      free(dev);
      free(dev_pr);
      graph_free(&g);
      continue;
    }
    ms = bench_now_ms() - t0;
    o.algo = DNNMEM_FLOW_PUSH_RELABEL;
    dnnmem_place_solve(&p, &o, dev_pr, &r_pr, mem, bytes);
    o.algo = DNNMEM_FLOW_BK;
    o.model = DNNMEM_PLACE_PER_EDGE;
    dnnmem_place_solve(&p, &o, dev_pr, &r_edge, mem, bytes);
    dnnmem_place_cost(&p, NULL, dev, &r_cost, cost_mem, cost_bytes);
    recount = r_cost.time;
    if (r_pr.time != r.time || recount != r.time) mismatches++;
    printf("| %s | %d | %d | %.1f | %.1f | %.1f | %.1f | %.1f%% | %.1f | %s | %.2f |\n", base, g.n,
           r.num_free, (double)r.time / 1e3, (double)r.all_acc_time / 1e3, (double)r.greedy_time / 1e3,
           (double)r.all_cpu_time / 1e3, 100.0 * ((double)r.time / (double)r.all_acc_time - 1.0),
           (double)r_edge.time / 1e3, r_pr.time == r.time && recount == r.time ? "yes" : "NO", ms);
    free(mem);
    free(cost_mem);
    free(dev);
    free(dev_pr);
    graph_free(&g);
  }
  printf("\n%zu graphs, %d disagreements between BK, push-relabel and the recount\n\n", count, mismatches);
  bench_list_free(names, count);
  return 1;
}

#endif

/* ---- 2. big networks: ours against Boost --------------------------------- */

typedef struct arc_list {
  int32_t n, m, source, sink;
  int32_t *from, *to;
  int64_t *cap;
} arc_list;

/* The network as a DIMACS file lists it: one line per direction with
   capacity, each read by Boost with a zero-capacity reverse arc. */
static void arcs_from_flow(const dnnmem_flow *f, int32_t s, int32_t t, arc_list *a) {
  int32_t i;
  a->n = f->num_nodes;
  a->source = s;
  a->sink = t;
  a->m = 0;
  a->from = (int32_t *)xalloc(sizeof(int32_t) * 2 * (size_t)f->num_arcs);
  a->to = (int32_t *)xalloc(sizeof(int32_t) * 2 * (size_t)f->num_arcs);
  a->cap = (int64_t *)xalloc(sizeof(int64_t) * 2 * (size_t)f->num_arcs);
  for (i = 0; i < f->num_arcs; i++) {
    int32_t u, v;
    int64_t c, rc;
    dnnmem_flow_arc(f, i, &u, &v, &c, &rc);
    if (c > 0) {
      a->from[a->m] = u;
      a->to[a->m] = v;
      a->cap[a->m++] = c;
    }
    if (rc > 0) {
      a->from[a->m] = v;
      a->to[a->m] = u;
      a->cap[a->m++] = rc;
    }
  }
}

static int write_dimacs(const char *path, const arc_list *a) {
  FILE *f = fopen(path, "w");
  int32_t i;
  if (!f) return 0;
  fprintf(f, "c written by tests/bench_flow.c\np max %d %d\nn %d s\nn %d t\n", a->n, a->m, a->source + 1,
          a->sink + 1);
  for (i = 0; i < a->m; i++) fprintf(f, "a %d %d %lld\n", a->from[i] + 1, a->to[i] + 1, (long long)a->cap[i]);
  return fclose(f) == 0;
}

/* Seconds of one solve with algo; *value its flow (-1 on an error). */
static double time_solve(dnnmem_flow *f, int32_t s, int32_t t, dnnmem_flow_algo algo, int64_t *value) {
  dnnmem_flow_options options;
  dnnmem_flow_result result;
  double t0 = bench_now_ms();
  memset(&options, 0, sizeof(options));
  options.algo = algo;
  if (dnnmem_flow_solve(f, s, t, &options, &result) != DNNMEM_OK) {
    *value = -1;
    return -1;
  }
  *value = result.value;
  return (bench_now_ms() - t0) / 1e3;
}

/* popen(cmd) when the program exe exists; NULL when not or failing. */
static FILE *run_if_built(const char *exe, const char *cmd) {
  FILE *p = fopen(exe, "rb");
  if (!p) return NULL;
  fclose(p);
  return popen(cmd, "r");
}

/* Boost's time on the file, or < 0 when build/bench_boost is absent
   (files: one path, or several quoted apart: the least time); *cpu its
   least CPU time when not NULL. */
static double run_boost(const char *build_dir, const char *file, long long *flow, double *cpu) {
  char cmd[5200], out[4096], exe[1100];
  FILE *p;
  double sec = -1, best = -1, c = -1;
  snprintf(exe, sizeof exe, "%s/bench_boost", build_dir);
  snprintf(cmd, sizeof cmd, "'%s' '%s'", exe, file);
  if ((p = run_if_built(exe, cmd)) == NULL) return -1;
  while (fgets(out, sizeof out, p)) {
    char name[2048];
    if (sscanf(out, "%2047s %lld %lf %lf", name, flow, &sec, &c) != 4) {
      best = -1;
      break;
    }
    if (best < 0 || sec < best) best = sec;
    if (cpu && (*cpu < 0 || c < *cpu)) *cpu = c;
  }
  pclose(p);
  return best;
}

static void bench_network(const char *name, dnnmem_flow *native, int32_t s, int32_t t, const char *build_dir) {
  int64_t v_bk, v_pr, v_file;
  double bk, pr, bk_file, boost;
  long long boost_flow = -1;
  arc_list a;
  dnnmem_flow file_net;
  size_t bytes = 0;
  void *mem;
  int32_t i;
  char path[1200];
  bk = time_solve(native, s, t, DNNMEM_FLOW_BK, &v_bk);
  pr = time_solve(native, s, t, DNNMEM_FLOW_PUSH_RELABEL, &v_pr);
  arcs_from_flow(native, s, t, &a);
  dnnmem_flow_scratch_size(a.n, a.m, &bytes);
  mem = xalloc(bytes);
  dnnmem_flow_init(&file_net, a.n, a.m, mem, bytes);
  for (i = 0; i < a.m; i++) dnnmem_flow_add_arc(&file_net, a.from[i], a.to[i], a.cap[i], 0, NULL);
  bk_file = time_solve(&file_net, s, t, DNNMEM_FLOW_BK, &v_file);
  free(mem);
  snprintf(path, sizeof path, "%s/bench_flow_%s.max", build_dir, name);
  boost = write_dimacs(path, &a) ? run_boost(build_dir, path, &boost_flow, NULL) : -1;
  if (!getenv("BENCH_KEEP_DIMACS")) remove(path); /* up to ~90 MB each */
  printf("| %s | %d | %d | %d | %lld | %.3f | %.3f | %.3f | ", name, a.n, native->num_arcs, a.m,
         (long long)v_bk, bk, pr, bk_file);
  if (boost >= 0)
    printf("%.3f | %.2fx | %s |\n", boost, boost / bk_file,
           v_bk == v_pr && v_bk == v_file && boost_flow == (long long)v_bk ? "yes" : "NO");
  else
    printf("n/a | | %s |\n", v_bk == v_pr && v_bk == v_file ? "yes" : "NO");
  fflush(stdout);
  free(a.from);
  free(a.to);
  free(a.cap);
}

#ifdef DNNMEM_PLACE_ANY
/* 1 when dnnmem_place_solve accepts the graph (test files include bad ones). */
static int graph_placeable(bench_graph *g) {
  dnnmem_graph graph;
  dnnmem_place_problem p;
  dnnmem_place_result r;
  size_t bytes = 0;
  void *mem;
  uint8_t *dev;
  int ok;
  graph_problem(g, &graph, &p);
  if (dnnmem_place_solve_scratch_size(&p, NULL, &bytes) != DNNMEM_OK) return 0;
  mem = xalloc(bytes);
  dev = (uint8_t *)xalloc((size_t)g->n);
  ok = dnnmem_place_solve(&p, NULL, dev, &r, mem, bytes) == DNNMEM_OK;
  free(mem);
  free(dev);
  return ok;
}

/* Model graphs chained into one placement problem, with its scratch and
   device answer (bench_dnn and bench_place_r18). */
typedef struct placed_chain {
  bench_graph big;
  dnnmem_graph graph;
  dnnmem_place_problem p;
  dnnmem_place_result r, built;
  dnnmem_flow net;
  size_t bytes;
  void *mem;
  uint8_t *dev;
} placed_chain;

static void chain_start(placed_chain *ch) {
  memset(ch, 0, sizeof(*ch));
  graph_reserve(&ch->big, 1, 1);
  ch->big.offsets[0] = 0;
}

/* The problem of the chain appended so far, its scratch and answer; 0 when refused. */
static int chain_ready(placed_chain *ch) {
  graph_problem(&ch->big, &ch->graph, &ch->p);
  if (dnnmem_place_solve_scratch_size(&ch->p, NULL, &ch->bytes) != DNNMEM_OK) return 0;
  ch->mem = xalloc(ch->bytes);
  ch->dev = (uint8_t *)xalloc((size_t)ch->big.n);
  return 1;
}

static void chain_free(placed_chain *ch) {
  free(ch->mem);
  free(ch->dev);
  graph_free(&ch->big);
}

/* Model graphs chained (inference graphs in name order, round robin) to at
   least target ops; the placement network of the result. */
static int bench_dnn(const char *models, int32_t target, const char *build_dir) {
  static const char *const skip[] = {".train.", "_bad", NULL}; /* inference graphs only */
  size_t count = 0, i = 0;
  char **names = bench_list(models, ".graph.csv", skip, &count);
  placed_chain ch;
  bench_graph g;
  double t0, place_s;
  char name[64];
  int32_t k;
  if (!count) return 0;
  chain_start(&ch);
  while (ch.big.n < target) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", models, names[i % count]);
    if (graph_read(path, &g) && graph_placeable(&g)) graph_append(&ch.big, &g);
    graph_free(&g);
    i++;
    if (i == count && ch.big.n == 0) return 0; /* no usable graph */
  }
  if (!chain_ready(&ch)) return 0;
  t0 = bench_now_ms() / 1e3;
  if (dnnmem_place_solve(&ch.p, NULL, ch.dev, &ch.r, ch.mem, ch.bytes) != DNNMEM_OK) {
    printf("| dnn | placement failed | |\n");
    return 0;
  }
  place_s = bench_now_ms() / 1e3 - t0;
  if (dnnmem_place_network(&ch.p, NULL, &ch.net, &ch.built, ch.mem, ch.bytes) != DNNMEM_OK) return 0;
  snprintf(name, sizeof name, "dnn%dk", ch.big.n / 1000);
  bench_network(name, &ch.net, 0, 1, build_dir);
  /* the same graph with no op pinned: pins and unsupported devices become
     a 100 s penalty, so every op is a network node (a harder, bigger DAG) */
  for (k = 0; k < ch.big.n; k++) {
    if (ch.big.device[k] == DNNMEM_PLACE_CPU || ch.big.acc[k] < 0) ch.big.acc[k] = 100000000000LL;
    if (ch.big.device[k] == DNNMEM_PLACE_ACC || ch.big.cpu[k] < 0) ch.big.cpu[k] = 100000000000LL;
    ch.big.device[k] = DNNMEM_PLACE_ANY;
  }
  if (dnnmem_place_network(&ch.p, NULL, &ch.net, &ch.built, ch.mem, ch.bytes) != DNNMEM_OK) return 0;
  snprintf(name, sizeof name, "dnn%dk-unpinned", ch.big.n / 1000);
  bench_network(name, &ch.net, 0, 1, build_dir);
  printf("\nplacement of the %d-op chained graph (%zu model copies): optimum %.1f us, all-acc %.1f us "
         "(%+.1f%%), greedy %.1f us; dnnmem_place_solve total %.3f s\n",
         ch.big.n, i, (double)ch.r.time / 1e3, (double)ch.r.all_acc_time / 1e3,
         100.0 * ((double)ch.r.all_acc_time / (double)ch.r.time - 1.0), (double)ch.r.greedy_time / 1e3, place_s);
  chain_free(&ch);
  bench_list_free(names, count);
  return 1;
}

/* ---- 3. placement of resnet18.dec chained to 1M ops: 0.1.0 and Boost ----- */

/* A time in ns as the graph CSV writes microseconds ("inf": unsupported). */
static void write_us(FILE *f, int64_t ns) {
  if (ns < 0) fprintf(f, "inf");
  else fprintf(f, "%lld.%03lld", (long long)(ns / 1000), (long long)(ns % 1000));
}

/* The graph as a graph CSV both tools read (place's columns). */
static int write_graph_csv(const char *path, const bench_graph *g) {
  static const char *const dev[3] = {"any", "cpu", "acc"};
  FILE *f = fopen(path, "w");
  int32_t v, k;
  if (!f) return 0;
  fprintf(f, "# written by tests/bench_flow.c\nid,name,op,size,time,cpu_time,acc_time,device,xfer,output,inputs\n");
  for (v = 0; v < g->n; v++) {
    int64_t c = g->cpu[v], a = g->acc[v];
    fprintf(f, "%d,v%d,%s,4,", v, v, g->is_input[v] ? "input" : "op");
    write_us(f, c < 0 ? a : a < 0 ? c : c < a ? c : a);
    fputc(',', f);
    write_us(f, c);
    fputc(',', f);
    write_us(f, a);
    fprintf(f, ",%s,", dev[g->device[v] <= 2 ? g->device[v] : 0]);
    write_us(f, g->xfer[v]);
    fprintf(f, ",%d,", g->output[v] ? 1 : 0);
    for (k = g->offsets[v]; k < g->offsets[v + 1]; k++) fprintf(f, k > g->offsets[v] ? " %d" : "%d", g->ids[k]);
    fputc('\n', f);
  }
  return fclose(f) == 0;
}

/* The problem as tests/place_solve.c reads it. */
static int write_place_dump(const char *path, const bench_graph *g) {
  FILE *f = fopen(path, "w");
  int32_t v, k;
  if (!f) return 0;
  fprintf(f, "%d\n", g->n);
  for (v = 0; v < g->n; v++) {
    fprintf(f, "%lld %lld %lld %d %d %d", (long long)g->cpu[v], (long long)g->acc[v], (long long)g->xfer[v],
            g->device[v], g->output[v] ? 1 : 0, g->offsets[v + 1] - g->offsets[v]);
    for (k = g->offsets[v]; k < g->offsets[v + 1]; k++) fprintf(f, " %d", g->ids[k]);
    fputc('\n', f);
  }
  return fclose(f) == 0;
}

/* place_solve (tests/place_solve.c) of one build on the dump: its least CPU
   ms of 3 solves in reused scratch (< 0 when absent or failing), *first the
   wall ms of its first solve in fresh scratch, *optimum the optimum. */
static double run_place_solve(const char *exe, const char *dump, double *first, long long *optimum) {
  char cmd[2400], out[512];
  double cpu = -1;
  FILE *p;
  snprintf(cmd, sizeof cmd, "'%s' '%s' 3 2>/dev/null", exe, dump);
  if ((p = run_if_built(exe, cmd)) == NULL) return -1;
  if (!fgets(out, sizeof out, p) || sscanf(out, "%lld %lf %lf", optimum, first, &cpu) != 3) cpu = -1;
  pclose(p);
  return cpu;
}

/* A tool's `place --json` on the file: its time_ms (< 0 when the tool is
   absent or fails) and the optimum (ns). */
static double run_place(const char *tool, const char *file, long long *optimum) {
  char cmd[2400], out[8192];
  const char *at;
  double ms = -1;
  FILE *p;
  snprintf(cmd, sizeof cmd, "'%s' place --json '%s' 2>/dev/null", tool, file);
  if ((p = run_if_built(tool, cmd)) == NULL) return -1;
  out[0] = 0;
  if (!fgets(out, sizeof out, p)) out[0] = 0;
  pclose(p);
  if ((at = strstr(out, "\"time\": ")) != NULL) *optimum = atoll(at + 8);
  if ((at = strstr(out, "\"time_ms\": ")) != NULL) ms = atof(at + 11);
  return ms;
}

/* resnet18.dec chained to >= target ops (each copy's input reads the last
   copy's output, as bench_dnn chains): dnnmem_place_solve against 0.1.0's
   tool (build/v0.1.0/dnnmem, from the git history) and against Boost's BK
   on the same network: the least of 5 interleaved rounds (Boost: of 3). */
static void bench_place_r18(const char *models, int32_t target, const char *build_dir) {
  placed_chain ch;
  bench_graph g;
  double solve = 1e30, solve_cpu = 1e30, tool = 1e30, old = 1e30, boost = -1, boost_cpu = -1;
  double cpu_new = 1e30, cpu_old = 1e30, first_new = 1e30, first_old = 1e30, net_cpu = 1e30, cut_cpu = 1e30;
  long long opt_tool = -1, opt_old = -1, boost_flow = -1, opt_cpu_new = -1, opt_cpu_old = -1;
  char path[1200], csv[1200], tool_path[1200], old_path[1200], dump[1200], ps_new[1200], ps_old[1200];
  int i, agree;
  dnnmem_flow_options cut_only; /* as placement solves it */
  memset(&cut_only, 0, sizeof(cut_only));
  cut_only.cut_only = 1;
  snprintf(path, sizeof path, "%s/resnet18.dec.graph.csv", models);
  if (!graph_read(path, &g)) return;
  chain_start(&ch);
  while (ch.big.n < target) graph_append(&ch.big, &g);
  graph_free(&g);
  if (!chain_ready(&ch)) return;
  snprintf(csv, sizeof csv, "%s/bench_flow_resnet18x.graph.csv", build_dir);
  snprintf(tool_path, sizeof tool_path, "%s/dnnmem", build_dir);
  snprintf(old_path, sizeof old_path, "%s/v0.1.0/dnnmem", build_dir);
  if (!write_graph_csv(csv, &ch.big)) csv[0] = 0;
  snprintf(dump, sizeof dump, "%s/bench_flow_resnet18x.place", build_dir);
  snprintf(ps_new, sizeof ps_new, "%s/place_solve", build_dir);
  snprintf(ps_old, sizeof ps_old, "%s/v0.1.0/place_solve", build_dir);
  if (!write_place_dump(dump, &ch.big)) dump[0] = 0;
  for (i = 0; i < 5; i++) { /* rounds: each tool and timer once, interleaved */
    double t0 = bench_now_ms(), c0 = bench_cpu_ms(), t;
    if (dnnmem_place_solve(&ch.p, NULL, ch.dev, &ch.r, ch.mem, ch.bytes) != DNNMEM_OK) {
      printf("placement failed\n");
      return;
    }
    t = bench_cpu_ms() - c0;
    if (t < solve_cpu) solve_cpu = t;
    t = bench_now_ms() - t0;
    if (t < solve) solve = t;
    c0 = bench_cpu_ms(); /* its parts: the network, then its cut alone */
    if (dnnmem_place_network(&ch.p, NULL, &ch.net, &ch.built, ch.mem, ch.bytes) != DNNMEM_OK) return;
    t = bench_cpu_ms() - c0;
    if (t < net_cpu) net_cpu = t;
    c0 = bench_cpu_ms();
    if (dnnmem_flow_solve(&ch.net, 0, 1, &cut_only, NULL) != DNNMEM_OK || ch.net.value != ch.r.cut) return;
    t = bench_cpu_ms() - c0;
    if (t < cut_cpu) cut_cpu = t;
    if (csv[0]) {
      t = run_place(tool_path, csv, &opt_tool);
      if (t >= 0 && t < tool) tool = t;
      t = run_place(old_path, csv, &opt_old);
      if (t >= 0 && t < old) old = t;
    }
    if (dump[0]) {
      double first = -1;
      t = run_place_solve(ps_new, dump, &first, &opt_cpu_new);
      if (t >= 0 && t < cpu_new) cpu_new = t;
      if (t >= 0 && first < first_new) first_new = first;
      t = run_place_solve(ps_old, dump, &first, &opt_cpu_old);
      if (t >= 0 && t < cpu_old) cpu_old = t;
      if (t >= 0 && first < first_old) first_old = first;
    }
  }
  if (csv[0] && !getenv("BENCH_KEEP_DIMACS")) remove(csv);
  if (dump[0] && !getenv("BENCH_KEEP_DIMACS")) remove(dump);
  if (dnnmem_place_network(&ch.p, NULL, &ch.net, &ch.built, ch.mem, ch.bytes) == DNNMEM_OK) {
    arc_list a;
    arcs_from_flow(&ch.net, 0, 1, &a);
    snprintf(path, sizeof path, "%s/bench_flow_resnet18x.max", build_dir);
    if (write_dimacs(path, &a)) {
      char files[4000];
      snprintf(files, sizeof files, "%s' '%s' '%s", path, path, path); /* best of 3 */
      boost = run_boost(build_dir, files, &boost_flow, &boost_cpu);
    }
    if (!getenv("BENCH_KEEP_DIMACS")) remove(path);
    free(a.from);
    free(a.to);
    free(a.cap);
  }
  agree = (opt_tool < 0 || opt_tool == (long long)ch.r.time) && (opt_old < 0 || opt_old == (long long)ch.r.time) &&
          (opt_cpu_new < 0 || opt_cpu_new == (long long)ch.r.time) && (opt_cpu_old < 0 || opt_cpu_old == (long long)ch.r.time) &&
          (boost_flow < 0 || boost_flow == (long long)ch.r.cut);
  printf("### Placement of resnet18.dec chained to %d ops (ms, least of 5 rounds, Boost of 3; same machine, same run)\n\n", ch.big.n);
  printf("| what | ms | ratio |\n|---|---|---|\n");
  if (cpu_old < 1e30 && cpu_new < 1e30) {
    printf("| CPU time: 0.1.0's dnnmem_place_solve (tests/place_solve.c, scratch reused) | %.1f | 1 |\n", cpu_old);
    printf("| CPU time: this dnnmem_place_solve (same program) | %.1f | %.2fx 0.1.0 |\n", cpu_new, cpu_new / cpu_old);
    printf("| wall: 0.1.0's first solve in fresh scratch (page faults timed) | %.1f | 1 |\n", first_old);
    printf("| wall: this first solve in fresh scratch | %.1f | %.2fx 0.1.0 |\n", first_new, first_new / first_old);
  }
  if (old > 0 && old < 1e30) {
    printf("| wall: 0.1.0's tool: place --json time_ms | %.1f | 1 |\n", old);
    printf("| wall: this tool: place --json time_ms | %.1f | %.2fx 0.1.0 |\n", tool, tool / old);
  } else {
    printf("| 0.1.0's tool | n/a (make build/v0.1.0/dnnmem needs the git history) | |\n");
    if (tool < 1e30) printf("| this tool: place --json time_ms | %.1f | |\n", tool);
  }
  if (boost > 0) {
    printf("| Boost BK solve on its network (DIMACS, graph built untimed) | %.1f | 1 |\n", boost * 1e3);
    printf("| dnnmem_place_solve, scratch touched before (validation, network, cut, recount) | %.1f | %.3fx Boost |\n",
           solve, solve / (boost * 1e3));
    if (tool < 1e30) printf("| this tool's time_ms (fresh scratch: page faults timed) | %.1f | %.3fx Boost |\n", tool, tool / (boost * 1e3));
    printf("| CPU time: Boost BK solve | %.1f | 1 |\n", boost_cpu * 1e3);
    printf("| CPU time: dnnmem_place_solve, scratch touched before | %.1f | %.3fx Boost |\n", solve_cpu,
           solve_cpu / (boost_cpu * 1e3));
    printf("| CPU time, its network alone: dnnmem_place_network (validation, network from the graph) | %.1f | %.3fx Boost |\n",
           net_cpu, net_cpu / (boost_cpu * 1e3));
    printf("| CPU time, its cut alone: dnnmem_flow_solve on that network (cut_only as placement: adjacency, reduction, BK) | %.1f | %.3fx Boost |\n",
           cut_cpu, cut_cpu / (boost_cpu * 1e3));
  } else {
    printf("| Boost | n/a (build/bench_boost needs libboost-graph-dev) | |\n");
    printf("| dnnmem_place_solve, scratch touched before | %.1f | |\n", solve);
  }
  printf("\noptimum %.3f us, %d network nodes, %d arcs; optimum and cut the same in every solver: %s\n\n",
         (double)ch.r.time / 1e3, ch.r.flow_nodes, ch.r.flow_arcs, agree ? "yes" : "NO");
  chain_free(&ch);
}

#endif

/* width x height pixels, 4-connected, random capacities (vision-style). */
static void bench_grid(int32_t width, int32_t height, const char *build_dir) {
  int32_t n = width * height + 2, s = width * height, t = s + 1, x, y;
  int32_t m = width * height + (width - 1) * height + width * (height - 1);
  dnnmem_flow f;
  dnnmem_rng rng;
  size_t bytes = 0;
  void *mem;
  char name[64];
  dnnmem_flow_scratch_size(n, m, &bytes);
  mem = xalloc(bytes);
  dnnmem_flow_init(&f, n, m, mem, bytes);
  dnnmem_rng_seed(&rng, 1);
  for (y = 0; y < height; y++)
    for (x = 0; x < width; x++) {
      int32_t v = y * width + x;
      int64_t c = (int64_t)dnnmem_rng_below(&rng, 201) - 100;
      if (c > 0) dnnmem_flow_add_arc(&f, s, v, c, 0, NULL);
      else dnnmem_flow_add_arc(&f, v, t, -c, 0, NULL);
      if (x + 1 < width) {
        int64_t a = (int64_t)dnnmem_rng_below(&rng, 50), b = (int64_t)dnnmem_rng_below(&rng, 50);
        dnnmem_flow_add_arc(&f, v, v + 1, a, b, NULL);
      }
      if (y + 1 < height) {
        int64_t a = (int64_t)dnnmem_rng_below(&rng, 50), b = (int64_t)dnnmem_rng_below(&rng, 50);
        dnnmem_flow_add_arc(&f, v, v + width, a, b, NULL);
      }
    }
  snprintf(name, sizeof name, "grid%dx%d", width, height);
  bench_network(name, &f, s, t, build_dir);
  free(mem);
}

int main(int argc, char **argv) {
  int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
  int place_only = argc > 1 && strcmp(argv[1], "--place") == 0;
  char build_dir[1024];
  const char *slash = strrchr(argv[0], '/');
  if (slash) snprintf(build_dir, sizeof build_dir, "%.*s", (int)(slash - argv[0]), argv[0]);
  else snprintf(build_dir, sizeof build_dir, ".");
  printf("## bench_flow: min-cut placement and max flow (wall-clock; shared machine, expect 10-20%% noise)\n\n");
#ifdef DNNMEM_PLACE_ANY
  if (!place_only && !bench_models("../shared/data/models")) bench_models("tests/data");
  bench_place_r18("tests/data", quick ? 200000 : 1000000, build_dir);
  if (place_only) return 0;
#endif
  printf("### Max flow on big networks (seconds; 'file' = the network as its DIMACS file lists it,\n"
         "one arc per line with a zero reverse arc, which is what Boost solves)\n\n");
  printf("| network | nodes | arc pairs | file arcs | flow | BK | PR | BK file | Boost BK file | Boost/ours | agree |\n");
  printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
  fflush(stdout);
  bench_grid(quick ? 300 : 1000, quick ? 300 : 1000, build_dir);
#ifdef DNNMEM_PLACE_ANY
  if (!bench_dnn("../shared/data/models", quick ? 200000 : 1000000, build_dir))
    bench_dnn("tests/data", quick ? 200000 : 1000000, build_dir);
#endif
  return 0;
}

/* bench_plan_exact: the exact planner on minimalloc's challenging instances
   (at the best known capacity, and minimising), on constructed instances
   with a known optimum, and on the model interval files.
   Reads ../shared/data/ when present; skips silently otherwise. */
#include "bench.h"

typedef struct run_out {
  dnnmem_plan_result o;
  double ms;
  int valid;
} run_out;

/* dnnmem_plan with the exact strategy; the plan is verified by
   dnnmem_plan_check (outside the timing). capacity 0: minimise. */
static run_out run(const dnnmem_interval *r, int32_t n, int64_t capacity, int64_t node_limit) {
  run_out out;
  size_t bytes = 0, check_bytes = 0;
  void *scratch;
  int64_t *off = (int64_t *)calloc((size_t)n + 1, sizeof(int64_t)), arena = -1;
  int32_t pair[2];
  dnnmem_intervals problem;
  dnnmem_plan_options opt;
  double t0;
  problem.records = r, problem.count = n, problem.alignment = 0;
  memset(&opt, 0, sizeof opt);
  memset(&out, 0, sizeof out);
  opt.algo = DNNMEM_PLAN_EXACT;
  opt.capacity = capacity;
  opt.node_limit = node_limit;
  dnnmem_plan_solve_scratch_size(&problem, &opt, &bytes);
  dnnmem_plan_check_scratch_size(&problem, &check_bytes);
  scratch = malloc(bytes > check_bytes ? bytes : check_bytes);
  t0 = bench_now_ms();
  if (dnnmem_plan_solve(&problem, &opt, off, &out.o, scratch, bytes) != DNNMEM_OK) out.o.arena = -2;
  out.ms = bench_now_ms() - t0;
  out.valid = out.o.arena >= 0 && dnnmem_plan_check(&problem, off, &arena, pair, scratch, check_bytes) == DNNMEM_OK &&
              arena == out.o.arena && (capacity == 0 || out.o.feasible != 1 || arena <= capacity);
  free(scratch);
  free(off);
  return out;
}

static const struct {
  const char *name;
  int64_t best;
  double minimalloc_s;
} challenging[] = {{"A", 1048576, 4.7}, {"B", 1048576, 3.7}, {"C", 1039360, 0.7},
                   {"D", 1031168, 2.9}, {"E", 1048576, 3.6}, {"F", 1048576, 5.2},
                   {"G", 1048576, 1.0}, {"H", 1048576, 1.5}, {"I", 1048576, 3.4},
                   {"J", 1041408, 0.8}, {"K", 1048576, 0.6}};

static const char *const model_files[] = {
    "deeplabv3_mobilenet_v3_large", "densenet121", "densenet121.train", "efficientnet_b0",
    "fcn_resnet50", "googlenet", "gpt2_small.dec", "gpt2_small", "gpt2_small.train",
    "gpt_mini.dec", "gpt_mini", "gpt_mini.train", "llama_32l", "lraspp_mobilenet_v3_large",
    "mnasnet1_0", "mobilenet_v2.dec", "mobilenet_v2", "mobilenet_v2.train",
    "mobilenet_v3_large", "mobilenet_v3_small", "resnet18.dec", "resnet18", "resnet18.train",
    "resnet50", "resnet50.train", "resnext50_32x4d", "squeezenet1_0", "vgg16", "vgg16.train",
    "vit_b_16.dec"};

/* Reads ../shared/data/DIR/NAME SUFFIX: the record count, or -1. */
static int32_t read_data(const char *dir, const char *name, const char *suffix, dnnmem_interval **r) {
  char path[512];
  snprintf(path, sizeof path, "../shared/data/%s/%s%s", dir, name, suffix);
  return ref_plan_read_csv(path, r);
}

int main(int argc, char **argv) {
  int32_t k;
  double total_ms = 0, total_mm = 0;
  int64_t limit = argc > 1 ? atoll(argv[1]) : 20000000;
  printf("## exact planning: minimalloc challenging instances at the best known capacity\n\n");
  printf("(dnnmem_plan, algo exact, options.capacity; node limit %lld; wall times on a shared 2-core machine)\n\n",
         (long long)limit);
  printf("| file | n | max load | capacity | feasible | nodes | ms | minimalloc s |\n");
  printf("|---|---|---|---|---|---|---|---|\n");
  for (k = 0; k < 11; k++) {
    dnnmem_interval *r = NULL;
    int32_t n = read_data("minimalloc/challenging", challenging[k].name, ".1048576.csv", &r);
    run_out o;
    if (n < 0) continue;
    o = run(r, n, challenging[k].best, limit);
    total_ms += o.ms;
    total_mm += challenging[k].minimalloc_s;
    printf("| %s | %d | %lld | %lld | %s%s | %lld | %.0f | %.1f |\n", challenging[k].name, n,
           (long long)o.o.lower_bound, (long long)challenging[k].best,
           o.o.feasible == 1 ? "yes" : o.o.feasible == 0 ? "no" : "unknown",
           o.valid ? "" : " INVALID", (long long)o.o.nodes, o.ms, challenging[k].minimalloc_s);
    free(r);
  }
  printf("\ntotal: %.2f s (minimalloc: %.1f s)\n", total_ms / 1e3, total_mm);

  printf("\n## exact planning: minimising the arena (D and J: best known 1031168, 1041408)\n\n");
  printf("| file | lower bound | arena | optimal | nodes | ms |\n|---|---|---|---|---|---|\n");
  for (k = 0; k < 11; k++) {
    dnnmem_interval *r = NULL;
    int32_t n;
    run_out o;
    if (!strchr("CDJ", challenging[k].name[0])) continue;
    if ((n = read_data("minimalloc/challenging", challenging[k].name, ".1048576.csv", &r)) < 0) continue;
    o = run(r, n, 0, limit / 4);
    printf("| %s | %lld | %lld%s | %s | %lld | %.0f |\n", challenging[k].name,
           (long long)o.o.lower_bound, (long long)o.o.arena, o.valid ? "" : " INVALID",
           o.o.optimal ? "yes" : "no", (long long)o.o.nodes, o.ms);
    free(r);
  }

  printf("\n## exact planning: constructed instances (a rectangle cut into buffers; optimum known)\n\n");
  printf("| buffers | optimum | arena | optimal | nodes | ms |\n|---|---|---|---|---|---|\n");
  {
    static const int32_t sizes[] = {50, 100, 200, 300, 400};
    dnnmem_rng rng;
    dnnmem_rng_seed(&rng, 2026);
    for (k = 0; k < 5; k++) {
      dnnmem_interval *r = (dnnmem_interval *)calloc((size_t)sizes[k], sizeof(*r));
      int32_t n = ref_plan_tiling(&rng, r, sizes[k], 1000, 1024 * 1024, 1024);
      run_out o = run(r, n, 0, limit);
      printf("| %d | %d | %lld%s | %s | %lld | %.0f |\n", n, 1024 * 1024, (long long)o.o.arena,
             o.valid ? "" : " INVALID", o.o.optimal ? "yes" : "no", (long long)o.o.nodes, o.ms);
      free(r);
    }
  }

  printf("\n## exact planning: model interval files (minimising)\n\n");
  printf("| file | n | lower bound | arena | optimal | nodes | ms |\n|---|---|---|---|---|---|---|\n");
  for (k = 0; k < (int32_t)(sizeof(model_files) / sizeof(model_files[0])); k++) {
    dnnmem_interval *r = NULL;
    int32_t n;
    run_out o;
    if ((n = read_data("models", model_files[k], ".intervals.csv", &r)) < 0) continue;
    o = run(r, n, 0, limit);
    printf("| %s | %d | %lld | %lld%s | %s | %lld | %.0f |\n", model_files[k], n,
           (long long)o.o.lower_bound, (long long)o.o.arena, o.valid ? "" : " INVALID",
           o.o.optimal ? "yes" : "no", (long long)o.o.nodes, o.ms);
    free(r);
  }
  return 0;
}

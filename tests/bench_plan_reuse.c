/* make bench: in-place reuse on the inference graphs (*.graph.csv of
   ../shared/data/models without .train, else tests/data): the best plan
   without reuse, the plan with element-wise ops declared in place (plan
   --inplace elementwise: files_intervals_inplace), the saving, and the
   plan against the reuse-aware lower bound; then the exact search (10 s)
   where best leaves a gap. Every plan is checked by the recount of
   tests/ref.h. */
#include "bench.h"

static int64_t plan(const dnnmem_intervals *p, dnnmem_plan_algo algo, double seconds, dnnmem_plan_result *res,
                    double *ms) {
  dnnmem_plan_options opt;
  int64_t *off = (int64_t *)malloc(((size_t)p->count + 1) * sizeof(int64_t)), arena;
  size_t bytes = 0;
  void *mem;
  double deadline = 0;
  (void)deadline;
  memset(&opt, 0, sizeof opt);
  opt.algo = algo;
  if (seconds > 0) opt.node_limit = (int64_t)(seconds * 200000);
  if (dnnmem_plan_solve_scratch_size(p, &opt, &bytes) != DNNMEM_OK) abort();
  mem = malloc(bytes ? bytes : 1);
  *ms = bench_now_ms();
  if (dnnmem_plan_solve(p, &opt, off, res, mem, bytes) != DNNMEM_OK) abort();
  *ms = bench_now_ms() - *ms;
  arena = ref_plan_tied_recount(p, off);
  if (arena != res->arena) {
    fprintf(stderr, "plan fails its recount\n");
    exit(1);
  }
  free(mem);
  free(off);
  return arena;
}

int main(void) {
  const char *dir = "../shared/data/models";
  static const char *const skip[] = {".train", NULL};
  size_t count, k;
  char **names = bench_list(dir, ".graph.csv", skip, &count);
  double sum_saving = 0;
  int rows = 0, at_bound = 0;
  if (count == 0) dir = "tests/data", names = bench_list(dir, ".graph.csv", skip, &count);
  printf("In-place reuse (plan --inplace elementwise), best; exact where best leaves a gap (2M nodes)\n");
  printf("%-34s %6s %6s %6s %12s %12s %7s %12s %6s %9s\n", "graph", "n", "links", "used", "no reuse", "in place",
         "saving", "bound", "gap", "ms");
  for (k = 0; k < count; k++) {
    char path[1024];
    files_intervals iv;
    files_error err;
    dnnmem_plan_result res0, res1;
    int64_t a0, a1;
    int32_t links;
    double ms0, ms1, saving;
    snprintf(path, sizeof path, "%s/%s", dir, names[k]);
    if (files_read_intervals(path, 0, &iv, &err) != 0) {
      files_error_print(stderr, &err);
      continue;
    }
    if (iv.n < 2) {
      files_intervals_free(&iv);
      continue;
    }
    a0 = plan(&iv.problem, DNNMEM_PLAN_BEST, 0, &res0, &ms0);
    links = files_intervals_inplace(&iv, files_elementwise_ops);
    a1 = plan(&iv.problem, DNNMEM_PLAN_BEST, 0, &res1, &ms1);
    if (!res1.optimal) {
      dnnmem_plan_result res2;
      double ms2;
      int64_t a2 = plan(&iv.problem, DNNMEM_PLAN_EXACT, 10, &res2, &ms2);
      ms1 += ms2;
      if (a2 < a1) a1 = a2, res1 = res2;
    }
    saving = a0 > 0 ? 100.0 * (double)(a0 - a1) / (double)a0 : 0;
    sum_saving += saving;
    rows++;
    at_bound += a1 == res1.lower_bound;
    printf("%-34s %6d %6d %6d %12lld %12lld %6.1f%% %12lld %5.2f%% %9.2f\n", names[k], iv.n, links, res1.reused,
           (long long)a0, (long long)a1, saving, (long long)res1.lower_bound,
           res1.lower_bound ? 100.0 * (double)(a1 - res1.lower_bound) / (double)res1.lower_bound : 0.0, ms0 + ms1);
    files_intervals_free(&iv);
  }
  if (rows)
    printf("%d graphs: mean saving %.1f%%; %d of %d at the reuse-aware lower bound\n", rows, sum_saving / rows,
           at_bound, rows);
  bench_list_free(names, count);
  return 0;
}

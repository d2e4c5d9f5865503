/* make bench: in-place reuse on the inference graphs (*.graph.csv of
   ../shared/data/models without .train, else tests/data): the best plan
   without reuse, the plan with element-wise ops declared in place (plan
   --inplace elementwise: files_intervals_inplace), the saving, and the
   plan against the reuse-aware lower bound; then the exact search (10 s)
   where best leaves a gap. Then the same over two pools (SRAM of 25% and
   50% of the arena without reuse, cost 1; DRAM unbounded, cost 10; best,
   at most 10 s): the share of the bytes kept in SRAM without and with
   reuse, and the cost against the links-aware bound. Every plan is
   checked by the recount of tests/ref.h. */
#include "bench.h"

static int deadline_passed(void *user) { return bench_now_ms() >= *(const double *)user; }

/* Plans SRAM (capacity, cost 1) beside DRAM (unbounded, cost 10); returns
   the bytes planned into SRAM, the result in *res. */
static int64_t pools(const dnnmem_intervals *p, int64_t capacity, dnnmem_plan_pools_result *res, double *ms) {
  dnnmem_pool pool[2];
  dnnmem_plan_pools pp;
  dnnmem_plan_pools_options o;
  int32_t *pool_of = (int32_t *)calloc((size_t)p->count + 1, sizeof(int32_t)), i;
  int64_t *off = (int64_t *)calloc((size_t)p->count + 1, sizeof(int64_t)), sram = 0;
  size_t bytes = 0;
  double deadline;
  void *mem;
  memset(pool, 0, sizeof pool);
  pool[0].capacity = capacity, pool[0].cost = 1, pool[1].cost = 10;
  memset(&pp, 0, sizeof pp);
  pp.intervals = p, pp.pools = pool, pp.num_pools = 2;
  memset(&o, 0, sizeof o);
  o.stop = deadline_passed, o.stop_user = &deadline;
  if (dnnmem_plan_pools_solve_scratch_size(&pp, &o, &bytes) != DNNMEM_OK) abort();
  mem = malloc(bytes ? bytes : 1);
  *ms = bench_now_ms();
  deadline = *ms + 10e3;
  if (dnnmem_plan_pools_solve(&pp, &o, pool_of, off, NULL, res, mem, bytes) != DNNMEM_OK) abort();
  *ms = bench_now_ms() - *ms;
  if (ref_pools_recount(&pp, pool_of, off, NULL) != res->cost) {
    fprintf(stderr, "pools plan fails its recount\n");
    exit(1);
  }
  for (i = 0; i < p->count; i++)
    if (pool_of[i] == 0) sram += p->records[i].size;
  free(mem), free(pool_of), free(off);
  return sram;
}

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
  double sum_saving = 0, kept[2][2] = {{0, 0}, {0, 0}};
  int rows = 0, at_bound = 0, proved[2] = {0, 0};
  static char pools_table[1 << 15];
  size_t used = 0;
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
    {
      int64_t total = 0, sram[2][2];
      dnnmem_plan_pools_result pr[2][2];
      double pms[2][2];
      int32_t i, share, with;
      for (i = 0; i < iv.n; i++) total += iv.records[i].size;
      for (with = 0; with < 2; with++) {
        if (with) files_intervals_inplace(&iv, files_elementwise_ops);
        for (share = 0; share < 2; share++)
          sram[with][share] = pools(&iv.problem, a0 * (share ? 50 : 25) / 100, &pr[with][share], &pms[with][share]);
      }
      for (share = 0; share < 2; share++) {
        used += (size_t)snprintf(pools_table + used, sizeof pools_table - used,
                                 "%-34s %4d%% %9.2f%% %9.2f%% %13lld %13lld %13lld %9s %9.0f\n", names[k],
                                 share ? 50 : 25, 100.0 * (double)sram[0][share] / (double)total,
                                 100.0 * (double)sram[1][share] / (double)total, (long long)pr[0][share].cost,
                                 (long long)pr[1][share].cost, (long long)pr[1][share].lower_bound,
                                 pr[1][share].optimal ? "proved" : dnnmem_plan_stop_name(pr[1][share].stop),
                                 pms[0][share] + pms[1][share]);
        if (used >= sizeof pools_table) used = sizeof pools_table - 1;
        kept[share][0] += (double)sram[0][share] / (double)total;
        kept[share][1] += (double)sram[1][share] / (double)total;
        proved[share] += pr[1][share].optimal;
      }
    }
    links = iv.links;
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
  printf("\nIn-place reuse over two pools: SRAM (cost 1) of 25%% / 50%% of the arena without reuse, DRAM (cost 10)\n"
         "%-34s %5s %10s %10s %13s %13s %13s %9s %9s\n%s", "graph", "SRAM", "kept", "in place", "cost", "in place",
         "bound", "stop", "ms", pools_table);
  if (rows)
    printf("mean bytes kept in SRAM: 25%%: %.2f%% -> %.2f%% (%d of %d proven), 50%%: %.2f%% -> %.2f%% (%d of %d proven)\n",
           100 * kept[0][0] / rows, 100 * kept[0][1] / rows, proved[0], rows, 100 * kept[1][0] / rows,
           100 * kept[1][1] / rows, proved[1], rows);
  bench_list_free(names, count);
  return 0;
}

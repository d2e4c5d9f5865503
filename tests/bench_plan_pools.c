/* bench_plan_pools: two-pool plans (SRAM at 25%, 50% and 75% of the
   single-arena plan, cost 1 per byte; DRAM unbounded, cost 10) on the
   inference models of ../shared/data/models (or $DNNMEM_DATA; training and
   decomposed graphs left out): the bytes kept in SRAM by TVM USMP's greedy
   (greedy), ours on top (improve) and the exact search (at most
   $POOLS_SECONDS, default 10 s, per plan), against the most the fractional
   bound allows (cost = 10 x all bytes - 9 x SRAM bytes, so the cost bound
   caps the SRAM bytes) and the most the exact search leaves possible (its
   proof, else the bound); means per SRAM share; every plan checked by the
   oracle's recount; wall times on a shared machine (noisy). Then why not:
   SRAM of 50% and DRAM of 40% of the single-arena plan, both bounded (no
   plan: the peak does not fit), and the conflict set that says why
   (dnnmem_plan_pools_conflict: its size, minimal or not, time). */
#include "bench.h"

static char data_dir[512];

static int deadline_passed(void *user) { return bench_now_ms() >= *(const double *)user; }

typedef struct pools_run {
  dnnmem_plan_pools_result res;
  int64_t sram;  /* bytes of records in SRAM */
  double ms;
  int valid;
} pools_run;

static pools_run run(const dnnmem_plan_pools *p, dnnmem_plan_pools_algo algo, double seconds) {
  pools_run out;
  dnnmem_plan_pools_options o;
  size_t bytes = 0;
  int32_t n = p->intervals->count, i, *pool_of = (int32_t *)calloc((size_t)n + 1, sizeof(int32_t));
  int64_t *off = (int64_t *)calloc((size_t)n + 1, sizeof(int64_t));
  double t0, deadline;
  void *scratch;
  memset(&out, 0, sizeof out);
  memset(&o, 0, sizeof o);
  o.algo = algo;
  if (seconds > 0) o.stop = deadline_passed, o.stop_user = &deadline;
  dnnmem_plan_pools_solve_scratch_size(p, &o, &bytes);
  scratch = malloc(bytes);
  t0 = bench_now_ms();
  deadline = t0 + seconds * 1e3;
  if (dnnmem_plan_pools_solve(p, &o, pool_of, off, NULL, &out.res, scratch, bytes) == DNNMEM_OK) {
    out.ms = bench_now_ms() - t0;
    out.valid = ref_pools_recount(p, pool_of, off, NULL) == out.res.cost;
    for (i = 0; i < n; i++)
      if (pool_of[i] == 0) out.sram += p->intervals->records[i].size;
  } else {
    out.ms = bench_now_ms() - t0;
  }
  free(scratch), free(pool_of), free(off);
  return out;
}

static const char *stop_of(dnnmem_plan_stop s) { return dnnmem_plan_stop_name(s); }

int main(void) {
  const char *data = getenv("DNNMEM_DATA"), *sec = getenv("POOLS_SECONDS");
  const char *const skip[] = {".train.", ".dec.", NULL};
  double seconds = sec && *sec ? atof(sec) : 10, sum_gap[3] = {0, 0, 0}, mean[3][6];
  char dir[600];
  size_t count, i;
  char **names;
  int rows = 0, proved = 0, k;
  static char why[1 << 14];
  size_t why_used = 0;
  static const int percent[3] = {25, 50, 75};
  snprintf(data_dir, sizeof data_dir, "%s", data && *data ? data : "../shared/data");
  snprintf(dir, sizeof dir, "%s/models", data_dir);
  names = bench_list(dir, ".intervals.csv", skip, &count);
  printf("## pools: SRAM (cost 1) at a share of the single-arena plan, DRAM (cost 10, unbounded)\n\n"
         "SRAM bytes: the bytes of the records planned into SRAM (of all the records' bytes);\n"
         "bound: the most any plan can keep there by the fractional cost bound. exact: at most %.0f s.\n\n",
         seconds);
  memset(mean, 0, sizeof mean);
  printf("| model | n | SRAM | greedy | improve | exact | fractional bound | proven bound | exact stop | greedy ms | "
         "improve ms | exact ms |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (i = 0; i < count; i++) {
    dnnmem_interval *r = NULL;
    dnnmem_intervals iv;
    dnnmem_plan_options po;
    dnnmem_plan_result pr;
    char path[1024];
    int32_t n;
    int64_t total = 0, *off;
    size_t bytes = 0;
    void *scratch;
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    if ((n = ref_plan_read_csv(path, &r)) < 0) continue;
    iv.records = r, iv.count = n, iv.alignment = 0;
    memset(&po, 0, sizeof po);
    off = (int64_t *)calloc((size_t)n + 1, sizeof(int64_t));
    dnnmem_plan_solve_scratch_size(&iv, &po, &bytes);
    scratch = malloc(bytes);
    dnnmem_plan_solve(&iv, &po, off, &pr, scratch, bytes);
    free(scratch), free(off);
    for (k = 0; k < n; k++) total += r[k].size;
    for (k = 0; k < 3; k++) {
      dnnmem_pool pools[2];
      dnnmem_plan_pools p;
      pools_run g, im, ex;
      int64_t bound_sram, frac = 0, frac_sram;
      dnnmem_plan_pools_result bounded;
      size_t bb = 0;
      void *bs;
      memset(pools, 0, sizeof pools);
      pools[0].name = "sram", pools[0].capacity = pr.arena * percent[k] / 100, pools[0].cost = 1;
      pools[1].name = "dram", pools[1].capacity = 0, pools[1].cost = 10;
      memset(&p, 0, sizeof p);
      p.intervals = &iv, p.pools = pools, p.num_pools = 2;
      g = run(&p, DNNMEM_PLAN_POOLS_GREEDY, 0);
      im = run(&p, DNNMEM_PLAN_POOLS_IMPROVE, 0);
      ex = run(&p, DNNMEM_PLAN_POOLS_EXACT, seconds);
      dnnmem_plan_pools_lower_bound_scratch_size(&p, &bb);
      bs = malloc(bb);
      dnnmem_plan_pools_lower_bound(&p, &bounded, bs, bb);
      frac = bounded.lower_bound;
      free(bs);
      frac_sram = (10 * total - frac) / 9;
      bound_sram = (10 * total - ex.res.lower_bound) / 9;
      printf("| %s | %d | %d%% | %.1f%%%s | %.1f%%%s | %.1f%%%s | %.1f%% | %.1f%% | %s | %.1f | %.1f | %.0f |\n",
             names[i], n, percent[k], 100.0 * (double)g.sram / (double)total, g.valid ? "" : " INVALID",
             100.0 * (double)im.sram / (double)total, im.valid ? "" : " INVALID",
             100.0 * (double)ex.sram / (double)total, ex.valid ? "" : " INVALID",
             100.0 * (double)frac_sram / (double)total, 100.0 * (double)bound_sram / (double)total,
             stop_of(ex.res.stop), g.ms, im.ms, ex.ms);
      mean[k][0] += (double)g.sram / (double)total, mean[k][1] += (double)im.sram / (double)total;
      mean[k][2] += (double)ex.sram / (double)total, mean[k][3] += (double)frac_sram / (double)total;
      mean[k][4] += (double)bound_sram / (double)total, mean[k][5] += 1;
      sum_gap[0] += (double)(bound_sram - g.sram) / (double)total;
      sum_gap[1] += (double)(bound_sram - im.sram) / (double)total;
      sum_gap[2] += (double)(bound_sram - ex.sram) / (double)total;
      proved += ex.res.stop == DNNMEM_PLAN_STOP_PROVED;
      rows++;
    }
    { /* why not: both pools bounded below the peak */
      dnnmem_pool pools[2];
      dnnmem_plan_pools p;
      dnnmem_plan_conflict_result cr;
      int32_t *conflict = (int32_t *)calloc((size_t)n + 1, sizeof(int32_t));
      size_t cb = 0;
      void *cs;
      double t0;
      memset(pools, 0, sizeof pools);
      pools[0].capacity = pr.arena / 2, pools[0].cost = 1;
      pools[1].capacity = pr.arena * 2 / 5, pools[1].cost = 10;
      memset(&p, 0, sizeof p);
      p.intervals = &iv, p.pools = pools, p.num_pools = 2;
      dnnmem_plan_pools_conflict_scratch_size(&p, NULL, &cb);
      cs = malloc(cb);
      t0 = bench_now_ms();
      if (dnnmem_plan_pools_conflict(&p, NULL, conflict, n, &cr, cs, cb) == DNNMEM_OK && cr.feasible == 0 &&
          why_used < sizeof why)
        why_used += (size_t)snprintf(why + why_used, sizeof why - why_used, "| %s | %d | %d | %s | %d | %.2f |\n",
                                     names[i], n, (int)cr.count, cr.minimal ? "yes" : "no", (int)cr.decisions,
                                     bench_now_ms() - t0);
      free(cs), free(conflict);
    }
    free(r);
  }
  if (rows) {
    printf("\n| SRAM | models | greedy | improve | exact | fractional bound | proven bound |\n|---|---|---|---|---|---|---|\n");
    for (k = 0; k < 3; k++)
      if (mean[k][5] > 0)
        printf("| %d%% | %.0f | %.2f%% | %.2f%% | %.2f%% | %.2f%% | %.2f%% |\n", percent[k], mean[k][5],
               100 * mean[k][0] / mean[k][5], 100 * mean[k][1] / mean[k][5], 100 * mean[k][2] / mean[k][5],
               100 * mean[k][3] / mean[k][5], 100 * mean[k][4] / mean[k][5]);
  }
  if (rows)
    printf("\nmean gap to the bound (percentage points of all bytes): greedy %.2f, improve %.2f, exact %.2f; "
           "exact proven optimal in %d of %d plans\n",
           100 * sum_gap[0] / rows, 100 * sum_gap[1] / rows, 100 * sum_gap[2] / rows, proved, rows);
  else
    printf("(no model files under %s)\n", dir);
  if (why_used)
    printf("\n## why not: SRAM 50%% and DRAM 40%% of the single-arena plan, both bounded\n\n"
           "| model | n | conflict | minimal | decisions | ms |\n|---|---|---|---|---|---|\n%s", why);
  bench_list_free(names, count);
  return 0;
}

/* make bench: interval planning. Per file of tests/data and ../shared/data
   (models, training graphs, minimalloc's challenging set): each strategy's
   arena over the lower bound (and over the best known capacity for
   minimalloc's files) and its time; then the speed of the fast strategies
   on 100,000 and 1,000,000 generated records with realistic overlap and
   on as many records of a training graph repeated in time (high overlap),
   rated by CPU time (the machine may be shared) and as a multiple of
   naive's: the median over rounds of the ratio to a naive solve beside
   it. */
#include "bench.h"

/* CPU time of the process in milliseconds (the machine may be shared:
   the scale tables rate by it). */
static double cpu_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double last_cpu_ms; /* the CPU time of plan_timed's last call */

/* dnnmem_plan_solve with one strategy; *ms the time of the call alone
   (wall clock; its CPU time in last_cpu_ms). */
static dnnmem_result plan_timed(const dnnmem_interval *r, int32_t n, dnnmem_plan_algo algo, int64_t *off,
                                dnnmem_plan_result *res, double *ms) {
  dnnmem_intervals problem;
  dnnmem_plan_options opt;
  size_t bytes = 0;
  void *scratch;
  double t0, c0;
  dnnmem_result rc;
  problem.records = r, problem.count = n, problem.alignment = 0;
  memset(&opt, 0, sizeof(opt));
  opt.algo = algo;
  if ((rc = dnnmem_plan_solve_scratch_size(&problem, &opt, &bytes)) != DNNMEM_OK) return rc;
  scratch = malloc(bytes);
  memset(scratch, 0, bytes); /* its pages mapped before the clock starts */
  c0 = cpu_now_ms();
  t0 = bench_now_ms();
  rc = dnnmem_plan_solve(&problem, &opt, off, res, scratch, bytes);
  *ms = bench_now_ms() - t0;
  last_cpu_ms = cpu_now_ms() - c0;
  free(scratch);
  return rc;
}

static const dnnmem_plan_algo algos[] = {DNNMEM_PLAN_NAIVE,         DNNMEM_PLAN_GREEDY_SIZE,
                                         DNNMEM_PLAN_GREEDY_BREADTH, DNNMEM_PLAN_SORTED_HEIGHT,
                                         DNNMEM_PLAN_PATHCOVER,     DNNMEM_PLAN_BESTFIT,
                                         DNNMEM_PLAN_BEST};
#define NUM_ALGOS ((int)(sizeof(algos) / sizeof(algos[0])))

/* Best known capacities of minimalloc's challenging files (their README). */
static long long best_known(const char *name) {
  static const char *files = "ABCDEFGHIJK";
  static const long long cap[] = {1048576, 1048576, 1039360, 1031168, 1048576, 1048576,
                                  1048576, 1048576, 1048576, 1041408, 1048576};
  const char *p = strchr(files, name[0]);
  return p && name[1] == '.' ? cap[p - files] : 0;
}

static double total_ms[NUM_ALGOS], total_cpu_ms[NUM_ALGOS];

/* Each scale table's CPU multiple of naive for the strategies the issue
   holds to the floor (<= 2.0x), gathered for one summary line. */
static const dnnmem_plan_algo floor_algos[] = {DNNMEM_PLAN_GREEDY_SIZE, DNNMEM_PLAN_GREEDY_BREADTH,
                                               DNNMEM_PLAN_PATHCOVER};
#define NUM_FLOOR 3
#define NUM_SCALES 4
static double floor_ratio[NUM_FLOOR][NUM_SCALES];
static const char *scale_name[NUM_SCALES];
static int num_scales;

static void floor_note(dnnmem_plan_algo algo, double ratio) {
  int k;
  for (k = 0; k < NUM_FLOOR; k++)
    if (floor_algos[k] == algo && num_scales < NUM_SCALES) floor_ratio[k][num_scales] = ratio;
}

static void bench_file(const char *dir, const char *name) {
  char path[1024];
  dnnmem_interval *r;
  int n, a;
  long long known = best_known(name);
  snprintf(path, sizeof(path), "%s/%s", dir, name);
  n = ref_plan_read_csv(path, &r);
  if (n <= 0) return;
  printf("| %s | %d |", name, n);
  for (a = 0; a < NUM_ALGOS; a++) {
    dnnmem_plan_result res;
    int64_t *off = (int64_t *)malloc((size_t)n * sizeof(int64_t));
    double ms;
    if (plan_timed(r, n, algos[a], off, &res, &ms) != DNNMEM_OK) {
      printf(" error |");
    } else {
      total_ms[a] += ms;
      total_cpu_ms[a] += last_cpu_ms;
      if (known) printf(" %.3f (%.3f) |", (double)res.arena / (double)known, (double)res.arena / (double)res.lower_bound);
      else printf(" %.4f |", (double)res.arena / (double)res.lower_bound);
    }
    free(off);
  }
  printf("\n");
  free(r);
}

static void bench_dir(const char *dir, const char *suffix) {
  size_t n, i;
  char **names = bench_list(dir, suffix, NULL, &n);
  for (i = 0; i < n; i++) bench_file(dir, names[i]);
  bench_list_free(names, n);
}

static void header(const char *title) {
  int a;
  printf("\n%s\n\n| file | n |", title);
  for (a = 0; a < NUM_ALGOS; a++) printf(" %s |", dnnmem_plan_algo_name(algos[a]));
  printf("\n|---|---|");
  for (a = 0; a < NUM_ALGOS; a++) printf("---|");
  printf("\n");
}

/* Rounds of the scale tables' pairs: each strategy and naive solved back
   to back (which goes first alternates), and the ratio of the two taken
   per round, so both see the same load on a shared machine; the median of
   the rounds' ratios is the strategy's multiple of naive. */
#define ROUNDS_100K 11
#define ROUNDS_1M 5

static double plan_cpu_once(const dnnmem_interval *r, int32_t n, dnnmem_plan_algo algo, int64_t *off,
                            dnnmem_plan_result *res, double *ms) {
  plan_timed(r, n, algo, off, res, ms);
  return last_cpu_ms;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* The scale table: each strategy's arena, its least CPU time over the
   rounds, the median over the rounds of its CPU time divided by naive's
   in the same round (naive, the first, against itself: 1.00), the wall
   time of its last solve and its speed; with checksum, the plan's
   checksum (equal checksums: the same plans across versions). */
static void scale_rows(const dnnmem_interval *r, int n, const dnnmem_plan_algo *fast, int count, int64_t *off,
                       int checksum) {
  int rounds = n >= 1000000 ? ROUNDS_1M : ROUNDS_100K, i, j, k;
  printf("CPU time: the least over %d rounds; x naive: the median over the rounds of the strategy's CPU time\n"
         "over naive's, the two solved back to back in each round (the machine may be shared).\n\n", rounds);
  printf("| strategy | arena / lower bound | CPU time (ms, least of %d) | x naive (median of %d rounds) |"
         " rounds' least - most | wall (ms) | records per CPU second |%s\n"
         "|---|---|---|---|---|---|---|%s\n",
         rounds, rounds, checksum ? " plan checksum |" : "", checksum ? "---|" : "");
  for (k = 0; k < count; k++) {
    dnnmem_plan_result res, nres;
    double ms, nms, cpu = 0, ratio[ROUNDS_100K];
    int64_t sum = 0;
    for (j = 0; j < rounds; j++) {
      double t, tn;
      if (k == 0) {
        t = tn = plan_cpu_once(r, n, fast[k], off, &res, &ms);
      } else if (j & 1) {
        t = plan_cpu_once(r, n, fast[k], off, &res, &ms);
        tn = plan_cpu_once(r, n, fast[0], off, &nres, &nms);
      } else {
        tn = plan_cpu_once(r, n, fast[0], off, &nres, &nms);
        t = plan_cpu_once(r, n, fast[k], off, &res, &ms);
      }
      ratio[j] = t / tn;
      if (j == 0 || t < cpu) cpu = t;
    }
    if (k > 0 && rounds % 2 == 0) plan_cpu_once(r, n, fast[k], off, &res, &ms); /* off: this strategy's plan */
    qsort(ratio, (size_t)rounds, sizeof(double), cmp_double);
    floor_note(fast[k], ratio[rounds / 2]);
    printf("| %s | %.4f | %.1f | %.2f | %.2f - %.2f | %.1f | %.2f M |", dnnmem_plan_algo_name(fast[k]),
           (double)res.arena / (double)res.lower_bound, cpu, ratio[rounds / 2], ratio[0], ratio[rounds - 1], ms,
           n / cpu / 1e3);
    for (i = 0; checksum && i < n; i++) sum = sum * 31 + off[i];
    if (checksum) printf(" %016llx |", (unsigned long long)sum);
    printf("\n");
  }
}

/* n records shaped like a network's tensors: most die within a few steps,
   a few live long (skip connections, saved activations). Each strategy's
   CPU time also as a multiple of naive's (validation, the lower bound and
   one sorted sweep: the floor every strategy pays). */
static void bench_scale(int n) {
  dnnmem_interval *r = (dnnmem_interval *)calloc((size_t)n, sizeof(*r));
  int64_t *off = (int64_t *)malloc((size_t)n * sizeof(int64_t));
  dnnmem_rng rng;
  int i;
  static const dnnmem_plan_algo fast[] = {DNNMEM_PLAN_NAIVE, DNNMEM_PLAN_GREEDY_SIZE, DNNMEM_PLAN_PATHCOVER,
                                          DNNMEM_PLAN_SORTED_HEIGHT, DNNMEM_PLAN_GREEDY_BREADTH,
                                          DNNMEM_PLAN_BESTFIT};
  dnnmem_rng_seed(&rng, 1);
  for (i = 0; i < n; i++) {
    uint32_t roll = dnnmem_rng_below(&rng, 100);
    int64_t len = roll < 80 ? 1 + dnnmem_rng_below(&rng, 3) : roll < 98 ? 4 + dnnmem_rng_below(&rng, 30)
                                                                         : 50 + dnnmem_rng_below(&rng, 500);
    r[i].lower = i;
    r[i].upper = i + len;
    r[i].size = (int64_t)1024 << dnnmem_rng_below(&rng, 10);
  }
  printf("\nScale: %d generated records (80%% live 1-3 steps, 18%% 4-33, 2%% 50-549)\n\n", n);
  scale_rows(r, n, fast, (int)(sizeof(fast) / sizeof(fast[0])), off, 0);
  if (num_scales < NUM_SCALES) scale_name[num_scales++] = n >= 1000000 ? "1M generated" : "100k generated";
  free(r);
  free(off);
}

/* n records made by repeating a model's intervals in time (one copy
   after another): a training graph's overlap, at scale. The plans of
   greedy-size and greedy-breadth are summed into a checksum (equal
   checksums: the same plans across versions). */
static void bench_repeated(const char *path, int n) {
  dnnmem_interval *base, *r;
  int64_t *off, span = 0;
  int m = ref_plan_read_csv(path, &base), i;
  static const dnnmem_plan_algo fast[] = {DNNMEM_PLAN_NAIVE, DNNMEM_PLAN_GREEDY_SIZE, DNNMEM_PLAN_GREEDY_BREADTH,
                                          DNNMEM_PLAN_PATHCOVER, DNNMEM_PLAN_SORTED_HEIGHT};
  if (m <= 0) return;
  r = (dnnmem_interval *)calloc((size_t)n, sizeof(*r));
  off = (int64_t *)malloc((size_t)n * sizeof(int64_t));
  for (i = 0; i < m; i++) span = base[i].upper > span ? base[i].upper : span;
  for (i = 0; i < n; i++) {
    r[i] = base[i % m];
    r[i].lower += (int64_t)(i / m) * span;
    r[i].upper += (int64_t)(i / m) * span;
  }
  printf("\nScale, high overlap: %d records, %s repeated in time\n\n", n, path);
  scale_rows(r, n, fast, (int)(sizeof(fast) / sizeof(fast[0])), off, 1);
  if (num_scales < NUM_SCALES) scale_name[num_scales++] = n >= 1000000 ? "1M tiled" : "100k tiled";
  free(base);
  free(r);
  free(off);
}

int main(int argc, char **argv) {
  int a, scale_only = argc > 1 && strcmp(argv[1], "--scale") == 0; /* the scale tables alone */
  printf("## Interval planning (arena / lower bound; 1.0000 = proven optimal)\n");
  if (!scale_only) {
    header("Models (../shared/data/models, else tests/data)");
    bench_dir("../shared/data/models", ".intervals.csv");
    if (!opendir("../shared/data/models")) bench_dir("tests/data", ".intervals.csv");
    header("minimalloc challenging: arena / best known capacity (arena / max load)");
    bench_dir("../shared/data/minimalloc/challenging", ".csv");
    printf("\nTotal planning time (ms) over the files above:");
    for (a = 0; a < NUM_ALGOS; a++) printf(" %s %.1f;", dnnmem_plan_algo_name(algos[a]), total_ms[a]);
    printf("\nTotal CPU time (ms):");
    for (a = 0; a < NUM_ALGOS; a++) printf(" %s %.1f;", dnnmem_plan_algo_name(algos[a]), total_cpu_ms[a]);
    printf("\n");
  }
  bench_scale(100000);
  bench_scale(1000000);
  bench_repeated("../shared/data/models/resnet50.train.intervals.csv", 100000);
  bench_repeated("../shared/data/models/resnet50.train.intervals.csv", 1000000);
  printf("\nThe fast strategies against naive (CPU time, median of %d rounds at 100k and %d at 1M of the ratio to"
         " naive solved beside it; the goal is <= 2.0x):", ROUNDS_100K, ROUNDS_1M);
  for (a = 0; a < NUM_FLOOR; a++) {
    int k;
    printf("%s %s", a ? ";" : "", dnnmem_plan_algo_name(floor_algos[a]));
    for (k = 0; k < num_scales; k++) printf("%s %s %.2fx", k ? "," : "", scale_name[k], floor_ratio[a][k]);
  }
  printf("\n");
  return 0;
}

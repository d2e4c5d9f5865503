/* Issue 29, helper zstack: the exact search with and without the
   zero-slack stacks (dnnmem__exact_zstack, compiled in by
   DNNMEM__EXACT_ZSTACK, off per question by params.no_zstack) on
   ref_plan_tiling instances at their optimum 1048576 (1000 steps, unit
   1024, as tests/bench_plan_exact.c builds them) and on minimalloc's
   challenging set at the best known capacities. Each question is asked
   with the rule on, then off, one after the other (CPU ratios in the same
   run); every plan is recounted by ref_plan_recount. Not part of make:
     gcc -O2 -std=c99 -DDNNMEM__EXACT_ZSTACK -I. -Itests -o /tmp/zstack/dz notes/ISSUE-29-zstack-drv.c -lm
     dz tile MODES SIZES SEED_LO SEED_HI SALT_LO SALT_HI NODES  (MODES: digits of bits, 1 stacks, 2 joint rows,
                                                                4 stacks lift records (with 1); 0 none; SIZES: 400,600,800)
     dz nine MODES SALT_LO SALT_HI NODES                        (the nine dense tilings)
     dz mm DATA_DIR MODES                                       (minimalloc A-K, MM=letters to pick)
   A line: name, mode (z1 on, z0 off), stream, verdict, nodes, CPU ms,
   placements the rule failed, placements seams failed. */
#include "bench.h"

#define CAP (1024 * 1024)

static int64_t ask(const char *name, const dnnmem_interval *r, int32_t n, int64_t cap, int on, int salt,
                   int64_t limit) {
  int64_t *off = (int64_t *)calloc((size_t)n + 1, sizeof(int64_t));
  size_t bytes = 0;
  void *scratch;
  dnnmem_intervals p;
  dnnmem__exact_params params;
  dnnmem__exact_outcome out;
  double c0;
  const char *verdict;
  dnnmem__exact_scratch_size(n, 0, 0, &bytes);
  scratch = malloc(bytes);
  memset(&params, 0, sizeof params);
  memset(&out, 0, sizeof out);
  params.capacity = cap;
  params.node_limit = limit;
  params.noise_salt = (uint64_t)salt;
  params.no_zstack = !(on & 1);
  params.zjoint = (on & 2) != 0;
  params.zlift = (on & 4) != 0;
  c0 = bench_cpu_ms();
  if (dnnmem__exact_solve(r, n, 1, &params, off, &out, scratch, bytes) != DNNMEM_OK) out.feasible = -2;
  verdict = out.feasible == 0 ? "NO" : out.feasible == 1 ? "yes" : "-";
  if (out.feasible == 1) {
    p.records = r, p.count = n, p.alignment = 0;
    if (ref_plan_recount(&p, off) > cap) verdict = "INVALID";
  }
  printf("%s z%d s%d %s %lld %.0fms zs %lld zj %lld lifts %lld seams %lld\n", name, on, salt, verdict, (long long)out.nodes,
         bench_cpu_ms() - c0, (long long)out.zstack_fails, (long long)out.zjoint_fails, (long long)out.zstack_lifts,
         (long long)out.seam_fails);
  fflush(stdout);
  free(scratch), free(off);
  return out.nodes;
}

static void tile(const char *modes, int32_t size, int32_t seed, int salt, int64_t limit) {
  dnnmem_interval *r = (dnnmem_interval *)calloc((size_t)size, sizeof(*r));
  dnnmem_rng rng;
  int32_t n;
  char name[64];
  const char *c;
  dnnmem_rng_seed(&rng, (uint64_t)seed);
  n = ref_plan_tiling(&rng, r, size, 1000, CAP, 1024);
  snprintf(name, sizeof name, "%d/%d", size, seed);
  for (c = modes; *c; c++)
    if (*c >= '0' && *c <= '7') ask(name, r, n, CAP, *c - '0', salt, limit);
  free(r);
}

static const struct {
  const char *name;
  int64_t best;
} mm[] = {{"A", 1048576}, {"B", 1048576}, {"C", 1039360}, {"D", 1031168}, {"E", 1048576}, {"F", 1048576},
          {"G", 1048576}, {"H", 1048576}, {"I", 1048576}, {"J", 1041408}, {"K", 1048576}};

int main(int argc, char **argv) {
  if (argc >= 9 && !strcmp(argv[1], "tile")) {
    int32_t seed, salt;
    char *tok;
    for (tok = strtok(argv[3], ","); tok; tok = strtok(NULL, ","))
      for (seed = atoi(argv[4]); seed <= atoi(argv[5]); seed++)
        for (salt = atoi(argv[6]); salt <= atoi(argv[7]); salt++) tile(argv[2], atoi(tok), seed, salt, atoll(argv[8]));
    return 0;
  }
  if (argc >= 6 && !strcmp(argv[1], "nine")) {
    static const int nine[9][2] = {{400, 27}, {600, 27}, {800, 27}, {800, 23}, {400, 33},
                                   {600, 33}, {800, 33}, {600, 37}, {800, 37}};
    int k, salt;
    for (salt = atoi(argv[3]); salt <= atoi(argv[4]); salt++)
      for (k = 0; k < 9; k++)
        if (!getenv("ONLY") || strchr(getenv("ONLY"), '1' + k)) tile(argv[2], nine[k][0], nine[k][1], salt, atoll(argv[5]));
    return 0;
  }
  if (argc >= 4 && !strcmp(argv[1], "mm")) {
    int k;
    const char *c;
    for (k = 0; k < 11; k++) {
      char path[1024];
      dnnmem_interval *r = NULL;
      int32_t n;
      if (getenv("MM") && !strchr(getenv("MM"), mm[k].name[0])) continue;
      snprintf(path, sizeof path, "%s/minimalloc/challenging/%s.1048576.csv", argv[2], mm[k].name);
      n = ref_plan_read_csv(path, &r);
      if (n < 0) continue;
      for (c = argv[3]; *c; c++)
        if (*c >= '0' && *c <= '7') ask(mm[k].name, r, n, mm[k].best, *c - '0', 0, 0);
      free(r);
    }
    return 0;
  }
  fprintf(stderr, "usage: see the comment\n");
  return 2;
}

/* drv_tilings: the exact search on ref_plan_tiling instances at their
   optimum and on minimalloc's challenging set (nodes, every plan
   recounted). Not part of make; see notes/ISSUE-29-tilings.md.
     drv_tilings tile SIZES SEED_LO SEED_HI SALT_LO SALT_HI NODES [OFF]
     drv_tilings mm DATA_DIR [OFF]
     drv_tilings bf COUNT   (soundness: small tilings against the brute
                             force, larger ones with the rule on and off;
                             build without NDEBUG for the asserts)
   OFF 1: the zero-slack stacks off (params.no_sums). Build:
     cc -std=c99 -O2 -DNDEBUG -I. -Itests -o drv tests/drv_tilings.c -lm */
#include "bench.h"

static int no_sums;

static void tile(int32_t size, int32_t seed, int salt, int64_t limit) {
  dnnmem_interval *r = (dnnmem_interval *)calloc((size_t)size, sizeof(*r));
  int64_t *off = (int64_t *)calloc((size_t)size + 1, sizeof(int64_t));
  dnnmem_rng rng;
  int32_t n;
  size_t bytes = 0;
  void *scratch;
  dnnmem_intervals p;
  dnnmem__exact_params params;
  dnnmem__exact_outcome out;
  double c0;
  dnnmem_rng_seed(&rng, (uint64_t)seed);
  n = ref_plan_tiling(&rng, r, size, 1000, 1024 * 1024, 1024);
  p.records = r, p.count = n, p.alignment = 0;
  dnnmem__exact_scratch_size(n, 0, 0, &bytes);
  scratch = malloc(bytes);
  memset(&params, 0, sizeof params);
  params.capacity = 1024 * 1024;
  params.node_limit = limit;
  params.noise_salt = (uint64_t)salt;
  params.no_sums = no_sums;
  c0 = bench_cpu_ms();
  if (dnnmem__exact_solve(r, n, 1, &params, off, &out, scratch, bytes) != DNNMEM_OK) out.feasible = -2;
  printf("%d/%d s%d %s %lld %.0fms sums=%lld\n", size, seed, salt,
         out.feasible == 1 ? (ref_plan_recount(&p, off) == 1024 * 1024 ? "yes" : "INVALID")
                           : out.feasible == 0 ? "NO" : "-",
         (long long)out.nodes, bench_cpu_ms() - c0, (long long)out.sums);
  fflush(stdout);
  free(scratch), free(off), free(r);
}

static const struct {
  const char *name;
  int64_t best;
} mm[] = {{"A", 1048576}, {"B", 1048576}, {"C", 1039360}, {"D", 1031168}, {"E", 1048576}, {"F", 1048576},
          {"G", 1048576}, {"H", 1048576}, {"I", 1048576}, {"J", 1041408}, {"K", 1048576}};

int main(int argc, char **argv) {
  if (argc >= 8 && !strcmp(argv[1], "tile")) {
    int32_t s, seed, salt;
    char *sizes = argv[2], *tok;
    no_sums = argc > 8 ? atoi(argv[8]) : 0;
    for (tok = strtok(sizes, ","); tok; tok = strtok(NULL, ",")) {
      s = atoi(tok);
      for (seed = atoi(argv[3]); seed <= atoi(argv[4]); seed++)
        for (salt = atoi(argv[5]); salt <= atoi(argv[6]); salt++) tile(s, seed, salt, atoll(argv[7]));
    }
    return 0;
  }
  if (argc >= 3 && !strcmp(argv[1], "mm")) {
    int k;
    no_sums = argc > 3 ? atoi(argv[3]) : 0;
    for (k = 0; k < 11; k++) {
      char path[1024];
      dnnmem_interval *r = NULL;
      int32_t n;
      int64_t *off;
      size_t bytes = 0;
      void *scratch;
      dnnmem__exact_params params;
      dnnmem__exact_outcome out;
      dnnmem_intervals p;
      double c0;
      snprintf(path, sizeof path, "%s/minimalloc/challenging/%s.1048576.csv", argv[2], mm[k].name);
      n = ref_plan_read_csv(path, &r);
      if (n < 0) continue;
      off = (int64_t *)calloc((size_t)n + 1, sizeof(int64_t));
      p.records = r, p.count = n, p.alignment = 0;
      dnnmem__exact_scratch_size(n, 0, 0, &bytes);
      scratch = malloc(bytes);
      memset(&params, 0, sizeof params);
      params.capacity = mm[k].best;
      params.no_sums = no_sums;
      c0 = bench_cpu_ms();
      if (dnnmem__exact_solve(r, n, 1, &params, off, &out, scratch, bytes) != DNNMEM_OK) out.feasible = -2;
      printf("%s %s %lld %.0fms sums=%lld\n", mm[k].name,
             out.feasible == 1 ? (ref_plan_recount(&p, off) <= mm[k].best ? "yes" : "INVALID") : "no/unknown",
             (long long)out.nodes, bench_cpu_ms() - c0, (long long)out.sums);
      fflush(stdout);
      free(scratch), free(off), free(r);
    }
    return 0;
  }
  if (argc >= 3 && !strcmp(argv[1], "bf")) { /* soundness: small tilings vs brute force, larger on vs off */
    int32_t seed, bad = 0, hits = 0, count = atoi(argv[2]);
    for (seed = 0; seed < count; seed++) {
      dnnmem_interval r[80];
      int64_t off[80], opt, c;
      dnnmem_rng rng;
      dnnmem_intervals p;
      int32_t n, big = seed % 4 == 3, mode;
      dnnmem_rng_seed(&rng, (uint64_t)seed * 31 + 7);
      n = big ? ref_plan_tiling(&rng, r, 40 + (int32_t)dnnmem_rng_below(&rng, 40), 40, 48, 1)
              : ref_plan_tiling(&rng, r, 5 + (int32_t)dnnmem_rng_below(&rng, 6), 4 + (int32_t)dnnmem_rng_below(&rng, 6),
                                4 + (int64_t)dnnmem_rng_below(&rng, 6), 1);
      if (dnnmem_rng_below(&rng, 2)) { int32_t k = (int32_t)dnnmem_rng_below(&rng, (uint32_t)n); if (r[k].size > 1) r[k].size--; }
      if (dnnmem_rng_below(&rng, 3) == 0) { int32_t k = (int32_t)dnnmem_rng_below(&rng, (uint32_t)n); if (r[k].upper - r[k].lower > 1) r[k].upper--; }
      for (mode = (int32_t)dnnmem_rng_below(&rng, 4); mode > 0; mode--) { /* a byte moved to a nesting piece */
        int32_t k = (int32_t)dnnmem_rng_below(&rng, (uint32_t)n), cc;
        for (cc = 0; cc < n; cc++)
          if (cc != k && r[cc].lower <= r[k].lower && r[cc].upper >= r[k].upper && r[cc].size > 1) { r[cc].size--, r[k].size++; break; }
      }
      p.records = r, p.count = n, p.alignment = 0;
      opt = big ? 48 : ref_plan_optimum(&p, NULL);
      for (c = opt; c >= opt - 1; c--) {
        int32_t ans[2];
        for (mode = 0; mode < 2; mode++) {
          dnnmem__exact_params params;
          dnnmem__exact_outcome out;
          size_t bytes = 0;
          void *scratch;
          dnnmem__exact_scratch_size(n, 0, 0, &bytes);
          scratch = malloc(bytes);
          memset(&params, 0, sizeof params);
          params.capacity = c;
          params.no_sums = mode;
          params.node_limit = big ? 2000000 : 0;
          dnnmem__exact_solve(r, n, 1, &params, off, &out, scratch, bytes);
          free(scratch);
          ans[mode] = out.feasible;
          if (mode == 0) hits += out.sums > 0;
          if (out.feasible == 1 && ref_plan_recount(&p, off) > c) bad++, printf("seed %d: INVALID plan\n", seed);
        }
        if ((ans[0] != ans[1] && ans[0] >= 0 && ans[1] >= 0) || (!big && ans[0] != (c == opt)))
          bad++, printf("seed %d cap %lld: on %d off %d (opt %lld)\n", seed, (long long)c, ans[0], ans[1], (long long)opt);
      }
    }
    printf("bf: %d questions wrong, %d with sums failing placements\n", bad, hits);
    return bad != 0;
  }
  fprintf(stderr, "usage: see the comment\n");
  return 2;
}

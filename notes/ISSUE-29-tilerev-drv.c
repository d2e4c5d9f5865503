/* Issue 29, helper tilerev: the exact search on ref_plan_tiling instances
   at their optimum 1048576 under the problem's symmetries. Orientations:
     0 as built; 1 time reversed ([l, u) -> [T - u, T - l)); 2 offsets
     mirrored (x -> C - x - size: the instance is unchanged, so it is the
     search of 0 with its plan mirrored); 3 both; 4 the records in reverse
     index order (a control: another tie-break, no symmetry).
   Every plan is mapped back to the original records and recounted by
   ref_plan_recount (no overlap, within the capacity). Not part of make:
     gcc -O2 -std=c99 -I. -Itests -o /tmp/tilerev/dt notes/ISSUE-29-tilerev-drv.c -lm
     dt tile ORIENTS SIZES SEED_LO SEED_HI SALT_LO SALT_HI NODES  (ORIENTS: 0,1,...; SIZES: 400,600,800)
     dt nine ORIENTS SALT_LO SALT_HI NODES    (the nine dense tilings)
     dt mm DATA_DIR ORIENTS                   (minimalloc's challenging set at the best known capacities)
     dt ends SIZE SEED                        (records starting at 0 / ending at 1000, and within 100 of either end)
   CLIP=c in the environment: only the window before time c (records cut there). */
#include "bench.h"

#define CAP (1024 * 1024)

/* One question: records r (n of them) at capacity cap, in orientation o.
   Prints a line; returns the nodes (negative: unanswered or invalid). */
static int64_t ask(const char *name, const dnnmem_interval *r0, int32_t n, int64_t cap, int o, int salt,
                   int64_t limit) {
  dnnmem_interval *r = (dnnmem_interval *)calloc((size_t)n + 1, sizeof(*r));
  int64_t *off = (int64_t *)calloc((size_t)n + 1, sizeof(int64_t));
  int64_t *back = (int64_t *)calloc((size_t)n + 1, sizeof(int64_t));
  int64_t horizon = 0;
  int32_t i;
  size_t bytes = 0;
  void *scratch;
  dnnmem_intervals p;
  dnnmem__exact_params params;
  dnnmem__exact_outcome out;
  double c0;
  const char *verdict;
  for (i = 0; i < n; i++) horizon = r0[i].upper > horizon ? r0[i].upper : horizon;
  for (i = 0; i < n; i++) {
    r[i] = o == 4 ? r0[n - 1 - i] : r0[i];
    if (o == 1 || o == 3) r[i].lower = horizon - r0[i].upper, r[i].upper = horizon - r0[i].lower;
  }
  dnnmem__exact_scratch_size(n, 0, 0, &bytes);
  scratch = malloc(bytes);
  memset(&params, 0, sizeof params);
  params.capacity = cap;
  params.node_limit = limit;
  params.noise_salt = (uint64_t)salt;
  c0 = bench_cpu_ms();
  if (dnnmem__exact_solve(r, n, 1, &params, off, &out, scratch, bytes) != DNNMEM_OK) out.feasible = -2;
  verdict = out.feasible == 0 ? "NO" : out.feasible == 1 ? "yes" : "-";
  if (out.feasible == 1) { /* back to the original records */
    for (i = 0; i < n; i++) {
      int32_t j = o == 4 ? n - 1 - i : i;
      back[j] = (o == 2 || o == 3) ? cap - off[i] - r[i].size : off[i];
    }
    p.records = r0, p.count = n, p.alignment = 0;
    if (ref_plan_recount(&p, back) > cap) verdict = "INVALID";
  }
  printf("%s o%d s%d %s %lld %.0fms\n", name, o, salt, verdict, (long long)out.nodes, bench_cpu_ms() - c0);
  fflush(stdout);
  free(scratch), free(back), free(off), free(r);
  return out.feasible == 1 && strcmp(verdict, "yes") == 0 ? out.nodes : -out.nodes;
}

static void tile(const char *orients, int32_t size, int32_t seed, int salt, int64_t limit) {
  dnnmem_interval *r = (dnnmem_interval *)calloc((size_t)size, sizeof(*r));
  dnnmem_rng rng;
  int32_t n;
  char name[64];
  const char *c;
  dnnmem_rng_seed(&rng, (uint64_t)seed);
  n = ref_plan_tiling(&rng, r, size, 1000, CAP, 1024);
  snprintf(name, sizeof name, "%d/%d", size, seed);
  if (getenv("CLIP")) { /* the window before time CLIP alone: every record cut there */
    int32_t i, m = 0;
    int64_t cut = atoll(getenv("CLIP"));
    for (i = 0; i < n; i++)
      if (r[i].lower < cut) r[m] = r[i], r[m].upper = r[m].upper < cut ? r[m].upper : cut, m++;
    n = m;
    snprintf(name, sizeof name, "%d/%d@%lld", size, seed, (long long)cut);
  }
  for (c = orients; *c; c++)
    if (*c >= '0' && *c <= '9') ask(name, r, n, CAP, *c - '0', salt, limit);
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
      for (k = 0; k < 9; k++) tile(argv[2], nine[k][0], nine[k][1], salt, atoll(argv[5]));
    return 0;
  }
  if (argc >= 4 && !strcmp(argv[1], "ends")) { /* SIZE SEED: records at each end of time */
    int32_t size = atoi(argv[2]), n, i, at0 = 0, atT = 0, early = 0, late = 0;
    dnnmem_interval *r = (dnnmem_interval *)calloc((size_t)size, sizeof(*r));
    dnnmem_rng rng;
    dnnmem_rng_seed(&rng, (uint64_t)atoi(argv[3]));
    n = ref_plan_tiling(&rng, r, size, 1000, CAP, 1024);
    for (i = 0; i < n; i++) {
      at0 += r[i].lower == 0, atT += r[i].upper == 1000;
      early += r[i].lower < 100, late += r[i].upper > 900;
    }
    printf("%d/%s: start at 0 %d, end at 1000 %d, start before 100 %d, end after 900 %d\n", size, argv[3], at0, atT,
           early, late);
    free(r);
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
        if (*c >= '0' && *c <= '9') ask(mm[k].name, r, n, mm[k].best, *c - '0', 0, 0);
      free(r);
    }
    return 0;
  }
  fprintf(stderr, "usage: see the comment\n");
  return 2;
}

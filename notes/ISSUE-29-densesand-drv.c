/* The driver of notes/ISSUE-29-densesand.md: 6c88c00's densewin driver
   (notes/ISSUE-29-densewin-drv.c; the exact search on ref_plan_tiling
   instances at their optimum 1048576 and on minimalloc's challenging set,
   nodes and process CPU, every plan recounted by ref_plan_recount) with
   two additions:
     SAND=1   the driver cuts the one-granule, one-section records out
              before the search and puts them back first-fit after
              (version 1 of the note)
     NOSAND=1 params.no_sand, for the experiment's header (commit f3847a00)
   Built from a worktree root (not part of make):
     against f3847a00's dnnmem.h:
       gcc -O2 -std=c99 -I. -Itests -o dt notes/ISSUE-29-densesand-drv.c -lm
     against any other header (no no_sand field):
       gcc -O2 -std=c99 -DSANDP= -I. -Itests -o dt0 notes/ISSUE-29-densesand-drv.c -lm
     dt tile SIZES SEED_LO SEED_HI SALT_LO SALT_HI NODES   (SIZES: 400,600,800)
     dt mm DATA_DIR                                        (../shared/data)
   CLIP=c cuts every record at time c; NOSTACK / NOSEAMS / NONG / NOTWINS /
   NOFIT / NOSTALL turn those off. */
#include "bench.h"
#ifndef SANDP
#define SANDP params.no_sand = getenv("NOSAND") != NULL;
#endif


/* SAND=1: one-granule, one-section records cut out before the search and
   put into free granules after (this experiment's driver-side version). */
static dnnmem_interval sand_rec[4096];
static int32_t sand_n;
static int cmp64(const void *a, const void *b) { int64_t x = *(const int64_t *)a, y = *(const int64_t *)b; return x < y ? -1 : x > y; }
static int32_t sand_cut(dnnmem_interval *r, int32_t n) {
  int64_t *t = malloc(sizeof(int64_t) * 2 * n), g = 0;
  int32_t i, d = 0, m = 0;
  for (i = 0; i < n; i++) { t[2 * i] = r[i].lower, t[2 * i + 1] = r[i].upper; g = g ? g : r[i].size; { int64_t a = g, b = r[i].size; while (b) { int64_t c = a % b; a = b; b = c; } g = a; } }
  qsort(t, 2 * n, sizeof *t, cmp64);
  for (i = 0; i < 2 * n; i++) if (!d || t[d - 1] != t[i]) t[d++] = t[i];
  sand_n = 0;
  for (i = 0; i < n; i++) {
    int32_t k, lo = -1;
    for (k = 0; k < d; k++) if (t[k] == r[i].lower) lo = k;
    if (r[i].size == g && lo >= 0 && lo + 1 < d && t[lo + 1] == r[i].upper) sand_rec[sand_n++] = r[i];
    else r[m++] = r[i];
  }
  free(t);
  if (getenv("SANDV")) fprintf(stderr, "sand %d of %d\n", sand_n, n);
  return m;
}
static int32_t sand_fill(dnnmem_interval *r, int32_t n, int64_t *off) {
  int32_t i, j, q;
  for (q = 0; q < sand_n; q++) {
    int64_t x = 0;
    int moved = 1;
    while (moved) {
      moved = 0;
      for (j = 0; j < n; j++)
        if (r[j].lower < sand_rec[q].upper && sand_rec[q].lower < r[j].upper && off[j] < x + sand_rec[q].size && x < off[j] + r[j].size) { x = off[j] + r[j].size; moved = 1; }
    }
    r[n] = sand_rec[q], off[n] = x, n++;
  }
  (void)i;
  return n;
}

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
  if (getenv("CLIP")) { int32_t i, m = 0; int64_t c = atoll(getenv("CLIP")); for (i = 0; i < n; i++) if (r[i].lower < c) { r[m] = r[i]; if (r[m].upper > c) r[m].upper = c; m++; } n = m; }
  if (getenv("FLIPT")) { int32_t i; for (i = 0; i < n; i++) { int64_t lo = r[i].lower; r[i].lower = 1000 - r[i].upper; r[i].upper = 1000 - lo; } }
  if (getenv("SAND")) n = sand_cut(r, n);
  p.records = r, p.count = n, p.alignment = 0;
  dnnmem__exact_scratch_size(n, 0, 0, &bytes);
  scratch = malloc(bytes);
  memset(&params, 0, sizeof params);
  params.capacity = 1024 * 1024;
  params.node_limit = limit;
  params.noise_salt = (uint64_t)salt;
  params.no_stack = getenv("NOSTACK") != NULL; SANDP params.no_seams = getenv("NOSEAMS") != NULL; params.no_nogoods = getenv("NONG") != NULL;
  params.no_twins = getenv("NOTWINS") != NULL; params.no_fit = getenv("NOFIT") != NULL; params.no_stall = getenv("NOSTALL") != NULL;
  c0 = bench_cpu_ms();
  if (dnnmem__exact_solve(r, n, 1, &params, off, &out, scratch, bytes) != DNNMEM_OK) out.feasible = -2;
  if (getenv("SAND") && out.feasible == 1) { n = sand_fill(r, n, off); p.count = n; }
  printf("%d/%d s%d %s %lld %.0fms seamf %lld ng %lld\n", size, seed, salt,
         out.feasible == 1 ? (ref_plan_recount(&p, off) == 1024 * 1024 ? "yes" : "INVALID")
                           : out.feasible == 0 ? "NO" : "-",
         (long long)out.nodes, bench_cpu_ms() - c0, (long long)out.seam_fails, (long long)out.nogoods);
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
    
    for (tok = strtok(sizes, ","); tok; tok = strtok(NULL, ",")) {
      s = atoi(tok);
      for (seed = atoi(argv[3]); seed <= atoi(argv[4]); seed++)
        for (salt = atoi(argv[5]); salt <= atoi(argv[6]); salt++) tile(s, seed, salt, atoll(argv[7]));
    }
    return 0;
  }
  if (argc >= 3 && !strcmp(argv[1], "mm")) {
    int k;
    
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
      if (getenv("MM") && !strchr(getenv("MM"), mm[k].name[0])) continue;
      snprintf(path, sizeof path, "%s/minimalloc/challenging/%s.1048576.csv", argv[2], mm[k].name);
      n = ref_plan_read_csv(path, &r);
      if (n < 0) continue;
      off = (int64_t *)calloc((size_t)n + 1, sizeof(int64_t));
      p.records = r, p.count = n, p.alignment = 0;
      dnnmem__exact_scratch_size(n, 0, 0, &bytes);
      scratch = malloc(bytes);
      memset(&params, 0, sizeof params);
      params.capacity = mm[k].best;
      params.no_stack = getenv("NOSTACK") != NULL; SANDP params.no_seams = getenv("NOSEAMS") != NULL; params.no_nogoods = getenv("NONG") != NULL;
      c0 = bench_cpu_ms();
      if (dnnmem__exact_solve(r, n, 1, &params, off, &out, scratch, bytes) != DNNMEM_OK) out.feasible = -2;
      printf("%s %s %lld %.0fms\n", mm[k].name,
             out.feasible == 1 ? (ref_plan_recount(&p, off) <= mm[k].best ? "yes" : "INVALID") : "no/unknown",
             (long long)out.nodes, bench_cpu_ms() - c0);
      fflush(stdout);
      free(scratch), free(off), free(r);
    }
    return 0;
  }
  fprintf(stderr, "usage: see the comment\n");
  return 2;
}

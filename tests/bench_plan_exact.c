/* bench_plan_exact: the exact planner on minimalloc's challenging instances
   (at the best known capacity, and minimising), on constructed instances
   with a known optimum, and on the model interval files.
   Reads ../shared/data/ when present; skips silently otherwise. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Minimal reader for minimalloc CSVs without gaps: id,lower,upper,size
   [,alignment][,offset] in any column order. Returns the count or -1. */
static int32_t read_csv(const char *path, dnnmem_interval **out) {
  FILE *f = fopen(path, "r");
  char line[4096];
  int col[6] = {-1, -1, -1, -1, -1, -1}; /* lower upper size alignment offset hint */
  int32_t n = 0, cap = 0;
  dnnmem_interval *recs = NULL;
  if (!f) return -1;
  while (fgets(line, sizeof line, f)) {
    char *tok, *save = NULL;
    int c = 0;
    if (line[0] == '#' || line[0] == '\n') continue;
    if (col[0] < 0) {
      for (tok = strtok_r(line, ",\r\n", &save); tok; tok = strtok_r(NULL, ",\r\n", &save), c++) {
        if (!strcmp(tok, "lower") || !strcmp(tok, "start") || !strcmp(tok, "begin")) col[0] = c;
        else if (!strcmp(tok, "upper")) col[1] = c;
        else if (!strcmp(tok, "size")) col[2] = c;
        else if (!strcmp(tok, "alignment")) col[3] = c;
        else if (!strcmp(tok, "offset")) col[4] = c;
        else if (!strcmp(tok, "hint")) col[5] = c;
      }
      if (col[0] < 0 || col[1] < 0 || col[2] < 0) break;
      continue;
    }
    if (n == cap) {
      cap = cap ? 2 * cap : 256;
      recs = (dnnmem_interval *)realloc(recs, (size_t)cap * sizeof(*recs));
    }
    memset(&recs[n], 0, sizeof(recs[n]));
    {
      char *p = line;
      for (c = 0; p; c++) {
        char *comma = strchr(p, ',');
        long long v = strtoll(p, NULL, 10);
        int empty = (*p == ',' || *p == '\n' || *p == '\r' || *p == 0);
        if (c == col[0]) recs[n].lower = v;
        else if (c == col[1]) recs[n].upper = v;
        else if (c == col[2]) recs[n].size = v;
        else if (c == col[3] && !empty) recs[n].alignment = v;
        else if (c == col[4] && !empty) recs[n].fixed_offset = v, recs[n].flags |= DNNMEM_INTERVAL_FIXED;
        else if (c == col[5] && !empty) recs[n].hint = v, recs[n].flags |= DNNMEM_INTERVAL_HINT;
        p = comma ? comma + 1 : NULL;
      }
    }
    n++;
  }
  fclose(f);
  *out = recs;
  return n;
}

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
  dnnmem_plan_options opt;
  double t0;
  memset(&opt, 0, sizeof opt);
  memset(&out, 0, sizeof out);
  opt.algo = DNNMEM_PLAN_EXACT;
  opt.capacity = capacity;
  opt.node_limit = node_limit;
  dnnmem_plan_scratch_size(r, n, &opt, &bytes);
  dnnmem_plan_check_scratch_size(r, n, &check_bytes);
  scratch = malloc(bytes > check_bytes ? bytes : check_bytes);
  t0 = now_ms();
  if (dnnmem_plan(r, n, &opt, off, &out.o, scratch, bytes) != DNNMEM_OK) out.o.arena = -2;
  out.ms = now_ms() - t0;
  out.valid = out.o.arena >= 0 && dnnmem_plan_check(r, n, 1, off, &arena, pair, scratch, check_bytes) == DNNMEM_OK &&
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

/* Guillotine cuts of a time x bytes rectangle into `pieces` buffers: the
   load is `bytes` at every time, so the optimum is `bytes` exactly. */
static int32_t constructed(dnnmem_rng *rng, int32_t pieces, int64_t time, int64_t bytes,
                           dnnmem_interval *out) {
  int32_t n = 1, tries = 0;
  memset(out, 0, sizeof(*out));
  out[0].lower = 0, out[0].upper = time, out[0].size = bytes; /* offset kept in hint */
  out[0].hint = 0;
  while (n < pieces && tries++ < 100000) {
    dnnmem_interval *r = &out[dnnmem_rng_below(rng, (uint32_t)n)];
    if (dnnmem_rng_below(rng, 2)) {
      int64_t len = r->upper - r->lower, cut;
      if (len < 2) continue;
      cut = r->lower + 1 + (int64_t)dnnmem_rng_below(rng, (uint32_t)(len - 1));
      out[n] = *r;
      out[n].lower = cut;
      r->upper = cut;
    } else {
      int64_t cut;
      if (r->size < 2 * 1024) continue;
      cut = 1024 * (1 + (int64_t)dnnmem_rng_below(rng, (uint32_t)(r->size / 1024 - 1)));
      out[n] = *r;
      out[n].size = r->size - cut;
      out[n].hint = r->hint + cut;
      r->size = cut;
    }
    n++;
  }
  {
    int32_t i;
    for (i = 0; i < n; i++) out[i].hint = 0, out[i].flags = 0;
  }
  return n;
}

static const char *const model_files[] = {
    "deeplabv3_mobilenet_v3_large", "densenet121", "densenet121.train", "efficientnet_b0",
    "fcn_resnet50", "googlenet", "gpt2_small.dec", "gpt2_small", "gpt2_small.train",
    "gpt_mini.dec", "gpt_mini", "gpt_mini.train", "llama_32l", "lraspp_mobilenet_v3_large",
    "mnasnet1_0", "mobilenet_v2.dec", "mobilenet_v2", "mobilenet_v2.train",
    "mobilenet_v3_large", "mobilenet_v3_small", "resnet18.dec", "resnet18", "resnet18.train",
    "resnet50", "resnet50.train", "resnext50_32x4d", "squeezenet1_0", "vgg16", "vgg16.train",
    "vit_b_16.dec"};

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
    char path[512];
    dnnmem_interval *r = NULL;
    int32_t n;
    run_out o;
    snprintf(path, sizeof path, "../shared/data/minimalloc/challenging/%s.1048576.csv",
             challenging[k].name);
    n = read_csv(path, &r);
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
    char path[512];
    dnnmem_interval *r = NULL;
    int32_t n;
    run_out o;
    if (strcmp(challenging[k].name, "D") && strcmp(challenging[k].name, "J") &&
        strcmp(challenging[k].name, "C"))
      continue;
    snprintf(path, sizeof path, "../shared/data/minimalloc/challenging/%s.1048576.csv",
             challenging[k].name);
    if ((n = read_csv(path, &r)) < 0) continue;
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
      int32_t n = constructed(&rng, sizes[k], 1000, 1024 * 1024, r);
      run_out o = run(r, n, 0, limit);
      printf("| %d | %d | %lld%s | %s | %lld | %.0f |\n", n, 1024 * 1024, (long long)o.o.arena,
             o.valid ? "" : " INVALID", o.o.optimal ? "yes" : "no", (long long)o.o.nodes, o.ms);
      free(r);
    }
  }

  printf("\n## exact planning: model interval files (minimising)\n\n");
  printf("| file | n | lower bound | arena | optimal | nodes | ms |\n|---|---|---|---|---|---|---|\n");
  for (k = 0; k < (int32_t)(sizeof(model_files) / sizeof(model_files[0])); k++) {
    char path[512];
    dnnmem_interval *r = NULL;
    int32_t n;
    run_out o;
    snprintf(path, sizeof path, "../shared/data/models/%s.intervals.csv", model_files[k]);
    if ((n = read_csv(path, &r)) < 0) continue;
    o = run(r, n, 0, limit);
    printf("| %s | %d | %lld | %lld%s | %s | %lld | %.0f |\n", model_files[k], n,
           (long long)o.o.lower_bound, (long long)o.o.arena, o.valid ? "" : " INVALID",
           o.o.optimal ? "yes" : "no", (long long)o.o.nodes, o.ms);
    free(r);
  }
  return 0;
}

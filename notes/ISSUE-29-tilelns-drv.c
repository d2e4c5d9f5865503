/* Issue 29, helper tilelns: large-neighbourhood repair of the exact
   search's deepest partial plan on ref_plan_tiling instances at their
   optimum (every plan recounted by ref_plan_recount). Not part of make;
   it needs the header of commit 374a097f (params.deepest, floor_fixed,
   no_repair, outcome.repairs; reverted on the branch; e53cc9fa's header, fixed,
   builds it too):
     mkdir -p /tmp/h && git show 374a097f:dnnmem.h > /tmp/h/dnnmem.h
     gcc -O2 -std=c99 -I/tmp/h -I. -Itests -o lns notes/ISSUE-29-tilelns-drv.c -lm
     lns tile SIZES SEED_LO SEED_HI SALT_LO SALT_HI NODES   (the library: search + its repair; NOREPAIR=1 off)
     lns lns  SIZES SEED_LO SEED_HI SALT_LO SALT_HI NODES   (this file's repair: first SHARE plain, then repairs)
     lns chk PIECES SEED_LO SEED_HI    (kept floors of known plans: every sub-question must be "yes")
     lns find PIECES SEED_LO SEED_HI NODES   (questions the library's repair decides and the search alone not)
     lns mm DATA_DIR
   Env of `lns`: SHARE (percent of NODES for the first search, 20), CAP (a
   repair's node cap, 20000), MODE (0 windows, 1 bottom slices, 2 both in
   turn), LAMLO / LAMHI (a slice's level range, percent: 10 / 70), WIDTH (a
   window's half width in steps, 30), LSEED (the repair's rng), KEPTFIX=1
   (kept records fixed in place of pillars), FLOOR=0 (no seams above the
   floor), VERB=1 / 2 (a line per repair / where the kept records lie). */
#include "bench.h"

static int64_t env_i(const char *k, int64_t d) { return getenv(k) ? atoll(getenv(k)) : d; }

typedef struct {
  const dnnmem_interval *r;
  int32_t n, ns;
  int64_t cap;
  int64_t *times;  /* ns + 1 */
  int32_t *lo, *hi; /* per record: section span [lo, hi) */
} inst;

static int32_t sec_of(const inst *I, int64_t t) {
  int32_t a = 0, b = I->ns;
  while (a < b) {
    int32_t m = (a + b) / 2;
    if (I->times[m] < t) a = m + 1; else b = m;
  }
  return a;
}

static int cmp64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return x < y ? -1 : x > y;
}

static void inst_init(inst *I, const dnnmem_interval *r, int32_t n, int64_t cap) {
  int64_t *t = (int64_t *)malloc(sizeof(int64_t) * 2 * (size_t)n);
  int32_t i, k = 0;
  for (i = 0; i < n; i++) t[2 * i] = r[i].lower, t[2 * i + 1] = r[i].upper;
  qsort(t, 2 * (size_t)n, sizeof *t, cmp64);
  for (i = 0; i < 2 * n; i++) if (k == 0 || t[k - 1] != t[i]) t[k++] = t[i];
  I->r = r, I->n = n, I->cap = cap, I->times = t, I->ns = k - 1;
  I->lo = (int32_t *)malloc(sizeof(int32_t) * (size_t)n), I->hi = (int32_t *)malloc(sizeof(int32_t) * (size_t)n);
  for (i = 0; i < n; i++) I->lo[i] = sec_of(I, r[i].lower), I->hi[i] = sec_of(I, r[i].upper);
}

/* in[i] (1: kept) shrunk to its largest subset that fills [0, h[s]) of
   every section exactly (no holes below a kept record); h receives it.
   off: the offsets of the kept records. Returns the kept count. */
static int32_t close_down(const inst *I, const int64_t *off, uint8_t *in, int64_t *h) {
  int32_t i, s, changed = 1, kept = 0;
  int64_t *tops = (int64_t *)malloc(sizeof(int64_t) * (size_t)I->n * 2);
  while (changed) {
    changed = 0;
    for (s = 0; s < I->ns; s++) { /* contiguous cover from 0 */
      int32_t c = 0, k;
      int64_t top = 0;
      for (i = 0; i < I->n; i++)
        if (in[i] && I->lo[i] <= s && s < I->hi[i]) tops[2 * c] = off[i], tops[2 * c + 1] = off[i] + I->r[i].size, c++;
      /* sort pairs by offset (insertion: sections hold few records) */
      for (i = 1; i < c; i++) {
        int64_t a = tops[2 * i], b = tops[2 * i + 1];
        int32_t j = i - 1;
        while (j >= 0 && tops[2 * j] > a) tops[2 * j + 2] = tops[2 * j], tops[2 * j + 3] = tops[2 * j + 1], j--;
        tops[2 * j + 2] = a, tops[2 * j + 3] = b;
      }
      for (k = 0; k < c && tops[2 * k] == top; k++) top = tops[2 * k + 1];
      h[s] = top;
    }
    for (i = 0; i < I->n; i++) {
      if (!in[i]) continue;
      for (s = I->lo[i]; s < I->hi[i]; s++)
        if (off[i] + I->r[i].size > h[s]) {
          in[i] = 0, changed = 1;
          break;
        }
    }
  }
  for (i = 0; i < I->n; i++) kept += in[i];
  free(tops);
  return kept;
}

static size_t scratch_bytes_for(int32_t n) {
  size_t b = 0;
  dnnmem__exact_scratch_size(n, 0, 0, &b);
  return b;
}

/* The repair's sub-instance: the records not kept, above pillars (fixed
   at 0) of height h over the sections where a free record lives. Solved
   at the capacity within `limit` nodes; a plan goes into full[] with the
   kept offsets. Returns 1 found, 0 exhausted, -1 unknown; *nodes;
   *deep: kept + the sub-search's deepest placements, deep_off that plan. */
static int repair(const inst *I, const int64_t *off, const uint8_t *in, const int64_t *h, int64_t limit,
                  int64_t *full, int64_t *nodes, int32_t *deep, int64_t *deep_off, int32_t *nfree, int64_t salt2) {
  int32_t n = I->n, i, s, m = 0, *map = (int32_t *)malloc(sizeof(int32_t) * (size_t)n * 2 + 8);
  uint8_t *live = (uint8_t *)calloc((size_t)I->ns + 1, 1);
  dnnmem_interval *sub = (dnnmem_interval *)calloc((size_t)n + (size_t)I->ns + 1, sizeof(dnnmem_interval));
  int64_t *so, *sd;
  size_t bytes;
  void *scr;
  dnnmem__exact_params pr;
  dnnmem__exact_outcome out;
  int res, kept = 0;
  for (i = 0; i < n; i++) {
    if (in[i]) { kept++; continue; }
    sub[m] = I->r[i];
    sub[m].flags = 0;
    map[m++] = i;
    for (s = I->lo[i]; s < I->hi[i]; s++) live[s] = 1;
  }
  *nfree = m;
  {
    int32_t nfr = m;
    if (env_i("KEPTFIX", 0)) /* the kept records themselves, fixed (a floor), not pillars */
      for (i = 0; i < n; i++) {
        if (!in[i]) continue;
        sub[m] = I->r[i];
        sub[m].flags = DNNMEM_INTERVAL_FIXED, sub[m].fixed_offset = off[i];
        map[m++] = -1;
      }
    for (s = 0; s < I->ns && !env_i("KEPTFIX", 0);) { /* pillars: runs of live sections of one height */
      int32_t e = s + 1;
      if (!live[s] || h[s] == 0) { s++; continue; }
      while (e < I->ns && live[e] && h[e] == h[s]) e++;
      memset(&sub[m], 0, sizeof sub[m]);
      sub[m].lower = I->times[s], sub[m].upper = I->times[e], sub[m].size = h[s];
      sub[m].flags = DNNMEM_INTERVAL_FIXED, sub[m].fixed_offset = 0;
      map[m++] = -1;
      s = e;
    }
    so = (int64_t *)calloc((size_t)m + 1, sizeof(int64_t));
    sd = (int64_t *)calloc((size_t)m + 1, sizeof(int64_t));
    bytes = scratch_bytes_for(m);
    scr = malloc(bytes);
    memset(&pr, 0, sizeof pr);
    pr.capacity = I->cap;
    pr.node_limit = limit;
    pr.deepest = sd;
    pr.noise_salt = (uint64_t)salt2;
    pr.floor_fixed = (int)env_i("FLOOR", 1);
    if (dnnmem__exact_solve(sub, m, 1, &pr, so, &out, scr, bytes) != DNNMEM_OK) out.feasible = -1, out.nodes = 1;
    res = out.feasible;
    *nodes = out.nodes;
    for (i = 0; i < n; i++) full[i] = in[i] ? off[i] : -1;
    for (i = 0; i < nfr; i++) full[map[i]] = res == 1 ? so[i] : -1;
    for (i = 0; i < n; i++) deep_off[i] = in[i] ? off[i] : -1;
    for (i = 0; i < nfr; i++) deep_off[map[i]] = sd[i];
    *deep = kept + out.deepest;
    free(so), free(sd), free(scr);
  }
  free(map), free(live), free(sub);
  return res;
}

static int32_t count_placed(const int64_t *o, int32_t n) {
  int32_t i, c = 0;
  for (i = 0; i < n; i++) c += o[i] >= 0;
  return c;
}

/* LNS on one instance. Returns 1 decided (plan recounted), 0 not; *used nodes. */
static int lns(const dnnmem_interval *r, int32_t n, int64_t cap, int64_t budget, uint64_t salt, int64_t *used,
               int32_t *rounds_out, int64_t *first_out) {
  inst I;
  int64_t *cur = (int64_t *)malloc(sizeof(int64_t) * (size_t)n), *full = (int64_t *)malloc(sizeof(int64_t) * (size_t)n);
  int64_t *dof = (int64_t *)malloc(sizeof(int64_t) * (size_t)n), *h, *h2;
  uint8_t *in, *in2;
  int64_t share = budget * env_i("SHARE", 20) / 100, capn = env_i("CAP", 20000), spent;
  int verb = (int)env_i("VERB", 0);
  dnnmem__exact_params pr;
  dnnmem__exact_outcome out;
  size_t bytes = scratch_bytes_for(n);
  void *scr = malloc(bytes);
  dnnmem_rng rng;
  dnnmem_intervals p;
  int32_t curd, rounds = 0, fails = 0, i;
  int decided = 0;
  double lam = 0.5;
  int64_t width = env_i("WIDTH", 30);
  int mode = (int)env_i("MODE", 0);
  p.records = r, p.count = n, p.alignment = 0;
  inst_init(&I, r, n, cap);
  h = (int64_t *)malloc(sizeof(int64_t) * ((size_t)I.ns + 1));
  h2 = (int64_t *)malloc(sizeof(int64_t) * ((size_t)I.ns + 1));
  in = (uint8_t *)malloc((size_t)n), in2 = (uint8_t *)malloc((size_t)n);
  memset(&pr, 0, sizeof pr);
  pr.capacity = cap;
  pr.node_limit = share;
  pr.noise_salt = salt;
  pr.deepest = cur;
  pr.no_repair = 1; /* this driver's own repair follows */
  dnnmem__exact_solve(r, n, 1, &pr, full, &out, scr, bytes);
  spent = out.nodes;
  *first_out = out.nodes;
  if (out.feasible == 1) {
    decided = ref_plan_recount(&p, full) == cap ? 1 : -1;
    goto done;
  }
  curd = out.deepest;
  dnnmem_rng_seed(&rng, 0x5EED + salt + ((uint64_t)env_i("LSEED", 0) << 20));
  if (verb) printf("  first: deepest %d of %d (%d placed)\n", curd, n, count_placed(cur, n));
  if (verb > 1) {
    int32_t hb[10] = {0}, hp[10] = {0}, hk[10] = {0};
    for (i = 0; i < n; i++) in[i] = cur[i] >= 0;
    close_down(&I, cur, in, h);
    for (i = 0; i < n; i++) {
      int32_t bk = (int32_t)(r[i].lower / 25); if (bk > 9) bk = 9;
      hb[bk]++, hp[bk] += cur[i] >= 0, hk[bk] += in[i];
    }
    for (i = 0; i < 10; i++) printf("  start [%d,%d): %d records, %d placed, %d kept\n", 25 * i, i == 9 ? 1000 : 25 * i + 25, hb[i], hp[i], hk[i]);
  }
  while (spent < budget) {
    int32_t u, cnt = 0, kept, nfree, dd, s, a, b, slice;
    double lv;
    int64_t nodes, t0, t1;
    int res;
    /* K: the deepest plan's downward-closed part */
    for (i = 0; i < n; i++) in[i] = cur[i] >= 0;
    close_down(&I, cur, in, h);
    /* a centre: a record not kept, at random */
    for (i = 0; i < n; i++) cnt += !in[i];
    if (cnt == 0) break;
    u = (int32_t)dnnmem_rng_below(&rng, (uint32_t)cnt);
    for (i = 0; i < n; i++) if (!in[i] && u-- == 0) break;
    u = i;
    t0 = r[u].lower - width, t1 = r[u].upper + width;
    lv = lam;
    slice = mode == 1 || (mode == 2 && rounds % 2 == 1);
    if (slice) { /* a bottom slice of the whole time axis, its level drawn */
      t0 = 0, t1 = I.times[I.ns];
      lv = (double)env_i("LAMLO", 10) / 100 + dnnmem_rng_uniform(&rng) * (double)(env_i("LAMHI", 70) - env_i("LAMLO", 10)) / 100;
    }
    a = sec_of(&I, t0 < 0 ? 0 : t0), b = sec_of(&I, t1);
    if (b > I.ns) b = I.ns;
    memcpy(in2, in, (size_t)n);
    for (i = 0; i < n; i++) { /* free the kept records of the window above lam * h */
      if (!in2[i] || I.hi[i] <= a || I.lo[i] >= b) continue;
      for (s = I.lo[i] > a ? I.lo[i] : a; s < I.hi[i] && s < b; s++)
        if (cur[i] + r[i].size > (int64_t)(lv * (double)h[s])) { in2[i] = 0; break; }
    }
    kept = close_down(&I, cur, in2, h2);
    res = repair(&I, cur, in2, h2, capn < budget - spent ? capn : budget - spent, full, &nodes, &dd, dof, &nfree, rounds);
    spent += nodes;
    rounds++;
    if (verb)
      printf("  r%d u%d [%lld,%lld) lam %.2f kept %d free %d -> %s %lld nodes, deep %d (cur %d)\n", rounds, u,
             (long long)t0, (long long)t1, lv, kept, nfree, res == 1 ? "yes" : res == 0 ? "no" : "-",
             (long long)nodes, dd, curd);
    if (res == 1) {
      decided = ref_plan_recount(&p, full) == cap ? 1 : -1;
      break;
    }
    if (dd >= curd) { /* accept: the repair's deepest plan is as deep or deeper */
      if (dd > curd) fails = 0;
      memcpy(cur, dof, sizeof(int64_t) * (size_t)n);
      curd = dd;
    }
    if (slice) {
    } else if (res == 0) { /* this neighbourhood cannot be completed: grow */
      lam = lam > 0.2 ? lam - 0.25 : 0;
      width += width / 2;
    } else {
      fails++;
      if (fails % 4 == 0 && lam < 0.75) lam += 0.25;
    }
  }
done:
  *used = spent;
  *rounds_out = rounds;
  free(cur), free(full), free(dof), free(h), free(h2), free(in), free(in2), free(scr);
  free(I.times), free(I.lo), free(I.hi);
  return decided;
}

static void tile(int32_t size, int32_t seed, int salt, int64_t limit, int use_lns) {
  dnnmem_interval *r = (dnnmem_interval *)calloc((size_t)size, sizeof(*r));
  int64_t *off = (int64_t *)calloc((size_t)size + 1, sizeof(int64_t));
  dnnmem_rng rng;
  int32_t n;
  dnnmem_intervals p;
  double c0;
  dnnmem_rng_seed(&rng, (uint64_t)seed);
  n = ref_plan_tiling(&rng, r, size, 1000, 1024 * 1024, 1024);
  if (getenv("CLIP")) { int32_t i, m = 0; int64_t c = atoll(getenv("CLIP")); for (i = 0; i < n; i++) if (r[i].lower < c) { r[m] = r[i]; if (r[m].upper > c) r[m].upper = c; m++; } n = m; }
  p.records = r, p.count = n, p.alignment = 0;
  c0 = bench_cpu_ms();
  if (!use_lns) {
    size_t bytes = scratch_bytes_for(n);
    void *scratch = malloc(bytes);
    dnnmem__exact_params params;
    dnnmem__exact_outcome out;
    memset(&params, 0, sizeof params);
    params.capacity = 1024 * 1024;
    params.node_limit = limit;
    params.noise_salt = (uint64_t)salt;
    params.no_repair = getenv("NOREPAIR") != NULL; /* the library's repair (on by default) */
    if (dnnmem__exact_solve(r, n, 1, &params, off, &out, scratch, bytes) != DNNMEM_OK) out.feasible = -2;
    printf("%d/%d s%d %s %lld %.0fms repairs %d\n", size, seed, salt,
           out.feasible == 1 ? (ref_plan_recount(&p, off) == 1024 * 1024 ? "yes" : "INVALID")
                             : out.feasible == 0 ? "NO" : "-",
           (long long)out.nodes, bench_cpu_ms() - c0, out.repairs);
    free(scratch);
  } else {
    int64_t used = 0, first = 0;
    int32_t rounds = 0;
    int d = lns(r, n, 1024 * 1024, limit, (uint64_t)salt, &used, &rounds, &first);
    printf("%d/%d s%d %s %lld %.0fms lns rounds %d first %lld\n", size, seed, salt,
           d == 1 ? "yes" : d < 0 ? "INVALID" : "-", (long long)used, bench_cpu_ms() - c0, rounds, (long long)first);
  }
  fflush(stdout);
  free(off), free(r);
}

static const struct {
  const char *name;
  int64_t best;
} mm[] = {{"A", 1048576}, {"B", 1048576}, {"C", 1039360}, {"D", 1031168}, {"E", 1048576}, {"F", 1048576},
          {"G", 1048576}, {"H", 1048576}, {"I", 1048576}, {"J", 1041408}, {"K", 1048576}};

/* floor_fixed's soundness where it can be seen: the bottom of a known plan
   kept (closed down) as pillars, the rest freed must be completable; a
   "no" would be a wrong proof. chk PIECES SEED_LO SEED_HI */
static void check_floor(int32_t size, int32_t lo, int32_t hi) {
  int32_t seed, bad = 0, yes = 0, unk = 0, asked = 0;
  for (seed = lo; seed <= hi; seed++) {
    dnnmem_interval *r = (dnnmem_interval *)calloc((size_t)size, sizeof(*r));
    int64_t *off = (int64_t *)calloc((size_t)size + 1, sizeof(int64_t)), *full, *dof, *h;
    uint8_t *in;
    dnnmem_rng rng;
    int32_t n, k, i;
    inst I;
    size_t bytes;
    void *scr;
    dnnmem__exact_params pr;
    dnnmem__exact_outcome out;
    dnnmem_rng_seed(&rng, (uint64_t)seed);
    n = ref_plan_tiling(&rng, r, size, 1000, 1024 * 1024, 1024);
    bytes = scratch_bytes_for(n);
    scr = malloc(bytes);
    memset(&pr, 0, sizeof pr);
    pr.capacity = 1024 * 1024;
    pr.node_limit = 300000;
    dnnmem__exact_solve(r, n, 1, &pr, off, &out, scr, bytes);
    free(scr);
    if (out.feasible != 1) { free(r), free(off); continue; }
    inst_init(&I, r, n, 1024 * 1024);
    full = (int64_t *)malloc(sizeof(int64_t) * (size_t)n), dof = (int64_t *)malloc(sizeof(int64_t) * (size_t)n);
    h = (int64_t *)malloc(sizeof(int64_t) * ((size_t)I.ns + 1));
    in = (uint8_t *)malloc((size_t)n);
    for (k = 0; k < 8; k++) {
      int64_t level = (int64_t)dnnmem_rng_below(&rng, 1024) * 1024, nodes;
      int32_t dd, nf, res;
      int64_t t0 = (int64_t)dnnmem_rng_below(&rng, 1000), t1 = t0 + (int64_t)dnnmem_rng_below(&rng, 500);
      for (i = 0; i < n; i++) /* kept: below the level, or outside a random time range */
        in[i] = off[i] + r[i].size <= level || r[i].upper <= t0 || r[i].lower >= t1 || dnnmem_rng_below(&rng, 4) == 0;
      close_down(&I, off, in, h);
      res = repair(&I, off, in, h, 300000, full, &nodes, &dd, dof, &nf, (int64_t)k);
      asked++;
      if (res == 0) bad++;
      else if (res == 1) {
        dnnmem_intervals p;
        p.records = r, p.count = n, p.alignment = 0;
        if (ref_plan_recount(&p, full) != 1024 * 1024) bad++; else yes++;
      } else unk++;
    }
    free(I.times), free(I.lo), free(I.hi), free(full), free(dof), free(h), free(in), free(r), free(off);
  }
  printf("chk %d pieces: %d asked, %d yes, %d unknown, %d WRONG\n", size, asked, yes, unk, bad);
}

/* Small questions the repair decides and the search alone does not:
   find PIECES SEED_LO SEED_HI NODES (the library's repair, params.no_repair
   off and on). */
static void find_cases(int32_t size, int32_t lo, int32_t hi, int64_t limit) {
  int32_t seed;
  for (seed = lo; seed <= hi; seed++) {
    dnnmem_interval *r = (dnnmem_interval *)calloc((size_t)size, sizeof(*r));
    int64_t *off = (int64_t *)calloc((size_t)size + 1, sizeof(int64_t));
    dnnmem_rng rng;
    int32_t n, mode;
    int64_t nodes[2];
    int res[2], rounds = 0;
    size_t bytes;
    void *scr;
    dnnmem_intervals p;
    dnnmem_rng_seed(&rng, (uint64_t)seed);
    n = ref_plan_tiling(&rng, r, size, 1000, 1024 * 1024, 1024);
    p.records = r, p.count = n, p.alignment = 0;
    bytes = scratch_bytes_for(n);
    scr = malloc(bytes);
    for (mode = 0; mode < 2; mode++) {
      dnnmem__exact_params pr;
      dnnmem__exact_outcome out;
      memset(&pr, 0, sizeof pr);
      pr.capacity = 1024 * 1024;
      pr.node_limit = limit;
      pr.no_repair = mode == 0;
      dnnmem__exact_solve(r, n, 1, &pr, off, &out, scr, bytes);
      res[mode] = out.feasible == 1 ? (ref_plan_recount(&p, off) == 1024 * 1024 ? 1 : -1) : out.feasible;
      nodes[mode] = out.nodes;
      if (mode) rounds = out.repairs;
    }
    if (res[0] != res[1] || res[1] < 0)
      printf("%d/%d: search %d (%lld nodes), repair %d (%lld nodes, %d rounds)\n", size, seed, res[0],
             (long long)nodes[0], res[1], (long long)nodes[1], rounds);
    fflush(stdout);
    free(scr), free(r), free(off);
  }
}

int main(int argc, char **argv) {
  if (argc >= 6 && !strcmp(argv[1], "find")) {
    find_cases(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]), atoll(argv[5]));
    return 0;
  }
  if (argc >= 5 && !strcmp(argv[1], "chk")) {
    check_floor(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
    return 0;
  }
  if (argc >= 8 && (!strcmp(argv[1], "tile") || !strcmp(argv[1], "lns"))) {
    int32_t s, seed, salt;
    char *tok;
    for (tok = strtok(argv[2], ","); tok; tok = strtok(NULL, ",")) {
      s = atoi(tok);
      for (seed = atoi(argv[3]); seed <= atoi(argv[4]); seed++)
        for (salt = atoi(argv[5]); salt <= atoi(argv[6]); salt++) tile(s, seed, salt, atoll(argv[7]), argv[1][0] == 'l');
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
      size_t bytes;
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
      bytes = scratch_bytes_for(n);
      scratch = malloc(bytes);
      memset(&params, 0, sizeof params);
      params.capacity = mm[k].best;
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

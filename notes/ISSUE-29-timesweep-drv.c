/* The prototype of notes/ISSUE-29-timesweep.md: a search over time for
   zero-slack instances (every section's load equals the capacity), outside
   the library. At each start time the records that end free their bytes;
   the freed runs are holes the records starting there must fill exactly,
   bottom-up. Pruned by: subset sums of the starters per hole, one
   canonical order of adjacent starters that end together, closed runs (a
   run of records ending at u between records that outlive u is a hole at
   u: a sum of u's starters), and a memo of failed (time, profile) states
   (the profile: the stack's widths and end times, adjacent equal ends
   merged: it and the time fix the future). Every plan recounted by
   ref_plan_recount. Not part of make:
     gcc -O2 -std=c99 -I. -Itests -o ts notes/ISSUE-29-timesweep-drv.c -lm
     ts tile SIZES SEED_LO SEED_HI NODES         (SIZES: 400,600,800; stream 0's tilings)
   CLIP=c: records cut at time c (the window cut); FLIPT=1: time reversed;
   NOMEMO / NOCLOSED / NOCANON / NOCHAIN: a rule off; ORDER=0 largest first
   (default), 1 smallest first, 2 a record ending with the one below first,
   then largest; ASG=1: starters given to holes (a multiset each) before any
   order; JOINT=1: the closed holes of one time must take disjoint starters
   (a bounded packing check); RESTART=b: noisy restarts, budgets b, 1.5b, ...
   (NOISE=x: each rank plus a uniform draw of x ranks, default 2); HIST=1:
   nodes per event; DBG=1: stack sums checked; TRACE=1: the first failures. */
#include "bench.h"

#define W 17 /* bitset words: up to 1087 units */

typedef struct seg {
  int32_t w, end, id, off; /* units, time, record, units */
} seg;

typedef struct cls {
  int32_t w, end, count, first; /* first: the records of the class, linked by next */
} cls;

static int32_t n, m, cap, *ev, *cls_lo, *next_rec, ncls, nodes_limit_hit;
static cls *cl;
static int64_t knodes[4096], nodes, limit, memo_hits, closed_fails;
static uint64_t (*ss)[W]; /* per event: the subset sums of its starters */
static int32_t *ev_of_time, tmax;
static seg **prof; /* prof[k]: the stack after event k-1 (k = 0: empty) */
static int32_t *pc;
static int32_t *offs; /* offset per record, units */
static double noise, noise_arg;
static uint64_t rng_state = 88172645463325252ull;
static int32_t *uni_end, ev_hist[4096];
static int no_chain, no_memo, no_closed, no_canon, order;
static uint64_t *memo;
static int64_t memo_size, memo_used;

static int bit(const uint64_t *b, int32_t x) { return x >= 0 && x <= cap && (b[x >> 6] >> (x & 63)) & 1; }

/* The subset sums of the starters of event k still unplaced. */
static void sums(int32_t k, uint64_t *b) {
  int32_t c, j, i;
  memset(b, 0, W * sizeof(uint64_t));
  b[0] = 1;
  for (c = cls_lo[k]; c < cls_lo[k + 1]; c++)
    for (j = 0; j < cl[c].count; j++) {
      int32_t s = cl[c].w, sw = s >> 6, sb = s & 63;
      for (i = W - 1; i >= sw; i--) {
        uint64_t v = b[i - sw] << sb;
        if (sb && i - sw - 1 >= 0) v |= b[i - sw - 1] >> (64 - sb);
        b[i] |= v;
      }
    }
}

/* The closed holes found so far (a trail undone on backtracking): the
   holes of one time must take disjoint sets of its starters (JOINT=1). */
static int32_t trail_u[1 << 16], trail_off[1 << 16], trail_w[1 << 16], trail_len, use_joint;
static int64_t pack_nodes, joint_fails;

/* Whether bins[b..nb) (rooms) can each be filled exactly by the sizes
   sz[] with counts cnt[] (from item index j on for the current bin). */
static int pack(int32_t *bins, int32_t nb, int32_t b, int32_t room, const int32_t *sz, int32_t *cnt, int32_t ns, int32_t j) {
  int32_t x;
  if (room == 0) {
    if (++b == nb) return 1;
    return pack(bins, nb, b, bins[b], sz, cnt, ns, 0);
  }
  if (++pack_nodes > 20000) return 1; /* unknown: assume it fits */
  for (; j < ns; j++) {
    if (!cnt[j] || sz[j] > room) continue;
    cnt[j]--;
    x = pack(bins, nb, b, room - sz[j], sz, cnt, ns, j);
    cnt[j]++;
    if (x) return 1;
  }
  return 0;
}

static int joint_ok(int32_t u, int32_t off, int32_t w) {
  int32_t q, k = ev_of_time[u], bins[256], nb = 0, sz[1024], cnt[1024], ns = 0, c;
  for (q = 0; q < trail_len; q++)
    if (trail_u[q] == u && trail_off[q] == off) return 1; /* known */
  if (trail_len == (1 << 16)) return 1;
  trail_u[trail_len] = u, trail_off[trail_len] = off, trail_w[trail_len] = w, trail_len++;
  for (q = 0; q < trail_len && nb < 256; q++)
    if (trail_u[q] == u) {
      int32_t y = nb++, x = trail_w[q];
      for (; y > 0 && bins[y - 1] < x; y--) bins[y] = bins[y - 1];
      bins[y] = x;
    }
  if (nb < 2) return 1;
  for (c = cls_lo[k]; c < cls_lo[k + 1]; c++) {
    int32_t y;
    for (y = 0; y < ns && sz[y] != cl[c].w; y++) {}
    if (y == ns) {
      if (ns == 1024) return 1;
      sz[ns] = cl[c].w, cnt[ns++] = 0;
    }
    cnt[y] += cl[c].count;
  }
  for (q = 1; q < ns; q++) { /* largest first */
    int32_t a = sz[q], b = cnt[q], y;
    for (y = q; y > 0 && sz[y - 1] < a; y--) sz[y] = sz[y - 1], cnt[y] = cnt[y - 1];
    sz[y] = a, cnt[y] = b;
  }
  pack_nodes = 0;
  if (!pack(bins, nb, 0, bins[0], sz, cnt, ns, 0)) return joint_fails++, 0;
  return 1;
}

/* A run of width w ending at u, closed on both sides by records that end
   at b or later: a hole at u, a sum of u's starters; when those all end
   together at u2 < b, the hole's content is a closed run at u2 (the chain). */
static int closed_ok(int32_t u, int32_t w, int32_t b, int32_t off) {
  int32_t k;
  for (;;) {
    if (no_closed || u >= tmax) return 1;
    k = ev_of_time[u];
    if (k < 0) return 0;
    if (!bit(ss[k], w)) return closed_fails++, 0;
    if (use_joint && !joint_ok(u, off, w)) return 0;
    if (no_chain || uni_end[k] < 0 || uni_end[k] >= b) return 1;
    u = uni_end[k];
  }
}

/* Checks the run ending at the top of p[0..c) as closed above by a
   segment ending at above (or the ceiling: INT32_MAX). */
static int run_ok(const seg *p, int32_t c, int32_t above) {
  int32_t u, w = 0, i;
  if (c == 0) return 1;
  u = p[c - 1].end;
  if (above <= u) return 1;
  for (i = c - 1; i >= 0 && p[i].end == u; i--) w += p[i].w;
  if (i >= 0 && p[i].end < u) return 1;
  return closed_ok(u, w, i < 0 ? above : p[i].end < above ? p[i].end : above, p[i + 1].off);
}

static uint64_t hash_prof(int32_t k, const seg *p, int32_t c) {
  uint64_t h = 1469598103934665603ull ^ (uint64_t)k * 0x9E3779B97F4A7C15ull;
  int32_t i = 0;
  while (i < c) {
    int32_t w = 0, e = p[i].end;
    while (i < c && p[i].end == e) w += p[i++].w;
    h = (h ^ (uint64_t)w) * 1099511628211ull;
    h = (h ^ (uint64_t)e) * 1099511628211ull;
    h ^= h >> 29;
  }
  return h | 1;
}

static int memo_has(uint64_t h) {
  int64_t i = (int64_t)(h & (uint64_t)(memo_size - 1));
  while (memo[i]) {
    if (memo[i] == h) return 1;
    i = (i + 1) & (memo_size - 1);
  }
  return 0;
}
static void memo_add(uint64_t h) {
  int64_t i = (int64_t)(h & (uint64_t)(memo_size - 1));
  if (memo_used * 2 > memo_size) return;
  while (memo[i]) {
    if (memo[i] == h) return;
    i = (i + 1) & (memo_size - 1);
  }
  memo[i] = h, memo_used++;
}

static int solve(int32_t k);
static int use_asg;
static int32_t hint_events, *hint; /* HINT=K: events below K follow hint (offsets, units) */
static int32_t **asg; /* per event: the count of each class per hole */
static int32_t *pool, pool_used; /* the tries of every frame */

/* Event k: the old stack prof[k], walls at index i (the next old segment
   to copy), pos: the offset reached in units; the new stack is built in
   prof[k + 1]. hole_top: the end of the hole being filled, -1 when none. */
static int fill_body(int32_t k, int32_t i, int32_t pos, int32_t hole_top, int32_t below_cls, int32_t h);
static int fill(int32_t k, int32_t i, int32_t pos, int32_t hole_top, int32_t below_cls, int32_t h) {
  int32_t mark = trail_len;
  int r = fill_body(k, i, pos, hole_top, below_cls, h);
  if (!r) trail_len = mark;
  return r;
}
static int fill_body(int32_t k, int32_t i, int32_t pos, int32_t hole_top, int32_t below_cls, int32_t h) {
  seg *o = prof[k], *p = prof[k + 1];
  int32_t t = ev[k], save = pc[k + 1], base;
  if (hole_top < 0) { /* copy walls up to the next hole */
    while (i < pc[k] && o[i].end != t) {
      if (!run_ok(p, pc[k + 1], o[i].end)) return pc[k + 1] = save, 0;
      p[pc[k + 1]++] = o[i], pos += o[i].w, i++;
    }
    if (i == pc[k] && pos == cap) { /* every hole filled */
      int r;
      uint64_t h;
      if (!run_ok(p, pc[k + 1], INT32_MAX)) return pc[k + 1] = save, 0;
      h = hash_prof(k + 1, p, pc[k + 1]);
      if (!no_memo && memo_has(h)) return memo_hits++, pc[k + 1] = save, 0;
      r = solve(k + 1);
      if (!r && !nodes_limit_hit && !no_memo) memo_add(h);
      if (!r) pc[k + 1] = save;
      return r;
    }
    hole_top = pos;
    while (i < pc[k] && o[i].end == t) hole_top += o[i].w, i++;
    if (k == 0) hole_top = cap;
    below_cls = -1, h++;
  }
  base = pc[k + 1];
  if (pos == hole_top) {
    int r = fill(k, i, pos, -1, -1, h);
    if (!r) pc[k + 1] = save;
    return r;
  }
  {
    uint64_t b[W];
    int32_t c, *tries = pool + pool_used, nt = 0, j, room = hole_top - pos;
    if (use_asg) memset(b, 0xff, sizeof b);
    else sums(k, b);
    if (!bit(b, room)) return 0;
    for (c = cls_lo[k]; c < cls_lo[k + 1]; c++) {
      if (!cl[c].count || cl[c].w > room) continue;
      if (use_asg && !asg[k][h * (cls_lo[k + 1] - cls_lo[k]) + c - cls_lo[k]]) continue;
      if (k < hint_events) { /* the exact search's plan for the first events */
        int32_t q = cl[c].first, ok = 0;
        for (; q >= 0 && !ok; q = next_rec[q]) ok = hint[q] == pos;
        if (!ok) continue;
      }
      if (!no_canon && below_cls >= 0 && cl[below_cls].end == cl[c].end && c < below_cls) continue;
      tries[nt++] = c;
    }
    pool_used += nt;
    /* the order: */
    for (j = 1; j < nt; j++) {
      int32_t x = tries[j], y;
      for (y = j; y > 0; y--) {
        int32_t a = tries[y - 1], better;
        if (order == 1) better = cl[x].w < cl[a].w;
        else if (order == 2) {
          int32_t eb = pc[k + 1] ? p[pc[k + 1] - 1].end : -1;
          better = (cl[x].end == eb) > (cl[a].end == eb) || ((cl[x].end == eb) == (cl[a].end == eb) && cl[x].w > cl[a].w);
        } else better = cl[x].w > cl[a].w;
        if (!better) break;
        tries[y] = a;
      }
      tries[y] = x;
    }
    if (noise > 0 && nt > 1) { /* a noisy restart: each rank plus a uniform draw of noise ranks */
      double key[1024];
      for (j = 0; j < nt && j < 1024; j++) {
        rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
        key[j] = j + noise * (double)(rng_state >> 11) / 9007199254740992.0;
      }
      for (j = 1; j < nt && j < 1024; j++) {
        int32_t x = tries[j], y;
        double kx = key[j];
        for (y = j; y > 0 && key[y - 1] > kx; y--) tries[y] = tries[y - 1], key[y] = key[y - 1];
        tries[y] = x, key[y] = kx;
      }
    }
    for (j = 0; j < nt; j++) {
      int32_t rec;
      c = tries[j];
      if (room - cl[c].w && !bit(b, room - cl[c].w)) continue; /* cheap pre-check, b includes c */
      if (++nodes > limit) return nodes_limit_hit = 1, 0;
      knodes[k]++;
      if (!run_ok(p, pc[k + 1], cl[c].end)) {
        if (getenv("TRACE") && nodes < 60) { int32_t q; printf("fail k%d at %d:", k, pos); for (q = 0; q < pc[k + 1]; q++) printf(" %d(%d,%d)", p[q].id, p[q].w, p[q].end); printf(" + %d(%d,%d)\n", cl[c].first, cl[c].w, cl[c].end); }
        continue;
      }
      rec = cl[c].first;
      if (k < hint_events && hint[rec] != pos) { /* the hinted one of the class to the front */
        int32_t q = rec;
        while (hint[next_rec[q]] != pos) q = next_rec[q];
        rec = next_rec[q], next_rec[q] = next_rec[rec], next_rec[rec] = cl[c].first, cl[c].first = rec;
      }
      cl[c].first = next_rec[rec], cl[c].count--;
      if (use_asg) asg[k][h * (cls_lo[k + 1] - cls_lo[k]) + c - cls_lo[k]]--;
      offs[rec] = pos;
      p[pc[k + 1]].w = cl[c].w, p[pc[k + 1]].end = cl[c].end, p[pc[k + 1]].id = rec, p[pc[k + 1]].off = pos, pc[k + 1]++;
      if (fill(k, i, pos + cl[c].w, hole_top, c, h)) return pool_used -= nt, 1;
      pc[k + 1] = base;
      cl[c].first = rec, cl[c].count++;
      if (use_asg) asg[k][h * (cls_lo[k + 1] - cls_lo[k]) + c - cls_lo[k]]++;
      if (nodes_limit_hit) return pool_used -= nt, 0;
    }
    pool_used -= nt;
  }
  pc[k + 1] = save;
  return 0;
}

/* The starters of event k given to holes first (a multiset per hole, every
   hole exactly), then ordered per hole by fill: an assignment that cannot
   be made costs no orders. avail: the starters not yet given. */
static int assign(int32_t k, int32_t h, int32_t c, int32_t room, int32_t nh, const int32_t *hw, int32_t *avail) {
  int32_t nc = cls_lo[k + 1] - cls_lo[k], x, hi, j;
  if (room == 0) {
    uint64_t b[W];
    if (++h == nh) return fill(k, 0, 0, -1, -1, -1);
    memset(b, 0, sizeof b), b[0] = 1;
    for (j = 0; j < nc; j++) { /* the sums of what is left: every later hole one of them */
      int32_t y, s = cl[cls_lo[k] + j].w, sw = s >> 6, sb = s & 63, q;
      for (y = 0; y < avail[j]; y++)
        for (q = W - 1; q >= sw; q--) {
          uint64_t v = b[q - sw] << sb;
          if (sb && q - sw - 1 >= 0) v |= b[q - sw - 1] >> (64 - sb);
          b[q] |= v;
        }
    }
    for (j = h; j < nh; j++) if (!bit(b, hw[j])) return 0;
    return assign(k, h, cls_lo[k], hw[h], nh, hw, avail);
  }
  if (c == cls_lo[k + 1]) return 0;
  { /* room a sum of the classes from c on */
    uint64_t b[W];
    int32_t y, q, d;
    memset(b, 0, sizeof b), b[0] = 1;
    for (d = c - cls_lo[k]; d < nc; d++) {
      int32_t s = cl[cls_lo[k] + d].w, sw = s >> 6, sb = s & 63;
      for (y = 0; y < avail[d]; y++)
        for (q = W - 1; q >= sw; q--) {
          uint64_t v = b[q - sw] << sb;
          if (sb && q - sw - 1 >= 0) v |= b[q - sw - 1] >> (64 - sb);
          b[q] |= v;
        }
    }
    if (!bit(b, room)) return 0;
  }
  j = c - cls_lo[k];
  hi = avail[j] < room / cl[c].w ? avail[j] : room / cl[c].w;
  for (x = hi; x >= 0; x--) {
    if (++nodes > limit) return nodes_limit_hit = 1, 0;
    knodes[k]++;
    asg[k][h * nc + j] = x, avail[j] -= x;
    if (assign(k, h, c + 1, room - x * cl[c].w, nh, hw, avail)) return 1;
    avail[j] += x, asg[k][h * nc + j] = 0;
    if (nodes_limit_hit) return 0;
  }
  return 0;
}

static int32_t deepest;
static int solve(int32_t k) {
  if (k > deepest) deepest = k;
  if (getenv("DBG") && k > 0) { int32_t q, sw = 0; for (q = 0; q < pc[k]; q++) sw += prof[k][q].w; if (sw != cap) { fprintf(stderr, "bad k %d sum %d pc %d\n", k, sw, pc[k]); abort(); } }
  if (k == m) return 1;
  pc[k + 1] = 0;
  if (use_asg) {
    int32_t nc = cls_lo[k + 1] - cls_lo[k], nh = 0, *hw, *avail, q, r, j;
    hw = (int32_t *)malloc(((size_t)pc[k] + 1) * sizeof(int32_t));
    if (k == 0) hw[nh++] = cap;
    for (q = 0; q < pc[k]; q++) {
      if (prof[k][q].end != ev[k]) continue;
      if (q > 0 && prof[k][q - 1].end == ev[k]) hw[nh - 1] += prof[k][q].w;
      else hw[nh++] = prof[k][q].w;
    }
    asg[k] = (int32_t *)calloc((size_t)nh * (size_t)nc + 1, sizeof(int32_t));
    avail = (int32_t *)malloc(((size_t)nc + 1) * sizeof(int32_t));
    for (j = 0; j < nc; j++) avail[j] = cl[cls_lo[k] + j].count;
    r = assign(k, 0, cls_lo[k], hw[0], nh, hw, avail);
    free(hw), free(avail), free(asg[k]);
    return r;
  }
  return fill(k, 0, 0, -1, -1, -1);
}

static dnnmem_interval *G;
static int cmp_idx(const void *a, const void *b) {
  const dnnmem_interval *x = &G[*(const int32_t *)a], *y = &G[*(const int32_t *)b];
  if (x->lower != y->lower) return x->lower < y->lower ? -1 : 1;
  if (x->size != y->size) return x->size > y->size ? -1 : 1;
  if (x->upper != y->upper) return x->upper < y->upper ? -1 : 1;
  return *(const int32_t *)a - *(const int32_t *)b;
}

/* 1 decided yes (off filled, bytes), 0 proved no, -1 unanswered. */
static int sweep(dnnmem_interval *r, int32_t cnt, int64_t capacity, int64_t node_limit, int64_t *off) {
  int32_t i, k, *idx, unit = 1024;
  int64_t g = capacity;
  for (i = 0; i < cnt; i++) {
    int64_t a = g, b = r[i].size;
    while (b) { int64_t t = a % b; a = b, b = t; }
    g = a;
  }
  unit = (int32_t)g;
  cap = (int32_t)(capacity / unit);
  if (cap > 64 * W - 1) return -2;
  n = cnt, G = r;
  idx = (int32_t *)malloc((size_t)n * sizeof(int32_t));
  for (i = 0; i < n; i++) idx[i] = i;
  qsort(idx, (size_t)n, sizeof(int32_t), cmp_idx);
  tmax = 0;
  for (i = 0; i < n; i++) if (r[i].upper > tmax) tmax = (int32_t)r[i].upper;
  ev = (int32_t *)malloc(((size_t)n + 1) * sizeof(int32_t));
  ev_of_time = (int32_t *)malloc(((size_t)tmax + 1) * sizeof(int32_t));
  for (i = 0; i <= tmax; i++) ev_of_time[i] = -1;
  cls_lo = (int32_t *)malloc(((size_t)n + 2) * sizeof(int32_t));
  cl = (cls *)malloc(((size_t)n + 1) * sizeof(cls));
  next_rec = (int32_t *)malloc((size_t)n * sizeof(int32_t));
  m = 0, ncls = 0;
  for (i = 0; i < n; i++) {
    dnnmem_interval *x = &r[idx[i]];
    if (!m || ev[m - 1] != x->lower) ev_of_time[x->lower] = m, cls_lo[m] = ncls, ev[m++] = (int32_t)x->lower;
    if (ncls > cls_lo[m - 1] && cl[ncls - 1].w == x->size / unit && cl[ncls - 1].end == x->upper) {
      next_rec[idx[i]] = cl[ncls - 1].first, cl[ncls - 1].first = idx[i], cl[ncls - 1].count++;
    } else {
      cl[ncls].w = (int32_t)(x->size / unit), cl[ncls].end = (int32_t)x->upper, cl[ncls].count = 1;
      cl[ncls].first = idx[i], next_rec[idx[i]] = -1, ncls++;
    }
  }
  cls_lo[m] = ncls;
  for (k = 0; k < m && k < 4096; k++) ev_hist[k] = ev[k];
  ss = (uint64_t(*)[W])calloc((size_t)m, sizeof *ss);
  for (k = 0; k < m; k++) sums(k, ss[k]);
  uni_end = (int32_t *)malloc((size_t)m * sizeof(int32_t));
  for (k = 0; k < m; k++) {
    int32_t c;
    uni_end[k] = cl[cls_lo[k]].end;
    for (c = cls_lo[k]; c < cls_lo[k + 1]; c++) if (cl[c].end != uni_end[k]) uni_end[k] = -1;
  }
  prof = (seg **)malloc(((size_t)m + 1) * sizeof(seg *));
  for (k = 0; k <= m; k++) prof[k] = (seg *)malloc(((size_t)n + 1) * sizeof(seg));
  pc = (int32_t *)calloc((size_t)m + 1, sizeof(int32_t));
  asg = (int32_t **)calloc((size_t)m + 1, sizeof(int32_t *));
  offs = (int32_t *)calloc((size_t)n, sizeof(int32_t));
  memo_size = 1 << 22, memo_used = 0;
  pool = (int32_t *)malloc(((size_t)n + 1) * ((size_t)n + 1) * sizeof(int32_t)), pool_used = 0;
  memo = (uint64_t *)calloc((size_t)memo_size, sizeof(uint64_t));
  trail_len = 0, joint_fails = 0, deepest = 0;
  nodes = 0, limit = node_limit, nodes_limit_hit = 0, memo_hits = 0, closed_fails = 0;
  {
    int res = 0;
    if (getenv("RESTART")) { /* budgets growing 1.5x, restart r noisy with seed r */
      double budget = atof(getenv("RESTART"));
      int32_t run;
      for (run = 0; !res; run++) {
        noise = run ? noise_arg : 0, rng_state = 88172645463325252ull + (uint64_t)run * 0x9E3779B97F4A7C15ull;
        limit = nodes + (int64_t)budget < node_limit ? nodes + (int64_t)budget : node_limit;
        nodes_limit_hit = 0;
        res = solve(0);
        if (res || !nodes_limit_hit || nodes >= node_limit) break;
        budget *= 1.5;
      }
    } else res = solve(0);
    if (res) for (i = 0; i < n; i++) off[i] = (int64_t)offs[i] * unit;
    res = res ? 1 : nodes_limit_hit ? -1 : 0;
    for (k = 0; k <= m; k++) free(prof[k]);
    free(prof), free(asg), free(uni_end), free(pc), free(pool), free(offs), free(memo), free(ss), free(cl), free(cls_lo), free(next_rec), free(ev),
        free(ev_of_time), free(idx);
    return res;
  }
}

static void tile(int32_t size, int32_t seed, int64_t lim) {
  dnnmem_interval *r = (dnnmem_interval *)calloc((size_t)size, sizeof(*r));
  int64_t *off = (int64_t *)calloc((size_t)size + 1, sizeof(int64_t));
  dnnmem_rng rng;
  int32_t cnt;
  dnnmem_intervals p;
  double c0;
  int res;
  dnnmem_rng_seed(&rng, (uint64_t)seed);
  cnt = ref_plan_tiling(&rng, r, size, 1000, 1024 * 1024, 1024);
  if (getenv("CLIP")) { int32_t i, k = 0; int64_t c = atoll(getenv("CLIP")); for (i = 0; i < cnt; i++) if (r[i].lower < c) { r[k] = r[i]; if (r[k].upper > c) r[k].upper = c; k++; } cnt = k; }
  if (getenv("FLIPT")) { int32_t i; int64_t T = 0; for (i = 0; i < cnt; i++) if (r[i].upper > T) T = r[i].upper; for (i = 0; i < cnt; i++) { int64_t lo = r[i].lower; r[i].lower = T - r[i].upper; r[i].upper = T - lo; } }
  p.records = r, p.count = cnt, p.alignment = 0;
  hint_events = getenv("HINT") ? atoi(getenv("HINT")) : 0;
  if (hint_events) {
    size_t bytes = 0;
    void *scratch;
    dnnmem__exact_params params;
    dnnmem__exact_outcome eo;
    int32_t i;
    dnnmem__exact_scratch_size(cnt, 0, 0, &bytes);
    scratch = malloc(bytes);
    memset(&params, 0, sizeof params);
    params.capacity = 1024 * 1024, params.node_limit = 3000000;
    if (dnnmem__exact_solve(r, cnt, 1, &params, off, &eo, scratch, bytes) != DNNMEM_OK || eo.feasible != 1) hint_events = 0;
    hint = (int32_t *)malloc((size_t)cnt * sizeof(int32_t));
    for (i = 0; i < cnt; i++) hint[i] = (int32_t)(off[i] / 1024);
    free(scratch);
    printf("hint: exact %lld nodes, first %d events fixed\n", (long long)eo.nodes, hint_events);
  }
  c0 = bench_cpu_ms();
  res = sweep(r, cnt, 1024 * 1024, lim, off);
  printf("%d/%d %s %lld %.0fms memo %lld closed %lld joint %lld events %d\n", size, seed,
         res == 1 ? (ref_plan_recount(&p, off) == 1024 * 1024 ? "yes" : "INVALID") : res == 0 ? "NO" : "-",
         (long long)nodes, bench_cpu_ms() - c0, (long long)memo_hits, (long long)closed_fails, (long long)joint_fails, m);
  { /* the event that took most nodes: its time, starters, holes */
    int32_t k, top = 0, st = 0;
    for (k = 1; k < 4096; k++) if (knodes[k] > knodes[top]) top = k;
    for (k = 0; k < cnt; k++) st += r[k].lower == (top < m ? ev_hist[top] : -1);
    printf("  worst event %d (t=%d, %d starters, %.0f%% of nodes) deepest event %d (t=%d)\n", top, top < m ? ev_hist[top] : -1, st, nodes ? 100.0 * (double)knodes[top] / (double)(nodes > limit ? limit : nodes) : 0.0, deepest, deepest < m ? ev_hist[deepest] : -1);
  }
  if (getenv("HIST")) { int32_t k; for (k = 0; k < 4096; k++) if (knodes[k]) printf(" k%d:%lld", k, (long long)knodes[k]); printf("\n"); }
  memset(knodes, 0, sizeof knodes);
  fflush(stdout);
  if (hint_events) free(hint), hint_events = 0;
  free(off), free(r);
}

int main(int argc, char **argv) {
  no_memo = getenv("NOMEMO") != NULL, no_closed = getenv("NOCLOSED") != NULL, no_canon = getenv("NOCANON") != NULL;
  no_chain = getenv("NOCHAIN") != NULL;
  use_asg = getenv("ASG") != NULL;
  use_joint = getenv("JOINT") != NULL;
  noise_arg = getenv("NOISE") ? atof(getenv("NOISE")) : 2.0;
  order = getenv("ORDER") ? atoi(getenv("ORDER")) : 0;
  if (argc >= 6 && !strcmp(argv[1], "tile")) {
    char *tok;
    int32_t seed;
    for (tok = strtok(argv[2], ","); tok; tok = strtok(NULL, ","))
      for (seed = atoi(argv[3]); seed <= atoi(argv[4]); seed++) tile(atoi(tok), seed, atoll(argv[5]));
    return 0;
  }
  fprintf(stderr, "usage: see the comment\n");
  return 2;
}

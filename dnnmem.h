/*
   dnnmem.h - v0.1.0 - memory and placement planning for deep-learning
   compilers and runtimes. One header, C99 (compiles as C++), no allocation.

   Do this:
       #define DNNMEM_IMPLEMENTATION
   before you include this file in *one* C or C++ file to create the
   implementation. Other files include it without the define.

       #include ...
       #define DNNMEM_IMPLEMENTATION
       #include "dnnmem.h"

   Link with -lm (the annealer uses exp()).

   CONTENTS
       Compile-time options
       Conventions (results, scratch buffers, integers, determinism)
       Common types (intervals, graphs, random numbers, stop callbacks)
       One section per part, in the order of the API below
       History, license

   COMPILE-TIME OPTIONS
       DNNMEM_IMPLEMENTATION  emit the implementation (in one file only).
       DNNMEM_STATIC          make every function static (private copy).
       DNNMEM_DEF             override the linkage of every function.
       DNNMEM_ASSERT(x)       internal invariant check; default assert().
       DNNMEM_MEMCPY(d,s,n)   default memcpy().
       DNNMEM_MEMSET(d,v,n)   default memset().
       DNNMEM_EXP(x)          default exp().
       Assertions guard internal invariants only: bad input never reaches
       them, it is answered with an error code.

   CONVENTIONS
       Results. Every fallible function returns dnnmem_result: DNNMEM_OK (0)
       or a negative error code; dnnmem_result_string() names it. Every
       input is validated (sizes, ids, cycles, strings, overflow); outputs
       are written only when the result is DNNMEM_OK unless a function says
       otherwise.

       Scratch ("ask, then pass"). Nothing is allocated inside. Each
       operation X has
           dnnmem_X_scratch_size(<problem dimensions>, size_t *out_bytes)
       and takes (void *scratch, size_t scratch_bytes). Any alignment of the
       pointer is accepted (aligned inside), the memory need not be zeroed,
       nothing outside it is touched, and a short buffer gives
       DNNMEM_ERR_SCRATCH_TOO_SMALL before any output is written. Sizes are
       computed by the same private layout function that carves the buffer,
       so the two cannot disagree. Scratch may be reused between calls.

       Integers. int64_t for bytes, offsets, times and capacities (every sum
       that could overflow is checked and answered with DNNMEM_ERR_OVERFLOW);
       int32_t for counts and ids; size_t only for scratch byte counts.
       Times given as floating point by files are converted to integers at the
       edge (the tool uses nanoseconds) so every answer is exact.

       Determinism. Same input and seed, same output on every platform: own
       stable sorts with explicit tie-breaks, random state in a caller-visible
       struct, no dependence on pointer values. Options structs are
       zero-initialised for the defaults; enums reserve 0 for "default".

       Thread safety. No globals and no static mutable state: calls on
       different scratch buffers may run concurrently.

   COMMON TYPES
       dnnmem_interval   one tensor usage record: half-open lifetime
                         [lower, upper), size in bytes, optional alignment,
                         fixed offset, preferred offset (hint) and gaps
                         (times inside the lifetime when the buffer is idle,
                         optionally keeping a byte window). Shared by the
                         planning and cover parts.
       dnnmem_graph      a graph as CSR of input edges: node v's inputs are
                         in_ids[in_offsets[v] .. in_offsets[v+1]). Per-node
                         data (sizes, times) are separate arrays the part
                         asks for. dnnmem_graph_check validates ranges in
                         O(V+E); dnnmem_graph_topo_order orders any DAG and
                         reports cycles; dnnmem_graph_intervals turns a
                         topologically numbered graph into lifetimes (value i
                         lives over [i, max(i, last consumer) + 1), outputs to
                         the end).
       dnnmem_rng        splitmix64 generator; the state is the caller's.
       dnnmem_stop_fn    "stop now?" callback for anytime searches (the header
                         reads no clock; the caller's callback may).

   HISTORY
       0.1.0  2026-11  first release.

   LICENSE
       MIT; see the end of the file.
*/

#ifndef DNNMEM_H_INCLUDED
#define DNNMEM_H_INCLUDED

#include <stddef.h>
#include <stdint.h>

#define DNNMEM_VERSION_MAJOR 0
#define DNNMEM_VERSION_MINOR 1
#define DNNMEM_VERSION_PATCH 0
#define DNNMEM_VERSION_STRING "0.1.0"

#ifndef DNNMEM_DEF
#ifdef DNNMEM_STATIC
#if defined(__GNUC__) || defined(__clang__)
#define DNNMEM_DEF static __attribute__((unused))
#else
#define DNNMEM_DEF static
#endif
#else
#define DNNMEM_DEF extern
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- results ---------------------------------------------------------- */

/* X(name, value, text): the one list every result code comes from. */
#define DNNMEM_RESULT_LIST(X) \
  X(DNNMEM_OK, 0, "ok") \
  X(DNNMEM_ERR_INVALID_ARGUMENT, -1, "invalid argument") \
  X(DNNMEM_ERR_SCRATCH_TOO_SMALL, -2, "scratch buffer too small") \
  X(DNNMEM_ERR_OVERFLOW, -3, "integer overflow") \
  X(DNNMEM_ERR_TOO_MANY, -4, "count exceeds the int32_t range") \
  X(DNNMEM_ERR_NEGATIVE, -5, "negative size, time or capacity") \
  X(DNNMEM_ERR_EMPTY_INTERVAL, -6, "interval with upper <= lower") \
  X(DNNMEM_ERR_ALIGNMENT, -7, "alignment is not a power of two") \
  X(DNNMEM_ERR_ID_RANGE, -8, "id out of range") \
  X(DNNMEM_ERR_CYCLE, -9, "graph has a cycle") \
  X(DNNMEM_ERR_NOT_TOPOLOGICAL, -10, "graph is not numbered in topological order") \
  X(DNNMEM_ERR_PARSE, -11, "syntax error") \
  X(DNNMEM_ERR_INFEASIBLE, -12, "no solution satisfies the constraints") \
  X(DNNMEM_ERR_FIXED_COLLISION, -13, "fixed offsets collide") \
  X(DNNMEM_ERR_OVERLAP, -14, "two live buffers overlap in memory") \
  X(DNNMEM_ERR_MISALIGNED, -15, "offset is not a multiple of its alignment") \
  X(DNNMEM_ERR_BAD_GAP, -16, "gap outside its lifetime, unsorted, or window outside the buffer") \
  X(DNNMEM_ERR_FIXED_MISMATCH, -17, "plan moves a buffer with a fixed offset") \
    /* end of the result list */

typedef enum dnnmem_result {
#define DNNMEM__RESULT_ENUM(name, value, text) name = value,
  DNNMEM_RESULT_LIST(DNNMEM__RESULT_ENUM)
#undef DNNMEM__RESULT_ENUM
  DNNMEM__RESULT_MIN = -32767
} dnnmem_result;

DNNMEM_DEF const char *dnnmem_result_string(dnnmem_result result);
/* The text of a result code ("unknown result" for a value not in the list).
   Never NULL. */

/* ---- intervals --------------------------------------------------------- */

/* dnnmem_interval.flags */
#define DNNMEM_INTERVAL_FIXED 1 /* fixed_offset is binding */
#define DNNMEM_INTERVAL_HINT 2  /* hint is a preferred offset (ties, order) */

typedef struct dnnmem_gap {
  int64_t lower, upper; /* idle time [lower, upper), inside the lifetime */
  int64_t window_lower; /* bytes [offset + window_lower, offset + window_upper) */
  int64_t window_upper; /* stay occupied; window_lower == window_upper: none */
} dnnmem_gap;
/* minimalloc's gaps: "L-U" (idle) or "L-U@WL:WU" (keeps a window). Gaps of
   one interval are sorted and do not overlap. Planners may ignore gaps (a
   plan that ignores them is still valid); the checker and exact search honour
   them. */

typedef struct dnnmem_interval {
  int64_t lower;        /* first step alive (inclusive) */
  int64_t upper;        /* first step dead (exclusive); upper > lower */
  int64_t size;         /* bytes, >= 0 */
  int64_t alignment;    /* 0 or 1: the plan's alignment; else a power of two:
                           the offset is a multiple of max(this, the plan's) */
  int64_t fixed_offset; /* with DNNMEM_INTERVAL_FIXED: where it must go */
  int64_t hint;         /* with DNNMEM_INTERVAL_HINT: preferred offset */
  const dnnmem_gap *gaps; /* num_gaps idle periods (may be NULL when 0) */
  int32_t num_gaps;
  int32_t flags;        /* DNNMEM_INTERVAL_* bits */
} dnnmem_interval;
/* One tensor usage record. The TFLite paper's inclusive {first_op, last_op}
   is {lower = first_op, upper = last_op + 1}. Two records conflict when their
   lifetimes intersect (outside gaps) and their byte ranges intersect. */

DNNMEM_DEF dnnmem_result dnnmem_intervals_check(const dnnmem_interval *records,
                                                int32_t count, int64_t alignment);
/* Validates records without scratch in O(n + gaps): count >= 0, sizes >= 0,
   upper > lower, alignments (and the global one; 0 means 1) powers of two,
   gaps sorted inside their lifetime with windows inside [0, size], fixed
   offsets >= 0 and aligned, and the sum of all aligned sizes (plus fixed
   offsets) within int64_t, so that every plan's arena is representable. */

DNNMEM_DEF int64_t dnnmem_interval_alignment(const dnnmem_interval *record,
                                             int64_t alignment);
/* The alignment a record's offset must satisfy: max(record's, global), at
   least 1. Assumes validated input. */

/* ---- graphs ------------------------------------------------------------ */

typedef struct dnnmem_graph {
  int32_t num_nodes;
  const int32_t *in_offsets; /* num_nodes + 1 entries, in_offsets[0] == 0 */
  const int32_t *in_ids;     /* in_offsets[num_nodes] input ids */
} dnnmem_graph;
/* Node v's inputs are in_ids[in_offsets[v] .. in_offsets[v + 1]); an id may
   repeat (x * x). Parts that need per-node data take separate arrays. */

DNNMEM_DEF dnnmem_result dnnmem_graph_check(const dnnmem_graph *graph);
/* O(V+E), no scratch: num_nodes >= 0, offsets start at 0 and never
   decrease, ids in range. Says nothing about cycles. */

DNNMEM_DEF int dnnmem_graph_is_topological(const dnnmem_graph *graph);
/* 1 if every input id is smaller than its node (implies acyclic); assumes
   dnnmem_graph_check passed. */

DNNMEM_DEF dnnmem_result dnnmem_graph_topo_order_scratch_size(int32_t num_nodes,
                                                              int32_t num_edges,
                                                              size_t *out_bytes);
DNNMEM_DEF dnnmem_result dnnmem_graph_topo_order(const dnnmem_graph *graph,
                                                 int32_t *order,
                                                 void *scratch,
                                                 size_t scratch_bytes);
/* Kahn's algorithm, O(V+E): order[] receives every node once, inputs before
   consumers; sources in id order, then each node as soon as its last input
   is ordered (FIFO), so the order is deterministic. DNNMEM_ERR_CYCLE if the
   graph has a cycle (order[] is then partial). */

DNNMEM_DEF dnnmem_result dnnmem_graph_intervals(const dnnmem_graph *graph,
                                                const int64_t *sizes,
                                                const uint8_t *is_output,
                                                dnnmem_interval *records);
/* Lifetimes of a topologically numbered graph: record i = value i over
   [i, max(i, last consumer) + 1), to num_nodes when is_output[i] (is_output
   may be NULL), with size sizes[i]. Other fields zero. O(V+E), no scratch.
   DNNMEM_ERR_NOT_TOPOLOGICAL, DNNMEM_ERR_NEGATIVE as appropriate. */

/* ---- random numbers and stopping --------------------------------------- */

typedef struct dnnmem_rng {
  uint64_t state;
} dnnmem_rng;

DNNMEM_DEF void dnnmem_rng_seed(dnnmem_rng *rng, uint64_t seed);
DNNMEM_DEF uint64_t dnnmem_rng_next(dnnmem_rng *rng);
/* splitmix64: 64 uniformly distributed bits. */
DNNMEM_DEF uint32_t dnnmem_rng_below(dnnmem_rng *rng, uint32_t bound);
/* Uniform in [0, bound) without modulo bias; 0 when bound is 0. */
DNNMEM_DEF double dnnmem_rng_uniform(dnnmem_rng *rng);
/* Uniform in [0, 1) with 53 random bits. */

typedef int (*dnnmem_stop_fn)(void *user);
/* Returns nonzero when a long search should stop and return its best. */

#ifdef __cplusplus
}
#endif
#endif /* DNNMEM_H_INCLUDED */

#ifdef DNNMEM_IMPLEMENTATION
#ifndef DNNMEM__IMPLEMENTATION_DONE
#define DNNMEM__IMPLEMENTATION_DONE

#ifndef DNNMEM_ASSERT
#include <assert.h>
#define DNNMEM_ASSERT(x) assert(x)
#endif
#ifndef DNNMEM_MEMCPY
#include <string.h>
#define DNNMEM_MEMCPY(d, s, n) memcpy((d), (s), (n))
#endif
#ifndef DNNMEM_MEMSET
#include <string.h>
#define DNNMEM_MEMSET(d, v, n) memset((d), (v), (n))
#endif
#ifndef DNNMEM_EXP
#include <math.h>
#define DNNMEM_EXP(x) exp(x)
#endif

/* Private helpers a build may leave unused are marked so -Wunused stays quiet. */
#if defined(__GNUC__) || defined(__clang__)
#define DNNMEM__UNUSED __attribute__((unused))
#else
#define DNNMEM__UNUSED
#endif

#define DNNMEM__I64_MAX INT64_MAX
#define DNNMEM__I64_MIN INT64_MIN
#define DNNMEM__I32_MAX INT32_MAX

#ifdef __cplusplus
extern "C" {
#endif

DNNMEM_DEF const char *dnnmem_result_string(dnnmem_result result) {
  switch (result) {
#define DNNMEM__RESULT_CASE(name, value, text) \
  case name:                                   \
    return text;
    DNNMEM_RESULT_LIST(DNNMEM__RESULT_CASE)
#undef DNNMEM__RESULT_CASE
    default:
      return "unknown result";
  }
}

/* ---- checked integer arithmetic ---------------------------------------- */

/* Each returns 1 on overflow (and leaves *out unspecified). */
static DNNMEM__UNUSED int dnnmem__add_overflows(int64_t a, int64_t b, int64_t *out) {
  if ((b > 0 && a > DNNMEM__I64_MAX - b) || (b < 0 && a < DNNMEM__I64_MIN - b))
    return 1;
  *out = a + b;
  return 0;
}

static DNNMEM__UNUSED int dnnmem__mul_overflows(int64_t a, int64_t b, int64_t *out) {
  if (a != 0 && b != 0) {
    if (a > 0 ? (b > 0 ? a > DNNMEM__I64_MAX / b : b < DNNMEM__I64_MIN / a)
              : (b > 0 ? a < DNNMEM__I64_MIN / b : a < DNNMEM__I64_MAX / b))
      return 1;
  }
  *out = a * b;
  return 0;
}

/* Rounds v >= 0 up to a multiple of the power of two a >= 1. */
static DNNMEM__UNUSED int dnnmem__align_up_overflows(int64_t v, int64_t a, int64_t *out) {
  if (v > DNNMEM__I64_MAX - (a - 1)) return 1;
  *out = (v + (a - 1)) & ~(a - 1);
  return 0;
}

static DNNMEM__UNUSED int dnnmem__is_pow2(int64_t a) { return a > 0 && (a & (a - 1)) == 0; }

static DNNMEM__UNUSED int64_t dnnmem__max64(int64_t a, int64_t b) { return a > b ? a : b; }
static DNNMEM__UNUSED int64_t dnnmem__min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* ---- scratch carving ---------------------------------------------------- */

/* One carver serves both halves of "ask, then pass": with mem == NULL it
   only counts (assuming the worst misalignment of the caller's pointer);
   with memory it hands out 16-byte aligned blocks and records a shortfall.
   Every block is a multiple of 16 bytes, so only the start needs padding. */
#define DNNMEM__SCRATCH_ALIGN 16

typedef struct dnnmem__scratch {
  unsigned char *base;
  size_t used, cap;
  int overflow, short_of_space;
} dnnmem__scratch;

static DNNMEM__UNUSED void dnnmem__scratch_begin(dnnmem__scratch *s, void *mem, size_t bytes) {
  s->overflow = 0;
  s->short_of_space = 0;
  s->used = 0;
  if (mem == NULL) {
    s->base = NULL;
    s->used = DNNMEM__SCRATCH_ALIGN - 1;
    s->cap = (size_t)-1;
  } else {
    size_t pad = (size_t)((DNNMEM__SCRATCH_ALIGN -
                           ((uintptr_t)mem % DNNMEM__SCRATCH_ALIGN)) %
                          DNNMEM__SCRATCH_ALIGN);
    s->base = (unsigned char *)mem + pad;
    s->cap = bytes >= pad ? bytes - pad : 0;
    if (bytes < pad) s->short_of_space = 1;
  }
}

static DNNMEM__UNUSED void *dnnmem__scratch_take(dnnmem__scratch *s, size_t count, size_t elem) {
  size_t bytes;
  void *p;
  if (elem != 0 && count > ((size_t)-1 - DNNMEM__SCRATCH_ALIGN) / elem) {
    s->overflow = 1;
    return NULL;
  }
  bytes = (count * elem + (DNNMEM__SCRATCH_ALIGN - 1)) &
          ~(size_t)(DNNMEM__SCRATCH_ALIGN - 1);
  if (bytes > s->cap - s->used) {
    if (s->base == NULL) s->overflow = 1;
    else s->short_of_space = 1;
    return NULL;
  }
  p = s->base ? (void *)(s->base + s->used) : NULL;
  s->used += bytes;
  return p;
}

#define DNNMEM__TAKE(s, type, count) \
  ((type *)dnnmem__scratch_take((s), (size_t)(count), sizeof(type)))

/* Ends a carving: the size in sizing mode, or whether the memory sufficed. */
static DNNMEM__UNUSED dnnmem_result dnnmem__scratch_end(const dnnmem__scratch *s, size_t *out_bytes) {
  if (s->overflow) return DNNMEM_ERR_OVERFLOW;
  if (s->short_of_space) return DNNMEM_ERR_SCRATCH_TOO_SMALL;
  if (out_bytes) *out_bytes = s->used;
  return DNNMEM_OK;
}

/* ---- deterministic stable sort ------------------------------------------ */

/* Sorts ids[0..n) by less(ctx, a, b) with a stable bottom-up merge sort,
   O(n log n); tmp holds n ids. Stability plus explicit keys make every
   order platform-independent. */
typedef int (*dnnmem__less_fn)(const void *ctx, int32_t a, int32_t b);

static DNNMEM__UNUSED void dnnmem__sort_ids(int32_t *ids, int32_t *tmp, int32_t n,
                             dnnmem__less_fn less, const void *ctx) {
  int32_t width, i, *src = ids, *dst = tmp;
  /* insertion-sort runs of 16 first: fewer passes, fast on small inputs */
  for (i = 0; i < n; i += 16) {
    int32_t end = n - i < 16 ? n : i + 16, j;
    for (j = i + 1; j < end; j++) {
      int32_t v = ids[j], k = j;
      while (k > i && less(ctx, v, ids[k - 1])) {
        ids[k] = ids[k - 1];
        k--;
      }
      ids[k] = v;
    }
  }
  for (width = 16; width < n; width = width > n / 2 ? n : width * 2) {
    for (i = 0; i < n; i += 2 * width) {
      int32_t mid = n - i < width ? n : i + width;
      int32_t end = n - i < 2 * width ? n : i + 2 * width;
      int32_t a = i, b = mid, k = i;
      while (a < mid && b < end) dst[k++] = less(ctx, src[b], src[a]) ? src[b++] : src[a++];
      while (a < mid) dst[k++] = src[a++];
      while (b < end) dst[k++] = src[b++];
    }
    {
      int32_t *t = src;
      src = dst;
      dst = t;
    }
  }
  if (src != ids) DNNMEM_MEMCPY(ids, src, (size_t)n * sizeof(int32_t));
}

/* ---- intervals ---------------------------------------------------------- */

DNNMEM_DEF int64_t dnnmem_interval_alignment(const dnnmem_interval *record,
                                             int64_t alignment) {
  int64_t a = record->alignment > 1 ? record->alignment : 1;
  return alignment > a ? alignment : a;
}

DNNMEM_DEF dnnmem_result dnnmem_intervals_check(const dnnmem_interval *records,
                                                int32_t count, int64_t alignment) {
  int64_t total = 0;
  int32_t i, g;
  if (count < 0 || (count > 0 && records == NULL)) return DNNMEM_ERR_INVALID_ARGUMENT;
  if (alignment < 0 || (alignment > 1 && !dnnmem__is_pow2(alignment)))
    return DNNMEM_ERR_ALIGNMENT;
  for (i = 0; i < count; i++) {
    const dnnmem_interval *r = &records[i];
    int64_t a, aligned;
    if (r->size < 0) return DNNMEM_ERR_NEGATIVE;
    if (r->upper <= r->lower) return DNNMEM_ERR_EMPTY_INTERVAL;
    if (r->alignment < 0 || (r->alignment > 1 && !dnnmem__is_pow2(r->alignment)))
      return DNNMEM_ERR_ALIGNMENT;
    a = dnnmem_interval_alignment(r, alignment);
    if (dnnmem__align_up_overflows(r->size, a, &aligned)) return DNNMEM_ERR_OVERFLOW;
    /* a whole alignment step per record bounds the padding any plan needs */
    if (dnnmem__add_overflows(total, aligned, &total) ||
        dnnmem__add_overflows(total, a - 1, &total))
      return DNNMEM_ERR_OVERFLOW;
    if (r->flags & DNNMEM_INTERVAL_FIXED) {
      if (r->fixed_offset < 0) return DNNMEM_ERR_NEGATIVE;
      if (r->fixed_offset & (a - 1)) return DNNMEM_ERR_MISALIGNED;
      if (dnnmem__add_overflows(total, r->fixed_offset, &total)) return DNNMEM_ERR_OVERFLOW;
    }
    if (r->flags & DNNMEM_INTERVAL_HINT && r->hint < 0) return DNNMEM_ERR_NEGATIVE;
    if (r->num_gaps < 0 || (r->num_gaps > 0 && r->gaps == NULL))
      return DNNMEM_ERR_INVALID_ARGUMENT;
    for (g = 0; g < r->num_gaps; g++) {
      const dnnmem_gap *gp = &r->gaps[g];
      if (gp->lower >= gp->upper || gp->lower < r->lower || gp->upper > r->upper)
        return DNNMEM_ERR_BAD_GAP;
      if (g > 0 && gp->lower < r->gaps[g - 1].upper) return DNNMEM_ERR_BAD_GAP;
      if (gp->window_lower < 0 || gp->window_lower > gp->window_upper ||
          gp->window_upper > r->size)
        return DNNMEM_ERR_BAD_GAP;
    }
  }
  return DNNMEM_OK;
}

/* ---- graphs ------------------------------------------------------------- */

DNNMEM_DEF dnnmem_result dnnmem_graph_check(const dnnmem_graph *graph) {
  int32_t v, k, n;
  if (graph == NULL || graph->num_nodes < 0) return DNNMEM_ERR_INVALID_ARGUMENT;
  n = graph->num_nodes;
  if (graph->in_offsets == NULL) return n == 0 ? DNNMEM_OK : DNNMEM_ERR_INVALID_ARGUMENT;
  if (graph->in_offsets[0] != 0) return DNNMEM_ERR_INVALID_ARGUMENT;
  for (v = 0; v < n; v++)
    if (graph->in_offsets[v + 1] < graph->in_offsets[v]) return DNNMEM_ERR_INVALID_ARGUMENT;
  if (graph->in_offsets[n] > 0 && graph->in_ids == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  for (k = 0; k < graph->in_offsets[n]; k++)
    if (graph->in_ids[k] < 0 || graph->in_ids[k] >= n) return DNNMEM_ERR_ID_RANGE;
  return DNNMEM_OK;
}

DNNMEM_DEF int dnnmem_graph_is_topological(const dnnmem_graph *graph) {
  int32_t v, k;
  for (v = 0; v < graph->num_nodes; v++)
    for (k = graph->in_offsets[v]; k < graph->in_offsets[v + 1]; k++)
      if (graph->in_ids[k] >= v) return 0;
  return 1;
}

typedef struct dnnmem__topo_work {
  int32_t *pending;     /* per node: inputs not yet ordered */
  int32_t *out_offsets; /* consumers CSR */
  int32_t *out_ids;
} dnnmem__topo_work;

static void dnnmem__topo_layout(dnnmem__scratch *s, int32_t num_nodes,
                                int32_t num_edges, dnnmem__topo_work *w) {
  w->pending = DNNMEM__TAKE(s, int32_t, num_nodes);
  w->out_offsets = DNNMEM__TAKE(s, int32_t, (size_t)num_nodes + 1);
  w->out_ids = DNNMEM__TAKE(s, int32_t, num_edges);
}

DNNMEM_DEF dnnmem_result dnnmem_graph_topo_order_scratch_size(int32_t num_nodes,
                                                              int32_t num_edges,
                                                              size_t *out_bytes) {
  dnnmem__scratch s;
  dnnmem__topo_work w;
  if (num_nodes < 0 || num_edges < 0 || out_bytes == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  dnnmem__scratch_begin(&s, NULL, 0);
  dnnmem__topo_layout(&s, num_nodes, num_edges, &w);
  return dnnmem__scratch_end(&s, out_bytes);
}

DNNMEM_DEF dnnmem_result dnnmem_graph_topo_order(const dnnmem_graph *graph,
                                                 int32_t *order, void *scratch,
                                                 size_t scratch_bytes) {
  dnnmem__scratch s;
  dnnmem__topo_work w;
  dnnmem_result r = dnnmem_graph_check(graph);
  int32_t n, m, v, k, head, tail;
  if (r != DNNMEM_OK) return r;
  n = graph->num_nodes;
  if (n > 0 && order == NULL) return DNNMEM_ERR_INVALID_ARGUMENT;
  m = n > 0 ? graph->in_offsets[n] : 0;
  dnnmem__scratch_begin(&s, scratch, scratch_bytes);
  dnnmem__topo_layout(&s, n, m, &w);
  if ((r = dnnmem__scratch_end(&s, NULL)) != DNNMEM_OK) return r;
  /* consumers CSR by counting sort; pending = number of input edges */
  for (v = 0; v <= n; v++) w.out_offsets[v] = 0;
  for (k = 0; k < m; k++) w.out_offsets[graph->in_ids[k] + 1]++;
  for (v = 0; v < n; v++) w.out_offsets[v + 1] += w.out_offsets[v];
  for (v = 0; v < n; v++) {
    w.pending[v] = graph->in_offsets[v + 1] - graph->in_offsets[v];
    for (k = graph->in_offsets[v]; k < graph->in_offsets[v + 1]; k++)
      w.out_ids[w.out_offsets[graph->in_ids[k]]++] = v;
  }
  for (v = n; v > 0; v--) w.out_offsets[v] = w.out_offsets[v - 1];
  w.out_offsets[0] = 0;
  /* Kahn with the FIFO kept in order[] itself */
  head = tail = 0;
  for (v = 0; v < n; v++)
    if (w.pending[v] == 0) order[tail++] = v;
  while (head < tail) {
    int32_t u = order[head++];
    for (k = w.out_offsets[u]; k < w.out_offsets[u + 1]; k++)
      if (--w.pending[w.out_ids[k]] == 0) order[tail++] = w.out_ids[k];
  }
  return tail == n ? DNNMEM_OK : DNNMEM_ERR_CYCLE;
}

DNNMEM_DEF dnnmem_result dnnmem_graph_intervals(const dnnmem_graph *graph,
                                                const int64_t *sizes,
                                                const uint8_t *is_output,
                                                dnnmem_interval *records) {
  dnnmem_result r = dnnmem_graph_check(graph);
  int32_t v, k, n;
  if (r != DNNMEM_OK) return r;
  n = graph->num_nodes;
  if (n > 0 && (sizes == NULL || records == NULL)) return DNNMEM_ERR_INVALID_ARGUMENT;
  if (!dnnmem_graph_is_topological(graph)) return DNNMEM_ERR_NOT_TOPOLOGICAL;
  for (v = 0; v < n; v++)
    if (sizes[v] < 0) return DNNMEM_ERR_NEGATIVE;
  for (v = 0; v < n; v++) {
    DNNMEM_MEMSET(&records[v], 0, sizeof(records[v]));
    records[v].lower = v;
    records[v].upper = (is_output && is_output[v]) ? n : (int64_t)v + 1;
    records[v].size = sizes[v];
  }
  for (v = 0; v < n; v++)
    for (k = graph->in_offsets[v]; k < graph->in_offsets[v + 1]; k++)
      records[graph->in_ids[k]].upper = dnnmem__max64(records[graph->in_ids[k]].upper, (int64_t)v + 1);
  return DNNMEM_OK;
}

/* ---- random numbers ----------------------------------------------------- */

DNNMEM_DEF void dnnmem_rng_seed(dnnmem_rng *rng, uint64_t seed) { rng->state = seed; }

DNNMEM_DEF uint64_t dnnmem_rng_next(dnnmem_rng *rng) {
  uint64_t z = (rng->state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

DNNMEM_DEF uint32_t dnnmem_rng_below(dnnmem_rng *rng, uint32_t bound) {
  uint32_t threshold, x;
  if (bound == 0) return 0;
  threshold = (uint32_t)(0u - bound) % bound; /* 2^32 mod bound */
  do {
    x = (uint32_t)(dnnmem_rng_next(rng) >> 32);
  } while (x < threshold);
  return x % bound;
}

DNNMEM_DEF double dnnmem_rng_uniform(dnnmem_rng *rng) {
  return (double)(dnnmem_rng_next(rng) >> 11) * (1.0 / 9007199254740992.0);
}

#ifdef __cplusplus
}
#endif
#endif /* DNNMEM__IMPLEMENTATION_DONE */
#endif /* DNNMEM_IMPLEMENTATION */

/*
------------------------------------------------------------------------------
MIT License

Copyright (c) 2026 the dnnmem.h authors

Permission is hereby granted, free of charge, to any person obtaining a copy of
this software and associated documentation files (the "Software"), to deal in
the Software without restriction, including without limitation the rights to
use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies
of the Software, and to permit persons to whom the Software is furnished to do
so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.
------------------------------------------------------------------------------
*/

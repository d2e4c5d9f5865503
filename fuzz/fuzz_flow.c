/* fuzz/fuzz_flow.c: max flow / min cut on tiny graphs from the input.
   Invariants: both algorithms return a valid flow (capacities, conservation)
   whose value equals the capacity of the reported cut, equals the brute-force
   minimum over all cuts, and is the same for BK and push-relabel (so is the
   minimal cut's source side); a source
   total past INT64_MAX is refused with DNNMEM_ERR_OVERFLOW; short scratch
   gives DNNMEM_ERR_SCRATCH_TOO_SMALL. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "../tests/ref.h"

#define FUZZ_MAX_NODES 9
#define FUZZ_MAX_ARCS 40

typedef ref_flow_arc fuzz_arc;

static int64_t fuzz_capacity(fuzz_input *in, int scale) {
  uint32_t x = fuzz_u8(in);
  if (scale == 0) return x % 8;
  if (scale == 1) return (int64_t)(fuzz_u32(in) % 100000u);
  /* huge: near INT64_MAX / k so sums overflow sometimes */
  return INT64_MAX / (int64_t)(1 + x % 5) - (int64_t)fuzz_u8(in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in;
  fuzz_arc arcs[FUZZ_MAX_ARCS];
  int32_t n, m, s, t, i, algo;
  int scale;
  int64_t source_total = 0, brute = INT64_MAX, values[2];
  uint8_t first_side[FUZZ_MAX_NODES];
  int source_overflow = 0;
  size_t bytes = 0;
  unsigned char *scratch;
  dnnmem_flow flow;
  in.data = data;
  in.size = size;
  in.pos = 0;
  n = 2 + (int32_t)(fuzz_u8(&in) % (FUZZ_MAX_NODES - 1));
  scale = (int)(fuzz_u8(&in) % 8);
  scale = scale < 5 ? 0 : scale < 7 ? 1 : 2;
  s = (int32_t)(fuzz_u8(&in) % (uint32_t)n);
  t = (int32_t)(fuzz_u8(&in) % (uint32_t)n);
  if (t == s) t = (s + 1) % n;
  m = 0;
  while (fuzz_more(&in) && m < FUZZ_MAX_ARCS) {
    fuzz_arc *a = &arcs[m++];
    uint32_t k = fuzz_u8(&in);
    a->from = (int32_t)(k % (uint32_t)n);
    a->to = (int32_t)(fuzz_u8(&in) % (uint32_t)n);
    a->cap = fuzz_capacity(&in, scale);
    a->rcap = (k & 0x80) ? fuzz_capacity(&in, scale) : 0;
    if (a->cap > INT64_MAX - a->rcap) a->rcap = INT64_MAX - a->cap; /* add_arc refuses it */
  }
  for (i = 0; i < m; i++) {
    int64_t add = 0;
    if (arcs[i].from == s && arcs[i].to != s) add = arcs[i].cap;
    if (arcs[i].to == s && arcs[i].from != s) add = arcs[i].rcap;
    if (add > INT64_MAX - source_total) source_overflow = 1;
    else source_total += add;
  }
  if (!source_overflow) brute = ref_flow_min_cut(arcs, m, n, s, t);
  FUZZ_CHECK(dnnmem_flow_scratch_size(n, m, &bytes) == DNNMEM_OK);
  FUZZ_CHECK(bytes <= DNNMEM_FLOW_SCRATCH_BYTES(n, m));
  scratch = (unsigned char *)malloc(bytes + 16);
  {
    /* short scratch at the worst alignment is refused */
    size_t k = (17 - (size_t)((uintptr_t)scratch % 16)) % 16;
    FUZZ_CHECK(dnnmem_flow_init(&flow, n, m, scratch + k, bytes - 1) == DNNMEM_ERR_SCRATCH_TOO_SMALL);
    FUZZ_CHECK(dnnmem_flow_init(&flow, n, m, scratch + k, bytes) == DNNMEM_OK);
  }
  for (i = 0; i < m; i++)
    FUZZ_CHECK(dnnmem_flow_add_arc(&flow, arcs[i].from, arcs[i].to, arcs[i].cap, arcs[i].rcap, NULL) ==
               DNNMEM_OK);
  FUZZ_CHECK(dnnmem_flow_add_arc(&flow, 0, 1, 1, 0, NULL) == DNNMEM_ERR_FLOW_FULL);
  for (algo = 0; algo < 2; algo++) {
    int64_t value = -1, net_s = 0, net_t = 0;
    int64_t *net = (int64_t *)calloc((size_t)n, sizeof(int64_t));
    uint8_t side[FUZZ_MAX_NODES];
    dnnmem_flow_options options;
    dnnmem_flow_result result = {-1, {-1, DNNMEM_FIELD_NONE, -1}};
    dnnmem_result r;
    memset(&options, 0, sizeof(options));
    options.algo = algo ? DNNMEM_FLOW_PUSH_RELABEL : DNNMEM_FLOW_BK;
    r = dnnmem_flow_solve(&flow, s, t, &options, &result);
    value = result.value;
    if (source_overflow) {
      FUZZ_CHECK(r == DNNMEM_ERR_OVERFLOW);
      free(net);
      continue;
    }
    FUZZ_CHECK(r == DNNMEM_OK);
    for (i = 0; i < m; i++) {
      int64_t f = dnnmem_flow_arc_flow(&flow, i);
      FUZZ_CHECK(f <= arcs[i].cap && f >= -arcs[i].rcap);
      if (arcs[i].from == arcs[i].to) continue;
      /* nets of inner nodes may pass INT64_MAX transiently: wrap in unsigned */
      net[arcs[i].from] = (int64_t)((uint64_t)net[arcs[i].from] - (uint64_t)f);
      net[arcs[i].to] = (int64_t)((uint64_t)net[arcs[i].to] + (uint64_t)f);
    }
    for (i = 0; i < n; i++)
      if (i != s && i != t) FUZZ_CHECK(net[i] == 0);
    net_s = net[s];
    net_t = net[t];
    FUZZ_CHECK((uint64_t)0 - (uint64_t)net_s == (uint64_t)value);
    FUZZ_CHECK(net_t == value);
    for (i = 0; i < n; i++) side[i] = (uint8_t)dnnmem_flow_source_side(&flow, i);
    FUZZ_CHECK(side[s] == 1 && side[t] == 0);
    /* both find the minimal minimum cut (reachable from the source): unique */
    if (algo == 0) memcpy(first_side, side, (size_t)n);
    else FUZZ_CHECK(memcmp(first_side, side, (size_t)n) == 0);
    FUZZ_CHECK(ref_flow_cut(arcs, m, side) == value);
    FUZZ_CHECK(value == brute);
    values[algo] = value;
    free(net);
  }
  if (!source_overflow) {
    /* the cut alone (no flows written back): the same value and the same
       minimal cut */
    dnnmem_flow_options options;
    dnnmem_flow_result result = {-1, {-1, DNNMEM_FIELD_NONE, -1}};
    memset(&options, 0, sizeof(options));
    options.cut_only = 1;
    FUZZ_CHECK(values[0] == values[1]);
    FUZZ_CHECK(dnnmem_flow_solve(&flow, s, t, &options, &result) == DNNMEM_OK && result.value == values[0]);
    for (i = 0; i < n; i++) FUZZ_CHECK(dnnmem_flow_source_side(&flow, i) == first_side[i]);
  }
  free(scratch);
  return 0;
}

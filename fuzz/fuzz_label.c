/* fuzz/fuzz_label.c: the labeling engine on tiny graphs from the input
   (k = 1..4 labels, both conversion forms, pins, outputs, unsupported
   labels, cycles and self-loops). Invariants: every labeling written is
   valid and its cost equals an independent recount (tests/ref.h) and
   dnnmem_label_cost; lower bound <= optimum (brute force) <= answer, and
   so the dual and the merged bounds each alone (factors over more than 3
   labels take the dual's relaxed form here); the
   exact algorithm reaches the optimum; bad values give their error codes;
   short scratch gives DNNMEM_ERR_SCRATCH_TOO_SMALL.
   Max length: 512 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#define DNNMEM_LABEL_FACTOR_BITS 3 /* k = 4 factors take the relaxed form too */
#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "../tests/ref.h"

#define FUZZ_N 7
#define FUZZ_K 4

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in;
  int32_t n, k, v, e = 0, a, offsets[FUZZ_N + 1], ids[4 * FUZZ_N], pin[FUZZ_N], out[FUZZ_N], label[FUZZ_N];
  int64_t cost[FUZZ_N * FUZZ_K], convert[FUZZ_N * FUZZ_K * FUZZ_K], csize[FUZZ_N], rate[FUZZ_K * FUZZ_K],
      latency[FUZZ_K * FUZZ_K], best, bound = -1, recount = -1;
  dnnmem_label_result costed;
  uint32_t flags;
  int expect = DNNMEM_OK, algo, bad_pin = 0, bad_cost = 0, bad_output = 0;
  dnnmem_graph g;
  dnnmem_label_problem p;
  size_t bytes = 0, cost_bytes = 0;
  unsigned char *base, *scratch, *cost_scratch;
  in.data = data;
  in.size = size;
  in.pos = 0;
  flags = fuzz_u8(&in);
  n = 1 + (int32_t)(fuzz_u8(&in) % FUZZ_N);
  k = 1 + (int32_t)(fuzz_u8(&in) % FUZZ_K);
  for (a = 0; a < k * k; a++) {
    rate[a] = (int64_t)(fuzz_u8(&in) % 4);
    latency[a] = (int64_t)(fuzz_u8(&in) % 16);
  }
  offsets[0] = 0;
  for (v = 0; v < n; v++) {
    uint32_t d = fuzz_u8(&in), deg = d & 3, j, kind = fuzz_u8(&in) % 16;
    int allowed = 0;
    for (j = 0; j < deg; j++) ids[e++] = (int32_t)(fuzz_u8(&in) % (uint32_t)n); /* cycles too */
    offsets[v + 1] = e;
    for (a = 0; a < k; a++) {
      uint32_t c = fuzz_u8(&in);
      cost[v * k + a] = c >= 224 ? DNNMEM_LABEL_UNSUPPORTED : (int64_t)(c % 64);
      allowed |= cost[v * k + a] >= 0;
    }
    if (!allowed) cost[v * k] = 3;
    csize[v] = (int64_t)(fuzz_u8(&in) % 32);
    for (a = 0; a < k * k; a++) convert[v * k * k + a] = (int64_t)(fuzz_u8(&in) % 48);
    pin[v] = (d >> 2 & 3) == 0 ? (int32_t)((d >> 4) % (uint32_t)k) : DNNMEM_LABEL_FREE;
    if (pin[v] >= 0 && cost[v * k + pin[v]] < 0) {
      if (kind == 1) bad_pin = 1;
      else pin[v] = DNNMEM_LABEL_FREE;
    }
    out[v] = (d >> 6) == 0 ? (int32_t)(kind % (uint32_t)k) : DNNMEM_LABEL_FREE;
    if (kind == 2 && (d & 0xf0) == 0xf0) { /* bad values */
      cost[v * k] = -5;
      bad_cost = 1;
    } else if (kind == 3 && (d & 0xf0) == 0xf0) {
      out[v] = k;
      bad_output = 1;
    }
  }
  g = ref_graph(n, offsets, ids);
  memset(&p, 0, sizeof(p));
  p.graph = &g;
  p.num_labels = k;
  p.node_cost = cost;
  if (flags & 1) {
    p.convert = convert;
  } else {
    p.convert_size = (flags & 2) ? csize : NULL;
    p.convert_rate = rate;
    p.convert_latency = (flags & 4) ? latency : NULL;
  }
  p.pin = (flags & 8) ? pin : NULL;
  p.output_label = (flags & 16) ? out : NULL;
  if (bad_cost || (bad_pin && (flags & 8)) || (bad_output && (flags & 16))) expect = DNNMEM_ERR_INVALID_ARGUMENT;
  FUZZ_CHECK(dnnmem_label_solve_scratch_size(&p, NULL, &bytes) == DNNMEM_OK);
  FUZZ_CHECK(bytes <= DNNMEM_LABEL_SCRATCH_BYTES(n, e, k));
  FUZZ_CHECK(dnnmem_label_cost_scratch_size(&p, &cost_bytes) == DNNMEM_OK);
  base = (unsigned char *)malloc(bytes + 16);
  scratch = base + (17 - (size_t)((uintptr_t)base % 16)) % 16; /* the worst alignment */
  cost_scratch = (unsigned char *)malloc(cost_bytes);
  best = expect == DNNMEM_OK ? ref_label_optimum(&p, NULL) : -1;
  for (algo = 0; algo < DNNMEM_LABEL_ALGO_COUNT; algo++) {
    dnnmem_label_options o;
    dnnmem_label_result r;
    dnnmem_result res;
    memset(&o, 0, sizeof(o));
    o.algo = (dnnmem_label_algo)algo;
    o.flow = (flags & 32) ? DNNMEM_FLOW_PUSH_RELABEL : DNNMEM_FLOW_BK;
    res = dnnmem_label_solve(&p, &o, label, &r, scratch, bytes);
    if (expect != DNNMEM_OK) { /* the first bad node decides which error */
      FUZZ_CHECK(res == DNNMEM_ERR_NEGATIVE || res == DNNMEM_ERR_ID_RANGE || res == DNNMEM_ERR_LABEL_NONE_ALLOWED);
      continue;
    }
    FUZZ_CHECK(res == DNNMEM_OK);
    FUZZ_CHECK(best >= 0);
    for (v = 0; v < n; v++) FUZZ_CHECK(label[v] >= 0 && label[v] < k);
    FUZZ_CHECK(ref_label_cost(&p, label) == r.cost);
    FUZZ_CHECK(dnnmem_label_cost(&p, label, &costed, cost_scratch, cost_bytes) == DNNMEM_OK);
    recount = costed.cost;
    FUZZ_CHECK(recount == r.cost);
    FUZZ_CHECK(r.lower_bound <= best && best <= r.cost);
    FUZZ_CHECK(r.dual_bound <= best && r.merged_bound <= best); /* each bound alone */
    FUZZ_CHECK(r.gap == r.cost - r.lower_bound && r.optimal == (r.gap == 0));
    if (algo != DNNMEM_LABEL_EXPANSION || k <= 2) FUZZ_CHECK(r.cost == best && r.optimal);
    FUZZ_CHECK(dnnmem_label_solve(&p, &o, label, &r, scratch, bytes - 1) == DNNMEM_ERR_SCRATCH_TOO_SMALL);
  }
  if (expect == DNNMEM_OK) {
    FUZZ_CHECK(dnnmem_label_lower_bound(&p, NULL, &costed, scratch, bytes) == DNNMEM_OK);
    bound = costed.lower_bound;
    FUZZ_CHECK(bound <= best);
  }
  free(base);
  free(cost_scratch);
  return 0;
}

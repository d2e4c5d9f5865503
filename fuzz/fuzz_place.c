/* fuzz/fuzz_place.c: CPU/accelerator placement on tiny graphs from the
   input. Invariants: the optimum equals brute force over every placement
   (both charging models), its cost equals an independent recount here and
   dnnmem_place_cost, BK and push-relabel give the same optimum, every
   baseline is at least the optimum; bad values give the error codes; short
   scratch gives DNNMEM_ERR_SCRATCH_TOO_SMALL. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "../tests/ref.h"

#define FUZZ_N 10

typedef struct fuzz_place {
  int32_t n, offsets[FUZZ_N + 1], ids[4 * FUZZ_N];
  int64_t cpu[FUZZ_N], acc[FUZZ_N], xfer[FUZZ_N];
  uint8_t device[FUZZ_N], output[FUZZ_N];
} fuzz_place;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_input in;
  fuzz_place f;
  dnnmem_graph g;
  dnnmem_place_problem p;
  int32_t v, e = 0;
  int bad = 0, expect_unsupported = 0, model;
  size_t bytes = 0, cost_bytes = 0;
  unsigned char *base, *scratch, *cost_scratch;
  in.data = data;
  in.size = size;
  in.pos = 0;
  f.n = 1 + (int32_t)(fuzz_u8(&in) % FUZZ_N);
  f.offsets[0] = 0;
  for (v = 0; v < f.n; v++) {
    uint32_t k = fuzz_u8(&in), deg = v ? (k & 3) : 0, j, kind = fuzz_u8(&in) % 16;
    for (j = 0; j < deg; j++) f.ids[e++] = (int32_t)(fuzz_u8(&in) % (uint32_t)v);
    f.offsets[v + 1] = e;
    f.cpu[v] = (int64_t)(fuzz_u8(&in) % 64);
    f.acc[v] = (int64_t)(fuzz_u8(&in) % 64);
    f.xfer[v] = (int64_t)(fuzz_u8(&in) % 48);
    f.device[v] = DNNMEM_PLACE_ANY;
    f.output[v] = (k >> 2) & 1;
    if (kind == 0) f.device[v] = DNNMEM_PLACE_CPU;
    else if (kind == 1) f.device[v] = DNNMEM_PLACE_ACC;
    else if (kind == 2) f.acc[v] = DNNMEM_PLACE_UNSUPPORTED;
    else if (kind == 3) f.cpu[v] = DNNMEM_PLACE_UNSUPPORTED;
    else if (kind == 4 && (k & 0xf0) == 0xf0) {
      f.xfer[v] = -3; /* bad input */
      bad = 1;
    } else if (kind == 5 && (k & 0xf0) == 0xf0) {
      f.device[v] = DNNMEM_PLACE_CPU; /* pinned where it cannot run */
      f.cpu[v] = DNNMEM_PLACE_UNSUPPORTED;
      expect_unsupported = 1;
    }
  }
  g.num_nodes = f.n;
  g.in_offsets = f.offsets;
  g.in_ids = f.ids;
  memset(&p, 0, sizeof(p));
  p.graph = &g;
  p.cpu_time = f.cpu;
  p.acc_time = f.acc;
  p.xfer = f.xfer;
  p.device = f.device;
  p.is_output = f.output;
  FUZZ_CHECK(dnnmem_place_solve_scratch_size(&p, NULL, &bytes) == DNNMEM_OK);
  FUZZ_CHECK(bytes <= DNNMEM_PLACE_SCRATCH_BYTES(f.n, e));
  FUZZ_CHECK(dnnmem_place_cost_scratch_size(&p, NULL, &cost_bytes) == DNNMEM_OK);
  base = (unsigned char *)malloc(bytes + 16);
  scratch = base + (17 - (size_t)((uintptr_t)base % 16)) % 16; /* worst alignment */
  cost_scratch = (unsigned char *)malloc(cost_bytes);
  for (model = 0; model < 2; model++) {
    dnnmem_place_options o;
    dnnmem_place_result r1, r2;
    uint8_t d1[FUZZ_N], d2[FUZZ_N];
    dnnmem_result res;
    int64_t best, cost = -1;
    dnnmem_place_result costed;
    memset(&o, 0, sizeof(o));
    o.model = (dnnmem_place_model)model;
    o.algo = DNNMEM_FLOW_BK;
    res = dnnmem_place_solve(&p, &o, d1, &r1, scratch, bytes);
    if (bad) { /* the first bad node decides which error */
      FUZZ_CHECK(res == DNNMEM_ERR_NEGATIVE || (expect_unsupported && res == DNNMEM_ERR_PLACE_UNSUPPORTED));
      continue;
    }
    if (expect_unsupported) {
      FUZZ_CHECK(res == DNNMEM_ERR_PLACE_UNSUPPORTED);
      continue;
    }
    FUZZ_CHECK(res == DNNMEM_OK);
    FUZZ_CHECK(dnnmem_place_solve(&p, &o, d2, &r2, scratch, bytes - 1) == DNNMEM_ERR_SCRATCH_TOO_SMALL);
    o.algo = DNNMEM_FLOW_PUSH_RELABEL;
    FUZZ_CHECK(dnnmem_place_solve(&p, &o, d2, &r2, scratch, bytes) == DNNMEM_OK);
    best = ref_place_optimum(&p, o.model);
    FUZZ_CHECK(best >= 0);
    FUZZ_CHECK(r1.time == best && r2.time == best);
    FUZZ_CHECK(ref_place_time(&p, o.model, d1) == best);
    FUZZ_CHECK(ref_place_time(&p, o.model, d2) == best);
    FUZZ_CHECK(dnnmem_place_cost(&p, &o, d1, &costed, cost_scratch, cost_bytes) == DNNMEM_OK);
    cost = costed.time;
    FUZZ_CHECK(cost == best);
    FUZZ_CHECK(r1.all_acc_time >= best && r1.greedy_time >= best && r1.all_cpu_time >= best);
    FUZZ_CHECK(r1.all_acc_time == r2.all_acc_time && r1.greedy_time == r2.greedy_time);
    FUZZ_CHECK(r1.num_cpu + r1.num_acc == f.n);
  }
  free(base);
  free(cost_scratch);
  return 0;
}

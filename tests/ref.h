/* tests/ref.h: the independent oracles and recounts of dnnmem.h's answers,
   shared by the unit tests (tests/test_*.c) and the fuzz targets (fuzz/).
   One oracle per question: brute force on small inputs, or a recount that
   uses none of the code under test. Include after dnnmem.h; every function
   is static (a file uses some of them). Sections follow the header's parts. */
#ifndef DNNMEM_TESTS_REF_H
#define DNNMEM_TESTS_REF_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dnnmem.h"

#if defined(__GNUC__) || defined(__clang__)
#define REF_FN static __attribute__((unused))
#else
#define REF_FN static
#endif

/* ==== 2. Interval planning ================================================ */

/* (end of section 2) */

/* ==== 3. Shared objects =================================================== */

/* (end of section 3) */

/* ==== 4. Path covers of graphs ============================================ */

/* (end of section 4) */

/* ==== 5. Recompute ======================================================== */

/* Validity, peak and time of a recompute sequence straight from the
   definition in dnnmem.h's manual (part 5), in O(L^2 (L + degree)), sharing
   no code with dnnmem_remat_simulate. A use of v at step q binds to the
   latest computation of v before q; instance i is held at step j when
   i == j, when a use at a step q >= j binds to it, or when it is the last
   instance of a graph output. Valid: ids in range, every input computed
   before each use, graph inputs (nodes without inputs) at most once, every
   node at least once. Returns 1 and writes *peak and *time when valid. */
REF_FN int ref_remat_recount(const dnnmem_remat_problem *p, const int32_t *seq, int32_t len,
                             int64_t *peak, int64_t *time) {
  const int32_t *off = p->graph->in_offsets, *ids = p->graph->in_ids;
  int32_t n = p->graph->num_nodes, i, j, k, v, q;
  int64_t best = 0, t = 0;
  unsigned char *seen = (unsigned char *)calloc((size_t)n + 1, 1);
  int valid = seen != NULL;
  for (j = 0; j < len && valid; j++) {
    v = seq[j];
    if (v < 0 || v >= n || (off[v] == off[v + 1] && seen[v])) {
      valid = 0;
      break;
    }
    for (k = off[v]; k < off[v + 1] && valid; k++) valid = seen[ids[k]];
    seen[v] = 1;
    t += p->times[v];
  }
  for (v = 0; v < n && valid; v++) valid = seen[v];
  free(seen);
  if (!valid) return 0;
  for (j = 0; j < len; j++) {
    int64_t mem = 0;
    for (i = 0; i <= j; i++) {
      int held = i == j, last = 1;
      v = seq[i];
      for (q = i + 1; q < len; q++) last &= seq[q] != v;
      if (last && p->is_output && p->is_output[v]) held = 1;
      for (q = j; q < len && !held; q++) {
        int uses = 0, bound = -1, r;
        if (q == i) continue;
        for (k = off[seq[q]]; k < off[seq[q] + 1]; k++) uses |= ids[k] == v;
        if (!uses) continue;
        for (r = 0; r < q; r++)
          if (seq[r] == v) bound = r;
        held = bound == i;
      }
      if (held) mem += p->sizes[v];
    }
    if (mem > best) best = mem;
  }
  *peak = best;
  *time = t;
  return 1;
}

/* (end of section 5) */

/* ==== 6. Layout arithmetic ================================================ */

/* (end of section 6) */

/* ==== 7. Max flow ========================================================= */

/* (end of section 7) */

/* ==== 8. Placement ======================================================== */

/* (end of section 8) */

#endif /* DNNMEM_TESTS_REF_H */

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

/* (end of section 5) */

/* ==== 6. Layout arithmetic ================================================ */

#ifndef DNNMEM_NO_LAYOUT

/* Strided layouts evaluated from the definition, outer mode first: digit i
   of x is x / (product of the shapes after i) mod shape i, times stride i
   (the last mode fastest); x < size. */
REF_FN int64_t ref_layout_strided_eval(const dnnmem_layout_strided *s, int64_t x) {
  int64_t v = 0, place;
  int32_t i, j;
  for (i = 0; i < s->rank; i++) {
    for (place = 1, j = i + 1; j < s->rank; j++) place *= s->shape[j];
    v += x / place % s->shape[i] * s->stride[i];
  }
  return v;
}

REF_FN int64_t ref_layout_strided_size(const dnnmem_layout_strided *s) {
  int64_t n = 1, i;
  for (i = 0; i < s->rank; i++) n *= s->shape[i];
  return n;
}

/* The defining equations of the algebra, checked on every index. Each
   returns 1 when the answer r satisfies its equation. */

/* coalesce: the same function on [0, size), no unit mode, no two adjacent
   modes that still form one strided run. */
REF_FN int ref_layout_coalesce_ok(const dnnmem_layout_strided *in, const dnnmem_layout_strided *r) {
  int64_t x, n = ref_layout_strided_size(in);
  int32_t i;
  if (ref_layout_strided_size(r) != n) return 0;
  for (x = 0; x < n; x++)
    if (ref_layout_strided_eval(r, x) != ref_layout_strided_eval(in, x)) return 0;
  for (i = 0; i < r->rank; i++)
    if (r->shape[i] == 1 || (i > 0 && r->stride[i - 1] == r->shape[i] * r->stride[i])) return 0;
  return 1;
}

/* compose: R(x) = A(B(x)) for x in [0, size(B)). */
REF_FN int ref_layout_compose_ok(const dnnmem_layout_strided *a, const dnnmem_layout_strided *b,
                                 const dnnmem_layout_strided *r) {
  int64_t x, n = ref_layout_strided_size(b);
  if (ref_layout_strided_size(r) != n) return 0;
  for (x = 0; x < n; x++)
    if (ref_layout_strided_eval(r, x) != ref_layout_strided_eval(a, ref_layout_strided_eval(b, x)))
      return 0;
  return 1;
}

/* complement: R's strides decreasing and (R, A) (R's modes outer) a
   bijection of [0, size) onto itself with size >= m. */
REF_FN int ref_layout_complement_ok(const dnnmem_layout_strided *a, int64_t m,
                                    const dnnmem_layout_strided *r) {
  dnnmem_layout_strided cat;
  uint8_t *seen;
  int64_t x, n;
  int32_t i;
  int ok = 1;
  if (r->rank + a->rank > DNNMEM_LAYOUT_MAX_FACTORS) return 0;
  for (i = 1; i < r->rank; i++)
    if (r->stride[i - 1] <= r->stride[i]) return 0;
  cat.rank = r->rank + a->rank;
  for (i = 0; i < cat.rank; i++) {
    const dnnmem_layout_strided *from = i < r->rank ? r : a;
    int32_t j = i < r->rank ? i : i - r->rank;
    cat.shape[i] = from->shape[j];
    cat.stride[i] = from->stride[j];
  }
  n = ref_layout_strided_size(&cat);
  if (n < m) return 0;
  seen = (uint8_t *)calloc((size_t)n, 1);
  if (seen == NULL) abort();
  for (x = 0; x < n && ok; x++) {
    int64_t v = ref_layout_strided_eval(&cat, x);
    if (v >= n || seen[v]) ok = 0;
    else seen[v] = 1;
  }
  free(seen);
  return ok;
}

/* right inverse: A(R(x)) = x for x in [0, size(R)). */
REF_FN int ref_layout_right_inverse_ok(const dnnmem_layout_strided *a, const dnnmem_layout_strided *r) {
  int64_t x;
  for (x = 0; x < ref_layout_strided_size(r); x++)
    if (ref_layout_strided_eval(a, ref_layout_strided_eval(r, x)) != x) return 0;
  return 1;
}

/* reshape view: R has the asked shape and R(x) = L(x) on every index. */
REF_FN int ref_layout_reshape_ok(const dnnmem_layout_strided *in, int32_t rank, const int64_t *shape,
                                 const dnnmem_layout_strided *r) {
  int64_t x;
  int32_t j;
  if (r->rank != rank) return 0;
  for (j = 0; j < rank; j++)
    if (r->shape[j] != shape[j]) return 0;
  for (x = 0; x < ref_layout_strided_size(in); x++)
    if (ref_layout_strided_eval(r, x) != ref_layout_strided_eval(in, x)) return 0;
  return 1;
}

/* The print -> parse -> equal round trip of a finished layout: it prints
   (shorter than DNNMEM_LAYOUT_TEXT_MAX), the text parses, the parsed layout
   (bound to the machine made of l's levels when l is bound) is
   dnnmem_layout_equal to l both ways and prints the same text. Returns 1
   when all hold; *text (DNNMEM_LAYOUT_TEXT_MAX bytes, may be NULL) gets
   the text. */
REF_FN int ref_layout_round_trip_ok(const dnnmem_layout *l, char *text) {
  char first[DNNMEM_LAYOUT_TEXT_MAX], again[DNNMEM_LAYOUT_TEXT_MAX];
  size_t len = 0, len2 = 0;
  dnnmem_layout back;
  int64_t err = -1;
  int32_t lv;
  if (text == NULL) text = first;
  text[0] = 0;
  if (dnnmem_layout_print(l, text, DNNMEM_LAYOUT_TEXT_MAX, &len) != DNNMEM_OK ||
      len != strlen(text) || dnnmem_layout_parse(text, len, &back, &err) != DNNMEM_OK)
    return 0;
  if (l->bound) {
    dnnmem_layout_machine m;
    memset(&m, 0, sizeof(m));
    m.num_levels = l->num_levels;
    for (lv = 0; lv < l->num_levels; lv++) {
      memcpy(m.names[lv], l->level_names[lv], DNNMEM_LAYOUT_NAME_BYTES);
      m.extents[lv] = l->level_extent[lv];
    }
    if (dnnmem_layout_bind(&back, &m, &err) != DNNMEM_OK) return 0;
  }
  if (!dnnmem_layout_equal(l, &back) || !dnnmem_layout_equal(&back, l)) return 0;
  if (dnnmem_layout_print(&back, again, sizeof(again), &len2) != DNNMEM_OK) return 0;
  return len2 == len && memcmp(text, again, len) == 0;
}

/* 1 when index[] lies in the padding (beyond the unpadded shape). */
REF_FN int ref_layout_is_pad(const dnnmem_layout *l, const int64_t *index) {
  int32_t a;
  for (a = 0; a < l->num_axes; a++)
    if (index[a] >= l->unpadded[a]) return 1;
  return 0;
}

/* The maps of a finished layout recounted; returns the number of broken
   invariants (0: all hold). Work is bounded by max_work:
   - when padded_size <= max_work: position <-> index, one-index forward =
     the batch forward, addresses inside [0, cosize);
   - when replicas are known, for copies r while (r + 1) * padded_size <=
     max_work: the copy's slot inverts (batch) to its own position with the
     right slot kind;
   - when units * cosize <= max_work: every slot of every unit, inverted
     one by one, is an element, padding or unused; each held slot maps
     forward to its address with the same kind, each position is held
     exactly replicas times, and the counts equal dnnmem_layout_measure's
     (elements x replicas, padding slots, unused slots). */
REF_FN int64_t ref_layout_map_errors(const dnnmem_layout *l, int64_t max_work) {
  int64_t n = l->padded_size, levels = l->num_levels, e, r, u, bad = 0;
  int64_t index[DNNMEM_LAYOUT_MAX_AXES], one[DNNMEM_LAYOUT_MAX_LEVELS], address, p;
  int64_t *units, *copy, *addresses, *positions, *hits;
  uint8_t *slots, pad;
  dnnmem_layout_result st;
  int32_t lv;
  if (n > max_work) return 0;
  units = (int64_t *)malloc((size_t)(n * (levels + 1)) * sizeof(int64_t));
  copy = (int64_t *)malloc((size_t)(n * (levels + 1)) * sizeof(int64_t));
  addresses = (int64_t *)malloc((size_t)n * sizeof(int64_t));
  positions = (int64_t *)malloc((size_t)n * sizeof(int64_t));
  hits = (int64_t *)calloc((size_t)n, sizeof(int64_t));
  slots = (uint8_t *)malloc((size_t)n);
  if (!units || !copy || !addresses || !positions || !hits || !slots) abort();
  bad += dnnmem_layout_forward_range(l, 0, n, units, addresses) != DNNMEM_OK;
  for (e = 0; e < n; e++) {
    bad += dnnmem_layout_index(l, e, index) != DNNMEM_OK;
    bad += dnnmem_layout_position(l, index, &p) != DNNMEM_OK || p != e;
    bad += dnnmem_layout_forward(l, index, one, &address, &pad) != DNNMEM_OK;
    bad += address != addresses[e] || address < 0 || address >= l->cosize;
    bad += pad != ref_layout_is_pad(l, index);
    for (lv = 0; lv < levels; lv++) bad += one[lv] != units[e * levels + lv];
  }
  if (dnnmem_layout_measure(l, &st) == DNNMEM_OK) {
    bad += st.slots != st.padded_size * st.replicas || st.capacity != st.slots + st.unused_slots ||
           st.unused_slots < 0;
    for (r = 0; r < st.replicas && (r + 1) * n <= max_work; r++) {
      int64_t offsets[DNNMEM_LAYOUT_MAX_LEVELS];
      bad += dnnmem_layout_replica_offset(l, r, offsets) != DNNMEM_OK;
      for (e = 0; e < n * levels; e++) { /* copy 0 of a broadcast-to-all level: unit 0 */
        int64_t base = units[e];
        copy[e] = (base == DNNMEM_LAYOUT_ALL ? 0 : base) + offsets[e % levels];
      }
      bad += dnnmem_layout_inverse_batch(l, n, copy, addresses, positions, slots) != DNNMEM_OK;
      for (e = 0; e < n; e++) {
        dnnmem_layout_index(l, e, index);
        bad += positions[e] != e ||
               slots[e] != (ref_layout_is_pad(l, index) ? DNNMEM_LAYOUT_SLOT_PAD : DNNMEM_LAYOUT_SLOT_ELEMENT);
      }
    }
    if (st.capacity <= max_work) {
      int64_t seen_elem = 0, seen_pad = 0, seen_unused = 0;
      for (u = 0; u < st.units; u++) {
        int64_t coords[DNNMEM_LAYOUT_MAX_LEVELS], rest = u, addr;
        for (lv = (int32_t)levels - 1; lv >= 0; lv--) {
          coords[lv] = rest % st.level_extent[lv];
          rest /= st.level_extent[lv];
        }
        for (addr = 0; addr < st.cosize; addr++) {
          dnnmem_layout_slot slot;
          bad += dnnmem_layout_inverse(l, coords, addr, index, &slot) != DNNMEM_OK;
          if (slot == DNNMEM_LAYOUT_SLOT_UNUSED) {
            seen_unused++;
            continue;
          }
          if (slot == DNNMEM_LAYOUT_SLOT_PAD) seen_pad++;
          else seen_elem++;
          bad += dnnmem_layout_forward(l, index, one, &address, &pad) != DNNMEM_OK;
          bad += address != addr || pad != (slot == DNNMEM_LAYOUT_SLOT_PAD);
          if (dnnmem_layout_position(l, index, &p) == DNNMEM_OK) hits[p]++;
          else bad++;
        }
      }
      for (e = 0; e < n; e++) bad += hits[e] != st.replicas;
      bad += seen_elem != st.size * st.replicas || seen_pad != st.padding_slots ||
             seen_unused != st.unused_slots;
    }
  }
  free(units);
  free(copy);
  free(addresses);
  free(positions);
  free(hits);
  free(slots);
  return bad;
}

/* dnnmem_layout_runs recounted on every unit, when replicas are known and
   units * padded_size <= max_work; returns the number of broken
   invariants. Each unit's runs are in element order, maximal, and every
   element of every run sits at its address (inverse map); all units
   together hold each element exactly replicas times. A list one run too
   short gives DNNMEM_ERR_OUTPUT_TOO_SMALL with the full count and the
   same first runs. */
REF_FN int64_t ref_layout_runs_errors(const dnnmem_layout *l, int64_t max_work) {
  dnnmem_layout_result st;
  dnnmem_layout_run *runs, *again;
  int64_t *seen, u, e, bad = 0, units[DNNMEM_LAYOUT_MAX_LEVELS];
  int32_t lv, a;
  if (dnnmem_layout_measure(l, &st) != DNNMEM_OK || st.units > max_work / l->padded_size) return 0;
  runs = (dnnmem_layout_run *)malloc((size_t)l->padded_size * sizeof(*runs));
  again = (dnnmem_layout_run *)malloc((size_t)l->padded_size * sizeof(*runs));
  seen = (int64_t *)calloc((size_t)l->size, sizeof(int64_t));
  if (!runs || !again || !seen) abort();
  for (u = 0; u < st.units; u++) {
    int64_t rest = u, count = -1, count2 = -1, i, t;
    for (lv = l->num_levels - 1; lv >= 0; lv--) {
      units[lv] = rest % st.level_extent[lv];
      rest /= st.level_extent[lv];
    }
    if (dnnmem_layout_runs(l, units, runs, l->padded_size, &count) != DNNMEM_OK) {
      bad++;
      continue;
    }
    if (count > 0) {
      bad += dnnmem_layout_runs(l, units, again, count - 1, &count2) != DNNMEM_ERR_OUTPUT_TOO_SMALL ||
             count2 != count || memcmp(runs, again, (size_t)(count - 1) * sizeof(*runs)) != 0;
    }
    for (i = 0; i < count; i++) {
      const dnnmem_layout_run *run = &runs[i];
      if (i > 0) {
        const dnnmem_layout_run *prev = &runs[i - 1];
        bad += run->element < prev->element + prev->length; /* element order */
        bad += run->element == prev->element + prev->length &&
               run->address == prev->address + prev->length; /* not maximal */
      }
      bad += run->length < 1 || run->element < 0 || run->element > l->size - run->length;
      for (t = 0; t < run->length && run->element >= 0 && run->element + t < l->size; t++) {
        int64_t index[DNNMEM_LAYOUT_MAX_AXES], linear = 0;
        dnnmem_layout_slot slot;
        seen[run->element + t]++;
        bad += dnnmem_layout_inverse(l, units, run->address + t, index, &slot) != DNNMEM_OK;
        if (slot != DNNMEM_LAYOUT_SLOT_ELEMENT) {
          bad++;
          continue;
        }
        for (a = 0; a < l->num_axes; a++) linear = linear * l->unpadded[a] + index[a];
        bad += linear != run->element + t;
      }
    }
  }
  for (e = 0; e < l->size; e++) bad += seen[e] != st.replicas;
  free(runs);
  free(again);
  free(seen);
  return bad;
}

#endif /* DNNMEM_NO_LAYOUT */

/* (end of section 6) */

/* ==== 7. Max flow ========================================================= */

/* (end of section 7) */

/* ==== 8. Placement ======================================================== */

/* (end of section 8) */

#endif /* DNNMEM_TESTS_REF_H */

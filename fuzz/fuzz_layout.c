/* fuzz/fuzz_layout.c: TensorLayout text -> parse, print, bind, maps.
   Input: a layout text, optionally followed by '\n' and a machine spec.
   Invariants: the parser never crashes and reports a position inside the
   text; every accepted layout prints to text that parses to an equal layout
   (bound to the same machine when it is bound) and prints identically; a
   short print buffer gives DNNMEM_ERR_OUTPUT_TOO_SMALL; on small layouts
   the maps and the runs agree with tests/ref.h's recounts (forward then
   inverse is the identity for every position and copy, every slot of every
   unit counted once, the runs of all units hold every element once per
   copy); the memory part's coalesce and right inverse satisfy their
   equations; conversions to and from the compact layout of the same shape
   agree with tests/ref.h's recount. An input starting with byte 0xFF builds the layout struct in
   code instead, for the validation of dnnmem_layout_finish (0xFD: the same
   with arbitrary level-name bytes); one starting with 0xFE checks compose,
   complement, right inverse and reshape views of strided layouts from the
   bytes against their defining equations. */
#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "fuzz.h"
#include "tests/ref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SMALL 4096

static void check_algebra(const dnnmem_layout *l) {
  dnnmem_layout_strided m, c, inv;
  FUZZ_CHECK(dnnmem_layout_part(l, DNNMEM_LAYOUT_MEMORY, &m) == DNNMEM_OK);
  FUZZ_CHECK(dnnmem_layout_strided_check(&m, NULL) == DNNMEM_OK);
  if (dnnmem_layout_strided_size(&m) > SMALL) return;
  FUZZ_CHECK(dnnmem_layout_coalesce(&m, &c) == DNNMEM_OK && ref_layout_coalesce_ok(&m, &c));
  FUZZ_CHECK(dnnmem_layout_right_inverse(&m, &inv) == DNNMEM_OK && ref_layout_right_inverse_ok(&m, &inv));
}

static void check_layout(const dnnmem_layout *l) {
  char text[DNNMEM_LAYOUT_TEXT_MAX], shortbuf[8];
  size_t len;
  int32_t short_len = 0;
  FUZZ_CHECK(ref_layout_round_trip_ok(l, text));
  len = strlen(text);
  if (len >= sizeof(shortbuf))
    FUZZ_CHECK(dnnmem_layout_print(l, shortbuf, sizeof(shortbuf), &short_len) == DNNMEM_ERR_OUTPUT_TOO_SMALL &&
               strlen(shortbuf) == sizeof(shortbuf) - 1 && (size_t)short_len == len);
  FUZZ_CHECK(dnnmem_layout_equal(l, l));
  FUZZ_CHECK(ref_layout_map_errors(l, SMALL) == 0);
  FUZZ_CHECK(ref_layout_runs_errors(l, SMALL) == 0);
  check_algebra(l);
}

/* Input starting with 0xFF: a layout built in code from the bytes (fields
   in and slightly out of range), for dnnmem_layout_finish's validation;
   with 0xFD the level names are three raw bytes (empty, '_', digits, ...). */
static void fuzz_built(const uint8_t *data, size_t size, int raw_names) {
  fuzz_input in;
  dnnmem_layout l, before;
  dnnmem_error fault;
  int32_t k, a, lv;
  in.data = data;
  in.size = size;
  in.pos = 1;
  memset(&l, 0, sizeof(l));
  l.num_axes = (int32_t)(fuzz_u8(&in) % 5);
  l.num_factors = (int32_t)(fuzz_u8(&in) % 12);
  l.num_levels = (int32_t)(fuzz_u8(&in) % 4);
  l.bound = (int32_t)(fuzz_u8(&in) % 3 == 0);
  for (a = 0; a <= l.num_axes; a++) l.axis_first[a] = (int32_t)(fuzz_u8(&in) % 14) - 1;
  for (a = 0; a < l.num_axes; a++) l.unpadded[a] = (int64_t)(fuzz_u8(&in) % 20) - 1;
  for (lv = 0; lv < l.num_levels; lv++) {
    uint32_t c = fuzz_u8(&in);
    if (raw_names) {
      l.level_names[lv][0] = (char)c;
      l.level_names[lv][1] = (char)fuzz_u8(&in);
      l.level_names[lv][2] = (char)fuzz_u8(&in);
    } else {
      l.level_names[lv][0] = (char)('A' + c % 3);
      l.level_names[lv][1] = (char)(c & 0x80 ? '_' : 0);
    }
    l.level_extent[lv] = (int64_t)(fuzz_u8(&in) % 9) - 1;
  }
  for (k = 0; k < l.num_factors; k++) {
    dnnmem_layout_factor *f = &l.factors[k];
    f->extent = (int64_t)(fuzz_u8(&in) % 7) - 1;
    f->stride = (int64_t)(fuzz_u8(&in) % 40) - 2;
    f->level = (int32_t)(fuzz_u8(&in) % 5) - 1;
    f->flags = (int32_t)(fuzz_u8(&in) % 5);
    f->position = (int32_t)k;
    f->axis = (int32_t)(fuzz_u8(&in) % 3) - 1;
  }
  before = l;
  if (dnnmem_layout_finish(&l, &fault) != DNNMEM_OK) {
    /* a factor, or none; a bad header names an axis (INDEX: axis_first) or a level (LEVEL: a bound extent) */
    int32_t most = fault.field == DNNMEM_FIELD_INDEX   ? l.num_axes
                   : fault.field == DNNMEM_FIELD_LEVEL ? (l.num_levels > l.num_factors ? l.num_levels : l.num_factors)
                                                       : l.num_factors;
    FUZZ_CHECK(fault.index >= -1 && fault.index < most);
    FUZZ_CHECK(dnnmem_field_name(fault.field) != NULL);
    FUZZ_CHECK(memcmp(&l, &before, sizeof(l)) == 0); /* unchanged on error */
    return;
  }
  before = l; /* finishing a finished layout changes nothing */
  FUZZ_CHECK(dnnmem_layout_finish(&before, NULL) == DNNMEM_OK && memcmp(&l, &before, sizeof(l)) == 0);
  check_layout(&l);
}

static void strided_from(fuzz_input *in, dnnmem_layout_strided *s, int32_t max_rank) {
  int32_t i;
  s->rank = (int32_t)(fuzz_u8(in) % (uint32_t)(max_rank + 1));
  for (i = 0; i < s->rank; i++) {
    s->shape[i] = 1 + (int64_t)(fuzz_u8(in) % 6);
    s->stride[i] = (int64_t)(fuzz_u8(in) % 50);
  }
}

/* Input starting with 0xFE: two strided layouts from the bytes; every
   algebra result that is given satisfies its defining equation. */
static void fuzz_algebra(const uint8_t *data, size_t size) {
  fuzz_input in;
  dnnmem_layout_strided a, b, r;
  int64_t n, m, shape[4];
  int32_t q;
  in.data = data;
  in.size = size;
  in.pos = 1;
  strided_from(&in, &a, 4);
  strided_from(&in, &b, 3);
  m = 1 + (int64_t)fuzz_u8(&in);
  if (dnnmem_layout_compose(&a, &b, &r) == DNNMEM_OK) FUZZ_CHECK(ref_layout_compose_ok(&a, &b, &r));
  if (dnnmem_layout_complement(&a, m, &r) == DNNMEM_OK) FUZZ_CHECK(ref_layout_complement_ok(&a, m, &r));
  if (dnnmem_layout_right_inverse(&a, &r) == DNNMEM_OK) FUZZ_CHECK(ref_layout_right_inverse_ok(&a, &r));
  /* a reshape into a factorisation given by the bytes */
  n = dnnmem_layout_strided_size(&a);
  for (q = 0; q < 4 && n > 1; q++) {
    int64_t d = 1 + (int64_t)(fuzz_u8(&in) % 6);
    if (n % d) d = n;
    shape[q] = d;
    n /= d;
  }
  if (n > 1) shape[q > 0 ? q - 1 : q++] *= n;
  if (dnnmem_layout_reshape_view(&a, q, shape, &r) == DNNMEM_OK)
    FUZZ_CHECK(ref_layout_reshape_ok(&a, q, shape, &r));
}

/* Conversions (dnnmem_layout_convert) between a bound layout and the
   compact row-major layout of its shape on the same machine, both ways and
   to itself: every copy counted once (kept + local + moved = copies), a
   layout to itself keeps everything in 0 runs, and on small layouts the
   counts equal tests/ref.h's slot-by-slot recount. */
static void check_convert(const dnnmem_layout *l, const dnnmem_layout_machine *m) {
  char text[DNNMEM_LAYOUT_TEXT_MAX];
  size_t len = 0, bytes = 0;
  dnnmem_layout plain;
  dnnmem_layout_conversion got, want;
  const dnnmem_layout *pair[3][2];
  int64_t err, units = 1;
  int32_t a, i, lv;
  void *mem;
  len += (size_t)snprintf(text + len, sizeof(text) - len, "(");
  for (a = 0; a < l->num_axes && len < sizeof(text); a++)
    len += (size_t)snprintf(text + len, sizeof(text) - len, "%s(%lld)", a ? ", " : "", (long long)l->unpadded[a]);
  if (len >= sizeof(text) - 2) return;
  snprintf(text + len, sizeof(text) - len, ")");
  if (dnnmem_layout_parse(text, strlen(text), &plain, &err) != DNNMEM_OK) return;
  if (dnnmem_layout_bind(&plain, m, NULL) != DNNMEM_OK) return;
  for (lv = 0; lv < l->num_levels; lv++)
    if ((units *= l->level_extent[lv]) > SMALL) return; /* extents >= 1: no overflow before this */
  pair[0][0] = l, pair[0][1] = l;
  pair[1][0] = l, pair[1][1] = &plain;
  pair[2][0] = &plain, pair[2][1] = l;
  for (i = 0; i < 3; i++) {
    const dnnmem_layout *f = pair[i][0], *t = pair[i][1];
    if (units > SMALL || t->cosize > SMALL || f->cosize > SMALL || units * t->cosize > SMALL ||
        units * f->cosize > SMALL)
      continue;
    FUZZ_CHECK(dnnmem_layout_convert_scratch_size(f, t, &bytes) == DNNMEM_OK);
    mem = malloc(bytes);
    FUZZ_CHECK(dnnmem_layout_convert(f, t, &got, mem, bytes) == DNNMEM_OK);
    free(mem);
    FUZZ_CHECK(got.elements == l->size && got.copies == l->size * t->replicas);
    FUZZ_CHECK(got.kept + got.local + got.moved == got.copies);
    if (i == 0) FUZZ_CHECK(got.kept == got.copies && got.runs == 0);
    if (units * t->cosize * f->cosize <= SMALL * 16) {
      ref_layout_convert(f, t, &want);
      FUZZ_CHECK(got.copies == want.copies && got.kept == want.kept && got.local == want.local &&
                 got.moved == want.moved && got.runs == want.runs);
    }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *text = (const char *)data;
  size_t layout_len = size, machine_len = 0;
  const char *machine_text = NULL;
  const char *nl = size ? (const char *)memchr(data, '\n', size) : NULL;
  dnnmem_layout l;
  dnnmem_layout_machine m;
  int64_t err = -1;
  dnnmem_error fault;
  dnnmem_result r;
  if (size > 512) return 0;
  if (size > 0 && data[0] == 0xFE) {
    fuzz_algebra(data, size);
    return 0;
  }
  if (size > 0 && (data[0] == 0xFF || data[0] == 0xFD)) {
    fuzz_built(data, size, data[0] == 0xFD);
    return 0;
  }
  if (nl) {
    layout_len = (size_t)(nl - text);
    machine_text = nl + 1;
    machine_len = size - layout_len - 1;
  }
  r = dnnmem_layout_parse(text, layout_len, &l, &err);
  FUZZ_CHECK(err >= 0 && err <= (int64_t)layout_len);
  if (r != DNNMEM_OK) return 0;
  check_layout(&l);
  if (machine_text) {
    dnnmem_layout unbound = l;
    r = dnnmem_layout_machine_parse(machine_text, machine_len, &m, &err);
    FUZZ_CHECK(err >= 0 && err <= (int64_t)machine_len);
    if (r != DNNMEM_OK) return 0;
    r = dnnmem_layout_bind(&l, &m, &fault);
    if (r != DNNMEM_OK) {
      FUZZ_CHECK(fault.index >= -1 && fault.index < l.num_factors);
      FUZZ_CHECK(memcmp(&l, &unbound, sizeof(l)) == 0); /* unchanged on error */
      return 0;
    }
    FUZZ_CHECK(l.bound == 1 && l.num_levels == m.num_levels);
    check_layout(&l);
    check_convert(&l, &m);
  }
  return 0;
}

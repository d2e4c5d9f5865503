/* fuzz/fuzz_layout.c: TensorLayout text -> parse, print, bind, maps.
   Input: a layout text, optionally followed by '\n' and a machine spec.
   Invariants: the parser never crashes and reports a position inside the
   text; every accepted layout prints to text that parses to an equal layout
   and prints identically; a short print buffer gives
   DNNMEM_ERR_SCRATCH_TOO_SMALL; on small layouts forward then inverse is the
   identity for every position and copy, and every slot of every unit is
   counted once (elements x replicas + padding + unused = units x cosize);
   the memory part's coalesce and right inverse satisfy their equations.
   An input starting with byte 0xFF builds the layout struct in code
   instead, for the validation of dnnmem_layout_finish; one starting with
   0xFE checks compose, complement, right inverse and reshape views of
   strided layouts from the bytes against their defining equations. */
#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "fuzz.h"

#include <string.h>

#define SMALL 4096

static void check_maps(const dnnmem_layout *l) {
  static int64_t units[SMALL * DNNMEM_LAYOUT_MAX_LEVELS], copy[SMALL * DNNMEM_LAYOUT_MAX_LEVELS];
  static int64_t addresses[SMALL], positions[SMALL];
  static uint8_t pad[SMALL];
  dnnmem_layout_stats st;
  int64_t n = l->padded_size, e, r, u, levels = l->num_levels;
  int32_t lv, a;
  if (n > SMALL) return;
  FUZZ_CHECK(dnnmem_layout_forward_range(l, 0, n, units, addresses) == DNNMEM_OK);
  for (e = 0; e < n; e++) {
    int64_t index[DNNMEM_LAYOUT_MAX_AXES], one[DNNMEM_LAYOUT_MAX_LEVELS], address, p;
    int is_pad;
    FUZZ_CHECK(dnnmem_layout_index(l, e, index) == DNNMEM_OK);
    FUZZ_CHECK(dnnmem_layout_position(l, index, &p) == DNNMEM_OK && p == e);
    FUZZ_CHECK(dnnmem_layout_forward(l, index, one, &address, &is_pad) == DNNMEM_OK);
    FUZZ_CHECK(address == addresses[e] && address >= 0 && address < l->cosize);
    for (lv = 0; lv < levels; lv++) FUZZ_CHECK(one[lv] == units[e * levels + lv]);
  }
  if (dnnmem_layout_measure(l, &st) != DNNMEM_OK) return; /* replicas unknown */
  FUZZ_CHECK(st.slots == st.padded_size * st.replicas);
  FUZZ_CHECK(st.capacity == st.slots + st.unused_slots && st.unused_slots >= 0);
  for (r = 0; r < st.replicas && r < 8; r++) {
    int64_t offsets[DNNMEM_LAYOUT_MAX_LEVELS];
    FUZZ_CHECK(dnnmem_layout_replica_offset(l, r, offsets) == DNNMEM_OK);
    for (e = 0; e < n; e++)
      for (lv = 0; lv < levels; lv++) {
        int64_t base = units[e * levels + lv];
        copy[e * levels + lv] = (base == DNNMEM_LAYOUT_ALL ? 0 : base) + offsets[lv];
      }
    FUZZ_CHECK(dnnmem_layout_inverse_batch(l, n, copy, addresses, positions, pad) == DNNMEM_OK);
    for (e = 0; e < n; e++) {
      int64_t index[DNNMEM_LAYOUT_MAX_AXES];
      int is_pad = 0;
      dnnmem_layout_index(l, e, index);
      for (a = 0; a < l->num_axes; a++) is_pad |= index[a] >= l->unpadded[a];
      FUZZ_CHECK(positions[e] == e && pad[e] == is_pad);
    }
  }
  /* every slot of every unit, counted independently */
  if (st.capacity <= 4 * SMALL) {
    int64_t seen_elem = 0, seen_pad = 0, seen_unused = 0;
    for (u = 0; u < st.units; u++) {
      int64_t coords[DNNMEM_LAYOUT_MAX_LEVELS], rest = u, addr;
      for (lv = (int32_t)levels - 1; lv >= 0; lv--) {
        coords[lv] = rest % st.level_extent[lv];
        rest /= st.level_extent[lv];
      }
      for (addr = 0; addr < st.cosize; addr++) {
        dnnmem_layout_slot slot;
        int64_t index[DNNMEM_LAYOUT_MAX_AXES];
        FUZZ_CHECK(dnnmem_layout_inverse(l, coords, addr, index, &slot) == DNNMEM_OK);
        if (slot == DNNMEM_LAYOUT_SLOT_ELEMENT) seen_elem++;
        else if (slot == DNNMEM_LAYOUT_SLOT_PAD) seen_pad++;
        else seen_unused++;
        if (slot != DNNMEM_LAYOUT_SLOT_UNUSED) {
          int64_t one[DNNMEM_LAYOUT_MAX_LEVELS], address;
          int is_pad;
          FUZZ_CHECK(dnnmem_layout_forward(l, index, one, &address, &is_pad) == DNNMEM_OK);
          FUZZ_CHECK(address == addr && is_pad == (slot == DNNMEM_LAYOUT_SLOT_PAD));
        }
      }
    }
    FUZZ_CHECK(seen_elem == st.size * st.replicas);
    FUZZ_CHECK(seen_pad == st.padding_slots);
    FUZZ_CHECK(seen_unused == st.unused_slots);
  }
}

static void check_algebra(const dnnmem_layout *l) {
  dnnmem_strided m, c, inv;
  int64_t x, size;
  FUZZ_CHECK(dnnmem_layout_part(l, DNNMEM_LAYOUT_MEMORY, &m) == DNNMEM_OK);
  FUZZ_CHECK(dnnmem_strided_check(&m) == DNNMEM_OK);
  size = dnnmem_strided_size(&m);
  if (size > SMALL) return;
  FUZZ_CHECK(dnnmem_strided_coalesce(&m, &c) == DNNMEM_OK);
  FUZZ_CHECK(dnnmem_strided_size(&c) == size);
  for (x = 0; x < size; x++) FUZZ_CHECK(dnnmem_strided_eval(&c, x) == dnnmem_strided_eval(&m, x));
  FUZZ_CHECK(dnnmem_strided_right_inverse(&m, &inv) == DNNMEM_OK);
  for (x = 0; x < dnnmem_strided_size(&inv); x++)
    FUZZ_CHECK(dnnmem_strided_eval(&m, dnnmem_strided_eval(&inv, x)) == x);
}

static void check_layout(const dnnmem_layout *l) {
  char text[DNNMEM_LAYOUT_TEXT_MAX], again[DNNMEM_LAYOUT_TEXT_MAX], shortbuf[8];
  size_t len = 0, len2 = 0;
  dnnmem_layout back;
  int64_t err = -1;
  FUZZ_CHECK(dnnmem_layout_print(l, text, sizeof(text), &len) == DNNMEM_OK);
  FUZZ_CHECK(len == strlen(text) && len < DNNMEM_LAYOUT_TEXT_MAX);
  if (len >= sizeof(shortbuf))
    FUZZ_CHECK(dnnmem_layout_print(l, shortbuf, sizeof(shortbuf), NULL) == DNNMEM_ERR_SCRATCH_TOO_SMALL &&
               strlen(shortbuf) == sizeof(shortbuf) - 1);
  FUZZ_CHECK(dnnmem_layout_parse(text, len, &back, &err) == DNNMEM_OK);
  if (!l->bound) FUZZ_CHECK(dnnmem_layout_equal(l, &back) && dnnmem_layout_equal(&back, l));
  FUZZ_CHECK(dnnmem_layout_print(&back, again, sizeof(again), &len2) == DNNMEM_OK);
  FUZZ_CHECK(len2 == len && memcmp(text, again, len) == 0);
  FUZZ_CHECK(dnnmem_layout_equal(l, l));
  check_maps(l);
  check_algebra(l);
}

/* Input starting with 0xFF: a layout built in code from the bytes (fields
   in and slightly out of range), for dnnmem_layout_finish's validation. */
static void fuzz_built(const uint8_t *data, size_t size) {
  fuzz_input in;
  dnnmem_layout l;
  int64_t err = -1;
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
    l.level_names[lv][0] = (char)('A' + c % 3);
    l.level_names[lv][1] = (char)(c & 0x80 ? '_' : 0);
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
  if (dnnmem_layout_finish(&l, &err) != DNNMEM_OK) {
    FUZZ_CHECK(err >= 0 && err < 12);
    return;
  }
  check_layout(&l);
}

static void strided_from(fuzz_input *in, dnnmem_strided *s, int32_t max_rank) {
  int32_t i;
  s->rank = (int32_t)(fuzz_u8(in) % (uint32_t)(max_rank + 1));
  for (i = 0; i < s->rank; i++) {
    s->shape[i] = 1 + (int64_t)(fuzz_u8(in) % 6);
    s->stride[i] = (int64_t)(fuzz_u8(in) % 50);
  }
}

static int64_t strided_ref(const dnnmem_strided *s, int64_t x) { /* x < size */
  int64_t v = 0;
  int32_t i;
  for (i = s->rank - 1; i >= 0; i--) {
    v += x % s->shape[i] * s->stride[i];
    x /= s->shape[i];
  }
  return v;
}

/* Input starting with 0xFE: two strided layouts from the bytes; every
   algebra result that is given satisfies its defining equation. */
static void fuzz_algebra(const uint8_t *data, size_t size) {
  static uint8_t seen[1 << 16];
  fuzz_input in;
  dnnmem_strided a, b, r;
  int64_t x, n, m;
  int32_t i, q;
  int64_t shape[4];
  in.data = data;
  in.size = size;
  in.pos = 1;
  strided_from(&in, &a, 4);
  strided_from(&in, &b, 3);
  m = 1 + (int64_t)fuzz_u8(&in);
  if (dnnmem_strided_compose(&a, &b, &r) == DNNMEM_OK) {
    FUZZ_CHECK(dnnmem_strided_size(&r) == dnnmem_strided_size(&b));
    for (x = 0; x < dnnmem_strided_size(&b); x++)
      FUZZ_CHECK(strided_ref(&r, x) == strided_ref(&a, strided_ref(&b, x)));
  }
  if (dnnmem_strided_complement(&a, m, &r) == DNNMEM_OK) {
    dnnmem_strided cat;
    cat.rank = r.rank + a.rank;
    FUZZ_CHECK(cat.rank <= DNNMEM_LAYOUT_MAX_FACTORS);
    for (i = 0; i < r.rank; i++) {
      cat.shape[i] = r.shape[i];
      cat.stride[i] = r.stride[i];
    }
    for (i = 0; i < a.rank; i++) {
      cat.shape[r.rank + i] = a.shape[i];
      cat.stride[r.rank + i] = a.stride[i];
    }
    n = dnnmem_strided_size(&cat);
    FUZZ_CHECK(n >= m);
    if (n <= (int64_t)sizeof(seen)) {
      memset(seen, 0, (size_t)n);
      for (x = 0; x < n; x++) {
        int64_t v = strided_ref(&cat, x);
        FUZZ_CHECK(v < n && !seen[v]);
        seen[v] = 1;
      }
    }
  }
  if (dnnmem_strided_right_inverse(&a, &r) == DNNMEM_OK)
    for (x = 0; x < dnnmem_strided_size(&r); x++) FUZZ_CHECK(strided_ref(&a, strided_ref(&r, x)) == x);
  /* a reshape into a factorisation given by the bytes */
  n = dnnmem_strided_size(&a);
  for (q = 0; q < 4 && n > 1; q++) {
    int64_t d = 1 + (int64_t)(fuzz_u8(&in) % 6);
    if (n % d) d = n;
    shape[q] = d;
    n /= d;
  }
  if (n > 1) shape[q > 0 ? q - 1 : q++] *= n;
  if (dnnmem_strided_reshape_view(&a, q, shape, &r) == DNNMEM_OK) {
    FUZZ_CHECK(r.rank == q && dnnmem_strided_size(&r) == dnnmem_strided_size(&a));
    for (x = 0; x < dnnmem_strided_size(&a); x++) FUZZ_CHECK(strided_ref(&r, x) == strided_ref(&a, x));
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
  dnnmem_result r;
  if (size > 512) return 0;
  if (size > 0 && data[0] == 0xFE) {
    fuzz_algebra(data, size);
    return 0;
  }
  if (size > 0 && data[0] == 0xFF) {
    fuzz_built(data, size);
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
    r = dnnmem_layout_bind(&l, &m, &err);
    if (r != DNNMEM_OK) {
      FUZZ_CHECK(memcmp(&l, &unbound, sizeof(l)) == 0); /* unchanged on error */
      return 0;
    }
    FUZZ_CHECK(l.bound == 1 && l.num_levels == m.num_levels);
    check_layout(&l);
  }
  return 0;
}

/* tests/test_layout.c: TensorLayout parse/print, forward/inverse maps,
   padding, broadcast, sizes, runs, dnnmem_layout_finish's rules and the
   strided-layout algebra. Exact values from the MN-Core document's
   examples; exhaustive round trips and algebra checked against the
   recounts and defining equations of tests/ref.h (section 6). */
#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "ref.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

static uint64_t rng_state = 12345;
static int64_t rnd(int64_t n) { /* uniform-ish in [0, n) */
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return (int64_t)((rng_state >> 33) % (uint64_t)n);
}

static dnnmem_result parse(const char *text, dnnmem_layout *l, int64_t *err) {
  return dnnmem_layout_parse(text, strlen(text), l, err);
}

/* Parses (must succeed), optionally binds to a machine string. */
static int load(const char *text, const char *machine, dnnmem_layout *l) {
  int64_t err = -7;
  dnnmem_error fault;
  dnnmem_result r = parse(text, l, &err);
  if (r != DNNMEM_OK) {
    fprintf(stderr, "parse '%s': %s at %lld\n", text, dnnmem_result_text(r), (long long)err);
    return 0;
  }
  if (machine) {
    dnnmem_layout_machine m;
    r = dnnmem_layout_machine_parse(machine, strlen(machine), &m, &err);
    if (r == DNNMEM_OK) r = dnnmem_layout_bind(l, &m, &fault);
    if (r != DNNMEM_OK) {
      fprintf(stderr, "bind '%s' to '%s': %s\n", text, machine, dnnmem_result_text(r));
      return 0;
    }
  }
  return 1;
}

/* Forward map of index (i, j) of a 2-axis layout; unit of level name. */
static void at2(const dnnmem_layout *l, int64_t i, int64_t j, const char *level, int64_t *unit,
                int64_t *address, uint8_t *pad) {
  int64_t index[2], units[DNNMEM_LAYOUT_MAX_LEVELS];
  int32_t lv = dnnmem_layout_level_index(l, level);
  index[0] = i;
  index[1] = j;
  *unit = -99;
  *address = -99;
  *pad = 9;
  if (dnnmem_layout_forward(l, index, units, address, pad) != DNNMEM_OK) return;
  *unit = lv >= 0 ? units[lv] : -98;
}

static void test_worked_examples(void) {
  dnnmem_layout l;
  int64_t unit, address, units[DNNMEM_LAYOUT_MAX_LEVELS], index[2];
  uint8_t pad;
  dnnmem_layout_slot slot;

  CHECK(load("((4_PE, 3:8), (8:1))", NULL, &l));
  at2(&l, 7, 5, "PE", &unit, &address, &pad);
  CHECK_EQ(unit, 2);
  CHECK_EQ(address, 13);
  CHECK_EQ(pad, 0);

  CHECK(load("((3:8, 4_PE), (8:1))", NULL, &l));
  at2(&l, 7, 5, "PE", &unit, &address, &pad);
  CHECK_EQ(unit, 3);
  CHECK_EQ(address, 13);

  CHECK(load("((2_PE:2, 6:4), (2_PE:1, 4:1))", NULL, &l));
  at2(&l, 7, 5, "PE", &unit, &address, &pad);
  CHECK_EQ(unit, 3);
  CHECK_EQ(address, 5);
  /* the other 2x2 split of the document: PE moves by 1 along rows */
  CHECK(load("((2_PE:1, 6:4), (2_PE:2, 4:1))", NULL, &l));
  at2(&l, 7, 5, "PE", &unit, &address, &pad);
  CHECK_EQ(unit, 3);
  at2(&l, 7, 0, "PE", &unit, &address, &pad);
  CHECK_EQ(unit, 1);
  at2(&l, 0, 5, "PE", &unit, &address, &pad);
  CHECK_EQ(unit, 2);

  CHECK(load("(10,7)/((3:7, 4_PE), (7:1))", NULL, &l));
  CHECK_EQ(l.size, 70);
  CHECK_EQ(l.padded_size, 84);
  at2(&l, 9, 6, "PE", &unit, &address, &pad);
  CHECK_EQ(unit, 1);
  CHECK_EQ(address, 20);
  CHECK_EQ(pad, 0);
  at2(&l, 10, 0, "PE", &unit, &address, &pad);
  CHECK_EQ(unit, 2);
  CHECK_EQ(address, 14);
  CHECK_EQ(pad, 1);
  units[0] = 2;
  CHECK_EQ(dnnmem_layout_inverse(&l, units, 14, index, &slot), DNNMEM_OK);
  CHECK_EQ(slot, DNNMEM_LAYOUT_SLOT_PAD);
  CHECK_VALUES(index, 10, 0);
  units[0] = 1;
  CHECK_EQ(dnnmem_layout_inverse(&l, units, 20, index, &slot), DNNMEM_OK);
  CHECK_EQ(slot, DNNMEM_LAYOUT_SLOT_ELEMENT);
  CHECK_VALUES(index, 9, 6);
  CHECK_EQ(dnnmem_layout_inverse(&l, units, 21, index, &slot), DNNMEM_OK); /* cosize 21 */
  CHECK_EQ(slot, DNNMEM_LAYOUT_SLOT_UNUSED);
  CHECK_EQ(l.cosize, 21);

  /* columns padded to 8 over 4 PEs: (10,7)/((10:2), (2:1, 4_PE)) */
  CHECK(load("(10,7)/((10:2), (2:1, 4_PE))", NULL, &l));
  at2(&l, 3, 6, "PE", &unit, &address, &pad); /* 6 = 1*4 + 2 */
  CHECK_EQ(unit, 2);
  CHECK_EQ(address, 7);
  at2(&l, 3, 7, "PE", &unit, &address, &pad);
  CHECK_EQ(unit, 3);
  CHECK_EQ(pad, 1);

  /* columns distributed: ((12:2), (4_PE, 2:1)); (i, j) -> PE j/2, address 2i + j%2 */
  CHECK(load("((12:2), (4_PE, 2:1))", NULL, &l));
  {
    int64_t i, j, bad = 0;
    for (i = 0; i < 12; i++)
      for (j = 0; j < 8; j++) {
        at2(&l, i, j, "PE", &unit, &address, &pad);
        if (unit != j / 2 || address != 2 * i + j % 2) bad++;
      }
    CHECK_EQ(bad, 0);
  }
  CHECK_EQ(l.cosize, 24);

}

/* The document's broadcast and whole-board examples. */
static void test_worked_examples_board(void) {
  dnnmem_layout_slot slot;
  uint8_t pad;
  int64_t unit, address, units[DNNMEM_LAYOUT_MAX_LEVELS], index[2];
  dnnmem_layout l;
  /* broadcast: every PE holds the whole 12x8 matrix */
  CHECK(load("((12:8), (8:1); B@[PE])", NULL, &l));
  at2(&l, 7, 5, "PE", &unit, &address, &pad);
  CHECK_EQ(unit, DNNMEM_LAYOUT_ALL);
  CHECK_EQ(address, 61);
  CHECK_EQ(l.replicas, 0); /* unknown without a machine */
  CHECK(load("((12:8), (8:1); B@[PE])", "PE=4", &l));
  CHECK_EQ(l.replicas, 4);
  units[0] = 3;
  CHECK_EQ(dnnmem_layout_inverse(&l, units, 61, index, &slot), DNNMEM_OK);
  CHECK_EQ(slot, DNNMEM_LAYOUT_SLOT_ELEMENT);
  CHECK_VALUES(index, 7, 5);
  units[0] = 4; /* beyond the machine */
  CHECK_EQ(dnnmem_layout_inverse(&l, units, 61, index, &slot), DNNMEM_OK);
  CHECK_EQ(slot, DNNMEM_LAYOUT_SLOT_UNUSED);
  {
    dnnmem_layout implicit;
    CHECK(load("((12:8), (8:1))", "PE=4", &implicit));
    CHECK(dnnmem_layout_equal(&l, &implicit));
    CHECK_EQ(implicit.replicas, 4);
  }

  /* the whole board: ((16_L2B, 8_L1B, 8:8), (16_MAB, 8:1, 4_PE)), 1024 x 512 */
  CHECK(load("((16_L2B, 8_L1B, 8:8), (16_MAB, 8:1, 4_PE))", "L2B=16,L1B=8,MAB=16,PE=4", &l));
  CHECK_EQ(l.size, 1024 * 512);
  CHECK_EQ(l.cosize, 64);
  index[0] = 1023;
  index[1] = 511;
  CHECK_EQ(dnnmem_layout_forward(&l, index, units, &address, &pad), DNNMEM_OK);
  CHECK_VALUES(units, 15, 7, 15, 3);
  CHECK_EQ(address, 63);
  index[0] = 64 * 5 + 8 * 3 + 2; /* L2B 5, L1B 3, row 2 */
  index[1] = 32 * 9 + 4 * 6 + 1; /* MAB 9, column 6, PE 1 */
  CHECK_EQ(dnnmem_layout_forward(&l, index, units, &address, &pad), DNNMEM_OK);
  CHECK_VALUES(units, 5, 3, 9, 1);
  CHECK_EQ(address, 2 * 8 + 6);
}

static void test_print_round_trip(void) {
  static const char *cases[][2] = {
      {"((4_PE, 3:8), (8:1))", "((4_PE, 3:8), (8:1))"},
      {"((4_PE,3),(8))", "((4_PE, 3:8), (8:1))"},
      {" ( (3:8 ,4_PE) , (8:1) ) ", "((3:8, 4_PE), (8:1))"},
      {"((2_PE:2, 6:4), (2_PE:1, 4:1))", "((2_PE:2, 6:4), (2_PE:1, 4:1))"},
      {"(10,7)/((3:7, 4_PE), (7:1))", "(10,7)/((3:7, 4_PE), (7:1))"},
      {"(12,8)/((3:8, 4_PE), (8:1))", "((3:8, 4_PE), (8:1))"},
      {"((12:8), (8:1); B@[PE])", "((12:8), (8:1); B@[PE])"},
      {"((12:8), (8:1); B@[PE]; B@[2_L2B:2])", "((12:8), (8:1); B@[PE, 2_L2B:2])"},
      {"((12:8), (8:1); B@[8_L2B:1])", "((12:8), (8:1); B@[8_L2B])"},
      {"(12:8, 8:1)", "((12:8), (8:1))"},
      {"((4_PE:2, 3:8), (8:1))", "((4_PE:2, 3:8), (8:1))"},
      {"((2_Time, 6:8), (8:1))", "((2_Time, 6:8), (8:1))"},
  };
  size_t i;
  for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    dnnmem_layout a, b;
    char text[DNNMEM_LAYOUT_TEXT_MAX], again[DNNMEM_LAYOUT_TEXT_MAX];
    int32_t len = 0, len2 = 0;
    CHECK(load(cases[i][0], NULL, &a));
    CHECK_EQ(dnnmem_layout_print(&a, text, sizeof(text), &len), DNNMEM_OK);
    CHECK_EQ(len, strlen(text));
    if (strcmp(text, cases[i][1]) != 0) {
      fprintf(stderr, "print '%s' gave '%s', want '%s'\n", cases[i][0], text, cases[i][1]);
      CHECK(0);
    }
    CHECK(load(text, NULL, &b));
    CHECK(dnnmem_layout_equal(&a, &b));
    CHECK_EQ(dnnmem_layout_print(&b, again, sizeof(again), NULL), DNNMEM_OK);
    CHECK(strcmp(text, again) == 0);
    /* short buffers: error, truncated but terminated */
    CHECK_EQ(dnnmem_layout_print(&a, again, len, &len2), DNNMEM_ERR_OUTPUT_TOO_SMALL);
    CHECK_EQ(strlen(again), len - 1);
    CHECK_EQ(len2, len); /* the needed length is reported */
  }
}

/* Pairs of layouts (on the machine given, or none) and whether they are
   equal; each pair is checked both ways, and each layout equals itself. */
static void test_equality(void) {
  static const struct {
    const char *a, *b, *machine;
    int equal;
  } cases[] = {
      {"((4_PE, 3:8), (8:1))", "((4_PE:1, 3:8, 1:5), (2:4, 4:1))", NULL, 1}, /* split and unit factors */
      {"((4_PE, 3:8), (8:1))", "((3:8, 4_PE), (8:1))", NULL, 0},
      {"((2_PE:2, 6:4), (2_PE:1, 4:1))", "((2_PE:1, 6:4), (2_PE:2, 4:1))", NULL, 0},
      {"(10,7)/((3:7, 4_PE), (7:1))", "((3:7, 4_PE), (7:1))", NULL, 0},
      {"((12:8), (8:1); B@[2_L2B:1, 2_L2B:2])", "((12:8), (8:1); B@[4_L2B])", NULL, 1},
      {"((12:8), (8:1); B@[4_L2B])", "((12:8), (8:1); B@[L2B])", "L2B=4", 1},
      {"((12:8), (8:1); B@[4_L2B])", "((12:8), (8:1); B@[4_MAB])", NULL, 0},
      /* unequal by one part alone: an axis's factor count, the broadcast's
         factor count, a broadcast stride */
      {"((4_PE, 3:8), (8:1))", "((4_PE, 3:8), (2:1, 4:2))", NULL, 0},
      {"((12:8), (8:1); B@[4_L2B])", "((12:8), (8:1); B@[2_L2B, 2_MAB])", NULL, 0},
      {"((12:8), (8:1); B@[2_L2B:1, 2_MAB:2])", "((12:8), (8:1); B@[2_L2B:2, 2_MAB:1])", NULL, 0},
  };
  size_t i;
  for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    dnnmem_layout a, b;
    CHECK(load(cases[i].a, cases[i].machine, &a));
    CHECK(load(cases[i].b, cases[i].machine, &b));
    CHECK_EQ(dnnmem_layout_equal(&a, &b), cases[i].equal);
    CHECK_EQ(dnnmem_layout_equal(&b, &a), cases[i].equal);
    CHECK(dnnmem_layout_equal(&a, &a) && dnnmem_layout_equal(&b, &b));
  }
}

typedef struct bad_case {
  const char *text;
  dnnmem_result result;
  int64_t position;
} bad_case;

static void test_bad_input(void) {
  static const bad_case cases[] = {
      {"((4_PE, 3:8), (8:1)", DNNMEM_ERR_PARSE, 19},     /* unbalanced */
      {"((4_PE, 3:8)), (8:1))", DNNMEM_ERR_PARSE, 13},   /* trailing text */
      {"((4_PE, 0:8), (8:1))", DNNMEM_ERR_LAYOUT_EXTENT, 8},
      {"((4_PE, 3:8), (8:1)) x", DNNMEM_ERR_PARSE, 21},
      {"", DNNMEM_ERR_PARSE, 0},
      {"()", DNNMEM_ERR_PARSE, 1},
      {"((4_PE, 3:8), ())", DNNMEM_ERR_PARSE, 15},
      {"((2_PE, 6:4), (2_PE, 4:1))", DNNMEM_ERR_LAYOUT_STRIDE, 2}, /* twice without strides */
      {"((2_PE:2, 6:4), (2_PE:2, 4:1))", DNNMEM_ERR_LAYOUT_COLLISION, 2},
      {"((3:8, 4_PE), (8:4))", DNNMEM_ERR_LAYOUT_COLLISION, 2},  /* 8 columns at stride 4 */
      {"((3:8, 4_PE), (8))", DNNMEM_ERR_LAYOUT_STRIDE, 15},      /* mixed strides */
      {"((3:0), (1:1))", DNNMEM_ERR_LAYOUT_COLLISION, 2},
      {"(13,7)/((3:7, 4_PE), (7:1))", DNNMEM_ERR_LAYOUT_PADDING, 1}, /* padded smaller */
      {"(10)/((3:7, 4_PE), (7:1))", DNNMEM_ERR_LAYOUT_PADDING, 0},
      {"(10,0)/((3:7, 4_PE), (7:1))", DNNMEM_ERR_LAYOUT_EXTENT, 4},
      {"(10:1,7)/((3:7, 4_PE), (7:1))", DNNMEM_ERR_PARSE, 1},
      {"((99999999999999999999:1))", DNNMEM_ERR_OVERFLOW, 2},
      {"((4294967296:1), (4294967296:1))", DNNMEM_ERR_OVERFLOW, 18},
      {"((3:8, 4_PE), (8:1); B@[PE])", DNNMEM_ERR_LAYOUT_LEVEL_CONFLICT, 24},
      {"((3:8, 4_PE), (8:1); B@[4])", DNNMEM_ERR_PARSE, 25},
      {"((3:8, 4_ThisNameIsWayTooLong), (8:1))", DNNMEM_ERR_LAYOUT_LIMIT, 9},
      {"((3:8, 4_PE), (8:1); C@[PE])", DNNMEM_ERR_PARSE, 21},
      {"((3:8, 4_PE), (-8:1))", DNNMEM_ERR_PARSE, 15},
  };
  size_t i;
  for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    dnnmem_layout l;
    int64_t err = -1;
    dnnmem_result r = parse(cases[i].text, &l, &err);
    if (r != cases[i].result || err != cases[i].position) {
      fprintf(stderr, "'%s': got %s at %lld, want %s at %lld\n", cases[i].text,
              dnnmem_result_text(r), (long long)err, dnnmem_result_text(cases[i].result),
              (long long)cases[i].position);
      CHECK(0);
    }
  }
}

static void test_machine(void) {
  dnnmem_layout_machine m;
  dnnmem_layout l;
  int64_t err = -1;
  dnnmem_error fault;
  CHECK_EQ(dnnmem_layout_machine_parse("L2B=16,L1B=8,MAB=16,PE=4", 24, &m, &err), DNNMEM_OK);
  CHECK_EQ(m.num_levels, 4);
  CHECK_EQ(m.extents[2], 16);
  CHECK(strcmp(m.names[3], "PE") == 0);
  CHECK_EQ(dnnmem_layout_machine_parse("L2B=16,L2B=8", 12, &m, &err), DNNMEM_ERR_LAYOUT_LEVEL_CONFLICT);
  CHECK_EQ(err, 7);
  CHECK_EQ(dnnmem_layout_machine_parse("L2B=16,PE=0", 11, &m, &err), DNNMEM_ERR_LAYOUT_EXTENT);
  CHECK_EQ(err, 10);
  CHECK_EQ(dnnmem_layout_machine_parse("L2B=16,", 7, &m, &err), DNNMEM_ERR_PARSE);
  CHECK_EQ(err, 7);
  CHECK_EQ(dnnmem_layout_machine_parse("PE=4", 4, &m, &err), DNNMEM_OK);
  CHECK(load("((3:8, 8_PE), (8:1))", NULL, &l));
  CHECK_EQ(dnnmem_layout_bind(&l, &m, &fault), DNNMEM_ERR_LAYOUT_MACHINE_EXTENT);
  CHECK(fault.index == 1 && fault.field == DNNMEM_FIELD_LEVEL); /* 8_PE, at byte 7 */
  CHECK_EQ(l.factors[fault.index].position, 7);
  CHECK(load("((3:8, 4_MAB), (8:1))", NULL, &l));
  CHECK_EQ(dnnmem_layout_bind(&l, &m, &fault), DNNMEM_ERR_LAYOUT_UNKNOWN_LEVEL);
  CHECK(fault.index == 1 && fault.field == DNNMEM_FIELD_LEVEL); /* 4_MAB */
  CHECK_EQ(l.factors[fault.index].position, 7);
  CHECK_EQ(l.bound, 0); /* unchanged on error */
  /* binding orders levels as the machine and adds the unused ones */
  CHECK(load("((4_PE, 3:8), (2_L2B, 4:1))", "L2B=2,MAB=3,PE=4", &l));
  CHECK_EQ(l.num_levels, 3);
  CHECK(strcmp(l.level_names[0], "L2B") == 0);
  CHECK(strcmp(l.level_names[1], "MAB") == 0);
  CHECK_EQ(l.level_all[1], 1);
  CHECK_EQ(l.replicas, 3);
  {
    int64_t index[2] = {7, 5}, units[3], address;
    uint8_t pad;
    CHECK_EQ(dnnmem_layout_forward(&l, index, units, &address, &pad), DNNMEM_OK);
    CHECK_VALUES(units, 1, DNNMEM_LAYOUT_ALL, 2);
    CHECK_EQ(address, 9);
  }
  {
    char text[256];
    CHECK_EQ(dnnmem_layout_print(&l, text, sizeof(text), NULL), DNNMEM_OK);
    CHECK(strcmp(text, "((4_PE, 3:8), (2_L2B, 4:1))") == 0);
  }
}

/* ---- dnnmem_layout_finish's rules (issue 18) ----------------------------- */

/* A layout built in code: one axis of factors (extent:stride) in memory,
   then the given broadcast factor on level 0 named name. */
static void build(dnnmem_layout *l, const char *name, int32_t flags, int32_t bound) {
  memset(l, 0, sizeof(*l));
  l->num_axes = 1;
  l->num_factors = 2;
  l->num_levels = 1;
  l->bound = bound;
  l->axis_first[1] = 1;
  l->unpadded[0] = 4;
  l->factors[0].extent = 5;
  l->factors[0].stride = 15;
  l->factors[0].level = DNNMEM_LAYOUT_MEMORY;
  l->factors[1].extent = 1;
  l->factors[1].stride = 1;
  l->factors[1].level = 0;
  l->factors[1].flags = flags;
  l->factors[0].position = l->factors[1].position = -1;
  strncpy(l->level_names[0], name, DNNMEM_LAYOUT_NAME_BYTES);
  l->level_extent[0] = 3;
}

static void test_finish_rules(void) {
  static const struct {
    const char *name;
    dnnmem_result result;
  } names[] = {
      {"B_", DNNMEM_OK},       {"PE", DNNMEM_OK},       {"L2B", DNNMEM_OK},
      {"a_1_", DNNMEM_OK},     {"", DNNMEM_ERR_PARSE},  {"_B", DNNMEM_ERR_PARSE},
      {"9B", DNNMEM_ERR_PARSE}, {"B-1", DNNMEM_ERR_PARSE}, {"B 1", DNNMEM_ERR_PARSE},
      {"ABCDEFGHIJKLMNO", DNNMEM_OK}, {"ABCDEFGHIJKLMNOP", DNNMEM_ERR_LAYOUT_LIMIT},
  };
  dnnmem_layout l, before, back;
  dnnmem_layout_machine m;
  char text[DNNMEM_LAYOUT_TEXT_MAX];
  dnnmem_error fault;
  size_t i;
  /* the fuzz finding: an implicit (unprinted) broadcast in an unbound layout */
  build(&l, "B_", DNNMEM_LAYOUT_ALL_UNITS | DNNMEM_LAYOUT_IMPLICIT, 0);
  before = l;
  CHECK_EQ(dnnmem_layout_finish(&l, &fault), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK(memcmp(&l, &before, sizeof(l)) == 0); /* unchanged on error */
  /* the same level written explicitly is a broadcast and prints as one */
  build(&l, "B_", DNNMEM_LAYOUT_ALL_UNITS, 0);
  CHECK_EQ(dnnmem_layout_finish(&l, &fault), DNNMEM_OK);
  CHECK(ref_layout_round_trip_ok(&l, text));
  CHECK(strcmp(text, "(4)/((5:15); B@[B_])") == 0);
  /* bound: an implicit broadcast stands for a machine level; binding the
     printed text to that machine gives the layout back */
  build(&l, "B_", DNNMEM_LAYOUT_ALL_UNITS | DNNMEM_LAYOUT_IMPLICIT, 1);
  CHECK_EQ(dnnmem_layout_finish(&l, &fault), DNNMEM_OK);
  CHECK_EQ(l.replicas, 3);
  CHECK(ref_layout_round_trip_ok(&l, text));
  CHECK(strcmp(text, "(4)/((5:15))") == 0);
  CHECK(load(text, "B_=3", &back));
  CHECK(dnnmem_layout_equal(&l, &back));
  /* a level no factor uses means nothing: rejected */
  build(&l, "B_", 0, 0);
  l.num_factors = 1;
  CHECK_EQ(dnnmem_layout_finish(&l, &fault), DNNMEM_ERR_INVALID_ARGUMENT);
  /* level names: exactly those the notation writes (1..15 bytes) */
  for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
    dnnmem_result r;
    build(&l, names[i].name, DNNMEM_LAYOUT_ALL_UNITS, 0);
    if (strlen(names[i].name) >= DNNMEM_LAYOUT_NAME_BYTES) /* no NUL in the 16 bytes */
      memcpy(l.level_names[0], names[i].name, DNNMEM_LAYOUT_NAME_BYTES);
    r = dnnmem_layout_finish(&l, &fault);
    if (r != names[i].result) {
      fprintf(stderr, "finish with level '%s': %s, want %s\n", names[i].name, dnnmem_result_name(r),
              dnnmem_result_name(names[i].result));
      CHECK(0);
    }
    if (r == DNNMEM_OK) CHECK(ref_layout_round_trip_ok(&l, NULL));
  }
  /* the same rule for a machine built in code */
  memset(&m, 0, sizeof(m));
  m.num_levels = 1;
  m.extents[0] = 4;
  strcpy(m.names[0], "P-E");
  CHECK(load("((4_PE, 3:8), (8:1))", NULL, &l));
  CHECK_EQ(dnnmem_layout_bind(&l, &m, &fault), DNNMEM_ERR_PARSE);
  strcpy(m.names[0], "PE");
  CHECK_EQ(dnnmem_layout_bind(&l, &m, &fault), DNNMEM_OK);
}

/* Every layout finish accepts round-trips: random structs built in code
   (random levels, broadcasts, implicit factors, bound or not). */
static void test_finish_round_trip(void) {
  int trial, accepted = 0, bound_seen = 0;
  int64_t bad = 0;
  for (trial = 0; trial < 20000; trial++) {
    dnnmem_layout l;
    int32_t k, a, lv;
    memset(&l, 0, sizeof(l));
    l.num_axes = 1 + (int32_t)rnd(3);
    l.num_levels = (int32_t)rnd(4);
    l.bound = (int32_t)rnd(2);
    l.num_factors = l.num_axes + (int32_t)rnd(5);
    for (a = 1; a < l.num_axes; a++) l.axis_first[a] = l.axis_first[a - 1] + 1 + (int32_t)rnd(2);
    l.axis_first[l.num_axes] = l.axis_first[l.num_axes - 1] + 1 + (int32_t)rnd(2);
    if (l.axis_first[l.num_axes] > l.num_factors || l.num_levels == 0)
      l.num_factors = l.axis_first[l.num_axes]; /* broadcasts need a level */
    for (a = 0; a < l.num_axes; a++) l.unpadded[a] = rnd(4);
    for (lv = 0; lv < l.num_levels; lv++) {
      l.level_names[lv][0] = (char)('A' + lv);
      l.level_names[lv][1] = rnd(2) ? '_' : 0;
      l.level_extent[lv] = 1 + rnd(6);
    }
    for (k = 0; k < l.num_factors; k++) {
      dnnmem_layout_factor *f = &l.factors[k];
      int data = k < l.axis_first[l.num_axes];
      f->extent = 1 + rnd(3);
      f->level = (int32_t)rnd(l.num_levels + (data ? 1 : 0)) - (data ? 1 : 0);
      f->stride = f->level < 0 ? DNNMEM_LAYOUT_AUTO : (rnd(2) ? DNNMEM_LAYOUT_AUTO : 1 + rnd(6));
      f->flags = data ? 0 : (int32_t)rnd(4);
      f->position = k;
    }
    for (lv = 0; lv < l.num_levels; lv++) { /* use every level (the rest is tested above) */
      for (k = 0; k < l.num_factors && l.factors[k].level != lv; k++) continue;
      if (k == l.num_factors && l.num_factors < DNNMEM_LAYOUT_MAX_FACTORS) {
        l.factors[k].extent = 2;
        l.factors[k].stride = 1;
        l.factors[k].level = lv;
        l.factors[k].flags = (int32_t)rnd(4);
        l.factors[k].position = k;
        l.num_factors++;
      }
    }
    if (dnnmem_layout_finish(&l, NULL) != DNNMEM_OK) continue;
    accepted++;
    bound_seen += l.bound;
    if (!ref_layout_round_trip_ok(&l, NULL)) bad++;
  }
  CHECK_EQ(bad, 0);
  CHECK(accepted > 2000);
  CHECK(bound_seen > 1000);
}

/* ---- exhaustive round trips and slot accounting ------------------------- */

/* Every position forward then inverse is the identity for every copy; every
   slot of the machine (units x cosize) is counted once as element, padding
   or unused and the counts match dnnmem_layout_measure; the runs of all
   units hold every element once per copy, contiguous and maximal
   (tests/ref.h's recounts, without a work limit here). */
static void check_round_trip(const dnnmem_layout *l) {
  dnnmem_layout_result st;
  int64_t units = 1;
  int32_t lv;
  CHECK_EQ(dnnmem_layout_measure(l, &st), DNNMEM_OK);
  for (lv = 0; lv < l->num_levels; lv++) units *= st.level_extent[lv];
  CHECK_EQ(units, st.units);
  CHECK_EQ(ref_layout_map_errors(l, INT64_MAX), 0);
  CHECK_EQ(ref_layout_runs_errors(l, INT64_MAX), 0);
}

static void test_round_trips(void) {
  static const char *cases[][2] = {
      {"((4_PE, 3:8), (8:1))", NULL},
      {"((3:8, 4_PE), (8:1))", NULL},
      {"((2_PE:2, 6:4), (2_PE:1, 4:1))", NULL},
      {"((2_PE:1, 6:4), (2_PE:2, 4:1))", "PE=4"},
      {"(10,7)/((3:7, 4_PE), (7:1))", NULL},
      {"(10,7)/((10:2), (2:1, 4_PE))", "MAB=2,PE=4"},
      {"((12:2), (4_PE, 2:1))", NULL},
      {"((12:8), (8:1); B@[PE])", "PE=4"},
      {"((12:8), (8:1); B@[2_L2B:2])", "L2B=4,PE=4"},
      {"((2_L2B:1, 4:8), (8:1); B@[2_L2B:2])", "L2B=4"},
      {"((4_L2B, 2_L1B, 8:8), (4_MAB, 8:1, 4_PE))", "L2B=4,L1B=2,MAB=4,PE=4"},
      {"(30,27)/((4_L2B, 2_L1B, 4:9), (4_MAB, 2:1, 4_PE))", "L2B=4,L1B=2,MAB=4,PE=4"},
      {"((5:3), (3:1), (2_PE, 2:15))", NULL},
      {"((3:1, 4_PE), (5:3))", NULL}, /* column-major memory */
      {"((6:20), (5:2))", NULL},       /* holes: stride gaps */
      {"(7,5,3)/((2_Time, 4:40), (5:8), (2_W, 2:1))", "Time=2,W=2"},
      {"(10,7)/((10:2), (2:1, 4_PE))", NULL},
      {"((12:8), (8:1); B@[PE])", "PE=3"},
  };
  size_t i;
  for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    dnnmem_layout l;
    if (!load(cases[i][0], cases[i][1], &l)) {
      CHECK(0);
      continue;
    }
    check_round_trip(&l);
  }
}

static void test_stats(void) {
  dnnmem_layout l;
  dnnmem_layout_result st;
  CHECK(load("(10,7)/((3:7, 4_PE), (7:1))", "MAB=2,PE=4", &l));
  CHECK_EQ(dnnmem_layout_measure(&l, &st), DNNMEM_OK);
  CHECK_EQ(st.size, 70);
  CHECK_EQ(st.padded_size, 84);
  CHECK_EQ(st.cosize, 21);
  CHECK_EQ(st.units, 8);
  CHECK_EQ(st.replicas, 2);
  CHECK_EQ(st.slots, 168);
  CHECK_EQ(st.padding_slots, 28);
  CHECK_EQ(st.capacity, 168);
  CHECK_EQ(st.unused_slots, 0);
  CHECK_EQ(st.level_parts[0], 1); /* MAB: broadcast */
  CHECK_EQ(st.level_parts[1], 4);
  CHECK_EQ(st.level_share[0], 84); /* one MAB holds a whole copy */
  CHECK_EQ(st.level_share[1], 21);
  CHECK(load("((16_L2B, 8_L1B, 8:8), (16_MAB, 8:1, 4_PE))", "L2B=16,L1B=8,MAB=16,PE=4", &l));
  CHECK_EQ(dnnmem_layout_measure(&l, &st), DNNMEM_OK);
  CHECK_VALUES(st.level_share, 32768, 4096, 256, 64);
  CHECK_EQ(st.units, 8192);
  CHECK_EQ(st.unused_slots, 0);
  CHECK(load("((12:8), (8:1); B@[PE])", NULL, &l));
  CHECK_EQ(dnnmem_layout_measure(&l, &st), DNNMEM_ERR_LAYOUT_NEEDS_MACHINE);
}

/* The runs of unit PE = pe of a one-level layout: want_count runs, run i
   (element, address, length). */
static void expect_run(const char *text, int64_t pe, int64_t want_count, int64_t i, int64_t element,
                       int64_t address, int64_t length) {
  dnnmem_layout l;
  dnnmem_layout_run runs[64];
  int32_t num_runs = -1;
  CHECK(load(text, NULL, &l));
  CHECK_EQ(dnnmem_layout_runs(&l, &pe, runs, 64, &num_runs), DNNMEM_OK);
  CHECK_EQ(num_runs, want_count);
  if (num_runs != want_count || i >= num_runs) return;
  CHECK_EQ(runs[i].element, element);
  CHECK_EQ(runs[i].address, address);
  CHECK_EQ(runs[i].length, length);
}

static void test_runs(void) {
  int32_t num_runs = -1;
  dnnmem_layout l;
  dnnmem_layout_run runs[4];
  int64_t unit = 1;
  expect_run("((4_PE, 3:8), (8:1))", 2, 1, 0, 48, 0, 24); /* PE 2: rows 6..8, one run */
  expect_run("((3:8, 4_PE), (8:1))", 1, 3, 1, 40, 8, 8);  /* PE 1: rows 1, 5, 9 */
  expect_run("((3:8, 4_PE), (8:1))", 4, 0, 0, 0, 0, 0);   /* no such PE: no runs */
  expect_run("(10,7)/((3:7, 4_PE), (7:1))", 2, 2, 1, 42, 7, 7); /* rows 2, 6; 10 is padding */
  /* too small: the count and the first capacity runs, never silent */
  CHECK(load("((3:8, 4_PE), (8:1))", NULL, &l));
  CHECK_EQ(dnnmem_layout_runs(&l, &unit, NULL, 0, &num_runs), DNNMEM_ERR_OUTPUT_TOO_SMALL);
  CHECK_EQ(num_runs, 3);
  runs[1].element = runs[2].element = -5;
  CHECK_EQ(dnnmem_layout_runs(&l, &unit, runs, 2, &num_runs), DNNMEM_ERR_OUTPUT_TOO_SMALL);
  CHECK_EQ(num_runs, 3);
  CHECK_EQ(runs[1].element, 40);
  CHECK_EQ(runs[2].element, -5); /* beyond capacity: untouched */
  CHECK_EQ(dnnmem_layout_runs(&l, &unit, runs, 3, &num_runs), DNNMEM_OK);
}

/* ---- strided-layout algebra --------------------------------------------- */


static void random_strided(dnnmem_layout_strided *s, int32_t max_rank, int64_t max_shape, int64_t max_stride) {
  int32_t i;
  s->rank = (int32_t)rnd(max_rank + 1);
  for (i = 0; i < s->rank; i++) {
    s->shape[i] = 1 + rnd(max_shape);
    s->stride[i] = rnd(max_stride + 1);
  }
}

/* A compact (bijective onto [0, size)) layout: a random permutation of a
   row-major stride order over random shapes. */
static void random_compact(dnnmem_layout_strided *s, int32_t max_rank, int64_t max_shape) {
  int32_t i, order[8];
  int64_t stride = 1;
  s->rank = 1 + (int32_t)rnd(max_rank);
  for (i = 0; i < s->rank; i++) {
    s->shape[i] = 1 + rnd(max_shape);
    order[i] = i;
  }
  for (i = s->rank - 1; i > 0; i--) {
    int32_t j = (int32_t)rnd(i + 1), t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  for (i = 0; i < s->rank; i++) {
    s->stride[order[i]] = stride;
    stride *= s->shape[order[i]];
  }
}

static void test_coalesce(void) {
  int trial;
  int64_t bad = 0;
  for (trial = 0; trial < 3000; trial++) {
    dnnmem_layout_strided a, c;
    int64_t x;
    random_strided(&a, 5, 4, 12);
    if (trial % 2) random_compact(&a, 5, 4);
    CHECK_EQ(dnnmem_layout_coalesce(&a, &c), DNNMEM_OK);
    if (!ref_layout_coalesce_ok(&a, &c)) bad++;
    for (x = 0; x < ref_layout_strided_size(&a); x++)
      if (dnnmem_layout_strided_eval(&a, x) != ref_layout_strided_eval(&a, x)) bad++;
    if (dnnmem_layout_strided_size(&a) != ref_layout_strided_size(&a)) bad++;
    if (trial % 2 && c.rank > a.rank) bad++;
  }
  CHECK_EQ(bad, 0);
  {
    dnnmem_layout_strided a, c;
    a.rank = 3; /* (2:12, 3:4, 4:1) is one run of 24 */
    a.shape[0] = 2; a.stride[0] = 12;
    a.shape[1] = 3; a.stride[1] = 4;
    a.shape[2] = 4; a.stride[2] = 1;
    CHECK_EQ(dnnmem_layout_coalesce(&a, &c), DNNMEM_OK);
    CHECK_EQ(c.rank, 1);
    CHECK_EQ(c.shape[0], 24);
    CHECK_EQ(c.stride[0], 1);
  }
}

static void set2(dnnmem_layout_strided *s, int32_t rank, int64_t n0, int64_t s0, int64_t n1, int64_t s1) {
  s->rank = rank;
  s->shape[0] = n0;
  s->stride[0] = s0;
  s->shape[1] = n1;
  s->stride[1] = s1;
}

static void test_compose(void) {
  dnnmem_layout_strided a, b, r;
  int trial, ok = 0;
  int64_t bad = 0;
  /* A = the column-major 4x8 in row-major notation: x = i*8 + j -> i + 4j */
  set2(&a, 2, 4, 1, 8, 4);
  set2(&b, 1, 4, 8, 0, 0);
  CHECK_EQ(dnnmem_layout_compose(&a, &b, &r), DNNMEM_OK);
  CHECK_EQ(r.rank, 1);
  CHECK_EQ(r.shape[0], 4);
  CHECK_EQ(r.stride[0], 1);
  set2(&b, 1, 8, 1, 0, 0);
  CHECK_EQ(dnnmem_layout_compose(&a, &b, &r), DNNMEM_OK);
  CHECK_EQ(r.rank, 1);
  CHECK_EQ(r.shape[0], 8);
  CHECK_EQ(r.stride[0], 4);
  set2(&b, 2, 2, 16, 4, 2); /* rows {0,2}, columns {0,2,4,6} */
  CHECK_EQ(dnnmem_layout_compose(&a, &b, &r), DNNMEM_OK);
  CHECK_EQ(ref_layout_strided_size(&r), 8);
  set2(&b, 1, 3, 3, 0, 0); /* stride 3 splits no mode of A evenly */
  CHECK_EQ(dnnmem_layout_compose(&a, &b, &r), DNNMEM_ERR_LAYOUT_NOT_DIVISIBLE);
  set2(&b, 1, 2, 32, 0, 0); /* leaves A's domain */
  CHECK_EQ(dnnmem_layout_compose(&a, &b, &r), DNNMEM_ERR_LAYOUT_NOT_DIVISIBLE);
  for (trial = 0; trial < 4000; trial++) {
    dnnmem_result res;
    random_strided(&a, 4, 4, 10);
    if (trial % 3) random_compact(&a, 4, 4);
    random_strided(&b, 3, 4, 8);
    if (trial % 2) random_compact(&b, 3, 3);
    res = dnnmem_layout_compose(&a, &b, &r);
    if (res != DNNMEM_OK) {
      if (res != DNNMEM_ERR_LAYOUT_NOT_DIVISIBLE) bad++;
      continue;
    }
    ok++;
    if (!ref_layout_compose_ok(&a, &b, &r)) bad++;
  }
  CHECK_EQ(bad, 0);
  CHECK(ok > 1000);
}

/* b without its shape-1 modes (they index nothing). */
static void drop_unit_modes(const dnnmem_layout_strided *b, dnnmem_layout_strided *out) {
  int32_t i;
  out->rank = 0;
  for (i = 0; i < b->rank; i++)
    if (b->shape[i] != 1) {
      out->shape[out->rank] = b->shape[i];
      out->stride[out->rank++] = b->stride[i];
    }
}

/* Shape-1 modes change nothing: compose(A, B) has the status and the
   function of compose(A, B without them), exactly (a hand case, then
   random ones with unit modes of any stride put into B). */
static void test_compose_unit_modes(void) {
  dnnmem_layout_strided a, b, b1, r, r1;
  int trial, ok = 0;
  int64_t bad = 0, x;
  set2(&a, 2, 4, 1, 8, 4);
  set2(&b, 2, 1, 3, 8, 1); /* (1:3) indexes nothing: (8:1) alone, = (8:4) */
  CHECK_EQ(dnnmem_layout_compose(&a, &b, &r), DNNMEM_OK);
  CHECK_EQ(r.rank, 1);
  CHECK_EQ(r.shape[0], 8);
  CHECK_EQ(r.stride[0], 4);
  set2(&b, 2, 8, 1, 1, 5); /* the unit mode inner */
  CHECK_EQ(dnnmem_layout_compose(&a, &b, &r), DNNMEM_OK);
  CHECK(ref_layout_compose_ok(&a, &b, &r));
  CHECK_EQ(ref_layout_strided_size(&r), 8);
  CHECK_EQ(ref_layout_strided_eval(&r, 1), 4);
  for (trial = 0; trial < 4000; trial++) {
    dnnmem_result res, res1;
    int32_t i, units = 1 + (int32_t)rnd(2);
    random_strided(&a, 4, 4, 10);
    if (trial % 3) random_compact(&a, 4, 4);
    random_strided(&b, 3, 4, 8);
    if (trial % 2) random_compact(&b, 3, 3);
    for (i = 0; i < units; i++) { /* a unit mode at a random place, any stride */
      int32_t at = (int32_t)rnd(b.rank + 1), j;
      for (j = b.rank; j > at; j--) b.shape[j] = b.shape[j - 1], b.stride[j] = b.stride[j - 1];
      b.shape[at] = 1;
      b.stride[at] = rnd(40);
      b.rank++;
    }
    drop_unit_modes(&b, &b1);
    res = dnnmem_layout_compose(&a, &b, &r);
    res1 = dnnmem_layout_compose(&a, &b1, &r1);
    if (res != res1) {
      bad++;
      continue;
    }
    if (res != DNNMEM_OK) continue;
    ok++;
    if (!ref_layout_compose_ok(&a, &b, &r) || ref_layout_strided_size(&r) != ref_layout_strided_size(&r1)) bad++;
    for (x = 0; x < ref_layout_strided_size(&r) && x < 4096; x++)
      if (ref_layout_strided_eval(&r, x) != ref_layout_strided_eval(&r1, x)) bad++;
  }
  CHECK_EQ(bad, 0);
  CHECK(ok > 1000);
}

static void test_complement(void) {
  dnnmem_layout_strided a, r;
  int trial, ok = 0;
  int64_t bad = 0;
  set2(&a, 1, 2, 4, 0, 0);
  CHECK_EQ(dnnmem_layout_complement(&a, 16, &r), DNNMEM_OK);
  CHECK_EQ(r.rank, 2);
  CHECK_EQ(r.shape[0], 2);
  CHECK_EQ(r.stride[0], 8);
  CHECK_EQ(r.shape[1], 4);
  CHECK_EQ(r.stride[1], 1);
  set2(&a, 2, 2, 3, 2, 2); /* strides 2 and 3: 3 is not a multiple of 4 */
  CHECK_EQ(dnnmem_layout_complement(&a, 16, &r), DNNMEM_ERR_LAYOUT_NOT_DIVISIBLE);
  for (trial = 0; trial < 3000; trial++) {
    int64_t m = 1 + rnd(64);
    dnnmem_result res;
    random_strided(&a, 3, 4, 16);
    res = dnnmem_layout_complement(&a, m, &r);
    if (res != DNNMEM_OK) {
      if (res != DNNMEM_ERR_LAYOUT_NOT_DIVISIBLE) bad++;
      continue;
    }
    ok++;
    if (!ref_layout_complement_ok(&a, m, &r)) bad++;
  }
  CHECK_EQ(bad, 0);
  CHECK(ok > 300);
}

static void test_right_inverse(void) {
  dnnmem_layout_strided a, r;
  int trial;
  int64_t bad = 0;
  set2(&a, 2, 4, 1, 8, 4);
  CHECK_EQ(dnnmem_layout_right_inverse(&a, &r), DNNMEM_OK);
  CHECK_EQ(r.rank, 2);
  CHECK_EQ(r.shape[0], 8);
  CHECK_EQ(r.stride[0], 1);
  CHECK_EQ(r.shape[1], 4);
  CHECK_EQ(r.stride[1], 8);
  for (trial = 0; trial < 3000; trial++) {
    int64_t longest = 0;
    random_strided(&a, 4, 4, 8);
    if (trial % 2) random_compact(&a, 4, 4);
    CHECK_EQ(dnnmem_layout_right_inverse(&a, &r), DNNMEM_OK);
    if (!ref_layout_right_inverse_ok(&a, &r)) bad++;
    /* maximal: brute force the longest prefix 0..k-1 that A's image holds */
    for (;; longest++) {
      int64_t y, found = 0;
      for (y = 0; y < ref_layout_strided_size(&a) && !found; y++)
        if (ref_layout_strided_eval(&a, y) == longest) found = 1;
      if (!found) break;
    }
    /* the strided right inverse covers the prefix when A's image is a
       mixed-radix chain; it can never exceed it */
    if (ref_layout_strided_size(&r) > longest) bad++;
    if (trial % 2 && ref_layout_strided_size(&r) != ref_layout_strided_size(&a)) bad++; /* compact: full inverse */
  }
  CHECK_EQ(bad, 0);
}

static void test_reshape_view(void) {
  int trial, views = 0, copies = 0;
  int64_t bad = 0;
  for (trial = 0; trial < 4000; trial++) {
    dnnmem_layout_strided in, out;
    int64_t shape[6], size, rest, cand[6], place[6], x;
    int32_t q = 0, j;
    int exists = 1;
    dnnmem_result res;
    random_strided(&in, 4, 4, 12);
    if (trial % 2) random_compact(&in, 4, 4);
    if (trial % 4 == 1) { /* a transpose or a slice of a compact layout */
      int32_t i = (int32_t)rnd(in.rank);
      in.stride[i] *= 1 + rnd(2);
    }
    size = ref_layout_strided_size(&in);
    /* a random factorisation of size into up to 5 dims (with some 1s) */
    rest = size;
    while (rest > 1 && q < 5) {
      int64_t d = 2;
      while (d <= rest && (rest % d != 0 || rnd(3) == 0)) d++;
      if (d > rest) d = rest;
      shape[q++] = d;
      rest /= d;
      if (rnd(5) == 0 && q < 5) shape[q++] = 1;
    }
    if (rest > 1) shape[q - 1] *= rest;
    if (q == 0) shape[q++] = 1;
    /* brute force: strides from unit steps, then check every index */
    for (j = q - 1, x = 1; j >= 0; j--) {
      place[j] = x;
      x *= shape[j];
    }
    for (j = 0; j < q; j++) cand[j] = shape[j] > 1 ? ref_layout_strided_eval(&in, place[j]) : 0;
    for (x = 0; x < size && exists; x++) {
      int64_t v = 0, r2 = x;
      for (j = q - 1; j >= 0; j--) {
        v += r2 % shape[j] * cand[j];
        r2 /= shape[j];
      }
      if (v != ref_layout_strided_eval(&in, x)) exists = 0;
    }
    res = dnnmem_layout_reshape_view(&in, q, shape, &out);
    if (exists) {
      views++;
      if (res != DNNMEM_OK || !ref_layout_reshape_ok(&in, q, shape, &out)) bad++;
      else
        for (j = 0; j < q; j++)
          if (shape[j] > 1 && out.stride[j] != cand[j]) bad++;
    } else {
      copies++;
      if (res != DNNMEM_ERR_LAYOUT_NEEDS_COPY) bad++;
    }
  }
  CHECK_EQ(bad, 0);
  CHECK(views > 500);
  CHECK(copies > 500);
  {
    /* the document's case: a transposed 2x3 (3:1, 2:3) flattened needs a copy */
    dnnmem_layout_strided t, out;
    int64_t six = 6;
    set2(&t, 2, 3, 1, 2, 3);
    CHECK_EQ(dnnmem_layout_reshape_view(&t, 1, &six, &out), DNNMEM_ERR_LAYOUT_NEEDS_COPY);
    set2(&t, 2, 2, 3, 3, 1);
    CHECK_EQ(dnnmem_layout_reshape_view(&t, 1, &six, &out), DNNMEM_OK);
    CHECK_EQ(out.stride[0], 1);
  }
}

static void test_memory_part(void) {
  dnnmem_layout l;
  dnnmem_layout_strided m, c;
  CHECK(load("((16_L2B, 8_L1B, 8:8), (16_MAB, 8:1, 4_PE))", NULL, &l));
  CHECK_EQ(dnnmem_layout_part(&l, DNNMEM_LAYOUT_MEMORY, &m), DNNMEM_OK);
  CHECK_EQ(m.rank, 2);
  CHECK_EQ(dnnmem_layout_coalesce(&m, &c), DNNMEM_OK);
  CHECK_EQ(c.rank, 1); /* 8:8, 8:1 is one contiguous run of 64 */
  CHECK_EQ(c.shape[0], 64);
  CHECK_EQ(dnnmem_layout_part(&l, dnnmem_layout_level_index(&l, "PE"), &m), DNNMEM_OK);
  CHECK_EQ(m.rank, 1);
  CHECK_EQ(m.shape[0], 4);
}

/* strides near the int64_t limit: extent * stride would overflow, (extent-1)
   * stride does not; every map must stay exact */
static void test_huge_strides(void) {
  int32_t num_runs = -1;
  dnnmem_layout l, b;
  int64_t units[4], addresses[4], positions[4], count = -1, big = (int64_t)1 << 62;
  dnnmem_layout_strided m, c;
  dnnmem_layout_run runs[4];
  char text[256];
  CHECK(load("((2:4611686018427387904), (2:1))", NULL, &l));
  CHECK_EQ(l.cosize, big + 2);
  CHECK_EQ(dnnmem_layout_forward_range(&l, 0, 4, units, addresses), DNNMEM_OK);
  CHECK_VALUES(addresses, 0, 1, big, big + 1);
  CHECK_EQ(dnnmem_layout_inverse_batch(&l, 4, units, addresses, positions, NULL), DNNMEM_OK);
  CHECK_EQ(positions[3], 3);
  CHECK_EQ(dnnmem_layout_part(&l, DNNMEM_LAYOUT_MEMORY, &m), DNNMEM_OK);
  CHECK_EQ(dnnmem_layout_coalesce(&m, &c), DNNMEM_OK);
  CHECK_EQ(c.rank, 2);
  CHECK_EQ(dnnmem_layout_runs(&l, units, runs, 4, &num_runs), DNNMEM_OK);
  CHECK_EQ(num_runs, 2);
  CHECK_EQ(runs[1].address, big);
  CHECK_EQ(dnnmem_layout_print(&l, text, sizeof(text), NULL), DNNMEM_OK);
  CHECK(load(text, NULL, &b));
  CHECK(dnnmem_layout_equal(&l, &b));
  CHECK(load("((2:1), (2:2); B@[2_X:4611686018427387904])", NULL, &l));
  CHECK(load("((2:1), (2:2); B@[2_X:4611686018427387904])", NULL, &b));
  CHECK(dnnmem_layout_equal(&l, &b));
  CHECK_EQ(l.replicas, 2);
  CHECK_EQ(dnnmem_layout_parse("((2:9223372036854775806))", 25, &l, &count), DNNMEM_OK);
  CHECK_EQ(l.cosize, INT64_MAX); /* the largest address + 1 still fits */
  CHECK_EQ(dnnmem_layout_parse("((2:9223372036854775807))", 25, &l, &count), DNNMEM_ERR_OVERFLOW);
  CHECK_EQ(count, 2);
}

/* Random valid layouts (nested strides with random gaps, levels, padding and
   counted broadcasts), written as text: parse, print round trip, and the
   exhaustive round trip with slot accounting. */
static void test_random_layouts(void) {
  static const char *level_names[] = {"L2B", "MAB", "PE"};
  int trial, tested = 0;
  for (trial = 0; trial < 300; trial++) {
    char text[1024], printed[DNNMEM_LAYOUT_TEXT_MAX];
    int64_t extent[12], stride[12], cur[4] = {1, 1, 1, 1}, total = 1, shape[3];
    int32_t space[12], axis_of[12], order[12], nf = 0, naxes = 1 + (int32_t)rnd(3), a, k, i;
    int32_t nb = (int32_t)rnd(2);
    size_t len = 0;
    dnnmem_layout l, back;
    for (a = 0; a < naxes; a++) {
      int32_t nfa = 1 + (int32_t)rnd(3);
      shape[a] = 1;
      for (k = 0; k < nfa; k++) {
        extent[nf] = 1 + rnd(5);
        space[nf] = (int32_t)rnd(4); /* 0 memory, 1.. levels */
        axis_of[nf] = a;
        shape[a] *= extent[nf];
        total *= extent[nf++];
      }
    }
    for (k = 0; k < nb; k++) {
      extent[nf] = 2 + rnd(2);
      space[nf] = 1 + (int32_t)rnd(3);
      axis_of[nf++] = -1;
    }
    if (total > 3000) continue;
    /* nested strides per space: a random order, random gaps */
    for (i = 0; i < nf; i++) order[i] = i;
    for (i = nf - 1; i > 0; i--) {
      int32_t r = (int32_t)rnd(i + 1), t2 = order[i];
      order[i] = order[r];
      order[r] = t2;
    }
    for (i = 0; i < nf; i++) {
      k = order[i];
      stride[k] = cur[space[k]] * (1 + (rnd(4) == 0));
      cur[space[k]] = stride[k] * extent[k];
    }
    if (cur[0] * 4 > 6000) continue; /* keep every-slot checks small */
    /* text */
    len = 0;
    if (rnd(2)) {
      len += (size_t)sprintf(text + len, "(");
      for (a = 0; a < naxes; a++)
        len += (size_t)sprintf(text + len, "%s%lld", a ? "," : "", (long long)(1 + rnd(shape[a])));
      len += (size_t)sprintf(text + len, ")/");
    }
    len += (size_t)sprintf(text + len, "(");
    for (k = 0, a = -1; k < nf; k++) {
      if (axis_of[k] >= 0) {
        len += (size_t)sprintf(text + len, "%s", axis_of[k] != a ? (a >= 0 ? "), (" : "(") : ", ");
        a = axis_of[k];
      } else {
        len += (size_t)sprintf(text + len, "%s", k > 0 && axis_of[k - 1] >= 0 ? "); B@[" : ", ");
      }
      if (space[k] == 0) len += (size_t)sprintf(text + len, "%lld:%lld", (long long)extent[k], (long long)stride[k]);
      else
        len += (size_t)sprintf(text + len, "%lld_%s:%lld", (long long)extent[k], level_names[space[k] - 1],
                               (long long)stride[k]);
    }
    len += (size_t)sprintf(text + len, "%s", nb ? "])" : "))");
    if (!load(text, NULL, &l)) {
      CHECK(0);
      continue;
    }
    tested++;
    CHECK_EQ(l.padded_size, total);
    CHECK_EQ(dnnmem_layout_print(&l, printed, sizeof(printed), NULL), DNNMEM_OK);
    CHECK(load(printed, NULL, &back));
    CHECK(dnnmem_layout_equal(&l, &back));
    check_round_trip(&l);
  }
  CHECK(tested > 100);
}

/* Brute-force map equality: same shapes, the same unit (by level name; a
   level missing on one side reads as unit 0) and address for every
   position, and the same set of replica offsets. */
static int brute_equal(const dnnmem_layout *a, const dnnmem_layout *b) {
  int64_t *ua, *ub, *aa, *ab, e, r;
  int32_t ax, i, j, names = 0, ia[2 * DNNMEM_LAYOUT_MAX_LEVELS], ib[2 * DNNMEM_LAYOUT_MAX_LEVELS];
  int same = 1;
  if (a->num_axes != b->num_axes || a->replicas != b->replicas) return 0;
  for (ax = 0; ax < a->num_axes; ax++)
    if (a->shape[ax] != b->shape[ax] || a->unpadded[ax] != b->unpadded[ax]) return 0;
  /* the union of level names: index on each side or -1 */
  for (i = 0; i < a->num_levels; i++) {
    ia[names] = i;
    ib[names++] = dnnmem_layout_level_index(b, a->level_names[i]);
  }
  for (j = 0; j < b->num_levels; j++)
    if (dnnmem_layout_level_index(a, b->level_names[j]) < 0) {
      ia[names] = -1;
      ib[names++] = j;
    }
  ua = (int64_t *)malloc((size_t)(a->padded_size * (a->num_levels + 1)) * sizeof(int64_t));
  ub = (int64_t *)malloc((size_t)(b->padded_size * (b->num_levels + 1)) * sizeof(int64_t));
  aa = (int64_t *)malloc((size_t)a->padded_size * sizeof(int64_t));
  ab = (int64_t *)malloc((size_t)b->padded_size * sizeof(int64_t));
  dnnmem_layout_forward_range(a, 0, a->padded_size, ua, aa);
  dnnmem_layout_forward_range(b, 0, b->padded_size, ub, ab);
  for (e = 0; e < a->padded_size && same; e++) {
    if (aa[e] != ab[e]) same = 0;
    for (i = 0; i < names; i++) {
      int64_t va = ia[i] < 0 ? 0 : ua[e * a->num_levels + ia[i]];
      int64_t vb = ib[i] < 0 ? 0 : ub[e * b->num_levels + ib[i]];
      if (va != vb) same = 0;
    }
  }
  /* replica offsets as sets: each offset of a appears in b */
  for (r = 0; r < a->replicas && same; r++) {
    int64_t oa[DNNMEM_LAYOUT_MAX_LEVELS], ob[DNNMEM_LAYOUT_MAX_LEVELS], q;
    int found = 0;
    dnnmem_layout_replica_offset(a, r, oa);
    for (q = 0; q < b->replicas && !found; q++) {
      int match = 1;
      dnnmem_layout_replica_offset(b, q, ob);
      for (i = 0; i < names; i++)
        if ((ia[i] < 0 ? 0 : oa[ia[i]]) != (ib[i] < 0 ? 0 : ob[ib[i]])) match = 0;
      found = match;
    }
    if (!found) same = 0;
  }
  free(ua);
  free(ub);
  free(aa);
  free(ab);
  return same;
}

/* dnnmem_layout_equal against brute force: split factors, unit factors and
   swapped strides of random layouts. */
static void test_equal_brute_force(void) {
  static const char *cases[] = {
      "((4_PE, 3:8), (8:1))", "((3:8, 4_PE), (8:1))", "((2_PE:2, 6:4), (2_PE:1, 4:1))",
      "(10,7)/((3:7, 4_PE), (7:1))", "((12:2), (4_PE, 2:1))", "((12:8), (8:1); B@[4_L2B:2, 2_L2B:1])",
      "((4_L2B, 2_L1B, 4:8), (4_MAB, 8:1, 2_PE))", "((6:20), (5:2))", "((3:1, 4_PE), (5:3))",
  };
  int trial, equal_seen = 0, differ_seen = 0;
  int64_t bad = 0;
  for (trial = 0; trial < 600; trial++) {
    dnnmem_layout a, b;
    int32_t k, j, nd, kind = (int32_t)rnd(3);
    if (!load(cases[trial % (int)(sizeof(cases) / sizeof(cases[0]))], NULL, &a)) {
      CHECK(0);
      continue;
    }
    b = a;
    nd = b.axis_first[b.num_axes];
    k = (int32_t)rnd(nd);
    if (kind == 0) { /* split factor k into (p : q*s), (q : s) when composite */
      int64_t n = b.factors[k].extent, p2;
      for (p2 = 2; p2 < n && n % p2; p2++) continue;
      if (p2 < n && b.num_factors < DNNMEM_LAYOUT_MAX_FACTORS) {
        dnnmem_layout_factor f = b.factors[k];
        for (j = b.num_factors; j > k + 1; j--) b.factors[j] = b.factors[j - 1];
        b.factors[k].extent = p2;
        b.factors[k].stride = f.stride * (n / p2);
        b.factors[k + 1] = f;
        b.factors[k + 1].extent = n / p2;
        b.num_factors++;
        for (j = 0; j <= b.num_axes; j++)
          if (b.axis_first[j] > k) b.axis_first[j]++;
      }
    } else if (kind == 1) { /* insert an extent-1 factor with any stride */
      for (j = b.num_factors; j > k; j--) b.factors[j] = b.factors[j - 1];
      b.factors[k].extent = 1;
      b.factors[k].stride = rnd(9);
      b.num_factors++;
      for (j = 0; j <= b.num_axes; j++)
        if (b.axis_first[j] > k) b.axis_first[j]++;
    } else { /* swap the strides of two factors of one space */
      for (j = 0; j < nd; j++)
        if (j != k && b.factors[j].level == b.factors[k].level) {
          int64_t t = b.factors[j].stride;
          b.factors[j].stride = b.factors[k].stride;
          b.factors[k].stride = t;
          break;
        }
    }
    if (dnnmem_layout_finish(&b, NULL) != DNNMEM_OK) continue; /* a swap may collide */
    if (dnnmem_layout_equal(&a, &b) != brute_equal(&a, &b)) {
      char ta[512], tb[512];
      dnnmem_layout_print(&a, ta, sizeof(ta), NULL);
      dnnmem_layout_print(&b, tb, sizeof(tb), NULL);
      fprintf(stderr, "equal(%s, %s) = %d, brute force %d\n", ta, tb, dnnmem_layout_equal(&a, &b),
              brute_equal(&a, &b));
      bad++;
    }
    if (dnnmem_layout_equal(&a, &b)) equal_seen++;
    else differ_seen++;
  }
  CHECK_EQ(bad, 0);
  CHECK(equal_seen > 100);
  CHECK(differ_seen > 50);
}

/* Every entry point refuses NULL and out-of-range arguments with its
   documented code, and answers the edge cases (empty ranges, NULL
   outputs, unused slots) exactly. */
static void test_argument_checks(void) {
  int32_t num_runs = -1;
  dnnmem_layout l, b, copy;
  dnnmem_layout_machine m;
  dnnmem_layout_strided s, out;
  dnnmem_layout_result res;
  dnnmem_layout_run run;
  dnnmem_layout_slot slot = DNNMEM_LAYOUT_SLOT_ELEMENT;
  int64_t idx[2] = {0, 0}, units[4] = {0, 0, 0, 0}, pos = -1, addr = -1, err = -1, shape[2] = {2, 3};
  dnnmem_error fault;
  int64_t addrs[4] = {0, 0, 0, 0}, positions[4];
  uint8_t slots[4];
  int32_t len = 0;
  char text[64];
  CHECK(load("((3:8, 4_PE), (8:1))", NULL, &l));
  CHECK_EQ(dnnmem_layout_parse("(2:1)", 5, NULL, &err), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_parse(NULL, 3, &b, &err), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_parse(NULL, 0, &b, NULL), DNNMEM_ERR_PARSE); /* empty text */
  CHECK_EQ(dnnmem_layout_machine_parse("PE=4", 4, NULL, &err), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_machine_parse(NULL, 4, &m, &err), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_finish(NULL, &fault), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_level_index(NULL, "PE"), -1);
  CHECK_EQ(dnnmem_layout_level_index(&l, NULL), -1);
  CHECK_EQ(dnnmem_layout_level_index(&l, "PE"), 0);
  CHECK_EQ(dnnmem_layout_level_index(&l, "MAB"), -1);
  CHECK_EQ(dnnmem_layout_level_index(&l, "PEX"), -1); /* a longer name is another level */
  /* print: NULL layout, NULL buffer with room, length-only query */
  CHECK_EQ(dnnmem_layout_print(NULL, text, sizeof(text), &len), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_print(&l, NULL, 8, &len), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_print(&l, text, -1, &len), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_print(&l, NULL, 0, &len), DNNMEM_ERR_OUTPUT_TOO_SMALL);
  CHECK_EQ(len, strlen("((3:8, 4_PE), (8:1))"));
  /* maps */
  CHECK_EQ(dnnmem_layout_position(NULL, idx, &pos), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_position(&l, NULL, &pos), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_position(&l, idx, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  idx[0] = 12;
  CHECK_EQ(dnnmem_layout_position(&l, idx, &pos), DNNMEM_ERR_LAYOUT_INDEX);
  CHECK_EQ(dnnmem_layout_forward(&l, idx, units, &addr, NULL), DNNMEM_ERR_LAYOUT_INDEX);
  idx[0] = -1;
  CHECK_EQ(dnnmem_layout_position(&l, idx, &pos), DNNMEM_ERR_LAYOUT_INDEX);
  CHECK_EQ(dnnmem_layout_forward(&l, idx, units, &addr, NULL), DNNMEM_ERR_LAYOUT_INDEX);
  CHECK_EQ(dnnmem_layout_index(NULL, 0, idx), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_index(&l, 0, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_index(&l, -1, idx), DNNMEM_ERR_LAYOUT_INDEX);
  CHECK_EQ(dnnmem_layout_index(&l, 96, idx), DNNMEM_ERR_LAYOUT_INDEX); /* 12 x 8 positions */
  CHECK_EQ(dnnmem_layout_forward(NULL, idx, units, &addr, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_forward(&l, NULL, units, &addr, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  /* element (7, 5) with every output NULL but the address: 13 (the manual) */
  idx[0] = 7;
  idx[1] = 5;
  CHECK_EQ(dnnmem_layout_forward(&l, idx, NULL, &addr, NULL), DNNMEM_OK);
  CHECK_EQ(addr, 13);
  CHECK_EQ(dnnmem_layout_forward(&l, idx, NULL, NULL, NULL), DNNMEM_OK);
  CHECK_EQ(dnnmem_layout_forward_range(NULL, 0, 1, units, addrs), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_forward_range(&l, -1, 1, units, addrs), DNNMEM_ERR_LAYOUT_INDEX);
  CHECK_EQ(dnnmem_layout_forward_range(&l, 0, -1, units, addrs), DNNMEM_ERR_LAYOUT_INDEX);
  CHECK_EQ(dnnmem_layout_forward_range(&l, 95, 2, units, addrs), DNNMEM_ERR_LAYOUT_INDEX);
  addrs[0] = -5;
  CHECK_EQ(dnnmem_layout_forward_range(&l, 96, 0, units, addrs), DNNMEM_OK); /* empty, at the end */
  CHECK_EQ(addrs[0], -5);
  /* positions 61, 62: (7, 5) and (7, 6); units only, then addresses only */
  CHECK_EQ(dnnmem_layout_forward_range(&l, 61, 2, units, NULL), DNNMEM_OK);
  CHECK_VALUES(units, 3, 3);
  CHECK_EQ(dnnmem_layout_forward_range(&l, 61, 2, NULL, addrs), DNNMEM_OK);
  CHECK_VALUES(addrs, 13, 14);
  CHECK_EQ(dnnmem_layout_replica_offset(NULL, 0, units), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_replica_offset(&l, 0, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_replica_offset(&l, 1, units), DNNMEM_ERR_LAYOUT_INDEX);
  CHECK_EQ(dnnmem_layout_replica_offset(&l, -1, units), DNNMEM_ERR_LAYOUT_INDEX);
  CHECK_EQ(dnnmem_layout_inverse(NULL, units, 0, idx, &slot), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_inverse(&l, units, 0, idx, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_inverse(&l, NULL, 0, idx, &slot), DNNMEM_ERR_INVALID_ARGUMENT);
  units[0] = 3;
  CHECK_EQ(dnnmem_layout_inverse(&l, units, 13, NULL, &slot), DNNMEM_OK); /* index not wanted */
  CHECK_EQ(slot, DNNMEM_LAYOUT_SLOT_ELEMENT);
  CHECK_EQ(dnnmem_layout_inverse_batch(NULL, 1, units, addrs, positions, slots), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_inverse_batch(&l, -1, units, addrs, positions, slots), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_inverse_batch(&l, 1, units, NULL, positions, slots), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_inverse_batch(&l, 1, NULL, addrs, positions, slots), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_inverse_batch(&l, 0, NULL, NULL, NULL, NULL), DNNMEM_OK);
  /* slot (PE 3, 13) holds position 61; (PE 3, 24) is past the cosize */
  addrs[0] = 13;
  addrs[1] = 24;
  units[0] = units[1] = 3;
  CHECK_EQ(dnnmem_layout_inverse_batch(&l, 2, units, addrs, positions, NULL), DNNMEM_OK);
  CHECK_VALUES(positions, 61, -1);
  CHECK_EQ(dnnmem_layout_inverse_batch(&l, 2, units, addrs, NULL, slots), DNNMEM_OK);
  CHECK_VALUES(slots, DNNMEM_LAYOUT_SLOT_ELEMENT, DNNMEM_LAYOUT_SLOT_UNUSED);
  CHECK_EQ(dnnmem_layout_measure(NULL, &res), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_measure(&l, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_runs(NULL, units, &run, 1, &num_runs), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_runs(&l, units, &run, 1, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_runs(&l, units, &run, -1, &num_runs), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_runs(&l, units, NULL, 1, &num_runs), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_runs(&l, NULL, &run, 1, &num_runs), DNNMEM_ERR_INVALID_ARGUMENT);
  units[0] = -1; /* no such unit: no runs */
  CHECK_EQ(dnnmem_layout_runs(&l, units, &run, 1, &num_runs), DNNMEM_OK);
  CHECK_EQ(num_runs, 0);
  CHECK_EQ(dnnmem_layout_part(NULL, DNNMEM_LAYOUT_MEMORY, &s), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_part(&l, DNNMEM_LAYOUT_MEMORY, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_part(&l, -2, &s), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_part(&l, 1, &s), DNNMEM_ERR_INVALID_ARGUMENT); /* one level only */
  /* bind: NULLs, a machine out of range, a bad name, a zero extent, a
     repeated level; the layout unchanged after each */
  memcpy(&copy, &l, sizeof(l));
  CHECK_EQ(dnnmem_layout_machine_parse("PE=4", 4, &m, &err), DNNMEM_OK);
  CHECK_EQ(dnnmem_layout_bind(NULL, &m, &fault), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_bind(&l, NULL, &fault), DNNMEM_ERR_INVALID_ARGUMENT);
  m.num_levels = -1;
  CHECK_EQ(dnnmem_layout_bind(&l, &m, &fault), DNNMEM_ERR_INVALID_ARGUMENT);
  m.num_levels = DNNMEM_LAYOUT_MAX_LEVELS + 1;
  CHECK_EQ(dnnmem_layout_bind(&l, &m, &fault), DNNMEM_ERR_INVALID_ARGUMENT);
  m.num_levels = 1;
  m.extents[0] = 0;
  CHECK_EQ(dnnmem_layout_bind(&l, &m, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  m.extents[0] = 4;
  strcpy(m.names[0], "4PE");
  CHECK_EQ(dnnmem_layout_bind(&l, &m, &fault), DNNMEM_ERR_PARSE);
  strcpy(m.names[0], "PE");
  m.num_levels = 2;
  strcpy(m.names[1], "PE");
  m.extents[1] = 2;
  CHECK_EQ(dnnmem_layout_bind(&l, &m, &fault), DNNMEM_ERR_LAYOUT_LEVEL_CONFLICT);
  CHECK(memcmp(&copy, &l, sizeof(l)) == 0);
  /* a layout whose counts were broken after finishing */
  m.num_levels = 1;
  b = l;
  b.num_levels = -1;
  CHECK_EQ(dnnmem_layout_bind(&b, &m, &fault), DNNMEM_ERR_INVALID_ARGUMENT);
  b = l;
  b.num_factors = DNNMEM_LAYOUT_MAX_FACTORS + 1;
  CHECK_EQ(dnnmem_layout_bind(&b, &m, &fault), DNNMEM_ERR_INVALID_ARGUMENT);
  b = l;
  b.factors[1].level = 3; /* 4_PE now names a level the layout lacks */
  CHECK_EQ(dnnmem_layout_bind(&b, &m, &fault), DNNMEM_ERR_INVALID_ARGUMENT);
  /* strided algebra: NULL and out-of-range layouts, NULL outputs */
  memset(&s, 0, sizeof(s));
  set2(&s, 2, 2, 3, 3, 1);
  CHECK_EQ(dnnmem_layout_strided_check(NULL, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  s.rank = -1;
  CHECK_EQ(dnnmem_layout_strided_check(&s, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  s.rank = DNNMEM_LAYOUT_MAX_FACTORS + 1;
  CHECK_EQ(dnnmem_layout_strided_check(&s, NULL), DNNMEM_ERR_LAYOUT_LIMIT);
  set2(&s, 2, 0, 3, 3, 1);
  CHECK_EQ(dnnmem_layout_strided_check(&s, NULL), DNNMEM_ERR_LAYOUT_EXTENT);
  set2(&s, 2, 2, -3, 3, 1);
  CHECK_EQ(dnnmem_layout_strided_check(&s, NULL), DNNMEM_ERR_LAYOUT_STRIDE);
  set2(&s, 2, INT64_MAX / 2, 1, 3, 1); /* size past int64 */
  CHECK_EQ(dnnmem_layout_strided_check(&s, NULL), DNNMEM_ERR_OVERFLOW);
  set2(&s, 2, 3, INT64_MAX / 2, 3, 1); /* reach past int64 */
  CHECK_EQ(dnnmem_layout_strided_check(&s, NULL), DNNMEM_ERR_OVERFLOW);
  set2(&s, 2, 3, INT64_MAX / 3, 3, INT64_MAX / 3); /* cosize past int64 */
  CHECK_EQ(dnnmem_layout_strided_check(&s, NULL), DNNMEM_ERR_OVERFLOW);
  set2(&s, 2, 2, 3, 3, 1);
  CHECK_EQ(dnnmem_layout_coalesce(&s, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_coalesce(NULL, &out), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_compose(&s, &s, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_compose(NULL, &s, &out), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_compose(&s, NULL, &out), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_complement(&s, 6, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_complement(&s, 0, &out), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_complement(NULL, 6, &out), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_right_inverse(&s, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_right_inverse(NULL, &out), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_reshape_view(NULL, 2, shape, &out), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_reshape_view(&s, 2, shape, NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_reshape_view(&s, -1, shape, &out), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_reshape_view(&s, 2, NULL, &out), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_reshape_view(&s, DNNMEM_LAYOUT_MAX_FACTORS + 1, shape, &out), DNNMEM_ERR_LAYOUT_LIMIT);
  shape[1] = 0;
  CHECK_EQ(dnnmem_layout_reshape_view(&s, 2, shape, &out), DNNMEM_ERR_LAYOUT_EXTENT);
  shape[0] = INT64_MAX / 2;
  shape[1] = 3;
  CHECK_EQ(dnnmem_layout_reshape_view(&s, 2, shape, &out), DNNMEM_ERR_OVERFLOW);
  shape[0] = 3; /* 9 elements for a layout of 6 */
  CHECK_EQ(dnnmem_layout_reshape_view(&s, 2, shape, &out), DNNMEM_ERR_INVALID_ARGUMENT);
  /* (2:3, 3:1) is compact: viewed as (3, 2) it keeps strides (2, 1) */
  shape[0] = 3;
  shape[1] = 2;
  CHECK_EQ(dnnmem_layout_reshape_view(&s, 2, shape, &out), DNNMEM_OK);
  CHECK_EQ(out.rank, 2);
  CHECK_VALUES(out.stride, 2, 1);
}

/* The parser's and finish's limits (axes, factors, levels, machine
   levels), the prefix's rules, equality's early answers, and the maps of a
   layout without levels (units may be NULL there). */
static void test_limits_and_edges(void) {
  int32_t num_runs = -1;
  dnnmem_layout l, b;
  dnnmem_layout_machine m;
  dnnmem_layout_slot slot = DNNMEM_LAYOUT_SLOT_UNUSED;
  dnnmem_layout_run runs[4];
  int64_t err = -1, offsets[8], addrs[2] = {1, 5}, positions[2];
  dnnmem_error fault;
  uint8_t slots[2];
  char text[512];
  int i;
  /* 9 axes, 33 factors, 9 levels, a 9-level machine: LAYOUT_LIMIT at the extra one */
  CHECK_EQ(parse("(1,1,1,1,1,1,1,1,1)", &l, &err), DNNMEM_ERR_LAYOUT_LIMIT);
  CHECK_EQ(err, 17); /* the ninth axis */
  strcpy(text, "(("); /* one axis of 33 factors */
  for (i = 0; i < 33; i++) strcat(text, i ? ", 1:1" : "1:1");
  strcat(text, "))");
  CHECK_EQ(parse(text, &l, &err), DNNMEM_ERR_LAYOUT_LIMIT);
  CHECK_EQ(err, 2 + 32 * 5); /* the 33rd factor */
  CHECK_EQ(parse("((1_A, 1_B, 1_C, 1_D, 1_E, 1_F, 1_G, 1_H, 1_I))", &l, &err), DNNMEM_ERR_LAYOUT_LIMIT);
  CHECK_EQ(err, 44); /* the ninth level's name */
  CHECK_EQ(dnnmem_layout_machine_parse("A=1,B=1,C=1,D=1,E=1,F=1,G=1,H=1,I=1", 35, &m, NULL), DNNMEM_ERR_LAYOUT_LIMIT);
  CHECK_EQ(dnnmem_layout_machine_parse("A=1,B=1,C=1,D=1,E=1,F=1,G=1,H=1,I=1", 35, &m, &err), DNNMEM_ERR_LAYOUT_LIMIT);
  CHECK_EQ(err, 32);
  CHECK_EQ(dnnmem_layout_machine_parse(NULL, 0, &m, &err), DNNMEM_ERR_PARSE); /* empty */
  /* the prefix: plain extents only, one per axis of the layout */
  CHECK_EQ(parse("(4_PE)/(4:1)", &l, &err), DNNMEM_ERR_PARSE);
  CHECK_EQ(err, 6);
  CHECK_EQ(parse("((2,2))/(4:1)", &l, &err), DNNMEM_ERR_PARSE);
  CHECK_EQ(err, 7);
  /* built in code: counts out of range */
  CHECK(load("((3:8, 4_PE), (8:1))", NULL, &l));
  b = l;
  b.num_levels = -1;
  CHECK_EQ(dnnmem_layout_finish(&b, &fault), DNNMEM_ERR_INVALID_ARGUMENT);
  b = l;
  b.num_axes = DNNMEM_LAYOUT_MAX_AXES + 1;
  CHECK_EQ(dnnmem_layout_finish(&b, &fault), DNNMEM_ERR_LAYOUT_LIMIT);
  b = l;
  b.num_factors = DNNMEM_LAYOUT_MAX_FACTORS + 1;
  CHECK_EQ(dnnmem_layout_finish(&b, &fault), DNNMEM_ERR_LAYOUT_LIMIT);
  b = l;
  b.num_levels = DNNMEM_LAYOUT_MAX_LEVELS + 1;
  CHECK_EQ(dnnmem_layout_finish(&b, &fault), DNNMEM_ERR_LAYOUT_LIMIT);
  b = l;
  b.bound = 2;
  CHECK_EQ(dnnmem_layout_finish(&b, &fault), DNNMEM_ERR_INVALID_ARGUMENT);
  b = l;
  b.factors[1].level = 1; /* a level the layout does not have */
  CHECK_EQ(dnnmem_layout_finish(&b, &fault), DNNMEM_ERR_INVALID_ARGUMENT);
  b = l;
  b.factors[1].level = -2;
  CHECK_EQ(dnnmem_layout_finish(&b, &fault), DNNMEM_ERR_INVALID_ARGUMENT);
  /* equality: NULLs, other axis counts, other shapes are unequal */
  CHECK(load("(12:8, 8:1)", NULL, &b));
  CHECK_EQ(dnnmem_layout_equal(NULL, &b), 0);
  CHECK_EQ(dnnmem_layout_equal(&b, NULL), 0);
  CHECK(load("(96:1)", NULL, &l));
  CHECK_EQ(dnnmem_layout_equal(&l, &b), 0);
  CHECK(load("(8:12, 12:1)", NULL, &l));
  CHECK_EQ(dnnmem_layout_equal(&l, &b), 0);
  CHECK(load("(12:8, 8:1)", NULL, &l));
  CHECK_EQ(dnnmem_layout_equal(&l, &b), 1);
  /* B@[PE] unbound: copies unknown until a machine says how many PEs */
  CHECK(load("((3:8, 4_PE), (8:1); B@[MAB])", NULL, &l));
  CHECK_EQ(dnnmem_layout_replica_offset(&l, 0, offsets), DNNMEM_ERR_LAYOUT_NEEDS_MACHINE);
  /* no levels: units may be NULL everywhere; (12:8, 8:1) holds (1, 5) at 13 */
  CHECK(load("(12:8, 8:1)", NULL, &l));
  CHECK_EQ(dnnmem_layout_inverse(&l, NULL, 13, NULL, &slot), DNNMEM_OK);
  CHECK_EQ(slot, DNNMEM_LAYOUT_SLOT_ELEMENT);
  CHECK_EQ(dnnmem_layout_inverse_batch(&l, 2, NULL, addrs, positions, slots), DNNMEM_OK);
  CHECK_VALUES(positions, 1, 5);
  CHECK_EQ(slots[1], DNNMEM_LAYOUT_SLOT_ELEMENT);
  CHECK_EQ(dnnmem_layout_runs(&l, NULL, runs, 4, &num_runs), DNNMEM_OK);
  CHECK_EQ(num_runs, 1); /* the whole tensor is one run */
  CHECK_EQ(runs[0].length, 96);
}

/* dnnmem_layout_convert of a to b (scratch at the worst alignment; one
   byte short refused) equals the slot-by-slot recount (tests/ref.h) in
   every count, and the counts add up; the answer in *got. */
static void check_convert(const dnnmem_layout *a, const dnnmem_layout *b, dnnmem_layout_conversion *got) {
  dnnmem_layout_conversion want;
  size_t bytes = 0;
  unsigned char *mem, *worst;
  CHECK_EQ(dnnmem_layout_convert_scratch_size(a, b, &bytes), DNNMEM_OK);
  mem = (unsigned char *)malloc(bytes + 16);
  worst = mem + (17 - (size_t)((uintptr_t)mem % 16)) % 16;
  CHECK_EQ(dnnmem_layout_convert(a, b, got, worst, bytes), DNNMEM_OK);
  CHECK_EQ(dnnmem_layout_convert(a, b, got, worst, bytes - 1), DNNMEM_ERR_SCRATCH_TOO_SMALL);
  free(mem);
  ref_layout_convert(a, b, &want);
  CHECK_EQ(got->copies, want.copies);
  CHECK_EQ(got->kept, want.kept);
  CHECK_EQ(got->local, want.local);
  CHECK_EQ(got->moved, want.moved);
  CHECK_EQ(got->runs, want.runs);
  CHECK_EQ(got->kept + got->local + got->moved, got->copies);
}

/* dnnmem_layout_convert against the slot-by-slot recount (tests/ref.h) on
   every ordered pair of layouts of one 6x4 tensor over MAB=2,PE=3: rows
   or columns over units, column-major and strided memory, padding,
   counted and implicit broadcasts; a hand-counted pair; argument rules. */
static void test_convert(void) {
  static const char *const texts[] = {
      "((3_PE, 2:4), (4:1))",         "((2_MAB, 3_PE), (4:1))",      "((6:1), (4:6))",
      "((6:4), (2_MAB, 2:1); B@[PE])", "((2:8, 3_PE), (4:2))",       "(6,4)/((8:4), (4:1))",
      "((3_PE, 2_MAB), (4:1))",       "((6:1), (2_MAB, 2:6))",       "((2:4, 3_PE), (4:1); B@[MAB])",
      "((3_PE, 2:1), (4:2))"};
  enum { NL = sizeof(texts) / sizeof(texts[0]) };
  dnnmem_layout l[NL], other;
  dnnmem_layout_machine m;
  dnnmem_layout_conversion got;
  int64_t err;
  dnnmem_error fault;
  int32_t i, j;
  size_t bytes = 0;
  void *mem;
  CHECK_EQ(dnnmem_layout_machine_parse("MAB=2,PE=3", 10, &m, &err), DNNMEM_OK);
  for (i = 0; i < NL; i++) {
    CHECK_EQ(dnnmem_layout_parse(texts[i], strlen(texts[i]), &l[i], &err), DNNMEM_OK);
    CHECK_EQ(dnnmem_layout_bind(&l[i], &m, &fault), DNNMEM_OK);
  }
  for (i = 0; i < NL; i++)
    for (j = 0; j < NL; j++) {
      check_convert(&l[i], &l[j], &got);
      CHECK_EQ(got.elements, 24);
      if (i == j) CHECK_EQ(got.kept, got.copies);
    }
  /* by hand: rows 2 per PE -> rows round-robin over PE (8 x 4 over PE=4):
     rows 0 and 7 stay, 24 elements change unit in 6 runs */
  {
    dnnmem_layout a, b;
    dnnmem_layout_machine pe4;
    CHECK_EQ(dnnmem_layout_machine_parse("PE=4", 4, &pe4, &err), DNNMEM_OK);
    CHECK_EQ(dnnmem_layout_parse("((4_PE, 2:4), (4:1))", 20, &a, &err), DNNMEM_OK);
    CHECK_EQ(dnnmem_layout_parse("((2:4, 4_PE), (4:1))", 20, &b, &err), DNNMEM_OK);
    CHECK_EQ(dnnmem_layout_bind(&a, &pe4, &fault), DNNMEM_OK);
    CHECK_EQ(dnnmem_layout_bind(&b, &pe4, &fault), DNNMEM_OK);
    check_convert(&a, &b, &got);
    CHECK_EQ(got.kept, 8);
    CHECK_EQ(got.moved, 24);
    CHECK_EQ(got.local, 0);
    CHECK_EQ(got.runs, 6);
    CHECK_EQ(dnnmem_layout_convert_scratch_size(&a, &b, &bytes), DNNMEM_OK);
    mem = malloc(bytes);
    CHECK_EQ(dnnmem_layout_convert(&a, &b, NULL, mem, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
    CHECK_EQ(dnnmem_layout_convert(&a, &l[0], &got, mem, bytes), DNNMEM_ERR_INVALID_ARGUMENT); /* other shape */
    free(mem);
  }
  /* levels must agree; a counted broadcast needs a machine */
  CHECK_EQ(dnnmem_layout_parse("((3_PE, 2:4), (4:1))", 20, &other, &err), DNNMEM_OK);
  CHECK_EQ(dnnmem_layout_convert_scratch_size(&other, &l[0], &bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_convert_scratch_size(&l[0], NULL, &bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_convert_scratch_size(&l[0], &l[1], NULL), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_parse("((6:4), (4:1); B@[PE])", 22, &other, &err), DNNMEM_OK);
  CHECK_EQ(dnnmem_layout_convert_scratch_size(&other, &other, &bytes), DNNMEM_ERR_LAYOUT_NEEDS_MACHINE);
  { /* each field that must agree, alone: bound, the shape, a level's name, a level's extent */
    dnnmem_layout pe, pe_unbound, mab, pe6, cols, rows;
    dnnmem_layout_machine m_pe, m_mab, m_pe6;
    CHECK_EQ(dnnmem_layout_machine_parse("PE=3", 4, &m_pe, &err), DNNMEM_OK);
    CHECK_EQ(dnnmem_layout_machine_parse("MAB=3", 5, &m_mab, &err), DNNMEM_OK);
    CHECK_EQ(dnnmem_layout_machine_parse("PE=6", 4, &m_pe6, &err), DNNMEM_OK);
    CHECK_EQ(dnnmem_layout_parse("((3_PE, 2:4), (4:1))", 20, &pe, &err), DNNMEM_OK);
    pe_unbound = pe;
    CHECK_EQ(dnnmem_layout_parse("((3_MAB, 2:4), (4:1))", 21, &mab, &err), DNNMEM_OK);
    pe6 = pe;
    CHECK_EQ(dnnmem_layout_bind(&pe, &m_pe, &fault), DNNMEM_OK);
    CHECK_EQ(dnnmem_layout_bind(&mab, &m_mab, &fault), DNNMEM_OK);
    CHECK_EQ(dnnmem_layout_bind(&pe6, &m_pe6, &fault), DNNMEM_OK);
    CHECK_EQ(dnnmem_layout_parse("((6:1), (4:6))", 14, &cols, &err), DNNMEM_OK);
    CHECK_EQ(dnnmem_layout_convert_scratch_size(&pe, &pe, &bytes), DNNMEM_OK);
    CHECK_EQ(dnnmem_layout_convert_scratch_size(&pe, &pe_unbound, &bytes), DNNMEM_ERR_INVALID_ARGUMENT);
    CHECK_EQ(dnnmem_layout_convert_scratch_size(&pe, &mab, &bytes), DNNMEM_ERR_INVALID_ARGUMENT);
    CHECK_EQ(dnnmem_layout_convert_scratch_size(&pe, &pe6, &bytes), DNNMEM_ERR_INVALID_ARGUMENT);
    CHECK_EQ(dnnmem_layout_convert_scratch_size(&cols, &cols, &bytes), DNNMEM_OK);
    rows = cols;
    rows.unpadded[0] = 4, rows.unpadded[1] = 6; /* the same axes and levels, another shape */
    CHECK_EQ(dnnmem_layout_convert_scratch_size(&cols, &rows, &bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  }
}

/* More argument checks: a conversion from no layout or between different
   ranks, a bind of a layout whose counts are out of range (a corrupted
   struct), a rank-0 view reshaped without a shape. */
static void test_argument_edges(void) {
  dnnmem_layout a, b, bad;
  dnnmem_layout_machine m;
  dnnmem_layout_strided s, out;
  dnnmem_error fault;
  int64_t err;
  size_t bytes = 0;
  CHECK_EQ(dnnmem_layout_parse("((6:1), (4:6))", 14, &a, &err), DNNMEM_OK);
  CHECK_EQ(dnnmem_layout_parse("((24:1))", 8, &b, &err), DNNMEM_OK);
  CHECK_EQ(dnnmem_layout_convert_scratch_size(NULL, &a, &bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_convert_scratch_size(&a, &b, &bytes), DNNMEM_ERR_INVALID_ARGUMENT); /* 2 axes, 1 */
  CHECK_EQ(dnnmem_layout_convert_scratch_size(&b, &b, &bytes), DNNMEM_OK);
  CHECK_EQ(dnnmem_layout_machine_parse("PE=3", 4, &m, &err), DNNMEM_OK);
  bad = a, bad.num_levels = -1;
  CHECK_EQ(dnnmem_layout_bind(&bad, &m, &fault), DNNMEM_ERR_INVALID_ARGUMENT);
  bad = a, bad.num_levels = DNNMEM_LAYOUT_MAX_LEVELS + 1;
  CHECK_EQ(dnnmem_layout_bind(&bad, &m, &fault), DNNMEM_ERR_INVALID_ARGUMENT);
  bad = a, bad.num_factors = -1;
  CHECK_EQ(dnnmem_layout_bind(&bad, &m, &fault), DNNMEM_ERR_INVALID_ARGUMENT);
  bad = a, bad.num_factors = DNNMEM_LAYOUT_MAX_FACTORS + 1;
  CHECK_EQ(dnnmem_layout_bind(&bad, &m, &fault), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(dnnmem_layout_bind(&a, &m, &fault), DNNMEM_OK);
  { /* the batch forward map with either output left out: the same addresses, units */
    dnnmem_layout pe;
    int64_t units[24], units2[24], addr[24], addr2[24];
    int32_t i;
    CHECK_EQ(dnnmem_layout_parse("((3_PE, 2:4), (4:1))", 20, &pe, &err), DNNMEM_OK);
    CHECK_EQ(dnnmem_layout_bind(&pe, &m, &fault), DNNMEM_OK);
    CHECK_EQ(dnnmem_layout_forward_range(&pe, 0, 24, units, addr), DNNMEM_OK);
    CHECK_EQ(dnnmem_layout_forward_range(&pe, 0, 24, NULL, addr2), DNNMEM_OK);
    CHECK_EQ(dnnmem_layout_forward_range(&pe, 0, 24, units2, NULL), DNNMEM_OK);
    CHECK_EQ(dnnmem_layout_forward_range(&pe, 0, 24, NULL, NULL), DNNMEM_OK);
    for (i = 0; i < 24; i++) CHECK(addr2[i] == addr[i] && units2[i] == units[i]);
    CHECK(units[0] == 0 && units[8] == 1 && units[23] == 2 && addr[0] == 0 && addr[9] == 1);
  }
  memset(&s, 0, sizeof s); /* rank 0: one element at 0 */
  out.rank = 7;
  CHECK_EQ(dnnmem_layout_reshape_view(&s, 0, NULL, &out), DNNMEM_OK);
  CHECK_EQ(out.rank, 0);
}

/* A layout without active factors (every extent 1): one position,
   forward_range's single-position path with each output optional. */
static void test_single_position_range(void) {
  dnnmem_layout l;
  int64_t err = 0, unit = -7, addr = -9;
  CHECK_EQ(parse("((1:5),(1:3))", &l, &err), DNNMEM_OK);
  CHECK(l.num_active == 0 && l.padded_size == 1);
  CHECK_EQ(dnnmem_layout_forward_range(&l, 0, 1, NULL, NULL), DNNMEM_OK);
  CHECK_EQ(dnnmem_layout_forward_range(&l, 0, 1, &unit, NULL), DNNMEM_OK);
  CHECK_EQ(unit, -7); /* no levels: no unit written */
  CHECK_EQ(dnnmem_layout_forward_range(&l, 0, 1, NULL, &addr), DNNMEM_OK);
  CHECK_EQ(addr, 0);
  CHECK_EQ(dnnmem_layout_forward_range(&l, 1, 1, NULL, &addr), DNNMEM_ERR_LAYOUT_INDEX);
  { /* its conversion to itself keeps its one element; to nothing is refused */
    dnnmem_layout_conversion c;
    unsigned char mem[256]; /* 64 and a guard build's headers */
    size_t bytes = 0;
    CHECK_EQ(dnnmem_layout_convert_scratch_size(&l, &l, &bytes), DNNMEM_OK);
    CHECK(bytes <= sizeof mem);
    CHECK_EQ(dnnmem_layout_convert(&l, &l, &c, mem, bytes), DNNMEM_OK);
    CHECK(c.elements == 1 && c.kept == 1);
    CHECK_EQ(dnnmem_layout_convert(&l, NULL, &c, mem, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  }
}

/* A padding error names the axis at fault, not the first one: the
   position of that axis's number in the prefix (a later axis padded
   smaller than the layout's shape, a product that overflows). And
   dnnmem_layout_convert at the level limit (DNNMEM_LAYOUT_MAX_LEVELS
   levels, elements that move): the recount agrees, and ASan sees any
   access one past the per-level arrays. */
static void test_padding_axis_and_level_limit(void) {
  static const bad_case cases[] = {
      {"(12,8)/((3:7, 4_PE), (7:1))", DNNMEM_ERR_LAYOUT_PADDING, 4},
      {"(2,3,5)/((2:12), (3:4), (4:1))", DNNMEM_ERR_LAYOUT_PADDING, 5},
      {"(2,4,4)/((2:12), (3:4), (4:1))", DNNMEM_ERR_LAYOUT_PADDING, 3},
      {"(2,3)/((2:12), (3:4), (4:1))", DNNMEM_ERR_LAYOUT_PADDING, 0}, /* rank */
  };
  static const char *const machine = "A=2,B=2,C=2,D=2,E=2,F=2,G=2,H=2";
  static const char *const texts[] = {"((2_A, 4:1))", "((2_H, 4:1))", "((4:1, 2_A))", "((8:1); B@[C])"};
  dnnmem_layout l[4];
  dnnmem_layout_conversion got;
  size_t i, j;
  for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    dnnmem_layout x;
    int64_t err = -1;
    dnnmem_result r = parse(cases[i].text, &x, &err);
    if (r != cases[i].result || err != cases[i].position) {
      fprintf(stderr, "'%s': got %s at %lld, want %s at %lld\n", cases[i].text, dnnmem_result_text(r),
              (long long)err, dnnmem_result_text(cases[i].result), (long long)cases[i].position);
      CHECK(0);
    }
  }
  for (i = 0; i < 4; i++) {
    CHECK(load(texts[i], machine, &l[i]));
    CHECK_EQ(l[i].num_levels, DNNMEM_LAYOUT_MAX_LEVELS);
  }
  for (i = 0; i < 4; i++)
    for (j = 0; j < 4; j++) {
      check_convert(&l[i], &l[j], &got);
      CHECK_EQ(got.elements, 8);
      if (i != j && i != 3) CHECK(got.moved > 0); /* from the broadcast every unit holds all */
    }
}

/* The axis ranges of a layout built in code: axis_first starts at 0,
   rises, and ends at most at num_factors; each break is
   DNNMEM_ERR_INVALID_ARGUMENT naming field INDEX (axis_first) and the
   first axis whose range is bad (index; before errfix: -1, no field),
   with the layout unchanged, whichever axis breaks it (one or two axes,
   data factors only or a broadcast after them). */
static void test_finish_axis_ranges(void) {
  static const int32_t cases[][4] = {
      /* axes, axis_first[1], axis_first[2], OK? */
      {1, 1, 0, 1}, {1, 2, 0, 1}, {1, 3, 0, 0}, {1, 0, 0, 0},
      {2, 1, 2, 1}, {2, 1, 3, 0}, {2, 2, 2, 0}, {2, 3, 3, 0}, {2, 2, 1, 0},
  };
  size_t i;
  int broadcast;
  for (broadcast = 0; broadcast < 2; broadcast++)
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
      dnnmem_layout l, before;
      dnnmem_error fault;
      dnnmem_result r;
      int32_t k, bad_axis;
      memset(&l, 0, sizeof l);
      l.num_axes = cases[i][0];
      l.num_factors = 2 + broadcast;
      l.axis_first[1] = cases[i][1] == 3 ? 3 + broadcast : cases[i][1]; /* 3: past the factors */
      l.axis_first[2] = cases[i][2] == 3 ? 3 + broadcast : cases[i][2];
      for (k = 0; k < 2; k++) {
        l.factors[k].extent = 2 + k;
        l.factors[k].stride = DNNMEM_LAYOUT_AUTO;
        l.factors[k].level = DNNMEM_LAYOUT_MEMORY;
        l.factors[k].position = -1;
      }
      if (broadcast) { /* factor 2: B@[B], after the data factors */
        l.num_levels = 1;
        strncpy(l.level_names[0], "B", DNNMEM_LAYOUT_NAME_BYTES);
        l.factors[2].extent = 1;
        l.factors[2].stride = 1;
        l.factors[2].level = 0;
        l.factors[2].flags = DNNMEM_LAYOUT_ALL_UNITS;
        l.factors[2].position = -1;
        if (cases[i][3] && l.axis_first[l.num_axes] != 2) continue; /* a data factor on a level: another rule */
      } else if (cases[i][3] && l.axis_first[l.num_axes] < 2)
        continue; /* a factor after the axes would be a broadcast in memory: another rule */
      before = l;
      r = dnnmem_layout_finish(&l, &fault);
      if (cases[i][3]) {
        CHECK_EQ(r, DNNMEM_OK);
        CHECK(ref_layout_round_trip_ok(&l, NULL));
        continue;
      }
      bad_axis = 0; /* the first axis whose range is empty or past the factors */
      while (bad_axis < l.num_axes - 1 && l.axis_first[bad_axis + 1] > l.axis_first[bad_axis] &&
             l.axis_first[bad_axis + 1] <= l.num_factors)
        bad_axis++;
      if (r != DNNMEM_ERR_INVALID_ARGUMENT || fault.index != bad_axis || fault.field != DNNMEM_FIELD_INDEX) {
        fprintf(stderr, "axis_first case %d (broadcast %d): %s at %d field %d\n", (int)i, broadcast,
                dnnmem_result_name(r), (int)fault.index, (int)fault.field);
        CHECK(0);
      }
      CHECK(memcmp(&l, &before, sizeof l) == 0);
    }
}

/* compose's result at DNNMEM_LAYOUT_MAX_FACTORS modes: A of 32 modes of
   shape 2 that do not coalesce (strides 3^i), B = (2^32:1) walks all of A
   (the result is A's 32 modes); one more mode of B (a broadcast (2:0))
   needs 33: DNNMEM_ERR_LAYOUT_LIMIT, whichever side it is on. */
static void test_compose_mode_limit(void) {
  dnnmem_layout_strided *a = (dnnmem_layout_strided *)malloc(sizeof *a);
  dnnmem_layout_strided *b = (dnnmem_layout_strided *)malloc(sizeof *b);
  dnnmem_layout_strided *r = (dnnmem_layout_strided *)malloc(sizeof *r);
  int64_t stride = 1;
  int32_t i;
  a->rank = DNNMEM_LAYOUT_MAX_FACTORS;
  for (i = DNNMEM_LAYOUT_MAX_FACTORS - 1; i >= 0; i--, stride *= 3) a->shape[i] = 2, a->stride[i] = stride;
  b->rank = 1;
  b->shape[0] = (int64_t)1 << DNNMEM_LAYOUT_MAX_FACTORS;
  b->stride[0] = 1;
  CHECK_EQ(dnnmem_layout_compose(a, b, r), DNNMEM_OK);
  CHECK_EQ(r->rank, DNNMEM_LAYOUT_MAX_FACTORS);
  for (i = 0; i < DNNMEM_LAYOUT_MAX_FACTORS; i++) CHECK(r->shape[i] == 2 && r->stride[i] == a->stride[i]);
  b->rank = 2;
  b->shape[1] = 2, b->stride[1] = 0; /* inner broadcast */
  CHECK_EQ(dnnmem_layout_compose(a, b, r), DNNMEM_ERR_LAYOUT_LIMIT);
  b->shape[1] = b->shape[0], b->stride[1] = 1;
  b->shape[0] = 2, b->stride[0] = 0; /* outer broadcast */
  CHECK_EQ(dnnmem_layout_compose(a, b, r), DNNMEM_ERR_LAYOUT_LIMIT);
  b->shape[0] = 1; /* a unit mode adds none */
  CHECK_EQ(dnnmem_layout_compose(a, b, r), DNNMEM_OK);
  CHECK_EQ(r->rank, DNNMEM_LAYOUT_MAX_FACTORS);
  free(a);
  free(b);
  free(r);
}

/* Broadcast counts multiply into replicas: a product past int64_t is
   DNNMEM_ERR_OVERFLOW at the factor that passes it (acceptance mutant
   67e076aaa8 returned OK with a wrong replica count). */
static void test_replicas_overflow(void) {
  dnnmem_layout l, before;
  dnnmem_error fault;
  int64_t err = -7;
  const char *fits = "((2:1); B@[4294967296_X, 2147483647_Y])";
  const char *past = "((2:1); B@[4294967296_X, 2147483648_Y])";
  CHECK_EQ(parse(fits, &l, &err), DNNMEM_OK);
  CHECK_EQ(l.replicas, (int64_t)4294967296 * 2147483647);
  CHECK_EQ(parse(past, &l, &err), DNNMEM_ERR_OVERFLOW);
  CHECK_EQ(err, 25); /* 2147483648_Y */
  CHECK_EQ(parse(fits, &l, &err), DNNMEM_OK);
  l.factors[2].extent = 2147483648;
  before = l;
  CHECK_EQ(dnnmem_layout_finish(&l, &fault), DNNMEM_ERR_OVERFLOW);
  CHECK(fault.index == 2 && fault.field == DNNMEM_FIELD_EXTENT);
  CHECK(memcmp(&l, &before, sizeof(l)) == 0); /* unchanged on error */
}

/* finish's error fields: a factor's bad level index and the level names'
   own errors (no factor) name LEVEL (acceptance mutant e351f6076d gave
   NONE to the first two); a bad header names its field: num_axes COUNT,
   bound LEVEL, a bound level's extent LEVEL and the level (errfix: they
   named nothing). */
static void test_finish_error_fields(void) {
  dnnmem_layout l;
  dnnmem_error fault;
  build(&l, "B_", 0, 0);
  l.factors[1].level = 1; /* num_levels is 1 */
  CHECK_EQ(dnnmem_layout_finish(&l, &fault), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK(fault.index == 1 && fault.field == DNNMEM_FIELD_LEVEL);
  build(&l, "B_", 0, 0);
  l.num_levels = 2;
  strcpy(l.level_names[1], "B_"); /* the same name twice */
  l.factors[0].level = 1;
  CHECK_EQ(dnnmem_layout_finish(&l, &fault), DNNMEM_ERR_LAYOUT_LEVEL_CONFLICT);
  CHECK(fault.index == -1 && fault.field == DNNMEM_FIELD_LEVEL);
  build(&l, "9B", 0, 0);
  CHECK_EQ(dnnmem_layout_finish(&l, &fault), DNNMEM_ERR_PARSE);
  CHECK(fault.index == -1 && fault.field == DNNMEM_FIELD_LEVEL);
  build(&l, "B_", 0, 0);
  l.num_axes = 0;
  CHECK_EQ(dnnmem_layout_finish(&l, &fault), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK(fault.index == -1 && fault.field == DNNMEM_FIELD_COUNT);
  build(&l, "B_", 0, 0); /* bound neither 0 nor 1 */
  l.bound = 2;
  CHECK_EQ(dnnmem_layout_finish(&l, &fault), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK(fault.index == -1 && fault.field == DNNMEM_FIELD_LEVEL);
  build(&l, "B_", 0, 1); /* bound, level 0 without units */
  l.level_extent[0] = 0;
  CHECK_EQ(dnnmem_layout_finish(&l, &fault), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK(fault.index == 0 && fault.field == DNNMEM_FIELD_LEVEL);
}

/* forward_range over every window (first, count) of small layouts (levels,
   padding, broadcasts, a non-compact stride) against the per-index
   dnnmem_layout_forward, into heap arrays of exactly count addresses and
   count x levels units (ASan sees one past them): a window that ends
   inside a later run of the innermost factor must stop there. */
static void test_forward_range_windows(void) {
  static const char *const texts[] = {"((4_PE, 3:8), (8:1))", "(10,7)/((3:7, 4_PE), (7:1))",
                                      "((12:8), (8:1); B@[PE])", "((2_PE:2, 3:4), (2_PE:1, 3:1))",
                                      "((3:16), (5:2))"};
  size_t t;
  for (t = 0; t < sizeof(texts) / sizeof(texts[0]); t++) {
    dnnmem_layout l;
    int64_t n, first, count, e, index[DNNMEM_LAYOUT_MAX_AXES], *want_units, *want_addr;
    int32_t levels, lv;
    CHECK(load(texts[t], NULL, &l));
    n = l.padded_size;
    levels = l.num_levels;
    want_units = (int64_t *)malloc((size_t)(n * levels + 1) * sizeof(int64_t));
    want_addr = (int64_t *)malloc((size_t)n * sizeof(int64_t));
    for (e = 0; e < n; e++) {
      CHECK_EQ(dnnmem_layout_index(&l, e, index), DNNMEM_OK);
      CHECK_EQ(dnnmem_layout_forward(&l, index, want_units + e * levels, &want_addr[e], NULL), DNNMEM_OK);
    }
    for (first = 0; first < n; first++)
      for (count = 1; first + count <= n; count++) {
        int64_t *units = (int64_t *)malloc((size_t)(count * levels + 1) * sizeof(int64_t));
        int64_t *addr = (int64_t *)malloc((size_t)count * sizeof(int64_t));
        int bad = 0;
        CHECK_EQ(dnnmem_layout_forward_range(&l, first, count, levels ? units : NULL, addr), DNNMEM_OK);
        for (e = 0; e < count; e++) {
          bad |= addr[e] != want_addr[first + e];
          for (lv = 0; lv < levels; lv++) bad |= units[e * levels + lv] != want_units[(first + e) * levels + lv];
        }
        if (bad) fprintf(stderr, "%s: window %lld + %lld\n", texts[t], (long long)first, (long long)count);
        CHECK(!bad);
        free(units);
        free(addr);
      }
    free(want_units);
    free(want_addr);
  }
}

/* The error position of both parsers is 0 when there is no offending
   text: after a success and after a refused argument (the caller's value
   is overwritten either way). */
static void test_parse_error_position_zero(void) {
  dnnmem_layout l;
  dnnmem_layout_machine m;
  int64_t err = -7;
  CHECK_EQ(dnnmem_layout_machine_parse("L2B=16,PE=4", 11, &m, &err), DNNMEM_OK);
  CHECK_EQ(err, 0);
  err = -7;
  CHECK_EQ(dnnmem_layout_machine_parse(NULL, 4, &m, &err), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(err, 0);
  err = -7;
  CHECK_EQ(dnnmem_layout_machine_parse("PE=4", 4, NULL, &err), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(err, 0);
  err = -7;
  CHECK_EQ(dnnmem_layout_parse("((4_PE, 3:8), (8:1))", 20, &l, &err), DNNMEM_OK);
  CHECK_EQ(err, 0);
  err = -7;
  CHECK_EQ(dnnmem_layout_parse(NULL, 3, &l, &err), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(err, 0);
  err = -7;
  CHECK_EQ(dnnmem_layout_parse("(2:1)", 5, NULL, &err), DNNMEM_ERR_INVALID_ARGUMENT);
  CHECK_EQ(err, 0);
}

/* dnnmem_layout_finish's factor axes: each data factor names its logical
   axis, each broadcast factor (written or implicit) -1, as the manual says
   (mutant 388c465af7 gave broadcasts axis 0 unseen). */
static void test_broadcast_factor_axis(void) {
  dnnmem_layout l;
  int32_t k;
  CHECK(load("((12:8), (8:1); B@[PE])", NULL, &l));
  CHECK_EQ(l.num_factors, 3);
  CHECK_EQ(l.axis_first[l.num_axes], 2);
  CHECK_EQ(l.factors[0].axis, 0);
  CHECK_EQ(l.factors[1].axis, 1);
  CHECK_EQ(l.factors[2].axis, -1);
  CHECK(load("((4_PE, 3:8), (8:1); B@[2_L2B:2])", NULL, &l)); /* a level in an axis too */
  CHECK_EQ(l.num_factors, 4);
  for (k = 0; k < l.num_factors; k++) CHECK_EQ(l.factors[k].axis, k < 2 ? 0 : k < 3 ? 1 : -1);
  CHECK(load("((12:8), (8:1))", "PE=4", &l)); /* an implicit broadcast */
  CHECK_EQ(l.num_factors, 3);
  CHECK_EQ(l.factors[2].axis, -1);
}

/* A conversion needs the same logical shape on every axis: layouts equal
   but for one axis's unpadded extent (the first, then the last) are
   refused, by the size query and the conversion alike (mutant 100daaf261
   compared axes from the second on). */
static void test_convert_shape_each_axis(void) {
  static const char *const texts[] = {"((6:4), (4:1))", "(5,4)/((6:4), (4:1))", "(6,3)/((6:4), (4:1))"};
  dnnmem_layout l[3];
  dnnmem_layout_conversion got;
  int64_t err;
  size_t bytes = 0;
  void *mem;
  int32_t i;
  for (i = 0; i < 3; i++) CHECK_EQ(dnnmem_layout_parse(texts[i], strlen(texts[i]), &l[i], &err), DNNMEM_OK);
  CHECK_EQ(dnnmem_layout_convert_scratch_size(&l[0], &l[0], &bytes), DNNMEM_OK);
  mem = malloc(bytes);
  for (i = 1; i < 3; i++) {
    size_t other = 0;
    CHECK_EQ(dnnmem_layout_convert_scratch_size(&l[0], &l[i], &other), DNNMEM_ERR_INVALID_ARGUMENT);
    CHECK_EQ(dnnmem_layout_convert_scratch_size(&l[i], &l[0], &other), DNNMEM_ERR_INVALID_ARGUMENT);
    CHECK_EQ(dnnmem_layout_convert(&l[0], &l[i], &got, mem, bytes), DNNMEM_ERR_INVALID_ARGUMENT);
  }
  free(mem);
  { /* entries past the counts are no part of a layout: junk there changes nothing
       (kin of 100daaf261: loops one past num_axes or num_levels) */
    dnnmem_layout pe, junk;
    dnnmem_layout_machine m;
    dnnmem_error fault;
    CHECK_EQ(dnnmem_layout_machine_parse("PE=3", 4, &m, &err), DNNMEM_OK);
    CHECK_EQ(dnnmem_layout_parse("((3_PE, 2:4), (4:1))", 20, &pe, &err), DNNMEM_OK);
    CHECK_EQ(dnnmem_layout_bind(&pe, &m, &fault), DNNMEM_OK);
    junk = pe;
    junk.unpadded[junk.num_axes] = 5;
    strcpy(junk.level_names[junk.num_levels], "ZZ");
    junk.level_extent[junk.num_levels] = 7;
    CHECK_EQ(dnnmem_layout_convert_scratch_size(&pe, &junk, &bytes), DNNMEM_OK);
    mem = malloc(bytes);
    CHECK_EQ(dnnmem_layout_convert(&pe, &junk, &got, mem, bytes), DNNMEM_OK);
    CHECK_EQ(got.elements, 24);
    CHECK_EQ(got.kept, got.copies);
    free(mem);
  }
}

/* Fills a stretch of the stack below the caller with byte b (what a
   parser's locals then start from). */
static void dirty_stack(unsigned char b) {
  volatile unsigned char junk[16384];
  size_t i;
  for (i = 0; i < sizeof(junk); i++) junk[i] = b;
}

/* A parsed layout (and machine) is the same bytes whatever the stack held:
   users copy it with memcpy and may hash it. */
static void test_parse_bytes_deterministic(void) {
  static const char text[] = "((3:8, 4_PE), (2_L2B, 8:1))", mtext[] = "L2B=16,PE=4";
  dnnmem_layout a, b;
  dnnmem_layout_machine ma, mb;
  int64_t at = 0;
  int32_t lv;
  size_t k;
  dirty_stack(0xAA);
  CHECK_EQ(dnnmem_layout_parse(text, sizeof(text) - 1, &a, NULL), DNNMEM_OK);
  dirty_stack(0x55);
  CHECK_EQ(dnnmem_layout_parse(text, sizeof(text) - 1, &b, NULL), DNNMEM_OK);
  CHECK(memcmp(&a, &b, sizeof(a)) == 0);
  for (lv = 0; lv < a.num_levels; lv++) /* a name's bytes past its NUL are 0 */
    for (k = strlen(a.level_names[lv]); k < DNNMEM_LAYOUT_NAME_BYTES; k++) CHECK_EQ(a.level_names[lv][k], 0);
  dirty_stack(0xAA);
  CHECK_EQ(dnnmem_layout_machine_parse(mtext, sizeof(mtext) - 1, &ma, &at), DNNMEM_OK);
  dirty_stack(0x55);
  CHECK_EQ(dnnmem_layout_machine_parse(mtext, sizeof(mtext) - 1, &mb, &at), DNNMEM_OK);
  CHECK(memcmp(&ma, &mb, sizeof(ma)) == 0);
}

int main(void) {
  RUN(test_worked_examples);
  RUN(test_worked_examples_board);
  RUN(test_print_round_trip);
  RUN(test_equality);
  RUN(test_bad_input);
  RUN(test_machine);
  RUN(test_finish_rules);
  RUN(test_finish_round_trip);
  RUN(test_round_trips);
  RUN(test_stats);
  RUN(test_runs);
  RUN(test_coalesce);
  RUN(test_compose);
  RUN(test_compose_unit_modes);
  RUN(test_complement);
  RUN(test_right_inverse);
  RUN(test_reshape_view);
  RUN(test_memory_part);
  RUN(test_huge_strides);
  RUN(test_random_layouts);
  RUN(test_equal_brute_force);
  RUN(test_argument_checks);
  RUN(test_limits_and_edges);
  RUN(test_convert);
  RUN(test_argument_edges);
  RUN(test_single_position_range);
  RUN(test_padding_axis_and_level_limit);
  RUN(test_finish_axis_ranges);
  RUN(test_compose_mode_limit);
  RUN(test_replicas_overflow);
  RUN(test_finish_error_fields);
  RUN(test_forward_range_windows);
  RUN(test_parse_error_position_zero);
  RUN(test_broadcast_factor_axis);
  RUN(test_convert_shape_each_axis);
  RUN(test_parse_bytes_deterministic);
  return test_finish("test_layout");
}

/* fuzz/fuzz_files.c: the tool's readers (examples/dnnmem_files.h) on text.
   The first byte picks the reader, the rest is the file's text:
     '0' (byte % 4 == 0)  files_intervals_parse (intervals CSV or graph CSV)
     '1'                  files_graph_parse (graph CSV)
     '2'                  files_dimacs_parse (DIMACS max-flow)
     '3'                  files_intervals_parse_symbolic with a global
                          alignment of 64 (the tool's --align); polynomial
                          sizes are evaluated at 0, 1 and 1000 too
     'L' (before % 4)     files_candidates_parse (layoutplan candidates)
   Invariants: a reader either fails with an error naming the file, a line
   within the text (1 .. its line count) and a non-empty message, or
   succeeds with records the library accepts: intervals pass
   dnnmem_intervals_check, one per data row, and a plan of them passes
   dnnmem_plan_check and tests/ref.h's recount at or above the lower bound
   with every fixed record at its offset; a graph passes dnnmem_graph_check,
   is numbered topologically with the reader's own fields in range, and its
   lifetimes plan the same way; a DIMACS network has its ids in range, and on
   small ones both flow algorithms find the brute-force minimum cut;
   candidates have a machine, 1..256 layouts of one shape bound to it,
   distinct names, op kinds whose first candidate is allowed, and lines
   within the text.
   Dictionaries: fuzz/dict/csv.dict fuzz/dict/dimacs.dict fuzz/dict/candidates.dict
   Max length: 4096 (the seeds are whole files up to 4 KB)
   Needs stb_ds (Debian libstb-dev, <stb/stb_ds.h>) like the tool. */
#include <stdlib.h>
#include <string.h>

#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "fuzz.h"
#include "tests/ref.h"

#define STB_DS_IMPLEMENTATION
#include <stb/stb_ds.h>

#include "examples/dnnmem_files.h"

#define NAME "fuzz.txt"
#define ORACLE_NODES 9  /* ref_flow_min_cut brute force up to here */
#define ORACLE_ARCS 40
#define SOLVE_NODES 4096 /* flow networks solved up to here (scratch ~ 88 B/node) */
#define RECOUNT_RECORDS 256 /* ref_plan_recount is O(n^2) */

/* The lines a reader can name: 1 for an empty text, else one per '\n' plus
   an unterminated last line. */
static long line_count(const char *text, size_t len) {
  long lines = 0;
  size_t i;
  for (i = 0; i < len; i++) lines += text[i] == '\n';
  if (len == 0 || text[len - 1] != '\n') lines++;
  return lines;
}

static void check_error(const files_error *err, long lines) {
  FUZZ_CHECK(err->file && strcmp(err->file, NAME) == 0);
  FUZZ_CHECK(err->line >= 1 && err->line <= lines);
  FUZZ_CHECK(memchr(err->message, 0, sizeof(err->message)) != NULL && err->message[0] != 0);
}

/* A plan of valid records passes the checker and the recount. Greedy by
   size: fast on every input the reader accepts (best adds an exact search). */
static void check_plan(const dnnmem_intervals *problem) {
  dnnmem_plan_options options;
  dnnmem_plan_result result;
  size_t bytes = 0, check_bytes = 0, bound_bytes = 0;
  int64_t *offsets = (int64_t *)malloc(((size_t)problem->count + 1) * sizeof(int64_t)), arena = -1, bound = -1;
  dnnmem_plan_result checked;
  void *scratch;
  int32_t i;
  memset(&options, 0, sizeof(options));
  options.algo = DNNMEM_PLAN_GREEDY_SIZE;
  FUZZ_CHECK(dnnmem_intervals_check(problem, NULL) == DNNMEM_OK);
  FUZZ_CHECK(dnnmem_plan_solve_scratch_size(problem, &options, &bytes) == DNNMEM_OK);
  FUZZ_CHECK(dnnmem_plan_check_scratch_size(problem, &check_bytes) == DNNMEM_OK);
  FUZZ_CHECK(dnnmem_plan_lower_bound_scratch_size(problem, &bound_bytes) == DNNMEM_OK);
  if (check_bytes > bytes) bytes = check_bytes;
  if (bound_bytes > bytes) bytes = bound_bytes;
  scratch = malloc(bytes ? bytes : 1);
  FUZZ_CHECK(offsets && scratch);
  FUZZ_CHECK(dnnmem_plan_solve(problem, &options, offsets, &result, scratch, bytes) == DNNMEM_OK);
  FUZZ_CHECK(dnnmem_plan_check(problem, offsets, &checked, scratch, bytes) == DNNMEM_OK);
  arena = checked.arena;
  FUZZ_CHECK(arena == result.arena);
  FUZZ_CHECK(dnnmem_plan_lower_bound(problem, &checked, scratch, bytes) == DNNMEM_OK);
  bound = checked.lower_bound;
  FUZZ_CHECK(bound <= arena && result.lower_bound <= arena);
  for (i = 0; i < problem->count; i++)
    if (problem->records[i].flags & DNNMEM_INTERVAL_FIXED) FUZZ_CHECK(offsets[i] == problem->records[i].fixed_offset);
  if (problem->count <= RECOUNT_RECORDS) FUZZ_CHECK(ref_plan_recount(problem, offsets) == arena);
  free(scratch);
  free(offsets);
}

static void fuzz_intervals(char *text, size_t len, int64_t alignment, long lines) {
  files_intervals iv;
  files_error err;
  int symbolic = alignment == 64, k;
  static const char *const declared[1] = {"S=1..64"};
  if ((symbolic ? files_intervals_parse_symbolic(NAME, text, len, alignment, declared, 1, &iv, &err)
                : files_intervals_parse(NAME, text, len, alignment, &iv, &err)) != 0) {
    check_error(&err, lines);
    return;
  }
  FUZZ_CHECK(symbolic || iv.symbolic_line == 0);
  for (k = 0; iv.symbolic_line && k < 3; k++) { /* each S: the sizes, or an error naming a row */
    static const int64_t at[3][2] = {{0, 0}, {1, 1}, {1000, 1000}};
    if (files_intervals_at(&iv, at[k], &err) != 0) {
      check_error(&err, lines);
      files_intervals_free(&iv);
      return;
    }
    FUZZ_CHECK(dnnmem_intervals_check(&iv.problem, NULL) == DNNMEM_OK);
  }
  FUZZ_CHECK(iv.problem.records == iv.records && iv.problem.count == iv.n && iv.problem.alignment == alignment);
  FUZZ_CHECK(iv.n == (int32_t)arrlen(files_intervals_rows(&iv)->rows));
  FUZZ_CHECK(iv.is_graph == files_csv_is_graph(files_intervals_rows(&iv)));
  check_plan(&iv.problem);
  files_intervals_free(&iv);
}

static void fuzz_graph(char *text, size_t len, long lines) {
  files_graph g;
  files_error err;
  dnnmem_interval *records;
  dnnmem_intervals problem;
  int32_t v, k;
  if (files_graph_parse(NAME, text, len, &g, &err) != 0) {
    check_error(&err, lines);
    return;
  }
  FUZZ_CHECK(g.graph.num_nodes == g.n && g.n == (int32_t)arrlen(g.csv.rows));
  FUZZ_CHECK(dnnmem_graph_check(&g.graph, NULL) == DNNMEM_OK);
  FUZZ_CHECK(dnnmem_graph_is_topological(&g.graph) == 1);
  FUZZ_CHECK(g.in_offsets[g.n] == (int32_t)arrlen(g.in_ids));
  for (v = 0; v < g.n; v++) {
    FUZZ_CHECK(g.csv.rows[v].line >= 1 && g.csv.rows[v].line <= lines);
    FUZZ_CHECK(g.size[v] >= 0 && g.time[v] >= 0 && g.xfer[v] >= 0);
    FUZZ_CHECK(g.cpu_time[v] >= -1 && g.acc_time[v] >= -1);
    FUZZ_CHECK(g.device[v] == DNNMEM_PLACE_ANY || g.device[v] == DNNMEM_PLACE_CPU || g.device[v] == DNNMEM_PLACE_ACC);
    FUZZ_CHECK(g.output[v] <= 1);
    for (k = g.in_offsets[v]; k < g.in_offsets[v + 1]; k++) FUZZ_CHECK(g.in_ids[k] >= 0 && g.in_ids[k] < v);
  }
  /* the lifetimes the tool plans for a graph CSV */
  records = (dnnmem_interval *)calloc((size_t)g.n + 1, sizeof(dnnmem_interval));
  FUZZ_CHECK(records != NULL);
  FUZZ_CHECK(dnnmem_graph_intervals(&g.graph, g.size, g.output, records, NULL) == DNNMEM_OK);
  problem.records = records;
  problem.count = g.n;
  problem.alignment = 0;
  check_plan(&problem);
  free(records);
  files_graph_free(&g);
}

/* Both algorithms on the network: the same value, a valid flow's net out of
   the source; on tiny networks the brute-force minimum cut. */
static void check_flow(const files_dimacs *d) {
  size_t bytes = 0;
  void *scratch;
  dnnmem_flow flow;
  int64_t values[2] = {-1, -1};
  int32_t i, algo;
  if (d->num_nodes > SOLVE_NODES || d->num_arcs > SOLVE_NODES) return;
  FUZZ_CHECK(dnnmem_flow_scratch_size(d->num_nodes, d->num_arcs, &bytes) == DNNMEM_OK);
  scratch = malloc(bytes);
  FUZZ_CHECK(scratch && dnnmem_flow_init(&flow, d->num_nodes, d->num_arcs, scratch, bytes) == DNNMEM_OK);
  for (i = 0; i < d->num_arcs; i++)
    FUZZ_CHECK(dnnmem_flow_add_arc(&flow, d->from[i], d->to[i], d->capacity[i], 0, NULL) == DNNMEM_OK);
  for (algo = 0; algo < 2; algo++) {
    dnnmem_flow_options options;
    dnnmem_flow_result result;
    int64_t out = 0;
    memset(&options, 0, sizeof(options));
    options.algo = algo ? DNNMEM_FLOW_PUSH_RELABEL : DNNMEM_FLOW_BK;
    /* the reader checked the engine's one rule: the source's capacities sum */
    FUZZ_CHECK(dnnmem_flow_solve(&flow, d->source, d->sink, &options, &result) == DNNMEM_OK);
    for (i = 0; i < d->num_arcs; i++) {
      int64_t f = dnnmem_flow_arc_flow(&flow, i);
      FUZZ_CHECK(f >= 0 && f <= d->capacity[i]);
      if (d->from[i] == d->source && d->to[i] != d->source) out += f;
      if (d->to[i] == d->source && d->from[i] != d->source) out -= f;
    }
    FUZZ_CHECK(out == result.value);
    values[algo] = result.value;
  }
  FUZZ_CHECK(values[0] == values[1]);
  if (d->num_nodes <= ORACLE_NODES && d->num_arcs <= ORACLE_ARCS) {
    ref_flow_arc arcs[ORACLE_ARCS];
    for (i = 0; i < d->num_arcs; i++) {
      arcs[i].from = d->from[i];
      arcs[i].to = d->to[i];
      arcs[i].cap = d->capacity[i];
      arcs[i].rcap = 0;
    }
    FUZZ_CHECK(ref_flow_min_cut(arcs, d->num_arcs, d->num_nodes, d->source, d->sink) == values[0]);
  }
  free(scratch);
}

static void fuzz_dimacs(char *text, size_t len, long lines) {
  files_dimacs d;
  files_error err;
  int32_t i;
  if (files_dimacs_parse(NAME, text, len, &d, &err) != 0) { /* frees text */
    check_error(&err, lines);
    return;
  }
  FUZZ_CHECK(d.num_nodes >= 2 && d.num_arcs >= 0 && d.num_arcs == (int32_t)arrlen(d.from));
  FUZZ_CHECK(d.source >= 0 && d.source < d.num_nodes && d.sink >= 0 && d.sink < d.num_nodes);
  FUZZ_CHECK(d.source != d.sink);
  for (i = 0; i < d.num_arcs; i++) {
    FUZZ_CHECK(d.from[i] >= 0 && d.from[i] < d.num_nodes && d.to[i] >= 0 && d.to[i] < d.num_nodes);
    FUZZ_CHECK(d.capacity[i] >= 0 && d.arc_line[i] >= 1 && d.arc_line[i] <= lines);
  }
  check_flow(&d);
  files_dimacs_free(&d);
}

static void fuzz_candidates(char *text, size_t len, long lines) {
  files_candidates f;
  files_error err;
  int32_t i, j, l;
  if (files_candidates_parse(NAME, text, len, &f, &err) != 0) { /* frees text */
    check_error(&err, lines);
    return;
  }
  FUZZ_CHECK(f.machine_line >= 1 && f.machine_line <= lines && f.machine_text != NULL);
  FUZZ_CHECK(f.k >= 1 && f.k <= DNNMEM_LABEL_MAX_LABELS && f.output >= -1 && f.output < f.k);
  FUZZ_CHECK(f.bytes > 0 && f.lanes > 0 && f.run_ns >= 0 && f.moved_ns >= 0 && f.local_ns >= 0);
  for (i = 0; i < f.k; i++) {
    FUZZ_CHECK(f.lines[i] >= 1 && f.lines[i] <= lines && f.names[i][0] != 0);
    FUZZ_CHECK(f.layouts[i].num_axes == f.layouts[0].num_axes);
    for (j = 0; j < f.layouts[0].num_axes; j++) FUZZ_CHECK(f.layouts[i].unpadded[j] == f.layouts[0].unpadded[j]);
    for (j = 0; j < i; j++) FUZZ_CHECK(strcmp(f.names[i], f.names[j]) != 0);
  }
  for (i = 0; i < (int32_t)arrlen(f.kinds); i++) {
    const files_candidate_kind *e = &f.kinds[i];
    FUZZ_CHECK(e->line >= 1 && e->line <= lines && e->first >= 0 && e->first < f.k && e->factor[e->first] >= 0);
    for (l = f.k; l < DNNMEM_LABEL_MAX_LABELS; l++) FUZZ_CHECK(e->factor[l] < 0);
    for (j = 0; j < i; j++) FUZZ_CHECK(strcmp(e->kind, f.kinds[j].kind) != 0);
  }
  files_candidates_free(&f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  size_t len;
  char *text;
  long lines;
  unsigned format;
  if (size == 0) return 0;
  format = data[0] % 4u;
  len = size - 1;
  /* the readers take a malloc'd, NUL-terminated copy they own from now on */
  text = (char *)malloc(len + 1);
  FUZZ_CHECK(text != NULL);
  memcpy(text, data + 1, len);
  text[len] = 0;
  lines = line_count(text, len);
  if (data[0] == 'L') fuzz_candidates(text, len, lines);
  else if (format == 1) fuzz_graph(text, len, lines);
  else if (format == 2) fuzz_dimacs(text, len, lines);
  else fuzz_intervals(text, len, format == 3 ? 64 : 0, lines);
  return 0;
}

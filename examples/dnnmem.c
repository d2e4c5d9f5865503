/* dnnmem: the command-line tool of dnnmem.h.

   dnnmem <command> [options] OPERAND   (dnnmem --help lists the commands)

   Every command takes --json (one JSON object on stdout, nothing else) and
   --help (its usage, generated from its option table). Messages go to
   stderr. Exit codes, nothing else: 0 success, 1 usage error ("dnnmem CMD:
   what (try 'dnnmem CMD --help')"), 2 bad input ("FILE:LINE: what"; also an
   answer that fails the tool's own check, which would be a bug). Files are
   read by examples/dnnmem_files.h: minimalloc's intervals CSV, the dnnmem
   graph CSV and DIMACS max-flow files.

   Each command's library calls sit in one function named <command>_solve
   (or remat_prepare / remat_anneal / remat_bound), the only code to change
   when the library's API does. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define STB_DS_IMPLEMENTATION
#include <stb/stb_ds.h>

#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"
#include "dnnmem_files.h"

/* The tool is short-lived and lets the OS reclaim what it read; under
   AddressSanitizer (make test) leak reports would only be noise. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "detect_leaks=0"; }

#if defined(__GNUC__) || defined(__clang__)
#define CLI_NORETURN __attribute__((noreturn))
#else
#define CLI_NORETURN
#endif

#define CLI_RESULT_TEXT(r) dnnmem_result_text(r)
#define CLI_STRING_(x) #x
#define CLI_STRING(x) CLI_STRING_(x) /* a macro's value as a string literal */

/* ---- failing ------------------------------------------------------------ */

static const char *cli_command_name = "dnnmem"; /* the command being run */

static CLI_NORETURN void cli_usage_error(const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "dnnmem %s: ", cli_command_name);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, " (try 'dnnmem %s --help')\n", cli_command_name);
  exit(1);
}

/* Bad input: "FILE:LINE: message" ("FILE: message" for line 0), exit 2. */
static CLI_NORETURN void cli_input_error(const char *file, long line, const char *fmt, ...) {
  files_error err;
  va_list ap;
  err.file = file;
  err.line = line;
  va_start(ap, fmt);
  vsnprintf(err.message, sizeof(err.message), fmt, ap);
  va_end(ap);
  files_error_print(stderr, &err);
  exit(2);
}

static CLI_NORETURN void cli_file_error(const files_error *err) {
  files_error_print(stderr, err);
  exit(2);
}

/* A library error the readers could not foresee. */
static void cli_check(dnnmem_result r, const char *file) {
  if (r != DNNMEM_OK) cli_input_error(file, 0, "%s", CLI_RESULT_TEXT(r));
}

static void *cli_alloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p) {
    fprintf(stderr, "dnnmem: out of memory (%zu bytes)\n", bytes);
    exit(2);
  }
  return p;
}

static double cli_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Stop callback for time limits: user points at the deadline in ms. */
static int cli_deadline_passed(void *user) { return cli_now_ms() >= *(const double *)user; }

/* ---- options: one table per command, one parser, one usage generator ---- */

typedef struct cli_args {
  const char *operand;                  /* FILE, GRAPH or LAYOUT */
  int json, per_edge, dump, no_contraction, baselines, bound, curve, progress;
  const char *out, *svg, *algo, *machine, *devices;
  const char **symbol;                  /* stb_ds: every --symbol (one or two) */
  const char *candidates;               /* layoutplan --candidates */
  const char **at;                      /* stb_ds: every --at */
  const char **links;                   /* stb_ds: every --link */
  const char **pools;                   /* stb_ds: every --pool */
  int64_t align, nodes, capacity, budget, iterations, seed, max_length, bound_cuts;
  double time_limit, budget_ratio;
  int remat_plan;                       /* remat --plan */
  int peak_only;                        /* remat --peak-only */
  const char *inplace;                  /* plan --inplace */
  int64_t points;                       /* remat --points */
  const char *spacing;                  /* remat --spacing */
} cli_args;

/* Defaults where 0 would mean something: budget -1 = none given. */
static const cli_args cli_args_default = {.budget = -1, .seed = 1};

typedef enum cli_kind {
  CLI_FLAG,   /* int set to 1 */
  CLI_STRING, /* const char *, the last one given */
  CLI_LIST,   /* stb_ds array of const char *, repeatable */
  CLI_INT,    /* int64_t within [min, max] */
  CLI_SIZE,   /* bytes: CLI_INT with the units of files_parse_size (8k = 8192) */
  CLI_NUMBER  /* double, finite and > 0 */
} cli_kind;

typedef struct cli_option {
  const char *flag;
  const char *value; /* the value's name in the usage; NULL for CLI_FLAG */
  cli_kind kind;
  size_t dest;       /* offsetof(cli_args, field) */
  int64_t min, max;  /* CLI_INT */
  const char *help;  /* '\n' continues on the next line */
} cli_option;

#define CLI_ARG(field) offsetof(cli_args, field)

typedef struct cli_command {
  const char *name, *operand, *summary;
  const char *about;            /* the usage's paragraph */
  const cli_option *options;    /* ends with a NULL flag */
  const char *json;             /* --json's help: the fields */
  int (*run)(const cli_args *args);
} cli_command;

/* Prints text word-wrapped at 79 columns, continuation lines indented;
   the first line starts at column indent. */
static void cli_print_help_text(FILE *f, const char *text, int indent) {
  int column = indent, first = 1;
  while (*text) {
    int len = 0;
    while (*text == ' ' || *text == '\n') text++;
    while (text[len] && text[len] != ' ' && text[len] != '\n') len++;
    if (!len) break;
    if (!first && column + 1 + len > 79) column = fprintf(f, "\n%*s", indent, "") - 1;
    else if (!first) column += fprintf(f, " ");
    column += fprintf(f, "%.*s", len, text);
    text += len;
    first = 0;
  }
  fputc('\n', f);
}

static void cli_usage(FILE *f, const cli_command *c) {
  const cli_option *o;
  char head[64];
  fprintf(f, "usage: dnnmem %s [options] %s\n  ", c->name, c->operand);
  cli_print_help_text(f, c->about, 2);
  fprintf(f, "options:\n");
  for (o = c->options; o->flag; o++) {
    snprintf(head, sizeof(head), "%s%s%s", o->flag, o->value ? " " : "", o->value ? o->value : "");
    fprintf(f, "  %-18s ", head);
    cli_print_help_text(f, o->help, 21);
  }
  fprintf(f, "  %-18s ", "--json");
  cli_print_help_text(f, c->json, 21);
  fprintf(f, "  %-18s this text\n", "--help");
  fprintf(f, "exit codes: 0 ok, 1 usage error, 2 bad input (FILE:LINE: what)\n");
}

static int64_t cli_parse_int(const cli_option *o, const char *text) {
  const char *why;
  int64_t v;
  if ((o->kind == CLI_SIZE ? files_parse_size(text, &v, &why) : files_parse_i64(text, &v, &why)) != 0)
    cli_usage_error("%s: '%s' %s", o->flag, text, why);
  if (v < o->min || v > o->max) {
    if (o->max == INT64_MAX && o->min == 1) cli_usage_error("%s must be positive", o->flag);
    if (o->max == INT64_MAX) cli_usage_error("%s must be >= %lld", o->flag, (long long)o->min);
    cli_usage_error("%s must be in %lld..%lld", o->flag, (long long)o->min, (long long)o->max);
  }
  return v;
}

static double cli_parse_number(const cli_option *o, const char *text) {
  char *end;
  double v;
  errno = 0;
  v = strtod(text, &end);
  if (errno || end == text || *end || !isfinite(v)) cli_usage_error("%s: '%s' is not a number", o->flag, text);
  if (v <= 0) cli_usage_error("%s must be positive", o->flag);
  return v;
}

/* Stores one option's value into args. */
static void cli_store(const cli_option *o, const char *value, cli_args *args) {
  char *dest = (char *)args + o->dest;
  switch (o->kind) {
  case CLI_FLAG: *(int *)dest = 1; break;
  case CLI_STRING: *(const char **)dest = value; break;
  case CLI_LIST: arrput(*(const char ***)dest, value); break;
  case CLI_INT:
  case CLI_SIZE: *(int64_t *)dest = cli_parse_int(o, value); break;
  case CLI_NUMBER: *(double *)dest = cli_parse_number(o, value); break;
  }
}

static const cli_option *cli_find(const cli_command *c, const char *arg, size_t len) {
  const cli_option *o;
  for (o = c->options; o->flag; o++)
    if (strlen(o->flag) == len && strncmp(o->flag, arg, len) == 0) return o;
  return NULL;
}

/* The one argv parser: options (--flag VALUE or --flag=VALUE) anywhere,
   exactly one operand. --help prints the usage and exits 0. */
static void cli_parse(const cli_command *c, int argc, char **argv, cli_args *args) {
  int i;
  *args = cli_args_default;
  for (i = 1; i < argc; i++) {
    const char *arg = argv[i], *eq = strchr(arg, '=');
    size_t len = arg[0] == '-' && eq ? (size_t)(eq - arg) : strlen(arg);
    const cli_option *o = cli_find(c, arg, len);
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
      cli_usage(stdout, c);
      exit(0);
    } else if (strcmp(arg, "--json") == 0) {
      args->json = 1;
    } else if (o && !o->value && arg[len]) {
      cli_usage_error("%s takes no value", o->flag);
    } else if (o && !o->value) {
      cli_store(o, NULL, args);
    } else if (o && arg[len]) {
      cli_store(o, arg + len + 1, args);
    } else if (o) {
      if (i + 1 >= argc) cli_usage_error("%s needs a value (%s)", o->flag, o->value);
      cli_store(o, argv[++i], args);
    } else if (arg[0] == '-' && arg[1]) {
      cli_usage_error("unknown option '%s'", arg);
    } else if (args->operand) {
      cli_usage_error("one %s only", c->operand);
    } else {
      args->operand = arg;
    }
  }
  if (!args->operand) cli_usage_error("missing %s", c->operand);
  /* "-" reads standard input; as an output it made a file named "-" */
  if (args->out && strcmp(args->out, "-") == 0)
    cli_usage_error("--out -: standard output carries the summary (or the JSON); name a file");
  if (args->svg && strcmp(args->svg, "-") == 0)
    cli_usage_error("--svg -: standard output carries the summary (or the JSON); name a file");
}

/* --algo of flow and place: the max-flow algorithm. */
static dnnmem_flow_algo cli_flow_algo(const char *name) {
  dnnmem_flow_algo algo = DNNMEM_FLOW_BK;
  if (name && dnnmem_flow_algo_parse(name, &algo) != DNNMEM_OK)
    cli_usage_error("unknown --algo '%s' (bk or pr)", name);
  return algo;
}

/* ---- JSON output -------------------------------------------------------- */

static int cli_json_fields; /* fields printed in the current object */

static void cli_json_begin(void) {
  printf("{");
  cli_json_fields = 0;
}
static void cli_json_key(const char *key) { printf("%s\"%s\": ", cli_json_fields++ ? ", " : "", key); }
static void cli_json_string_value(const char *s) {
  putchar('"');
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') printf("\\%c", c);
    else if (c < 0x20) printf("\\u%04x", c);
    else putchar(c);
  }
  putchar('"');
}
static void cli_json_int(const char *key, int64_t v) {
  cli_json_key(key);
  printf("%lld", (long long)v);
}
static void cli_json_double(const char *key, double v) {
  cli_json_key(key);
  if (isfinite(v)) printf("%.6g", v);
  else printf("null");
}
static void cli_json_bool(const char *key, int v) {
  cli_json_key(key);
  printf(v ? "true" : "false");
}
static void cli_json_string(const char *key, const char *s) {
  cli_json_key(key);
  cli_json_string_value(s);
}
static void cli_json_end(void) { printf("}\n"); }

/* --algo best (or none given: best) names the strategy that won: JSON
   "algo": "best" and "won_by", text "best (won by pathcover)". */
static int cli_asked_best(const cli_args *a) { return !a->algo || strcmp(a->algo, "best") == 0; }
static const char *cli_algo_text(const cli_args *a, const char *won, char *buf, size_t size) {
  if (!cli_asked_best(a) || strcmp(won, "best") == 0) return won;
  snprintf(buf, size, "best (won by %s)", won);
  return buf;
}
static void cli_json_algo(const cli_args *a, const char *won) {
  cli_json_string("algo", cli_asked_best(a) ? "best" : won);
  if (cli_asked_best(a)) cli_json_string("won_by", won);
}

/* ---- output files ------------------------------------------------------- */

/* Writes the input rows with one more column (or that column replaced):
   values[i] for row i, or labels[values[i]] when labels is not NULL. */
static void cli_write_column(const files_csv *csv, const char *out_path, const char *column,
                             const int64_t *values, const char *const *labels) {
  FILE *f = fopen(out_path, "w");
  int c = files_column(csv, column), j, ncol = (int)arrlen(csv->columns);
  int32_t i;
  if (!f) cli_input_error(out_path, 0, "cannot write: %s", strerror(errno));
  for (j = 0; j < ncol; j++) fprintf(f, "%s%s", j ? "," : "", csv->columns[j]);
  fprintf(f, c < 0 ? ",%s\n" : "\n", column);
  for (i = 0; i < (int32_t)arrlen(csv->rows); i++) {
    for (j = 0; j <= ncol; j++) {
      if (j == ncol && c >= 0) break;
      if (j) fputc(',', f);
      if (j != c && j != ncol) fputs(files_cell(csv, i, j), f);
      else if (labels) fputs(labels[values[i]], f);
      else fprintf(f, "%lld", (long long)values[i]);
    }
    fputc('\n', f);
  }
  if (fclose(f) != 0) cli_input_error(out_path, 0, "write failed: %s", strerror(errno));
}

static void cli_read_intervals(const char *path, int64_t alignment, files_intervals *iv) {
  files_error err;
  if (files_read_intervals(path, alignment, iv, &err) != 0) cli_file_error(&err);
}

/* plan's reader: sizes may be polynomials (--symbol). */
static void cli_read_intervals_symbolic(const char *path, int64_t alignment, const char *const *symbols,
                                        int32_t n_symbols, files_intervals *iv) {
  files_error err;
  if (files_read_intervals_symbolic(path, alignment, symbols, n_symbols, iv, &err) != 0) cli_file_error(&err);
}

/* A use that takes no reuse or alias links: the first linked row is named. */
static void cli_refuse_links(const char *path, const files_intervals *iv, const char *why) {
  if (iv->links > 0) cli_input_error(path, files_intervals_line(iv, files_intervals_first_link(iv)), "%s", why);
}

/* A graph CSV with at least the columns need (comma-separated) that who reads. */
static void cli_read_graph(const char *path, files_graph *g, const char *need, const char *who) {
  files_error err;
  if (files_read_graph(path, g, &err) != 0 || files_graph_need(g, need, who, &err) != 0) cli_file_error(&err);
}

/* ---- flow ----------------------------------------------------------------- */

static const cli_option flow_options[] = {
    {"--algo", "A", CLI_STRING, CLI_ARG(algo), 0, 0, "bk (Boykov-Kolmogorov, default) or pr (push-relabel)"},
    {NULL, NULL, CLI_FLAG, 0, 0, 0, NULL}};

typedef struct flow_answer {
  int64_t value;
  int32_t source_side;
  double ms;
} flow_answer;

/* Library calls of flow. */
static void flow_solve(const char *file, const files_dimacs *d, const dnnmem_flow_options *options,
                       flow_answer *ans) {
  dnnmem_flow flow;
  dnnmem_flow_result result;
  size_t bytes = 0;
  void *scratch;
  int32_t i;
  double t0;
  cli_check(dnnmem_flow_scratch_size(d->num_nodes, d->num_arcs, &bytes), file);
  scratch = cli_alloc(bytes);
  cli_check(dnnmem_flow_init(&flow, d->num_nodes, d->num_arcs, scratch, bytes), file);
  for (i = 0; i < d->num_arcs; i++)
    cli_check(dnnmem_flow_add_arc(&flow, d->from[i], d->to[i], d->capacity[i], 0, NULL), file);
  t0 = cli_now_ms();
  cli_check(dnnmem_flow_solve(&flow, d->source, d->sink, options, &result), file);
  ans->value = result.value;
  ans->ms = cli_now_ms() - t0;
  for (ans->source_side = 0, i = 0; i < d->num_nodes; i++) ans->source_side += dnnmem_flow_source_side(&flow, i);
  free(scratch);
}

static int cmd_flow(const cli_args *a) {
  dnnmem_flow_options options;
  files_dimacs d;
  files_error err;
  flow_answer ans;
  memset(&options, 0, sizeof(options));
  options.algo = cli_flow_algo(a->algo);
  if (files_read_dimacs(a->operand, &d, &err) != 0) cli_file_error(&err);
  flow_solve(a->operand, &d, &options, &ans);
  if (a->json) {
    cli_json_begin();
    cli_json_int("n", d.num_nodes);
    cli_json_int("m", d.num_arcs);
    cli_json_int("flow", ans.value);
    cli_json_string("algo", dnnmem_flow_algo_name(options.algo));
    cli_json_int("source_side", ans.source_side);
    cli_json_double("time_ms", ans.ms);
    cli_json_end();
  } else {
    printf("max flow %lld (%d nodes, %d arcs, %d nodes on the source side) in %.3f ms\n",
           (long long)ans.value, d.num_nodes, d.num_arcs, ans.source_side, ans.ms);
  }
  files_dimacs_free(&d);
  return 0;
}

/* ---- cover ---------------------------------------------------------------- */

static const cli_option cover_options[] = {
    {"--out", "F", CLI_STRING, CLI_ARG(out), 0, 0, "write the input rows plus a 'group' column"},
    {NULL, NULL, CLI_FLAG, 0, 0, 0, NULL}};

typedef struct cover_event {
  int64_t time;
  int delta; /* -1 (an end) sorts before +1 (a start) at the same time */
} cover_event;

static int cover_event_cmp(const void *a, const void *b) {
  const cover_event *x = (const cover_event *)a, *y = (const cover_event *)b;
  if (x->time != y->time) return x->time < y->time ? -1 : 1;
  return x->delta - y->delta;
}

/* The maximum number of records alive at one time, by a sweep: counted here
   independently of the grouping, as a check of the theorem groups = it. */
static int32_t cover_overlap_max(const dnnmem_interval *records, int32_t n) {
  cover_event *ev = (cover_event *)cli_alloc(2 * (size_t)n * sizeof(cover_event));
  int32_t i, alive = 0, best = 0;
  for (i = 0; i < n; i++) {
    ev[2 * i].time = records[i].lower;
    ev[2 * i].delta = 1;
    ev[2 * i + 1].time = records[i].upper;
    ev[2 * i + 1].delta = -1;
  }
  qsort(ev, 2 * (size_t)n, sizeof(cover_event), cover_event_cmp);
  for (i = 0; i < 2 * n; i++) {
    alive += ev[i].delta;
    if (alive > best) best = alive;
  }
  free(ev);
  return best;
}

typedef struct cover_answer {
  int64_t *group_of; /* n */
  int32_t groups;
  double ms;
  /* graphs: W, the pathcover plan of the lifetimes [i, last consumer + 1)
     (outputs not extended) and the bound arena <= 2 W max_size */
  int32_t w;
  int64_t max_size, arena, bound;
} cover_answer;

/* Library calls of cover: the grouping; for a graph also W and the plan. */
static void cover_solve(const char *file, const files_intervals *iv, cover_answer *ans) {
  const files_graph *g = &iv->graph;
  int32_t n = iv->n, i, *group_of = (int32_t *)cli_alloc((size_t)n * sizeof(int32_t));
  dnnmem_interval *records = (dnnmem_interval *)cli_alloc((size_t)n * sizeof(dnnmem_interval));
  int64_t *offsets = (int64_t *)cli_alloc((size_t)n * sizeof(int64_t));
  dnnmem_plan_options options = {.algo = DNNMEM_PLAN_PATHCOVER};
  dnnmem_intervals lifetimes = {records, n, 0};
  dnnmem_plan_result result;
  dnnmem_cover_result paths;
  dnnmem_plan_chains_result chained;
  size_t bytes = 0;
  void *scratch;
  double t0 = cli_now_ms();
  cli_check(dnnmem_plan_chains_scratch_size(&iv->problem, &bytes), file);
  scratch = cli_alloc(bytes);
  cli_check(dnnmem_plan_chains(&iv->problem, group_of, NULL, &chained, scratch, bytes), file);
  ans->groups = chained.groups;
  ans->ms = cli_now_ms() - t0;
  free(scratch);
  ans->group_of = (int64_t *)cli_alloc((size_t)n * sizeof(int64_t));
  for (i = 0; i < n; i++) ans->group_of[i] = group_of[i];
  if (iv->is_graph) {
    cli_check(dnnmem_cover_edges_scratch_size(&g->graph, NULL, &bytes), file);
    scratch = cli_alloc(bytes);
    cli_check(dnnmem_cover_edges(&g->graph, NULL, NULL, NULL, NULL, 0, &paths, scratch, bytes), file);
    ans->w = paths.paths;
    free(scratch);
    cli_check(dnnmem_graph_intervals(&g->graph, g->size, NULL, records, NULL), file);
    cli_check(dnnmem_plan_solve_scratch_size(&lifetimes, &options, &bytes), file);
    scratch = cli_alloc(bytes);
    cli_check(dnnmem_plan_solve(&lifetimes, &options, offsets, &result, scratch, bytes), file);
    ans->arena = result.arena;
    free(scratch);
  }
  free(group_of);
  free(records);
  free(offsets);
}

static void cover_graph_bound(const files_graph *g, cover_answer *ans) {
  int32_t v;
  for (ans->max_size = 0, v = 0; v < g->n; v++)
    if (g->size[v] > ans->max_size) ans->max_size = g->size[v];
  ans->bound = ans->max_size > 0 && 2 * (int64_t)ans->w > INT64_MAX / ans->max_size
                   ? INT64_MAX
                   : 2 * (int64_t)ans->w * ans->max_size;
}

static void cover_print(const cli_args *a, const files_intervals *iv, const cover_answer *ans, int32_t overlap) {
  if (a->json) {
    cli_json_begin();
    cli_json_int("n", iv->n);
    cli_json_int("groups", ans->groups);
    cli_json_int("overlap_max", overlap);
    cli_json_double("time_ms", ans->ms);
    if (iv->is_graph) {
      cli_json_int("w", ans->w);
      cli_json_int("max_size", ans->max_size);
      cli_json_int("pathcover_arena", ans->arena);
      cli_json_int("bound", ans->bound);
      cli_json_bool("bound_holds", ans->arena <= ans->bound);
    }
    cli_json_end();
  } else {
    printf("%d records in %d chains of lifetimes that never overlap (the most live at once: %d), %.3f ms\n", iv->n,
           ans->groups, overlap, ans->ms);
    if (iv->is_graph)
      printf("W = %d paths cover every edge; LeapMind's bound: the pathcover plan's arena %lld %s 2 x W x the\n"
             "largest tensor (%lld) = %lld bytes%s\n",
             ans->w, (long long)ans->arena, ans->arena <= ans->bound ? "<=" : ">", (long long)ans->max_size,
             (long long)ans->bound, ans->arena <= ans->bound ? "" : " (the bound does not hold)");
  }
}

static int cmd_cover(const cli_args *a) {
  files_intervals iv;
  cover_answer ans;
  int32_t overlap;
  memset(&ans, 0, sizeof(ans));
  cli_read_intervals(a->operand, 0, &iv);
  if (iv.is_graph && iv.n == 0)
    cli_input_error(a->operand, iv.graph.csv.header_line, "empty graph (no rows after the header)");
  cover_solve(a->operand, &iv, &ans);
  overlap = cover_overlap_max(iv.records, iv.n);
  if (overlap != ans.groups)
    cli_input_error(a->operand, 0, "internal error: %d groups but overlap_max %d (a bug)", ans.groups, overlap);
  if (iv.is_graph) {
    cover_graph_bound(&iv.graph, &ans);
    if (ans.arena > ans.bound)
      fprintf(stderr, "dnnmem cover: pathcover arena %lld > 2 W max_size = %lld (isolated vertices are outside the theorem)\n",
              (long long)ans.arena, (long long)ans.bound);
  }
  if (a->out) cli_write_column(files_intervals_rows(&iv), a->out, "group", ans.group_of, NULL);
  cover_print(a, &iv, &ans, overlap);
  free(ans.group_of);
  files_intervals_free(&iv);
  return 0;
}

/* Writes a picture of a plan: time across, offset up, one rectangle per
   record, the lower bound as a dashed line, the arena labelled. */
static void cli_plan_svg(const char *path, const char *title, const dnnmem_interval *r, int32_t n,
                         const int64_t *off, int64_t arena, int64_t bound) {
  const double W = 960, H = 540, left = 70, top = 40, right = 20, bottom = 40;
  double pw = W - left - right, ph = H - top - bottom, sx, sy;
  int64_t t0 = 0, t1 = 1, ymax = arena > bound ? arena : bound;
  int32_t i;
  FILE *f = fopen(path, "w");
  if (!f) cli_input_error(path, 0, "cannot write: %s", strerror(errno));
  if (n > 0) {
    t0 = r[0].lower, t1 = r[0].upper;
    for (i = 1; i < n; i++) {
      if (r[i].lower < t0) t0 = r[i].lower;
      if (r[i].upper > t1) t1 = r[i].upper;
    }
  }
  if (ymax <= 0) ymax = 1;
  sx = pw / ((double)t1 - (double)t0); /* in double: t1 - t0 may not fit */
  sy = ph / (double)ymax;
  fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
             "font-family=\"sans-serif\" font-size=\"12\">\n", W, H);
  fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
  fprintf(f, "<text x=\"%.0f\" y=\"20\" font-size=\"14\">", left);
  for (; *title; title++) {
    if (*title == '<') fputs("&lt;", f);
    else if (*title == '&') fputs("&amp;", f);
    else fputc(*title, f);
  }
  fprintf(f, ": arena %lld bytes, lower bound %lld (%.2f%%)</text>\n", (long long)arena,
          (long long)bound, bound > 0 ? 100.0 * (double)arena / (double)bound : 100.0);
  for (i = 0; i < n; i++) {
    double x = left + ((double)r[i].lower - (double)t0) * sx;
    double w = ((double)r[i].upper - (double)r[i].lower) * sx;
    double h = (double)r[i].size * sy, y = top + ph - (double)(off[i] + r[i].size) * sy;
    unsigned hue = (unsigned)(i * 137u) % 360u;
    fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"hsl(%u,65%%,62%%)\" "
               "stroke=\"#333\" stroke-width=\"0.3\"><title>record %d: [%lld, %lld) size %lld at %lld</title></rect>\n",
            x, y, w, h, hue, (int)i, (long long)r[i].lower, (long long)r[i].upper,
            (long long)r[i].size, (long long)off[i]);
  }
  fprintf(f, "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.2f\" y2=\"%.2f\" stroke=\"red\" stroke-dasharray=\"6 4\"/>\n",
          left, left + pw, top + ph - (double)bound * sy, top + ph - (double)bound * sy);
  fprintf(f, "<text x=\"%.0f\" y=\"%.2f\" fill=\"red\" text-anchor=\"end\">lower bound</text>\n",
          left + pw, top + ph - (double)bound * sy - 4);
  fprintf(f, "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.2f\" y2=\"%.2f\" stroke=\"black\"/>\n", left, left + pw,
          top + ph - (double)arena * sy, top + ph - (double)arena * sy);
  fprintf(f, "<text x=\"%.0f\" y=\"%.2f\" text-anchor=\"end\">%lld</text>\n", left - 4,
          top + ph - (double)arena * sy + 4, (long long)arena);
  fprintf(f, "<text x=\"%.0f\" y=\"%.2f\" text-anchor=\"end\">0</text>\n", left - 4, top + ph + 4);
  fprintf(f, "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.2f\" y2=\"%.2f\" stroke=\"black\"/>\n", left, left + pw,
          top + ph, top + ph);
  fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">time %lld</text><text x=\"%.0f\" y=\"%.0f\" text-anchor=\"end\">%lld</text>\n",
          left, H - 12, (long long)t0, left + pw, H - 12, (long long)t1);
  fprintf(f, "<text x=\"14\" y=\"%.0f\" transform=\"rotate(-90 14 %.0f)\" text-anchor=\"middle\">offset (bytes)</text>\n",
          top + ph / 2, top + ph / 2);
  fprintf(f, "</svg>\n");
  if (fclose(f) != 0) cli_input_error(path, 0, "write failed: %s", strerror(errno));
}

static const cli_option plan_options[] = {
    {"--algo", "A", CLI_STRING, CLI_ARG(algo), 0, 0,
     "best (default), naive, greedy-size, greedy-breadth, sorted-height,\n"
     "pathcover, bestfit, greedy-tflm (TensorFlow Lite Micro's offsets),\n"
     "exact (minimum arena, proven when it completes)"},
    {"--align", "N", CLI_SIZE, CLI_ARG(align), 1, INT64_MAX, "every offset a multiple of N (a power of two)"},
    {"--time-limit", "S", CLI_NUMBER, CLI_ARG(time_limit), 0, 0, "stop the exact search after S seconds (best plan so far)"},
    {"--nodes", "N", CLI_INT, CLI_ARG(nodes), 1, INT64_MAX, "stop the exact search after N nodes (best: " CLI_STRING(DNNMEM_PLAN_BEST_NODES) ", or 8 per record when more, by default)"},
    {"--capacity", "C", CLI_SIZE, CLI_ARG(capacity), 1, INT64_MAX,
     "is there a plan within C bytes? (JSON feasible: true, false or\n\"unknown\"; with exact the search answers it). When there is none:\nrecords that alone cannot fit (JSON conflict, conflict_minimal)"},
    {"--symbol", "S=LO..HI", CLI_LIST, CLI_ARG(symbol), 0, 0,
     "sizes are polynomials in S (4096*S^2+512*S+64): one plan for every\nS in LO..HI (a stacking; JSON worst_ratio, arena at both ends).\n"
     "Twice (H and W, \"96*H*W+8\"): one plan for the box, its worst ratio\nmeasured on a grid of up to 32 x 32 points"},
    {"--at", "S=V", CLI_LIST, CLI_ARG(at), 0, 0, "with --symbol: the offsets at S = V (--out, --svg, JSON arena);\none per symbol"},
    {"--out", "F", CLI_STRING, CLI_ARG(out), 0, 0,
     "write the input rows plus an 'offset' column (--symbol without\n--at: 'rank' and 'below', the stacking)"},
    {"--svg", "F", CLI_STRING, CLI_ARG(svg), 0, 0, "write a picture of the plan"},
    {"--inplace", "K", CLI_STRING, CLI_ARG(inplace), 0, 0,
     "graph CSV: declare in-place reuse for ops of kind K: elementwise\n"
     "(relu, add, mul, sigmoid, gelu, silu, ...: the output may overwrite\n"
     "its first input where that input dies, same size; the planner\n"
     "decides which to use). An intervals CSV declares its own with the\n"
     "columns 'reuse' and 'alias' (ids)"},
    {"--pool", "NAME=C[:COST]", CLI_LIST, CLI_ARG(pools), 0, 0,
     "plan into pools (repeatable, in preference order): capacity C bytes (0:\n"
     "unbounded), COST per byte (default 1); the least total cost. An\n"
     "intervals CSV column 'pools' lists the names a record may use (in its\n"
     "preference order; empty: all). --algo best, greedy (TVM USMP's),\n"
     "improve, exact. --out adds 'pool'; JSON cost, pools [{name, capacity,\n"
     "cost, arena, bytes}], lower_bound and optimal of the cost"},
    {NULL, NULL, CLI_FLAG, 0, 0, 0, NULL}};

static const cli_option share_options[] = {
    {"--algo", "A", CLI_STRING, CLI_ARG(algo), 0, 0,
     "best (default), greedy-size, greedy-size-improved, greedy-breadth,\ngreedy-order"},
    {"--out", "F", CLI_STRING, CLI_ARG(out), 0, 0, "write the input rows plus an 'object' column"},
    {NULL, NULL, CLI_FLAG, 0, 0, 0, NULL}};

/* Library calls of plan: the plan, then an independent check of it. */
static void plan_solve(const char *file, const files_intervals *iv, const dnnmem_plan_options *opt,
                       int64_t *offsets, dnnmem_plan_result *res, double *ms) {
  dnnmem_plan_result checked;
  size_t bytes = 0, check_bytes = 0;
  void *scratch;
  dnnmem_result r;
  cli_check(dnnmem_plan_solve_scratch_size(&iv->problem, opt, &bytes), file);
  cli_check(dnnmem_plan_check_scratch_size(&iv->problem, &check_bytes), file);
  scratch = cli_alloc(bytes > check_bytes ? bytes : check_bytes);
  *ms = cli_now_ms();
  cli_check(dnnmem_plan_solve(&iv->problem, opt, offsets, res, scratch, bytes), file);
  *ms = cli_now_ms() - *ms;
  r = dnnmem_plan_check(&iv->problem, offsets, &checked, scratch, check_bytes);
  if (r != DNNMEM_OK || checked.arena != res->arena)
    cli_input_error(file, 0, "internal error: the plan fails its check (%s, records %d %d)",
                    CLI_RESULT_TEXT(r), checked.error.index, checked.error.other);
  free(scratch);
}

/* Why a capacity cannot be met (plan --capacity, proven infeasible): a
   conflict set by dnnmem_plan_conflict, its decisions bounded by --nodes
   (default CLI_CONFLICT_NODES each) and --time-limit (counted afresh). */
#define CLI_CONFLICT_NODES 1000000
typedef struct plan_conflict_answer {
  int32_t *ids; /* result.count record indexes, ascending */
  dnnmem_plan_conflict_result result;
  double ms;
} plan_conflict_answer;

static void plan_conflict(const char *file, const files_intervals *iv, const dnnmem_plan_options *plan_opt,
                          double time_limit, plan_conflict_answer *c) {
  dnnmem_plan_options opt = *plan_opt;
  double deadline = cli_now_ms() + time_limit * 1e3;
  size_t bytes = 0;
  void *scratch;
  if (opt.node_limit == 0) opt.node_limit = CLI_CONFLICT_NODES;
  if (time_limit > 0) opt.stop = cli_deadline_passed, opt.stop_user = &deadline;
  c->ids = (int32_t *)cli_alloc(((size_t)iv->n + 1) * sizeof(int32_t));
  cli_check(dnnmem_plan_conflict_scratch_size(&iv->problem, &opt, &bytes), file);
  scratch = cli_alloc(bytes);
  c->ms = cli_now_ms();
  cli_check(dnnmem_plan_conflict(&iv->problem, &opt, c->ids, iv->n, &c->result, scratch, bytes), file);
  c->ms = cli_now_ms() - c->ms;
  free(scratch);
}

/* The id column's value of record i (its index where there is none). */
static const char *plan_record_id(const files_intervals *iv, int32_t i, char *buf, size_t size) {
  const files_csv *rows = files_intervals_rows(iv);
  int col = files_column(rows, "id");
  if (col >= 0) return files_cell(rows, i, col);
  snprintf(buf, size, "%d", (int)i);
  return buf;
}

/* JSON links and reused: the reuse links a plan uses (B at A's offset, in
   A's pool when pool_of is given). */
static void plan_json_links(const files_intervals *iv, const int64_t *offsets, const int32_t *pool_of) {
  char buf[16], buf2[16];
  int32_t k;
  int first = 1;
  cli_json_int("links", iv->links);
  cli_json_key("reused");
  printf("[");
  for (k = 0; k < iv->n; k++) {
    int32_t b = iv->records[k].reuse;
    if (!(iv->records[k].flags & DNNMEM_INTERVAL_REUSE) || offsets[k] != offsets[b] || (pool_of && pool_of[k] != pool_of[b]))
      continue;
    printf(first ? "[" : ", [");
    cli_json_string_value(plan_record_id(iv, k, buf, sizeof buf));
    printf(", ");
    cli_json_string_value(plan_record_id(iv, b, buf2, sizeof buf2));
    printf("]");
    first = 0;
  }
  printf("]");
}

/* The text line of a plan with links. */
static void plan_print_links(const files_intervals *iv, int32_t reused) {
  int32_t k, declared = 0;
  for (k = 0; k < iv->n; k++) declared += (iv->records[k].flags & DNNMEM_INTERVAL_REUSE) != 0;
  printf("links: %d records linked; in place: %d of %d reuse links used\n", iv->links, reused, declared);
}

/* JSON conflict, conflict_minimal, conflict_decisions, conflict_time_ms
   when a conflict was found. */
static void plan_json_conflict(const files_intervals *iv, const plan_conflict_answer *c) {
  char buf[16];
  int32_t k;
  if (!c || c->result.feasible != 0) return;
  cli_json_key("conflict");
  printf("[");
  for (k = 0; k < c->result.count; k++) {
    printf(k ? ", " : "");
    cli_json_string_value(plan_record_id(iv, c->ids[k], buf, sizeof buf));
  }
  printf("]");
  cli_json_bool("conflict_minimal", c->result.minimal);
  cli_json_int("conflict_decisions", c->result.decisions);
  cli_json_double("conflict_time_ms", c->ms);
}

/* The text line of a conflict: records that alone cannot fit WHAT. */
static void plan_print_conflict(const files_intervals *iv, const plan_conflict_answer *c, const char *what,
                                const char *unit) {
  char buf[16];
  int32_t k;
  printf("conflict: %d records that alone cannot fit %s%s (%s, %d decisions, %.2f ms):", c->result.count, what, unit,
         c->result.minimal ? "minimal" : "not proven minimal", c->result.decisions, c->ms);
  for (k = 0; k < c->result.count; k++) printf(" %s", plan_record_id(iv, c->ids[k], buf, sizeof buf));
  printf("\n");
}

static void plan_print(const cli_args *a, const files_intervals *iv, const int64_t *offsets,
                       const dnnmem_plan_result *res, double ms, const plan_conflict_answer *c) {
  char buf[24], algo[64];
  if (a->json) {
    cli_json_begin();
    cli_json_int("n", iv->n);
    cli_json_algo(a, dnnmem_plan_algo_name(res->algo));
    cli_json_int("arena", res->arena);
    cli_json_int("lower_bound", res->lower_bound);
    cli_json_bool("optimal", res->optimal);
    cli_json_double("time_ms", ms);
    if (a->capacity > 0) {
      cli_json_int("capacity", a->capacity);
      if (res->feasible < 0) cli_json_string("feasible", "unknown");
      else cli_json_bool("feasible", res->feasible);
    }
    cli_json_int("nodes", res->nodes);
    cli_json_string("stop", dnnmem_plan_stop_name(res->stop));
    cli_json_bool("degraded", res->degraded);
    if (iv->links > 0) plan_json_links(iv, offsets, NULL);
    plan_json_conflict(iv, c);
    cli_json_end();
    return;
  }
  printf("%s: %d records, %s: arena %lld bytes, lower bound %lld (%.3fx)%s, %.2f ms\n", files_display_name(a->operand), iv->n,
         cli_algo_text(a, dnnmem_plan_algo_name(res->algo), algo, sizeof algo), (long long)res->arena, (long long)res->lower_bound,
         res->lower_bound ? (double)res->arena / (double)res->lower_bound : 1.0, res->optimal ? ", optimal" : "", ms);
  if (iv->links > 0) plan_print_links(iv, res->reused);
  if (a->capacity > 0)
    printf("capacity %lld: %s\n", (long long)a->capacity,
           res->feasible > 0 ? "feasible" : res->feasible == 0 ? "infeasible (proven)" : "unknown");
  if (res->stop != DNNMEM_PLAN_STOP_NONE && res->stop != DNNMEM_PLAN_STOP_PROVED)
    printf("search stopped: %s (%lld nodes)%s\n",
           res->stop == DNNMEM_PLAN_STOP_TIME ? "time limit" : res->stop == DNNMEM_PLAN_STOP_NODES ? "node limit"
                                                                                               : "incomplete (gaps)",
           (long long)res->nodes, res->degraded ? "; the undo log filled, deeper nodes recounted" : "");
  if (c && c->result.feasible == 0) {
    snprintf(buf, sizeof buf, "%lld", (long long)a->capacity);
    plan_print_conflict(iv, c, buf, " bytes");
  }
}

/* Library calls of multi-pass planning: pass after pass (each around the
   earlier ones), the whole checked, and the one-shot plan it is priced
   against. pass_arena[k] is the arena after the k-th pass planned. */
static void plan_passes(const char *file, const files_intervals *iv, const dnnmem_plan_options *opt,
                        const int32_t *passes, int32_t num_passes, int64_t *offsets, int64_t *pass_arena,
                        dnnmem_plan_result *res, dnnmem_plan_result *one_shot, double *ms) {
  int64_t *scratch_offsets = (int64_t *)cli_alloc(((size_t)iv->n + 1) * sizeof(int64_t));
  dnnmem_plan_result checked;
  int32_t k, i;
  size_t bytes = 0, need;
  void *scratch = NULL;
  dnnmem_result r;
  cli_check(dnnmem_plan_solve_scratch_size(&iv->problem, opt, &bytes), file);
  cli_check(dnnmem_plan_check_scratch_size(&iv->problem, &need), file);
  if (need > bytes) bytes = need;
  for (k = 0; k < num_passes; k++) {
    cli_check(dnnmem_plan_pass_scratch_size(&iv->problem, opt, passes[k], &need), file);
    if (need > bytes) bytes = need;
  }
  scratch = cli_alloc(bytes);
  *ms = cli_now_ms();
  for (k = 0; k < num_passes; k++) {
    r = dnnmem_plan_pass(&iv->problem, opt, passes[k], offsets, res, scratch, bytes);
    if (r == DNNMEM_ERR_PLAN_PASS_ORDER) { /* this pass starts before an earlier one: its first row */
      int32_t first = -1;
      for (i = 0; i < iv->n; i++)
        if (iv->records[i].pass == passes[k] && (first < 0 || iv->records[i].lower < iv->records[first].lower))
          first = i;
      cli_input_error(file, files_intervals_line(iv, first),
                      "pass %d starts at step %lld, before an earlier pass (passes are planned in time order)",
                      (int)passes[k], (long long)iv->records[first].lower);
    }
    cli_check(r, file);
    pass_arena[k] = res->arena;
  }
  *ms = cli_now_ms() - *ms;
  r = dnnmem_plan_check(&iv->problem, offsets, &checked, scratch, bytes);
  if (r != DNNMEM_OK || checked.arena != res->arena)
    cli_input_error(file, 0, "internal error: the plan fails its check (%s, records %d %d)",
                    CLI_RESULT_TEXT(r), checked.error.index, checked.error.other);
  cli_check(dnnmem_plan_solve(&iv->problem, opt, scratch_offsets, one_shot, scratch, bytes), file);
  free(scratch_offsets);
  free(scratch);
}

/* The symbolic problem of a file whose sizes are polynomials. */
typedef struct plan_symbolic_input {
  dnnmem_plan_symbolic problem;
  int64_t *coefficients; /* n x terms */
  char name[32];
  int64_t unit;          /* the problem's S is the symbol / unit (sizes over denominators) */
} plan_symbolic_input;

/* "S=LO..HI" (--symbol) or "S=V" (--at, hi NULL). */
static void plan_symbol_parse(const char *flag, const char *text, char *name, int64_t *lo, int64_t *hi) {
  const char *eq = strchr(text, '='), *dots, *why;
  char num[32];
  size_t len = eq ? (size_t)(eq - text) : 0;
  if (!eq || len == 0 || len >= 32) cli_usage_error("%s '%s': expected %s", flag, text, hi ? "S=LO..HI" : "S=V");
  memcpy(name, text, len);
  name[len] = 0;
  dots = strstr(eq + 1, "..");
  if (hi && !dots) cli_usage_error("%s '%s': expected S=LO..HI", flag, text);
  if (!hi && dots) cli_usage_error("%s '%s': expected one value S=V", flag, text);
  len = hi ? (size_t)(dots - eq - 1) : strlen(eq + 1);
  if (len >= sizeof(num)) cli_usage_error("%s '%s': value too long", flag, text);
  memcpy(num, eq + 1, len);
  num[len] = 0;
  if (files_parse_i64(num, lo, &why) != 0) cli_usage_error("%s '%s': '%s' %s", flag, text, num, why);
  if (hi && files_parse_i64(dots + 2, hi, &why) != 0) cli_usage_error("%s '%s': '%s' %s", flag, text, dots + 2, why);
  if (*lo < 0) cli_usage_error("%s '%s': a negative value", flag, text);
  if (hi && *hi < *lo) cli_usage_error("%s '%s': HI < LO", flag, text);
}

/* A range in the symbol's values to one in its units (the multiples of
   unit in it), and back for a value (--at: a multiple of unit). */
static void plan_symbol_units(const char *flag, const char *text, int64_t unit, int64_t *lo, int64_t *hi) {
  if (unit <= 1) return;
  if (!hi) {
    if (*lo % unit) cli_usage_error("%s %s: sizes are integers at multiples of %lld only", flag, text, (long long)unit);
    *lo /= unit;
    return;
  }
  *lo = *lo / unit + (*lo % unit != 0), *hi /= unit;
  if (*hi < *lo) cli_usage_error("%s %s: no multiple of %lld in the range (sizes are integers there only)", flag, text,
                                 (long long)unit);
}

/* Library calls of symbolic planning: the stacking, checked at both ends
   by the plan checker, and (at != NULL) the offsets at *at. */
static void plan_symbolic(const char *file, files_intervals *iv, const plan_symbolic_input *in,
                          const dnnmem_plan_options *opt, const int64_t *at, int32_t *order, int32_t *below_offsets,
                          int32_t *below_ids, int64_t *offsets, dnnmem_plan_symbolic_result *res,
                          int64_t *at_arena, int64_t *at_bound, double *ms) {
  dnnmem_plan_stacking st;
  int64_t ends[3], values[2] = {0, 0};
  dnnmem_plan_result resolved;
  dnnmem_plan_result checked;
  int32_t k;
  size_t bytes = 0, need = 0;
  void *scratch;
  dnnmem_result r;
  files_error err;
  cli_check(dnnmem_plan_symbolic_solve_scratch_size(&in->problem, opt, &bytes), file);
  cli_check(dnnmem_plan_check_scratch_size(&iv->problem, &need), file);
  if (need > bytes) bytes = need;
  cli_check(dnnmem_plan_lower_bound_scratch_size(&iv->problem, &need), file);
  if (need > bytes) bytes = need;
  scratch = cli_alloc(bytes);
  *ms = cli_now_ms();
  cli_check(dnnmem_plan_symbolic_solve(&in->problem, opt, order, below_offsets, below_ids,
                                       (int32_t)DNNMEM_PLAN_SYMBOLIC_EDGES(iv->n), res, scratch, bytes), file);
  *ms = cli_now_ms() - *ms;
  st.order = order;
  st.below_offsets = below_offsets;
  st.below_ids = below_ids;
  ends[0] = in->problem.s_min, ends[1] = in->problem.s_max, ends[2] = at ? *at : in->problem.s_max;
  for (k = 0; k < 3; k++) {
    cli_check(dnnmem_plan_symbolic_resolve(&in->problem, &st, ends[k], offsets, &resolved), file);
    values[0] = ends[k];
    if (files_intervals_at(iv, values, &err) != 0) cli_file_error(&err);
    r = dnnmem_plan_check(&iv->problem, offsets, &checked, scratch, bytes);
    if (r != DNNMEM_OK || checked.arena != resolved.arena)
      cli_input_error(file, 0, "internal error: the plan at %s = %lld fails its check (%s, records %d %d)",
                      in->name, (long long)ends[k], CLI_RESULT_TEXT(r), checked.error.index,
                      checked.error.other);
  }
  *at_arena = checked.arena; /* the last: at *at (or s_max) */
  cli_check(dnnmem_plan_lower_bound(&iv->problem, &checked, scratch, bytes), file);
  *at_bound = checked.lower_bound;
  free(scratch);
}

static void plan_print_symbolic(const cli_args *a, const files_intervals *iv, const plan_symbolic_input *in,
                                const dnnmem_plan_symbolic_result *res, const int64_t *at, int64_t at_arena,
                                int64_t at_bound, double ms) {
  const dnnmem_plan_symbolic *p = &in->problem;
  if (a->json) {
    cli_json_begin();
    cli_json_int("n", iv->n);
    cli_json_string("symbol", in->name);
    cli_json_int("s_min", p->s_min * in->unit);
    cli_json_int("s_max", p->s_max * in->unit);
    if (in->unit > 1) cli_json_int("unit", in->unit);
    if (at) {
      cli_json_int("at", *at * in->unit);
      cli_json_int("arena", at_arena);
      cli_json_int("lower_bound", at_bound);
      cli_json_bool("optimal", at_arena == at_bound);
    }
    cli_json_double("worst_ratio", res->worst_ratio);
    cli_json_int("worst_at", res->worst_at * in->unit);
    cli_json_int("arena_min", res->arena_min);
    cli_json_int("lower_bound_min", res->lower_bound_min);
    cli_json_int("arena_max", res->arena_max);
    cli_json_int("lower_bound_max", res->lower_bound_max);
    cli_json_int("samples", res->samples);
    cli_json_int("edges", res->edges);
    cli_json_double("time_ms", ms);
    cli_json_end();
    return;
  }
  char unit[48] = "";
  if (in->unit > 1) snprintf(unit, sizeof(unit), " (multiples of %lld)", (long long)in->unit);
  printf("%s: %d records, one plan for %s in %lld..%lld%s: worst %.4fx the lower bound (at %s = %lld, of %d "
         "values), %.2f ms\n",
         files_display_name(a->operand), iv->n, in->name, (long long)(p->s_min * in->unit),
         (long long)(p->s_max * in->unit), unit, res->worst_ratio, in->name, (long long)(res->worst_at * in->unit),
         (int)res->samples, ms);
  printf("%s = %lld: arena %lld, lower bound %lld; %s = %lld: arena %lld, lower bound %lld\n", in->name,
         (long long)(p->s_min * in->unit), (long long)res->arena_min, (long long)res->lower_bound_min, in->name,
         (long long)(p->s_max * in->unit), (long long)res->arena_max, (long long)res->lower_bound_max);
  if (at)
    printf("%s = %lld: arena %lld, lower bound %lld (%.4fx)\n", in->name, (long long)(*at * in->unit), (long long)at_arena,
           (long long)at_bound, at_bound ? (double)at_arena / (double)at_bound : 1.0);
}

/* --out of a stacking: the rows plus 'rank' (position bottom-up) and
   'below' (the ids of the records right below, space-separated). */
static void plan_write_stacking(const files_intervals *iv, const char *out_path, const int32_t *order,
                                const int32_t *below_offsets, const int32_t *below_ids) {
  const files_csv *csv = files_intervals_rows(iv);
  FILE *f = fopen(out_path, "w");
  int32_t *rank = (int32_t *)cli_alloc(((size_t)iv->n + 1) * sizeof(int32_t)), i, e;
  int j, ncol = (int)arrlen(csv->columns), idc = files_column(csv, "id");
  if (!f) cli_input_error(out_path, 0, "cannot write: %s", strerror(errno));
  for (i = 0; i < iv->n; i++) rank[order[i]] = i;
  for (j = 0; j < ncol; j++) fprintf(f, "%s,", csv->columns[j]);
  fprintf(f, "rank,below\n");
  for (i = 0; i < iv->n; i++) {
    for (j = 0; j < ncol; j++) fprintf(f, "%s,", files_cell(csv, i, j));
    fprintf(f, "%d,", (int)rank[i]);
    for (e = below_offsets[rank[i]]; e < below_offsets[rank[i] + 1]; e++)
      fprintf(f, "%s%s", e > below_offsets[rank[i]] ? " " : "", files_cell(csv, below_ids[e], idc));
    fputc('\n', f);
  }
  free(rank);
  if (fclose(f) != 0) cli_input_error(out_path, 0, "write failed: %s", strerror(errno));
}

static void plan_symbolic_command(const cli_args *a, files_intervals *iv, const dnnmem_plan_options *opt) {
  plan_symbolic_input in;
  dnnmem_plan_symbolic_result res;
  int64_t at = 0, at_arena = 0, at_bound = 0, *offsets;
  int32_t *order, *below_offsets, *below_ids, i, k, terms = iv->terms[0];
  int64_t ends[2] = {0, 0};
  char at_name[32];
  double ms;
  files_error err;
  memset(&in, 0, sizeof(in));
  plan_symbol_parse("--symbol", a->symbol[0], in.name, &in.problem.s_min, &in.problem.s_max);
  if (iv->symbols[1][0])
    cli_input_error(a->operand, iv->symbolic_line, "sizes are polynomials in %s and %s: give --symbol for both",
                    iv->symbols[0], iv->symbols[1]);
  if (iv->symbols[0][0] && strcmp(iv->symbols[0], in.name) != 0)
    cli_input_error(a->operand, iv->symbolic_line, "sizes are polynomials in %s, not in --symbol %s", iv->symbols[0],
                    in.name);
  if (iv->has_pass) cli_input_error(a->operand, iv->csv.header_line, "a pass column cannot be combined with --symbol");
  if (a->capacity > 0) cli_usage_error("--capacity cannot be combined with --symbol");
  if (arrlen(a->at) > 1) cli_usage_error("--at: one value only with --symbol");
  if (arrlen(a->at) == 1) {
    plan_symbol_parse("--at", a->at[0], at_name, &at, NULL);
    if (strcmp(at_name, in.name) != 0) cli_usage_error("--at %s: the symbol is %s", a->at[0], in.name);
    if (at < in.problem.s_min || at > in.problem.s_max)
      cli_usage_error("--at %s is outside --symbol %s", a->at[0], a->symbol[0]);
    plan_symbol_units("--at", a->at[0], iv->units[0], &at, NULL);
  }
  for (i = 0; i < iv->n; i++) /* fixed offsets and gaps are refused with their line */
    if ((iv->records[i].flags & DNNMEM_INTERVAL_FIXED) || iv->records[i].num_gaps)
      cli_input_error(a->operand, files_intervals_line(iv, i), "--symbol plans no fixed offsets or gaps");
  in.unit = iv->units[0] > 1 ? iv->units[0] : 1;
  plan_symbol_units("--symbol", a->symbol[0], in.unit, &in.problem.s_min, &in.problem.s_max);
  if (arrlen(a->at) && (at < in.problem.s_min || at > in.problem.s_max))
    cli_usage_error("--at %s is outside --symbol %s", a->at[0], a->symbol[0]);
  ends[0] = in.problem.s_max;
  if (files_intervals_at(iv, ends, &err) != 0) cli_file_error(&err); /* the largest sizes */
  in.coefficients = (int64_t *)cli_alloc(((size_t)iv->n * (size_t)terms + 1) * sizeof(int64_t));
  for (i = 0; i < iv->n; i++)
    for (k = 0; k < terms; k++)
      in.coefficients[(size_t)i * terms + k] = iv->coefficients[(size_t)i * FILES_POLY_STRIDE + k];
  in.problem.intervals = &iv->problem;
  in.problem.coefficients = in.coefficients;
  in.problem.terms = terms;
  order = (int32_t *)cli_alloc(((size_t)iv->n + 1) * sizeof(int32_t));
  below_offsets = (int32_t *)cli_alloc(((size_t)iv->n + 1) * sizeof(int32_t));
  below_ids = (int32_t *)cli_alloc((size_t)DNNMEM_PLAN_SYMBOLIC_EDGES(iv->n) * sizeof(int32_t));
  offsets = (int64_t *)cli_alloc(((size_t)iv->n + 1) * sizeof(int64_t));
  plan_symbolic(a->operand, iv, &in, opt, arrlen(a->at) ? &at : NULL, order, below_offsets, below_ids, offsets, &res,
                &at_arena, &at_bound, &ms);
  if (a->out && arrlen(a->at)) cli_write_column(files_intervals_rows(iv), a->out, "offset", offsets, NULL);
  else if (a->out) plan_write_stacking(iv, a->out, order, below_offsets, below_ids);
  if (a->svg) cli_plan_svg(a->svg, a->operand, iv->records, iv->n, offsets, at_arena, at_bound);
  plan_print_symbolic(a, iv, &in, &res, arrlen(a->at) ? &at : NULL, at_arena, at_bound, ms);
  free(in.coefficients);
  free(order);
  free(below_offsets);
  free(below_ids);
  free(offsets);
}

static int plan_pass_cmp(const void *x, const void *y) {
  int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
  return (a > b) - (a < b);
}

static void plan_passes_command(const cli_args *a, files_intervals *iv, const dnnmem_plan_options *opt) {
  dnnmem_plan_result res, one;
  int32_t *passes = (int32_t *)cli_alloc(((size_t)iv->n + 1) * sizeof(int32_t)), num = 0, i, k;
  int64_t *offsets = (int64_t *)cli_alloc(((size_t)iv->n + 1) * sizeof(int64_t));
  int64_t *pass_arena = (int64_t *)cli_alloc(((size_t)iv->n + 1) * sizeof(int64_t));
  double ms;
  for (i = 0; i < iv->n; i++) passes[i] = iv->records[i].pass;
  qsort(passes, (size_t)iv->n, sizeof(int32_t), plan_pass_cmp);
  for (i = 0; i < iv->n; i++)
    if (num == 0 || passes[num - 1] != passes[i]) passes[num++] = passes[i];
  memset(&res, 0, sizeof(res));
  res.feasible = 1;
  plan_passes(a->operand, iv, opt, passes, num, offsets, pass_arena, &res, &one, &ms);
  if (a->out) cli_write_column(files_intervals_rows(iv), a->out, "offset", offsets, NULL);
  if (a->svg) cli_plan_svg(a->svg, a->operand, iv->records, iv->n, offsets, res.arena, one.lower_bound);
  if (a->json) {
    cli_json_begin();
    cli_json_int("n", iv->n);
    cli_json_algo(a, dnnmem_plan_algo_name(res.algo));
    cli_json_int("arena", res.arena);
    cli_json_int("lower_bound", one.lower_bound);
    cli_json_bool("optimal", res.arena == one.lower_bound);
    cli_json_double("time_ms", ms);
    cli_json_key("passes");
    printf("[");
    for (k = 0; k < num; k++) {
      int32_t count = 0;
      for (i = 0; i < iv->n; i++) count += iv->records[i].pass == passes[k];
      printf("%s{\"pass\": %d, \"n\": %d, \"arena\": %lld}", k ? ", " : "", (int)passes[k], (int)count,
             (long long)pass_arena[k]);
    }
    printf("]");
    cli_json_int("one_shot_arena", one.arena);
    cli_json_int("one_shot_lower_bound", one.lower_bound);
    cli_json_end();
  } else {
    printf("%s: %d records in %d passes: arena %lld bytes, lower bound %lld (%.3fx), %.2f ms\n", files_display_name(a->operand), iv->n,
           (int)num, (long long)res.arena, (long long)one.lower_bound,
           one.lower_bound ? (double)res.arena / (double)one.lower_bound : 1.0, ms);
    for (k = 0; k < num; k++) printf("after pass %d: arena %lld\n", (int)passes[k], (long long)pass_arena[k]);
    printf("one-shot plan (every size known in advance): arena %lld (multi-pass costs %lld bytes more)\n",
           (long long)one.arena, (long long)(res.arena - one.arena));
  }
  free(passes);
  free(offsets);
  free(pass_arena);
}

/* ---- plan --pool: several memories ---------------------------------------- */

/* The pools of --pool NAME=CAPACITY[:COST] (capacity 0: unbounded; cost per
   byte, default 1), in the order given (preference order). */
typedef struct plan_pools_input {
  dnnmem_pool *pools;   /* num */
  char **names;         /* num, malloc'd */
  int32_t num;
  int32_t *allowed_offsets, *allowed_ids; /* the 'pools' column (NULL: none) */
  dnnmem_plan_pools problem;
} plan_pools_input;

static void plan_pools_parse(const cli_args *a, plan_pools_input *in) {
  int32_t k, j, num = (int32_t)arrlen(a->pools);
  in->num = num;
  in->pools = (dnnmem_pool *)cli_alloc((size_t)num * sizeof(dnnmem_pool));
  in->names = (char **)cli_alloc((size_t)num * sizeof(char *));
  for (k = 0; k < num; k++) {
    const char *spec = a->pools[k], *eq = strchr(spec, '='), *colon, *why;
    char num_text[32];
    size_t len;
    if (!eq || eq == spec) cli_usage_error("--pool '%s': expected NAME=CAPACITY[:COST]", spec);
    len = (size_t)(eq - spec);
    for (j = 0; j < (int32_t)len; j++)
      if (spec[j] == ' ' || spec[j] == ',' || spec[j] == ':') cli_usage_error("--pool '%s': a name without spaces, commas or colons", spec);
    in->names[k] = (char *)cli_alloc(len + 1);
    memcpy(in->names[k], spec, len);
    in->names[k][len] = 0;
    for (j = 0; j < k; j++)
      if (strcmp(in->names[j], in->names[k]) == 0) cli_usage_error("--pool '%s': pool named twice", in->names[k]);
    colon = strchr(eq + 1, ':');
    len = colon ? (size_t)(colon - eq - 1) : strlen(eq + 1);
    if (len == 0 || len >= sizeof(num_text)) cli_usage_error("--pool '%s': expected NAME=CAPACITY[:COST]", spec);
    memcpy(num_text, eq + 1, len);
    num_text[len] = 0;
    memset(&in->pools[k], 0, sizeof(dnnmem_pool));
    in->pools[k].name = in->names[k];
    in->pools[k].cost = 1;
    if (files_parse_size(num_text, &in->pools[k].capacity, &why) != 0)
      cli_usage_error("--pool '%s': capacity '%s' %s", spec, num_text, why);
    if (in->pools[k].capacity < 0) cli_usage_error("--pool '%s': a negative capacity", spec);
    if (colon && files_parse_i64(colon + 1, &in->pools[k].cost, &why) != 0)
      cli_usage_error("--pool '%s': cost '%s' %s", spec, colon + 1, why);
    if (in->pools[k].cost < 0) cli_usage_error("--pool '%s': a negative cost", spec);
  }
}

/* The problem over the file's records; a record that fits none of the pools
   it may use is named with its line (the record the library names), so is
   a view and its base with no pool that takes both. */
static void plan_pools_problem(const cli_args *a, const files_intervals *iv, plan_pools_input *in) {
  files_error err;
  dnnmem_intervals one;
  dnnmem_plan_pools single;
  dnnmem_interval pair[2];
  int32_t i, k, count;
  int32_t offs[3];
  char buf[16];
  size_t bytes = 0;
  void *scratch;
  dnnmem_plan_pools_result res;
  dnnmem_result r;
  if (files_intervals_pools(iv, (const char *const *)in->names, in->num, &in->allowed_offsets, &in->allowed_ids,
                            &err) != 0)
    cli_file_error(&err);
  in->problem.intervals = &iv->problem;
  in->problem.pools = in->pools;
  in->problem.num_pools = in->num;
  in->problem.allowed_offsets = in->allowed_offsets;
  in->problem.allowed_ids = in->allowed_ids;
  one.alignment = iv->problem.alignment;
  single = in->problem;
  single.intervals = &one;
  cli_check(dnnmem_plan_pools_lower_bound_scratch_size(&in->problem, &bytes), a->operand);
  scratch = cli_alloc(bytes);
  r = dnnmem_plan_pools_lower_bound(&in->problem, &res, scratch, bytes);
  free(scratch);
  i = res.error.index;
  if (r == DNNMEM_ERR_PLAN_POOL_CAPACITY && i >= 0 && i < iv->n) {
    char list[256];
    size_t used = 0;
    const int32_t *ids = in->allowed_offsets ? in->allowed_ids + in->allowed_offsets[i] : NULL;
    count = in->allowed_offsets ? in->allowed_offsets[i + 1] - in->allowed_offsets[i] : in->num;
    list[0] = 0;
    for (k = 0; k < count && used + 40 < sizeof list; k++) {
      int32_t q = ids ? ids[k] : k;
      used += (size_t)snprintf(list + used, sizeof list - used, "%s%s %lld", k ? ", " : "", in->names[q],
                               (long long)in->pools[q].capacity);
    }
    cli_input_error(files_intervals_rows(iv)->path, files_intervals_line(iv, i),
                    "record '%s' (%lld bytes%s) fits none of its pools (%s)", plan_record_id(iv, i, buf, sizeof buf),
                    (long long)iv->records[i].size,
                    (iv->records[i].flags & DNNMEM_INTERVAL_FIXED) ? ", fixed offset" : "", list);
  }
  if (r != DNNMEM_OK && r != DNNMEM_ERR_INFEASIBLE && r != DNNMEM_ERR_PLAN_POOL_CAPACITY)
    cli_input_error(a->operand, i >= 0 && i < iv->n ? files_intervals_line(iv, i) : 0, "%s: %s",
                    dnnmem_field_name(res.error.field), CLI_RESULT_TEXT(r));
  if (r != DNNMEM_ERR_PLAN_POOL_CAPACITY) return;
  /* a class (records ALIAS links join) goes to one pool: the first view
     whose base shares no pool with it, else the first linked row */
  one.records = pair;
  one.count = 2;
  for (i = 0; i < iv->n; i++) {
    int32_t b = iv->records[i].alias, ends[2];
    char buf2[16];
    if (!(iv->records[i].flags & DNNMEM_INTERVAL_ALIAS)) continue;
    ends[0] = i, ends[1] = b;
    offs[0] = 0;
    for (k = 0; k < 2; k++) {
      pair[k] = iv->records[ends[k]];
      pair[k].flags &= ~(DNNMEM_INTERVAL_ALIAS | DNNMEM_INTERVAL_REUSE);
      if (in->allowed_offsets)
        offs[k + 1] = offs[k] + in->allowed_offsets[ends[k] + 1] - in->allowed_offsets[ends[k]];
    }
    pair[0].flags |= DNNMEM_INTERVAL_ALIAS, pair[0].alias = 1;
    single.allowed_offsets = NULL, single.allowed_ids = NULL;
    cli_check(dnnmem_plan_pools_lower_bound_scratch_size(&single, &bytes), a->operand);
    scratch = cli_alloc(bytes);
    if (in->allowed_offsets) { /* the two lists back to back */
      int32_t *two = (int32_t *)cli_alloc(((size_t)offs[2] + 1) * sizeof(int32_t));
      memcpy(two, in->allowed_ids + in->allowed_offsets[i], (size_t)offs[1] * sizeof(int32_t));
      memcpy(two + offs[1], in->allowed_ids + in->allowed_offsets[b], (size_t)(offs[2] - offs[1]) * sizeof(int32_t));
      single.allowed_offsets = offs, single.allowed_ids = two;
      r = dnnmem_plan_pools_lower_bound(&single, &res, scratch, bytes);
      free(two);
    } else {
      r = dnnmem_plan_pools_lower_bound(&single, &res, scratch, bytes);
    }
    free(scratch);
    if (r == DNNMEM_ERR_PLAN_POOL_CAPACITY)
      cli_input_error(files_intervals_rows(iv)->path, files_intervals_line(iv, i),
                      "record '%s' must share the offset of '%s' (alias), but no pool both may use takes them",
                      plan_record_id(iv, i, buf, sizeof buf), plan_record_id(iv, b, buf2, sizeof buf2));
  }
  cli_input_error(files_intervals_rows(iv)->path, files_intervals_line(iv, files_intervals_first_link(iv)),
                  "an alias class has no pool that all its records may use and fit");
}

/* A picture of a pools plan: one panel per pool (offset up, time across),
   its capacity dashed. */
static void cli_plan_svg_pools(const char *path, const char *title, const files_intervals *iv,
                               const plan_pools_input *in, const int32_t *pool_of, const int64_t *off,
                               const int64_t *arenas) {
  const double W = 960, panel = 240, left = 70, right = 20, top = 40, gap = 36;
  double pw = W - left - right, ph = panel - gap, sx, H = top + in->num * panel + 10;
  int64_t t0 = 0, t1 = 1;
  int32_t i, q;
  const dnnmem_interval *r = iv->records;
  FILE *f = fopen(path, "w");
  if (!f) cli_input_error(path, 0, "cannot write: %s", strerror(errno));
  if (iv->n > 0) {
    t0 = r[0].lower, t1 = r[0].upper;
    for (i = 1; i < iv->n; i++) {
      if (r[i].lower < t0) t0 = r[i].lower;
      if (r[i].upper > t1) t1 = r[i].upper;
    }
  }
  sx = pw / ((double)t1 - (double)t0);
  fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
             "font-family=\"sans-serif\" font-size=\"12\">\n", W, H);
  fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n<text x=\"%.0f\" y=\"20\" font-size=\"14\">", left);
  for (; *title; title++) {
    if (*title == '<') fputs("&lt;", f);
    else if (*title == '&') fputs("&amp;", f);
    else fputc(*title, f);
  }
  fprintf(f, ": %d pools</text>\n", (int)in->num);
  for (q = 0; q < in->num; q++) {
    double base = top + q * panel + gap + ph, sy;
    int64_t ymax = arenas[q] > in->pools[q].capacity ? arenas[q] : in->pools[q].capacity;
    if (ymax <= 0) ymax = 1;
    sy = ph / (double)ymax;
    fprintf(f, "<text x=\"%.0f\" y=\"%.2f\">pool %s: arena %lld of %s%lld bytes, cost %lld per byte</text>\n", left,
            base - ph - 6, in->names[q], (long long)arenas[q], in->pools[q].capacity ? "" : "unbounded, ",
            (long long)(in->pools[q].capacity ? in->pools[q].capacity : arenas[q]), (long long)in->pools[q].cost);
    for (i = 0; i < iv->n; i++) {
      double x, w, h, y;
      if (pool_of[i] != q) continue;
      x = left + ((double)r[i].lower - (double)t0) * sx;
      w = ((double)r[i].upper - (double)r[i].lower) * sx;
      h = (double)r[i].size * sy, y = base - (double)(off[i] + r[i].size) * sy;
      fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"hsl(%u,65%%,62%%)\" stroke=\"#333\" "
                 "stroke-width=\"0.3\"><title>record %d: [%lld, %lld) size %lld at %lld</title></rect>\n",
              x, y, w, h, (unsigned)(i * 137u) % 360u, (int)i, (long long)r[i].lower, (long long)r[i].upper,
              (long long)r[i].size, (long long)off[i]);
    }
    if (in->pools[q].capacity)
      fprintf(f, "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.2f\" y2=\"%.2f\" stroke=\"red\" stroke-dasharray=\"6 4\"/>\n",
              left, left + pw, base - (double)in->pools[q].capacity * sy, base - (double)in->pools[q].capacity * sy);
    fprintf(f, "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.2f\" y2=\"%.2f\" stroke=\"black\"/>\n", left, left + pw, base, base);
    fprintf(f, "<text x=\"%.0f\" y=\"%.2f\" text-anchor=\"end\">0</text>\n", left - 4, base + 4);
    fprintf(f, "<text x=\"%.0f\" y=\"%.2f\" text-anchor=\"end\">%lld</text>\n", left - 4, base - ph + 4, (long long)ymax);
  }
  fprintf(f, "</svg>\n");
  if (fclose(f) != 0) cli_input_error(path, 0, "write failed: %s", strerror(errno));
}

/* --out of a pools plan: the rows plus 'offset' and 'pool' (replacing
   columns of those names). */
static void plan_write_pools(const files_csv *csv, const char *out_path, const int64_t *offsets,
                             const int32_t *pool_of, char *const *names) {
  FILE *f = fopen(out_path, "w");
  int co = files_column(csv, "offset"), cp = files_column(csv, "pool"), j, ncol = (int)arrlen(csv->columns), first = 1;
  int32_t i;
  if (!f) cli_input_error(out_path, 0, "cannot write: %s", strerror(errno));
  for (j = 0; j < ncol; j++)
    if (j != co && j != cp) fprintf(f, "%s%s", first ? "" : ",", csv->columns[j]), first = 0;
  fprintf(f, "%soffset,pool\n", first ? "" : ",");
  for (i = 0; i < (int32_t)arrlen(csv->rows); i++) {
    first = 1;
    for (j = 0; j < ncol; j++)
      if (j != co && j != cp) fprintf(f, "%s%s", first ? "" : ",", files_cell(csv, i, j)), first = 0;
    fprintf(f, "%s%lld,%s\n", first ? "" : ",", (long long)offsets[i], names[pool_of[i]]);
  }
  if (fclose(f) != 0) cli_input_error(out_path, 0, "write failed: %s", strerror(errno));
}

static void plan_pools_command(const cli_args *a, files_intervals *iv) {
  plan_pools_input in;
  dnnmem_plan_pools_options opt;
  dnnmem_plan_pools_result res;
  int32_t *pool_of, q, i;
  int64_t *offsets, *arenas, *checked, *bytes_in, total = 0;
  plan_conflict_answer c;
  int have_conflict = 0;
  char algo[64];
  size_t bytes = 0, check_bytes = 0;
  void *scratch;
  double ms, deadline;
  dnnmem_result r;
  char buf[16];
  memset(&in, 0, sizeof in);
  memset(&opt, 0, sizeof opt);
  if (a->algo && dnnmem_plan_pools_algo_parse(a->algo, &opt.algo) != DNNMEM_OK)
    cli_usage_error("unknown --algo '%s' with --pool (best, greedy, improve, exact)", a->algo);
  if (a->capacity > 0) cli_usage_error("--capacity cannot be combined with --pool (give the pools capacities)");
  if (arrlen(a->symbol)) cli_usage_error("--symbol cannot be combined with --pool");
  if (iv->has_pass) cli_usage_error("a pass column cannot be combined with --pool");
  plan_pools_parse(a, &in);
  plan_pools_problem(a, iv, &in);
  opt.node_limit = a->nodes;
  deadline = cli_now_ms() + a->time_limit * 1e3;
  if (a->time_limit > 0) opt.stop = cli_deadline_passed, opt.stop_user = &deadline;
  pool_of = (int32_t *)cli_alloc(((size_t)iv->n + 1) * sizeof(int32_t));
  offsets = (int64_t *)cli_alloc(((size_t)iv->n + 1) * sizeof(int64_t));
  arenas = (int64_t *)cli_alloc((size_t)in.num * sizeof(int64_t));
  checked = (int64_t *)cli_alloc((size_t)in.num * sizeof(int64_t));
  bytes_in = (int64_t *)cli_alloc((size_t)in.num * sizeof(int64_t));
  cli_check(dnnmem_plan_pools_solve_scratch_size(&in.problem, &opt, &bytes), a->operand);
  cli_check(dnnmem_plan_pools_check_scratch_size(&in.problem, &check_bytes), a->operand);
  scratch = cli_alloc(bytes > check_bytes ? bytes : check_bytes);
  ms = cli_now_ms();
  r = dnnmem_plan_pools_solve(&in.problem, &opt, pool_of, offsets, arenas, &res, scratch, bytes);
  ms = cli_now_ms() - ms;
  if (r != DNNMEM_OK && r != DNNMEM_ERR_INFEASIBLE) cli_check(r, a->operand);
  if (r == DNNMEM_OK) { /* an independent check of the plan */
    dnnmem_plan_pools_result rc;
    r = dnnmem_plan_pools_check(&in.problem, pool_of, offsets, checked, &rc, scratch, check_bytes);
    if (r != DNNMEM_OK || rc.cost != res.cost)
      cli_input_error(a->operand, 0, "internal error: the pools plan fails its check (%s, records %d %d)",
                      CLI_RESULT_TEXT(r), rc.error.index, rc.error.other);
    for (q = 0; q < in.num; q++) bytes_in[q] = 0, total += arenas[q];
    for (i = 0; i < iv->n; i++) bytes_in[pool_of[i]] += iv->records[i].size;
    if (a->out) plan_write_pools(files_intervals_rows(iv), a->out, offsets, pool_of, in.names);
    if (a->svg) cli_plan_svg_pools(a->svg, a->operand, iv, &in, pool_of, offsets, arenas);
  }
  if (res.feasible == 0 && iv->links == 0) { /* why not (subsets would cut links) */
    dnnmem_plan_pools_options co = opt;
    size_t cb = 0;
    void *cs;
    deadline = cli_now_ms() + a->time_limit * 1e3;
    if (co.node_limit == 0) co.node_limit = CLI_CONFLICT_NODES;
    c.ids = (int32_t *)cli_alloc(((size_t)iv->n + 1) * sizeof(int32_t));
    cli_check(dnnmem_plan_pools_conflict_scratch_size(&in.problem, &co, &cb), a->operand);
    cs = cli_alloc(cb);
    c.ms = cli_now_ms();
    cli_check(dnnmem_plan_pools_conflict(&in.problem, &co, c.ids, iv->n, &c.result, cs, cb), a->operand);
    c.ms = cli_now_ms() - c.ms;
    free(cs);
    have_conflict = 1;
  }
  if (a->json) {
    cli_json_begin();
    cli_json_int("n", iv->n);
    if (res.feasible == 1) cli_json_algo(a, dnnmem_plan_pools_algo_name(res.algo));
    else cli_json_string("algo", dnnmem_plan_pools_algo_name(opt.algo));
    if (res.feasible < 0) cli_json_string("feasible", "unknown");
    else cli_json_bool("feasible", res.feasible);
    if (res.feasible == 1) {
      cli_json_int("cost", res.cost);
      cli_json_int("arena", total);
    }
    cli_json_int("lower_bound", res.lower_bound);
    cli_json_bool("optimal", res.optimal);
    cli_json_double("time_ms", ms);
    cli_json_int("nodes", res.nodes);
    cli_json_string("stop", dnnmem_plan_stop_name(res.stop));
    cli_json_int("decisions", res.decisions);
    cli_json_int("moves", res.moves);
    if (iv->links > 0 && res.feasible == 1) plan_json_links(iv, offsets, pool_of);
    cli_json_key("pools");
    printf("[");
    for (q = 0; q < in.num; q++) {
      printf("%s{\"name\": ", q ? ", " : "");
      cli_json_string_value(in.names[q]);
      printf(", \"capacity\": %lld, \"cost\": %lld", (long long)in.pools[q].capacity, (long long)in.pools[q].cost);
      if (res.feasible == 1) printf(", \"arena\": %lld, \"bytes\": %lld", (long long)arenas[q], (long long)bytes_in[q]);
      printf("}");
    }
    printf("]");
    if (have_conflict) plan_json_conflict(iv, &c);
    cli_json_end();
  } else {
    if (res.feasible == 1)
      printf("%s: %d records in %d pools, %s: cost %lld, lower bound %lld (%.3fx)%s, %.2f ms\n", files_display_name(a->operand), iv->n,
             (int)in.num, cli_algo_text(a, dnnmem_plan_pools_algo_name(res.algo), algo, sizeof algo), (long long)res.cost, (long long)res.lower_bound,
             res.lower_bound ? (double)res.cost / (double)res.lower_bound : 1.0, res.optimal ? ", optimal" : "", ms);
    else
      printf("%s: %d records in %d pools: no plan %s, %.2f ms\n", files_display_name(a->operand), iv->n, (int)in.num,
             res.feasible == 0 ? "exists (proven)" : "found", ms);
    if (iv->links > 0 && res.feasible == 1) plan_print_links(iv, res.reused);
    for (q = 0; q < in.num && res.feasible == 1; q++)
      printf("pool %s: arena %lld of %s, %lld bytes of records, cost %lld per byte\n", in.names[q],
             (long long)arenas[q], in.pools[q].capacity ? (snprintf(buf, sizeof buf, "%lld", (long long)in.pools[q].capacity), buf) : "unbounded",
             (long long)bytes_in[q], (long long)in.pools[q].cost);
    if (res.stop != DNNMEM_PLAN_STOP_NONE && res.stop != DNNMEM_PLAN_STOP_PROVED)
      printf("search stopped: %s (%lld nodes)\n", dnnmem_plan_stop_name(res.stop), (long long)res.nodes);
    if (have_conflict && c.result.feasible == 0) plan_print_conflict(iv, &c, "the pools", "");
  }
  if (have_conflict) free(c.ids);
  free(scratch);
  free(pool_of), free(offsets), free(arenas), free(checked), free(bytes_in);
  for (q = 0; q < in.num; q++) free(in.names[q]);
  free(in.names), free(in.pools), free(in.allowed_offsets), free(in.allowed_ids);
}

/* ---- two symbols: one stacking for a box ---------------------------------- */

#define PLAN_BOX_GRID 32 /* values per axis the box is measured at */
#define PLAN_BOX_LINES 5 /* the one-symbol problems a stacking is planned on */
/* then two blends (every grid point, the corners) and plans at the worst
   point of the best so far */
#define PLAN_BOX_CANDIDATES (PLAN_BOX_LINES + 2 + 3)

/* The values of one axis: every one of a short range, else lo, hi and a
   geometric series between, rounded and nudged up so that all
   PLAN_BOX_GRID are distinct. Returns their count. */
static int32_t plan_box_axis(int64_t lo, int64_t hi, int64_t *out) {
  int32_t k;
  double base = lo > 0 ? (double)lo : 1.0, q;
  if (hi - lo < PLAN_BOX_GRID) {
    for (k = 0; lo + k <= hi; k++) out[k] = lo + k;
    return (int32_t)(hi - lo + 1);
  }
  q = pow((double)hi / base, 1.0 / (PLAN_BOX_GRID - 1));
  out[0] = lo;
  for (k = 1; k < PLAN_BOX_GRID - 1; k++) {
    int64_t x = (int64_t)(base * pow(q, k) + 0.5);
    if (x <= out[k - 1]) x = out[k - 1] + 1;
    if (x > hi - (PLAN_BOX_GRID - 1 - k)) x = hi - (PLAN_BOX_GRID - 1 - k); /* room for the rest */
    out[k] = x;
  }
  out[PLAN_BOX_GRID - 1] = hi;
  return PLAN_BOX_GRID;
}

/* a * b + c within int64_t (a, b, c >= 0), else -1. */
static int plan_box_mul_add(int64_t a, int64_t b, int64_t *c) {
  if (a != 0 && b > INT64_MAX / a) return -1;
  return files_add_overflows(*c, a * b, c) ? -1 : 0;
}

/* (x0 + dx S)^e as coefficients in S (DNNMEM_PLAN_SYMBOLIC_MAX_TERMS). */
static int plan_box_power(int64_t x0, int64_t dx, int32_t e, int64_t *out) {
  int64_t next[DNNMEM_PLAN_SYMBOLIC_MAX_TERMS];
  int32_t k, t;
  for (k = 0; k < DNNMEM_PLAN_SYMBOLIC_MAX_TERMS; k++) out[k] = k == 0;
  for (t = 0; t < e; t++) {
    for (k = 0; k < DNNMEM_PLAN_SYMBOLIC_MAX_TERMS; k++) next[k] = 0;
    for (k = 0; k < DNNMEM_PLAN_SYMBOLIC_MAX_TERMS; k++) {
      if (plan_box_mul_add(out[k], x0, &next[k])) return -1;
      if (k + 1 < DNNMEM_PLAN_SYMBOLIC_MAX_TERMS && plan_box_mul_add(out[k], dx, &next[k + 1])) return -1;
      if (k + 1 == DNNMEM_PLAN_SYMBOLIC_MAX_TERMS && out[k] && dx) return -1;
    }
    memcpy(out, next, sizeof(next));
  }
  return 0;
}

typedef struct plan_box {
  char name[2][32];
  int64_t lo[2], hi[2];
  int64_t *coef;   /* n x FILES_POLY_STRIDE: [b * MAX_TERMS + a] of name0^a name1^b */
  int map[2];      /* the file's symbol f is name[map[f]] */
  int64_t *axis[2];
  int32_t count[2];
} plan_box;

/* Line l's one-symbol coefficients (n x MAX_TERMS) and range: sizes with
   name0 fixed at its top (0) or bottom (1), name1 fixed at its top (2) or
   bottom (3), or both growing together from the bottom corner (4: name0 =
   lo0 + d0 S, name1 = lo1 + d1 S, S in 0..gcd). -1 where it does not fit
   (a degree or a coefficient past the limits). */
static int plan_box_line(const plan_box *B, int32_t n, int l, int64_t *c, int64_t *s_min, int64_t *s_max) {
  const int32_t M = DNNMEM_PLAN_SYMBOLIC_MAX_TERMS;
  int64_t pa[DNNMEM_PLAN_SYMBOLIC_MAX_TERMS][DNNMEM_PLAN_SYMBOLIC_MAX_TERMS];
  int64_t pb[DNNMEM_PLAN_SYMBOLIC_MAX_TERMS][DNNMEM_PLAN_SYMBOLIC_MAX_TERMS];
  int64_t d[2] = {0, 0}, g = 0, x, y;
  int32_t r, a, b, k, j;
  if (l == 4) {
    for (g = B->hi[0] - B->lo[0], y = B->hi[1] - B->lo[1]; y;) x = g % y, g = y, y = x;
    if (g == 0) return -1;
    d[0] = (B->hi[0] - B->lo[0]) / g, d[1] = (B->hi[1] - B->lo[1]) / g;
    *s_min = 0, *s_max = g;
  } else {
    int free_axis = l < 2 ? 1 : 0;
    *s_min = B->lo[free_axis], *s_max = B->hi[free_axis];
  }
  for (a = 0; a < M; a++) { /* each symbol's powers as polynomials in S */
    int64_t fixed0 = l == 0 ? B->hi[0] : B->lo[0], fixed1 = l == 2 ? B->hi[1] : B->lo[1];
    if (plan_box_power(l < 2 ? fixed0 : l == 4 ? B->lo[0] : 0, l < 2 ? 0 : l == 4 ? d[0] : 1, a, pa[a]) ||
        plan_box_power(l >= 2 && l < 4 ? fixed1 : l == 4 ? B->lo[1] : 0, l >= 2 && l < 4 ? 0 : l == 4 ? d[1] : 1, a,
                       pb[a]))
      for (k = 0; k < M; k++) pa[a][k] = pb[a][k] = -1; /* past the range: any use fails */
  }
  for (r = 0; r < n; r++) {
    int64_t *out = c + (size_t)r * (size_t)M;
    for (k = 0; k < M; k++) out[k] = 0;
    for (b = 0; b < M; b++)
      for (a = 0; a < M; a++) {
        int64_t v = B->coef[(size_t)r * FILES_POLY_STRIDE + (size_t)(b * M + a)];
        if (v == 0) continue;
        for (k = 0; k < M; k++)
          for (j = 0; j < M; j++) {
            int64_t t = 0;
            if (pa[a][k] == 0 || pb[b][j] == 0) continue;
            if (pa[a][k] < 0 || pb[b][j] < 0 || k + j >= M) return -1;
            if (plan_box_mul_add(pa[a][k], pb[b][j], &t) || plan_box_mul_add(v, t, &out[k + j])) return -1;
          }
      }
  }
  return 0;
}

static const char *const plan_box_line_names[PLAN_BOX_LINES] = {"%s at its top", "%s at its bottom",
                                                                 "%s at its top", "%s at its bottom",
                                                                 "the diagonal from the bottom corner"};

/* Every record's size at (v0, v1) into iv->records (the file's order of symbols). */
static void plan_box_at(files_intervals *iv, const plan_box *B, int64_t v0, int64_t v1) {
  int64_t v[2] = {0, 0}, box[2];
  files_error err;
  int f;
  box[0] = v0, box[1] = v1;
  for (f = 0; f < 2; f++)
    if (iv->symbols[f][0]) v[f] = box[B->map[f]];
  if (files_intervals_at(iv, v, &err) != 0) cli_file_error(&err);
}

static void plan_box_command(const cli_args *a, files_intervals *iv, const dnnmem_plan_options *opt) {
  const int32_t M = DNNMEM_PLAN_SYMBOLIC_MAX_TERMS;
  plan_box B;
  int32_t n = iv->n, i, l, p, q, k, f, points, best_line = -1, edges = 0;
  int32_t *order[PLAN_BOX_CANDIDATES], *below_offsets[PLAN_BOX_CANDIDATES], *below_ids[PLAN_BOX_CANDIDATES];
  int32_t worst_k = 0, planned_k[PLAN_BOX_CANDIDATES];
  int64_t *line_coef, *sizes, *bounds, *offsets, at[2] = {0, 0}, worst_at[2] = {0, 0}, corner[4], u;
  double best_worst = -1.0, best_sum = 0.0, ms;
  size_t bytes = 0, need;
  void *scratch = NULL;
  dnnmem_plan_stacking st;
  dnnmem_plan_symbolic one;
  memset(&B, 0, sizeof(B));
  for (k = 0; k < 2; k++) plan_symbol_parse("--symbol", a->symbol[k], B.name[k], &B.lo[k], &B.hi[k]);
  if (strcmp(B.name[0], B.name[1]) == 0) cli_usage_error("--symbol %s given twice", B.name[0]);
  if (iv->has_pass) cli_input_error(a->operand, iv->csv.header_line, "a pass column cannot be combined with --symbol");
  if (a->capacity > 0) cli_usage_error("--capacity cannot be combined with --symbol");
  if (arrlen(a->at) != 0 && arrlen(a->at) != 2) cli_usage_error("--at: one value per symbol (two) with two --symbol");
  for (k = 0; k < (int32_t)arrlen(a->at); k++) {
    char nm[32];
    int64_t v;
    plan_symbol_parse("--at", a->at[k], nm, &v, NULL);
    for (f = 0; f < 2 && strcmp(nm, B.name[f]) != 0; f++) {}
    if (f == 2) cli_usage_error("--at %s: the symbols are %s and %s", a->at[k], B.name[0], B.name[1]);
    if (v < B.lo[f] || v > B.hi[f]) cli_usage_error("--at %s is outside --symbol %s", a->at[k], a->symbol[f]);
    plan_symbol_units("--at", a->at[k], iv->units[0], &v, NULL);
    at[f] = v;
  }
  u = iv->units[0] > 1 ? iv->units[0] : 1; /* both symbols share the unit */
  for (k = 0; k < 2; k++) plan_symbol_units("--symbol", a->symbol[k], u, &B.lo[k], &B.hi[k]);
  for (f = 0; f < 2; f++) { /* the file's symbols among the two given; an unused one takes the other */
    B.map[f] = f == 0 ? 0 : 1 - B.map[0];
    if (!iv->symbols[f][0]) continue;
    for (k = 0; k < 2 && strcmp(iv->symbols[f], B.name[k]) != 0; k++) {}
    if (k == 2)
      cli_input_error(a->operand, iv->symbolic_line, "sizes are polynomials in %s, not in --symbol %s or %s",
                      iv->symbols[f], B.name[0], B.name[1]);
    B.map[f] = k;
  }
  for (i = 0; i < n; i++) /* fixed offsets and gaps are refused with their line */
    if ((iv->records[i].flags & DNNMEM_INTERVAL_FIXED) || iv->records[i].num_gaps)
      cli_input_error(a->operand, files_intervals_line(iv, i), "--symbol plans no fixed offsets or gaps");
  plan_box_at(iv, &B, B.hi[0], B.hi[1]); /* the largest sizes fit int64_t */
  B.coef = (int64_t *)cli_alloc(((size_t)n + 1) * FILES_POLY_STRIDE * sizeof(int64_t));
  for (i = 0; i < n; i++) /* in --symbol order: name0^a name1^b */
    for (p = 0; p < M; p++)
      for (q = 0; q < M; q++) {
        int32_t e[2];
        e[B.map[0]] = q, e[B.map[1]] = p; /* file: symbols[0]^q symbols[1]^p */
        B.coef[(size_t)i * FILES_POLY_STRIDE + (size_t)(e[1] * M + e[0])] =
            iv->coefficients[(size_t)i * FILES_POLY_STRIDE + (size_t)(p * M + q)];
      }
  for (k = 0; k < 2; k++) {
    B.axis[k] = (int64_t *)cli_alloc(PLAN_BOX_GRID * sizeof(int64_t));
    B.count[k] = plan_box_axis(B.lo[k], B.hi[k], B.axis[k]);
  }
  points = B.count[0] * B.count[1];
  sizes = (int64_t *)cli_alloc(((size_t)points * (size_t)n + 1) * sizeof(int64_t));
  bounds = (int64_t *)cli_alloc((size_t)points * sizeof(int64_t));
  offsets = (int64_t *)cli_alloc(((size_t)n + 1) * sizeof(int64_t));
  line_coef = (int64_t *)cli_alloc(((size_t)n * (size_t)M + 1) * sizeof(int64_t));
  cli_check(dnnmem_plan_lower_bound_scratch_size(&iv->problem, &bytes), a->operand);
  cli_check(dnnmem_plan_check_scratch_size(&iv->problem, &need), a->operand);
  if (need > bytes) bytes = need;
  memset(&one, 0, sizeof(one));
  one.intervals = &iv->problem;
  one.terms = M;
  one.coefficients = line_coef; /* the solve's scratch depends on the records and options only */
  memset(line_coef, 0, (size_t)n * (size_t)M * sizeof(int64_t));
  cli_check(dnnmem_plan_symbolic_solve_scratch_size(&one, opt, &need), a->operand);
  if (need > bytes) bytes = need;
  scratch = cli_alloc(bytes);
  ms = cli_now_ms();
  for (p = 0; p < B.count[0]; p++) /* the grid: sizes and lower bounds */
    for (q = 0; q < B.count[1]; q++) {
      int32_t pt = p * B.count[1] + q;
      dnnmem_plan_result bounded;
      plan_box_at(iv, &B, B.axis[0][p], B.axis[1][q]);
      for (i = 0; i < n; i++) sizes[(size_t)pt * (size_t)n + (size_t)i] = iv->records[i].size;
      cli_check(dnnmem_plan_lower_bound(&iv->problem, &bounded, scratch, bytes), a->operand);
      bounds[pt] = bounded.lower_bound;
    }
  for (l = 0; l < PLAN_BOX_CANDIDATES; l++) { /* a stacking per candidate, measured over the grid */
    dnnmem_plan_symbolic_result res;
    dnnmem_plan_symbolic at_point;
    double worst = 0.0, sum = 0.0;
    int32_t w_k = 0;
    order[l] = below_offsets[l] = below_ids[l] = NULL;
    planned_k[l] = -1;
    if (l < PLAN_BOX_LINES) {
      if (plan_box_line(&B, n, l, line_coef, &one.s_min, &one.s_max) != 0) continue;
    } else { /* constant sizes: a blend (each size's share of the bound, in 2^-30) or one point's */
      memset(line_coef, 0, (size_t)n * (size_t)M * sizeof(int64_t));
      one.s_min = one.s_max = 0;
      if (l >= PLAN_BOX_LINES + 2) {
        for (k = PLAN_BOX_LINES + 2; k < l; k++)
          if (planned_k[k] == worst_k) break;
        if (k < l || best_line < 0) continue; /* that point was planned already */
        planned_k[l] = worst_k;
      }
      for (k = 0; k < points; k++) {
        int32_t pk = k / B.count[1], qk = k % B.count[1];
        int at_corner = (pk == 0 || pk == B.count[0] - 1) && (qk == 0 || qk == B.count[1] - 1);
        if (planned_k[l] >= 0 ? k != planned_k[l] : (bounds[k] == 0 || (l == PLAN_BOX_LINES + 1 && !at_corner)))
          continue;
        for (i = 0; i < n; i++) {
          int64_t v = sizes[(size_t)k * (size_t)n + (size_t)i];
          line_coef[(size_t)i * (size_t)M] += planned_k[l] >= 0 ? v : (int64_t)((double)v * 1073741824.0 /
                                                                                   (double)bounds[k] + 0.5);
        }
      }
    }
    order[l] = (int32_t *)cli_alloc(((size_t)n + 1) * sizeof(int32_t));
    below_offsets[l] = (int32_t *)cli_alloc(((size_t)n + 1) * sizeof(int32_t));
    below_ids[l] = (int32_t *)cli_alloc((size_t)DNNMEM_PLAN_SYMBOLIC_EDGES(n) * sizeof(int32_t));
    cli_check(dnnmem_plan_symbolic_solve(&one, opt, order[l], below_offsets[l], below_ids[l],
                                         (int32_t)DNNMEM_PLAN_SYMBOLIC_EDGES(n), &res, scratch, bytes),
              a->operand);
    st.order = order[l], st.below_offsets = below_offsets[l], st.below_ids = below_ids[l];
    memset(&at_point, 0, sizeof(at_point));
    at_point.intervals = &iv->problem;
    at_point.terms = 1;
    for (k = 0; k < points; k++) { /* the stacking at each point: sizes as constants */
      dnnmem_plan_result resolved;
      int64_t arena;
      double ratio;
      at_point.coefficients = sizes + (size_t)k * (size_t)n;
      cli_check(dnnmem_plan_symbolic_resolve(&at_point, &st, 0, offsets, &resolved), a->operand);
      arena = resolved.arena;
      ratio = bounds[k] > 0 ? (double)arena / (double)bounds[k] : 1.0;
      sum += ratio;
      if (ratio > worst) worst = ratio, w_k = k;
    }
    if (best_line < 0 || worst < best_worst || (worst == best_worst && sum < best_sum)) {
      best_line = l, best_worst = worst, best_sum = sum, edges = res.edges, worst_k = w_k;
      worst_at[0] = B.axis[0][w_k / B.count[1]], worst_at[1] = B.axis[1][w_k % B.count[1]];
    }
  }
  ms = cli_now_ms() - ms;
  if (best_line < 0) cli_input_error(a->operand, 0, "no stacking: the sizes leave the int64 range along every line");
  st.order = order[best_line], st.below_offsets = below_offsets[best_line], st.below_ids = below_ids[best_line];
  { /* the plan checker at the four corners, the worst point and the --at point */
    int64_t check[6][2], arena = 0, bound = 0;
    dnnmem_plan_result checked;
    dnnmem_plan_symbolic at_point;
    dnnmem_result r;
    int c, num = arrlen(a->at) ? 6 : 5;
    check[0][0] = B.lo[0], check[0][1] = B.lo[1], check[1][0] = B.hi[0], check[1][1] = B.hi[1];
    check[2][0] = B.lo[0], check[2][1] = B.hi[1], check[3][0] = B.hi[0], check[3][1] = B.lo[1];
    check[4][0] = worst_at[0], check[4][1] = worst_at[1], check[5][0] = at[0], check[5][1] = at[1];
    memset(&at_point, 0, sizeof(at_point));
    at_point.intervals = &iv->problem;
    at_point.terms = 1;
    for (c = 0; c < num; c++) {
      plan_box_at(iv, &B, check[c][0], check[c][1]);
      for (i = 0; i < n; i++) line_coef[i] = iv->records[i].size;
      at_point.coefficients = line_coef;
      cli_check(dnnmem_plan_symbolic_resolve(&at_point, &st, 0, offsets, &checked), a->operand);
      arena = checked.arena;
      r = dnnmem_plan_check(&iv->problem, offsets, &checked, scratch, bytes);
      if (r != DNNMEM_OK || checked.arena != arena)
        cli_input_error(a->operand, 0, "internal error: the plan at %s = %lld, %s = %lld fails its check (%s)",
                        B.name[0], (long long)(check[c][0] * u), B.name[1], (long long)(check[c][1] * u),
                        CLI_RESULT_TEXT(r));
      cli_check(dnnmem_plan_lower_bound(&iv->problem, &checked, scratch, bytes), a->operand);
      bound = checked.lower_bound;
      if (c < 2) corner[2 * c] = arena, corner[2 * c + 1] = bound;
      if (c == 5) { /* --at: the offsets there */
        at[0] = arena, at[1] = bound;
        if (a->out) cli_write_column(files_intervals_rows(iv), a->out, "offset", offsets, NULL);
        if (a->svg) cli_plan_svg(a->svg, a->operand, iv->records, n, offsets, arena, bound);
      }
    }
  }
  if (a->out && !arrlen(a->at)) plan_write_stacking(iv, a->out, st.order, st.below_offsets, st.below_ids);
  {
    char line[96];
    if (best_line < PLAN_BOX_LINES)
      snprintf(line, sizeof(line), plan_box_line_names[best_line], B.name[best_line < 2 ? 0 : 1]);
    else if (best_line < PLAN_BOX_LINES + 2)
      snprintf(line, sizeof(line), "a blend of %s", best_line == PLAN_BOX_LINES ? "every point" : "the corners");
    else
      snprintf(line, sizeof(line), "the plan at %s = %lld, %s = %lld", B.name[0],
               (long long)(B.axis[0][planned_k[best_line] / B.count[1]] * u), B.name[1],
               (long long)(B.axis[1][planned_k[best_line] % B.count[1]] * u));
    if (a->json) {
      cli_json_begin();
      cli_json_int("n", n);
      cli_json_string("symbol", B.name[0]);
      cli_json_string("symbol2", B.name[1]);
      cli_json_int("s_min", B.lo[0] * u);
      cli_json_int("s_max", B.hi[0] * u);
      cli_json_int("s2_min", B.lo[1] * u);
      cli_json_int("s2_max", B.hi[1] * u);
      if (u > 1) cli_json_int("unit", u);
      if (arrlen(a->at)) {
        cli_json_int("arena", at[0]);
        cli_json_int("lower_bound", at[1]);
        cli_json_bool("optimal", at[0] == at[1]);
      }
      cli_json_double("worst_ratio", best_worst);
      cli_json_int("worst_at", worst_at[0] * u);
      cli_json_int("worst_at2", worst_at[1] * u);
      cli_json_int("arena_min", corner[0]);
      cli_json_int("lower_bound_min", corner[1]);
      cli_json_int("arena_max", corner[2]);
      cli_json_int("lower_bound_max", corner[3]);
      cli_json_int("samples", points);
      cli_json_string("planned_on", line);
      cli_json_int("edges", edges);
      cli_json_double("time_ms", ms);
      cli_json_end();
    } else {
      char unit[48] = "";
      if (u > 1) snprintf(unit, sizeof(unit), " (multiples of %lld)", (long long)u);
      printf("%s: %d records, one plan for %s in %lld..%lld, %s in %lld..%lld%s: worst %.4fx the lower bound (at "
             "%s = %lld, %s = %lld) over a grid of %d x %d points; planned on %s, %.2f ms\n",
             files_display_name(a->operand), (int)n, B.name[0], (long long)(B.lo[0] * u), (long long)(B.hi[0] * u),
             B.name[1],
             (long long)(B.lo[1] * u), (long long)(B.hi[1] * u), unit, best_worst, B.name[0],
             (long long)(worst_at[0] * u), B.name[1], (long long)(worst_at[1] * u), (int)B.count[0],
             (int)B.count[1], line, ms);
      printf("both at the bottom: arena %lld, lower bound %lld; both at the top: arena %lld, lower bound %lld\n",
             (long long)corner[0], (long long)corner[1], (long long)corner[2], (long long)corner[3]);
      if (arrlen(a->at))
        printf("at the --at point: arena %lld, lower bound %lld (%.4fx)\n", (long long)at[0], (long long)at[1],
               at[1] ? (double)at[0] / (double)at[1] : 1.0);
    }
  }
  for (l = 0; l < PLAN_BOX_CANDIDATES; l++) free(order[l]), free(below_offsets[l]), free(below_ids[l]);
  for (k = 0; k < 2; k++) free(B.axis[k]);
  free(B.coef), free(sizes), free(bounds), free(offsets), free(line_coef), free(scratch);
}

static int cmd_plan(const cli_args *a) {
  dnnmem_plan_options opt;
  dnnmem_plan_result res;
  files_intervals iv;
  int64_t *offsets;
  double ms, deadline;
  memset(&opt, 0, sizeof(opt));
  if (a->algo && !arrlen(a->pools) && dnnmem_plan_algo_parse(a->algo, &opt.algo) != DNNMEM_OK)
    cli_usage_error("unknown --algo '%s'", a->algo);
  if (a->align & (a->align - 1)) cli_usage_error("--align must be a power of two");
  if (arrlen(a->at) && !arrlen(a->symbol)) cli_usage_error("--at needs --symbol");
  if (arrlen(a->symbol) > 2) cli_usage_error("--symbol: at most two symbols");
  opt.node_limit = a->nodes;
  opt.capacity = a->capacity;
  if (a->inplace && strcmp(a->inplace, "elementwise") != 0)
    cli_usage_error("unknown --inplace '%s' (elementwise)", a->inplace);
  if (a->inplace && arrlen(a->symbol)) cli_usage_error("--inplace cannot be combined with --symbol");
  cli_read_intervals_symbolic(a->operand, a->align, (const char *const *)a->symbol, (int32_t)arrlen(a->symbol), &iv);
  if (a->inplace) {
    files_error err;
    if (!iv.is_graph) cli_usage_error("--inplace needs a graph CSV (an intervals CSV has 'reuse' and 'alias' columns)");
    if (files_graph_need(&iv.graph, "id,op,size,inputs", "plan --inplace", &err)) cli_file_error(&err);
    files_intervals_inplace(&iv, files_elementwise_ops);
    if (files_intervals_links_check(&iv, &err)) cli_file_error(&err);
  }
  if (arrlen(a->symbol)) cli_refuse_links(a->operand, &iv, "--symbol: reuse and alias links are not supported with symbolic sizes");
  deadline = cli_now_ms() + a->time_limit * 1e3;
  if (a->time_limit > 0) {
    opt.stop = cli_deadline_passed;
    opt.stop_user = &deadline;
  }
  if (arrlen(a->pools)) {
    if (arrlen(a->at)) cli_usage_error("--at cannot be combined with --pool");
    plan_pools_command(a, &iv);
    files_intervals_free(&iv);
    return 0;
  }
  if (arrlen(a->symbol) == 2) {
    plan_box_command(a, &iv, &opt);
    files_intervals_free(&iv);
    return 0;
  }
  if (arrlen(a->symbol)) {
    plan_symbolic_command(a, &iv, &opt);
    files_intervals_free(&iv);
    return 0;
  }
  if (iv.symbolic_line)
    cli_input_error(a->operand, iv.symbolic_line,
                    "size: '%s' is not an integer (a polynomial in %s%s%s: plan it with --symbol %s=LO..HI%s%s%s)",
                    files_cell(files_intervals_rows(&iv), iv.symbolic_row,
                               files_column(files_intervals_rows(&iv), "size")),
                    iv.symbols[0], iv.symbols[1][0] ? " and " : "", iv.symbols[1], iv.symbols[0],
                    iv.symbols[1][0] ? " --symbol " : "", iv.symbols[1], iv.symbols[1][0] ? "=LO..HI" : "");
  if (iv.has_pass) {
    if (a->capacity > 0) cli_usage_error("--capacity cannot be combined with passes");
    plan_passes_command(a, &iv, &opt);
    files_intervals_free(&iv);
    return 0;
  }
  offsets = (int64_t *)cli_alloc(((size_t)iv.n + 1) * sizeof(int64_t));
  plan_solve(a->operand, &iv, &opt, offsets, &res, &ms);
  if (a->out) cli_write_column(files_intervals_rows(&iv), a->out, "offset", offsets, NULL);
  if (a->svg) cli_plan_svg(a->svg, a->operand, iv.records, iv.n, offsets, res.arena, res.lower_bound);
  if (a->capacity > 0 && res.feasible == 0 && iv.links == 0) { /* subsets would cut links */
    plan_conflict_answer c;
    plan_conflict(a->operand, &iv, &opt, a->time_limit, &c);
    plan_print(a, &iv, offsets, &res, ms, &c);
    free(c.ids);
  } else {
    plan_print(a, &iv, offsets, &res, ms, NULL);
  }
  free(offsets);
  files_intervals_free(&iv);
  return 0;
}

/* Library calls of share: the assignment, then an independent recount. */
static void share_solve(const char *file, const files_intervals *iv, const dnnmem_share_options *opt,
                        int64_t *objects_of, dnnmem_share_result *res) {
  int32_t *object_of = (int32_t *)cli_alloc(((size_t)iv->n + 1) * sizeof(int32_t)), i;
  dnnmem_share_result checked;
  size_t bytes = 0, check_bytes = 0;
  void *scratch;
  dnnmem_result r;
  cli_check(dnnmem_share_solve_scratch_size(&iv->problem, opt, &bytes), file);
  cli_check(dnnmem_share_check_scratch_size(&iv->problem, &check_bytes), file);
  scratch = cli_alloc(bytes > check_bytes ? bytes : check_bytes);
  cli_check(dnnmem_share_solve(&iv->problem, opt, object_of, NULL, res, scratch, bytes), file);
  r = dnnmem_share_check(&iv->problem, object_of, &checked, scratch, check_bytes);
  if (r != DNNMEM_OK || checked.total != res->total || checked.objects != res->objects)
    cli_input_error(file, 0, "internal error: the assignment fails its check (%s)", CLI_RESULT_TEXT(r));
  for (i = 0; i < iv->n; i++) objects_of[i] = object_of[i];
  free(object_of);
  free(scratch);
}

static int cmd_share(const cli_args *a) {
  dnnmem_share_options opt = {.algo = DNNMEM_SHARE_BEST};
  dnnmem_share_result res;
  files_intervals iv;
  int64_t *object_of;
  double t0, ms;
  char algo[64];
  if (a->algo && dnnmem_share_algo_parse(a->algo, &opt.algo) != DNNMEM_OK)
    cli_usage_error("unknown --algo '%s'", a->algo);
  cli_read_intervals(a->operand, 0, &iv);
  cli_refuse_links(a->operand, &iv, "share: reuse and alias links are not supported (plan takes them)");
  object_of = (int64_t *)cli_alloc(((size_t)iv.n + 1) * sizeof(int64_t));
  t0 = cli_now_ms();
  share_solve(a->operand, &iv, &opt, object_of, &res);
  ms = cli_now_ms() - t0;
  if (a->out) cli_write_column(files_intervals_rows(&iv), a->out, "object", object_of, NULL);
  if (a->json) {
    cli_json_begin();
    cli_json_int("n", iv.n);
    cli_json_algo(a, dnnmem_share_algo_name(res.algo));
    cli_json_int("objects", res.objects);
    cli_json_int("total", res.total);
    cli_json_int("lower_bound", res.lower_bound);
    cli_json_bool("optimal", res.optimal);
    cli_json_double("time_ms", ms);
    cli_json_end();
  } else {
    printf("%s: %d records, %s: %d objects, total %lld bytes, lower bound %lld (%.3fx), %.2f ms\n", files_display_name(a->operand),
           iv.n, cli_algo_text(a, dnnmem_share_algo_name(res.algo), algo, sizeof algo), res.objects, (long long)res.total, (long long)res.lower_bound,
           res.lower_bound ? (double)res.total / (double)res.lower_bound : 1.0, ms);
  }
  free(object_of);
  files_intervals_free(&iv);
  return 0;
}

/* ---- remat: recomputation schedule within a memory budget ---------------- */

static const cli_option remat_options[] = {
    {"--budget", "B", CLI_SIZE, CLI_ARG(budget), 0, INT64_MAX, "peak budget in bytes (8M = 8 x 2^20)"},
    {"--budget-ratio", "R", CLI_NUMBER, CLI_ARG(budget_ratio), 0, 0, "budget = R x the row order's peak"},
    {"--curve", NULL, CLI_FLAG, CLI_ARG(curve), 0, 0,
     "the peak/time trade-off: --points budgets from the row order's\npeak down to the lower bound (the default without a budget)"},
    {"--points", "N", CLI_INT, CLI_ARG(points), 1, 1000, "the curve's points (default 11)"},
    {"--spacing", "S", CLI_STRING, CLI_ARG(spacing), 0, 0, "the curve's budgets: even (default) or geometric"},
    {"--plan", NULL, CLI_FLAG, CLI_ARG(remat_plan), 0, 0,
     "also write the sequence's arena: an offset for every computed\ninstance (arena, arena_lower_bound, arena_optimal; --out writes\nstep,node,offset); the solve already bounds the arena by the budget"},
    {"--peak-only", NULL, CLI_FLAG, CLI_ARG(peak_only), 0, 0,
     "the budget bounds the peak only (the bytes held at one step), not\nthe arena (for engines that place memory their own way)"},
    {"--plan-algo", "A", CLI_STRING, CLI_ARG(algo), 0, 0,
     "--plan's strategy (plan --algo; default exact with the budget as\ncapacity, as the solve plans)"},
    {"--plan-nodes", "N", CLI_INT, CLI_ARG(nodes), 1, INT64_MAX, "--plan's exact-search nodes (plan --nodes)"},
    {"--time-limit", "S", CLI_NUMBER, CLI_ARG(time_limit), 0, 0,
     "stop after S seconds with the best so far (the curve: S in all,\nspread over its points, plus what no stop cuts: each point's\ntime bound and first plans); default: a fixed move count\n(deterministic; the curve: also about 4 s in all)"},
    {"--iterations", "N", CLI_INT, CLI_ARG(iterations), 1, INT64_MAX,
     "annealing moves (default 1000 x nodes + 500000; the curve: per budget)"},
    {"--seed", "N", CLI_INT, CLI_ARG(seed), INT64_MIN, INT64_MAX, "random seed (default 1)"},
    {"--max-length", "N", CLI_INT, CLI_ARG(max_length), 1, 1 << 28, "longest sequence (default 2 x nodes + 16)"},
    {"--no-contraction", NULL, CLI_FLAG, CLI_ARG(no_contraction), 0, 0, "anneal the plain graph only"},
    {"--baselines", NULL, CLI_FLAG, CLI_ARG(baselines), 0, 0, "also report the best reordering without recomputation"},
    {"--bound", NULL, CLI_FLAG, CLI_ARG(bound), 0, 0,
     "also prove a lower bound of the extra time every sequence within\nthe budget needs (extra_time_lower_bound)"},
    {"--bound-cuts", "K", CLI_INT, CLI_ARG(bound_cuts), 1, INT32_MAX, "cut nodes tried by --bound (default 16; implies --bound)"},
    {"--out", "F", CLI_STRING, CLI_ARG(out), 0, 0, "write the sequence, one node id per line (--plan:\nstep,node,offset rows)"},
    {"--progress", NULL, CLI_FLAG, CLI_ARG(progress), 0, 0,
     "progress of timed runs on stderr: a bar when stderr is a terminal\n(always there), else a line every 2 s (only with this flag)"},
    {NULL, NULL, CLI_FLAG, 0, 0, 0, NULL}};

#define REMAT_CURVE_SECONDS 4.0 /* the default curve's time cap, in all */
#define REMAT_CURVE_POINTS 11   /* the default --points */

typedef struct remat_setup {
  const char *path;
  files_graph g;
  dnnmem_remat_problem problem;
  int32_t n, max_length;
  int64_t lower_bound;
  dnnmem_remat_result base;       /* the row order */
  dnnmem_remat_result checkpoint; /* sqrt(n) checkpointing; peak -1: longer than max_length */
  void *scratch;                 /* for the solver and the baselines */
  size_t bytes;
} remat_setup;

typedef struct remat_run {
  dnnmem_remat_result stats;
  dnnmem_result result; /* DNNMEM_OK or DNNMEM_ERR_INFEASIBLE */
  int32_t *sequence;    /* max_length */
  int32_t length;
  double ms;
} remat_run;

/* Progress of a timed run: REMAT_BAR redraws one line of stderr (a
   terminal) and erases it when done, so it never stays among the answers;
   REMAT_LINES (--progress, stderr not a terminal) writes a line every 2 s. */
enum { REMAT_QUIET, REMAT_LINES, REMAT_BAR };

typedef struct remat_clock {
  double start_ms, limit_ms, deadline_ms, last_report_ms;
  int report; /* REMAT_QUIET, _LINES or _BAR */
} remat_clock;

static int remat_report_mode(const cli_args *a) {
  return isatty(2) ? REMAT_BAR : a->progress ? REMAT_LINES : REMAT_QUIET;
}

static double remat_progress(void *user) {
  remat_clock *c = (remat_clock *)user;
  double now = cli_now_ms(), done = (now - c->start_ms) / c->limit_ms;
  if (c->report == REMAT_BAR && now - c->last_report_ms >= 200.0) {
    int filled = (int)(30 * (done < 1 ? done : 1));
    fprintf(stderr, "\rdnnmem remat: [%.*s%*s] %3.0f%% of %.1f s", filled, "##############################",
            30 - filled, "", 100.0 * (done < 1 ? done : 1), c->limit_ms / 1e3);
    c->last_report_ms = now;
  } else if (c->report == REMAT_LINES && now - c->last_report_ms >= 2000.0) {
    fprintf(stderr, "dnnmem remat: %.0f%% of %.1f s\n", 100.0 * done, c->limit_ms / 1e3);
    c->last_report_ms = now;
  }
  return done;
}

/* Erases the bar (if one was drawn). */
static void remat_progress_end(const remat_clock *c) {
  if (c->report == REMAT_BAR && c->last_report_ms > c->start_ms) fprintf(stderr, "\r%60s\r", "");
}

static double remat_overhead(const remat_setup *s, int64_t time) {
  return s->base.time > 0 ? (double)(time - s->base.time) / (double)s->base.time : 0.0;
}

/* Library calls of remat (1/3): the problem, the peak's lower bound, the
   scratch and the two baselines. */
static void remat_prepare(const cli_args *a, remat_setup *s) {
  dnnmem_remat_options o;
  dnnmem_remat_bound_result bounds;
  int32_t *sequence;
  int algo;
  size_t need = 0;
  memset(s, 0, sizeof(*s));
  memset(&o, 0, sizeof(o));
  s->path = a->operand;
  cli_read_graph(s->path, &s->g, "id,size,time,inputs", "remat");
  s->n = s->g.n;
  if (a->max_length && a->max_length < s->n)
    cli_usage_error("--max-length %lld is below the %d nodes", (long long)a->max_length, s->n);
  s->max_length = a->max_length ? (int32_t)a->max_length : s->n > ((1 << 28) - 16) / 2 ? s->n : 2 * s->n + 16;
  files_graph_remat_problem(&s->g, &s->problem);
  cli_check(dnnmem_remat_lower_bound(&s->problem, &bounds), s->path);
  s->lower_bound = bounds.peak;
  s->bytes = 0;
  for (algo = 0; algo < DNNMEM_REMAT_ALGO_COUNT; algo++) { /* one scratch for every algorithm */
    o.algo = (dnnmem_remat_algo)algo;
    o.max_group_size = 0;
    cli_check(dnnmem_remat_solve_scratch_size(&s->problem, &o, s->max_length, &need), s->path);
    s->bytes = need > s->bytes ? need : s->bytes;
  }
  s->scratch = cli_alloc(s->bytes);
  sequence = (int32_t *)cli_alloc((size_t)s->max_length * sizeof(int32_t));
  o.algo = DNNMEM_REMAT_ROW_ORDER;
  cli_check(dnnmem_remat_solve(&s->problem, &o, NULL, sequence, s->max_length, &s->base, s->scratch, s->bytes),
            s->path);
  o.algo = DNNMEM_REMAT_CHECKPOINT;
  if (dnnmem_remat_solve(&s->problem, &o, NULL, sequence, s->max_length, &s->checkpoint, s->scratch, s->bytes) !=
      DNNMEM_OK)
    s->checkpoint.peak = s->checkpoint.time = -1;
  free(sequence);
}

static dnnmem_remat_options remat_options_of(const cli_args *a) {
  dnnmem_remat_options o;
  memset(&o, 0, sizeof(o));
  o.iterations = a->iterations;
  o.no_contraction = a->no_contraction != 0;
  o.peak_only = a->peak_only != 0;
  return o;
}

/* The solver's overflow (times x the sequence length past int64_t) names
   the row of the largest time; other errors the file. */
static void remat_fail(const remat_setup *s, dnnmem_result r) {
  int32_t v, worst = 0;
  for (v = 1; v < s->n; v++)
    if (s->g.time[v] > s->g.time[worst]) worst = v;
  if (r == DNNMEM_ERR_OVERFLOW && s->n > 0)
    cli_input_error(s->path, s->g.csv.rows[worst].line, "time too large for the solver (%s)", CLI_RESULT_TEXT(r));
  cli_check(r, s->path);
}

/* Library calls of remat (2/3): one annealing run for budget, stopped
   after seconds when seconds > 0 (the schedule then follows the clock). */
static void remat_anneal(const remat_setup *s, const dnnmem_remat_options *options, int64_t budget,
                         double seconds, uint64_t seed, int report, remat_run *run) {
  dnnmem_remat_options o = *options;
  remat_clock clock;
  dnnmem_rng rng;
  dnnmem_rng_seed(&rng, seed);
  o.budget = budget;
  clock.start_ms = clock.last_report_ms = cli_now_ms();
  clock.limit_ms = seconds * 1e3;
  clock.deadline_ms = clock.start_ms + clock.limit_ms;
  clock.report = report;
  if (seconds > 0) {
    o.stop = cli_deadline_passed;
    o.stop_user = &clock.deadline_ms;
    o.progress = remat_progress;
    o.progress_user = &clock;
  }
  run->result = dnnmem_remat_solve(&s->problem, &o, &rng, run->sequence, s->max_length, &run->stats, s->scratch,
                                   s->bytes);
  if (seconds > 0) remat_progress_end(&clock);
  run->length = run->stats.length;
  run->ms = cli_now_ms() - clock.start_ms;
  if (run->result != DNNMEM_OK && run->result != DNNMEM_ERR_INFEASIBLE) remat_fail(s, run->result);
}

/* Library calls of remat (3/3): the proven lower bound of the extra time;
   INT64_MAX when the budget is below the peak's lower bound. */
static int64_t remat_bound(const remat_setup *s, int64_t budget, int64_t cuts, int32_t *cut) {
  dnnmem_remat_bound_result bounds;
  dnnmem_remat_options o;
  size_t bytes = 0;
  void *scratch;
  dnnmem_result r;
  memset(&o, 0, sizeof(o));
  o.budget = budget;
  o.bound_cuts = (int32_t)cuts;
  cli_check(dnnmem_remat_time_bound_scratch_size(&s->problem, &o, &bytes), s->path);
  scratch = cli_alloc(bytes);
  r = dnnmem_remat_time_bound(&s->problem, &o, &bounds, scratch, bytes);
  if (r != DNNMEM_ERR_INFEASIBLE) cli_check(r, s->path);
  free(scratch);
  if (cut) *cut = bounds.cut;
  return bounds.extra_time;
}

static void remat_print_head(const cli_args *a, const remat_setup *s) {
  if (a->json) {
    cli_json_begin();
    cli_json_int("n", s->n);
    cli_json_int("base_peak", s->base.peak);
    cli_json_int("base_time", s->base.time);
    cli_json_int("lower_bound", s->lower_bound);
  } else {
    printf("%s: %d nodes, base peak %lld bytes, time %lld ns; lower bound %lld\n", files_display_name(s->path), s->n,
           (long long)s->base.peak, (long long)s->base.time, (long long)s->lower_bound);
  }
}

/* One point of the curve: what was found within the budget, else the
   point's own run (over the budget: feasible false). */
static void remat_print_point(const cli_args *a, const remat_setup *s, const dnnmem_remat_point *pt, int k) {
  double ratio = s->base.peak > 0 ? (double)pt->budget / (double)s->base.peak : 1.0;
  int feasible = pt->time >= 0;
  int64_t time = feasible ? pt->time : pt->run_time, peak = feasible ? pt->peak : pt->run_peak;
  int64_t arena = feasible ? pt->arena : pt->run_arena;
  double overhead = remat_overhead(s, time), bound = remat_overhead(s, pt->time_lower_bound);
  if (a->json)
    printf("%s{\"ratio\": %.4g, \"budget\": %lld, \"peak\": %lld, \"arena\": %lld, \"time\": %lld, "
           "\"overhead\": %.6g, \"feasible\": %s, \"time_lower_bound\": %lld, \"overhead_lower_bound\": %.6g}",
           k ? ", " : "", ratio, (long long)pt->budget, (long long)peak, (long long)arena, (long long)time, overhead,
           feasible ? "true" : "false", (long long)pt->time_lower_bound, bound);
  else
    printf("%5.2f %14lld %14lld %14lld %14lld %8.2f%% %8.2f%% %s\n", ratio, (long long)pt->budget, (long long)peak,
           (long long)arena, (long long)time, 100 * overhead, 100 * bound, feasible ? "yes" : "no");
}

/* Library call of remat's curve: dnnmem_remat_curve with the caller's
   moves per point, the clock (when given) spread over the points by its
   progress callback; all points solved before anything is printed, so an
   error leaves stdout empty. */
static void remat_curve(const cli_args *a, const remat_setup *s) {
  int32_t count = a->points ? (int32_t)a->points : REMAT_CURVE_POINTS, k;
  dnnmem_remat_point *points = (dnnmem_remat_point *)cli_alloc((size_t)count * sizeof(*points));
  dnnmem_remat_curve_result res;
  dnnmem_remat_options o = remat_options_of(a);
  dnnmem_remat_spacing spacing = DNNMEM_REMAT_SPACING_EVEN;
  double seconds = a->time_limit > 0 ? a->time_limit : a->iterations ? 0 : REMAT_CURVE_SECONDS;
  double t0 = cli_now_ms();
  remat_clock clock;
  dnnmem_rng rng;
  dnnmem_result r;
  size_t bytes = 0;
  void *scratch;
  if (a->spacing && dnnmem_remat_spacing_parse(a->spacing, &spacing) != DNNMEM_OK)
    cli_usage_error("unknown --spacing '%s' (even or geometric)", a->spacing);
  o.spacing = (int32_t)spacing;
  if (a->time_limit > 0 && !a->iterations) o.iterations = INT64_MAX / 4;
  if (seconds > 0) {
    clock.start_ms = clock.last_report_ms = t0;
    clock.limit_ms = seconds * 1e3;
    clock.deadline_ms = t0 + clock.limit_ms;
    clock.report = remat_report_mode(a);
    o.progress = remat_progress;
    o.progress_user = &clock;
  }
  cli_check(dnnmem_remat_curve_scratch_size(&s->problem, &o, s->max_length, count, &bytes), s->path);
  scratch = cli_alloc(bytes);
  dnnmem_rng_seed(&rng, (uint64_t)a->seed);
  r = dnnmem_remat_curve(&s->problem, &o, &rng, s->max_length, points, count, &res, scratch, bytes);
  if (seconds > 0) remat_progress_end(&clock);
  if (r != DNNMEM_OK) remat_fail(s, r);
  free(scratch);
  remat_print_head(a, s);
  if (a->json) {
    cli_json_string("spacing", dnnmem_remat_spacing_name(spacing));
    cli_json_key("curve");
    printf("[");
  } else {
    /* overhead: the time found over the row order's; at least: the proven
       least overhead of any sequence within the budget */
    printf("%5s %14s %14s %14s %14s %9s %9s %s\n", "ratio", "budget", "peak", "arena", "time", "overhead", "at least",
           "feasible");
  }
  for (k = 0; k < count; k++) remat_print_point(a, s, &points[k], k);
  if (a->json) {
    printf("]");
    cli_json_key("knee");
    if (res.knee >= 0) printf("%lld", (long long)points[res.knee].budget);
    else printf("null");
    cli_json_int("knee_index", res.knee);
    cli_json_int("moves", res.moves);
    cli_json_double("time_ms", cli_now_ms() - t0);
    cli_json_end();
  } else if (res.knee >= 0) {
    printf("knee: budget %lld (time grows fastest below it)\n", (long long)points[res.knee].budget);
  }
  free(points);
}

typedef struct remat_extras {
  dnnmem_remat_result reorder; /* --baselines */
  dnnmem_remat_plan_result arena; /* --plan */
  double arena_ms;
  int64_t extra_bound;        /* --bound; INT64_MAX: none */
  int32_t bound_cut;
  double bound_ms;
} remat_extras;

static void remat_print_json(const remat_setup *s, int64_t budget, const remat_run *run, const remat_extras *x,
                             const cli_args *a) {
  cli_json_int("peak", run->stats.peak);
  cli_json_int("budget", budget);
  cli_json_bool("peak_only", a->peak_only);
  if (!a->remat_plan && run->stats.arena >= 0) cli_json_int("arena", run->stats.arena);
  cli_json_int("time", run->stats.time);
  cli_json_double("overhead", remat_overhead(s, run->stats.time));
  cli_json_bool("feasible", run->result == DNNMEM_OK);
  cli_json_double("time_ms", run->ms);
  cli_json_int("length", run->length);
  cli_json_int("recomputations", run->stats.recomputations);
  cli_json_int("moves", run->stats.moves);
  cli_json_double("moves_per_second", run->ms > 0 ? (double)run->stats.moves / (run->ms / 1e3) : 0.0);
  cli_json_int("checkpoint_peak", s->checkpoint.peak);
  cli_json_int("checkpoint_time", s->checkpoint.time);
  if (a->baselines) {
    cli_json_int("reorder_peak", x->reorder.peak);
    cli_json_int("reorder_time", x->reorder.time);
  }
  if (a->remat_plan) {
    cli_json_int("arena", x->arena.arena);
    cli_json_int("arena_lower_bound", x->arena.plan.lower_bound);
    cli_json_bool("arena_optimal", x->arena.optimal);
    cli_json_string("arena_algo", dnnmem_plan_algo_name(x->arena.plan.algo));
    cli_json_double("arena_ms", x->arena_ms);
  }
  if (x->extra_bound < INT64_MAX) {
    cli_json_int("extra_time_lower_bound", x->extra_bound);
    cli_json_double("overhead_lower_bound", s->base.time > 0 ? (double)x->extra_bound / (double)s->base.time : 0.0);
    cli_json_int("bound_cut", x->bound_cut);
    cli_json_double("bound_ms", x->bound_ms);
  }
  cli_json_end();
}

static void remat_print_text(const remat_setup *s, int64_t budget, const remat_run *run, const remat_extras *x,
                             const cli_args *a) {
  printf("budget %lld: peak %lld (%.1f%% of base), time %lld (+%.2f%%), %d steps, %s\n", (long long)budget,
         (long long)run->stats.peak, s->base.peak > 0 ? 100.0 * (double)run->stats.peak / (double)s->base.peak : 0.0,
         (long long)run->stats.time, 100 * remat_overhead(s, run->stats.time), run->length,
         run->result == DNNMEM_OK ? "feasible" : "INFEASIBLE");
  if (run->stats.arena >= 0)
    printf("arena %lld bytes (%.1f%% of the budget; the %s)\n", (long long)run->stats.arena,
           budget > 0 ? 100.0 * (double)run->stats.arena / (double)budget : 0.0,
           run->result == DNNMEM_OK ? "budget bounds the arena" : "arena does not fit");
  printf("%lld moves in %.0f ms (%.2g moves/s)\n", (long long)run->stats.moves, run->ms,
         run->ms > 0 ? (double)run->stats.moves / (run->ms / 1e3) : 0.0);
  if (s->checkpoint.peak >= 0)
    printf("sqrt(n) checkpointing: peak %lld, time %lld\n", (long long)s->checkpoint.peak,
           (long long)s->checkpoint.time);
  if (a->baselines)
    printf("best reordering: peak %lld, time %lld\n", (long long)x->reorder.peak, (long long)x->reorder.time);
  if (a->remat_plan)
    printf("arena %lld bytes (%s; peak %lld, %s) in %.0f ms\n", (long long)x->arena.arena,
           dnnmem_plan_algo_name(x->arena.plan.algo), (long long)x->arena.peak,
           x->arena.optimal ? "optimal" : "not proven optimal", x->arena_ms);
  if (x->extra_bound < INT64_MAX)
    printf("every sequence within the budget recomputes >= %lld ns (+%.2f%%; cut at node %d, %.0f ms)\n",
           (long long)x->extra_bound, s->base.time > 0 ? 100.0 * (double)x->extra_bound / (double)s->base.time : 0.0,
           x->bound_cut, x->bound_ms);
}

static void remat_write_sequence(const char *path, const remat_run *run) {
  FILE *f = fopen(path, "w");
  int32_t i;
  if (!f) cli_input_error(path, 0, "cannot write: %s", strerror(errno));
  for (i = 0; i < run->length; i++) fprintf(f, "%d\n", run->sequence[i]);
  if (fclose(f) != 0) cli_input_error(path, 0, "write failed: %s", strerror(errno));
}

/* Library calls of remat --plan: the sequence's instances planned in one
   arena (dnnmem_remat_plan), checked by dnnmem_plan_check (a failure would
   be a bug: exit 2); --out then writes step,node,offset rows. */
static void remat_plan_arena(const cli_args *a, const remat_setup *s, int64_t budget, const remat_run *run,
                             remat_extras *x) {
  size_t n = (size_t)run->length + 1, bytes = 0, check_bytes = 0;
  dnnmem_interval *records = (dnnmem_interval *)cli_alloc(n * sizeof(*records));
  int64_t *offsets = (int64_t *)cli_alloc(n * sizeof(int64_t));
  dnnmem_plan_result checked;
  dnnmem_intervals problem;
  dnnmem_plan_options opt;
  void *scratch;
  double t0 = cli_now_ms();
  int32_t j;
  /* the solve's own plan options (its arena again), unless overridden */
  dnnmem_remat_arena_options(budget, run->length, &opt);
  if (a->algo && dnnmem_plan_algo_parse(a->algo, &opt.algo) != DNNMEM_OK)
    cli_usage_error("unknown --plan-algo '%s'", a->algo);
  if (a->algo || a->nodes) opt.node_limit = a->nodes;
  cli_check(dnnmem_remat_plan_scratch_size(&s->problem, &opt, run->sequence, run->length, 0, &bytes),
            s->path);
  scratch = cli_alloc(bytes);
  cli_check(dnnmem_remat_plan(&s->problem, &opt, run->sequence, run->length, 0, records, offsets, &x->arena,
                              scratch, bytes),
            s->path);
  x->arena_ms = cli_now_ms() - t0;
  free(scratch);
  problem.records = records;
  problem.count = run->length;
  problem.alignment = 0;
  cli_check(dnnmem_plan_check_scratch_size(&problem, &check_bytes), s->path);
  scratch = cli_alloc(check_bytes);
  if (dnnmem_plan_check(&problem, offsets, &checked, scratch, check_bytes) != DNNMEM_OK ||
      checked.arena != x->arena.arena || checked.arena < run->stats.peak)
    cli_input_error(s->path, 0, "internal error: the arena's plan fails its check");
  free(scratch);
  if (a->out) {
    FILE *f = fopen(a->out, "w");
    if (!f) cli_input_error(a->out, 0, "cannot write: %s", strerror(errno));
    fprintf(f, "step,node,offset\n");
    for (j = 0; j < run->length; j++) fprintf(f, "%d,%d,%lld\n", j, run->sequence[j], (long long)offsets[j]);
    if (fclose(f) != 0) cli_input_error(a->out, 0, "write failed: %s", strerror(errno));
  }
  free(records);
  free(offsets);
}

/* remat with a budget: one schedule. */
static void remat_single(const cli_args *a, const remat_setup *s, remat_run *run) {
  int64_t budget = a->budget >= 0 ? a->budget : (int64_t)((double)s->base.peak * a->budget_ratio);
  dnnmem_remat_options o = remat_options_of(a);
  remat_extras x;
  remat_run reorder;
  memset(&x, 0, sizeof(x));
  x.extra_bound = INT64_MAX;
  x.bound_cut = -1;
  if (budget > 0 && budget < s->lower_bound) /* 0: no budget */
    fprintf(stderr, "dnnmem remat: budget %lld is below the lower bound %lld: infeasible\n", (long long)budget,
            (long long)s->lower_bound);
  if (a->time_limit > 0 && !o.iterations) o.iterations = INT64_MAX / 4;
  remat_anneal(s, &o, budget, a->time_limit, (uint64_t)a->seed, remat_report_mode(a), run);
  if (a->remat_plan) remat_plan_arena(a, s, budget, run, &x);
  else if (a->out) remat_write_sequence(a->out, run);
  if (a->bound || a->bound_cuts) {
    x.bound_ms = cli_now_ms();
    x.extra_bound = remat_bound(s, budget, a->bound_cuts, &x.bound_cut);
    x.bound_ms = cli_now_ms() - x.bound_ms;
  }
  if (a->baselines) {
    o.reorder_only = 1;
    reorder.sequence = (int32_t *)cli_alloc((size_t)s->max_length * sizeof(int32_t));
    remat_anneal(s, &o, 0, a->time_limit, (uint64_t)a->seed, REMAT_QUIET, &reorder);
    x.reorder = reorder.stats;
    free(reorder.sequence);
  }
  remat_print_head(a, s);
  if (a->json) remat_print_json(s, budget, run, &x, a);
  else remat_print_text(s, budget, run, &x, a);
}

static int cmd_remat(const cli_args *a) {
  remat_setup s;
  remat_run run;
  int have_budget = a->budget >= 0, have_ratio = a->budget_ratio > 0;
  if (have_budget && have_ratio) cli_usage_error("give --budget or --budget-ratio, not both");
  if (a->curve && (have_budget || have_ratio)) cli_usage_error("--curve takes no budget");
  if (!have_budget && !have_ratio && (a->out || a->bound || a->bound_cuts || a->baselines))
    cli_usage_error("--out, --bound and --baselines need --budget or --budget-ratio");
  if (!have_budget && !have_ratio && a->remat_plan) cli_usage_error("--plan needs --budget or --budget-ratio");
  if (!a->remat_plan && (a->algo || a->nodes)) cli_usage_error("--plan-algo and --plan-nodes need --plan");
  if ((have_budget || have_ratio) && (a->points || a->spacing)) cli_usage_error("--points and --spacing are the curve's");
  remat_prepare(a, &s);
  run.sequence = (int32_t *)cli_alloc((size_t)s.max_length * sizeof(int32_t));
  if (have_budget || have_ratio) remat_single(a, &s, &run);
  else remat_curve(a, &s);
  free(run.sequence);
  free(s.scratch);
  files_graph_free(&s.g);
  return 0;
}

/* ---- layout ---------------------------------------------------------------- */

static const cli_option layout_options[] = {
    {"--machine", "SPEC", CLI_STRING, CLI_ARG(machine), 0, 0,
     "level extents, outermost first: 'L2B=16,L1B=8,MAB=16,PE=4';\nchecks the layout fits and makes unused levels broadcasts"},
    {"--at", "I,J,..", CLI_LIST, CLI_ARG(at), 0, 0, "where element (I,J,..) lives (repeatable; padded indices allowed)"},
    {"--dump", NULL, CLI_FLAG, CLI_ARG(dump), 0, 0, "every position of the (padded) shape, in row-major order"},
    {NULL, NULL, CLI_FLAG, 0, 0, 0, NULL}};

/* A bad layout or machine text: "layout:1: byte N: what", the text and a caret. */
static void layout_fail_at(const char *what, const char *text, int64_t at, dnnmem_result r) {
  int col = (int)(at < 0 ? 0 : at > (int64_t)strlen(text) ? (int64_t)strlen(text) : at);
  cli_input_error(what, 1, "byte %d: %s\n  %s\n  %*s^", col, CLI_RESULT_TEXT(r), text, col, "");
}

typedef struct layout_answer {
  dnnmem_layout l;
  dnnmem_layout_result st;
  int have_stats; /* replicas known (a machine or no broadcast) */
  char canonical[DNNMEM_LAYOUT_TEXT_MAX];
} layout_answer;

/* Library calls of layout (queries: layout_print_queries). */
static void layout_solve(const cli_args *a, layout_answer *ans) {
  dnnmem_layout_machine machine;
  dnnmem_error bad;
  int64_t err = 0;
  dnnmem_result r = dnnmem_layout_parse(a->operand, strlen(a->operand), &ans->l, &err);
  if (r != DNNMEM_OK) layout_fail_at("layout", a->operand, err, r);
  if (a->machine) {
    r = dnnmem_layout_machine_parse(a->machine, strlen(a->machine), &machine, &err);
    if (r != DNNMEM_OK) layout_fail_at("machine", a->machine, err, r);
    r = dnnmem_layout_bind(&ans->l, &machine, &bad);
    if (r != DNNMEM_OK) /* the factor's byte in the text */
      layout_fail_at("layout", a->operand, bad.index >= 0 ? ans->l.factors[bad.index].position : 0, r);
  }
  dnnmem_layout_print(&ans->l, ans->canonical, sizeof(ans->canonical), NULL);
  ans->have_stats = dnnmem_layout_measure(&ans->l, &ans->st) == DNNMEM_OK;
}

/* The --at lists: integers, one per axis, inside the padded shape. */
static int64_t *layout_parse_at(const cli_args *a, const dnnmem_layout *l) {
  int32_t num_at = (int32_t)arrlen(a->at), i, axis;
  int64_t *indices = (int64_t *)cli_alloc(((size_t)num_at + 1) * (size_t)l->num_axes * sizeof(int64_t));
  for (i = 0; i < num_at; i++) {
    const char *p = a->at[i];
    for (axis = 0;; axis++) {
      char *end;
      long long v;
      if (axis == l->num_axes) cli_input_error("--at", 1, "'%s': the layout has %d axes", a->at[i], l->num_axes);
      errno = 0;
      v = strtoll(p, &end, 10);
      if (end == p || errno || (*end && *end != ',')) cli_usage_error("--at '%s': expected integers I,J,..", a->at[i]);
      if (v < 0 || v >= l->shape[axis])
        cli_input_error("--at", 1, "'%s': index %lld of axis %d is outside 0..%lld", a->at[i], v, axis,
                        (long long)l->shape[axis] - 1);
      indices[(size_t)i * (size_t)l->num_axes + (size_t)axis] = v;
      if (*end == 0) break;
      p = end + 1;
    }
    if (axis + 1 != l->num_axes) cli_input_error("--at", 1, "'%s': the layout has %d axes", a->at[i], l->num_axes);
  }
  return indices;
}

#define LAYOUT_MAX_COPIES_LISTED 4096
#define LAYOUT_MAX_DUMP ((int64_t)1 << 22)

/* The units of one level as JSON (JSON true) or text: a coordinate, "all",
   or the coordinates of every copy when a counted broadcast uses the level. */
static void layout_print_unit(const dnnmem_layout *l, int32_t lv, int64_t base, int json) {
  int64_t copies = 1, stride[DNNMEM_LAYOUT_MAX_FACTORS], extent[DNNMEM_LAYOUT_MAX_FACTORS], c, rest;
  int32_t k, n = 0, i;
  if (base == DNNMEM_LAYOUT_ALL) {
    printf(json ? "\"all\"" : "all");
    return;
  }
  for (k = l->axis_first[l->num_axes]; k < l->num_factors; k++)
    if (l->factors[k].level == lv && l->factors[k].extent > 1) {
      extent[n] = l->factors[k].extent;
      stride[n++] = l->factors[k].stride;
      copies = copies > LAYOUT_MAX_COPIES_LISTED ? copies : copies * l->factors[k].extent;
    }
  if (n == 0) {
    printf("%lld", (long long)base);
    return;
  }
  if (copies > LAYOUT_MAX_COPIES_LISTED) {
    printf(json ? "{\"first\": %lld, \"copies\": \"more than %d\"}" : "%lld+(more than %d copies)",
           (long long)base, LAYOUT_MAX_COPIES_LISTED);
    return;
  }
  printf(json ? "[" : "{");
  for (c = 0; c < copies; c++) {
    int64_t v = base;
    for (rest = c, i = n - 1; i >= 0; i--) {
      v += rest % extent[i] * stride[i];
      rest /= extent[i];
    }
    printf("%s%lld", c ? (json ? ", " : ",") : "", (long long)v);
  }
  printf(json ? "]" : "}");
}

/* One location: JSON object fields (without braces) or a text line. */
static void layout_print_location(const dnnmem_layout *l, const int64_t *index, const int64_t *units,
                                  int64_t address, int padding, int json) {
  int32_t a, lv;
  if (json) {
    printf("\"at\": [");
    for (a = 0; a < l->num_axes; a++) printf("%s%lld", a ? ", " : "", (long long)index[a]);
    printf("], \"units\": {");
    for (lv = 0; lv < l->num_levels; lv++) {
      printf("%s", lv ? ", " : "");
      cli_json_string_value(l->level_names[lv]);
      printf(": ");
      layout_print_unit(l, lv, units[lv], 1);
    }
    printf("}, \"address\": %lld, \"padding\": %s", (long long)address, padding ? "true" : "false");
  } else {
    printf("(");
    for (a = 0; a < l->num_axes; a++) printf("%s%lld", a ? "," : "", (long long)index[a]);
    printf(") ->");
    for (lv = 0; lv < l->num_levels; lv++) {
      printf(" %s=", l->level_names[lv]);
      layout_print_unit(l, lv, units[lv], 0);
    }
    printf(" address %lld%s\n", (long long)address, padding ? " (padding)" : "");
  }
}

static void layout_print_dims(const int64_t *v, int32_t n, int json) {
  int32_t a;
  if (json) printf("[");
  for (a = 0; a < n; a++) printf("%s%lld", a ? (json ? ", " : "x") : "", (long long)v[a]);
  if (json) printf("]");
}

static void layout_print_json(const layout_answer *ans) {
  const dnnmem_layout *l = &ans->l;
  int32_t lv;
  cli_json_string("canonical", ans->canonical);
  cli_json_int("size", l->size);
  cli_json_int("padded_size", l->padded_size);
  cli_json_key("shape");
  layout_print_dims(l->shape, l->num_axes, 1);
  cli_json_key("unpadded");
  layout_print_dims(l->unpadded, l->num_axes, 1);
  cli_json_key("levels");
  printf("[");
  for (lv = 0; lv < l->num_levels; lv++) {
    printf("%s{\"name\": ", lv ? ", " : "");
    cli_json_string_value(l->level_names[lv]);
    printf(", \"extent\": %lld, \"parts\": %lld, \"broadcast\": %s",
           (long long)(l->bound ? l->level_extent[lv] : l->level_span[lv]), (long long)l->level_parts[lv],
           l->level_all[lv] ? "\"all\"" : "false");
    if (ans->have_stats) printf(", \"share\": %lld", (long long)ans->st.level_share[lv]);
    printf("}");
  }
  printf("]");
  cli_json_int("cosize", l->cosize);
  cli_json_key("replicas");
  if (l->replicas) printf("%lld", (long long)l->replicas);
  else printf("null");
  if (ans->have_stats) {
    cli_json_int("units_total", ans->st.units);
    cli_json_int("slots", ans->st.slots);
    cli_json_int("padding_slots", ans->st.padding_slots);
    cli_json_int("unused_slots", ans->st.unused_slots);
    cli_json_int("capacity", ans->st.capacity);
  }
}

static void layout_print_text(const layout_answer *ans) {
  const dnnmem_layout *l = &ans->l;
  const dnnmem_layout_result *st = &ans->st;
  int32_t lv;
  printf("%s\nshape ", ans->canonical);
  layout_print_dims(l->shape, l->num_axes, 0);
  printf(" (unpadded ");
  layout_print_dims(l->unpadded, l->num_axes, 0);
  printf("): %lld elements, %lld positions, cosize %lld per unit\n", (long long)l->size, (long long)l->padded_size,
         (long long)l->cosize);
  for (lv = 0; lv < l->num_levels; lv++)
    printf("level %s: %lld units%s, split %lld ways%s\n", l->level_names[lv],
           (long long)(l->bound ? l->level_extent[lv] : l->level_span[lv]), l->bound ? "" : " used",
           (long long)l->level_parts[lv], l->level_all[lv] ? ", broadcast to all" : "");
  if (ans->have_stats)
    printf("replicas %lld, units %lld, slots %lld (padding %lld), capacity %lld, unused %lld\n",
           (long long)st->replicas, (long long)st->units, (long long)st->slots, (long long)st->padding_slots,
           (long long)st->capacity, (long long)st->unused_slots);
  else
    printf("replicas unknown: give --machine to count B@[LEVEL] copies\n");
}

/* Locations of count indices (JSON objects in a list, or text lines);
   indices NULL: every position 0..count-1 of the padded shape. */
static void layout_print_locations(const dnnmem_layout *l, const int64_t *indices, int64_t count, int json) {
  int64_t units[DNNMEM_LAYOUT_MAX_LEVELS], address, i, position[DNNMEM_LAYOUT_MAX_AXES];
  uint8_t padding;
  if (json) printf("[");
  for (i = 0; i < count; i++) {
    const int64_t *index = indices ? indices + (size_t)i * (size_t)l->num_axes : position;
    if (!indices) dnnmem_layout_index(l, i, position);
    dnnmem_layout_forward(l, index, units, &address, &padding);
    if (json) printf("%s{", i ? ", " : "");
    layout_print_location(l, index, units, address, padding, json);
    if (json) printf("}");
  }
  if (json) printf("]");
}

/* The --at queries (and for one --at its fields at the top level), then --dump. */
static void layout_print_queries(const cli_args *a, const dnnmem_layout *l, const int64_t *indices) {
  int32_t num_at = (int32_t)arrlen(a->at);
  if (a->json) cli_json_key("locations");
  layout_print_locations(l, indices, num_at, a->json);
  if (a->json && num_at == 1) {
    int64_t units[DNNMEM_LAYOUT_MAX_LEVELS], address;
    uint8_t padding;
    dnnmem_layout_forward(l, indices, units, &address, &padding);
    printf(", ");
    layout_print_location(l, indices, units, address, padding, 1);
  }
  if (!a->dump) return;
  if (a->json) cli_json_key("dump");
  layout_print_locations(l, NULL, l->padded_size, a->json);
}

static int cmd_layout(const cli_args *args) {
  layout_answer ans;
  int64_t *indices;
  cli_args stdin_args = *args;
  const cli_args *a = args;
  char *text = NULL;
  if (strcmp(args->operand, "-") == 0) { /* the layout text from standard input */
    files_error err;
    size_t len;
    if (!(text = files_read_text("-", &len, &err))) cli_file_error(&err);
    while (len > 0 && isspace((unsigned char)text[len - 1])) text[--len] = 0;
    stdin_args.operand = files_trim(text);
    a = &stdin_args;
  }
  layout_solve(a, &ans);
  indices = layout_parse_at(a, &ans.l);
  if (a->dump && ans.l.padded_size > LAYOUT_MAX_DUMP)
    cli_input_error("layout", 1, "--dump: %lld positions is more than %lld", (long long)ans.l.padded_size,
                    (long long)LAYOUT_MAX_DUMP);
  if (a->json) {
    cli_json_begin();
    layout_print_json(&ans);
  } else {
    layout_print_text(&ans);
  }
  layout_print_queries(a, &ans.l, indices);
  if (a->json) cli_json_end();
  free(indices);
  free(text);
  return 0;
}

/* ---- place ---------------------------------------------------------------- */

static const cli_option place_options[] = {
    {"--per-edge", NULL, CLI_FLAG, CLI_ARG(per_edge), 0, 0,
     "charge xfer per producer/consumer pair (default: once per value)"},
    {"--algo", "A", CLI_STRING, CLI_ARG(algo), 0, 0, "max-flow algorithm: bk (default) or pr"},
    {"--out", "F", CLI_STRING, CLI_ARG(out), 0, 0, "write the input rows with the chosen 'device' (cpu/acc)"},
    {"--devices", "A,B,..", CLI_STRING, CLI_ARG(devices), 0, 0,
     "place over these devices (priority order) by their time_<device> columns\n(microseconds, inf = unsupported); "
     "dnnmem_label_solve"},
    {"--link", "A-B=US:GBPS", CLI_LIST, CLI_ARG(links), 0, 0,
     "with --devices: converting a value from A to B costs US microseconds + size / GBPS\n(repeatable; "
     "symmetric unless both directions are given; pairs without a link cost xfer)"},
    {NULL, NULL, CLI_FLAG, 0, 0, 0, NULL}};

/* The pins: the file's device column, graph inputs on the CPU; an op
   pinned where it cannot run (or supported nowhere) is named by its line. */
static uint8_t *place_pins(const files_graph *g) {
  uint8_t *pins = (uint8_t *)cli_alloc((size_t)g->n);
  int32_t v;
  for (v = 0; v < g->n; v++) {
    long line = g->csv.rows[v].line;
    pins[v] = g->device[v];
    if (strcmp(g->ops[v], "input") == 0) {
      if (pins[v] == DNNMEM_PLACE_ACC) cli_input_error(g->csv.path, line, "graph input pinned to the accelerator");
      pins[v] = DNNMEM_PLACE_CPU;
    }
    if ((pins[v] == DNNMEM_PLACE_CPU && g->cpu_time[v] < 0) || (pins[v] == DNNMEM_PLACE_ACC && g->acc_time[v] < 0) ||
        (g->cpu_time[v] < 0 && g->acc_time[v] < 0))
      cli_input_error(g->csv.path, line, "%s", CLI_RESULT_TEXT(DNNMEM_ERR_PLACE_UNSUPPORTED));
  }
  return pins;
}

/* Library calls of place. */
static void place_solve(const files_graph *g, const uint8_t *pins, const dnnmem_place_options *options,
                        int64_t *device, dnnmem_place_result *res, double *ms) {
  dnnmem_place_problem problem;
  uint8_t *out = (uint8_t *)cli_alloc((size_t)g->n);
  size_t bytes = 0;
  void *scratch;
  int32_t v;
  memset(&problem, 0, sizeof(problem));
  problem.graph = &g->graph;
  problem.cpu_time = g->cpu_time;
  problem.acc_time = g->acc_time;
  problem.xfer = g->xfer;
  problem.device = pins;
  problem.is_output = g->output;
  cli_check(dnnmem_place_solve_scratch_size(&problem, options, &bytes), g->csv.path);
  scratch = cli_alloc(bytes);
  *ms = cli_now_ms();
  cli_check(dnnmem_place_solve(&problem, options, out, res, scratch, bytes), g->csv.path);
  *ms = cli_now_ms() - *ms;
  for (v = 0; v < g->n; v++) device[v] = out[v];
  free(out);
  free(scratch);
}

static void place_print(const cli_args *a, int32_t n, const dnnmem_place_result *res, double ms) {
  const char *model = dnnmem_place_model_name(a->per_edge ? DNNMEM_PLACE_PER_EDGE : DNNMEM_PLACE_PER_VALUE);
  if (!a->json) {
    printf("%d ops: %d on the CPU, %d on the accelerator (%d free in %d parts)\n", n, res->num_cpu, res->num_acc,
           res->num_free, res->num_parts);
    printf("optimum      %.3f us (%d conversions, %s)\n", (double)res->time / 1e3, res->conversions, model);
    printf("all on acc   %.3f us (%+.2f%%)\n", (double)res->all_acc_time / 1e3,
           res->time ? 100.0 * ((double)res->all_acc_time / (double)res->time - 1.0) : 0.0);
    printf("greedy       %.3f us\nall on cpu   %.3f us\nsolved in %.3f ms\n", (double)res->greedy_time / 1e3,
           (double)res->all_cpu_time / 1e3, ms);
    return;
  }
  cli_json_begin();
  cli_json_int("n", n);
  cli_json_string("model", model);
  cli_json_int("time", res->time);
  cli_json_int("all_acc_time", res->all_acc_time);
  cli_json_int("greedy_time", res->greedy_time);
  cli_json_int("all_cpu_time", res->all_cpu_time);
  cli_json_int("cut", res->cut);
  cli_json_string("unit", "ns");
  cli_json_int("conversions", res->conversions);
  cli_json_int("cpu_ops", res->num_cpu);
  cli_json_int("acc_ops", res->num_acc);
  cli_json_int("free_ops", res->num_free);
  cli_json_int("parts", res->num_parts);
  cli_json_int("flow_nodes", res->flow_nodes);
  cli_json_int("flow_arcs", res->flow_arcs);
  cli_json_double("time_ms", ms);
  cli_json_end();
}


/* ---- place over several devices (--devices, --link): part 9 -------------- */

#define PLACE_MAX_DEVICES 16

typedef struct place_devices {
  int32_t k, cpu;                 /* count; the device named cpu (else 0) */
  char *names[PLACE_MAX_DEVICES];
  int64_t latency[PLACE_MAX_DEVICES * PLACE_MAX_DEVICES];  /* ns; -1: no link */
  double gbps[PLACE_MAX_DEVICES * PLACE_MAX_DEVICES];
  int given[PLACE_MAX_DEVICES * PLACE_MAX_DEVICES];        /* 2: this direction given */
} place_devices;

static int32_t place_device_index(const place_devices *d, const char *name, size_t len) {
  int32_t i;
  for (i = 0; i < d->k; i++)
    if (strlen(d->names[i]) == len && strncmp(d->names[i], name, len) == 0) return i;
  return -1;
}

/* --devices A,B,C: names in priority order. */
static void place_parse_devices(const char *list, place_devices *d) {
  const char *p = list;
  memset(d, 0, sizeof(*d));
  while (1) {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    if (len == 0) cli_usage_error("--devices: empty device name in '%s'", list);
    if (d->k == PLACE_MAX_DEVICES) cli_usage_error("--devices: at most %d devices", PLACE_MAX_DEVICES);
    if (place_device_index(d, p, len) >= 0) cli_usage_error("--devices: '%.*s' named twice", (int)len, p);
    d->names[d->k] = (char *)cli_alloc(len + 1);
    memcpy(d->names[d->k], p, len);
    d->names[d->k++][len] = 0;
    if (!comma) break;
    p = comma + 1;
  }
  d->cpu = place_device_index(d, "cpu", 3);
  if (d->cpu < 0) d->cpu = 0; /* inputs and outputs: the first device */
}

/* --link A-B=US:GBPS (an unknown device is bad input: exit 2). */
static void place_parse_link(const char *text, place_devices *d) {
  const char *eq = strchr(text, '='), *dash;
  char *end;
  double us, gbps;
  int32_t a = -1, b = -1;
  if (!eq) cli_usage_error("--link '%s': expected A-B=LATENCY_US:GB_PER_S", text);
  for (dash = strchr(text, '-'); dash && dash < eq && (a < 0 || b < 0); dash = strchr(dash + 1, '-')) {
    a = place_device_index(d, text, (size_t)(dash - text));
    b = place_device_index(d, dash + 1, (size_t)(eq - dash - 1));
  }
  if (!strchr(text, '-') || strchr(text, '-') > eq) cli_usage_error("--link '%s': expected A-B=LATENCY_US:GB_PER_S", text);
  if (a < 0 || b < 0) {
    const char *first = strchr(text, '-');
    int32_t fa = place_device_index(d, text, (size_t)(first - text));
    if (fa < 0) cli_input_error("--link", 0, "unknown device '%.*s' in '%s'", (int)(first - text), text, text);
    cli_input_error("--link", 0, "unknown device '%.*s' in '%s'", (int)(eq - first - 1), first + 1, text);
  }
  if (a == b) cli_usage_error("--link '%s': a link joins two different devices", text);
  errno = 0;
  us = strtod(eq + 1, &end);
  if (errno || end == eq + 1 || *end != ':' || !isfinite(us) || us < 0)
    cli_usage_error("--link '%s': latency must be microseconds >= 0", text);
  gbps = strtod(end + 1, &end);
  if (errno || *end || !isfinite(gbps) || gbps <= 0) cli_usage_error("--link '%s': bandwidth must be GB/s > 0", text);
  if (us * 1e3 > 9e18) cli_usage_error("--link '%s': latency too large", text);
  d->latency[a * d->k + b] = (int64_t)llround(us * 1e3);
  d->gbps[a * d->k + b] = gbps;
  d->given[a * d->k + b] = 2;
  if (d->given[b * d->k + a] != 2) { /* symmetric until the other direction is given */
    d->latency[b * d->k + a] = d->latency[a * d->k + b];
    d->gbps[b * d->k + a] = gbps;
    d->given[b * d->k + a] = 1;
  }
}

typedef struct place_labeling {
  int32_t n, k;
  int64_t *cost, *convert;
  int32_t *pin, *out;
  dnnmem_label_problem p;
} place_labeling;

/* The labeling problem of a graph over the devices; bad input exits 2. */
static void place_labeling_build(const files_graph *g, const place_devices *d, place_labeling *L) {
  int32_t v, i, j, k = d->k;
  int col[PLACE_MAX_DEVICES];
  files_error err;
  L->n = g->n;
  L->k = k;
  L->cost = (int64_t *)cli_alloc(((size_t)g->n + 1) * (size_t)k * sizeof(int64_t));
  L->convert = (int64_t *)cli_alloc(((size_t)g->n + 1) * (size_t)k * (size_t)k * sizeof(int64_t));
  L->pin = (int32_t *)cli_alloc(((size_t)g->n + 1) * sizeof(int32_t));
  L->out = (int32_t *)cli_alloc(((size_t)g->n + 1) * sizeof(int32_t));
  for (i = 0; i < k; i++) {
    char name[128];
    snprintf(name, sizeof(name), "time_%s", d->names[i]);
    if ((col[i] = files_column(&g->csv, name)) < 0)
      cli_input_error(g->csv.path, g->csv.header_line, "missing column '%s' (--devices %s)", name, d->names[i]);
    for (j = col[i] + 1; j < (int32_t)arrlen(g->csv.columns); j++)
      if (strcmp(g->csv.columns[j], name) == 0)
        cli_input_error(g->csv.path, g->csv.header_line, "column '%s' appears twice (columns %d and %d)", name,
                        col[i] + 1, (int)j + 1);
  }
  for (v = 0; v < g->n; v++) {
    long line = g->csv.rows[v].line;
    int allowed = 0, has_cpu = strcmp(d->names[d->cpu], "cpu") == 0;
    L->pin[v] = DNNMEM_LABEL_FREE;
    if (strcmp(g->ops[v], "input") == 0 || (g->device[v] == DNNMEM_PLACE_CPU && has_cpu)) L->pin[v] = d->cpu;
    for (i = 0; i < k; i++) {
      int64_t t;
      if (files_cell_time_ns(&g->csv, v, col[i], 1, &t, &err) != 0) cli_file_error(&err);
      if (g->device[v] == DNNMEM_PLACE_ACC && strcmp(d->names[i], "cpu") == 0) t = DNNMEM_LABEL_UNSUPPORTED;
      L->cost[(size_t)v * k + i] = t;
      if (t >= 0 && (L->pin[v] < 0 || L->pin[v] == i)) allowed = 1;
    }
    if (!allowed)
      cli_input_error(g->csv.path, line, "op '%s' runs on none of the devices (every time_* inf, or its device pin)",
                      g->names[v]);
    L->out[v] = g->output[v] ? d->cpu : DNNMEM_LABEL_FREE;
    for (i = 0; i < k; i++)
      for (j = 0; j < k; j++) {
        int64_t c = g->xfer[v];
        if (i == j) c = 0;
        else if (d->given[i * k + j]) {
          double bytes_ns = (double)g->size[v] / d->gbps[i * k + j]; /* bytes / (GB/s) = ns */
          if (bytes_ns > 4e18) cli_input_error(g->csv.path, line, "conversion time of '%s' too large", g->names[v]);
          c = d->latency[i * k + j] + (int64_t)llround(bytes_ns);
        }
        L->convert[((size_t)v * k + i) * k + j] = c;
      }
  }
  memset(&L->p, 0, sizeof(L->p));
  L->p.graph = &g->graph;
  L->p.num_labels = k;
  L->p.node_cost = L->cost;
  L->p.convert = L->convert;
  L->p.pin = L->pin;
  L->p.output_label = L->out;
}

typedef struct place_multi_answer {
  dnnmem_label_result res;
  int64_t single[PLACE_MAX_DEVICES], greedy, greedy_op;
  int32_t count[PLACE_MAX_DEVICES];
  double ms;
} place_multi_answer;

/* A baseline: each op on the first device of order[] it may take (per_op:
   its fastest allowed device, ties by order), costed by the library. */
static int64_t place_baseline(const place_labeling *L, const int32_t *order, int per_op, int32_t *label, void *mem,
                              size_t bytes) {
  int32_t v, j, k = L->k;
  dnnmem_label_result cost;
  for (v = 0; v < L->n; v++) {
    label[v] = -1;
    for (j = 0; j < k; j++) {
      int32_t l = order[j];
      int64_t t = L->cost[(size_t)v * k + l];
      if (t < 0 || (L->pin[v] >= 0 && L->pin[v] != l)) continue;
      if (label[v] < 0 || (per_op && t < L->cost[(size_t)v * k + label[v]])) label[v] = l;
      if (!per_op) break;
    }
  }
  cli_check(dnnmem_label_cost(&L->p, label, &cost, mem, bytes), "dnnmem_label_cost");
  return cost.cost;
}

/* Library calls of place --devices. */
static void place_multi_solve(const cli_args *a, const files_graph *g, const place_labeling *L, int32_t *label,
                              place_multi_answer *ans) {
  dnnmem_label_options o;
  size_t bytes = 0, cost_bytes = 0;
  void *scratch, *cost_scratch;
  int32_t order[PLACE_MAX_DEVICES], *tmp = (int32_t *)cli_alloc(((size_t)g->n + 1) * sizeof(int32_t)), i, j, m, v;
  memset(&o, 0, sizeof(o));
  o.flow = cli_flow_algo(a->algo);
  cli_check(dnnmem_label_solve_scratch_size(&L->p, &o, &bytes), g->csv.path);
  cli_check(dnnmem_label_cost_scratch_size(&L->p, &cost_bytes), g->csv.path);
  scratch = cli_alloc(bytes);
  cost_scratch = cli_alloc(cost_bytes);
  ans->ms = cli_now_ms();
  cli_check(dnnmem_label_solve(&L->p, &o, label, &ans->res, scratch, bytes), g->csv.path);
  ans->ms = cli_now_ms() - ans->ms;
  for (i = 0; i < L->k; i++) ans->count[i] = 0;
  for (v = 0; v < g->n; v++) ans->count[label[v]]++;
  for (i = 0; i < L->k; i++) order[i] = i;
  ans->greedy = place_baseline(L, order, 0, tmp, cost_scratch, cost_bytes);
  ans->greedy_op = place_baseline(L, order, 1, tmp, cost_scratch, cost_bytes);
  for (i = 0; i < L->k; i++) {
    order[0] = i;
    for (j = 0, m = 1; j < L->k; j++)
      if (j != i) order[m++] = j;
    ans->single[i] = place_baseline(L, order, 0, tmp, cost_scratch, cost_bytes);
  }
  free(tmp);
  free(scratch);
  free(cost_scratch);
}

static double place_pct(int64_t x, int64_t base) { return base ? 100.0 * ((double)x / (double)base - 1.0) : 0.0; }

static void place_multi_print(const cli_args *a, const place_devices *d, int32_t n, const place_multi_answer *ans) {
  const dnnmem_label_result *r = &ans->res;
  double gap = r->lower_bound ? 100.0 * (double)r->gap / (double)r->lower_bound : 0.0;
  int32_t i;
  if (!a->json) {
    printf("%d ops on %d devices:", n, d->k);
    for (i = 0; i < d->k; i++) printf(" %s %d", d->names[i], ans->count[i]);
    printf("\ntime          %.3f us (%s, %s)\n", (double)r->cost / 1e3, r->optimal ? "optimal" : "not proven",
           dnnmem_label_algo_name(r->algo));
    printf("lower bound   %.3f us (gap %.3f%%)\n", (double)r->lower_bound / 1e3, gap);
    for (i = 0; i < d->k; i++)
      printf("only %-8s %.3f us (%+.2f%%)\n", d->names[i], (double)ans->single[i] / 1e3, place_pct(ans->single[i], r->cost));
    printf("greedy        %.3f us (%+.2f%%; each op on the first device of --devices that runs it)\n",
           (double)ans->greedy / 1e3, place_pct(ans->greedy, r->cost));
    printf("greedy per op %.3f us (%+.2f%%; each op on its fastest device)\n", (double)ans->greedy_op / 1e3,
           place_pct(ans->greedy_op, r->cost));
    printf("solved in %.3f ms\n", ans->ms);
    return;
  }
  cli_json_begin();
  cli_json_int("n", n);
  cli_json_key("devices");
  printf("[");
  for (i = 0; i < d->k; i++) {
    if (i) printf(", ");
    cli_json_string_value(d->names[i]);
  }
  printf("]");
  cli_json_int("time", r->cost);
  cli_json_int("lower_bound", r->lower_bound);
  cli_json_int("gap", r->gap);
  cli_json_bool("optimal", r->optimal);
  cli_json_int("greedy_time", ans->greedy);
  cli_json_int("greedy_op_time", ans->greedy_op);
  cli_json_key("single_time");
  printf("{");
  for (i = 0; i < d->k; i++) {
    printf("%s", i ? ", " : "");
    cli_json_string_value(d->names[i]);
    printf(": %lld", (long long)ans->single[i]);
  }
  printf("}");
  cli_json_key("ops");
  printf("{");
  for (i = 0; i < d->k; i++) {
    printf("%s", i ? ", " : "");
    cli_json_string_value(d->names[i]);
    printf(": %d", ans->count[i]);
  }
  printf("}");
  cli_json_string("unit", "ns");
  cli_json_string("algo", dnnmem_label_algo_name(r->algo));
  cli_json_string("stop", dnnmem_label_stop_name(r->stop));
  cli_json_int("moves", r->moves);
  cli_json_int("nodes", r->nodes);
  cli_json_double("time_ms", ans->ms);
  cli_json_end();
}

static int place_multi(const cli_args *a) {
  place_devices d;
  place_labeling L;
  place_multi_answer ans;
  files_graph g;
  int32_t *label, v, i;
  int64_t *device;
  size_t li;
  if (a->per_edge) cli_usage_error("--per-edge is for two devices (without --devices)");
  place_parse_devices(a->devices, &d);
  for (li = 0; li < (size_t)arrlen(a->links); li++) place_parse_link(a->links[li], &d);
  cli_read_graph(a->operand, &g, arrlen(a->links) ? "id,size,xfer,inputs" : "id,xfer,inputs", "place --devices");
  place_labeling_build(&g, &d, &L);
  label = (int32_t *)cli_alloc(((size_t)g.n + 1) * sizeof(int32_t));
  place_multi_solve(a, &g, &L, label, &ans);
  if (a->out) {
    device = (int64_t *)cli_alloc(((size_t)g.n + 1) * sizeof(int64_t));
    for (v = 0; v < g.n; v++) device[v] = label[v];
    cli_write_column(&g.csv, a->out, "device", device, (const char *const *)d.names);
    free(device);
  }
  place_multi_print(a, &d, g.n, &ans);
  free(label);
  free(L.cost), free(L.convert), free(L.pin), free(L.out);
  for (i = 0; i < d.k; i++) free(d.names[i]);
  files_graph_free(&g);
  return 0;
}

/* ---- layoutplan: an output layout per op by the labeling engine (part 9) - */

static const cli_option layoutplan_options[] = {
    {"--candidates", "F", CLI_STRING, CLI_ARG(candidates), 0, 0,
     "the machine, the DMA cost model, named TensorLayouts of one tile and, per\nop kind, its candidate layouts "
     "with op cost factors (format in the usage above)"},
    {"--out", "F", CLI_STRING, CLI_ARG(out), 0, 0, "write the input rows with the chosen 'layout' (its name in F)"},
    {NULL, NULL, CLI_FLAG, 0, 0, 0, NULL}};

/* The per-tile conversion of every ordered pair of the candidates' layouts,
   priced by the layout part (dnnmem_layout_convert) and F's cost line. */
typedef struct lp_file {
  files_candidates c;
  double *per_tile;               /* [k * k]: ns to convert one tile from a to b */
  dnnmem_layout_conversion *conv; /* [k * k] */
} lp_file;

static void lp_read(const char *path, lp_file *f) {
  files_error err;
  int32_t i, j, k;
  if (files_read_candidates(path, &f->c, &err) != 0) cli_file_error(&err);
  k = f->c.k;
  f->per_tile = (double *)cli_alloc(sizeof(double) * (size_t)k * (size_t)k);
  f->conv = (dnnmem_layout_conversion *)cli_alloc(sizeof(dnnmem_layout_conversion) * (size_t)k * (size_t)k);
  for (i = 0; i < k; i++)
    for (j = 0; j < k; j++) {
      dnnmem_layout_conversion *c = &f->conv[i * k + j];
      size_t bytes = 0;
      void *mem;
      memset(c, 0, sizeof(*c));
      f->per_tile[i * k + j] = 0;
      if (i == j) continue;
      cli_check(dnnmem_layout_convert_scratch_size(&f->c.layouts[i], &f->c.layouts[j], &bytes), path);
      mem = cli_alloc(bytes);
      cli_check(dnnmem_layout_convert(&f->c.layouts[i], &f->c.layouts[j], c, mem, bytes), path);
      free(mem);
      f->per_tile[i * k + j] =
          (f->c.run_ns * (double)c->runs + f->c.moved_ns * (double)c->moved + f->c.local_ns * (double)c->local) /
          f->c.lanes;
    }
}

static void lp_free(lp_file *f) {
  files_candidates_free(&f->c);
  free(f->per_tile), free(f->conv);
}

typedef struct lp_problem {
  int64_t *cost, *convert;
  int32_t *out, *first, *cheapest;
  dnnmem_label_problem p;
} lp_problem;

/* The labeling problem: node v on layout l costs factor x time; value u
   converted from a to b costs its tiles x the per-tile conversion. */
static void lp_build(const files_graph *g, const lp_file *f, lp_problem *P) {
  int32_t v, a, b, k = f->c.k, i;
  double tile_bytes = (double)f->c.layouts[0].size * f->c.bytes;
  P->cost = (int64_t *)cli_alloc(((size_t)g->n + 1) * (size_t)k * sizeof(int64_t));
  P->convert = (int64_t *)cli_alloc(((size_t)g->n + 1) * (size_t)k * (size_t)k * sizeof(int64_t));
  P->out = (int32_t *)cli_alloc(((size_t)g->n + 1) * sizeof(int32_t));
  P->first = (int32_t *)cli_alloc(((size_t)g->n + 1) * sizeof(int32_t));
  P->cheapest = (int32_t *)cli_alloc(((size_t)g->n + 1) * sizeof(int32_t));
  for (v = 0; v < g->n; v++) {
    const files_candidate_kind *e = NULL;
    double tiles = (double)g->size[v] / tile_bytes;
    for (i = 0; i < (int32_t)arrlen(f->c.kinds) && !e; i++)
      if (strcmp(f->c.kinds[i].kind, g->ops[v]) == 0) e = &f->c.kinds[i];
    for (i = 0; i < (int32_t)arrlen(f->c.kinds) && !e; i++)
      if (strcmp(f->c.kinds[i].kind, "*") == 0) e = &f->c.kinds[i];
    if (!e)
      cli_input_error(g->csv.path, g->csv.rows[v].line, "op kind '%s' has no candidate layouts in %s (add 'op %s ...' or 'op * ...')",
                      g->ops[v], f->c.path, g->ops[v]);
    P->first[v] = e->first;
    P->cheapest[v] = -1;
    for (a = 0; a < k; a++) {
      double t = e->factor[a] * (double)g->time[v];
      if (t > 4e18) cli_input_error(g->csv.path, g->csv.rows[v].line, "op time of '%s' too large", g->names[v]);
      P->cost[(size_t)v * k + a] = e->factor[a] < 0 ? DNNMEM_LABEL_UNSUPPORTED : (int64_t)llround(t);
      if (e->factor[a] >= 0 && (P->cheapest[v] < 0 || P->cost[(size_t)v * k + a] < P->cost[(size_t)v * k + P->cheapest[v]]))
        P->cheapest[v] = a;
      for (b = 0; b < k; b++) {
        double c = tiles * f->per_tile[a * k + b];
        if (c > 4e18) cli_input_error(g->csv.path, g->csv.rows[v].line, "conversion time of '%s' too large", g->names[v]);
        P->convert[((size_t)v * k + a) * k + b] = (int64_t)llround(c);
      }
    }
    P->out[v] = g->output[v] ? f->c.output : DNNMEM_LABEL_FREE;
  }
  memset(&P->p, 0, sizeof(P->p));
  P->p.graph = &g->graph;
  P->p.num_labels = k;
  P->p.node_cost = P->cost;
  P->p.convert = P->convert;
  P->p.output_label = P->out;
}

static int cmd_layoutplan(const cli_args *a) {
  lp_file f;
  lp_problem P;
  files_graph g;
  dnnmem_label_options o;
  dnnmem_label_result r;
  size_t bytes = 0, cost_bytes = 0;
  void *scratch, *cost_scratch;
  int32_t *label, *tmp, *count, v, l, j, k;
  dnnmem_label_result costed;
  int64_t first, cheapest, *single, node_total = 0, conversions = 0;
  double ms, gap;
  if (!a->candidates) cli_usage_error("--candidates F is required");
  if (strcmp(a->candidates, "-") == 0 && strcmp(a->operand, "-") == 0)
    cli_usage_error("standard input (-) for GRAPH or --candidates, not both");
  cli_read_graph(a->operand, &g, "id,op,size,time,inputs", "layoutplan");
  lp_read(a->candidates, &f);
  k = f.c.k;
  lp_build(&g, &f, &P);
  memset(&o, 0, sizeof(o));
  cli_check(dnnmem_label_solve_scratch_size(&P.p, &o, &bytes), g.csv.path);
  cli_check(dnnmem_label_cost_scratch_size(&P.p, &cost_bytes), g.csv.path);
  scratch = cli_alloc(bytes);
  cost_scratch = cli_alloc(cost_bytes);
  label = (int32_t *)cli_alloc(((size_t)g.n + 1) * sizeof(int32_t));
  tmp = (int32_t *)cli_alloc(((size_t)g.n + 1) * sizeof(int32_t));
  count = (int32_t *)cli_alloc((size_t)k * sizeof(int32_t));
  single = (int64_t *)cli_alloc((size_t)k * sizeof(int64_t));
  ms = cli_now_ms();
  cli_check(dnnmem_label_solve(&P.p, &o, label, &r, scratch, bytes), g.csv.path);
  ms = cli_now_ms() - ms;
  /* baselines, costed by the library */
  cli_check(dnnmem_label_cost(&P.p, P.first, &costed, cost_scratch, cost_bytes), g.csv.path);
  first = costed.cost;
  cli_check(dnnmem_label_cost(&P.p, P.cheapest, &costed, cost_scratch, cost_bytes), g.csv.path);
  cheapest = costed.cost;
  for (l = 0; l < k; l++) {
    for (v = 0; v < g.n; v++) tmp[v] = P.cost[(size_t)v * k + l] >= 0 ? l : P.first[v];
    cli_check(dnnmem_label_cost(&P.p, tmp, &costed, cost_scratch, cost_bytes), g.csv.path);
    single[l] = costed.cost;
    count[l] = 0;
  }
  { /* (value, layout) pairs converted: a consumer's or the output's layout */
    uint8_t *seen = (uint8_t *)cli_alloc(((size_t)g.n + 1) * (size_t)k);
    memset(seen, 0, ((size_t)g.n + 1) * (size_t)k);
    for (v = 0; v < g.n; v++) {
      int32_t e;
      count[label[v]]++;
      node_total += P.cost[(size_t)v * k + label[v]];
      if (P.out[v] >= 0 && P.out[v] != label[v]) seen[(size_t)v * k + P.out[v]] = 1;
      for (e = g.in_offsets[v]; e < g.in_offsets[v + 1]; e++)
        if (label[g.in_ids[e]] != label[v]) seen[(size_t)g.in_ids[e] * k + label[v]] = 1;
    }
    for (j = 0; j < g.n * k; j++) conversions += seen[j];
    free(seen);
  }
  if (a->out) {
    int64_t *col = (int64_t *)cli_alloc(((size_t)g.n + 1) * sizeof(int64_t));
    for (v = 0; v < g.n; v++) col[v] = label[v];
    cli_write_column(&g.csv, a->out, "layout", col, (const char *const *)f.c.names);
    free(col);
  }
  gap = r.lower_bound ? 100.0 * (double)r.gap / (double)r.lower_bound : 0.0;
  if (!a->json) {
    const dnnmem_layout *t = &f.c.layouts[0];
    printf("%d ops, %d candidate layouts of a ", g.n, k);
    for (j = 0; j < t->num_axes; j++) printf("%s%lld", j ? "x" : "", (long long)t->unpadded[j]);
    printf(" tile (%g bytes per element) over %s\n", f.c.bytes, f.c.machine_text);
    printf("time          %.3f us (%s, %s)\n", (double)r.cost / 1e3, r.optimal ? "optimal" : "not proven",
           dnnmem_label_algo_name(r.algo));
    printf("lower bound   %.3f us (gap %.3f%%)\n", (double)r.lower_bound / 1e3, gap);
    printf("ops           %.3f us; conversions %.3f us (%lld value-layout pairs)\n", (double)node_total / 1e3,
           (double)(r.cost - node_total) / 1e3, (long long)conversions);
    printf("first         %.3f us (%+.2f%%; each op on its first candidate)\n", (double)first / 1e3,
           place_pct(first, r.cost));
    printf("cheapest      %.3f us (%+.2f%%; each op on its cheapest candidate, conversions ignored)\n",
           (double)cheapest / 1e3, place_pct(cheapest, r.cost));
    for (l = 0; l < k; l++)
      printf("only %-8s %.3f us (%+.2f%%; where allowed)\n", f.c.names[l], (double)single[l] / 1e3,
             place_pct(single[l], r.cost));
    for (l = 0; l < k; l++) {
      char text[DNNMEM_LAYOUT_TEXT_MAX];
      dnnmem_layout_print(&f.c.layouts[l], text, sizeof(text), NULL);
      printf("layout %-8s %4d ops  %s\n", f.c.names[l], count[l], text);
    }
    printf("one tile from -> to: us (runs, copies moved to another unit, moved within one)\n");
    for (l = 0; l < k; l++)
      for (j = 0; j < k; j++) {
        const dnnmem_layout_conversion *c = &f.conv[l * k + j];
        if (j == l) continue;
        printf("  %-8s -> %-8s %9.3f us (%lld, %lld, %lld)\n", f.c.names[l], f.c.names[j], f.per_tile[l * k + j] / 1e3,
               (long long)c->runs, (long long)c->moved, (long long)c->local);
      }
    printf("solved in %.3f ms\n", ms);
  } else {
    cli_json_begin();
    cli_json_int("n", g.n);
    cli_json_key("layouts");
    printf("[");
    for (l = 0; l < k; l++) {
      char text[DNNMEM_LAYOUT_TEXT_MAX];
      dnnmem_layout_print(&f.c.layouts[l], text, sizeof(text), NULL);
      printf("%s{\"name\": ", l ? ", " : "");
      cli_json_string_value(f.c.names[l]);
      printf(", \"layout\": ");
      cli_json_string_value(text);
      printf(", \"ops\": %d}", count[l]);
    }
    printf("]");
    cli_json_int("time", r.cost);
    cli_json_int("lower_bound", r.lower_bound);
    cli_json_int("gap", r.gap);
    cli_json_bool("optimal", r.optimal);
    cli_json_int("op_time", node_total);
    cli_json_int("conversion_time", r.cost - node_total);
    cli_json_int("conversions", conversions);
    cli_json_int("first_time", first);
    cli_json_int("cheapest_time", cheapest);
    cli_json_key("single_time");
    printf("{");
    for (l = 0; l < k; l++) {
      printf("%s", l ? ", " : "");
      cli_json_string_value(f.c.names[l]);
      printf(": %lld", (long long)single[l]);
    }
    printf("}");
    cli_json_string("unit", "ns");
    cli_json_string("algo", dnnmem_label_algo_name(r.algo));
    cli_json_string("stop", dnnmem_label_stop_name(r.stop));
    cli_json_int("sweeps", r.sweeps);
    cli_json_double("time_ms", ms);
    cli_json_end();
  }
  free(label), free(tmp), free(count), free(single), free(scratch), free(cost_scratch);
  free(P.cost), free(P.convert), free(P.out), free(P.first), free(P.cheapest);
  lp_free(&f);
  files_graph_free(&g);
  return 0;
}

static int cmd_place(const cli_args *a) {
  static const char *const device_names[] = {"any", "cpu", "acc"}; /* by DNNMEM_PLACE_* */
  dnnmem_place_options options;
  dnnmem_place_result res;
  files_graph g;
  uint8_t *pins;
  int64_t *device;
  double ms;
  if (a->devices) return place_multi(a);
  if (a->links) cli_usage_error("--link needs --devices");
  memset(&options, 0, sizeof(options));
  options.algo = cli_flow_algo(a->algo);
  options.model = a->per_edge ? DNNMEM_PLACE_PER_EDGE : DNNMEM_PLACE_PER_VALUE;
  cli_read_graph(a->operand, &g, "id,cpu_time,acc_time,xfer,inputs", "place");
  pins = place_pins(&g);
  device = (int64_t *)cli_alloc(((size_t)g.n + 1) * sizeof(int64_t));
  place_solve(&g, pins, &options, device, &res, &ms);
  if (a->out) cli_write_column(&g.csv, a->out, "device", device, device_names);
  place_print(a, g.n, &res, ms);
  free(device);
  free(pins);
  files_graph_free(&g);
  return 0;
}

/* ---- commands ------------------------------------------------------------- */

static const cli_command cli_commands[] = {
    {"flow", "FILE.max", "max flow / min cut of a DIMACS max-flow file",
     "Maximum flow of a DIMACS max-flow file ('p max N M', 'n ID s', 'n ID t',\n"
     "'a FROM TO CAP', 'c' comments; node ids 1..N). FILE - reads standard input.",
     flow_options, "one JSON object: n, m, flow, algo, source_side, time_ms", cmd_flow},
    {"cover", "FILE", "path-cover grouping: minimum chains of non-overlapping lifetimes",
     "Minimum grouping of lifetimes into chains of non-overlapping records\n"
     "(LeapMind's path-cover grouping). FILE is an intervals CSV (id,lower,upper,size)\n"
     "or a graph CSV (columns read: id,size,inputs; output optional); - reads\n"
     "standard input.",
     cover_options,
     "one JSON object: n, groups, overlap_max, time_ms; for a graph also w\n"
     "(the fewest paths covering every edge), max_size, pathcover_arena (the\n"
     "pathcover plan, outputs not extended), bound = 2 w max_size, bound_holds",
     cmd_cover},
    {"plan", "FILE", "arena offsets for tensor lifetimes",
     "Arena offsets for the records of FILE: an intervals CSV (id,lower,upper,size;\n"
     "optional alignment, offset, hint, gaps, pass, pools, reuse, alias) or a graph\n"
     "CSV (columns read: id,size,inputs; output optional; --inplace also op); -\n"
     "reads standard input. Sizes are bytes, 8k = 8K = 8KiB = 8192 (powers of 1024).\n"
     "--algo best (the default) reports the strategy that won.", plan_options,
     "one JSON object: n, algo, arena, lower_bound, optimal, time_ms, nodes,\nstop (none, proved, nodes, time, incomplete), degraded\n(with --capacity also capacity, feasible; proven infeasible: conflict\n[ids], conflict_minimal, conflict_decisions, conflict_time_ms). With\nreuse/alias links: links, reused [[id, overwritten id], ...]. With a\n'pass' column: passes [{pass, n, arena}], one_shot_arena, one_shot_lower_bound. With --symbol:\nsymbol, s_min, s_max, worst_ratio, worst_at, arena_min, lower_bound_min,\narena_max, lower_bound_max, samples, edges (--at adds at, arena,\nlower_bound, optimal; unit when sizes have denominators). Two\n--symbol: also symbol2, s2_min, s2_max, worst_at2, planned_on; samples\ncounts the grid's points; _min/_max at both bottoms/tops. With --pool: n, algo, feasible, cost, arena (all\npools), lower_bound and optimal (of the cost), time_ms, nodes, stop,\ndecisions, moves, pools [{name, capacity, cost, arena, bytes}] (links and\nreused with links; proven infeasible: conflict, conflict_minimal, ...)",
     cmd_plan},
    {"share", "FILE", "shared objects for tensor lifetimes (TFLite)",
     "Shared objects (TFLite) for the records of FILE: an intervals CSV\n"
     "(id,lower,upper,size) or a graph CSV (columns read: id,size,inputs; output\n"
     "optional); - reads standard input.", share_options,
     "one JSON object: n, algo, objects, total, lower_bound, optimal, time_ms", cmd_share},
    {"remat", "GRAPH", "recomputation schedule within a memory budget (annealing)",
     "Finds a computation sequence (with recomputation) whose peak memory fits the\n"
     "budget at the least extra compute time (FastSA annealing with graph\n"
     "contraction); without a budget, the peak/time trade-off curve. GRAPH is a\n"
     "graph CSV; the columns read: id,size,time,inputs (output optional: 1 keeps a\n"
     "value to the end); - reads standard input. Times are read in microseconds\n"
     "and reported in integer ns; sizes in bytes (8M = 8 x 2^20).",
     remat_options,
     "one JSON object: n, base_peak, base_time, lower_bound, and with a budget\n"
     "peak, budget, time, overhead, feasible, time_ms, length, moves, ...\n"
     "(--plan: arena, arena_lower_bound, arena_optimal); without one spacing,\n"
     "curve: [{ratio, budget, peak, time, overhead, feasible, time_lower_bound,\n"
     "overhead_lower_bound}, ...], knee (a budget or null), knee_index",
     cmd_remat},
    {"layout", "LAYOUT", "TensorLayout queries: parse, print, map indices to units and addresses",
     "Parses a TensorLayout (PFN's MN-Core notation), e.g. '(10,7)/((3:7, 4_PE), (7:1))'\n"
     "or '((12:8), (8:1); B@[PE])', prints it canonically and maps indices to\n"
     "(unit at each level, local address). A bad layout exits 2 naming the byte.\n"
     "LAYOUT - reads the layout text from standard input.",
     layout_options,
     "one JSON object: canonical, size, padded_size, shape, unpadded, levels,\n"
     "cosize, replicas (null when unknown), units_total, slots, padding_slots,\n"
     "unused_slots, capacity, locations [{at, units, address, padding}], and for\n"
     "one --at also at, units, address, padding at the top level; units maps\n"
     "every level to a coordinate, \"all\" (broadcast) or the units holding copies",
     cmd_layout},
    {"place", "GRAPH", "CPU/accelerator placement by minimum cut (exact)",
     "Optimal CPU/accelerator placement by minimum cut. GRAPH is a graph CSV; the\n"
     "columns read: id,cpu_time,acc_time,xfer,inputs (microseconds; inf =\n"
     "unsupported), optional device (cpu|acc|any), op and output; - reads standard\n"
     "input. Rows with op 'input' run on the CPU. A value converted between\n"
     "the devices is charged xfer once (outputs must end on the CPU).\n"
     "With --devices A,B,..: one device per op by the labeling engine (exact for\n"
     "two devices, alpha-expansion with a proven lower bound beyond), times from\n"
     "the time_<device> columns (and id,xfer,inputs; size with --link); a value is\n"
     "converted once per device that reads\n"
     "it; device 'cpu' pins an op to the device named cpu, 'acc' keeps it off it;\n"
     "inputs run on, and outputs end on, cpu (else the first device).",
     place_options,
     "one JSON object: n, model, time, all_acc_time, greedy_time, all_cpu_time,\n"
     "cut (integer ns; unit), conversions, cpu_ops, acc_ops, ..., time_ms;\n"
     "with --devices: n, devices, time, lower_bound, gap, optimal, greedy_time,\n"
     "greedy_op_time, single_time {device: ns}, ops {device: count}, unit, algo,\n"
     "stop, moves, nodes, time_ms",
     cmd_place},
    {"layoutplan", "GRAPH", "an output TensorLayout per op, conversions priced by the layout part",
     "Chooses one output layout per op from the candidates of its op kind, paying\n"
     "each op's cost in its layout (a factor times the graph's time column) and,\n"
     "once per value and layout that reads it, the conversion (an op reads its\n"
     "inputs in its own output layout). F has lines 'machine L2B=16,PE=4',\n"
     "'cost run=NS moved=NS local=NS bytes=B lanes=N' (per DMA run, per element\n"
     "copy that changes unit, per copy moved within its unit; N DMA engines share\n"
     "the work), 'layout NAME TENSORLAYOUT'\n"
     "(all of one tile shape), 'op KIND NAME=FACTOR ...' (KIND '*' for the rest)\n"
     "and optionally 'output NAME'. Converting a value costs its size in tiles\n"
     "times the tile's conversion (dnnmem_layout_convert: runs, moved and local\n"
     "copies). Solved by the labeling engine (dnnmem_label_solve) with a proven\n"
     "lower bound. A malformed layout or line exits 2 with FILE:LINE. The graph's\n"
     "columns read: id,op,size,time,inputs (output optional); - reads standard\n"
     "input for GRAPH or F (one of them).",
     layoutplan_options,
     "one JSON object: n, layouts [{name, layout, ops}], time, lower_bound, gap,\n"
     "optimal, op_time, conversion_time, conversions, first_time, cheapest_time,\n"
     "single_time {name: ns}, unit, algo, stop, sweeps, time_ms",
     cmd_layoutplan},
    {NULL, NULL, NULL, NULL, NULL, NULL, NULL}};

static void cli_print_commands(FILE *f) {
  size_t i;
  fprintf(f, "usage: dnnmem <command> [options]   (dnnmem <command> --help)\n\ncommands:\n");
  for (i = 0; cli_commands[i].name; i++) fprintf(f, "  %-8s %s\n", cli_commands[i].name, cli_commands[i].summary);
}

/* At exit: what went to stdout reached it (a full disk or a closed pipe
   reader would otherwise lose the JSON with exit 0), else exit 2 as the
   --out files do. */
static void cli_check_stdout(void) {
  errno = 0; /* fflush's reason, not an older one */
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "<stdout>: write failed: %s\n", errno ? strerror(errno) : "an earlier write failed");
    _Exit(2);
  }
}

int main(int argc, char **argv) {
  size_t i;
  cli_args args;
  atexit(cli_check_stdout);
  if (argc < 2) {
    cli_print_commands(stderr);
    return 1;
  }
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    cli_print_commands(stdout);
    return 0;
  }
  if (strcmp(argv[1], "--version") == 0) {
    printf("dnnmem %s\n", DNNMEM_VERSION_STRING);
    return 0;
  }
  for (i = 0; cli_commands[i].name; i++)
    if (strcmp(argv[1], cli_commands[i].name) == 0) {
      cli_command_name = cli_commands[i].name;
      cli_parse(&cli_commands[i], argc - 1, argv + 1, &args);
      return cli_commands[i].run(&args);
    }
  fprintf(stderr, "dnnmem: unknown command '%s'\n", argv[1]);
  cli_print_commands(stderr);
  return 1;
}

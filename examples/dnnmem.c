/* dnnmem: the command-line tool of dnnmem.h.

   dnnmem <command> [options] ...   (dnnmem --help lists the commands)

   Every command takes --json (one JSON object on stdout, nothing else) and
   --help. Messages go to stderr. Exit codes: 0 success, 1 usage error,
   2 bad input (FILE:LINE: what). Files: minimalloc's interval CSV and the
   dnnmem graph CSV (see DESIGN notes in dnnmem.h and README.md). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define STB_DS_IMPLEMENTATION
#include <stb/stb_ds.h>

#define DNNMEM_IMPLEMENTATION
#include "dnnmem.h"

typedef struct cli_command {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary;
} cli_command;

/* ---- failing ---------------------------------------------------------- */

static void cli_usage_error(const char *cmd, const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "dnnmem %s: ", cmd);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, " (try 'dnnmem %s --help')\n", cmd);
  exit(1);
}

/* Bad input: "FILE:LINE: message", exit 2. line 0 leaves the line out. */
static void cli_input_error(const char *file, long line, const char *fmt, ...) {
  va_list ap;
  if (line > 0) fprintf(stderr, "%s:%ld: ", file, line);
  else fprintf(stderr, "%s: ", file);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  exit(2);
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

/* Stop callback for --time-limit: user points at the deadline in ms. */
static int cli_deadline_passed(void *user) { return cli_now_ms() >= *(const double *)user; }

/* ---- argument parsing --------------------------------------------------- */

/* If argv[*i] is flag, stores its value (the next argument) and returns 1. */
static int cli_flag_value(const char *cmd, int argc, char **argv, int *i,
                          const char *flag, const char **value) {
  if (strcmp(argv[*i], flag) != 0) return 0;
  if (*i + 1 >= argc) cli_usage_error(cmd, "%s needs a value", flag);
  *value = argv[++*i];
  return 1;
}

static int64_t cli_parse_i64(const char *cmd, const char *what, const char *text) {
  char *end;
  long long v;
  errno = 0;
  v = strtoll(text, &end, 10);
  if (errno || end == text || *end) cli_usage_error(cmd, "%s: '%s' is not an integer", what, text);
  return (int64_t)v;
}

static double cli_parse_double(const char *cmd, const char *what, const char *text) {
  char *end;
  double v;
  errno = 0;
  v = strtod(text, &end);
  if (errno || end == text || *end || !isfinite(v))
    cli_usage_error(cmd, "%s: '%s' is not a number", what, text);
  return v;
}

/* ---- JSON output -------------------------------------------------------- */

static int cli_json_fields; /* fields printed in the current object */

static void cli_json_begin(void) {
  printf("{");
  cli_json_fields = 0;
}
static void cli_json_key(const char *key) {
  printf("%s\"%s\": ", cli_json_fields++ ? ", " : "", key);
}
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

/* ---- CSV ---------------------------------------------------------------- */

typedef struct cli_row {
  long line;      /* 1-based line number in the file */
  char *text;     /* the raw line (for --out) */
  char **fields;  /* stb_ds array of trimmed fields */
} cli_row;

typedef struct cli_csv {
  const char *path;
  long header_line;
  char *header_text;
  char **columns; /* stb_ds array */
  cli_row *rows;  /* stb_ds array */
} cli_csv;

static char *cli_trim(char *s) {
  char *e;
  while (*s == ' ' || *s == '\t') s++;
  e = s + strlen(s);
  while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n')) *--e = 0;
  return s;
}

static char *cli_strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = (char *)cli_alloc(n);
  memcpy(d, s, n);
  return d;
}

static char *cli_read_file(const char *path, size_t *out_len) {
  FILE *f = fopen(path, "rb");
  char *buf = NULL;
  size_t len = 0, cap = 0, got;
  if (!f) cli_input_error(path, 0, "cannot open: %s", strerror(errno));
  for (;;) {
    if (cap - len < 65536) {
      cap = cap ? cap * 2 : 65536 * 2;
      buf = (char *)realloc(buf, cap + 1);
      if (!buf) cli_input_error(path, 0, "out of memory");
    }
    got = fread(buf + len, 1, cap - len, f);
    len += got;
    if (got == 0) break;
  }
  if (ferror(f)) cli_input_error(path, 0, "read error");
  fclose(f);
  buf[len] = 0;
  if (memchr(buf, 0, len)) cli_input_error(path, 0, "binary file (NUL byte)");
  *out_len = len;
  return buf;
}

/* Reads a CSV: '#' lines and blank lines skipped, the first other line is
   the header. Fields are split on ',' and trimmed. Every row must have as
   many fields as the header. */
static void cli_csv_read(const char *path, cli_csv *csv) {
  size_t len;
  char *text = cli_read_file(path, &len), *p = text;
  long line = 0;
  memset(csv, 0, sizeof(*csv));
  csv->path = path;
  while (*p) {
    char *nl = strchr(p, '\n'), *t, *raw;
    char **fields = NULL;
    line++;
    if (nl) *nl = 0;
    raw = p;
    p = nl ? nl + 1 : p + strlen(p);
    t = cli_trim(raw);
    if (*t == 0 || *t == '#') continue;
    raw = cli_strdup(t);
    for (;;) {
      char *comma = strchr(t, ',');
      if (comma) *comma = 0;
      arrput(fields, cli_trim(t));
      if (!comma) break;
      t = comma + 1;
    }
    if (!csv->columns) {
      csv->columns = fields;
      csv->header_line = line;
      csv->header_text = raw;
    } else {
      cli_row row;
      if (arrlen(fields) != arrlen(csv->columns))
        cli_input_error(path, line, "%d fields, the header has %d", (int)arrlen(fields),
                        (int)arrlen(csv->columns));
      row.line = line;
      row.text = raw;
      row.fields = fields;
      arrput(csv->rows, row);
    }
  }
  if (!csv->columns) cli_input_error(path, 0, "no header row");
}

static int cli_csv_column(const cli_csv *csv, const char *name) {
  int i;
  for (i = 0; i < (int)arrlen(csv->columns); i++)
    if (strcmp(csv->columns[i], name) == 0) return i;
  return -1;
}

static int cli_csv_need(const cli_csv *csv, const char *name) {
  int c = cli_csv_column(csv, name);
  if (c < 0) cli_input_error(csv->path, csv->header_line, "missing column '%s'", name);
  return c;
}

static int64_t cli_field_i64(const cli_csv *csv, const cli_row *row, int col) {
  const char *s = row->fields[col];
  char *end;
  long long v;
  errno = 0;
  v = strtoll(s, &end, 10);
  if (*s == 0 || *end || errno)
    cli_input_error(csv->path, row->line, "%s: '%s' is not an integer%s", csv->columns[col], s,
                    errno == ERANGE ? " in the int64 range" : "");
  return (int64_t)v;
}

/* Microseconds (decimal, or "inf" when allow_inf) to integer nanoseconds;
   "inf" gives -1. */
static int64_t cli_field_time_ns(const cli_csv *csv, const cli_row *row, int col, int allow_inf) {
  const char *s = row->fields[col];
  char *end;
  double v;
  if (allow_inf && strcmp(s, "inf") == 0) return -1;
  errno = 0;
  v = strtod(s, &end);
  if (*s == 0 || *end || errno || !isfinite(v))
    cli_input_error(csv->path, row->line, "%s: '%s' is not a finite number", csv->columns[col], s);
  if (v < 0) cli_input_error(csv->path, row->line, "%s: negative time %s", csv->columns[col], s);
  if (v * 1e3 > 9.0e18) cli_input_error(csv->path, row->line, "%s: time %s too large", csv->columns[col], s);
  return (int64_t)llround(v * 1e3);
}

/* ---- graphs ------------------------------------------------------------- */

enum { CLI_DEVICE_ANY = 0, CLI_DEVICE_CPU = 1, CLI_DEVICE_ACC = 2 };

typedef struct cli_graph {
  cli_csv csv;
  dnnmem_graph graph;
  int32_t *in_offsets, *in_ids;
  char **names, **ops;
  int64_t *size;     /* bytes */
  int64_t *time;     /* ns on the training device */
  int64_t *cpu_time; /* ns, -1 = unsupported (inf) */
  int64_t *acc_time; /* ns, -1 = unsupported (inf) */
  int64_t *xfer;     /* ns */
  uint8_t *device;   /* CLI_DEVICE_* */
  uint8_t *output;
} cli_graph;

static int cli_csv_is_graph(const cli_csv *csv) { return cli_csv_column(csv, "inputs") >= 0; }

/* Graph CSV: ids 0..n-1 in row order, inputs smaller ids. */
static void cli_graph_from_csv(cli_graph *g) {
  cli_csv *csv = &g->csv;
  const char *need[] = {"id", "name", "op", "size", "time", "cpu_time", "acc_time",
                        "device", "xfer", "output", "inputs"};
  int col[11], i;
  size_t n = (size_t)arrlen(csv->rows), v;
  for (i = 0; i < 11; i++) col[i] = cli_csv_need(csv, need[i]);
  if (n > (size_t)INT32_MAX - 1) cli_input_error(csv->path, 0, "too many rows");
  g->in_offsets = (int32_t *)cli_alloc((n + 1) * sizeof(int32_t));
  g->names = (char **)cli_alloc(n * sizeof(char *));
  g->ops = (char **)cli_alloc(n * sizeof(char *));
  g->size = (int64_t *)cli_alloc(n * sizeof(int64_t));
  g->time = (int64_t *)cli_alloc(n * sizeof(int64_t));
  g->cpu_time = (int64_t *)cli_alloc(n * sizeof(int64_t));
  g->acc_time = (int64_t *)cli_alloc(n * sizeof(int64_t));
  g->xfer = (int64_t *)cli_alloc(n * sizeof(int64_t));
  g->device = (uint8_t *)cli_alloc(n);
  g->output = (uint8_t *)cli_alloc(n);
  g->in_ids = NULL;
  g->in_offsets[0] = 0;
  for (v = 0; v < n; v++) {
    cli_row *row = &csv->rows[v];
    char *s, *tok, *save = NULL;
    const char *dev;
    int64_t out;
    if (cli_field_i64(csv, row, col[0]) != (int64_t)v)
      cli_input_error(csv->path, row->line, "id %s: expected %zu (ids are 0..n-1 in row order)",
                      row->fields[col[0]], v);
    g->names[v] = row->fields[col[1]];
    g->ops[v] = row->fields[col[2]];
    g->size[v] = cli_field_i64(csv, row, col[3]);
    if (g->size[v] < 0) cli_input_error(csv->path, row->line, "negative size");
    g->time[v] = cli_field_time_ns(csv, row, col[4], 0);
    g->cpu_time[v] = cli_field_time_ns(csv, row, col[5], 1);
    g->acc_time[v] = cli_field_time_ns(csv, row, col[6], 1);
    dev = row->fields[col[7]];
    if (strcmp(dev, "cpu") == 0) g->device[v] = CLI_DEVICE_CPU;
    else if (strcmp(dev, "acc") == 0) g->device[v] = CLI_DEVICE_ACC;
    else if (strcmp(dev, "any") == 0) g->device[v] = CLI_DEVICE_ANY;
    else cli_input_error(csv->path, row->line, "device '%s': expected cpu, acc or any", dev);
    g->xfer[v] = cli_field_time_ns(csv, row, col[8], 0);
    out = cli_field_i64(csv, row, col[9]);
    if (out != 0 && out != 1) cli_input_error(csv->path, row->line, "output must be 0 or 1");
    g->output[v] = (uint8_t)out;
    s = cli_strdup(row->fields[col[10]]);
    for (tok = strtok_r(s, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
      char *end;
      long long in;
      errno = 0;
      in = strtoll(tok, &end, 10);
      if (*end || errno) cli_input_error(csv->path, row->line, "input '%s' is not an id", tok);
      if (in < 0 || in >= (long long)v)
        cli_input_error(csv->path, row->line, "input %lld of value %zu is not an earlier id", in, v);
      if (arrlen(g->in_ids) >= INT32_MAX) cli_input_error(csv->path, row->line, "too many edges");
      arrput(g->in_ids, (int32_t)in);
    }
    free(s);
    g->in_offsets[v + 1] = (int32_t)arrlen(g->in_ids);
  }
  g->graph.num_nodes = (int32_t)n;
  g->graph.in_offsets = g->in_offsets;
  g->graph.in_ids = g->in_ids;
}

static void cli_graph_read(const char *path, cli_graph *g) {
  memset(g, 0, sizeof(*g));
  cli_csv_read(path, &g->csv);
  if (!cli_csv_is_graph(&g->csv)) cli_input_error(path, g->csv.header_line, "not a graph CSV (no 'inputs' column)");
  cli_graph_from_csv(g);
}

/* ---- intervals ---------------------------------------------------------- */

typedef struct cli_intervals {
  cli_csv csv;
  int is_graph;           /* read from a graph CSV */
  cli_graph graph;        /* when is_graph */
  int32_t n;
  dnnmem_interval *records;
  dnnmem_gap *gaps;       /* stb_ds array all records' gaps point into */
} cli_intervals;

static void cli_parse_gaps(cli_intervals *iv, const cli_row *row, const char *text,
                           int64_t end_addend, int32_t *count) {
  char *s = cli_strdup(text), *tok, *save = NULL;
  *count = 0;
  for (tok = strtok_r(s, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
    dnnmem_gap gap;
    long long a, b, wl = 0, wu = 0;
    int used = 0;
    if (sscanf(tok, "%lld-%lld%n", &a, &b, &used) != 2)
      cli_input_error(iv->csv.path, row->line, "gap '%s': expected L-U or L-U@WL:WU", tok);
    if (tok[used] == '@') {
      int used2 = 0;
      if (sscanf(tok + used + 1, "%lld:%lld%n", &wl, &wu, &used2) != 2 || tok[used + 1 + used2])
        cli_input_error(iv->csv.path, row->line, "gap '%s': bad window", tok);
    } else if (tok[used]) {
      cli_input_error(iv->csv.path, row->line, "gap '%s': expected L-U or L-U@WL:WU", tok);
    }
    gap.lower = a;
    gap.upper = b + end_addend;
    gap.window_lower = wl;
    gap.window_upper = wu;
    arrput(iv->gaps, gap);
    ++*count;
  }
  free(s);
}

/* Reads an intervals CSV (minimalloc's columns; 'begin'/'start' for lower,
   'end' for an inclusive upper, 'buffer'/'buffer_id' for id) or a graph CSV
   (lifetimes derived as in dnnmem_graph_intervals). Validates with
   dnnmem_intervals_check and reports the offending line. */
static void cli_intervals_read(const char *path, cli_intervals *iv, int64_t alignment) {
  cli_csv *csv = &iv->csv;
  int32_t i;
  dnnmem_result r;
  memset(iv, 0, sizeof(*iv));
  cli_csv_read(path, csv);
  if (cli_csv_is_graph(csv)) {
    iv->is_graph = 1;
    iv->graph.csv = *csv;
    cli_graph_from_csv(&iv->graph);
    iv->n = iv->graph.graph.num_nodes;
    iv->records = (dnnmem_interval *)cli_alloc((size_t)iv->n * sizeof(dnnmem_interval));
    r = dnnmem_graph_intervals(&iv->graph.graph, iv->graph.size, iv->graph.output, iv->records);
    if (r != DNNMEM_OK) cli_input_error(path, 0, "%s", dnnmem_result_string(r));
  } else {
    int c_id = cli_csv_column(csv, "id"), c_lo = cli_csv_column(csv, "lower");
    int c_up = cli_csv_column(csv, "upper"), c_size = cli_csv_need(csv, "size");
    int c_align = cli_csv_column(csv, "alignment"), c_off = cli_csv_column(csv, "offset");
    int c_hint = cli_csv_column(csv, "hint"), c_gaps = cli_csv_column(csv, "gaps");
    int64_t addend = 0;
    int32_t *gap_first;
    struct { char *key; int value; } *seen = NULL;
    size_t n = (size_t)arrlen(csv->rows);
    if (c_id < 0) c_id = cli_csv_column(csv, "buffer");
    if (c_id < 0) c_id = cli_csv_column(csv, "buffer_id");
    if (c_lo < 0) c_lo = cli_csv_column(csv, "begin");
    if (c_lo < 0) c_lo = cli_csv_column(csv, "start");
    if (c_up < 0 && (c_up = cli_csv_column(csv, "end")) >= 0) addend = 1;
    if (c_id < 0) cli_input_error(path, csv->header_line, "missing column 'id'");
    if (c_lo < 0) cli_input_error(path, csv->header_line, "missing column 'lower'");
    if (c_up < 0) cli_input_error(path, csv->header_line, "missing column 'upper'");
    if (n > (size_t)INT32_MAX) cli_input_error(path, 0, "more than %d records", INT32_MAX);
    iv->n = (int32_t)n;
    iv->records = (dnnmem_interval *)cli_alloc(n * sizeof(dnnmem_interval));
    gap_first = (int32_t *)cli_alloc(n * sizeof(int32_t));
    sh_new_strdup(seen);
    for (i = 0; i < iv->n; i++) {
      cli_row *row = &csv->rows[i];
      dnnmem_interval *rec = &iv->records[i];
      memset(rec, 0, sizeof(*rec));
      if (!*row->fields[c_id]) cli_input_error(path, row->line, "missing id");
      if (shgeti(seen, row->fields[c_id]) >= 0)
        cli_input_error(path, row->line, "duplicate id '%s' (first on line %ld)", row->fields[c_id],
                        csv->rows[shget(seen, row->fields[c_id])].line);
      shput(seen, row->fields[c_id], i);
      rec->lower = cli_field_i64(csv, row, c_lo);
      rec->upper = cli_field_i64(csv, row, c_up);
      if (addend && rec->upper == INT64_MAX) cli_input_error(path, row->line, "end too large");
      rec->upper += addend;
      rec->size = cli_field_i64(csv, row, c_size);
      if (c_align >= 0 && *row->fields[c_align]) rec->alignment = cli_field_i64(csv, row, c_align);
      if (c_off >= 0 && *row->fields[c_off]) {
        rec->fixed_offset = cli_field_i64(csv, row, c_off);
        rec->flags |= DNNMEM_INTERVAL_FIXED;
      }
      if (c_hint >= 0 && *row->fields[c_hint]) {
        rec->hint = cli_field_i64(csv, row, c_hint);
        rec->flags |= DNNMEM_INTERVAL_HINT;
      }
      gap_first[i] = (int32_t)arrlen(iv->gaps);
      if (c_gaps >= 0) cli_parse_gaps(iv, row, row->fields[c_gaps], addend, &rec->num_gaps);
      r = dnnmem_intervals_check(rec, 1, alignment);
      if (r != DNNMEM_OK) cli_input_error(path, row->line, "%s", dnnmem_result_string(r));
    }
    for (i = 0; i < iv->n; i++) /* the gaps array has stopped moving */
      iv->records[i].gaps = iv->records[i].num_gaps ? iv->gaps + gap_first[i] : NULL;
    free(gap_first);
    shfree(seen);
  }
  r = dnnmem_intervals_check(iv->records, iv->n, alignment);
  if (r != DNNMEM_OK) cli_input_error(path, 0, "%s", dnnmem_result_string(r));
}

/* Writes the input rows with one more column (or the column replaced when
   the input has it): values[i] for row i. */
static void cli_write_column(const cli_csv *csv, const char *out_path, const char *column,
                             char **values) {
  FILE *f = fopen(out_path, "w");
  int c = cli_csv_column(csv, column), j;
  size_t i;
  if (!f) cli_input_error(out_path, 0, "cannot write: %s", strerror(errno));
  for (j = 0; j < (int)arrlen(csv->columns); j++)
    fprintf(f, "%s%s", j ? "," : "", csv->columns[j]);
  if (c < 0) fprintf(f, ",%s", column);
  fputc('\n', f);
  for (i = 0; i < (size_t)arrlen(csv->rows); i++) {
    const cli_row *row = &csv->rows[i];
    for (j = 0; j < (int)arrlen(row->fields); j++)
      fprintf(f, "%s%s", j ? "," : "", j == c ? values[i] : row->fields[j]);
    if (c < 0) fprintf(f, ",%s", values[i]);
    fputc('\n', f);
  }
  if (fclose(f) != 0) cli_input_error(out_path, 0, "write failed");
}

static const cli_command cli_commands[] = {
    {NULL, NULL, NULL}};

static void cli_print_commands(FILE *f) {
  size_t i;
  fprintf(f, "usage: dnnmem <command> [options]   (dnnmem <command> --help)\n\ncommands:\n");
  for (i = 0; cli_commands[i].name; i++)
    fprintf(f, "  %-8s %s\n", cli_commands[i].name, cli_commands[i].summary);
}

int main(int argc, char **argv) {
  size_t i;
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
    if (strcmp(argv[1], cli_commands[i].name) == 0) return cli_commands[i].run(argc - 1, argv + 1);
  fprintf(stderr, "dnnmem: unknown command '%s'\n", argv[1]);
  cli_print_commands(stderr);
  return 1;
}

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

/* The tool is short-lived and lets the OS reclaim what it read; under
   AddressSanitizer (make test) leak reports would only be noise. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "detect_leaks=0"; }

/* Every helper is marked: a build with fewer commands leaves some unused. */
#if defined(__GNUC__) || defined(__clang__)
#define CLI_HELPER static __attribute__((unused))
#define CLI_NORETURN __attribute__((noreturn))
#else
#define CLI_HELPER static
#define CLI_NORETURN
#endif

typedef struct cli_command {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary;
} cli_command;

/* ---- failing ---------------------------------------------------------- */

CLI_HELPER CLI_NORETURN void cli_usage_error(const char *cmd, const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "dnnmem %s: ", cmd);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, " (try 'dnnmem %s --help')\n", cmd);
  exit(1);
}

/* Bad input: "FILE:LINE: message", exit 2. line 0 leaves the line out. */
CLI_HELPER CLI_NORETURN void cli_input_error(const char *file, long line, const char *fmt, ...) {
  va_list ap;
  if (line > 0) fprintf(stderr, "%s:%ld: ", file, line);
  else fprintf(stderr, "%s: ", file);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  exit(2);
}

CLI_HELPER void *cli_alloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p) {
    fprintf(stderr, "dnnmem: out of memory (%zu bytes)\n", bytes);
    exit(2);
  }
  return p;
}

CLI_HELPER double cli_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Stop callback for --time-limit: user points at the deadline in ms. */
CLI_HELPER int cli_deadline_passed(void *user) { return cli_now_ms() >= *(const double *)user; }

/* ---- argument parsing --------------------------------------------------- */

/* If argv[*i] is flag, stores its value (the next argument) and returns 1. */
CLI_HELPER int cli_flag_value(const char *cmd, int argc, char **argv, int *i,
                          const char *flag, const char **value) {
  if (strcmp(argv[*i], flag) != 0) return 0;
  if (*i + 1 >= argc) cli_usage_error(cmd, "%s needs a value", flag);
  *value = argv[++*i];
  return 1;
}

CLI_HELPER int64_t cli_parse_i64(const char *cmd, const char *what, const char *text) {
  char *end;
  long long v;
  errno = 0;
  v = strtoll(text, &end, 10);
  if (errno || end == text || *end) cli_usage_error(cmd, "%s: '%s' is not an integer", what, text);
  return (int64_t)v;
}

CLI_HELPER double cli_parse_double(const char *cmd, const char *what, const char *text) {
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

CLI_HELPER void cli_json_begin(void) {
  printf("{");
  cli_json_fields = 0;
}
CLI_HELPER void cli_json_key(const char *key) {
  printf("%s\"%s\": ", cli_json_fields++ ? ", " : "", key);
}
CLI_HELPER void cli_json_string_value(const char *s) {
  putchar('"');
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\') printf("\\%c", c);
    else if (c < 0x20) printf("\\u%04x", c);
    else putchar(c);
  }
  putchar('"');
}
CLI_HELPER void cli_json_int(const char *key, int64_t v) {
  cli_json_key(key);
  printf("%lld", (long long)v);
}
CLI_HELPER void cli_json_double(const char *key, double v) {
  cli_json_key(key);
  if (isfinite(v)) printf("%.6g", v);
  else printf("null");
}
CLI_HELPER void cli_json_bool(const char *key, int v) {
  cli_json_key(key);
  printf(v ? "true" : "false");
}
CLI_HELPER void cli_json_string(const char *key, const char *s) {
  cli_json_key(key);
  cli_json_string_value(s);
}
CLI_HELPER void cli_json_end(void) { printf("}\n"); }

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

CLI_HELPER char *cli_trim(char *s) {
  char *e;
  while (*s == ' ' || *s == '\t') s++;
  e = s + strlen(s);
  while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n')) *--e = 0;
  return s;
}

CLI_HELPER char *cli_strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = (char *)cli_alloc(n);
  memcpy(d, s, n);
  return d;
}

CLI_HELPER char *cli_read_file(const char *path, size_t *out_len) {
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
CLI_HELPER void cli_csv_read(const char *path, cli_csv *csv) {
  size_t len;
  char *text = cli_read_file(path, &len), *p = text;
  long line = 0;
  memset(csv, 0, sizeof(*csv));
  csv->path = path;
  if ((unsigned char)p[0] == 0xEF && (unsigned char)p[1] == 0xBB && (unsigned char)p[2] == 0xBF)
    p += 3; /* a UTF-8 byte order mark */
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

CLI_HELPER int cli_csv_column(const cli_csv *csv, const char *name) {
  int i;
  for (i = 0; i < (int)arrlen(csv->columns); i++)
    if (strcmp(csv->columns[i], name) == 0) return i;
  return -1;
}

CLI_HELPER int cli_csv_need(const cli_csv *csv, const char *name) {
  int c = cli_csv_column(csv, name);
  if (c < 0) cli_input_error(csv->path, csv->header_line, "missing column '%s'", name);
  return c;
}

CLI_HELPER int64_t cli_field_i64(const cli_csv *csv, const cli_row *row, int col) {
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
CLI_HELPER int64_t cli_field_time_ns(const cli_csv *csv, const cli_row *row, int col, int allow_inf) {
  const char *s = row->fields[col];
  char *end;
  double v;
  if (allow_inf && strcmp(s, "inf") == 0) return -1;
  errno = 0;
  v = strtod(s, &end);
  if (errno == ERANGE && fabs(v) < 1.0) errno = 0, v = 0.0; /* underflow: far below 1 ns */
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

CLI_HELPER int cli_csv_is_graph(const cli_csv *csv) { return cli_csv_column(csv, "inputs") >= 0; }

/* Graph CSV: ids 0..n-1 in row order, inputs smaller ids. */
CLI_HELPER void cli_graph_from_csv(cli_graph *g) {
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

CLI_HELPER void cli_graph_read(const char *path, cli_graph *g) {
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

CLI_HELPER void cli_parse_gaps(cli_intervals *iv, const cli_row *row, const char *text,
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
    if (end_addend && b == INT64_MAX) cli_input_error(iv->csv.path, row->line, "gap '%s': end too large", tok);
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
CLI_HELPER void cli_intervals_read(const char *path, cli_intervals *iv, int64_t alignment) {
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
      rec->gaps = rec->num_gaps ? iv->gaps + gap_first[i] : NULL; /* valid until the next row's gaps */
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
CLI_HELPER void cli_write_column(const cli_csv *csv, const char *out_path, const char *column,
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

/* ---- flow ----------------------------------------------------------------- */

static void flow_usage(FILE *f) {
  fprintf(f,
          "usage: dnnmem flow [--algo bk|pr] [--json] FILE.max\n"
          "  Maximum flow of a DIMACS max-flow file ('p max N M', 'n ID s', 'n ID t',\n"
          "  'a FROM TO CAP', 'c' comments; node ids 1..N).\n"
          "  --algo A  bk (Boykov-Kolmogorov, default) or pr (push-relabel)\n"
          "  --json    one JSON object: n, m, flow, source_side, time_ms\n");
}

typedef struct flow_dimacs {
  int32_t num_nodes, num_arcs, source, sink; /* ids 0-based */
  int32_t *from, *to;                        /* stb_ds arrays */
  int64_t *capacity;
} flow_dimacs;

/* Reads one whitespace-separated integer token; returns 0 when absent or bad. */
static int flow_token_i64(char **p, long long *out) {
  char *end;
  while (**p == ' ' || **p == '\t') ++*p;
  if (**p == 0) return 0;
  errno = 0;
  *out = strtoll(*p, &end, 10);
  if (end == *p || errno || (*end && *end != ' ' && *end != '\t')) return 0;
  *p = end;
  return 1;
}

static int flow_at_end(char *p) {
  while (*p == ' ' || *p == '\t') p++;
  return *p == 0;
}

static void flow_dimacs_read(const char *path, flow_dimacs *g) {
  size_t len;
  char *text = cli_read_file(path, &len), *p = text;
  long line = 0, declared_arcs = -1;
  memset(g, 0, sizeof(*g));
  g->num_nodes = -1;
  g->source = g->sink = -1;
  while (*p) {
    char *nl = strchr(p, '\n'), *s;
    long long a = 0, b = 0, c = 0;
    line++;
    if (nl) *nl = 0;
    s = cli_trim(p);
    p = nl ? nl + 1 : p + strlen(p);
    if (*s == 0 || *s == 'c') continue;
    if (*s == 'p') {
      s++;
      while (*s == ' ' || *s == '\t') s++;
      if (g->num_nodes >= 0) cli_input_error(path, line, "second 'p' line");
      if (strncmp(s, "max", 3) != 0 || (s[3] != ' ' && s[3] != '\t'))
        cli_input_error(path, line, "expected 'p max NODES ARCS'");
      s += 3;
      if (!flow_token_i64(&s, &a) || !flow_token_i64(&s, &b) || !flow_at_end(s))
        cli_input_error(path, line, "expected 'p max NODES ARCS'");
      if (a < 2 || a > INT32_MAX - 1) cli_input_error(path, line, "node count %lld out of range", a);
      if (b < 0 || b > INT32_MAX / 2 - 1) cli_input_error(path, line, "arc count %lld out of range", b);
      g->num_nodes = (int32_t)a;
      declared_arcs = (long)b;
    } else if (*s == 'n' || *s == 'a') {
      char kind = *s++;
      if (g->num_nodes < 0) cli_input_error(path, line, "'%c' line before the 'p' line", kind);
      if (!flow_token_i64(&s, &a)) cli_input_error(path, line, "expected a node id");
      if (a < 1 || a > g->num_nodes)
        cli_input_error(path, line, "node %lld outside 1..%d", a, g->num_nodes);
      if (kind == 'n') {
        while (*s == ' ' || *s == '\t') s++;
        if ((*s != 's' && *s != 't') || !flow_at_end(s + 1))
          cli_input_error(path, line, "expected 'n ID s' or 'n ID t'");
        if (*s == 's') {
          if (g->source >= 0) cli_input_error(path, line, "second source");
          g->source = (int32_t)(a - 1);
        } else {
          if (g->sink >= 0) cli_input_error(path, line, "second sink");
          g->sink = (int32_t)(a - 1);
        }
      } else {
        if (!flow_token_i64(&s, &b) || !flow_token_i64(&s, &c) || !flow_at_end(s))
          cli_input_error(path, line, "expected 'a FROM TO CAPACITY' (integers)");
        if (b < 1 || b > g->num_nodes)
          cli_input_error(path, line, "node %lld outside 1..%d", b, g->num_nodes);
        if (c < 0) cli_input_error(path, line, "negative capacity %lld", c);
        if ((long)arrlen(g->from) >= declared_arcs)
          cli_input_error(path, line, "more arcs than the %ld declared", declared_arcs);
        arrput(g->from, (int32_t)(a - 1));
        arrput(g->to, (int32_t)(b - 1));
        arrput(g->capacity, (int64_t)c);
      }
    } else {
      cli_input_error(path, line, "unknown line type '%c' (expected c, p, n or a)", *s);
    }
  }
  if (g->num_nodes < 0) cli_input_error(path, 0, "no 'p max NODES ARCS' line");
  if ((long)arrlen(g->from) != declared_arcs)
    cli_input_error(path, line, "%ld arcs declared, %ld found", declared_arcs, (long)arrlen(g->from));
  if (g->source < 0 || g->sink < 0) cli_input_error(path, 0, "missing 'n ID s' or 'n ID t' line");
  if (g->source == g->sink) cli_input_error(path, 0, "source and sink are the same node");
  g->num_arcs = (int32_t)arrlen(g->from);
  free(text);
}

static int cmd_flow(int argc, char **argv) {
  const char *file = NULL, *algo_name = "bk";
  int json = 0, i;
  dnnmem_flow_algo algo;
  flow_dimacs g;
  dnnmem_flow flow;
  size_t bytes = 0;
  void *scratch;
  int64_t value = 0;
  int32_t side = 0;
  double t0, ms;
  dnnmem_result r;
  for (i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      flow_usage(stdout);
      return 0;
    } else if (strcmp(argv[i], "--json") == 0) {
      json = 1;
    } else if (cli_flag_value("flow", argc, argv, &i, "--algo", &algo_name)) {
    } else if (argv[i][0] == '-' && argv[i][1]) {
      cli_usage_error("flow", "unknown option '%s'", argv[i]);
    } else if (file) {
      cli_usage_error("flow", "one FILE only");
    } else {
      file = argv[i];
    }
  }
  if (strcmp(algo_name, "bk") == 0) algo = DNNMEM_FLOW_BK;
  else if (strcmp(algo_name, "pr") == 0) algo = DNNMEM_FLOW_PUSH_RELABEL;
  else cli_usage_error("flow", "--algo: '%s' is not bk or pr", algo_name);
  if (!file) cli_usage_error("flow", "missing FILE");
  flow_dimacs_read(file, &g);
  r = dnnmem_flow_scratch_size(g.num_nodes, g.num_arcs, &bytes);
  if (r != DNNMEM_OK) cli_input_error(file, 0, "%s", dnnmem_result_string(r));
  scratch = cli_alloc(bytes);
  r = dnnmem_flow_init(&flow, g.num_nodes, g.num_arcs, scratch, bytes);
  for (i = 0; r == DNNMEM_OK && i < g.num_arcs; i++)
    r = dnnmem_flow_add_arc(&flow, g.from[i], g.to[i], g.capacity[i], 0, NULL);
  if (r != DNNMEM_OK) cli_input_error(file, 0, "%s", dnnmem_result_string(r));
  t0 = cli_now_ms();
  r = dnnmem_flow_solve(&flow, g.source, g.sink, algo, &value);
  ms = cli_now_ms() - t0;
  if (r != DNNMEM_OK) cli_input_error(file, 0, "%s", dnnmem_result_string(r));
  for (i = 0; i < g.num_nodes; i++) side += dnnmem_flow_source_side(&flow, i);
  if (json) {
    cli_json_begin();
    cli_json_int("n", g.num_nodes);
    cli_json_int("m", g.num_arcs);
    cli_json_int("flow", value);
    cli_json_string("algo", algo == DNNMEM_FLOW_BK ? "bk" : "pr");
    cli_json_int("source_side", side);
    cli_json_double("time_ms", ms);
    cli_json_end();
  } else {
    printf("max flow %lld (%d nodes, %d arcs, %d nodes on the source side) in %.3f ms\n",
           (long long)value, g.num_nodes, g.num_arcs, side, ms);
  }
  arrfree(g.from);
  arrfree(g.to);
  arrfree(g.capacity);
  free(scratch);
  return 0;
}

/* ---- cover ---------------------------------------------------------------- */

static void cover_usage(FILE *f) {
  fprintf(f,
          "usage: dnnmem cover [--out F] [--json] FILE\n"
          "  Minimum grouping of lifetimes into chains of non-overlapping records\n"
          "  (LeapMind's path-cover grouping). FILE is an intervals CSV or a graph CSV.\n"
          "  --out F   write the input rows plus a 'group' column\n"
          "  --json    one JSON object: n, groups, overlap_max, time_ms; for a graph\n"
          "            also w (the fewest paths covering every edge), max_size,\n"
          "            pathcover_arena (the pathcover plan on the seed's lifetimes,\n"
          "            outputs not extended), bound = 2 w max_size, bound_holds\n"
          "  Exit 3 (never expected): the groups differ from the overlap recounted here.\n");
}

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
   independently of the grouping as a check of the seed's theorem. */
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


typedef struct cover_graph_report {
  int32_t w;
  int64_t max_size, arena, bound;
  int bound_holds, isolated; /* isolated: vertices with no edge (outside the theorem) */
} cover_graph_report;

/* W and the seed's theorem arena <= 2 W max_size, checked on the pathcover
   plan of the seed's lifetimes [i, last consumer + 1). */
static void cover_graph_bound(const char *file, const cli_graph *g, cover_graph_report *rep) {
  const dnnmem_graph *graph = &g->graph;
  int32_t n = graph->num_nodes, m = graph->in_offsets[n], v, k;
  size_t bytes = 0, plan_bytes = 0;
  void *scratch;
  int64_t *offsets;
  dnnmem_interval *records;
  dnnmem_plan_options options;
  dnnmem_plan_result result;
  uint8_t *touched;
  dnnmem_result r = dnnmem_cover_edges_scratch_size(n, m, &bytes);
  if (r != DNNMEM_OK) cli_input_error(file, 0, "%s", dnnmem_result_string(r));
  scratch = cli_alloc(bytes);
  r = dnnmem_cover_edges(graph, NULL, NULL, NULL, 0, NULL, &rep->w, scratch, bytes);
  free(scratch);
  if (r != DNNMEM_OK) cli_input_error(file, 0, "%s", dnnmem_result_string(r));
  records = (dnnmem_interval *)cli_alloc((size_t)n * sizeof(dnnmem_interval));
  r = dnnmem_graph_intervals(graph, g->size, NULL, records);
  if (r != DNNMEM_OK) cli_input_error(file, 0, "%s", dnnmem_result_string(r));
  touched = (uint8_t *)cli_alloc((size_t)n);
  memset(touched, 0, (size_t)n);
  rep->max_size = 0;
  for (v = 0; v < n; v++) {
    if (g->size[v] > rep->max_size) rep->max_size = g->size[v];
    for (k = graph->in_offsets[v]; k < graph->in_offsets[v + 1]; k++) touched[v] = touched[graph->in_ids[k]] = 1;
  }
  rep->isolated = 0;
  for (v = 0; v < n; v++) rep->isolated += !touched[v];
  memset(&options, 0, sizeof(options));
  options.algo = DNNMEM_PLAN_PATHCOVER;
  r = dnnmem_plan_scratch_size(records, n, &options, &plan_bytes);
  if (r != DNNMEM_OK) cli_input_error(file, 0, "%s", dnnmem_result_string(r));
  scratch = cli_alloc(plan_bytes);
  offsets = (int64_t *)cli_alloc((size_t)n * sizeof(int64_t));
  r = dnnmem_plan(records, n, &options, offsets, &result, scratch, plan_bytes);
  if (r != DNNMEM_OK) cli_input_error(file, 0, "%s", dnnmem_result_string(r));
  rep->arena = result.arena;
  if (dnnmem__mul_overflows(2 * (int64_t)rep->w, rep->max_size, &rep->bound)) rep->bound = INT64_MAX;
  rep->bound_holds = rep->arena <= rep->bound;
  free(offsets);
  free(scratch);
  free(records);
  free(touched);
}

static int cmd_cover(int argc, char **argv) {
  const char *file = NULL, *out_path = NULL;
  int json = 0, i;
  cli_intervals iv;
  size_t bytes = 0;
  void *scratch;
  int32_t *group_of, groups = 0, overlap;
  double t0, ms;
  dnnmem_result r;
  cover_graph_report rep;
  for (i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      cover_usage(stdout);
      return 0;
    } else if (strcmp(argv[i], "--json") == 0) {
      json = 1;
    } else if (cli_flag_value("cover", argc, argv, &i, "--out", &out_path)) {
    } else if (argv[i][0] == '-' && argv[i][1]) {
      cli_usage_error("cover", "unknown option '%s'", argv[i]);
    } else if (file) {
      cli_usage_error("cover", "one FILE only");
    } else {
      file = argv[i];
    }
  }
  if (!file) cli_usage_error("cover", "missing FILE");
  cli_intervals_read(file, &iv, 0);
  if (iv.is_graph && iv.n == 0) cli_input_error(file, 0, "empty graph (no rows)");
  r = dnnmem_cover_intervals_scratch_size(iv.n, &bytes);
  if (r != DNNMEM_OK) cli_input_error(file, 0, "%s", dnnmem_result_string(r));
  scratch = cli_alloc(bytes);
  group_of = (int32_t *)cli_alloc((size_t)iv.n * sizeof(int32_t));
  t0 = cli_now_ms();
  r = dnnmem_cover_intervals(iv.records, iv.n, group_of, NULL, &groups, scratch, bytes);
  ms = cli_now_ms() - t0;
  if (r != DNNMEM_OK) cli_input_error(file, 0, "%s", dnnmem_result_string(r));
  overlap = cover_overlap_max(iv.records, iv.n);
  if (overlap != groups)
    fprintf(stderr, "dnnmem cover: %d groups but overlap_max %d (a bug)\n", groups, overlap);
  if (iv.is_graph) {
    cover_graph_bound(file, &iv.graph, &rep);
    if (!rep.bound_holds)
      fprintf(stderr, "dnnmem cover: pathcover arena %lld > 2 W max_size = %lld%s\n",
              (long long)rep.arena, (long long)rep.bound,
              rep.isolated ? " (the graph has isolated vertices, outside the theorem)" : "");
  }
  if (out_path) {
    char **values = (char **)cli_alloc((size_t)iv.n * sizeof(char *));
    for (i = 0; i < iv.n; i++) {
      char buf[16];
      snprintf(buf, sizeof(buf), "%d", group_of[i]);
      values[i] = cli_strdup(buf);
    }
    cli_write_column(iv.is_graph ? &iv.graph.csv : &iv.csv, out_path, "group", values);
    for (i = 0; i < iv.n; i++) free(values[i]);
    free(values);
  }
  if (json) {
    cli_json_begin();
    cli_json_int("n", iv.n);
    cli_json_int("groups", groups);
    cli_json_int("overlap_max", overlap);
    cli_json_double("time_ms", ms);
    if (iv.is_graph) {
      cli_json_int("w", rep.w);
      cli_json_int("max_size", rep.max_size);
      cli_json_int("pathcover_arena", rep.arena);
      cli_json_int("bound", rep.bound);
      cli_json_bool("bound_holds", rep.bound_holds);
    }
    cli_json_end();
  } else {
    printf("%d records in %d groups (overlap_max %d) in %.3f ms\n", iv.n, groups, overlap, ms);
    if (iv.is_graph)
      printf("W = %d; pathcover arena %lld %s 2 W max_size = %lld\n", rep.w, (long long)rep.arena,
             rep.bound_holds ? "<=" : ">", (long long)rep.bound);
  }
  free(group_of);
  free(scratch);
  return overlap == groups ? 0 : 3;
}

/* ---- plan and share ------------------------------------------------------ */

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
  if (fclose(f) != 0) cli_input_error(path, 0, "write failed");
}

static char **cli_i64_strings(const int64_t *v, int32_t n) {
  char **s = (char **)cli_alloc((size_t)(n > 0 ? n : 1) * sizeof(char *));
  int32_t i;
  for (i = 0; i < n; i++) {
    s[i] = (char *)cli_alloc(24);
    snprintf(s[i], 24, "%lld", (long long)v[i]);
  }
  return s;
}

static int cmd_plan(int argc, char **argv) {
  const char *file = NULL, *out = NULL, *svg = NULL, *value;
  dnnmem_plan_options opt;
  dnnmem_plan_result res;
  cli_intervals iv;
  int64_t *offsets, arena = 0;
  int32_t pair[2];
  size_t bytes, check_bytes;
  void *scratch;
  int json = 0, i;
  double t0, ms, deadline = 0;
  dnnmem_result r;
  memset(&opt, 0, sizeof(opt));
  for (i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      printf("usage: dnnmem plan [--algo A] [--align N] [--time-limit S] [--nodes N]\n"
             "                   [--capacity C] [--out F] [--svg F] [--json] FILE\n"
             "  Arena offsets for the records of FILE (intervals CSV or graph CSV).\n"
             "  --algo     best (default), naive, greedy-size, greedy-breadth, sorted-height,\n"
             "             pathcover, bestfit, exact (minimum arena, proven when it completes)\n"
             "  --align N  every offset a multiple of N (a power of two)\n"
             "  --time-limit S  stop the exact search after S seconds (best plan so far)\n"
             "  --nodes N  stop the exact search after N nodes (best: default %d)\n"
             "  --capacity C  is there a plan within C bytes? (JSON: feasible true, false\n"
             "             or \"unknown\"); with exact the search answers it\n"
             "  --out F    the input rows plus an 'offset' column\n"
             "  --svg F    a picture of the plan\n",
             DNNMEM_PLAN_BEST_NODES);
      return 0;
    } else if (strcmp(argv[i], "--json") == 0) {
      json = 1;
    } else if (cli_flag_value("plan", argc, argv, &i, "--algo", &value)) {
      if (dnnmem_plan_algo_parse(value, &opt.algo) != DNNMEM_OK)
        cli_usage_error("plan", "unknown --algo '%s'", value);
    } else if (cli_flag_value("plan", argc, argv, &i, "--align", &value)) {
      opt.alignment = cli_parse_i64("plan", "--align", value);
      if (opt.alignment < 1 || (opt.alignment & (opt.alignment - 1)))
        cli_usage_error("plan", "--align must be a power of two");
    } else if (cli_flag_value("plan", argc, argv, &i, "--time-limit", &value)) {
      double seconds = cli_parse_double("plan", "--time-limit", value);
      if (seconds <= 0) cli_usage_error("plan", "--time-limit must be positive");
      deadline = seconds * 1e3; /* made absolute when planning starts */
    } else if (cli_flag_value("plan", argc, argv, &i, "--nodes", &value)) {
      opt.node_limit = cli_parse_i64("plan", "--nodes", value);
      if (opt.node_limit < 1) cli_usage_error("plan", "--nodes must be positive");
    } else if (cli_flag_value("plan", argc, argv, &i, "--capacity", &value)) {
      opt.capacity = cli_parse_i64("plan", "--capacity", value);
      if (opt.capacity < 1) cli_usage_error("plan", "--capacity must be positive");
    } else if (cli_flag_value("plan", argc, argv, &i, "--out", &value)) {
      out = value;
    } else if (cli_flag_value("plan", argc, argv, &i, "--svg", &value)) {
      svg = value;
    } else if (argv[i][0] == '-' && argv[i][1]) {
      cli_usage_error("plan", "unknown option '%s'", argv[i]);
    } else if (file) {
      cli_usage_error("plan", "one FILE only");
    } else {
      file = argv[i];
    }
  }
  if (!file) cli_usage_error("plan", "missing FILE");
  cli_intervals_read(file, &iv, opt.alignment);
  t0 = cli_now_ms();
  if (deadline > 0) {
    deadline += t0;
    opt.stop = cli_deadline_passed;
    opt.stop_user = &deadline;
  }
  r = dnnmem_plan_scratch_size(iv.records, iv.n, &opt, &bytes);
  if (r != DNNMEM_OK) cli_input_error(file, 0, "%s", dnnmem_result_string(r));
  scratch = cli_alloc(bytes);
  offsets = (int64_t *)cli_alloc((size_t)(iv.n > 0 ? iv.n : 1) * sizeof(int64_t));
  r = dnnmem_plan(iv.records, iv.n, &opt, offsets, &res, scratch, bytes);
  ms = cli_now_ms() - t0;
  if (r != DNNMEM_OK) cli_input_error(file, 0, "%s", dnnmem_result_string(r));
  /* an independent check of every plan before anyone uses it */
  if (dnnmem_plan_check_scratch_size(iv.records, iv.n, &check_bytes) != DNNMEM_OK) exit(3);
  free(scratch);
  scratch = cli_alloc(check_bytes);
  r = dnnmem_plan_check(iv.records, iv.n, opt.alignment, offsets, &arena, pair, scratch, check_bytes);
  if (r != DNNMEM_OK || arena != res.arena) {
    fprintf(stderr, "dnnmem plan: internal error: the plan fails its check (%s, records %d %d)\n",
            dnnmem_result_string(r), pair[0], pair[1]);
    exit(3);
  }
  if (out) cli_write_column(&iv.csv, out, "offset", cli_i64_strings(offsets, iv.n));
  if (svg) cli_plan_svg(svg, file, iv.records, iv.n, offsets, res.arena, res.lower_bound);
  if (json) {
    cli_json_begin();
    cli_json_int("n", iv.n);
    cli_json_string("algo", dnnmem_plan_algo_name(res.algo));
    cli_json_int("arena", res.arena);
    cli_json_int("lower_bound", res.lower_bound);
    cli_json_bool("optimal", res.optimal);
    cli_json_double("time_ms", ms);
    if (opt.capacity > 0) {
      cli_json_int("capacity", opt.capacity);
      if (res.feasible < 0) cli_json_string("feasible", "unknown");
      else cli_json_bool("feasible", res.feasible);
    }
    cli_json_int("nodes", res.nodes);
    cli_json_end();
  } else {
    printf("%s: %d records, %s: arena %lld bytes, lower bound %lld (%.3fx)%s, %.2f ms\n", file, iv.n,
           dnnmem_plan_algo_name(res.algo), (long long)res.arena, (long long)res.lower_bound,
           res.lower_bound ? (double)res.arena / (double)res.lower_bound : 1.0,
           res.optimal ? ", optimal" : "", ms);
    if (opt.capacity > 0)
      printf("capacity %lld: %s\n", (long long)opt.capacity,
             res.feasible > 0 ? "feasible" : res.feasible == 0 ? "infeasible (proven)" : "unknown");
  }
  free(scratch);
  free(offsets);
  return 0;
}

static int cmd_share(int argc, char **argv) {
  const char *file = NULL, *out = NULL, *value;
  dnnmem_share_algo algo = DNNMEM_SHARE_BEST;
  dnnmem_share_result res;
  cli_intervals iv;
  int32_t *object_of, objects = 0;
  int64_t total = 0, *ids;
  size_t bytes;
  void *scratch;
  int json = 0, i;
  double t0, ms;
  dnnmem_result r;
  for (i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      printf("usage: dnnmem share [--algo A] [--out F] [--json] FILE\n"
             "  Shared objects (TFLite) for the records of FILE (intervals or graph CSV).\n"
             "  --algo   best (default), greedy-size, greedy-size-improved, greedy-breadth,\n"
             "           greedy-order\n"
             "  --out F  the input rows plus an 'object' column\n");
      return 0;
    } else if (strcmp(argv[i], "--json") == 0) {
      json = 1;
    } else if (cli_flag_value("share", argc, argv, &i, "--algo", &value)) {
      if (dnnmem_share_algo_parse(value, &algo) != DNNMEM_OK)
        cli_usage_error("share", "unknown --algo '%s'", value);
    } else if (cli_flag_value("share", argc, argv, &i, "--out", &value)) {
      out = value;
    } else if (argv[i][0] == '-' && argv[i][1]) {
      cli_usage_error("share", "unknown option '%s'", argv[i]);
    } else if (file) {
      cli_usage_error("share", "one FILE only");
    } else {
      file = argv[i];
    }
  }
  if (!file) cli_usage_error("share", "missing FILE");
  cli_intervals_read(file, &iv, 0);
  t0 = cli_now_ms();
  r = dnnmem_share_scratch_size(iv.n, &bytes);
  if (r != DNNMEM_OK) cli_input_error(file, 0, "%s", dnnmem_result_string(r));
  scratch = cli_alloc(bytes);
  object_of = (int32_t *)cli_alloc((size_t)(iv.n > 0 ? iv.n : 1) * sizeof(int32_t));
  r = dnnmem_share(iv.records, iv.n, algo, object_of, NULL, &res, scratch, bytes);
  ms = cli_now_ms() - t0;
  if (r != DNNMEM_OK) cli_input_error(file, 0, "%s", dnnmem_result_string(r));
  r = dnnmem_share_check(iv.records, iv.n, object_of, &total, &objects, scratch, bytes);
  if (r != DNNMEM_OK || total != res.total || objects != res.objects) {
    fprintf(stderr, "dnnmem share: internal error: the assignment fails its check (%s)\n",
            dnnmem_result_string(r));
    exit(3);
  }
  if (out) {
    ids = (int64_t *)cli_alloc((size_t)(iv.n > 0 ? iv.n : 1) * sizeof(int64_t));
    for (i = 0; i < iv.n; i++) ids[i] = object_of[i];
    cli_write_column(&iv.csv, out, "object", cli_i64_strings(ids, iv.n));
    free(ids);
  }
  if (json) {
    cli_json_begin();
    cli_json_int("n", iv.n);
    cli_json_string("algo", dnnmem_share_algo_name(res.algo));
    cli_json_int("objects", res.objects);
    cli_json_int("total", res.total);
    cli_json_int("lower_bound", res.lower_bound);
    cli_json_bool("optimal", res.optimal);
    cli_json_double("time_ms", ms);
    cli_json_end();
  } else {
    printf("%s: %d records, %s: %d objects, total %lld bytes, lower bound %lld (%.3fx), %.2f ms\n",
           file, iv.n, dnnmem_share_algo_name(res.algo), res.objects, (long long)res.total,
           (long long)res.lower_bound, res.lower_bound ? (double)res.total / (double)res.lower_bound : 1.0, ms);
  }
  free(scratch);
  free(object_of);
  return 0;
}

/* ---- remat: recomputation schedule within a memory budget ---------------- */

typedef struct cli_remat_clock {
  double start_ms, limit_ms, deadline_ms, last_report_ms;
  int report;
} cli_remat_clock;

static double cli_remat_progress(void *user) {
  cli_remat_clock *c = (cli_remat_clock *)user;
  double now = cli_now_ms();
  if (c->report && now - c->last_report_ms >= 2000.0) {
    fprintf(stderr, "dnnmem remat: %.0f%% of %.1f s\n", 100.0 * (now - c->start_ms) / c->limit_ms,
            c->limit_ms / 1e3);
    c->last_report_ms = now;
  }
  return (now - c->start_ms) / c->limit_ms;
}

static void cli_remat_usage(FILE *f) {
  fprintf(f,
          "usage: dnnmem remat GRAPH (--budget B | --budget-ratio R | --curve) [options]\n"
          "  Finds a computation sequence (with recomputation) whose peak memory fits the\n"
          "  budget at the least extra compute time (FastSA annealing with graph\n"
          "  contraction). GRAPH is a dnnmem graph CSV; times are read in microseconds\n"
          "  and reported in integer nanoseconds.\n"
          "  --budget B          peak budget in bytes\n"
          "  --budget-ratio R    budget = R x the row order's peak\n"
          "  --time-limit S      anneal for S seconds (default: a fixed move count, deterministic)\n"
          "  --iterations N      annealing moves (default 1000 x nodes + 500000)\n"
          "  --seed N            random seed (default 1)\n"
          "  --max-length N      longest sequence (default 2 x nodes + 16)\n"
          "  --no-contraction    anneal the plain graph only\n"
          "  --baselines         also report the best reordering without recomputation\n"
          "  --bound             also prove a lower bound of the extra time every sequence\n"
          "                      within the budget needs (extra_time_lower_bound)\n"
          "  --bound-cuts K      cut nodes tried by --bound (default 16)\n"
          "  --curve             peak/time trade-off for budgets 100%%..10%% of the base peak\n"
          "  --out F             write the sequence, one node id per line\n"
          "  --json              one JSON object on stdout: n, base_peak, peak, budget,\n"
          "                      base_time, time, overhead, feasible, time_ms, ...\n");
}

typedef struct cli_remat_run {
  dnnmem_remat_stats stats;
  dnnmem_result result;
  int32_t *sequence;
  int32_t length;
  double ms;
} cli_remat_run;

static void cli_remat_solve(const char *path, const dnnmem_remat_problem *problem,
                            const dnnmem_remat_options *base_options, int64_t budget,
                            double limit_s, uint64_t seed, int32_t max_length, int report,
                            void *scratch, size_t scratch_bytes, cli_remat_run *run) {
  dnnmem_remat_options o = *base_options;
  cli_remat_clock clock;
  dnnmem_rng rng;
  double deadline;
  dnnmem_rng_seed(&rng, seed);
  o.budget = budget;
  clock.start_ms = cli_now_ms();
  clock.limit_ms = limit_s * 1e3;
  clock.last_report_ms = clock.start_ms;
  clock.report = report;
  deadline = clock.start_ms + clock.limit_ms;
  if (limit_s > 0) {
    o.stop = cli_deadline_passed;
    o.stop_user = &deadline;
    o.progress = cli_remat_progress;
    o.progress_user = &clock;
    if (o.iterations == 0) o.iterations = INT64_MAX / 4;
  }
  run->result = dnnmem_remat_solve(problem, &o, &rng, max_length, run->sequence, &run->length,
                                   &run->stats, scratch, scratch_bytes);
  run->ms = cli_now_ms() - clock.start_ms;
  if (run->result != DNNMEM_OK && run->result != DNNMEM_ERR_INFEASIBLE)
    cli_input_error(path, 0, "%s", dnnmem_result_string(run->result));
}

static int cmd_remat(int argc, char **argv) {
  const char *path = NULL, *out = NULL, *value;
  int json = 0, curve = 0, baselines = 0, bound = 0, have_budget = 0, i;
  double ratio = -1, limit_s = 0;
  int64_t bound_cuts = 0;
  int64_t budget = 0, lower_bound = 0, max_length_arg = 0;
  uint64_t seed = 1;
  cli_graph graph;
  dnnmem_remat_problem problem;
  dnnmem_remat_options options;
  dnnmem_remat_stats base, checkpoint;
  dnnmem_result r;
  int32_t n, max_length, base_length, checkpoint_length;
  size_t bytes = 0, need;
  void *scratch;
  cli_remat_run run;
  int32_t *base_sequence;
  memset(&options, 0, sizeof(options));
  for (i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      cli_remat_usage(stdout);
      return 0;
    } else if (strcmp(argv[i], "--json") == 0) {
      json = 1;
    } else if (strcmp(argv[i], "--curve") == 0) {
      curve = 1;
    } else if (strcmp(argv[i], "--baselines") == 0) {
      baselines = 1;
    } else if (strcmp(argv[i], "--no-contraction") == 0) {
      options.flags |= DNNMEM_REMAT_NO_CONTRACTION;
    } else if (strcmp(argv[i], "--bound") == 0) {
      bound = 1;
    } else if (cli_flag_value("remat", argc, argv, &i, "--bound-cuts", &value)) {
      bound_cuts = cli_parse_i64("remat", "--bound-cuts", value);
      if (bound_cuts <= 0 || bound_cuts > INT32_MAX)
        cli_usage_error("remat", "--bound-cuts must be in 1..%d", INT32_MAX);
      bound = 1;
    } else if (cli_flag_value("remat", argc, argv, &i, "--budget", &value)) {
      budget = cli_parse_i64("remat", "--budget", value);
      if (budget < 0) cli_usage_error("remat", "--budget must be >= 0");
      have_budget |= 1;
    } else if (cli_flag_value("remat", argc, argv, &i, "--budget-ratio", &value)) {
      ratio = cli_parse_double("remat", "--budget-ratio", value);
      if (ratio <= 0) cli_usage_error("remat", "--budget-ratio must be > 0");
      have_budget |= 2;
    } else if (cli_flag_value("remat", argc, argv, &i, "--time-limit", &value)) {
      limit_s = cli_parse_double("remat", "--time-limit", value);
      if (limit_s <= 0) cli_usage_error("remat", "--time-limit must be > 0");
    } else if (cli_flag_value("remat", argc, argv, &i, "--iterations", &value)) {
      options.iterations = cli_parse_i64("remat", "--iterations", value);
      if (options.iterations <= 0) cli_usage_error("remat", "--iterations must be > 0");
    } else if (cli_flag_value("remat", argc, argv, &i, "--seed", &value)) {
      seed = (uint64_t)cli_parse_i64("remat", "--seed", value);
    } else if (cli_flag_value("remat", argc, argv, &i, "--max-length", &value)) {
      max_length_arg = cli_parse_i64("remat", "--max-length", value);
      if (max_length_arg <= 0 || max_length_arg > (1 << 28))
        cli_usage_error("remat", "--max-length must be in 1..%d", 1 << 28);
    } else if (cli_flag_value("remat", argc, argv, &i, "--out", &value)) {
      out = value;
    } else if (argv[i][0] == '-' && argv[i][1]) {
      cli_usage_error("remat", "unknown option '%s'", argv[i]);
    } else if (!path) {
      path = argv[i];
    } else {
      cli_usage_error("remat", "more than one GRAPH");
    }
  }
  if (!path) cli_usage_error("remat", "missing GRAPH");
  if (!have_budget && !curve) cli_usage_error("remat", "give --budget, --budget-ratio or --curve");
  if (have_budget == 3) cli_usage_error("remat", "give --budget or --budget-ratio, not both");
  cli_graph_read(path, &graph);
  n = graph.graph.num_nodes;
  problem.graph = graph.graph;
  problem.sizes = graph.size;
  problem.times = graph.time;
  problem.is_output = graph.output;
  if (max_length_arg && max_length_arg < n)
    cli_usage_error("remat", "--max-length %lld is below the %d nodes", (long long)max_length_arg, n);
  max_length = max_length_arg ? (int32_t)max_length_arg
                              : (n > ((1 << 28) - 16) / 2 ? n : 2 * n + 16);
  r = dnnmem_remat_lower_bound(&problem, &lower_bound);
  if (r != DNNMEM_OK) cli_input_error(path, 0, "%s", dnnmem_result_string(r));
  /* one scratch block for the solver and the baselines */
  r = dnnmem_remat_solve_scratch_size(n, graph.graph.in_offsets[n], max_length, &bytes);
  if (r != DNNMEM_OK) cli_input_error(path, 0, "%s", dnnmem_result_string(r));
  r = dnnmem_remat_baseline_scratch_size(n, graph.graph.in_offsets[n], max_length, &need);
  if (r != DNNMEM_OK) cli_input_error(path, 0, "%s", dnnmem_result_string(r));
  if (need > bytes) bytes = need;
  scratch = cli_alloc(bytes);
  base_sequence = (int32_t *)cli_alloc((size_t)max_length * sizeof(int32_t));
  run.sequence = (int32_t *)cli_alloc((size_t)max_length * sizeof(int32_t));
  r = dnnmem_remat_baseline(&problem, DNNMEM_REMAT_BASELINE_ROW_ORDER, max_length, base_sequence,
                            &base_length, &base, scratch, bytes);
  if (r != DNNMEM_OK) cli_input_error(path, 0, "%s", dnnmem_result_string(r));
  r = dnnmem_remat_baseline(&problem, DNNMEM_REMAT_BASELINE_CHECKPOINT, max_length, run.sequence,
                            &checkpoint_length, &checkpoint, scratch, bytes);
  if (r != DNNMEM_OK) checkpoint.peak = checkpoint.time = -1; /* longer than max_length */
  if (ratio > 0) budget = (int64_t)((double)base.peak * ratio);

  if (curve) {
    static const double ratios[] = {1.0, 0.8, 0.6, 0.5, 0.4, 0.3, 0.25, 0.2, 0.15, 0.1};
    int c, count = (int)(sizeof(ratios) / sizeof(ratios[0]));
    double each = limit_s > 0 ? limit_s / count : 0, t0 = cli_now_ms();
    if (json) {
      cli_json_begin();
      cli_json_int("n", n);
      cli_json_int("base_peak", base.peak);
      cli_json_int("base_time", base.time);
      cli_json_int("lower_bound", lower_bound);
      cli_json_key("curve");
      printf("[");
    } else {
      printf("%-6s %14s %14s %9s %s\n", "ratio", "budget", "peak", "overhead", "feasible");
    }
    for (c = 0; c < count; c++) {
      int64_t b = (int64_t)((double)base.peak * ratios[c]);
      double overhead;
      cli_remat_solve(path, &problem, &options, b, each, seed, max_length, !json, scratch, bytes, &run);
      overhead = base.time > 0 ? (double)(run.stats.time - base.time) / (double)base.time : 0.0;
      if (json) {
        printf("%s{\"ratio\": %.4g, \"budget\": %lld, \"peak\": %lld, \"time\": %lld, "
               "\"overhead\": %.6g, \"feasible\": %s}",
               c ? ", " : "", ratios[c], (long long)b, (long long)run.stats.peak,
               (long long)run.stats.time, overhead, run.result == DNNMEM_OK ? "true" : "false");
      } else {
        printf("%-6.2f %14lld %14lld %8.2f%% %s\n", ratios[c], (long long)b,
               (long long)run.stats.peak, 100 * overhead, run.result == DNNMEM_OK ? "yes" : "no");
      }
    }
    if (json) {
      printf("]");
      cli_json_double("time_ms", cli_now_ms() - t0);
      cli_json_end();
    }
    return 0;
  }

  if (budget < lower_bound)
    fprintf(stderr, "dnnmem remat: budget %lld is below the lower bound %lld: infeasible\n",
            (long long)budget, (long long)lower_bound);
  cli_remat_solve(path, &problem, &options, budget, limit_s, seed, max_length,
                  !json || limit_s >= 5, scratch, bytes, &run);
  if (out) {
    FILE *f = fopen(out, "w");
    if (!f) cli_input_error(out, 0, "cannot write: %s", strerror(errno));
    for (i = 0; i < run.length; i++) fprintf(f, "%d\n", run.sequence[i]);
    if (fclose(f) != 0) cli_input_error(out, 0, "write failed");
  }
  {
    double overhead = base.time > 0 ? (double)(run.stats.time - base.time) / (double)base.time : 0.0;
    double mps = run.ms > 0 ? (double)run.stats.moves / (run.ms / 1e3) : 0.0;
    dnnmem_remat_stats reorder;
    int64_t extra_bound = -1;
    int32_t bound_cut = -1;
    double bound_ms = 0;
    reorder.peak = reorder.time = -1;
    if (bound) {
      void *bs;
      double t0 = cli_now_ms();
      r = dnnmem_remat_time_bound_scratch_size(n, graph.graph.in_offsets[n], &need);
      if (r != DNNMEM_OK) cli_input_error(path, 0, "%s", dnnmem_result_string(r));
      bs = cli_alloc(need);
      r = dnnmem_remat_time_bound(&problem, budget, (int32_t)bound_cuts, &extra_bound, &bound_cut,
                                  bs, need);
      if (r != DNNMEM_OK && r != DNNMEM_ERR_INFEASIBLE)
        cli_input_error(path, 0, "%s", dnnmem_result_string(r));
      bound_ms = cli_now_ms() - t0;
      free(bs);
    }
    if (baselines) {
      cli_remat_run rr;
      dnnmem_remat_options ro = options;
      ro.flags |= DNNMEM_REMAT_NO_RECOMPUTE;
      rr.sequence = base_sequence;
      cli_remat_solve(path, &problem, &ro, 0, limit_s, seed, max_length, 0, scratch, bytes, &rr);
      reorder = rr.stats;
    }
    if (json) {
      cli_json_begin();
      cli_json_int("n", n);
      cli_json_int("base_peak", base.peak);
      cli_json_int("peak", run.stats.peak);
      cli_json_int("budget", budget);
      cli_json_int("base_time", base.time);
      cli_json_int("time", run.stats.time);
      cli_json_double("overhead", overhead);
      cli_json_bool("feasible", run.result == DNNMEM_OK);
      cli_json_double("time_ms", run.ms);
      cli_json_int("lower_bound", lower_bound);
      cli_json_int("length", run.length);
      cli_json_int("recomputations", run.stats.recomputations);
      cli_json_int("moves", run.stats.moves);
      cli_json_double("moves_per_second", mps);
      cli_json_int("checkpoint_peak", checkpoint.peak);
      cli_json_int("checkpoint_time", checkpoint.time);
      if (baselines) {
        cli_json_int("reorder_peak", reorder.peak);
        cli_json_int("reorder_time", reorder.time);
      }
      if (bound && extra_bound < INT64_MAX) {
        cli_json_int("extra_time_lower_bound", extra_bound);
        cli_json_double("overhead_lower_bound",
                        base.time > 0 ? (double)extra_bound / (double)base.time : 0.0);
        cli_json_int("bound_cut", bound_cut);
        cli_json_double("bound_ms", bound_ms);
      }
      cli_json_end();
    } else {
      printf("%s: %d nodes, base peak %lld bytes, time %lld ns; lower bound %lld\n", path, n,
             (long long)base.peak, (long long)base.time, (long long)lower_bound);
      printf("budget %lld: peak %lld (%.1f%% of base), time %lld (+%.2f%%), %d steps, %s\n",
             (long long)budget, (long long)run.stats.peak,
             base.peak > 0 ? 100.0 * (double)run.stats.peak / (double)base.peak : 0.0,
             (long long)run.stats.time, 100 * overhead, run.length,
             run.result == DNNMEM_OK ? "feasible" : "INFEASIBLE");
      printf("%lld moves in %.0f ms (%.2g moves/s)\n", (long long)run.stats.moves, run.ms, mps);
      if (checkpoint.peak >= 0)
        printf("sqrt(n) checkpointing: peak %lld, time %lld\n", (long long)checkpoint.peak,
               (long long)checkpoint.time);
      if (baselines)
        printf("best reordering: peak %lld, time %lld\n", (long long)reorder.peak,
               (long long)reorder.time);
      if (bound && extra_bound < INT64_MAX)
        printf("every sequence within the budget recomputes >= %lld ns (+%.2f%%; cut at node %d, "
               "%.0f ms)\n", (long long)extra_bound,
               base.time > 0 ? 100.0 * (double)extra_bound / (double)base.time : 0.0, bound_cut,
               bound_ms);
    }
  }
  return 0;
}

/* ---- layout ---------------------------------------------------------------- */

static void layout_usage(FILE *f) {
  fprintf(f,
          "usage: dnnmem layout LAYOUT [--machine SPEC] [--at I,J,..]... [--dump] [--json]\n"
          "  Parses a TensorLayout (PFN's MN-Core notation), prints it canonically and\n"
          "  maps indices to (unit at each level, local address).\n"
          "    LAYOUT          e.g. '(10,7)/((3:7, 4_PE), (7:1))' or '((12:8), (8:1); B@[PE])'\n"
          "    --machine SPEC  level extents, outermost first: 'L2B=16,L1B=8,MAB=16,PE=4';\n"
          "                    checks the layout fits and makes unused levels broadcasts\n"
          "    --at I,J,..     where element (I,J,..) lives (repeatable; padded indices allowed)\n"
          "    --dump          every position of the (padded) shape, in row-major order\n"
          "    --json          one JSON object: canonical, size, padded_size, shape,\n"
          "                    unpadded, levels, cosize, replicas (null when unknown),\n"
          "                    units, slots, padding_slots, unused_slots (with a known\n"
          "                    replica count), locations [{at, units, address, padding}],\n"
          "                    and for one --at also at, units, address, padding at the\n"
          "                    top level; units maps every level to a coordinate, \"all\"\n"
          "                    (broadcast) or the list of units holding copies.\n"
          "  Exit codes: 0 ok, 1 usage, 2 bad layout or machine (message gives the byte).\n");
}

#define LAYOUT_MAX_COPIES_LISTED 4096
#define LAYOUT_MAX_DUMP ((int64_t)1 << 22)

static void layout_fail_at(const char *what, const char *text, int64_t at, dnnmem_result r) {
  int col = (int)(at < 0 ? 0 : at > (int64_t)strlen(text) ? (int64_t)strlen(text) : at);
  cli_input_error(what, 1, "byte %d: %s\n  %s\n  %*s^", col, dnnmem_result_string(r), text, col, "");
}

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

static int cmd_layout(int argc, char **argv) {
  const char *text = NULL, *machine_text = NULL, *value;
  const char **at_texts = NULL; /* stb_ds array */
  int json = 0, dump = 0, i, have_stats = 0;
  int64_t err = 0, *indices = NULL; /* num_at x num_axes */
  int32_t a, lv, num_at;
  dnnmem_layout l;
  dnnmem_layout_machine machine;
  dnnmem_layout_stats st;
  char canonical[DNNMEM_LAYOUT_TEXT_MAX];
  dnnmem_result r;
  for (i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      layout_usage(stdout);
      return 0;
    } else if (strcmp(argv[i], "--json") == 0) {
      json = 1;
    } else if (strcmp(argv[i], "--dump") == 0) {
      dump = 1;
    } else if (cli_flag_value("layout", argc, argv, &i, "--machine", &machine_text)) {
    } else if (cli_flag_value("layout", argc, argv, &i, "--at", &value)) {
      arrput(at_texts, value);
    } else if (argv[i][0] == '-' && argv[i][1]) {
      cli_usage_error("layout", "unknown option '%s'", argv[i]);
    } else if (text) {
      cli_usage_error("layout", "one LAYOUT only (quote it: '((4_PE, 3:8), (8:1))')");
    } else {
      text = argv[i];
    }
  }
  if (!text) cli_usage_error("layout", "missing LAYOUT");
  r = dnnmem_layout_parse(text, strlen(text), &l, &err);
  if (r != DNNMEM_OK) layout_fail_at("layout", text, err, r);
  if (machine_text) {
    r = dnnmem_layout_machine_parse(machine_text, strlen(machine_text), &machine, &err);
    if (r != DNNMEM_OK) layout_fail_at("machine", machine_text, err, r);
    r = dnnmem_layout_bind(&l, &machine, &err);
    if (r != DNNMEM_OK) layout_fail_at("layout", text, err, r);
  }
  /* --at lists: integers, one per axis, inside the padded shape */
  num_at = (int32_t)arrlen(at_texts);
  indices = (int64_t *)cli_alloc(((size_t)num_at + 1) * (size_t)l.num_axes * sizeof(int64_t));
  for (i = 0; i < num_at; i++) {
    const char *p = at_texts[i];
    for (a = 0;; a++) {
      char *end;
      long long v;
      if (a == l.num_axes) cli_input_error("--at", 0, "'%s': the layout has %d axes", at_texts[i], l.num_axes);
      errno = 0;
      v = strtoll(p, &end, 10);
      if (end == p || errno) cli_usage_error("layout", "--at '%s': expected integers I,J,..", at_texts[i]);
      if (v < 0 || v >= l.shape[a])
        cli_input_error("--at", 0, "'%s': index %lld of axis %d is outside 0..%lld", at_texts[i], v, a,
                        (long long)l.shape[a] - 1);
      indices[(size_t)i * (size_t)l.num_axes + (size_t)a] = v;
      if (*end == 0) break;
      if (*end != ',') cli_usage_error("layout", "--at '%s': expected integers I,J,..", at_texts[i]);
      p = end + 1;
    }
    if (a + 1 != l.num_axes)
      cli_input_error("--at", 0, "'%s': the layout has %d axes", at_texts[i], l.num_axes);
  }
  if (dump && l.padded_size > LAYOUT_MAX_DUMP)
    cli_input_error("layout", 0, "--dump: %lld positions is more than %lld", (long long)l.padded_size,
                    (long long)LAYOUT_MAX_DUMP);
  dnnmem_layout_print(&l, canonical, sizeof(canonical), NULL);
  have_stats = dnnmem_layout_measure(&l, &st) == DNNMEM_OK;
  if (json) {
    cli_json_begin();
    cli_json_string("canonical", canonical);
    cli_json_int("size", l.size);
    cli_json_int("padded_size", l.padded_size);
    cli_json_key("shape");
    layout_print_dims(l.shape, l.num_axes, 1);
    cli_json_key("unpadded");
    layout_print_dims(l.unpadded, l.num_axes, 1);
    cli_json_key("levels");
    printf("[");
    for (lv = 0; lv < l.num_levels; lv++) {
      printf("%s{\"name\": ", lv ? ", " : "");
      cli_json_string_value(l.level_names[lv]);
      printf(", \"extent\": %lld, \"parts\": %lld, \"broadcast\": %s", (long long)(l.bound ? l.level_extent[lv] : l.level_span[lv]),
             (long long)l.level_parts[lv], l.level_all[lv] ? "\"all\"" : "false");
      if (have_stats) printf(", \"share\": %lld", (long long)st.level_share[lv]);
      printf("}");
    }
    printf("]");
    cli_json_int("cosize", l.cosize);
    cli_json_key("replicas");
    if (l.replicas) printf("%lld", (long long)l.replicas);
    else printf("null");
    if (have_stats) {
      cli_json_int("units_total", st.units);
      cli_json_int("slots", st.slots);
      cli_json_int("padding_slots", st.padding_slots);
      cli_json_int("unused_slots", st.unused_slots);
      cli_json_int("capacity", st.capacity);
    }
  } else {
    printf("%s\n", canonical);
    printf("shape ");
    layout_print_dims(l.shape, l.num_axes, 0);
    printf(" (unpadded ");
    layout_print_dims(l.unpadded, l.num_axes, 0);
    printf("): %lld elements, %lld positions, cosize %lld per unit\n", (long long)l.size,
           (long long)l.padded_size, (long long)l.cosize);
    for (lv = 0; lv < l.num_levels; lv++)
      printf("level %s: %lld units%s, split %lld ways%s\n", l.level_names[lv],
             (long long)(l.bound ? l.level_extent[lv] : l.level_span[lv]), l.bound ? "" : " used",
             (long long)l.level_parts[lv], l.level_all[lv] ? ", broadcast to all" : "");
    if (have_stats)
      printf("replicas %lld, units %lld, slots %lld (padding %lld), capacity %lld, unused %lld\n",
             (long long)st.replicas, (long long)st.units, (long long)st.slots,
             (long long)st.padding_slots, (long long)st.capacity, (long long)st.unused_slots);
    else
      printf("replicas unknown: give --machine to count B@[LEVEL] copies\n");
  }
  /* queries */
  {
    int64_t units[DNNMEM_LAYOUT_MAX_LEVELS], address;
    int padding;
    if (json) {
      cli_json_key("locations");
      printf("[");
    }
    for (i = 0; i < num_at; i++) {
      const int64_t *index = indices + (size_t)i * (size_t)l.num_axes;
      dnnmem_layout_forward(&l, index, units, &address, &padding);
      if (json) printf("%s{", i ? ", " : "");
      layout_print_location(&l, index, units, address, padding, json);
      if (json) printf("}");
    }
    if (json) printf("]");
    if (json && num_at == 1) {
      dnnmem_layout_forward(&l, indices, units, &address, &padding);
      printf(", ");
      layout_print_location(&l, indices, units, address, padding, 1);
    }
    if (dump) {
      int64_t p, index[DNNMEM_LAYOUT_MAX_AXES];
      if (json) {
        cli_json_key("dump");
        printf("[");
      }
      for (p = 0; p < l.padded_size; p++) {
        dnnmem_layout_index(&l, p, index);
        dnnmem_layout_forward(&l, index, units, &address, &padding);
        if (json) printf("%s{", p ? ", " : "");
        layout_print_location(&l, index, units, address, padding, json);
        if (json) printf("}");
      }
      if (json) printf("]");
    }
  }
  if (json) cli_json_end();
  free(indices);
  arrfree(at_texts);
  return 0;
}

/* ---- place ---------------------------------------------------------------- */

static void place_usage(FILE *f) {
  fprintf(f,
          "usage: dnnmem place [--per-edge] [--algo bk|pr] [--out F] [--json] GRAPH\n"
          "  Optimal CPU/accelerator placement by minimum cut. GRAPH is a graph CSV\n"
          "  (cpu_time, acc_time in microseconds or inf, device cpu|acc|any, xfer,\n"
          "  output); rows with op 'input' run on the CPU. A value converted between\n"
          "  the devices is charged xfer once (outputs must end on the CPU).\n"
          "  --per-edge  charge xfer per producer/consumer pair (the seed's model)\n"
          "  --algo A    max-flow algorithm: bk (default) or pr\n"
          "  --out F     write the input rows with the chosen 'device' (cpu/acc)\n"
          "  --json      one JSON object: n, time, all_acc_time, greedy_time,\n"
          "              all_cpu_time, cut (integer ns), conversions, time_ms ...\n");
}

static int cmd_place(int argc, char **argv) {
  const char *file = NULL, *out_path = NULL, *algo_name = "bk";
  int json = 0, i;
  cli_graph g;
  dnnmem_place_problem problem;
  dnnmem_place_options options;
  dnnmem_place_result res;
  size_t bytes = 0;
  void *scratch;
  uint8_t *device, *pins;
  int32_t n;
  double t0, ms;
  dnnmem_result r;
  memset(&options, 0, sizeof(options));
  for (i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      place_usage(stdout);
      return 0;
    } else if (strcmp(argv[i], "--json") == 0) {
      json = 1;
    } else if (strcmp(argv[i], "--per-edge") == 0) {
      options.model = DNNMEM_PLACE_PER_EDGE;
    } else if (cli_flag_value("place", argc, argv, &i, "--out", &out_path)) {
    } else if (cli_flag_value("place", argc, argv, &i, "--algo", &algo_name)) {
    } else if (argv[i][0] == '-' && argv[i][1]) {
      cli_usage_error("place", "unknown option '%s'", argv[i]);
    } else if (file) {
      cli_usage_error("place", "one GRAPH only");
    } else {
      file = argv[i];
    }
  }
  if (strcmp(algo_name, "bk") == 0) options.algo = DNNMEM_FLOW_BK;
  else if (strcmp(algo_name, "pr") == 0) options.algo = DNNMEM_FLOW_PUSH_RELABEL;
  else cli_usage_error("place", "--algo: '%s' is not bk or pr", algo_name);
  if (!file) cli_usage_error("place", "missing GRAPH");
  cli_graph_read(file, &g);
  n = g.graph.num_nodes;
  /* graph inputs live on the CPU */
  pins = (uint8_t *)cli_alloc((size_t)n);
  for (i = 0; i < n; i++) {
    pins[i] = g.device[i] == CLI_DEVICE_CPU ? DNNMEM_PLACE_CPU
              : g.device[i] == CLI_DEVICE_ACC ? DNNMEM_PLACE_ACC
                                              : DNNMEM_PLACE_ANY;
    if (strcmp(g.ops[i], "input") == 0) {
      if (g.device[i] == CLI_DEVICE_ACC)
        cli_input_error(file, g.csv.rows[i].line, "graph input pinned to the accelerator");
      pins[i] = DNNMEM_PLACE_CPU;
    }
    if ((pins[i] == DNNMEM_PLACE_CPU && g.cpu_time[i] < 0) ||
        (pins[i] == DNNMEM_PLACE_ACC && g.acc_time[i] < 0) || (g.cpu_time[i] < 0 && g.acc_time[i] < 0))
      cli_input_error(file, g.csv.rows[i].line, "%s", dnnmem_result_string(DNNMEM_ERR_PLACE_UNSUPPORTED));
  }
  memset(&problem, 0, sizeof(problem));
  problem.graph = &g.graph;
  problem.cpu_time = g.cpu_time;
  problem.acc_time = g.acc_time;
  problem.xfer = g.xfer;
  problem.device = pins;
  problem.is_output = g.output;
  r = dnnmem_place_scratch_size(n, g.graph.in_offsets[n], &bytes);
  if (r != DNNMEM_OK) cli_input_error(file, 0, "%s", dnnmem_result_string(r));
  scratch = cli_alloc(bytes);
  device = (uint8_t *)cli_alloc((size_t)n);
  t0 = cli_now_ms();
  r = dnnmem_place_solve(&problem, &options, device, &res, scratch, bytes);
  ms = cli_now_ms() - t0;
  if (r != DNNMEM_OK) cli_input_error(file, 0, "%s", dnnmem_result_string(r));
  if (out_path) {
    char **values = (char **)cli_alloc((size_t)n * sizeof(char *));
    for (i = 0; i < n; i++) values[i] = (char *)(device[i] == DNNMEM_PLACE_CPU ? "cpu" : "acc");
    cli_write_column(&g.csv, out_path, "device", values);
    free(values);
  }
  if (json) {
    cli_json_begin();
    cli_json_int("n", n);
    cli_json_string("model", options.model == DNNMEM_PLACE_PER_EDGE ? "per-edge" : "per-value");
    cli_json_int("time", res.time);
    cli_json_int("all_acc_time", res.all_acc_time);
    cli_json_int("greedy_time", res.greedy_time);
    cli_json_int("all_cpu_time", res.all_cpu_time);
    cli_json_int("cut", res.cut);
    cli_json_string("unit", "ns");
    cli_json_int("conversions", res.conversions);
    cli_json_int("cpu_ops", res.num_cpu);
    cli_json_int("acc_ops", res.num_acc);
    cli_json_int("free_ops", res.num_free);
    cli_json_int("parts", res.num_parts);
    cli_json_int("flow_nodes", res.flow_nodes);
    cli_json_int("flow_arcs", res.flow_arcs);
    cli_json_double("time_ms", ms);
    cli_json_end();
  } else {
    printf("%d ops: %d on the CPU, %d on the accelerator (%d free in %d parts)\n", n, res.num_cpu,
           res.num_acc, res.num_free, res.num_parts);
    printf("optimum      %.3f us (%d conversions, %s)\n", (double)res.time / 1e3, res.conversions,
           options.model == DNNMEM_PLACE_PER_EDGE ? "per-edge" : "per-value");
    printf("all on acc   %.3f us (%+.2f%%)\n", (double)res.all_acc_time / 1e3,
           res.time ? 100.0 * ((double)res.all_acc_time / (double)res.time - 1.0) : 0.0);
    printf("greedy       %.3f us\nall on cpu   %.3f us\nsolved in %.3f ms\n",
           (double)res.greedy_time / 1e3, (double)res.all_cpu_time / 1e3, ms);
  }
  free(device);
  free(pins);
  free(scratch);
  return 0;
}

static const cli_command cli_commands[] = {
    {"flow", cmd_flow, "max flow / min cut of a DIMACS max-flow file"},
    {"cover", cmd_cover, "path-cover grouping: minimum chains of non-overlapping lifetimes"},
    {"plan", cmd_plan, "arena offsets for tensor lifetimes"},
    {"share", cmd_share, "shared objects for tensor lifetimes (TFLite)"},
    {"remat", cmd_remat, "recomputation schedule within a memory budget (annealing)"},
    {"layout", cmd_layout, "TensorLayout queries: parse, print, map indices to units and addresses"},
    {"place", cmd_place, "CPU/accelerator placement by minimum cut (exact)"},
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

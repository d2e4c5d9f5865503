/* examples/dnnmem_files.h: the one reader of the dnnmem tool's file formats,
   shared by the tool, the tests and the benchmarks.

     intervals CSV   minimalloc's columns: id,lower,upper,size and optional
                     alignment, offset (fixed), hint, gaps ("L-U" or
                     "L-U@WL:WU", space separated); aliases begin/start for
                     lower, end (inclusive) for upper, buffer/buffer_id for id
     graph CSV       id,name,op,size,time,cpu_time,acc_time,device,xfer,
                     output,inputs (found by name, any order); only id and
                     inputs are required, each use asks for the columns it
                     reads (files_graph_need); ids 0..n-1 in row order,
                     inputs earlier ids; times in microseconds (cpu_time/
                     acc_time may be "inf"), kept in integer ns
     DIMACS max-flow p max N M / n ID s / n ID t / a FROM TO CAP / c ...
     candidates      layoutplan's machine, cost, layout, output and op lines

   Sizes are bytes, with an optional unit in powers of 1024 (8k = 8K = 8KiB
   = 8192; M, G, T). The path "-" reads standard input (named "<stdin>" in
   messages).

   CSV files: '#' lines and blank lines skipped, the first other line is the
   header (a UTF-8 byte order mark and CRLF line ends are fine; UTF-16 text
   is refused); a CSV whose header has an 'inputs' column is a graph. A
   column the reader reads appears once (aliases count as one name: upper
   and end, lower/begin/start, id/buffer/buffer_id); other columns may
   repeat (carried to --out, never read). Every reader validates all it
   can and returns errors as data (files_error: file, line, message), never
   exits; every error names a line (1 for an empty file). Include after
   dnnmem.h (with its implementation in the same program) and
   <stb/stb_ds.h> (STB_DS_IMPLEMENTATION in one translation unit).

     files_error err;
     files_graph g;
     if (files_read_graph(path, &g, &err) != 0) { files_error_print(stderr, &err); exit(2); }
     ... g.graph, g.size, g.time, g.output ...
     files_graph_free(&g);

   Every reader frees what it allocated when it fails; the _free functions
   accept a zeroed or partly filled struct. */
#ifndef DNNMEM_FILES_H
#define DNNMEM_FILES_H
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define FILES_FN static __attribute__((unused))
#else
#define FILES_FN static
#endif

/* files_read_text's allocator and the room it keeps for a read (a test
   fails the Nth call on a small file). */
#ifndef FILES_REALLOC
#define FILES_REALLOC realloc
#endif
#ifndef FILES_READ_CHUNK
#define FILES_READ_CHUNK 65536
#endif

/* The library calls of this file, in one place each (for API changes). */
#define FILES_RESULT_TEXT(r) dnnmem_result_text(r)

/* ---- errors ------------------------------------------------------------- */

typedef struct files_error {
  const char *file; /* the name given to the reader (not copied) */
  long line;        /* 1-based line of the problem; 0: none applies */
  char message[256];
} files_error;

/* Fills *err and returns -1 (so a reader can 'return files_fail(...)'). */
FILES_FN int files_fail(files_error *err, const char *file, long line, const char *fmt, ...) {
  va_list ap;
  err->file = file;
  err->line = line;
  va_start(ap, fmt);
  vsnprintf(err->message, sizeof(err->message), fmt, ap);
  va_end(ap);
  return -1;
}

/* The name a message gives a file: "<stdin>" for "-". */
FILES_FN const char *files_display_name(const char *path) { return strcmp(path, "-") == 0 ? "<stdin>" : path; }

/* "FILE:LINE: message" (or "FILE: message" for line 0) and a newline. */
FILES_FN void files_error_print(FILE *f, const files_error *err) {
  const char *name = files_display_name(err->file);
  if (err->line > 0) fprintf(f, "%s:%ld: %s\n", name, err->line, err->message);
  else fprintf(f, "%s: %s\n", name, err->message);
}

/* ---- numbers ------------------------------------------------------------ */

/* A whole decimal int64_t: 0, or -1 with a reason in *why. */
FILES_FN int files_parse_i64(const char *s, int64_t *out, const char **why) {
  char *end;
  long long v;
  errno = 0;
  v = strtoll(s, &end, 10);
  if (*s == 0 || *end || end == s) return *why = "is not an integer", -1;
  if (errno == ERANGE) return *why = "is not an integer in the int64 range", -1;
  *out = (int64_t)v;
  return 0;
}

/* A size in bytes: a whole number, optionally with a unit in powers of
   1024 right after it: k, K, KB, KiB (2^10), M, MB, MiB (2^20), G, GB,
   GiB (2^30), T, TB, TiB (2^40) ("8k" = "8K" = "8KiB" = 8192). 0, or -1
   with a reason in *why. */
FILES_FN int files_parse_size(const char *s, int64_t *out, const char **why) {
  static const char units[] = "KMGT";
  char number[32];
  size_t digits = 0;
  const char *u, *unit = NULL;
  int64_t v;
  int k;
  while (s[digits] >= '0' && s[digits] <= '9') digits++;
  if (digits == 0 || s[digits] == 0) return files_parse_i64(s, out, why);
  u = s + digits;
  if (*u == 'k' || (*u && strchr(units, *u))) unit = strchr(units, *u == 'k' ? 'K' : *u);
  if (!unit || digits >= sizeof(number) ||
      !(u[1] == 0 || strcmp(u + 1, "B") == 0 || strcmp(u + 1, "iB") == 0))
    return *why = "is not an integer number of bytes (or one with a unit: 8k = 8K = 8KiB = 8192; M, G, T: powers of 1024)", -1;
  memcpy(number, s, digits);
  number[digits] = 0;
  if (files_parse_i64(number, &v, why) != 0) return -1;
  for (k = 0; k <= (int)(unit - units); k++)
    if (v > INT64_MAX / 1024) return *why = "is not a size in the int64 range", -1;
    else v *= 1024;
  *out = v;
  return 0;
}

/* a + b into *sum; 1 when it leaves the int64_t range (a, b >= 0). */
FILES_FN int files_add_overflows(int64_t a, int64_t b, int64_t *sum) {
  if (b > INT64_MAX - a) return 1;
  *sum = a + b;
  return 0;
}

/* ---- polynomial sizes ---------------------------------------------------- */

/* Coefficients per size: [j * DNNMEM_PLAN_SYMBOLIC_MAX_TERMS + i] is the
   coefficient of S^i T^j (S, T the first and the second symbol), so that
   one symbol's are the first DNNMEM_PLAN_SYMBOLIC_MAX_TERMS. */
#define FILES_POLY_STRIDE (DNNMEM_PLAN_SYMBOLIC_MAX_TERMS * DNNMEM_PLAN_SYMBOLIC_MAX_TERMS)

#define FILES_POLY_DEN_MAX ((int64_t)1 << 30) /* the largest denominator of a size */

static int64_t files_gcd(int64_t a, int64_t b) {
  while (b) {
    int64_t t = a % b;
    a = b, b = t;
  }
  return a;
}

/* A size that grows with one or two symbols: "4096*S^2+512*S+64",
   "96*H*W+8", "3*H*W/8" (terms: products of INT, SYM and SYM^K joined by
   '*', optionally over a positive INT after '/'; terms joined by '+',
   spaces allowed; like terms add up). coef[FILES_POLY_STRIDE] receives the
   coefficients times *den (the least common denominator of the terms),
   terms[2] the degree + 1 in each symbol; symbols[2] (32 bytes each) their
   names, which a file shares: a name not yet there takes the first empty
   one. 0, or -1 with *why and *at (the byte, 1-based). */
FILES_FN int files_poly_parse(const char *text, char (*symbols)[32], int64_t *coef, int32_t *terms,
                              int64_t *den, const char **why, size_t *at) {
  const char *p = text;
  int k;
  for (k = 0; k < FILES_POLY_STRIDE; k++) coef[k] = 0;
  terms[0] = terms[1] = 1;
  *den = 1;
#define FILES_POLY_FAIL(w) return *why = (w), *at = (size_t)(p - text) + 1, -1
  for (;;) {
    int64_t c = 1, e[2] = {0, 0}, v;
    int factors = 0;
    for (;;) { /* one factor: INT, SYM or SYM^K */
      while (*p == ' ') p++;
      if (*p == '-') FILES_POLY_FAIL("a negative coefficient");
      if (*p >= '0' && *p <= '9') {
        int64_t f = 0;
        for (; *p >= '0' && *p <= '9'; p++)
          if (f > (INT64_MAX - (*p - '0')) / 10) FILES_POLY_FAIL("a coefficient past the int64 range");
          else f = f * 10 + (*p - '0');
        if (f != 0 && c > INT64_MAX / f) FILES_POLY_FAIL("a coefficient past the int64 range");
        c *= f;
      } else if (isalpha((unsigned char)*p) || *p == '_') {
        char name[32];
        size_t len = 0;
        int64_t x = 1;
        const char *start = p;
        int s;
        while (isalnum((unsigned char)*p) || *p == '_') {
          if (len + 1 >= sizeof(name)) FILES_POLY_FAIL("a symbol name longer than 31 bytes");
          name[len++] = *p++;
        }
        name[len] = 0;
        for (s = 0; s < 2 && symbols[s][0] && strcmp(symbols[s], name) != 0; s++) {}
        if (s == 2) {
          p = start;
          FILES_POLY_FAIL("a third symbol (at most two per file)");
        }
        if (!symbols[s][0]) strcpy(symbols[s], name);
        while (*p == ' ') p++;
        if (*p == '^') {
          p++;
          while (*p == ' ') p++;
          if (!(*p >= '0' && *p <= '9')) FILES_POLY_FAIL("expected an exponent after '^'");
          for (x = 0; *p >= '0' && *p <= '9'; p++)
            if ((x = x * 10 + (*p - '0')) >= DNNMEM_PLAN_SYMBOLIC_MAX_TERMS) break;
        }
        e[s] += x;
        if (e[s] >= DNNMEM_PLAN_SYMBOLIC_MAX_TERMS)
          FILES_POLY_FAIL("a degree above the largest (DNNMEM_PLAN_SYMBOLIC_MAX_TERMS - 1)");
      } else {
        FILES_POLY_FAIL(*p ? (factors ? "expected a number or a symbol after '*'" : "expected a number or the symbol")
                           : "expected a term");
      }
      factors++;
      while (*p == ' ') p++;
      if (*p != '*') break;
      p++;
    }
    if (*p == '/') { /* over q: every term on the least common denominator */
      int64_t q = 0, l, up;
      p++;
      while (*p == ' ') p++;
      if (!(*p >= '0' && *p <= '9')) FILES_POLY_FAIL("expected a denominator after '/'");
      for (; *p >= '0' && *p <= '9'; p++)
        if ((q = q * 10 + (*p - '0')) > FILES_POLY_DEN_MAX) FILES_POLY_FAIL("a denominator above 2^30");
      if (q == 0) FILES_POLY_FAIL("a denominator of 0");
      while (*p == ' ') p++;
      l = *den / files_gcd(*den, q) * q;
      if (l > FILES_POLY_DEN_MAX) FILES_POLY_FAIL("denominators whose least common multiple is above 2^30");
      up = l / *den;
      for (k = 0; k < FILES_POLY_STRIDE && up > 1; k++)
        if (coef[k] > INT64_MAX / up) FILES_POLY_FAIL("coefficients past the int64 range");
        else coef[k] *= up;
      if (c > INT64_MAX / (l / q)) FILES_POLY_FAIL("coefficients past the int64 range");
      c *= l / q;
      *den = l;
    } else if (*den > 1) {
      if (c > INT64_MAX / *den) FILES_POLY_FAIL("coefficients past the int64 range");
      c *= *den;
    }
    k = (int)(e[1] * DNNMEM_PLAN_SYMBOLIC_MAX_TERMS + e[0]);
    if (files_add_overflows(coef[k], c, &v)) FILES_POLY_FAIL("coefficients past the int64 range");
    coef[k] = v;
    for (k = 0; k < 2; k++)
      if (e[k] + 1 > terms[k]) terms[k] = (int32_t)(e[k] + 1);
    if (*p == 0) break;
    if (*p != '+') FILES_POLY_FAIL(*p == '-' ? "a negative coefficient" : "expected '+'");
    p++;
  }
#undef FILES_POLY_FAIL
  return 0;
}

/* A size cell that is a polynomial (has a symbol) rather than a number. */
FILES_FN int files_size_is_symbolic(const char *s) {
  for (; *s; s++)
    if (isalpha((unsigned char)*s) || *s == '_' || *s == '^') return 1;
  return 0;
}

/* A size cell that reads as a polynomial in one or two symbols (a typo
   such as "4x" does not: it is a bad integer). */
FILES_FN int files_size_is_polynomial(const char *s) {
  char symbols[2][32] = {"", ""};
  int64_t coef[FILES_POLY_STRIDE], den;
  int32_t terms[2];
  const char *why;
  size_t at;
  return files_size_is_symbolic(s) && files_poly_parse(s, symbols, coef, terms, &den, &why, &at) == 0;
}

/* The polynomial (FILES_POLY_STRIDE coefficients, terms[2]) at s[2], or
   -1 when it leaves the int64 range (Horner's rule in each symbol). */
FILES_FN int files_poly_at(const int64_t *coef, const int32_t *terms, const int64_t *s, int64_t *out) {
  int64_t v = 0;
  int32_t i, j;
  for (j = terms[1] - 1; j >= 0; j--) {
    int64_t row = 0;
    for (i = terms[0] - 1; i >= 0; i--) {
      if (s[0] > 0 && row > INT64_MAX / s[0]) return -1;
      row *= s[0];
      if (files_add_overflows(row, coef[j * DNNMEM_PLAN_SYMBOLIC_MAX_TERMS + i], &row)) return -1;
    }
    if (s[1] > 0 && v > INT64_MAX / s[1]) return -1;
    v *= s[1];
    if (files_add_overflows(v, row, &v)) return -1;
  }
  *out = v;
  return 0;
}

/* ---- whole files -------------------------------------------------------- */

/* The bytes of a file, NUL-terminated (malloc; free it), or NULL and *err.
   The path "-" is standard input (read to its end). */
FILES_FN char *files_read_text(const char *path, size_t *out_len, files_error *err) {
  int is_stdin = strcmp(path, "-") == 0;
  FILE *f = is_stdin ? stdin : fopen(path, "rb");
  char *buf = NULL, *grown;
  size_t len = 0, cap = 0, got;
  int read_errno = 0, no_memory = 0;
  if (!f) return files_fail(err, path, 0, "cannot open: %s", strerror(errno)), (char *)NULL;
  for (;;) {
    if (cap - len < FILES_READ_CHUNK) {
      size_t want = cap ? cap * 2 : FILES_READ_CHUNK * 2;
      grown = want > cap ? (char *)FILES_REALLOC(buf, want + 1) : NULL;
      if (!grown) {
        no_memory = 1;
        break;
      }
      buf = grown, cap = want;
    }
    errno = 0;
    got = fread(buf + len, 1, cap - len, f);
    read_errno = errno;
    len += got;
    if (got == 0) break;
  }
  if (no_memory || ferror(f)) { /* the reason said: a directory reads "Is a directory" */
    if (!is_stdin) fclose(f);
    free(buf);
    if (no_memory) return files_fail(err, path, 0, "out of memory"), (char *)NULL;
    return files_fail(err, path, 0, "read error: %s", read_errno ? strerror(read_errno) : "unknown"), (char *)NULL;
  }
  if (!is_stdin) fclose(f);
  buf[len] = 0;
  *out_len = len;
  return buf;
}

/* files_read_csv, _graph, _dimacs and _candidates (path, out, err): the
   file's text (files_read_text) parsed by files_KIND_parse into *out,
   zeroed first; 0, or -1 and *err. */
#define FILES_READER(kind, type)                                                 \
  FILES_FN int files_read_##kind(const char *path, type *out, files_error *err) { \
    size_t len;                                                                  \
    char *text = files_read_text(path, &len, err);                               \
    memset(out, 0, sizeof(*out));                                                \
    return text ? files_##kind##_parse(path, text, len, out, err) : -1;          \
  }

/* Common checks of a text: not empty, no NUL byte (a binary file). */
FILES_FN int files_check_text(const char *name, const char *text, size_t len, files_error *err) {
  const char *nul = (const char *)memchr(text, 0, len), *p;
  long line = 1;
  if (len == 0) return files_fail(err, name, 1, "empty file");
  if (len >= 2 && (((unsigned char)text[0] == 0xFF && (unsigned char)text[1] == 0xFE) ||
                   ((unsigned char)text[0] == 0xFE && (unsigned char)text[1] == 0xFF)))
    return files_fail(err, name, 1, "UTF-16 text (a spreadsheet's \"Unicode text\"?): save it as UTF-8 or ASCII");
  if (!nul) return 0;
  for (p = text; p < nul; p++) line += *p == '\n';
  return files_fail(err, name, line, "binary file (NUL byte)");
}

/* Cuts the next line off *p (in place, without its '\n' and '\r'); NULL at
   the end. ++*line for each line returned. */
FILES_FN char *files_next_line(char **p, long *line) {
  char *s = *p, *nl, *e;
  if (*s == 0) return NULL;
  nl = strchr(s, '\n');
  *p = nl ? nl + 1 : s + strlen(s);
  if (nl) *nl = 0;
  e = nl ? nl : *p;
  while (e > s && e[-1] == '\r') *--e = 0;
  ++*line;
  return s;
}

FILES_FN char *files_trim(char *s) {
  char *e;
  while (*s == ' ' || *s == '\t') s++;
  e = s + strlen(s);
  while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')) *--e = 0;
  return s;
}

/* ---- CSV ---------------------------------------------------------------- */

typedef struct files_id_map { char *key; int32_t value; } files_id_map; /* stb_ds */

typedef struct files_row {
  long line;    /* 1-based line in the file */
  int32_t first; /* its fields: cells[first .. first + number of columns) */
} files_row;

typedef struct files_csv {
  const char *path;
  char *text;       /* the file's bytes; cells point into it */
  long header_line, last_line;
  char **columns;   /* stb_ds: header names */
  char **cells;     /* stb_ds: every row's trimmed fields */
  files_row *rows;  /* stb_ds */
} files_csv;

FILES_FN void files_csv_free(files_csv *csv) {
  free(csv->text);
  arrfree(csv->columns);
  arrfree(csv->cells);
  arrfree(csv->rows);
  memset(csv, 0, sizeof(*csv));
}

FILES_FN const char *files_cell(const files_csv *csv, int32_t row, int col) {
  return csv->cells[csv->rows[row].first + col];
}

FILES_FN int files_column(const files_csv *csv, const char *name) {
  int i;
  for (i = 0; i < (int)arrlen(csv->columns); i++)
    if (strcmp(csv->columns[i], name) == 0) return i;
  return -1;
}

/* The first of the names (NULL-terminated) the header has, else -1. */
FILES_FN int files_column_any(const files_csv *csv, const char *const *names) {
  int c = -1;
  for (; *names && c < 0; names++) c = files_column(csv, *names);
  return c;
}

FILES_FN int files_csv_is_graph(const files_csv *csv) { return files_column(csv, "inputs") >= 0; }

/* The group of name in spec ("a b|c": '|' between fields, ' ' between a
   field's aliases), or -1 when the reader does not read it. */
static int files_column_group(const char *spec, const char *name) {
  size_t len = strlen(name), n;
  int g = 0;
  for (;;) {
    n = strcspn(spec, " |");
    if (n == len && strncmp(spec, name, len) == 0) return g;
    spec += n;
    if (!*spec) return -1;
    g += *spec++ == '|';
  }
}

/* Each field the reader reads (spec, as above: at most 32) in one column:
   two columns for it leave which one is read to chance. Other columns may
   repeat (they are carried along, never read). */
FILES_FN int files_columns_once(const files_csv *csv, const char *spec, files_error *err) {
  int first[32], b, g;
  for (g = 0; g < 32; g++) first[g] = -1;
  for (b = 0; b < (int)arrlen(csv->columns); b++) {
    const char *a, *c = csv->columns[b];
    if ((g = files_column_group(spec, c)) < 0 || g >= 32) continue;
    if (first[g] < 0) {
      first[g] = b;
      continue;
    }
    a = csv->columns[first[g]];
    if (strcmp(a, c) == 0)
      return files_fail(err, csv->path, csv->header_line, "column '%s' appears twice (columns %d and %d)", c,
                        first[g] + 1, b + 1);
    return files_fail(err, csv->path, csv->header_line, "columns '%s' and '%s' name one field (columns %d and %d)",
                      a, c, first[g] + 1, b + 1);
  }
  return 0;
}

/* files_fail on the header line, the message followed by the header as read
   (a ';' or tab separated file, a comment on the header line, a data row
   taken for the header: the names show why a column is missing). */
FILES_FN int files_fail_header(files_error *err, const files_csv *csv, const char *fmt, ...) {
  va_list ap;
  size_t len, room;
  int i;
  err->file = csv->path;
  err->line = csv->header_line;
  va_start(ap, fmt);
  vsnprintf(err->message, sizeof(err->message), fmt, ap);
  va_end(ap);
  len = strlen(err->message);
  room = sizeof(err->message) - len;
  if (room > 40) {
    char shown[96];
    size_t n = 0;
    for (i = 0; i < (int)arrlen(csv->columns) && n < sizeof(shown) - 1; i++) {
      const char *c = csv->columns[i];
      if (i) shown[n++] = ',';
      while (*c && n < sizeof(shown) - 1) shown[n++] = *c++;
    }
    shown[n] = 0;
    snprintf(err->message + len, room, " (the header reads '%s%s')", shown, n >= sizeof(shown) - 1 ? "..." : "");
  }
  return -1;
}

/* Splits a line on ',' into trimmed fields appended to *out; the count. */
FILES_FN int files_split(char *t, char ***out) {
  int count = 0;
  for (;;) {
    char *comma = strchr(t, ',');
    if (comma) *comma = 0;
    arrput(*out, files_trim(t));
    count++;
    if (!comma) return count;
    t = comma + 1;
  }
}

/* Parses text (malloc'd, NUL-terminated, len bytes; owned by csv from now
   on, also on failure) as a CSV named name. */
FILES_FN int files_csv_parse(const char *name, char *text, size_t len, files_csv *csv,
                             files_error *err) {
  char *p = text, *s;
  long line = 0;
  memset(csv, 0, sizeof(*csv));
  csv->path = name;
  csv->text = text;
  if (files_check_text(name, text, len, err) != 0) return files_csv_free(csv), -1;
  if (len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) p += 3; /* UTF-8 byte order mark */
  while ((s = files_next_line(&p, &line)) != NULL) {
    s = files_trim(s);
    if (*s == 0 || *s == '#') continue;
    if (!csv->columns) {
      files_split(s, &csv->columns);
      csv->header_line = line;
    } else {
      files_row row;
      int got;
      row.line = line;
      row.first = (int32_t)arrlen(csv->cells);
      got = files_split(s, &csv->cells);
      if (got != (int)arrlen(csv->columns)) {
        files_fail(err, name, line, "%d fields, the header has %d", got, (int)arrlen(csv->columns));
        return files_csv_free(csv), -1;
      }
      if (arrlen(csv->rows) >= INT32_MAX - 1 || arrlen(csv->cells) >= INT32_MAX - 64) {
        files_fail(err, name, line, "too many rows");
        return files_csv_free(csv), -1;
      }
      arrput(csv->rows, row);
    }
  }
  csv->last_line = line;
  if (!csv->columns) {
    files_fail(err, name, line > 0 ? line : 1, "no header row (only comments and blank lines)");
    return files_csv_free(csv), -1;
  }
  return 0;
}

FILES_READER(csv, files_csv)

/* The columns named in need[] (count of them), or an error on the header. */
FILES_FN int files_need_columns(const files_csv *csv, const char *const *need, int count, int *col,
                                files_error *err) {
  int i;
  for (i = 0; i < count; i++)
    if ((col[i] = files_column(csv, need[i])) < 0)
      return files_fail_header(err, csv, "missing column '%s'", need[i]);
  return 0;
}

/* An integer cell; the error names the column. */
FILES_FN int files_cell_i64(const files_csv *csv, int32_t row, int col, int64_t *out,
                            files_error *err) {
  const char *why, *s = files_cell(csv, row, col);
  if (files_parse_i64(s, out, &why) == 0) return 0;
  return files_fail(err, csv->path, csv->rows[row].line, "%s: '%s' %s", csv->columns[col], s, why);
}

/* A size cell (files_parse_size: "8k" is 8192); the error names the column. */
FILES_FN int files_cell_size(const files_csv *csv, int32_t row, int col, int64_t *out,
                             files_error *err) {
  const char *why, *s = files_cell(csv, row, col);
  if (files_parse_size(s, out, &why) == 0) return 0;
  return files_fail(err, csv->path, csv->rows[row].line, "%s: '%s' %s", csv->columns[col], s, why);
}

/* A time in microseconds into integer nanoseconds; "inf" (when allowed)
   gives DNNMEM_PLACE_UNSUPPORTED (-1). */
FILES_FN int files_cell_time_ns(const files_csv *csv, int32_t row, int col, int allow_inf,
                                int64_t *out, files_error *err) {
  const char *s = files_cell(csv, row, col), *what = csv->columns[col];
  long line = csv->rows[row].line;
  char *end;
  double v;
  if (allow_inf && strcmp(s, "inf") == 0) return *out = -1, 0;
  errno = 0;
  v = strtod(s, &end);
  if (errno == ERANGE && fabs(v) < 1.0) errno = 0, v = 0.0; /* underflow: far below 1 ns */
  if (*s == 0 || *end || errno || !isfinite(v))
    return files_fail(err, csv->path, line, "%s: '%s' is not a finite number", what, s);
  if (v < 0) return files_fail(err, csv->path, line, "%s: negative time %s", what, s);
  if (v * 1e3 > 9.0e18) return files_fail(err, csv->path, line, "%s: time %s too large", what, s);
  *out = (int64_t)llround(v * 1e3);
  return 0;
}

/* ---- graph CSV ---------------------------------------------------------- */

enum {
  FILES_G_ID, FILES_G_NAME, FILES_G_OP, FILES_G_SIZE, FILES_G_TIME, FILES_G_CPU, FILES_G_ACC,
  FILES_G_DEVICE, FILES_G_XFER, FILES_G_OUTPUT, FILES_G_INPUTS, FILES_G_COLUMNS
};

typedef struct files_graph {
  files_csv csv;        /* the rows (line numbers, --out) */
  dnnmem_graph graph;   /* CSR of the inputs (points into in_offsets, in_ids) */
  int32_t n;
  int32_t *in_offsets;  /* n + 1 */
  int32_t *in_ids;      /* stb_ds */
  const char **names, **ops;
  int64_t *size;        /* bytes */
  int64_t *time;        /* ns on the training device */
  int64_t *cpu_time;    /* ns, DNNMEM_PLACE_UNSUPPORTED (-1) for inf */
  int64_t *acc_time;    /* ns, DNNMEM_PLACE_UNSUPPORTED (-1) for inf */
  int64_t *xfer;        /* ns */
  uint8_t *device;      /* DNNMEM_PLACE_ANY, _CPU or _ACC */
  uint8_t *output;      /* 1: a graph output */
  long symbolic_line;   /* the first row whose size is a polynomial (0: none);
                           its size reads 0 (only plan takes such sizes) */
  unsigned columns;     /* bit FILES_G_X: the file has that column */
} files_graph;

/* The graph CSV's columns by FILES_G_X. Only id and inputs are required by
   the reader; a missing column reads as its default (name: the id, op: "",
   numbers 0, device any, output 0), and each use asks for the columns it
   reads with files_graph_need. */
static const char *const files_graph_column_names[FILES_G_COLUMNS] = {
    "id", "name", "op", "size", "time", "cpu_time", "acc_time", "device", "xfer", "output", "inputs"};

/* Every column of the comma-separated list need that the file lacks is an
   error naming it and what reads it ("remat reads id,size,time,inputs"). */
FILES_FN int files_graph_need(const files_graph *g, const char *need, const char *who, files_error *err) {
  int c;
  for (c = 0; c < FILES_G_COLUMNS; c++) {
    const char *name = files_graph_column_names[c], *p = need;
    size_t len = strlen(name);
    int wanted = 0;
    for (; p && *p && !wanted; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
      wanted = strncmp(p, name, len) == 0 && (p[len] == ',' || p[len] == 0);
    if (wanted && !(g->columns & (1u << c)))
      return files_fail_header(err, &g->csv, "missing column '%s' (%s reads %s)", name, who, need);
  }
  return 0;
}

FILES_FN void files_graph_free(files_graph *g) {
  files_csv_free(&g->csv);
  arrfree(g->in_ids);
  free(g->size); /* the block of every per-node array */
  memset(g, 0, sizeof(*g));
}

FILES_FN int files_graph_device(const char *s, uint8_t *out) {
  if (strcmp(s, "cpu") == 0) *out = DNNMEM_PLACE_CPU;
  else if (strcmp(s, "acc") == 0) *out = DNNMEM_PLACE_ACC;
  else if (strcmp(s, "any") == 0) *out = DNNMEM_PLACE_ANY;
  else return -1;
  return 0;
}

/* The space-separated inputs of value v: earlier ids. */
FILES_FN int files_graph_inputs(files_graph *g, int32_t v, const char *list, files_error *err) {
  const char *p = list;
  long line = g->csv.rows[v].line;
  while (*p) {
    char *end;
    long long in;
    if (*p == ' ') { p++; continue; }
    errno = 0;
    in = strtoll(p, &end, 10);
    if (end == p || errno || (*end && *end != ' '))
      return files_fail(err, g->csv.path, line, "inputs: '%s' is not a list of ids", list);
    if (in < 0 || in >= v)
      return files_fail(err, g->csv.path, line, "input %lld of value %d is not an earlier id", in, (int)v);
    if (arrlen(g->in_ids) >= INT32_MAX - 1) return files_fail(err, g->csv.path, line, "too many edges");
    arrput(g->in_ids, (int32_t)in);
    p = end;
  }
  g->in_offsets[v + 1] = (int32_t)arrlen(g->in_ids);
  return 0;
}

/* Running sums every solver needs within int64_t: sizes (remat, plans),
   times, and the placement's finite times plus twice xfer. */
typedef struct files_graph_sums { int64_t size, time, place; } files_graph_sums;

FILES_FN int files_graph_sums_add(files_graph *g, int32_t v, files_graph_sums *s, files_error *err) {
  int64_t cpu = g->cpu_time[v] > 0 ? g->cpu_time[v] : 0, acc = g->acc_time[v] > 0 ? g->acc_time[v] : 0;
  const char *what = NULL;
  if (files_add_overflows(s->size, g->size[v], &s->size)) what = "sizes";
  else if (files_add_overflows(s->time, g->time[v], &s->time)) what = "times";
  else if (files_add_overflows(s->place, cpu, &s->place) || files_add_overflows(s->place, acc, &s->place) ||
           files_add_overflows(s->place, g->xfer[v], &s->place) ||
           files_add_overflows(s->place, g->xfer[v], &s->place))
    what = "cpu_time + acc_time + 2 xfer";
  if (!what) return 0;
  return files_fail(err, g->csv.path, g->csv.rows[v].line,
                    "the sum of %s up to this row leaves the int64 range", what);
}

/* One row of a graph CSV into value v. */
FILES_FN int files_graph_row(files_graph *g, const int *col, int32_t v, files_graph_sums *sums,
                             files_error *err) {
  const files_csv *csv = &g->csv;
  long line = csv->rows[v].line;
  int64_t id, out;
  if (files_cell_i64(csv, v, col[FILES_G_ID], &id, err)) return -1;
#define FILES_G_HAS(c) (col[c] >= 0)
  if (id != v && id >= 0 && id < v)
    return files_fail(err, csv->path, line, "duplicate id %lld (first on line %ld)", (long long)id,
                      csv->rows[id].line);
  if (id != v)
    return files_fail(err, csv->path, line, "id %lld: expected %d (ids are 0..n-1 in row order)",
                      (long long)id, (int)v);
  g->names[v] = files_cell(csv, v, col[FILES_G_HAS(FILES_G_NAME) ? FILES_G_NAME : FILES_G_ID]);
  g->ops[v] = FILES_G_HAS(FILES_G_OP) ? files_cell(csv, v, col[FILES_G_OP]) : "";
  if (FILES_G_HAS(FILES_G_SIZE) && files_size_is_polynomial(files_cell(csv, v, col[FILES_G_SIZE]))) {
    g->size[v] = 0; /* plan --symbol reads it again */
    if (!g->symbolic_line) g->symbolic_line = line;
  } else if (FILES_G_HAS(FILES_G_SIZE) && files_cell_size(csv, v, col[FILES_G_SIZE], &g->size[v], err)) {
    return -1;
  }
  if (g->size[v] < 0) return files_fail(err, csv->path, line, "size: negative (%lld)", (long long)g->size[v]);
  if ((FILES_G_HAS(FILES_G_TIME) && files_cell_time_ns(csv, v, col[FILES_G_TIME], 0, &g->time[v], err)) ||
      (FILES_G_HAS(FILES_G_CPU) && files_cell_time_ns(csv, v, col[FILES_G_CPU], 1, &g->cpu_time[v], err)) ||
      (FILES_G_HAS(FILES_G_ACC) && files_cell_time_ns(csv, v, col[FILES_G_ACC], 1, &g->acc_time[v], err)) ||
      (FILES_G_HAS(FILES_G_XFER) && files_cell_time_ns(csv, v, col[FILES_G_XFER], 0, &g->xfer[v], err)))
    return -1;
  g->device[v] = DNNMEM_PLACE_ANY;
  if (FILES_G_HAS(FILES_G_DEVICE) && files_graph_device(files_cell(csv, v, col[FILES_G_DEVICE]), &g->device[v]) != 0)
    return files_fail(err, csv->path, line, "device '%s': expected cpu, acc or any",
                      files_cell(csv, v, col[FILES_G_DEVICE]));
  out = 0;
  if (FILES_G_HAS(FILES_G_OUTPUT) && files_cell_i64(csv, v, col[FILES_G_OUTPUT], &out, err)) return -1;
  if (out != 0 && out != 1) return files_fail(err, csv->path, line, "output must be 0 or 1");
  g->output[v] = (uint8_t)out;
#undef FILES_G_HAS
  if (files_graph_sums_add(g, v, sums, err)) return -1;
  return files_graph_inputs(g, v, files_cell(csv, v, col[FILES_G_INPUTS]), err);
}

/* A graph from a CSV already read (takes the CSV over, also on failure). */
FILES_FN int files_graph_from_csv(files_csv *csv, files_graph *g, files_error *err) {
  static const char *const need[2] = {"id", "inputs"};
  int col[FILES_G_COLUMNS], c;
  files_graph_sums sums = {0, 0, 0};
  size_t n = (size_t)arrlen(csv->rows);
  int32_t v;
  memset(g, 0, sizeof(*g));
  g->csv = *csv;
  memset(csv, 0, sizeof(*csv));
  if (files_columns_once(&g->csv, "id|name|op|size|time|cpu_time|acc_time|device|xfer|output|inputs", err) ||
      files_need_columns(&g->csv, need, 2, col, err))
    return files_graph_free(g), -1;
  for (c = 0; c < FILES_G_COLUMNS; c++)
    if ((col[c] = files_column(&g->csv, files_graph_column_names[c])) >= 0) g->columns |= 1u << c;
  g->n = (int32_t)n;
  /* one block: 5 int64_t arrays, 2 pointer arrays, offsets, 2 byte arrays */
  g->size = (int64_t *)calloc(n + 1, 5 * sizeof(int64_t) + 2 * sizeof(char *) + sizeof(int32_t) + 2);
  if (!g->size) return files_fail(err, g->csv.path, 0, "out of memory"), files_graph_free(g), -1;
  g->time = g->size + (n + 1);
  g->cpu_time = g->time + (n + 1);
  g->acc_time = g->cpu_time + (n + 1);
  g->xfer = g->acc_time + (n + 1);
  g->names = (const char **)(void *)(g->xfer + (n + 1));
  g->ops = g->names + (n + 1);
  g->in_offsets = (int32_t *)(void *)(g->ops + (n + 1));
  g->device = (uint8_t *)(g->in_offsets + (n + 1));
  g->output = g->device + (n + 1);
  for (v = 0; v < g->n; v++)
    if (files_graph_row(g, col, v, &sums, err)) return files_graph_free(g), -1;
  g->graph.num_nodes = g->n;
  g->graph.in_offsets = g->in_offsets;
  g->graph.in_ids = g->in_ids;
  return 0;
}

FILES_FN int files_graph_parse(const char *name, char *text, size_t len, files_graph *g,
                               files_error *err) {
  files_csv csv;
  memset(g, 0, sizeof(*g));
  if (files_csv_parse(name, text, len, &csv, err)) return -1;
  if (!files_csv_is_graph(&csv)) {
    files_fail_header(err, &csv, "not a graph CSV (no 'inputs' column)");
    return files_csv_free(&csv), -1;
  }
  if (files_graph_from_csv(&csv, g, err)) return -1;
  if (!g->symbolic_line) return 0;
  files_fail(err, name, g->symbolic_line,
             "size: a polynomial (a dynamic dimension): this command needs numbers; convert the model with --dim "
             "NAME=VALUE");
  return files_graph_free(g), -1;
}

FILES_READER(graph, files_graph)

#ifndef DNNMEM_NO_REMAT
/* The graph as a recompute problem (pointing into g). */
FILES_FN void files_graph_remat_problem(const files_graph *g, dnnmem_remat_problem *problem) {
  problem->graph = &g->graph;
  problem->sizes = g->size;
  problem->times = g->time;
  problem->is_output = g->output;
}
#endif

/* ---- intervals (intervals CSV or graph CSV) ------------------------------ */

typedef struct files_intervals {
  files_csv csv;            /* the rows of an intervals CSV */
  files_graph graph;        /* the graph when is_graph (its csv holds the rows) */
  int is_graph;
  int32_t n;
  int64_t alignment;        /* the global alignment the records were checked with */
  dnnmem_interval *records; /* n */
  dnnmem_gap *gaps;         /* stb_ds: every record's gaps point into it */
  dnnmem_intervals problem; /* {records, n, alignment}: what the planners take */
  int64_t *coefficients;    /* n x FILES_POLY_STRIDE: each size as a polynomial
                               (a constant for an integer size) */
  int32_t terms[2];         /* the largest degree + 1 in each symbol */
  char symbols[2][32];      /* the symbols of polynomial sizes; "" if none */
  int64_t units[2];         /* the coefficients are in symbol / units[k]: sizes
                               with a denominator ("3*H*W/8") are integers
                               for multiples of the units (1: every value) */
  int64_t *dens;            /* while reading: each size's denominator (0: 1) */
  long symbolic_line;       /* the first row with a polynomial size; 0 if none */
  int32_t symbolic_row;     /* that row (-1 if none) */
  int symbolic_ok;          /* the reader accepts polynomial sizes */
  const char *const *declared; /* while reading: the run's symbols ("S" or "S=..."), */
  int32_t n_declared;          /* for the hint on "64S" */
  int has_pass;             /* the file has a 'pass' column */
  int32_t links;            /* records with a reuse or alias link */
} files_intervals;

FILES_FN void files_intervals_free(files_intervals *iv) {
  files_csv_free(&iv->csv);
  files_graph_free(&iv->graph);
  free(iv->records);
  free(iv->coefficients);
  free(iv->dens);
  arrfree(iv->gaps);
  memset(iv, 0, sizeof(*iv));
}

/* The rows the records came from (for line numbers and --out). */
FILES_FN const files_csv *files_intervals_rows(const files_intervals *iv) {
  return iv->is_graph ? &iv->graph.csv : &iv->csv;
}

FILES_FN long files_intervals_line(const files_intervals *iv, int32_t i) {
  return files_intervals_rows(iv)->rows[i].line;
}

/* One gap token "L-U" or "L-U@WL:WU" (end_addend 1 for inclusive ends). */
FILES_FN int files_gap_parse(const char *tok, int64_t end_addend, dnnmem_gap *gap) {
  long long a, b, wl = 0, wu = 0;
  int used = 0, used2 = 0;
  if (sscanf(tok, "%lld-%lld%n", &a, &b, &used) != 2) return -1;
  if (tok[used] == '@') {
    if (sscanf(tok + used + 1, "%lld:%lld%n", &wl, &wu, &used2) != 2 || tok[used + 1 + used2]) return -1;
  } else if (tok[used]) {
    return -1;
  }
  if (b == INT64_MAX && end_addend) return -1;
  gap->lower = a;
  gap->upper = b + end_addend;
  gap->window_lower = wl;
  gap->window_upper = wu;
  return 0;
}

FILES_FN int files_gaps_parse(files_intervals *iv, int32_t i, const char *text, int64_t end_addend,
                              files_error *err) {
  char tok[128];
  const char *p = text;
  while (*p) {
    size_t k = 0;
    dnnmem_gap gap;
    if (*p == ' ') { p++; continue; }
    while (p[k] && p[k] != ' ') k++;
    if (k >= sizeof(tok))
      return files_fail(err, iv->csv.path, files_intervals_line(iv, i), "gaps: a gap is too long");
    memcpy(tok, p, k);
    tok[k] = 0;
    p += k;
    if (files_gap_parse(tok, end_addend, &gap) != 0)
      return files_fail(err, iv->csv.path, files_intervals_line(iv, i),
                        "gap '%s': expected L-U or L-U@WL:WU (integers)", tok);
    arrput(iv->gaps, gap);
    iv->records[i].num_gaps++;
  }
  return 0;
}

/* The columns of an intervals CSV, by name. */
typedef struct files_interval_columns {
  int id, lower, upper, size, alignment, offset, hint, gaps, pass, reuse, alias;
  int64_t end_addend; /* 1 when upper is minimalloc's inclusive 'end' */
} files_interval_columns;

FILES_FN int files_interval_columns_find(const files_csv *csv, files_interval_columns *c,
                                         files_error *err) {
  static const char *const ids[] = {"id", "buffer", "buffer_id", NULL};
  static const char *const lowers[] = {"lower", "begin", "start", NULL};
  static const char *const uppers[] = {"upper", NULL}, *const ends[] = {"end", NULL};
  if (files_columns_once(csv, "id buffer buffer_id|lower begin start|upper end|size|alignment|offset|hint|gaps|pass|"
                              "reuse|alias|pools", err))
    return -1;
  c->id = files_column_any(csv, ids);
  c->lower = files_column_any(csv, lowers);
  c->upper = files_column_any(csv, uppers);
  c->end_addend = 0;
  if (c->upper < 0 && (c->upper = files_column_any(csv, ends)) >= 0) c->end_addend = 1;
  c->size = files_column(csv, "size");
  c->alignment = files_column(csv, "alignment");
  c->offset = files_column(csv, "offset");
  c->hint = files_column(csv, "hint");
  c->gaps = files_column(csv, "gaps");
  c->pass = files_column(csv, "pass");
  c->reuse = files_column(csv, "reuse");
  c->alias = files_column(csv, "alias");
  if (c->id < 0) return files_fail_header(err, csv, "missing column 'id'");
  if (c->lower < 0) return files_fail_header(err, csv, "missing column 'lower'");
  if (c->upper < 0) return files_fail_header(err, csv, "missing column 'upper'");
  if (c->size < 0) return files_fail_header(err, csv, "missing column 'size'");
  return 0;
}

/* An optional integer cell: 0 and *present = 0 when empty. */
FILES_FN int files_cell_opt_i64(const files_csv *csv, int32_t row, int col, int64_t *out,
                                int *present, files_error *err) {
  *present = col >= 0 && *files_cell(csv, row, col);
  *out = 0;
  return *present ? files_cell_i64(csv, row, col, out, err) : 0;
}

/* Record i's own checks, with messages for the usual mistakes first. */
FILES_FN int files_interval_check(const files_intervals *iv, int32_t i, files_error *err) {
  const dnnmem_interval *r = &iv->records[i];
  const char *path = files_intervals_rows(iv)->path;
  long line = files_intervals_line(iv, i);
  dnnmem_intervals one;
  dnnmem_result res;
  dnnmem_error e;
  if (r->size < 0) return files_fail(err, path, line, "size: negative (%lld)", (long long)r->size);
  if (r->upper <= r->lower)
    return files_fail(err, path, line, "upper <= lower (%lld <= %lld): an empty lifetime",
                      (long long)r->upper, (long long)r->lower);
  if (r->alignment < 0 || (r->alignment & (r->alignment - 1)))
    return files_fail(err, path, line, "alignment %lld is not a power of two", (long long)r->alignment);
  one.records = r;
  one.count = 1;
  one.alignment = iv->alignment;
  res = dnnmem_intervals_check(&one, &e); /* the library's remaining rules, named by field */
  if (res != DNNMEM_OK)
    return files_fail(err, path, line, "%s: %s", dnnmem_field_name(e.field), FILES_RESULT_TEXT(res));
  return 0;
}

/* Whether name (a whole cell's tail, "S" of "64S") is a symbol of the run:
   declared, or in another row's polynomial size (so "5x" gets no hint). */
static int files_size_names_symbol(const files_intervals *iv, int col, const char *name) {
  const files_csv *csv = files_intervals_rows(iv);
  size_t len = strlen(name);
  int32_t j, k;
  if (len == 0 || len >= 32) return 0;
  for (k = 0; k < iv->n_declared; k++)
    if (strncmp(iv->declared[k], name, len) == 0 && (iv->declared[k][len] == 0 || iv->declared[k][len] == '='))
      return 1;
  for (j = 0; j < iv->n; j++) {
    char symbols[2][32] = {"", ""};
    int64_t coef[FILES_POLY_STRIDE], den;
    int32_t terms[2];
    const char *why, *cell = files_cell(csv, j, col);
    size_t at;
    if (files_size_is_symbolic(cell) && files_poly_parse(cell, symbols, coef, terms, &den, &why, &at) == 0 &&
        (strcmp(symbols[0], name) == 0 || strcmp(symbols[1], name) == 0))
      return 1;
  }
  return 0;
}

/* Record i's size (column col of the file's rows): an integer, or a
   polynomial in the file's symbols (the record's size is then its constant
   term until files_intervals_at). */
FILES_FN int files_interval_size(files_intervals *iv, int col, int32_t i, files_error *err) {
  const files_csv *csv = files_intervals_rows(iv);
  const char *s = files_cell(csv, i, col), *why;
  int64_t *coef = iv->coefficients + (size_t)i * FILES_POLY_STRIDE, den;
  int32_t terms[2], k;
  size_t at;
  for (k = 0; k < FILES_POLY_STRIDE; k++) coef[k] = 0;
  if (files_parse_size(s, &coef[0], &why) == 0) return iv->records[i].size = coef[0], 0; /* "8k": bytes */
  if (strstr(why, "int64")) return files_cell_size(csv, i, col, &coef[0], err);   /* "9000000000000T" */
  if (!files_size_is_symbolic(s) || !iv->symbolic_ok) {
    if (files_size_is_polynomial(s) && iv->is_graph)
      return files_fail(err, csv->path, csv->rows[i].line,
                        "size: '%s' is a polynomial (a dynamic dimension): this command needs numbers; convert the "
                        "model with --dim NAME=VALUE (or plan it with --symbol)", s);
    return files_cell_size(csv, i, col, &coef[0], err);
  }
  if (files_poly_parse(s, iv->symbols, coef, terms, &den, &why, &at) != 0) {
    if (isdigit((unsigned char)*s) && !strpbrk(s, "*^+/-(")) { /* "5x", "1.5k": a bad number; "64S" may mean 64*S */
      const char *p = s;
      size_t used;
      files_cell_size(csv, i, col, &coef[0], err);
      while (isdigit((unsigned char)*p)) p++;
      used = strlen(err->message);
      if (files_size_names_symbol(iv, col, p) && used + 64 < sizeof(err->message))
        snprintf(err->message + used, sizeof(err->message) - used, "; a polynomial writes '%.*s*%s'", (int)(p - s), s,
                 p);
      return -1;
    }
    return files_fail(err, csv->path, csv->rows[i].line, "size: '%s': %s at byte %zu", s, why, at);
  }
  if (den > 1) {
    if (!iv->dens && !(iv->dens = (int64_t *)calloc((size_t)iv->n + 1, sizeof(int64_t))))
      return files_fail(err, csv->path, 0, "out of memory");
    iv->dens[i] = den;
  }
  for (k = 0; k < 2; k++)
    if (terms[k] > iv->terms[k]) iv->terms[k] = terms[k];
  if (!iv->symbolic_line) iv->symbolic_line = csv->rows[i].line, iv->symbolic_row = i;
  iv->records[i].size = coef[0];
  return 0;
}

/* c x^e mod m without overflow (m <= 2^30). */
static int64_t files_mulpow_mod(int64_t c, int64_t x, int32_t e, int64_t m) {
  uint64_t v = (uint64_t)(c % m), y = (uint64_t)(x % m);
  while (e-- > 0) v = v * y % (uint64_t)m;
  return (int64_t)v;
}

/* Every size times its denominator, at (u S0', u S1'), has integer
   coefficients in S0', S1' once divided by it. */
static int files_units_ok(const files_intervals *iv, int64_t u) {
  const int32_t M = DNNMEM_PLAN_SYMBOLIC_MAX_TERMS;
  int32_t i, a, b;
  for (i = 0; i < iv->n; i++) {
    const int64_t *c = iv->coefficients + (size_t)i * FILES_POLY_STRIDE;
    int64_t d = iv->dens[i] > 1 ? iv->dens[i] : 1;
    for (b = 0; d > 1 && b < iv->terms[1]; b++)
      for (a = 0; a < iv->terms[0]; a++)
        if (files_mulpow_mod(c[b * M + a], u, a + b, d) != 0) return 0;
  }
  return 1;
}

/* Sizes with denominators ("3*H*W/8"): the least unit u, a divisor of the
   denominators' least common multiple l, that makes every coefficient of
   size(u S0', u S1') an integer (u = l does unless a constant term has a
   denominator); the coefficients are rewritten in S0' = S0 / u and
   S1' = S1 / u. Without denominators the unit is 1. */
FILES_FN int files_intervals_units(files_intervals *iv, files_error *err) {
  const int32_t M = DNNMEM_PLAN_SYMBOLIC_MAX_TERMS;
  const char *path = files_intervals_rows(iv)->path;
  int64_t l = 1, u = 0, v, divs[2048];
  int32_t i, a, b, nd = 0, k;
  iv->units[0] = iv->units[1] = 1;
  if (!iv->dens) return 0;
  for (i = 0; i < iv->n; i++) {
    if (iv->dens[i] > 1 && (l = l / files_gcd(l, iv->dens[i]) * iv->dens[i]) > FILES_POLY_DEN_MAX)
      return files_fail(err, path, files_intervals_line(iv, i), "size: denominators whose least common multiple is "
                        "above 2^30");
    if (iv->dens[i] > 1 && iv->coefficients[(size_t)i * FILES_POLY_STRIDE] % iv->dens[i] != 0)
      return files_fail(err, path, files_intervals_line(iv, i), "size: the constant term is not an integer");
  }
  for (v = 1; v <= l / v; v++) /* the divisors of l (at most 1344 below 2^30), ascending */
    if (l % v == 0) {
      for (k = nd++; k > 0 && divs[k - 1] > v; k--) divs[k] = divs[k - 1];
      divs[k] = v;
      if (v != l / v) divs[nd++] = l / v; /* sorted below */
    }
  for (i = 1; i < nd; i++) /* insertion sort: the cofactors came in descending */
    for (k = i; k > 0 && divs[k - 1] > divs[k]; k--) v = divs[k], divs[k] = divs[k - 1], divs[k - 1] = v;
  for (k = 0; k < nd && !u; k++)
    if (files_units_ok(iv, divs[k])) u = divs[k];
  for (i = 0; i < iv->n; i++) { /* c u^(a+b) / d, exact (every size: the symbols change units) */
    int64_t *c = iv->coefficients + (size_t)i * FILES_POLY_STRIDE, d = iv->dens[i] > 1 ? iv->dens[i] : 1;
    for (b = 0; b < iv->terms[1]; b++)
      for (a = 0; a < iv->terms[0]; a++) {
        int64_t t = 1, g, x = c[b * M + a];
        int32_t e;
        if (x == 0) continue;
        for (e = 0; e < a + b && t <= INT64_MAX / u; e++) t *= u;
        g = files_gcd(x, d);
        if (e < a + b || t / (d / g) > INT64_MAX / (x / g))
          return files_fail(err, path, files_intervals_line(iv, i), "size: coefficients past the int64 range in "
                            "units of %lld", (long long)u);
        c[b * M + a] = x / g * (t / (d / g));
      }
    iv->records[i].size = c[0];
  }
  iv->units[0] = iv->units[1] = u;
  free(iv->dens);
  iv->dens = NULL;
  return 0;
}

FILES_FN int files_interval_row(files_intervals *iv, const files_interval_columns *c, int32_t i,
                                files_id_map **ids, files_error *err) {
  const files_csv *csv = &iv->csv;
  dnnmem_interval *rec = &iv->records[i];
  const char *id = files_cell(csv, i, c->id);
  long line = csv->rows[i].line;
  int fixed, hint, aligned, hint_pass;
  memset(rec, 0, sizeof(*rec));
  if (!*id) return files_fail(err, csv->path, line, "missing id");
  if (shgeti(*ids, id) >= 0)
    return files_fail(err, csv->path, line, "duplicate id '%s' (first on line %ld)", id,
                      csv->rows[shget(*ids, id)].line);
  shput(*ids, id, i);
  int64_t pass = 1;
  if (files_cell_i64(csv, i, c->lower, &rec->lower, err) || files_cell_i64(csv, i, c->upper, &rec->upper, err) ||
      files_interval_size(iv, c->size, i, err) ||
      files_cell_opt_i64(csv, i, c->alignment, &rec->alignment, &aligned, err) ||
      files_cell_opt_i64(csv, i, c->offset, &rec->fixed_offset, &fixed, err) ||
      files_cell_opt_i64(csv, i, c->hint, &rec->hint, &hint, err) ||
      files_cell_opt_i64(csv, i, c->pass, &pass, &hint_pass, err))
    return -1;
  if (hint_pass && (pass < 1 || pass > INT32_MAX))
    return files_fail(err, csv->path, line, "pass: %lld is not a pass number (1, 2, ...)", (long long)pass);
  rec->pass = (int32_t)pass;
  if (c->end_addend && rec->upper == INT64_MAX) return files_fail(err, csv->path, line, "end too large");
  rec->upper += c->end_addend;
  rec->flags = (fixed ? DNNMEM_INTERVAL_FIXED : 0) | (hint ? DNNMEM_INTERVAL_HINT : 0);
  if (c->gaps >= 0 && files_gaps_parse(iv, i, files_cell(csv, i, c->gaps), c->end_addend, err)) return -1;
  if (iv->symbolic_line == line && (fixed || rec->num_gaps))
    return files_fail(err, csv->path, line, "a polynomial size cannot have a fixed offset or gaps");
  rec->gaps = rec->num_gaps ? iv->gaps + arrlen(iv->gaps) - rec->num_gaps : NULL;
  return files_interval_check(iv, i, err);
}

/* Record i's 'reuse' and 'alias' cells (ids of other rows; empty: none)
   and the record rules, each with its own message. */
FILES_FN int files_interval_links(files_intervals *iv, const files_interval_columns *c, int32_t i,
                                  files_id_map *ids, files_error *err) {
  const files_csv *csv = &iv->csv;
  dnnmem_interval *rec = &iv->records[i];
  long line = csv->rows[i].line;
  int k;
  for (k = 0; k < 2; k++) {
    int col = k ? c->alias : c->reuse;
    const char *name = k ? "alias" : "reuse", *cell = col >= 0 ? files_cell(csv, i, col) : "";
    ptrdiff_t at;
    const dnnmem_interval *old;
    if (!*cell) continue;
    if ((at = shgeti(ids, cell)) < 0) return files_fail(err, csv->path, line, "%s: unknown id '%s'", name, cell);
    if (iv->has_pass || iv->symbolic_line)
      return files_fail(err, csv->path, line, "%s: links cannot be combined with %s", name,
                        iv->has_pass ? "passes" : "polynomial sizes");
    if (ids[at].value == i) return files_fail(err, csv->path, line, "%s: a record cannot name itself", name);
    old = &iv->records[ids[at].value];
    if (rec->num_gaps || old->num_gaps)
      return files_fail(err, csv->path, line, "%s: a linked record cannot have gaps (%s has)", name,
                        rec->num_gaps ? "this record" : cell);
    if (k) {
      rec->flags |= DNNMEM_INTERVAL_ALIAS, rec->alias = ids[at].value;
    } else {
      if (old->upper != rec->lower + 1)
        return files_fail(err, csv->path, line,
                          "reuse: '%s' (line %ld) is live until step %lld; to be overwritten in place it must "
                          "die at this record's first step %lld", cell, csv->rows[ids[at].value].line,
                          (long long)old->upper - 1, (long long)rec->lower);
      if (old->lower >= rec->lower)
        return files_fail(err, csv->path, line, "reuse: '%s' (line %ld) begins no earlier than this record", cell,
                          csv->rows[ids[at].value].line);
      if (old->size < rec->size)
        return files_fail(err, csv->path, line, "reuse: this record (%lld bytes) does not fit in '%s' (%lld bytes)",
                          (long long)rec->size, cell, (long long)old->size);
      rec->flags |= DNNMEM_INTERVAL_REUSE, rec->reuse = ids[at].value;
    }
  }
  iv->links += (rec->flags & (DNNMEM_INTERVAL_REUSE | DNNMEM_INTERVAL_ALIAS)) != 0;
  return 0;
}

/* The rules between linked records (alias cycles, one class fixed at two
   offsets, a reuse whose buffer an alias keeps alive): the library's
   verdict (dnnmem_plan_lower_bound) and the record it names. */
FILES_FN int files_intervals_links_check(files_intervals *iv, files_error *err) {
  const char *path = files_intervals_rows(iv)->path;
  dnnmem_intervals problem = {iv->records, iv->n, iv->alignment};
  dnnmem_plan_result res;
  size_t bytes = 0;
  void *scratch;
  dnnmem_result r;
  int32_t k;
  if (iv->links == 0) return 0;
  if (dnnmem_plan_lower_bound_scratch_size(&problem, &bytes) != DNNMEM_OK || !(scratch = malloc(bytes ? bytes : 1)))
    return files_fail(err, path, 0, "out of memory");
  r = dnnmem_plan_lower_bound(&problem, &res, scratch, bytes);
  free(scratch);
  if (r == DNNMEM_OK) return 0;
  k = res.error.index >= 0 && res.error.index < iv->n ? res.error.index : 0;
  if (r == DNNMEM_ERR_CYCLE) return files_fail(err, path, files_intervals_line(iv, k), "alias: the aliases form a cycle");
  if (r == DNNMEM_ERR_PLAN_ALIAS_OFFSET)
    return files_fail(err, path, files_intervals_line(iv, k), "offset: aliased records fixed at different offsets");
  if (r == DNNMEM_ERR_PLAN_REUSE)
    return files_fail(err, path, files_intervals_line(iv, k),
                      "reuse: the buffer is still in use after step %lld (an alias of it lives on), or an alias "
                      "of this record begins before it", (long long)iv->records[k].lower);
  return files_fail(err, path, 0, "%s", FILES_RESULT_TEXT(r));
}

/* The element-wise ops (plan --inplace elementwise): each output element
   computed from the same element of the inputs, so the output may
   overwrite an input of its size where that input dies (each element is
   read before it is written; ONNX Runtime's fused gelus and bias add
   too). A trailing '_' (PyTorch's in-place add_) names the same op. */
static const char *const files_elementwise_ops[] = {
    "relu", "relu6", "leaky_relu", "leakyrelu", "elu", "selu", "gelu", "silu", "swish", "mish", "sigmoid",
    "hardsigmoid", "hardswish", "hardtanh", "tanh", "softplus", "clip", "clamp", "threshold", "add", "sub",
    "mul", "div", "neg", "abs", "exp", "log", "sqrt", "rsqrt", "reciprocal", "pow", "erf", "dropout",
    "batchnorm", "where", "fastgelu", "biasgelu", "quickgelu", "biasadd", NULL};

/* Declares reuse on a graph for the ops listed (NULL-terminated): value v
   may overwrite its first input u (in input order) that dies at v (its
   last use, not an output), began before v and has v's size. Returns the
   links declared. */
FILES_FN int32_t files_intervals_inplace(files_intervals *iv, const char *const *ops) {
  const files_graph *g = &iv->graph;
  int32_t v, links = 0, k, e;
  if (!iv->is_graph) return 0;
  for (v = 0; v < iv->n; v++) {
    dnnmem_interval *r = &iv->records[v];
    int32_t u;
    int listed = 0;
    size_t len = strlen(g->ops[v]);
    if (len > 1 && g->ops[v][len - 1] == '_') len--;
    for (k = 0; ops[k] && !listed; k++) listed = strlen(ops[k]) == len && strncmp(g->ops[v], ops[k], len) == 0;
    for (e = g->in_offsets[v]; listed && e < g->in_offsets[v + 1]; e++) {
      u = g->in_ids[e];
      if (iv->records[u].upper != r->lower + 1 || iv->records[u].lower >= r->lower ||
          iv->records[u].size != r->size || g->output[u])
        continue;
      r->flags |= DNNMEM_INTERVAL_REUSE;
      r->reuse = u;
      links++;
      break;
    }
  }
  iv->links += links;
  return links;
}

/* The first linked row, or -1 (for the subcommands that take no links). */
FILES_FN int32_t files_intervals_first_link(const files_intervals *iv) {
  int32_t i;
  for (i = 0; i < iv->n; i++)
    if (iv->records[i].flags & (DNNMEM_INTERVAL_REUSE | DNNMEM_INTERVAL_ALIAS)) return i;
  return -1;
}

/* The bytes every plan may need, summed in the file's order as
   dnnmem_intervals_check does: the first row past int64_t is named. */
FILES_FN int files_intervals_total(const files_intervals *iv, files_error *err) {
  int64_t total = 0;
  int32_t i;
  for (i = 0; i < iv->n; i++) {
    const dnnmem_interval *r = &iv->records[i];
    int64_t a = dnnmem_interval_alignment(r, iv->alignment), aligned = 0;
    int over = r->size > INT64_MAX - (a - 1);
    if (!over) aligned = (r->size + (a - 1)) / a * a;
    over = over || files_add_overflows(total, aligned, &total) || files_add_overflows(total, a - 1, &total) ||
           ((r->flags & DNNMEM_INTERVAL_FIXED) && files_add_overflows(total, r->fixed_offset, &total));
    if (over)
      return files_fail(err, files_intervals_rows(iv)->path, files_intervals_line(iv, i),
                        "the sizes (aligned) up to this row sum past the int64 range");
  }
  return 0;
}

/* Every record's size at the symbols' values v[2] (polynomials past the
   int64 range and sums past it named by their row). */
FILES_FN int files_intervals_at(files_intervals *iv, const int64_t *v, files_error *err) {
  int32_t i;
  for (i = 0; i < iv->n; i++)
    if (files_poly_at(iv->coefficients + (size_t)i * FILES_POLY_STRIDE, iv->terms, v, &iv->records[i].size) != 0)
      return files_fail(err, files_intervals_rows(iv)->path, files_intervals_line(iv, i),
                        "size: past the int64 range at %s = %lld%s%s%s", iv->symbols[0], (long long)v[0],
                        iv->symbols[1][0] ? ", " : "", iv->symbols[1], iv->symbols[1][0] ? " = ..." : "");
  return files_intervals_total(iv, err);
}

/* One row of an intervals CSV into record i; ids maps id text to the row. */
/* Fixed records that share a byte while both live (gaps honoured, as the
   planner sees them): both lines named. */
FILES_FN int files_intervals_fixed(const files_intervals *iv, files_error *err) {
  dnnmem_interval *fixed = (dnnmem_interval *)malloc(((size_t)iv->n + 1) * sizeof(dnnmem_interval));
  int64_t *offsets = (int64_t *)malloc(((size_t)iv->n + 1) * sizeof(int64_t));
  int32_t *row = (int32_t *)malloc(((size_t)iv->n + 1) * sizeof(int32_t));
  int32_t i, nf = 0, pair[2] = {-1, -1};
  size_t bytes = 0;
  void *scratch = NULL;
  dnnmem_intervals problem;
  dnnmem_plan_result res;
  dnnmem_result r = DNNMEM_OK;
  for (i = 0; fixed && offsets && row && i < iv->n; i++)
    if ((iv->records[i].flags & DNNMEM_INTERVAL_FIXED) &&
        !(iv->records[i].flags & (DNNMEM_INTERVAL_REUSE | DNNMEM_INTERVAL_ALIAS))) { /* linked: the planner's */
      fixed[nf] = iv->records[i];
      offsets[nf] = iv->records[i].fixed_offset;
      row[nf++] = i;
    }
  if (nf > 1) { /* library: the plan checker on the fixed records at their offsets */
    problem.records = fixed;
    problem.count = nf;
    problem.alignment = iv->alignment;
    r = dnnmem_plan_check_scratch_size(&problem, &bytes);
    if (r == DNNMEM_OK) scratch = malloc(bytes ? bytes : 1);
    if (r == DNNMEM_OK && scratch) r = dnnmem_plan_check(&problem, offsets, &res, scratch, bytes);
    if (r != DNNMEM_OK && scratch) pair[0] = res.error.index, pair[1] = res.error.other;
  }
  free(scratch);
  free(fixed);
  free(offsets);
  if (r == DNNMEM_OK) return free(row), 0;
  if (r != DNNMEM_ERR_PLAN_OVERLAP || pair[0] < 0 || pair[1] < 0) /* not expected after the row checks */
    files_fail(err, files_intervals_rows(iv)->path, pair[0] >= 0 ? files_intervals_line(iv, row[pair[0]]) : 0,
               "fixed offset: %s", FILES_RESULT_TEXT(r));
  else
    files_fail(err, files_intervals_rows(iv)->path, files_intervals_line(iv, row[pair[1]]),
               "fixed offset collides with line %ld", files_intervals_line(iv, row[pair[0]]));
  return free(row), -1;
}

FILES_FN int files_intervals_from_csv(files_intervals *iv, files_error *err) {
  files_interval_columns c;
  files_id_map *ids = NULL;
  int32_t i, at = 0;
  if (files_interval_columns_find(&iv->csv, &c, err)) return -1;
  iv->n = (int32_t)arrlen(iv->csv.rows);
  iv->records = (dnnmem_interval *)calloc((size_t)iv->n + 1, sizeof(dnnmem_interval));
  iv->coefficients = (int64_t *)calloc(((size_t)iv->n + 1) * FILES_POLY_STRIDE, sizeof(int64_t));
  iv->terms[0] = iv->terms[1] = 1;
  iv->has_pass = c.pass >= 0;
  if (!iv->records || !iv->coefficients) return files_fail(err, iv->csv.path, 0, "out of memory");
  sh_new_arena(ids);
  for (i = 0; i < iv->n; i++)
    if (files_interval_row(iv, &c, i, &ids, err)) return shfree(ids), -1;
  if (files_intervals_units(iv, err)) return shfree(ids), -1;
  for (i = 0; i < iv->n; i++)
    if (files_interval_links(iv, &c, i, ids, err)) return shfree(ids), -1;
  shfree(ids);
  for (i = 0; i < iv->n; i++) { /* the gaps array has stopped moving */
    iv->records[i].gaps = iv->records[i].num_gaps ? iv->gaps + at : NULL;
    at += iv->records[i].num_gaps;
  }
  return 0;
}

FILES_FN int files_intervals_from_graph(files_intervals *iv, files_error *err) {
  dnnmem_result r;
  dnnmem_error e;
  int32_t i;
  int col;
  iv->is_graph = 1;
  if (files_graph_from_csv(&iv->csv, &iv->graph, err) ||
      files_graph_need(&iv->graph, "id,size,inputs", "a plan of a graph", err))
    return -1;
  iv->n = iv->graph.n;
  iv->records = (dnnmem_interval *)calloc((size_t)iv->n + 1, sizeof(dnnmem_interval));
  if (!iv->records) return files_fail(err, iv->graph.csv.path, 0, "out of memory");
  r = dnnmem_graph_intervals(&iv->graph.graph, iv->graph.size, iv->graph.output, iv->records, &e);
  if (r != DNNMEM_OK)
    return files_fail(err, iv->graph.csv.path, e.index >= 0 ? files_intervals_line(iv, e.index) : 0, "%s: %s",
                      dnnmem_field_name(e.field), FILES_RESULT_TEXT(r));
  iv->coefficients = (int64_t *)calloc(((size_t)iv->n + 1) * FILES_POLY_STRIDE, sizeof(int64_t));
  if (!iv->coefficients) return files_fail(err, iv->graph.csv.path, 0, "out of memory");
  iv->terms[0] = iv->terms[1] = 1;
  col = files_column(&iv->graph.csv, "size");
  for (i = 0; i < iv->n; i++) /* the sizes again: polynomials where the reader takes them */
    if (files_interval_size(iv, col, i, err)) return -1;
  return files_intervals_units(iv, err);
}

/* Records of an intervals CSV or a graph CSV (lifetimes as
   dnnmem_graph_intervals gives them), checked with the global alignment
   (0: none) as every planner checks them. */
static int files__intervals_parse(const char *name, char *text, size_t len, int64_t alignment, int symbolic,
                                  const char *const *declared, int32_t n_declared, files_intervals *iv,
                                  files_error *err) {
  dnnmem_result r;
  dnnmem_error e;
  int bad;
  memset(iv, 0, sizeof(*iv));
  iv->alignment = alignment;
  iv->symbolic_ok = symbolic;
  iv->declared = declared, iv->n_declared = n_declared;
  iv->symbolic_row = -1;
  if (files_csv_parse(name, text, len, &iv->csv, err)) return -1;
  bad = files_csv_is_graph(&iv->csv) ? files_intervals_from_graph(iv, err) : files_intervals_from_csv(iv, err);
  if (!bad) bad = files_intervals_total(iv, err) || files_intervals_fixed(iv, err) || files_intervals_links_check(iv, err);
  iv->problem.records = iv->records;
  iv->problem.count = iv->n;
  iv->problem.alignment = alignment;
  if (!bad && (r = dnnmem_intervals_check(&iv->problem, &e)) != DNNMEM_OK) /* not expected after the above */
    bad = files_fail(err, name, e.index >= 0 ? files_intervals_line(iv, e.index) : 0, "%s: %s",
                     dnnmem_field_name(e.field), FILES_RESULT_TEXT(r));
  iv->declared = NULL, iv->n_declared = 0;
  if (bad) files_intervals_free(iv);
  return bad ? -1 : 0;
}

FILES_FN int files_intervals_parse(const char *name, char *text, size_t len, int64_t alignment,
                                   files_intervals *iv, files_error *err) {
  return files__intervals_parse(name, text, len, alignment, 0, NULL, 0, iv, err);
}

/* The same, sizes may be polynomials in one symbol ("4096*S^2+64": each
   record's size is its constant term, the coefficients in iv->coefficients;
   files_intervals_at evaluates them). declared[n_declared] (may be NULL, 0):
   the symbols the run names ("S" or "S=1..64"), for the hint on "64S". */
FILES_FN int files_intervals_parse_symbolic(const char *name, char *text, size_t len, int64_t alignment,
                                            const char *const *declared, int32_t n_declared,
                                            files_intervals *iv, files_error *err) {
  return files__intervals_parse(name, text, len, alignment, 1, declared, n_declared, iv, err);
}

FILES_FN int files_read_intervals(const char *path, int64_t alignment, files_intervals *iv,
                                  files_error *err) {
  size_t len;
  char *text = files_read_text(path, &len, err);
  memset(iv, 0, sizeof(*iv));
  return text ? files_intervals_parse(path, text, len, alignment, iv, err) : -1;
}

FILES_FN int files_read_intervals_symbolic(const char *path, int64_t alignment, const char *const *declared,
                                           int32_t n_declared, files_intervals *iv, files_error *err) {
  size_t len;
  char *text = files_read_text(path, &len, err);
  memset(iv, 0, sizeof(*iv));
  return text ? files_intervals_parse_symbolic(path, text, len, alignment, declared, n_declared, iv, err) : -1;
}

/* ---- pools (plan --pool) ------------------------------------------------- */

/* The allowed pools of each record from an intervals CSV's optional 'pools'
   column (space-separated pool names, in preference order; an empty cell:
   every pool in the order given). names[num] are the pools' names. On
   success *offsets (n + 1) and *ids are malloc'd CSR lists, or both NULL
   when the file has no such column (every record may use every pool). An
   unknown or repeated name is FILE:LINE. */
FILES_FN int files_intervals_pools(const files_intervals *iv, const char *const *names, int32_t num,
                                   int32_t **offsets, int32_t **ids, files_error *err) {
  const files_csv *csv = files_intervals_rows(iv);
  int col = iv->is_graph ? -1 : files_column(csv, "pools");
  int32_t i, q, k = 0, *o, *list;
  *offsets = NULL, *ids = NULL;
  if (col < 0) return 0;
  o = (int32_t *)malloc(((size_t)iv->n + 1) * sizeof(int32_t));
  list = (int32_t *)malloc(((size_t)iv->n * (size_t)num + 1) * sizeof(int32_t));
  if (!o || !list) return free(o), free(list), files_fail(err, csv->path, 0, "out of memory");
  o[0] = 0;
  for (i = 0; i < iv->n; i++) {
    const char *p = files_cell(csv, i, col);
    int32_t start = k;
    while (*p) {
      size_t len = 0;
      int32_t j, found = -1;
      if (*p == ' ') { p++; continue; }
      while (p[len] && p[len] != ' ') len++;
      for (q = 0; q < num && found < 0; q++)
        if (strlen(names[q]) == len && strncmp(names[q], p, len) == 0) found = q;
      if (found < 0) {
        files_fail(err, csv->path, csv->rows[i].line, "unknown pool '%.*s'", (int)len, p);
        return free(o), free(list), -1;
      }
      for (j = start; j < k; j++)
        if (list[j] == found) {
          files_fail(err, csv->path, csv->rows[i].line, "pool '%.*s' listed twice", (int)len, p);
          return free(o), free(list), -1;
        }
      list[k++] = found;
      p += len;
    }
    if (k == start)
      for (q = 0; q < num; q++) list[k++] = q;
    o[i + 1] = k;
  }
  *offsets = o, *ids = list;
  return 0;
}

/* ---- DIMACS max-flow ----------------------------------------------------- */

typedef struct files_dimacs {
  int32_t num_nodes, num_arcs, source, sink; /* ids 0-based */
  int32_t *from, *to;                        /* stb_ds, num_arcs each */
  int64_t *capacity;                         /* stb_ds */
  long *arc_line;                            /* stb_ds: the line of each arc */
} files_dimacs;

FILES_FN void files_dimacs_free(files_dimacs *d) {
  arrfree(d->from);
  arrfree(d->to);
  arrfree(d->capacity);
  arrfree(d->arc_line);
  memset(d, 0, sizeof(*d));
}

/* One whitespace-separated integer token; 0 when absent or not an integer. */
FILES_FN int files_token_i64(char **p, long long *out) {
  char *end;
  while (**p == ' ' || **p == '\t') ++*p;
  if (**p == 0) return 0;
  errno = 0;
  *out = strtoll(*p, &end, 10);
  if (end == *p || errno || (*end && *end != ' ' && *end != '\t')) return 0;
  *p = end;
  return 1;
}

FILES_FN int files_at_end(const char *p) {
  while (*p == ' ' || *p == '\t') p++;
  return *p == 0;
}

typedef struct files_dimacs_state {
  const char *name;
  long line, declared_arcs, n_line; /* n_line: the last 'n' line */
} files_dimacs_state;

FILES_FN int files_dimacs_p(files_dimacs *d, files_dimacs_state *st, char *s, files_error *err) {
  long long a, b;
  while (*s == ' ' || *s == '\t') s++;
  if (d->num_nodes >= 0) return files_fail(err, st->name, st->line, "second 'p' line");
  if (strncmp(s, "max", 3) != 0 || (s[3] != ' ' && s[3] != '\t'))
    return files_fail(err, st->name, st->line, "expected 'p max NODES ARCS'");
  s += 3;
  if (!files_token_i64(&s, &a) || !files_token_i64(&s, &b) || !files_at_end(s))
    return files_fail(err, st->name, st->line, "expected 'p max NODES ARCS'");
  if (a < 2 || a > INT32_MAX - 1) return files_fail(err, st->name, st->line, "node count %lld out of range", a);
  if (b < 0 || b > INT32_MAX / 2 - 1) return files_fail(err, st->name, st->line, "arc count %lld out of range", b);
  d->num_nodes = (int32_t)a;
  st->declared_arcs = (long)b;
  return 0;
}

FILES_FN int files_dimacs_node(files_dimacs *d, files_dimacs_state *st, char **s, long long *id,
                               files_error *err) {
  if (!files_token_i64(s, id)) return files_fail(err, st->name, st->line, "expected a node id");
  if (*id < 1 || *id > d->num_nodes)
    return files_fail(err, st->name, st->line, "node %lld outside 1..%d", *id, (int)d->num_nodes);
  return 0;
}

FILES_FN int files_dimacs_n(files_dimacs *d, files_dimacs_state *st, char *s, files_error *err) {
  long long a;
  int32_t *end;
  if (files_dimacs_node(d, st, &s, &a, err)) return -1;
  while (*s == ' ' || *s == '\t') s++;
  if ((*s != 's' && *s != 't') || !files_at_end(s + 1))
    return files_fail(err, st->name, st->line, "expected 'n ID s' or 'n ID t'");
  end = *s == 's' ? &d->source : &d->sink;
  if (*end >= 0) return files_fail(err, st->name, st->line, "second %s", *s == 's' ? "source" : "sink");
  *end = (int32_t)(a - 1);
  if (d->source >= 0 && d->source == d->sink)
    return files_fail(err, st->name, st->line, "source and sink are the same node (line %ld)", st->n_line);
  st->n_line = st->line;
  return 0;
}

FILES_FN int files_dimacs_a(files_dimacs *d, files_dimacs_state *st, char *s, files_error *err) {
  long long a, b, c;
  if (files_dimacs_node(d, st, &s, &a, err)) return -1;
  if (!files_token_i64(&s, &b) || !files_token_i64(&s, &c) || !files_at_end(s))
    return files_fail(err, st->name, st->line, "expected 'a FROM TO CAPACITY' (integers)");
  if (b < 1 || b > d->num_nodes)
    return files_fail(err, st->name, st->line, "node %lld outside 1..%d", b, (int)d->num_nodes);
  if (c < 0) return files_fail(err, st->name, st->line, "negative capacity %lld", c);
  if ((long)arrlen(d->from) >= st->declared_arcs)
    return files_fail(err, st->name, st->line, "more arcs than the %ld declared", st->declared_arcs);
  arrput(d->from, (int32_t)(a - 1));
  arrput(d->to, (int32_t)(b - 1));
  arrput(d->capacity, (int64_t)c);
  arrput(d->arc_line, st->line);
  return 0;
}

/* The capacities leaving the source must sum within int64_t (the flow
   engine's rule): the arc where they stop is named. */
FILES_FN int files_dimacs_sums(const files_dimacs *d, const char *name, files_error *err) {
  int64_t out = 0;
  int32_t i;
  for (i = 0; i < d->num_arcs; i++)
    if (d->from[i] == d->source && d->to[i] != d->source && files_add_overflows(out, d->capacity[i], &out))
      return files_fail(err, name, d->arc_line[i], "capacities leaving the source sum past the int64 range");
  return 0;
}

FILES_FN int files_dimacs_line(files_dimacs *d, files_dimacs_state *st, char *s, files_error *err) {
  if (*s == 0 || *s == 'c') return 0;
  if (*s == 'p') return files_dimacs_p(d, st, s + 1, err);
  if (*s != 'n' && *s != 'a')
    return files_fail(err, st->name, st->line, "unknown line type '%c' (expected c, p, n or a)", *s);
  if (d->num_nodes < 0) return files_fail(err, st->name, st->line, "'%c' line before the 'p' line", *s);
  return *s == 'n' ? files_dimacs_n(d, st, s + 1, err) : files_dimacs_a(d, st, s + 1, err);
}

FILES_FN int files_dimacs_parse(const char *name, char *text, size_t len, files_dimacs *d,
                                files_error *err) {
  files_dimacs_state st;
  char *p = text, *s;
  int bad = files_check_text(name, text, len, err);
  memset(d, 0, sizeof(*d));
  d->num_nodes = d->source = d->sink = -1;
  st.name = name;
  st.line = 0;
  st.declared_arcs = -1;
  st.n_line = 0;
  while (!bad && (s = files_next_line(&p, &st.line)) != NULL) bad = files_dimacs_line(d, &st, files_trim(s), err);
  d->num_arcs = (int32_t)arrlen(d->from);
  if (!bad && d->num_nodes < 0) bad = files_fail(err, name, st.line, "no 'p max NODES ARCS' line");
  if (!bad && d->num_arcs != st.declared_arcs)
    bad = files_fail(err, name, st.line, "the file ends after %d of the %ld declared arcs", (int)d->num_arcs,
                     st.declared_arcs);
  if (!bad && (d->source < 0 || d->sink < 0))
    bad = files_fail(err, name, st.line, "the file ends without an 'n ID %c' line", d->source < 0 ? 's' : 't');
  if (!bad) bad = files_dimacs_sums(d, name, err);
  free(text);
  if (bad) files_dimacs_free(d);
  return bad ? -1 : 0;
}

FILES_READER(dimacs, files_dimacs)

/* ---- layoutplan candidates ----------------------------------------------- */
#if !defined(DNNMEM_NO_LAYOUT) && !defined(DNNMEM_NO_LABEL)

/* The candidates file of `dnnmem layoutplan` (# comments, blank lines):
     machine L2B=16,L1B=8,MAB=16,PE=4       the machine (once)
     cost run=NS moved=NS local=NS bytes=B lanes=L   per DMA run, per copy
                                            moved to another unit / within
                                            one, bytes per element (4),
                                            DMA lanes working at once (1)
     layout NAME TENSORLAYOUT               a layout of one tile (all of one
                                            shape), bound to the machine
     output NAME                            the layout graph outputs end in
     op KIND NAME=FACTOR ...                an op kind's candidates and the
                                            factor of its time in each ('*':
                                            any kind not listed) */
typedef struct files_candidate_kind {
  const char *kind; /* points into the text */
  long line;
  double factor[DNNMEM_LABEL_MAX_LABELS]; /* < 0: not a candidate */
  int32_t first;                          /* the first candidate listed */
} files_candidate_kind;

typedef struct files_candidates {
  const char *path;
  char *text;                     /* the file's bytes; names point into it */
  dnnmem_layout_machine machine;
  const char *machine_text;
  long machine_line;
  double run_ns, moved_ns, local_ns, bytes, lanes;
  int32_t k, output;              /* layouts; the output layout (-1: none) */
  const char *names[DNNMEM_LABEL_MAX_LABELS];
  long lines[DNNMEM_LABEL_MAX_LABELS];
  dnnmem_layout *layouts;         /* [DNNMEM_LABEL_MAX_LABELS] */
  files_candidate_kind *kinds;    /* stb_ds */
} files_candidates;

FILES_FN void files_candidates_free(files_candidates *f) {
  free(f->text);
  free(f->layouts);
  arrfree(f->kinds);
  memset(f, 0, sizeof(*f));
}

/* The next whitespace-separated word of *s (NUL-terminated in place), or NULL. */
FILES_FN char *files_word(char **s) {
  char *w = *s, *e;
  while (*w == ' ' || *w == '\t') w++;
  if (!*w) return NULL;
  for (e = w; *e && *e != ' ' && *e != '\t'; e++) {
  }
  if (*e) *e++ = '\0';
  *s = e;
  return w;
}

FILES_FN int32_t files_candidates_find(const files_candidates *f, const char *name) {
  int32_t i;
  for (i = 0; i < f->k; i++)
    if (strcmp(f->names[i], name) == 0) return i;
  return -1;
}

/* A finite number >= 0 (> 0 unless allow_zero) into *x. */
FILES_FN int files_candidates_number(const files_candidates *f, long line, const char *what, const char *text,
                                     int allow_zero, double *x, files_error *err) {
  char *end;
  errno = 0;
  *x = strtod(text, &end);
  if (end == text || *end || errno || !isfinite(*x) || *x < 0 || (!allow_zero && *x == 0))
    return files_fail(err, f->path, line, "%s '%s': expected a finite number %s", what, text,
                      allow_zero ? ">= 0" : "> 0");
  return 0;
}

FILES_FN int files_candidates_cost(files_candidates *f, long line, char *s, files_error *err) {
  char *kv;
  while ((kv = files_word(&s)) != NULL) {
    char *eq = strchr(kv, '=');
    double *dest = NULL;
    int allow_zero = 1;
    if (!eq) return files_fail(err, f->path, line, "cost '%s': expected KEY=VALUE (run, moved, local, bytes, lanes)", kv);
    *eq++ = '\0';
    if (strcmp(kv, "run") == 0) dest = &f->run_ns;
    else if (strcmp(kv, "moved") == 0) dest = &f->moved_ns;
    else if (strcmp(kv, "local") == 0) dest = &f->local_ns;
    else if (strcmp(kv, "bytes") == 0) dest = &f->bytes, allow_zero = 0;
    else if (strcmp(kv, "lanes") == 0) dest = &f->lanes, allow_zero = 0;
    else return files_fail(err, f->path, line, "cost key '%s': expected run, moved, local, bytes or lanes", kv);
    if (files_candidates_number(f, line, kv, eq, allow_zero, dest, err)) return -1;
  }
  return 0;
}

FILES_FN int files_candidates_layout(files_candidates *f, long line, char *s, files_error *err) {
  char *name = files_word(&s), *text;
  int64_t at = 0;
  dnnmem_result r;
  int32_t i;
  if (!name) return files_fail(err, f->path, line, "layout: expected NAME LAYOUT");
  text = files_trim(s);
  if (!*text) return files_fail(err, f->path, line, "layout '%s': missing the TensorLayout", name);
  if (files_candidates_find(f, name) >= 0) return files_fail(err, f->path, line, "layout '%s' defined twice", name);
  if (f->k == DNNMEM_LABEL_MAX_LABELS)
    return files_fail(err, f->path, line, "more than %d layouts", DNNMEM_LABEL_MAX_LABELS);
  if ((r = dnnmem_layout_parse(text, strlen(text), &f->layouts[f->k], &at)) != DNNMEM_OK)
    return files_fail(err, f->path, line, "layout '%s': byte %lld of '%s': %s", name, (long long)at, text,
                      FILES_RESULT_TEXT(r));
  if (f->k > 0) {
    const dnnmem_layout *a = &f->layouts[0], *b = &f->layouts[f->k];
    int same = a->num_axes == b->num_axes;
    for (i = 0; same && i < a->num_axes; i++) same = a->unpadded[i] == b->unpadded[i];
    if (!same)
      return files_fail(err, f->path, line, "layout '%s': its shape differs from the first layout's (line %ld)", name,
                        f->lines[0]);
  }
  f->names[f->k] = name;
  f->lines[f->k++] = line;
  return 0;
}

FILES_FN int files_candidates_op(files_candidates *f, long line, char *s, files_error *err) {
  char *kind = files_word(&s), *c;
  files_candidate_kind e;
  int32_t i;
  if (!kind) return files_fail(err, f->path, line, "op: expected KIND NAME=FACTOR ...");
  for (i = 0; i < (int32_t)arrlen(f->kinds); i++)
    if (strcmp(f->kinds[i].kind, kind) == 0)
      return files_fail(err, f->path, line, "op kind '%s' listed twice (line %ld)", kind, f->kinds[i].line);
  memset(&e, 0, sizeof(e));
  for (i = 0; i < DNNMEM_LABEL_MAX_LABELS; i++) e.factor[i] = -1;
  e.first = -1;
  while ((c = files_word(&s)) != NULL) {
    char *eq = strchr(c, '=');
    int32_t l;
    if (!eq) return files_fail(err, f->path, line, "op '%s': '%s': expected LAYOUT=FACTOR", kind, c);
    *eq++ = '\0';
    if ((l = files_candidates_find(f, c)) < 0) return files_fail(err, f->path, line, "op '%s': unknown layout '%s'", kind, c);
    if (e.factor[l] >= 0) return files_fail(err, f->path, line, "op '%s': layout '%s' listed twice", kind, c);
    if (files_candidates_number(f, line, "op cost factor", eq, 1, &e.factor[l], err)) return -1;
    if (e.first < 0) e.first = l;
  }
  if (e.first < 0) return files_fail(err, f->path, line, "op '%s': no candidate layout", kind);
  e.kind = kind;
  e.line = line;
  arrput(f->kinds, e);
  return 0;
}

FILES_FN int files_candidates_line(files_candidates *f, long line, char *s, files_error *err) {
  char *word = files_word(&s), *name;
  if (strcmp(word, "machine") == 0) {
    int64_t at = 0;
    dnnmem_result r;
    s = files_trim(s);
    if (f->machine_line) return files_fail(err, f->path, line, "second 'machine' line (the first is line %ld)", f->machine_line);
    if ((r = dnnmem_layout_machine_parse(s, strlen(s), &f->machine, &at)) != DNNMEM_OK)
      return files_fail(err, f->path, line, "machine '%s': byte %lld: %s", s, (long long)at, FILES_RESULT_TEXT(r));
    f->machine_text = s;
    f->machine_line = line;
    return 0;
  }
  if (strcmp(word, "cost") == 0) return files_candidates_cost(f, line, s, err);
  if (strcmp(word, "layout") == 0) return files_candidates_layout(f, line, s, err);
  if (strcmp(word, "op") == 0) return files_candidates_op(f, line, s, err);
  if (strcmp(word, "output") != 0)
    return files_fail(err, f->path, line, "unknown line '%s': expected machine, cost, layout, output or op", word);
  name = files_word(&s);
  if (!name || files_word(&s)) return files_fail(err, f->path, line, "output: expected one layout name");
  if ((f->output = files_candidates_find(f, name)) < 0) return files_fail(err, f->path, line, "output: unknown layout '%s'", name);
  return 0;
}

/* Parses text (malloc'd, NUL-terminated; owned by f from now on, also on
   failure); every layout is bound to the machine. */
FILES_FN int files_candidates_parse(const char *name, char *text, size_t len, files_candidates *f,
                                    files_error *err) {
  char *p = text, *s;
  long line = 0;
  int32_t i;
  int bad;
  memset(f, 0, sizeof(*f));
  f->path = name;
  f->text = text;
  f->output = -1;
  f->bytes = 4;
  f->lanes = 1;
  bad = files_check_text(name, text, len, err);
  if (!bad && !(f->layouts = (dnnmem_layout *)malloc(sizeof(dnnmem_layout) * DNNMEM_LABEL_MAX_LABELS)))
    bad = files_fail(err, name, 0, "out of memory");
  while (!bad && (s = files_next_line(&p, &line)) != NULL) {
    char *hash = strchr(s, '#');
    if (hash) *hash = '\0';
    s = files_trim(s);
    if (*s) bad = files_candidates_line(f, line, s, err);
  }
  if (!bad && !f->machine_line) bad = files_fail(err, name, line, "no 'machine' line");
  if (!bad && f->k == 0) bad = files_fail(err, name, line, "no 'layout' line");
  for (i = 0; !bad && i < f->k; i++) {
    dnnmem_error fault;
    dnnmem_result r = dnnmem_layout_bind(&f->layouts[i], &f->machine, &fault);
    if (r != DNNMEM_OK) /* the factor's byte in the layout's text */
      bad = files_fail(err, name, f->lines[i], "layout '%s' on machine %s: byte %lld: %s", f->names[i],
                       f->machine_text,
                       (long long)(fault.index >= 0 ? f->layouts[i].factors[fault.index].position : 0),
                       FILES_RESULT_TEXT(r));
  }
  if (bad) files_candidates_free(f);
  return bad ? -1 : 0;
}

FILES_READER(candidates, files_candidates)
#endif

#endif /* DNNMEM_FILES_H */

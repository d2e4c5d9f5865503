/* fuzz/driver.c: runs a libFuzzer target as a plain program, without
   libFuzzer. Usage: fuzz_X [-runs=N] [-max_len=N] [-seed=N] [FILE|DIR ...]
   Every file (and every file in every directory) is run once; then N inputs
   are made from them by deterministic mutation (or at random when there is no
   corpus). Any broken invariant aborts. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t **corpus;
static size_t *corpus_len, corpus_count, corpus_cap;

static void add_file(const char *path) {
  FILE *f = fopen(path, "rb");
  uint8_t *buf;
  long len;
  if (!f) {
    fprintf(stderr, "driver: cannot open %s\n", path);
    exit(1);
  }
  fseek(f, 0, SEEK_END);
  len = ftell(f);
  fseek(f, 0, SEEK_SET);
  buf = (uint8_t *)malloc((size_t)len + 1);
  if (!buf || fread(buf, 1, (size_t)len, f) != (size_t)len) {
    fprintf(stderr, "driver: cannot read %s\n", path);
    exit(1);
  }
  fclose(f);
  if (corpus_count == corpus_cap) {
    corpus_cap = corpus_cap ? corpus_cap * 2 : 64;
    corpus = (uint8_t **)realloc(corpus, corpus_cap * sizeof(*corpus));
    corpus_len = (size_t *)realloc(corpus_len, corpus_cap * sizeof(*corpus_len));
  }
  corpus[corpus_count] = buf;
  corpus_len[corpus_count++] = (size_t)len;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add_path(const char *path) {
  struct stat st;
  if (stat(path, &st) != 0) {
    fprintf(stderr, "driver: no such file %s\n", path);
    exit(1);
  }
  if (S_ISDIR(st.st_mode)) {
    DIR *d = opendir(path);
    struct dirent *e;
    char **names = NULL;
    size_t n = 0, i;
    while (d && (e = readdir(d))) {
      if (e->d_name[0] == '.') continue;
      names = (char **)realloc(names, (n + 1) * sizeof(char *));
      names[n] = (char *)malloc(strlen(path) + strlen(e->d_name) + 2);
      sprintf(names[n++], "%s/%s", path, e->d_name);
    }
    if (d) closedir(d);
    qsort(names, n, sizeof(char *), by_name); /* same order everywhere */
    for (i = 0; i < n; i++) {
      add_path(names[i]);
      free(names[i]);
    }
    free(names);
  } else {
    add_file(path);
  }
}

static uint64_t rng_state;
static uint64_t next(void) {
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

int main(int argc, char **argv) {
  long runs = 0, max_len = 256, i;
  size_t k;
  uint8_t *buf;
  for (i = 1; i < argc; i++) {
    if (strncmp(argv[i], "-runs=", 6) == 0) runs = atol(argv[i] + 6);
    else if (strncmp(argv[i], "-max_len=", 9) == 0) max_len = atol(argv[i] + 9);
    else if (strncmp(argv[i], "-seed=", 6) == 0) rng_state = (uint64_t)atoll(argv[i] + 6);
    else if (argv[i][0] == '-') continue; /* other libFuzzer flags: ignored */
    else add_path(argv[i]);
  }
  if (max_len < 1) max_len = 1;
  for (k = 0; k < corpus_count; k++) LLVMFuzzerTestOneInput(corpus[k], corpus_len[k]);
  buf = (uint8_t *)malloc((size_t)max_len);
  for (i = 0; i < runs; i++) {
    size_t len, j;
    if (corpus_count && (next() & 3)) { /* mutate a corpus entry */
      size_t pick = (size_t)(next() % corpus_count), flips;
      len = corpus_len[pick] < (size_t)max_len ? corpus_len[pick] : (size_t)max_len;
      memcpy(buf, corpus[pick], len);
      if (len == 0) continue;
      flips = 1 + (size_t)(next() % 4);
      for (j = 0; j < flips; j++) buf[next() % len] ^= (uint8_t)(1u << (next() % 8));
      if (next() % 4 == 0) len = (size_t)(next() % (len + 1));
    } else {
      len = (size_t)(next() % (uint64_t)max_len);
      for (j = 0; j < len; j++) buf[j] = (uint8_t)next();
    }
    LLVMFuzzerTestOneInput(buf, len);
  }
  printf("%s: %zu corpus inputs, %ld generated, no invariant broken\n", argv[0], corpus_count, runs);
  free(buf);
  for (k = 0; k < corpus_count; k++) free(corpus[k]);
  free(corpus);
  free(corpus_len);
  return 0;
}

/* tests/test.h: the small harness every tests/test_*.c uses.

   RUN(fn) runs one test case (a void function); CHECK and CHECK_EQ record a
   failure with file and line and let the case go on. test_finish() prints
   "SUITE: N passed, M failed" (cases, not checks) and returns the exit code. */
#ifndef DNNMEM_TEST_H
#define DNNMEM_TEST_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test__case_failed, test__passed, test__failed;

#define CHECK(cond)                                                         \
  do {                                                                      \
    if (!(cond)) {                                                          \
      fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
      test__case_failed = 1;                                                \
    }                                                                       \
  } while (0)

#define CHECK_EQ(a, b)                                                        \
  do {                                                                        \
    long long test__a = (long long)(a), test__b = (long long)(b);             \
    if (test__a != test__b) {                                                 \
      fprintf(stderr, "%s:%d: CHECK_EQ(%s, %s) failed: %lld != %lld\n",       \
              __FILE__, __LINE__, #a, #b, test__a, test__b);                  \
      test__case_failed = 1;                                                  \
    }                                                                         \
  } while (0)

/* CHECK_EQ of each element: array[0], array[1], ... equal the values
   listed (any integer types); the first difference is reported.
   CHECK_FIELDS: the same of a field, array[0].field, array[1].field, ... */
#define CHECK_VALUES(array, ...) TEST__CHECK_EACH(#array, (array)[test__i], __VA_ARGS__)
#define CHECK_FIELDS(array, field, ...) TEST__CHECK_EACH(#array "[]." #field, (array)[test__i].field, __VA_ARGS__)
#define TEST__CHECK_EACH(what, element, ...)                                      \
  do {                                                                            \
    const long long test__want[] = {__VA_ARGS__};                                 \
    int test__i, test__n = (int)(sizeof(test__want) / sizeof(test__want[0]));    \
    for (test__i = 0; test__i < test__n; test__i++)                               \
      if ((long long)(element) != test__want[test__i]) {                          \
        fprintf(stderr, "%s:%d: %s == {%s} failed at [%d]: %lld != %lld\n",       \
                __FILE__, __LINE__, what, #__VA_ARGS__, test__i,                  \
                (long long)(element), test__want[test__i]);                       \
        test__case_failed = 1;                                                    \
        break;                                                                    \
      }                                                                           \
  } while (0)

/* An enum's T_name and T_parse (the header's one mechanism): the names
   listed are T's in value order, count of them (value 0 first: the
   default), each parses back to its value; NULL past both ends; `bad`, ""
   and a NULL name refused (DNNMEM_ERR_PARSE, _INVALID_ARGUMENT), as a NULL
   output. */
#define CHECK_ENUM_NAMES(T, count, bad, ...)                                      \
  do {                                                                            \
    static const char *const test__names[] = {__VA_ARGS__};                       \
    int test__k, test__n = (int)(sizeof(test__names) / sizeof(test__names[0]));   \
    T test__v;                                                                    \
    CHECK_EQ(test__n, (count));                                                   \
    for (test__k = 0; test__k < test__n; test__k++) {                             \
      CHECK(T##_name((T)test__k) != NULL && strcmp(T##_name((T)test__k), test__names[test__k]) == 0); \
      CHECK_EQ(T##_parse(test__names[test__k], &test__v), DNNMEM_OK);             \
      CHECK_EQ(test__v, test__k);                                                 \
    }                                                                             \
    CHECK(T##_name((T)(count)) == NULL && T##_name((T)-1) == NULL);               \
    CHECK_EQ(T##_parse(bad, &test__v), DNNMEM_ERR_PARSE);                         \
    CHECK_EQ(T##_parse("", &test__v), DNNMEM_ERR_PARSE);                          \
    CHECK_EQ(T##_parse(NULL, &test__v), DNNMEM_ERR_INVALID_ARGUMENT);             \
    CHECK_EQ(T##_parse(test__names[0], NULL), DNNMEM_ERR_INVALID_ARGUMENT);       \
  } while (0)

/* Every operation's shape, ask then pass: rc = ask (which writes the size
   to test_bytes); on DNNMEM_OK, rc = pass on test_mem, that many bytes
   and 8 more, so that pass may hand the library an odd address
   (test_mem + 1: any alignment is accepted); freed after. */
#define TEST_ASK_PASS(rc, ask, pass)                                          \
  do {                                                                        \
    size_t test_bytes = 0;                                                    \
    unsigned char *test_mem;                                                  \
    if (((rc) = (ask)) == DNNMEM_OK) {                                        \
      if ((test_mem = (unsigned char *)malloc(test_bytes + 8)) == NULL) abort(); \
      (rc) = (pass);                                                          \
      free(test_mem);                                                         \
    }                                                                         \
  } while (0)

/* A scratch size past what a 32-bit size_t holds: OVERFLOW there (never
   a wrapped small size), else OK with at least `least` bytes. */
#define CHECK_HUGE_SIZE(call, bytes, least)                                   \
  do {                                                                        \
    if (sizeof(size_t) < 8) {                                                 \
      CHECK_EQ((call), DNNMEM_ERR_OVERFLOW);                                  \
    } else {                                                                  \
      CHECK_EQ((call), DNNMEM_OK);                                            \
      CHECK((bytes) > (least));                                               \
    }                                                                         \
  } while (0)

/* A random test's loop: trials numbered by `trial` (an int32_t from 0)
   drawing from `rng` (a dnnmem_rng seeded with `seed`), both declared for
   the body only; break and continue act on the trials. */
#define FOR_TRIALS(rng, seed, trial, trials)                                  \
  for (int32_t trial = 0, test__once = 1; test__once; test__once = 0)         \
    for (dnnmem_rng rng; test__once; test__once = 0)                          \
      for (dnnmem_rng_seed(&rng, (seed)); trial < (trials); trial++)

#if defined(__GNUC__) || defined(__clang__)
#define TEST_FN static __attribute__((unused))
#else
#define TEST_FN static
#endif

/* A stop callback (the options' stop) that stops at once, counting its
   calls in *(int *)user when user is not NULL. */
TEST_FN int test_stop_now(void *user) {
  if (user) ++*(int *)user;
  return 1;
}

/* A heap copy of count elements of size bytes (the first min(count, have)
   from `from`, the rest zero) into *slot, freeing what *slot held: arrays
   of exactly the size an API documents, so that ASan sees an access one
   past their end (a test's own arrays are often larger). NULL for a NULL
   `from` (the array is optional); test_heap_free(slot) releases it. */
TEST_FN void *test_heap_copy(void **slot, const void *from, size_t count, size_t have, size_t size) {
  void *to = malloc(count ? count * size : 1);
  if (to == NULL) abort();
  memset(to, 0, count ? count * size : 1);
  if (from && count) memcpy(to, from, (count < have ? count : have) * size);
  free(*slot);
  *slot = to;
  return from ? to : NULL;
}

TEST_FN void test_heap_free(void **slot) {
  free(*slot);
  *slot = NULL;
}

/* Every malloc of a test comes back filled with 0x7f bytes: scratch the
   library reads before writing then holds a huge count, index or time
   (an out-of-range access ASan sees, a wrong answer a check sees), not
   ASan's fill or zero pages, which often pass unnoticed. */
TEST_FN void *test_malloc(size_t bytes) {
  void *p = malloc(bytes);
  if (p) memset(p, 0x7f, bytes);
  return p;
}
#define malloc(bytes) test_malloc(bytes)

#define RUN(fn) test__run(#fn, fn)

/* RUN_LONG: a case that asks many random questions of one kind (a
   differential or a brute-force sweep) which shorter cases also ask. The
   32-bit build (-m32 -O0 with UBSan, compiled with TEST_SKIP_LONG) skips
   it: what it checks does not depend on the word size, and such cases took
   most of that build's time. The 64-bit sanitized build runs every case. */
static int test__skipped;
#ifdef TEST_SKIP_LONG
#define RUN_LONG(fn) ((void)(fn), test__skipped++)
#else
#define RUN_LONG(fn) RUN(fn)
#endif

/* RUN_PLAIN: a long case of plain arithmetic (a search's quality over many
   moves) whose code other cases and scripts run under the sanitizers, where
   it cost three to four times its plain run. make test runs it in a plain -O2 build
   of its file (build/plain/, TEST_PLAIN: its RUN_PLAIN cases alone) and
   skips it in the sanitized and 32-bit builds (TEST_SKIP_PLAIN). A file
   built without either (make coverage, make mutate) runs every case. */
static int test__skipped_plain;
#ifdef TEST_PLAIN
#undef RUN
#define RUN(fn) ((void)(fn))
#undef RUN_LONG
#define RUN_LONG(fn) ((void)(fn))
#define RUN_PLAIN(fn) test__run(#fn, fn)
#elif defined(TEST_SKIP_PLAIN)
#define RUN_PLAIN(fn) ((void)(fn), test__skipped_plain++)
#else
#define RUN_PLAIN(fn) RUN(fn)
#endif

static void test__run(const char *name, void (*fn)(void)) {
#ifdef TEST_HOOK /* tests/mutate.py: some cases only, per-case coverage */
  if (!test_hook_before(name)) return;
#endif
  test__case_failed = 0;
  fn();
  if (test__case_failed) {
    test__failed++;
    fprintf(stderr, "FAIL %s\n", name);
  } else {
    test__passed++;
  }
#ifdef TEST_HOOK
  test_hook_after(name, test__passed, test__failed);
#endif
}

static int test_finish(const char *suite) {
  if (test__skipped)
    printf("%s: %d long case%s skipped (TEST_SKIP_LONG)\n", suite, test__skipped, test__skipped == 1 ? "" : "s");
  if (test__skipped_plain)
    printf("%s: %d case%s in the plain build (TEST_SKIP_PLAIN)\n", suite, test__skipped_plain,
           test__skipped_plain == 1 ? "" : "s");
  printf("%s: %d passed, %d failed\n", suite, test__passed, test__failed);
  return test__failed != 0;
}
#endif

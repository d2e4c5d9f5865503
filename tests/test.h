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
   listed (any integer types); the first difference is reported. */
#define CHECK_VALUES(array, ...)                                                  \
  do {                                                                            \
    const long long test__want[] = {__VA_ARGS__};                                 \
    int test__i, test__n = (int)(sizeof(test__want) / sizeof(test__want[0]));    \
    for (test__i = 0; test__i < test__n; test__i++)                               \
      if ((long long)(array)[test__i] != test__want[test__i]) {                   \
        fprintf(stderr, "%s:%d: CHECK_VALUES(%s, %s) failed at [%d]: %lld != %lld\n", \
                __FILE__, __LINE__, #array, #__VA_ARGS__, test__i,                \
                (long long)(array)[test__i], test__want[test__i]);                \
        test__case_failed = 1;                                                    \
        break;                                                                    \
      }                                                                           \
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

#if defined(__GNUC__) || defined(__clang__)
#define TEST_FN static __attribute__((unused))
#else
#define TEST_FN static
#endif

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

#define RUN(fn) test__run(#fn, fn)

static void test__run(const char *name, void (*fn)(void)) {
  test__case_failed = 0;
  fn();
  if (test__case_failed) {
    test__failed++;
    fprintf(stderr, "FAIL %s\n", name);
  } else {
    test__passed++;
  }
}

static int test_finish(const char *suite) {
  printf("%s: %d passed, %d failed\n", suite, test__passed, test__failed);
  return test__failed != 0;
}
#endif

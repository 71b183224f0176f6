/*===- CApiTestSupport.h - a small C test harness for mgp.h ------*- C -*-===*
 *
 * This file implements the checks of the C API tests (plain C, through the
 * public header only): CHECK / CHECK_STATUS / CHECK_CONTAINS count failures
 * and print where they happened with mgp_last_error(); readFile loads a
 * kernel file; a seeded xorshift generator gives random inputs. Each test
 * binary runs the test named on its command line (ctest registers one test
 * per name), or all of them.
 *
 *===----------------------------------------------------------------------===*/
#ifndef MGP_TESTS_CAPI_CAPITESTSUPPORT_H
#define MGP_TESTS_CAPI_CAPITESTSUPPORT_H

#include <mgp/mgp.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int testFailures = 0;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      ++testFailures;                                                          \
    }                                                                          \
  } while (0)

/* Runs `call` and checks that it returns `expected`; on a mismatch prints
   both status names and the last error. */
#define CHECK_STATUS(call, expected)                                           \
  do {                                                                         \
    mgp_status got_ = (call);                                                  \
    if (got_ != (expected)) {                                                  \
      fprintf(stderr, "%s:%d: %s returned %s, expected %s: %s\n", __FILE__,    \
              __LINE__, #call, mgp_status_name(got_),                          \
              mgp_status_name(expected), mgp_last_error());                    \
      ++testFailures;                                                          \
    }                                                                          \
  } while (0)

#define CHECK_CONTAINS(text, needle)                                           \
  do {                                                                         \
    const char *text_ = (text);                                                \
    if (!text_ || !strstr(text_, (needle))) {                                  \
      fprintf(stderr, "%s:%d: expected \"%s\" in:\n%s\n", __FILE__, __LINE__,  \
              (needle), text_ ? text_ : "(null)");                             \
      ++testFailures;                                                          \
    }                                                                          \
  } while (0)

/* The whole file at `path`, NUL-terminated (malloc'd), or NULL. */
static char *readFile(const char *path) {
  FILE *file = fopen(path, "rb");
  if (!file)
    return NULL;
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  fseek(file, 0, SEEK_SET);
  char *text = (char *)malloc((size_t)size + 1);
  if (text && fread(text, 1, (size_t)size, file) != (size_t)size) {
    free(text);
    text = NULL;
  }
  if (text)
    text[size] = '\0';
  fclose(file);
  return text;
}

/* tests/capi/kernels.py: MGP_CAPI_KERNELS from the environment (a copy of the
   tests on another machine), else the path the build compiled in. */
static const char *kernelFile(void) {
  const char *path = getenv("MGP_CAPI_KERNELS");
  return path && *path ? path : MGP_CAPI_KERNELS;
}

/* xorshift64*: a seeded generator for test inputs. */
static uint64_t rngState = 0x9e3779b97f4a7c15ull;
static void seedRandom(uint64_t seed) { rngState = seed ? seed : 1; }
static uint64_t nextRandom(void) {
  rngState ^= rngState >> 12;
  rngState ^= rngState << 25;
  rngState ^= rngState >> 27;
  return rngState * 2685821657736338717ull;
}
/* A float of magnitude in [0.25, 4) with a random sign (never zero). */
static float randomFloat(void) {
  float unit = (float)(nextRandom() >> 40) / (float)(1u << 24);
  float magnitude = 0.25f + 3.75f * unit;
  return (nextRandom() & 1) ? magnitude : -magnitude;
}

typedef void (*TestFn)(void);
typedef struct {
  const char *name;
  TestFn fn;
} TestCase;

/* Runs the test named argv[1] (all without an argument); 0 when every check
   passed. */
static int runTests(const TestCase *tests, size_t count, int argc,
                    char **argv) {
  int ran = 0;
  for (size_t i = 0; i < count; ++i) {
    if (argc > 1 && strcmp(argv[1], tests[i].name) != 0)
      continue;
    int before = testFailures;
    tests[i].fn();
    printf("%s %s\n", testFailures == before ? "PASS" : "FAIL", tests[i].name);
    ++ran;
  }
  if (!ran) {
    fprintf(stderr, "no test named %s\n", argc > 1 ? argv[1] : "(any)");
    return 2;
  }
  return testFailures ? 1 : 0;
}

#endif /* MGP_TESTS_CAPI_CAPITESTSUPPORT_H */

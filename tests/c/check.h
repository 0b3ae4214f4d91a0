/* Tiny assertion helpers shared by the C tests: count failures, keep going,
 * exit non-zero at the end. */
#ifndef LONGSTRAW_TEST_CHECK_H
#define LONGSTRAW_TEST_CHECK_H

#include <stdio.h>

#include "longstraw.h"

static int check_failures = 0;
static int check_count = 0;

#define CHECK(cond)                                                          \
  do {                                                                       \
    check_count++;                                                           \
    if (!(cond)) {                                                           \
      check_failures++;                                                      \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                        \
  } while (0)

/* Checks that a call returns the expected code, printing both on mismatch. */
#define CHECK_RC(expected, call)                                             \
  do {                                                                       \
    longstraw_result check_rc_ = (call);                                     \
    check_count++;                                                           \
    if (check_rc_ != (expected)) {                                           \
      check_failures++;                                                      \
      fprintf(stderr, "%s:%d: %s\n  returned %d (%s), expected %d (%s)\n",    \
              __FILE__, __LINE__, #call, (int)check_rc_,                     \
              longstraw_result_str((int)check_rc_), (int)(expected),          \
              longstraw_result_str((int)(expected)));                        \
    }                                                                        \
  } while (0)

#define CHECK_OK(call) CHECK_RC(LONGSTRAW_OK, call)

static int check_report(const char *name) {
  if (check_failures) {
    fprintf(stderr, "%s: %d of %d checks FAILED\n", name, check_failures, check_count);
    return 1;
  }
  printf("%s: all %d checks passed\n", name, check_count);
  return 0;
}

#endif

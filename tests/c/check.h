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

/* Options for the tests' sets: the defaults, with `seed` given when it is
 * not 0 and the secret (NULL for none) as is. */
static inline longstraw_options test_options(uint64_t seed, const uint8_t *secret, size_t secret_len,
                                             uint32_t placement) {
  longstraw_options o;
  longstraw_options_init(&o, sizeof o);
  o.has_seed = seed != 0;
  o.seed = seed;
  o.secret = secret;
  o.secret_len = secret_len;
  o.placement = placement;
  return o;
}

/* An empty flat set, through longstraw_rendezvous_new. */
static inline longstraw_result new_flat(uint64_t seed, const uint8_t *secret, size_t secret_len, uint32_t placement,
                                        longstraw_rendezvous **out) {
  longstraw_options o = test_options(seed, secret, secret_len, placement);
  return longstraw_rendezvous_new(&o, out);
}

/* A table over the membership of `members`, through longstraw_rendezvous_new_from. */
static inline longstraw_result new_table(const longstraw_snapshot *members, uint8_t partition_bits, size_t replicas,
                                         uint32_t flags, double balance, longstraw_rendezvous **out) {
  longstraw_options o;
  longstraw_options_init(&o, sizeof o);
  o.mode = LONGSTRAW_MODE_TABLE;
  o.partition_bits = partition_bits;
  o.replicas = replicas;
  o.table_flags = flags;
  o.balance = balance;
  return longstraw_rendezvous_new_from(members, &o, out);
}

/* A skeleton over the membership of `members`, through longstraw_rendezvous_new_from. */
static inline longstraw_result new_skeleton(const longstraw_snapshot *members, uint8_t fanout_bits, uint8_t levels,
                                            longstraw_rendezvous **out) {
  longstraw_options o;
  longstraw_options_init(&o, sizeof o);
  o.mode = LONGSTRAW_MODE_SKELETON;
  o.fanout_bits = fanout_bits;
  o.levels = levels;
  return longstraw_rendezvous_new_from(members, &o, out);
}

/* A set's table shape, read from a snapshot of it (LONGSTRAW_WRONG_MODE for
 * another mode). */
static inline longstraw_result set_table_shape(const longstraw_rendezvous *r, uint8_t *bits, size_t *replicas,
                                               uint32_t *flags, double *balance) {
  const longstraw_snapshot *s = NULL;
  longstraw_result rc = longstraw_rendezvous_snapshot(r, &s);
  if (rc != LONGSTRAW_OK) return rc;
  rc = longstraw_snapshot_table_shape(s, bits, replicas, flags, balance);
  longstraw_snapshot_free(s);
  return rc;
}

/* A set's skeleton shape, read from a snapshot of it. */
static inline longstraw_result set_skeleton_shape(const longstraw_rendezvous *r, uint8_t *fanout_bits,
                                                  uint8_t *levels) {
  const longstraw_snapshot *s = NULL;
  longstraw_result rc = longstraw_rendezvous_snapshot(r, &s);
  if (rc != LONGSTRAW_OK) return rc;
  rc = longstraw_snapshot_skeleton_shape(s, fanout_bits, levels);
  longstraw_snapshot_free(s);
  return rc;
}

static int check_report(const char *name) {
  if (check_failures) {
    fprintf(stderr, "%s: %d of %d checks FAILED\n", name, check_failures, check_count);
    return 1;
  }
  printf("%s: all %d checks passed\n", name, check_count);
  return 0;
}

#endif

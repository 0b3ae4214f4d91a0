/* longstraw_snapshot_owner through the C ABI, in ns per lookup of a 16-byte
 * key: flat sets of 10 and 1000 nodes, a table (2^16 partitions) and a
 * skeleton (default shape) of 1000 nodes; and longstraw_rendezvous_snapshot +
 * longstraw_snapshot_free. Each figure is the fastest of many short batches,
 * so that other jobs on a shared machine do not inflate it. `make bench-c`
 * builds and runs it. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "longstraw.h"

#define BATCH 64
#define ROUNDS 20000
#define KEYS 4096
static char keys[KEYS][17];

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static longstraw_rendezvous *flat(size_t n) {
  longstraw_rendezvous *r = NULL;
  char id[32];
  size_t i;
  longstraw_rendezvous_new(NULL, &r);
  for (i = 0; i < n; i++) {
    int len = snprintf(id, sizeof id, "node-%zu", i);
    longstraw_rendezvous_add(r, (const uint8_t *)id, (size_t)len, 1.0);
  }
  return r;
}

static double owner_ns(const longstraw_snapshot *s) {
  double best = 1e18;
  size_t k = 0;
  int round, i;
  uint32_t index;
  const uint8_t *id;
  size_t id_len;
  for (round = 0; round < ROUNDS; round++) {
    double t0 = now_ns(), dt;
    for (i = 0; i < BATCH; i++, k++)
      longstraw_snapshot_owner(s, (const uint8_t *)keys[k % KEYS], 16, &index, &id, &id_len);
    dt = (now_ns() - t0) / BATCH;
    if (dt < best) best = dt;
  }
  return best;
}

int main(void) {
  size_t i;
  const longstraw_snapshot *s10, *s1000, *members, *st, *sk;
  longstraw_rendezvous *r10 = flat(10), *r1000 = flat(1000);
  longstraw_rendezvous *t, *k;
  longstraw_options table, skeleton;
  double best_snap = 1e18;
  int round, j;
  longstraw_options_init(&table, sizeof table);
  table.mode = LONGSTRAW_MODE_TABLE;
  table.partition_bits = 16;
  longstraw_options_init(&skeleton, sizeof skeleton);
  skeleton.mode = LONGSTRAW_MODE_SKELETON;
  for (i = 0; i < KEYS; i++) snprintf(keys[i], sizeof keys[i], "key:%012zu", i);
  longstraw_rendezvous_snapshot(r10, &s10);
  longstraw_rendezvous_snapshot(r1000, &s1000);
  members = s1000;
  longstraw_rendezvous_new_from(members, &table, &t);
  longstraw_rendezvous_snapshot(t, &st);
  longstraw_rendezvous_new_from(members, &skeleton, &k);
  longstraw_rendezvous_snapshot(k, &sk);
  for (round = 0; round < ROUNDS; round++) {
    double t0 = now_ns(), dt;
    for (j = 0; j < BATCH; j++) {
      const longstraw_snapshot *x;
      longstraw_rendezvous_snapshot(r10, &x);
      longstraw_snapshot_free(x);
    }
    dt = (now_ns() - t0) / BATCH;
    if (dt < best_snap) best_snap = dt;
  }
  printf("flat n=10 owner %.1f ns, flat n=1000 owner %.1f ns, table n=1000 owner %.1f ns, skeleton n=1000 owner %.1f ns, snapshot+free %.1f ns\n",
         owner_ns(s10), owner_ns(s1000), owner_ns(st), owner_ns(sk), best_snap);
  longstraw_snapshot_free(s10);
  longstraw_snapshot_free(s1000);
  longstraw_snapshot_free(st);
  longstraw_snapshot_free(sk);
  longstraw_rendezvous_free(r10);
  longstraw_rendezvous_free(r1000);
  longstraw_rendezvous_free(t);
  longstraw_rendezvous_free(k);
  return 0;
}

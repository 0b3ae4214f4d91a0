/* longstraw_snapshot_owner for 16-byte keys, v1 against keyed-v1 (docs/SPEC.md
 * section 15), in ns per lookup: the fastest of many short alternating batches,
 * so that other jobs on a shared machine do not inflate it
 * (bench/runs/2026-12-01-keyed/README.md).
 *
 *   cc -std=c99 -O2 -Iinclude ffi/examples/keyed_cost.c -Ltarget/release -llongstraw \
 *      -Wl,-rpath,target/release -o build/c/keyed_cost && build/c/keyed_cost */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "longstraw.h"

#define BATCH 64
#define ROUNDS 10000
#define KEYS 4096

static char keys[KEYS][17];

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static const longstraw_snapshot *build(size_t n, const uint8_t *secret) {
  longstraw_rendezvous *r = NULL;
  const longstraw_snapshot *s = NULL;
  longstraw_options o;
  char id[32];
  size_t i;
  longstraw_options_init(&o, sizeof o);
  if (secret) {
    o.secret = secret;
    o.secret_len = LONGSTRAW_SECRET_LEN;
  }
  longstraw_rendezvous_new(&o, &r);
  for (i = 0; i < n; i++) {
    int len = snprintf(id, sizeof id, "node-%zu", i);
    longstraw_rendezvous_add(r, (const uint8_t *)id, (size_t)len, 1.0);
  }
  longstraw_rendezvous_snapshot(r, &s);
  longstraw_rendezvous_free(r);
  return s;
}

int main(void) {
  static const uint8_t secret[LONGSTRAW_SECRET_LEN] = "bench-secret-16";
  const size_t sizes[3] = {10, 100, 1000};
  size_t si, i;
  unsigned sink = 0;
  for (i = 0; i < KEYS; i++) snprintf(keys[i], sizeof keys[i], "key:%012zu", i);
  printf("| n | v1 ns | keyed-v1 ns | extra |\n|---|---|---|---|\n");
  for (si = 0; si < 3; si++) {
    const longstraw_snapshot *s[2];
    double best[2] = {1e18, 1e18};
    int r, which, b;
    s[0] = build(sizes[si], NULL);
    s[1] = build(sizes[si], secret);
    for (r = 0; r < ROUNDS; r++) {
      for (which = 0; which < 2; which++) {
        double t0 = now_ns(), ns;
        for (b = 0; b < BATCH; b++) {
          uint32_t index = 0;
          const uint8_t *id = NULL;
          size_t id_len = 0;
          longstraw_snapshot_owner(s[which], (const uint8_t *)keys[(r * BATCH + b) & (KEYS - 1)], 16, &index, &id,
                                   &id_len);
          sink += index;
        }
        ns = (now_ns() - t0) / BATCH;
        if (ns < best[which]) best[which] = ns;
      }
    }
    printf("| %zu | %.1f | %.1f | %+.1f |\n", sizes[si], best[0], best[1], best[1] - best[0]);
    longstraw_snapshot_free(s[0]);
    longstraw_snapshot_free(s[1]);
  }
  return sink == 12345u ? 1 : 0;
}

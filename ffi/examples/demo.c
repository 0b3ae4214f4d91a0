/* The demo corpus placed through the C API: `make demo-c` prints this and
 * checks it line by line against the Rust reference (examples/corpus.rs). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "longstraw.h"

#define NODES 10
#define KEYS 100000

static void die(const char *what, longstraw_result rc) {
  fprintf(stderr, "demo: %s: %s\n", what, longstraw_result_str((int)rc));
  exit(1);
}

/* Prints node `index` of snapshot `s` (ids are not NUL-terminated). */
static void print_id(const longstraw_snapshot *s, uint32_t index) {
  const uint8_t *id;
  size_t len;
  double weight;
  longstraw_result rc = longstraw_snapshot_node(s, index, &id, &len, &weight);
  if (rc != LONGSTRAW_OK) die("node", rc);
  printf("%.*s", (int)len, (const char *)id);
}

static int same_id(const longstraw_snapshot *a, uint32_t ia, const longstraw_snapshot *b, uint32_t ib) {
  const uint8_t *x, *y;
  size_t xl, yl;
  double w;
  if (longstraw_snapshot_node(a, ia, &x, &xl, &w) != LONGSTRAW_OK) return 0;
  if (longstraw_snapshot_node(b, ib, &y, &yl, &w) != LONGSTRAW_OK) return 0;
  return xl == yl && memcmp(x, y, xl) == 0;
}

int main(void) {
  longstraw_rendezvous *set;
  const longstraw_snapshot *before, *after;
  /* The keys in the packed layout: all bytes, and KEYS + 1 offsets. */
  char *bytes = (char *)malloc((size_t)KEYS * 16);
  uint64_t *offsets = (uint64_t *)malloc((KEYS + 1) * sizeof(uint64_t));
  uint32_t *owners = (uint32_t *)malloc(KEYS * sizeof(uint32_t));
  uint32_t *now = (uint32_t *)malloc(KEYS * sizeof(uint32_t));
  size_t counts[NODES] = {0}, used = 0, moved = 0;
  int i, all_from_3 = 1;
  const int shown[] = {0, 1, 2, 3, 4, 5, 6, 7, 42};
  char id[16];
  longstraw_result rc;

  if (!bytes || !offsets || !owners || !now) return 1;
  if ((rc = longstraw_rendezvous_new(NULL, &set)) != LONGSTRAW_OK) die("new", rc);
  for (i = 0; i < NODES; i++) {
    snprintf(id, sizeof id, "cache-%d", i);
    if ((rc = longstraw_rendezvous_add(set, (const uint8_t *)id, strlen(id), 1.0)) != LONGSTRAW_OK) die("add", rc);
  }
  if ((rc = longstraw_rendezvous_snapshot(set, &before)) != LONGSTRAW_OK) die("snapshot", rc);

  printf("corpus: %d nodes cache-0..cache-9, %d keys user:0..user:99999, seed 0, placement v1\n", NODES, KEYS);
  for (i = 0; i < (int)(sizeof shown / sizeof shown[0]); i++) {
    char key[16];
    uint32_t index, top[3];
    const uint8_t *owner_id;
    size_t owner_len, written, t;
    snprintf(key, sizeof key, "user:%d", shown[i]);
    rc = longstraw_snapshot_owner(before, (const uint8_t *)key, strlen(key), &index, &owner_id, &owner_len);
    if (rc != LONGSTRAW_OK) die("owner", rc);
    rc = longstraw_snapshot_top_k(before, (const uint8_t *)key, strlen(key), top, 3, &written);
    if (rc != LONGSTRAW_OK) die("top_k", rc);
    printf("%s -> %.*s (top 3:", key, (int)owner_len, (const char *)owner_id);
    for (t = 0; t < written; t++) {
      printf(" ");
      print_id(before, top[t]);
    }
    printf(")\n");
  }

  offsets[0] = 0;
  for (i = 0; i < KEYS; i++) {
    used += (size_t)sprintf(bytes + used, "user:%d", i);
    offsets[i + 1] = used;
  }
  rc = longstraw_snapshot_owners(before, (const uint8_t *)bytes, used, offsets, KEYS + 1, owners, KEYS);
  if (rc != LONGSTRAW_OK) die("owners", rc);
  for (i = 0; i < KEYS; i++) counts[owners[i]]++;
  for (i = 0; i < NODES; i++) {
    print_id(before, (uint32_t)i);
    printf(" owns %zu\n", counts[i]);
  }

  if ((rc = longstraw_rendezvous_remove(set, (const uint8_t *)"cache-3", 7)) != LONGSTRAW_OK) die("remove", rc);
  if ((rc = longstraw_rendezvous_snapshot(set, &after)) != LONGSTRAW_OK) die("snapshot", rc);
  rc = longstraw_snapshot_owners(after, (const uint8_t *)bytes, used, offsets, KEYS + 1, now, KEYS);
  if (rc != LONGSTRAW_OK) die("owners", rc);
  for (i = 0; i < KEYS; i++) {
    if (!same_id(before, owners[i], after, now[i])) {
      moved++;
      if (!same_id(before, owners[i], before, 3)) all_from_3 = 0;
    }
  }
  printf("remove cache-3: %zu keys moved, all from cache-3: %s\n", moved, all_from_3 ? "true" : "false");

  longstraw_snapshot_free(before);
  longstraw_snapshot_free(after);
  longstraw_rendezvous_free(set);
  free(bytes);
  free(offsets);
  free(owners);
  free(now);
  return 0;
}

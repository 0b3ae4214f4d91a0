/* Lookups racing membership changes on one shared longstraw_rendezvous, in
 * each placement mode: flat, then a partition table, then a skeleton.
 *
 * Readers take snapshots, look keys up and check every answer against the
 * snapshot it came from (the owner's id bytes are readable and match the
 * snapshot's node, top-k starts with the owner, a held snapshot never
 * changes), while a writer adds, removes and reweights nodes. Built with
 * -fsanitize=thread and run under valgrind's helgrind by `make test-c`.
 *
 * usage: test_threads [rounds] */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define READERS 3
#define BASE_NODES 12

/* The set under test (one handle type for every mode). */
static longstraw_rendezvous *shared;
static int rounds = 300;
static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;
static int thread_failures = 0;

static void fail(const char *what, longstraw_result rc) {
  pthread_mutex_lock(&report_lock);
  thread_failures++;
  fprintf(stderr, "test_threads: %s: %d (%s)\n", what, (int)rc, longstraw_result_str((int)rc));
  pthread_mutex_unlock(&report_lock);
}

static void node_name(char *buf, size_t cap, const char *prefix, int i) { snprintf(buf, cap, "%s-%d", prefix, i); }

static void *writer(void *arg) {
  char id[32];
  int i;
  longstraw_result rc;
  (void)arg;
  for (i = 0; i < rounds; i++) {
    node_name(id, sizeof id, "extra", i);
    if ((rc = longstraw_rendezvous_add(shared, (const uint8_t *)id, strlen(id), 1.0 + (i % 3))) != LONGSTRAW_OK)
      fail("add", rc);
    node_name(id, sizeof id, "node", i % BASE_NODES);
    if ((rc = longstraw_rendezvous_set_weight(shared, (const uint8_t *)id, strlen(id), (i % 2) ? 0.0 : 2.0)) != LONGSTRAW_OK)
      fail("set_weight", rc);
    if ((rc = longstraw_rendezvous_remove(shared, (const uint8_t *)id, strlen(id))) != LONGSTRAW_OK) fail("remove", rc);
    if ((rc = longstraw_rendezvous_add(shared, (const uint8_t *)id, strlen(id), 1.0)) != LONGSTRAW_OK) fail("re-add", rc);
    node_name(id, sizeof id, "extra", i);
    if ((rc = longstraw_rendezvous_remove(shared, (const uint8_t *)id, strlen(id))) != LONGSTRAW_OK)
      fail("remove extra", rc);
  }
  return NULL;
}

/* Checks one lookup against the snapshot it came from; returns the owner. */
static uint32_t check_lookup(const longstraw_snapshot *s, const char *key) {
  uint32_t index = 0, top[3];
  const uint8_t *id = NULL, *node_id = NULL;
  size_t id_len = 0, node_len = 0, written = 0, n = 0;
  double weight = 0;
  longstraw_result rc = longstraw_snapshot_owner(s, (const uint8_t *)key, strlen(key), &index, &id, &id_len);
  if (rc == LONGSTRAW_NO_ELIGIBLE_NODE) return UINT32_MAX;
  if (rc != LONGSTRAW_OK) {
    fail("owner", rc);
    return UINT32_MAX;
  }
  if ((rc = longstraw_snapshot_len(s, &n)) != LONGSTRAW_OK || index >= n) fail("owner index in range", rc);
  if ((rc = longstraw_snapshot_node(s, index, &node_id, &node_len, &weight)) != LONGSTRAW_OK) fail("node", rc);
  if (node_id != id || node_len != id_len || weight <= 0.0 || memcmp(id, node_id, id_len) != 0)
    fail("owner id matches its snapshot node", LONGSTRAW_INTERNAL_ERROR);
  if ((rc = longstraw_snapshot_top_k(s, (const uint8_t *)key, strlen(key), top, 3, &written)) != LONGSTRAW_OK ||
      written == 0 || top[0] != index)
    fail("top_k starts with the owner", rc);
  return index;
}

static void *reader(void *arg) {
  int r, k;
  char key[32];
  uint32_t first[16];
  (void)arg;
  for (r = 0; r < rounds; r++) {
    const longstraw_snapshot *s = NULL;
    size_t len = 0;
    longstraw_result rc = longstraw_rendezvous_snapshot(shared, &s);
    if (rc != LONGSTRAW_OK) {
      fail("snapshot", rc);
      continue;
    }
    for (k = 0; k < 16; k++) {
      node_name(key, sizeof key, "user", k * 7 + r);
      first[k] = check_lookup(s, key);
    }
    /* The writer keeps going; a held snapshot answers exactly as before. */
    if ((rc = longstraw_rendezvous_len(shared, &len)) != LONGSTRAW_OK) fail("len", rc);
    for (k = 0; k < 16; k++) {
      node_name(key, sizeof key, "user", k * 7 + r);
      if (check_lookup(s, key) != first[k]) fail("held snapshot changed its answer", LONGSTRAW_INTERNAL_ERROR);
    }
    longstraw_snapshot_free(s);
  }
  return NULL;
}

/* Races the readers against the writer on one set of BASE_NODES nodes. */
static void race(const char *name, longstraw_rendezvous *set) {
  pthread_t w, readers[READERS];
  size_t len = 0;
  int i;
  shared = set;
  CHECK(pthread_create(&w, NULL, writer, NULL) == 0);
  for (i = 0; i < READERS; i++) CHECK(pthread_create(&readers[i], NULL, reader, NULL) == 0);
  CHECK(pthread_join(w, NULL) == 0);
  for (i = 0; i < READERS; i++) CHECK(pthread_join(readers[i], NULL) == 0);
  CHECK(thread_failures == 0);
  CHECK_OK(longstraw_rendezvous_len(shared, &len));
  CHECK(len == BASE_NODES);
  longstraw_rendezvous_free(shared);
  printf("test_threads: %s: %d readers and 1 writer, %d rounds each\n", name, READERS, rounds);
}

int main(int argc, char **argv) {
  longstraw_rendezvous *r = NULL;
  longstraw_rendezvous *t = NULL;
  longstraw_rendezvous *sk = NULL;
  const longstraw_snapshot *members = NULL;
  char id[32];
  int i;
  if (argc > 1) rounds = atoi(argv[1]);
  CHECK_OK(new_flat(0, NULL, 0, LONGSTRAW_PLACEMENT_VERSION, &r));
  for (i = 0; i < BASE_NODES; i++) {
    node_name(id, sizeof id, "node", i);
    CHECK_OK(longstraw_rendezvous_add(r, (const uint8_t *)id, strlen(id), 1.0));
  }
  CHECK_OK(longstraw_rendezvous_snapshot(r, &members));
  CHECK_OK(new_table(members, 8, 3, 0, 0.0, &t));
  CHECK_OK(new_skeleton(members, 1, 2, &sk));
  longstraw_snapshot_free(members);
  race("flat", r);
  race("table", t);
  race("skeleton", sk);
  return check_report("test_threads");
}

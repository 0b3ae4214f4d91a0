/* The C API's contract: every error code, NULL handling, (NULL, 0) slices,
 * nothing written on failure, id lifetimes, versions.
 *
 * usage: test_api EXPECTED_VERSION   (the version in Cargo.toml, e.g. 0.1.0) */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#define S(str) (const uint8_t *)(str), strlen(str)

/* The newest result code; update when one is added. */
#define LONGSTRAW_LAST_CODE LONGSTRAW_WRONG_MODE

/* Two 16-byte ids ("collide!" after 8 varying bytes) whose node hashes are
 * equal under seed 0 (0x67dd5e95fcf23328). Found once, offline, by Brent's
 * cycle search on x -> node_hash(x as 8 bytes + "collide!", seed 0): about
 * 2^33 hashes, two minutes on one core. */
static const uint8_t collide_a[16] = {0xe7, 0x00, 0x2b, 0xcb, 0xbd, 0x9f, 0x33, 0xac, 0x63, 0x6f, 0x6c, 0x6c, 0x69, 0x64, 0x65, 0x21};
static const uint8_t collide_b[16] = {0x76, 0x64, 0xc1, 0x41, 0xea, 0x2e, 0x95, 0x48, 0x63, 0x6f, 0x6c, 0x6c, 0x69, 0x64, 0x65, 0x21};

static longstraw_rendezvous *new_set(uint64_t seed) {
  longstraw_rendezvous *r = NULL;
  CHECK_OK(new_flat(seed, NULL, 0, LONGSTRAW_PLACEMENT_VERSION, &r));
  CHECK(r != NULL);
  return r;
}

static const longstraw_snapshot *snap(const longstraw_rendezvous *r) {
  const longstraw_snapshot *s = NULL;
  CHECK_OK(longstraw_rendezvous_snapshot(r, &s));
  CHECK(s != NULL);
  return s;
}

static void test_versions(const char *expected) {
  char header[32];
  uint32_t major = 0, minor = 0, patch = 0;
  snprintf(header, sizeof header, "%d.%d.%d", LONGSTRAW_VERSION_MAJOR, LONGSTRAW_VERSION_MINOR,
           LONGSTRAW_VERSION_PATCH);
  CHECK(strcmp(header, expected) == 0);
  CHECK(strcmp(longstraw_version_string(), expected) == 0);
  CHECK(sscanf(expected, "%u.%u.%u", &major, &minor, &patch) == 3);
  CHECK(longstraw_version() == major * 10000 + minor * 100 + patch);
  CHECK(longstraw_version() == LONGSTRAW_VERSION_NUMBER);
  CHECK(longstraw_placement_version() == LONGSTRAW_PLACEMENT_VERSION);
  CHECK(LONGSTRAW_PLACEMENT_VERSION == 1);
}

static void test_result_strings(void) {
  int code;
  for (code = LONGSTRAW_OK; code <= LONGSTRAW_LAST_CODE; code++) {
    const char *text = longstraw_result_str(code);
    CHECK(text != NULL && strlen(text) > 5);
    if (code > 0) CHECK(strcmp(text, longstraw_result_str(code - 1)) != 0);
  }
  CHECK(strcmp(longstraw_result_str(-1), "unknown longstraw_result code") == 0);
  CHECK(strcmp(longstraw_result_str(LONGSTRAW_LAST_CODE + 1), "unknown longstraw_result code") == 0);
  CHECK(strstr(longstraw_result_str(LONGSTRAW_INVALID_PARAMETER), "invalid parameter") != NULL);
  CHECK(strstr(longstraw_result_str(LONGSTRAW_INVALID_DOMAIN), "domain") != NULL);
  CHECK(strstr(longstraw_result_str(LONGSTRAW_NO_ELIGIBLE_NODE), "no eligible node") != NULL);
}

static void test_free_null(void) {
  longstraw_rendezvous_free(NULL);
  longstraw_snapshot_free(NULL);
  longstraw_rendezvous_free(NULL);
  longstraw_rendezvous_free(NULL);
}

static void test_null_arguments(void) {
  longstraw_rendezvous *r = new_set(0);
  const longstraw_snapshot *s;
  uint32_t index = 77, out[4];
  const uint8_t *id = NULL;
  size_t len = 77, written = 77;
  double weight = 77;
  const char *name = NULL;
  uint64_t u = 77;
  uint32_t p = 77;

  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, new_flat(0, NULL, 0, 1, NULL));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_add(NULL, S("a"), 1.0));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_add(r, NULL, 3, 1.0));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_remove(NULL, S("a")));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_remove(r, NULL, 1));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_set_weight(NULL, S("a"), 1.0));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_len(NULL, &len));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_len(r, NULL));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_snapshot(NULL, &s));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_snapshot(r, NULL));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_add_batch(NULL, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_add_batch(r, NULL, 2, NULL, 0, NULL, 0, NULL, 0, NULL, 0));

  CHECK_OK(longstraw_rendezvous_add(r, S("a"), 1.0));
  s = snap(r);
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_snapshot_owner(NULL, S("k"), &index, &id, &len));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_snapshot_owner(s, NULL, 1, &index, &id, &len));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_snapshot_owner(s, S("k"), NULL, &id, &len));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_snapshot_owner(s, S("k"), &index, NULL, &len));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_snapshot_owner(s, S("k"), &index, &id, NULL));
  /* Nothing was written by any failed call. */
  CHECK(index == 77 && id == NULL && len == 77);
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_snapshot_top_k(s, S("k"), NULL, 2, &written));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_snapshot_top_k(s, S("k"), out, 2, NULL));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_snapshot_rank(s, S("k"), NULL, 2, &written));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_snapshot_owners(s, NULL, 4, NULL, 0, NULL, 0));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_snapshot_owners(NULL, NULL, 0, NULL, 0, NULL, 0));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_snapshot_node(s, 0, NULL, &len, &weight));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_snapshot_node(s, 0, &id, &len, NULL));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_snapshot_index_of(s, S("a"), NULL));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_snapshot_len(NULL, &len));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_snapshot_eligible(s, NULL));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_snapshot_generation(NULL, &u));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_snapshot_seed(NULL, &u));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_snapshot_placement(NULL, &p));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_snapshot_backend(NULL, &name));
  CHECK(written == 77 && weight == 77 && u == 77 && p == 77 && name == NULL);
  longstraw_snapshot_free(s);
  longstraw_rendezvous_free(r);
}

static void test_empty_slices_and_k_zero(void) {
  longstraw_rendezvous *r = new_set(0);
  const longstraw_snapshot *s;
  uint32_t index = 99, out[3] = {99, 99, 99};
  const uint8_t *id = NULL;
  size_t len = 0, written = 99;
  uint64_t one_offset = 0;

  /* (NULL, 0) batches are empty, not errors. */
  CHECK_OK(longstraw_rendezvous_add_batch(r, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0));
  CHECK_OK(longstraw_rendezvous_add_batch(r, NULL, 0, &one_offset, 1, NULL, 0, NULL, 0, NULL, 0));
  CHECK_OK(longstraw_rendezvous_len(r, &len));
  CHECK(len == 0);
  CHECK_OK(longstraw_rendezvous_add(r, S("a"), 1.0));
  CHECK_OK(longstraw_rendezvous_add(r, S("b"), 1.0));
  s = snap(r);
  /* (NULL, 0) is the empty key. */
  CHECK_OK(longstraw_snapshot_owner(s, NULL, 0, &index, &id, &len));
  CHECK(index < 2 && len == 1);
  /* k = 0 writes nothing and is not an error, with or without a buffer. */
  CHECK_OK(longstraw_snapshot_top_k(s, S("k"), NULL, 0, &written));
  CHECK(written == 0);
  written = 99;
  CHECK_OK(longstraw_snapshot_top_k(s, S("k"), out, 0, &written));
  CHECK(written == 0 && out[0] == 99);
  /* k larger than the set writes the whole ranking. */
  CHECK_OK(longstraw_snapshot_top_k(s, S("k"), out, 3, &written));
  CHECK(written == 2 && out[0] != out[1] && out[2] == 99);
  /* An empty batch needs no output. */
  CHECK_OK(longstraw_snapshot_owners(s, NULL, 0, NULL, 0, NULL, 0));
  CHECK_OK(longstraw_snapshot_owners(s, NULL, 0, &one_offset, 1, NULL, 0));
  longstraw_snapshot_free(s);
  longstraw_rendezvous_free(r);
}

static void test_invalid_ids_and_weights(void) {
  longstraw_rendezvous *r = new_set(0);
  uint8_t *long_id = (uint8_t *)calloc(LONGSTRAW_MAX_NODE_ID_LEN + 1, 1);
  size_t len = 0;
  double bad[7];
  int i;
  bad[0] = nan("");
  bad[1] = -0.0;
  bad[2] = -1.0;
  bad[3] = INFINITY;
  bad[4] = 1e-30; /* below 2^-64 */
  bad[5] = 1e30;  /* above 2^64 */
  bad[6] = 5e-324; /* subnormal */

  CHECK_RC(LONGSTRAW_INVALID_NODE_ID, longstraw_rendezvous_add(r, NULL, 0, 1.0));
  CHECK_RC(LONGSTRAW_INVALID_NODE_ID, longstraw_rendezvous_add(r, (const uint8_t *)"", 0, 1.0));
  CHECK_RC(LONGSTRAW_INVALID_NODE_ID, longstraw_rendezvous_add(r, long_id, LONGSTRAW_MAX_NODE_ID_LEN + 1, 1.0));
  CHECK_OK(longstraw_rendezvous_add(r, long_id, LONGSTRAW_MAX_NODE_ID_LEN, 1.0));
  for (i = 0; i < 7; i++) CHECK_RC(LONGSTRAW_INVALID_WEIGHT, longstraw_rendezvous_add(r, S("w"), bad[i]));
  CHECK_OK(longstraw_rendezvous_add(r, S("w"), 0.0)); /* 0 is valid: drained */
  for (i = 0; i < 7; i++) CHECK_RC(LONGSTRAW_INVALID_WEIGHT, longstraw_rendezvous_set_weight(r, S("w"), bad[i]));
  CHECK_OK(longstraw_rendezvous_len(r, &len));
  CHECK(len == 2); /* failed adds changed nothing */
  free(long_id);
  longstraw_rendezvous_free(r);
}

static void test_membership_errors(void) {
  longstraw_rendezvous *r = new_set(0);
  const longstraw_snapshot *s;
  uint32_t index = 5;
  size_t len = 0;
  /* "a", "b", "a": the batch fails on the duplicate and adds nothing. */
  const uint8_t ids[] = {'a', 'b', 'a'};
  uint64_t offsets[] = {0, 1, 2, 3};
  double weights[] = {1.0, 1.0};

  CHECK_RC(LONGSTRAW_DUPLICATE_NODE, longstraw_rendezvous_add_batch(r, ids, 3, offsets, 4, NULL, 0, NULL, 0, NULL, 0));
  CHECK_OK(longstraw_rendezvous_len(r, &len));
  CHECK(len == 0);
  CHECK_RC(LONGSTRAW_LENGTH_MISMATCH, longstraw_rendezvous_add_batch(r, ids, 2, offsets, 3, weights, 1, NULL, 0, NULL, 0));
  offsets[1] = 2;
  offsets[2] = 1;
  CHECK_RC(LONGSTRAW_BAD_OFFSETS, longstraw_rendezvous_add_batch(r, ids, 2, offsets, 3, NULL, 0, NULL, 0, NULL, 0));
  CHECK_OK(longstraw_rendezvous_add(r, S("a"), 1.0));
  CHECK_RC(LONGSTRAW_DUPLICATE_NODE, longstraw_rendezvous_add(r, S("a"), 2.0));
  CHECK_RC(LONGSTRAW_UNKNOWN_NODE, longstraw_rendezvous_remove(r, S("zz")));
  CHECK_RC(LONGSTRAW_UNKNOWN_NODE, longstraw_rendezvous_set_weight(r, S("zz"), 1.0));
  CHECK_OK(longstraw_rendezvous_add(r, collide_a, 16, 1.0));
  CHECK_RC(LONGSTRAW_HASH_COLLISION, longstraw_rendezvous_add(r, collide_b, 16, 1.0));
  s = snap(r);
  CHECK_RC(LONGSTRAW_UNKNOWN_NODE, longstraw_snapshot_index_of(s, S("zz"), &index));
  CHECK(index == 5);
  CHECK_OK(longstraw_snapshot_index_of(s, S("a"), &index));
  CHECK(index == 0);
  longstraw_snapshot_free(s);
  longstraw_rendezvous_free(r);

  /* Under another seed the same two ids hash differently and coexist. */
  r = new_set(1);
  CHECK_OK(longstraw_rendezvous_add(r, collide_a, 16, 1.0));
  CHECK_OK(longstraw_rendezvous_add(r, collide_b, 16, 1.0));
  longstraw_rendezvous_free(r);
}

static void test_placement_versions(void) {
  longstraw_rendezvous *r = (longstraw_rendezvous *)&r; /* must stay untouched */
  uint32_t p = 0;
  const longstraw_snapshot *s;
  CHECK_RC(LONGSTRAW_UNKNOWN_PLACEMENT, new_flat(0, NULL, 0, 0, &r));
  CHECK_RC(LONGSTRAW_UNKNOWN_PLACEMENT, new_flat(0, NULL, 0, 2, &r));
  CHECK(r == (longstraw_rendezvous *)&r);
  r = new_set(42);
  s = snap(r);
  CHECK_OK(longstraw_snapshot_placement(s, &p));
  CHECK(p == 1);
  longstraw_snapshot_free(s);
  longstraw_rendezvous_free(r);
}

static void test_empty_and_drained(void) {
  longstraw_rendezvous *r = new_set(0);
  const longstraw_snapshot *s = snap(r);
  uint32_t index = 9, out[2] = {9, 9};
  const uint8_t *id = NULL;
  size_t len = 9, written = 9;
  const uint8_t keys[] = "ab";
  uint64_t offsets[] = {0, 1, 2};

  CHECK_RC(LONGSTRAW_NO_ELIGIBLE_NODE, longstraw_snapshot_owner(s, S("k"), &index, &id, &len));
  CHECK(index == 9 && id == NULL && len == 9);
  CHECK_RC(LONGSTRAW_NO_ELIGIBLE_NODE, longstraw_snapshot_owners(s, keys, 2, offsets, 3, out, 2));
  CHECK(out[0] == 9 && out[1] == 9);
  /* top-k and rank of an empty set are empty, not errors. */
  CHECK_OK(longstraw_snapshot_top_k(s, S("k"), out, 2, &written));
  CHECK(written == 0);
  CHECK_OK(longstraw_snapshot_rank(s, S("k"), NULL, 0, &written));
  CHECK(written == 0);
  longstraw_snapshot_free(s);

  /* Every node drained: same as empty for ownership. */
  CHECK_OK(longstraw_rendezvous_add(r, S("a"), 1.0));
  CHECK_OK(longstraw_rendezvous_add(r, S("b"), 1.0));
  CHECK_OK(longstraw_rendezvous_set_weight(r, S("a"), 0.0));
  CHECK_OK(longstraw_rendezvous_set_weight(r, S("b"), 0.0));
  s = snap(r);
  CHECK_RC(LONGSTRAW_NO_ELIGIBLE_NODE, longstraw_snapshot_owner(s, S("k"), &index, &id, &len));
  CHECK_OK(longstraw_snapshot_eligible(s, &len));
  CHECK(len == 0);
  longstraw_snapshot_free(s);
  /* One node back: it owns everything. */
  CHECK_OK(longstraw_rendezvous_set_weight(r, S("b"), 3.0));
  s = snap(r);
  CHECK_OK(longstraw_snapshot_owner(s, S("k"), &index, &id, &len));
  CHECK(index == 1 && len == 1 && id[0] == 'b');
  longstraw_snapshot_free(s);
  longstraw_rendezvous_free(r);
}

static void test_buffers_and_offsets(void) {
  longstraw_rendezvous *r = new_set(7);
  const longstraw_snapshot *s;
  uint32_t out[8], index = 0;
  uint64_t words[4] = {0, 1, 2, 3};
  const uint8_t keys[] = "abc";
  const uint8_t *id;
  size_t written = 9, len;
  double weight;
  uint64_t offsets_bad[] = {0, 2, 1};
  uint64_t offsets_past[] = {0, 4};
  uint64_t offsets_ok[] = {0, 1, 3};

  CHECK_OK(longstraw_rendezvous_add(r, S("n1"), 1.0));
  CHECK_OK(longstraw_rendezvous_add(r, S("n2"), 2.0));
  CHECK_OK(longstraw_rendezvous_add(r, S("n3"), 0.0));
  s = snap(r);
  /* rank needs room for every eligible node (2 here, not 3). */
  CHECK_RC(LONGSTRAW_BUFFER_TOO_SMALL, longstraw_snapshot_rank(s, S("k"), out, 1, &written));
  CHECK(written == 9);
  CHECK_OK(longstraw_snapshot_rank(s, S("k"), out, 2, &written));
  CHECK(written == 2);
  CHECK_RC(LONGSTRAW_BAD_OFFSETS, longstraw_snapshot_owners(s, keys, 3, offsets_bad, 3, out, 2));
  CHECK_RC(LONGSTRAW_BAD_OFFSETS, longstraw_snapshot_owners(s, keys, 3, offsets_past, 2, out, 1));
  CHECK_RC(LONGSTRAW_LENGTH_MISMATCH, longstraw_snapshot_owners(s, keys, 3, offsets_ok, 3, out, 3));
  CHECK_RC(LONGSTRAW_LENGTH_MISMATCH, longstraw_snapshot_owners(s, keys, 3, offsets_ok, 3, out, 1));
  CHECK_OK(longstraw_snapshot_owners(s, keys, 3, offsets_ok, 3, out, 2));
  CHECK(out[0] < 2 && out[1] < 2);
  /* A uint64_t array at an odd address. */
  CHECK_RC(LONGSTRAW_MISALIGNED_POINTER,
           longstraw_snapshot_owners(s, keys, 3, (const uint64_t *)((const uint8_t *)words + 1), 2, out, 1));
  CHECK_RC(LONGSTRAW_MISALIGNED_POINTER,
           longstraw_snapshot_top_k(s, S("k"), (uint32_t *)((uint8_t *)out + 1), 2, &written));
  CHECK_RC(LONGSTRAW_INDEX_OUT_OF_RANGE, longstraw_snapshot_node(s, 3, &id, &len, &weight));
  CHECK_OK(longstraw_snapshot_node(s, 1, &id, &len, &weight));
  CHECK(len == 2 && memcmp(id, "n2", 2) == 0 && weight == 2.0);
  CHECK_OK(longstraw_snapshot_index_of(s, S("n3"), &index));
  CHECK(index == 2);
  longstraw_snapshot_free(s);
  longstraw_rendezvous_free(r);
}

/* An id returned by a lookup outlives the node's removal and the set itself,
 * for as long as its snapshot lives. */
static void test_id_lifetime(void) {
  longstraw_rendezvous *r = new_set(0);
  const longstraw_snapshot *before, *after;
  uint32_t index;
  const uint8_t *id;
  size_t len, n;
  uint64_t gen0, gen1;
  char owner[32];

  CHECK_OK(longstraw_rendezvous_add(r, S("cache-a"), 1.0));
  CHECK_OK(longstraw_rendezvous_add(r, S("cache-b"), 1.0));
  before = snap(r);
  CHECK_OK(longstraw_snapshot_owner(before, S("user:42"), &index, &id, &len));
  CHECK(len < sizeof owner);
  memcpy(owner, id, len);
  owner[len] = '\0';
  CHECK_OK(longstraw_rendezvous_remove(r, id, len));
  after = snap(r);
  CHECK_OK(longstraw_snapshot_len(after, &n));
  CHECK(n == 1);
  CHECK_OK(longstraw_snapshot_generation(before, &gen0));
  CHECK_OK(longstraw_snapshot_generation(after, &gen1));
  CHECK(gen1 == gen0 + 1);
  longstraw_rendezvous_free(r);
  /* `before` still answers for the old membership, with a live id. */
  CHECK(len == strlen(owner) && memcmp(id, owner, len) == 0);
  CHECK_OK(longstraw_snapshot_len(before, &n));
  CHECK(n == 2);
  longstraw_snapshot_free(before);
  CHECK_OK(longstraw_snapshot_owner(after, S("user:42"), &index, &id, &len));
  CHECK(index == 0 && memcmp(id, owner, len) != 0);
  longstraw_snapshot_free(after);
}

static void test_snapshot_accessors(void) {
  longstraw_rendezvous *r = new_set(12345);
  const longstraw_snapshot *s = snap(r);
  uint64_t seed = 0;
  const char *backend = NULL;
  CHECK_OK(longstraw_snapshot_seed(s, &seed));
  CHECK(seed == 12345);
  CHECK_OK(longstraw_snapshot_backend(s, &backend));
  CHECK(backend != NULL && strlen(backend) > 0);
  printf("test_api: backend %s\n", backend);
  longstraw_snapshot_free(s);
  longstraw_rendezvous_free(r);
}

/* LONGSTRAW_BACKEND is read once per process, so the check runs in a fresh
 * process: this program again, with the variable set. */
/* n nodes "n0".."n{n-1}", labelled "zone-{i % zones}" when zones > 0. */
static longstraw_rendezvous *numbered(size_t n, size_t zones) {
  longstraw_rendezvous *r = new_set(0);
  char id[32], zone[32];
  size_t i;
  for (i = 0; i < n; i++) {
    snprintf(id, sizeof id, "n%zu", i);
    if (zones) {
      snprintf(zone, sizeof zone, "zone-%zu", i % zones);
      CHECK_OK(longstraw_rendezvous_add_in_domain(r, S(id), 1.0, S(zone)));
    } else {
      CHECK_OK(longstraw_rendezvous_add(r, S(id), 1.0));
    }
  }
  return r;
}

static void test_domains(void) {
  longstraw_rendezvous *r = numbered(12, 3);
  const longstraw_snapshot *s;
  uint8_t *long_label = (uint8_t *)calloc(LONGSTRAW_MAX_NODE_ID_LEN + 1, 1);
  uint32_t out[8] = {99, 99, 99, 99, 99, 99, 99, 99}, top[12];
  const uint8_t *d = NULL;
  size_t written = 99, d_len = 99, len = 0, i, j, top_n = 0;
  char key[32];
  uint64_t offs[3] = {0, 1, 2}, label_offs[3] = {0, 1, 2}, bad_label_offs[2] = {0, 1};

  /* Labels: too long is an error naming the label; empty means none. */
  CHECK_RC(LONGSTRAW_INVALID_DOMAIN, longstraw_rendezvous_add_in_domain(r, S("x"), 1.0, long_label, LONGSTRAW_MAX_NODE_ID_LEN + 1));
  CHECK_RC(LONGSTRAW_INVALID_DOMAIN, longstraw_rendezvous_set_domain(r, S("n0"), long_label, LONGSTRAW_MAX_NODE_ID_LEN + 1));
  CHECK_RC(LONGSTRAW_UNKNOWN_NODE, longstraw_rendezvous_set_domain(r, S("zz"), S("zone-0")));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_set_domain(r, S("n0"), NULL, 3));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_add_in_domain(NULL, S("x"), 1.0, S("z")));
  /* A batch needs one label per node; on error nothing is added. */
  CHECK_RC(LONGSTRAW_LENGTH_MISMATCH, longstraw_rendezvous_add_batch(r, (const uint8_t *)"pq", 2, offs, 3, NULL, 0,
                                                                                 (const uint8_t *)"z", 1, bad_label_offs, 2));
  CHECK_RC(LONGSTRAW_BAD_OFFSETS, longstraw_rendezvous_add_batch(r, (const uint8_t *)"pq", 2, offs, 3, NULL, 0,
                                                                             (const uint8_t *)"z", 1, label_offs, 3));
  CHECK_OK(longstraw_rendezvous_len(r, &len));
  CHECK(len == 12);
  s = snap(r);
  /* At most one node per zone, replica 0 is the owner, the rest follow the
   * ranking; 3 zones give 3 replicas however many are asked for. */
  for (i = 0; i < 200; i++) {
    uint32_t owner = 0;
    const uint8_t *id;
    size_t id_len;
    snprintf(key, sizeof key, "key-%zu", i);
    CHECK_OK(longstraw_snapshot_top_k_distinct(s, S(key), out, 8, &written));
    CHECK(written == 3);
    CHECK_OK(longstraw_snapshot_owner(s, S(key), &owner, &id, &id_len));
    CHECK(out[0] == owner);
    CHECK(out[0] % 3 != out[1] % 3 && out[1] % 3 != out[2] % 3 && out[0] % 3 != out[2] % 3);
    /* firstn: each pick is the first node of its zone in the full ranking. */
    CHECK_OK(longstraw_snapshot_top_k(s, S(key), top, 12, &top_n));
    for (j = 0; j < 3; j++) {
      /* Every node ranked before pick j is in a zone an earlier pick took
       * (node n{i} is in zone i % 3, and index i is node n{i}). */
      size_t at = 0, p;
      while (at < top_n && top[at] != out[j]) {
        int taken = 0;
        for (p = 0; p < j; p++) taken |= top[at] % 3 == out[p] % 3;
        CHECK(taken);
        at++;
      }
      CHECK(at < top_n);
    }
  }
  /* k = 0 and (NULL, 0) are fine; nothing written on failure. */
  written = 99;
  CHECK_OK(longstraw_snapshot_top_k_distinct(s, S("k"), NULL, 0, &written));
  CHECK(written == 0);
  written = 99;
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_snapshot_top_k_distinct(s, S("k"), NULL, 2, &written));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_snapshot_top_k_distinct(NULL, S("k"), out, 2, &written));
  CHECK(written == 99);
  /* Labels read back; index out of range writes nothing. */
  CHECK_OK(longstraw_snapshot_domain(s, 4, &d, &d_len));
  CHECK(d_len == 6 && memcmp(d, "zone-1", 6) == 0);
  d = NULL;
  d_len = 99;
  CHECK_RC(LONGSTRAW_INDEX_OUT_OF_RANGE, longstraw_snapshot_domain(s, 12, &d, &d_len));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_snapshot_domain(s, 0, &d, NULL));
  CHECK(d == NULL && d_len == 99);
  longstraw_snapshot_free(s);

  /* Clearing labels makes every node its own domain: distinct = top_k. */
  for (i = 0; i < 12; i++) {
    char id[32];
    snprintf(id, sizeof id, "n%zu", i);
    CHECK_OK(longstraw_rendezvous_set_domain(r, S(id), NULL, 0));
  }
  s = snap(r);
  CHECK_OK(longstraw_snapshot_domain(s, 4, &d, &d_len));
  CHECK(d == NULL && d_len == 0);
  CHECK_OK(longstraw_snapshot_top_k_distinct(s, S("key-1"), out, 5, &written));
  CHECK_OK(longstraw_snapshot_top_k(s, S("key-1"), top, 5, &top_n));
  CHECK(written == 5 && top_n == 5 && memcmp(out, top, 5 * sizeof(uint32_t)) == 0);
  longstraw_snapshot_free(s);
  longstraw_rendezvous_free(r);
  free(long_label);
}

static void test_table_api(void) {
  longstraw_rendezvous *r = numbered(20, 0);
  const longstraw_snapshot *members = snap(r), *s = NULL;
  longstraw_rendezvous *t = (longstraw_rendezvous *)0x1, *t2 = NULL;
  uint8_t bits = 99;
  size_t replicas = 99, len = 0;
  uint32_t flags = 99, partition = 0;
  double balance = 99.0;
  longstraw_mode mode = LONGSTRAW_MODE_FLAT;

  /* Bad shapes and flags are LONGSTRAW_INVALID_PARAMETER; nothing written. */
  CHECK_RC(LONGSTRAW_INVALID_PARAMETER, new_table(members, LONGSTRAW_MAX_PARTITION_BITS + 1, 1, 0, 0.0, &t));
  CHECK_RC(LONGSTRAW_INVALID_PARAMETER, new_table(members, 8, 0, 0, 0.0, &t));
  CHECK_RC(LONGSTRAW_INVALID_PARAMETER, new_table(members, 8, LONGSTRAW_MAX_REPLICAS + 1, 0, 0.0, &t));
  CHECK_RC(LONGSTRAW_INVALID_PARAMETER, new_table(members, 8, 1, 2, 0.0, &t));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, new_table(NULL, 8, 1, 0, 0.0, &t));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, new_table(members, 8, 1, 0, 0.0, NULL));
  CHECK(t == (longstraw_rendezvous *)0x1);
  /* LONGSTRAW_AUTO resolves from the node count (at least 2^10 partitions). */
  CHECK_OK(new_table(members, LONGSTRAW_AUTO, 2, LONGSTRAW_TABLE_DISTINCT_DOMAINS, 0.0, &t));
  CHECK_OK(set_table_shape(t, &bits, &replicas, &flags, &balance));
  CHECK(bits == 11 && replicas == 2 && flags == LONGSTRAW_TABLE_DISTINCT_DOMAINS && balance == 0.0);
  CHECK_OK(longstraw_rendezvous_mode(t, &mode));
  CHECK(mode == LONGSTRAW_MODE_TABLE);
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_mode(t, NULL));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_mode(NULL, &mode));
  /* The table getters on a flat snapshot: LONGSTRAW_WRONG_MODE, with the set's words; nothing written. */
  bits = 99;
  CHECK_RC(LONGSTRAW_WRONG_MODE, longstraw_snapshot_table_shape(members, &bits, &replicas, &flags, &balance));
  CHECK(bits == 99 && strstr(longstraw_last_error_message(), "flat") != NULL);
  CHECK_RC(LONGSTRAW_WRONG_MODE, longstraw_snapshot_partition(members, S("key"), &partition));
  CHECK(partition == 0 && strstr(longstraw_last_error_message(), "partition") != NULL);
  CHECK_RC(LONGSTRAW_WRONG_MODE, longstraw_snapshot_skeleton_shape(members, &bits, &bits));
  CHECK(bits == 99);
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, set_table_shape(t, &bits, NULL, &flags, &balance));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, set_table_shape(NULL, &bits, &replicas, &flags, &balance));
  CHECK_OK(new_table(members, 0, 1, 0, 0.0, &t2));
  CHECK_OK(set_table_shape(t2, &bits, &replicas, &flags, &balance));
  CHECK(bits == 0 && replicas == 1 && flags == 0);
  longstraw_rendezvous_free(t2);

  /* Membership errors as for the rendezvous; a failed change changes nothing. */
  CHECK_RC(LONGSTRAW_DUPLICATE_NODE, longstraw_rendezvous_add(t, S("n1"), 1.0));
  CHECK_RC(LONGSTRAW_INVALID_WEIGHT, longstraw_rendezvous_add(t, S("x"), -1.0));
  CHECK_RC(LONGSTRAW_INVALID_NODE_ID, longstraw_rendezvous_add(t, NULL, 0, 1.0));
  CHECK_RC(LONGSTRAW_UNKNOWN_NODE, longstraw_rendezvous_remove(t, S("zz")));
  CHECK_RC(LONGSTRAW_UNKNOWN_NODE, longstraw_rendezvous_set_weight(t, S("zz"), 1.0));
  CHECK_RC(LONGSTRAW_UNKNOWN_NODE, longstraw_rendezvous_set_domain(t, S("zz"), S("a")));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_add(NULL, S("x"), 1.0));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_snapshot(t, NULL));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_len(NULL, &len));
  CHECK_OK(longstraw_rendezvous_len(t, &len));
  CHECK(len == 20);
  CHECK_OK(longstraw_rendezvous_add_in_domain(t, S("x"), 2.0, S("rack-1")));
  CHECK_OK(longstraw_rendezvous_set_domain(t, S("n3"), S("rack-1")));
  CHECK_OK(longstraw_rendezvous_set_weight(t, S("n4"), 0.0));
  CHECK_OK(longstraw_rendezvous_remove(t, S("n5")));
  CHECK_OK(longstraw_rendezvous_add_batch(t, (const uint8_t *)"yz", 2, (const uint64_t[]){0, 1, 2}, 3, NULL, 0, NULL, 0, NULL, 0));
  CHECK_OK(longstraw_rendezvous_add_batch(t, (const uint8_t *)"uv", 2, (const uint64_t[]){0, 1, 2}, 3, NULL, 0,
                                                (const uint8_t *)"rack-1", 6, (const uint64_t[]){0, 0, 6}, 3));
  CHECK_OK(longstraw_rendezvous_len(t, &len));
  CHECK(len == 24);
  CHECK_OK(longstraw_rendezvous_snapshot(t, &s));
  CHECK_OK(longstraw_snapshot_mode(s, &mode));
  CHECK(mode == LONGSTRAW_MODE_TABLE);
  {
    /* The drained node owns nothing; rack-1 (x, n3, v) appears once in each
     * distinct list; the rendezvous the table came from is untouched. */
    uint32_t out[4], n4 = 0, x = 0, n3 = 0, v = 0;
    size_t written, i, j;
    char key[32];
    CHECK_OK(longstraw_snapshot_index_of(s, S("n4"), &n4));
    CHECK_OK(longstraw_snapshot_index_of(s, S("x"), &x));
    CHECK_OK(longstraw_snapshot_index_of(s, S("n3"), &n3));
    CHECK_OK(longstraw_snapshot_index_of(s, S("v"), &v));
    for (i = 0; i < 300; i++) {
      size_t rack = 0;
      snprintf(key, sizeof key, "key-%zu", i);
      CHECK_OK(longstraw_snapshot_top_k_distinct(s, S(key), out, 4, &written));
      CHECK(written == 4);
      for (j = 0; j < written; j++) {
        CHECK(out[j] != n4);
        rack += out[j] == x || out[j] == n3 || out[j] == v;
      }
      CHECK(rack <= 1);
    }
    CHECK_OK(longstraw_rendezvous_len(r, &len));
    CHECK(len == 20);
  }
  longstraw_snapshot_free(s);
  longstraw_rendezvous_free(t);
  longstraw_snapshot_free(members);
  longstraw_rendezvous_free(r);
}

/* Owners of key-0 .. key-(count-1) on a snapshot, as ids (copied). */
static void owners_of(const longstraw_snapshot *s, size_t count, char (*ids)[16]) {
  size_t i, id_len;
  uint32_t index;
  const uint8_t *id;
  char key[32];
  for (i = 0; i < count; i++) {
    snprintf(key, sizeof key, "key-%zu", i);
    CHECK_OK(longstraw_snapshot_owner(s, S(key), &index, &id, &id_len));
    CHECK(id_len < 16);
    memcpy(ids[i], id, id_len);
    ids[i][id_len] = '\0';
  }
}

/* Removing a node moves exactly its keys; adding one moves keys only to it. */
static void test_table_moves(void) {
  enum { KEYS = 4000 };
  static char before[KEYS][16], after[KEYS][16];
  longstraw_rendezvous *r = numbered(16, 0);
  const longstraw_snapshot *members = snap(r), *s;
  longstraw_rendezvous *t = NULL;
  size_t i, moved = 0;

  CHECK_OK(new_table(members, 12, 2, 0, 0.0, &t));
  CHECK_OK(longstraw_rendezvous_snapshot(t, &s));
  owners_of(s, KEYS, before);
  longstraw_snapshot_free(s);
  CHECK_OK(longstraw_rendezvous_remove(t, S("n7")));
  CHECK_OK(longstraw_rendezvous_snapshot(t, &s));
  owners_of(s, KEYS, after);
  longstraw_snapshot_free(s);
  for (i = 0; i < KEYS; i++) {
    if (strcmp(before[i], "n7") == 0) {
      moved++;
      CHECK(strcmp(after[i], "n7") != 0);
    } else {
      CHECK(strcmp(before[i], after[i]) == 0);
    }
  }
  /* n7 owned about 1/16 of the keys: 250 +- 5 sigma (sigma ~ 15). */
  CHECK(moved > 175 && moved < 325);
  CHECK_OK(longstraw_rendezvous_add(t, S("n7"), 1.0));
  CHECK_OK(longstraw_rendezvous_snapshot(t, &s));
  owners_of(s, KEYS, after);
  longstraw_snapshot_free(s);
  /* Re-adding restores every owner (placement is a function of membership). */
  for (i = 0; i < KEYS; i++) CHECK(strcmp(before[i], after[i]) == 0);
  longstraw_rendezvous_free(t);
  longstraw_snapshot_free(members);
  longstraw_rendezvous_free(r);
}

static void test_skeleton_api(void) {
  longstraw_rendezvous *r = numbered(300, 0);
  const longstraw_snapshot *members = snap(r), *s = NULL, *flat = NULL;
  longstraw_rendezvous *sk = (longstraw_rendezvous *)0x1, *flat_sk = NULL;
  uint8_t fanout_bits = 99, levels = 99;
  size_t len = 0, i, same = 0;
  char key[32];

  CHECK_RC(LONGSTRAW_INVALID_PARAMETER, new_skeleton(members, 7, 1, &sk));
  CHECK_RC(LONGSTRAW_INVALID_PARAMETER, new_skeleton(members, 0, 1, &sk));
  CHECK_RC(LONGSTRAW_INVALID_PARAMETER, new_skeleton(members, 2, 6, &sk));
  CHECK_RC(LONGSTRAW_INVALID_PARAMETER, new_skeleton(members, LONGSTRAW_AUTO, 1, &sk));
  CHECK_RC(LONGSTRAW_INVALID_PARAMETER, new_skeleton(members, 4, LONGSTRAW_AUTO, &sk));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, new_skeleton(NULL, 4, 1, &sk));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, new_skeleton(members, 4, 1, NULL));
  CHECK(sk == (longstraw_rendezvous *)0x1);
  /* 300 nodes: the default is one level of fan-out 64. */
  CHECK_OK(new_skeleton(members, LONGSTRAW_AUTO, LONGSTRAW_AUTO, &sk));
  CHECK_OK(set_skeleton_shape(sk, &fanout_bits, &levels));
  CHECK(fanout_bits == 6 && levels == 1);
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, set_skeleton_shape(sk, NULL, &levels));
  CHECK_RC(LONGSTRAW_DUPLICATE_NODE, longstraw_rendezvous_add(sk, S("n1"), 1.0));
  CHECK_RC(LONGSTRAW_UNKNOWN_NODE, longstraw_rendezvous_remove(sk, S("zz")));
  CHECK_RC(LONGSTRAW_INVALID_WEIGHT, longstraw_rendezvous_set_weight(sk, S("n1"), NAN));
  CHECK_OK(longstraw_rendezvous_add_in_domain(sk, S("x"), 1.0, S("z")));
  CHECK_OK(longstraw_rendezvous_set_domain(sk, S("x"), NULL, 0));
  CHECK_OK(longstraw_rendezvous_remove(sk, S("x")));
  CHECK_OK(longstraw_rendezvous_len(sk, &len));
  CHECK(len == 300);
  /* Levels 0 is flat placement v1: the same owners as the rendezvous. */
  CHECK_OK(new_skeleton(members, 3, 0, &flat_sk));
  CHECK_OK(set_skeleton_shape(flat_sk, &fanout_bits, &levels));
  CHECK(fanout_bits == 0 && levels == 0);
  CHECK_OK(longstraw_rendezvous_snapshot(sk, &s));
  CHECK_OK(longstraw_rendezvous_snapshot(flat_sk, &flat));
  for (i = 0; i < 500; i++) {
    uint32_t a, b, c;
    const uint8_t *id;
    size_t id_len;
    snprintf(key, sizeof key, "key-%zu", i);
    CHECK_OK(longstraw_snapshot_owner(flat, S(key), &a, &id, &id_len));
    CHECK_OK(longstraw_snapshot_owner(members, S(key), &b, &id, &id_len));
    CHECK(a == b);
    CHECK_OK(longstraw_snapshot_owner(s, S(key), &c, &id, &id_len));
    same += c == b;
  }
  /* A skeleton with levels is its own placement: it agrees with flat HRW on
   * about 1/300 of keys, not all (500 keys: expect ~2, allow up to 40). */
  CHECK(same < 40);
  longstraw_snapshot_free(s);
  longstraw_snapshot_free(flat);
  longstraw_rendezvous_free(sk);
  longstraw_rendezvous_free(flat_sk);
  longstraw_snapshot_free(members);
  longstraw_rendezvous_free(r);
}

/* Every snapshot call works on every mode, and ids outlive the set. */
static void test_modes_share_snapshot_calls(void) {
  longstraw_rendezvous *r = numbered(5, 0);
  const longstraw_snapshot *members = snap(r), *snaps[2];
  longstraw_rendezvous *t = NULL;
  longstraw_rendezvous *sk = NULL;
  const uint8_t *id;
  size_t n = 0, eligible = 0, id_len = 0, written = 0;
  uint32_t index = 0, placement = 0, out[8];
  uint64_t seed = 1, generation = 9;
  const char *backend = NULL;
  double weight = 0;
  int m;

  CHECK_OK(new_table(members, 6, 2, 0, 0.0, &t));
  CHECK_OK(new_skeleton(members, 1, 2, &sk));
  CHECK_OK(longstraw_rendezvous_set_weight(t, S("n2"), 3.0));
  CHECK_OK(longstraw_rendezvous_snapshot(t, &snaps[0]));
  CHECK_OK(longstraw_rendezvous_snapshot(sk, &snaps[1]));
  longstraw_rendezvous_free(t);
  longstraw_rendezvous_free(sk);
  for (m = 0; m < 2; m++) {
    const longstraw_snapshot *s = snaps[m];
    CHECK_OK(longstraw_snapshot_len(s, &n));
    CHECK_OK(longstraw_snapshot_eligible(s, &eligible));
    CHECK(n == 5 && eligible == 5);
    CHECK_OK(longstraw_snapshot_seed(s, &seed));
    CHECK_OK(longstraw_snapshot_placement(s, &placement));
    CHECK_OK(longstraw_snapshot_generation(s, &generation));
    CHECK_OK(longstraw_snapshot_backend(s, &backend));
    CHECK(seed == 0 && placement == 1 && generation == (m == 0 ? 1 : 0) && backend != NULL);
    CHECK_OK(longstraw_snapshot_node(s, 2, &id, &id_len, &weight));
    CHECK(id_len == 2 && memcmp(id, "n2", 2) == 0 && weight == (m == 0 ? 3.0 : 1.0));
    CHECK_OK(longstraw_snapshot_index_of(s, S("n4"), &index));
    CHECK(index == 4);
    CHECK_OK(longstraw_snapshot_owner(s, S("k"), &index, &id, &id_len));
    CHECK_OK(longstraw_snapshot_top_k(s, S("k"), out, 8, &written));
    CHECK(written == 5 && out[0] == index);
    CHECK_RC(LONGSTRAW_BUFFER_TOO_SMALL, longstraw_snapshot_rank(s, S("k"), out, 4, &written));
    CHECK_OK(longstraw_snapshot_rank(s, S("k"), out, 8, &written));
    CHECK(written == 5 && out[0] == index);
    CHECK_RC(LONGSTRAW_LENGTH_MISMATCH,
             longstraw_snapshot_owners(s, (const uint8_t *)"ab", 2, (const uint64_t[]){0, 1, 2}, 3, out, 1));
    CHECK_OK(longstraw_snapshot_owners(s, (const uint8_t *)"k", 1, (const uint64_t[]){0, 1}, 2, out, 1));
    CHECK(out[0] == index);
    /* The id still reads correctly after its set was freed. */
    CHECK(id_len == 2 && id[0] == 'n');
    longstraw_snapshot_free(s);
  }
  /* A pointer no snapshot call ever made is refused before use. */
  CHECK_RC(LONGSTRAW_MISALIGNED_POINTER, longstraw_snapshot_len((const longstraw_snapshot *)(uintptr_t)0x1003, &n));
  longstraw_snapshot_free(members);
  longstraw_rendezvous_free(r);
}

static int backend_env_child(void) {
  longstraw_rendezvous *r = NULL;
  longstraw_result rc = new_flat(0, NULL, 0, 1, &r);
  if (rc != LONGSTRAW_BACKEND_UNAVAILABLE || r != NULL) {
    fprintf(stderr, "LONGSTRAW_BACKEND=%s: got %d (%s)\n", getenv("LONGSTRAW_BACKEND"), (int)rc,
            longstraw_result_str((int)rc));
    longstraw_rendezvous_free(r);
    return 1;
  }
  return 0;
}

static void test_backend_env(const char *self) {
  pid_t pid = fork();
  int status = 0;
  if (pid == 0) {
    setenv("LONGSTRAW_BACKEND", "no-such-kernel", 1);
    execl(self, self, "--backend-env-child", (char *)NULL);
    _exit(127);
  }
  CHECK(pid > 0);
  CHECK(waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "--backend-env-child") == 0) return backend_env_child();
  if (argc != 2) {
    fprintf(stderr, "usage: %s EXPECTED_VERSION\n", argv[0]);
    return 2;
  }
  test_versions(argv[1]);
  test_result_strings();
  test_free_null();
  test_null_arguments();
  test_empty_slices_and_k_zero();
  test_invalid_ids_and_weights();
  test_membership_errors();
  test_placement_versions();
  test_empty_and_drained();
  test_buffers_and_offsets();
  test_id_lifetime();
  test_snapshot_accessors();
  test_domains();
  test_table_api();
  test_table_moves();
  test_skeleton_api();
  test_modes_share_snapshot_calls();
  test_backend_env(argv[0]);
  return check_report("test_api");
}

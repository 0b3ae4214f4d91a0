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

/* Two 16-byte ids ("collide!" after 8 varying bytes) whose node hashes are
 * equal under seed 0 (0x67dd5e95fcf23328). Found once, offline, by Brent's
 * cycle search on x -> node_hash(x as 8 bytes + "collide!", seed 0): about
 * 2^33 hashes, two minutes on one core. */
static const uint8_t collide_a[16] = {0xe7, 0x00, 0x2b, 0xcb, 0xbd, 0x9f, 0x33, 0xac, 0x63, 0x6f, 0x6c, 0x6c, 0x69, 0x64, 0x65, 0x21};
static const uint8_t collide_b[16] = {0x76, 0x64, 0xc1, 0x41, 0xea, 0x2e, 0x95, 0x48, 0x63, 0x6f, 0x6c, 0x6c, 0x69, 0x64, 0x65, 0x21};

static longstraw_rendezvous *new_set(uint64_t seed) {
  longstraw_rendezvous *r = NULL;
  CHECK_OK(longstraw_rendezvous_new(seed, LONGSTRAW_PLACEMENT_VERSION, &r));
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
  for (code = LONGSTRAW_OK; code <= LONGSTRAW_INVALID_PARAMETER; code++) {
    const char *text = longstraw_result_str(code);
    CHECK(text != NULL && strlen(text) > 5);
    if (code > 0) CHECK(strcmp(text, longstraw_result_str(code - 1)) != 0);
  }
  CHECK(strcmp(longstraw_result_str(-1), "unknown longstraw_result code") == 0);
  CHECK(strcmp(longstraw_result_str(LONGSTRAW_INVALID_PARAMETER + 1), "unknown longstraw_result code") == 0);
  CHECK(strstr(longstraw_result_str(LONGSTRAW_NO_ELIGIBLE_NODE), "no eligible node") != NULL);
}

static void test_free_null(void) {
  longstraw_rendezvous_free(NULL);
  longstraw_snapshot_free(NULL);
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

  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_new(0, 1, NULL));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_add(NULL, S("a"), 1.0));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_add(r, NULL, 3, 1.0));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_remove(NULL, S("a")));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_remove(r, NULL, 1));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_set_weight(NULL, S("a"), 1.0));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_len(NULL, &len));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_len(r, NULL));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_snapshot(NULL, &s));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_snapshot(r, NULL));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_add_batch(NULL, NULL, 0, NULL, 0, NULL, 0));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_add_batch(r, NULL, 2, NULL, 0, NULL, 0));

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
  CHECK_OK(longstraw_rendezvous_add_batch(r, NULL, 0, NULL, 0, NULL, 0));
  CHECK_OK(longstraw_rendezvous_add_batch(r, NULL, 0, &one_offset, 1, NULL, 0));
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

  CHECK_RC(LONGSTRAW_DUPLICATE_NODE, longstraw_rendezvous_add_batch(r, ids, 3, offsets, 4, NULL, 0));
  CHECK_OK(longstraw_rendezvous_len(r, &len));
  CHECK(len == 0);
  CHECK_RC(LONGSTRAW_LENGTH_MISMATCH, longstraw_rendezvous_add_batch(r, ids, 2, offsets, 3, weights, 1));
  offsets[1] = 2;
  offsets[2] = 1;
  CHECK_RC(LONGSTRAW_BAD_OFFSETS, longstraw_rendezvous_add_batch(r, ids, 2, offsets, 3, NULL, 0));
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
  CHECK_RC(LONGSTRAW_UNKNOWN_PLACEMENT, longstraw_rendezvous_new(0, 0, &r));
  CHECK_RC(LONGSTRAW_UNKNOWN_PLACEMENT, longstraw_rendezvous_new(0, 2, &r));
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
static int backend_env_child(void) {
  longstraw_rendezvous *r = NULL;
  longstraw_result rc = longstraw_rendezvous_new(0, 1, &r);
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
  test_backend_env(argv[0]);
  return check_report("test_api");
}

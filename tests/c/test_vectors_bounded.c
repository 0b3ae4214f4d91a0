/* tests/vectors/bounded-v1.json (SPEC.md section 16) through the C ABI:
 * scripted single-threaded acquire / release / add / remove / set_weight
 * sequences, with the node each acquire must return and the in-flight total
 * after every step. The expected values come from tests/spec (the independent
 * implementation of the spec).
 *
 * Usage: test_vectors_bounded path/to/bounded-v1.json */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "json_input.h"

static longstraw_bounded *build(const cJSON *c) {
  longstraw_bounded *b = NULL;
  const cJSON *secret = field(c, "secret_hex");
  const cJSON *n;
  double factor = bits_of(c, "balance_factor_bits");
  if (cJSON_IsString(secret)) {
    size_t len;
    uint8_t *k = bytes_of_hex(secret, &len);
    CHECK_OK(longstraw_bounded_new(0, k, len, LONGSTRAW_PLACEMENT_VERSION, factor, &b));
    free(k);
  } else {
    const cJSON *seed = field(c, "seed");
    if (!cJSON_IsString(seed)) {
      fprintf(stderr, "vectors: a case needs a seed or a secret\n");
      exit(2);
    }
    CHECK_OK(longstraw_bounded_new(parse_u64(seed->valuestring, 10), NULL, 0, LONGSTRAW_PLACEMENT_VERSION, factor, &b));
  }
  if (!b) {
    fprintf(stderr, "vectors: could not build a bounded-load set\n");
    exit(1);
  }
  cJSON_ArrayForEach(n, field(c, "nodes")) {
    size_t len;
    uint8_t *id = bytes_of_hex(field(n, "id_hex"), &len);
    CHECK_OK(longstraw_bounded_add(b, id, len, bits_of(n, "weight_bits")));
    free(id);
  }
  return b;
}

int main(int argc, char **argv) {
  char *text;
  cJSON *root;
  const cJSON *c;
  long ops_checked = 0;
  if (argc != 2) {
    fprintf(stderr, "usage: %s bounded-v1.json\n", argv[0]);
    return 2;
  }
  text = read_file(argv[1]);
  root = cJSON_Parse(text);
  if (!root) {
    fprintf(stderr, "%s: not JSON\n", argv[1]);
    return 2;
  }
  CHECK(cJSON_IsString(field(root, "placement")) &&
        strcmp(field(root, "placement")->valuestring, "bounded-v1") == 0);
  cJSON_ArrayForEach(c, field(root, "cases")) {
    const char *name = field(c, "name")->valuestring;
    const cJSON *ops = field(c, "ops");
    int n_ops = cJSON_GetArraySize(ops), i;
    longstraw_lease **leases = (longstraw_lease **)calloc((size_t)n_ops + 1, sizeof *leases);
    longstraw_bounded *b = build(c);
    if (!leases) return 2;
    for (i = 0; i < n_ops; i++) {
      const cJSON *op = cJSON_GetArrayItem(ops, i);
      const char *kind = field(op, "op")->valuestring;
      uint64_t in_flight = 0;
      size_t len;
      if (strcmp(kind, "acquire") == 0) {
        const cJSON *want = field(op, "node_hex");
        uint8_t *key = bytes_of_hex(field(op, "key_hex"), &len);
        const uint8_t *id = NULL;
        size_t id_len = 0;
        longstraw_lease *lease = NULL;
        longstraw_result rc = longstraw_bounded_acquire(b, key, len, &lease, &id, &id_len);
        free(key);
        if (cJSON_IsNull(want)) {
          CHECK_RC(LONGSTRAW_NO_ELIGIBLE_NODE, rc);
          CHECK(lease == NULL);
        } else {
          size_t want_len;
          uint8_t *want_id = bytes_of_hex(want, &want_len);
          CHECK_RC(LONGSTRAW_OK, rc);
          if (rc != LONGSTRAW_OK || id_len != want_len || memcmp(id, want_id, want_len) != 0) {
            check_failures++;
            fprintf(stderr, "%s, op %d: acquired a node other than %s\n", name, i, want->valuestring);
          }
          free(want_id);
          leases[i] = lease;
        }
      } else if (strcmp(kind, "release") == 0) {
        int a = int_of(op, "acquire");
        if (a < 0 || a >= n_ops || !leases[a]) {
          fprintf(stderr, "%s, op %d: no live lease from op %d\n", name, i, a);
          return 2;
        }
        CHECK_OK(longstraw_bounded_release(leases[a]));
        leases[a] = NULL;
      } else {
        uint8_t *id = bytes_of_hex(field(op, "id_hex"), &len);
        if (strcmp(kind, "add") == 0) {
          CHECK_OK(longstraw_bounded_add(b, id, len, bits_of(op, "weight_bits")));
        } else if (strcmp(kind, "remove") == 0) {
          CHECK_OK(longstraw_bounded_remove(b, id, len));
        } else if (strcmp(kind, "set_weight") == 0) {
          CHECK_OK(longstraw_bounded_set_weight(b, id, len, bits_of(op, "weight_bits")));
        } else {
          fprintf(stderr, "%s, op %d: unknown op \"%s\"\n", name, i, kind);
          return 2;
        }
        free(id);
      }
      CHECK_OK(longstraw_bounded_in_flight(b, &in_flight));
      if (in_flight != (uint64_t)int_of(op, "in_flight")) {
        check_failures++;
        fprintf(stderr, "%s, op %d: in_flight %llu, want %d\n", name, i, (unsigned long long)in_flight,
                int_of(op, "in_flight"));
      }
      ops_checked++;
    }
    for (i = 0; i < n_ops; i++)
      if (leases[i]) CHECK_OK(longstraw_bounded_release(leases[i]));
    free(leases);
    longstraw_bounded_free(b);
  }
  CHECK(ops_checked > 1000);
  cJSON_Delete(root);
  free(text);
  return check_report("test_vectors_bounded");
}

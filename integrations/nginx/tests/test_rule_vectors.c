/* tests/vectors/bounded-v1.json (SPEC.md section 16) through the stateless
 * entry longstraw_bounded_rule_admit (section 16.7): this program keeps the
 * in-flight counts itself, as the nginx module keeps them in shared memory,
 * and asks the rule which node takes each request. Membership comes from a
 * flat longstraw_rendezvous; every acquire makes a rule over its current
 * snapshot. A node keeps its counter while it stays; a removed node's counter
 * still counts in the total until its leases end, and a re-added id gets a
 * fresh counter (section 16.1). Expected nodes come from tests/spec (the
 * independent implementation of the spec).
 *
 * Usage: test_rule_vectors path/to/bounded-v1.json */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "json_input.h"

#define MAX_COUNTERS 4096

/* One node's counter: the caller-side state the rule does not keep. */
struct counter {
  uint8_t *id;
  size_t id_len;
  uint64_t load;
  int live; /* the node is in the membership (not removed since) */
};

static struct counter counters[MAX_COUNTERS];
static int n_counters;

static struct counter *live_counter(const uint8_t *id, size_t len) {
  int i;
  for (i = 0; i < n_counters; i++)
    if (counters[i].live && counters[i].id_len == len && memcmp(counters[i].id, id, len) == 0) return &counters[i];
  return NULL;
}

static void new_counter(const uint8_t *id, size_t len) {
  struct counter *c;
  if (n_counters == MAX_COUNTERS) {
    fprintf(stderr, "vectors: too many counters\n");
    exit(2);
  }
  c = &counters[n_counters++];
  c->id = (uint8_t *)xmalloc(len + 1);
  memcpy(c->id, id, len);
  c->id_len = len;
  c->load = 0;
  c->live = 1;
}

static longstraw_rendezvous *build(const cJSON *c, double *factor) {
  longstraw_rendezvous *r = NULL;
  const cJSON *secret = field(c, "secret_hex");
  const cJSON *n;
  longstraw_options o;
  longstraw_options_init(&o, sizeof o);
  *factor = bits_of(c, "balance_factor_bits");
  if (cJSON_IsString(secret)) {
    size_t len;
    uint8_t *k = bytes_of_hex(secret, &len);
    o.secret = k;
    o.secret_len = len;
    CHECK_OK(longstraw_rendezvous_new(&o, &r));
    free(k);
  } else {
    o.has_seed = 1;
    o.seed = parse_u64(field(c, "seed")->valuestring, 10);
    CHECK_OK(longstraw_rendezvous_new(&o, &r));
  }
  if (!r) exit(1);
  cJSON_ArrayForEach(n, field(c, "nodes")) {
    size_t len;
    uint8_t *id = bytes_of_hex(field(n, "id_hex"), &len);
    CHECK_OK(longstraw_rendezvous_add(r, id, len, bits_of(n, "weight_bits")));
    new_counter(id, len);
    free(id);
  }
  return r;
}

/* One acquire through the rule: returns the counter that took the request,
 * or NULL with *rc set when the rule refused. */
static struct counter *admit(longstraw_rendezvous *r, double factor, const uint8_t *key, size_t key_len,
                             uint64_t total, longstraw_result *rc) {
  const longstraw_snapshot *snap = NULL;
  longstraw_bounded_rule *rule = NULL;
  uint64_t *loads;
  struct counter **by_index;
  size_t len = 0, i;
  uint32_t index = 0, owner = 0, over = 0;
  struct counter *got = NULL;
  CHECK_OK(longstraw_rendezvous_snapshot(r, &snap));
  CHECK_OK(longstraw_snapshot_len(snap, &len));
  CHECK_OK(longstraw_bounded_rule_new(snap, factor, &rule));
  loads = (uint64_t *)xmalloc((len + 1) * sizeof *loads);
  by_index = (struct counter **)xmalloc((len + 1) * sizeof *by_index);
  for (i = 0; i < len; i++) {
    const uint8_t *id;
    size_t id_len;
    double w;
    CHECK_OK(longstraw_snapshot_node(snap, (uint32_t)i, &id, &id_len, &w));
    by_index[i] = live_counter(id, id_len);
    if (!by_index[i]) {
      fprintf(stderr, "vectors: node without a counter\n");
      exit(2);
    }
    loads[i] = by_index[i]->load;
  }
  /* The snapshot may go: the rule keeps its own reference. */
  longstraw_snapshot_free(snap);
  *rc = longstraw_bounded_rule_admit(rule, key, key_len, loads, len, total, NULL, 0, &index, &owner, &over);
  if (*rc == LONGSTRAW_OK) {
    uint64_t cap = 0;
    CHECK(index < len);
    CHECK(over == 0); /* nothing unavailable, consistent counts: never over the cap */
    CHECK_OK(longstraw_bounded_rule_cap(rule, index, total, &cap));
    CHECK(loads[index] + 1 <= cap);
    got = by_index[index];
  }
  longstraw_bounded_rule_free(rule);
  free(loads);
  free(by_index);
  return got;
}

/* Bad arguments get error codes, never a crash or a silent answer. */
static void bad_arguments(void) {
  longstraw_rendezvous *r = NULL;
  const longstraw_snapshot *snap = NULL;
  longstraw_bounded_rule *rule = NULL;
  uint64_t loads[3] = {0, 0, 0}, full[3] = {9, 9, 9}, cap = 0;
  uint8_t down[3] = {0, 0, 0};
  uint32_t index = 7, owner = 7, over = 7, all_but[3];
  int i;
  CHECK_OK(longstraw_rendezvous_new(NULL, &r));
  CHECK_OK(longstraw_rendezvous_snapshot(r, &snap));
  CHECK_OK(longstraw_bounded_rule_new(snap, 1.25, &rule));
  CHECK_RC(LONGSTRAW_NO_ELIGIBLE_NODE,
           longstraw_bounded_rule_admit(rule, (const uint8_t *)"k", 1, NULL, 0, 0, NULL, 0, &index, &owner, &over));
  longstraw_bounded_rule_free(rule);
  longstraw_snapshot_free(snap);
  CHECK_OK(longstraw_rendezvous_add(r, (const uint8_t *)"a", 1, 1.0));
  CHECK_OK(longstraw_rendezvous_add(r, (const uint8_t *)"b", 1, 1.0));
  CHECK_OK(longstraw_rendezvous_add(r, (const uint8_t *)"c", 1, 2.0));
  CHECK_OK(longstraw_rendezvous_snapshot(r, &snap));
  CHECK_RC(LONGSTRAW_INVALID_PARAMETER, longstraw_bounded_rule_new(snap, 1.0, &rule));
  CHECK_RC(LONGSTRAW_INVALID_PARAMETER, longstraw_bounded_rule_new(snap, 0.0 / 0.0, &rule));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_bounded_rule_new(NULL, 1.25, &rule));
  CHECK_OK(longstraw_bounded_rule_new(snap, 1.25, &rule));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT,
           longstraw_bounded_rule_admit(NULL, (const uint8_t *)"k", 1, loads, 3, 0, NULL, 0, &index, &owner, &over));
  CHECK_RC(LONGSTRAW_LENGTH_MISMATCH,
           longstraw_bounded_rule_admit(rule, (const uint8_t *)"k", 1, loads, 2, 0, NULL, 0, &index, &owner, &over));
  CHECK_RC(LONGSTRAW_LENGTH_MISMATCH,
           longstraw_bounded_rule_admit(rule, (const uint8_t *)"k", 1, loads, 3, 0, down, 2, &index, &owner, &over));
  /* Counts that sum to 27 with a total of 5: refused, and nothing written. */
  CHECK_RC(LONGSTRAW_INVALID_PARAMETER,
           longstraw_bounded_rule_admit(rule, (const uint8_t *)"k", 1, full, 3, 5, NULL, 0, &index, &owner, &over));
  CHECK(index == 7 && owner == 7 && over == 7);
  CHECK(strstr(longstraw_last_error_message(), "sum to 27") != NULL);
  CHECK_RC(LONGSTRAW_INVALID_PARAMETER, longstraw_bounded_rule_cap(rule, 3, 0, &cap));
  /* Empty loads: the owner takes it and is the owner. */
  CHECK_OK(longstraw_bounded_rule_admit(rule, (const uint8_t *)"k", 1, loads, 3, 0, NULL, 0, &index, &owner, &over));
  CHECK(owner == 1 && over == 0);
  /* The owner down: the next of the ranking (top_k's second). */
  {
    uint32_t ranking[3];
    size_t n = 0;
    CHECK_OK(longstraw_snapshot_top_k(snap, (const uint8_t *)"k", 1, ranking, 3, &n));
    CHECK(n == 3 && ranking[0] == index);
    down[ranking[0]] = 1;
    CHECK_OK(longstraw_bounded_rule_admit(rule, (const uint8_t *)"k", 1, loads, 3, 0, down, 3, &index, &owner, &over));
    CHECK(index == ranking[1] && owner == 0 && over == 0);
    /* Owner down, the second full (1 of total 1 at cap ceil(1.25*2*w/W)): third. */
    for (i = 0; i < 3; i++) all_but[i] = 0;
    loads[ranking[1]] = 1;
    {
      uint64_t c2 = 0;
      CHECK_OK(longstraw_bounded_rule_cap(rule, ranking[1], 1, &c2));
      if (c2 <= 1) {
        CHECK_OK(longstraw_bounded_rule_admit(rule, (const uint8_t *)"k", 1, loads, 3, 1, down, 3, &index, &owner,
                                              &over));
        CHECK(index == ranking[2] && over == 0);
      }
    }
    /* Every available node full: the first available, over its cap. */
    loads[0] = loads[1] = loads[2] = 0;
    loads[ranking[1]] = 5;
    loads[ranking[2]] = 5;
    down[ranking[0]] = 1;
    CHECK_OK(longstraw_bounded_rule_admit(rule, (const uint8_t *)"k", 1, loads, 3, 10, down, 3, &index, &owner, &over));
    CHECK(index == ranking[1] && owner == 0 && over == 1);
    /* Every node down: no eligible node. */
    down[0] = down[1] = down[2] = 1;
    CHECK_RC(LONGSTRAW_NO_ELIGIBLE_NODE,
             longstraw_bounded_rule_admit(rule, (const uint8_t *)"k", 1, loads, 3, 10, down, 3, &index, &owner, &over));
  }
  (void)all_but;
  longstraw_bounded_rule_free(rule);
  longstraw_bounded_rule_free(NULL);
  longstraw_snapshot_free(snap);
  longstraw_rendezvous_free(r);
}

int main(int argc, char **argv) {
  char *text;
  cJSON *root;
  const cJSON *c;
  long ops_checked = 0;
  int k;
  if (argc != 2) {
    fprintf(stderr, "usage: %s bounded-v1.json\n", argv[0]);
    return 2;
  }
  bad_arguments();
  text = read_file(argv[1]);
  root = cJSON_Parse(text);
  if (!root) {
    fprintf(stderr, "%s: not JSON\n", argv[1]);
    return 2;
  }
  CHECK(strcmp(field(root, "placement")->valuestring, "bounded-v1") == 0);
  cJSON_ArrayForEach(c, field(root, "cases")) {
    const char *name = field(c, "name")->valuestring;
    const cJSON *ops = field(c, "ops");
    int n_ops = cJSON_GetArraySize(ops), i;
    struct counter **leases = (struct counter **)calloc((size_t)n_ops + 1, sizeof *leases);
    uint64_t total = 0;
    double factor;
    longstraw_rendezvous *r;
    n_counters = 0;
    r = build(c, &factor);
    if (!leases) return 2;
    for (i = 0; i < n_ops; i++) {
      const cJSON *op = cJSON_GetArrayItem(ops, i);
      const char *kind = field(op, "op")->valuestring;
      size_t len;
      if (strcmp(kind, "acquire") == 0) {
        const cJSON *want = field(op, "node_hex");
        uint8_t *key = bytes_of_hex(field(op, "key_hex"), &len);
        longstraw_result rc = LONGSTRAW_OK;
        struct counter *got = admit(r, factor, key, len, total, &rc);
        free(key);
        if (cJSON_IsNull(want)) {
          CHECK_RC(LONGSTRAW_NO_ELIGIBLE_NODE, rc);
        } else {
          size_t want_len;
          uint8_t *want_id = bytes_of_hex(want, &want_len);
          CHECK_RC(LONGSTRAW_OK, rc);
          if (!got || got->id_len != want_len || memcmp(got->id, want_id, want_len) != 0) {
            check_failures++;
            fprintf(stderr, "%s, op %d: admitted a node other than %s\n", name, i, want->valuestring);
          }
          free(want_id);
          if (got) {
            got->load++;
            total++;
            leases[i] = got;
          }
        }
      } else if (strcmp(kind, "release") == 0) {
        int a = int_of(op, "acquire");
        if (a < 0 || a >= n_ops || !leases[a]) {
          fprintf(stderr, "%s, op %d: no live lease from op %d\n", name, i, a);
          return 2;
        }
        leases[a]->load--;
        total--;
        leases[a] = NULL;
      } else {
        uint8_t *id = bytes_of_hex(field(op, "id_hex"), &len);
        if (strcmp(kind, "add") == 0) {
          CHECK_OK(longstraw_rendezvous_add(r, id, len, bits_of(op, "weight_bits")));
          new_counter(id, len);
        } else if (strcmp(kind, "remove") == 0) {
          struct counter *gone = live_counter(id, len);
          CHECK_OK(longstraw_rendezvous_remove(r, id, len));
          if (gone) gone->live = 0; /* its leases still count in total */
        } else if (strcmp(kind, "set_weight") == 0) {
          CHECK_OK(longstraw_rendezvous_set_weight(r, id, len, bits_of(op, "weight_bits")));
        } else {
          fprintf(stderr, "%s, op %d: unknown op \"%s\"\n", name, i, kind);
          return 2;
        }
        free(id);
      }
      if (total != (uint64_t)int_of(op, "in_flight")) {
        check_failures++;
        fprintf(stderr, "%s, op %d: in_flight %llu, want %d\n", name, i, (unsigned long long)total,
                int_of(op, "in_flight"));
      }
      ops_checked++;
    }
    free(leases);
    for (k = 0; k < n_counters; k++) free(counters[k].id);
    longstraw_rendezvous_free(r);
  }
  printf("test_rule_vectors: %ld ops of bounded-v1.json through longstraw_bounded_rule_admit\n", ops_checked);
  CHECK(ops_checked > 1000);
  cJSON_Delete(root);
  free(text);
  return check_report("test_rule_vectors");
}

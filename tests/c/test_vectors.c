/* Reads the golden vectors and checks that the C library places every key of
 * every case exactly as they say:
 *   placement-v1.json  flat: owner, top-k to the recorded depth, the full
 *                      rank's prefix, batch owners; built batch and one by one
 *   table-v1.json      the same through a table-mode longstraw_rendezvous (and
 *                      each key's partition), with the recorded
 *                      depth stored per partition and with 1 (longer lists
 *                      ranked), built at once and node by node
 *   skeleton-v1.json   the same through a skeleton-mode set, built at once and
 *                      node by node (the tree depends on the membership only)
 *   domains-v1.json    longstraw_snapshot_top_k_distinct in each case's mode
 *   table-balanced-v1.json  a table (longstraw_rendezvous_new_from) with a balance: each key's list is
 *                      its partition's stored row, and nothing past it
 * Each file names its kind in its "placement" field.
 *
 * usage: test_vectors FILE.json... */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "check.h"
#include "json_input.h"

/* Appends the bytes of a hex string to buf at *len (buf has room). */
static void append_hex(const char *hex, uint8_t *buf, size_t *len) {
  size_t i, n = strlen(hex);
  for (i = 0; i + 1 < n; i += 2) buf[(*len)++] = (uint8_t)(hex_digit(hex[i]) * 16 + hex_digit(hex[i + 1]));
}

/* A case's node ids or keys in the packed layout. */
struct packed {
  uint8_t *bytes;
  size_t bytes_len;
  uint64_t *offsets;
  size_t count;
};

/* A hex field's text; a JSON null (a node without a domain) is "". */
static const char *hex_of(const cJSON *item, const char *hex_field) {
  const cJSON *v = field(item, hex_field);
  return cJSON_IsNull(v) ? "" : v->valuestring;
}

static struct packed pack(const cJSON *items, const char *hex_field) {
  struct packed p;
  const cJSON *item;
  size_t total = 0, i = 0;
  p.count = (size_t)cJSON_GetArraySize(items);
  cJSON_ArrayForEach(item, items) total += strlen(hex_of(item, hex_field)) / 2;
  p.bytes = (uint8_t *)xmalloc(total);
  p.offsets = (uint64_t *)xmalloc((p.count + 1) * sizeof(uint64_t));
  p.bytes_len = 0;
  p.offsets[0] = 0;
  cJSON_ArrayForEach(item, items) {
    append_hex(hex_of(item, hex_field), p.bytes, &p.bytes_len);
    p.offsets[++i] = p.bytes_len;
  }
  return p;
}

static void packed_free(struct packed *p) {
  free(p->bytes);
  free(p->offsets);
}

static const uint8_t *packed_item(const struct packed *p, size_t i, size_t *len) {
  *len = (size_t)(p->offsets[i + 1] - p->offsets[i]);
  return p->bytes + p->offsets[i];
}

/* Checks every key of a case on snapshot `s` (and on `s2`, built another
 * way, which must agree): owner and its id, top-k to `depth` is exactly the
 * recorded ranking, the full rank starts with it, and batch owners. */
static void check_keys(const longstraw_snapshot *s, const longstraw_snapshot *s2, const cJSON *keys,
                       const struct packed *ids, const struct packed *ks, size_t depth, size_t *keys_checked) {
  size_t n = ids->count, i = 0, k, eligible = 0, written = 0;
  uint32_t *ranked = (uint32_t *)xmalloc((n + depth + 1) * sizeof(uint32_t));
  uint32_t *batch = (uint32_t *)xmalloc((ks->count + 1) * sizeof(uint32_t));
  const cJSON *key;
  int any_null_owner = 0;

  CHECK_OK(longstraw_snapshot_eligible(s, &eligible));
  cJSON_ArrayForEach(key, keys) {
    const cJSON *owner = field(key, "owner"), *want_ranked = field(key, "ranked"), *w;
    size_t key_len, id_len = 0, want_len = (size_t)cJSON_GetArraySize(want_ranked);
    const uint8_t *kb = packed_item(ks, i, &key_len), *id = NULL;
    uint32_t index = 0, index2 = 0;
    const uint8_t *id2 = NULL;
    size_t id2_len = 0;

    if (cJSON_IsNull(owner)) {
      any_null_owner = 1;
      CHECK_RC(LONGSTRAW_NO_ELIGIBLE_NODE, longstraw_snapshot_owner(s, kb, key_len, &index, &id, &id_len));
      CHECK(id == NULL); /* nothing written on failure */
    } else {
      CHECK_OK(longstraw_snapshot_owner(s, kb, key_len, &index, &id, &id_len));
      CHECK(index == (uint32_t)owner->valuedouble);
      CHECK_OK(longstraw_snapshot_owner(s2, kb, key_len, &index2, &id2, &id2_len));
      CHECK(index2 == index && id2_len == id_len && memcmp(id, id2, id_len) == 0);
      /* The returned id is the owner's id from the vectors. */
      {
        size_t want_id_len;
        const uint8_t *want_id = packed_item(ids, index, &want_id_len);
        CHECK(id_len == want_id_len && memcmp(id, want_id, id_len) == 0);
      }
      batch[i] = index;
    }

    /* top-k to the recorded depth is exactly the recorded ranking, on both. */
    CHECK_OK(longstraw_snapshot_top_k(s, kb, key_len, ranked, depth, &written));
    CHECK(written == want_len);
    k = 0;
    cJSON_ArrayForEach(w, want_ranked) {
      CHECK(k < written && ranked[k] == (uint32_t)w->valuedouble);
      k++;
    }
    CHECK_OK(longstraw_snapshot_top_k(s2, kb, key_len, ranked, depth, &written));
    CHECK(written == want_len);
    k = 0;
    cJSON_ArrayForEach(w, want_ranked) {
      CHECK(k < written && ranked[k] == (uint32_t)w->valuedouble);
      k++;
    }
    /* The full rank starts with the same prefix and covers every eligible node. */
    CHECK_OK(longstraw_snapshot_rank(s, kb, key_len, ranked, n + 1, &written));
    CHECK(written == eligible);
    k = 0;
    cJSON_ArrayForEach(w, want_ranked) {
      CHECK(k < written && ranked[k] == (uint32_t)w->valuedouble);
      k++;
    }
    i++;
    (*keys_checked)++;
  }

  /* The batch call over the whole case agrees with the per-key owners. */
  if (any_null_owner) {
    CHECK_RC(LONGSTRAW_NO_ELIGIBLE_NODE,
             longstraw_snapshot_owners(s, ks->bytes, ks->bytes_len, ks->offsets, ks->count + 1, ranked, ks->count));
  } else {
    uint32_t *out = (uint32_t *)xmalloc((ks->count + 1) * sizeof(uint32_t));
    CHECK_OK(longstraw_snapshot_owners(s, ks->bytes, ks->bytes_len, ks->offsets, ks->count + 1, out, ks->count));
    CHECK(memcmp(out, batch, ks->count * sizeof(uint32_t)) == 0);
    free(out);
  }
  free(ranked);
  free(batch);
}

/* A case's nodes: packed ids, exact weights and packed domain labels. */
struct nodes {
  struct packed ids, domains;
  double *weights;
  uint64_t seed;
};

static struct nodes case_nodes(const cJSON *c) {
  struct nodes ns;
  const cJSON *node, *list = field(c, "nodes");
  size_t i = 0;
  ns.seed = parse_u64(field(c, "seed")->valuestring, 10);
  ns.ids = pack(list, "id_hex");
  ns.domains = pack(list, cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(list, 0), "domain_hex") ? "domain_hex" : "id_hex");
  ns.weights = (double *)xmalloc((ns.ids.count + 1) * sizeof(double));
  cJSON_ArrayForEach(node, list) ns.weights[i++] = weight_from_bits(field(node, "weight_bits")->valuestring);
  return ns;
}

static void nodes_free(struct nodes *ns) {
  packed_free(&ns->ids);
  packed_free(&ns->domains);
  free(ns->weights);
}

/* A snapshot of an empty flat set with the case's seed, for building a
 * table or skeleton node by node. */
static const longstraw_snapshot *empty_members(uint64_t seed) {
  longstraw_rendezvous *r = NULL;
  const longstraw_snapshot *s = NULL;
  CHECK_OK(new_flat(seed, NULL, 0, LONGSTRAW_PLACEMENT_VERSION, &r));
  CHECK_OK(longstraw_rendezvous_snapshot(r, &s));
  longstraw_rendezvous_free(r);
  return s;
}

/* A flat set of the case's nodes (with their domain labels when `labelled`). */
static longstraw_rendezvous *flat_set(const struct nodes *ns, int labelled) {
  longstraw_rendezvous *r = NULL;
  size_t n = ns->ids.count;
  CHECK_OK(new_flat(ns->seed, NULL, 0, LONGSTRAW_PLACEMENT_VERSION, &r));
  if (labelled)
    CHECK_OK(longstraw_rendezvous_add_batch(r, ns->ids.bytes, ns->ids.bytes_len, ns->ids.offsets, n + 1,
                                                        ns->weights, n, ns->domains.bytes, ns->domains.bytes_len,
                                                        ns->domains.offsets, n + 1));
  else
    CHECK_OK(longstraw_rendezvous_add_batch(r, ns->ids.bytes, ns->ids.bytes_len, ns->ids.offsets, n + 1, ns->weights, n, NULL, 0, NULL, 0));
  return r;
}

/* Builds the case's set twice (batch add, and one add per node) and checks
 * both agree with each other and with the vectors. */
static void run_flat_case(const cJSON *c, size_t *keys_checked) {
  struct nodes ns = case_nodes(c);
  struct packed ks = pack(field(c, "keys"), "key_hex");
  size_t depth = (size_t)field(c, "depth")->valuedouble, i;
  longstraw_rendezvous *r = flat_set(&ns, 0), *one_by_one = NULL;
  const longstraw_snapshot *s = NULL, *s2 = NULL;
  int failures_before = check_failures;

  CHECK_OK(new_flat(ns.seed, NULL, 0, 1, &one_by_one));
  for (i = 0; i < ns.ids.count; i++) {
    size_t id_len;
    const uint8_t *id = packed_item(&ns.ids, i, &id_len);
    CHECK_OK(longstraw_rendezvous_add(one_by_one, id, id_len, ns.weights[i]));
  }
  CHECK_OK(longstraw_rendezvous_snapshot(r, &s));
  CHECK_OK(longstraw_rendezvous_snapshot(one_by_one, &s2));
  check_keys(s, s2, field(c, "keys"), &ns.ids, &ks, depth, keys_checked);

  if (check_failures != failures_before) fprintf(stderr, "  in case \"%s\"\n", field(c, "name")->valuestring);
  longstraw_snapshot_free(s);
  longstraw_snapshot_free(s2);
  longstraw_rendezvous_free(r);
  longstraw_rendezvous_free(one_by_one);
  nodes_free(&ns);
  packed_free(&ks);
}

/* A table of the case: built at once storing `depth` nodes per partition,
 * and node by node storing 1 (so longer top-k lists rank the partition). */
static void run_table_case(const cJSON *c, size_t *keys_checked) {
  struct nodes ns = case_nodes(c);
  struct packed ks = pack(field(c, "keys"), "key_hex");
  size_t depth = (size_t)field(c, "depth")->valuedouble, n = ns.ids.count, replicas = 0;
  uint8_t bits = (uint8_t)field(c, "bits")->valuedouble, got_bits = 0;
  uint32_t flags = 99;
  double balance = 99.0;
  longstraw_rendezvous *r = flat_set(&ns, 0);
  longstraw_rendezvous *whole = NULL, *grown = NULL;
  const longstraw_snapshot *members = NULL, *empty = empty_members(ns.seed), *s = NULL, *s2 = NULL;
  longstraw_mode mode = LONGSTRAW_MODE_FLAT;
  int failures_before = check_failures;

  CHECK_OK(longstraw_rendezvous_snapshot(r, &members));
  CHECK_OK(new_table(members, bits, depth, 0, 0.0, &whole));
  CHECK_OK(set_table_shape(whole, &got_bits, &replicas, &flags, &balance));
  CHECK(got_bits == bits && replicas == depth && flags == 0 && balance == 0.0);
  CHECK_OK(new_table(empty, bits, 1, 0, 0.0, &grown));
  CHECK_OK(longstraw_rendezvous_add_batch(grown, ns.ids.bytes, ns.ids.bytes_len, ns.ids.offsets, n + 1, ns.weights, n, NULL, 0, NULL, 0));
  CHECK_OK(longstraw_rendezvous_snapshot(whole, &s));
  CHECK_OK(longstraw_rendezvous_snapshot(grown, &s2));
  CHECK_OK(longstraw_snapshot_mode(s, &mode));
  CHECK(mode == LONGSTRAW_MODE_TABLE);
  check_keys(s, s2, field(c, "keys"), &ns.ids, &ks, depth, keys_checked);
  {
    /* Each key's partition, as the vector file gives it. */
    const cJSON *key;
    size_t i = 0;
    cJSON_ArrayForEach(key, field(c, "keys")) {
      size_t key_len;
      const uint8_t *kb = packed_item(&ks, i++, &key_len);
      uint32_t partition = UINT32_MAX;
      CHECK_OK(longstraw_snapshot_partition(s, kb, key_len, &partition));
      CHECK(partition == (uint32_t)field(key, "partition")->valuedouble);
    }
  }

  if (check_failures != failures_before) fprintf(stderr, "  in table case \"%s\"\n", field(c, "name")->valuestring);
  longstraw_snapshot_free(s);
  longstraw_snapshot_free(s2);
  longstraw_snapshot_free(members);
  longstraw_snapshot_free(empty);
  longstraw_rendezvous_free(whole);
  longstraw_rendezvous_free(grown);
  longstraw_rendezvous_free(r);
  nodes_free(&ns);
  packed_free(&ks);
}

/* A skeleton of the case, built at once and node by node (in reverse, so
 * the insertion order differs too). */
static void run_skeleton_case(const cJSON *c, size_t *keys_checked) {
  struct nodes ns = case_nodes(c);
  struct packed ks = pack(field(c, "keys"), "key_hex");
  size_t depth = (size_t)field(c, "depth")->valuedouble, i;
  uint8_t fanout_bits = (uint8_t)field(c, "fanout_bits")->valuedouble, levels = (uint8_t)field(c, "levels")->valuedouble;
  uint8_t got_fanout_bits = 99, got_levels = 99;
  longstraw_rendezvous *r = flat_set(&ns, 0);
  longstraw_rendezvous *whole = NULL, *grown = NULL;
  const longstraw_snapshot *members = NULL, *empty = empty_members(ns.seed), *s = NULL, *s2 = NULL, *grown_snap = NULL;
  longstraw_mode mode = LONGSTRAW_MODE_FLAT;
  int failures_before = check_failures;

  CHECK_OK(longstraw_rendezvous_snapshot(r, &members));
  CHECK_OK(new_skeleton(members, fanout_bits, levels, &whole));
  CHECK_OK(set_skeleton_shape(whole, &got_fanout_bits, &got_levels));
  CHECK(got_levels == levels && (levels == 0 ? got_fanout_bits == 0 : got_fanout_bits == fanout_bits));
  CHECK_OK(new_skeleton(empty, fanout_bits, levels, &grown));
  for (i = ns.ids.count; i-- > 0;) {
    size_t id_len;
    const uint8_t *id = packed_item(&ns.ids, i, &id_len);
    CHECK_OK(longstraw_rendezvous_add(grown, id, id_len, ns.weights[i]));
  }
  CHECK_OK(longstraw_rendezvous_snapshot(whole, &s));
  /* Indices differ between the two (insertion order), so compare the grown
   * skeleton by ids: a third skeleton made from its membership, re-ordered
   * as the case lists the nodes, must answer like the first. */
  CHECK_OK(longstraw_rendezvous_snapshot(grown, &grown_snap));
  {
    longstraw_rendezvous *again = NULL;
    const longstraw_snapshot *again_snap = NULL;
    size_t key_len, id_len;
    uint32_t idx = 0, want = 0;
    const uint8_t *id;
    for (i = 0; i < ks.count; i++) {
      const uint8_t *kb = packed_item(&ks, i, &key_len);
      longstraw_result rc1 = longstraw_snapshot_owner(grown_snap, kb, key_len, &idx, &id, &id_len);
      longstraw_result rc2 = longstraw_snapshot_owner(s, kb, key_len, &want, &id, &id_len);
      CHECK(rc1 == rc2);
      if (rc1 == LONGSTRAW_OK) CHECK(idx == (uint32_t)(ns.ids.count - 1 - want));
    }
    CHECK_OK(new_skeleton(members, fanout_bits, levels, &again));
    CHECK_OK(longstraw_rendezvous_snapshot(again, &again_snap));
    CHECK_OK(longstraw_snapshot_mode(again_snap, &mode));
    CHECK(mode == LONGSTRAW_MODE_SKELETON);
    check_keys(s, again_snap, field(c, "keys"), &ns.ids, &ks, depth, keys_checked);
    longstraw_snapshot_free(again_snap);
    longstraw_rendezvous_free(again);
  }

  if (check_failures != failures_before) fprintf(stderr, "  in skeleton case \"%s\"\n", field(c, "name")->valuestring);
  longstraw_snapshot_free(s);
  longstraw_snapshot_free(s2);
  longstraw_snapshot_free(grown_snap);
  longstraw_snapshot_free(members);
  longstraw_snapshot_free(empty);
  longstraw_rendezvous_free(whole);
  longstraw_rendezvous_free(grown);
  longstraw_rendezvous_free(r);
  nodes_free(&ns);
  packed_free(&ks);
}

/* Checks top_k_distinct(k) of every key on `s` against the case. */
static void check_distinct(const longstraw_snapshot *s, const cJSON *c, const struct packed *ks, size_t k,
                           size_t *keys_checked) {
  uint32_t *out = (uint32_t *)xmalloc((k + 1) * sizeof(uint32_t));
  const cJSON *key, *w;
  size_t i = 0, j, written = 0, key_len;
  cJSON_ArrayForEach(key, field(c, "keys")) {
    const cJSON *want = field(key, "distinct");
    const uint8_t *kb = packed_item(ks, i++, &key_len);
    CHECK_OK(longstraw_snapshot_top_k_distinct(s, kb, key_len, out, k, &written));
    CHECK(written == (size_t)cJSON_GetArraySize(want));
    j = 0;
    cJSON_ArrayForEach(w, want) {
      CHECK(j < written && out[j] == (uint32_t)w->valuedouble);
      j++;
    }
    (*keys_checked)++;
  }
  free(out);
}

/* A failure-domain case in its mode; tables both with and without
 * LONGSTRAW_TABLE_DISTINCT_DOMAINS (storing k nodes per partition). */
static void run_domains_case(const cJSON *c, size_t *keys_checked) {
  struct nodes ns = case_nodes(c);
  struct packed ks = pack(field(c, "keys"), "key_hex");
  const char *mode = field(c, "mode")->valuestring;
  size_t k = (size_t)field(c, "k")->valuedouble, i;
  longstraw_rendezvous *r = flat_set(&ns, 1);
  const longstraw_snapshot *members = NULL;
  int failures_before = check_failures;

  CHECK_OK(longstraw_rendezvous_snapshot(r, &members));
  /* The labels went in as given. */
  for (i = 0; i < ns.ids.count; i++) {
    const uint8_t *d = NULL, *want;
    size_t d_len = 99, want_len;
    want = packed_item(&ns.domains, i, &want_len);
    CHECK_OK(longstraw_snapshot_domain(members, (uint32_t)i, &d, &d_len));
    CHECK(d_len == want_len && (want_len == 0 ? d == NULL : memcmp(d, want, want_len) == 0));
  }
  if (strcmp(mode, "flat") == 0) {
    check_distinct(members, c, &ks, k, keys_checked);
  } else if (strcmp(mode, "table") == 0) {
    uint8_t bits = (uint8_t)field(c, "bits")->valuedouble;
    uint32_t flags;
    for (flags = 0; flags <= LONGSTRAW_TABLE_DISTINCT_DOMAINS; flags++) {
      longstraw_rendezvous *t = NULL;
      const longstraw_snapshot *s = NULL;
      CHECK_OK(new_table(members, bits, k, flags, 0.0, &t));
      CHECK_OK(longstraw_rendezvous_snapshot(t, &s));
      check_distinct(s, c, &ks, k, keys_checked);
      longstraw_snapshot_free(s);
      longstraw_rendezvous_free(t);
    }
  } else if (strcmp(mode, "skeleton") == 0) {
    longstraw_rendezvous *sk = NULL;
    const longstraw_snapshot *s = NULL;
    CHECK_OK(new_skeleton(members, (uint8_t)field(c, "fanout_bits")->valuedouble,
                                    (uint8_t)field(c, "levels")->valuedouble, &sk));
    CHECK_OK(longstraw_rendezvous_snapshot(sk, &s));
    check_distinct(s, c, &ks, k, keys_checked);
    longstraw_snapshot_free(s);
    longstraw_rendezvous_free(sk);
  } else {
    fprintf(stderr, "vectors: unknown mode \"%s\"\n", mode);
    exit(2);
  }

  if (check_failures != failures_before) fprintf(stderr, "  in domains case \"%s\"\n", field(c, "name")->valuestring);
  longstraw_snapshot_free(members);
  longstraw_rendezvous_free(r);
  nodes_free(&ns);
  packed_free(&ks);
}

/* A balanced table of the case (SPEC.md section 17): each key's list is its
 * partition's stored row, and nothing past it. */
static void run_balanced_case(const cJSON *c, size_t *keys_checked) {
  struct nodes ns = case_nodes(c);
  struct packed ks = pack(field(c, "keys"), "key_hex");
  size_t replicas = (size_t)field(c, "replicas")->valuedouble, i = 0, written = 0, k;
  uint8_t bits = (uint8_t)field(c, "bits")->valuedouble;
  double balance = field(c, "balance_millionths")->valuedouble / 1e6, got_balance = 0.0;
  longstraw_rendezvous *r = flat_set(&ns, 0);
  longstraw_rendezvous *t = NULL, *bad = NULL;
  const longstraw_snapshot *members = NULL, *s = NULL;
  uint32_t *list = (uint32_t *)xmalloc((replicas + 3) * sizeof(uint32_t));
  const cJSON *key, *w;
  int failures_before = check_failures;

  CHECK_OK(longstraw_rendezvous_snapshot(r, &members));
  CHECK_RC(LONGSTRAW_INVALID_PARAMETER, new_table(members, bits, replicas, 0, 0.5, &bad));
  CHECK_RC(LONGSTRAW_INVALID_PARAMETER, new_table(members, bits, replicas, 0, 0.0 / 0.0, &bad));
  CHECK(bad == NULL);
  CHECK_OK(new_table(members, bits, replicas, 0, balance, &t));
  {
    uint8_t got_bits = 99;
    size_t got_replicas = 0;
    uint32_t flags = 99;
    CHECK_OK(set_table_shape(t, &got_bits, &got_replicas, &flags, &got_balance));
    CHECK(got_balance == balance && got_bits == bits && got_replicas == replicas && flags == 0);
  }
  CHECK_OK(longstraw_rendezvous_snapshot(t, &s));
  cJSON_ArrayForEach(key, field(c, "keys")) {
    const cJSON *want = field(key, "list");
    size_t key_len, want_len = (size_t)cJSON_GetArraySize(want), id_len = 0;
    const uint8_t *kb = packed_item(&ks, i, &key_len), *id = NULL;
    uint32_t owner = 0;
    /* Asking for more than the replicas still gives only the stored row. */
    CHECK_OK(longstraw_snapshot_top_k(s, kb, key_len, list, replicas + 2, &written));
    CHECK(written == want_len);
    k = 0;
    cJSON_ArrayForEach(w, want) {
      CHECK(k < written && list[k] == (uint32_t)w->valuedouble);
      k++;
    }
    if (want_len == 0)
      CHECK_RC(LONGSTRAW_NO_ELIGIBLE_NODE, longstraw_snapshot_owner(s, kb, key_len, &owner, &id, &id_len));
    else {
      CHECK_OK(longstraw_snapshot_owner(s, kb, key_len, &owner, &id, &id_len));
      CHECK(owner == list[0]);
    }
    i++;
    (*keys_checked)++;
  }

  if (check_failures != failures_before) fprintf(stderr, "  in balanced case \"%s\"\n", field(c, "name")->valuestring);
  free(list);
  longstraw_snapshot_free(s);
  longstraw_snapshot_free(members);
  longstraw_rendezvous_free(t);
  longstraw_rendezvous_free(r);
  nodes_free(&ns);
  packed_free(&ks);
}

/* A keyed-v1 case (docs/SPEC.md section 15) in its mode, on a set created
 * with the case's secret: owner, top-k, rank and batch (check_keys), then
 * top_k_distinct. */
static void run_keyed_case(const cJSON *c, size_t *keys_checked) {
  const cJSON *list = field(c, "nodes");
  struct packed ids = pack(list, "id_hex"), domains = pack(list, "domain_hex"), ks = pack(field(c, "keys"), "key_hex");
  const char *mode = field(c, "mode")->valuestring;
  size_t depth = (size_t)field(c, "depth")->valuedouble, k = (size_t)field(c, "k")->valuedouble, n = ids.count;
  size_t secret_len = 0, i = 0;
  uint8_t secret[LONGSTRAW_SECRET_LEN + 1];
  double *weights = (double *)xmalloc((n + 1) * sizeof(double));
  const cJSON *node;
  longstraw_rendezvous *r = NULL;
  longstraw_rendezvous *t = NULL;
  longstraw_rendezvous *sk = NULL;
  const longstraw_snapshot *members = NULL, *s = NULL;
  uint32_t keyed = 0;
  uint64_t seed = 99;
  int failures_before = check_failures;

  CHECK(strlen(field(c, "secret_hex")->valuestring) == 2 * LONGSTRAW_SECRET_LEN);
  append_hex(field(c, "secret_hex")->valuestring, secret, &secret_len);
  cJSON_ArrayForEach(node, list) weights[i++] = weight_from_bits(field(node, "weight_bits")->valuestring);
  CHECK_OK(new_flat(0, secret, secret_len, LONGSTRAW_PLACEMENT_VERSION, &r));
  CHECK_OK(longstraw_rendezvous_add_batch(r, ids.bytes, ids.bytes_len, ids.offsets, n + 1, weights, n,
                                                      domains.bytes, domains.bytes_len, domains.offsets, n + 1));
  CHECK_OK(longstraw_rendezvous_snapshot(r, &members));
  if (strcmp(mode, "table") == 0) {
    CHECK_OK(new_table(members, (uint8_t)field(c, "bits")->valuedouble, depth, 0, 0.0, &t));
    CHECK_OK(longstraw_rendezvous_snapshot(t, &s));
  } else if (strcmp(mode, "skeleton") == 0) {
    CHECK_OK(new_skeleton(members, (uint8_t)field(c, "fanout_bits")->valuedouble,
                                    (uint8_t)field(c, "levels")->valuedouble, &sk));
    CHECK_OK(longstraw_rendezvous_snapshot(sk, &s));
  } else {
    CHECK_OK(longstraw_rendezvous_snapshot(r, &s));
  }
  /* A table or skeleton made from a keyed set's snapshot stays keyed. */
  CHECK_OK(longstraw_snapshot_is_keyed(s, &keyed));
  CHECK(keyed == 1);
  CHECK_OK(longstraw_snapshot_seed(s, &seed));
  CHECK(seed == 0);
  check_keys(s, s, field(c, "keys"), &ids, &ks, depth, keys_checked);
  check_distinct(s, c, &ks, k, keys_checked);

  if (check_failures != failures_before) fprintf(stderr, "  in keyed case \"%s\"\n", field(c, "name")->valuestring);
  longstraw_snapshot_free(s);
  longstraw_snapshot_free(members);
  longstraw_rendezvous_free(t);
  longstraw_rendezvous_free(sk);
  longstraw_rendezvous_free(r);
  free(weights);
  packed_free(&ids);
  packed_free(&domains);
  packed_free(&ks);
}

/* The keyed constructor refuses a secret that is not 16 bytes, and a NULL one. */
static void check_keyed_arguments(void) {
  uint8_t secret[LONGSTRAW_SECRET_LEN + 1] = {0};
  longstraw_rendezvous *r = NULL;
  CHECK_RC(LONGSTRAW_INVALID_SECRET, new_flat(0, secret, LONGSTRAW_SECRET_LEN - 1, 1, &r));
  CHECK_RC(LONGSTRAW_INVALID_SECRET, new_flat(0, secret, LONGSTRAW_SECRET_LEN + 1, 1, &r));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, new_flat(0, NULL, LONGSTRAW_SECRET_LEN, 1, &r));
  CHECK_RC(LONGSTRAW_UNKNOWN_PLACEMENT, new_flat(0, secret, LONGSTRAW_SECRET_LEN, 99, &r));
  CHECK(r == NULL);
}

/* Runs every case of one file, after its "placement" field. */
static void run_file(const char *path) {
  char *text = read_file(path);
  cJSON *root = cJSON_Parse(text);
  const cJSON *c, *placement;
  void (*run)(const cJSON *, size_t *) = NULL;
  size_t cases = 0, keys = 0;
  if (!root) {
    fprintf(stderr, "%s: not valid JSON\n", path);
    exit(2);
  }
  placement = field(root, "placement");
  if (cJSON_IsNumber(placement)) {
    CHECK((uint32_t)placement->valuedouble == LONGSTRAW_PLACEMENT_VERSION);
    run = run_flat_case;
  } else if (cJSON_IsString(placement) && strcmp(placement->valuestring, "table-v1") == 0) {
    run = run_table_case;
  } else if (cJSON_IsString(placement) && strcmp(placement->valuestring, "skeleton-v1") == 0) {
    run = run_skeleton_case;
  } else if (cJSON_IsString(placement) && strcmp(placement->valuestring, "domains-v1") == 0) {
    run = run_domains_case;
  } else if (cJSON_IsString(placement) && strcmp(placement->valuestring, "table-balanced-v1") == 0) {
    run = run_balanced_case;
  } else if (cJSON_IsString(placement) && strcmp(placement->valuestring, "keyed-v1") == 0) {
    check_keyed_arguments();
    run = run_keyed_case;
  } else {
    fprintf(stderr, "%s: unknown \"placement\"\n", path);
    exit(2);
  }
  cJSON_ArrayForEach(c, field(root, "cases")) {
    run(c, &keys);
    cases++;
  }
  CHECK(cases > 0 && keys > 0);
  printf("test_vectors: %s: %zu cases, %zu key checks\n", path, cases, keys);
  cJSON_Delete(root);
  free(text);
}

int main(int argc, char **argv) {
  int i;
  if (argc < 2) {
    fprintf(stderr, "usage: %s FILE.json...\n", argv[0]);
    return 2;
  }
  for (i = 1; i < argc; i++) run_file(argv[i]);
  return check_report("test_vectors");
}

/* Reads tests/vectors/placement-v1.json and checks that the C library places
 * every key of every case exactly as the vectors say: owner, top-k to the
 * recorded depth, the full rank's prefix, and the batch owners call.
 *
 * usage: test_vectors path/to/placement-v1.json */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "check.h"

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  return p;
}

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  long len;
  char *text;
  if (!f) {
    fprintf(stderr, "%s: %s\n", path, strerror(errno));
    exit(2);
  }
  fseek(f, 0, SEEK_END);
  len = ftell(f);
  fseek(f, 0, SEEK_SET);
  text = (char *)xmalloc((size_t)len + 1);
  if (fread(text, 1, (size_t)len, f) != (size_t)len) {
    fprintf(stderr, "%s: short read\n", path);
    exit(2);
  }
  text[len] = '\0';
  fclose(f);
  return text;
}

static const cJSON *field(const cJSON *obj, const char *name) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
  if (!v) {
    fprintf(stderr, "vectors: missing field \"%s\"\n", name);
    exit(2);
  }
  return v;
}

static int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  fprintf(stderr, "vectors: bad hex digit '%c'\n", c);
  exit(2);
}

/* Appends the bytes of a hex string to buf at *len (buf has room). */
static void append_hex(const char *hex, uint8_t *buf, size_t *len) {
  size_t i, n = strlen(hex);
  for (i = 0; i + 1 < n; i += 2) buf[(*len)++] = (uint8_t)(hex_digit(hex[i]) * 16 + hex_digit(hex[i + 1]));
}

static uint64_t parse_u64(const char *s, int base) {
  char *end;
  unsigned long long v;
  errno = 0;
  v = strtoull(s, &end, base);
  if (errno || *end || end == s) {
    fprintf(stderr, "vectors: bad integer \"%s\"\n", s);
    exit(2);
  }
  return (uint64_t)v;
}

static double weight_from_bits(const char *hex) {
  uint64_t bits = parse_u64(hex, 16);
  double w;
  memcpy(&w, &bits, sizeof w);
  return w;
}

/* A case's node ids or keys in the packed layout. */
struct packed {
  uint8_t *bytes;
  size_t bytes_len;
  uint64_t *offsets;
  size_t count;
};

static struct packed pack(const cJSON *items, const char *hex_field) {
  struct packed p;
  const cJSON *item;
  size_t total = 0, i = 0;
  p.count = (size_t)cJSON_GetArraySize(items);
  cJSON_ArrayForEach(item, items) total += strlen(field(item, hex_field)->valuestring) / 2;
  p.bytes = (uint8_t *)xmalloc(total);
  p.offsets = (uint64_t *)xmalloc((p.count + 1) * sizeof(uint64_t));
  p.bytes_len = 0;
  p.offsets[0] = 0;
  cJSON_ArrayForEach(item, items) {
    append_hex(field(item, hex_field)->valuestring, p.bytes, &p.bytes_len);
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

/* Builds the case's set twice (batch add, and one add per node) and checks
 * both agree with each other and with the vectors. */
static void run_case(const cJSON *c, size_t *keys_checked) {
  const char *name = field(c, "name")->valuestring;
  uint64_t seed = parse_u64(field(c, "seed")->valuestring, 10);
  size_t depth = (size_t)field(c, "depth")->valuedouble;
  const cJSON *nodes = field(c, "nodes"), *keys = field(c, "keys"), *node, *key;
  struct packed ids = pack(nodes, "id_hex"), ks = pack(keys, "key_hex");
  size_t n = ids.count, i = 0, k, eligible = 0, written = 0;
  double *weights = (double *)xmalloc(n * sizeof(double));
  uint32_t *ranked = (uint32_t *)xmalloc((n + depth + 1) * sizeof(uint32_t));
  uint32_t *batch = (uint32_t *)xmalloc((ks.count + 1) * sizeof(uint32_t));
  longstraw_rendezvous *r = NULL, *one_by_one = NULL;
  const longstraw_snapshot *s = NULL, *s2 = NULL;
  int any_null_owner = 0, failures_before = check_failures;

  cJSON_ArrayForEach(node, nodes) weights[i++] = weight_from_bits(field(node, "weight_bits")->valuestring);

  CHECK_OK(longstraw_rendezvous_new(seed, LONGSTRAW_PLACEMENT_VERSION, &r));
  CHECK_OK(longstraw_rendezvous_add_batch(r, ids.bytes, ids.bytes_len, ids.offsets, n + 1, weights, n));
  CHECK_OK(longstraw_rendezvous_new(seed, 1, &one_by_one));
  for (i = 0; i < n; i++) {
    size_t id_len;
    const uint8_t *id = packed_item(&ids, i, &id_len);
    CHECK_OK(longstraw_rendezvous_add(one_by_one, id, id_len, weights[i]));
  }
  CHECK_OK(longstraw_rendezvous_snapshot(r, &s));
  CHECK_OK(longstraw_rendezvous_snapshot(one_by_one, &s2));
  CHECK_OK(longstraw_snapshot_eligible(s, &eligible));

  i = 0;
  cJSON_ArrayForEach(key, keys) {
    const cJSON *owner = field(key, "owner"), *want_ranked = field(key, "ranked"), *w;
    size_t key_len, id_len = 0, want_len = (size_t)cJSON_GetArraySize(want_ranked);
    const uint8_t *kb = packed_item(&ks, i, &key_len), *id = NULL;
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
        const uint8_t *want_id = packed_item(&ids, index, &want_id_len);
        CHECK(id_len == want_id_len && memcmp(id, want_id, id_len) == 0);
      }
      batch[i] = index;
    }

    /* top-k to the recorded depth is exactly the recorded ranking. */
    CHECK_OK(longstraw_snapshot_top_k(s, kb, key_len, ranked, depth, &written));
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
             longstraw_snapshot_owners(s, ks.bytes, ks.bytes_len, ks.offsets, ks.count + 1, ranked, ks.count));
  } else {
    uint32_t *out = (uint32_t *)xmalloc((ks.count + 1) * sizeof(uint32_t));
    CHECK_OK(longstraw_snapshot_owners(s, ks.bytes, ks.bytes_len, ks.offsets, ks.count + 1, out, ks.count));
    CHECK(memcmp(out, batch, ks.count * sizeof(uint32_t)) == 0);
    free(out);
  }

  if (check_failures != failures_before) fprintf(stderr, "  in case \"%s\"\n", name);
  longstraw_snapshot_free(s);
  longstraw_snapshot_free(s2);
  longstraw_rendezvous_free(r);
  longstraw_rendezvous_free(one_by_one);
  packed_free(&ids);
  packed_free(&ks);
  free(weights);
  free(ranked);
  free(batch);
}

int main(int argc, char **argv) {
  char *text;
  cJSON *root;
  const cJSON *c;
  size_t cases = 0, keys = 0;
  if (argc != 2) {
    fprintf(stderr, "usage: %s placement-v1.json\n", argv[0]);
    return 2;
  }
  text = read_file(argv[1]);
  root = cJSON_Parse(text);
  if (!root) {
    fprintf(stderr, "%s: not valid JSON\n", argv[1]);
    return 2;
  }
  CHECK((uint32_t)field(root, "placement")->valuedouble == LONGSTRAW_PLACEMENT_VERSION);
  cJSON_ArrayForEach(c, field(root, "cases")) {
    run_case(c, &keys);
    cases++;
  }
  CHECK(cases > 0 && keys > 0);
  printf("test_vectors: %zu cases, %zu keys\n", cases, keys);
  cJSON_Delete(root);
  free(text);
  return check_report("test_vectors");
}

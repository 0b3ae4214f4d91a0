/* Reads tests/vectors/placement-v1-edges.json (SPEC.md §14) and checks that
 * the C library places every key of every case as it says: exact ties,
 * order-sensitive group sums, seeds 2^63 and 2^64-1, ids of 1 and 65,535
 * bytes and keys of every XXH3 length class up to 1 MiB, as flat sets and
 * skeletons; owner, whole rank and batch owners.
 *
 * usage: test_edges placement-v1-edges.json */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "check.h"
#include "json_input.h"

/* An entry's "<what>_hex", or "<what>_gen" {len, start}: byte i is
 * (start + i) mod 251. Returns a malloc'd buffer. */
static uint8_t *entry_bytes(const cJSON *entry, const char *what, size_t *len) {
  char name[16];
  const cJSON *v;
  uint8_t *out;
  size_t i;
  snprintf(name, sizeof name, "%s_hex", what);
  v = cJSON_GetObjectItemCaseSensitive(entry, name);
  if (v) {
    *len = strlen(v->valuestring) / 2;
    out = (uint8_t *)xmalloc(*len);
    for (i = 0; i < *len; i++)
      out[i] = (uint8_t)(hex_digit(v->valuestring[2 * i]) * 16 + hex_digit(v->valuestring[2 * i + 1]));
    return out;
  }
  snprintf(name, sizeof name, "%s_gen", what);
  v = cJSON_GetObjectItemCaseSensitive(entry, name);
  {
    size_t start = (size_t)cJSON_GetObjectItemCaseSensitive(v, "start")->valuedouble;
    *len = (size_t)cJSON_GetObjectItemCaseSensitive(v, "len")->valuedouble;
    out = (uint8_t *)xmalloc(*len);
    for (i = 0; i < *len; i++) out[i] = (uint8_t)((start + i) % 251);
  }
  return out;
}

/* The snapshot a case places keys with (flat, or a skeleton of the case's shape). */
static const longstraw_snapshot *build(const cJSON *c, longstraw_rendezvous **r, longstraw_rendezvous **sk,
                                       const longstraw_snapshot **members) {
  const cJSON *n;
  const longstraw_snapshot *s = NULL;
  uint64_t seed = (uint64_t)strtoull(cJSON_GetObjectItemCaseSensitive(c, "seed")->valuestring, NULL, 10);
  CHECK_OK(new_flat(seed, NULL, 0, 1, r));
  cJSON_ArrayForEach(n, cJSON_GetObjectItemCaseSensitive(c, "nodes")) {
    size_t len;
    uint8_t *id = entry_bytes(n, "id", &len);
    CHECK_OK(longstraw_rendezvous_add(*r, id, len,
                                      weight_from_bits(cJSON_GetObjectItemCaseSensitive(n, "weight_bits")->valuestring)));
    free(id);
  }
  CHECK_OK(longstraw_rendezvous_snapshot(*r, members));
  if (strcmp(cJSON_GetObjectItemCaseSensitive(c, "mode")->valuestring, "skeleton") != 0) return *members;
  CHECK_OK(new_skeleton(*members, (uint8_t)cJSON_GetObjectItemCaseSensitive(c, "fanout_bits")->valuedouble,
                                  (uint8_t)cJSON_GetObjectItemCaseSensitive(c, "levels")->valuedouble, sk));
  CHECK_OK(longstraw_rendezvous_snapshot(*sk, &s));
  return s;
}

int main(int argc, char **argv) {
  char *text;
  cJSON *file;
  const cJSON *c;
  size_t keys_checked = 0;
  if (argc != 2) {
    fprintf(stderr, "usage: %s placement-v1-edges.json\n", argv[0]);
    return 2;
  }
  text = read_file(argv[1]);
  file = cJSON_Parse(text);
  if (!file) {
    fprintf(stderr, "%s: not JSON\n", argv[1]);
    return 2;
  }
  CHECK(strcmp(cJSON_GetObjectItemCaseSensitive(file, "placement")->valuestring, "placement-v1-edges") == 0);
  cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(file, "cases")) {
    longstraw_rendezvous *r = NULL;
    longstraw_rendezvous *sk = NULL;
    const longstraw_snapshot *members = NULL, *s;
    const cJSON *keys = cJSON_GetObjectItemCaseSensitive(c, "keys"), *k;
    const char *name = cJSON_GetObjectItemCaseSensitive(c, "name")->valuestring;
    size_t n_keys = (size_t)cJSON_GetArraySize(keys), total = 0, i = 0;
    uint8_t **key_bytes = (uint8_t **)xmalloc(n_keys * sizeof *key_bytes);
    size_t *key_lens = (size_t *)xmalloc(n_keys * sizeof *key_lens);
    uint64_t *offsets = (uint64_t *)xmalloc((n_keys + 1) * sizeof *offsets);
    uint32_t *owners = (uint32_t *)xmalloc(n_keys * sizeof *owners);
    uint8_t *packed;
    s = build(c, &r, &sk, &members);
    cJSON_ArrayForEach(k, keys) {
      const cJSON *ranked = cJSON_GetObjectItemCaseSensitive(k, "ranked"), *x;
      uint32_t owner = 0, out[64];
      const uint8_t *owner_id = NULL;
      size_t written = 0, j = 0, owner_id_len = 0;
      int same = 1;
      key_bytes[i] = entry_bytes(k, "key", &key_lens[i]);
      total += key_lens[i];
      CHECK_OK(longstraw_snapshot_owner(s, key_bytes[i], key_lens[i], &owner, &owner_id, &owner_id_len));
      CHECK_OK(longstraw_snapshot_rank(s, key_bytes[i], key_lens[i], out, 64, &written));
      same = owner == (uint32_t)cJSON_GetObjectItemCaseSensitive(k, "owner")->valuedouble &&
             written == (size_t)cJSON_GetArraySize(ranked);
      cJSON_ArrayForEach(x, ranked) same = same && j < written && out[j++] == (uint32_t)x->valuedouble;
      if (!same) fprintf(stderr, "%s: key of %zu bytes placed differently\n", name, key_lens[i]);
      CHECK(same);
      i++;
      keys_checked++;
    }
    packed = (uint8_t *)xmalloc(total);
    offsets[0] = 0;
    for (i = 0; i < n_keys; i++) {
      memcpy(packed + offsets[i], key_bytes[i], key_lens[i]);
      offsets[i + 1] = offsets[i] + key_lens[i];
    }
    CHECK_OK(longstraw_snapshot_owners(s, packed, total, offsets, n_keys + 1, owners, n_keys));
    i = 0;
    cJSON_ArrayForEach(k, keys) CHECK(owners[i++] == (uint32_t)cJSON_GetObjectItemCaseSensitive(k, "owner")->valuedouble);
    for (i = 0; i < n_keys; i++) free(key_bytes[i]);
    free(key_bytes);
    free(key_lens);
    free(offsets);
    free(owners);
    free(packed);
    if (s != members) longstraw_snapshot_free(s);
    longstraw_snapshot_free(members);
    longstraw_rendezvous_free(sk);
    longstraw_rendezvous_free(r);
  }
  printf("edges: %zu keys checked\n", keys_checked);
  CHECK(keys_checked >= 200);
  cJSON_Delete(file);
  free(text);
  return check_report("test_edges");
}

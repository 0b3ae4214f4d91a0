/* Membership files from C: every fixture in tests/membership/ (a vector case
 * written as a membership file) loads to the case's answers; bad files get
 * LONGSTRAW_BAD_FILE with a message naming the line and the field; a file
 * loads in the mode it names, from its path or from its bytes; a saved set
 * reloads to the same placement.
 *
 * usage: test_membership REPO_ROOT SCRATCH_DIR */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "check.h"

static char *read_text(const char *path) {
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
  text = malloc((size_t)len + 1);
  if (!text || fread(text, 1, (size_t)len, f) != (size_t)len) {
    fprintf(stderr, "%s: cannot read\n", path);
    exit(2);
  }
  text[len] = 0;
  fclose(f);
  return text;
}

static cJSON *read_json(const char *path) {
  char *text = read_text(path);
  cJSON *json = cJSON_Parse(text);
  free(text);
  if (!json) {
    fprintf(stderr, "%s: not JSON\n", path);
    exit(2);
  }
  return json;
}

static size_t unhex(const char *hex, uint8_t *out) {
  size_t n = strlen(hex) / 2, i;
  for (i = 0; i < n; i++) {
    unsigned v;
    sscanf(hex + 2 * i, "%2x", &v);
    out[i] = (uint8_t)v;
  }
  return n;
}

/* Loads a fixture (in whatever mode it declares) from its path and from its
 * bytes, checks that both give the same mode and membership, and returns a
 * snapshot of the first. */
static const longstraw_snapshot *load_any(const char *path) {
  longstraw_rendezvous *r = NULL, *from_bytes = NULL;
  longstraw_mode mode = LONGSTRAW_MODE_FLAT, snap_mode = LONGSTRAW_MODE_FLAT, bytes_mode = LONGSTRAW_MODE_FLAT;
  const longstraw_snapshot *s = NULL;
  char *text = read_text(path);
  size_t len = 0, bytes_len = 0;
  longstraw_result rc = longstraw_rendezvous_load_file(path, &r);
  CHECK_OK(rc);
  if (rc != LONGSTRAW_OK) {
    fprintf(stderr, "%s\n", longstraw_last_error_message());
    free(text);
    return NULL;
  }
  CHECK_OK(longstraw_rendezvous_snapshot(r, &s));
  CHECK_OK(longstraw_rendezvous_mode(r, &mode));
  CHECK_OK(longstraw_snapshot_mode(s, &snap_mode));
  CHECK(mode == snap_mode);
  CHECK_OK(longstraw_rendezvous_load_bytes((const uint8_t *)text, strlen(text), &from_bytes));
  CHECK_OK(longstraw_rendezvous_mode(from_bytes, &bytes_mode));
  CHECK_OK(longstraw_rendezvous_len(r, &len));
  CHECK_OK(longstraw_rendezvous_len(from_bytes, &bytes_len));
  CHECK(bytes_mode == mode && bytes_len == len);
  longstraw_rendezvous_free(from_bytes);
  longstraw_rendezvous_free(r);
  free(text);
  return s;
}

static size_t check_case(const longstraw_snapshot *s, const cJSON *c) {
  const cJSON *key, *keys = cJSON_GetObjectItem(c, "keys");
  const cJSON *k_item = cJSON_GetObjectItem(c, "k");
  size_t checked = 0;
  static uint8_t buf[1 << 16];
  cJSON_ArrayForEach(key, keys) {
    size_t len = unhex(cJSON_GetObjectItem(key, "key_hex")->valuestring, buf);
    const cJSON *distinct = cJSON_GetObjectItem(key, "distinct");
    uint32_t got[64];
    size_t written = 0, i;
    if (distinct) {
      size_t k = (size_t)k_item->valuedouble;
      CHECK_OK(longstraw_snapshot_top_k_distinct(s, buf, len, got, k, &written));
      CHECK(written == (size_t)cJSON_GetArraySize(distinct));
      for (i = 0; i < written; i++) CHECK(got[i] == (uint32_t)cJSON_GetArrayItem(distinct, (int)i)->valuedouble);
    } else {
      const cJSON *owner = cJSON_GetObjectItem(key, "owner");
      const cJSON *ranked = cJSON_GetObjectItem(key, "ranked");
      size_t depth = (size_t)cJSON_GetArraySize(ranked);
      uint32_t index = 0;
      const uint8_t *id = NULL;
      size_t id_len = 0;
      if (cJSON_IsNull(owner)) {
        CHECK_RC(LONGSTRAW_NO_ELIGIBLE_NODE, longstraw_snapshot_owner(s, buf, len, &index, &id, &id_len));
      } else {
        CHECK_OK(longstraw_snapshot_owner(s, buf, len, &index, &id, &id_len));
        CHECK(index == (uint32_t)owner->valuedouble);
      }
      if (depth > 64) depth = 64;
      CHECK_OK(longstraw_snapshot_top_k(s, buf, len, got, depth, &written));
      CHECK(written == depth);
      for (i = 0; i < written && i < depth; i++) CHECK(got[i] == (uint32_t)cJSON_GetArrayItem(ranked, (int)i)->valuedouble);
    }
    checked++;
  }
  return checked;
}

static void test_fixtures(const char *root) {
  char path[4096];
  cJSON *manifest, *f;
  size_t cases = 0, keys = 0;
  snprintf(path, sizeof path, "%s/tests/membership/manifest.json", root);
  manifest = read_json(path);
  cJSON_ArrayForEach(f, cJSON_GetObjectItem(manifest, "fixtures")) {
    const char *file = cJSON_GetObjectItem(f, "file")->valuestring;
    const char *vectors = cJSON_GetObjectItem(f, "vectors")->valuestring;
    int index = (int)cJSON_GetObjectItem(f, "case")->valuedouble;
    cJSON *v;
    const longstraw_snapshot *s;
    snprintf(path, sizeof path, "%s/tests/vectors/%s", root, vectors);
    v = read_json(path);
    snprintf(path, sizeof path, "%s/tests/membership/%s", root, file);
    s = load_any(path);
    if (s) keys += check_case(s, cJSON_GetArrayItem(cJSON_GetObjectItem(v, "cases"), index));
    longstraw_snapshot_free(s);
    cJSON_Delete(v);
    cases++;
  }
  cJSON_Delete(manifest);
  CHECK(cases >= 100 && keys >= 1000);
  printf("test_membership: %zu fixtures, %zu keys agree with the vectors\n", cases, keys);
}

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
    fprintf(stderr, "%s: cannot write\n", path);
    exit(2);
  }
}

static void test_errors_and_save(const char *dir) {
  char path[4096], saved[4096];
  longstraw_rendezvous *r = NULL;
  longstraw_rendezvous *t = NULL;
  const longstraw_snapshot *a = NULL, *b = NULL;
  longstraw_mode mode = LONGSTRAW_MODE_FLAT;
  uint8_t bits = 0;
  size_t replicas = 0;
  uint32_t flags = 99;
  double balance = 99.0;
  int i;
  const char *bad = "seed = 1\n[[nodes]]\nid = \"a\"\nweight = -1.0\n";

  snprintf(path, sizeof path, "%s/bad.toml", dir);
  write_text(path, bad);
  CHECK_RC(LONGSTRAW_BAD_FILE, longstraw_rendezvous_load_file(path, &r));
  CHECK(r == NULL);
  CHECK(strstr(longstraw_last_error_message(), "bad.toml:4: nodes[0].weight:") != NULL);
  /* The same text from memory: the same message, naming the origin <bytes>. */
  CHECK_RC(LONGSTRAW_BAD_FILE, longstraw_rendezvous_load_bytes((const uint8_t *)bad, strlen(bad), &r));
  CHECK(r == NULL);
  CHECK(strstr(longstraw_last_error_message(), "<bytes>:4: nodes[0].weight:") != NULL);
  CHECK_RC(LONGSTRAW_BAD_FILE, longstraw_rendezvous_load_bytes((const uint8_t *)"\xff\xfe", 2, &r));
  CHECK(strstr(longstraw_last_error_message(), "not UTF-8") != NULL);
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_load_bytes(NULL, 3, &r));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_load_bytes((const uint8_t *)bad, strlen(bad), NULL));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_load_file(NULL, &r));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_load_file(path, NULL));
  CHECK_RC(LONGSTRAW_BAD_FILE, longstraw_rendezvous_load_file("/nonexistent/m.toml", &r));
  CHECK(strstr(longstraw_last_error_message(), "/nonexistent/m.toml") != NULL);
  CHECK(r == NULL);

  snprintf(path, sizeof path, "%s/typo.toml", dir);
  write_text(path, "[[nodes]]\nid = \"a\"\nwieght = 2\n");
  CHECK_RC(LONGSTRAW_BAD_FILE, longstraw_rendezvous_load_file(path, &r));
  CHECK(strstr(longstraw_last_error_message(), ":3:") != NULL &&
        strstr(longstraw_last_error_message(), "wieght") != NULL);

  /* A table file loads as a table, with its shape. */
  snprintf(path, sizeof path, "%s/table.toml", dir);
  write_text(path,
             "seed = \"18446744073709551615\"\nmode = \"table\"\n[table]\nbits = 6\nreplicas = 2\n"
             "[[nodes]]\nid = \"a\"\n[[nodes]]\nid_hex = \"ff00\"\nweight = 2.5\ndomain = \"r1\"\n");
  CHECK_OK(longstraw_rendezvous_load_file(path, &t));
  CHECK_OK(longstraw_rendezvous_mode(t, &mode));
  CHECK(mode == LONGSTRAW_MODE_TABLE);
  CHECK_OK(set_table_shape(t, &bits, &replicas, &flags, &balance));
  CHECK(bits == 6 && replicas == 2 && flags == 0 && balance == 0.0);
  CHECK_OK(longstraw_rendezvous_snapshot(t, &a));
  snprintf(saved, sizeof saved, "%s/saved.toml", dir);
  CHECK_OK(longstraw_rendezvous_save_file(t, saved, NULL, NULL));
  b = load_any(saved);
  for (i = 0; i < 2000 && b; i++) {
    char key[32];
    uint32_t x[2], y[2];
    size_t nx = 0, ny = 0;
    snprintf(key, sizeof key, "key-%d", i);
    CHECK_OK(longstraw_snapshot_top_k(a, (const uint8_t *)key, strlen(key), x, 2, &nx));
    CHECK_OK(longstraw_snapshot_top_k(b, (const uint8_t *)key, strlen(key), y, 2, &ny));
    CHECK(nx == ny && x[0] == y[0] && x[1] == y[1]);
  }
  CHECK_RC(LONGSTRAW_BAD_FILE, longstraw_rendezvous_save_file(t, "/nonexistent/dir/m.toml", NULL, NULL));
  CHECK(strstr(longstraw_last_error_message(), "/nonexistent/dir") != NULL);
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_save_file(t, NULL, NULL, NULL));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_save_file(NULL, saved, NULL, NULL));
  longstraw_snapshot_free(a);
  longstraw_snapshot_free(b);
  longstraw_rendezvous_free(t);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: test_membership REPO_ROOT SCRATCH_DIR\n");
    return 2;
  }
  test_fixtures(argv[1]);
  test_errors_and_save(argv[2]);
  return check_report("test_membership");
}

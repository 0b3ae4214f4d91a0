/* Membership files from C: every fixture in tests/membership/ (a vector case
 * written as a membership file) loads to the case's answers; bad files get
 * LONGSTRAW_BAD_FILE with a message naming the line and the field; a saved
 * snapshot reloads to the same placement.
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

/* Loads a fixture in whatever mode it declares and returns a snapshot. */
static const longstraw_snapshot *load_any(const char *path) {
  char message[512] = "";
  longstraw_mode mode;
  const longstraw_snapshot *s = NULL;
  CHECK_OK(longstraw_file_mode(path, &mode, message, sizeof message));
  if (mode == LONGSTRAW_MODE_FLAT) {
    longstraw_rendezvous *r = NULL;
    CHECK_OK(longstraw_rendezvous_load_file(path, &r, message, sizeof message));
    CHECK_OK(longstraw_rendezvous_snapshot(r, &s));
    longstraw_rendezvous_free(r);
  } else if (mode == LONGSTRAW_MODE_TABLE) {
    longstraw_table *t = NULL;
    CHECK_OK(longstraw_table_load_file(path, &t, message, sizeof message));
    CHECK_OK(longstraw_table_snapshot(t, &s));
    longstraw_table_free(t);
  } else {
    longstraw_skeleton *k = NULL;
    CHECK_OK(longstraw_skeleton_load_file(path, &k, message, sizeof message));
    CHECK_OK(longstraw_skeleton_snapshot(k, &s));
    longstraw_skeleton_free(k);
  }
  if (message[0]) fprintf(stderr, "%s\n", message);
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
  char path[4096], saved[4096], message[256];
  longstraw_rendezvous *r = NULL;
  longstraw_table *t = NULL;
  const longstraw_snapshot *a = NULL, *b = NULL;
  longstraw_mode mode;
  int i;

  snprintf(path, sizeof path, "%s/bad.toml", dir);
  write_text(path, "seed = 1\n[[nodes]]\nid = \"a\"\nweight = -1.0\n");
  CHECK_RC(LONGSTRAW_BAD_FILE, longstraw_rendezvous_load_file(path, &r, message, sizeof message));
  CHECK(r == NULL);
  CHECK(strstr(message, "bad.toml:4: nodes[0].weight:") != NULL);
  /* A short buffer gets a cut, terminated message; (NULL, 0) gets none. */
  CHECK_RC(LONGSTRAW_BAD_FILE, longstraw_rendezvous_load_file(path, &r, message, 5));
  CHECK(strlen(message) == 4);
  CHECK_RC(LONGSTRAW_BAD_FILE, longstraw_rendezvous_load_file(path, &r, NULL, 0));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_load_file(NULL, &r, NULL, 0));
  CHECK_RC(LONGSTRAW_BAD_FILE, longstraw_file_mode("/nonexistent/m.toml", &mode, message, sizeof message));
  CHECK(strstr(message, "/nonexistent/m.toml") != NULL);

  snprintf(path, sizeof path, "%s/typo.toml", dir);
  write_text(path, "[[nodes]]\nid = \"a\"\nwieght = 2\n");
  CHECK_RC(LONGSTRAW_BAD_FILE, longstraw_rendezvous_load_file(path, &r, message, sizeof message));
  CHECK(strstr(message, ":3:") != NULL && strstr(message, "wieght") != NULL);

  snprintf(path, sizeof path, "%s/table.toml", dir);
  write_text(path,
             "seed = \"18446744073709551615\"\nmode = \"table\"\n[table]\nbits = 6\nreplicas = 2\n"
             "[[nodes]]\nid = \"a\"\n[[nodes]]\nid_hex = \"ff00\"\nweight = 2.5\ndomain = \"r1\"\n");
  CHECK_RC(LONGSTRAW_BAD_FILE, longstraw_rendezvous_load_file(path, &r, message, sizeof message));
  CHECK(strstr(message, "mode is \"table\"") != NULL);
  CHECK_OK(longstraw_table_load_file(path, &t, message, sizeof message));
  CHECK_OK(longstraw_table_snapshot(t, &a));
  snprintf(saved, sizeof saved, "%s/saved.toml", dir);
  CHECK_OK(longstraw_snapshot_save_file(a, saved, message, sizeof message));
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
  CHECK_RC(LONGSTRAW_BAD_FILE, longstraw_snapshot_save_file(a, "/nonexistent/dir/m.toml", message, sizeof message));
  longstraw_snapshot_free(a);
  longstraw_snapshot_free(b);
  longstraw_table_free(t);
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

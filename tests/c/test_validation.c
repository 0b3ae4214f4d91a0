/* Reads tests/validation/rules.json (the input rules every language's tests
 * share) and checks each case that applies to C: an ok case succeeds, an
 * error case returns the class's result code. C has no per-call messages
 * (longstraw_result_str is per code), so only the code is checked.
 *
 * usage: test_validation rules.json */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "check.h"
#include "json_input.h"

static const struct {
  const char *name;
  longstraw_result code;
} CODES[] = {
    {"LONGSTRAW_INVALID_NODE_ID", LONGSTRAW_INVALID_NODE_ID},
    {"LONGSTRAW_DUPLICATE_NODE", LONGSTRAW_DUPLICATE_NODE},
    {"LONGSTRAW_UNKNOWN_NODE", LONGSTRAW_UNKNOWN_NODE},
    {"LONGSTRAW_INVALID_WEIGHT", LONGSTRAW_INVALID_WEIGHT},
    {"LONGSTRAW_INVALID_PARAMETER", LONGSTRAW_INVALID_PARAMETER},
    {"LONGSTRAW_INVALID_DOMAIN", LONGSTRAW_INVALID_DOMAIN},
    {"LONGSTRAW_UNKNOWN_PLACEMENT", LONGSTRAW_UNKNOWN_PLACEMENT},
    {"LONGSTRAW_BAD_OFFSETS", LONGSTRAW_BAD_OFFSETS},
};

static longstraw_result code_named(const char *name) {
  size_t i;
  for (i = 0; i < sizeof CODES / sizeof CODES[0]; i++)
    if (strcmp(CODES[i].name, name) == 0) return CODES[i].code;
  fprintf(stderr, "validation: unknown C code %s\n", name);
  exit(2);
}

/* A table byte string: a JSON string, or {"len": N} for N bytes of 'x'. */
static uint8_t *bytes_of(const cJSON *v, size_t *len) {
  uint8_t *out;
  if (cJSON_IsString(v)) {
    *len = strlen(v->valuestring);
    out = (uint8_t *)xmalloc(*len + 1);
    memcpy(out, v->valuestring, *len);
    return out;
  }
  *len = (size_t)cJSON_GetObjectItemCaseSensitive(v, "len")->valuedouble;
  out = (uint8_t *)xmalloc(*len + 1);
  memset(out, 'x', *len);
  return out;
}

/* "nan", "inf", "-inf", "-0.0" or a C99 hex float, or a JSON number. */
static double weight_of(const cJSON *v) {
  return cJSON_IsNumber(v) ? v->valuedouble : strtod(v->valuestring, NULL);
}

static int item_int(const cJSON *c, const char *name) {
  return (int)cJSON_GetObjectItemCaseSensitive(c, name)->valuedouble;
}

/* A set holding node "a", and its snapshot. */
static longstraw_rendezvous *one_node(const longstraw_snapshot **snap) {
  longstraw_rendezvous *r = NULL;
  if (new_flat(0, NULL, 0, 1, &r) != LONGSTRAW_OK ||
      longstraw_rendezvous_add(r, (const uint8_t *)"a", 1, 1.0) != LONGSTRAW_OK ||
      (snap && longstraw_rendezvous_snapshot(r, snap) != LONGSTRAW_OK)) {
    fprintf(stderr, "validation: cannot build a one-node set\n");
    exit(2);
  }
  return r;
}

static longstraw_result run(const char *op, const cJSON *c) {
  longstraw_rendezvous *r = NULL;
  const longstraw_snapshot *snap = NULL;
  longstraw_result rc = LONGSTRAW_OK;
  uint8_t *bytes;
  size_t len;
  if (strcmp(op, "ids") == 0) {
    const cJSON *id;
    new_flat(0, NULL, 0, 1, &r);
    cJSON_ArrayForEach(id, cJSON_GetObjectItemCaseSensitive(c, "ids")) {
      bytes = bytes_of(id, &len);
      if (rc == LONGSTRAW_OK) rc = longstraw_rendezvous_add(r, bytes, len, 1.0);
      free(bytes);
    }
  } else if (strcmp(op, "remove") == 0) {
    r = one_node(NULL);
    bytes = bytes_of(cJSON_GetObjectItemCaseSensitive(c, "id"), &len);
    rc = longstraw_rendezvous_remove(r, bytes, len);
    free(bytes);
  } else if (strcmp(op, "weight") == 0) {
    new_flat(0, NULL, 0, 1, &r);
    rc = longstraw_rendezvous_add(r, (const uint8_t *)"a", 1, weight_of(cJSON_GetObjectItemCaseSensitive(c, "weight")));
  } else if (strcmp(op, "replicas") == 0) {
    longstraw_rendezvous *t = NULL;
    r = one_node(&snap);
    rc = new_table(snap, 4, (size_t)item_int(c, "replicas"), 0, 0.0, &t);
    longstraw_rendezvous_free(t);
  } else if (strcmp(op, "shape") == 0) {
    longstraw_rendezvous *sk = NULL;
    const cJSON *shape = cJSON_GetObjectItemCaseSensitive(c, "shape");
    r = one_node(&snap);
    rc = new_skeleton(snap, (uint8_t)cJSON_GetArrayItem(shape, 0)->valuedouble,
                                (uint8_t)cJSON_GetArrayItem(shape, 1)->valuedouble, &sk);
    longstraw_rendezvous_free(sk);
  } else if (strcmp(op, "domain") == 0) {
    new_flat(0, NULL, 0, 1, &r);
    bytes = bytes_of(cJSON_GetObjectItemCaseSensitive(c, "label"), &len);
    rc = longstraw_rendezvous_add_in_domain(r, (const uint8_t *)"a", 1, 1.0, bytes, len);
    free(bytes);
  } else if (strcmp(op, "placement") == 0) {
    rc = new_flat(0, NULL, 0, (uint32_t)item_int(c, "placement"), &r);
  } else if (strcmp(op, "offsets") == 0) {
    const cJSON *offsets = cJSON_GetObjectItemCaseSensitive(c, "offsets"), *o;
    const char *key_bytes = cJSON_GetObjectItemCaseSensitive(c, "bytes")->valuestring;
    uint64_t offs[16];
    uint32_t out[16];
    size_t n = 0;
    cJSON_ArrayForEach(o, offsets) offs[n++] = (uint64_t)o->valuedouble;
    r = one_node(&snap);
    rc = longstraw_snapshot_owners(snap, (const uint8_t *)key_bytes, strlen(key_bytes), offs, n, out, n - 1);
  } else if (strcmp(op, "c_id_len_max") == 0) {
    const char *call = cJSON_GetObjectItemCaseSensitive(c, "call")->valuestring;
    r = one_node(NULL);
    /* The lengths lie: SIZE_MAX bytes cannot exist, so nothing may be read. */
    if (strcmp(call, "add") == 0) rc = longstraw_rendezvous_add(r, (const uint8_t *)"b", SIZE_MAX, 1.0);
    else if (strcmp(call, "remove") == 0) rc = longstraw_rendezvous_remove(r, (const uint8_t *)"a", SIZE_MAX);
    else rc = longstraw_rendezvous_add_in_domain(r, (const uint8_t *)"b", 1, 1.0, (const uint8_t *)"x", SIZE_MAX);
  } else {
    fprintf(stderr, "validation: unknown op %s\n", op);
    exit(2);
  }
  longstraw_snapshot_free(snap);
  longstraw_rendezvous_free(r);
  return rc;
}

static int applies(const cJSON *rule, const cJSON *c) {
  const cJSON *langs = cJSON_GetObjectItemCaseSensitive(c, "langs"), *l;
  if (!langs) langs = cJSON_GetObjectItemCaseSensitive(rule, "langs");
  cJSON_ArrayForEach(l, langs) if (strcmp(l->valuestring, "c") == 0) return 1;
  return 0;
}

int main(int argc, char **argv) {
  char *text;
  cJSON *table;
  const cJSON *rule, *classes;
  int cases = 0;
  if (argc != 2) {
    fprintf(stderr, "usage: %s rules.json\n", argv[0]);
    return 2;
  }
  text = read_file(argv[1]);
  table = cJSON_Parse(text);
  if (!table) {
    fprintf(stderr, "%s: not JSON\n", argv[1]);
    return 2;
  }
  classes = cJSON_GetObjectItemCaseSensitive(table, "classes");
  cJSON_ArrayForEach(rule, cJSON_GetObjectItemCaseSensitive(table, "rules")) {
    const char *op = cJSON_GetObjectItemCaseSensitive(rule, "op")->valuestring;
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(rule, "cases")) {
      longstraw_result want = LONGSTRAW_OK, got;
      if (!applies(rule, c)) continue;
      cases++;
      if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "ok"))) {
        const char *cls = cJSON_GetObjectItemCaseSensitive(c, "error")->valuestring;
        want = code_named(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(classes, cls), "c")->valuestring);
      }
      got = run(op, c);
      check_count++;
      if (got != want) {
        check_failures++;
        fprintf(stderr, "%s (case %d): returned %d (%s), expected %d (%s)\n",
                cJSON_GetObjectItemCaseSensitive(rule, "rule")->valuestring, cases, (int)got,
                longstraw_result_str((int)got), (int)want, longstraw_result_str((int)want));
      }
    }
  }
  CHECK(cases >= 30);
  printf("validation: %d cases for C\n", cases);
  cJSON_Delete(table);
  free(text);
  return check_report("test_validation");
}

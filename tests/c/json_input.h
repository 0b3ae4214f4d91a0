/* Reading the JSON test files the C tests share: the whole file, required
 * fields, hex bytes, integers and weights given as their IEEE-754 bits. Any
 * malformed input ends the test with exit status 2 and a message, so a broken
 * file can never pass as an empty one. */
#ifndef LONGSTRAW_TEST_JSON_INPUT_H
#define LONGSTRAW_TEST_JSON_INPUT_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

static inline void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  return p;
}

static inline char *read_file(const char *path) {
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

static inline const cJSON *field(const cJSON *obj, const char *name) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
  if (!v) {
    fprintf(stderr, "vectors: missing field \"%s\"\n", name);
    exit(2);
  }
  return v;
}

static inline int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  fprintf(stderr, "vectors: bad hex digit '%c'\n", c);
  exit(2);
}

static inline uint64_t parse_u64(const char *s, int base) {
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

static inline double weight_from_bits(const char *hex) {
  uint64_t bits = parse_u64(hex, 16);
  double w;
  memcpy(&w, &bits, sizeof w);
  return w;
}

/* A hex string field's bytes, in a fresh buffer; *len receives their count. */
static inline uint8_t *bytes_of_hex(const cJSON *v, size_t *len) {
  const char *s;
  size_t n, i;
  uint8_t *out;
  if (!cJSON_IsString(v)) {
    fprintf(stderr, "vectors: expected a hex string\n");
    exit(2);
  }
  s = v->valuestring;
  n = strlen(s);
  out = (uint8_t *)xmalloc(n / 2 + 1);
  for (i = 0; i + 1 < n; i += 2) out[i / 2] = (uint8_t)(hex_digit(s[i]) * 16 + hex_digit(s[i + 1]));
  *len = n / 2;
  return out;
}

/* A weight field written as the hex of its IEEE-754 bits. */
static inline double bits_of(const cJSON *obj, const char *name) {
  const cJSON *v = field(obj, name);
  if (!cJSON_IsString(v)) {
    fprintf(stderr, "vectors: \"%s\" is not a string\n", name);
    exit(2);
  }
  return weight_from_bits(v->valuestring);
}

/* An integer field. */
static inline int int_of(const cJSON *obj, const char *name) {
  const cJSON *v = field(obj, name);
  if (!cJSON_IsNumber(v)) {
    fprintf(stderr, "vectors: \"%s\" is not a number\n", name);
    exit(2);
  }
  return v->valueint;
}

#endif

/* Saving keyed sets from C, and secrets never shown.
 *
 * - A set loaded from a keyed membership file saves again with no source
 *   argument (it names the source its file named), and the saved file
 *   reloads to the same owners as a set built in code with the secret.
 * - A keyed set built in code saves once a secret file or variable is named;
 *   no source, two sources, or a source for an unkeyed set are refused with
 *   the membership crate's messages.
 * - No saved file, load message, last error message or result text holds any
 *   part of the secret.
 * - A balanced table with distinct domains is refused with
 *   LONGSTRAW_CONFLICTING_OPTIONS and the set's own words, the same words a
 *   membership file with that combination gets.
 *
 * usage: test_keyed_save SCRATCH_DIR */
#define _POSIX_C_SOURCE 200112L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static const uint8_t SECRET[16] = {0xc2, 0x2e, 0x91, 0x5b, 0x7d, 0x04, 0xe8, 0x3a,
                                   0x66, 0xf1, 0x0b, 0x9c, 0x52, 0xad, 0x17, 0x48};
static const char *SECRET_HEX = "c22e915b7d04e83a66f10b9c52ad1748";
static const char *NODES[] = {"a", "b", "c", "d"};
static const char *BALANCED_DISTINCT =
    "conflicting table options: a balanced table cannot also keep distinct failure domains";

static char scratch[4096];

static const char *in_scratch(const char *name) {
  static char paths[8][4200];
  static int next = 0;
  char *p = paths[next++ % 8];
  snprintf(p, sizeof paths[0], "%s/%s", scratch, name);
  return p;
}

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
    fprintf(stderr, "cannot write %s\n", path);
    exit(2);
  }
}

static char *read_file(const char *path) {
  static char text[65536];
  FILE *f = fopen(path, "rb");
  size_t n;
  if (!f) {
    text[0] = 0;
    return text;
  }
  n = fread(text, 1, sizeof text - 1, f);
  text[n] = 0;
  fclose(f);
  return text;
}

/* 1 when text holds 6 hex digits in a row of the secret (either case) or 3
 * of its raw bytes. */
static int leaks(const char *text) {
  size_t i, j;
  char upper[33];
  for (i = 0; i < 32; i++) {
    char c = SECRET_HEX[i];
    upper[i] = (char)(c >= 'a' && c <= 'f' ? c - 'a' + 'A' : c);
  }
  upper[32] = 0;
  for (i = 0; i + 6 <= 32; i++) {
    char part[7];
    memcpy(part, SECRET_HEX + i, 6);
    part[6] = 0;
    if (strstr(text, part)) return 1;
    memcpy(part, upper + i, 6);
    if (strstr(text, part)) return 1;
  }
  for (i = 0; i + 3 <= 16; i++) {
    for (j = 0; text[j] && text[j + 1] && text[j + 2]; j++) {
      if (memcmp(text + j, SECRET + i, 3) == 0) return 1;
    }
  }
  return 0;
}

static const longstraw_snapshot *snap_of_rendezvous(const longstraw_rendezvous *r) {
  const longstraw_snapshot *s = NULL;
  CHECK_OK(longstraw_rendezvous_snapshot((longstraw_rendezvous *)r, &s));
  return s;
}

/* 1 when two snapshots give the same top 2 for 300 keys. */
static int same_rankings(const longstraw_snapshot *a, const longstraw_snapshot *b) {
  int i;
  for (i = 0; i < 300; i++) {
    char key[32];
    uint32_t x[2], y[2];
    size_t nx = 0, ny = 0, k;
    sprintf(key, "user:%d", i);
    if (longstraw_snapshot_top_k(a, (const uint8_t *)key, strlen(key), x, 2, &nx) != LONGSTRAW_OK ||
        longstraw_snapshot_top_k(b, (const uint8_t *)key, strlen(key), y, 2, &ny) != LONGSTRAW_OK || nx != ny) {
      return 0;
    }
    for (k = 0; k < nx; k++) {
      const uint8_t *ia, *ib;
      size_t la, lb;
      double w;
      longstraw_snapshot_node(a, x[k], &ia, &la, &w);
      longstraw_snapshot_node(b, y[k], &ib, &lb, &w);
      if (la != lb || memcmp(ia, ib, la) != 0) return 0;
    }
  }
  return 1;
}

static longstraw_rendezvous *keyed_in_code(void) {
  longstraw_rendezvous *r = NULL;
  size_t i;
  CHECK_OK(new_flat(0, SECRET, sizeof SECRET, LONGSTRAW_PLACEMENT_VERSION, &r));
  for (i = 0; i < 4; i++) CHECK_OK(longstraw_rendezvous_add(r, (const uint8_t *)NODES[i], 1, 1.0));
  return r;
}

static void keyed_file(const char *name, const char *mode_lines) {
  char text[2048];
  snprintf(text, sizeof text,
           "%s\n[secret]\nfile = \"secret.hex\"\n\n[[nodes]]\nid = \"a\"\n\n[[nodes]]\nid = \"b\"\n\n"
           "[[nodes]]\nid = \"c\"\n\n[[nodes]]\nid = \"d\"\n",
           mode_lines);
  write_file(in_scratch(name), text);
}

static void test_loaded_sets_save_again(void) {
  longstraw_rendezvous *loaded = NULL, *again = NULL, *code = keyed_in_code();
  longstraw_rendezvous *table = NULL, *table_again = NULL;
  longstraw_rendezvous *skel = NULL, *skel_again = NULL;
  const longstraw_snapshot *s_code = snap_of_rendezvous(code), *s1, *s2;
  char saved_text[65536];

  write_file(in_scratch("secret.hex"), "c22e915b7d04e83a66f10b9c52ad1748\n");
  keyed_file("flat.toml", "mode = \"flat\"");
  CHECK_OK(longstraw_rendezvous_load_file(in_scratch("flat.toml"), &loaded));
  CHECK_OK(longstraw_rendezvous_save_file(loaded, in_scratch("flat-again.toml"), NULL, NULL));
  strcpy(saved_text, read_file(in_scratch("flat-again.toml")));
  CHECK(strstr(saved_text, "[secret]") != NULL);
  CHECK(strstr(saved_text, "secret.hex") != NULL);
  CHECK(!leaks(saved_text));
  CHECK_OK(longstraw_rendezvous_load_file(in_scratch("flat-again.toml"), &again));
  s1 = snap_of_rendezvous(again);
  CHECK(same_rankings(s1, s_code));
  longstraw_snapshot_free(s1);

  keyed_file("table.toml", "mode = \"table\"\n[table]\nbits = 5\nreplicas = 2");
  CHECK_OK(longstraw_rendezvous_load_file(in_scratch("table.toml"), &table));
  CHECK_OK(longstraw_rendezvous_save_file(table, in_scratch("table-again.toml"), NULL, NULL));
  CHECK(!leaks(read_file(in_scratch("table-again.toml"))));
  CHECK_OK(longstraw_rendezvous_load_file(in_scratch("table-again.toml"), &table_again));
  CHECK_OK(longstraw_rendezvous_snapshot(table, &s1));
  CHECK_OK(longstraw_rendezvous_snapshot(table_again, &s2));
  CHECK(same_rankings(s1, s2));
  longstraw_snapshot_free(s1);
  longstraw_snapshot_free(s2);

  keyed_file("skeleton.toml", "mode = \"skeleton\"\n[skeleton]\nfanout_bits = 1\nlevels = 1");
  CHECK_OK(longstraw_rendezvous_load_file(in_scratch("skeleton.toml"), &skel));
  CHECK_OK(longstraw_rendezvous_save_file(skel, in_scratch("skeleton-again.toml"), NULL, NULL));
  CHECK(!leaks(read_file(in_scratch("skeleton-again.toml"))));
  CHECK_OK(longstraw_rendezvous_load_file(in_scratch("skeleton-again.toml"), &skel_again));
  CHECK_OK(longstraw_rendezvous_snapshot(skel, &s1));
  CHECK_OK(longstraw_rendezvous_snapshot(skel_again, &s2));
  CHECK(same_rankings(s1, s2));
  longstraw_snapshot_free(s1);
  longstraw_snapshot_free(s2);

  /* A source given at save overrides the remembered one. */
  CHECK(setenv("LONGSTRAW_C_TEST_SECRET", SECRET_HEX, 1) == 0);
  CHECK_OK(longstraw_rendezvous_save_file(loaded, in_scratch("env.toml"), NULL, "LONGSTRAW_C_TEST_SECRET"));
  CHECK(strstr(read_file(in_scratch("env.toml")), "env = \"LONGSTRAW_C_TEST_SECRET\"") != NULL);
  CHECK(!leaks(read_file(in_scratch("env.toml"))));
  longstraw_rendezvous_free(again);
  again = NULL;
  CHECK_OK(longstraw_rendezvous_load_file(in_scratch("env.toml"), &again));
  s1 = snap_of_rendezvous(again);
  CHECK(same_rankings(s1, s_code));
  longstraw_snapshot_free(s1);

  longstraw_snapshot_free(s_code);
  longstraw_rendezvous_free(code);
  longstraw_rendezvous_free(loaded);
  longstraw_rendezvous_free(again);
  longstraw_rendezvous_free(table);
  longstraw_rendezvous_free(table_again);
  longstraw_rendezvous_free(skel);
  longstraw_rendezvous_free(skel_again);
}

static void test_sets_built_in_code(void) {
  longstraw_rendezvous *code = keyed_in_code(), *back = NULL, *plain = NULL;
  const longstraw_snapshot *s1, *s2;

  write_file(in_scratch("s.hex"), SECRET_HEX);
  remove(in_scratch("code.toml"));
  CHECK_RC(LONGSTRAW_BAD_FILE, longstraw_rendezvous_save_file(code, in_scratch("code.toml"), NULL, NULL));
  CHECK(strstr(longstraw_last_error_message(), "needs a secret source") != NULL);
  CHECK(!leaks(longstraw_last_error_message()));
  CHECK(read_file(in_scratch("code.toml"))[0] == 0);
  CHECK_RC(LONGSTRAW_BAD_FILE,
           longstraw_rendezvous_save_file(code, in_scratch("code.toml"), "s.hex", "X"));
  CHECK(strstr(longstraw_last_error_message(), "not both") != NULL);
  CHECK_RC(LONGSTRAW_BAD_FILE, longstraw_rendezvous_save_file(code, in_scratch("code.toml"), "", NULL));
  CHECK(strstr(longstraw_last_error_message(), "empty") != NULL);
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_save_file(NULL, in_scratch("code.toml"), NULL, NULL));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_save_file(code, NULL, "s.hex", NULL));
  CHECK_OK(longstraw_rendezvous_save_file(code, in_scratch("code.toml"), "s.hex", NULL));
  CHECK(strstr(read_file(in_scratch("code.toml")), "s.hex") != NULL);
  CHECK(!leaks(read_file(in_scratch("code.toml"))));
  CHECK_OK(longstraw_rendezvous_load_file(in_scratch("code.toml"), &back));
  s1 = snap_of_rendezvous(code);
  s2 = snap_of_rendezvous(back);
  CHECK(same_rankings(s1, s2));
  longstraw_snapshot_free(s1);
  longstraw_snapshot_free(s2);

  CHECK_OK(new_flat(0, NULL, 0, LONGSTRAW_PLACEMENT_VERSION, &plain));
  CHECK_OK(longstraw_rendezvous_add(plain, (const uint8_t *)"a", 1, 1.0));
  CHECK_RC(LONGSTRAW_BAD_FILE, longstraw_rendezvous_save_file(plain, in_scratch("plain.toml"), NULL, "X"));
  CHECK(strstr(longstraw_last_error_message(), "not keyed") != NULL);
  CHECK_OK(longstraw_rendezvous_save_file(plain, in_scratch("plain.toml"), NULL, NULL));
  CHECK(strstr(read_file(in_scratch("plain.toml")), "[secret]") == NULL);

  longstraw_rendezvous_free(code);
  longstraw_rendezvous_free(back);
  longstraw_rendezvous_free(plain);
}

static void test_secrets_never_shown(void) {
  char forms[6][80];
  size_t n, i;
  uint8_t long_secret[32];
  longstraw_rendezvous *r = NULL;
  longstraw_bounded *b = NULL;

  memcpy(long_secret, SECRET, 16);
  memcpy(long_secret + 16, SECRET, 16);
  for (n = 1; n <= 32; n += (n == 1 ? 14 : n == 15 ? 2 : 15)) {
    CHECK_RC(LONGSTRAW_INVALID_SECRET, new_flat(0, long_secret, n, LONGSTRAW_PLACEMENT_VERSION, &r));
    CHECK(!leaks(longstraw_last_error_message()));
    CHECK(!leaks(longstraw_result_str(LONGSTRAW_INVALID_SECRET)));
    CHECK_RC(LONGSTRAW_INVALID_SECRET,
             longstraw_bounded_new(0, long_secret, n, LONGSTRAW_PLACEMENT_VERSION, 1.25, &b));
    CHECK(!leaks(longstraw_last_error_message()));
  }
  /* A NULL secret with a length is refused, not taken as "no secret"; a seed
   * with a secret is refused with the set's words. */
  r = NULL;
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, new_flat(0, NULL, 16, LONGSTRAW_PLACEMENT_VERSION, &r));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_bounded_new(0, NULL, 16, LONGSTRAW_PLACEMENT_VERSION, 1.25, &b));
  CHECK_RC(LONGSTRAW_CONFLICTING_OPTIONS,
           new_flat(7, SECRET, sizeof SECRET, LONGSTRAW_PLACEMENT_VERSION, &r));
  CHECK(strstr(longstraw_last_error_message(), "seed") != NULL);
  CHECK(!leaks(longstraw_last_error_message()));
  CHECK_RC(LONGSTRAW_CONFLICTING_OPTIONS,
           longstraw_bounded_new(7, SECRET, sizeof SECRET, LONGSTRAW_PLACEMENT_VERSION, 1.25, &b));
  CHECK(r == NULL && b == NULL);
  snprintf(forms[0], sizeof forms[0], "%.31s", SECRET_HEX);
  snprintf(forms[1], sizeof forms[1], "%.31sz", SECRET_HEX);
  snprintf(forms[2], sizeof forms[2], "%s00", SECRET_HEX);
  snprintf(forms[3], sizeof forms[3], "%.16s %s", SECRET_HEX, SECRET_HEX + 16);
  snprintf(forms[4], sizeof forms[4], "0x%s", SECRET_HEX);
  snprintf(forms[5], sizeof forms[5], "%.30s\xff\xfe", SECRET_HEX);
  for (i = 0; i < 6; i++) {
    write_file(in_scratch("bad.hex"), forms[i]);
    write_file(in_scratch("bad-file.toml"), "[secret]\nfile = \"bad.hex\"\n\n[[nodes]]\nid = \"a\"\n");
    CHECK_RC(LONGSTRAW_BAD_FILE, longstraw_rendezvous_load_file(in_scratch("bad-file.toml"), &r));
    CHECK(strstr(longstraw_last_error_message(), "secret") != NULL);
    CHECK(!leaks(longstraw_last_error_message()));
    CHECK(setenv("LONGSTRAW_C_BAD_SECRET", forms[i], 1) == 0);
    write_file(in_scratch("bad-env.toml"), "[secret]\nenv = \"LONGSTRAW_C_BAD_SECRET\"\n\n[[nodes]]\nid = \"a\"\n");
    CHECK_RC(LONGSTRAW_BAD_FILE, longstraw_rendezvous_load_file(in_scratch("bad-env.toml"), &r));
    CHECK(strstr(longstraw_last_error_message(), "LONGSTRAW_C_BAD_SECRET") != NULL);
    CHECK(!leaks(longstraw_last_error_message()));
  }
}

static void test_balanced_with_distinct_domains(void) {
  longstraw_rendezvous *r = NULL;
  longstraw_rendezvous *t = NULL;
  const longstraw_snapshot *s;
  const char *tail;

  CHECK_OK(new_flat(0, NULL, 0, LONGSTRAW_PLACEMENT_VERSION, &r));
  CHECK_OK(longstraw_rendezvous_add_in_domain(r, (const uint8_t *)"a", 1, 1.0, (const uint8_t *)"r1", 2));
  CHECK_OK(longstraw_rendezvous_add_in_domain(r, (const uint8_t *)"b", 1, 1.0, (const uint8_t *)"r2", 2));
  s = snap_of_rendezvous(r);
  CHECK_RC(LONGSTRAW_CONFLICTING_OPTIONS,
           new_table(s, 4, 1, LONGSTRAW_TABLE_DISTINCT_DOMAINS, 1.5, &t));
  CHECK(strcmp(longstraw_last_error_message(), BALANCED_DISTINCT) == 0);
  CHECK(t == NULL);
  /* Each alone works; a failure that says no more than its code leaves no stale message. */
  CHECK_OK(new_table(s, 4, 1, 0, 1.5, &t));
  longstraw_rendezvous_free(t);
  t = NULL;
  CHECK_OK(new_table(s, 4, 1, LONGSTRAW_TABLE_DISTINCT_DOMAINS, 0.0, &t));
  longstraw_rendezvous_free(t);
  t = NULL;
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, new_table(s, 4, 1, 0, 1.5, NULL));
  CHECK(strcmp(longstraw_last_error_message(), "") == 0);
  longstraw_snapshot_free(s);

  /* The file route gives the same words. */
  write_file(in_scratch("balanced-distinct.toml"),
             "mode = \"table\"\n[table]\nbits = 4\nbalance = 1.5\ndistinct_domains = true\n\n[[nodes]]\nid = \"a\"\n");
  CHECK_RC(LONGSTRAW_BAD_FILE, longstraw_rendezvous_load_file(in_scratch("balanced-distinct.toml"), &t));
  tail = strstr(longstraw_last_error_message(), BALANCED_DISTINCT);
  CHECK(tail != NULL && strcmp(tail, BALANCED_DISTINCT) == 0);
  longstraw_rendezvous_free(r);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s SCRATCH_DIR\n", argv[0]);
    return 2;
  }
  snprintf(scratch, sizeof scratch, "%s", argv[1]);
  test_loaded_sets_save_again();
  test_sets_built_in_code();
  test_secrets_never_shown();
  test_balanced_with_distinct_domains();
  return check_report("test_keyed_save");
}

/* longstraw_options and the two constructors that take it: the defaults,
 * each mode, the seed-with-secret rule (the set's own message), the
 * struct_size rule in both directions, longstraw_rendezvous_new_from's
 * hashing rule, and no secret byte in any message.
 *
 * Usage: test_options SCRATCH_DIR */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* The set's text for a seed given with a secret (longstraw::Error::SeedWithSecret). */
static const char SEED_WITH_SECRET[] =
    "give either a seed (placement v1) or a secret (keyed-v1), not both: a keyed set has no seed";

/* Printable, so that a message quoting any part of it would show. */
static const uint8_t SECRET[LONGSTRAW_SECRET_LEN] = {'S', 'E', 'C', 'R', 'E', 'T', 'q', 'z',
                                                      'S', 'E', 'C', 'R', 'E', 'T', 'q', 'z'};

static const char *message(void) { return longstraw_last_error_message(); }

static int mentions(const char *text, const char *part) { return strstr(text, part) != NULL; }

/* No 4-byte run of the secret appears in the last error message. */
static int shows_secret(void) {
  const char *m = message();
  char run[5];
  size_t i;
  for (i = 0; i + 4 <= sizeof SECRET; i++) {
    memcpy(run, SECRET + i, 4);
    run[4] = '\0';
    if (strstr(m, run)) return 1;
  }
  return 0;
}

static void add_nodes(longstraw_rendezvous *r, int n) {
  char id[16];
  int i;
  for (i = 0; i < n; i++) {
    int len = snprintf(id, sizeof id, "node-%d", i);
    CHECK_OK(longstraw_rendezvous_add(r, (const uint8_t *)id, (size_t)len, 1.0 + i % 3));
  }
}

static longstraw_mode mode_of(const longstraw_rendezvous *r) {
  longstraw_mode m = (longstraw_mode)99;
  CHECK_OK(longstraw_rendezvous_mode(r, &m));
  return m;
}

static void test_defaults(void) {
  longstraw_options o;
  longstraw_rendezvous *a = NULL, *b = NULL;
  const longstraw_snapshot *sa = NULL, *sb = NULL;
  uint64_t seed = 7;
  uint32_t keyed = 7, placement = 0;
  int k;

  memset(&o, 0xA5, sizeof o);
  CHECK_OK(longstraw_options_init(&o, sizeof o));
  CHECK(o.struct_size == sizeof o);
  CHECK(o.placement == LONGSTRAW_PLACEMENT_VERSION);
  CHECK(o.has_seed == 0 && o.seed == 0);
  CHECK(o.mode == LONGSTRAW_MODE_FLAT);
  CHECK(o.secret == NULL && o.secret_len == 0 && o.secret_file == NULL);
  CHECK(o.replicas == 1 && o.balance == 0.0 && o.table_flags == 0);
  CHECK(o.partition_bits == LONGSTRAW_AUTO && o.fanout_bits == LONGSTRAW_AUTO && o.levels == LONGSTRAW_AUTO);
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_options_init(NULL, sizeof o));

  /* The defaults and NULL are the same set: flat, unkeyed, seed 0, placement v1. */
  CHECK_OK(longstraw_rendezvous_new(&o, &a));
  CHECK_OK(longstraw_rendezvous_new(NULL, &b));
  if (!a || !b) return;
  CHECK(mode_of(a) == LONGSTRAW_MODE_FLAT && mode_of(b) == LONGSTRAW_MODE_FLAT);
  add_nodes(a, 9);
  add_nodes(b, 9);
  CHECK_OK(longstraw_rendezvous_snapshot(a, &sa));
  CHECK_OK(longstraw_rendezvous_snapshot(b, &sb));
  CHECK_OK(longstraw_snapshot_seed(sa, &seed));
  CHECK_OK(longstraw_snapshot_is_keyed(sa, &keyed));
  CHECK_OK(longstraw_snapshot_placement(sa, &placement));
  CHECK(seed == 0 && keyed == 0 && placement == LONGSTRAW_PLACEMENT_VERSION);
  for (k = 0; k < 200; k++) {
    char key[16];
    int len = snprintf(key, sizeof key, "key-%d", k);
    uint32_t ia = 0, ib = 1;
    const uint8_t *id = NULL;
    size_t id_len = 0;
    CHECK_OK(longstraw_snapshot_owner(sa, (const uint8_t *)key, (size_t)len, &ia, &id, &id_len));
    CHECK_OK(longstraw_snapshot_owner(sb, (const uint8_t *)key, (size_t)len, &ib, &id, &id_len));
    CHECK(ia == ib);
  }
  longstraw_snapshot_free(sa);
  longstraw_snapshot_free(sb);
  longstraw_rendezvous_free(a);
  longstraw_rendezvous_free(b);
}

static void test_each_mode(void) {
  longstraw_options o;
  longstraw_rendezvous *flat = NULL, *t = NULL, *sk = NULL, *empty_t = NULL;
  const longstraw_snapshot *members = NULL, *st = NULL;
  uint8_t bits = 0, fanout = 0, levels = 0;
  size_t replicas = 0, len = 0;
  uint32_t flags = 9;
  double balance = -1;
  uint64_t seed = 0;

  longstraw_options_init(&o, sizeof o);
  o.has_seed = 1;
  o.seed = 42;
  CHECK_OK(longstraw_rendezvous_new(&o, &flat));
  if (!flat) return;
  add_nodes(flat, 12);
  CHECK_OK(longstraw_rendezvous_snapshot(flat, &members));

  /* A table over the flat set's membership, inheriting its seed. */
  longstraw_options_init(&o, sizeof o);
  o.mode = LONGSTRAW_MODE_TABLE;
  o.partition_bits = 5;
  o.replicas = 2;
  o.table_flags = LONGSTRAW_TABLE_DISTINCT_DOMAINS;
  CHECK_OK(longstraw_rendezvous_new_from(members, &o, &t));
  if (t) {
    CHECK(mode_of(t) == LONGSTRAW_MODE_TABLE);
    CHECK_OK(set_table_shape(t, &bits, &replicas, &flags, &balance));
    CHECK(bits == 5 && replicas == 2 && flags == LONGSTRAW_TABLE_DISTINCT_DOMAINS && balance == 0.0);
    CHECK_OK(longstraw_rendezvous_len(t, &len));
    CHECK(len == 12);
    CHECK_OK(longstraw_rendezvous_snapshot(t, &st));
    CHECK_OK(longstraw_snapshot_seed(st, &seed));
    CHECK(seed == 42);
    longstraw_snapshot_free(st);
  }
  /* A balanced table. */
  o.table_flags = 0;
  o.balance = 1.25;
  longstraw_rendezvous_free(t);
  t = NULL;
  CHECK_OK(longstraw_rendezvous_new_from(members, &o, &t));
  if (t) {
    CHECK_OK(set_table_shape(t, &bits, &replicas, &flags, &balance));
    CHECK(balance == 1.25 && flags == 0);
  }
  /* An empty table of 2^3 partitions straight from longstraw_rendezvous_new. */
  o.balance = 0.0;
  o.partition_bits = 3;
  CHECK_OK(longstraw_rendezvous_new(&o, &empty_t));
  if (empty_t) {
    CHECK(mode_of(empty_t) == LONGSTRAW_MODE_TABLE);
    add_nodes(empty_t, 3);
    CHECK_OK(set_table_shape(empty_t, &bits, &replicas, &flags, &balance));
    CHECK(bits == 3 && replicas == 2);
  }

  /* A skeleton, given and automatic. */
  longstraw_options_init(&o, sizeof o);
  o.mode = LONGSTRAW_MODE_SKELETON;
  o.fanout_bits = 2;
  o.levels = 1;
  CHECK_OK(longstraw_rendezvous_new_from(members, &o, &sk));
  if (sk) {
    CHECK(mode_of(sk) == LONGSTRAW_MODE_SKELETON);
    CHECK_OK(set_skeleton_shape(sk, &fanout, &levels));
    CHECK(fanout == 2 && levels == 1);
    longstraw_rendezvous_free(sk);
    sk = NULL;
  }
  o.levels = LONGSTRAW_AUTO;
  CHECK_RC(LONGSTRAW_INVALID_PARAMETER, longstraw_rendezvous_new_from(members, &o, &sk));
  CHECK(mentions(message(), "both LONGSTRAW_AUTO"));
  o.fanout_bits = LONGSTRAW_AUTO;
  CHECK_OK(longstraw_rendezvous_new(&o, &sk));
  if (sk) CHECK(mode_of(sk) == LONGSTRAW_MODE_SKELETON);

  /* Values are the set's to check; the conversion only refuses what C alone gets wrong. */
  longstraw_options_init(&o, sizeof o);
  o.mode = LONGSTRAW_MODE_TABLE;
  o.replicas = LONGSTRAW_MAX_REPLICAS + 1;
  CHECK_RC(LONGSTRAW_INVALID_PARAMETER, longstraw_rendezvous_new_from(members, &o, &t));
  o.replicas = 1;
  o.partition_bits = LONGSTRAW_MAX_PARTITION_BITS + 1;
  CHECK_RC(LONGSTRAW_INVALID_PARAMETER, longstraw_rendezvous_new_from(members, &o, &t));
  o.partition_bits = 4;
  o.table_flags = 2;
  CHECK_RC(LONGSTRAW_INVALID_PARAMETER, longstraw_rendezvous_new_from(members, &o, &t));
  o.table_flags = LONGSTRAW_TABLE_DISTINCT_DOMAINS;
  o.balance = 1.5;
  CHECK_RC(LONGSTRAW_CONFLICTING_OPTIONS, longstraw_rendezvous_new_from(members, &o, &t));
  longstraw_options_init(&o, sizeof o);
  o.mode = 7;
  CHECK_RC(LONGSTRAW_INVALID_PARAMETER, longstraw_rendezvous_new(&o, &t));
  CHECK(mentions(message(), "mode is 7"));
  /* A shape field of another mode is a mistake, not something to ignore. */
  longstraw_options_init(&o, sizeof o);
  o.replicas = 3;
  CHECK_RC(LONGSTRAW_INVALID_PARAMETER, longstraw_rendezvous_new(&o, &t));
  CHECK(mentions(message(), "replicas") && mentions(message(), "flat"));
  longstraw_options_init(&o, sizeof o);
  o.mode = LONGSTRAW_MODE_TABLE;
  o.levels = 2;
  CHECK_RC(LONGSTRAW_INVALID_PARAMETER, longstraw_rendezvous_new(&o, &t));
  CHECK(mentions(message(), "levels") && mentions(message(), "skeleton"));
  longstraw_options_init(&o, sizeof o);
  o.has_seed = 2;
  CHECK_RC(LONGSTRAW_INVALID_PARAMETER, longstraw_rendezvous_new(&o, &t));
  CHECK(mentions(message(), "has_seed"));

  longstraw_rendezvous_free(t);
  longstraw_rendezvous_free(sk);
  longstraw_rendezvous_free(empty_t);
  longstraw_snapshot_free(members);
  longstraw_rendezvous_free(flat);
}

static void test_seed_and_secret(void) {
  longstraw_options o;
  longstraw_rendezvous *r = NULL;
  const longstraw_snapshot *s = NULL;
  uint32_t keyed = 0;

  /* A seed of 0, given, with a secret: refused by the set's one rule, in its words. */
  longstraw_options_init(&o, sizeof o);
  o.has_seed = 1;
  o.seed = 0;
  o.secret = SECRET;
  o.secret_len = sizeof SECRET;
  CHECK_RC(LONGSTRAW_CONFLICTING_OPTIONS, longstraw_rendezvous_new(&o, &r));
  CHECK(strcmp(message(), SEED_WITH_SECRET) == 0);
  CHECK(!shows_secret());
  CHECK(r == NULL);
  o.seed = 99;
  CHECK_RC(LONGSTRAW_CONFLICTING_OPTIONS, longstraw_rendezvous_new(&o, &r));
  CHECK(strcmp(message(), SEED_WITH_SECRET) == 0);

  /* No seed with the secret: a keyed set. */
  o.has_seed = 0;
  CHECK_OK(longstraw_rendezvous_new(&o, &r));
  if (r) {
    CHECK_OK(longstraw_rendezvous_snapshot(r, &s));
    CHECK_OK(longstraw_snapshot_is_keyed(s, &keyed));
    CHECK(keyed == 1);
    longstraw_snapshot_free(s);
    longstraw_rendezvous_free(r);
    r = NULL;
  }
  /* A secret of the wrong length: its bytes are never shown. */
  o.secret_len = sizeof SECRET - 1;
  CHECK_RC(LONGSTRAW_INVALID_SECRET, longstraw_rendezvous_new(&o, &r));
  CHECK(!shows_secret());
  o.secret = NULL;
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_new(&o, &r));
  o.secret_len = 0;
  o.placement = 2;
  CHECK_RC(LONGSTRAW_UNKNOWN_PLACEMENT, longstraw_rendezvous_new(&o, &r));
  CHECK(r == NULL);
}

static void test_secret_file(const char *dir) {
  char good[512], bad[512];
  FILE *f;
  longstraw_options o;
  longstraw_rendezvous *r = NULL;
  const longstraw_snapshot *s = NULL;
  uint32_t keyed = 0;

  snprintf(good, sizeof good, "%s/good.secret", dir);
  snprintf(bad, sizeof bad, "%s/bad.secret", dir);
  f = fopen(good, "w");
  if (!f) { CHECK(!"cannot write the secret file"); return; }
  fputs("000102030405060708090a0b0c0d0e0f\n", f);
  fclose(f);
  f = fopen(bad, "w");
  if (!f) { CHECK(!"cannot write the secret file"); return; }
  fwrite(SECRET, 1, sizeof SECRET, f); /* not hexadecimal: refused, never quoted */
  fclose(f);

  longstraw_options_init(&o, sizeof o);
  o.secret_file = good;
  CHECK_OK(longstraw_rendezvous_new(&o, &r));
  if (r) {
    CHECK_OK(longstraw_rendezvous_snapshot(r, &s));
    CHECK_OK(longstraw_snapshot_is_keyed(s, &keyed));
    CHECK(keyed == 1);
    longstraw_snapshot_free(s);
    longstraw_rendezvous_free(r);
    r = NULL;
  }
  o.has_seed = 1;
  CHECK_RC(LONGSTRAW_CONFLICTING_OPTIONS, longstraw_rendezvous_new(&o, &r));
  CHECK(strcmp(message(), SEED_WITH_SECRET) == 0);
  o.has_seed = 0;
  o.secret = SECRET;
  o.secret_len = sizeof SECRET;
  CHECK_RC(LONGSTRAW_CONFLICTING_OPTIONS, longstraw_rendezvous_new(&o, &r));
  CHECK(mentions(message(), "not both"));
  o.secret = NULL;
  o.secret_len = 0;
  o.secret_file = bad;
  CHECK_RC(LONGSTRAW_INVALID_SECRET, longstraw_rendezvous_new(&o, &r));
  CHECK(mentions(message(), "bad.secret"));
  CHECK(!shows_secret());
  CHECK(r == NULL);
  remove(good);
  remove(bad);
}

/* A caller built against a newer header: its struct is longer. */
typedef struct {
  longstraw_options known;
  uint64_t future[3];
} newer_options;

static void test_struct_size(void) {
  longstraw_options o;
  newer_options n;
  longstraw_rendezvous *r = NULL;

  longstraw_options_init(&o, sizeof o);
  o.struct_size = (uint32_t)sizeof o - 1;
  CHECK_RC(LONGSTRAW_INVALID_PARAMETER, longstraw_rendezvous_new(&o, &r));
  CHECK(mentions(message(), "struct_size"));
  o.struct_size = 0;
  CHECK_RC(LONGSTRAW_INVALID_PARAMETER, longstraw_rendezvous_new(&o, &r));
  o.struct_size = 1u << 20;
  CHECK_RC(LONGSTRAW_INVALID_PARAMETER, longstraw_rendezvous_new(&o, &r));
  CHECK_RC(LONGSTRAW_INVALID_PARAMETER, longstraw_options_init(&o, sizeof o - 1));
  CHECK(r == NULL);

  /* Longer, with the bytes this library does not know all zero: accepted. */
  memset(&n, 0xA5, sizeof n);
  CHECK_OK(longstraw_options_init(&n.known, sizeof n));
  CHECK(n.known.struct_size == sizeof n);
  CHECK(n.future[0] == 0 && n.future[1] == 0 && n.future[2] == 0);
  n.known.mode = LONGSTRAW_MODE_TABLE;
  n.known.partition_bits = 4;
  CHECK_OK(longstraw_rendezvous_new(&n.known, &r));
  if (r) CHECK(mode_of(r) == LONGSTRAW_MODE_TABLE);
  longstraw_rendezvous_free(r);
  r = NULL;
  /* An option this library does not know is set: refused, never ignored. */
  n.future[2] = 1;
  CHECK_RC(LONGSTRAW_INVALID_PARAMETER, longstraw_rendezvous_new(&n.known, &r));
  CHECK(mentions(message(), "newer"));
  CHECK(r == NULL);
}

static void test_new_from_hashing(void) {
  longstraw_options o;
  longstraw_rendezvous *keyed = NULL, *r = NULL;
  const longstraw_snapshot *members = NULL, *s = NULL;
  uint32_t is_keyed = 0;

  longstraw_options_init(&o, sizeof o);
  o.secret = SECRET;
  o.secret_len = sizeof SECRET;
  CHECK_OK(longstraw_rendezvous_new(&o, &keyed));
  if (!keyed) return;
  add_nodes(keyed, 5);
  CHECK_OK(longstraw_rendezvous_snapshot(keyed, &members));

  /* NULL options: a flat copy, keyed by the snapshot's secret. */
  CHECK_OK(longstraw_rendezvous_new_from(members, NULL, &r));
  if (r) {
    CHECK(mode_of(r) == LONGSTRAW_MODE_FLAT);
    CHECK_OK(longstraw_rendezvous_snapshot(r, &s));
    CHECK_OK(longstraw_snapshot_is_keyed(s, &is_keyed));
    CHECK(is_keyed == 1);
    longstraw_snapshot_free(s);
    longstraw_rendezvous_free(r);
    r = NULL;
  }
  /* The hashing comes from the snapshot: giving any of it here is refused. */
  CHECK_RC(LONGSTRAW_CONFLICTING_OPTIONS, longstraw_rendezvous_new_from(members, &o, &r));
  CHECK(mentions(message(), "from that snapshot"));
  CHECK(!shows_secret());
  longstraw_options_init(&o, sizeof o);
  o.has_seed = 1;
  CHECK_RC(LONGSTRAW_CONFLICTING_OPTIONS, longstraw_rendezvous_new_from(members, &o, &r));
  longstraw_options_init(&o, sizeof o);
  o.placement = 2;
  CHECK_RC(LONGSTRAW_CONFLICTING_OPTIONS, longstraw_rendezvous_new_from(members, &o, &r));
  CHECK(mentions(message(), "placement"));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_new_from(NULL, NULL, &r));
  CHECK_RC(LONGSTRAW_NULL_ARGUMENT, longstraw_rendezvous_new_from(members, NULL, NULL));
  CHECK(r == NULL);

  longstraw_snapshot_free(members);
  longstraw_rendezvous_free(keyed);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s SCRATCH_DIR\n", argv[0]);
    return 2;
  }
  test_defaults();
  test_each_mode();
  test_seed_and_secret();
  test_secret_file(argv[1]);
  test_struct_size();
  test_new_from_hashing();
  return check_report("test_options");
}

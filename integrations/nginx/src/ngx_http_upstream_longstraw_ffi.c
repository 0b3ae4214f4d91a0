/*
 * The nginx module's whole use of the longstraw C ABI (see the header).
 */
#include "ngx_http_upstream_longstraw_ffi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "longstraw.h"

struct lsn_tier {
  const longstraw_snapshot *snap;
  longstraw_bounded_rule *rule; /* NULL without bounded loads */
};

static int fail(char *err, size_t err_len, const char *what, longstraw_result rc) {
  const char *detail = longstraw_last_error_message();
  if (detail == NULL || detail[0] == '\0') detail = longstraw_result_str((int)rc);
  snprintf(err, err_len, "%s: %s", what, detail);
  return -1;
}

int lsn_tier_new(const lsn_node *nodes, size_t n, const lsn_options *options, lsn_tier **out, char *err,
                 size_t err_len) {
  longstraw_rendezvous *set = NULL;
  longstraw_options set_options;
  lsn_tier *t;
  longstraw_result rc;
  size_t i;

  rc = longstraw_options_init(&set_options, sizeof set_options);
  if (rc != LONGSTRAW_OK) return fail(err, err_len, "options", rc);
  set_options.has_seed = options->has_seed ? 1 : 0;
  set_options.seed = options->seed;
  set_options.secret_file = options->secret_file;
  rc = longstraw_rendezvous_new(&set_options, &set);
  if (rc != LONGSTRAW_OK) return fail(err, err_len, options->secret_file != NULL ? "secret_file" : "seed", rc);
  for (i = 0; i < n; i++) {
    rc = longstraw_rendezvous_add(set, nodes[i].id, nodes[i].id_len, nodes[i].weight);
    if (rc != LONGSTRAW_OK) {
      char what[160];
      snprintf(what, sizeof what, "server \"%.*s\"", (int)(nodes[i].id_len > 100 ? 100 : nodes[i].id_len),
               (const char *)nodes[i].id);
      longstraw_rendezvous_free(set);
      return fail(err, err_len, what, rc);
    }
  }
  t = calloc(1, sizeof *t);
  if (t == NULL) {
    longstraw_rendezvous_free(set);
    snprintf(err, err_len, "out of memory");
    return -1;
  }
  rc = longstraw_rendezvous_snapshot(set, &t->snap);
  longstraw_rendezvous_free(set);
  if (rc != LONGSTRAW_OK) {
    free(t);
    return fail(err, err_len, "snapshot", rc);
  }
  if (options->balance != 0) {
    rc = longstraw_bounded_rule_new(t->snap, options->balance, &t->rule);
    if (rc != LONGSTRAW_OK) {
      lsn_tier_free(t);
      return fail(err, err_len, "balance", rc);
    }
  }
  *out = t;
  return 0;
}

void lsn_tier_free(lsn_tier *t) {
  if (t == NULL) return;
  longstraw_bounded_rule_free(t->rule);
  longstraw_snapshot_free(t->snap);
  free(t);
}

long lsn_tier_top_k(const lsn_tier *t, const unsigned char *key, size_t key_len, uint32_t *out, size_t k) {
  size_t written = 0;
  if (longstraw_snapshot_top_k(t->snap, key, key_len, out, k, &written) != LONGSTRAW_OK) return -1;
  return (long)written;
}

int lsn_tier_admit(const lsn_tier *t, const unsigned char *key, size_t key_len, const uint64_t *loads, size_t n,
                   uint64_t total, const uint8_t *unavailable, uint32_t *index, int *over_cap) {
  uint32_t owner = 0, over = 0;
  longstraw_result rc;
  if (t->rule == NULL) return -1;
  rc = longstraw_bounded_rule_admit(t->rule, key, key_len, loads, n, total, unavailable, n, index, &owner, &over);
  if (rc == LONGSTRAW_NO_ELIGIBLE_NODE) return 1;
  if (rc != LONGSTRAW_OK) return -1;
  *over_cap = over != 0;
  return 0;
}

uint64_t lsn_tier_cap(const lsn_tier *t, uint32_t index, uint64_t total) {
  uint64_t cap = 0;
  if (t->rule == NULL || longstraw_bounded_rule_cap(t->rule, index, total, &cap) != LONGSTRAW_OK) return 0;
  return cap;
}

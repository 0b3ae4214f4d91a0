/*
 * The nginx module's whole use of the longstraw C ABI, behind a small API of
 * plain C types (no nginx types), so that a change of the C ABI touches this
 * file and its .c only.
 *
 * A tier is one ranked group of servers (the primaries, or the backups): a
 * flat longstraw snapshot of the servers' ids and weights, and, with bounded
 * loads, the stateless admission rule over it (SPEC.md section 16.7).
 */
#ifndef NGX_HTTP_UPSTREAM_LONGSTRAW_FFI_H
#define NGX_HTTP_UPSTREAM_LONGSTRAW_FFI_H

#include <stddef.h>
#include <stdint.h>

typedef struct lsn_tier lsn_tier;

typedef struct {
  const unsigned char *id; /* the server address as written in the config */
  size_t id_len;
  double weight; /* 0: down (in the set, never ranked) */
} lsn_node;

typedef struct {
  int has_seed;
  uint64_t seed;
  const char *secret_file; /* NUL-terminated path, or NULL: unkeyed */
  double balance;          /* 0: no bounded loads */
} lsn_options;

/* Builds a tier. Returns 0, or -1 with a NUL-terminated reason in err (never
 * any part of a secret). */
int lsn_tier_new(const lsn_node *nodes, size_t n, const lsn_options *options, lsn_tier **out, char *err,
                 size_t err_len);
void lsn_tier_free(lsn_tier *t);

/* The best k node indices for key, best first; returns how many (0 when no
 * node is eligible), or -1 on an error. */
long lsn_tier_top_k(const lsn_tier *t, const unsigned char *key, size_t key_len, uint32_t *out, size_t k);

/* Bounded-loads admission (tiers built with a balance): loads[i] are the
 * in-flight counts of the n nodes, total their sum (it counts every request
 * in flight), unavailable[i] != 0 passes node i over. Returns 0 with *index
 * (and *over_cap = 1 when every available node was at its cap), 1 when no
 * node is available, -1 on an error. */
int lsn_tier_admit(const lsn_tier *t, const unsigned char *key, size_t key_len, const uint64_t *loads, size_t n,
                   uint64_t total, const uint8_t *unavailable, uint32_t *index, int *over_cap);

/* The cap of node index for one more request with total in flight
 * (documentation and tests); 0 on an error. */
uint64_t lsn_tier_cap(const lsn_tier *t, uint32_t index, uint64_t total);

#endif

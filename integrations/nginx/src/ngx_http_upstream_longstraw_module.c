/*
 * ngx_http_upstream_longstraw_module: rendezvous (HRW) hashing for an nginx
 * upstream, with nginx's weights, down, backup, max_fails/fail_timeout and
 * max_conns, and optional bounded loads whose in-flight counts are the
 * upstream zone's per-peer counts (shared by every worker process).
 *
 *   upstream app {
 *       zone app 64k;                          # needed with balance=
 *       longstraw $request_uri seed=7 balance=1.25;
 *       server 10.0.0.1:8080 weight=2;
 *       server 10.0.0.2:8080;
 *       server 10.0.0.3:8080 backup;
 *   }
 *
 * Placement comes from liblongstraw through ngx_http_upstream_longstraw_ffi.c
 * (the module's only user of the C ABI); this file computes no placement and
 * no cap. Modelled on nginx's ngx_http_upstream_hash_module.
 */

#include <ngx_config.h>
#include <ngx_core.h>
#include <ngx_http.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "ngx_http_upstream_longstraw_ffi.h"

#define LSN_TIERS 2 /* primaries, backups */

typedef struct {
    ngx_http_complex_value_t            key;
    ngx_uint_t                          has_seed;
    uint64_t                            seed;
    ngx_str_t                           secret_file; /* NUL-terminated */
    double                              balance;     /* 0: off */
    lsn_tier                           *tier[LSN_TIERS];
    ngx_uint_t                          size[LSN_TIERS];
} ngx_http_upstream_longstraw_srv_conf_t;

typedef struct {
    /* the round robin data must be first */
    ngx_http_upstream_rr_peer_data_t         rrp;
    ngx_http_upstream_longstraw_srv_conf_t  *conf;
    ngx_str_t                                key;
    ngx_uint_t                               tier;
    uint32_t                                *ranking; /* a tier's full ranking, made on first need */
    ngx_uint_t                               ranked;  /* its length; 0: not made yet */
    ngx_http_upstream_rr_peer_t            **peer;    /* peers by index, for the current tier */
    uint64_t                                *loads;
    uint8_t                                 *unavailable;
    uint64_t                                 admitted_total; /* bounded loads: the last admission's */
    uint64_t                                 admitted_load;  /* total and the peer's count, before it */
    ngx_uint_t                               admitted;
#if (NGX_HTTP_UPSTREAM_LONGSTRAW_TIMING)
    uint64_t                                 pick_ns;      /* the last peer choice, timed */
    uint64_t                                 pick_warm_ns; /* the same choice repeated, per choice */
#endif
} ngx_http_upstream_longstraw_peer_data_t;

#if (NGX_HTTP_UPSTREAM_LONGSTRAW_TIMING)
#include <time.h>

#define LSN_TIMING_REPEATS 64

static uint64_t
ngx_http_upstream_longstraw_now_ns(void)
{
    struct timespec  ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t) ts.tv_sec * 1000000000 + (uint64_t) ts.tv_nsec;
}
#endif


static ngx_int_t ngx_http_upstream_init_longstraw(ngx_conf_t *cf,
    ngx_http_upstream_srv_conf_t *us);
static ngx_int_t ngx_http_upstream_init_longstraw_peer(ngx_http_request_t *r,
    ngx_http_upstream_srv_conf_t *us);
static ngx_int_t ngx_http_upstream_get_longstraw_peer(ngx_peer_connection_t *pc,
    void *data);
static void *ngx_http_upstream_longstraw_create_conf(ngx_conf_t *cf);
static char *ngx_http_upstream_longstraw(ngx_conf_t *cf, ngx_command_t *cmd,
    void *conf);
static ngx_int_t ngx_http_upstream_longstraw_add_variables(ngx_conf_t *cf);


static ngx_command_t  ngx_http_upstream_longstraw_commands[] = {

    { ngx_string("longstraw"),
      NGX_HTTP_UPS_CONF|NGX_CONF_1MORE,
      ngx_http_upstream_longstraw,
      NGX_HTTP_SRV_CONF_OFFSET,
      0,
      NULL },

      ngx_null_command
};


static ngx_http_module_t  ngx_http_upstream_longstraw_module_ctx = {
    ngx_http_upstream_longstraw_add_variables, /* preconfiguration */
    NULL,                                     /* postconfiguration */
    NULL,                                     /* create main configuration */
    NULL,                                     /* init main configuration */
    ngx_http_upstream_longstraw_create_conf,  /* create server configuration */
    NULL,                                     /* merge server configuration */
    NULL,                                     /* create location configuration */
    NULL                                      /* merge location configuration */
};


ngx_module_t  ngx_http_upstream_longstraw_module = {
    NGX_MODULE_V1,
    &ngx_http_upstream_longstraw_module_ctx,  /* module context */
    ngx_http_upstream_longstraw_commands,     /* module directives */
    NGX_HTTP_MODULE,                          /* module type */
    NULL,                                     /* init master */
    NULL,                                     /* init module */
    NULL,                                     /* init process */
    NULL,                                     /* init thread */
    NULL,                                     /* exit thread */
    NULL,                                     /* exit process */
    NULL,                                     /* exit master */
    NGX_MODULE_V1_PADDING
};


static void
ngx_http_upstream_longstraw_cleanup(void *data)
{
    ngx_http_upstream_longstraw_srv_conf_t  *lcf = data;
    ngx_uint_t                               t;

    for (t = 0; t < LSN_TIERS; t++) {
        lsn_tier_free(lcf->tier[t]);
        lcf->tier[t] = NULL;
    }
}


static ngx_int_t
ngx_http_upstream_init_longstraw(ngx_conf_t *cf, ngx_http_upstream_srv_conf_t *us)
{
    char                                     err[512];
    ngx_uint_t                               i, t, n;
    lsn_node                                *nodes;
    lsn_options                              options;
    ngx_pool_cleanup_t                      *cln;
    ngx_http_upstream_server_t              *server;
    ngx_http_upstream_longstraw_srv_conf_t  *lcf;

    lcf = ngx_http_conf_upstream_srv_conf(us, ngx_http_upstream_longstraw_module);

    if (us->servers == NULL || us->servers->nelts == 0) {
        ngx_log_error(NGX_LOG_EMERG, cf->log, 0,
                      "longstraw: no servers in upstream \"%V\" in %s:%ui",
                      &us->host, us->file_name, us->line);
        return NGX_ERROR;
    }

    if (lcf->balance != 0 && us->shm_zone == NULL) {
        ngx_log_error(NGX_LOG_EMERG, cf->log, 0,
                      "longstraw: balance= needs a \"zone\" in upstream \"%V\" "
                      "in %s:%ui, so that the in-flight counts are shared "
                      "by every worker process",
                      &us->host, us->file_name, us->line);
        return NGX_ERROR;
    }

    server = us->servers->elts;

    for (i = 0; i < us->servers->nelts; i++) {
        if (server[i].naddrs != 1) {
            ngx_log_error(NGX_LOG_EMERG, cf->log, 0,
                          "longstraw: server \"%V\" in upstream \"%V\" "
                          "resolves to %ui addresses; a longstraw node id is "
                          "the server address as written, so list each "
                          "address as its own server",
                          &server[i].name, &us->host, server[i].naddrs);
            return NGX_ERROR;
        }
    }

    nodes = ngx_palloc(cf->pool, us->servers->nelts * sizeof(lsn_node));
    if (nodes == NULL) {
        return NGX_ERROR;
    }

    cln = ngx_pool_cleanup_add(cf->pool, 0);
    if (cln == NULL) {
        return NGX_ERROR;
    }
    cln->handler = ngx_http_upstream_longstraw_cleanup;
    cln->data = lcf;

    options.has_seed = (int) lcf->has_seed;
    options.seed = lcf->seed;
    options.secret_file = lcf->secret_file.len
                          ? (const char *) lcf->secret_file.data : NULL;
    options.balance = lcf->balance;

    for (t = 0; t < LSN_TIERS; t++) {
        n = 0;

        for (i = 0; i < us->servers->nelts; i++) {
            if (server[i].backup != (t == 1)) {
                continue;
            }

            nodes[n].id = server[i].name.data;
            nodes[n].id_len = server[i].name.len;
            nodes[n].weight = server[i].down ? 0.0 : (double) server[i].weight;
            n++;
        }

        lcf->size[t] = n;

        if (n == 0) {
            if (t == 0) {
                ngx_log_error(NGX_LOG_EMERG, cf->log, 0,
                              "longstraw: no primary servers in upstream "
                              "\"%V\" in %s:%ui (only backups)",
                              &us->host, us->file_name, us->line);
                return NGX_ERROR;
            }

            continue;
        }

        if (lsn_tier_new(nodes, n, &options, &lcf->tier[t], err, sizeof(err))
            != 0)
        {
            ngx_log_error(NGX_LOG_EMERG, cf->log, 0,
                          "longstraw: upstream \"%V\" in %s:%ui: %s",
                          &us->host, us->file_name, us->line, err);
            return NGX_ERROR;
        }
    }

    if (ngx_http_upstream_init_round_robin(cf, us) != NGX_OK) {
        return NGX_ERROR;
    }

    us->peer.init = ngx_http_upstream_init_longstraw_peer;

    return NGX_OK;
}


static ngx_int_t
ngx_http_upstream_longstraw_tier_buffers(ngx_http_request_t *r,
    ngx_http_upstream_longstraw_peer_data_t *lp, ngx_uint_t n)
{
    lp->ranking = ngx_palloc(r->pool, n * sizeof(uint32_t));
    lp->peer = ngx_palloc(r->pool, n * sizeof(ngx_http_upstream_rr_peer_t *));
    lp->loads = ngx_palloc(r->pool, n * sizeof(uint64_t));
    lp->unavailable = ngx_palloc(r->pool, n);

    if (lp->ranking == NULL || lp->peer == NULL || lp->loads == NULL
        || lp->unavailable == NULL)
    {
        return NGX_ERROR;
    }

    return NGX_OK;
}


static ngx_int_t
ngx_http_upstream_init_longstraw_peer(ngx_http_request_t *r,
    ngx_http_upstream_srv_conf_t *us)
{
    ngx_uint_t                                n;
    ngx_http_upstream_longstraw_srv_conf_t   *lcf;
    ngx_http_upstream_longstraw_peer_data_t  *lp;

    lp = ngx_palloc(r->pool, sizeof(ngx_http_upstream_longstraw_peer_data_t));
    if (lp == NULL) {
        return NGX_ERROR;
    }

    r->upstream->peer.data = &lp->rrp;

    if (ngx_http_upstream_init_round_robin_peer(r, us) != NGX_OK) {
        return NGX_ERROR;
    }

    r->upstream->peer.get = ngx_http_upstream_get_longstraw_peer;

    lcf = ngx_http_conf_upstream_srv_conf(us, ngx_http_upstream_longstraw_module);

    if (ngx_http_complex_value(r, &lcf->key, &lp->key) != NGX_OK) {
        return NGX_ERROR;
    }

    ngx_log_debug1(NGX_LOG_DEBUG_HTTP, r->connection->log, 0,
                   "upstream longstraw key:\"%V\"", &lp->key);

    lp->conf = lcf;
    lp->tier = 0;
    lp->ranked = 0;
    lp->admitted = 0;
#if (NGX_HTTP_UPSTREAM_LONGSTRAW_TIMING)
    lp->pick_ns = 0;
    lp->pick_warm_ns = 0;
#endif

    n = ngx_max(lcf->size[0], lcf->size[1]);

    return ngx_http_upstream_longstraw_tier_buffers(r, lp, n);
}


/* Whether nginx may use the peer now, as its round robin decides. */
static ngx_uint_t
ngx_http_upstream_longstraw_usable(ngx_http_upstream_longstraw_peer_data_t *lp,
    ngx_http_upstream_rr_peer_t *peer, ngx_uint_t i, time_t now)
{
    uintptr_t   m;
    ngx_uint_t  n;

    n = i / (8 * sizeof(uintptr_t));
    m = (uintptr_t) 1 << i % (8 * sizeof(uintptr_t));

    if (lp->rrp.tried[n] & m) {
        return 0;
    }

    if (peer->down) {
        return 0;
    }

    if (peer->max_fails
        && peer->fails >= peer->max_fails
        && now - peer->checked <= peer->fail_timeout)
    {
        return 0;
    }

    if (peer->max_conns && peer->conns >= peer->max_conns) {
        return 0;
    }

    return 1;
}


/*
 * Picks a peer of the current tier (its peers locked by the caller): the
 * first usable peer of the key's ranking, or with bounded loads the node the
 * admission rule names from the zone's in-flight counts. Returns its index,
 * or -1 when no peer of the tier is usable, -2 on an error.
 */
static ngx_int_t
ngx_http_upstream_longstraw_pick(ngx_http_upstream_longstraw_peer_data_t *lp,
    ngx_log_t *log, time_t now)
{
    int                            over;
    long                           got;
    uint32_t                       index;
    uint64_t                       total;
    ngx_uint_t                     i, n;
    lsn_tier                      *tier;
    ngx_http_upstream_rr_peer_t   *peer;

    tier = lp->conf->tier[lp->tier];
    n = lp->conf->size[lp->tier];

    if (tier == NULL || lp->rrp.peers->number != n) {
        ngx_log_error(NGX_LOG_ALERT, log, 0,
                      "longstraw: %ui peers where the set has %ui",
                      lp->rrp.peers->number, n);
        return -2;
    }

    for (peer = lp->rrp.peers->peer, i = 0; peer && i < n; peer = peer->next, i++) {
        lp->peer[i] = peer;
    }

    if (lp->conf->balance != 0) {
        total = 0;

        for (i = 0; i < n; i++) {
            lp->loads[i] = lp->peer[i]->conns;
            total += lp->loads[i];
            lp->unavailable[i] =
                !ngx_http_upstream_longstraw_usable(lp, lp->peer[i], i, now);
        }

        switch (lsn_tier_admit(tier, lp->key.data, lp->key.len, lp->loads, n,
                               total, lp->unavailable, &index, &over))
        {
        case 0:
            lp->admitted = 1;
            lp->admitted_total = total;
            lp->admitted_load = lp->loads[index];

            if (over) {
                ngx_log_debug1(NGX_LOG_DEBUG_HTTP, log, 0,
                               "longstraw: peer %uD over its cap: every "
                               "available peer is full", index);
            }
            return index;
        case 1:
            return -1;
        default:
            ngx_log_error(NGX_LOG_ALERT, log, 0,
                          "longstraw: bounded-loads admission failed");
            return -2;
        }
    }

    /* The owner first (one top_k of 1); the whole ranking only when needed. */
    if (lp->ranked == 0) {
        got = lsn_tier_top_k(tier, lp->key.data, lp->key.len, &index, 1);

        if (got < 0) {
            return -2;
        }

        if (got == 0) {
            return -1;
        }

        if (ngx_http_upstream_longstraw_usable(lp, lp->peer[index], index, now)) {
            return index;
        }

        got = lsn_tier_top_k(tier, lp->key.data, lp->key.len, lp->ranking, n);

        if (got < 0) {
            return -2;
        }

        lp->ranked = (ngx_uint_t) got;
    }

    for (i = 0; i < lp->ranked; i++) {
        index = lp->ranking[i];

        if (ngx_http_upstream_longstraw_usable(lp, lp->peer[index], index, now)) {
            return index;
        }
    }

    return -1;
}


static ngx_int_t
ngx_http_upstream_get_longstraw_peer(ngx_peer_connection_t *pc, void *data)
{
    ngx_http_upstream_longstraw_peer_data_t  *lp = data;

    time_t                          now;
    uintptr_t                       m;
    ngx_int_t                       index;
    ngx_uint_t                      n;
    ngx_http_upstream_rr_peer_t    *peer;
    ngx_http_upstream_rr_peers_t   *peers;
#if (NGX_HTTP_UPSTREAM_LONGSTRAW_TIMING)
    uint64_t                        started;
#endif

    ngx_log_debug1(NGX_LOG_DEBUG_HTTP, pc->log, 0,
                   "get longstraw peer, try: %ui", pc->tries);

    pc->cached = 0;
    pc->connection = NULL;

    now = ngx_time();

    peers = lp->rrp.peers;
    ngx_http_upstream_rr_peers_wlock(peers);

#if (NGX_HTTP_UPSTREAM_LONGSTRAW_TIMING)
    started = ngx_http_upstream_longstraw_now_ns();
#endif

    index = ngx_http_upstream_longstraw_pick(lp, pc->log, now);

#if (NGX_HTTP_UPSTREAM_LONGSTRAW_TIMING)
    lp->pick_ns = ngx_http_upstream_longstraw_now_ns() - started;

    /* The same choice again, LSN_TIMING_REPEATS times in a row, with warm
     * caches: a choice changes nothing until the count below. */
    if (index >= 0) {
        ngx_int_t   again = index;
        ngx_uint_t  rep;

        started = ngx_http_upstream_longstraw_now_ns();

        for (rep = 0; rep < LSN_TIMING_REPEATS; rep++) {
            lp->ranked = 0;
            again = ngx_http_upstream_longstraw_pick(lp, pc->log, now);
        }

        lp->pick_warm_ns = (ngx_http_upstream_longstraw_now_ns() - started)
                           / LSN_TIMING_REPEATS;

        if (again != index) {
            ngx_log_error(NGX_LOG_ALERT, pc->log, 0,
                          "longstraw: a repeated choice differs");
        }
    }
#endif

    if (index == -1 && lp->tier == 0 && peers->next) {
        /* Every primary is down, failing or tried: the backups, as nginx's
         * round robin does. */
        ngx_http_upstream_rr_peers_unlock(peers);

        lp->tier = 1;
        lp->ranked = 0;
        lp->rrp.peers = peers->next;
        peers = peers->next;

        n = (peers->number + (8 * sizeof(uintptr_t) - 1))
            / (8 * sizeof(uintptr_t));
        ngx_memzero(lp->rrp.tried, n * sizeof(uintptr_t));

        ngx_http_upstream_rr_peers_wlock(peers);

        index = ngx_http_upstream_longstraw_pick(lp, pc->log, now);
    }

    if (index < 0) {
        pc->name = peers->name;
        ngx_http_upstream_rr_peers_unlock(peers);
        return NGX_BUSY;
    }

    peer = lp->peer[index];

    lp->rrp.current = peer;

    pc->sockaddr = peer->sockaddr;
    pc->socklen = peer->socklen;
    pc->name = &peer->name;

    /* With a zone, this count is shared by every worker and is what the
     * bounded-loads rule reads, under the same lock. */
    peer->conns++;

    if (now - peer->checked > peer->fail_timeout) {
        peer->checked = now;
    }

    ngx_http_upstream_rr_peers_unlock(peers);

    n = index / (8 * sizeof(uintptr_t));
    m = (uintptr_t) 1 << index % (8 * sizeof(uintptr_t));
    lp->rrp.tried[n] |= m;

    return NGX_OK;
}


static void *
ngx_http_upstream_longstraw_create_conf(ngx_conf_t *cf)
{
    ngx_http_upstream_longstraw_srv_conf_t  *conf;

    conf = ngx_pcalloc(cf->pool, sizeof(ngx_http_upstream_longstraw_srv_conf_t));
    if (conf == NULL) {
        return NULL;
    }

    return conf;
}


static char *
ngx_http_upstream_longstraw(ngx_conf_t *cf, ngx_command_t *cmd, void *conf)
{
    ngx_http_upstream_longstraw_srv_conf_t  *lcf = conf;

    char                              *end, text[64];
    double                             balance;
    ngx_str_t                         *value, name;
    ngx_uint_t                         i;
    unsigned long long                 seed;
    ngx_http_upstream_srv_conf_t      *uscf;
    ngx_http_compile_complex_value_t   ccv;

    value = cf->args->elts;

    if (lcf->key.value.data) {
        return "is duplicate";
    }

    ngx_memzero(&ccv, sizeof(ngx_http_compile_complex_value_t));

    ccv.cf = cf;
    ccv.value = &value[1];
    ccv.complex_value = &lcf->key;

    if (ngx_http_compile_complex_value(&ccv) != NGX_OK) {
        return NGX_CONF_ERROR;
    }

    for (i = 2; i < cf->args->nelts; i++) {

        if (ngx_strncmp(value[i].data, "seed=", 5) == 0) {
            if (value[i].len == 5 || value[i].len - 5 >= sizeof(text)
                || value[i].data[5] < '0' || value[i].data[5] > '9')
            {
                goto invalid_seed;
            }

            ngx_memcpy(text, value[i].data + 5, value[i].len - 5);
            text[value[i].len - 5] = '\0';
            errno = 0;
            seed = strtoull(text, &end, 10);

            if (errno != 0 || *end != '\0') {
                goto invalid_seed;
            }

            lcf->has_seed = 1;
            lcf->seed = (uint64_t) seed;
            continue;
        }

        if (ngx_strncmp(value[i].data, "secret_file=", 12) == 0) {
            name.data = value[i].data + 12;
            name.len = value[i].len - 12;

            if (name.len == 0) {
                ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                                   "longstraw: secret_file= needs a path");
                return NGX_CONF_ERROR;
            }

            /* Relative to the configuration prefix, as nginx's own paths;
             * the result is NUL-terminated. */
            if (ngx_conf_full_name(cf->cycle, &name, 1) != NGX_OK) {
                return NGX_CONF_ERROR;
            }

            lcf->secret_file = name;
            continue;
        }

        if (ngx_strncmp(value[i].data, "balance=", 8) == 0) {
            if (value[i].len == 8 || value[i].len - 8 >= sizeof(text)) {
                goto invalid_balance;
            }

            ngx_memcpy(text, value[i].data + 8, value[i].len - 8);
            text[value[i].len - 8] = '\0';
            errno = 0;
            balance = strtod(text, &end);

            if (errno != 0 || *end != '\0' || !isfinite(balance)
                || balance == 0)
            {
                goto invalid_balance;
            }

            /* The library checks the range (at least 1 + 2^-16) and says so. */
            lcf->balance = balance;
            continue;
        }

        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "longstraw: unknown option \"%V\" (the options "
                           "are seed=, secret_file= and balance=)", &value[i]);
        return NGX_CONF_ERROR;
    }

    if (lcf->has_seed && lcf->secret_file.len) {
        ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                           "longstraw: seed= and secret_file= cannot be used "
                           "together (a keyed set has no seed)");
        return NGX_CONF_ERROR;
    }

    uscf = ngx_http_conf_get_module_srv_conf(cf, ngx_http_upstream_module);

    if (uscf->peer.init_upstream) {
        ngx_conf_log_error(NGX_LOG_WARN, cf, 0,
                           "load balancing method redefined");
    }

    uscf->flags = NGX_HTTP_UPSTREAM_CREATE
                  |NGX_HTTP_UPSTREAM_WEIGHT
                  |NGX_HTTP_UPSTREAM_MAX_CONNS
                  |NGX_HTTP_UPSTREAM_MAX_FAILS
                  |NGX_HTTP_UPSTREAM_FAIL_TIMEOUT
                  |NGX_HTTP_UPSTREAM_DOWN
                  |NGX_HTTP_UPSTREAM_BACKUP;

    uscf->peer.init_upstream = ngx_http_upstream_init_longstraw;

    return NGX_CONF_OK;

invalid_seed:

    ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                       "longstraw: invalid seed \"%V\" (a decimal integer "
                       "from 0 to 2^64 - 1)", &value[i]);
    return NGX_CONF_ERROR;

invalid_balance:

    ngx_conf_log_error(NGX_LOG_EMERG, cf, 0,
                       "longstraw: invalid balance \"%V\" (a number such as "
                       "1.25, at least 1 + 2^-16)", &value[i]);
    return NGX_CONF_ERROR;
}


/*
 * $longstraw_admission: with bounded loads, "T load" of the request's last
 * admission: T the requests in flight in the upstream counting this one
 * (the zone's counts), load the chosen peer's count before this request.
 * Empty otherwise. For tests and debugging.
 */
static ngx_int_t
ngx_http_upstream_longstraw_admission_variable(ngx_http_request_t *r,
    ngx_http_variable_value_t *v, uintptr_t data)
{
    u_char                                   *p;
    ngx_http_upstream_longstraw_peer_data_t  *lp;

    if (r->upstream == NULL
        || r->upstream->peer.get != ngx_http_upstream_get_longstraw_peer)
    {
        v->not_found = 1;
        return NGX_OK;
    }

    lp = r->upstream->peer.data;

    if (!lp->admitted) {
        v->not_found = 1;
        return NGX_OK;
    }

    p = ngx_pnalloc(r->pool, 2 * NGX_INT64_LEN + 2);
    if (p == NULL) {
        return NGX_ERROR;
    }

    v->len = ngx_sprintf(p, "%uL %uL", lp->admitted_total + 1,
                         lp->admitted_load) - p;
    v->valid = 1;
    v->no_cacheable = 1;
    v->not_found = 0;
    v->data = p;

    return NGX_OK;
}


#if (NGX_HTTP_UPSTREAM_LONGSTRAW_TIMING)

/*
 * $longstraw_pick_ns (only in a module built with
 * -DNGX_HTTP_UPSTREAM_LONGSTRAW_TIMING=1, for measurements): "COLD WARM",
 * the nanoseconds of the request's last peer choice (the ranking or the
 * admission, and the walk over unusable peers) between two clock reads, and
 * the mean of the same choice repeated LSN_TIMING_REPEATS times in a row.
 */
static ngx_int_t
ngx_http_upstream_longstraw_pick_ns_variable(ngx_http_request_t *r,
    ngx_http_variable_value_t *v, uintptr_t data)
{
    u_char                                   *p;
    ngx_http_upstream_longstraw_peer_data_t  *lp;

    if (r->upstream == NULL
        || r->upstream->peer.get != ngx_http_upstream_get_longstraw_peer)
    {
        v->not_found = 1;
        return NGX_OK;
    }

    lp = r->upstream->peer.data;

    p = ngx_pnalloc(r->pool, 2 * NGX_INT64_LEN + 2);
    if (p == NULL) {
        return NGX_ERROR;
    }

    v->len = ngx_sprintf(p, "%uL %uL", lp->pick_ns, lp->pick_warm_ns) - p;
    v->valid = 1;
    v->no_cacheable = 1;
    v->not_found = 0;
    v->data = p;

    return NGX_OK;
}

#endif


static ngx_int_t
ngx_http_upstream_longstraw_add_variables(ngx_conf_t *cf)
{
    ngx_str_t             name = ngx_string("longstraw_admission");
    ngx_http_variable_t  *var;
#if (NGX_HTTP_UPSTREAM_LONGSTRAW_TIMING)
    ngx_str_t             timing = ngx_string("longstraw_pick_ns");
#endif

    var = ngx_http_add_variable(cf, &name, NGX_HTTP_VAR_NOCACHEABLE);
    if (var == NULL) {
        return NGX_ERROR;
    }

    var->get_handler = ngx_http_upstream_longstraw_admission_variable;

#if (NGX_HTTP_UPSTREAM_LONGSTRAW_TIMING)
    var = ngx_http_add_variable(cf, &timing, NGX_HTTP_VAR_NOCACHEABLE);
    if (var == NULL) {
        return NGX_ERROR;
    }

    var->get_handler = ngx_http_upstream_longstraw_pick_ns_variable;
#endif

    return NGX_OK;
}

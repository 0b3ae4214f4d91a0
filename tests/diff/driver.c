/* C driver of the cross-language differential test (tests/diff): runs the
 * cases through include/longstraw.h and prints the canonical answer lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "longstraw.h"

static size_t unhex(const char *f, uint8_t *out) {
    size_t n = 0;
    if (strcmp(f, ".") == 0) return 0;
    for (; f[0] && f[1]; f += 2) {
        unsigned v;
        sscanf(f, "%2x", &v);
        out[n++] = (uint8_t)v;
    }
    return n;
}

static void hex(const uint8_t *b, size_t n) {
    if (n == 0) { putchar('.'); return; }
    for (size_t i = 0; i < n; i++) printf("%02x", b[i]);
}

static const char *class_of(longstraw_result r) {
    switch (r) {
    case LONGSTRAW_INVALID_NODE_ID: return "invalid_node_id";
    case LONGSTRAW_INVALID_WEIGHT: return "invalid_weight";
    case LONGSTRAW_DUPLICATE_NODE: return "duplicate_node";
    case LONGSTRAW_INVALID_DOMAIN: return "invalid_domain";
    case LONGSTRAW_NO_ELIGIBLE_NODE: return "no_eligible";
    case LONGSTRAW_HASH_COLLISION: return "hash_collision";
    default: return "other";
    }
}

static void ids(const longstraw_snapshot *s, const uint32_t *idx, size_t n) {
    if (n == 0) { putchar('-'); return; }
    for (size_t i = 0; i < n; i++) {
        const uint8_t *id; size_t len; double w;
        if (i) putchar(',');
        longstraw_snapshot_node(s, idx[i], &id, &len, &w);
        hex(id, len);
    }
}

int main(int argc, char **argv) {
    static char line[300000];
    static uint8_t a[140000], b[140000];
    uint32_t out[64];
    longstraw_rendezvous *r = NULL;
    const longstraw_snapshot *s = NULL;
    char set_no[32] = "";
    int failed = 0, key_no = 0;
    FILE *f;
    if (argc < 2 || !(f = fopen(argv[1], "r"))) { fprintf(stderr, "usage: driver CASES\n"); return 2; }
    while (fgets(line, sizeof line, f)) {
        char *tag = strtok(line, " \n");
        if (!tag) continue;
        if (strcmp(tag, "S") == 0) {
            strcpy(set_no, strtok(NULL, " \n"));
            unsigned long long seed = strtoull(strtok(NULL, " \n"), NULL, 10);
            longstraw_options o;
            longstraw_options_init(&o, sizeof o);
            o.has_seed = 1;
            o.seed = seed;
            if (longstraw_rendezvous_new(&o, &r) != LONGSTRAW_OK) return 3;
            failed = 0; key_no = 0;
        } else if (strcmp(tag, "N") == 0 && !failed) {
            size_t idn = unhex(strtok(NULL, " \n"), a);
            double w = strtod(strtok(NULL, " \n"), NULL);
            char *d = strtok(NULL, " \n");
            size_t dn = strcmp(d, "-") == 0 ? 0 : unhex(d, b);
            longstraw_result res = longstraw_rendezvous_add_in_domain(r, a, idn, w, b, dn);
            if (res != LONGSTRAW_OK) { printf("b %s BUILD %s\n", set_no, class_of(res)); failed = 1; }
        } else if (strcmp(tag, "K") == 0) {
            int i = key_no++;
            if (failed) continue;
            if (!s && longstraw_rendezvous_snapshot(r, &s) != LONGSTRAW_OK) return 4;
            size_t kn = unhex(strtok(NULL, " \n"), a);
            size_t k = (size_t)atoi(strtok(NULL, " \n")), n = 0, nd = 0;
            uint32_t index; const uint8_t *id; size_t len;
            longstraw_result res = longstraw_snapshot_owner(s, a, kn, &index, &id, &len);
            if (res != LONGSTRAW_OK) { printf("b %s K%d ERR %s\n", set_no, i, class_of(res)); continue; }
            printf("b %s K%d ", set_no, i);
            hex(id, len);
            putchar(' ');
            longstraw_snapshot_top_k(s, a, kn, out, k, &n);
            ids(s, out, n);
            putchar(' ');
            longstraw_snapshot_top_k_distinct(s, a, kn, out, k, &nd);
            ids(s, out, nd);
            putchar('\n');
        } else if (strcmp(tag, "E") == 0) {
            longstraw_snapshot_free(s);
            longstraw_rendezvous_free(r);
            s = NULL; r = NULL;
        }
    }
    fclose(f);
    return 0;
}

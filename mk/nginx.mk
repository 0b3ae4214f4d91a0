# nginx: ngx_http_upstream_longstraw_module (integrations/nginx), built against Debian's nginx-dev.
#
#   make build-nginx   the dynamic module, build/nginx/ngx_http_upstream_longstraw_module.so
#   make test-nginx    the stateless bounded-loads entry through bounded-v1.json (C), then real nginx on
#                      127.0.0.1 in front of local backends: placement against tests/spec, failover,
#                      a reload, keyed placement, bounded loads across 4 workers, config errors (~1 min)
.PHONY: build-nginx test-nginx

NGINX_BUILD := $(ROOT)/build/nginx
NGINX_MODULE := $(NGINX_BUILD)/ngx_http_upstream_longstraw_module.so
NGINX_SRCS := $(wildcard $(ROOT)/integrations/nginx/src/*) $(ROOT)/integrations/nginx/config $(ROOT)/integrations/nginx/build.sh

$(NGINX_MODULE): $(NGINX_SRCS) c-lib
	nice -n 5 $(ROOT)/integrations/nginx/build.sh $(NGINX_BUILD)

build-nginx: ## the nginx dynamic module (needs nginx-dev: make prereqs)
	@if [ ! -x /usr/share/nginx/src/configure ]; then echo "nginx: nginx-dev is not installed: run make prereqs"; exit 1; fi
	@$(MAKE) --no-print-directory $(NGINX_MODULE)

$(NGINX_BUILD)/test_rule_vectors: $(ROOT)/integrations/nginx/tests/test_rule_vectors.c $(ROOT)/tests/c/check.h \
    $(ROOT)/tests/c/json_input.h $(ROOT)/include/longstraw.h c-lib
	@mkdir -p $(NGINX_BUILD)
	$(CC) $(C_FLAGS) $< -o $@ $(C_LINK) -lcjson -lm

# A loud skip (exit 0) when the Debian packages are missing; make prereqs installs them.
test-nginx: $(VENV)/.spec-deps ## the nginx module against real nginx on 127.0.0.1 (skips loudly without nginx-dev)
	@if [ ! -x /usr/share/nginx/src/configure ] || ! command -v nginx >/dev/null; then \
	  echo "nginx: SKIPPED: nginx-dev or nginx is not installed (run make prereqs)"; exit 0; fi; \
	$(MAKE) --no-print-directory $(NGINX_BUILD)/test_rule_vectors $(NGINX_MODULE) && \
	$(NGINX_BUILD)/test_rule_vectors $(ROOT)/tests/vectors/bounded-v1.json && \
	timeout 240 $(VENV_PY) $(ROOT)/integrations/nginx/tests/test_nginx.py $(NGINX_MODULE) $(NGINX_BUILD)/work

# The side-by-side run (not part of make test): nginx + longstraw, nginx `hash $uri consistent` and
# HAProxy `hash-type consistent` + `hash-balance-factor 125` on loopback, the same Zipf(1.1) stream;
# writes bench/results/$(NGINX_BENCH_RUN).json (a few minutes; state the load average when citing it).
NGINX_BENCH_RUN ?= $(shell date -u +%Y-%m-%d)-nginx-side-by-side
.PHONY: bench-nginx
bench-nginx: $(VENV_PY) ## nginx+longstraw vs nginx ketama vs HAProxy bounded loads, into bench/results
	@command -v haproxy >/dev/null || { echo "nginx: haproxy is not installed: run make prereqs"; exit 1; }
	@$(MAKE) --no-print-directory build-nginx
	$(VENV_PY) $(ROOT)/integrations/nginx/bench/side_by_side.py $(NGINX_MODULE) $(ROOT)/bench/results/$(NGINX_BENCH_RUN).json

# The cost of one peer choice, measured inside the module (a build that times each choice).
NGINX_COST_RUN ?= $(shell date -u +%Y-%m-%d)-nginx-pick-cost
.PHONY: bench-nginx-cost
bench-nginx-cost: $(VENV_PY) c-lib ## ns per peer choice in the nginx module at 10 and 100 servers, into bench/results
	LONGSTRAW_NGINX_CFLAGS=-DNGX_HTTP_UPSTREAM_LONGSTRAW_TIMING=1 $(ROOT)/integrations/nginx/build.sh $(NGINX_BUILD)/timing
	$(VENV_PY) $(ROOT)/integrations/nginx/bench/cost.py $(NGINX_BUILD)/timing/ngx_http_upstream_longstraw_module.so \
	  $(ROOT)/bench/results/$(NGINX_COST_RUN).json

# The release artifact: the module built against the nginx of nginx-dev (Debian bookworm: 1.22.1),
# stripped of debug info, with its README, as dist/nginx/<name>.tar.gz. Without nginx-dev it says so
# loudly and builds nothing (dist-check then says the module was not checked, and why).
NGINX_VERSION = $(shell sed -n 's/^\#define NGINX_VERSION *"\(.*\)"/\1/p' /usr/share/nginx/src/src/core/nginx.h 2>/dev/null)
DIST_NGINX_NAME = ngx_http_upstream_longstraw_module-$(DIST_VERSION)-nginx-$(NGINX_VERSION)-$(DIST_HOST)
.PHONY: dist-nginx
dist-nginx: ## the nginx module (for nginx-dev's nginx version) into dist/nginx/
	@if [ ! -x /usr/share/nginx/src/configure ]; then \
	  echo "dist: nginx module SKIPPED: nginx-dev is not installed (run make prereqs)"; exit 0; fi; \
	$(MAKE) --no-print-directory $(NGINX_MODULE) && \
	rm -rf $(DIST)/nginx $(DIST_BUILD)/nginx && mkdir -p $(DIST)/nginx $(DIST_BUILD)/nginx/$(DIST_NGINX_NAME) && \
	strip --strip-debug -o $(DIST_BUILD)/nginx/$(DIST_NGINX_NAME)/ngx_http_upstream_longstraw_module.so $(NGINX_MODULE) && \
	cp $(ROOT)/integrations/nginx/README.md $(ROOT)/LICENSE-MIT $(ROOT)/LICENSE-APACHE $(DIST_BUILD)/nginx/$(DIST_NGINX_NAME)/ && \
	tar -C $(DIST_BUILD)/nginx -czf $(DIST)/nginx/$(DIST_NGINX_NAME).tar.gz $(DIST_NGINX_NAME) && \
	echo "dist: $(DIST)/nginx/$(DIST_NGINX_NAME).tar.gz"

# Go: bindings/go, a cgo package over include/longstraw.h, linked statically
# against liblongstraw.a. Go modules come from the module proxy into
# build/go/mod (inside the repo).
#
#   make build-go   library + go build + go vet
#   make test-go    go vet, go test (golden vectors, errors), go test -race with freed C memory
#                   poisoned (MALLOC_PERTURB_), and the integrations module (go-redis Ring adapter)
#   make demo-go    the demo corpus placed from Go, compared line by line with Rust
#   make bench-go   longstraw vs github.com/dgryski/go-rendezvous (go-redis Ring's default)
.PHONY: build-go test-go demo-go bench-go go-lib

GO ?= $(shell command -v go 2>/dev/null || echo /usr/local/go/bin/go)
GO_DIR := $(ROOT)/bindings/go
# The module names its archive by path (#cgo linux,amd64 LDFLAGS in
# longstraw.go), so plain `go build` links it with no CGO_LDFLAGS and Go
# programs need no liblongstraw.so at run time. The archive is not committed.
GO_PLATFORM := $(shell $(GO) env GOOS 2>/dev/null)_$(shell $(GO) env GOARCH 2>/dev/null)
GO_LIB := $(GO_DIR)/lib/$(GO_PLATFORM)
GO_ENV := cd $(GO_DIR) && GOMODCACHE=$(ROOT)/build/go/mod GOFLAGS=-modcacherw GOTOOLCHAIN=local CGO_ENABLED=1
# The nested module whose third-party dependencies (go-redis, miniredis,
# go-rendezvous) stay out of a consumer's module graph.
GO_INTEGRATIONS_ENV := cd $(GO_DIR)/integrations && GOMODCACHE=$(ROOT)/build/go/mod GOFLAGS=-modcacherw GOTOOLCHAIN=local CGO_ENABLED=1

go-lib: c-lib
	@mkdir -p $(GO_LIB)
	cp $(C_LIBDIR)/liblongstraw.a $(GO_LIB)/liblongstraw.a

build-go: go-lib ## the Go binding (cgo over the static library)
	$(GO_ENV) $(GO) build ./...
	$(GO_ENV) $(GO) vet ./...
	$(GO_INTEGRATIONS_ENV) $(GO) build ./...
	$(GO_INTEGRATIONS_ENV) $(GO) vet ./...

test-go: build-go ## the Go tests
	@test -f $(VECTORS) || { echo "go: $(VECTORS) is missing"; exit 1; }
	$(GO_ENV) $(GO) test -count=1 ./...
	$(GO_ENV) MALLOC_PERTURB_=165 $(GO) test -count=1 -race ./...
	$(GO_INTEGRATIONS_ENV) $(GO) test -count=1 ./...
	@echo "go: all tests passed (plain, -race with MALLOC_PERTURB_, integrations)"

demo-go: go-lib ## the Go demo
	@mkdir -p $(ROOT)/build/go
	@$(CARGO) run --quiet --release -p longstraw-ffi --example corpus > $(ROOT)/build/go/demo-rust.txt
	@echo "longstraw demo (Go, bindings/go):"
	@$(GO_ENV) $(GO) run ./cmd/longstraw-demo | tee $(ROOT)/build/go/demo-go.txt | sed 's/^/  /'
	@diff $(ROOT)/build/go/demo-rust.txt $(ROOT)/build/go/demo-go.txt >/dev/null && \
	  echo "  Go placements identical to Rust's: $$(wc -l < $(ROOT)/build/go/demo-go.txt) lines" || \
	  { echo "  Go placements DIFFER from Rust's:"; diff $(ROOT)/build/go/demo-rust.txt $(ROOT)/build/go/demo-go.txt; exit 1; }

bench-go: go-lib ## the Go benchmarks
	$(GO_INTEGRATIONS_ENV) $(GO) run ./cmd/longstraw-bench | $(RECORD) --run go$(if $(LONGSTRAW_BACKEND),-$(LONGSTRAW_BACKEND)) --command 'make bench-go'

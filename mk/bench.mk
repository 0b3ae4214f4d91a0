# Benchmarks that BENCHMARKS.md reports and no language's mk file owns, and the recorder every
# bench-* target pipes its output through: bench/record.py writes bench/results/<date>-<run>.json, the
# only source of the numbers in the docs (see BENCHMARKS.md, "Where the numbers live").
#
#   make bench-scale   placement at scale: lookup (criterion, up to 10^5 nodes), build/rebuild/memory/moved
#                      report (10^4), the same forced scalar, and skeleton disruption by shape
.PHONY: bench-scale

RECORD := python3 $(ROOT)/bench/record.py

bench-scale: ## the scale benchmark (slow)
	SCALE_MAX_N=100000 $(CARGO) bench -p longstraw-bench-scale --bench lookup \
	  | $(RECORD) --run scale-lookup --command 'SCALE_MAX_N=100000 cargo bench -p longstraw-bench-scale --bench lookup'
	$(CARGO) run --quiet --release -p longstraw-bench-scale --bin scale-report 10000 \
	  | $(RECORD) --run scale-report --command 'cargo run --release -p longstraw-bench-scale --bin scale-report 10000'
	LONGSTRAW_BACKEND=scalar $(CARGO) run --quiet --release -p longstraw-bench-scale --bin scale-report 10000 \
	  | $(RECORD) --run scale-report-scalar --command 'LONGSTRAW_BACKEND=scalar cargo run --release -p longstraw-bench-scale --bin scale-report 10000'
	$(CARGO) run --quiet --release -p longstraw-bench-scale --bin disruption 1000 100000 4 \
	  | $(RECORD) --run disruption --command 'cargo run --release -p longstraw-bench-scale --bin disruption 1000 100000 4'
	$(CARGO) run --quiet --release -p longstraw-bench-scale --bin lookup-quick -- 100000 \
	  | $(RECORD) --run skeleton-lookup-quick --command 'cargo run --release -p longstraw-bench-scale --bin lookup-quick -- 100000'
	@echo "bench-scale: recorded in bench/results/; run tools/doctest/perf_lint.py --write to refresh BENCHMARKS.md's tables"

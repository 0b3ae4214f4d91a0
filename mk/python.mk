# Python: the PyO3 package in bindings/python, installed into .venv/ at the repo root.
.PHONY: build-python test-python demo-python bench-python python-venv python-memcached

# VENV and VENV_PY (the shared .venv/ at the repo root) come from the Makefile.
PY_DIR := $(ROOT)/bindings/python
# What the tests need; the benchmark's competitors are installed by bench-python. wasmtime's type hints
# let mypy --strict check the portable backend's sources (tests/test_wasm_sources_typed.py, which skips
# where wasmtime is not installed); the native extension never imports it.
PY_TEST_DEPS := maturin numpy pytest hypothesis mypy pymemcache xxhash wasmtime
PY_BENCH_DEPS := uhashring clandestined hrw jump-consistent-hash

$(VENV)/.python-deps: $(ROOT)/mk/python.mk | $(VENV_PY)
	$(VENV_PY) -m pip install --quiet --disable-pip-version-check $(PY_TEST_DEPS)
	touch $@

python-venv: $(VENV)/.python-deps

# `pip install ./bindings/python`, the user's path, without build isolation so
# that the venv's maturin and the workspace's target/ are reused.
build-python: python-venv ## the Python package installed into .venv
	PATH="$(VENV)/bin:$$PATH" $(VENV_PY) -m pip install --quiet --disable-pip-version-check --no-build-isolation --force-reinstall --no-deps $(PY_DIR)

# The pymemcache integration test needs memcached (make prereqs installs it); without it that test
# skips and says why.
python-memcached:
	@command -v memcached >/dev/null || [ -x /usr/bin/memcached ] \
	  || echo "test-python: SKIP: memcached is missing, the pymemcache test will skip (make prereqs installs it)"

test-python: build-python python-memcached typecheck-tools ## the Python tests (pytest)
	cd $(PY_DIR) && $(VENV_PY) -m pytest tests -q -rs

demo-python: build-python ## the Python demo
	$(VENV_PY) $(PY_DIR)/demo/demo.py

bench-python: build-python ## the Python benchmarks
	$(VENV_PY) -m pip install --quiet --disable-pip-version-check $(PY_BENCH_DEPS)
	$(VENV_PY) -m pip install --quiet --disable-pip-version-check --ignore-requires-python fastring \
		|| echo "bench-python: fastring did not install; the benchmark skips it"
	$(VENV_PY) $(PY_DIR)/bench/bench.py | $(RECORD) --run python --command 'make bench-python'

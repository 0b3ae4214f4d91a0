# Python: the PyO3 package in bindings/python, installed into .venv/ at the repo root.
.PHONY: build-python test-python demo-python bench-python python-venv

VENV := $(ROOT)/.venv
VENV_PY := $(VENV)/bin/python
PY_DIR := $(ROOT)/bindings/python
# What the tests need; the benchmark's competitors are installed by bench-python.
PY_TEST_DEPS := maturin numpy pytest hypothesis mypy pymemcache xxhash
PY_BENCH_DEPS := uhashring clandestined hrw jump-consistent-hash

$(VENV)/.deps: $(ROOT)/mk/python.mk
	python3 -m venv $(VENV)
	$(VENV_PY) -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(VENV_PY) -m pip install --quiet --disable-pip-version-check $(PY_TEST_DEPS)
	touch $@

python-venv: $(VENV)/.deps

# `pip install ./bindings/python`, the user's path, without build isolation so
# that the venv's maturin and the workspace's target/ are reused.
build-python: python-venv
	PATH="$(VENV)/bin:$$PATH" $(VENV_PY) -m pip install --quiet --disable-pip-version-check --no-build-isolation --force-reinstall --no-deps $(PY_DIR)

test-python: build-python
	cd $(PY_DIR) && $(VENV_PY) -m pytest tests -q -rs

demo-python: build-python
	$(VENV_PY) $(PY_DIR)/demo/demo.py

bench-python: build-python
	$(VENV_PY) -m pip install --quiet --disable-pip-version-check $(PY_BENCH_DEPS)
	$(VENV_PY) -m pip install --quiet --disable-pip-version-check --ignore-requires-python fastring \
		|| echo "bench-python: fastring did not install; the benchmark skips it"
	$(VENV_PY) $(PY_DIR)/bench/bench.py

# The user guide (docs/guide/): MkDocs pages, pictures generated from measurements.
#
#   make guide           build the site into build/guide/ (MkDocs from PyPI, into the repo's .venv)
#   make guide-figures   regenerate every picture in docs/guide/src/img/ (longstraw lab + bench/results)
#   make test-guide      build with --strict, then check that every link and image of the site resolves
#
# The guide's code blocks are ordinary Markdown blocks: `make test-docs` runs them like every README's.
.PHONY: guide guide-figures test-guide guide-venv

GUIDE_DIR := $(ROOT)/docs/guide
GUIDE_SITE := $(ROOT)/build/guide
MKDOCS_VERSION := 1.6.1

$(VENV)/.guide-deps: $(ROOT)/mk/guide.mk | $(VENV_PY)
	$(VENV_PY) -m pip install --quiet --disable-pip-version-check "mkdocs==$(MKDOCS_VERSION)"
	touch $@
guide-venv: $(VENV)/.guide-deps

guide: guide-venv
	cd $(GUIDE_DIR) && $(VENV)/bin/mkdocs build --quiet --strict --clean --site-dir $(GUIDE_SITE)
	@echo "guide: built into build/guide/ (open build/guide/index.html)"

# One command for every picture: the lab's measurements on tools/guide/fleet.toml, and bench/results/*.json.
guide-figures:
	$(CARGO) build --quiet --release -p longstraw-cli
	mkdir -p $(ROOT)/build
	$(ROOT)/target/release/longstraw lab --members $(ROOT)/tools/guide/fleet.toml --synthetic 200000 --json > $(ROOT)/build/guide-lab.json
	python3 $(ROOT)/tools/guide/figures.py --lab $(ROOT)/build/guide-lab.json --out $(GUIDE_DIR)/src/img

test-guide: guide
	python3 $(ROOT)/tools/guide/check_site.py $(GUIDE_SITE)

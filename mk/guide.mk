# The user guide (docs/guide/): MkDocs pages, pictures generated from measurements.
#
#   make guide           build the site into build/guide/ (MkDocs from PyPI, into the repo's .venv)
#   make guide-figures   regenerate every picture in docs/guide/src/img/ (longstraw lab + bench/results)
#   make test-guide      build with --strict, check that every link and image of the site resolves, and
#                        that the committed pictures are exactly what guide-figures makes from today's data
#
# The guide's code blocks are ordinary Markdown blocks: `make test-docs` runs them like every README's.
.PHONY: guide guide-figures guide-figures-check test-guide guide-venv

GUIDE_DIR := $(ROOT)/docs/guide
GUIDE_SITE := $(ROOT)/build/guide
MKDOCS_VERSION := 1.6.1

$(VENV)/.guide-deps: $(ROOT)/mk/guide.mk | $(VENV_PY)
	$(VENV_PY) -m pip install --quiet --disable-pip-version-check "mkdocs==$(MKDOCS_VERSION)"
	touch $@
guide-venv: $(VENV)/.guide-deps

guide: guide-venv ## the user guide (docs/guide/) into build/guide/
	cd $(GUIDE_DIR) && $(VENV)/bin/mkdocs build --quiet --strict --clean --site-dir $(GUIDE_SITE)
	@echo "guide: built into build/guide/ (open build/guide/index.html)"

# One command for every picture: the lab's measurements on tools/guide/fleet.toml, and bench/results/*.json.
# The lab's shares and moves are deterministic (fixed keys and seed; its timings are not drawn), so the
# pictures are reproducible byte for byte.
GUIDE_LAB := $(ROOT)/build/guide-lab.json
$(GUIDE_LAB): guide-lab-always
	$(CARGO) build --quiet --release -p longstraw-cli
	mkdir -p $(ROOT)/build
	$(ROOT)/target/release/longstraw lab --members $(ROOT)/tools/guide/fleet.toml --synthetic 200000 --json > $@
.PHONY: guide-lab-always
guide-lab-always:

guide-figures: $(GUIDE_LAB) ## regenerate the guide's pictures
	python3 $(ROOT)/tools/guide/figures.py --lab $(GUIDE_LAB) --out $(GUIDE_DIR)/src/img

# A picture edited by hand, or left stale after new results, fails here.
guide-figures-check: $(GUIDE_LAB)
	rm -rf $(ROOT)/build/guide-figures
	python3 $(ROOT)/tools/guide/figures.py --lab $(GUIDE_LAB) --out $(ROOT)/build/guide-figures
	diff -r $(ROOT)/build/guide-figures $(GUIDE_DIR)/src/img || { echo "guide: the pictures in docs/guide/src/img differ from what the data gives: run make guide-figures and commit"; exit 1; }
	@echo "guide: every picture is what make guide-figures makes from the data"

test-guide: guide guide-figures-check ## the guide builds and its figures are current
	python3 $(ROOT)/tools/guide/check_site.py $(GUIDE_SITE)

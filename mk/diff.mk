# The cross-language differential test (tests/diff).
#
#   make test-diff   generate cases from a fixed seed (Unicode and binary keys and ids, lengths around
#                    127/128/255/256/1024 bytes with multi-byte characters across each boundary, lone
#                    surrogates, weights across and outside the valid range), run them through Rust (default
#                    and scalar backend), C, Go (cgo and its WebAssembly build), Python (native and its
#                    WebAssembly build), Node, Node's WebAssembly
#                    build and Java (bytes and,
#                    where the language has them, strings), and require every answer to be Rust's: owner, top-k, top-k-distinct or the
#                    same error class
.PHONY: test-diff

DIFF_DIR := $(ROOT)/build/diff
DIFF_SETS ?= 60
DIFF_KEYS ?= 120

test-diff: c-lib go-lib build-python python-wasm-site build-node build-node-wasm build-java ## every language places the same keys on the same nodes
	@mkdir -p $(DIFF_DIR)
	$(VENV_PY) $(ROOT)/tests/diff/gen_cases.py $(DIFF_DIR)/cases.txt $(DIFF_SETS) $(DIFF_KEYS)
	$(CARGO) build --quiet --release -p longstraw-ffi --example diff_driver
	$(C_TARGET_DIR)/release/examples/diff_driver $(DIFF_DIR)/cases.txt > $(DIFF_DIR)/rust.txt
	LONGSTRAW_BACKEND=scalar $(C_TARGET_DIR)/release/examples/diff_driver $(DIFF_DIR)/cases.txt > $(DIFF_DIR)/rust-scalar.txt
	$(CC) -std=c99 $(C_WARN) -O1 -I$(ROOT)/include $(ROOT)/tests/diff/driver.c -o $(DIFF_DIR)/driver_c $(C_LINK)
	$(DIFF_DIR)/driver_c $(DIFF_DIR)/cases.txt > $(DIFF_DIR)/c.txt
	$(GO_ENV) $(GO) run ./cmd/longstraw-diff $(DIFF_DIR)/cases.txt > $(DIFF_DIR)/go.txt
	$(WASM_GO_ENV) $(GO) run ./cmd/longstraw-diff $(DIFF_DIR)/cases.txt > $(DIFF_DIR)/go-wasm.txt
	cd $(ROOT)/tests/diff && $(VENV_PY) driver.py $(DIFF_DIR)/cases.txt > $(DIFF_DIR)/python.txt
	cd $(ROOT)/tests/diff && $(PY_WASM_ENV) LONGSTRAW_EXPECT_TARGET=wasm32-simd128 $(PY_WASM_VENV)/bin/python driver.py \
	  $(DIFF_DIR)/cases.txt > $(DIFF_DIR)/python-wasm.txt
	LONGSTRAW_EXPECT_TARGET=native $(NODE) $(ROOT)/tests/diff/driver.js $(DIFF_DIR)/cases.txt > $(DIFF_DIR)/node.txt
	LONGSTRAW_NODE_WASM=1 LONGSTRAW_EXPECT_TARGET=wasm32-wasi $(NODE) --no-warnings $(ROOT)/tests/diff/driver.js \
	  $(DIFF_DIR)/cases.txt > $(DIFF_DIR)/node-wasm.txt
	$(JAVA_HOME)/bin/java --enable-native-access=ALL-UNNAMED -Dlongstraw.library=$(JAVA_LIB) \
	  -cp $(JAVA_DIR)/target/classes $(ROOT)/tests/diff/Driver.java $(DIFF_DIR)/cases.txt > $(DIFF_DIR)/java.txt
	cd $(ROOT)/tests/diff && $(VENV_PY) check.py $(DIFF_DIR)/cases.txt rust=$(DIFF_DIR)/rust.txt \
	  rust-scalar=$(DIFF_DIR)/rust-scalar.txt c=$(DIFF_DIR)/c.txt go=$(DIFF_DIR)/go.txt go-wasm=$(DIFF_DIR)/go-wasm.txt \
	  python=$(DIFF_DIR)/python.txt python-wasm=$(DIFF_DIR)/python-wasm.txt node=$(DIFF_DIR)/node.txt node-wasm=$(DIFF_DIR)/node-wasm.txt java=$(DIFF_DIR)/java.txt

# Java: bindings/java, a Maven project over the C library through the Foreign Function & Memory API
# (JDK 22+; built and tested with JDK 25). Maven dependencies come from Maven Central into ~/.m2;
# tools/prereqs.sh fetches them (java-deps), so the targets here run offline (mvn -o).
#
#   make test-java   JUnit: every vector file, the validation table, the header bindings, bounded
#                    loads under 8 threads, keyed placement, the membership fixtures
#   make test-kafka  a real broker: single-node KRaft Kafka 4 from the Maven jars in a forked JVM on
#                    127.0.0.1; 20,000 keys on 6 partitions, grown to 8; moved fraction, longstraw vs
#                    Kafka's default partitioner, from the records the broker stored (about 2-4 minutes)
#   make bench-java  owner at n = 10 and 100 through FFM, against a pure-Java HRW, the Python and Node
#                    bindings and the Rust core's own owner, in one run (interleaved rounds, then JMH),
#                    recorded in bench/results/ (not in make bench)
#   make java-deps   fetch the Maven dependencies and plugins (what tools/prereqs.sh runs)
.PHONY: test-java test-kafka java-deps build-java bench-java

# JDK 25 wherever this machine has it (a JAVA_HOME of another JDK in the environment is not used;
# LONGSTRAW_JAVA_HOME overrides), exported so Maven and tools/dist/check-java.sh run on it.
JAVA_HOME := $(or $(LONGSTRAW_JAVA_HOME),$(firstword $(wildcard /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/java-25-openjdk-amd64 /usr/lib/jvm/jdk-25*)),$(JAVA_HOME))
export JAVA_HOME
MVN ?= mvn
JAVA_DIR := $(ROOT)/bindings/java
JAVA_MVN = cd $(JAVA_DIR) && JAVA_HOME=$(JAVA_HOME) $(MVN) -B -q
JAVA_LIB := $(C_LIBDIR)/liblongstraw.so

java-deps: ## fetch the Java binding's Maven dependencies and plugins (tools/prereqs.sh runs it)
	$(JAVA_MVN) -Pkafka dependency:go-offline
	$(JAVA_MVN) -Pkafka package -Dtest=PlatformTest \
	  -Dlongstraw.natives=$(JAVA_DIR)/target/no-natives
	$(JAVA_MVN) -Pkafka clean

# Also writes target/classpath.txt, the compile classpath with the provided kafka-clients, for the docs
# runner (tools/doctest/run_docs.py runs the ```java blocks over target/classes and it).
build-java: c-lib ## the Java binding's classes (mvn compile)
	$(JAVA_MVN) -o compile dependency:build-classpath -Dmdep.outputFile=$(JAVA_DIR)/target/classpath.txt \
	  -DincludeScope=compile

test-java: c-lib ## the Java tests (JUnit 5 over target/release/liblongstraw.so)
	@test -x $(JAVA_HOME)/bin/java || { echo "java: no JDK 25 at JAVA_HOME=$(JAVA_HOME)"; exit 1; }
	$(JAVA_MVN) -o test -Dlongstraw.library=$(JAVA_LIB)
	@echo "java: all tests passed"

test-kafka: c-lib ## the Kafka partitioner against a real single-node KRaft broker (forked JVM, 127.0.0.1)
	$(JAVA_MVN) -o -Pkafka test -Dtest=KafkaBrokerIT -Dlongstraw.library=$(JAVA_LIB) \
	  -Dsurefire.failIfNoSpecifiedTests=false

# ---- the release jar: dist/java/longstraw-V.jar carries the C library of every Linux triple that
# build/dist/lib holds (this machine's from make dist; aarch64 glibc and both musl from make
# dist-cross) under io/github/longstraw/native/<platform>/, and loads the one for the JVM's platform.
.PHONY: dist-java dist-java-jar
JAVA_NATIVES := $(ROOT)/build/java/natives
JAVA_TRIPLES := x86_64-unknown-linux-gnu aarch64-unknown-linux-gnu x86_64-unknown-linux-musl aarch64-unknown-linux-musl
dist: dist-java
dist-java: dist-c-lib ## the Java jar with the native library of every Linux triple built (dist/java/)
	@$(MAKE) --no-print-directory dist-java-jar
# The jar from the libraries build/dist/lib holds now, without building them.
dist-java-jar:
	rm -rf $(JAVA_NATIVES) && mkdir -p $(DIST)/java
	@for t in $(JAVA_TRIPLES); do \
	  case $$t in x86_64-unknown-linux-gnu) p=linux-x86_64;; aarch64-unknown-linux-gnu) p=linux-aarch64;; \
	    x86_64-unknown-linux-musl) p=linux-x86_64-musl;; aarch64-unknown-linux-musl) p=linux-aarch64-musl;; esac; \
	  if [ -f $(DIST_BUILD)/lib/$$t/liblongstraw.so ]; then \
	    mkdir -p $(JAVA_NATIVES)/$$p && cp $(DIST_BUILD)/lib/$$t/liblongstraw.so $(JAVA_NATIVES)/$$p/ && echo "java: jar carries $$p ($$t)"; \
	  fi; done
	@test -f $(JAVA_NATIVES)/linux-x86_64/liblongstraw.so || { echo "java: no x86_64 glibc library in $(DIST_BUILD)/lib"; exit 1; }
	$(JAVA_MVN) -o clean package -DskipTests -Dlongstraw.natives=$(JAVA_NATIVES)
	cp $(JAVA_DIR)/target/longstraw-$(DIST_VERSION).jar $(DIST)/java/longstraw-$(DIST_VERSION).jar
	@unzip -l $(DIST)/java/longstraw-$(DIST_VERSION).jar | grep 'native/.*liblongstraw.so' | sed 's/^/  /'

# One run, recorded in bench/results/<date>-java-languages.json: the Rust core's own owner
# (bench/src/bin/owner_per_call.rs) and the Python and Node bindings' owner (bench/owner_per_call.py,
# bench/owner_per_call.js, over the builds of build-python and build-node), each started between the Java
# rounds, Java through FFM and a pure-Java HRW, interleaved; then JMH (OwnerBench).
JAVA_RUST_BENCH := $(C_LIBDIR)/owner_per_call
bench-java: c-lib build-python build-node ## owner at n = 10, 100: Java FFM vs pure Java, Python, Node and the Rust core, one run (JMH included), recorded
	$(CARGO) build --release -p longstraw-bench --bin owner_per_call
	$(JAVA_MVN) -o -Pbench test-compile dependency:build-classpath -Dmdep.outputFile=$(JAVA_DIR)/target/bench-cp.txt \
	  -Dmdep.includeScope=test
	cd $(JAVA_DIR) && $(JAVA_HOME)/bin/java --enable-native-access=ALL-UNNAMED \
	  -Dlongstraw.library=$(JAVA_LIB) -Dlongstraw.rustBench=$(JAVA_RUST_BENCH) -Dbench.jmhLog=$(JAVA_DIR)/target/jmh.log \
	  "-Dbench.python=$(VENV_PY) $(ROOT)/bench/owner_per_call.py" "-Dbench.node=$(NODE) $(ROOT)/bench/owner_per_call.js" \
	  -cp target/classes:target/test-classes:$$(cat target/bench-cp.txt) io.github.longstraw.bench.SideBySide \
	  | $(RECORD) --run java-languages --command 'make bench-java'

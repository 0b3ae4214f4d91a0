# Java: bindings/java, a Maven project over the C library through the Foreign Function & Memory API
# (JDK 22+; built and tested with JDK 25). Maven dependencies come from Maven Central into ~/.m2;
# tools/prereqs.sh fetches them (java-deps), so the targets here run offline (mvn -o).
#
#   make test-java   JUnit: every vector file, the validation table, the header bindings, bounded
#                    loads under 8 threads, keyed placement, the membership fixtures
#   make java-deps   fetch the Maven dependencies and plugins (what tools/prereqs.sh runs)
.PHONY: test-java java-deps build-java

JAVA_HOME ?= $(firstword $(wildcard /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/java-25-openjdk-amd64))
export JAVA_HOME
MVN ?= mvn
JAVA_DIR := $(ROOT)/bindings/java
JAVA_MVN = cd $(JAVA_DIR) && JAVA_HOME=$(JAVA_HOME) $(MVN) -B -q
JAVA_LIB := $(C_LIBDIR)/liblongstraw.so

java-deps: ## fetch the Java binding's Maven dependencies and plugins (tools/prereqs.sh runs it)
	$(JAVA_MVN) -Pkafka dependency:go-offline
	$(JAVA_MVN) -Pkafka package -Dtest=NoSuchTest -Dsurefire.failIfNoSpecifiedTests=false \
	  -Dlongstraw.natives=$(JAVA_DIR)/target/no-natives
	$(JAVA_MVN) -Pkafka clean

build-java: c-lib ## the Java binding's classes (mvn compile)
	$(JAVA_MVN) -o compile

test-java: c-lib ## the Java tests (JUnit 5 over target/release/liblongstraw.so)
	@test -x $(JAVA_HOME)/bin/java || { echo "java: no JDK 25 at JAVA_HOME=$(JAVA_HOME)"; exit 1; }
	$(JAVA_MVN) -o test -Dlongstraw.library=$(JAVA_LIB)
	@echo "java: all tests passed"

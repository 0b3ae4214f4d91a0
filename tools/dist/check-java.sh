#!/usr/bin/env bash
# The Java jar (dist/java/longstraw-V.jar) as a user gets it: listed (it must carry the x86_64 glibc
# library, and each library build/dist/lib holds for another Linux triple), installed into a scratch
# Maven repository, and used from a fresh Maven project outside the repository, with no cargo on PATH
# and no -Dlongstraw.library, so the library is extracted from the jar. The project is a small program
# (the README's example) plus the binding's own JUnit suite run against the installed jar.
#
# usage: check-java.sh JAR VERSION WORK SRC_ROOT   (WORK holds tests/vectors etc., outside the repo)
# Maven runs offline (-o): the plugins and test dependencies come from ~/.m2 (make java-deps).
set -euo pipefail
jar=$1 version=$2 work=$3 root=$4
: "${JAVA_HOME:?}"
export JAVA_HOME
j=$work/java
mkdir -p "$j/app/src/main/java/example" "$j/repo"

listing=$(unzip -l "$jar")
grep -q 'io/github/longstraw/native/linux-x86_64/liblongstraw.so' <<<"$listing" || {
  echo "dist-check: java: $jar carries no linux-x86_64 library" >&2; exit 1; }
carried=$(grep -o 'native/[a-z0-9_-]*/liblongstraw.so' <<<"$listing" | cut -d/ -f2 | paste -sd' ')
echo "dist-check: java: the jar carries: $carried"

# A Maven repository of one artifact, laid out by hand (what a repository manager would serve).
art=$j/repo/io/github/longstraw/longstraw/$version
mkdir -p "$art"
cp "$jar" "$art/longstraw-$version.jar"
printf '<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion><groupId>io.github.longstraw</groupId><artifactId>longstraw</artifactId><version>%s</version></project>\n' \
  "$version" > "$art/longstraw-$version.pom"

# The binding's tests, copied out (they read WORK/tests and WORK/include, not the repository).
cp -r "$root/bindings/java/src/test" "$j/app/src/test"
# The Kafka partitioner's tests need kafka-clients (a provided dependency the app does not declare);
# make test-kafka runs them in the repo.
rm -rf "$j/app/src/test/java/io/github/longstraw/kafka"
mkdir -p "$work/include" && cp "$root/include/longstraw.h" "$work/include/"
pom_version() { sed -n "s:.*<$1>\(.*\)</$1>.*:\1:p" "$root/bindings/java/pom.xml" | head -n 1; }
cat > "$j/app/pom.xml" <<POM
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>example</groupId>
  <artifactId>app</artifactId>
  <version>1</version>
  <properties>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
    <maven.compiler.release>22</maven.compiler.release>
  </properties>
  <repositories>
    <repository><id>dist</id><url>file://$j/repo</url></repository>
  </repositories>
  <dependencies>
    <dependency><groupId>io.github.longstraw</groupId><artifactId>longstraw</artifactId><version>$version</version></dependency>
    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId><version>$(pom_version junit.version)</version><scope>test</scope></dependency>
    <dependency><groupId>com.fasterxml.jackson.core</groupId><artifactId>jackson-databind</artifactId><version>2.21.3</version><scope>test</scope></dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version></plugin>
      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
      <plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-dependency-plugin</artifactId><version>3.8.1</version></plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId><artifactId>maven-surefire-plugin</artifactId><version>3.5.2</version>
        <configuration>
          <argLine>--enable-native-access=ALL-UNNAMED</argLine>
          <excludes><exclude>**/*BrokerIT.java</exclude></excludes>
          <systemPropertyVariables><longstraw.repo>$work</longstraw.repo></systemPropertyVariables>
        </configuration>
      </plugin>
    </plugins>
  </build>
</project>
POM
cat > "$j/app/src/main/java/example/Main.java" <<'JAVA'
package example;

import io.github.longstraw.Rendezvous;

public class Main {
  public static void main(String[] args) {
    try (Rendezvous r = Rendezvous.of("cache-a", "cache-b", "cache-c")) {
      System.out.println(io.github.longstraw.Longstraw.versionString() + " " + r.owner("user:42"));
    }
  }
}
JAVA
# The file:// repository is outside ~/.m2; -o would refuse it, so Maven runs online for that one
# artifact, with everything else already cached.
# Maven copies what it resolves from the scratch repository into ~/.m2 and prefers that copy next time,
# so a jar rebuilt under the same version would lose to the one an earlier check resolved.
rm -rf "${HOME}/.m2/repository/io/github/longstraw/longstraw/$version"
(cd "$j/app" && mvn -B -q dependency:build-classpath -Dmdep.outputFile=cp.txt >/dev/null && mvn -B -q compile >/dev/null)
out=$(cd "$j/app" && "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "target/classes:$(cat cp.txt)" example.Main)
[ "$out" = "$version cache-c" ] || { echo "dist-check: java: the example printed '$out', not '$version cache-c'" >&2; exit 1; }
echo "dist-check: java: the README example from the installed jar: user:42 -> cache-c"
(cd "$j/app" && mvn -B -q test)
echo "dist-check: java: the binding's JUnit suite passes against the installed jar (library extracted from it)"

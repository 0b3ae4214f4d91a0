package io.github.longstraw;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The native library is picked by platform; one the jar lacks is a clear error that names it. */
class PlatformTest {
  /** Loads the library in a forked JVM (see {@link #unsupportedPlatformIsNamed()}). */
  public static void main(String[] args) {
    System.out.println(Longstraw.versionString());
  }

  @Test
  void unsupportedPlatformIsNamed() throws Exception {
    Process p =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-Dos.arch=riscv64",
                "-cp",
                System.getProperty("java.class.path"),
                PlatformTest.class.getName())
            .redirectErrorStream(true)
            .start();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the forked JVM did not finish");
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertNotEquals(0, p.exitValue(), out);
    assertTrue(out.contains("no native library for this platform, linux-riscv64"), out);
    assertTrue(out.contains("os.arch=riscv64"), out);
  }
}

package io.github.longstraw;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where a keyed set's membership file says its secret comes from: a secret file or an environment
 * variable. A file names the source, never the secret.
 */
public final class SecretSource {
  final Path file;
  final String env;

  private SecretSource(Path file, String env) {
    this.file = file;
    this.env = env;
  }

  /** A secret file (32 hexadecimal digits); a relative path is relative to the saved file's folder. */
  public static SecretSource file(Path path) {
    return new SecretSource(Objects.requireNonNull(path, "path"), null);
  }

  /** An environment variable that holds the secret as 32 hexadecimal digits. */
  public static SecretSource env(String name) {
    return new SecretSource(null, Objects.requireNonNull(name, "name"));
  }

  @Override
  public String toString() {
    return file != null ? "SecretSource.file(" + file + ")" : "SecretSource.env(" + env + ")";
  }
}

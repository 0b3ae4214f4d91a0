package io.github.longstraw;

/** The library's version and placement version. */
public final class Longstraw {
  private Longstraw() {}

  /** The C library's version as major * 10000 + minor * 100 + patch. */
  public static int version() {
    try {
      return (int) Native.VERSION.invokeExact();
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
  }

  /** The C library's version as text, such as "0.2.0". */
  public static String versionString() {
    try {
      return Native.cString((java.lang.foreign.MemorySegment) Native.VERSION_STRING.invokeExact());
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
  }

  /** The newest placement version this library knows (1). */
  public static int placementVersion() {
    try {
      return (int) Native.PLACEMENT_VERSION.invokeExact();
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
  }

  /** The platform name the jar's native library folders use, such as {@code linux-x86_64}. */
  public static String platform() {
    return Native.platform();
  }
}

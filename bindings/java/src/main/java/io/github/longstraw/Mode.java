package io.github.longstraw;

/** How a set places keys (docs/SPEC.md): flat rendezvous hashing, a partition table, or a skeleton. */
public enum Mode {
  /** Flat rendezvous hashing: every node races for every key. */
  FLAT,
  /** A partition table (SPEC.md section 10): keys map to partitions, placed by rendezvous hashing. */
  TABLE,
  /** Skeleton (hierarchical) rendezvous hashing (SPEC.md section 11). */
  SKELETON;

  static Mode of(int value) {
    return switch (value) {
      case 0 -> FLAT;
      case 1 -> TABLE;
      case 2 -> SKELETON;
      default -> throw new LongstrawException(ErrorCode.INTERNAL_ERROR, "unknown mode " + value);
    };
  }

  /** The C ABI's {@code longstraw_mode} value. */
  int code() {
    return switch (this) {
      case FLAT -> 0;
      case TABLE -> 1;
      case SKELETON -> 2;
    };
  }

  /** The lower-case name the other languages and membership files use ("flat", "table", "skeleton"). */
  @Override
  public String toString() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}

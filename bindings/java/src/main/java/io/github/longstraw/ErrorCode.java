package io.github.longstraw;

/**
 * The C library's result codes ({@code longstraw_result} in longstraw.h), carried by every {@link
 * LongstrawException}.
 */
public enum ErrorCode {
  /** A required argument was missing. */
  NULL_ARGUMENT(1),
  /** A buffer was not aligned for its element type. */
  MISALIGNED_POINTER(2),
  /** A node id was empty or longer than 65535 bytes. */
  INVALID_NODE_ID(3),
  /** A weight was NaN, infinite, negative, or outside [2^-64, 2^64] while not 0. */
  INVALID_WEIGHT(4),
  /** A node with this id is already in the set. */
  DUPLICATE_NODE(5),
  /** No node with this id is in the set. */
  UNKNOWN_NODE(6),
  /** Two node ids hash to the same value under this seed. */
  HASH_COLLISION(7),
  /** The set is empty or every node has weight 0. */
  NO_ELIGIBLE_NODE(8),
  /** More than 2^32 - 1 nodes. */
  TOO_MANY_NODES(9),
  /** A node index is not below the node count. */
  INDEX_OUT_OF_RANGE(10),
  /** An output buffer was too small. */
  BUFFER_TOO_SMALL(11),
  /** Two lengths that must agree do not. */
  LENGTH_MISMATCH(12),
  /** The offsets of a packed key batch decrease or run past the key bytes. */
  BAD_OFFSETS(13),
  /** A placement version this build does not know. */
  UNKNOWN_PLACEMENT(14),
  /** LONGSTRAW_BACKEND names a backend this CPU lacks. */
  BACKEND_UNAVAILABLE(15),
  /** An allocation whose size the caller chose failed. */
  OUT_OF_MEMORY(16),
  /** A bug in longstraw, caught at the library boundary. */
  INTERNAL_ERROR(17),
  /** A table, skeleton or bounded-load parameter is out of range. */
  INVALID_PARAMETER(18),
  /** A failure domain label was longer than 65535 bytes (or empty). */
  INVALID_DOMAIN(19),
  /** A membership file could not be read, parsed, validated or written. */
  BAD_FILE(20),
  /** A keyed-v1 secret was not exactly 16 bytes, or its source could not be read. */
  INVALID_SECRET(21),
  /** Two options that cannot be used together were given. */
  CONFLICTING_OPTIONS(22),
  /** A call needs another placement mode (for example a partition of a flat set). */
  WRONG_MODE(23);

  private final int value;

  ErrorCode(int value) {
    this.value = value;
  }

  /** The C value of this code. */
  public int value() {
    return value;
  }

  /** The code with C value {@code value}, or {@link #INTERNAL_ERROR} for an unknown one. */
  public static ErrorCode of(int value) {
    for (ErrorCode c : values()) if (c.value == value) return c;
    return INTERNAL_ERROR;
  }
}

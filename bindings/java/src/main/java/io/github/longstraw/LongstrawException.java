package io.github.longstraw;

/**
 * A failed longstraw call. The message is the library's own, the same text every language shows;
 * {@link #code()} is the C result code. Subclasses group the codes a caller may want to catch.
 */
public class LongstrawException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final ErrorCode code;

  /** An exception with the given code and message. */
  public LongstrawException(ErrorCode code, String message) {
    super(message);
    this.code = code;
  }

  /** The C library's result code for this failure. */
  public ErrorCode code() {
    return code;
  }

  static LongstrawException of(int rc, String message) {
    ErrorCode code = ErrorCode.of(rc);
    return switch (code) {
      case DUPLICATE_NODE -> new DuplicateNodeException(message);
      case UNKNOWN_NODE -> new UnknownNodeException(message);
      case NO_ELIGIBLE_NODE -> new NoEligibleNodeException(message);
      case BAD_FILE -> new MembershipFileException(message);
      case WRONG_MODE -> new WrongModeException(message);
      case INTERNAL_ERROR, OUT_OF_MEMORY, BACKEND_UNAVAILABLE -> new LongstrawException(code, message);
      default -> new InvalidArgumentException(code, message);
    };
  }
}

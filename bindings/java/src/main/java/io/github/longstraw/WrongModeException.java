package io.github.longstraw;

/** A call that needs one placement mode (such as {@code partition}, which needs a table) was made on a set or snapshot of another mode. */
public class WrongModeException extends LongstrawException {
  private static final long serialVersionUID = 1L;

  /** An exception with the given message. */
  public WrongModeException(String message) {
    super(ErrorCode.WRONG_MODE, message);
  }
}

package io.github.longstraw;

/** A node with this id is already in the set. */
public class DuplicateNodeException extends LongstrawException {
  private static final long serialVersionUID = 1L;

  /** An exception with the given message. */
  public DuplicateNodeException(String message) {
    super(ErrorCode.DUPLICATE_NODE, message);
  }
}

package io.github.longstraw;

/** No node with this id is in the set. */
public class UnknownNodeException extends LongstrawException {
  private static final long serialVersionUID = 1L;

  /** An exception with the given message. */
  public UnknownNodeException(String message) {
    super(ErrorCode.UNKNOWN_NODE, message);
  }
}

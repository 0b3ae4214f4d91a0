package io.github.longstraw;

/** No node can own a key: the set is empty or every node is drained (weight 0). */
public class NoEligibleNodeException extends LongstrawException {
  private static final long serialVersionUID = 1L;

  /** An exception with the given message. */
  public NoEligibleNodeException(String message) {
    super(ErrorCode.NO_ELIGIBLE_NODE, message);
  }
}

package io.github.longstraw;

/** An argument broke one of longstraw's input rules (docs/SPEC.md section 2): a bad node id, weight, domain label, secret, placement version, table or skeleton parameter, batch offsets, or options that conflict. {@link #code()} says which. */
public class InvalidArgumentException extends LongstrawException {
  private static final long serialVersionUID = 1L;

  /** An exception with the given code and message. */
  public InvalidArgumentException(ErrorCode code, String message) {
    super(code, message);
  }
}

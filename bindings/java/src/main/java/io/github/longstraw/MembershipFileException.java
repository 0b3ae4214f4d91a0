package io.github.longstraw;

/** A membership file could not be read, parsed, validated or written; the message names the file, the line and the field (docs/MEMBERSHIP.md). */
public class MembershipFileException extends LongstrawException {
  private static final long serialVersionUID = 1L;

  /** An exception with the given message. */
  public MembershipFileException(String message) {
    super(ErrorCode.BAD_FILE, message);
  }
}

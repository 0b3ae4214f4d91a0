package io.github.longstraw;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/** Key and id conversions: strings are their UTF-8 bytes, and a lone surrogate is an error. */
final class Keys {
  private Keys() {}

  /** The UTF-8 bytes of {@code s}; a string that is not valid UTF-16 is refused, never replaced. */
  static byte[] utf8(String s, String what) {
    Objects.requireNonNull(s, what);
    for (int i = 0; i < s.length(); i++) {
      if (Character.isSurrogate(s.charAt(i))) return strictUtf8(s, what);
    }
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] strictUtf8(String s, String what) {
    try {
      ByteBuffer b =
          StandardCharsets.UTF_8
              .newEncoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .encode(CharBuffer.wrap(s));
      byte[] out = new byte[b.remaining()];
      b.get(out);
      return out;
    } catch (CharacterCodingException e) {
      int at = 0;
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
          i++;
        } else if (Character.isSurrogate(c)) {
          at = i;
          break;
        }
      }
      throw new IllegalArgumentException(
          what + " is not valid UTF-16: lone surrogate at index " + at + "; it has no UTF-8 form");
    }
  }

  static MemorySegment of(String key) {
    return MemorySegment.ofArray(utf8(key, "key"));
  }

  static MemorySegment of(byte[] key) {
    return MemorySegment.ofArray(Objects.requireNonNull(key, "key"));
  }

  /** The bytes from the buffer's position to its limit (the position is not moved). */
  static MemorySegment of(ByteBuffer key) {
    Objects.requireNonNull(key, "key");
    return MemorySegment.ofBuffer(key);
  }

  /** The UTF-8 text of a node id, or null when the id's bytes are not UTF-8. */
  static String text(byte[] id) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(id))
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }
}

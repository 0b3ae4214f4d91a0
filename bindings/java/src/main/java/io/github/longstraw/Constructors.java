package io.github.longstraw;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;

/**
 * Every downcall that creates a set, in one place: the positional constructors of today's header
 * ({@code longstraw_rendezvous_new}, {@code _new_keyed_file}, {@code _new_table}, {@code
 * _new_skeleton}, {@code longstraw_bounded_new}). Each returns the raw owned pointer; the callers
 * wrap it in a {@link Handle}.
 */
final class Constructors {
  private Constructors() {}

  private static final MethodHandle NEW = Native.fn("longstraw_rendezvous_new");
  private static final MethodHandle NEW_KEYED_FILE = Native.fn("longstraw_rendezvous_new_keyed_file");
  private static final MethodHandle NEW_TABLE = Native.fn("longstraw_rendezvous_new_table");
  private static final MethodHandle NEW_SKELETON = Native.fn("longstraw_rendezvous_new_skeleton");
  private static final MethodHandle BOUNDED_NEW = Native.fn("longstraw_bounded_new");

  /** An empty flat set under {@code seed} (ignored with a secret) or {@code secret} (null: none). */
  static MemorySegment flat(long seed, byte[] secret, int placement) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment out = a.allocate(Native.PTR);
      MemorySegment s = secret == null ? MemorySegment.NULL : a.allocateFrom(Native.U8, secret);
      try {
        Native.check((int) NEW.invokeExact(seed, s, (long) (secret == null ? 0 : secret.length), placement, out));
      } finally {
        s.fill((byte) 0);
      }
      return out.get(Native.PTR, 0);
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
  }

  /** An empty keyed flat set whose secret is read from {@code secretFile}. */
  static MemorySegment keyedFile(String secretFile, int placement) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment out = a.allocate(Native.PTR);
      MemorySegment path = a.allocateFrom(secretFile, StandardCharsets.UTF_8);
      Native.check((int) NEW_KEYED_FILE.invokeExact(path, placement, out));
      return out.get(Native.PTR, 0);
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
  }

  /** A table over the members of snapshot {@code members}. {@code bits} may be LONGSTRAW_AUTO. */
  static MemorySegment table(MemorySegment members, int bits, long replicas, int flags, double balance) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment out = a.allocate(Native.PTR);
      Native.check((int) NEW_TABLE.invokeExact(members, (byte) bits, replicas, flags, balance, out));
      return out.get(Native.PTR, 0);
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
  }

  /** A skeleton over the members of snapshot {@code members} (LONGSTRAW_AUTO for both: default). */
  static MemorySegment skeleton(MemorySegment members, int fanoutBits, int levels) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment out = a.allocate(Native.PTR);
      Native.check((int) NEW_SKELETON.invokeExact(members, (byte) fanoutBits, (byte) levels, out));
      return out.get(Native.PTR, 0);
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
  }

  /** An empty bounded-load set. */
  static MemorySegment bounded(long seed, byte[] secret, int placement, double balanceFactor) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment out = a.allocate(Native.PTR);
      MemorySegment s = secret == null ? MemorySegment.NULL : a.allocateFrom(Native.U8, secret);
      try {
        Native.check(
            (int) BOUNDED_NEW.invokeExact(
                seed, s, (long) (secret == null ? 0 : secret.length), placement, balanceFactor, out));
      } finally {
        s.fill((byte) 0);
      }
      return out.get(Native.PTR, 0);
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
  }
}

package io.github.longstraw;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;

/**
 * Every downcall that creates a set, in one place: {@code longstraw_options_init}, {@code
 * longstraw_rendezvous_new}, {@code longstraw_rendezvous_new_from} and {@code
 * longstraw_bounded_new}. Set-wide options travel in one {@code longstraw_options} struct, laid out
 * here once ({@link #OPTIONS}); a new option is one field of that layout. Each method returns the
 * raw owned pointer; the callers wrap it in a {@link Handle}.
 */
final class Constructors {
  private Constructors() {}

  /** {@code longstraw_options} as include/longstraw.h declares it (natural C alignment). */
  static final StructLayout OPTIONS =
      MemoryLayout.structLayout(
          Native.U32.withName("struct_size"),
          Native.U32.withName("placement"),
          Native.U64.withName("seed"),
          Native.U32.withName("has_seed"),
          Native.U32.withName("mode"),
          Native.PTR.withName("secret"),
          Native.SIZE.withName("secret_len"),
          Native.PTR.withName("secret_file"),
          Native.SIZE.withName("replicas"),
          Native.F64.withName("balance"),
          Native.U32.withName("table_flags"),
          Native.U8.withName("partition_bits"),
          Native.U8.withName("fanout_bits"),
          Native.U8.withName("levels"),
          MemoryLayout.paddingLayout(1));

  private static final MethodHandle OPTIONS_INIT = Native.fn("longstraw_options_init");
  private static final MethodHandle NEW = Native.fn("longstraw_rendezvous_new");
  private static final MethodHandle NEW_FROM = Native.fn("longstraw_rendezvous_new_from");
  private static final MethodHandle BOUNDED_NEW = Native.fn("longstraw_bounded_new");

  private static long offset(String field) {
    return OPTIONS.byteOffset(MemoryLayout.PathElement.groupElement(field));
  }

  /** A {@code longstraw_options} in {@code a}, filled with the library's defaults. */
  private static MemorySegment defaults(Arena a) throws Throwable {
    MemorySegment o = a.allocate(OPTIONS);
    Native.check((int) OPTIONS_INIT.invokeExact(o, OPTIONS.byteSize()));
    return o;
  }

  /**
   * An empty flat set. {@code seedGiven} says whether the caller named a seed (0 included): the
   * set refuses a named seed together with a secret, in its own words. {@code secret} (null: none)
   * and {@code secretFile} (null: none) are the two ways to give a secret.
   */
  static MemorySegment flat(
      boolean seedGiven, long seed, byte[] secret, String secretFile, int placement) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment o = defaults(a);
      o.set(Native.U32, offset("placement"), placement);
      o.set(Native.U32, offset("has_seed"), seedGiven ? 1 : 0);
      o.set(Native.U64, offset("seed"), seed);
      MemorySegment s = secret == null ? MemorySegment.NULL : a.allocateFrom(Native.U8, secret);
      o.set(Native.PTR, offset("secret"), s);
      o.set(Native.SIZE, offset("secret_len"), secret == null ? 0L : (long) secret.length);
      o.set(
          Native.PTR,
          offset("secret_file"),
          secretFile == null
              ? MemorySegment.NULL
              : a.allocateFrom(secretFile, StandardCharsets.UTF_8));
      MemorySegment out = a.allocate(Native.PTR);
      try {
        Native.check((int) NEW.invokeExact(o, out));
      } finally {
        if (secret != null) s.fill((byte) 0);
      }
      return out.get(Native.PTR, 0);
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
  }

  /** A table over the members of snapshot {@code members}. {@code bits} may be LONGSTRAW_AUTO. */
  static MemorySegment table(
      MemorySegment members, int bits, long replicas, int flags, double balance) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment o = defaults(a);
      o.set(Native.U32, offset("mode"), Mode.TABLE.code());
      o.set(Native.U8, offset("partition_bits"), (byte) bits);
      o.set(Native.SIZE, offset("replicas"), replicas);
      o.set(Native.U32, offset("table_flags"), flags);
      o.set(Native.F64, offset("balance"), balance);
      return newFrom(a, members, o);
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
  }

  /** A skeleton over the members of snapshot {@code members} (LONGSTRAW_AUTO for both: default). */
  static MemorySegment skeleton(MemorySegment members, int fanoutBits, int levels) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment o = defaults(a);
      o.set(Native.U32, offset("mode"), Mode.SKELETON.code());
      o.set(Native.U8, offset("fanout_bits"), (byte) fanoutBits);
      o.set(Native.U8, offset("levels"), (byte) levels);
      return newFrom(a, members, o);
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
  }

  private static MemorySegment newFrom(Arena a, MemorySegment members, MemorySegment o)
      throws Throwable {
    // The set's placement comes from the members; the default would name v1 explicitly.
    MemorySegment out = a.allocate(Native.PTR);
    Native.check((int) NEW_FROM.invokeExact(members, o, out));
    return out.get(Native.PTR, 0);
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

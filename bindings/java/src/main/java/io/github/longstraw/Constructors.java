package io.github.longstraw;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;

/**
 * Every downcall that creates a set, in one place: {@code longstraw_options_init}, {@code
 * longstraw_rendezvous_new}, {@code longstraw_rendezvous_new_from} and {@code
 * longstraw_bounded_new}. Set-wide options travel in one {@code longstraw_options} struct, laid out
 * here once ({@link #OPTIONS}) and filled from a builder in one method ({@code fill}); a new option
 * is one field of that layout and one line there. Each method returns the raw owned pointer; the
 * callers wrap it in a {@link Handle}.
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

  /**
   * A {@code longstraw_options} in {@code a}: the library's defaults, then every option {@code o}
   * gives, in one place. {@code hashing}: write the seed, secret and secret file (a set built over
   * a snapshot takes its hashing from the snapshot instead). {@code shape}: write the table and
   * skeleton options that were given; the library refuses those that do not apply to {@code
   * mode}, in its own words. The secret's native copy is {@code secretCopy[0]} (to wipe).
   */
  private static MemorySegment fill(
      Arena a,
      Rendezvous.Builder o,
      Mode mode,
      boolean hashing,
      boolean shape,
      MemorySegment[] secretCopy)
      throws Throwable {
    MemorySegment s = a.allocate(OPTIONS);
    Native.check((int) OPTIONS_INIT.invokeExact(s, OPTIONS.byteSize()));
    s.set(Native.U32, offset("mode"), mode.code());
    if (hashing) {
      s.set(Native.U32, offset("placement"), o.placement);
      s.set(Native.U32, offset("has_seed"), o.seedGiven ? 1 : 0);
      s.set(Native.U64, offset("seed"), o.seed);
      secretCopy[0] = o.secret == null ? MemorySegment.NULL : a.allocateFrom(Native.U8, o.secret);
      s.set(Native.PTR, offset("secret"), secretCopy[0]);
      s.set(Native.SIZE, offset("secret_len"), o.secret == null ? 0L : (long) o.secret.length);
      if (o.secretFile != null) {
        s.set(Native.PTR, offset("secret_file"), Rendezvous.cPath(a, o.secretFile.toString(), "secret file"));
      }
    }
    if (shape) {
      if (o.partitionBits != null) {
        s.set(Native.U8, offset("partition_bits"), u8(o.partitionBits, () -> partitionBitsText(o.partitionBits)));
      }
      if (o.replicas != null) {
        if (o.replicas < 0) throw invalid(replicasText(o.replicas));
        s.set(Native.SIZE, offset("replicas"), (long) o.replicas);
      }
      if (o.distinctDomains) s.set(Native.U32, offset("table_flags"), Native.TABLE_DISTINCT_DOMAINS);
      if (o.balance != null) {
        // 0.0 is the C library's "no balance": a balance of 0 given here must not mean a plain table.
        if (o.balance == 0.0) throw invalid(balanceText(o.balance));
        s.set(Native.F64, offset("balance"), o.balance);
      }
      if (o.shape != null) {
        int fan = o.shape[0], lev = o.shape[1];
        s.set(Native.U8, offset("fanout_bits"), u8(fan, () -> shapeText(fan, lev)));
        s.set(Native.U8, offset("levels"), u8(lev, () -> shapeText(fan, lev)));
      }
    }
    return s;
  }

  // ---- values a C field cannot carry ----
  // A u8 field holds 0 to 254 here: 255 is LONGSTRAW_AUTO ("choose for me"), and anything else
  // would wrap. A negative count would wrap to a huge size_t. Those values never reach the library,
  // so they are refused here with the core's message for them (core/src/error.rs); every other
  // value is the library's to check. BoundaryTextTest pins each text to the library's own.

  private static byte u8(int v, java.util.function.Supplier<String> text) {
    if (v < 0 || v >= Native.AUTO) throw invalid(text.get());
    return (byte) v;
  }

  private static InvalidArgumentException invalid(String message) {
    return new InvalidArgumentException(ErrorCode.INVALID_PARAMETER, message);
  }

  static String partitionBitsText(int bits) {
    return "partition bits " + bits + " out of range (0 to 24: at most 2^24 partitions)";
  }

  static String replicasText(int replicas) {
    return "replicas " + replicas + " out of range (1 to 32 per partition)";
  }

  static String balanceText(double balance) {
    return "balance " + balance + " out of range (a finite number from 1.0 to 4.0, held to millionths)";
  }

  static String shapeText(int fan, int lev) {
    return "skeleton shape fanout_bits=" + fan + " levels=" + lev
        + " out of range (levels 0 to 5; fanout_bits 1 to 6 when levels > 0, 0 to 6 when levels = 0)";
  }

  /**
   * An empty flat set with the hashing of {@code o} (and, for a flat builder, any table or
   * skeleton option it was given, for the library to refuse).
   */
  static MemorySegment flat(Rendezvous.Builder o, boolean withShape) {
    MemorySegment[] secretCopy = {MemorySegment.NULL};
    try (Arena a = Arena.ofConfined()) {
      try {
        MemorySegment opts = fill(a, o, Mode.FLAT, true, withShape, secretCopy);
        MemorySegment out = a.allocate(Native.PTR);
        Native.check((int) NEW.invokeExact(opts, out));
        return out.get(Native.PTR, 0);
      } finally {
        secretCopy[0].fill((byte) 0);
      }
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
  }

  /** A set of {@code o}'s mode and shape over the members (and hashing) of snapshot {@code members}. */
  static MemorySegment over(MemorySegment members, Rendezvous.Builder o) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment opts = fill(a, o, o.mode, false, true, new MemorySegment[1]);
      MemorySegment out = a.allocate(Native.PTR);
      Native.check((int) NEW_FROM.invokeExact(members, opts, out));
      return out.get(Native.PTR, 0);
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
  }

  /** An empty bounded-load set with the hashing of {@code o}. */
  static MemorySegment bounded(BoundedLoad.Builder o, double balanceFactor) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment out = a.allocate(Native.PTR);
      MemorySegment s = o.secret == null ? MemorySegment.NULL : a.allocateFrom(Native.U8, o.secret);
      try {
        Native.check(
            (int)
                BOUNDED_NEW.invokeExact(
                    o.seed, s, (long) (o.secret == null ? 0 : o.secret.length), o.placement, balanceFactor, out));
      } finally {
        s.fill((byte) 0);
      }
      return out.get(Native.PTR, 0);
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
  }
}

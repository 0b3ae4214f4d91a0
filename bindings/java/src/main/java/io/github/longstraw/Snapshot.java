package io.github.longstraw;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * A frozen membership of a {@link Rendezvous} in its mode: every lookup on one snapshot sees the
 * same nodes, whatever happens to the set meanwhile, and node indices mean the same node for the
 * snapshot's whole life. A snapshot never changes, so any number of threads may use it at once.
 *
 * <p>Close it when done (try-with-resources); a snapshot that is dropped without {@code close()} is
 * freed when it is garbage collected. Calls after {@code close()} throw {@link
 * IllegalStateException}; a close waits for the calls still running on it.
 *
 * <p>Keys are {@code String} (their UTF-8 bytes; a lone surrogate is an {@link
 * IllegalArgumentException}), {@code byte[]}, or {@code ByteBuffer} (position to limit, heap or
 * direct, read in place without a copy).
 */
public final class Snapshot implements AutoCloseable {
  final Handle handle;
  private final int size;
  private final int eligible;
  private final Mode mode;
  private volatile Ids ids;

  /** The ids and labels, read once per snapshot on first use. */
  private record Ids(byte[][] raw, String[] text, double[] weights, byte[][] domains) {}

  Snapshot(MemorySegment raw) {
    this.handle = new Handle(this, raw, Native.SNAPSHOT_FREE, "Snapshot");
    try (Arena a = Arena.ofConfined()) {
      MemorySegment out = a.allocate(Native.SIZE);
      MemorySegment m = a.allocate(Native.RESULT);
      MemorySegment h = handle.get();
      Native.check((int) Native.SNAPSHOT_LEN.invokeExact(h, out));
      this.size = Math.toIntExact(out.get(Native.SIZE, 0));
      Native.check((int) Native.SNAPSHOT_ELIGIBLE.invokeExact(h, out));
      this.eligible = Math.toIntExact(out.get(Native.SIZE, 0));
      Native.check((int) Native.SNAPSHOT_MODE.invokeExact(h, m));
      this.mode = Mode.of(m.get(Native.RESULT, 0));
    } catch (Throwable t) {
      handle.close();
      throw Native.rethrow(t);
    }
  }

  private Ids ids() {
    Ids i = ids;
    if (i != null) return i;
    synchronized (this) {
      if (ids != null) return ids;
      byte[][] raw = new byte[size][];
      String[] text = new String[size];
      double[] weights = new double[size];
      byte[][] domains = new byte[size][];
      try (Arena a = Arena.ofConfined()) {
        MemorySegment p = a.allocate(Native.PTR);
        MemorySegment len = a.allocate(Native.SIZE);
        MemorySegment w = a.allocate(Native.F64);
        MemorySegment h = handle.get();
        for (int k = 0; k < size; k++) {
          Native.check((int) Native.SNAPSHOT_NODE.invokeExact(h, k, p, len, w));
          raw[k] = bytesAt(p.get(Native.PTR, 0), len.get(Native.SIZE, 0));
          text[k] = Keys.text(raw[k]);
          weights[k] = w.get(Native.F64, 0);
          Native.check((int) Native.SNAPSHOT_DOMAIN.invokeExact(h, k, p, len));
          MemorySegment d = p.get(Native.PTR, 0);
          domains[k] = d.equals(MemorySegment.NULL) ? null : bytesAt(d, len.get(Native.SIZE, 0));
        }
      } catch (Throwable t) {
        throw Native.rethrow(t);
      } finally {
        Reference.reachabilityFence(this);
      }
      ids = i = new Ids(raw, text, weights, domains);
      return i;
    }
  }

  static byte[] bytesAt(MemorySegment p, long len) {
    return p.reinterpret(len).toArray(Native.U8);
  }

  // ---- the membership ----

  /** The number of nodes, drained ones included. */
  public int size() {
    return size;
  }

  /** The number of nodes with a weight above 0 (the length of a full {@link #rank(String)}). */
  public int eligible() {
    return eligible;
  }

  /** How this snapshot places keys. */
  public Mode mode() {
    return mode;
  }

  /** The node ids as text, in index order. Throws if an id is not UTF-8 (see {@link #nodeIds()}). */
  public List<String> nodes() {
    List<String> out = new ArrayList<>(size);
    for (int i = 0; i < size; i++) out.add(node(i));
    return Collections.unmodifiableList(out);
  }

  /** The node ids as bytes, in index order (copies). */
  public List<byte[]> nodeIds() {
    List<byte[]> out = new ArrayList<>(size);
    for (byte[] b : ids().raw) out.add(b.clone());
    return Collections.unmodifiableList(out);
  }

  /** The weights, in index order (0 is a drained node). */
  public double[] weights() {
    return ids().weights.clone();
  }

  /** Each node's failure domain label as text, in index order; null for a node with none. */
  public List<String> domains() {
    List<String> out = new ArrayList<>(size);
    for (byte[] d : ids().domains) out.add(d == null ? null : new String(d, StandardCharsets.UTF_8));
    return Collections.unmodifiableList(out);
  }

  /** The id of node {@code index} as text. */
  public String node(int index) {
    Ids i = ids();
    checkIndex(index);
    String s = i.text[index];
    if (s == null) {
      throw new IllegalStateException(
          "node " + index + "'s id is not UTF-8 text; read it as bytes with nodeId(" + index + ")");
    }
    return s;
  }

  /** The id of node {@code index} as bytes (a copy). */
  public byte[] nodeId(int index) {
    checkIndex(index);
    return ids().raw[index].clone();
  }

  private void checkIndex(int index) {
    if (index < 0 || index >= size) {
      throw new IndexOutOfBoundsException("node index " + index + " out of range for " + size + " nodes");
    }
  }

  /** Whether a node with this id is in the snapshot. */
  public boolean contains(String id) {
    return indexOf(id).isPresent();
  }

  /** The index of the node with this id, if any. */
  public OptionalInt indexOf(String id) {
    return indexOf(Keys.utf8(id, "id"));
  }

  /** The index of the node with this id, if any. */
  public OptionalInt indexOf(byte[] id) {
    int[] out = new int[1];
    int rc = call(Native.SNAPSHOT_INDEX_OF, Keys.of(id), out);
    if (rc == ErrorCode.UNKNOWN_NODE.value()) return OptionalInt.empty();
    Native.check(rc);
    return OptionalInt.of(out[0]);
  }

  private int call(java.lang.invoke.MethodHandle mh, MemorySegment key, int[] out) {
    try {
      return (int) mh.invokeExact(handle.get(), key, key.byteSize(), MemorySegment.ofArray(out));
    } catch (Throwable t) {
      throw Native.rethrow(t);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /** The seed of an unkeyed snapshot (an unsigned 64-bit value); empty for a keyed one. */
  public OptionalLong seed() {
    if (isKeyed()) return OptionalLong.empty();
    return OptionalLong.of(readLong(Native.SNAPSHOT_SEED));
  }

  /** Whether keys are placed under a secret (keyed-v1, SPEC.md section 15). */
  public boolean isKeyed() {
    return readInt(Native.SNAPSHOT_IS_KEYED) != 0;
  }

  /** The placement version (1). */
  public int placement() {
    return readInt(Native.SNAPSHOT_PLACEMENT);
  }

  /** The generation: how many changes the set had seen when this snapshot was taken. */
  public long generation() {
    return readLong(Native.SNAPSHOT_GENERATION);
  }

  /** Which kernel runs lookups: scalar, sse2, avx2, avx512 or neon. */
  public String backend() {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment out = a.allocate(Native.PTR);
      Native.check((int) Native.SNAPSHOT_BACKEND.invokeExact(handle.get(), out));
      return Native.cString(out.get(Native.PTR, 0));
    } catch (Throwable t) {
      throw Native.rethrow(t);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  private long readLong(java.lang.invoke.MethodHandle mh) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment out = a.allocate(Native.U64);
      Native.check((int) mh.invokeExact(handle.get(), out));
      return out.get(Native.U64, 0);
    } catch (Throwable t) {
      throw Native.rethrow(t);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  private int readInt(java.lang.invoke.MethodHandle mh) {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment out = a.allocate(Native.U32);
      Native.check((int) mh.invokeExact(handle.get(), out));
      return out.get(Native.U32, 0);
    } catch (Throwable t) {
      throw Native.rethrow(t);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /** A table's partition bits; empty for another mode. */
  public OptionalInt partitionBits() {
    return mode == Mode.TABLE ? OptionalInt.of(tableShape().bits) : OptionalInt.empty();
  }

  /** A table's stored replicas per partition; empty for another mode. */
  public OptionalInt replicas() {
    return mode == Mode.TABLE ? OptionalInt.of(tableShape().replicas) : OptionalInt.empty();
  }

  /** Whether a table stores one node per failure domain; false for another mode. */
  public boolean distinctDomains() {
    return mode == Mode.TABLE && (tableShape().flags & Native.TABLE_DISTINCT_DOMAINS) != 0;
  }

  /** A balanced table's balance (1.0 to 4.0); empty for a plain table and another mode. */
  public Optional<Double> balance() {
    if (mode != Mode.TABLE) return Optional.empty();
    double b = tableShape().balance;
    return b == 0.0 ? Optional.empty() : Optional.of(b);
  }

  /** A skeleton's fan-out bits; empty for another mode. */
  public OptionalInt fanoutBits() {
    return mode == Mode.SKELETON ? OptionalInt.of(skeletonShape()[0]) : OptionalInt.empty();
  }

  /** A skeleton's levels (0 is flat placement); empty for another mode. */
  public OptionalInt levels() {
    return mode == Mode.SKELETON ? OptionalInt.of(skeletonShape()[1]) : OptionalInt.empty();
  }

  private record TableShape(int bits, int replicas, int flags, double balance) {}

  private TableShape tableShape() {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment bits = a.allocate(Native.U8);
      MemorySegment rep = a.allocate(Native.SIZE);
      MemorySegment flags = a.allocate(Native.U32);
      MemorySegment bal = a.allocate(Native.F64);
      Native.check((int) Native.SNAPSHOT_TABLE_SHAPE.invokeExact(handle.get(), bits, rep, flags, bal));
      return new TableShape(
          Byte.toUnsignedInt(bits.get(Native.U8, 0)),
          (int) rep.get(Native.SIZE, 0),
          flags.get(Native.U32, 0),
          bal.get(Native.F64, 0));
    } catch (Throwable t) {
      throw Native.rethrow(t);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  private int[] skeletonShape() {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment f = a.allocate(Native.U8);
      MemorySegment l = a.allocate(Native.U8);
      Native.check((int) Native.SNAPSHOT_SKELETON_SHAPE.invokeExact(handle.get(), f, l));
      return new int[] {Byte.toUnsignedInt(f.get(Native.U8, 0)), Byte.toUnsignedInt(l.get(Native.U8, 0))};
    } catch (Throwable t) {
      throw Native.rethrow(t);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  // ---- lookups ----

  /**
   * One thread's out-parameters of {@code longstraw_snapshot_owner} (index, id pointer, id length),
   * in native memory allocated once per thread, so that a lookup allocates nothing. Reusing them is
   * safe: the downcall never calls back into Java, so a thread has one lookup in flight at most.
   */
  private record OwnerOut(MemorySegment memory, MemorySegment index, MemorySegment id, MemorySegment idLen) {
    static OwnerOut allocate() {
      MemorySegment m = Arena.ofAuto().allocate(24, 8);
      // The pointers passed are plain addresses (global scope), so a call does not acquire the
      // arena three times; the record keeps the memory reachable, and index() reads it after
      // the call, so it lives at least as long as any call that writes it.
      long at = m.address();
      return new OwnerOut(
          m, MemorySegment.ofAddress(at), MemorySegment.ofAddress(at + 8), MemorySegment.ofAddress(at + 16));
    }

    /** The owner's index, once the downcall returned {@code rc}. */
    int index(int rc) {
      Native.check(rc);
      return memory.get(Native.U32, 0);
    }
  }

  private static final ThreadLocal<OwnerOut> OWNER_OUT = ThreadLocal.withInitial(OwnerOut::allocate);

  /** The index of the node that owns {@code key}. */
  public int ownerIndex(MemorySegment key) {
    OwnerOut out = OWNER_OUT.get();
    int rc;
    try {
      rc = (int) Native.SNAPSHOT_OWNER.invokeExact(handle.get(), key, key.byteSize(), out.index, out.id, out.idLen);
    } catch (Throwable t) {
      throw Native.rethrow(t);
    } finally {
      Reference.reachabilityFence(this);
    }
    return out.index(rc);
  }

  /** The index of the node that owns {@code key}. */
  public int ownerIndex(String key) {
    return ownerIndex(Keys.utf8(key, "key"));
  }

  /** The index of the node that owns {@code key}. */
  public int ownerIndex(byte[] key) {
    Objects.requireNonNull(key, "key");
    OwnerOut out = OWNER_OUT.get();
    int rc;
    try {
      // The key's segment is made here, beside the downcall, rather than passed to the method above:
      // when that method is not inlined into the caller, a heap segment passed to it is allocated
      // and its downcall takes a slow path (several times the cost of the lookup).
      rc =
          (int)
              Native.SNAPSHOT_OWNER.invokeExact(
                  handle.get(), MemorySegment.ofArray(key), (long) key.length, out.index, out.id, out.idLen);
    } catch (Throwable t) {
      throw Native.rethrow(t);
    } finally {
      Reference.reachabilityFence(this);
    }
    return out.index(rc);
  }

  /** The index of the node that owns {@code key}. */
  public int ownerIndex(ByteBuffer key) {
    return ownerIndex(Keys.of(key));
  }

  /** The id of the node that owns {@code key}; {@link NoEligibleNodeException} if none can. */
  public String owner(String key) {
    return node(ownerIndex(key));
  }

  /** The id of the node that owns {@code key}. */
  public String owner(byte[] key) {
    return node(ownerIndex(key));
  }

  /** The id of the node that owns {@code key}. */
  public String owner(ByteBuffer key) {
    return node(ownerIndex(key));
  }

  /** The id of the node that owns {@code key}. */
  public String owner(MemorySegment key) {
    return node(ownerIndex(key));
  }

  /** The indices of the best {@code k} eligible nodes for {@code key}, best first. */
  public int[] topKIndices(MemorySegment key, int k) {
    if (k < 0) {
      throw new InvalidArgumentException(ErrorCode.INVALID_PARAMETER, "k must not be negative, got " + k);
    }
    return list(Native.SNAPSHOT_TOP_K, key, Math.min(k, size));
  }

  /** The indices of the best {@code k} eligible nodes, at most one per failure domain, best first. */
  public int[] topKDistinctIndices(MemorySegment key, int k) {
    if (k < 0) {
      throw new InvalidArgumentException(ErrorCode.INVALID_PARAMETER, "k must not be negative, got " + k);
    }
    return list(Native.SNAPSHOT_TOP_K_DISTINCT, key, Math.min(k, size));
  }

  /** Every eligible node's index for {@code key}, best first. */
  public int[] rankIndices(MemorySegment key) {
    return list(Native.SNAPSHOT_RANK, key, eligible);
  }

  private int[] list(java.lang.invoke.MethodHandle mh, MemorySegment key, int n) {
    int[] out = new int[n];
    long[] written = new long[1];
    MemorySegment outSeg = n == 0 ? MemorySegment.NULL : MemorySegment.ofArray(out);
    try {
      Native.check(
          (int)
              mh.invokeExact(
                  handle.get(),
                  key,
                  key.byteSize(),
                  outSeg,
                  (long) n,
                  MemorySegment.ofArray(written)));
    } catch (Throwable t) {
      throw Native.rethrow(t);
    } finally {
      Reference.reachabilityFence(this);
    }
    return written[0] == n ? out : Arrays.copyOf(out, (int) written[0]);
  }

  private List<String> names(int[] idx) {
    List<String> out = new ArrayList<>(idx.length);
    for (int i : idx) out.add(node(i));
    return Collections.unmodifiableList(out);
  }

  /** The best {@code k} eligible nodes for {@code key}, best first ({@code [0]} is the owner). */
  public List<String> topK(String key, int k) {
    return names(topKIndices(Keys.of(key), k));
  }

  /** The best {@code k} eligible nodes for {@code key}, best first. */
  public List<String> topK(byte[] key, int k) {
    return names(topKIndices(Keys.of(key), k));
  }

  /** The best {@code k} eligible nodes for {@code key}, best first. */
  public List<String> topK(ByteBuffer key, int k) {
    return names(topKIndices(Keys.of(key), k));
  }

  /** Every eligible node for {@code key}, best first. */
  public List<String> rank(String key) {
    return names(rankIndices(Keys.of(key)));
  }

  /** Every eligible node for {@code key}, best first. */
  public List<String> rank(byte[] key) {
    return names(rankIndices(Keys.of(key)));
  }

  /** Every eligible node for {@code key}, best first. */
  public List<String> rank(ByteBuffer key) {
    return names(rankIndices(Keys.of(key)));
  }

  /**
   * The first node of each failure domain in {@code key}'s ranking, up to {@code k} of them (fewer
   * when there are fewer domains; a node without a label is a domain of its own).
   */
  public List<String> topKDistinct(String key, int k) {
    return names(topKDistinctIndices(Keys.of(key), k));
  }

  /** As {@link #topKDistinct(String, int)}. */
  public List<String> topKDistinct(byte[] key, int k) {
    return names(topKDistinctIndices(Keys.of(key), k));
  }

  /** As {@link #topKDistinct(String, int)}. */
  public List<String> topKDistinct(ByteBuffer key, int k) {
    return names(topKDistinctIndices(Keys.of(key), k));
  }

  /** A table's partition of {@code key}; {@link WrongModeException} for another mode. */
  public int partition(MemorySegment key) {
    int[] out = new int[1];
    Native.check(call(Native.SNAPSHOT_PARTITION, key, out));
    return out[0];
  }

  /** A table's partition of {@code key}. */
  public int partition(String key) {
    return partition(Keys.of(key));
  }

  /** A table's partition of {@code key}. */
  public int partition(byte[] key) {
    return partition(Keys.of(key));
  }

  /**
   * The owner index of every key of a packed batch: key {@code i} is {@code
   * keys[offsets[i]..offsets[i + 1])}, so n keys have n + 1 offsets.
   */
  public int[] ownerIndices(byte[] keys, long[] offsets) {
    int n = Math.max(0, offsets.length - 1);
    int[] out = new int[n];
    try {
      Native.check(
          (int)
              Native.SNAPSHOT_OWNERS.invokeExact(
                  handle.get(),
                  MemorySegment.ofArray(keys),
                  (long) keys.length,
                  MemorySegment.ofArray(offsets),
                  (long) offsets.length,
                  MemorySegment.ofArray(out),
                  (long) n));
    } catch (Throwable t) {
      throw Native.rethrow(t);
    } finally {
      Reference.reachabilityFence(this);
    }
    return out;
  }

  /** Frees the snapshot once the calls running on it return; later calls throw. Idempotent. */
  @Override
  public void close() {
    handle.close();
  }

  /** The mode and node count (never a secret). */
  @Override
  public String toString() {
    return "Snapshot(mode=" + mode + ", nodes=" + size + (handle.isClosed() ? ", closed" : "") + ")";
  }
}

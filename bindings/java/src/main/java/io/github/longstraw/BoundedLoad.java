package io.github.longstraw;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A flat node set with bounded loads (SPEC.md section 16): each node's requests in flight are capped
 * at {@code ceil(balanceFactor * (inFlight + 1) * weight / totalWeight)}, and a request whose owner
 * is full goes to the next node of the key's ranking. When the owner has room, the node is the
 * owner.
 *
 * <pre>{@code
 * try (BoundedLoad b = BoundedLoad.builder(1.25).nodes(List.of("api-1", "api-2")).build();
 *     Lease lease = b.acquire("user:42")) {
 *   send(lease.node());
 * } // the request's place is freed here
 * }</pre>
 *
 * <p>Thread-safe: acquire and release take no lock. Close it when done.
 */
public final class BoundedLoad implements AutoCloseable {
  final Handle handle;

  private BoundedLoad(MemorySegment raw) {
    this.handle = new Handle(this, raw, Native.BOUNDED_FREE, "BoundedLoad");
  }

  /** A builder with this balance factor (finite, at least 1 + 2^-16; 1.25 is usual). */
  public static Builder builder(double balanceFactor) {
    return new Builder(balanceFactor);
  }

  /** A bounded set of these nodes, weight 1 each, seed 0. */
  public static BoundedLoad of(double balanceFactor, String... nodes) {
    return builder(balanceFactor).nodes(Arrays.asList(nodes)).build();
  }

  /** Places one request for {@code key}; close the lease when the request ends. */
  public Lease acquire(String key) {
    return acquire(Keys.of(key));
  }

  /** Places one request for {@code key}. */
  public Lease acquire(byte[] key) {
    return acquire(Keys.of(key));
  }

  /** Places one request for {@code key} (position to limit). */
  public Lease acquire(ByteBuffer key) {
    return acquire(Keys.of(key));
  }

  private Lease acquire(MemorySegment key) {
    long[] out = new long[3];
    MemorySegment o = MemorySegment.ofArray(out);
    try {
      Native.check(
          (int)
              Native.BOUNDED_ACQUIRE.invokeExact(
                  handle.get(), key, key.byteSize(), o.asSlice(0, 8), o.asSlice(8, 8), o.asSlice(16, 8)));
    } catch (Throwable t) {
      throw Native.rethrow(t);
    } finally {
      Reference.reachabilityFence(this);
    }
    MemorySegment lease = MemorySegment.ofAddress(out[0]);
    byte[] id = Snapshot.bytesAt(MemorySegment.ofAddress(out[1]), out[2]);
    return new Lease(lease, id);
  }

  /** Requests in flight on every node, including nodes removed since their requests started. */
  public long inFlight() {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment out = a.allocate(Native.U64);
      Native.check((int) Native.BOUNDED_IN_FLIGHT.invokeExact(handle.get(), out));
      return out.get(Native.U64, 0);
    } catch (Throwable t) {
      throw Native.rethrow(t);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /** One node's requests in flight. */
  public record NodeLoad(String node, long inFlight) {}

  /** Every current node's requests in flight, in node order. */
  public List<NodeLoad> loads() {
    while (true) {
      try (Arena a = Arena.ofConfined()) {
        MemorySegment snap = a.allocate(Native.PTR);
        MemorySegment count = a.allocate(Native.SIZE);
        int cap = 64;
        MemorySegment loads = a.allocate(Native.U64, cap);
        Native.check((int) Native.BOUNDED_LOADS.invokeExact(handle.get(), snap, loads, (long) cap, count));
        try (Snapshot s = new Snapshot(snap.get(Native.PTR, 0))) {
          int n = (int) count.get(Native.SIZE, 0);
          if (n > cap) {
            loads = a.allocate(Native.U64, n);
            MemorySegment snap2 = a.allocate(Native.PTR);
            Native.check((int) Native.BOUNDED_LOADS.invokeExact(handle.get(), snap2, loads, (long) n, count));
            try (Snapshot s2 = new Snapshot(snap2.get(Native.PTR, 0))) {
              if (count.get(Native.SIZE, 0) != n) continue; // membership changed meanwhile
              return collect(s2, loads, n);
            }
          }
          return collect(s, loads, n);
        }
      } catch (Throwable t) {
        throw Native.rethrow(t);
      } finally {
        Reference.reachabilityFence(this);
      }
    }
  }

  private static List<NodeLoad> collect(Snapshot s, MemorySegment loads, int n) {
    List<NodeLoad> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) out.add(new NodeLoad(s.node(i), loads.getAtIndex(Native.U64, i)));
    return Collections.unmodifiableList(out);
  }

  /** Adds a node. */
  public void add(String id, double weight) {
    byte[] b = Keys.utf8(id, "id");
    idCall(b, (h, p, n) -> (int) Native.BOUNDED_ADD.invokeExact(h, p, n, weight));
  }

  /** Removes a node; its leases stay valid and release cleanly. */
  public void remove(String id) {
    byte[] b = Keys.utf8(id, "id");
    idCall(b, (h, p, n) -> (int) Native.BOUNDED_REMOVE.invokeExact(h, p, n));
  }

  /** Changes a node's weight; 0 drains it (no new requests; its leases run out). */
  public void setWeight(String id, double weight) {
    byte[] b = Keys.utf8(id, "id");
    idCall(b, (h, p, n) -> (int) Native.BOUNDED_SET_WEIGHT.invokeExact(h, p, n, weight));
  }

  @FunctionalInterface
  private interface IdCall {
    int apply(MemorySegment h, MemorySegment id, long len) throws Throwable;
  }

  private void idCall(byte[] id, IdCall c) {
    try (Arena a = Arena.ofConfined()) {
      Native.check(c.apply(handle.get(), a.allocateFrom(Native.U8, id), id.length));
    } catch (Throwable t) {
      throw Native.rethrow(t);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /** Frees the set; leases still out stay valid and are released separately. */
  @Override
  public void close() {
    handle.close();
  }

  @Override
  public String toString() {
    return "BoundedLoad(" + (handle.isClosed() ? "closed" : "inFlight=" + inFlight()) + ")";
  }

  /** Builds a {@link BoundedLoad}. */
  public static final class Builder extends SetOptions<Builder> {
    private final double balanceFactor;
    private final List<String> ids = new ArrayList<>();
    private final List<Double> weights = new ArrayList<>();

    private Builder(double balanceFactor) {
      this.balanceFactor = balanceFactor;
    }

    @Override
    Builder self() {
      return this;
    }

    /** Adds a node of weight 1. */
    public Builder node(String id) {
      return node(id, 1.0);
    }

    /** Adds a node with this weight. */
    public Builder node(String id, double weight) {
      ids.add(Objects.requireNonNull(id, "id"));
      weights.add(weight);
      return this;
    }

    /** Adds these nodes, weight 1 each. */
    public Builder nodes(Collection<String> ids) {
      for (String id : ids) node(id);
      return this;
    }

    /** Builds the set. */
    public BoundedLoad build() {
      BoundedLoad b;
      try {
        b = new BoundedLoad(Constructors.bounded(this, balanceFactor));
      } finally {
        wipeSecret();
      }
      try {
        for (int i = 0; i < ids.size(); i++) b.add(ids.get(i), weights.get(i));
        return b;
      } catch (RuntimeException e) {
        b.close();
        throw e;
      }
    }
  }
}

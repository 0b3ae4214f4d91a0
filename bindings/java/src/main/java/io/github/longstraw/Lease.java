package io.github.longstraw;

import java.lang.foreign.MemorySegment;
import java.lang.ref.Cleaner;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One request placed by {@link BoundedLoad#acquire(String)}: it holds a place on {@link #node()}
 * until {@link #close()} (exactly once, from any thread; later closes do nothing). A lease that is
 * dropped without closing is released when garbage collected, so a leak cannot pin a node's load
 * forever, but close it: until then the node counts the request.
 */
public final class Lease implements AutoCloseable {
  private final String node;
  private final byte[] id;
  private final Release release;
  private final Cleaner.Cleanable cleanable;

  Lease(MemorySegment lease, byte[] id) {
    this.id = id;
    this.node = Keys.text(id);
    this.release = new Release(lease, new AtomicBoolean());
    this.cleanable = Handle.CLEANER.register(this, release);
  }

  /** The node the request goes to, as text (see {@link #nodeId()} for ids that are not UTF-8). */
  public String node() {
    if (node == null) throw new IllegalStateException("the node's id is not UTF-8 text; use nodeId()");
    return node;
  }

  /** The node's id as bytes (a copy). */
  public byte[] nodeId() {
    return id.clone();
  }

  /** Whether the lease was released. */
  public boolean isReleased() {
    return release.done.get();
  }

  /** Ends the request: frees its place on the node. Idempotent. */
  @Override
  public void close() {
    cleanable.clean();
  }

  @Override
  public String toString() {
    return "Lease(" + (node != null ? node : "<non-UTF-8 id>") + (isReleased() ? ", released" : "") + ")";
  }

  private record Release(MemorySegment lease, AtomicBoolean done) implements Runnable {
    @Override
    public void run() {
      if (!done.compareAndSet(false, true)) return;
      try {
        Native.check((int) Native.BOUNDED_RELEASE.invokeExact(lease));
      } catch (Throwable t) {
        throw Native.rethrow(t);
      }
    }
  }
}

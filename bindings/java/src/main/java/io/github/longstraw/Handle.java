package io.github.longstraw;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.ref.Cleaner;

/**
 * One owned C handle. The pointer is a segment of a shared arena whose cleanup frees it, so the
 * FFM runtime itself guarantees no use after free: every downcall that passes {@link #get()} holds
 * the arena open until it returns, and closing waits for calls in flight. The owner's Cleaner
 * closes the arena if the owner is dropped without {@code close()}.
 */
final class Handle {
  static final Cleaner CLEANER = Cleaner.create();

  private final MemorySegment ptr;
  private final String what;
  private final Cleaner.Cleanable cleanable;
  private volatile boolean closed;

  /** Takes ownership of {@code raw}, freed by {@code free} when the owner closes or is collected. */
  Handle(Object owner, MemorySegment raw, MethodHandle free, String what) {
    Arena arena = Arena.ofShared();
    this.what = what;
    this.ptr =
        raw.reinterpret(
            arena,
            p -> {
              try {
                free.invokeExact(MemorySegment.ofAddress(p.address()));
              } catch (Throwable t) {
                throw Native.rethrow(t);
              }
            });
    this.cleanable = CLEANER.register(owner, new Closer(arena));
  }

  /** The pointer, to pass to a downcall. */
  MemorySegment get() {
    if (closed) throw closedError();
    return ptr;
  }

  IllegalStateException closedError() {
    return new IllegalStateException("this " + what + " is closed");
  }

  boolean isClosed() {
    return closed;
  }

  /** Frees the handle once every call in flight on it has returned; later calls fail. */
  void close() {
    closed = true;
    cleanable.clean();
  }

  /** Closes the arena, waiting for downcalls that still hold it (they are short). */
  private record Closer(Arena arena) implements Runnable {
    @Override
    public void run() {
      while (true) {
        try {
          arena.close();
          return;
        } catch (IllegalStateException busy) {
          if (!arena.scope().isAlive()) return;
          Thread.onSpinWait();
        }
      }
    }
  }
}

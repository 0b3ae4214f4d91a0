package io.github.longstraw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Bounded loads: leases, the cap, drain, and 8 threads at once. */
class BoundedTest {
  static List<String> nodes(int n) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) out.add("node-" + i);
    return out;
  }

  @Test
  void acquireIsTheOwnerWhileItHasRoomAndLeasesRelease() {
    try (BoundedLoad b = BoundedLoad.builder(1.25).nodes(nodes(3)).build();
        Rendezvous r = Rendezvous.flat().nodes(nodes(3)).build()) {
      try (Lease l = b.acquire("user:42")) {
        assertEquals(r.owner("user:42"), l.node());
        assertEquals(1, b.inFlight());
        long onOwner = b.loads().stream().filter(x -> x.node().equals(l.node())).findFirst().orElseThrow().inFlight();
        assertEquals(1, onOwner);
      }
      assertEquals(0, b.inFlight());
      Lease l = b.acquire("k".getBytes());
      l.close();
      l.close(); // idempotent
      assertTrue(l.isReleased());
      assertEquals(0, b.inFlight());
    }
  }

  @Test
  void drainAndRemoveWithLeasesOut() {
    try (BoundedLoad b = BoundedLoad.of(1.25, "a", "b")) {
      Lease l = b.acquire("x");
      b.setWeight(l.node(), 0);
      for (int i = 0; i < 50; i++) {
        try (Lease m = b.acquire("key-" + i)) {
          assertFalse(m.node().equals(l.node()), "a drained node got a request");
        }
      }
      b.remove(l.node());
      assertEquals(1, b.inFlight()); // a removed node's lease still counts
      l.close();
      assertEquals(0, b.inFlight());
      b.remove(b.loads().get(0).node());
      assertThrows(NoEligibleNodeException.class, () -> b.acquire("x"));
      assertThrows(UnknownNodeException.class, () -> b.remove("nope"));
      assertThrows(InvalidArgumentException.class, () -> BoundedLoad.of(0.5, "a"));
    }
  }

  @Test
  void eightThreadsStayWithinTheStatedCeiling() throws Exception {
    final int n = 10, threads = 8, held = 16;
    // Each thread holds at most `held` requests counting the one it places, so no acquire sees a
    // total above threads * held, and SPEC.md 16.4 bounds every node by this ceiling.
    long ceiling = (long) Math.ceil(1.25 * threads * held / n);
    AtomicLong peak = new AtomicLong();
    try (BoundedLoad b = BoundedLoad.builder(1.25).nodes(nodes(n)).build()) {
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        done.add(
            pool.submit(
                () -> {
                  ArrayDeque<Lease> queue = new ArrayDeque<>();
                  for (int i = 0; i < 3000; i++) {
                    if (queue.size() == held - 1) queue.removeFirst().close();
                    queue.addLast(b.acquire("hot"));
                    if (i % 50 == 0) {
                      for (BoundedLoad.NodeLoad l : b.loads()) peak.accumulateAndGet(l.inFlight(), Math::max);
                    }
                  }
                  queue.forEach(Lease::close);
                  return null;
                }));
      }
      for (Future<?> f : done) f.get();
      pool.shutdown();
      assertTrue(peak.get() <= ceiling, "peak " + peak + " above the ceiling " + ceiling);
      assertTrue(peak.get() >= 2, "the hot key never spread: peak " + peak);
      assertEquals(0, b.inFlight());
    }
  }

  @Test
  void aDroppedLeaseIsReleasedByTheCleaner() throws Exception {
    try (BoundedLoad b = BoundedLoad.of(1.25, "a", "b")) {
      acquireAndDrop(b);
      for (int i = 0; i < 200 && b.inFlight() != 0; i++) {
        System.gc();
        Thread.sleep(10);
      }
      assertEquals(0, b.inFlight());
    }
  }

  private static void acquireAndDrop(BoundedLoad b) {
    b.acquire("x");
    assertEquals(1, b.inFlight());
  }
}

package io.github.longstraw;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The lookup path allocates nothing: once the JIT has compiled it, {@code owner} on a snapshot or
 * a set, with a heap {@code byte[]} key, allocates no Java objects (the out-parameters of the
 * downcall are reused per thread, and the ids are read once per snapshot).
 */
class LookupAllocationTest {
  static long sink;

  @Test
  void ownerAllocatesNothingOnceCompiled() {
    com.sun.management.ThreadMXBean mx =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long tid = Thread.currentThread().threadId();
    byte[][] keys = new byte[1024][];
    for (int i = 0; i < keys.length; i++) keys[i] = ("user:" + i).getBytes(StandardCharsets.UTF_8);
    int calls = 100_000;
    double bestIndex = Double.MAX_VALUE, bestOwner = Double.MAX_VALUE;
    try (Rendezvous r = Rendezvous.of("a", "b", "c");
        Snapshot s = r.snapshot()) {
      // Rounds until the JIT has compiled both loops (a few), at most 30.
      for (int round = 0; round < 30 && (bestIndex >= 1 || bestOwner >= 1); round++) {
        long b0 = mx.getThreadAllocatedBytes(tid);
        for (int i = 0; i < calls; i++) sink += s.ownerIndex(keys[i & 1023]);
        long b1 = mx.getThreadAllocatedBytes(tid);
        for (int i = 0; i < calls; i++) sink += r.owner(keys[i & 1023]).length();
        long b2 = mx.getThreadAllocatedBytes(tid);
        bestIndex = Math.min(bestIndex, (double) (b1 - b0) / calls);
        bestOwner = Math.min(bestOwner, (double) (b2 - b1) / calls);
      }
    }
    assertTrue(bestIndex < 1, "Snapshot.ownerIndex allocates " + bestIndex + " bytes per call at best");
    assertTrue(bestOwner < 1, "Rendezvous.owner allocates " + bestOwner + " bytes per call at best");
  }
}

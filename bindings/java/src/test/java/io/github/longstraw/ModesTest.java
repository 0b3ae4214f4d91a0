package io.github.longstraw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The one Rendezvous in every mode, weights and drain, domains, keys of every type, lifecycle. */
class ModesTest {
  static List<String> nodes(int n) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) out.add("cache-" + i);
    return out;
  }

  @Test
  void theReadmeExample() {
    try (Rendezvous r = Rendezvous.of("cache-a", "cache-b", "cache-c")) {
      // The same answers as the Python README's example (every language places alike).
      assertEquals("cache-c", r.owner("user:42"));
      assertEquals(List.of("cache-c", "cache-b"), r.topK("user:42", 2));
      assertEquals(List.of("cache-c", "cache-b", "cache-a"), r.rank("user:42"));
      byte[] raw = "user:42".getBytes(StandardCharsets.UTF_8);
      assertEquals("cache-c", r.owner(raw));
      assertEquals("cache-c", r.owner(ByteBuffer.wrap(raw)));
      ByteBuffer direct = ByteBuffer.allocateDirect(16).put(raw).flip();
      assertEquals("cache-c", r.owner(direct));
      assertEquals(0, direct.position());
    }
  }

  @Test
  void drainKeepsThePlaceAndMovesOnlyItsKeys() {
    try (Rendezvous r = Rendezvous.flat().nodes(nodes(5)).build()) {
      List<String> before = new ArrayList<>();
      for (int i = 0; i < 500; i++) before.add(r.owner("k" + i));
      r.setWeight("cache-2", 0);
      assertEquals(5, r.size());
      for (int i = 0; i < 500; i++) {
        String now = r.owner("k" + i);
        if (!before.get(i).equals("cache-2")) assertEquals(before.get(i), now);
        else assertEquals(r.rank("k" + i).get(0), now);
        assertNotEquals("cache-2", now);
      }
      r.remove("cache-2");
      assertEquals(4, r.size());
      assertThrows(UnknownNodeException.class, () -> r.remove("cache-2"));
    }
  }

  @Test
  void tableAndSkeletonAreTheSameType() {
    try (Rendezvous t = Rendezvous.table().nodes(nodes(100)).partitionBits(13).replicas(2).build();
        Rendezvous s = Rendezvous.skeleton().nodes(nodes(100)).build();
        Rendezvous f = Rendezvous.flat().nodes(nodes(100)).build()) {
      assertEquals(Mode.TABLE, t.mode());
      assertEquals(OptionalInt.of(13), t.partitionBits());
      assertEquals(OptionalInt.of(2), t.replicas());
      assertTrue(t.partition("user:42") < (1 << 13));
      assertEquals(Mode.SKELETON, s.mode());
      assertEquals(OptionalInt.of(0), s.levels()); // flat placement up to 256 nodes by default
      assertEquals(f.owner("user:42"), s.owner("user:42"));
      assertThrows(WrongModeException.class, () -> s.partition("x"));
      assertEquals(OptionalInt.empty(), f.partitionBits());
      // A table's change moves only what the new node wins.
      List<String> before = new ArrayList<>();
      for (int i = 0; i < 1000; i++) before.add(t.owner("k" + i));
      t.add("cache-new", 1.0);
      for (int i = 0; i < 1000; i++) {
        String now = t.owner("k" + i);
        assertTrue(now.equals(before.get(i)) || now.equals("cache-new"));
      }
      assertThrows(InvalidArgumentException.class, () -> Rendezvous.flat().partitionBits(3).build());
    }
  }

  @Test
  void distinctDomains() {
    try (Rendezvous r =
        Rendezvous.table()
            .node("a", 1, "rack-1")
            .node("b", 1, "rack-1")
            .node("c", 1, "rack-2")
            .node("d", 1, null)
            .replicas(3)
            .distinctDomains(true)
            .build()) {
      assertTrue(r.snapshot().distinctDomains());
      for (int i = 0; i < 100; i++) {
        List<String> d = r.topKDistinct("k" + i, 3);
        assertEquals(3, d.size());
        HashSet<String> racks = new HashSet<>();
        for (String n : d) racks.add(n.equals("d") ? "d" : r.domains().get(r.nodes().indexOf(n)));
        assertEquals(3, racks.size(), d.toString());
        assertEquals(r.owner("k" + i), d.get(0));
      }
      r.setDomain("d", "rack-3");
      assertEquals("rack-3", r.domains().get(3));
      assertThrows(InvalidArgumentException.class, () -> r.setDomain("d", ""));
    }
  }

  @Test
  void closedHandlesFailAndSnapshotsOutliveTheirSet() {
    Rendezvous r = Rendezvous.of("a", "b");
    Snapshot s = r.snapshot();
    r.close();
    r.close();
    assertThrows(IllegalStateException.class, () -> r.owner("x"));
    assertThrows(IllegalStateException.class, () -> r.add("c", 1));
    assertTrue(List.of("a", "b").contains(s.owner("x")));
    s.close();
    assertThrows(IllegalStateException.class, () -> s.owner("x"));
  }

  @Test
  void closeWhileLookupsRunNeverCrashes() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    for (int round = 0; round < 20; round++) {
      Snapshot s;
      try (Rendezvous r = Rendezvous.flat().nodes(nodes(50)).build()) {
        s = r.snapshot();
      }
      List<Future<Integer>> runs = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        runs.add(
            pool.submit(
                () -> {
                  int ok = 0;
                  for (int i = 0; i < 100_000; i++) {
                    try {
                      s.owner("k" + i);
                      ok++;
                    } catch (IllegalStateException closed) {
                      return ok;
                    }
                  }
                  return ok;
                }));
      }
      Thread.sleep(2);
      s.close();
      for (Future<Integer> f : runs) f.get();
    }
    pool.shutdown();
  }

  @Test
  void changesAndLookupsFromManyThreads() throws Exception {
    try (Rendezvous r = Rendezvous.flat().nodes(nodes(20)).build()) {
      ExecutorService pool = Executors.newFixedThreadPool(8);
      List<Future<?>> runs = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int id = t;
        runs.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < 200; i++) {
                    if (id < 2) {
                      r.add("extra-" + id + "-" + i, 1);
                      r.remove("extra-" + id + "-" + i);
                    } else {
                      // One read: a second call could see a different (equally valid) membership.
                      String owner = r.owner("k" + i);
                      assertTrue(owner.startsWith("cache-") || owner.startsWith("extra-"), owner);
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> f : runs) f.get();
      pool.shutdown();
      assertEquals(20, r.size());
    }
  }
}

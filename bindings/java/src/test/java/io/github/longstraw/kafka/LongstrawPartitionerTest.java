package io.github.longstraw.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.longstraw.Rendezvous;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/** The partitioner without a broker: placement, growth, null keys, weights and configuration. */
class LongstrawPartitionerTest {
  static Cluster cluster(String topic, int partitions, Set<Integer> unavailable) {
    Node node = new Node(1, "127.0.0.1", 9092);
    List<PartitionInfo> infos = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      Node leader = unavailable.contains(p) ? null : node;
      infos.add(new PartitionInfo(topic, p, leader, new Node[] {node}, new Node[] {node}));
    }
    return new Cluster("c", List.of(node), infos, Set.of(), Set.of());
  }

  static byte[] key(int i) {
    return ("key-" + i).getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void keysArePlacedByHrwOverPartitionIdsAndGrowthMovesOnlyToNewPartitions() {
    try (LongstrawPartitioner p = new LongstrawPartitioner();
        Rendezvous six = Rendezvous.of("0", "1", "2", "3", "4", "5")) {
      p.configure(Map.of());
      int n = 20_000, moved = 0;
      for (int i = 0; i < n; i++) {
        int before = p.partition("t", null, key(i), null, null, cluster("t", 6, Set.of()));
        // The placement is longstraw's own over ids "0".."5" (the same in every language).
        assertEquals(Integer.parseInt(six.owner(key(i))), before);
        int after = p.partition("t", null, key(i), null, null, cluster("t", 8, Set.of()));
        if (after != before) {
          moved++;
          assertTrue(after >= 6, "key " + i + " moved between old partitions " + before + " -> " + after);
        }
      }
      // Binomial(20000, 1/4): sd 0.0031; 0.02 is more than 6 sd.
      double fraction = moved / (double) n;
      assertTrue(Math.abs(fraction - 0.25) < 0.02, "moved fraction " + fraction);
    }
  }

  @Test
  void nullKeysGoRoundRobinOverAvailablePartitions() {
    try (LongstrawPartitioner p = new LongstrawPartitioner()) {
      p.configure(Map.of());
      Cluster c = cluster("t", 4, Set.of(2));
      int[] counts = new int[4];
      for (int i = 0; i < 300; i++) counts[p.partition("t", null, null, null, null, c)]++;
      assertEquals(0, counts[2]);
      assertEquals(100, counts[0]);
      assertEquals(100, counts[1]);
      assertEquals(100, counts[3]);
    }
  }

  @Test
  void weightsAndSeedComeFromTheConfig() {
    try (LongstrawPartitioner p = new LongstrawPartitioner()) {
      p.configure(Map.of(LongstrawPartitioner.WEIGHTS_CONFIG, "0:0, 1:3", LongstrawPartitioner.SEED_CONFIG, "7"));
      int[] counts = new int[3];
      for (int i = 0; i < 6000; i++) counts[p.partitionOf(key(i), 3)]++;
      assertEquals(0, counts[0]); // drained
      // Weights 3:1 between partitions 1 and 2: expect 4500 vs 1500 (sd ~34).
      assertTrue(Math.abs(counts[1] - 4500) < 250, "partition 1 got " + counts[1]);
      try (Rendezvous r = Rendezvous.flat().seed(7).node("0", 0).node("1", 3).node("2", 1).build()) {
        assertEquals(Integer.parseInt(r.owner(key(1))), p.partitionOf(key(1), 3));
      }
    }
    LongstrawPartitioner bad = new LongstrawPartitioner();
    assertThrows(ConfigException.class, () -> bad.configure(Map.of(LongstrawPartitioner.WEIGHTS_CONFIG, "0=1")));
    assertThrows(ConfigException.class, () -> bad.configure(Map.of(LongstrawPartitioner.SEED_CONFIG, "-1")));
  }
}

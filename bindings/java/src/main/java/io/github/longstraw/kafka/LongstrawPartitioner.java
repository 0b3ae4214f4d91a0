package io.github.longstraw.kafka;

import io.github.longstraw.Rendezvous;
import io.github.longstraw.Snapshot;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.Partitioner;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.config.ConfigException;

/**
 * A Kafka {@link Partitioner} that places each keyed record by rendezvous (HRW) hashing over the
 * topic's partitions: partition {@code p} is the node with id {@code p} in decimal ("0", "1", ...),
 * and the key's bytes are the key. When a topic grows from {@code n} to {@code m} partitions, only
 * the keys the new partitions win move (a fraction {@code (m - n) / m}, 25% from 6 to 8), where
 * Kafka's default {@code murmur2(key) % n} moves most keys (75% from 6 to 8).
 *
 * <p>Configuration (producer properties):
 *
 * <ul>
 *   <li>{@code longstraw.partitioner.seed}: the placement seed, an unsigned 64-bit decimal (default
 *       0). Every producer of a topic must use the same one.
 *   <li>{@code longstraw.partitioner.weights}: optional per-partition weights, {@code
 *       "0:2.0,3:0.5"}; unlisted partitions weigh 1, and 0 drains a partition (no new keys).
 * </ul>
 *
 * <p>Records with a null key have no placement to keep: they go round-robin over the topic's
 * available partitions (all partitions when none is reported available), one record at a time, so
 * they spread evenly. Keyed records are placed over all partitions, available or not, so a key's
 * partition never depends on a broker's health.
 */
public final class LongstrawPartitioner implements Partitioner {
  /** The seed property. */
  public static final String SEED_CONFIG = "longstraw.partitioner.seed";

  /** The per-partition weights property. */
  public static final String WEIGHTS_CONFIG = "longstraw.partitioner.weights";

  private long seed;
  private final Map<Integer, Double> weights = new HashMap<>();
  private final Map<String, Placer> placers = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> roundRobin = new ConcurrentHashMap<>();

  /** The partitions of one topic at one partition count, as a frozen snapshot. */
  private record Placer(int partitions, Snapshot snapshot) {}

  /** A partitioner with seed 0 and no weights (Kafka calls {@link #configure} next). */
  public LongstrawPartitioner() {}

  @Override
  public void configure(Map<String, ?> configs) {
    Object s = configs.get(SEED_CONFIG);
    if (s != null) {
      try {
        seed = Long.parseUnsignedLong(s.toString().trim());
      } catch (NumberFormatException e) {
        throw new ConfigException(SEED_CONFIG, s, "an unsigned 64-bit decimal integer");
      }
    }
    Object w = configs.get(WEIGHTS_CONFIG);
    if (w != null && !w.toString().isBlank()) {
      for (String entry : w.toString().split(",")) {
        String[] kv = entry.trim().split(":");
        try {
          if (kv.length != 2) throw new NumberFormatException(entry);
          weights.put(Integer.parseInt(kv[0].trim()), Double.parseDouble(kv[1].trim()));
        } catch (NumberFormatException e) {
          throw new ConfigException(WEIGHTS_CONFIG, w, "partition:weight pairs separated by commas, such as 0:2.0,3:0.5");
        }
      }
    }
  }

  /** The partition of {@code keyBytes} among {@code partitions} partitions (no Kafka needed). */
  public int partitionOf(byte[] keyBytes, int partitions) {
    return placer("", partitions).snapshot().ownerIndex(keyBytes);
  }

  private Placer placer(String topic, int partitions) {
    Placer p = placers.get(topic);
    if (p != null && p.partitions() == partitions) return p;
    Rendezvous.Builder b = Rendezvous.flat().seed(seed);
    for (int i = 0; i < partitions; i++) b.node(Integer.toString(i), weights.getOrDefault(i, 1.0));
    Placer made;
    try (Rendezvous r = b.build()) {
      made = new Placer(partitions, r.snapshot());
    }
    // A replaced snapshot is freed by the garbage collector once no thread still uses it.
    placers.put(topic, made);
    return made;
  }

  @Override
  public int partition(
      String topic, Object key, byte[] keyBytes, Object value, byte[] valueBytes, Cluster cluster) {
    List<PartitionInfo> all = cluster.partitionsForTopic(topic);
    int n = all.size();
    if (keyBytes == null) {
      List<PartitionInfo> available = cluster.availablePartitionsForTopic(topic);
      int next = roundRobin.computeIfAbsent(topic, t -> new AtomicInteger()).getAndIncrement() & Integer.MAX_VALUE;
      if (!available.isEmpty()) return available.get(next % available.size()).partition();
      return next % n;
    }
    // Node i is partition i: the placer adds "0".."n-1" in order, so an owner index is a partition.
    return placer(topic, n).snapshot().ownerIndex(keyBytes);
  }

  @Override
  public void close() {
    for (Placer p : placers.values()) p.snapshot().close();
    placers.clear();
  }
}

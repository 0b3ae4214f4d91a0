package io.github.longstraw.bench;

import io.github.longstraw.Rendezvous;
import io.github.longstraw.Snapshot;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@code owner} from Java through FFM (a critical downcall reading the heap key in place) against a
 * pure-Java HRW over the same node count (murmur-style 64-bit mixing and the -ln(u)/w score: the
 * textbook weighted rendezvous, not longstraw's frozen placement; it shows what a JVM-only HRW costs).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class OwnerBench {
  @Param({"10", "100"})
  public int n;

  private Rendezvous set;
  private Snapshot snap;
  private byte[][] keys;
  private long[] nodeHashes;
  private int next;

  @Setup
  public void setup() {
    Rendezvous.Builder b = Rendezvous.flat();
    nodeHashes = new long[n];
    for (int i = 0; i < n; i++) {
      b.node("cache-" + i);
      nodeHashes[i] = mix(hash("cache-".concat(Integer.toString(i)).getBytes(StandardCharsets.UTF_8)));
    }
    set = b.build();
    snap = set.snapshot();
    keys = new byte[1024][];
    for (int i = 0; i < keys.length; i++) keys[i] = ("user:" + i).getBytes(StandardCharsets.UTF_8);
  }

  @TearDown
  public void tearDown() {
    snap.close();
    set.close();
  }

  private byte[] key() {
    return keys[next++ & 1023];
  }

  /** The owner's index from a Snapshot: one critical downcall. */
  @Benchmark
  public int longstrawSnapshotOwnerIndex() {
    return snap.ownerIndex(key());
  }

  /** The owner's id from the set (current view, id as a String). */
  @Benchmark
  public String longstrawRendezvousOwner() {
    return set.owner(key());
  }

  /** A pure-Java HRW over the same n nodes (equal weights: the highest mixed hash wins). */
  @Benchmark
  public int pureJavaHrw() {
    return pureHrw(key(), nodeHashes);
  }

  /** The index of the node whose mixed pair hash with {@code key} is highest. */
  static int pureHrw(byte[] key, long[] nodeHashes) {
    long kh = hash(key);
    int best = 0;
    long bestScore = 0;
    for (int i = 0; i < nodeHashes.length; i++) {
      long s = mix(kh ^ nodeHashes[i]);
      if (i == 0 || Long.compareUnsigned(s, bestScore) > 0) {
        bestScore = s;
        best = i;
      }
    }
    return best;
  }

  static long hash(byte[] b) {
    long h = 0xcbf29ce484222325L;
    for (byte x : b) h = (h ^ (x & 0xff)) * 0x100000001b3L;
    return h;
  }

  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}

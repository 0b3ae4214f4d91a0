package io.github.longstraw;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * A node set that places keys by rendezvous (highest random weight) hashing, in one of three modes
 * ({@link Mode}): flat, a partition table, or a skeleton. Placement is frozen and byte-for-byte the
 * same as in every other longstraw language.
 *
 * <p>Make one with {@link #of(String...)} or a builder ({@link #flat()}, {@link #table()}, {@link
 * #skeleton()}), or load a membership file ({@link #load(Path)}). Changes ({@link #add}, {@link
 * #remove}, {@link #setWeight}, {@link #setDomain}) and lookups may run from any number of threads;
 * a lookup sees the membership before or after a change, never half of one. For many lookups on one
 * membership take a {@link #snapshot()}.
 *
 * <p>Close it when done; one that is dropped is freed when garbage collected.
 *
 * <pre>{@code
 * try (Rendezvous r = Rendezvous.of("cache-a", "cache-b", "cache-c")) {
 *   String node = r.owner("user:42");
 *   List<String> replicas = r.topK("user:42", 2);
 * }
 * }</pre>
 */
public final class Rendezvous implements AutoCloseable {
  private final Handle handle;
  private final Mode mode;
  private volatile Snapshot current;

  private Rendezvous(MemorySegment raw) {
    this.handle = new Handle(this, raw, Native.RENDEZVOUS_FREE, "Rendezvous");
    try {
      this.current = takeSnapshot();
      this.mode = current.mode();
    } catch (RuntimeException e) {
      handle.close();
      throw e;
    }
  }

  /** A flat set of these nodes, each of weight 1, under seed 0. */
  public static Rendezvous of(String... nodes) {
    return flat().nodes(Arrays.asList(nodes)).build();
  }

  /** A builder for a flat set (every node races for every key). */
  public static Builder flat() {
    return new Builder(Mode.FLAT);
  }

  /** A builder for a partition table (SPEC.md section 10): one table read per lookup. */
  public static Builder table() {
    return new Builder(Mode.TABLE);
  }

  /** A builder for a skeleton (SPEC.md section 11): logarithmic lookups for large sets. */
  public static Builder skeleton() {
    return new Builder(Mode.SKELETON);
  }

  /**
   * Loads a membership file (docs/MEMBERSHIP.md) into a set of the mode it names. A keyed file's
   * secret is read from the source it names, and the set remembers that source for {@link
   * #save(Path)}.
   *
   * @throws MembershipFileException naming the file, the line and the field
   */
  public static Rendezvous load(Path path) {
    Objects.requireNonNull(path, "path");
    try (Arena a = Arena.ofConfined()) {
      MemorySegment p = cPath(a, path.toString(), "path");
      MemorySegment out = a.allocate(Native.PTR);
      Native.check((int) Native.RENDEZVOUS_LOAD_FILE.invokeExact(p, out));
      return new Rendezvous(out.get(Native.PTR, 0));
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
  }

  /** Loads the content of a membership file from memory (messages name the origin {@code <bytes>}). */
  public static Rendezvous loadBytes(byte[] data) {
    Objects.requireNonNull(data, "data");
    try (Arena a = Arena.ofConfined()) {
      MemorySegment d = a.allocateFrom(Native.U8, data);
      MemorySegment out = a.allocate(Native.PTR);
      Native.check((int) Native.RENDEZVOUS_LOAD_BYTES.invokeExact(d, (long) data.length, out));
      return new Rendezvous(out.get(Native.PTR, 0));
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
  }

  static MemorySegment cPath(Arena a, String s, String what) {
    if (s.indexOf('\0') >= 0) {
      throw new InvalidArgumentException(ErrorCode.BAD_FILE, what + " contains a NUL character");
    }
    return a.allocateFrom(new String(Keys.utf8(s, what), StandardCharsets.UTF_8), StandardCharsets.UTF_8);
  }

  /**
   * Saves the current membership as a membership file (written whole, then renamed into place). A
   * keyed set loaded from a file names the secret source that file named.
   */
  public void save(Path path) {
    save(path, null);
  }

  /** Saves the current membership, naming {@code source} as the keyed set's secret source. */
  public void save(Path path, SecretSource source) {
    Objects.requireNonNull(path, "path");
    try (Arena a = Arena.ofConfined()) {
      MemorySegment p = cPath(a, path.toString(), "path");
      MemorySegment f =
          source == null || source.file == null
              ? MemorySegment.NULL
              : cPath(a, source.file.toString(), "secret file");
      MemorySegment e =
          source == null || source.env == null ? MemorySegment.NULL : cPath(a, source.env, "secret env");
      Native.check((int) Native.RENDEZVOUS_SAVE_FILE.invokeExact(handle.get(), p, f, e));
    } catch (Throwable t) {
      throw Native.rethrow(t);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  private Snapshot takeSnapshot() {
    try (Arena a = Arena.ofConfined()) {
      MemorySegment out = a.allocate(Native.PTR);
      Native.check((int) Native.RENDEZVOUS_SNAPSHOT.invokeExact(handle.get(), out));
      return new Snapshot(out.get(Native.PTR, 0));
    } catch (Throwable t) {
      throw Native.rethrow(t);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /**
   * A snapshot of the current membership, to close when done. Lookups on it all see the same nodes
   * and node indices.
   */
  public Snapshot snapshot() {
    return takeSnapshot();
  }

  /** The view lookups on the set use: replaced after each change, freed by the GC once unused. */
  private Snapshot view() {
    if (handle.isClosed()) throw handle.closedError();
    return current;
  }

  @FunctionalInterface
  private interface Change {
    int apply(MemorySegment set) throws Throwable;
  }

  private synchronized void change(Change c) {
    try {
      Native.check(c.apply(handle.get()));
      current = takeSnapshot();
    } catch (Throwable t) {
      throw Native.rethrow(t);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  // ---- changes ----

  /** Adds a node (weight 1.0 is the usual; 0 adds it drained). */
  public void add(String id, double weight) {
    add(Keys.utf8(id, "id"), weight, null);
  }

  /** Adds a node in failure domain {@code domain} (null: none). */
  public void add(String id, double weight, String domain) {
    add(Keys.utf8(id, "id"), weight, domain == null ? null : Keys.utf8(domain, "domain"));
  }

  /** Adds a node given as bytes, in failure domain {@code domain} (null: none). */
  public void add(byte[] id, double weight, byte[] domain) {
    Objects.requireNonNull(id, "id");
    if (domain != null) checkDomain(domain);
    change(
        set -> {
          try (Arena a = Arena.ofConfined()) {
            MemorySegment i = a.allocateFrom(Native.U8, id);
            if (domain == null) {
              return (int) Native.RENDEZVOUS_ADD.invokeExact(set, i, (long) id.length, weight);
            }
            MemorySegment d = a.allocateFrom(Native.U8, domain);
            return (int)
                Native.RENDEZVOUS_ADD_IN_DOMAIN.invokeExact(
                    set, i, (long) id.length, weight, d, (long) domain.length);
          }
        });
  }

  /** The C library reads a 0-byte label as "no label"; here only null means that. */
  static void checkDomain(byte[] domain) {
    if (domain.length == 0) {
      throw new InvalidArgumentException(
          ErrorCode.INVALID_DOMAIN,
          "domain label is 0 bytes long (labels are 1 to 65535 bytes; use no label for none)");
    }
  }

  /** Removes a node; {@link UnknownNodeException} if it is not in the set. */
  public void remove(String id) {
    remove(Keys.utf8(id, "id"));
  }

  /** Removes a node given as bytes. */
  public void remove(byte[] id) {
    Objects.requireNonNull(id, "id");
    change(
        set -> {
          try (Arena a = Arena.ofConfined()) {
            return (int)
                Native.RENDEZVOUS_REMOVE.invokeExact(set, a.allocateFrom(Native.U8, id), (long) id.length);
          }
        });
  }

  /** Changes a node's weight; 0 drains it (it keeps its place and owns no keys). */
  public void setWeight(String id, double weight) {
    setWeight(Keys.utf8(id, "id"), weight);
  }

  /** Changes the weight of a node given as bytes. */
  public void setWeight(byte[] id, double weight) {
    Objects.requireNonNull(id, "id");
    change(
        set -> {
          try (Arena a = Arena.ofConfined()) {
            return (int)
                Native.RENDEZVOUS_SET_WEIGHT.invokeExact(
                    set, a.allocateFrom(Native.U8, id), (long) id.length, weight);
          }
        });
  }

  /** Sets a node's failure domain label; null clears it. */
  public void setDomain(String id, String domain) {
    setDomain(Keys.utf8(id, "id"), domain == null ? null : Keys.utf8(domain, "domain"));
  }

  /** Sets the failure domain label of a node given as bytes; null clears it. */
  public void setDomain(byte[] id, byte[] domain) {
    Objects.requireNonNull(id, "id");
    if (domain != null) checkDomain(domain);
    change(
        set -> {
          try (Arena a = Arena.ofConfined()) {
            MemorySegment d = domain == null ? MemorySegment.NULL : a.allocateFrom(Native.U8, domain);
            return (int)
                Native.RENDEZVOUS_SET_DOMAIN.invokeExact(
                    set,
                    a.allocateFrom(Native.U8, id),
                    (long) id.length,
                    d,
                    (long) (domain == null ? 0 : domain.length));
          }
        });
  }

  // ---- the membership (of the current view) ----

  /** How this set places keys. */
  public Mode mode() {
    return mode;
  }

  /** The number of nodes, drained ones included. */
  public int size() {
    return view().size();
  }

  /** The node ids, in index order. */
  public List<String> nodes() {
    return view().nodes();
  }

  /** The weights, in index order. */
  public double[] weights() {
    return view().weights();
  }

  /** The failure domain labels, in index order (null: none). */
  public List<String> domains() {
    return view().domains();
  }

  /** Whether a node with this id is in the set. */
  public boolean contains(String id) {
    return view().contains(id);
  }

  /** The seed (unsigned 64-bit); empty for a keyed set. */
  public OptionalLong seed() {
    return view().seed();
  }

  /** Whether keys are placed under a secret (keyed-v1). */
  public boolean isKeyed() {
    return view().isKeyed();
  }

  /** The placement version (1). */
  public int placement() {
    return view().placement();
  }

  /** A table's partition bits; empty for another mode. */
  public OptionalInt partitionBits() {
    return view().partitionBits();
  }

  /** A table's stored replicas per partition; empty for another mode. */
  public OptionalInt replicas() {
    return view().replicas();
  }

  /** A balanced table's balance; empty otherwise. */
  public Optional<Double> balance() {
    return view().balance();
  }

  /** A skeleton's fan-out bits; empty for another mode. */
  public OptionalInt fanoutBits() {
    return view().fanoutBits();
  }

  /** A skeleton's levels; empty for another mode. */
  public OptionalInt levels() {
    return view().levels();
  }

  // ---- lookups (on the current view) ----

  /** The node that owns {@code key}; {@link NoEligibleNodeException} for an empty or drained set. */
  public String owner(String key) {
    return view().owner(key);
  }

  /** The node that owns {@code key}. */
  public String owner(byte[] key) {
    return view().owner(key);
  }

  /** The node that owns {@code key} (position to limit; not moved). */
  public String owner(ByteBuffer key) {
    return view().owner(key);
  }

  /** The best {@code k} eligible nodes for {@code key}, best first. */
  public List<String> topK(String key, int k) {
    return view().topK(key, k);
  }

  /** The best {@code k} eligible nodes for {@code key}, best first. */
  public List<String> topK(byte[] key, int k) {
    return view().topK(key, k);
  }

  /** Every eligible node for {@code key}, best first. */
  public List<String> rank(String key) {
    return view().rank(key);
  }

  /** Every eligible node for {@code key}, best first. */
  public List<String> rank(byte[] key) {
    return view().rank(key);
  }

  /** The first node of each failure domain in {@code key}'s ranking, up to {@code k}. */
  public List<String> topKDistinct(String key, int k) {
    return view().topKDistinct(key, k);
  }

  /** The first node of each failure domain in {@code key}'s ranking, up to {@code k}. */
  public List<String> topKDistinct(byte[] key, int k) {
    return view().topKDistinct(key, k);
  }

  /** A table's partition of {@code key}; {@link WrongModeException} for another mode. */
  public int partition(String key) {
    return view().partition(key);
  }

  /** A table's partition of {@code key}. */
  public int partition(byte[] key) {
    return view().partition(key);
  }

  /** Frees the set once the calls running on it return; later calls throw. Idempotent. */
  @Override
  public void close() {
    handle.close();
  }

  /** The mode, node count and whether it is keyed (never the secret). */
  @Override
  public String toString() {
    if (handle.isClosed()) return "Rendezvous(closed)";
    Snapshot v = current;
    return "Rendezvous(mode=" + mode + ", nodes=" + v.size() + (v.isKeyed() ? ", keyed" : "") + ")";
  }

  /**
   * Builds a {@link Rendezvous} of one mode. The library checks every option at {@link #build()},
   * including options that do not apply to the mode.
   */
  public static final class Builder extends SetOptions<Builder> {
    final Mode mode;
    private final List<byte[]> ids = new ArrayList<>();
    private final List<Double> weights = new ArrayList<>();
    private final List<byte[]> domains = new ArrayList<>();
    Path secretFile;
    Integer partitionBits;
    Integer replicas;
    boolean distinctDomains;
    Double balance;
    int[] shape;

    private Builder(Mode mode) {
      this.mode = mode;
    }

    @Override
    Builder self() {
      return this;
    }

    /** Adds a node of weight 1. */
    public Builder node(String id) {
      return node(id, 1.0, null);
    }

    /** Adds a node with this weight (0: drained). */
    public Builder node(String id, double weight) {
      return node(id, weight, null);
    }

    /** Adds a node with this weight in failure domain {@code domain} (null: none). */
    public Builder node(String id, double weight, String domain) {
      return node(Keys.utf8(id, "id"), weight, domain == null ? null : Keys.utf8(domain, "domain"));
    }

    /** Adds a node given as bytes. */
    public Builder node(byte[] id, double weight, byte[] domain) {
      ids.add(Objects.requireNonNull(id, "id").clone());
      weights.add(weight);
      domains.add(domain == null ? null : domain.clone());
      return this;
    }

    /** Adds these nodes, each of weight 1. */
    public Builder nodes(Collection<String> ids) {
      for (String id : ids) node(id);
      return this;
    }

    /** Reads the secret from a secret file (32 hex digits); the set remembers it for save. */
    public Builder secretFile(Path file) {
      this.secretFile = Objects.requireNonNull(file, "file");
      return this;
    }

    /** A table's partition bits, 0 to 24 (default: from the node count at build). */
    public Builder partitionBits(int bits) {
      this.partitionBits = bits;
      return this;
    }

    /** A table's nodes stored per partition, 1 to 32 (default 1). */
    public Builder replicas(int replicas) {
      this.replicas = replicas;
      return this;
    }

    /** A table stores one node per failure domain (so topKDistinct up to replicas is a read). */
    public Builder distinctDomains(boolean distinct) {
      this.distinctDomains = distinct;
      return this;
    }

    /** A balanced table (SPEC.md section 17): 1.0 to 4.0. */
    public Builder balance(double balance) {
      this.balance = balance;
      return this;
    }

    /** A skeleton's shape: fan-out bits 0 to 6 and levels 0 to 5 (default: from the node count). */
    public Builder shape(int fanoutBits, int levels) {
      this.shape = new int[] {fanoutBits, levels};
      return this;
    }

    /** Builds the set. */
    public Rendezvous build() {
      Rendezvous members = null;
      try {
        // The nodes go into a flat set first; a table or skeleton is then built over them in one
        // step, sized for their number. A flat builder passes its table and skeleton options too,
        // for the library to refuse.
        members = new Rendezvous(Constructors.flat(this, mode == Mode.FLAT));
        for (int i = 0; i < ids.size(); i++) members.add(ids.get(i), weights.get(i), domains.get(i));
        if (mode == Mode.FLAT) {
          Rendezvous r = members;
          members = null;
          return r;
        }
        try (Snapshot s = members.snapshot()) {
          return new Rendezvous(Constructors.over(s.handle.get(), this));
        }
      } finally {
        if (members != null) members.close();
        wipeSecret();
      }
    }
  }
}

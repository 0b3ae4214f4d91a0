package io.github.longstraw;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every frozen vector file in tests/vectors/: the Java binding places every key as the spec does. */
class VectorsTest {
  static Stream<Arguments> placementFiles() {
    return Stream.of(
        Arguments.of("placement-v1.json", Mode.FLAT),
        Arguments.of("placement-v1-edges.json", null),
        Arguments.of("skeleton-v1.json", Mode.SKELETON),
        Arguments.of("table-v1.json", Mode.TABLE),
        Arguments.of("table-balanced-v1.json", Mode.TABLE),
        Arguments.of("table-balanced-caps-v1.json", Mode.TABLE),
        Arguments.of("table-balanced-scope-v1.json", Mode.TABLE),
        Arguments.of("domains-v1.json", null),
        Arguments.of("keyed-v1.json", null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("placementFiles")
  void placementVectors(String file, Mode fixed) {
    JsonNode root = Fixtures.json("tests/vectors/" + file);
    int keysChecked = 0;
    for (JsonNode c : root.get("cases")) {
      Mode mode = fixed != null ? fixed : Mode.valueOf(c.get("mode").asText().toUpperCase());
      String name = file + ": " + c.get("name").asText();
      try (Rendezvous r = Fixtures.build(c, mode);
          Snapshot s = r.snapshot()) {
        assertEquals(mode, s.mode(), name);
        assertEquals(c.has("secret_hex") && !c.get("secret_hex").isNull(), s.isKeyed(), name);
        ByteArrayOutputStream packed = new ByteArrayOutputStream();
        List<Long> offsets = new ArrayList<>(List.of(0L));
        List<Integer> owners = new ArrayList<>();
        for (JsonNode k : c.get("keys")) {
          byte[] key = Fixtures.bytes(k, "key_hex", "key_gen");
          packed.writeBytes(key);
          offsets.add((long) packed.size());
          String at = name + " key " + k.get(k.has("key_hex") ? "key_hex" : "key_gen");
          if (k.has("owner")) {
            if (k.get("owner").isNull()) {
              assertThrows(NoEligibleNodeException.class, () -> s.ownerIndex(key), at);
              owners = null;
            } else {
              int want = k.get("owner").asInt();
              assertEquals(want, s.ownerIndex(key), at);
              assertEquals(want, s.ownerIndex(ByteBuffer.wrap(key)), at);
              if (owners != null) owners.add(want);
            }
          } else {
            owners = null;
          }
          if (k.has("ranked")) {
            int[] ranked = Fixtures.ints(k.get("ranked"));
            int depth = c.has("depth") ? c.get("depth").asInt() : ranked.length;
            assertArrayEquals(ranked, s.topKIndices(java.lang.foreign.MemorySegment.ofArray(key), depth), at);
            int[] all = s.rankIndices(java.lang.foreign.MemorySegment.ofArray(key));
            assertArrayEquals(ranked, Arrays.copyOf(all, Math.min(all.length, ranked.length)), at);
          }
          if (k.has("list")) {
            int[] list = Fixtures.ints(k.get("list"));
            assertArrayEquals(
                list,
                s.topKIndices(java.lang.foreign.MemorySegment.ofArray(key), c.get("replicas").asInt()),
                at);
          }
          if (k.has("distinct")) {
            assertArrayEquals(
                Fixtures.ints(k.get("distinct")),
                s.topKDistinctIndices(java.lang.foreign.MemorySegment.ofArray(key), c.get("k").asInt()),
                at);
          }
          if (k.has("partition")) assertEquals(k.get("partition").asInt(), s.partition(key), at);
          keysChecked++;
        }
        if (owners != null && !owners.isEmpty()) {
          long[] offs = offsets.stream().mapToLong(Long::longValue).toArray();
          int[] want = owners.stream().mapToInt(Integer::intValue).toArray();
          assertArrayEquals(want, s.ownerIndices(packed.toByteArray(), offs), name + " (batch)");
        }
      }
    }
    assertTrue(keysChecked > 0, file + " has no keys");
  }

  @org.junit.jupiter.api.Test
  void boundedVectors() {
    JsonNode root = Fixtures.json("tests/vectors/bounded-v1.json");
    int ops = 0;
    for (JsonNode c : root.get("cases")) {
      String name = c.get("name").asText();
      BoundedLoad.Builder b =
          BoundedLoad.builder(
              Double.longBitsToDouble(Long.parseUnsignedLong(c.get("balance_factor_bits").asText(), 16)));
      if (!c.get("seed").isNull()) b.seed(Long.parseUnsignedLong(c.get("seed").asText()));
      if (!c.get("secret_hex").isNull()) b.secret(Fixtures.hex(c.get("secret_hex")));
      for (JsonNode n : c.get("nodes")) b.node(text(n.get("id_hex")), Fixtures.weight(n));
      List<Lease> leases = new ArrayList<>();
      Map<Integer, Lease> byAcquire = new HashMap<>();
      try (BoundedLoad bl = b.build()) {
        int opIndex = -1;
        for (JsonNode op : c.get("ops")) {
          opIndex++;
          String at = name + " op " + ops;
          switch (op.get("op").asText()) {
            case "acquire" -> {
              byte[] key = Fixtures.hex(op.get("key_hex"));
              if (op.get("node_hex").isNull()) {
                assertThrows(NoEligibleNodeException.class, () -> bl.acquire(key), at);
              } else {
                Lease l = bl.acquire(key);
                assertEquals(text(op.get("node_hex")), l.node(), at);
                byAcquire.put(opIndex, l);
                leases.add(l);
              }
            }
            case "release" -> byAcquire.get(op.get("acquire").asInt()).close();
            case "add" -> bl.add(text(op.get("id_hex")), Fixtures.weight(op));
            case "remove" -> bl.remove(text(op.get("id_hex")));
            case "set_weight" -> bl.setWeight(text(op.get("id_hex")), Fixtures.weight(op));
            default -> throw new AssertionError("unknown op " + op);
          }
          if (op.has("in_flight")) assertEquals(op.get("in_flight").asLong(), bl.inFlight(), at);
          ops++;
        }
        for (Lease l : leases) l.close();
        assertEquals(0, bl.inFlight(), name);
      }
    }
    assertTrue(ops > 100);
  }

  private static String text(JsonNode hex) {
    String s = Keys.text(Fixtures.hex(hex));
    if (s == null) throw new AssertionError("bounded vector id is not UTF-8: " + hex);
    return s;
  }
}

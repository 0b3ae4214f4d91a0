package io.github.longstraw;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * tests/validation/rules.json, the input rules every language shares: each case of a rule the core
 * enforces (the rules whose langs name rust) either succeeds or fails with the class's exception
 * and the message fragment other languages show ("default"; a "java" entry would override it).
 */
class ValidationTest {
  /** The table's error classes, as Java exception types and result codes. */
  static final Map<String, ErrorCode> CODES =
      Map.of(
          "invalid-node-id", ErrorCode.INVALID_NODE_ID,
          "duplicate-node", ErrorCode.DUPLICATE_NODE,
          "unknown-node", ErrorCode.UNKNOWN_NODE,
          "invalid-weight", ErrorCode.INVALID_WEIGHT,
          "invalid-parameter", ErrorCode.INVALID_PARAMETER,
          "invalid-domain", ErrorCode.INVALID_DOMAIN,
          "unknown-placement", ErrorCode.UNKNOWN_PLACEMENT,
          "bad-offsets", ErrorCode.BAD_OFFSETS);

  static final Map<String, Class<? extends LongstrawException>> TYPES =
      Map.of(
          "duplicate-node", DuplicateNodeException.class,
          "unknown-node", UnknownNodeException.class);

  /**
   * Rules whose message the C library cannot give: an id longer than any id can be is refused
   * before it is read, so "unknown node" cannot show it (as in C, the class alone is checked).
   */
  static final java.util.Set<String> CLASS_ONLY = java.util.Set.of("node id length on remove");

  static byte[] bytes(JsonNode v) {
    if (v.isTextual()) return v.asText().getBytes(StandardCharsets.UTF_8);
    byte[] b = new byte[v.get("len").asInt()];
    Arrays.fill(b, (byte) 'x');
    return b;
  }

  static double weight(JsonNode v) {
    if (v.isNumber()) return v.asDouble();
    return switch (v.asText()) {
      case "nan" -> Double.NaN;
      case "inf" -> Double.POSITIVE_INFINITY;
      case "-inf" -> Double.NEGATIVE_INFINITY;
      case "-0.0" -> -0.0;
      default -> Double.parseDouble(v.asText()); // C99 hex floats parse as Java hex literals
    };
  }

  static Executable run(String op, JsonNode c) {
    return switch (op) {
      case "ids" -> () -> {
        Rendezvous.Builder b = Rendezvous.flat();
        for (JsonNode id : c.get("ids")) b.node(bytes(id), 1.0, null);
        b.build().close();
      };
      case "remove" -> () -> {
        try (Rendezvous r = Rendezvous.of("a")) {
          r.remove(bytes(c.get("id")));
        }
      };
      case "weight" -> () -> {
        try (Rendezvous r = Rendezvous.flat().node("a", weight(c.get("weight"))).build()) {
          r.setWeight("a", weight(c.get("weight")));
        }
      };
      case "partition_bits" -> () -> Rendezvous.table().node("a").partitionBits(c.get("bits").asInt()).build().close();
      case "replicas" -> () -> Rendezvous.table().node("a").replicas(c.get("replicas").asInt()).build().close();
      case "shape" -> () ->
          Rendezvous.skeleton()
              .node("a")
              .shape(c.get("shape").get(0).asInt(), c.get("shape").get(1).asInt())
              .build()
              .close();
      case "domain" -> () -> Rendezvous.flat().node("a".getBytes(StandardCharsets.UTF_8), 1.0, bytes(c.get("label"))).build().close();
      case "placement" -> () -> Rendezvous.flat().placement(c.get("placement").asInt()).build().close();
      case "offsets" -> () -> {
        try (Rendezvous r = Rendezvous.of("a");
            Snapshot s = r.snapshot()) {
          long[] offs = new long[c.get("offsets").size()];
          for (int i = 0; i < offs.length; i++) offs[i] = c.get("offsets").get(i).asLong();
          s.ownerIndices(bytes(c.get("bytes")), offs);
        }
      };
      default -> null;
    };
  }

  @Test
  void everyCoreRule() {
    JsonNode root = Fixtures.json("tests/validation/rules.json");
    List<String> checked = new ArrayList<>();
    for (JsonNode rule : root.get("rules")) {
      if (!langs(rule).contains("rust")) continue;
      for (JsonNode c : rule.get("cases")) {
        if (c.has("langs") && !langs(c).contains("rust")) continue;
        String at = rule.get("rule").asText() + " " + c;
        Executable e = run(rule.get("op").asText(), c);
        if (e == null) throw new AssertionError("no Java runner for op " + rule.get("op"));
        if (c.has("ok")) {
          assertDoesNotThrow(e, at);
        } else {
          LongstrawException x = assertThrows(LongstrawException.class, e, at);
          String cls = c.get("error").asText();
          assertEquals(CODES.get(cls), x.code(), at + ": " + x.getMessage());
          assertInstanceOf(TYPES.getOrDefault(cls, InvalidArgumentException.class), x, at);
          JsonNode m = c.get("message");
          String want = m.isTextual() ? m.asText() : m.has("java") ? m.get("java").asText() : m.get("default").asText();
          if (!CLASS_ONLY.contains(rule.get("rule").asText())) {
            assertTrue(x.getMessage().contains(want), at + ": message " + x.getMessage() + " lacks " + want);
          }
        }
        checked.add(at);
      }
    }
    assertTrue(checked.size() >= 40, "only " + checked.size() + " cases checked");
  }

  static List<String> langs(JsonNode n) {
    List<String> out = new ArrayList<>();
    for (JsonNode l : n.get("langs")) out.add(l.asText());
    return out;
  }

  @Test
  void javaOnlyRules() {
    try (Rendezvous r = Rendezvous.of("a", "b")) {
      InvalidArgumentException k = assertThrows(InvalidArgumentException.class, () -> r.topK("x", -1));
      assertTrue(k.getMessage().contains("k must not be negative"));
      IllegalArgumentException s = assertThrows(IllegalArgumentException.class, () -> r.owner("\ud800"));
      assertTrue(s.getMessage().contains("lone surrogate"), s.getMessage());
      assertEquals(List.of(), r.topK("x", 0));
      assertEquals(2, r.topK("x", Integer.MAX_VALUE).size());
      assertThrows(WrongModeException.class, () -> r.partition("x"));
    }
  }
}

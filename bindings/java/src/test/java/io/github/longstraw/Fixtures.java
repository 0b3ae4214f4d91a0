package io.github.longstraw;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HexFormat;

/** Paths into the repository and JSON/hex helpers shared by the tests. */
final class Fixtures {
  private Fixtures() {}

  static Path repo() {
    return Path.of(System.getProperty("longstraw.repo", "../..")).toAbsolutePath().normalize();
  }

  static JsonNode json(String relative) {
    try {
      return new ObjectMapper().readTree(repo().resolve(relative).toFile());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A byte string of a vector: hex, or {"len": N, "start": S}: byte i is (S + i) mod 251. */
  static byte[] bytes(JsonNode parent, String hexField, String genField) {
    JsonNode gen = parent.get(genField);
    if (gen != null) {
      byte[] out = new byte[gen.get("len").asInt()];
      int start = gen.get("start").asInt();
      for (int i = 0; i < out.length; i++) out[i] = (byte) ((start + i) % 251);
      return out;
    }
    return hex(parent.get(hexField));
  }

  static byte[] hex(JsonNode n) {
    return n == null || n.isNull() ? null : HexFormat.of().parseHex(n.asText());
  }

  static double weight(JsonNode node) {
    return Double.longBitsToDouble(Long.parseUnsignedLong(node.get("weight_bits").asText(), 16));
  }

  static int[] ints(JsonNode arr) {
    int[] out = new int[arr.size()];
    for (int i = 0; i < out.length; i++) out[i] = arr.get(i).asInt();
    return out;
  }

  /** Builds the set a vector case describes, in {@code mode}. */
  static Rendezvous build(JsonNode c, Mode mode) {
    Rendezvous.Builder b =
        switch (mode) {
          case FLAT -> Rendezvous.flat();
          case TABLE -> Rendezvous.table();
          case SKELETON -> Rendezvous.skeleton();
        };
    JsonNode seed = c.get("seed");
    if (seed != null && !seed.isNull()) b.seed(Long.parseUnsignedLong(seed.asText()));
    JsonNode secret = c.get("secret_hex");
    if (secret != null && !secret.isNull()) b.secret(hex(secret));
    for (JsonNode n : c.get("nodes")) b.node(bytes(n, "id_hex", "id_gen"), weight(n), hex(n.get("domain_hex")));
    if (mode == Mode.TABLE) {
      if (c.has("bits")) b.partitionBits(c.get("bits").asInt());
      if (c.has("replicas")) b.replicas(c.get("replicas").asInt());
      if (c.has("balance_millionths")) b.balance(c.get("balance_millionths").asLong() / 1e6);
    }
    if (mode == Mode.SKELETON && c.has("levels")) {
      b.shape(c.get("fanout_bits").asInt(), c.get("levels").asInt());
    }
    return b.build();
  }
}

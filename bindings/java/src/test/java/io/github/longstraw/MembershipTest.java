package io.github.longstraw;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** tests/membership/: each fixture file loads into the set its vector case describes. */
class MembershipTest {
  @Test
  void everyFixtureGivesItsCasesAnswers(@TempDir Path dir) throws Exception {
    JsonNode manifest = Fixtures.json("tests/membership/manifest.json");
    int files = 0;
    for (JsonNode f : manifest.get("fixtures")) {
      Path file = Fixtures.repo().resolve("tests/membership").resolve(f.get("file").asText());
      JsonNode c = Fixtures.json("tests/vectors/" + f.get("vectors").asText()).get("cases").get(f.get("case").asInt());
      try (Rendezvous fromFile = Rendezvous.load(file);
          Rendezvous fromBytes = Rendezvous.loadBytes(Files.readAllBytes(file));
          Snapshot s = fromFile.snapshot();
          Snapshot b = fromBytes.snapshot()) {
        assertEquals(c.get("nodes").size(), s.size(), file.toString());
        for (JsonNode k : c.get("keys")) {
          MemorySegment key = MemorySegment.ofArray(Fixtures.hex(k.get("key_hex")));
          String at = file + " key " + k.get("key_hex");
          if (k.has("ranked")) {
            int[] ranked = Fixtures.ints(k.get("ranked"));
            int depth = c.has("depth") ? c.get("depth").asInt() : ranked.length;
            assertArrayEquals(ranked, s.topKIndices(key, depth), at);
            assertArrayEquals(ranked, b.topKIndices(key, depth), at);
          }
          if (k.has("distinct")) {
            assertArrayEquals(Fixtures.ints(k.get("distinct")), s.topKDistinctIndices(key, c.get("k").asInt()), at);
          }
        }
        // Saving and loading again keeps the placement.
        Path again = dir.resolve("again-" + files + ".toml");
        fromFile.save(again);
        try (Rendezvous back = Rendezvous.load(again);
            Snapshot bs = back.snapshot()) {
          assertEquals(fromFile.mode(), back.mode());
          assertEquals(s.size(), bs.size());
          for (int i = 0; i < s.size(); i++) assertArrayEquals(s.nodeId(i), bs.nodeId(i));
          for (int i = 0; i < 20 && s.eligible() > 0; i++) {
            assertEquals(s.ownerIndex("k" + i), bs.ownerIndex("k" + i));
          }
        }
      }
      files++;
    }
    assertTrue(files >= 50, "only " + files + " fixtures");
  }

  @Test
  void badFilesNameTheFileAndLine(@TempDir Path dir) throws Exception {
    Path bad = dir.resolve("bad.toml");
    Files.writeString(bad, "[[nodes]]\nid = \"a\"\nweight = -1\n");
    MembershipFileException e = assertThrows(MembershipFileException.class, () -> Rendezvous.load(bad));
    assertTrue(e.getMessage().contains("bad.toml"), e.getMessage());
    assertTrue(e.getMessage().contains("weight"), e.getMessage());
    MembershipFileException m =
        assertThrows(MembershipFileException.class, () -> Rendezvous.load(dir.resolve("missing.toml")));
    assertTrue(m.getMessage().contains("missing.toml"), m.getMessage());
    MembershipFileException bytes =
        assertThrows(MembershipFileException.class, () -> Rendezvous.loadBytes("nodes = 3".getBytes()));
    assertTrue(bytes.getMessage().contains("<bytes>"), bytes.getMessage());
  }
}

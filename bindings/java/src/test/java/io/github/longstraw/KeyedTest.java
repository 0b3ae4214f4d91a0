package io.github.longstraw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Keyed placement: secrets are checked, never shown, and remembered as a source for save. */
class KeyedTest {
  static final byte[] SECRET = HexFormat.of().parseHex("000102030405060708090a0b0c0d0e0f");
  static final String SECRET_HEX = "000102030405060708090a0b0c0d0e0f";

  @Test
  void aSecretChangesPlacementAndIsNeverShown() {
    List<String> nodes = List.of("a", "b", "c", "d", "e", "f", "g", "h");
    try (Rendezvous plain = Rendezvous.flat().nodes(nodes).build();
        Rendezvous keyed = Rendezvous.flat().nodes(nodes).secret(SECRET).build()) {
      assertTrue(keyed.isKeyed());
      assertTrue(keyed.seed().isEmpty());
      int differ = 0;
      for (int i = 0; i < 200; i++) if (!plain.owner("k" + i).equals(keyed.owner("k" + i))) differ++;
      // Independent placements agree on a key with probability 1/8: 200 keys differ on ~175.
      assertTrue(differ > 120, "only " + differ + " of 200 keys moved under a secret");
      assertFalse(keyed.toString().contains("0102"), keyed.toString());
    }
  }

  @Test
  void badSecretsAreRefusedWithoutEchoingThem() {
    byte[] bad = "secret-value-xyz-1".getBytes();
    InvalidArgumentException e =
        assertThrows(InvalidArgumentException.class, () -> Rendezvous.flat().secret(bad).build());
    assertEquals(ErrorCode.INVALID_SECRET, e.code());
    assertFalse(e.getMessage().contains("secret-value"), e.getMessage());
    InvalidArgumentException c =
        assertThrows(InvalidArgumentException.class, () -> Rendezvous.flat().seed(5).secret(SECRET).build());
    assertEquals(ErrorCode.CONFLICTING_OPTIONS, c.code());
  }

  @Test
  void aKeyedFileSavesItsSourceAgain(@TempDir Path dir) throws Exception {
    Path secret = dir.resolve("secret.hex");
    Files.writeString(secret, SECRET_HEX + "\n");
    Path file = dir.resolve("members.toml");
    try (Rendezvous r = Rendezvous.flat().secretFile(secret).node("a").node("b").build();
        Rendezvous inMemory = Rendezvous.flat().secret(SECRET).node("a").node("b").build()) {
      assertEquals(inMemory.owner("user:1"), r.owner("user:1"));
      r.save(file);
      String text = Files.readString(file);
      assertFalse(text.contains(SECRET_HEX), text);
      assertTrue(text.contains("secret.hex"), text);
      try (Rendezvous back = Rendezvous.load(file)) {
        assertTrue(back.isKeyed());
        for (int i = 0; i < 50; i++) assertEquals(r.owner("k" + i), back.owner("k" + i));
        Path again = dir.resolve("again.toml");
        back.save(again);
        assertTrue(Files.readString(again).contains("secret.hex"));
      }
      // A keyed set built in code has no source to name: the save says so.
      MembershipFileException e = assertThrows(MembershipFileException.class, () -> inMemory.save(dir.resolve("x.toml")));
      assertTrue(e.getMessage().contains("secret"), e.getMessage());
      inMemory.save(dir.resolve("env.toml"), SecretSource.env("MY_SECRET"));
      assertTrue(Files.readString(dir.resolve("env.toml")).contains("MY_SECRET"));
      assertFalse(Files.readString(dir.resolve("env.toml")).contains(SECRET_HEX));
    }
    try (Rendezvous unkeyed = Rendezvous.of("a")) {
      assertThrows(MembershipFileException.class, () -> unkeyed.save(dir.resolve("u.toml"), SecretSource.env("X")));
      assertNotEquals(null, unkeyed.seed());
    }
  }
}

package io.github.longstraw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The few shape values the C struct cannot carry (a u8 field's 255, which reads as LONGSTRAW_AUTO,
 * values that would wrap, a negative count, a balance of 0, which reads as "no balance") are refused
 * in Java; their messages must be the library's own for the same rule, word for word. Each text is
 * compared with the message the library gives for a value it does see.
 */
class BoundaryTextTest {
  static String libraryMessage(Executable e) {
    InvalidArgumentException x = assertThrows(InvalidArgumentException.class, e);
    assertEquals(ErrorCode.INVALID_PARAMETER, x.code(), x.getMessage());
    return x.getMessage();
  }

  @Test
  void textsAreTheLibrarys() {
    assertEquals(
        libraryMessage(() -> Rendezvous.table().node("a").partitionBits(25).build()),
        Constructors.partitionBitsText(25));
    assertEquals(
        libraryMessage(() -> Rendezvous.table().node("a").replicas(33).build()), Constructors.replicasText(33));
    assertEquals(
        libraryMessage(() -> Rendezvous.table().node("a").balance(0.5).build()), Constructors.balanceText(0.5));
    assertEquals(
        libraryMessage(() -> Rendezvous.skeleton().node("a").shape(7, 1).build()), Constructors.shapeText(7, 1));
  }

  @Test
  void valuesTheStructCannotCarryAreRefused() {
    assertEquals(
        Constructors.partitionBitsText(255),
        libraryMessage(() -> Rendezvous.table().node("a").partitionBits(255).build()));
    assertEquals(
        Constructors.partitionBitsText(256 + 10),
        libraryMessage(() -> Rendezvous.table().node("a").partitionBits(256 + 10).build()));
    assertEquals(
        Constructors.partitionBitsText(-1),
        libraryMessage(() -> Rendezvous.table().node("a").partitionBits(-1).build()));
    assertEquals(
        Constructors.replicasText(-1), libraryMessage(() -> Rendezvous.table().node("a").replicas(-1).build()));
    assertEquals(
        Constructors.shapeText(1, 256 + 1),
        libraryMessage(() -> Rendezvous.skeleton().node("a").shape(1, 256 + 1).build()));
  }

  /** 0.0 is the C library's "no balance"; asked for explicitly it must not build a plain table. */
  @Test
  void aBalanceOfZeroIsRefusedNotAPlainTable() {
    assertEquals(
        Constructors.balanceText(0.0), libraryMessage(() -> Rendezvous.table().node("a").balance(0.0).build()));
    assertEquals(
        Constructors.balanceText(-0.0), libraryMessage(() -> Rendezvous.table().node("a").balance(-0.0).build()));
  }
}

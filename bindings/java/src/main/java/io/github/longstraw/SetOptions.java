package io.github.longstraw;

import java.util.Arrays;
import java.util.Objects;

/**
 * The set-wide options every set builder shares: how keys are hashed (a seed, or a secret for
 * keyed placement) and the placement version. {@link Rendezvous.Builder} and {@link
 * BoundedLoad.Builder} are the two kinds; the library checks every value when the set is built, with
 * the same message in every language.
 *
 * @param <B> the builder type, returned by each method for chaining
 */
public abstract sealed class SetOptions<B extends SetOptions<B>>
    permits Rendezvous.Builder, BoundedLoad.Builder {
  long seed;
  boolean seedGiven;
  byte[] secret;
  int placement = 1;

  SetOptions() {}

  /** This builder, for chaining. */
  abstract B self();

  /** The seed (unsigned 64-bit; 0 is the default). All users of one cluster must agree on it. */
  public final B seed(long seed) {
    this.seed = seed;
    this.seedGiven = true;
    return self();
  }

  /**
   * Places keys under this 16-byte secret (keyed-v1), so whoever picks keys cannot steer them onto
   * one node. The bytes are copied, never shown, and wiped once the set is built.
   */
  public final B secret(byte[] secret) {
    this.secret = Objects.requireNonNull(secret, "secret").clone();
    return self();
  }

  /** The placement version (1, the default); pin it so that upgrades never move keys. */
  public final B placement(int version) {
    this.placement = version;
    return self();
  }

  /** Overwrites the copy of the secret (after the set is built, or failed to be). */
  final void wipeSecret() {
    if (secret != null) Arrays.fill(secret, (byte) 0);
  }
}

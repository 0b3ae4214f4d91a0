package io.github.longstraw;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The C library: where it is loaded from, and one method handle per function of
 * include/longstraw.h (written by hand; NativeSignaturesTest checks them against the header).
 * The set constructors live in {@link Constructors}.
 */
final class Native {
  private Native() {}

  static final ValueLayout.OfByte U8 = ValueLayout.JAVA_BYTE;
  static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT;
  static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG;
  static final ValueLayout.OfLong SIZE = ValueLayout.JAVA_LONG;
  static final ValueLayout.OfDouble F64 = ValueLayout.JAVA_DOUBLE;
  static final java.lang.foreign.AddressLayout PTR = ValueLayout.ADDRESS;
  /** `longstraw_result` and `longstraw_mode` are C enums: int-sized. */
  static final ValueLayout.OfInt RESULT = ValueLayout.JAVA_INT;

  /** LONGSTRAW_AUTO. */
  static final int AUTO = 255;
  /** LONGSTRAW_TABLE_DISTINCT_DOMAINS. */
  static final int TABLE_DISTINCT_DOMAINS = 1;

  /** The platforms the jar may carry a library for, as resource folder names. */
  static final List<String> PLATFORMS =
      List.of("linux-x86_64", "linux-aarch64", "linux-x86_64-musl", "linux-aarch64-musl");

  static final Linker LINKER = Linker.nativeLinker();
  static final SymbolLookup LIB = SymbolLookup.libraryLookup(libraryPath(), Arena.global());

  /** Every bound function and its descriptor, in header order. */
  static final Map<String, FunctionDescriptor> SIGNATURES = new LinkedHashMap<>();
  /** Functions whose calls are short and may read Java heap arrays in place (critical downcalls). */
  static final Set<String> CRITICAL =
      Set.of(
          "longstraw_snapshot_owner",
          "longstraw_snapshot_top_k",
          "longstraw_snapshot_rank",
          "longstraw_snapshot_top_k_distinct",
          "longstraw_snapshot_partition",
          "longstraw_snapshot_index_of",
          "longstraw_snapshot_owners",
          "longstraw_bounded_acquire");

  private static FunctionDescriptor sig(String name, FunctionDescriptor d) {
    SIGNATURES.put(name, d);
    return d;
  }

  private static FunctionDescriptor r(String name, java.lang.foreign.MemoryLayout... args) {
    return sig(name, FunctionDescriptor.of(RESULT, args));
  }

  static {
    // Constructors (Constructors.java calls them; kept here so the header test sees every function).
    r("longstraw_bounded_new", U64, PTR, SIZE, U32, F64, PTR);
    sig("longstraw_bounded_free", FunctionDescriptor.ofVoid(PTR));
    r("longstraw_bounded_add", PTR, PTR, SIZE, F64);
    r("longstraw_bounded_remove", PTR, PTR, SIZE);
    r("longstraw_bounded_set_weight", PTR, PTR, SIZE, F64);
    r("longstraw_bounded_acquire", PTR, PTR, SIZE, PTR, PTR, PTR);
    r("longstraw_bounded_release", PTR);
    r("longstraw_bounded_in_flight", PTR, PTR);
    r("longstraw_bounded_loads", PTR, PTR, PTR, SIZE, PTR);
    r("longstraw_bounded_rule_new", PTR, F64, PTR);
    sig("longstraw_bounded_rule_free", FunctionDescriptor.ofVoid(PTR));
    r("longstraw_bounded_rule_admit", PTR, PTR, SIZE, PTR, SIZE, U64, PTR, SIZE, PTR, PTR, PTR);
    r("longstraw_bounded_rule_cap", PTR, U32, U64, PTR);
    r("longstraw_rendezvous_load_file", PTR, PTR);
    r("longstraw_rendezvous_load_bytes", PTR, SIZE, PTR);
    r("longstraw_rendezvous_save_file", PTR, PTR, PTR, PTR);
    r("longstraw_rendezvous_save_bytes", PTR, PTR, PTR, PTR, PTR, PTR);
    sig("longstraw_bytes_free", FunctionDescriptor.ofVoid(PTR, SIZE));
    r("longstraw_options_init", PTR, SIZE);
    r("longstraw_rendezvous_new", PTR, PTR);
    r("longstraw_rendezvous_new_from", PTR, PTR, PTR);
    sig("longstraw_rendezvous_free", FunctionDescriptor.ofVoid(PTR));
    r("longstraw_rendezvous_add", PTR, PTR, SIZE, F64);
    r("longstraw_rendezvous_add_in_domain", PTR, PTR, SIZE, F64, PTR, SIZE);
    r("longstraw_rendezvous_add_batch", PTR, PTR, SIZE, PTR, SIZE, PTR, SIZE, PTR, SIZE, PTR, SIZE);
    r("longstraw_rendezvous_remove", PTR, PTR, SIZE);
    r("longstraw_rendezvous_set_weight", PTR, PTR, SIZE, F64);
    r("longstraw_rendezvous_set_domain", PTR, PTR, SIZE, PTR, SIZE);
    r("longstraw_rendezvous_len", PTR, PTR);
    r("longstraw_rendezvous_mode", PTR, PTR);
    r("longstraw_rendezvous_snapshot", PTR, PTR);
    sig("longstraw_last_error_message", FunctionDescriptor.of(PTR));
    sig("longstraw_result_str", FunctionDescriptor.of(PTR, ValueLayout.JAVA_INT));
    sig("longstraw_snapshot_free", FunctionDescriptor.ofVoid(PTR));
    r("longstraw_snapshot_len", PTR, PTR);
    r("longstraw_snapshot_eligible", PTR, PTR);
    r("longstraw_snapshot_generation", PTR, PTR);
    r("longstraw_snapshot_seed", PTR, PTR);
    r("longstraw_snapshot_placement", PTR, PTR);
    r("longstraw_snapshot_backend", PTR, PTR);
    r("longstraw_snapshot_node", PTR, U32, PTR, PTR, PTR);
    r("longstraw_snapshot_index_of", PTR, PTR, SIZE, PTR);
    r("longstraw_snapshot_owner", PTR, PTR, SIZE, PTR, PTR, PTR);
    r("longstraw_snapshot_top_k", PTR, PTR, SIZE, PTR, SIZE, PTR);
    r("longstraw_snapshot_rank", PTR, PTR, SIZE, PTR, SIZE, PTR);
    r("longstraw_snapshot_owners", PTR, PTR, SIZE, PTR, SIZE, PTR, SIZE);
    r("longstraw_snapshot_top_k_distinct", PTR, PTR, SIZE, PTR, SIZE, PTR);
    r("longstraw_snapshot_domain", PTR, U32, PTR, PTR);
    r("longstraw_snapshot_mode", PTR, PTR);
    r("longstraw_snapshot_is_keyed", PTR, PTR);
    r("longstraw_snapshot_partition", PTR, PTR, SIZE, PTR);
    r("longstraw_snapshot_table_shape", PTR, PTR, PTR, PTR, PTR);
    r("longstraw_snapshot_skeleton_shape", PTR, PTR, PTR);
    sig("longstraw_version", FunctionDescriptor.of(U32));
    sig("longstraw_version_string", FunctionDescriptor.of(PTR));
    sig("longstraw_placement_version", FunctionDescriptor.of(U32));
  }

  /** The function's handle; critical when listed in {@link #CRITICAL}. */
  static MethodHandle fn(String name) {
    FunctionDescriptor d = SIGNATURES.get(name);
    if (d == null) throw new AssertionError("no signature for " + name);
    MemorySegment address =
        LIB.find(name).orElseThrow(() -> new UnsatisfiedLinkError("liblongstraw has no " + name));
    return CRITICAL.contains(name)
        ? LINKER.downcallHandle(address, d, Linker.Option.critical(true))
        : LINKER.downcallHandle(address, d);
  }

  static final MethodHandle LAST_ERROR_MESSAGE = fn("longstraw_last_error_message");
  static final MethodHandle RESULT_STR = fn("longstraw_result_str");
  static final MethodHandle VERSION = fn("longstraw_version");
  static final MethodHandle VERSION_STRING = fn("longstraw_version_string");
  static final MethodHandle PLACEMENT_VERSION = fn("longstraw_placement_version");

  static final MethodHandle RENDEZVOUS_FREE = fn("longstraw_rendezvous_free");
  static final MethodHandle RENDEZVOUS_ADD = fn("longstraw_rendezvous_add");
  static final MethodHandle RENDEZVOUS_ADD_IN_DOMAIN = fn("longstraw_rendezvous_add_in_domain");
  static final MethodHandle RENDEZVOUS_ADD_BATCH = fn("longstraw_rendezvous_add_batch");
  static final MethodHandle RENDEZVOUS_REMOVE = fn("longstraw_rendezvous_remove");
  static final MethodHandle RENDEZVOUS_SET_WEIGHT = fn("longstraw_rendezvous_set_weight");
  static final MethodHandle RENDEZVOUS_SET_DOMAIN = fn("longstraw_rendezvous_set_domain");
  static final MethodHandle RENDEZVOUS_LEN = fn("longstraw_rendezvous_len");
  static final MethodHandle RENDEZVOUS_MODE = fn("longstraw_rendezvous_mode");
  static final MethodHandle RENDEZVOUS_SNAPSHOT = fn("longstraw_rendezvous_snapshot");
  static final MethodHandle RENDEZVOUS_LOAD_FILE = fn("longstraw_rendezvous_load_file");
  static final MethodHandle RENDEZVOUS_LOAD_BYTES = fn("longstraw_rendezvous_load_bytes");
  static final MethodHandle RENDEZVOUS_SAVE_FILE = fn("longstraw_rendezvous_save_file");

  static final MethodHandle SNAPSHOT_FREE = fn("longstraw_snapshot_free");
  static final MethodHandle SNAPSHOT_LEN = fn("longstraw_snapshot_len");
  static final MethodHandle SNAPSHOT_ELIGIBLE = fn("longstraw_snapshot_eligible");
  static final MethodHandle SNAPSHOT_GENERATION = fn("longstraw_snapshot_generation");
  static final MethodHandle SNAPSHOT_SEED = fn("longstraw_snapshot_seed");
  static final MethodHandle SNAPSHOT_PLACEMENT = fn("longstraw_snapshot_placement");
  static final MethodHandle SNAPSHOT_BACKEND = fn("longstraw_snapshot_backend");
  static final MethodHandle SNAPSHOT_NODE = fn("longstraw_snapshot_node");
  static final MethodHandle SNAPSHOT_INDEX_OF = fn("longstraw_snapshot_index_of");
  static final MethodHandle SNAPSHOT_OWNER = fn("longstraw_snapshot_owner");
  static final MethodHandle SNAPSHOT_TOP_K = fn("longstraw_snapshot_top_k");
  static final MethodHandle SNAPSHOT_RANK = fn("longstraw_snapshot_rank");
  static final MethodHandle SNAPSHOT_OWNERS = fn("longstraw_snapshot_owners");
  static final MethodHandle SNAPSHOT_TOP_K_DISTINCT = fn("longstraw_snapshot_top_k_distinct");
  static final MethodHandle SNAPSHOT_DOMAIN = fn("longstraw_snapshot_domain");
  static final MethodHandle SNAPSHOT_MODE = fn("longstraw_snapshot_mode");
  static final MethodHandle SNAPSHOT_IS_KEYED = fn("longstraw_snapshot_is_keyed");
  static final MethodHandle SNAPSHOT_PARTITION = fn("longstraw_snapshot_partition");
  static final MethodHandle SNAPSHOT_TABLE_SHAPE = fn("longstraw_snapshot_table_shape");
  static final MethodHandle SNAPSHOT_SKELETON_SHAPE = fn("longstraw_snapshot_skeleton_shape");

  static final MethodHandle BOUNDED_FREE = fn("longstraw_bounded_free");
  static final MethodHandle BOUNDED_ADD = fn("longstraw_bounded_add");
  static final MethodHandle BOUNDED_REMOVE = fn("longstraw_bounded_remove");
  static final MethodHandle BOUNDED_SET_WEIGHT = fn("longstraw_bounded_set_weight");
  static final MethodHandle BOUNDED_ACQUIRE = fn("longstraw_bounded_acquire");
  static final MethodHandle BOUNDED_RELEASE = fn("longstraw_bounded_release");
  static final MethodHandle BOUNDED_IN_FLIGHT = fn("longstraw_bounded_in_flight");
  static final MethodHandle BOUNDED_LOADS = fn("longstraw_bounded_loads");
  static final MethodHandle BOUNDED_RULE_NEW = fn("longstraw_bounded_rule_new");
  static final MethodHandle BOUNDED_RULE_FREE = fn("longstraw_bounded_rule_free");
  static final MethodHandle BOUNDED_RULE_ADMIT = fn("longstraw_bounded_rule_admit");
  static final MethodHandle BOUNDED_RULE_CAP = fn("longstraw_bounded_rule_cap");

  /** A NUL-terminated static C string, or null for NULL. */
  static String cString(MemorySegment p) {
    if (p.equals(MemorySegment.NULL)) return null;
    return p.reinterpret(Long.MAX_VALUE).getString(0, StandardCharsets.UTF_8);
  }

  /** Turns a result code into the exception for it (with this thread's last error message). */
  static void check(int rc) {
    if (rc != 0) throw LongstrawException.of(rc, lastErrorMessage(rc));
  }

  static String lastErrorMessage(int rc) {
    try {
      String m = cString((MemorySegment) LAST_ERROR_MESSAGE.invokeExact());
      if (m == null || m.isEmpty()) m = cString((MemorySegment) RESULT_STR.invokeExact(rc));
      return m;
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  static RuntimeException rethrow(Throwable t) {
    if (t instanceof RuntimeException e) return e;
    if (t instanceof Error e) throw e;
    return new IllegalStateException(t);
  }

  // ---- loading ----

  /** The platform name of this JVM, as the jar's resource folders name them. */
  static String platform() {
    String os = System.getProperty("os.name", "?");
    String arch = System.getProperty("os.arch", "?");
    String a =
        switch (arch.toLowerCase(Locale.ROOT)) {
          case "amd64", "x86_64" -> "x86_64";
          case "aarch64", "arm64" -> "aarch64";
          default -> arch;
        };
    if (!os.toLowerCase(Locale.ROOT).startsWith("linux")) {
      return os.toLowerCase(Locale.ROOT).replace(' ', '_') + "-" + a;
    }
    return "linux-" + a + (isMusl() ? "-musl" : "");
  }

  private static boolean isMusl() {
    try (var s = Files.list(Path.of("/lib"))) {
      return s.anyMatch(p -> p.getFileName().toString().startsWith("ld-musl-"));
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  private static Path libraryPath() {
    String explicit = System.getProperty("longstraw.library");
    if (explicit != null && !explicit.isEmpty()) return Path.of(explicit);
    String platform = platform();
    String resource = "native/" + platform + "/liblongstraw.so";
    try (InputStream in = Native.class.getResourceAsStream(resource)) {
      if (in == null) {
        List<String> carried =
            PLATFORMS.stream()
                .filter(p -> Native.class.getResource("native/" + p + "/liblongstraw.so") != null)
                .toList();
        throw new UnsatisfiedLinkError(
            "longstraw: no native library for this platform, "
                + platform
                + " (os.name="
                + System.getProperty("os.name")
                + ", os.arch="
                + System.getProperty("os.arch")
                + "); this jar carries "
                + (carried.isEmpty() ? "none" : String.join(", ", carried))
                + " (or set -Dlongstraw.library=/path/to/liblongstraw.so)");
      }
      Path dir = Files.createTempDirectory("longstraw-");
      Path lib = dir.resolve("liblongstraw.so");
      Files.copy(in, lib, StandardCopyOption.REPLACE_EXISTING);
      // The mapping stays valid after the file is gone; nothing is left behind in the temp folder.
      lib.toFile().deleteOnExit();
      dir.toFile().deleteOnExit();
      return lib;
    } catch (IOException e) {
      UnsatisfiedLinkError err =
          new UnsatisfiedLinkError("longstraw: cannot extract the native library: " + e);
      err.initCause(e);
      throw err;
    }
  }

  /** The names of every bound function (for the header test). */
  static Map<String, FunctionDescriptor> signatures() {
    return Collections.unmodifiableMap(SIGNATURES);
  }
}

package io.github.longstraw.bench;

import io.github.longstraw.Rendezvous;
import io.github.longstraw.Snapshot;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * {@code owner} at n = 10 and 100, side by side in one run (make bench-java): Java through FFM, a
 * pure-Java HRW, the Rust core's own {@code owner} (bench/src/bin/owner_per_call.rs), and the
 * Python and Node bindings' per-call costs (bench/owner_per_call.py and bench/owner_per_call.js),
 * each of those three started as a process between the Java rounds. Every side uses the same
 * nodes ({@code cache-0}..), the same keys ({@code user:0}..{@code user:1023}, cycled, as bytes)
 * and the same protocol: samples of {@link #CALLS} calls, wall time and the calling thread's
 * on-CPU time per call. The machine may be busy, so the rounds are interleaved: each round
 * measures Rust, Python, Node, then Java FFM and pure Java, for both node counts, and the tables
 * give the median over rounds of each cost and of each round's ratio to Rust (and to Java). JMH
 * ({@link OwnerBench}) then measures the Java side again on its own. The output is Markdown
 * tables that bench/record.py records.
 *
 * <p>System properties: {@code longstraw.rustBench} (the owner_per_call binary), {@code
 * bench.python} and {@code bench.node} (each an interpreter and its script, separated by a
 * space), {@code longstraw.library}, {@code bench.rounds} (default 9), {@code bench.jmh} (default
 * true), {@code bench.jmhLog} (where JMH's own output goes).
 */
public final class SideBySide {
  private SideBySide() {}

  static final int[] NS = {10, 100};
  static final int CALLS = 200_000;
  /** What each measuring process prints per subject and n: the same line from Rust, Python and Node. */
  static final Pattern SUBJECT_LINE =
      Pattern.compile("(\\S+) n=(\\d+) backend=(\\S+) ns=([0-9.]+) cpu_ns=([0-9.]+)");

  /** One n's Java subjects. */
  static final class Subject implements AutoCloseable {
    final int n;
    final Rendezvous set;
    final Snapshot snap;
    final long[] nodeHashes;

    Subject(int n) {
      this.n = n;
      Rendezvous.Builder b = Rendezvous.flat();
      nodeHashes = new long[n];
      for (int i = 0; i < n; i++) {
        b.node("cache-" + i);
        nodeHashes[i] = OwnerBench.mix(OwnerBench.hash(("cache-" + i).getBytes(StandardCharsets.UTF_8)));
      }
      set = b.build();
      snap = set.snapshot();
    }

    @Override
    public void close() {
      snap.close();
      set.close();
    }
  }

  static final byte[][] KEYS = new byte[1024][];

  static {
    for (int i = 0; i < KEYS.length; i++) KEYS[i] = ("user:" + i).getBytes(StandardCharsets.UTF_8);
  }

  static long sink;

  static final java.lang.management.ThreadMXBean MX = java.lang.management.ManagementFactory.getThreadMXBean();

  /** {wall ns, on-CPU ns} per call since {@code wall0} and {@code cpu0}. */
  static double[] perCall(long wall0, long cpu0) {
    long wall = System.nanoTime() - wall0, cpu = MX.getCurrentThreadCpuTime() - cpu0;
    return new double[] {(double) wall / CALLS, (double) cpu / CALLS};
  }

  // Three loops written out rather than one loop over a lambda: a call site shared by three
  // subjects would be megamorphic, and would slow all three down.

  static double[] ffmIndex(Subject s) {
    long sum = 0, cpu0 = MX.getCurrentThreadCpuTime(), wall0 = System.nanoTime();
    for (int i = 0; i < CALLS; i++) sum += s.snap.ownerIndex(KEYS[i & 1023]);
    double[] t = perCall(wall0, cpu0);
    sink += sum;
    return t;
  }

  static double[] ffmOwner(Subject s) {
    long sum = 0, cpu0 = MX.getCurrentThreadCpuTime(), wall0 = System.nanoTime();
    for (int i = 0; i < CALLS; i++) sum += s.set.owner(KEYS[i & 1023]).length();
    double[] t = perCall(wall0, cpu0);
    sink += sum;
    return t;
  }

  static double[] pureJava(Subject s) {
    long sum = 0, cpu0 = MX.getCurrentThreadCpuTime(), wall0 = System.nanoTime();
    for (int i = 0; i < CALLS; i++) sum += OwnerBench.pureHrw(KEYS[i & 1023], s.nodeHashes);
    double[] t = perCall(wall0, cpu0);
    sink += sum;
    return t;
  }

  /**
   * One run of a measuring process ({@code cmd} followed by calls, samples and the node counts):
   * "subject n" to {wall, on-CPU} ns per call; the backend it reports goes in {@code
   * backends[who]}.
   */
  static Map<String, double[]> external(
      String who, List<String> cmd, int subjects, Map<String, String> backends)
      throws IOException, InterruptedException {
    List<String> full = new ArrayList<>(cmd);
    full.add(Integer.toString(CALLS));
    full.add("5");
    for (int n : NS) full.add(Integer.toString(n));
    Process p = new ProcessBuilder(full).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    Map<String, double[]> out = new TreeMap<>();
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        Matcher m = SUBJECT_LINE.matcher(line.trim());
        if (m.matches()) {
          out.put(
              m.group(1) + " " + m.group(2),
              new double[] {Double.parseDouble(m.group(4)), Double.parseDouble(m.group(5))});
          backends.put(who, m.group(3));
        }
      }
    }
    if (p.waitFor() != 0 || out.size() != subjects * NS.length) {
      throw new IllegalStateException(full + " failed or printed " + out);
    }
    return out;
  }

  /** An interpreter and its script from a system property ("python3 bench/x.py"). */
  static List<String> command(String property) {
    String v = System.getProperty(property);
    if (v == null || v.isBlank()) {
      throw new IllegalStateException("set -D" + property + "=<interpreter> <script>");
    }
    return List.of(v.trim().split(" +"));
  }

  static double median(List<Double> v) {
    double[] a = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
  }

  static String ns(double v) {
    return String.format(Locale.ROOT, "%.1f ns", v);
  }

  static String ratio(double v) {
    return String.format(Locale.ROOT, "%.2fx", v);
  }

  /** The calls measured in every language: [Java, Python, Node (Buffer key), Node (string key)]. */
  static final Map<String, List<String>> CALLS_BY_LANGUAGE = new LinkedHashMap<>();

  static {
    CALLS_BY_LANGUAGE.put("owner", List.of("ffm-owner", "py_owner", "node_owner", "node_owner_str"));
    CALLS_BY_LANGUAGE.put(
        "owner index", List.of("ffm-index", "py_owner_index", "node_owner_index", "node_owner_index_str"));
  }

  public static void main(String[] args) throws Exception {
    String exe = System.getProperty("longstraw.rustBench");
    if (exe == null) throw new IllegalStateException("set -Dlongstraw.rustBench=target/release/owner_per_call");
    List<String> python = command("bench.python"), node = command("bench.node");
    int rounds = Integer.getInteger("bench.rounds", 9);
    Map<String, String> backends = new TreeMap<>();
    // subject -> n -> per-round values; "x/" keys are per-round ratios to Rust, "j/" to Java FFM.
    Map<String, Map<Integer, List<Double>>> v = new LinkedHashMap<>();
    List<Subject> subjects = new ArrayList<>();
    for (int n : NS) subjects.add(new Subject(n));
    try {
      // Warm-up: the JIT compiles each loop before the first timed round.
      for (int w = 0; w < 5; w++) {
        for (Subject s : subjects) {
          ffmIndex(s);
          ffmOwner(s);
          pureJava(s);
        }
      }
      for (int round = 0; round < rounds; round++) {
        Map<String, double[]> r = new TreeMap<>(external("Rust", List.of(exe), 2, backends));
        r.putAll(external("Python", python, 2, backends));
        r.putAll(external("Node", node, 4, backends));
        for (Subject s : subjects) {
          r.put("ffm-index " + s.n, ffmIndex(s));
          r.put("ffm-owner " + s.n, ffmOwner(s));
          r.put("pure " + s.n, pureJava(s));
          double[] rs = r.get("owner " + s.n);
          for (int c = 0; c < 2; c++) {
            String clock = c == 1 ? "cpu/" : "wall/";
            for (var e : r.entrySet()) {
              String[] subjectN = e.getKey().split(" ");
              if (Integer.parseInt(subjectN[1]) != s.n) continue;
              add(v, clock + subjectN[0], s.n, e.getValue()[c]);
              add(v, clock + "x/" + subjectN[0], s.n, e.getValue()[c] / rs[c]);
            }
            for (List<String> same : CALLS_BY_LANGUAGE.values()) {
              double java = r.get(same.get(0) + " " + s.n)[c];
              for (String k : same) add(v, clock + "j/" + k, s.n, r.get(k + " " + s.n)[c] / java);
            }
          }
        }
        System.err.printf(Locale.ROOT, "bench-java: round %d of %d done%n", round + 1, rounds);
      }
    } finally {
      for (Subject s : subjects) s.close();
    }

    table(v, "cpu/", "## owner per call, on-CPU time, Java and Rust side by side");
    languages(v, "cpu/", "## owner from each language, on-CPU time per call");
    table(v, "wall/", "## owner per call, wall time, Java and Rust side by side");
    languages(v, "wall/", "## owner from each language, wall time per call");
    System.out.printf(
        Locale.ROOT,
        "Medians over %d interleaved rounds of %d calls each (ratios: the median of each round's ratio)."
            + " On-CPU time is the calling thread's run time (Java: ThreadMXBean; Python: time.thread_time_ns;"
            + " Rust and Node: /proc/thread-self/schedstat), without the waits for a core that inflate wall"
            + " time on a busy machine. Rust: the core's NodeTable::owner and the set layer's"
            + " Snapshot::owner_index (which the C ABI's longstraw_snapshot_owner calls), in a process of"
            + " their own. Java: JDK %s, keys passed as heap byte[] with no copy (critical downcalls)."
            + " Python %s and Node %s: the built bindings in processes of their own (bench/owner_per_call.py,"
            + " bench/owner_per_call.js), Rendezvous.owner and Snapshot.owner_index / ownerIndex in a plain"
            + " loop, keys as bytes (Python) and Buffers (Node; strings in their own column). Backends: %s.%n",
        rounds,
        CALLS,
        Runtime.version(),
        version(python),
        version(node),
        backends);
    System.out.println();

    if (Boolean.parseBoolean(System.getProperty("bench.jmh", "true"))) jmh();
    if (sink == 42) System.err.println();
  }

  /** What {@code cmd --version} prints (the interpreter's version), or "?". */
  static String version(List<String> cmd) {
    try {
      Process p = new ProcessBuilder(cmd.get(0), "--version").redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      return p.waitFor() == 0 ? out.replaceFirst("^Python ", "").replaceFirst("^v", "") : "?";
    } catch (IOException | InterruptedException e) {
      return "?";
    }
  }

  static void table(Map<String, Map<Integer, List<Double>>> v, String clock, String heading) {
    System.out.println(heading);
    System.out.println();
    System.out.println(
        "| n | Rust core owner | Rust set owner_index | Java FFM Snapshot.ownerIndex | Java FFM Rendezvous.owner"
            + " | pure-Java HRW | ownerIndex / Rust core | owner / Rust core | pure Java / Rust core |");
    System.out.println("|---|---|---|---|---|---|---|---|---|");
    for (int n : NS) {
      StringBuilder row = new StringBuilder("| " + n + " |");
      for (String k : List.of("owner", "set_owner", "ffm-index", "ffm-owner", "pure")) {
        row.append(' ').append(ns(median(v.get(clock + k).get(n)))).append(" |");
      }
      for (String k : List.of("x/ffm-index", "x/ffm-owner", "x/pure")) {
        row.append(' ').append(ratio(median(v.get(clock + k).get(n)))).append(" |");
      }
      System.out.println(row);
    }
    System.out.println();
  }

  /** The same call from Java, Python and Node, against the Rust core's owner and against Java. */
  static void languages(Map<String, Map<Integer, List<Double>>> v, String clock, String heading) {
    System.out.println(heading);
    System.out.println();
    System.out.println(
        "| call | Rust core owner | Java FFM | Python | Node | Node, string key | Java / Rust core"
            + " | Python / Rust core | Node / Rust core | Python / Java | Node / Java |");
    System.out.println("|---|---|---|---|---|---|---|---|---|---|---|");
    for (int n : NS) {
      for (var call : CALLS_BY_LANGUAGE.entrySet()) {
        List<String> k = call.getValue();
        StringBuilder row = new StringBuilder("| " + call.getKey() + ", n = " + n + " |");
        for (String c : List.of("owner", k.get(0), k.get(1), k.get(2), k.get(3))) {
          row.append(' ').append(ns(median(v.get(clock + c).get(n)))).append(" |");
        }
        List<String> ratios =
            List.of("x/" + k.get(0), "x/" + k.get(1), "x/" + k.get(2), "j/" + k.get(1), "j/" + k.get(2));
        for (String c : ratios) {
          row.append(' ').append(ratio(median(v.get(clock + c).get(n)))).append(" |");
        }
        System.out.println(row);
      }
    }
    System.out.println();
    System.out.println(
        "Rows: owner is Rendezvous.owner in each language (the node's id back as the language's string);"
            + " owner index is Snapshot.ownerIndex (Java, Node) and Snapshot.owner_index (Python), the node's"
            + " index. A ratio above 1 over Java means the call costs more there than from Java.");
    System.out.println();
  }

  static void add(Map<String, Map<Integer, List<Double>>> v, String k, int n, double x) {
    v.computeIfAbsent(k, q -> new TreeMap<>()).computeIfAbsent(n, q -> new ArrayList<>()).add(x);
  }

  static void jmh() throws Exception {
    Options opt =
        new OptionsBuilder()
            .include(OwnerBench.class.getName())
            .jvmArgsAppend(
                "--enable-native-access=ALL-UNNAMED",
                "-Dlongstraw.library=" + System.getProperty("longstraw.library"))
            .output(System.getProperty("bench.jmhLog", "target/jmh.log"))
            .build();
    Collection<RunResult> results = new Runner(opt).run();
    Map<String, Map<String, String>> rows = new TreeMap<>();
    for (RunResult r : results) {
      String name = r.getParams().getBenchmark();
      name = name.substring(name.lastIndexOf('.') + 1);
      rows.computeIfAbsent(name, q -> new TreeMap<>())
          .put(
              r.getParams().getParam("n"),
              String.format(
                  Locale.ROOT,
                  "%.1f ns ± %.1f",
                  r.getPrimaryResult().getScore(),
                  r.getPrimaryResult().getScoreError()));
    }
    System.out.println("## JMH, owner average time");
    System.out.println();
    System.out.println("| benchmark | n = 10 | n = 100 |");
    System.out.println("|---|---|---|");
    for (var e : rows.entrySet()) {
      System.out.println("| " + e.getKey() + " | " + e.getValue().get("10") + " | " + e.getValue().get("100") + " |");
    }
    System.out.println();
    System.out.println(
        "JMH 1.37, wall time, run after the rounds above: one fork, 3 warm-up and 5 measured iterations of 1 s;"
            + " the error is JMH's 99.9% interval.");
  }
}

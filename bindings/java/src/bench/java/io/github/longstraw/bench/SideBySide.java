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
 * pure-Java HRW, and the Rust core's own {@code owner} (bench/src/bin/owner_per_call.rs, started
 * as a process between the Java rounds). The machine may be busy, so the rounds are interleaved:
 * each round measures Rust, then Java FFM, then pure Java, for both node counts, and the table
 * gives the median over rounds of each cost and of each round's ratio to Rust. JMH ({@link
 * OwnerBench}) then measures the Java side again on its own. The output is Markdown tables that
 * bench/record.py records.
 *
 * <p>System properties: {@code longstraw.rustBench} (the owner_per_call binary), {@code
 * longstraw.library}, {@code bench.rounds} (default 9), {@code bench.jmh} (default true), {@code
 * bench.jmhLog} (where JMH's own output goes).
 */
public final class SideBySide {
  private SideBySide() {}

  static final int[] NS = {10, 100};
  static final int CALLS = 200_000;
  static final Pattern RUST_LINE = Pattern.compile("(owner|set_owner) n=(\\d+) backend=(\\S+) ns=([0-9.]+) cpu_ns=([0-9.]+)");

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
   * One run of the Rust binary: "owner n" and "set_owner n" to {wall, on-CPU} ns per call; the
   * backend goes in {@code backend[0]}.
   */
  static Map<String, double[]> rust(String exe, String[] backend) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(exe, Integer.toString(CALLS), "5"));
    for (int n : NS) cmd.add(Integer.toString(n));
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    Map<String, double[]> out = new TreeMap<>();
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        Matcher m = RUST_LINE.matcher(line.trim());
        if (m.matches()) {
          out.put(
              m.group(1) + " " + m.group(2),
              new double[] {Double.parseDouble(m.group(4)), Double.parseDouble(m.group(5))});
          backend[0] = m.group(3);
        }
      }
    }
    if (p.waitFor() != 0 || out.size() != 2 * NS.length) {
      throw new IllegalStateException(exe + " failed or printed " + out);
    }
    return out;
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

  public static void main(String[] args) throws Exception {
    String exe = System.getProperty("longstraw.rustBench");
    if (exe == null) throw new IllegalStateException("set -Dlongstraw.rustBench=target/release/owner_per_call");
    int rounds = Integer.getInteger("bench.rounds", 9);
    String[] backend = {"?"};
    // subject -> n -> per-round values; "x/" keys are per-round ratios to Rust.
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
        Map<String, double[]> r = rust(exe, backend);
        for (Subject s : subjects) {
          double[] rs = r.get("owner " + s.n), rset = r.get("set_owner " + s.n);
          double[] fi = ffmIndex(s), fo = ffmOwner(s), pj = pureJava(s);
          for (int c = 0; c < 2; c++) {
            String clock = c == 1 ? "cpu/" : "wall/";
            add(v, clock + "rust", s.n, rs[c]);
            add(v, clock + "rust-set", s.n, rset[c]);
            add(v, clock + "ffm-index", s.n, fi[c]);
            add(v, clock + "ffm-owner", s.n, fo[c]);
            add(v, clock + "pure", s.n, pj[c]);
            add(v, clock + "x/ffm-index", s.n, fi[c] / rs[c]);
            add(v, clock + "x/ffm-owner", s.n, fo[c] / rs[c]);
            add(v, clock + "x/pure", s.n, pj[c] / rs[c]);
          }
        }
        System.err.printf(Locale.ROOT, "bench-java: round %d of %d done%n", round + 1, rounds);
      }
    } finally {
      for (Subject s : subjects) s.close();
    }

    table(v, "cpu/", "## owner per call, on-CPU time, Java and Rust side by side");
    table(v, "wall/", "## owner per call, wall time, Java and Rust side by side");
    System.out.printf(
        Locale.ROOT,
        "Medians over %d interleaved rounds of %d calls each (ratios: the median of each round's ratio)."
            + " On-CPU time is the thread's run time (Java: ThreadMXBean; Rust: /proc/thread-self/schedstat),"
            + " without the waits for a core that inflate wall time on a busy machine. Rust: the core's"
            + " NodeTable::owner and the set layer's Snapshot::owner_index (which the C ABI's"
            + " longstraw_snapshot_owner calls) on the %s backend, in a process of their own. Java: JDK %s, keys passed as heap"
            + " byte[] with no copy (critical downcalls).%n",
        rounds,
        CALLS,
        backend[0],
        Runtime.version());
    System.out.println();

    if (Boolean.parseBoolean(System.getProperty("bench.jmh", "true"))) jmh();
    if (sink == 42) System.err.println();
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
      for (String k : List.of("rust", "rust-set", "ffm-index", "ffm-owner", "pure")) {
        row.append(' ').append(ns(median(v.get(clock + k).get(n)))).append(" |");
      }
      for (String k : List.of("x/ffm-index", "x/ffm-owner", "x/pure")) {
        row.append(' ').append(ratio(median(v.get(clock + k).get(n)))).append(" |");
      }
      System.out.println(row);
    }
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

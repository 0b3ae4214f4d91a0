// Java driver: runs the cases through bindings/java (the C library through FFM), as byte[] and as
// String. Run with the source launcher:
//   java --enable-native-access=ALL-UNNAMED -Dlongstraw.library=... -cp bindings/java/target/classes \
//     tests/diff/Driver.java cases.txt
import io.github.longstraw.ErrorCode;
import io.github.longstraw.LongstrawException;
import io.github.longstraw.Rendezvous;
import io.github.longstraw.Snapshot;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Collectors;

public class Driver {
  record Node(byte[] id, double weight, byte[] domain) {}

  record Key(byte[] key, int k) {}

  record Set(String no, long seed, List<Node> nodes, List<Key> keys, List<String> lones) {}

  static byte[] unhex(String f) {
    return f.equals(".") ? new byte[0] : HexFormat.of().parseHex(f);
  }

  static String hex(byte[] b) {
    return b.length == 0 ? "." : HexFormat.of().formatHex(b);
  }

  static String text(byte[] b) {
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(b))
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  static String errorClass(RuntimeException e) {
    if (e instanceof LongstrawException x) {
      ErrorCode c = x.code();
      return switch (c) {
        case INVALID_NODE_ID -> "invalid_node_id";
        case INVALID_WEIGHT -> "invalid_weight";
        case DUPLICATE_NODE -> "duplicate_node";
        case INVALID_DOMAIN -> "invalid_domain";
        case NO_ELIGIBLE_NODE -> "no_eligible";
        case HASH_COLLISION -> "hash_collision";
        default -> "other:" + c;
      };
    }
    if (e instanceof IllegalArgumentException && String.valueOf(e.getMessage()).contains("lone surrogate")) {
      return "invalid_string";
    }
    return "other:" + e.getClass().getSimpleName();
  }

  static String ids(List<String> names) {
    return names.isEmpty()
        ? "-"
        : names.stream().map(s -> hex(s.getBytes(StandardCharsets.UTF_8))).collect(Collectors.joining(","));
  }

  static String ids(Snapshot s, int[] idx) {
    if (idx.length == 0) return "-";
    List<String> out = new ArrayList<>();
    for (int i : idx) out.add(hex(s.nodeId(i)));
    return String.join(",", out);
  }

  static void run(PrintWriter out, String form, Set set) {
    boolean strings = form.equals("s");
    try (Rendezvous r = Rendezvous.flat().seed(set.seed()).build()) {
      try {
        for (Node n : set.nodes()) {
          if (strings) {
            r.add(text(n.id()), n.weight(), n.domain() == null ? null : text(n.domain()));
          } else {
            r.add(n.id(), n.weight(), n.domain());
          }
        }
      } catch (RuntimeException e) {
        out.println(form + " " + set.no() + " BUILD " + errorClass(e));
        return;
      }
      try (Snapshot s = r.snapshot()) {
        for (int i = 0; i < set.keys().size(); i++) {
          Key key = set.keys().get(i);
          String line = form + " " + set.no() + " K" + i + " ";
          try {
            if (strings) {
              String k = text(key.key());
              if (k == null) continue;
              String owner = hex(s.owner(k).getBytes(StandardCharsets.UTF_8));
              out.println(line + owner + " " + ids(s.topK(k, key.k())) + " " + ids(s.topKDistinct(k, key.k())));
            } else {
              MemorySegment k = MemorySegment.ofArray(key.key());
              String owner = hex(s.nodeId(s.ownerIndex(k)));
              out.println(line + owner + " " + ids(s, s.topKIndices(k, key.k())) + " "
                  + ids(s, s.topKDistinctIndices(k, key.k())));
            }
          } catch (RuntimeException e) {
            out.println(line + "ERR " + errorClass(e));
          }
        }
        if (strings) {
          for (int i = 0; i < set.lones().size(); i++) {
            try {
              s.owner(set.lones().get(i));
              out.println(form + " " + set.no() + " L" + i + " accepted");
            } catch (RuntimeException e) {
              out.println(form + " " + set.no() + " L" + i + " ERR " + errorClass(e));
            }
          }
        }
      }
    }
  }

  public static void main(String[] args) throws IOException {
    PrintWriter out = new PrintWriter(System.out, false, StandardCharsets.UTF_8);
    Set cur = null;
    for (String line : Files.readAllLines(Path.of(args[0]))) {
      String[] f = line.split(" ");
      switch (f[0]) {
        case "S" -> cur = new Set(f[1], Long.parseUnsignedLong(f[2]), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        case "N" -> cur.nodes().add(new Node(unhex(f[1]), Double.parseDouble(f[2]), f[3].equals("-") ? null : unhex(f[3])));
        case "K" -> cur.keys().add(new Key(unhex(f[1]), Integer.parseInt(f[2])));
        case "L" -> {
          StringBuilder sb = new StringBuilder();
          for (String u : f[1].split(",")) sb.append((char) Integer.parseInt(u, 16));
          cur.lones().add(sb.toString());
        }
        case "E" -> {
          run(out, "b", cur);
          boolean allText = cur.nodes().stream()
              .allMatch(n -> text(n.id()) != null && (n.domain() == null || text(n.domain()) != null));
          if (allText) run(out, "s", cur);
        }
        default -> {}
      }
    }
    out.flush();
  }
}

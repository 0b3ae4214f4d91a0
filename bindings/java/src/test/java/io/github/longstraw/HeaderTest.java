package io.github.longstraw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.AddressLayout;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every function include/longstraw.h declares is bound by hand in Native.java with the same C
 * types (parsed from the header, so a new or changed function fails here until it is bound).
 */
class HeaderTest {
  private static final Pattern DECL =
      Pattern.compile(
          "^(longstraw_result|void|const char \\*|uint32_t)\\s*(longstraw_\\w+)\\(([^;]*?)\\);",
          Pattern.MULTILINE | Pattern.DOTALL);

  /** One letter per C type: A pointer, b uint8_t, i 32-bit, j 64-bit, d double. */
  static String cType(String decl) {
    String t = decl.trim();
    if (t.equals("void") || t.isEmpty()) return "";
    if (t.contains("*")) return "A";
    String type = t.replaceAll("\\s+\\w+$", "").replace("const ", "").trim();
    return switch (type) {
      case "uint8_t" -> "b";
      case "uint32_t", "int", "longstraw_result", "longstraw_mode" -> "i";
      case "uint64_t", "size_t" -> "j";
      case "double" -> "d";
      default -> throw new AssertionError("unknown C type in the header: " + decl);
    };
  }

  static String javaType(MemoryLayout l) {
    if (l instanceof AddressLayout) return "A";
    Class<?> c = ((ValueLayout) l).carrier();
    if (c == byte.class) return "b";
    if (c == int.class) return "i";
    if (c == long.class) return "j";
    if (c == double.class) return "d";
    throw new AssertionError("unexpected layout " + l);
  }

  static Map<String, String> header() throws IOException {
    String text = Files.readString(Fixtures.repo().resolve("include/longstraw.h"));
    text = text.replaceAll("(?s)/\\*.*?\\*/", "");
    Map<String, String> out = new LinkedHashMap<>();
    Matcher m = DECL.matcher(text);
    while (m.find()) {
      StringBuilder sig = new StringBuilder(cType(m.group(1))).append('(');
      String params = m.group(3).trim();
      if (!params.equals("void") && !params.isEmpty()) {
        for (String p : params.split(",")) sig.append(cType(p));
      }
      out.put(m.group(2), sig.append(')').toString());
    }
    return out;
  }

  static String java(FunctionDescriptor d) {
    StringBuilder s = new StringBuilder(d.returnLayout().map(HeaderTest::javaType).orElse("")).append('(');
    for (MemoryLayout l : d.argumentLayouts()) s.append(javaType(l));
    return s.append(')').toString();
  }

  @Test
  void everyHeaderFunctionIsBoundWithItsTypes() throws IOException {
    Map<String, String> header = header();
    assertTrue(header.size() >= 50, "parsed only " + header.size() + " functions from the header");
    Map<String, FunctionDescriptor> bound = Native.signatures();
    List<String> problems = new ArrayList<>();
    for (var e : header.entrySet()) {
      FunctionDescriptor d = bound.get(e.getKey());
      if (d == null) problems.add(e.getKey() + " is not bound");
      else if (!java(d).equals(e.getValue())) {
        problems.add(e.getKey() + ": header " + e.getValue() + ", Java " + java(d));
      }
    }
    for (String name : bound.keySet()) {
      if (!header.containsKey(name)) problems.add(name + " is bound but not in the header");
    }
    assertEquals(List.of(), problems);
    // Each binding resolves in the library (a missing symbol throws here).
    for (String name : bound.keySet()) Native.fn(name);
  }

  @Test
  void headerAndLibraryVersionsAgree() throws IOException {
    String text = Files.readString(Fixtures.repo().resolve("include/longstraw.h"));
    int major = define(text, "LONGSTRAW_VERSION_MAJOR");
    int minor = define(text, "LONGSTRAW_VERSION_MINOR");
    int patch = define(text, "LONGSTRAW_VERSION_PATCH");
    assertEquals(major * 10000 + minor * 100 + patch, Longstraw.version());
    assertEquals(major + "." + minor + "." + patch, Longstraw.versionString());
    assertEquals(define(text, "LONGSTRAW_PLACEMENT_VERSION"), Longstraw.placementVersion());
    assertEquals(define(text, "LONGSTRAW_AUTO"), Native.AUTO);
    assertEquals(define(text, "LONGSTRAW_TABLE_DISTINCT_DOMAINS"), Native.TABLE_DISTINCT_DOMAINS);
  }

  static int define(String text, String name) {
    Matcher m = Pattern.compile("#define " + name + " (\\d+)").matcher(text);
    assertTrue(m.find(), name);
    return Integer.parseInt(m.group(1));
  }
}

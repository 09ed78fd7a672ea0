package dev.svc.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The library as a new user meets it: a class of their own, outside this package, that imports
 * {@code dev.svc.engine.*} and holds the README's Java snippet, compiled against the built classes.
 * A public type here named like one of {@code java.lang} (once {@code Module}) makes every such use
 * ambiguous, which only a compile from outside shows.
 */
class ConsumerCompileTest {

  private static final Path README = Path.of(System.getProperty("svc.root", "..")).resolve("README.md");

  /** The first Java block after the README's heading "Using the engine from Java". */
  private static final Pattern SNIPPET =
      Pattern.compile("## Using the engine from Java\\R.*?```java\\R(.*?)```", Pattern.DOTALL);

  @Test
  void theReadmeSnippetCompilesWithAWildcardImport(@TempDir Path dir) throws IOException {
    Path source = dir.resolve("src/com/example/App.java");
    Files.createDirectories(source.getParent());
    Files.writeString(source, consumer(readmeSnippet()), StandardCharsets.UTF_8);

    StringWriter diagnostics = new StringWriter();
    boolean compiled = compile(source, dir.resolve("classes"), diagnostics);

    assertThat(diagnostics.toString()).isEmpty();
    assertThat(compiled).isTrue();
  }

  private static String readmeSnippet() throws IOException {
    Matcher snippet = SNIPPET.matcher(Files.readString(README, StandardCharsets.UTF_8));
    assertThat(snippet.find()).as("a ```java block under \"Using the engine from Java\" in " + README).isTrue();
    return snippet.group(1);
  }

  /** The snippet inside a method whose parameters are the names it leaves to the reader. */
  private static String consumer(String snippet) {
    return """
        package com.example;

        import dev.svc.engine.*;
        import java.util.List;
        import java.util.Locale;
        import java.util.Map;

        class App {
          static void run(List<SourceFile> files, Object user) {
        %s  }
        }
        """
        .formatted(snippet.indent(4));
  }

  private static boolean compile(Path source, Path classes, StringWriter diagnostics) throws IOException {
    Files.createDirectories(classes);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    try (StandardJavaFileManager files = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
      Iterable<? extends JavaFileObject> units = files.getJavaFileObjects(source);
      List<String> options =
          List.of(
              "--release", "17",
              "-proc:none",
              "-classpath", System.getProperty("java.class.path"),
              "-d", classes.toString());
      return javac.getTask(diagnostics, files, null, options, null, units).call();
    }
  }
}

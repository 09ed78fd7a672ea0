package dev.svc.cli.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.engine.SourceFile;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SourcesTest {

  @TempDir Path dir;

  private Workspace workspace(String stdin) {
    return new Workspace(dir, new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), Map.of(), false);
  }

  private void touch(String path) throws IOException {
    Files.createDirectories(dir.resolve(path).getParent());
    Files.writeString(dir.resolve(path), path);
  }

  private List<String> names(String... args) {
    return Sources.read(workspace(""), List.of(args), Sources::isSigil).stream().map(SourceFile::path).toList();
  }

  @Test
  void a_directory_gives_its_files_in_path_order_then_each_subdirectory_in_name_order() throws IOException {
    touch("b.sigil");
    touch("a.sigil");
    touch("z/c.sigil");
    touch("m/d.sigil");
    touch("m/n/e.sigil");
    touch("notes.txt");
    touch(".hidden/f.sigil");
    touch("m/.g.sigil");

    assertThat(names()).containsExactly("a.sigil", "b.sigil", "m/d.sigil", "m/n/e.sigil", "z/c.sigil");
  }

  @Test
  void paths_are_cleaned_and_a_file_reached_twice_is_read_once() throws IOException {
    touch("m/d.sigil");
    Files.createSymbolicLink(dir.resolve("link"), dir.resolve("m"));

    assertThat(names("./m//d.sigil", "x/../m/d.sigil", "m", "link", "link/d.sigil")).containsExactly("m/d.sigil");
  }

  @Test
  void a_file_named_directly_counts_whatever_its_extension() throws IOException {
    touch("policy.txt");

    assertThat(names("policy.txt")).containsExactly("policy.txt");
  }

  @Test
  void a_dash_is_stdin() {
    List<SourceFile> files = Sources.read(workspace("text"), List.of("-"), Sources::isSigil);

    assertThat(files).containsExactly(SourceFile.of("<stdin>", "text"));
  }

  @Test
  void a_linked_directory_loop_is_walked_once() throws IOException {
    touch("m/d.sigil");
    Files.createSymbolicLink(dir.resolve("m/loop"), dir.resolve("m"));

    assertThat(names("m")).containsExactly("m/d.sigil");
  }
}

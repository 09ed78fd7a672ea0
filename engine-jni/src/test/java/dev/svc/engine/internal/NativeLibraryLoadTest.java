package dev.svc.engine.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Extraction from the jar, reuse, tampering and the failure messages, each in a child JVM running
 * {@link LoadProbe} (the loader runs once per JVM). Needs the natives on the classpath under
 * {@code META-INF/native/}, as the Maven build puts them.
 */
class NativeLibraryLoadTest {

  private record Outcome(int exitCode, String output) {
    String loadedFrom() {
      return output.lines().filter(l -> l.startsWith("loaded: ")).map(l -> l.substring(8)).findFirst().orElse("");
    }
  }

  @BeforeAll
  static void needsBundledNatives() {
    assumeTrue(NativeLibrary.class.getResource("/META-INF/native/linux-x86_64/natives.sha256") != null,
        "the natives are not on the classpath as jar resources (run through Maven)");
  }

  private static Outcome probe(String... properties) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of(properties));
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(LoadProbe.class.getName());
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().remove(NativeLibrary.PATH_ENV);
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    return new Outcome(process.waitFor(), output);
  }

  private static List<Path> extracted(Path workdir) throws IOException {
    try (Stream<Path> entries = Files.list(workdir)) {
      return entries.filter(p -> p.getFileName().toString().startsWith("svc-native-")).collect(Collectors.toList());
    }
  }

  @Test
  void natives_are_extracted_into_one_private_directory_and_reused(@TempDir Path workdir) throws Exception {
    Outcome first = probe("-D" + NativeLibrary.WORKDIR_PROPERTY + "=" + workdir);
    assertThat(first.exitCode()).as(first.output()).isZero();
    List<Path> dirs = extracted(workdir);
    assertThat(dirs).hasSize(1);
    Path dir = dirs.get(0);
    assertThat(dir.getFileName().toString()).matches("svc-native-[0-9a-f]{16}");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwx------");
    assertThat(first.loadedFrom()).isEqualTo(dir.resolve(NativeLibrary.BRIDGE).toString());
    assertThat(dir.resolve(NativeLibrary.WASMTIME)).isRegularFile();
    FileTime written = Files.getLastModifiedTime(dir.resolve(NativeLibrary.BRIDGE));

    Outcome second = probe("-D" + NativeLibrary.WORKDIR_PROPERTY + "=" + workdir);
    assertThat(second.exitCode()).as(second.output()).isZero();
    assertThat(second.loadedFrom()).isEqualTo(first.loadedFrom());
    assertThat(Files.getLastModifiedTime(dir.resolve(NativeLibrary.BRIDGE))).isEqualTo(written);
    assertThat(extracted(workdir)).hasSize(1);
  }

  @Test
  void a_tampered_directory_is_never_loaded(@TempDir Path workdir) throws Exception {
    assertThat(probe("-D" + NativeLibrary.WORKDIR_PROPERTY + "=" + workdir).exitCode()).isZero();
    Path dir = extracted(workdir).get(0);
    Files.write(dir.resolve(NativeLibrary.BRIDGE), "not the bridge".getBytes(StandardCharsets.UTF_8));

    Outcome outcome = probe("-D" + NativeLibrary.WORKDIR_PROPERTY + "=" + workdir);
    assertThat(outcome.exitCode()).as(outcome.output()).isZero();
    assertThat(outcome.loadedFrom()).isNotEmpty().doesNotStartWith(dir + "/");
  }

  @Test
  void an_override_directory_without_the_libraries_fails_naming_the_override(@TempDir Path empty) throws Exception {
    Outcome outcome = probe("-D" + NativeLibrary.PATH_PROPERTY + "=" + empty);
    assertThat(outcome.exitCode()).isEqualTo(2);
    assertThat(outcome.output())
        .contains("failure: -Dsvc.native.path names " + empty + ", which holds no libsvc_wasmtime_jni.so")
        .contains("help: point -Dsvc.native.path at a directory holding both")
        .contains("cause: java.lang.UnsatisfiedLinkError");
  }

  @Test
  void another_platform_fails_naming_the_platform_found_and_shipped(@TempDir Path workdir) throws Exception {
    Outcome outcome = probe("-Dos.arch=riscv64", "-D" + NativeLibrary.WORKDIR_PROPERTY + "=" + workdir);
    assertThat(outcome.exitCode()).isEqualTo(2);
    assertThat(outcome.output())
        .contains("failure: this library ships native code for linux-x86_64 only, and this JVM runs on linux-riscv64")
        .contains("-Dsvc.native.path (or SVC_NATIVE_PATH)");
  }
}

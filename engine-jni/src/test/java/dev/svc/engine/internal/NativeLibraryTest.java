package dev.svc.engine.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Platform naming, the checksum list and the version handshake of the loader. */
class NativeLibraryTest {

  @Test
  void platforms_are_normalized_like_the_jar_directories() {
    assertThat(NativeLibrary.platform("Linux", "amd64")).isEqualTo("linux-x86_64");
    assertThat(NativeLibrary.platform("Linux", "x86_64")).isEqualTo("linux-x86_64");
    assertThat(NativeLibrary.platform("Linux", "aarch64")).isEqualTo("linux-aarch64");
    assertThat(NativeLibrary.platform("Mac OS X", "aarch64")).isEqualTo("macos-aarch64");
    assertThat(NativeLibrary.platform("Windows 11", "amd64")).isEqualTo("windows-x86_64");
    assertThat(NativeLibrary.platform("Linux", "i386")).isEqualTo("linux-x86");
  }

  @Test
  void the_checksum_list_is_read_as_sha256sum_writes_it() throws IOException {
    String sha = "a".repeat(64);
    byte[] listing = (sha + "  libsvc_wasmtime_jni.so\n" + sha.toUpperCase() + " *_libwasmtime.so\n\n")
        .getBytes(StandardCharsets.UTF_8);
    assertThat(NativeLibrary.parseChecksums(listing))
        .isEqualTo(Map.of("libsvc_wasmtime_jni.so", sha, "_libwasmtime.so", sha));
  }

  @Test
  void a_checksum_list_naming_files_elsewhere_is_refused() {
    byte[] listing = ("b".repeat(64) + "  ../evil.so\n").getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> NativeLibrary.parseChecksums(listing)).isInstanceOf(IOException.class);
    assertThatThrownBy(() -> NativeLibrary.parseChecksums("nonsense\n".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(IOException.class);
  }

  @Test
  void the_loaded_bridge_matches_this_library_and_passed_its_self_test() {
    NativeLibrary.ensureLoaded();
    assertThat(Native.bridgeVersion()).isEqualTo(Native.BRIDGE_VERSION);
    assertThat(Native.loadProblem()).isNull();
  }
}

package dev.svc.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Loading a module: the checks that refuse what this library can't run, before any instance. */
class EngineModuleTest {

  @Test
  void bytesThatArentWebAssemblyAreRefused() {
    assertThatThrownBy(() -> EngineModule.fromBytes(new byte[] {1, 2, 3}))
        .isInstanceOf(EngineException.class)
        .hasMessageStartingWith("the bytes aren't a WebAssembly module wasmtime can compile: ");
  }

  @Test
  void aModuleImportingWhatTheLibraryDoesntProvideIsRefused() {
    assertThatThrownBy(() -> EngineModule.fromBytes(TestModules.wat("engine_foreign_import")))
        .isInstanceOf(EngineException.class)
        .extracting(e -> ((EngineException) e).message())
        .isEqualTo("the module imports env.clock, which this library doesn't provide");
  }

  @Test
  void aModuleImportingAWasiFunctionOutsideTheLinkedSetIsRefused() {
    assertThatThrownBy(() -> EngineModule.fromBytes(TestModules.wat("engine_foreign_wasi")))
        .isInstanceOfSatisfying(
            EngineException.class,
            e -> {
              assertThat(e.message())
                  .isEqualTo("the module imports wasi_snapshot_preview1.sock_accept, which this library doesn't provide");
              assertThat(e.help())
                  .isEqualTo("build the module from the same svc revision as this library (native/engine/build-wasm)");
            });
  }

  @Test
  void aModuleWithoutEngineCallIsRefused() {
    assertThatThrownBy(() -> EngineModule.fromBytes(TestModules.wat("engine_no_call")))
        .isInstanceOf(EngineException.class)
        .extracting(e -> ((EngineException) e).message())
        .isEqualTo("the module doesn't export engine_call; it isn't an engine.wasm reactor");
  }

  @Test
  void aMissingFileNamesThePath(@TempDir Path dir) {
    Path missing = dir.resolve("nothing.wasm");

    assertThatThrownBy(() -> EngineModule.fromFile(missing))
        .isInstanceOf(EngineException.class)
        .hasMessageStartingWith("reading " + missing + ": ");
  }

  @Test
  void aModuleFromAFileRunsLikeTheBundledOne(@TempDir Path dir) throws IOException {
    Path file = Files.write(dir.resolve("engine.wasm"), bundledBytes());

    try (EngineModule module = EngineModule.fromFile(file);
        Engine engine = Engine.create(module)) {
      assertThat(engine.version()).isEqualTo(versionOfBundled());
    }
  }

  @Test
  void aModuleFromAUrlRunsLikeTheBundledOneWhereverTheUrlPoints(@TempDir Path dir) throws IOException {
    Path file = Files.write(dir.resolve("engine.wasm"), bundledBytes());
    URL resource = EngineModule.class.getResource("engine.wasm");

    for (URL url : List.of(file.toUri().toURL(), resource)) {
      try (EngineModule module = EngineModule.fromUrl(url);
          Engine engine = Engine.create(module)) {
        assertThat(engine.version()).as("%s", url).isEqualTo(versionOfBundled());
      }
    }
  }

  @Test
  void aUrlThatCantBeReadNamesTheUrl(@TempDir Path dir) throws IOException {
    URL missing = dir.resolve("nothing.wasm").toUri().toURL();

    assertThatThrownBy(() -> EngineModule.fromUrl(missing))
        .isInstanceOfSatisfying(
            EngineException.class,
            e -> {
              assertThat(e.message()).startsWith("reading " + missing + ": ");
              assertThat(e.help()).isEqualTo("pass an engine.wasm built by native/engine/build-wasm");
            });
  }

  @Test
  void instancesKeepAClosedModuleAliveUntilTheyCloseToo() {
    EngineModule module = EngineModule.fromBytes(bundledBytes());
    Engine engine = Engine.create(module);
    module.close();
    module.close();

    assertThat(engine.version().platform()).isEqualTo("wasip1/wasm");
    assertThatThrownBy(() -> Engine.create(module))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the EngineModule is closed; load it again to start instances");
    engine.close();
  }

  @Test
  void nullArgumentsAreRefusedByName() {
    assertThatThrownBy(() -> EngineModule.fromBytes(null)).hasMessage("wasm");
    assertThatThrownBy(() -> EngineModule.fromFile(null)).hasMessage("path");
    assertThatThrownBy(() -> EngineModule.fromUrl(null)).hasMessage("url");
    assertThatThrownBy(() -> EngineModule.fromBytes(new byte[0], null)).hasMessage("config");
  }

  private static VersionInfo versionOfBundled() {
    try (Engine engine = Engine.create(TestModules.engine())) {
      return engine.version();
    }
  }

  private static byte[] bundledBytes() {
    try (InputStream in = EngineModule.class.getResourceAsStream("engine.wasm")) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

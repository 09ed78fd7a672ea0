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
class ModuleTest {

  @Test
  void bytesThatArentWebAssemblyAreRefused() {
    assertThatThrownBy(() -> Module.fromBytes(new byte[] {1, 2, 3}))
        .isInstanceOf(EngineException.class)
        .hasMessageStartingWith("the bytes aren't a WebAssembly module wasmtime can compile: ");
  }

  @Test
  void aModuleImportingWhatTheLibraryDoesntProvideIsRefused() {
    assertThatThrownBy(() -> Module.fromBytes(TestModules.wat("engine_foreign_import")))
        .isInstanceOf(EngineException.class)
        .extracting(e -> ((EngineException) e).message())
        .isEqualTo("the module imports env.clock, which this library doesn't provide");
  }

  @Test
  void aModuleImportingAWasiFunctionOutsideTheLinkedSetIsRefused() {
    assertThatThrownBy(() -> Module.fromBytes(TestModules.wat("engine_foreign_wasi")))
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
    assertThatThrownBy(() -> Module.fromBytes(TestModules.wat("engine_no_call")))
        .isInstanceOf(EngineException.class)
        .extracting(e -> ((EngineException) e).message())
        .isEqualTo("the module doesn't export engine_call; it isn't an engine.wasm reactor");
  }

  @Test
  void aMissingFileNamesThePath(@TempDir Path dir) {
    Path missing = dir.resolve("nothing.wasm");

    assertThatThrownBy(() -> Module.fromFile(missing))
        .isInstanceOf(EngineException.class)
        .hasMessageStartingWith("reading " + missing + ": ");
  }

  @Test
  void aModuleFromAFileRunsLikeTheBundledOne(@TempDir Path dir) throws IOException {
    Path file = Files.write(dir.resolve("engine.wasm"), bundledBytes());

    try (Module module = Module.fromFile(file);
        Engine engine = Engine.create(module)) {
      assertThat(engine.version()).isEqualTo(versionOfBundled());
    }
  }

  @Test
  void aModuleFromAUrlRunsLikeTheBundledOneWhereverTheUrlPoints(@TempDir Path dir) throws IOException {
    Path file = Files.write(dir.resolve("engine.wasm"), bundledBytes());
    URL resource = Module.class.getResource("engine.wasm");

    for (URL url : List.of(file.toUri().toURL(), resource)) {
      try (Module module = Module.fromUrl(url);
          Engine engine = Engine.create(module)) {
        assertThat(engine.version()).as("%s", url).isEqualTo(versionOfBundled());
      }
    }
  }

  @Test
  void aUrlThatCantBeReadNamesTheUrl(@TempDir Path dir) throws IOException {
    URL missing = dir.resolve("nothing.wasm").toUri().toURL();

    assertThatThrownBy(() -> Module.fromUrl(missing))
        .isInstanceOfSatisfying(
            EngineException.class,
            e -> {
              assertThat(e.message()).startsWith("reading " + missing + ": ");
              assertThat(e.help()).isEqualTo("pass an engine.wasm built by native/engine/build-wasm");
            });
  }

  @Test
  void instancesKeepAClosedModuleAliveUntilTheyCloseToo() {
    Module module = Module.fromBytes(bundledBytes());
    Engine engine = Engine.create(module);
    module.close();
    module.close();

    assertThat(engine.version().platform()).isEqualTo("wasip1/wasm");
    assertThatThrownBy(() -> Engine.create(module))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the Module is closed; load it again to start instances");
    engine.close();
  }

  @Test
  void nullArgumentsAreRefusedByName() {
    assertThatThrownBy(() -> Module.fromBytes(null)).hasMessage("wasm");
    assertThatThrownBy(() -> Module.fromFile(null)).hasMessage("path");
    assertThatThrownBy(() -> Module.fromUrl(null)).hasMessage("url");
    assertThatThrownBy(() -> Module.fromBytes(new byte[0], null)).hasMessage("config");
  }

  private static VersionInfo versionOfBundled() {
    try (Engine engine = Engine.create(TestModules.engine())) {
      return engine.version();
    }
  }

  private static byte[] bundledBytes() {
    try (InputStream in = Module.class.getResourceAsStream("engine.wasm")) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

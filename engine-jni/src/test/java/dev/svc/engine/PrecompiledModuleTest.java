package dev.svc.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.engine.internal.ModuleCache;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Native code saved by precompile loads without compiling, and only where it fits. */
class PrecompiledModuleTest {

  private static final String REFUSED = "the precompiled module can't be loaded: ";

  private final String cacheDir = System.getProperty(ModuleCache.DIR_PROPERTY);

  @AfterEach
  void restoreCacheDir() {
    if (cacheDir == null) {
      System.clearProperty(ModuleCache.DIR_PROPERTY);
    } else {
      System.setProperty(ModuleCache.DIR_PROPERTY, cacheDir);
    }
  }

  @Test
  void aPrecompiledModuleRunsLikeTheCompiledOne() {
    byte[] artifact = TestModules.engine().precompile();

    try (Module module = Module.fromPrecompiled(artifact, ModuleConfig.defaults());
        Engine engine = Engine.create(module)) {
      assertThat(module.isPrecompiled()).isTrue();
      assertThat(engine.version().platform()).isEqualTo("wasip1/wasm");
    }
  }

  @Test
  void aPrecompiledFileIsMappedAndRuns(@TempDir Path dir) throws IOException {
    Path file = Files.write(dir.resolve("engine.cwasm"), TestModules.engine().precompile());

    try (Module module = Module.fromPrecompiledFile(file, ModuleConfig.defaults());
        Engine engine = Engine.create(module)) {
      assertThat(engine.version().platform()).isEqualTo("wasip1/wasm");
    }
  }

  @Test
  void anArtifactOfAnotherConfigurationIsRefused() {
    byte[] withoutFuel = TestModules.engine().precompile();

    assertThatThrownBy(() -> Module.fromPrecompiled(withoutFuel, ModuleConfig.defaults().withFuel(true)))
        .isInstanceOf(EngineException.class)
        .hasMessageStartingWith(REFUSED)
        .hasMessageContaining("help: load only what Module.precompile() wrote");
  }

  @Test
  void bytesThatArentAnArtifactAreRefused() {
    assertThatThrownBy(() -> Module.fromPrecompiled(new byte[] {0x7f, 'E', 'L', 'F'}, ModuleConfig.defaults()))
        .isInstanceOf(EngineException.class)
        .hasMessageStartingWith(REFUSED);
  }

  @Test
  void theBundledModuleIsCompiledOnceThenLoadedFromTheCache(@TempDir Path dir) {
    System.setProperty(ModuleCache.DIR_PROPERTY, dir.toString());

    try (Module first = Module.bundled();
        Module second = Module.bundled()) {
      assertThat(first.isPrecompiled()).isFalse();
      assertThat(second.isPrecompiled()).isTrue();
    }
    assertThat(dir.resolve("modules")).isDirectory();
  }

  @Test
  void aDamagedCacheFileIsCompiledAgainAndReplaced(@TempDir Path dir) throws IOException {
    System.setProperty(ModuleCache.DIR_PROPERTY, dir.toString());
    Module.bundled().close();
    Path cached;
    try (var files = Files.list(dir.resolve("modules"))) {
      cached = files.filter(f -> f.toString().endsWith(".cwasm")).findFirst().orElseThrow();
    }
    Files.write(cached, new byte[] {1, 2, 3});

    try (Module recompiled = Module.bundled();
        Module reloaded = Module.bundled();
        Engine engine = Engine.create(reloaded)) {
      assertThat(recompiled.isPrecompiled()).isFalse();
      assertThat(reloaded.isPrecompiled()).isTrue();
      assertThat(engine.version().platform()).isEqualTo("wasip1/wasm");
    }
  }
}

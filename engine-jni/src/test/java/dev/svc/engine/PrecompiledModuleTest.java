package dev.svc.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.engine.internal.ModuleCache;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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

  private static final List<SourceFile> DOOR = List.of(BadgeDoor.KIND, BadgeDoor.MAIN);
  private static final Map<String, Object> ADA = Map.of("floor", 2, "user", "ada");

  /** What {@code module} decides for Ada at the badge door. */
  private static EvalResult decide(EngineModule module) {
    CompileOptions badge = CompileOptions.defaults().withStub("badge", Stub.returning(true));
    try (Engine engine = Engine.create(module);
        Policy policy = engine.compile(DOOR, badge)) {
      return policy.eval(ADA);
    }
  }

  @Test
  void aPrecompiledModuleDecidesLikeTheCompiledOne() {
    byte[] artifact = TestModules.engine().precompile();

    try (EngineModule module = EngineModule.fromPrecompiled(artifact, ModuleConfig.defaults())) {
      assertThat(module.isPrecompiled()).isTrue();
      assertThat(decide(module)).isEqualTo(decide(TestModules.engine()));
    }
  }

  @Test
  void anArtifactOfAnotherWasmtimeVersionIsRefused() {
    byte[] artifact = TestModules.engine().precompile();
    // The engine section opens with wasmtime's major version and the target, each length-prefixed.
    String text = new String(artifact, StandardCharsets.ISO_8859_1);
    int version = text.indexOf("\u000249\u0018x86_64-unknown-linux-gnu") + 1;
    assertThat(version).as("wasmtime's version inside the artifact").isPositive();
    artifact[version + 1] = '8';

    assertThatThrownBy(() -> EngineModule.fromPrecompiled(artifact, ModuleConfig.defaults()))
        .isInstanceOf(EngineException.class)
        .hasMessageStartingWith(REFUSED)
        .hasMessageContaining("48");
  }

  @Test
  void theBundledModuleWithFuelIsNotTheCachedOneWithout(@TempDir Path dir) {
    System.setProperty(ModuleCache.DIR_PROPERTY, dir.toString());
    ModuleConfig fuel = ModuleConfig.defaults().withFuel(true);
    EngineModule.bundled().close();

    try (EngineModule metered = EngineModule.bundled(fuel);
        EngineModule cached = EngineModule.bundled(fuel);
        Engine engine = Engine.create(cached);
        Policy policy = engine.compile(DOOR, CompileOptions.defaults().withStub("badge", Stub.returning(true)))) {
      assertThat(metered.isPrecompiled()).isFalse();
      assertThat(cached.isPrecompiled()).isTrue();
      assertThat(cached.config()).isEqualTo(fuel);
      assertThat(policy.evalWith(ADA, EvalOptions.defaults().withFuel(50_000_000)).decision()).contains("allow");
    }
  }

  @Test
  void aPrecompiledFileIsMappedAndRuns(@TempDir Path dir) throws IOException {
    Path file = Files.write(dir.resolve("engine.cwasm"), TestModules.engine().precompile());

    try (EngineModule module = EngineModule.fromPrecompiledFile(file, ModuleConfig.defaults());
        Engine engine = Engine.create(module)) {
      assertThat(engine.version().platform()).isEqualTo("wasip1/wasm");
    }
  }

  @Test
  void anArtifactOfAnotherConfigurationIsRefused() {
    byte[] withoutFuel = TestModules.engine().precompile();

    assertThatThrownBy(() -> EngineModule.fromPrecompiled(withoutFuel, ModuleConfig.defaults().withFuel(true)))
        .isInstanceOf(EngineException.class)
        .hasMessageStartingWith(REFUSED)
        .hasMessageContaining("help: load only what EngineModule.precompile() wrote");
  }

  @Test
  void bytesThatArentAnArtifactAreRefused() {
    assertThatThrownBy(() -> EngineModule.fromPrecompiled(new byte[] {0x7f, 'E', 'L', 'F'}, ModuleConfig.defaults()))
        .isInstanceOf(EngineException.class)
        .hasMessageStartingWith(REFUSED);
  }

  @Test
  void theBundledModuleIsCompiledOnceThenLoadedFromTheCache(@TempDir Path dir) {
    System.setProperty(ModuleCache.DIR_PROPERTY, dir.toString());

    try (EngineModule first = EngineModule.bundled();
        EngineModule second = EngineModule.bundled()) {
      assertThat(first.isPrecompiled()).isFalse();
      assertThat(second.isPrecompiled()).isTrue();
    }
    assertThat(dir.resolve("modules")).isDirectory();
  }

  @Test
  void aDamagedCacheFileIsCompiledAgainAndReplaced(@TempDir Path dir) throws IOException {
    System.setProperty(ModuleCache.DIR_PROPERTY, dir.toString());
    EngineModule.bundled().close();
    Path cached;
    try (var files = Files.list(dir.resolve("modules"))) {
      cached = files.filter(f -> f.toString().endsWith(".cwasm")).findFirst().orElseThrow();
    }
    Files.write(cached, new byte[] {1, 2, 3});

    try (EngineModule recompiled = EngineModule.bundled();
        EngineModule reloaded = EngineModule.bundled();
        Engine engine = Engine.create(reloaded)) {
      assertThat(recompiled.isPrecompiled()).isFalse();
      assertThat(reloaded.isPrecompiled()).isTrue();
      assertThat(engine.version().platform()).isEqualTo("wasip1/wasm");
    }
  }
}

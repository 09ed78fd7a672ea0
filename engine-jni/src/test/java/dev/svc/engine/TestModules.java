package dev.svc.engine;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The modules the tests run: the real bundled engine (compiled once) and the small WAT fixtures. */
public final class TestModules {

  private static final class Bundled {
    static final EngineModule MODULE = EngineModule.bundled();
  }

  private TestModules() {}

  /** The bundled engine.wasm, shared by every test in the JVM and never closed. */
  public static EngineModule engine() {
    return Bundled.MODULE;
  }

  /** The bytes of {@code src/test/wat/<name>.wat}, compiled by the test build. */
  static byte[] wat(String name) {
    return resource("/wat/" + name + ".wasm");
  }

  /** The engine built with the {@code panic-probe} op, which panics on purpose (scripts/test). */
  static byte[] panicProbeEngine() {
    return resource("/wasm/engine-panic-probe.wasm");
  }

  /**
   * A Sigil file of {@code src/test/resources/labels}: the Labels kind and policy with host
   * functions, which engine-ts's tests compile too, so both hosts are held to the same sources.
   */
  static SourceFile labels(String name) {
    return SourceFile.of(name, new String(resource("/labels/" + name), StandardCharsets.UTF_8));
  }

  private static byte[] resource(String path) {
    try (InputStream in = TestModules.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException(
            "no " + path + " on the test classpath; run scripts/test, which builds the test modules");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

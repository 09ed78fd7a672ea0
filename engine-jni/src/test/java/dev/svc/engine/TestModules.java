package dev.svc.engine;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** The modules the tests run: the real bundled engine (compiled once) and the small WAT fixtures. */
final class TestModules {

  private static final class Bundled {
    static final Module MODULE = Module.bundled();
  }

  private TestModules() {}

  /** The bundled engine.wasm, shared by every test in the JVM and never closed. */
  static Module engine() {
    return Bundled.MODULE;
  }

  /** The bytes of {@code src/test/wat/<name>.wat}, compiled by the test build. */
  static byte[] wat(String name) {
    try (InputStream in = TestModules.class.getResourceAsStream("/wat/" + name + ".wasm")) {
      if (in == null) {
        throw new IllegalStateException("no test module " + name + ".wasm on the test classpath");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

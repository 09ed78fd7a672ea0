package dev.svc.engine;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * A fresh instance of the real engine.wasm for every test, closed after it: for test classes whose
 * tests may stop or fill their instance, so no test sees another's.
 */
abstract class EngineFixture {

  /** The test's own instance. */
  protected Engine engine;

  @BeforeEach
  void startEngine() {
    engine = Engine.create(TestModules.engine());
  }

  @AfterEach
  void closeEngine() {
    engine.close();
  }
}

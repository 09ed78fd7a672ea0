package dev.svc.engine;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A fresh instance of the real engine.wasm for every test, closed after it: for test classes whose
 * tests may stop or fill their instance, so no test sees another's. Every test class built on it
 * runs twice, once per {@link Isolation}, so an instance in a host process is held to exactly what
 * one in the JVM does.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(Isolation.class)
abstract class EngineFixture {

  /** Where the test's instance runs. */
  @Parameter
  protected Isolation isolation;

  /** The test's own instance. */
  protected Engine engine;

  @BeforeEach
  void startEngine() {
    engine = Engine.create(TestModules.engine(), Limits.defaults(), isolation);
  }

  @AfterEach
  void closeEngine() {
    engine.close();
  }
}

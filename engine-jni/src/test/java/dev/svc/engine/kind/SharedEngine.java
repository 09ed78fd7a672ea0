package dev.svc.engine.kind;

import dev.svc.engine.Engine;
import dev.svc.engine.TestModules;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One engine instance of the real engine.wasm per test class, for tests that declare an {@link
 * Engine} parameter; JUnit closes it after the class's last test. Compiling and checking costs a
 * fraction of what starting an instance does, so the tests of a class share one.
 */
final class SharedEngine implements ParameterResolver {

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(SharedEngine.class);

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == Engine.class;
  }

  @Override
  public Engine resolveParameter(ParameterContext parameter, ExtensionContext context) {
    ExtensionContext testClass = context;
    while (testClass.getTestMethod().isPresent()) {
      testClass = testClass.getParent().orElseThrow();
    }
    return testClass
        .getStore(NAMESPACE)
        .computeIfAbsent(Engine.class, type -> Engine.create(TestModules.engine()), Engine.class);
  }
}

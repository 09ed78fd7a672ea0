package dev.svc.supervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/** The pool runs without Micrometer on the class path: only its Micrometer listener needs it. */
class NoMicrometerTest {

  /** Runs a pool in the class loader it was loaded by. */
  public static final class PoolProbe implements Callable<String> {
    @Override
    public String call() {
      try (Pool pool = Pool.create(Fixtures.engine(), PoolOptions.builder().size(1).build())) {
        Fixtures.installRefund(pool, "refund.desk");
        return pool.evaluate("refund.desk", Fixtures.refund(40, "web")).decision().orElseThrow();
      }
    }
  }

  /** Makes the Micrometer listener in the class loader it was loaded by. */
  public static final class ListenerProbe implements Callable<String> {
    @Override
    public String call() {
      return new dev.svc.supervisor.micrometer.MicrometerPoolListener(
              new io.micrometer.core.instrument.simple.SimpleMeterRegistry())
          .toString();
    }
  }

  /**
   * Loads the supervisor's classes (main and test) itself, and everything else from the test's class
   * loader, except Micrometer: that it can't find.
   */
  private static final class WithoutMicrometer extends URLClassLoader {

    WithoutMicrometer() {
      super(
          new URL[] {location(Pool.class), location(NoMicrometerTest.class)},
          NoMicrometerTest.class.getClassLoader());
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (name.startsWith("io.micrometer.")) {
        throw new ClassNotFoundException(name + " is hidden from this test");
      }
      if (!name.startsWith("dev.svc.supervisor.")) {
        return super.loadClass(name, resolve);
      }
      synchronized (getClassLoadingLock(name)) {
        Class<?> loaded = findLoadedClass(name);
        return loaded != null ? loaded : findClass(name);
      }
    }

    private static URL location(Class<?> type) {
      return type.getProtectionDomain().getCodeSource().getLocation();
    }
  }

  @Test
  void aPoolWorksWithoutMicrometer() throws Exception {
    try (WithoutMicrometer loader = new WithoutMicrometer()) {
      assertThat(probe(loader, PoolProbe.class).call()).isEqualTo("approve");
    }
  }

  @Test
  void theLoaderReallyHidesMicrometer() throws Exception {
    try (WithoutMicrometer loader = new WithoutMicrometer()) {
      assertThatThrownBy(() -> probe(loader, ListenerProbe.class).call())
          .isInstanceOf(NoClassDefFoundError.class)
          .hasMessageContaining("io/micrometer");
    }
  }

  @SuppressWarnings("unchecked")
  private static Callable<String> probe(ClassLoader loader, Class<?> probe) throws Exception {
    Class<?> loaded = Class.forName(probe.getName(), true, loader);
    assertThat(loaded.getClassLoader()).isSameAs(loader);
    return (Callable<String>) loaded.getDeclaredConstructor().newInstance();
  }
}

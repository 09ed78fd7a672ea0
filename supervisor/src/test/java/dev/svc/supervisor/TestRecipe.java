package dev.svc.supervisor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.engine.CompileOptions;
import dev.svc.engine.Engine;
import dev.svc.engine.EvalOptions;
import dev.svc.engine.Policy;
import dev.svc.engine.SourceFile;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

/**
 * A recipe compiling a refund policy that tells the test where it ran, and can be told to wait at a
 * gate (to hold a rebuild where the test wants it) or to stop every instance it runs in.
 */
final class TestRecipe implements Recipe {

  private final List<SourceFile> files;
  private final List<String> threads = new CopyOnWriteArrayList<>();
  private final List<Engine> engines = new CopyOnWriteArrayList<>();
  private volatile boolean holding;
  private volatile boolean killing;
  private final CountDownLatch held = new CountDownLatch(1);
  private final CountDownLatch gate = new CountDownLatch(1);

  TestRecipe(List<SourceFile> files) {
    this.files = files;
  }

  /** The recipe of {@link Fixtures#refund(String, int)}. */
  static TestRecipe refund(String name, int limit) {
    return new TestRecipe(Fixtures.refund(name, limit));
  }

  @Override
  public Policy build(Engine engine) {
    threads.add(Thread.currentThread().getName());
    engines.add(engine);
    if (holding) {
      held.countDown();
      Fixtures.await(gate);
    }
    Policy policy = engine.compile(files, CompileOptions.defaults());
    if (killing) {
      policy.evalWith(Fixtures.refund(40, "web"), EvalOptions.defaults().withFuel(100));
    }
    return policy;
  }

  /** From now on, each run waits at the gate until {@link #open()}. */
  void holdAtGate() {
    holding = true;
  }

  /** Waits until a run reached the gate. */
  void awaitHeld() {
    assertThat(Fixtures.await(held)).as("a run reached the gate").isTrue();
  }

  /** Lets every run waiting at the gate, and every later one, through. */
  void open() {
    holding = false;
    gate.countDown();
  }

  /** From now on, each run stops its instance (which needs a module with fuel metering). */
  void killEveryInstance() {
    killing = true;
  }

  /** Names of the threads each run happened on, in order. */
  List<String> threads() {
    return List.copyOf(threads);
  }

  /** The instances each run happened in, in order. */
  List<Engine> engines() {
    return List.copyOf(engines);
  }

}

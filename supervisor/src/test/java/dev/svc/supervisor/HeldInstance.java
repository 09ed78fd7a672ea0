package dev.svc.supervisor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.engine.Policy;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/** One instance of a pool, lent to another thread inside {@link Pool#withPolicy} until released. */
final class HeldInstance {

  private final CountDownLatch release = new CountDownLatch(1);
  private final CompletableFuture<Void> holder;

  private HeldInstance(Pool pool, String name, Consumer<Policy> last) {
    CountDownLatch lent = new CountDownLatch(1);
    holder =
        CompletableFuture.runAsync(
            () -> pool.withPolicy(name, policy -> {
              lent.countDown();
              Fixtures.await(release);
              last.accept(policy);
              return null;
            }));
    assertThat(Fixtures.await(lent)).as("an instance was lent").isTrue();
  }

  /** Leases an instance with the policy {@code name} and holds it; returns once it is held. */
  static HeldInstance hold(Pool pool, String name) {
    return new HeldInstance(pool, name, policy -> {});
  }

  /**
   * Like {@link #hold}, and when released, runs {@code last} with the policy before giving the
   * instance back.
   */
  static HeldInstance hold(Pool pool, String name, Consumer<Policy> last) {
    return new HeldInstance(pool, name, last);
  }

  /** Gives the instance back, and waits until the holder's call returned. */
  void release() throws Exception {
    release.countDown();
    holder.exceptionally(e -> null).get(30, TimeUnit.SECONDS);
  }

  /** What the holder's call ended with, once released. */
  CompletableFuture<Void> call() {
    return holder;
  }
}

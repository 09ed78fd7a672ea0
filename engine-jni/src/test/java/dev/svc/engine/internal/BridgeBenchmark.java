package dev.svc.engine.internal;

import static dev.svc.engine.internal.BridgeFixture.NO_DEADLINE;
import static dev.svc.engine.internal.BridgeFixture.UNLIMITED;

import java.util.Arrays;
import java.util.Locale;

/**
 * A plain-main timing loop for the bridge's hot paths (not a test; the JMH suite supersedes it).
 * Each metric runs time-based: a warm-up, then several measured rounds, printing ns/op per round.
 *
 * <p>Run with the natives on the path, e.g.
 * {@code java -Dsvc.native.path=native/jni/build -cp <test classes> dev.svc.engine.internal.BridgeBenchmark}.
 */
public final class BridgeBenchmark {

  private static final long WARMUP_NANOS = 2_000_000_000L;
  private static final long ROUND_NANOS = 1_000_000_000L;
  private static final int ROUNDS = 3;

  private BridgeBenchmark() {}

  interface Op {
    void run();
  }

  public static void main(String[] args) {
    byte[] echo = new byte[200];
    Arrays.fill(echo, (byte) 'x');
    echo[0] = 'E';
    byte[] host = echo.clone();
    host[0] = 'H';
    byte[] reply = new byte[199];

    try (BridgeFixture.Loaded plain = new BridgeFixture.Loaded("bridge_abi", true, false, 0, 0);
        BridgeFixture.Loaded fuel = new BridgeFixture.Loaded("bridge_abi", true, true, 0, 0);
        BridgeFixture.Loaded pooled = new BridgeFixture.Loaded("bridge_abi", true, false, 0, 64)) {
      long instance = plain.instance(request -> reply);
      measure("echo 200 B round trip (Native.call)", () -> Native.call(instance, echo, 1_000_000, UNLIMITED));
      measure("host_call 200 B round trip", () -> Native.call(instance, host, 1_000_000, UNLIMITED));
      measure("alloc + free (two guest calls)", () -> {
        int p = Native.alloc(instance, 16, NO_DEADLINE, UNLIMITED);
        Native.free(instance, p, 16, NO_DEADLINE, UNLIMITED);
      });
      Native.instanceFree(instance);

      long metered = fuel.instance(request -> reply);
      measure("echo 200 B round trip, fuel metered", () -> Native.call(metered, echo, 1_000_000, 10_000_000));
      Native.instanceFree(metered);

      measure("instantiate + _initialize + free", () -> Native.instanceFree(plain.instance(null)));
      measure("instantiate + _initialize + free, pooling", () -> Native.instanceFree(pooled.instance(null)));
    }
  }

  private static void measure(String name, Op op) {
    long end = System.nanoTime() + WARMUP_NANOS;
    while (System.nanoTime() < end) {
      for (int i = 0; i < 1000; i++) {
        op.run();
      }
    }
    StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-44s", name));
    for (int round = 0; round < ROUNDS; round++) {
      long ops = 0;
      long start = System.nanoTime();
      long stop = start + ROUND_NANOS;
      long now;
      do {
        for (int i = 0; i < 1000; i++) {
          op.run();
        }
        ops += 1000;
        now = System.nanoTime();
      } while (now < stop);
      line.append(String.format(Locale.ROOT, " %9.1f", (now - start) / (double) ops));
    }
    System.out.println(line.append("  ns/op"));
  }
}

package dev.svc.supervisor;

import dev.svc.engine.CompileOptions;
import dev.svc.engine.EngineModule;
import dev.svc.engine.ModuleConfig;
import dev.svc.engine.Policy;
import dev.svc.engine.SourceFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/** The modules, policies and inputs the pool tests share (public for the tests of subpackages). */
public final class Fixtures {

  /** A refund desk: deny fraud, approve small web refunds, deny everything else by default. */
  static final SourceFile KIND =
      SourceFile.of(
          "kind.sigil",
          """
          kind Refund version 1

          input amount: int
          input channel: string
          input notes: list<string>

          decision deny {
            reason: fraud | no_rule
          }

          decision approve {
            reason: goodwill | small
          }

          collect one
          precedence deny > approve

          default deny(reason: no_rule)
          """);

  private static final class Modules {
    static final EngineModule ENGINE = EngineModule.bundled();
    static final EngineModule FUELED = EngineModule.bundled(ModuleConfig.defaults().withFuel(true));
  }

  private Fixtures() {}

  /** The bundled engine.wasm, shared by every test in the JVM and never closed. */
  public static EngineModule engine() {
    return Modules.ENGINE;
  }

  /** The bundled engine.wasm with fuel metering, shared and never closed. */
  public static EngineModule fueled() {
    return Modules.FUELED;
  }

  /**
   * The refund policy {@code name} (such as {@code refund.desk}) approving web refunds below
   * {@code limit}.
   */
  static List<SourceFile> refund(String name, int limit) {
    String policy =
        "policy " + name + ": Refund@1\n\n"
            + "when amount > 10000 {\n  deny(reason: fraud)\n}\n\n"
            + "when amount < " + limit + " and channel == \"web\" {\n  approve(reason: small)\n}\n";
    return List.of(KIND, SourceFile.of(name.replace('.', '/') + ".sigil", policy));
  }

  /** {@link #refund(String, int)} with a limit of 100. */
  public static List<SourceFile> refund(String name) {
    return refund(name, 100);
  }

  /** Compiles {@link #refund(String)} into {@code pool} under {@code name}. */
  public static void installRefund(Pool pool, String name) {
    pool.compile(name, refund(name), CompileOptions.defaults());
  }

  /** A refund request. */
  public static Map<String, Object> refund(int amount, String channel) {
    return Map.of("amount", amount, "channel", channel);
  }

  /** The decision of {@code policy} for a web refund of {@code amount}. */
  static String decideWeb(Policy policy, int amount) {
    return policy.eval(refund(amount, "web")).decision().orElseThrow();
  }

  /** What {@link #refund(String, int)} decides for a request. */
  static String decision(int amount, String channel, int limit) {
    return amount < limit && amount <= 10000 && channel.equals("web") ? "approve" : "deny";
  }

  /**
   * A request with 400 000 notes, about 8 MB of JSON: decoding it takes the engine far longer than a
   * millisecond, with no cooperative deadline check on the way, and more than 16 MiB of memory (the
   * request's bytes and the list's values, even read straight from the JSON without a tree).
   */
  static Map<String, Object> huge() {
    List<String> notes = new ArrayList<>(400_000);
    for (int i = 0; i < 400_000; i++) {
      notes.add("note-number-" + i);
    }
    return Map.of("amount", 40, "channel", "web", "notes", notes);
  }

  /**
   * Runs {@code fn} with the policy {@code name} of every instance of {@code pool}, all at once:
   * each level holds its instance while the next leases another. Every instance must be in service.
   */
  static <T> List<T> onEveryInstance(Pool pool, String name, Function<Policy, T> fn) {
    List<T> results = new ArrayList<>();
    nest(pool, name, fn, pool.stats().size(), results);
    return results;
  }

  private static <T> void nest(Pool pool, String name, Function<Policy, T> fn, int depth, List<T> results) {
    if (depth == 0) {
      return;
    }
    pool.withPolicy(
        name,
        policy -> {
          results.add(fn.apply(policy));
          nest(pool, name, fn, depth - 1, results);
          return null;
        });
  }

  /**
   * Waits for {@code latch}, at most 30 s so a broken test fails instead of hanging; an interrupt
   * ends the wait too.
   *
   * @return whether the latch opened
   */
  static boolean await(CountDownLatch latch) {
    try {
      return latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}

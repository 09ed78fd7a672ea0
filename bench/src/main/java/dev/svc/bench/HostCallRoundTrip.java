package dev.svc.bench;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.svc.engine.CompileOptions;
import dev.svc.engine.EvalResult;
import dev.svc.engine.HostFunction;
import dev.svc.engine.SourceFile;
import java.util.List;
import java.util.Locale;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * The cost of one host function call from inside {@code policy.eval}: the same one-rule evaluation
 * with {@code calls=0} (the rule compares the input itself) and {@code calls=1} (it asks a Java host
 * function first), raw and typed. The difference of the medians is the host call's round trip.
 * Goal: under 2 µs.
 */
public class HostCallRoundTrip extends OnePolicy {

  private static final String KIND =
      """
      kind Name version 1

      input name: string

      fn lower(string) -> string

      decision allow {
        reason: known
      }

      decision deny {
        reason: no_rule
      }

      collect one
      precedence deny > allow

      default deny(reason: no_rule)
      """;

  /** How the rule reads the name. */
  public enum Call {
    /** No host call: the rule compares the input. */
    NONE("name == \"ana\""),
    /** A raw {@link HostFunction} over JSON nodes. */
    RAW("lower(name) == \"ana\""),
    /** A typed {@link HostFunction#of(Class, HostFunction.Fn1)}. */
    TYPED("lower(name) == \"ana\"");

    final String condition;

    Call(String condition) {
      this.condition = condition;
    }
  }

  @Param
  public Call call;

  @Setup(Level.Trial)
  public void start() throws Exception {
    String source = "policy names.check: Name@1\n\nwhen " + call.condition + " {\n  allow(reason: known)\n}\n";
    HostFunction lower =
        call == Call.TYPED
            ? HostFunction.of(String.class, s -> s.toLowerCase(Locale.ROOT))
            : args -> JsonNodeFactory.instance.textNode(args.get(0).asText().toLowerCase(Locale.ROOT));
    List<SourceFile> files = List.of(SourceFile.of("kind.sigil", KIND), SourceFile.of("names.sigil", source));
    String name = call == Call.NONE ? "{\"name\": \"ana\"}" : "{\"name\": \"ANA\"}";
    EvalResult result = start(files, CompileOptions.defaults().withFunction("lower", lower), name);
    if (!result.decision().orElse("").equals("allow")) {
      throw new IllegalStateException("the benchmark policy doesn't allow: " + result);
    }
  }
}

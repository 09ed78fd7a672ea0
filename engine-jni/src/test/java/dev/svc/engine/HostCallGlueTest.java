package dev.svc.engine;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.svc.engine.internal.AbiCodec;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The glue between the library and a module (bindings.md §2, §3), with a fake module in place of the
 * engine ({@code src/test/wat/bridge_abi.wat}): its {@code H} request passes the rest of the request
 * to {@code engine.host_call} and answers {@code !} and the host's answer, so a test sees exactly
 * what the module would get back from a host function.
 *
 * <p>Runs once per {@link Isolation}: an instance in a host process must behave exactly alike.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(Isolation.class)
class HostCallGlueTest {

  /** Where the test's instances run. */
  @Parameter
  Isolation isolation;

  private EngineModule module;
  private Engine engine;

  @BeforeEach
  void start() {
    module = EngineModule.fromBytes(TestModules.wat("bridge_abi"));
    engine = Engine.create(module, Limits.defaults(), isolation);
  }

  @AfterEach
  void stop() {
    engine.close();
    module.close();
  }

  /** What the module gets back for the host call {@code call} while {@code functions} are installed. */
  private String hostCall(String call, Map<String, HostFunction> functions) {
    byte[] answer = engine.instance().evaluate(("H" + call).getBytes(UTF_8), EvalOptions.defaults(), functions);
    String text = new String(answer, UTF_8);
    assertThat(text).startsWith("!");
    return text.substring(1);
  }

  @Test
  void aResultIsAnsweredAsResultAndNonAsciiTextSurvivesBothWays() throws Exception {
    List<List<JsonNode>> calls = new ArrayList<>();
    HostFunction upper =
        args -> {
          calls.add(args);
          return TextNode.valueOf(args.get(0).textValue().toUpperCase(Locale.ROOT));
        };

    String answer = hostCall("{\"function\":\"upper\",\"args\":[\"grüß ✓ 😀\"]}", Map.of("upper", upper));

    // Jackson may escape a character beyond U+FFFF as a surrogate pair, which JSON reads back whole.
    assertThat(AbiCodec.MAPPER.readTree(answer))
        .isEqualTo(AbiCodec.MAPPER.createObjectNode().put("result", "GRÜSS ✓ 😀"));
    assertThat(calls).singleElement().isEqualTo(List.of(TextNode.valueOf("grüß ✓ 😀")));
  }

  @Test
  void aFunctionNobodyRegisteredIsAnsweredWithAnError() {
    assertThat(hostCall("{\"function\":\"nope\",\"args\":[]}", Map.of("other", args -> null)))
        .isEqualTo("{\"error\":\"no host function nope is registered\"}");
  }

  @Test
  void noFunctionAnswersOutsideAnEvaluation() {
    String answer = engine.call("H{\"function\":\"upper\",\"args\":[]}");

    assertThat(answer).isEqualTo("!{\"error\":\"no host function upper is registered\"}");
  }

  @Test
  void aVoidResultIsSentAsNull() {
    HostFunction raw = args -> null;
    HostFunction typed = HostFunction.of(() -> null);

    assertThat(hostCall("{\"function\":\"f\",\"args\":[]}", Map.of("f", raw))).isEqualTo("{\"result\":null}");
    assertThat(hostCall("{\"function\":\"f\",\"args\":[]}", Map.of("f", typed))).isEqualTo("{\"result\":null}");
  }

  @Test
  void missingArgsAreNoArgs() {
    List<List<JsonNode>> calls = new ArrayList<>();

    hostCall("{\"function\":\"f\"}", Map.of("f", args -> { calls.add(args); return null; }));

    assertThat(calls).containsExactly(List.of());
  }

  @Test
  void argsReachTheFunctionAsTheTreesJacksonReadsWhateverTheirShape() throws Exception {
    List<List<JsonNode>> calls = new ArrayList<>();
    String args = "[\"ANA\",-7,true,null,{\"name\":\"ana\",\"tags\":[\"a\\\"b\",0.5]},\"\\u003c\"]";

    hostCall("{\"function\":\"f\",\"args\":" + args + "}", Map.of("f", a -> { calls.add(a); return null; }));

    List<JsonNode> expected = new ArrayList<>();
    AbiCodec.MAPPER.readTree(args).forEach(expected::add);
    assertThat(calls).containsExactly(expected);
  }

  @Test
  void aThrownExceptionIsAnsweredWithItsMessageOrElseItsClass() {
    HostFunction fails = args -> { throw new IllegalStateException("label too long"); };
    HostFunction silent = args -> { throw new AssertionError(); };

    assertThat(hostCall("{\"function\":\"f\",\"args\":[]}", Map.of("f", fails)))
        .isEqualTo("{\"error\":\"label too long\"}");
    assertThat(hostCall("{\"function\":\"f\",\"args\":[]}", Map.of("f", silent)))
        .isEqualTo("{\"error\":\"java.lang.AssertionError\"}");
    assertThat(engine.stopped()).isEmpty();
  }

  @Test
  void aHostCallThatIsntJsonIsAnsweredWithTheReason() {
    assertThat(hostCall("{\"function\":", Map.of()))
        .startsWith("{\"error\":\"the module's host call isn't readable: ");
  }

  @Test
  void typedAdaptersSayHowManyArgumentsTheyTake() {
    HostFunction none = HostFunction.of(() -> "x");
    HostFunction one = HostFunction.of(String.class, a -> a);
    HostFunction two = HostFunction.of(String.class, String.class, (a, b) -> a + b);

    assertThat(hostCall("{\"function\":\"f\",\"args\":[1]}", Map.of("f", none)))
        .isEqualTo("{\"error\":\"expected 0 arguments, got 1\"}");
    assertThat(hostCall("{\"function\":\"f\",\"args\":[]}", Map.of("f", one)))
        .isEqualTo("{\"error\":\"expected 1 argument, got 0\"}");
    assertThat(hostCall("{\"function\":\"f\",\"args\":[\"a\"]}", Map.of("f", two)))
        .isEqualTo("{\"error\":\"expected 2 arguments, got 1\"}");
  }

  /** Jackson refuses a bean without properties. */
  static final class Opaque {}

  @Test
  void typedAdaptersNameTheArgumentThatDoesntDecodeAndAResultThatDoesntEncode() {
    HostFunction ints = HostFunction.of(Integer.class, Integer.class, (a, b) -> a + b);
    HostFunction opaque = HostFunction.of(() -> new Opaque());

    assertThat(hostCall("{\"function\":\"f\",\"args\":[1,\"two\"]}", Map.of("f", ints)))
        .startsWith("{\"error\":\"argument 2: ");
    assertThat(hostCall("{\"function\":\"f\",\"args\":[]}", Map.of("f", opaque)))
        .startsWith("{\"error\":\"the result can't be encoded as JSON: ");
  }

  @Test
  void aResultHoldingANanOrInfiniteNumberIsAnErrorNotAString() {
    HostFunction raw = args -> AbiCodec.MAPPER.createObjectNode().put("ratio", Double.NaN);
    HostFunction typed = HostFunction.of(() -> Double.POSITIVE_INFINITY);

    assertThat(hostCall("{\"function\":\"f\",\"args\":[]}", Map.of("f", raw)))
        .isEqualTo("{\"error\":\"the result can't be encoded as JSON: NaN isn't a JSON number\"}");
    assertThat(hostCall("{\"function\":\"f\",\"args\":[]}", Map.of("f", typed)))
        .isEqualTo("{\"error\":\"the result can't be encoded as JSON: Infinity isn't a JSON number\"}");
  }

  @Test
  void argsThatArentAnArrayMakeTheCallUnreadable() {
    List<List<JsonNode>> calls = new ArrayList<>();

    String answer = hostCall("{\"function\":\"f\",\"args\":{\"a\":1}}", Map.of("f", args -> { calls.add(args); return null; }));

    assertThat(answer).isEqualTo("{\"error\":\"the module's host call isn't readable: args is object, not an array\"}");
    assertThat(calls).isEmpty();
  }

  @Test
  void aPlainCallAllocatesAndFreesItsResponseAndKeepsOnlyTheRequestBufferPinned() {
    int[] before = counters();
    int[] after = counters();

    // Read while the C request is in the instance's kept request buffer and its answer isn't yet.
    assertThat(after[0] - before[0]).as("allocs per call").isEqualTo(1);
    assertThat(after[1] - before[1]).as("frees per call").isEqualTo(1);
    assertThat(after[0] - after[1]).as("live buffers: the kept request buffer").isEqualTo(1);
  }

  private int[] counters() {
    byte[] answer = engine.instance().evaluate("C".getBytes(UTF_8), EvalOptions.defaults(), Map.of());
    ByteBuffer counts = ByteBuffer.wrap(answer).order(ByteOrder.LITTLE_ENDIAN);
    return new int[] {counts.getInt(), counts.getInt()};
  }

  @Test
  void aRequestTheModuleCantAllocateIsRefusedAndTheInstanceWorksOn() {
    try (Engine capped = Engine.create(module, Limits.defaults().withMaxMemory(2 * 64 * 1024), isolation)) {
      String big = "E" + "x".repeat(200_000);

      assertThatThrownBy(() -> capped.call(big))
          .isInstanceOfSatisfying(
              EngineException.class,
              e -> {
                assertThat(e.message()).isEqualTo("the module couldn't allocate memory for a request");
                assertThat(e.help()).isEqualTo("the instance is out of memory; build a new one, or raise Limits.maxMemory");
              });
      assertThat(capped.stopped()).isEmpty();
      assertThat(capped.call("Eok")).isEqualTo("Eok");
    }
  }

  @Test
  void aResponseOutsideTheModulesMemoryStopsTheInstance() {
    assertThatThrownBy(() -> engine.call("B"))
        .isInstanceOfSatisfying(
            StoppedException.class,
            e -> assertThat(e.message())
                .isEqualTo("the Sigil module stopped: the module returned a response outside its memory"));
    assertThat(engine.stopped()).isPresent();
  }
}

package dev.svc.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.svc.engine.internal.CallingThread;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The engine instance over the real engine.wasm, through the real bridge and wasmtime. */
class EngineTest extends EngineFixture {

  private static final String DECODE_HELP =
      "\"help\":\"send one JSON object of an op and its fields, such as {\\\"op\\\": \\\"version\\\"}\"";
  private static final String NOT_A_REQUEST =
      "\"message\":\"the request isn't a JSON object of the fields an op takes: ";

  private static final long PAGE = 64 * 1024;

  @Test
  void versionReportsTheModulesOwnBuild() {
    VersionInfo version = engine.version();

    assertThat(version.platform()).isEqualTo("wasip1/wasm");
    assertThat(version.goVersion()).startsWith("rustc 1.");
    assertThat(version.version()).startsWith("v");
    assertThat(version.commit()).isNotEmpty();
    assertThat(version.commitTime()).isNotEmpty();
  }

  @Test
  void versionResponseHasTheEnvelopeThenSixFieldsInOrder() {
    String response = engine.call("{\"op\":\"version\"}");

    assertThat(response)
        .matches(
            "\\{\"ok\":true,\"version\":\"[^\"]+\",\"commit\":\"[^\"]+\",\"commitTime\":\"[^\"]+\","
                + "\"dirty\":(true|false),\"goVersion\":\"rustc [^\"]+\",\"platform\":\"wasip1/wasm\"}");
  }

  @ParameterizedTest(name = "id {0} is echoed as {0}")
  @ValueSource(strings = {"7", "1.50", "1e3", "-0", "18446744073709551616"})
  void numericIdsAreEchoedWithTheSameDigits(String id) {
    assertThat(engine.call("{\"id\":" + id + ",\"op\":\"version\"}"))
        .startsWith("{\"id\":" + id + ",\"ok\":true,\"version\":");
  }

  @ParameterizedTest(name = "id {0} is not echoed")
  @ValueSource(strings = {"\"7\"", "null"})
  void idsThatAreNotNumbersAreNotEchoed(String id) {
    assertThat(engine.call("{\"id\":" + id + ",\"op\":\"version\"}")).startsWith("{\"ok\":true,");
  }

  // As in the reference, an id of a type that can't hold a number makes the request malformed.
  @ParameterizedTest(name = "id {0} fails the request without an echo")
  @ValueSource(strings = {"true", "[7]", "{\"n\":7}"})
  void idsOfOtherTypesFailTheRequestWithoutAnEcho(String id) {
    assertThat(engine.call("{\"id\":" + id + ",\"op\":\"version\"}"))
        .startsWith("{\"ok\":false,\"error\":{" + NOT_A_REQUEST + "json: cannot unmarshal ");
  }

  @Test
  void anUnknownFieldFailsTheRequestAndStillEchoesTheId() {
    assertThat(engine.call("{\"id\":3,\"op\":\"version\",\"timeoutMs\":5}"))
        .isEqualTo(
            "{\"id\":3,\"ok\":false,\"error\":{" + NOT_A_REQUEST
                + "json: unknown field \\\"timeoutMs\\\"\"," + DECODE_HELP + "}}");
  }

  @Test
  void aFieldOfTheWrongTypeFailsTheRequestAndStillEchoesTheId() {
    assertThat(engine.call("{\"id\":4,\"op\":\"release\",\"handle\":\"one\"}"))
        .startsWith("{\"id\":4,\"ok\":false,\"error\":{" + NOT_A_REQUEST)
        .endsWith(DECODE_HELP + "}}");
  }

  @Test
  void anUnknownOpFailsWithTheListOfOps() {
    assertThat(engine.call("{\"id\":5,\"op\":\"frobnicate\"}"))
        .isEqualTo(
            "{\"id\":5,\"ok\":false,\"error\":{\"message\":\"unknown op \\\"frobnicate\\\"\","
                + "\"help\":\"the ops are version, check, compile, eval, explain, format, test and release\"}}");
  }

  @Test
  void aMissingOpIsTheEmptyOp() {
    assertThat(engine.call("{}")).startsWith("{\"ok\":false,\"error\":{\"message\":\"unknown op \\\"\\\"\"");
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          ''                  | EOF
          oops                | invalid character 'o' looking for beginning of value
          not json            | invalid character 'o' in literal null (expecting 'u')
          """)
  void textThatIsNotJsonFailsWithTheDecodersReason(String request, String reason) {
    assertThat(engine.call(request))
        .isEqualTo("{\"ok\":false,\"error\":{" + NOT_A_REQUEST + reason + "\"," + DECODE_HELP + "}}");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"{\"op\":", "[{\"op\":\"version\"}]", "\"version\"", "42", "{\"op\":\"version\",}"})
  void malformedAndNonObjectJsonFailsWithoutAnId(String request) {
    assertThat(engine.call(request)).startsWith("{\"ok\":false,\"error\":{" + NOT_A_REQUEST);
    assertThat(engine.version().platform()).isEqualTo("wasip1/wasm");
  }

  // The reference reads one JSON value and ignores what follows it; so does the module.
  @Test
  void bytesAfterTheRequestObjectAreIgnored() {
    assertThat(engine.call("{\"id\":9,\"op\":\"version\"} trailing")).startsWith("{\"id\":9,\"ok\":true,");
  }

  @ParameterizedTest
  @EnumSource(CallingThread.class)
  void deeplyNestedJsonIsAMalformedRequestNotACrash(CallingThread thread) throws Exception {
    thread.run(() -> {
      String deep = "[".repeat(100_000) + "]".repeat(100_000);

      assertThat(engine.call("{\"op\":\"version\",\"input\":" + deep + "}"))
          .startsWith("{\"ok\":false,\"error\":{" + NOT_A_REQUEST);
      assertThat(engine.stopped()).isEmpty();
      assertThat(engine.version().platform()).isEqualTo("wasip1/wasm");
    });
  }

  @Test
  void theVersionRecordDecodesFromANumericIdResponseToo() {
    assertThat(engine.call("{\"id\":1,\"op\":\"version\"}")).contains("\"platform\":\"wasip1/wasm\"");
  }

  @Test
  void theBundledEngineOwnsItsModule() {
    try (Engine bundled = Engine.bundled()) {
      assertThat(bundled.version()).isEqualTo(engine.version());
    }
  }

  @Test
  void closingTwiceIsHarmlessAndUseAfterCloseSaysSo() {
    Engine other = Engine.create(TestModules.engine());
    other.close();
    other.close();

    assertThatThrownBy(other::version)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("the Engine is closed");
  }

  @Test
  void memorySizeIsWholePagesAndGrowsWithABigRequest() {
    long before = engine.memorySize();
    String big = "policy a.b: K@1\n" + "\nlet x = [1, 2, 3]\n".repeat(200_000);

    assertThat(engine.format(big)).isEqualTo(big);
    long after = engine.memorySize();

    assertThat(before).isPositive();
    assertThat(before % PAGE).as("whole pages").isZero();
    assertThat(after).isGreaterThan(before);
    assertThat(after % PAGE).as("whole pages").isZero();
    assertThat(engine.memorySize()).as("memory is never given back").isEqualTo(after);
  }

  @Test
  void memorySizeOfAClosedEngineThrowsAsEveryOtherCallDoes() {
    Engine other = Engine.create(TestModules.engine());
    other.close();

    assertThatThrownBy(other::memorySize)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the Engine is closed; create a new one");
  }

  @Test
  void nullArgumentsAreRefusedByName() {
    assertThatThrownBy(() -> Engine.create(null)).hasMessage("module");
    assertThatThrownBy(() -> Engine.create(TestModules.engine(), null)).hasMessage("limits");
  }

  @Test
  void aMemoryCapBelowWhatTheModuleNeedsToStartStopsItAtStart() {
    assertThatThrownBy(() -> Engine.create(TestModules.engine(), Limits.defaults().withMaxMemory(1 << 20)))
        .isInstanceOf(StoppedException.class)
        .hasMessageStartingWith("starting the Sigil module failed: ");
  }

  @Test
  void anInputThatNeedsMoreMemoryThanTheCapStopsTheInstanceWithAMemoryLimitException() {
    SourceFile kind =
        SourceFile.of(
            "kind.sigil",
            "kind Bag version 1\n\ninput items: list<string>\n\ndecision ok {\n  reason: yes\n}\n\n"
                + "collect one\nprecedence ok\n\ndefault ok(reason: yes)\n");
    SourceFile policy = SourceFile.of("bag.sigil", "policy bag: Bag@1\n");
    List<String> items = new ArrayList<>();
    for (int i = 0; i < 300_000; i++) {
      items.add("i" + i);
    }
    try (Engine capped = Engine.create(TestModules.engine(), Limits.defaults().withMaxMemory(16 << 20));
        Policy bag = capped.compile(List.of(kind, policy), CompileOptions.defaults())) {
      assertThat(bag.eval(Map.of("items", List.of("a"))).reason()).contains("yes");

      MemoryLimitException stopped =
          catchThrowableOfType(MemoryLimitException.class, () -> bag.eval(Map.of("items", items)));

      assertThat(stopped.message())
          .startsWith("the call needed more memory than the instance may have (16 MiB) and was stopped;"
              + " the instance is stopped\n")
          .containsPattern("memory allocation of \\d+ bytes failed");
      assertThat(stopped.help()).isEqualTo(
          "send a smaller request or policy, or raise Limits.maxMemory; build a new instance to go on");
      assertThat(stopped.maxMemory()).hasValue(16 << 20);
      assertThat(stopped.getMessage().length()).as("the whole message").isLessThan(6000);
      assertThat(capped.stopped()).hasValueSatisfying(later -> assertThat(later.message())
          .startsWith("the Sigil module stopped earlier: a call needed more memory than the instance may have\n"));
      assertThat(capped.memorySize()).isLessThanOrEqualTo(16 << 20);
    }
  }
}

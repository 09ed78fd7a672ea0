package dev.svc.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.engine.internal.AbiCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The spec's policy examples through the library (bindings.md §17.2, §16): every input evaluates to
 * the record {@code sigil eval -o json} prints, as {@link Policy#evalJson} passes it on and as the
 * records {@link Policy#eval} returns write it back, and the explanations likewise. Key order
 * counts; whitespace and escapes don't.
 */
class ExamplesParityTest extends EngineFixture {

  /** Each scenario with its root policy (examples/policies/README.md). */
  private static final List<List<String>> SCENARIOS =
      List.of(
          List.of("01-refund-gate", "refunds.desk"),
          List.of("02-door-access", "doors.main"),
          List.of("03-tool-grants", "tools.grants"),
          List.of("04-change-asserts", "changes.gate"),
          List.of("05-deploy-composition", "payments.deploy"));

  static Stream<Arguments> inputs() {
    List<Arguments> cases = new ArrayList<>();
    for (List<String> scenario : SCENARIOS) {
      Path dir = SpecExamples.scenario(scenario.get(0));
      try (Stream<Path> files = Files.list(dir.resolve("inputs"))) {
        files.sorted().forEach(input -> cases.add(Arguments.of(scenario.get(0), scenario.get(1), input)));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return cases.stream();
  }

  static Stream<Arguments> explained() {
    return SCENARIOS.stream()
        .filter(s -> Files.isRegularFile(expected(s.get(0), "explain")))
        .map(s -> Arguments.of(s.get(0), s.get(1)));
  }

  @ParameterizedTest(name = "{0} {2}")
  @MethodSource("inputs")
  void everyInputEvaluatesToTheRecordTheCliPrints(String scenario, String root, Path input)
      throws Exception {
    JsonNode value = AbiCodec.MAPPER.readTree(input.toFile());
    String name = input.getFileName().toString().replace(".json", "");
    String want = compact(SpecExamples.read(expected(scenario, name)));

    try (Policy policy = compile(scenario, root)) {
      assertThat(compact(new String(policy.evalJson(value, EvalOptions.defaults()), "UTF-8")))
          .as("the record as the engine wrote it")
          .isEqualTo(want);
      assertThat(AbiCodec.MAPPER.writeValueAsString(policy.eval(value)))
          .as("the record read into EvalResult and written back")
          .isEqualTo(want);
      assertThat(AbiCodec.MAPPER.writeValueAsString(AbiCodec.MAPPER.readValue(want, EvalResult.class)))
          .as("the record bound by Jackson and written back")
          .isEqualTo(want);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("explained")
  void explanationsAreWhatTheCliPrints(String scenario, String root) throws Exception {
    String want = compact(SpecExamples.read(expected(scenario, "explain")));

    List<Explanation> explained =
        engine.explain(
            SpecExamples.sigilFiles(SpecExamples.scenario(scenario)),
            ExplainOptions.defaults().withPolicy(root));

    assertThat(AbiCodec.MAPPER.writeValueAsString(explained)).isEqualTo(want);
    try (Policy policy = compile(scenario, root)) {
      assertThat(List.of(policy.explain())).isEqualTo(explained);
    }
  }

  static Stream<String> scenarios() {
    return SCENARIOS.stream().map(s -> s.get(0));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void everyBundleChecksCleanly(String scenario) {
    assertThat(engine.check(SpecExamples.sigilFiles(SpecExamples.scenario(scenario)))).isEmpty();
  }

  private Policy compile(String scenario, String root) {
    return engine.compile(
        SpecExamples.sigilFiles(SpecExamples.scenario(scenario)), CompileOptions.defaults().withPolicy(root));
  }

  private static Path expected(String scenario, String name) {
    return SpecExamples.scenario(scenario).resolve("expected").resolve(name + ".json");
  }

  // The expected files are indented: compare the same JSON compactly, member order kept.
  private static String compact(String json) throws IOException {
    return AbiCodec.MAPPER.writeValueAsString(AbiCodec.MAPPER.readTree(json));
  }
}

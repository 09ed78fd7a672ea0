package dev.svc.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.engine.internal.AbiCodec;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link Engine#test} and its records over the real engine.wasm. */
class TestOpTest extends EngineFixture {

  private static final SourceFile KIND = BadgeDoor.KIND;

  private static final SourceFile MAIN = BadgeDoor.MAIN;

  private static final SourceFile TESTS =
      SourceFile.of(
          "door/main_test.yaml",
          """
          policy: door.main
          stubs:
            badge: {calls: [{args: [ada], returns: true}], returns: false}
          cases:
            - name: ada upstairs
              input: {floor: 2, user: ada}
              expect: {decision: allow, reason: member, payload: {minutes: 2}}
            - name: bob upstairs
              input_file: testdata/bob.json
              expect: {decision: deny, reason: no_rule}
          """);

  private static final SourceFile BOB =
      SourceFile.of("door/testdata/bob.json", "{\"floor\": 3, \"user\": \"bob\"}");

  private List<TestResult> run(List<SourceFile> testFiles, TestOptions options) {
    return engine.test(List.of(KIND, MAIN), testFiles, options);
  }

  @Test
  void aPassingSuiteReportsEveryCaseWithItsLine() {
    List<TestResult> results = run(List.of(TESTS), TestOptions.defaults().withDataFiles(List.of(BOB)));

    assertThat(results)
        .containsExactly(
            new TestResult(
                "door/main_test.yaml",
                "door.main",
                Optional.empty(),
                List.of(
                    new TestCaseResult("ada upstairs", Optional.empty(), List.of(), 5, true),
                    new TestCaseResult("bob upstairs", Optional.empty(), List.of(), 8, true))));
    assertThat(results.get(0).passed()).isTrue();
  }

  @Test
  void failingCasesAndFilesThatCantRunAreResultsInPathOrder() {
    SourceFile wrong =
        SourceFile.of(
            "door/wrong_test.yml",
            """
            policy: door.main
            cases:
              - name: the wrong minutes
                input: {floor: 3, user: ada}
                stubs:
                  badge: {returns: true}
                expect: {decision: allow, reason: member, payload: {minutes: 5}}
              - name: nobody stubbed the badge
                input: {floor: 3, user: ada}
                expect: {decision: allow, reason: member}
            """);
    SourceFile missing = SourceFile.of("a/missing_test.yaml", "policy: door.side\ncases: []\n");

    List<TestResult> results = run(List.of(wrong, missing), TestOptions.defaults());

    assertThat(results).extracting(TestResult::file).containsExactly("a/missing_test.yaml", "door/wrong_test.yml");
    assertThat(results.get(0).error())
        .contains("error: bundle has no policy door.side\n  = help: the bundle defines: door.main");
    assertThat(results.get(0).cases()).isEmpty();
    assertThat(results.get(1).cases())
        .extracting(TestCaseResult::failures)
        .containsExactly(
            List.of("payload minutes = 3, want 5"),
            List.of(
                "got a runtime error (door/main.sigil:3:20: host function badge failed: no implementation"
                    + " in this sigil binary), want allow(reason: member)"));
    assertThat(results).noneMatch(TestResult::passed);
  }

  @Test
  void runSelectsCasesAndAMissingInputFileIsTheCasesError() {
    List<TestResult> results = run(List.of(TESTS), TestOptions.defaults().withRun("^bob"));

    assertThat(results.get(0).cases())
        .containsExactly(
            new TestCaseResult(
                "bob upstairs",
                Optional.of(
                    "input_file testdata/bob.json couldn't be read (input_file is relative to the test"
                        + " file)"),
                List.of(),
                8,
                false));
  }

  private static final String CASE =
      "cases:\n  - name: a\n    input: {floor: 2, user: x}\n    expect: {decision: deny, reason: no_rule}\n";

  static Stream<Arguments> testFilesThatCantRun() {
    return Stream.of(
        Arguments.of(
            "bad YAML",
            "policy: door.main\ncases: [\n",
            "door/a_test.yaml: not a valid test file: line 3: while parsing a node"),
        Arguments.of(
            "an unknown key",
            "policy: door.main\ncases:\n  - nme: a\n",
            "door/a_test.yaml: not a valid test file: line 3: unknown key \"nme\" in a case (did you mean \"name\"?"),
        Arguments.of(
            "a malformed stub",
            "policy: door.main\nstubs:\n  badge: {returns: 3}\n" + CASE,
            "door/a_test.yaml:3: stub badge: returns: expected a bool, found a number"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("testFilesThatCantRun")
  void aTestFileThatCantRunIsAResultSayingWhy(String what, String text, String error) {
    SourceFile file = SourceFile.of("door/a_test.yaml", text);

    List<TestResult> results = run(List.of(file), TestOptions.defaults());

    assertThat(results).singleElement().satisfies(r -> {
      assertThat(r.error()).hasValueSatisfying(e -> assertThat(e).startsWith(error));
      assertThat(r.cases()).isEmpty();
      assertThat(r.passed()).isFalse();
    });
  }

  @Test
  void aBrokenPolicyIsTheTestFilesError() {
    SourceFile broken =
        SourceFile.of("door/main.sigil", "policy door.main: Door@1\n\nwhen flor > 1 {\n  allow(reason: member)\n}\n");
    SourceFile file = SourceFile.of("door/a_test.yaml", "policy: door.main\n" + CASE);

    List<TestResult> results = engine.test(List.of(KIND, broken), List.of(file), TestOptions.defaults());

    assertThat(results.get(0).error()).hasValueSatisfying(e -> assertThat(e).startsWith("door/main.sigil:3:6: error: unknown name `flor`"));
  }

  @Test
  void aStubThatFailsFailsItsCaseAndARunMatchingNothingRunsNone() {
    SourceFile file =
        SourceFile.of(
            "door/a_test.yaml",
            "policy: door.main\ncases:\n  - name: a\n    input: {floor: 2, user: x}\n    stubs: {badge: {error: down}}\n"
                + "    expect: {decision: deny, reason: no_rule}\n");

    assertThat(run(List.of(file), TestOptions.defaults()).get(0).cases())
        .singleElement()
        .satisfies(c -> assertThat(c.failures()).containsExactly(
            "got a runtime error (door/main.sigil:3:20: host function badge failed: down), want deny(reason:"
                + " no_rule)"));
    assertThat(run(List.of(file), TestOptions.defaults().withRun("^zzz")))
        .singleElement()
        .satisfies(r -> {
          assertThat(r.error()).isEmpty();
          assertThat(r.cases()).isEmpty();
        });
  }

  @Test
  void trustedFilesHoldPoliciesToo() {
    List<TestResult> results =
        engine.test(
            List.of(),
            List.of(TESTS),
            TestOptions.defaults().withTrustedFiles(List.of(KIND, MAIN)).withDataFiles(List.of(BOB)));

    assertThat(results.get(0).passed()).isTrue();
  }

  @Test
  void requestsTheEngineCantRunThrowWithWhatToDo() {
    assertThatThrownBy(() -> run(List.of(SourceFile.of("door/main_test.json", "{}")), TestOptions.defaults()))
        .isInstanceOfSatisfying(
            EngineException.class,
            e -> {
              assertThat(e.message()).isEqualTo("the test file door/main_test.json isn't named like one");
              assertThat(e.help())
                  .isEqualTo(
                      "a test file's name ends in _test.yaml or _test.yml; send other files a case reads"
                          + " as data_files");
            });
    assertThatThrownBy(() -> run(List.of(), TestOptions.defaults()))
        .isInstanceOfSatisfying(
            EngineException.class,
            e -> assertThat(e.message()).isEqualTo("the request holds no test files"));
    assertThatThrownBy(() -> run(List.of(TESTS), TestOptions.defaults().withRun("(")))
        .isInstanceOfSatisfying(
            EngineException.class,
            e ->
                assertThat(e.message())
                    .isEqualTo(
                        "run isn't a valid regular expression: error parsing regexp: missing closing ):"
                            + " `(`"));
    SourceFile otherBob = SourceFile.of("door/./testdata/bob.json", "{}");
    assertThatThrownBy(
            () -> run(List.of(TESTS), TestOptions.defaults().withDataFiles(List.of(BOB, otherBob))))
        .isInstanceOfSatisfying(
            EngineException.class,
            e -> {
              assertThat(e.message()).isEqualTo("door/testdata/bob.json is given twice, with two sources");
              assertThat(e.help()).isEqualTo("send each file once");
            });
    assertThat(engine.stopped()).isEmpty();
  }

  @Test
  void nullArgumentsAreRefusedByName() {
    assertThatThrownBy(() -> engine.test(null, List.of(TESTS), TestOptions.defaults()))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("files");
    assertThatThrownBy(() -> engine.test(List.of(), null, TestOptions.defaults()))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("testFiles");
    assertThatThrownBy(() -> engine.test(List.of(), List.of(TESTS), null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("options");
    assertThatThrownBy(() -> TestOptions.defaults().withRun(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("pattern");
  }

  @Test
  void recordsSerializeBackToTheEnginesJson() throws Exception {
    String json =
        "{\"file\":\"a_test.yaml\",\"policy\":\"\",\"cases\":[{\"name\":\"c\",\"line\":3,\"passed\":true},"
            + "{\"name\":\"d\",\"error\":\"e\",\"line\":4,\"passed\":false},"
            + "{\"name\":\"f\",\"failures\":[\"got x, want y\"],\"line\":5,\"passed\":false}]}";

    TestResult result = AbiCodec.MAPPER.readValue(json, TestResult.class);

    assertThat(AbiCodec.MAPPER.writeValueAsString(result)).isEqualTo(json);
  }
}

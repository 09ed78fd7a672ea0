package dev.svc.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.BooleanNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link Requests}: what each op sends (bindings.md §6). Default options send the files alone;
 * what is set goes under its wire name.
 */
class RequestsTest {

  private static final List<SourceFile> FILES = List.of(SourceFile.of("a.sigil", "x"));
  private static final List<SourceFile> TRUSTED = List.of(SourceFile.of("t.sigil", "y"));
  private static final String A = "[{\"path\":\"a.sigil\",\"source\":\"x\"}]";
  private static final String T = "[{\"path\":\"t.sigil\",\"source\":\"y\"}]";
  private static final HostFunction NONE = args -> null;

  @Test
  void defaultOptionsSendNothingButTheFiles() {
    assertThat(Requests.check(FILES, CheckOptions.defaults()))
        .hasToString("{\"op\":\"check\",\"files\":" + A + "}");
    assertThat(Requests.compile(FILES, CompileOptions.defaults()))
        .hasToString("{\"op\":\"compile\",\"files\":" + A + "}");
    assertThat(Requests.explain(FILES, ExplainOptions.defaults()))
        .hasToString("{\"op\":\"explain\",\"files\":" + A + "}");
    assertThat(Requests.test(FILES, TRUSTED, TestOptions.defaults()))
        .hasToString("{\"op\":\"test\",\"files\":" + A + ",\"test_files\":" + T + "}");
    assertThat(Requests.format("x", FormatOptions.defaults())).hasToString("{\"op\":\"format\",\"source\":\"x\"}");
  }

  @Test
  void checkSendsEveryOptionThatIsSet() {
    CheckOptions options =
        CheckOptions.defaults()
            .withTrustedFiles(TRUSTED)
            .withPolicies("door.*")
            .withRequirement(Requirement.of("door.guard"))
            .withRequirement(Requirement.of("door.audit").withTrusted("platform/").withRoots("door.main"))
            .withRequirement(Requirement.of("door.log").withRoots())
            .withLint("unused-let", LintLevel.ERROR)
            .withLint("shadowed-input", LintLevel.OFF);

    assertThat(Requests.check(FILES, options))
        .hasToString(
            "{\"op\":\"check\",\"files\":" + A + ",\"trusted_files\":" + T + ",\"policies\":[\"door.*\"],"
                + "\"require\":[{\"policy\":\"door.guard\"},"
                + "{\"policy\":\"door.audit\",\"trusted\":[\"platform/\"],\"roots\":[\"door.main\"]},"
                + "{\"policy\":\"door.log\"}],"
                + "\"lints\":{\"shadowed-input\":\"off\",\"unused-let\":\"error\"}}");
  }

  @Test
  void compileSendsTheFunctionsByNameSortedAndTheStubsByFunction() {
    CompileOptions options =
        CompileOptions.defaults()
            .withPolicy("door.main")
            .withTrustedFiles(TRUSTED)
            .withRequired("door.guard")
            .withFunction("split", NONE)
            .withFunction("lower", NONE)
            .withStub("badge", Stub.returning(true));

    assertThat(Requests.compile(FILES, options))
        .hasToString(
            "{\"op\":\"compile\",\"files\":" + A + ",\"trusted_files\":" + T + ",\"policy\":\"door.main\","
                + "\"require\":[{\"policy\":\"door.guard\"}],\"functions\":[\"lower\",\"split\"],"
                + "\"stubs\":{\"badge\":{\"returns\":true}}}");
    assertThat(Stub.returning(true).returns()).contains(BooleanNode.TRUE);
  }

  @Test
  void explainTestAndFormatSendTheirOptions() {
    assertThat(Requests.explain(FILES, ExplainOptions.defaults().withPolicy("door.*").withTrustedFiles(TRUSTED)))
        .hasToString(
            "{\"op\":\"explain\",\"files\":" + A + ",\"trusted_files\":" + T + ",\"policy\":\"door.*\"}");
    assertThat(
            Requests.test(
                List.of(),
                TRUSTED,
                TestOptions.defaults().withDataFiles(FILES).withRun("^ada").withTrustedFiles(FILES)))
        .hasToString(
            "{\"op\":\"test\",\"trusted_files\":" + A + ",\"test_files\":" + T + ",\"data_files\":" + A
                + ",\"run\":\"^ada\"}");
    assertThat(Requests.format("x", FormatOptions.defaults().withPath("a.sigil")))
        .hasToString("{\"op\":\"format\",\"source\":\"x\",\"path\":\"a.sigil\"}");
  }

  @Test
  void aCompiledPolicyIsExplainedAndReleasedByItsHandle() {
    assertThat(Requests.explain(7)).hasToString("{\"op\":\"explain\",\"handle\":7}");
    assertThat(Requests.release(4294967295L)).hasToString("{\"op\":\"release\",\"handle\":4294967295}");
  }
}

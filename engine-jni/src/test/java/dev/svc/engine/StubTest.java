package dev.svc.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@link Stub}, {@link StubCall} and {@link CompileOptions#withStub} over the real engine.wasm. */
class StubTest extends EngineFixture {

  private EvalResult eval(Stub badge, String user) {
    CompileOptions options = CompileOptions.defaults().withStub("badge", badge);
    try (Policy policy = engine.compile(List.of(BadgeDoor.KIND, BadgeDoor.MAIN), options)) {
      return policy.eval(Map.of("floor", 2, "user", user));
    }
  }

  @Test
  void aStubAnswersCallsByTheirArgsThenItsOwnResult() {
    Stub badge = Stub.returning(false).withCall(StubCall.returning(List.of("ada"), true));

    assertThat(eval(badge, "ada").decision()).contains("allow");
    assertThat(eval(badge, "bob").decision()).contains("deny");
  }

  @Test
  void aStubAnswersInPlaceOfAJavaImplementation() {
    List<String> asked = new ArrayList<>();
    HostFunction refuseAll =
        args -> {
          asked.add(args.get(0).asText());
          return BooleanNode.FALSE;
        };
    CompileOptions options =
        CompileOptions.defaults().withFunction("badge", refuseAll).withStub("badge", Stub.returning(true));

    try (Policy policy = engine.compile(List.of(BadgeDoor.KIND, BadgeDoor.MAIN), options)) {
      assertThat(policy.eval(Map.of("floor", 2, "user", "ada")).decision()).contains("allow");
    }
    assertThat(asked).isEmpty();
  }

  @Test
  void aCallNothingAnswersAndAStubErrorAreRuntimeErrors() {
    Stub onlyEve = Stub.answering(StubCall.failing(List.of("eve"), "eve's badge is revoked"));

    assertThat(eval(onlyEve, "bob").error().orElseThrow().message())
        .isEqualTo("door/main.sigil:3:20: host function badge failed: no stubbed call matches badge(\"bob\")");
    assertThat(eval(onlyEve, "eve").error().orElseThrow().message())
        .isEqualTo("door/main.sigil:3:20: host function badge failed: eve's badge is revoked");
    assertThat(eval(Stub.failing("down"), "bob").error().orElseThrow().help())
        .contains("the stub's error: fails the call");
  }

  @Test
  void aStubThatDoesntFitTheKindFailsTheCompile() {
    CompileOptions options =
        CompileOptions.defaults()
            .withStub("bagde", Stub.returning(true))
            .withStub("badge", Stub.returning(List.of(true)));

    assertThatThrownBy(() -> engine.compile(List.of(BadgeDoor.KIND, BadgeDoor.MAIN), options))
        .isInstanceOfSatisfying(
            EngineException.class,
            e -> {
              assertThat(e.message())
                  .isEqualTo(
                      "stubs: stub badge: returns: expected a bool, found a list (give the value the"
                          + " type the kind declares for it)\n"
                          + "stubs: the kind has no host function bagde to stub (did you mean \"badge\"? the"
                          + " kind declares: badge)");
              assertThat(e.help())
                  .isEqualTo(
                      "a stub names a host function the kind declares and gives results of its type, as"
                          + " in a test file's stubs:");
            });
  }

  @Test
  void aStubValueJsonCantWriteFailsTheCompileBeforeTheModuleSeesIt() {
    CompileOptions options = CompileOptions.defaults().withStub("badge", Stub.returning(Double.NaN));

    assertThatThrownBy(() -> engine.compile(List.of(BadgeDoor.KIND, BadgeDoor.MAIN), options))
        .isInstanceOfSatisfying(
            EngineException.class,
            e -> {
              assertThat(e.message()).isEqualTo("the request can't be encoded as JSON: NaN isn't a JSON number");
              assertThat(e.help())
                  .isEqualTo("keep NaN and infinite floats out of stubs and other options: JSON has no number for them");
            });
    assertThat(engine.stopped()).isEmpty();
  }

  @Test
  void stubsWriteOnlyWhatIsSet() {
    Stub stub =
        Stub.failing("down")
            .withCall(StubCall.returning(List.of("a", ","), List.of("a")))
            .withCall(StubCall.returning(List.of(), null));

    assertThat(stub.toJson())
        .hasToString(
            "{\"error\":\"down\",\"calls\":[{\"args\":[\"a\",\",\"],\"returns\":[\"a\"]},"
                + "{\"args\":[],\"returns\":null}]}");
    assertThat(Stub.returning(null).returns()).contains(NullNode.getInstance());
  }

  @Test
  void aStubOfTheWrongShapeIsRefusedBeforeAnyCall() {
    assertThatThrownBy(
            () -> new Stub(Optional.of(TextNode.valueOf("a")), Optional.of("down"), List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("give returns or error, not both");
    assertThatThrownBy(() -> new Stub(Optional.empty(), Optional.empty(), List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("a stub gives no result");
    assertThatThrownBy(() -> new StubCall(List.of(), Optional.empty(), Optional.empty()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("a stubbed call needs exactly one of returns and error");
    assertThatThrownBy(() -> Stub.failing(""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a stub's error needs a message, like \"timeout\"");
  }
}

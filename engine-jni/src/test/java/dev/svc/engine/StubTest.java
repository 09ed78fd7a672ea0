package dev.svc.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link Stub}, {@link StubCall} and {@link CompileOptions#withStub} over the real engine.wasm. */
class StubTest {

  private static final SourceFile KIND =
      SourceFile.of(
          "kind.sigil",
          """
          kind Vault version 1

          input user: string
          input door: string

          fn owner(string) -> string

          decision deny {
            reason: no_rule
          }

          decision allow {
            reason: owner
          }

          collect one
          precedence deny > allow

          default deny(reason: no_rule)
          """);

  private static final SourceFile MAIN =
      SourceFile.of(
          "vault/main.sigil",
          """
          policy vault.main: Vault@1

          when owner(door) == user {
            allow(reason: owner)
          }
          """);

  private Engine engine;

  @BeforeEach
  void start() {
    engine = Engine.create(TestModules.engine());
  }

  @AfterEach
  void stop() {
    engine.close();
  }

  private EvalResult eval(Stub owner, String door) {
    try (Policy policy =
        engine.compile(List.of(KIND, MAIN), CompileOptions.defaults().withStub("owner", owner))) {
      return policy.eval(Map.of("user", "ada", "door", door));
    }
  }

  @Test
  void aStubAnswersCallsByTheirArgsThenItsOwnResult() {
    Stub owner = Stub.returning("nobody").withCall(StubCall.returning(List.of("vault"), "ada"));

    assertThat(eval(owner, "vault").decision()).contains("allow");
    assertThat(eval(owner, "lab").decision()).contains("deny");
  }

  @Test
  void aCallNothingAnswersAndAStubErrorAreRuntimeErrors() {
    Stub onlyVault = Stub.answering(StubCall.failing(List.of("attic"), "the attic is locked"));

    assertThat(eval(onlyVault, "lab").error().orElseThrow().message())
        .isEqualTo("vault/main.sigil:3:6: host function owner failed: no stubbed call matches owner(\"lab\")");
    assertThat(eval(onlyVault, "attic").error().orElseThrow().message())
        .isEqualTo("vault/main.sigil:3:6: host function owner failed: the attic is locked");
    assertThat(eval(Stub.failing("down"), "lab").error().orElseThrow().help())
        .contains("the stub's error: fails the call");
  }

  @Test
  void aStubThatDoesntFitTheKindFailsTheCompile() {
    CompileOptions options =
        CompileOptions.defaults()
            .withStub("ownr", Stub.returning("ada"))
            .withStub("owner", Stub.returning(List.of("ada")));

    assertThatThrownBy(() -> engine.compile(List.of(KIND, MAIN), options))
        .isInstanceOfSatisfying(
            EngineException.class,
            e -> {
              assertThat(e.message())
                  .isEqualTo(
                      "stubs: stub owner: returns: expected a string, found a list (give the value the"
                          + " type the kind declares for it)\n"
                          + "stubs: the kind has no host function ownr to stub (did you mean \"owner\"? the"
                          + " kind declares: owner)");
              assertThat(e.help())
                  .isEqualTo(
                      "a stub names a host function the kind declares and gives results of its type, as"
                          + " in a test file's stubs:");
            });
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

package dev.svc.engine.kind;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.engine.Engine;
import dev.svc.engine.SourceFile;
import dev.svc.engine.SpecExamples;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link Kind#schema()}: the kind file, byte for byte the canonical text of language-policies
 * §2.14 (bindings.md §13.4), and a file the engine accepts.
 */
@ExtendWith(SharedEngine.class)
class KindSchemaTest {

  private static final Path ROOT = Path.of(System.getProperty("svc.root", ".."));
  private static final Path ENGINE_GOLDENS = ROOT.resolve("native/engine/src/kind/testdata");

  static List<CoverageKinds.Case> coverageKinds() {
    return CoverageKinds.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("coverageKinds")
  void theCoverageKindsPrintAsTheirGoldens(CoverageKinds.Case kind) {
    Goldens.assertMatches(kind.golden(), kind.kind().schema());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("coverageKinds")
  void theEngineChecksEachCoverageKindWithAPolicyCleanly(CoverageKinds.Case kind, Engine engine) {
    SourceFile policy = SourceFile.of("policy.sigil", kind.policy());

    assertThat(kind.kind().check(engine)).isEmpty();
    assertThat(engine.check(List.of(kind.kind().file(), policy))).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("coverageKinds")
  void theEngineFormatterLeavesEachKindFileAsItIs(CoverageKinds.Case kind, Engine engine) {
    assertThat(engine.format(kind.kind().schema())).isEqualTo(kind.kind().schema());
  }

  // The coverage kind Minimal is the spec's own smallest kind.
  @Test
  void theSpecsExampleKindsPrintAsTheSpecShowsThem() {
    Kind minimal = CoverageKinds.minimal().kind();
    Decision notify =
        Decision.of("notify", "routine", "unrouted").field("channel", Type.STRING, "#alerts");
    Kind routing =
        Kind.builder("Routing")
            .version(1)
            .input("team", Type.STRING)
            .decisions(notify)
            .defaultOutcome(notify.reason("unrouted"))
            .build();

    assertThat(minimal.schema())
        .isEqualTo(
            """
            kind Minimal version 1

            input who: string

            decision ok {
              reason: yes
            }

            collect one
            precedence ok

            default ok(reason: yes)
            """);
    assertThat(routing.schema())
        .isEqualTo(
            """
            kind Routing version 1

            input team: string

            decision notify {
              reason: routine | unrouted
              channel: string = "#alerts"
            }

            collect one
            precedence notify

            default notify(reason: unrouted)
            """);
  }

  // The engine's canonical-text goldens whose kinds a builder can declare (the others use a
  // default with payload arguments, a negative duration or a struct nothing reaches).
  @Test
  void kindsOfTheEnginesGoldensPrintAsTheEnginePrintsThem() {
    Decision read = Decision.of("read", "member", "oncall").field("scope", Type.STRING, "all");
    Decision write = Decision.of("write", "owner");
    Decision admin =
        Decision.of("admin", "oncall")
            .field("ttl", Type.DURATION, "8h")
            .field("levels", Type.map(Type.INT, Type.STRING), Map.of("9", "y", "10", "x"));
    Kind grants =
        Kind.builder("Grants")
            .version(1)
            .input("user", Type.STRING)
            .collectAll(read, write, admin)
            .precedence(admin, write, read)
            .rankOutcomes(read.reason("oncall"), read.reason("member"))
            .exclusive(write, admin.reason("oncall"))
            .build();
    Kind tiny = Kind.builder("Tiny").version(1).collectAll(Decision.of("ok", "yes")).build();

    assertThat(grants.schema())
        .isEqualTo(Goldens.read(ENGINE_GOLDENS.resolve("collect_all.golden")));
    assertThat(tiny.schema()).isEqualTo(Goldens.read(ENGINE_GOLDENS.resolve("minimal.golden")));
  }

  static List<ExampleKinds.Case> exampleKinds() {
    return ExampleKinds.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("exampleKinds")
  void theSpecsPolicyExamplesKindFilesAreWhatTheBuilderWrites(ExampleKinds.Case example) {
    Path scenario = SpecExamples.scenario(example.scenario());
    SourceFile kindFile = example.kind().file();

    assertThat(example.kind().schema()).isEqualTo(SpecExamples.read(scenario.resolve(kindFile.path())));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("exampleKinds")
  void theSpecsPolicyExamplesCheckCleanlyAgainstTheBuiltKind(
      ExampleKinds.Case example, Engine engine) {
    SourceFile kindFile = example.kind().file();
    List<SourceFile> files = new ArrayList<>(List.of(kindFile));
    SpecExamples.sigilFiles(SpecExamples.scenario(example.scenario())).stream()
        .filter(f -> !f.path().equals(kindFile.path()))
        .forEach(files::add);

    assertThat(files).hasSizeGreaterThan(1);
    assertThat(engine.check(files)).isEmpty();
  }
}

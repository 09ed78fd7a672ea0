package dev.svc.engine.kind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.svc.engine.Diagnostic;
import dev.svc.engine.Engine;
import dev.svc.engine.HostFunction;
import dev.svc.engine.ResultShape;
import dev.svc.engine.SourceFile;
import dev.svc.engine.TestModules;
import java.util.List;
import java.util.Optional;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/** {@link Kind}: the built kind, its file and what the engine says of it. */
class KindTest {

  private static final Decision OK = Decision.of("ok", "yes");
  private static final Kind ROUTING_V2 =
      Kind.builder("AlertRouting").version(2).collectAll(OK).build();
  private static final SourceFile STALE =
      SourceFile.of(
          "kinds/alert_routing.sigil", ROUTING_V2.schema().replace("version 2", "version 1"));

  @Test
  void theKindFileIsNamedAfterTheKindUnlessAPathIsGiven() {
    Kind kind = Kind.builder("AlertRouting").version(1).collectAll(OK).build();

    assertThat(kind.file().path()).isEqualTo("alert_routing.sigil");
    assertThat(kind.file().source()).isEqualTo(kind.schema());
    assertThat(kind.file("kinds/routing.sigil").path()).isEqualTo("kinds/routing.sigil");
  }

  @Test
  void theKindFileDeclaresTheKind() {
    Kind kind = Kind.builder("AlertRouting").version(2).collectAll(OK).build();

    assertThat(Kind.declaredName(kind.schema())).contains("AlertRouting");
    assertThat(Kind.declaredName("policy a.b: AlertRouting@2\n")).isEmpty();
  }

  @Test
  void theEngineChecksWhatTheBuilderLeavesToIt() {
    Kind keyword = Kind.builder("K").version(1).input("when", Type.STRING).collectAll(OK).build();

    try (Engine engine = Engine.create(TestModules.engine())) {
      List<Diagnostic> found = keyword.check(engine);

      assertThat(found).isNotEmpty();
      assertThat(found).allSatisfy(d -> assertThat(d.file()).contains("k.sigil"));
    }
  }

  @Test
  void aKindCarriesTheImplementationsOfItsFunctionsInDeclarationOrder() {
    HostFunction upper = args -> TextNode.valueOf(args.get(0).asText().toUpperCase());
    HostFunction now = args -> TextNode.valueOf("2024-01-01T00:00:00Z");
    Kind kind =
        Kind.builder("K")
            .version(1)
            .function("upper", new FnDecl(List.of(Type.STRING), Type.STRING).implement(upper))
            .function("declared_only", new FnDecl(List.of(), Type.STRING))
            .function("now", new FnDecl(List.of(), Type.TIMESTAMP).implement(now))
            .collectAll(OK)
            .build();

    assertThat(kind.functions()).containsExactly(entry("upper", upper), entry("now", now));
    assertThatThrownBy(() -> kind.functions().put("x", upper))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void implementingADeclarationLeavesTheSignatureAsItWas() {
    HostFunction fn = args -> TextNode.valueOf("");
    FnDecl declared = new FnDecl(List.of(Type.STRING), Type.STRING);

    FnDecl implemented = declared.implement(fn);

    assertThat(declared.implementation()).isEmpty();
    assertThat(implemented.implementation()).contains(fn);
    assertThat(implemented.params()).isEqualTo(declared.params());
    assertThatThrownBy(() -> declared.implement(null)).hasMessage("implementation");
  }

  @Test
  void theResultShapeSaysWhetherTheKindCollectsAndRanks() {
    Decision no = Decision.of("no", "way");
    KindBuilder one = Kind.builder("K").version(1).decisions(OK).defaultOutcome(OK.reason("yes"));
    KindBuilder all = Kind.builder("K").version(1).collectAll(OK, no);
    KindBuilder ranked = Kind.builder("K").version(1).collectAll(OK, no).precedence(no, OK);

    assertThat(one.build().resultShape()).isEqualTo(new ResultShape(false, false));
    assertThat(all.build().resultShape()).isEqualTo(new ResultShape(true, false));
    assertThat(ranked.build().resultShape()).isEqualTo(new ResultShape(true, true));
  }

  @Test
  void filesWithoutTheKindFileGetItFirst() {
    Kind kind = Kind.builder("AlertRouting").version(1).collectAll(OK).build();
    SourceFile policy = SourceFile.of("alerts.sigil", "policy a.b: AlertRouting@1\n");

    assertThat(kind.filesWithKind(List.of(policy), List.of(), Optional.empty()))
        .containsExactly(kind.file(), policy);
    assertThat(kind.filesWithKind(List.of(policy), List.of(), Optional.of("kinds/ar.sigil")))
        .containsExactly(kind.file("kinds/ar.sigil"), policy);
  }

  @Test
  void aCurrentKindFileAmongTheFilesOrTrustedFilesIsKept() {
    Kind kind = Kind.builder("AlertRouting").version(1).collectAll(OK).build();
    SourceFile policy = SourceFile.of("alerts.sigil", "policy a.b: AlertRouting@1\n");
    SourceFile exported = kind.file("kinds/routing.sigil");
    SourceFile otherKind =
        SourceFile.of("other.sigil", kind.schema().replace("AlertRouting", "Other"));

    assertThat(kind.filesWithKind(List.of(policy, exported), List.of(), Optional.empty()))
        .containsExactly(policy, exported);
    assertThat(kind.filesWithKind(List.of(policy), List.of(exported), Optional.empty()))
        .containsExactly(policy);
    assertThat(kind.filesWithKind(List.of(otherKind), List.of(), Optional.empty()))
        .containsExactly(kind.file(), otherKind);
  }

  @Test
  void aStaleKindFileAmongTheFilesIsRefused() {
    assertStale(() -> ROUTING_V2.filesWithKind(List.of(STALE), List.of(), Optional.empty()));
  }

  @Test
  void aStaleKindFileAmongTheTrustedFilesIsRefused() {
    assertStale(() -> ROUTING_V2.filesWithKind(List.of(), List.of(STALE), Optional.empty()));
  }

  private static void assertStale(ThrowingCallable compile) {
    Refusals.assertRefused(
        compile,
        "kinds/alert_routing.sigil declares kind AlertRouting, but not as this program defines it",
        "the file is stale: export the kind again, or drop the file and let compile add the"
            + " current one");
  }
}

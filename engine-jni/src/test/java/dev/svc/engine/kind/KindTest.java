package dev.svc.engine.kind;

import static org.assertj.core.api.Assertions.assertThat;

import dev.svc.engine.Diagnostic;
import dev.svc.engine.Engine;
import dev.svc.engine.TestModules;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link Kind}: the built kind, its file and what the engine says of it. */
class KindTest {

  private static final Decision OK = Decision.of("ok", "yes");

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
}

package dev.svc.engine.kind;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link KindFiles}: a kind's file name and the kind a source declares (bindings.md §13.6). */
class KindFilesTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "AlertRouting, alert_routing",
    "DeployApproval, deploy_approval",
    "Minimal, minimal",
    "HTTPServer, http_server",
    "Kind2Go, kind2_go",
    "already_snake, already_snake",
    "A, a",
    "ABC, abc"
  })
  void aKindsFileIsNamedInSnakeCase(String name, String snake) {
    assertThat(KindFiles.snakeCase(name)).isEqualTo(snake);
  }

  @ParameterizedTest(name = "{index}: {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          'kind A version 1\\n'                                                  | A
          '// a comment\\n// another\\nkind Alert_Routing version 3, accepts: 2' | Alert_Routing
          '  \\n\\n  kind   K   version 1'                                       | K
          'kind K version\\n'                                                    | K
          """)
  void aKindFileDeclaresItsKindInItsHeader(String escaped, String name) {
    assertThat(KindFiles.declaredName(escaped.replace("\\n", "\n"))).contains(name);
  }

  @ParameterizedTest(name = "{index}: {0}")
  @ValueSource(
      strings = {
        "policy a.b: K@1\\n",
        "kindred K version 1\\n",
        "kind K versions 1\\n",
        "kind K\\n",
        "kind 1K version 1\\n",
        "kindK version 1\\n",
        "kind Kversion 1\\n",
        "// only a comment",
        "// a comment\\npolicy a.b: K@1\\nkind K version 1\\n",
        ""
      })
  void anyOtherSourceDeclaresNoKind(String escaped) {
    assertThat(KindFiles.declaredName(escaped.replace("\\n", "\n"))).isEmpty();
  }
}

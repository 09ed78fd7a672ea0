package dev.svc.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import dev.svc.engine.internal.AbiCodec;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An {@code internal} package is its library's machinery, free to change under its callers: only the
 * library that holds it may use it. Checked here, in the module that sees every other one (cli,
 * server, supervisor, engine-jni), over their main classes.
 */
class InternalPackagesTest {

  private static JavaClasses svc;

  @BeforeAll
  static void importEveryModule() {
    svc = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("dev.svc");
  }

  @Test
  void everyModuleIsImported() {
    assertThat(svc.contain("dev.svc.cli.Svc")).isTrue();
    assertThat(svc.contain("dev.svc.server.SvcServer")).isTrue();
    assertThat(svc.contain("dev.svc.supervisor.Pool")).isTrue();
    assertThat(svc.contain("dev.svc.engine.Engine")).isTrue();
  }

  @Test
  void onlyTheEngineLibraryUsesItsInternalPackage() {
    onlyItsLibraryUses("dev.svc.engine", "callers use the public dev.svc.engine API").check(svc);
  }

  @Test
  void onlyTheSupervisorUsesItsInternalPackage() {
    onlyItsLibraryUses("dev.svc.supervisor", "callers use dev.svc.supervisor").check(svc);
  }

  @Test
  void aCallerThatReachesIntoTheMachineryBreaksTheRule() {
    JavaClasses reachesIn = new ClassFileImporter().importClasses(ReachesIn.class);

    assertThatThrownBy(() -> onlyItsLibraryUses("dev.svc.engine", "use the API").check(reachesIn))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining(ReachesIn.class.getName())
        .hasMessageContaining(AbiCodec.class.getName());
  }

  /** Writes JSON with the engine's internal mapper, as the CLI's version command once did. */
  private static final class ReachesIn {
    String json(Object value) throws Exception {
      return AbiCodec.MAPPER.writeValueAsString(value);
    }
  }

  private static ArchRule onlyItsLibraryUses(String library, String instead) {
    return noClasses()
        .that().resideOutsideOfPackage(library + "..")
        .should().dependOnClassesThat().resideInAPackage(library + ".internal..")
        .because(library + ".internal is that library's machinery; " + instead);
  }
}

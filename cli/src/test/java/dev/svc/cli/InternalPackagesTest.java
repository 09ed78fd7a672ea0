package dev.svc.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
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
    ArchRule rule = noClasses()
        .that().resideOutsideOfPackage("dev.svc.engine..")
        .should().dependOnClassesThat().resideInAPackage("dev.svc.engine.internal..")
        .because("dev.svc.engine.internal is engine-jni's machinery; callers use the public dev.svc.engine API");
    rule.check(svc);
  }

  @Test
  void onlyTheSupervisorUsesItsInternalPackage() {
    ArchRule rule = noClasses()
        .that().resideOutsideOfPackage("dev.svc.supervisor..")
        .should().dependOnClassesThat().resideInAPackage("dev.svc.supervisor.internal..")
        .because("dev.svc.supervisor.internal is the pool's machinery; callers use dev.svc.supervisor");
    rule.check(svc);
  }
}

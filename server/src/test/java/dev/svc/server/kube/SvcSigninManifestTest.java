package dev.svc.server.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The manifests in conf/kubernetes agree with the Java model of the sign-in and spec §5.1, §6.4. */
class SvcSigninManifestTest {

  private static final Path DIR = Path.of("../conf/kubernetes");

  static CustomResourceDefinition crd() throws IOException {
    try (InputStream in = Files.newInputStream(DIR.resolve("crd-svcsignins.yaml"))) {
      return Serialization.unmarshal(in, CustomResourceDefinition.class);
    }
  }

  @SuppressWarnings("unchecked")
  private static List<HasMetadata> rbac() throws IOException {
    try (InputStream in = Files.newInputStream(DIR.resolve("rbac.yaml"))) {
      // A file of several documents reads as their list.
      return (List<HasMetadata>) (Object) Serialization.unmarshal(in);
    }
  }

  @Test
  void the_definition_names_the_models_group_version_and_names() throws IOException {
    CustomResourceDefinition crd = crd();

    assertThat(crd.getMetadata().getName()).isEqualTo(SvcSignin.CRD_NAME).isEqualTo("svcsignins.access.svc.dev");
    assertThat(crd.getSpec().getGroup()).isEqualTo(HasMetadata.getGroup(SvcSignin.class)).isEqualTo("access.svc.dev");
    assertThat(crd.getSpec().getScope()).isEqualTo("Namespaced");
    assertThat(crd.getSpec().getNames().getKind()).isEqualTo(HasMetadata.getKind(SvcSignin.class)).isEqualTo("SvcSignin");
    assertThat(crd.getSpec().getNames().getListKind()).isEqualTo("SvcSigninList");
    assertThat(crd.getSpec().getNames().getPlural()).isEqualTo(HasMetadata.getPlural(SvcSignin.class));
    assertThat(crd.getSpec().getNames().getSingular()).isEqualTo(HasMetadata.getSingular(SvcSignin.class));
    assertThat(crd.getSpec().getNames().getShortNames()).containsExactly(SvcSignin.SHORT_NAME);
    assertThat(crd.getSpec().getVersions()).singleElement().satisfies(version -> {
      assertThat(version.getName()).isEqualTo(HasMetadata.getVersion(SvcSignin.class)).isEqualTo("v1alpha1");
      assertThat(version.getServed()).isTrue();
      assertThat(version.getStorage()).isTrue();
      assertThat(version.getSubresources().getStatus()).isNotNull();
    });
  }

  @Test
  void the_schema_has_exactly_the_fields_the_model_writes() throws IOException {
    JSONSchemaProps schema = crd().getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema();
    SvcSigninSpec spec = new SvcSigninSpec("dana", "view", "45m0s", "dana@corp.example");
    SvcSigninStatus status = new SvcSigninStatus(true, "2025-03-04T09:15:00Z", "2025-03-04T10:00:00Z");

    JSONSchemaProps specSchema = schema.getProperties().get("spec");
    JSONSchemaProps statusSchema = schema.getProperties().get("status");
    assertThat(specSchema.getProperties().keySet())
        .containsExactlyInAnyOrderElementsOf(fields(spec))
        .containsExactlyInAnyOrder("username", "role", "validity_period", "login_name");
    assertThat(specSchema.getRequired()).containsExactly("username", "role", "validity_period");
    assertThat(statusSchema.getProperties().keySet())
        .containsExactlyInAnyOrderElementsOf(fields(status))
        .containsExactlyInAnyOrder("provisioned", "signed_in", "valid_until");
    assertThat(statusSchema.getProperties().get("provisioned").getType()).isEqualTo("boolean");
    assertThat(statusSchema.getRequired()).containsExactly("provisioned", "signed_in", "valid_until");
  }

  @Test
  void the_printer_columns_point_at_fields_that_exist() throws IOException {
    CustomResourceDefinitionVersion version = crd().getSpec().getVersions().get(0);

    assertThat(version.getAdditionalPrinterColumns())
        .extracting(CustomResourceColumnDefinition::getName, CustomResourceColumnDefinition::getType,
            CustomResourceColumnDefinition::getJsonPath)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("provisioned", "boolean", ".status.provisioned"),
            org.assertj.core.groups.Tuple.tuple("since", "string", ".status.signed_in"),
            org.assertj.core.groups.Tuple.tuple("period", "string", ".spec.validity_period"),
            org.assertj.core.groups.Tuple.tuple("until", "string", ".status.valid_until"));
  }

  @Test
  void the_servers_role_names_the_plural_and_its_status_and_token_subresources() throws IOException {
    Role role = rbac().stream().filter(Role.class::isInstance).map(Role.class::cast)
        .filter(r -> r.getMetadata().getName().equals("svc-server")).findFirst().orElseThrow();

    assertThat(role.getRules()).anySatisfy(rule -> {
      assertThat(rule.getApiGroups()).containsExactly(SvcSignin.GROUP);
      assertThat(rule.getResources()).containsExactly(SvcSignin.PLURAL);
      assertThat(rule.getVerbs()).containsExactly("get", "list", "watch", "create", "update", "patch", "delete");
    });
    assertThat(role.getRules()).anySatisfy(rule -> {
      assertThat(rule.getResources()).containsExactly(SvcSignin.PLURAL + "/status");
      assertThat(rule.getVerbs()).containsExactly("get", "update", "patch");
    });
    assertThat(role.getRules()).anySatisfy(rule -> {
      assertThat(rule.getResources()).containsExactly("serviceaccounts/token");
      assertThat(rule.getVerbs()).containsExactly("create");
    });
  }

  @Test
  void the_servers_cluster_role_binds_only_named_roles() throws IOException {
    ClusterRole role = rbac().stream().filter(ClusterRole.class::isInstance).map(ClusterRole.class::cast)
        .findFirst().orElseThrow();

    PolicyRule bind = role.getRules().stream().filter(rule -> rule.getVerbs().contains("bind")).findFirst().orElseThrow();
    assertThat(bind.getResources()).containsExactly("clusterroles");
    assertThat(bind.getVerbs()).containsExactly("bind");
    assertThat(bind.getResourceNames()).isNotEmpty();
    assertThat(role.getRules()).anySatisfy(rule -> {
      assertThat(rule.getResources()).containsExactly("clusterrolebindings");
      assertThat(rule.getVerbs()).containsExactly("get", "list", "watch", "create", "update", "delete");
    });
  }

  @SuppressWarnings("unchecked")
  private static List<String> fields(Object value) {
    return List.copyOf(((Map<String, Object>) Serialization.jsonMapper().convertValue(value, Map.class)).keySet());
  }
}

package dev.svc.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.svc.engine.Isolation;
import dev.svc.server.mesh.GrantRule;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ConfigLoaderTest {

  private static final Path DOCUMENTED = Path.of("../conf/config.yaml");

  @TempDir Path dir;
  private final Map<ConfigKey, ConfigSources.Flag> flags = new EnumMap<>(ConfigKey.class);
  private final Map<String, String> env = new HashMap<>();
  private Optional<Path> explicitFile = Optional.empty();
  private Path work;
  private Path home;
  private Path etc;

  @BeforeEach
  void directories() throws IOException {
    work = Files.createDirectories(dir.resolve("work"));
    home = Files.createDirectories(dir.resolve("home/.config/svc"));
    etc = Files.createDirectories(dir.resolve("etc/svc"));
  }

  private SvcConfig load() {
    return ConfigLoader.load(new ConfigSources(flags, env, explicitFile, List.of(work, home, etc)));
  }

  private SvcConfig loadForClient() {
    return ConfigLoader.loadForClient(new ConfigSources(flags, env, explicitFile, List.of(work, home, etc)));
  }

  private List<String> problems() {
    ConfigException e = catchThrowableOfType(ConfigException.class, this::load);
    assertThat(e).as("the configuration has problems").isNotNull();
    return e.problems().stream().map(ConfigProblem::render).toList();
  }

  private Path write(Path directory, String yaml) throws IOException {
    return Files.writeString(directory.resolve(ConfigSources.FILE_NAME), yaml);
  }

  private Path file(String yaml) throws IOException {
    return write(work, yaml);
  }

  private void flag(ConfigKey key, String option, String value) {
    flags.put(key, new ConfigSources.Flag(option, value));
  }

  @Test
  void without_any_source_every_key_has_its_default() {
    SvcConfig config = load();

    assertThat(config.debug()).isFalse();
    assertThat(config.mesh().hostname()).isEqualTo("svc");
    assertThat(config.mesh().port()).isEqualTo(443);
    assertThat(config.mesh().capName()).isEqualTo("svc.dev/cap/svc");
    assertThat(config.mesh().mode()).isEqualTo(SvcConfig.MeshMode.MANAGED);
    assertThat(config.mesh().logUpload()).isTrue();
    assertThat(config.mesh().dev()).isEqualTo(
        new SvcConfig.DevCaller("dev@localhost", List.of(new GrantRule("view", "1h", 0))));
    assertThat(config.server()).isEqualTo(new SvcConfig.Server(
        Duration.ofSeconds(10), Duration.ofSeconds(5), Duration.ofSeconds(20), Duration.ofSeconds(120)));
    assertThat(config.health().port()).isEqualTo(8080);
    assertThat(config.otel()).isEqualTo(new SvcConfig.Otel(Optional.empty(), true));
    assertThat(config.operator()).isEqualTo(
        new SvcConfig.Operator("svc-dev", "svc-cluster", "svc-context-", "svc-user-", List.of()));
    assertThat(config.kubernetes().mode()).isEqualTo(SvcConfig.KubernetesMode.CLUSTER);
    assertThat(config.api().retryAfterSeconds()).isEqualTo(1);
    assertThat(config.output()).isEqualTo(new SvcConfig.Output("tokyo-night", true, false, false));
    assertThat(config.clusterInfo().labels()).isEmpty();
    assertThat(config.clusterInfo().configMapRef()).isEqualTo(new SvcConfig.ConfigMapRef(false, "cluster-info",
        "kube-public", new SvcConfig.ConfigMapKeys("apiEndpoint", "caData", "insecure", "kubeconfig")));
    assertThat(config.engine()).isEqualTo(new SvcConfig.Engine(
        0, Duration.ofSeconds(1), Duration.ofSeconds(1), 256L << 20, Duration.ofSeconds(5),
        Isolation.IN_PROCESS, Duration.ofMillis(2)));
  }

  @Test
  void an_instances_memory_is_a_size_in_bytes_or_binary_units() {
    for (String[] size : new String[][] {
        {"16MiB", Long.toString(16L << 20)}, {"1GiB", Long.toString(1L << 30)}, {"4GiB", Long.toString(4L << 30)},
        {"65536 KiB", Long.toString(64L << 20)}, {"33554432", Long.toString(32L << 20)}}) {
      env.put("SVC_ENGINE_MAXMEMORY", size[0]);
      assertThat(load().engine().maxMemory()).as(size[0]).isEqualTo(Long.parseLong(size[1]));
    }
  }

  @Test
  void the_default_evaluation_timeout_may_not_pass_its_cap() {
    env.put("SVC_ENGINE_EVALTIMEOUT", "10s");

    assertThat(problems()).containsExactly("environment variable SVC_ENGINE_EVALTIMEOUT and default"
        + " (engine.maxEvalTimeout): engine.evalTimeout: is longer than engine.maxEvalTimeout\n  help: make the default at most the cap, or raise the cap");
  }

  @Test
  void the_event_loops_evaluate_for_2ms_by_default_but_never_with_instances_out_of_process() {
    assertThat(load().engine().loopEvalBudget()).isEqualTo(Duration.ofMillis(2));
    assertThat(load().engine().loopEvalBudgetInEffect()).isEqualTo(Duration.ofMillis(2));

    env.put("SVC_ENGINE_ISOLATION", "process");
    assertThat(load().engine().loopEvalBudget()).isEqualTo(Duration.ofMillis(2));
    assertThat(load().engine().loopEvalBudgetInEffect()).isZero();
  }

  @Test
  void the_event_loops_evaluation_budget_is_off_or_from_a_millisecond_to_a_tenth_of_a_second() {
    String help = "\n  help: give 0 to evaluate on the pool's threads only, or from 1ms to 100ms such as 2ms";
    env.put("SVC_ENGINE_LOOPEVALBUDGET", "0");
    assertThat(load().engine().loopEvalBudgetInEffect()).isZero();
    env.put("SVC_ENGINE_LOOPEVALBUDGET", "5ms");
    assertThat(load().engine().loopEvalBudget()).isEqualTo(Duration.ofMillis(5));

    env.put("SVC_ENGINE_LOOPEVALBUDGET", "500us");
    assertThat(problems()).containsExactly("environment variable SVC_ENGINE_LOOPEVALBUDGET: engine.loopEvalBudget:"
        + " is less than 1ms, the least timeout the engine counts" + help);
    env.put("SVC_ENGINE_LOOPEVALBUDGET", "101ms");
    assertThat(problems()).containsExactly("environment variable SVC_ENGINE_LOOPEVALBUDGET: engine.loopEvalBudget:"
        + " is more than 100ms: a slow policy would hold an event loop, and every connection on it, that long" + help);
  }

  static Stream<Arguments> precedence() {
    return Stream.of(
        arguments(ConfigKey.MESH_PORT, "1001", "1002", "mesh:\n  port: 1003\n",
            (Function<SvcConfig, Object>) c -> c.mesh().port(), 1001, 1002, 1003, 443),
        arguments(ConfigKey.MESH_HOSTNAME, "from-flag", "from-env", "mesh:\n  hostname: from-file\n",
            (Function<SvcConfig, Object>) c -> c.mesh().hostname(), "from-flag", "from-env", "from-file", "svc"),
        arguments(ConfigKey.SERVER_READ_TIMEOUT, "1s", "2m", "server:\n  readTimeout: 1.5h\n",
            (Function<SvcConfig, Object>) c -> c.server().readTimeout(),
            Duration.ofSeconds(1), Duration.ofMinutes(2), Duration.ofMinutes(90), Duration.ofSeconds(10)),
        arguments(ConfigKey.CLUSTER_INFO_LABELS, "a=1,b=2", "{\"env\": \"staging\"}",
            "clusterInfo:\n  labels:\n    region: eu\n",
            (Function<SvcConfig, Object>) c -> c.clusterInfo().labels(),
            Map.of("a", "1", "b", "2"), Map.of("env", "staging"), Map.of("region", "eu"), Map.of()),
        arguments(ConfigKey.DEBUG, "true", "1", "debug: false\n",
            (Function<SvcConfig, Object>) c -> c.debug(), true, true, false, false));
  }

  @ParameterizedTest
  @MethodSource
  void precedence(ConfigKey key, String flagValue, String envValue, String yaml,
      Function<SvcConfig, Object> read, Object fromFlag, Object fromEnv, Object fromFile, Object fromDefault)
      throws IOException {
    assertThat(read.apply(load())).as("default").isEqualTo(fromDefault);
    file(yaml);
    assertThat(read.apply(load())).as("file over default").isEqualTo(fromFile);
    env.put(key.environmentVariable(), envValue);
    assertThat(read.apply(load())).as("environment over file").isEqualTo(fromEnv);
    flag(key, "--flag", flagValue);
    assertThat(read.apply(load())).as("flag over environment").isEqualTo(fromFlag);
  }

  @Test
  void an_environment_variable_is_svc_and_the_key_upper_cased_with_underscores() {
    env.put("SVC_OUTPUT_MARKDOWNLINT_FIX", "true");
    env.put("SVC_MESH_STATEDIR", "/var/lib/svc");
    env.put("SVC_CLUSTERINFO_CONFIGMAPREF_KEYS_CLIENTCONFIG", "admin.conf");

    SvcConfig config = load();

    assertThat(config.output().markdownlintFix()).isTrue();
    assertThat(config.mesh().stateDir()).isEqualTo("/var/lib/svc");
    assertThat(config.clusterInfo().configMapRef().keys().clientconfig()).isEqualTo("admin.conf");
  }

  @Test
  void an_empty_environment_variable_counts_as_unset() throws IOException {
    file("mesh:\n  hostname: from-file\n");
    env.put("SVC_MESH_HOSTNAME", "");

    assertThat(load().mesh().hostname()).isEqualTo("from-file");
  }

  @Test
  void the_first_config_file_found_is_read_and_the_others_are_not() throws IOException {
    write(etc, "mesh:\n  port: 3\n  hostname: etc\n");
    assertThat(load().mesh().port()).isEqualTo(3);
    write(home, "mesh:\n  port: 2\n");
    assertThat(load().mesh().port()).isEqualTo(2);
    assertThat(load().mesh().hostname()).as("files are not merged").isEqualTo("svc");
    write(work, "mesh:\n  port: 1\n");
    assertThat(load().mesh().port()).isEqualTo(1);
  }

  @Test
  void a_config_file_given_explicitly_is_the_only_one_read() throws IOException {
    file("mesh:\n  port: 1\n");
    explicitFile = Optional.of(write(Files.createDirectories(dir.resolve("elsewhere")), "health:\n  port: 9\n"));

    SvcConfig config = load();

    assertThat(config.health().port()).isEqualTo(9);
    assertThat(config.mesh().port()).isEqualTo(443);
  }

  @Test
  void the_standard_search_is_the_working_directory_then_home_then_etc() {
    assertThat(ConfigSources.searchDirectories(Path.of("/w"), Path.of("/h")))
        .containsExactly(Path.of("/w"), Path.of("/h/.config/svc"), Path.of("/etc/svc"));
  }

  @Test
  void file_keys_nest_or_are_dotted_and_match_whatever_their_case() throws IOException {
    file("MESH:\n  Port: 8443\n  dev.login: dana@corp.example\nserver.idletimeout: 1m\n");

    SvcConfig config = load();

    assertThat(config.mesh().port()).isEqualTo(8443);
    assertThat(config.mesh().dev().login()).isEqualTo("dana@corp.example");
    assertThat(config.server().idleTimeout()).isEqualTo(Duration.ofMinutes(1));
  }

  @Test
  void a_file_key_without_a_value_counts_as_unset() throws IOException {
    file("mesh:\n  hostname:\n");

    assertThat(load().mesh().hostname()).isEqualTo("svc");
  }

  @Test
  void grants_come_from_the_file_or_as_json_from_the_environment() throws IOException {
    file("mesh:\n  dev:\n    grants:\n      - {role: admin, period: 45m, priority: 30}\n      - {role: view, period: 6h}\n");
    assertThat(load().mesh().dev().grants())
        .containsExactly(new GrantRule("admin", "45m", 30), new GrantRule("view", "6h", 0));

    env.put("SVC_MESH_DEV_GRANTS", "[]");
    assertThat(load().mesh().dev().grants()).isEmpty();
  }

  @Test
  void a_zero_health_port_means_8080_and_a_retry_after_below_one_means_one() {
    env.put("SVC_HEALTH_PORT", "0");
    env.put("SVC_API_RETRYAFTERSECONDS", "-5");

    SvcConfig config = load();

    assertThat(config.health().port()).isEqualTo(8080);
    assertThat(config.api().retryAfterSeconds()).isEqualTo(1);
  }

  @Test
  void an_otel_endpoint_without_a_scheme_takes_it_from_otel_insecure() throws IOException {
    env.put("SVC_OTEL_ENDPOINT", "collector:4317");
    assertThat(load().otel().endpoint()).contains(URI.create("http://collector:4317"));

    env.put("SVC_OTEL_INSECURE", "false");
    assertThat(load().otel().endpoint()).contains(URI.create("https://collector:4317"));
  }

  // ---- every validation error, as the user reads it

  private static final String DURATION_HELP = "\n  help: write a Go duration such as 90s, 1h30m or 1.5h: numbers with a unit"
      + " each, one of ns, us, ms, s, m, h";
  private static final String GRANTS_HELP = "\n  help: write grants as a list of objects such as {role: view, period: 1h,"
      + " priority: 10}; role and period are required";
  private static final String LABELS_HELP = "\n  help: write labels as a mapping, as k1=v1,k2=v2, or as a JSON object such"
      + " as {\"env\": \"staging\"}";
  private static final String ROLES_HELP = "\n  help: list ClusterRoles as [view, edit], or as text view,edit; an empty"
      + " list allows any";
  private static final String INSTALL_HELP = "\n  help: list policies as [access.main, web=access.web], or as text"
      + " access.main,web=access.web";

  private static final String SIZE_HELP = "\n  help: write a size such as 256MiB: a whole number of B, KiB, MiB or GiB,"
      + " from 16MiB to 4GiB";

  static Stream<Arguments> a_wrong_value_names_the_key_and_the_variable() {
    return Stream.of(
        arguments("SVC_DEBUG", "yes", "debug: `yes` isn't a boolean\n  help: write true or false"),
        arguments("SVC_API_RETRYAFTERSECONDS", "soon",
            "api.retryAfterSeconds: `soon` isn't a whole number\n  help: write a whole number, such as 1"),
        arguments("SVC_HEALTH_PORT", "70000",
            "health.port: `70000` isn't a port number\n  help: write a port number from 0 to 65535"),
        arguments("SVC_MESH_MODE", "devv",
            "mesh.mode: unknown value `devv`\n  help: did you mean `dev`? the values are managed, external, dev"),
        arguments("SVC_KUBERNETES_MODE", "embeded", "kubernetes.mode: unknown value `embeded`\n"
            + "  help: did you mean `embedded`? the values are cluster, embedded"),
        arguments("SVC_ENGINE_ISOLATION", "proces", "engine.isolation: unknown value `proces`\n"
            + "  help: did you mean `process`? the values are in-process, process"),
        arguments("SVC_OPERATOR_ALLOWEDROLES", "view,,edit",
            "operator.allowedRoles: entry 2 of 3 is empty" + ROLES_HELP),
        arguments("SVC_OPERATOR_ALLOWEDROLES", "[\"view\", \"view\"]",
            "operator.allowedRoles: the role `view` is given twice" + ROLES_HELP),
        arguments("SVC_OUTPUT_THEME", "solarized", "output.theme: unknown value `solarized`\n"
            + "  help: the values are ascii, dark, dracula, tokyo-night, light, notty, markdown"),
        arguments("SVC_SERVER_READTIMEOUT", "10", "server.readTimeout: `10` has a number without a unit" + DURATION_HELP),
        arguments("SVC_SERVER_WRITETIMEOUT", "1d", "server.writeTimeout: `1d` has the unknown unit `d`" + DURATION_HELP),
        arguments("SVC_SERVER_IDLETIMEOUT", "-1s",
            "server.idleTimeout: `-1s` is negative\n  help: write 0 for no timeout, or a positive duration such as 10s"),
        arguments("SVC_CLUSTERINFO_LABELS", "a=b,c", "clusterInfo.labels: `c` isn't a label written name=value" + LABELS_HELP),
        arguments("SVC_CLUSTERINFO_LABELS", "env=prod,env=dev", "clusterInfo.labels: the label `env` is given twice"
            + LABELS_HELP),
        arguments("SVC_CLUSTERINFO_LABELS", "=prod", "clusterInfo.labels: `=prod` gives no name" + LABELS_HELP),
        arguments("SVC_POLICIES_INSTALL", "access.main,web=", "policies.install: `web=` gives no value" + INSTALL_HELP),
        arguments("SVC_POLICIES_INSTALL", "access.main,,web=access.web", "policies.install: entry 2 of 3 is empty"
            + INSTALL_HELP),
        arguments("SVC_POLICIES_INSTALL", "access.main,a/b=access.main", "policies.install: `a/b` isn't a policy name"
            + "\n  help: name policies as the engine names them: identifiers joined by dots, such as access.main; a"
            + " `-` may follow a segment's first character, such as refund-gate; at most 128 characters"),
        arguments("SVC_CLUSTERINFO_LABELS", "{\"a\": ", "clusterInfo.labels: `{\"a\": ` isn't JSON: Unexpected end-of-input"
            + " within/between Object entries" + LABELS_HELP),
        arguments("SVC_MESH_DEV_GRANTS", "[{\"role\": \"view\", \"period\": \"1h\", \"priority\": \"10\"}]",
            "mesh.dev.grants: grant 1: `priority` is a string, not a whole number" + GRANTS_HELP),
        arguments("SVC_MESH_DEV_GRANTS", "[{\"role\": \"view\", \"period\": \"1h\"}, {\"period\": \"1h\"}]",
            "mesh.dev.grants: grant 2 has no role" + GRANTS_HELP),
        arguments("SVC_MESH_DEV_GRANTS", "[{\"role\": \"view\", \"period\": \"soon\"}]",
            "mesh.dev.grants: grant 1: period: `soon` isn't a duration" + GRANTS_HELP),
        arguments("SVC_MESH_DEV_GRANTS", "[{\"role\": \"view\"}]", "mesh.dev.grants: grant 1: period: missing" + GRANTS_HELP),
        arguments("SVC_MESH_DEV_GRANTS", "[\"view\"]", "mesh.dev.grants: grant 1: a rule is a string, not an object such"
            + " as {\"role\": \"view\", \"period\": \"1h\"}" + GRANTS_HELP),
        arguments("SVC_MESH_DEV_GRANTS", "{\"role\": \"view\"}", "mesh.dev.grants: grants are a list, not a mapping" + GRANTS_HELP),
        arguments("SVC_OTEL_ENDPOINT", "ftp://collector:4317", "otel.endpoint: `ftp://collector:4317` isn't an http or https"
            + " address\n  help: write the collector's OTLP address: localhost:4317 for gRPC, http://collector:4318 for HTTP"),
        arguments("SVC_ENGINE_MAXMEMORY", "1TB", "engine.maxMemory: `1TB` isn't a byte size" + SIZE_HELP),
        arguments("SVC_ENGINE_MAXMEMORY", "1.5GiB", "engine.maxMemory: `1.5GiB` isn't a byte size" + SIZE_HELP),
        arguments("SVC_ENGINE_MAXMEMORY", "5GiB", "engine.maxMemory: `5GiB` is more than 4GiB" + SIZE_HELP),
        arguments("SVC_ENGINE_MAXMEMORY", "1MiB", "engine.maxMemory: `1MiB` is less than 16MiB" + SIZE_HELP),
        arguments("SVC_ENGINE_MAXMEMORY", "99999999999999999999", "engine.maxMemory: `99999999999999999999` is too"
            + " large" + SIZE_HELP),
        arguments("SVC_ENGINE_MAXEVALTIMEOUT", "0", "engine.maxEvalTimeout: is 0, but evaluations need a cap\n"
            + "  help: give the largest timeout_ms callers may ask for, such as 5s"),
        arguments("SVC_ENGINE_MAXEVALTIMEOUT", "1m", "engine.maxEvalTimeout: is more than 59.5s, past which an"
            + " evaluation would outlive the operation deadline of 1m0s\n  help: give at most 59.5s"));
  }

  @ParameterizedTest
  @MethodSource
  void a_wrong_value_names_the_key_and_the_variable(String variable, String value, String problem) {
    env.put(variable, value);

    assertThat(problems()).containsExactly("environment variable " + variable + ": " + problem);
  }

  @Test
  void policies_to_install_are_text_or_a_list_and_a_bare_name_installs_the_policy_under_its_own() throws IOException {
    Files.createDirectories(dir.resolve("policies"));
    file("policies:\n  dir: " + dir.resolve("policies") + "\n  install: [access.main, web=access.web]\n");
    assertThat(load().policies().install()).containsExactly(
        Map.entry("access.main", "access.main"), Map.entry("web", "access.web"));

    flag(ConfigKey.POLICIES_INSTALL, "--install", " web = access.web , access.main");
    assertThat(load().policies().install()).containsExactly(
        Map.entry("web", "access.web"), Map.entry("access.main", "access.main"));
  }

  @Test
  void allowed_roles_are_a_list_or_text_and_keep_their_order() throws IOException {
    file("operator:\n  allowedRoles: [view, edit]\n");
    assertThat(load().operator().allowedRoles()).containsExactly("view", "edit");

    env.put("SVC_OPERATOR_ALLOWEDROLES", " admin , view");
    assertThat(load().operator().allowedRoles()).containsExactly("admin", "view");
  }

  @Test
  void engine_instances_run_in_the_jvm_unless_each_is_to_run_in_a_host_process() {
    assertThat(load().engine().isolation()).isEqualTo(Isolation.IN_PROCESS);

    env.put("SVC_ENGINE_ISOLATION", "process");

    assertThat(load().engine().isolation()).isEqualTo(Isolation.PROCESS);
  }

  @Test
  void the_kubernetes_mode_is_a_flag_of_serve() {
    flag(ConfigKey.KUBERNETES_MODE, "--kubernetes-mode", "embedded");

    assertThat(load().kubernetes().mode()).isEqualTo(SvcConfig.KubernetesMode.EMBEDDED);
  }

  @Test
  void a_wrong_pair_of_a_flag_names_the_flag_and_the_key() {
    flag(ConfigKey.CLUSTER_INFO_LABELS, "--labels", "env=prod,team");

    assertThat(problems()).containsExactly(
        "flag --labels: clusterInfo.labels: `team` isn't a label written name=value" + LABELS_HELP);
  }

  @Test
  void a_wrong_flag_names_the_flag() {
    flag(ConfigKey.MESH_PORT, "--port", "abc");

    assertThat(problems()).containsExactly(
        "flag --port: mesh.port: `abc` isn't a whole number\n  help: write a port number from 0 to 65535");
  }

  static Stream<Arguments> a_wrong_file_names_the_file_line_and_column() {
    return Stream.of(
        arguments("server:\n  readTimeout: 10\n",
            "{file}:2:3: server.readTimeout: `10` has a number without a unit" + DURATION_HELP),
        arguments("clusterInfo:\n  labels:\n    env: [a, b]\n", "{file}:2:3: clusterInfo.labels: a list isn't one value"
            + " for label `env`\n  help: give the key one value, such as it has in conf/config.yaml"),
        arguments("policies:\n  install: [access.main, main=access.main, access.main]\n",
            "{file}:2:3: policies.install: the policy `access.main` is given twice" + INSTALL_HELP),
        arguments("mesh:\n  prot: 8443\n", "{file}:2:3: mesh.prot: unknown key\n"
            + "  help: did you mean `mesh.port`? conf/config.yaml lists every key"),
        arguments("mesh: 5\n", "{file}:1:1: mesh: is a section of keys, not a value\n"
            + "  help: write its keys indented below it; conf/config.yaml lists every key"),
        arguments("mesh.port: 1\nmesh:\n  port: 2\n", "{file}:3:3: mesh.port: is set a second time in the file\n"
            + "  help: keep one of the two; the first is at config file {file}:1:1"),
        arguments("- a\n- b\n", "{file}:1:1: the file isn't a mapping of keys to values\n"
            + "  help: write one key per line, such as `mesh:` and below it `  port: 8443`; conf/config.yaml lists every key"));
  }

  @ParameterizedTest
  @MethodSource
  void a_wrong_file_names_the_file_line_and_column(String yaml, String problem) throws IOException {
    Path written = file(yaml);

    assertThat(problems()).containsExactly("config file " + problem.replace("{file}", written.toString()));
  }

  @Test
  void a_file_that_is_not_yaml_is_an_error_reading_it() throws IOException {
    Path yaml = file("mesh: [\n");

    assertThat(problems()).singleElement().asString()
        .startsWith("error reading config file: " + yaml + ":")
        .contains("help: fix the YAML syntax at that line");
  }

  @Test
  void a_missing_explicit_file_is_refused() {
    Path missing = dir.resolve("missing.yaml");
    explicitFile = Optional.of(missing);

    assertThat(problems()).containsExactly(
        "error reading config file: " + missing + " doesn't exist\n"
            + "  help: give --config an existing file, or leave it out to search ., $HOME/.config/svc/ and"
            + " /etc/svc/");
  }

  @Test
  void an_otel_endpoint_must_agree_with_otel_insecure() throws IOException {
    Path yaml = file("otel:\n  endpoint: https://collector:4317\n");

    assertThat(problems()).containsExactly(
        "config file " + yaml + ":2:3 and default (otel.insecure): otel.endpoint: `https://collector:4317` is TLS,"
            + " but otel.insecure is true\n"
            + "  help: make them agree, or write the endpoint as host:port and let otel.insecure choose");
  }

  @Test
  void explicit_cluster_info_and_the_config_map_reference_exclude_each_other() throws IOException {
    Path yaml = file("clusterInfo:\n  configMapRef:\n    enabled: true\n");
    flag(ConfigKey.CLUSTER_INFO_API_ENDPOINT, "--api-endpoint", "https://k8s:6443");

    assertThat(problems()).containsExactly(
        "flag --api-endpoint and config file " + yaml + ":3:5 (clusterInfo.configMapRef.enabled):"
            + " clusterInfo.apiEndpoint: both are set\n"
            + "  help: use either explicit cluster info or the ConfigMap reference, not both");
  }

  @Test
  void an_enabled_config_map_reference_needs_a_name_and_namespace() {
    env.put("SVC_CLUSTERINFO_CONFIGMAPREF_ENABLED", "true");
    flag(ConfigKey.CONFIG_MAP_NAMESPACE, "--namespace", "");

    assertThat(problems()).containsExactly(
        "flag --namespace and environment variable SVC_CLUSTERINFO_CONFIGMAPREF_ENABLED"
            + " (clusterInfo.configMapRef.enabled): clusterInfo.configMapRef.namespace: is empty, but the"
            + " ConfigMap reference is enabled\n"
            + "  help: name the ConfigMap and its namespace, or set clusterInfo.configMapRef.enabled to false");
  }

  @Test
  void a_ca_that_is_not_base64_is_refused_at_start() {
    flag(ConfigKey.CLUSTER_INFO_CA_DATA, "--ca-data", "not base64!");

    ConfigException refused = catchThrowableOfType(ConfigException.class, this::load);
    assertThat(refused.refusedAtStart()).as("a start-up check of spec §2.6, not a malformed value").isTrue();
    assertThat(problems()).singleElement().asString()
        .startsWith("flag --ca-data: clusterInfo.caData: isn't base64: ")
        .endsWith("help: write the cluster's CA certificate (PEM) as base64, such as `base64 -w0 ca.crt` prints");
  }

  @Test
  void a_client_reads_a_file_the_server_would_refuse_to_start_with_but_not_a_malformed_one() throws IOException {
    file("mesh:\n  hostname: svc-prod\nclusterInfo:\n  apiEndpoint: https://k8s:6443\n  caData: not base64!\n"
        + "  configMapRef:\n    enabled: true\n");
    ConfigException server = catchThrowableOfType(ConfigException.class, this::load);
    assertThat(server.refusedAtStart()).isTrue();
    assertThat(server.problems()).hasSize(2);

    SvcConfig client = loadForClient();

    assertThat(client.mesh().hostname()).isEqualTo("svc-prod");
    assertThat(client.clusterInfo().apiEndpoint()).isEqualTo("https://k8s:6443");
    file("mesh:\n  hostnmae: svc-prod\n");
    ConfigException typo = catchThrowableOfType(ConfigException.class, this::loadForClient);
    assertThat(typo.problems()).singleElement().extracting(ConfigProblem::message).isEqualTo("unknown key");
  }

  @Test
  void every_problem_is_reported_at_once() throws IOException {
    file("mesh:\n  prot: 1\nserver:\n  readTimeout: soon\n");
    env.put("SVC_DEBUG", "maybe");
    flag(ConfigKey.HEALTH_PORT, "--health-port", "-1");

    assertThat(problems()).hasSize(4);
  }

  // ---- conf/config.yaml

  @Test
  void the_documented_config_file_holds_every_key_at_its_default() throws IOException {
    JsonNode documented = new YAMLMapper().readTree(DOCUMENTED.toFile());
    TreeSet<String> keys = new TreeSet<>();
    collectKeys(documented, "", keys);

    assertThat(keys).containsExactlyInAnyOrderElementsOf(ConfigKey.names());
    SvcConfig defaults = load();
    explicitFile = Optional.of(DOCUMENTED);
    assertThat(load()).isEqualTo(defaults);
  }

  @Test
  void the_documented_config_file_describes_every_key_with_its_type_and_the_serve_flags_it_has() throws IOException {
    Map<ConfigKey, String> comments = commentsAboveKeys(Files.readAllLines(DOCUMENTED));

    for (ConfigKey key : ConfigKey.values()) {
      String comment = comments.getOrDefault(key, "");
      assertThat(comment).as("the comment above %s", key).contains("(" + key.type().documented());
      key.serveOption().ifPresentOrElse(
          option -> assertThat(comment).as("the comment above %s", key)
              .contains("Flag: " + String.join(", ", option.names())),
          () -> assertThat(comment).as("the comment above %s, which svc serve has no flag for", key)
              .doesNotContainPattern("Flag:[^.]*\\(serve\\)"));
    }
  }

  private static final Pattern KEY_LINE = Pattern.compile("^( *)([A-Za-z][\\w.-]*):");

  // Each key's comment: the comment lines right above it, joined by spaces. Sections nest by indent.
  private static Map<ConfigKey, String> commentsAboveKeys(List<String> lines) {
    Map<ConfigKey, String> comments = new EnumMap<>(ConfigKey.class);
    Deque<Integer> indents = new ArrayDeque<>();
    Deque<String> sections = new ArrayDeque<>();
    StringBuilder comment = new StringBuilder();
    for (String line : lines) {
      String text = line.strip();
      if (text.startsWith("#")) {
        comment.append(text.substring(1).strip()).append(' ');
        continue;
      }
      Matcher matcher = KEY_LINE.matcher(line);
      if (matcher.find()) {
        int indent = matcher.group(1).length();
        while (!indents.isEmpty() && indents.peek() >= indent) {
          indents.pop();
          sections.pop();
        }
        List<String> path = new ArrayList<>(sections);
        Collections.reverse(path);
        path.add(matcher.group(2));
        String name = String.join(".", path);
        ConfigKey.byName(name).ifPresent(key -> comments.put(key, comment.toString().strip()));
        if (ConfigKey.isSection(name)) {
          indents.push(indent);
          sections.push(matcher.group(2));
        }
      }
      comment.setLength(0);
    }
    return comments;
  }

  private static void collectKeys(JsonNode node, String prefix, TreeSet<String> keys) {
    node.properties().forEach(member -> {
      String name = prefix.isEmpty() ? member.getKey() : prefix + "." + member.getKey();
      if (ConfigKey.byName(name).isPresent()) {
        keys.add(ConfigKey.byName(name).orElseThrow().key());
      } else {
        collectKeys(member.getValue(), name, keys);
      }
    });
  }
}

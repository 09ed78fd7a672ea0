package dev.svc.cli.policy;

import dev.svc.engine.Engine;
import dev.svc.engine.ExplainOptions;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code svc policy explain}: each policy flattened into every decision rule and assert it can
 * reach, with the chain of invocations and the conditions on the way (tooling spec §5).
 */
@Command(name = "explain", mixinStandardHelpOptions = true,
    description = "Show every rule and assert a policy can reach, with their conditions.")
final class ExplainCommand implements Callable<Integer> {

  @Mixin RunGuard guard;
  @Mixin ProjectOptions project;

  @Option(names = {"-p", "--policy"}, paramLabel = "<pattern>",
      description = "The policy to explain, a name or a pattern; every policy when omitted.")
  String policy;

  @Override
  public Integer call() {
    return guard.run(this::explain);
  }

  private int explain(Console console) {
    ProjectOptions.Project loaded = project.load(console, Sources::isSigil);
    NoFiles.require(loaded);
    ExplainOptions options = ExplainOptions.defaults().withTrustedFiles(loaded.trustedFiles());
    if (policy != null) {
      options = options.withPolicy(policy);
    }
    byte[] records;
    try (Engine engine = Console.engine()) {
      records = engine.explainJson(loaded.files(), options);
    }
    if (!console.isText()) {
      console.records(records);
      return 0;
    }
    for (Object explanation : JsonTree.list(JsonTree.parse(new String(records, StandardCharsets.UTF_8)))) {
      text(console, JsonTree.object(explanation));
    }
    return 0;
  }

  private static void text(Console console, Map<String, Object> explanation) {
    PolicyColors theme = console.theme();
    List<Object> rules = JsonTree.list(explanation.get("rules"));
    long modules = Long.parseLong(JsonTree.text(explanation.get("modules")));
    console.out().println(theme.bold(JsonTree.text(explanation.get("policy"))) + ": "
        + Counts.of(rules.size(), "rule", "rules") + " from "
        + Counts.of(Long.parseLong(JsonTree.text(explanation.get("policies"))), "policy", "policies") + " and "
        + Counts.of(modules, "module", "modules"));
    for (Object item : rules) {
      Map<String, Object> rule = JsonTree.object(item);
      String chain = String.join(" → ", JsonTree.list(rule.get("chain")).stream().map(JsonTree::text).toList());
      boolean isAssert = "assert".equals(rule.get("kind"));
      String head = isAssert
          ? "assert " + JsonTree.text(rule.get("reason")) + " (" + JsonTree.text(rule.get("phase")) + ")"
          : rule.get("decision") + "(reason: " + rule.get("reason") + ")";
      console.out().println("  " + theme.bold(head) + "  " + theme.muted(chain));
      List<Object> conditions = JsonTree.list(rule.get("conditions"));
      if (conditions.isEmpty()) {
        console.out().println("    " + theme.muted("always"));
      }
      for (int i = 0; i < conditions.size(); i++) {
        console.out().println((i == 0 ? "    when " : "     and ") + JsonTree.text(conditions.get(i)));
      }
      if (rule.containsKey("check")) {
        console.out().println("    check " + JsonTree.text(rule.get("check")));
      }
      for (Object payload : JsonTree.list(rule.get("payload"))) {
        console.out().println("    with " + JsonTree.text(payload));
      }
    }
  }
}

package dev.svc.cli.policy;

import dev.svc.engine.Engine;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code svc policy version}: the embedded engine's version record (tooling spec §8). */
@Command(name = "version", mixinStandardHelpOptions = true, description = "Print the embedded engine's version record.")
final class PolicyVersionCommand implements Callable<Integer> {

  @Mixin RunGuard guard;

  @Override
  public Integer call() {
    return guard.run(PolicyVersionCommand::version);
  }

  private static int version(Console console) {
    byte[] record;
    try (Engine engine = Console.engine()) {
      record = engine.versionJson();
    }
    if (!console.isText()) {
      console.records(record);
      return 0;
    }
    Map<String, Object> fields = JsonTree.object(JsonTree.parse(new String(record, StandardCharsets.UTF_8)));
    int width = fields.keySet().stream().mapToInt(String::length).max().orElse(0) + 1;
    fields.forEach((key, value) ->
        console.out().println(console.theme().bold(String.format("%-" + width + "s", key + ":")) + " " + JsonTree.text(value)));
    return 0;
  }
}

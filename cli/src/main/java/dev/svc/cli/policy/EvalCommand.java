package dev.svc.cli.policy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.engine.CompileOptions;
import dev.svc.engine.Engine;
import dev.svc.engine.EngineException;
import dev.svc.engine.EvalOptions;
import dev.svc.engine.Policy;
import dev.svc.engine.Stub;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code svc policy eval}: evaluates the root policy on one input and prints the eval record
 * (tooling spec §6), host functions answered by stubs. Fails when the bundle doesn't check, the root
 * doesn't compile, the input doesn't decode, or the evaluation fails.
 */
@Command(name = "eval", mixinStandardHelpOptions = true,
    description = "Evaluate a policy on one input (JSON or YAML) and print its decision, trace and failures.")
final class EvalCommand implements Callable<Integer> {

  private static final String INPUT_ADVICE =
      "the input is a JSON or YAML object with one key per input the kind declares";
  private static final String ENGINE_INPUT_ADVICE =
      "the input is a JSON object with one key per input the kind declares";
  private static final String ENGINE_INPUT_PREFIX = "the input: ";

  @Mixin RunGuard guard;
  @Mixin ProjectOptions project;

  @Option(names = {"-p", "--policy"}, paramLabel = "<name>", description = "The root policy; the bundle's only policy when omitted.")
  String policy;

  @Option(names = {"-i", "--input"}, paramLabel = "<file>", description = "The input file, JSON or YAML; - or omitted for stdin.")
  String input;

  @Option(names = "--stubs", paramLabel = "<file>", description = "A stubs file (YAML or JSON) answering host functions.")
  String stubsFile;

  @Option(names = "--stub", paramLabel = "<name=value>",
      description = "A host function answering VALUE to every call (repeatable; later ones replace earlier).")
  List<String> stubFlags = new ArrayList<>();

  @Override
  public Integer call() {
    return guard.run(this::eval);
  }

  private int eval(Console console) {
    ProjectOptions.Project loaded = project.load(console, Sources::isSigil);
    NoFiles.require(loaded);
    CompileOptions options = CompileOptions.defaults().withTrustedFiles(loaded.trustedFiles());
    if (policy != null) {
      options = options.withPolicy(policy);
    }
    for (Map.Entry<String, Stub> stub : stubs(console).entrySet()) {
      options = options.withStub(stub.getKey(), stub.getValue());
    }
    Documents.Text inputText = Documents.read(console.workspace(), Optional.ofNullable(input));
    JsonNode inputDocument = Documents.parse(inputText, INPUT_ADVICE);
    byte[] record;
    try (Engine engine = Console.engine(); Policy compiled = engine.compile(loaded.files(), options)) {
      record = evaluate(compiled, inputText.name(), inputDocument);
    }
    Map<String, Object> report = JsonTree.object(JsonTree.parse(new String(record, StandardCharsets.UTF_8)));
    if (console.isText()) {
      EvalText.print(console, report);
    } else {
      console.records(record);
    }
    return report.containsKey("error") ? PolicyCommand.FAILED : 0;
  }

  private SortedMap<String, Stub> stubs(Console console) {
    SortedMap<String, Stub> stubs = new TreeMap<>();
    if (stubsFile != null) {
      Documents.Text text = Documents.read(console.workspace(), Optional.of(stubsFile));
      stubs.putAll(StubsFile.read(text.name(), Documents.parse(text, "a stubs file maps each host function to its stub")));
    }
    for (String flag : stubFlags) {
      Map.Entry<String, Stub> stub = StubsFile.flag(flag);
      stubs.put(stub.getKey(), stub.getValue());
    }
    return stubs;
  }

  // The engine names the input "the input"; the command names the file it came from (tooling spec §6.1).
  private static byte[] evaluate(Policy compiled, String name, JsonNode input) {
    try {
      return compiled.evalJson(input, EvalOptions.defaults());
    } catch (EngineException e) {
      if (!e.message().startsWith(ENGINE_INPUT_PREFIX)) {
        throw e;
      }
      List<String> advice = new ArrayList<>();
      String help = e.help();
      if (help.endsWith(ENGINE_INPUT_ADVICE)) {
        help = help.substring(0, help.length() - ENGINE_INPUT_ADVICE.length()).strip();
        help = help.endsWith(";") ? help.substring(0, help.length() - 1) : help;
      }
      if (!help.isEmpty()) {
        advice.add(help);
      }
      advice.add(INPUT_ADVICE);
      throw new PolicyException(name + ": " + e.message().substring(ENGINE_INPUT_PREFIX.length()), advice, List.of(),
          List.of());
    }
  }
}

package dev.svc.cli.access;

import dev.svc.client.ClientException;
import dev.svc.client.Problem;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * Where a sign-in puts the kubeconfig (access-server spec §7.2, decision O5): merged into the user's
 * kubeconfig (the default), or a file of its own that {@code KUBECONFIG} names. The flag wins over the
 * variable {@value #VARIABLE}.
 */
final class KubeconfigMode {

  /** The environment variable that sets the mode when the flag isn't passed. */
  static final String VARIABLE = "SVC_KUBECONFIG_MODE";

  /** The modes. */
  enum Mode {
    /** Upsert into {@code $KUBECONFIG}'s first file or {@code ~/.kube/config} and switch the context. */
    merge,
    /** A new private file in the temporary directory, and a statement that points KUBECONFIG at it. */
    file
  }

  @Option(names = "--kubeconfig-mode", paramLabel = "<mode>",
      description = "merge: into $KUBECONFIG's first file or ~/.kube/config, switching the context; "
          + "file: a file of its own and a KUBECONFIG statement (default: merge, or $" + VARIABLE + ").")
  Mode mode;

  /** The mode chosen by the flag, else the variable, else merge; a wrong variable is an error. */
  Mode resolve(Map<String, String> environment) {
    if (mode != null) {
      return mode;
    }
    String value = environment.getOrDefault(VARIABLE, "");
    if (value.isEmpty()) {
      return Mode.merge;
    }
    Optional<Mode> named = Arrays.stream(Mode.values())
        .filter(m -> m.name().equals(value.toLowerCase(Locale.ROOT))).findFirst();
    return named.orElseThrow(() -> new ClientException(Problem.of(
        VARIABLE + " is `" + value + "`, not a kubeconfig mode", "set it to `merge` or `file`, or unset it")));
  }
}

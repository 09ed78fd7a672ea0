package dev.svc.cli.access;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code svc kubeconfig} and {@code svc get kubeconfig}: a fresh kubeconfig for the current session
 * (access-server spec §11.8), installed like {@code svc login} does.
 */
@Command(name = "kubeconfig", description = "Get a kubeconfig with a fresh token for the current session.")
final class KubeconfigCommand extends ClientCommand {

  @Mixin KubeconfigMode mode;

  KubeconfigCommand(ClientRuntime runtime) {
    super(runtime);
  }

  @Override
  int run(ClientContext context) {
    KubeconfigMode.Mode chosen = mode.resolve(context.runtime().environment());
    LoginFlow flow = new LoginFlow(context);
    flow.install(flow.fetchKubeconfig(), chosen);
    return 0;
  }
}

package dev.svc.cli.access;

import dev.svc.cli.kubeconfig.IssuedKubeconfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code svc login}: signs in and installs the kubeconfig (access-server spec §11.4). */
@Command(name = "login", aliases = {"signin", "auth"}, description = "Sign in to the cluster and get a kubeconfig.")
final class LoginCommand extends ClientCommand {

  @Mixin KubeconfigMode mode;

  @Option(names = "--shell", description = "Start a signed-in subshell instead, like `svc shell` (unix).")
  boolean shell;

  LoginCommand(ClientRuntime runtime) {
    super(runtime);
  }

  @Override
  int run(ClientContext context) {
    if (shell) {
      return new Subshell(context).run();
    }
    KubeconfigMode.Mode chosen = mode.resolve(context.runtime().environment());
    LoginFlow flow = new LoginFlow(context);
    flow.signIn();
    IssuedKubeconfig issued = flow.fetchKubeconfig();
    flow.install(issued, chosen);
    return 0;
  }
}

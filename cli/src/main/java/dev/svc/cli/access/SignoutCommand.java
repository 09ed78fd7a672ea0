package dev.svc.cli.access;

import dev.svc.cli.files.AtomicFile;
import dev.svc.cli.kubeconfig.KubeconfigMerge;
import dev.svc.client.ApiResponse;
import dev.svc.client.ClientException;
import java.nio.file.Path;
import picocli.CommandLine.Command;

/**
 * {@code svc signout}: ends the session (access-server spec §11.8) and removes what merge mode wrote
 * for this server from the user's kubeconfig, restoring the context that was current before (§7.2).
 */
@Command(name = "signout", aliases = "logout", description = "Sign out: end the session and remove its credentials.")
final class SignoutCommand extends ClientCommand {

  SignoutCommand(ClientRuntime runtime) {
    super(runtime);
  }

  @Override
  int run(ClientContext context) {
    ApiResponse response = context.client().logout();
    boolean signedOut = response.status() == 200;
    if (signedOut || response.status() == 404 || response.status() == 401) {
      // Without a session on the server the credentials are dead: remove them either way.
      removeMergedEntries(context);
    }
    if (!signedOut) {
      throw new ClientException(response.problem());
    }
    if (!context.quiet()) {
      context.console().ok("You have been signed out");
    }
    return 0;
  }

  static void removeMergedEntries(ClientContext context) {
    ClientRuntime runtime = context.runtime();
    Path target = KubeconfigMerge.target(runtime.environment(), runtime.home(), runtime.pathSeparator());
    KubeconfigMerge.Removed removed = new KubeconfigMerge(AtomicFile.privateFile(target, runtime.pause()))
        .remove(context.client().address().url());
    if (!removed.removedContexts().isEmpty() && !context.quiet()) {
      context.console().info("removed the context " + String.join(", ", removed.removedContexts()) + " from "
          + removed.file() + (removed.currentContext().isEmpty() ? "" : "; kubectl uses " + removed.currentContext()
          + " again"));
    }
  }
}

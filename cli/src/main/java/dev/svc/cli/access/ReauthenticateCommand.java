package dev.svc.cli.access;

import dev.svc.client.ApiResponse;
import dev.svc.client.ClientException;
import dev.svc.client.Poller;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code svc reauthenticate}: signs out and in again (access-server spec §11.6). Not being signed in
 * is fine (deviation D24); between the two the command waits, at most 5 s, until the server no longer
 * knows the old session, so the new sign-in isn't removed with it.
 */
@Command(name = "reauthenticate", aliases = {"reauth", "refresh"},
    description = "Sign out and in again: a new session and a new kubeconfig.")
final class ReauthenticateCommand extends ClientCommand {

  /** How long to wait for the old session to go (§11.6). */
  static final Poller.Schedule SESSION_GONE = new Poller.Schedule(Duration.ofMillis(200), 25, Duration.ofSeconds(5));

  @Mixin KubeconfigMode mode;

  ReauthenticateCommand(ClientRuntime runtime) {
    super(runtime);
  }

  @Override
  int run(ClientContext context) {
    KubeconfigMode.Mode chosen = mode.resolve(context.runtime().environment());
    ApiResponse logout = context.client().logout();
    if (logout.status() != 200 && logout.status() != 404) {
      throw new ClientException(logout.problem());
    }
    if (logout.status() == 200) {
      waitUntilGone(context);
    }
    LoginFlow flow = new LoginFlow(context);
    flow.signIn();
    flow.install(flow.fetchKubeconfig(), chosen);
    return 0;
  }

  private static void waitUntilGone(ClientContext context) {
    Poller poller = new Poller(context.runtime().clock(), context.runtime().pause(), SESSION_GONE);
    try {
      poller.poll(context.client()::session, status -> status == 401, status -> status == 403,
          Poller.Listener.SILENT);
    } catch (ClientException stillThere) {
      // The old session outlived the wait: sign in anyway; the server resets a session being removed.
    }
  }
}

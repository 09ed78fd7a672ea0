package dev.svc.cli.access;

import dev.svc.client.ApiResponse;
import dev.svc.client.ClientException;
import dev.svc.client.Session;
import java.util.Map;
import picocli.CommandLine.Command;

/**
 * {@code svc get login}: the session in a box (access-server spec §11.8), provisioned on 200 and not
 * yet on 202 (deviation D20); quiet mode doesn't change it.
 */
@Command(name = "login", aliases = "signin", description = "Show the current session.")
final class SessionCommand extends ClientCommand {

  SessionCommand(ClientRuntime runtime) {
    super(runtime);
  }

  @Override
  int run(ClientContext context) {
    ApiResponse response = context.client().session();
    if (response.status() != 200 && response.status() != 202) {
      throw new ClientException(response.problem());
    }
    Session session = Session.from(response);
    context.console().info("Login Information:");
    context.console().box(LoginFlow.fields(
        Map.entry("User:", session.username()),
        Map.entry("Role:", session.role()),
        Map.entry("Until:", LoginFlow.until(session, context.runtime().clock().getZone())),
        Map.entry("Provisioned:", response.status() == 200 ? "True" : "False")));
    return 0;
  }
}

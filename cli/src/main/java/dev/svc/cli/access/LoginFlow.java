package dev.svc.cli.access;

import dev.svc.cli.console.Console;
import dev.svc.cli.console.Theme;
import dev.svc.cli.files.AtomicFile;
import dev.svc.cli.kubeconfig.IssuedKubeconfig;
import dev.svc.cli.kubeconfig.KubeconfigMerge;
import dev.svc.cli.kubeconfig.SessionFile;
import dev.svc.cli.kubeconfig.Shell;
import dev.svc.client.ApiResponse;
import dev.svc.client.ClientException;
import dev.svc.client.Poller;
import dev.svc.client.Problem;
import dev.svc.client.Session;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The sign-in flow of {@code svc login} (access-server spec §11.4), one step a method: start the
 * session, wait for the kubeconfig, put it where the mode says, and tell the user how to use it.
 * Each step prints through the console and respects quiet mode.
 */
final class LoginFlow {

  /** The wait between the sign-in and the first poll (§11.4 step 3). */
  static final Duration SETTLE = Duration.ofMillis(100);
  /** How long polling may take before a success line is worth printing (§11.7). */
  static final Duration NOTICEABLE = Duration.ofMillis(500);

  private static final DateTimeFormatter RFC_1123 =
      DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss z", Locale.ENGLISH);
  private static final String[] SPINNER = {"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"};

  private final ClientContext context;
  private final Console console;

  LoginFlow(ClientContext context) {
    this.context = context;
    this.console = context.console();
  }

  /** Steps 1 and 2: {@code POST /login}, and unless quiet the success line and the session's box. */
  Session signIn() {
    ApiResponse response = context.client().login();
    if (response.status() != 202 && response.status() != 201) {
      throw new ClientException(response.problem());
    }
    Session session = Session.from(response);
    if (!context.quiet()) {
      console.ok("sign-in successful!");
      console.box(fields(Map.entry("User:", session.username()), Map.entry("Role:", session.role()),
          Map.entry("Until:", until(session, context.runtime().clock().getZone()))));
    }
    return session;
  }

  /** Step 3: waits briefly, then polls {@code GET /kubeconfig} (§11.7) with progress on stderr. */
  IssuedKubeconfig fetchKubeconfig() {
    pause(SETTLE);
    Poller poller = new Poller(context.runtime().clock(), context.runtime().pause(), Poller.Schedule.KUBECONFIG);
    boolean spinner = console.interactive() && !context.quiet();
    boolean[] announced = {false};
    Poller.Listener listener = (attempt, wait) -> {
      if (context.quiet()) {
        return;
      }
      if (spinner) {
        console.redraw(SPINNER[attempt % SPINNER.length] + " Waiting for kubeconfig to be ready...");
      } else if (!announced[0]) {
        console.note("Waiting for kubeconfig to be ready...");
        announced[0] = true;
      }
    };
    Poller.Outcome outcome;
    try {
      outcome = poller.poll(context.client()::kubeconfig, status -> status == 200,
          status -> status == 401 || status == 403, listener);
    } catch (ClientException e) {
      if (spinner) {
        console.clearLine();
        console.note(console.icon(Theme.Role.ERROR) + " Fetching kubeconfig failed.");
      }
      throw e;
    }
    if (spinner) {
      console.clearLine();
    }
    if (!context.quiet() && outcome.elapsed().compareTo(NOTICEABLE) > 0) {
      console.ok("Kubeconfig is ready.");
    }
    return IssuedKubeconfig.parse(outcome.response().body());
  }

  /** Step 4: merges the kubeconfig into the user's file, or writes a file of its own and says how to use it. */
  void install(IssuedKubeconfig issued, KubeconfigMode.Mode mode) {
    if (mode == KubeconfigMode.Mode.file) {
      announce(writeSessionFile(issued));
      return;
    }
    ClientRuntime runtime = context.runtime();
    Path target = KubeconfigMerge.target(runtime.environment(), runtime.home(), runtime.pathSeparator());
    KubeconfigMerge.Merged merged = new KubeconfigMerge(AtomicFile.privateFile(target, runtime.pause()))
        .merge(issued, context.client().address().url());
    if (context.quiet()) {
      return;
    }
    console.ok("kubeconfig merged into: " + merged.file());
    console.next("kubectl now uses the context " + merged.context()
        + merged.previousContext().map(p -> "; to switch back, run: kubectl config use-context " + p).orElse(""));
  }

  /** Writes the kubeconfig to a private temporary file (file mode). */
  Path writeSessionFile(IssuedKubeconfig issued) {
    return SessionFile.write(context.runtime().tempDirectory(), issued);
  }

  /** The file-mode lines of §11.4 step 4: the path and the statement, or the bare statement when quiet. */
  private void announce(Path file) {
    String statement = Shell.detect(context.runtime().osName(), context.runtime().environment()).exportStatement(file);
    if (context.quiet()) {
      console.result(statement);
      return;
    }
    console.ok("kubeconfig written to: " + file);
    console.next("To use this session, run: " + statement);
  }

  /** A session's end in RFC 1123 form in the local time zone (§11.4). */
  static String until(Session session, ZoneId zone) {
    return session.until().atZoneSameInstant(zone).format(RFC_1123);
  }

  /** Box lines of labels and values, the values aligned one space after the longest label. */
  @SafeVarargs
  static List<String> fields(Map.Entry<String, String>... fields) {
    int width = 0;
    for (Map.Entry<String, String> field : fields) {
      width = Math.max(width, field.getKey().length());
    }
    int column = width + 1;
    return Arrays.stream(fields)
        .map(f -> f.getKey() + " ".repeat(column - f.getKey().length()) + f.getValue())
        .toList();
  }

  private void pause(Duration duration) {
    try {
      context.runtime().pause().pause(duration);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ClientException(Problem.of("the sign-in was interrupted"));
    }
  }
}

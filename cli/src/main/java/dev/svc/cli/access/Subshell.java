package dev.svc.cli.access;

import dev.svc.cli.kubeconfig.IssuedKubeconfig;
import dev.svc.client.ApiResponse;
import dev.svc.client.ClientException;
import dev.svc.client.Problem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * {@code svc shell} (access-server spec §11.5): signs in, writes the kubeconfig to a private file,
 * runs the user's shell with {@code KUBECONFIG} pointing at it and {@code (svc) } before the prompt,
 * and when the shell ends signs out and removes the file, in parallel. SIGTERM and SIGHUP to svc end
 * the shell first (SIGTERM, then a kill after 250 ms); Ctrl-C belongs to the shell, so svc ignores
 * SIGINT while it runs. The exit code is the shell's (O7).
 */
final class Subshell {

  /** The prompt prefix (§0). */
  static final String PROMPT_PREFIX = "(svc) ";

  private static final long GRACE_MILLIS = 250;

  private final ClientContext context;
  private final AtomicBoolean cleaning = new AtomicBoolean();
  // INVARIANT: completed once the single clean-up ran; the shutdown hook waits for it, so the JVM
  // doesn't halt while the main thread is still signing out.
  private final CompletableFuture<Boolean> cleanedUp = new CompletableFuture<>();

  Subshell(ClientContext context) {
    this.context = context;
  }

  int run() {
    if (context.runtime().osName().toLowerCase(Locale.ROOT).startsWith("windows")) {
      throw new ClientException(Problem.of("svc shell runs on unix only",
          "run `svc login` and use the kubeconfig it writes"));
    }
    LoginFlow flow = new LoginFlow(context);
    flow.signIn();
    IssuedKubeconfig issued = flow.fetchKubeconfig();
    Path file = flow.writeSessionFile(issued);
    // The hook is in place before the shell starts: a SIGTERM that arrives as soon as the shell
    // runs still signs out and removes the file.
    AtomicReference<Process> shell = new AtomicReference<>();
    Thread hook = new Thread(() -> {
      Process started = shell.get();
      if (started != null) {
        stop(started);
      }
      cleanUp(file);
    }, "svc-shell-cleanup");
    Runtime.getRuntime().addShutdownHook(hook);
    Process child;
    try {
      child = start(file);
      shell.set(child);
    } catch (IOException e) {
      boolean cleanedUp = cleanUp(file);
      removeHook(hook);
      throw new ClientException(new Problem("couldn't start the shell `" + shellPath() + "`",
          cleanedUp ? List.of("check $SHELL") : List.of("check $SHELL", "run `svc logout`"), List.of(e.toString())));
    }
    Signal interrupt = new Signal("INT");
    SignalHandler previous = Signal.handle(interrupt, signal -> { });
    int code = waitFor(child);
    Signal.handle(interrupt, previous);
    boolean cleanedUp = cleanUp(file);
    removeHook(hook);
    return code == 0 && !cleanedUp ? ClientCommand.FAILED : code;
  }

  private static void removeHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // the hook runs or ran already; it finds the clean-up done
    }
  }

  private Process start(Path file) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(shellPath(), "-i").inheritIO();
    Map<String, String> environment = builder.environment();
    environment.clear();
    environment.putAll(context.runtime().environment());
    environment.put("KUBECONFIG", file.toString());
    environment.put("PS1", PROMPT_PREFIX + context.runtime().environment().getOrDefault("PS1", ""));
    return builder.start();
  }

  private String shellPath() {
    String shell = context.runtime().environment().getOrDefault("SHELL", "");
    return shell.isBlank() ? "/bin/bash" : shell;
  }

  private static int waitFor(Process child) {
    while (true) {
      try {
        return child.waitFor();
      } catch (InterruptedException e) {
        // svc is ending: the shutdown hook stops the shell; keep waiting for its exit code
      }
    }
  }

  private static void stop(Process child) {
    if (!child.isAlive()) {
      return;
    }
    child.destroy();
    try {
      if (!child.waitFor(GRACE_MILLIS, TimeUnit.MILLISECONDS)) {
        child.destroyForcibly();
      }
    } catch (InterruptedException e) {
      child.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Signs out and removes the file, in parallel, once; a second caller waits for the first.
   *
   * @return whether both worked
   */
  private boolean cleanUp(Path file) {
    if (!cleaning.compareAndSet(false, true)) {
      return cleanedUp.join();
    }
    boolean ok = false;
    try {
      ok = signOutAndRemove(file);
    } finally {
      cleanedUp.complete(ok);
    }
    return ok;
  }

  /** Prints what failed unless quiet. */
  private boolean signOutAndRemove(Path file) {
    CompletableFuture<Problem> logout = CompletableFuture.supplyAsync(this::signOut);
    Problem removal = remove(file);
    Problem signOut = logout.join();
    boolean ok = true;
    for (Problem problem : new Problem[] {signOut, removal}) {
      if (problem != null) {
        ok = false;
        if (!context.quiet()) {
          context.console().problem(problem);
        }
      }
    }
    return ok;
  }

  private Problem signOut() {
    try {
      ApiResponse response = context.client().logout();
      if (response.status() == 200) {
        return null;
      }
      Problem problem = response.problem();
      return new Problem("signing out failed: " + problem.message(),
          concat(problem.advice(), "run `svc logout` to end the session"), problem.causes());
    } catch (ClientException e) {
      return new Problem("signing out failed: " + e.problem().message(),
          concat(e.problem().advice(), "run `svc logout` to end the session"), e.problem().causes());
    }
  }

  private static Problem remove(Path file) {
    try {
      Files.deleteIfExists(file);
      return null;
    } catch (IOException e) {
      return new Problem("couldn't remove the kubeconfig `" + file + "`", List.of("remove it by hand: it holds a token"),
          List.of(e.toString()));
    }
  }

  private static List<String> concat(List<String> advice, String more) {
    return Stream.concat(advice.stream(), Stream.of(more)).toList();
  }
}

package dev.svc.server.mesh.tailnet;

import dev.svc.server.StartException;
import dev.svc.server.config.SvcConfig;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Our own {@code tailscaled --tun=userspace-networking} child for {@code mesh.mode: managed}
 * (notes/tailnet.md §2.2). Its state lives in {@code mesh.stateDir} (created 0700, locked so two
 * servers never share it), its local API on {@code mesh.socket} (default: in the state directory).
 * Its output goes to our log with a {@code tailscaled:} prefix.
 *
 * <p>The child never outlives the JVM on an orderly exit (a shutdown hook stops it), and a child left
 * over from a killed JVM is found at the next start: its socket still answers, and the start is
 * refused. A child that dies after it served is started again, with a doubling back-off.
 *
 * <p>No secret reaches the child: the auth key goes only into the local API's {@code start} request,
 * never into its arguments (readable by every local user) or its environment.
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
public final class TailscaledProcess {

  /** Environment variables the child never inherits: they hold auth keys. */
  static final List<String> SECRET_ENVIRONMENT = List.of("MESH_AUTHKEY", "TS_AUTHKEY", "TS_AUTH_KEY");
  /** The longest unix socket path Linux takes ({@code sun_path} less its terminating zero). */
  static final int MAX_SOCKET_PATH = 107;

  private static final Logger LOG = System.getLogger(TailscaledProcess.class.getName());
  private static final Duration STOP_GRACE = Duration.ofSeconds(10);
  private static final Duration RESTART_FIRST = Duration.ofSeconds(1);
  private static final Duration RESTART_MAX = Duration.ofSeconds(30);
  private static final int KEPT_LINES = 20;

  private volatile Vertx vertx;
  private final Path binary;
  private final Path stateDir;
  private final Path socket;
  private final boolean logUpload;
  private final Map<String, String> childEnvironment;
  private final Deque<String> lastLines = new ArrayDeque<>();
  private final Thread shutdownHook = new Thread(this::destroy, "svc-tailscaled-stop");
  private volatile Process process;
  private volatile boolean stopping;
  private volatile boolean served;
  private volatile FileChannel lockFile;
  private Duration restartDelay = RESTART_FIRST; // guarded by this

  private TailscaledProcess(Path binary, Path stateDir, Path socket, boolean logUpload,
      Map<String, String> environment) {
    this.binary = binary;
    this.stateDir = stateDir;
    this.socket = socket;
    this.logUpload = logUpload;
    Map<String, String> child = new java.util.HashMap<>(environment);
    SECRET_ENVIRONMENT.forEach(child::remove);
    this.childEnvironment = Map.copyOf(child);
  }

  /**
   * The child {@code config} describes, not started: checks the binary, the state directory and the
   * socket path first.
   *
   * @param config the {@code mesh.*} keys
   * @param environment the process environment, for {@code PATH} and the default state directory; the
   *     child gets it without {@link #SECRET_ENVIRONMENT}
   * @return the child to {@link #start(Vertx, Future)}
   * @throws StartException when the binary is missing or a path is unusable
   */
  public static TailscaledProcess of(SvcConfig.Mesh config, Map<String, String> environment) {
    Path binary = findBinary(config.tailscaled(), environment.getOrDefault("PATH", ""));
    Path stateDir = config.stateDir().isEmpty() ? defaultStateDir(environment) : Path.of(config.stateDir());
    Path socket = config.socket().isEmpty() ? stateDir.resolve("tailscaled.sock") : Path.of(config.socket());
    if (socket.toAbsolutePath().toString().getBytes(StandardCharsets.UTF_8).length > MAX_SOCKET_PATH) {
      throw new StartException("the daemon's socket path " + socket.toAbsolutePath() + " is longer than "
          + MAX_SOCKET_PATH + " bytes, which a unix socket can't be",
          "set mesh.socket to a shorter path, such as /tmp/svc-mesh/tailscaled.sock", null);
    }
    return new TailscaledProcess(binary, stateDir.toAbsolutePath(), socket.toAbsolutePath(), config.logUpload(),
        environment);
  }

  /** {@code <user config dir>/tsnet-svc}: {@code $XDG_CONFIG_HOME}, else {@code ~/.config}. */
  static Path defaultStateDir(Map<String, String> environment) {
    String xdg = environment.getOrDefault("XDG_CONFIG_HOME", "");
    Path config = xdg.isEmpty() ? Path.of(System.getProperty("user.home"), ".config") : Path.of(xdg);
    return config.resolve("tsnet-svc");
  }

  private static Path findBinary(String name, String path) {
    List<Path> candidates = new ArrayList<>();
    if (name.contains("/")) {
      candidates.add(Path.of(name));
    } else {
      for (String dir : path.split(":")) {
        if (!dir.isEmpty()) {
          candidates.add(Path.of(dir, name));
        }
      }
    }
    return candidates.stream().filter(Files::isExecutable).findFirst().orElseThrow(() -> new StartException(
        "tailscaled not found: mesh.tailscaled is \"" + name + "\"" + (name.contains("/") ? "" : ", which isn't on PATH"),
        "install tailscaled (pin its version in the image) or set mesh.tailscaled to its path; without it, use "
            + "mesh.mode external with a daemon someone else runs, or mesh.mode dev on one machine", null));
  }

  /**
   * The socket the child serves its local API on.
   *
   * @return the socket's path
   */
  public Path socket() {
    return socket;
  }

  /**
   * Prepares the state directory, takes its lock, and spawns the child.
   *
   * @param vertx runs the restarts
   * @param socketAnswers whether a daemon already answers on the socket; one that does is another
   *     server's, or the child of a JVM that was killed
   * @return completes once the child runs; fails with a {@link StartException}
   */
  public Future<Void> start(Vertx vertx, Future<Boolean> socketAnswers) {
    this.vertx = vertx;
    try {
      Files.createDirectories(stateDir);
      Files.setPosixFilePermissions(stateDir, PosixFilePermissions.fromString("rwx------"));
      Files.createDirectories(socket.getParent());
      lock();
    } catch (IOException e) {
      return Future.failedFuture(new StartException("mesh.stateDir " + stateDir + " can't be used: " + e.getMessage(),
          "set mesh.stateDir to a directory this user may create and write (a persistent volume in production)", e));
    } catch (StartException e) {
      return Future.failedFuture(e);
    }
    return socketAnswers.compose(live -> {
      if (live) {
        return Future.failedFuture(new StartException("a tailscaled already answers at " + socket,
            "another svc server or a daemon left by a killed one uses this state; stop it (or use it with "
                + "mesh.mode external and mesh.socket)", null));
      }
      try {
        Files.deleteIfExists(socket);
        spawn();
      } catch (IOException e) {
        return Future.failedFuture(new StartException("tailscaled (" + binary + ") can't be started: " + e.getMessage(),
            "check mesh.tailscaled and that this user may run it", e));
      }
      Runtime.getRuntime().addShutdownHook(shutdownHook);
      return Future.succeededFuture();
    });
  }

  private void lock() throws IOException {
    FileChannel channel = FileChannel.open(stateDir.resolve("svc.lock"), StandardOpenOption.CREATE,
        StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (java.nio.channels.OverlappingFileLockException e) {
      lock = null;
    }
    if (lock == null) {
      channel.close();
      throw new StartException("another svc server uses mesh.stateDir " + stateDir,
          "give every server its own mesh.stateDir: two servers on one node identity fight over it", null);
    }
    lockFile = channel;
  }

  private synchronized void spawn() throws IOException {
    List<String> command = new ArrayList<>(List.of(binary.toString(), "--tun=userspace-networking",
        "--statedir=" + stateDir, "--socket=" + socket, "--port=0"));
    if (!logUpload) {
      command.add("--no-logs-no-support");
    }
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().clear();
    builder.environment().putAll(childEnvironment);
    Process started = builder.start();
    process = started;
    LOG.log(Level.INFO, "mesh: started tailscaled (pid " + started.pid() + "): " + String.join(" ", command));
    Thread pump = new Thread(() -> pump(started), "svc-tailscaled-log");
    pump.setDaemon(true);
    pump.start();
    started.onExit().thenAccept(this::exited);
  }

  private void pump(Process child) {
    try (BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream(),
        StandardCharsets.UTF_8))) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        LOG.log(Level.INFO, "tailscaled: " + line);
        synchronized (lastLines) {
          if (lastLines.size() == KEPT_LINES) {
            lastLines.removeFirst();
          }
          lastLines.addLast(line);
        }
      }
    } catch (IOException e) {
      // The child's output ended with it.
    }
  }

  /**
   * The child's last lines of output, to explain why it stopped.
   *
   * @return up to 20 lines, oldest first
   */
  public List<String> lastLines() {
    synchronized (lastLines) {
      return List.copyOf(lastLines);
    }
  }

  /**
   * Completes when the current child exits, with its exit code.
   *
   * @return the exit code; never completes while the child runs
   */
  public Future<Integer> exit() {
    Process current = process;
    Promise<Integer> exited = Promise.promise();
    current.onExit().thenAccept(p -> exited.tryComplete(p.exitValue()));
    return exited.future();
  }

  private void exited(Process child) {
    if (stopping || child != process || !served) {
      // A child that never served failed the start, which says so; restarting it would fail again.
      return;
    }
    Duration delay;
    synchronized (this) {
      delay = restartDelay;
      restartDelay = delay.multipliedBy(2).compareTo(RESTART_MAX) > 0 ? RESTART_MAX : delay.multipliedBy(2);
    }
    LOG.log(Level.WARNING, "mesh: tailscaled exited with code " + child.exitValue() + " (last output: "
        + String.join(" | ", lastLines()) + "); starting it again in " + delay.toMillis() + " ms");
    vertx.setTimer(delay.toMillis(), t -> {
      if (stopping) {
        return;
      }
      try {
        Files.deleteIfExists(socket);
        spawn();
      } catch (IOException e) {
        LOG.log(Level.ERROR, "mesh: tailscaled can't be started again: " + e.getMessage());
      }
    });
  }

  /** Marks the child as serving: from now on it is started again when it dies, back-off reset. */
  synchronized void healthy() {
    served = true;
    restartDelay = RESTART_FIRST;
  }

  /**
   * The pid of the running child.
   *
   * @return the pid, when a child was started
   */
  public Optional<Long> pid() {
    Process current = process;
    return current == null ? Optional.empty() : Optional.of(current.pid());
  }

  /**
   * Stops the child: SIGTERM, then SIGKILL after a grace of 10 s; releases the state directory.
   *
   * @return completes when the child is gone
   */
  public Future<Void> stop() {
    stopping = true;
    if (vertx == null) {
      return Future.succeededFuture();
    }
    return vertx.executeBlocking(() -> {
      destroy();
      try {
        Runtime.getRuntime().removeShutdownHook(shutdownHook);
      } catch (IllegalStateException | IllegalArgumentException e) {
        // The JVM is shutting down, or the hook was never added.
      }
      return null;
    });
  }

  private void destroy() {
    stopping = true;
    Process current = process;
    if (current != null && current.isAlive()) {
      current.destroy();
      try {
        if (!current.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
          current.destroyForcibly().waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
        }
      } catch (InterruptedException e) {
        current.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
    FileChannel lock = lockFile;
    if (lock != null) {
      try {
        lock.close();
      } catch (IOException e) {
        // The lock goes with the process anyway.
      }
    }
  }
}

package dev.svc.server.engine;

import dev.svc.engine.CompileOptions;
import dev.svc.engine.SourceFile;
import dev.svc.engine.SvcException;
import dev.svc.server.config.SvcConfig;
import dev.svc.supervisor.Pool;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The policies of the {@code policies.*} keys: every {@code .sigil} file under {@code policies.dir}
 * compiled for each installed name, at start-up and, with {@code policies.reload}, again whenever the
 * files change.
 *
 * <p>Changes are found by scanning the directory's file paths, sizes and modification times every
 * {@link #SCAN_PERIOD}, rather than with a {@link java.nio.file.WatchService}: a watch service doesn't
 * recurse into subdirectories, misses the symlink swap by which Kubernetes updates a mounted ConfigMap,
 * and on some file systems only polls anyway. A change is installed once a scan finds the files as the
 * scan before found them (a debounce, so an editor's or a copy's several writes make one reload).
 *
 * <p>A version that fails to compile leaves the one before serving: the failure is logged, shown as
 * the policy's {@code reload_failure} in the API, and counted in {@code svc.policies.reloads} with
 * {@code result=failed}. Readiness waits until every configured policy was installed once.
 *
 * <p><b>Thread safety:</b> thread-safe; scans run on a Vert.x timer, compiles on the engines' threads.
 */
public final class ConfigPolicies {

  /** How often the directory is scanned for changes. */
  public static final Duration SCAN_PERIOD = Duration.ofSeconds(1);

  private static final Logger LOG = System.getLogger(ConfigPolicies.class.getName());

  private final SvcConfig.Policies config;
  private final EnginePool engines;
  private final PolicyCatalog catalog;
  private final MeterRegistry registry;
  private volatile boolean installed;
  private Map<Path, String> seen = Map.of(); // the scan timer's own
  private Map<Path, String> pending = Map.of(); // the scan timer's own
  private long timer = -1;

  /**
   * The configured policies, not loaded yet.
   *
   * @param config the {@code policies.*} keys
   * @param engines where they compile
   * @param catalog where they are recorded
   * @param registry where reloads are counted
   */
  public ConfigPolicies(SvcConfig.Policies config, EnginePool engines, PolicyCatalog catalog, MeterRegistry registry) {
    this.config = config;
    this.engines = engines;
    this.catalog = catalog;
    this.registry = registry;
    this.installed = config.install().isEmpty();
  }

  /**
   * Installs every configured policy once and, with {@code policies.reload}, scans for changes every
   * {@code period} on {@code vertx}.
   *
   * @param vertx where the scans run
   * @param period the time between scans, such as {@link #SCAN_PERIOD}
   * @return completes when the first install was tried; a policy that failed is logged and tried
   *     again when the files change
   */
  public Future<Void> start(Vertx vertx, Duration period) {
    if (config.dir().isEmpty() || config.install().isEmpty()) {
      return Future.succeededFuture();
    }
    return vertx.executeBlocking(this::scan).compose(files -> {
      seen = files;
      pending = files;
      return load(vertx, files);
    }).onComplete(done -> {
      if (config.reload()) {
        timer = vertx.setPeriodic(period.toMillis(), id -> rescan(vertx));
      }
    }).mapEmpty();
  }

  /**
   * Stops scanning for changes.
   *
   * @param vertx where the scans ran
   */
  public void stop(Vertx vertx) {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
    }
  }

  /**
   * Whether every configured policy was installed at least once: readiness waits for it.
   *
   * @return true once installed, or when none is configured
   */
  public boolean installed() {
    return installed;
  }

  private void rescan(Vertx vertx) {
    vertx.executeBlocking(this::scan).onSuccess(files -> {
      if (files.equals(seen)) {
        pending = files;
      } else if (files.equals(pending)) {
        seen = files;
        LOG.log(Level.INFO, "policy files in " + config.dir().orElseThrow() + " changed; installing again");
        load(vertx, files);
      } else {
        pending = files;
      }
    }).onFailure(failure -> LOG.log(Level.WARNING, "scanning " + config.dir().orElseThrow() + " failed", failure));
  }

  // Each configured name in order; a failure keeps the version before, if there is one.
  private Future<Void> load(Vertx vertx, Map<Path, String> files) {
    Future<List<SourceFile>> sources = vertx.executeBlocking(() -> read(files.keySet()));
    return sources.compose(read -> Future.fromCompletionStage(engines.submit("reload", pool -> {
      boolean all = true;
      for (Map.Entry<String, String> install : config.install().entrySet()) {
        all &= install(pool, install.getKey(), install.getValue(), read);
      }
      return all;
    }), vertx.getOrCreateContext())).onSuccess(all -> {
      if (all) {
        installed = true;
      }
    }).onFailure(failure -> LOG.log(Level.ERROR, "reading " + config.dir().orElseThrow() + " failed", failure))
        .mapEmpty();
  }

  private boolean install(Pool pool, String name, String policy, List<SourceFile> files) {
    try {
      catalog.install(pool, name, files, CompileOptions.defaults().withPolicy(policy), PolicyCatalog.Source.CONFIG);
      count(name, "ok");
      return true;
    } catch (SvcException e) {
      String failure = e.getMessage();
      LOG.log(Level.ERROR, "installing " + name + " (policy " + policy + ") from " + config.dir().orElseThrow()
          + " failed" + (catalog.get(name).isPresent() ? "; the version before keeps serving" : "") + ": " + failure);
      catalog.reloadFailed(name, failure);
      count(name, "failed");
      return false;
    }
  }

  private void count(String name, String result) {
    Counter.builder("svc.policies.reloads")
        .description("installs of configured policies from their files, by result")
        .tag("policy", name)
        .tag("result", result)
        .register(registry)
        .increment();
  }

  // Path to size and modification time of every .sigil file under the directory.
  private Map<Path, String> scan() throws IOException {
    Path dir = config.dir().orElseThrow();
    Map<Path, String> files = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path path : walk.filter(p -> p.toString().endsWith(".sigil")).toList()) {
        BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
        if (attributes.isRegularFile()) {
          files.put(path, attributes.size() + "@" + attributes.lastModifiedTime().toMillis());
        }
      }
    }
    return files;
  }

  // Paths relative to the directory, with / between names, as diagnostics name them.
  private List<SourceFile> read(Iterable<Path> paths) {
    Path dir = config.dir().orElseThrow();
    List<SourceFile> files = new ArrayList<>();
    for (Path path : paths) {
      try {
        String relative = dir.relativize(path).toString().replace('\\', '/');
        files.add(SourceFile.of(relative, Files.readString(path, StandardCharsets.UTF_8)));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return files;
  }
}

package dev.svc.server.engine;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.svc.engine.CompileOptions;
import dev.svc.engine.Diagnostic;
import dev.svc.engine.EngineException;
import dev.svc.engine.Policy;
import dev.svc.engine.SourceFile;
import dev.svc.supervisor.Pool;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The policies the server has installed in its pool, by the name they serve under: where each came
 * from, its root policy and diagnostics, and for a configured policy the last reload that failed.
 * Installing and removing go through here, one at a time, so the catalog and the pool agree.
 *
 * <p><b>Thread safety:</b> thread-safe. Installs and removals block: call them off the event loop.
 */
public final class PolicyCatalog {

  /** Where an installed policy came from. */
  public enum Source {
    /** {@code PUT /api/v1/policies/{name}}. */
    API,
    /** The {@code policies.*} keys. */
    CONFIG;

    /** The name the API writes: {@code api} or {@code config}. */
    @JsonValue
    String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * One installed policy.
   *
   * @param name the name it serves under
   * @param policy its root policy
   * @param diagnostics problems in files it doesn't use
   * @param source where it came from
   * @param reloadFailure why the last reload of its files failed, while the version before serves;
   *     empty when the last one succeeded
   */
  @JsonInclude(JsonInclude.Include.NON_ABSENT)
  public record Entry(
      @JsonProperty("name") String name,
      @JsonProperty("policy") String policy,
      @JsonProperty("diagnostics") List<Diagnostic> diagnostics,
      @JsonProperty("source") Source source,
      @JsonProperty("reload_failure") Optional<String> reloadFailure) {}

  private final Map<String, Entry> entries = new ConcurrentSkipListMap<>();

  /**
   * Compiles {@code files} into every instance of {@code pool} under {@code name}, replacing what was
   * there; on failure nothing changes.
   *
   * @param pool the server's pool
   * @param name the name to serve it under
   * @param files the kind documents, policies and modules
   * @param options the root policy, trusted files, requirements
   * @param source where it comes from
   * @return whether a policy was installed under {@code name} before, and the new entry
   * @throws dev.svc.engine.EngineException if the engine refused the files
   */
  public Installed install(Pool pool, String name, List<SourceFile> files, CompileOptions options, Source source) {
    return install(pool, name, files, options, source, new PendingInstall());
  }

  /**
   * {@link #install(Pool, String, List, CompileOptions, Source)} for a caller that may give up waiting:
   * the policy is installed (in the pool and here) only if {@code pending} commits once it compiled in
   * the first instance; abandoned before, nothing changes.
   */
  synchronized Installed install(
      Pool pool, String name, List<SourceFile> files, CompileOptions options, Source source, PendingInstall pending) {
    if (pending.abandoned()) {
      throw abandoned(name);
    }
    List<SourceFile> copied = List.copyOf(files);
    AtomicBoolean first = new AtomicBoolean(true);
    // The pool runs the recipe in one instance first, and installs it only if that run returns: that
    // run decides. Later runs (the other instances, rebuilds) compile what was decided.
    pool.install(name, engine -> {
      Policy policy = engine.compile(copied, options);
      if (first.getAndSet(false)) {
        Entry entry = new Entry(name, policy.name(), policy.diagnostics(), source, Optional.empty());
        if (!pending.commit(new Installed(entries.containsKey(name), entry))) {
          policy.close();
          throw abandoned(name);
        }
        entries.put(name, entry);
      }
      return policy;
    });
    return pending.committed().orElseThrow();
  }

  private static EngineException abandoned(String name) {
    return new EngineException("the install of `" + name + "` was given up: its caller was answered that it"
        + " didn't happen", "install it again");
  }

  /**
   * The answer of {@link #install}.
   *
   * @param replaced whether a policy was installed under the name before
   * @param entry the new entry
   */
  public record Installed(boolean replaced, Entry entry) {}

  /**
   * Removes the policy served under {@code name} from {@code pool}.
   *
   * @param pool the server's pool
   * @param name the name it serves under
   * @return whether one was installed
   */
  public synchronized boolean remove(Pool pool, String name) {
    entries.remove(name);
    return pool.remove(name);
  }

  /**
   * Notes that a reload of {@code name}'s files failed, so its entry shows why; the version before
   * keeps serving.
   *
   * @param name the name it serves under
   * @param failure what the engine said
   */
  public void reloadFailed(String name, String failure) {
    entries.computeIfPresent(name, (n, entry) -> new Entry(
        entry.name(), entry.policy(), entry.diagnostics(), entry.source(), Optional.of(failure)));
  }

  /**
   * Every installed policy.
   *
   * @return the entries, sorted by name
   */
  public List<Entry> list() {
    return List.copyOf(entries.values());
  }

  /**
   * The policy served under {@code name}.
   *
   * @param name the name
   * @return its entry, or empty
   */
  public Optional<Entry> get(String name) {
    return Optional.ofNullable(entries.get(name));
  }

  /**
   * The names policies serve under.
   *
   * @return the names, sorted
   */
  public List<String> names() {
    return List.copyOf(entries.keySet());
  }
}

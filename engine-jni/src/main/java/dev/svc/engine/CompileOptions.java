package dev.svc.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What {@link Engine#compile(List, CompileOptions)} compiles besides the files: which policy is the
 * root, trusted files, policies the root must invoke, and the host functions its evaluations call:
 * implemented in Java or answered by stubs.
 *
 * <pre>{@code
 * Policy policy = engine.compile(files, CompileOptions.defaults()
 *     .withPolicy("payments.deploy")
 *     .withRequired("platform.guardrails")
 *     .withFunction("lower", HostFunction.of(String.class, s -> s.toLowerCase(Locale.ROOT))));
 * }</pre>
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param policy the root: a name or {@code *} pattern matching exactly one policy; empty when the
 *     files hold exactly one policy
 * @param trustedFiles files loaded as the trusted source: their names are reserved, and a required
 *     policy must be defined among them when any are given
 * @param required policies the root must invoke unconditionally
 * @param functions the host functions Java implements, by the name the kind declares; a function
 *     the kind declares but nobody implements fails the evaluation that calls it
 * @param stubs host function name to the stub that answers its calls, in place of any
 *     implementation; the compile fails when a stub names a function the kind doesn't declare or
 *     gives values of the wrong type
 */
public record CompileOptions(
    Optional<String> policy,
    List<SourceFile> trustedFiles,
    List<CompileRequirement> required,
    SortedMap<String, HostFunction> functions,
    SortedMap<String, Stub> stubs) {

  /**
   * Copies the lists and the maps; nothing may be null.
   *
   * @param policy the root's name or pattern
   * @param trustedFiles the trusted files
   * @param required the required policies
   * @param functions the host functions by name (sent to the engine in name order)
   * @param stubs the stubs by host function name (sent in name order)
   */
  public CompileOptions {
    Objects.requireNonNull(policy, "policy");
    trustedFiles = List.copyOf(trustedFiles);
    required = List.copyOf(required);
    functions = Collections.unmodifiableSortedMap(new TreeMap<>(functions));
    stubs = Collections.unmodifiableSortedMap(new TreeMap<>(stubs));
  }

  /**
   * The only policy of the files, no trusted files, no requirements.
   *
   * @return the defaults
   */
  public static CompileOptions defaults() {
    return new CompileOptions(Optional.empty(), List.of(), List.of(), new TreeMap<>(), new TreeMap<>());
  }

  /**
   * A copy that compiles the policy {@code nameOrPattern} matches.
   *
   * @param nameOrPattern a policy name, or a {@code *} pattern matching exactly one
   * @return the new options
   */
  public CompileOptions withPolicy(String nameOrPattern) {
    return new CompileOptions(Optional.of(nameOrPattern), trustedFiles, required, functions, stubs);
  }

  /**
   * A copy that loads {@code files} as the trusted source.
   *
   * @param files the trusted files
   * @return the new options
   */
  public CompileOptions withTrustedFiles(List<SourceFile> files) {
    return new CompileOptions(policy, files, required, functions, stubs);
  }

  /**
   * A copy that requires the root to invoke {@code policyName} unconditionally.
   *
   * @param policyName the required policy's name
   * @return the new options
   */
  public CompileOptions withRequired(String policyName) {
    List<CompileRequirement> more = new ArrayList<>(required);
    more.add(CompileRequirement.of(policyName));
    return new CompileOptions(policy, trustedFiles, more, functions, stubs);
  }

  /**
   * A copy in which {@code function} implements the host function {@code name}, replacing any
   * given before under that name. The engine refuses a name the root's kind doesn't declare.
   *
   * @param name the host function's name, as the kind declares it
   * @param function its implementation; runs on the thread that evaluates
   * @return the new options
   */
  public CompileOptions withFunction(String name, HostFunction function) {
    SortedMap<String, HostFunction> more = new TreeMap<>(functions);
    more.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(function, "function"));
    return new CompileOptions(policy, trustedFiles, required, more, stubs);
  }

  /**
   * A copy with {@code all} as the host functions, in place of those given before.
   *
   * @param all the host functions by name
   * @return the new options
   */
  public CompileOptions withFunctions(Map<String, HostFunction> all) {
    return new CompileOptions(policy, trustedFiles, required, new TreeMap<>(all), stubs);
  }

  /**
   * A copy in which {@code stub} answers the calls of host function {@code function}, replacing
   * any earlier stub of it; a stub answers before an implementation of the same name.
   *
   * @param function the host function's name, as the kind declares it
   * @param stub what its calls get
   * @return the new options
   */
  public CompileOptions withStub(String function, Stub stub) {
    SortedMap<String, Stub> more = new TreeMap<>(stubs);
    more.put(Objects.requireNonNull(function, "function"), Objects.requireNonNull(stub, "stub"));
    return new CompileOptions(policy, trustedFiles, required, functions, more);
  }
}

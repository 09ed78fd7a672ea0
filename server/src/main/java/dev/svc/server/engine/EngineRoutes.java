package dev.svc.server.engine;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.svc.engine.CheckOptions;
import dev.svc.engine.Diagnostic;
import dev.svc.engine.ExplainOptions;
import dev.svc.engine.Explanation;
import dev.svc.engine.FormatOptions;
import dev.svc.engine.LintLevel;
import dev.svc.engine.MemoryLimitException;
import dev.svc.engine.SourceFile;
import dev.svc.engine.TestOptions;
import dev.svc.engine.TestResult;
import dev.svc.server.http.ApiError;
import dev.svc.server.http.ApiRoute;
import dev.svc.server.http.ApiJson;
import dev.svc.supervisor.Lane;
import dev.svc.supervisor.Pool;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CompletionException;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The stateless operations of the policy engine over HTTP, one handler per operation. Bodies use the
 * field names of the engine's own requests (module ABI §4), without {@code op}:
 *
 * <ul>
 *   <li>{@code POST /api/v1/check}: {@code files} (required), {@code trusted_files}, {@code policies},
 *       {@code lints}; answers {@code {"diagnostics": [...]}}, errors and warnings alike.
 *   <li>{@code POST /api/v1/format}: {@code source} (required), {@code path}; answers
 *       {@code {"source": ..., "formatted": ...}}, {@code formatted} true when the source was canonical.
 *   <li>{@code POST /api/v1/explain}: {@code files} (required), {@code trusted_files}, {@code policy};
 *       answers {@code {"explanations": [...]}}.
 *   <li>{@code POST /api/v1/test}: {@code files}, {@code test_files} (required), {@code trusted_files},
 *       {@code data_files}, {@code run}; answers {@code {"results": [...]}}, a failed case being a result.
 * </ul>
 *
 * <p>Each runs on an instance of the supervisor's pool ({@link dev.svc.supervisor.Pool#withEngine}), in
 * the lane of {@link Lane#OPERATIONS}, which evaluations never wait behind.
 *
 * <p>Each reads its body on the pool's thread, off the event loop, since a body may be megabytes of
 * JSON. A body that doesn't fit is refused with 400 before any engine is asked; a request the engine refuses
 * (such as a source that doesn't parse) is 422 with the engine's message, help and diagnostics.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 */
public final class EngineRoutes {

  /** The path of the check operation. */
  public static final String CHECK = "/api/v1/check";
  /** The path of the format operation. */
  public static final String FORMAT = "/api/v1/format";
  /** The path of the explain operation. */
  public static final String EXPLAIN = "/api/v1/explain";
  /** The path of the test operation. */
  public static final String TEST = "/api/v1/test";

  private static final String CHECK_EXAMPLE =
      "{\"files\": [{\"path\": \"access/main.sigil\", \"source\": \"...\"}]}";
  private static final String FORMAT_EXAMPLE = "{\"source\": \"...\", \"path\": \"access/main.sigil\"}";
  private static final String TEST_EXAMPLE =
      "{\"files\": [...], \"test_files\": [{\"path\": \"access/main_test.yaml\", \"source\": \"...\"}]}";

  /** A file of a request body. */
  record FileBody(@JsonProperty("path") String path, @JsonProperty("source") String source) {}

  /** The body of {@code POST /api/v1/check}. */
  record CheckRequest(
      @JsonProperty("files") List<FileBody> files,
      @JsonProperty("trusted_files") List<FileBody> trustedFiles,
      @JsonProperty("policies") List<String> policies,
      @JsonProperty("lints") Map<String, String> lints) {}

  /** The answer of {@code POST /api/v1/check}. */
  record CheckResult(@JsonProperty("diagnostics") List<Diagnostic> diagnostics) {}

  /** The body of {@code POST /api/v1/format}. */
  record FormatRequest(@JsonProperty("source") String source, @JsonProperty("path") String path) {}

  /** The answer of {@code POST /api/v1/format}. */
  record FormatResult(@JsonProperty("source") String source, @JsonProperty("formatted") boolean formatted) {}

  /** The body of {@code POST /api/v1/explain}. */
  record ExplainRequest(
      @JsonProperty("files") List<FileBody> files,
      @JsonProperty("trusted_files") List<FileBody> trustedFiles,
      @JsonProperty("policy") String policy) {}

  /** The answer of {@code POST /api/v1/explain}. */
  record ExplainResult(@JsonProperty("explanations") List<Explanation> explanations) {}

  /** The body of {@code POST /api/v1/test}. */
  record TestRequest(
      @JsonProperty("files") List<FileBody> files,
      @JsonProperty("trusted_files") List<FileBody> trustedFiles,
      @JsonProperty("test_files") List<FileBody> testFiles,
      @JsonProperty("data_files") List<FileBody> dataFiles,
      @JsonProperty("run") String run) {}

  /** The answer of {@code POST /api/v1/test}. */
  record TestAnswer(@JsonProperty("results") List<TestResult> results) {}

  /** What to make smaller when an operation ran out of memory, by the operation's name. */
  private static final Map<String, String> SMALLER = Map.of(
      "check", "check fewer or smaller files at a time, such as one policy and the files it uses",
      "explain", "explain fewer or smaller files at a time, such as one policy and the files it uses",
      "explain policy", "install the policy in smaller parts, such as modules of its own",
      "test", "run fewer or smaller test files at a time, with fewer or smaller data files",
      "format", "format a smaller source: split the file into several",
      "install", "install a smaller policy: fewer or smaller files, or its rules split into policies of their own",
      "eval", "send a smaller input, such as shorter lists and strings");

  private final EnginePool engines;

  /**
   * The routes, running their operations on {@code engines}.
   *
   * @param engines where the operations run
   */
  public EngineRoutes(EnginePool engines) {
    this.engines = engines;
  }

  /**
   * The routes, one per operation, for a {@link dev.svc.server.http.RouteTable}.
   *
   * @return the routes
   */
  public List<ApiRoute> routes() {
    return List.of(
        new ApiRoute(HttpMethod.POST, CHECK, ctx -> run(ctx, engines, "check", pool -> check(ctx, pool))),
        new ApiRoute(HttpMethod.POST, FORMAT, ctx -> run(ctx, engines, "format", pool -> format(ctx, pool))),
        new ApiRoute(HttpMethod.POST, EXPLAIN, ctx -> run(ctx, engines, "explain", pool -> explain(ctx, pool))),
        new ApiRoute(HttpMethod.POST, TEST, ctx -> run(ctx, engines, "test", pool -> test(ctx, pool))));
  }

  // Each operation reads its body on the pool's thread, not on the event loop: a body may be 4 MiB of
  // JSON, tens of milliseconds to check and decode, which the API's one event loop would spend while
  // the evaluations behind it wait (issue #20). A body refused there fails the call, answered as before.

  private static CheckResult check(RoutingContext ctx, Pool pool) {
    CheckRequest body = ApiJson.read(ctx, CheckRequest.class, CHECK_EXAMPLE);
    List<SourceFile> files = sourceFiles(body.files(), "files", "file");
    List<SourceFile> trusted = sourceFiles(body.trustedFiles(), "trusted_files", "trusted file");
    List<String> policies = Objects.requireNonNullElse(body.policies(), List.of());
    if (policies.stream().anyMatch(Objects::isNull)) {
      throw new ApiError(400, "`policies` holds null", "write policy names or patterns as strings, such as \"payments.*\"");
    }
    CheckOptions options = CheckOptions.defaults()
        .withTrustedFiles(trusted)
        .withPolicies(policies.toArray(String[]::new));
    for (Map.Entry<String, LintLevel> lint : lintLevels(body.lints()).entrySet()) {
      options = options.withLint(lint.getKey(), lint.getValue());
    }
    CheckOptions checked = options;
    return pool.withEngine(engine -> new CheckResult(engine.check(files, checked)));
  }

  private static ExplainResult explain(RoutingContext ctx, Pool pool) {
    ExplainRequest body = ApiJson.read(ctx, ExplainRequest.class, CHECK_EXAMPLE);
    List<SourceFile> files = sourceFiles(body.files(), "files", "file");
    ExplainOptions options = ExplainOptions.defaults()
        .withTrustedFiles(sourceFiles(body.trustedFiles(), "trusted_files", "trusted file"));
    ExplainOptions chosen = body.policy() == null ? options : options.withPolicy(body.policy());
    return pool.withEngine(engine -> new ExplainResult(engine.explain(files, chosen)));
  }

  private static TestAnswer test(RoutingContext ctx, Pool pool) {
    TestRequest body = ApiJson.read(ctx, TestRequest.class, TEST_EXAMPLE);
    List<SourceFile> files = sourceFiles(body.files(), "files", "file");
    List<SourceFile> testFiles = sourceFiles(body.testFiles(), "test_files", "test file");
    TestOptions options = TestOptions.defaults()
        .withTrustedFiles(sourceFiles(body.trustedFiles(), "trusted_files", "trusted file"))
        .withDataFiles(sourceFiles(body.dataFiles(), "data_files", "data file"));
    TestOptions chosen = body.run() == null ? options : options.withRun(body.run());
    return pool.withEngine(engine -> new TestAnswer(engine.test(files, testFiles, chosen)));
  }

  private static FormatResult format(RoutingContext ctx, Pool pool) {
    FormatRequest body = ApiJson.read(ctx, FormatRequest.class, FORMAT_EXAMPLE);
    if (body.source() == null) {
      throw new ApiError(400, "format needs a source",
          "send " + FORMAT_EXAMPLE + "; the path, which diagnostics name, is optional");
    }
    FormatOptions options = body.path() == null ? FormatOptions.defaults() : FormatOptions.defaults().withPath(body.path());
    return pool.withEngine(engine -> {
      String formatted = engine.format(body.source(), options);
      return new FormatResult(formatted, formatted.equals(body.source()));
    });
  }

  /**
   * Runs {@code operation} on {@code engines} and answers 200 with its result as JSON, or fails
   * {@code ctx} with what it threw, for the API's failure handler to answer.
   */
  static <T> void run(RoutingContext ctx, EnginePool engines, String name, Function<Pool, T> operation) {
    respond(ctx, engines, Lane.OPERATIONS, name, operation, (done, result) -> ApiJson.write(done, 200, result));
  }

  /**
   * Runs {@code operation} on {@code engines} in {@code lane} and answers with {@code answer}, on the
   * request's context, unless a write timeout answered already; or fails {@code ctx} with what it threw.
   */
  static <T> void respond(RoutingContext ctx, EnginePool engines, Lane lane, String name,
      Function<Pool, T> operation, BiConsumer<RoutingContext, T> answer) {
    // One listener for both outcomes: a second would make the future keep a list of them.
    Future.fromCompletionStage(engines.submit(lane, name, operation), ctx.vertx().getOrCreateContext())
        .onComplete(done -> {
          if (done.failed()) {
            Throwable failure = done.cause();
            fail(ctx, name,
                failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure);
          } else if (!ctx.response().ended()) {
            answer.accept(ctx, done.result());
          }
        });
  }

  /**
   * Fails {@code ctx} with what the operation {@code name} threw, for the API's failure handler to
   * answer: on a pool thread or on the event loop, the same answer.
   */
  static void fail(RoutingContext ctx, String name, Throwable failure) {
    ctx.fail(answerable(name, failure));
  }

  /**
   * {@code failure} of the operation {@code name} as the API's failure handler answers it. A call that
   * needed more memory than its instance may have ({@code engine.maxMemory}) is stopped, and its instance
   * rebuilt, like any stopped call; but the cause is the size of the request, which only the caller can
   * change: 413, saying what to make smaller, rather than a 500 that looks like the server's fault.
   */
  static Throwable answerable(String name, Throwable failure) {
    if (!(failure instanceof MemoryLimitException e)) {
      return failure;
    }
    String cap = e.maxMemory().isPresent() ? (e.maxMemory().getAsLong() >> 20) + " MiB" : "4 GiB";
    return new ApiError(413,
        "the " + name + " needed more memory than an engine instance may have (engine.maxMemory, " + cap
            + "), so it was stopped",
        SMALLER.getOrDefault(name, "send a smaller request")
            + "; the server's operator can raise engine.maxMemory");
  }

  // The engine's own messages for a file without a path, numbered from 1 as it numbers them.
  static List<SourceFile> sourceFiles(List<FileBody> bodies, String field, String noun) {
    if (bodies == null) {
      return List.of();
    }
    List<SourceFile> files = new ArrayList<>(bodies.size());
    for (int i = 0; i < bodies.size(); i++) {
      FileBody file = bodies.get(i);
      String which = noun + " " + (i + 1);
      if (file == null) {
        throw new ApiError(400, "`" + field + "[" + i + "]` is null", "send each file as " + CHECK_EXAMPLE);
      }
      if (file.path() == null || file.path().isEmpty()) {
        throw new ApiError(400, which + " has no path",
            "give every file a path, such as access/main.sigil; diagnostics name files by it");
      }
      if (file.source() == null) {
        throw new ApiError(400, which + " has no source", "send each file with its text, as " + CHECK_EXAMPLE);
      }
      files.add(SourceFile.of(file.path(), file.source()));
    }
    return files;
  }

  // Levels are read as the engine reads them, in the order it reads them, and refused with its words.
  private static Map<String, LintLevel> lintLevels(Map<String, String> lints) {
    Map<String, LintLevel> levels = new TreeMap<>();
    if (lints != null) {
      new TreeMap<>(lints).forEach(
          (lint, level) -> levels.put(lint, LintLevel.fromWireName(lint, String.valueOf(level))));
    }
    return levels;
  }
}

package dev.svc.server.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.engine.EvalOptions;
import dev.svc.server.engine.EnginePool;
import dev.svc.supervisor.Pool;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Engine operations are spans under the request that submitted them, on whatever thread runs them. */
class TracedEnginesTest {

  private final InMemorySpanExporter collected = InMemorySpanExporter.create();
  private final SdkTracerProvider provider =
      SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(collected)).build();
  private final Tracer tracer = provider.get("test");
  private final ExecutorService engineThread = Executors.newSingleThreadExecutor();
  private final TracedEngines engines = new TracedEngines(new OnEngineThread(), tracer);

  // The spans ended so far, oldest first.
  private List<SpanData> ended() {
    return collected.getFinishedSpanItems();
  }

  @AfterEach
  void stop() {
    engineThread.shutdownNow();
    provider.close();
  }

  @Test
  void anOperationIsANamedChildOfTheSpanCurrentWhereItWasSubmitted() {
    Span request = tracer.spanBuilder("POST /api/v1/policies/{name}/eval").startSpan();
    Scope scope = request.makeCurrent();
    CompletionStage<String> done = engines.submit("eval", pool -> "decided on " + Thread.currentThread().getName());
    scope.close();
    request.end();

    assertThat(done.toCompletableFuture().join()).doesNotContain(Thread.currentThread().getName());
    SpanData eval = ended().stream().filter(s -> s.getName().equals("engine eval")).findFirst().orElseThrow();
    assertThat(eval.getParentSpanId()).isEqualTo(request.getSpanContext().getSpanId());
    assertThat(eval.getTraceId()).isEqualTo(request.getSpanContext().getTraceId());
    assertThat(eval.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
  }

  @Test
  void anOperationThatThrowsEndsItsSpanWithTheError() {
    CompletionStage<String> done = engines.submit("check", pool -> {
      throw new IllegalStateException("the engines are closed");
    });

    assertThatThrownBy(() -> done.toCompletableFuture().join()).hasRootCauseMessage("the engines are closed");
    assertThat(ended()).singleElement().satisfies(check -> {
      assertThat(check.getName()).isEqualTo("engine check");
      assertThat(check.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
      assertThat(check.getEvents()).extracting(e -> e.getName()).containsExactly("exception");
    });
  }

  @Test
  void anEvaluationOnTheCallingThreadIsTheSameSpanAndAnAttemptThatGaveWayIsNone() {
    Span request = tracer.spanBuilder("POST /api/v1/policies/{name}/eval").startSpan();
    Scope scope = request.makeCurrent();
    Optional<byte[]> now = engines.tryEvaluateJson("now", "input", EvalOptions.defaults(), Duration.ofMillis(2));
    Optional<byte[]> later = engines.tryEvaluateJson("later", "input", EvalOptions.defaults(), Duration.ofMillis(2));
    scope.close();
    request.end();

    assertThat(now).isPresent();
    assertThat(later).isEmpty();
    assertThat(ended()).extracting(SpanData::getName).containsExactly("engine eval", "POST /api/v1/policies/{name}/eval");
    SpanData eval = ended().get(0);
    assertThat(eval.getParentSpanId()).isEqualTo(request.getSpanContext().getSpanId());
    assertThat(eval.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
  }

  @Test
  void anEvaluationOnTheCallingThreadThatThrowsEndsItsSpanWithTheError() {
    assertThatThrownBy(() -> engines.tryEvaluateJson("refused", "input", EvalOptions.defaults(), Duration.ofMillis(2)))
        .hasMessage("the input doesn't fit");

    assertThat(ended()).singleElement().satisfies(eval -> {
      assertThat(eval.getName()).isEqualTo("engine eval");
      assertThat(eval.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
      assertThat(eval.getEvents()).extracting(e -> e.getName()).containsExactly("exception");
    });
  }

  /**
   * Runs each operation on its own thread, as the server's engines do, with no pool behind it; on the
   * calling thread, evaluates policy {@code now}, gives way for {@code later} and refuses the rest.
   */
  private final class OnEngineThread implements EnginePool {
    @Override
    public Optional<byte[]> tryEvaluateJson(String name, Object input, EvalOptions options, Duration budget) {
      return switch (name) {
        case "now" -> Optional.of("{}".getBytes(StandardCharsets.UTF_8));
        case "later" -> Optional.empty();
        default -> throw new IllegalArgumentException("the input doesn't fit");
      };
    }

    @Override
    public <T> CompletionStage<T> submit(Function<Pool, T> operation) {
      return CompletableFuture.supplyAsync(() -> operation.apply(null), engineThread);
    }

    @Override
    public void close() {}
  }
}

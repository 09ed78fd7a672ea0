package dev.svc.server.telemetry;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** An exporter that keeps every ended span, for tests that read what was traced. */
public final class SpanCollector implements SpanExporter {

  private final List<SpanData> ended = new CopyOnWriteArrayList<>();

  /** The spans ended so far, oldest first; the list grows as spans end. */
  public List<SpanData> ended() {
    return ended;
  }

  @Override
  public CompletableResultCode export(Collection<SpanData> spans) {
    ended.addAll(spans);
    return CompletableResultCode.ofSuccess();
  }

  @Override
  public CompletableResultCode flush() {
    return CompletableResultCode.ofSuccess();
  }

  @Override
  public CompletableResultCode shutdown() {
    return CompletableResultCode.ofSuccess();
  }
}

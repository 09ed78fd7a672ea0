package dev.svc.server.engine;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.util.RawValue;
import dev.svc.server.http.ApiError;
import dev.svc.server.http.ApiJson;
import io.vertx.ext.web.RoutingContext;
import java.util.Optional;

/**
 * The body of {@code POST /api/v1/policies/{name}/eval}: {@code input} (required), {@code
 * timeout_ms} and {@code trace} (optional), read as strictly as {@link ApiJson} reads every body.
 *
 * <p>The usual body, an object input and at most a whole-number timeout and a boolean trace, is read
 * in one pass that checks the input's JSON (syntax, keys given twice) without building it: the input
 * goes to the engine as the text the request wrote ({@link RawValue}), which the engine parses anyway. A tree
 * built here would only be written back into text for it. Any other body is read by {@link ApiJson},
 * whose refusal says what is wrong with it.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param input what to give {@link dev.svc.supervisor.Pool#evaluateJson}: the input's JSON text as a
 *     {@link RawValue}, or a {@link JsonNode}
 * @param timeoutMs the evaluation's timeout, when the request gave one
 * @param trace whether the record should have its trace, when the request said; {@code false} is
 *     the engine's lighter answer without it
 */
record EvalBody(Object input, Optional<Long> timeoutMs, Optional<Boolean> trace) {

  /** A body to show in the help of an error. */
  static final String EXAMPLE = "{\"input\": {...}, \"timeout_ms\": 100}";

  /** The fields of the body, as {@link ApiJson} reads them. */
  record Fields(
      @JsonProperty("input") JsonNode input,
      @JsonProperty("timeout_ms") Long timeoutMs,
      @JsonProperty("trace") Boolean trace) {}

  /**
   * The request's body.
   *
   * @param ctx the request, its body read
   * @return the body
   * @throws ApiError 415 if it isn't declared JSON; 400 if it is empty, isn't JSON, has a field that
   *     isn't one of the two or one of the wrong type, or has no input
   */
  static EvalBody read(RoutingContext ctx) {
    byte[] bytes = ApiJson.bytes(ctx, EXAMPLE);
    return readUsual(bytes).orElseGet(() -> fromFields(ApiJson.read(bytes, Fields.class, EXAMPLE)));
  }

  /**
   * The usual body in one pass ({@link UsualBodyScan}): an object with an object {@code input}, at
   * most a {@code timeout_ms} that is a whole number and at most a boolean {@code trace}, valid JSON
   * without a key given twice and with nothing after it.
   *
   * @param bytes the body
   * @return the body, its input as the request wrote it; empty for any other body
   */
  static Optional<EvalBody> readUsual(byte[] bytes) {
    return UsualBodyScan.read(bytes);
  }

  private static EvalBody fromFields(Fields fields) {
    if (fields.input() == null || fields.input().isNull()) {
      throw new ApiError(400, "eval needs an input", "send " + EXAMPLE + "; timeout_ms is optional");
    }
    return new EvalBody(fields.input(), Optional.ofNullable(fields.timeoutMs()), Optional.ofNullable(fields.trace()));
  }
}

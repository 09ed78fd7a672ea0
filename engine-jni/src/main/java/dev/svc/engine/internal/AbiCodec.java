package dev.svc.engine.internal;

import com.fasterxml.jackson.core.JsonGenerationException;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.JsonGeneratorDelegate;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.svc.engine.Diagnostic;
import dev.svc.engine.EngineException;
import dev.svc.engine.EvalResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * JSON on the module's ABI: reads the response envelope ({@code id}, {@code ok}, then either the
 * op's body or {@code error} and {@code diagnostics}) and writes host-call answers.
 */
public final class AbiCodec {

  /**
   * The one mapper of the library: Optional-aware, lenient about fields it doesn't model, and
   * writing {@link java.time.Instant} and other dates as RFC 3339 text and {@link
   * java.time.Duration} in Sigil syntax ({@code 1h30m}), as the engine reads and writes them.
   */
  public static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .addModule(new Jdk8Module())
          .addModule(new JavaTimeModule())
          .addModule(SigilDurations.module())
          .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .build();

  private static final String MISMATCH_HELP =
      "use the engine.wasm built from the same svc revision as this library";

  private static final byte[] OK_TRUE = "\"ok\":true".getBytes(StandardCharsets.UTF_8);

  private AbiCodec() {}

  /**
   * The op's body of a response as {@code type}.
   *
   * @throws EngineException with the module's message, help and diagnostics when it answered
   *     {@code ok:false}, or when the response doesn't have the shape this library expects
   */
  public static <T> T decode(byte[] response, Class<T> type) {
    try {
      if (!readOk(response)) {
        throw failure(MAPPER.readTree(response));
      }
      return MAPPER.readValue(response, type);
    } catch (JsonProcessingException e) {
      throw new EngineException(
          "the module's response doesn't fit this library's types: " + e.getOriginalMessage(),
          MISMATCH_HELP, e);
    } catch (IOException e) {
      throw new EngineException("reading the module's response: " + e, MISMATCH_HELP, e);
    }
  }

  /**
   * The eval record of the module's answer to an eval: read straight from the bytes when it is an ok
   * record ({@link EvalRecordReader}), else as {@link #decode} reads it.
   *
   * @throws EngineException as {@link #decode} does
   */
  public static EvalResult evalResult(byte[] response) {
    EvalResult result = EvalRecordReader.read(response);
    return result != null ? result : decode(response, EvalResult.class);
  }

  /**
   * An eval request, {@code {"op":"eval","handle":…,"input":…}} with {@code "timeout_ms"} when it
   * is positive and {@code "trace":false} (the engine's extension of the ABI) when the record should
   * leave its trace out, written in one pass: the usual inputs by {@link EvalRequestWriter}, any
   * other with Jackson, serialized where it goes rather than made a tree first.
   *
   * @throws IllegalArgumentException when Jackson can't serialize {@code input}, or it holds a NaN or
   *     infinite number, which JSON has no text for
   */
  public static byte[] evalRequest(long handle, Object input, long timeoutMillis, boolean trace) {
    byte[] usual = EvalRequestWriter.request(handle, input, timeoutMillis, trace);
    return usual != null ? usual : jacksonEvalRequest(handle, input, timeoutMillis, trace);
  }

  /** {@link #evalRequest} written by Jackson, for any input and as the reference of the usual ones. */
  static byte[] jacksonEvalRequest(long handle, Object input, long timeoutMillis, boolean trace) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(128);
    try (JsonGenerator json = new FiniteNumbers(MAPPER.createGenerator(out))) {
      json.writeStartObject();
      json.writeStringField("op", "eval");
      json.writeNumberField("handle", handle);
      json.writeFieldName("input");
      MAPPER.writeValue(json, input);
      if (timeoutMillis > 0) {
        json.writeNumberField("timeout_ms", timeoutMillis);
      }
      if (!trace) {
        json.writeBooleanField("trace", false);
      }
      json.writeEndObject();
    } catch (IOException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    return out.toByteArray();
  }

  /**
   * The op's body of a successful response as the module wrote it: the response without its
   * envelope ({@code id} and {@code ok}, which the module writes first, module ABI §2.1).
   *
   * @throws EngineException with the module's message, help and diagnostics when it answered
   *     {@code ok:false}, or when the response doesn't have the envelope this library expects
   */
  public static byte[] body(byte[] response) {
    try {
      if (!readOk(response)) {
        throw failure(MAPPER.readTree(response));
      }
    } catch (IOException e) {
      throw new EngineException("reading the module's response: " + e, MISMATCH_HELP, e);
    }
    int rest = indexAfter(response, OK_TRUE);
    if (rest < 0) {
      throw new EngineException("the module's response doesn't start with its envelope", MISMATCH_HELP);
    }
    if (rest < response.length && response[rest] == ',') {
      rest++;
    }
    byte[] body = new byte[response.length - rest + 1];
    body[0] = '{';
    System.arraycopy(response, rest, body, 1, response.length - rest);
    return body;
  }

  /**
   * One field of a successful response's body, as the module wrote it: the bytes of its value, such
   * as the compact diagnostics list of a check.
   *
   * @throws EngineException with the module's message, help and diagnostics when it answered
   *     {@code ok:false}, or when the response has no such field
   */
  public static byte[] bodyField(byte[] response, String name) {
    try {
      if (!readOk(response)) {
        throw failure(MAPPER.readTree(response));
      }
      try (JsonParser parser = MAPPER.createParser(response)) {
        parser.nextToken();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          String field = parser.currentName();
          parser.nextToken();
          // Byte offsets are exact: the parser reads the response's own bytes.
          int start = (int) parser.currentTokenLocation().getByteOffset();
          parser.skipChildren();
          int end = (int) parser.currentLocation().getByteOffset();
          if (field.equals(name)) {
            return Arrays.copyOfRange(response, start, end);
          }
        }
      }
    } catch (IOException e) {
      throw new EngineException("reading the module's response: " + e, MISMATCH_HELP, e);
    }
    throw new EngineException("the module's response has no " + name + " field", MISMATCH_HELP);
  }

  // The envelope is compact and comes first, so the first "ok":true is the envelope's.
  private static int indexAfter(byte[] response, byte[] marker) {
    outer:
    for (int i = 0; i + marker.length <= response.length; i++) {
      for (int j = 0; j < marker.length; j++) {
        if (response[i + j] != marker[j]) {
          continue outer;
        }
      }
      return i + marker.length;
    }
    return -1;
  }

  /**
   * The compact UTF-8 JSON of a request built as a tree.
   *
   * @throws EngineException {@code the request can't be encoded as JSON: …} when the tree holds a
   *     NaN or infinite number (a stub's value, say), which JSON has no text for
   */
  public static byte[] request(ObjectNode request) {
    try {
      return encodeFinite(request);
    } catch (IOException e) {
      throw new EngineException(
          "the request can't be encoded as JSON: " + e.getMessage(),
          "keep NaN and infinite floats out of stubs and other options: JSON has no number for them",
          e);
    }
  }

  /**
   * The compact UTF-8 JSON of {@code tree}, refusing what JSON has no text for.
   *
   * @throws JsonGenerationException {@code «number» isn't a JSON number} for a NaN or infinite one
   */
  public static byte[] encodeFinite(JsonNode tree) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    try (JsonGenerator json = new FiniteNumbers(MAPPER.createGenerator(out))) {
      MAPPER.writeTree(json, tree);
    }
    return out.toByteArray();
  }

  /**
   * Refuses the numbers JSON can't write (Jackson would write them as strings), so a request that
   * holds one fails before the module sees it rather than with a type error from the module.
   */
  private static final class FiniteNumbers extends JsonGeneratorDelegate {

    FiniteNumbers(JsonGenerator json) {
      super(json, false);
    }

    @Override
    public void writeNumber(double v) throws IOException {
      requireFinite(Double.isFinite(v), Double.toString(v));
      super.writeNumber(v);
    }

    @Override
    public void writeNumber(float v) throws IOException {
      requireFinite(Float.isFinite(v), Float.toString(v));
      super.writeNumber(v);
    }

    private void requireFinite(boolean finite, String text) throws JsonGenerationException {
      if (!finite) {
        throw new JsonGenerationException(text + " isn't a JSON number", this);
      }
    }
  }

  /** A host-call answer {@code {"error": message}}. */
  public static byte[] hostError(String message) {
    return encode(MAPPER.createObjectNode().put("error", message));
  }

  /** The compact UTF-8 JSON of {@code object}, a request or an answer built as a tree. */
  public static byte[] encode(ObjectNode object) {
    try {
      return MAPPER.writeValueAsBytes(object);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a JSON tree of plain values can always be written", e);
    }
  }

  // The envelope puts `ok` first (after an optional numeric `id`), so a streaming read stops early;
  // the answers to this library's requests, which carry no id, start with it.
  private static boolean readOk(byte[] response) throws IOException {
    if (startsWith(response, STARTS_OK)) {
      return true;
    }
    if (startsWith(response, STARTS_FAILED)) {
      return false;
    }
    try (JsonParser parser = MAPPER.createParser(response)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new EngineException("the module's response isn't a JSON object", MISMATCH_HELP);
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String field = parser.currentName();
        JsonToken value = parser.nextToken();
        if (field.equals("ok")) {
          if (!value.isBoolean()) {
            break;
          }
          return value == JsonToken.VALUE_TRUE;
        }
        parser.skipChildren();
      }
    }
    throw new EngineException("the module's response has no ok field", MISMATCH_HELP);
  }

  private static final byte[] STARTS_OK = "{\"ok\":true".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] STARTS_FAILED = "{\"ok\":false".getBytes(StandardCharsets.US_ASCII);

  private static boolean startsWith(byte[] bytes, byte[] prefix) {
    return bytes.length > prefix.length
        && Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
  }

  private static EngineException failure(JsonNode response) throws JsonProcessingException {
    JsonNode error = response.path("error");
    String message = error.path("message").asText("");
    if (message.isEmpty()) {
      message = "the module returned an error without a message";
    }
    List<Diagnostic> diagnostics = new ArrayList<>();
    for (JsonNode d : response.path("diagnostics")) {
      diagnostics.add(MAPPER.treeToValue(d, Diagnostic.class));
    }
    return new EngineException(message, error.path("help").asText(""), diagnostics);
  }
}

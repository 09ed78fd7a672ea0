package dev.svc.server.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * JSON bodies of the API: strict reading of requests into records, with an answer for each way a body
 * can be wrong, and writing of answers.
 *
 * <p>Reading is strict so a mistake never passes silently: a field the operation doesn't know, a
 * wrong type (no number read as a string or the other way), a key given twice, and anything after the
 * JSON value each refuse the request with 400, naming the field.
 *
 * <p><b>Thread safety:</b> stateless and thread-safe.
 */
public final class ApiJson {

  /** The mapper of API bodies; records' optional parts are {@link java.util.Optional}. */
  public static final ObjectMapper MAPPER = JsonMapper.builder()
      .addModule(new Jdk8Module())
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
      // A number or boolean is no string either: ALLOW_COERCION_OF_SCALARS leaves that way open.
      .withCoercionConfig(LogicalType.Textual, config -> config
          .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
          .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
          .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
      .build();

  private static final String JSON_TYPE = "application/json";

  private ApiJson() {}

  /**
   * The request's body as {@code type}.
   *
   * @param <T> the body's record type
   * @param ctx the request, its body read
   * @param type the body's record type
   * @param example a body to show the caller in the help of an error, such as {@code {"source": "..."}}
   * @return the body
   * @throws ApiError 415 if the body isn't declared JSON, 400 if it is empty, isn't JSON, or doesn't
   *     fit {@code type}
   */
  public static <T> T read(RoutingContext ctx, Class<T> type, String example) {
    return read(bytes(ctx, example), type, example);
  }

  /**
   * The request's body, declared JSON and not empty, not yet read.
   *
   * @param ctx the request, its body read
   * @param example a body to show the caller in the help of an error
   * @return the body's bytes
   * @throws ApiError 415 if the body isn't declared JSON, 400 if it is empty
   */
  public static byte[] bytes(RoutingContext ctx, String example) {
    String contentType = ctx.request().getHeader(HttpHeaders.CONTENT_TYPE);
    if (contentType == null || !contentType.toLowerCase(Locale.ROOT).startsWith(JSON_TYPE)) {
      throw new ApiError(415, "the request body isn't declared JSON",
          "send the header Content-Type: application/json with a body such as " + example);
    }
    if (ctx.body().buffer() == null || ctx.body().length() == 0) {
      throw new ApiError(400, "the request has no body", "send a JSON object such as " + example);
    }
    return ctx.body().buffer().getBytes();
  }

  /**
   * {@code body} as {@code type}.
   *
   * @param <T> the body's record type
   * @param body a request's body ({@link #bytes})
   * @param type the body's record type
   * @param example a body to show the caller in the help of an error
   * @return the body
   * @throws ApiError 400 if the body isn't JSON or doesn't fit {@code type}
   */
  public static <T> T read(byte[] body, Class<T> type, String example) {
    try {
      return MAPPER.readValue(body, type);
    } catch (UnrecognizedPropertyException e) {
      throw new ApiError(400, "unknown field `" + path(e) + "`",
          "the fields " + (e.getPath().size() > 1 ? "there " : "") + "are " + names(e.getKnownPropertyIds()));
    } catch (MismatchedInputException e) {
      String where = path(e);
      throw new ApiError(400,
          where.isEmpty() ? "the request body isn't a JSON object" : "`" + where + "` isn't " + kind(e.getTargetType()),
          "send a JSON object such as " + example);
    } catch (StreamReadException e) {
      throw notJson(e, example);
    } catch (JsonMappingException e) {
      // A syntax error inside a value arrives wrapped, with the path to where it was.
      if (e.getCause() instanceof StreamReadException syntax) {
        throw notJson(syntax, example);
      }
      throw new ApiError(400, "`" + path(e) + "` is invalid: " + e.getOriginalMessage(),
          "send a JSON object such as " + example);
    } catch (IOException e) {
      throw new ApiError(400, "the request body can't be read: " + e.getMessage(), "send a JSON object such as " + example);
    }
  }

  /**
   * Answers with {@code body} as JSON.
   *
   * @param ctx the request
   * @param status the HTTP status
   * @param body a record or map that Jackson writes
   * @return completes when the answer is written
   */
  public static Future<Void> write(RoutingContext ctx, int status, Object body) {
    Buffer json;
    try {
      json = Buffer.buffer(MAPPER.writeValueAsBytes(body));
    } catch (JsonProcessingException e) {
      return Future.failedFuture(e);
    }
    return ctx.response()
        .setStatusCode(status)
        .putHeader(HttpHeaders.CONTENT_TYPE, JSON_TYPE + "; charset=utf-8")
        .end(json);
  }

  private static ApiError notJson(StreamReadException e, String example) {
    return new ApiError(400, "the request body isn't JSON: " + e.getOriginalMessage().replace('\n', ' ')
        + " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")",
        "send a JSON object such as " + example);
  }

  // `files[0].path` from Jackson's reference path.
  private static String path(JsonMappingException e) {
    StringBuilder text = new StringBuilder();
    for (JsonMappingException.Reference ref : e.getPath()) {
      if (ref.getFieldName() != null) {
        if (text.length() > 0) {
          text.append('.');
        }
        text.append(ref.getFieldName());
      } else if (ref.getIndex() >= 0) {
        text.append('[').append(ref.getIndex()).append(']');
      }
    }
    return text.toString();
  }

  private static String names(Collection<Object> ids) {
    return ids.stream().map(id -> "`" + id + "`").sorted().collect(Collectors.joining(", "));
  }

  private static String kind(Class<?> type) {
    if (type == null) {
      return "of the right type";
    }
    if (type == String.class) {
      return "a string";
    }
    if (type == Boolean.class || type == boolean.class) {
      return "a boolean";
    }
    if (Number.class.isAssignableFrom(type) || type.isPrimitive()) {
      return "a number";
    }
    if (List.class.isAssignableFrom(type) || type.isArray()) {
      return "a list";
    }
    if (Map.class.isAssignableFrom(type) || type.isRecord()) {
      return "an object";
    }
    return "of the right type";
  }

  /**
   * Whether an error answer can still be written to {@code ctx}: not once the response ended, nor once
   * its head went out, because half an answer can't be taken back; the connection is then closed so
   * the client sees the request failed.
   *
   * @param ctx the request
   * @return true if nothing of the response was written yet
   */
  public static boolean canStillAnswer(RoutingContext ctx) {
    if (ctx.response().ended()) {
      return false;
    }
    if (ctx.response().headWritten()) {
      ctx.request().connection().close();
      return false;
    }
    return true;
  }
}

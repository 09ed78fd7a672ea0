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
      // 1.9 as a whole number would be 1: refused, as every other silent change of a value is.
      .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
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
   * The request's body, declared JSON and not empty, not yet read: checked to be UTF-8, the one
   * encoding the API reads, in the same way on every route.
   *
   * @param ctx the request, its body read
   * @param example a body to show the caller in the help of an error
   * @return the body's bytes
   * @throws ApiError 415 if the body isn't declared {@code application/json}, is declared in another
   *     charset, or is UTF-16 or UTF-32; 400 if it is empty or not valid UTF-8
   */
  public static byte[] bytes(RoutingContext ctx, String example) {
    MediaType type = MediaType.of(ctx.request().getHeader(HttpHeaders.CONTENT_TYPE));
    if (!type.name().equals(JSON_TYPE)) {
      throw new ApiError(415, "the request body isn't declared JSON",
          "send the header Content-Type: application/json with a body such as " + example);
    }
    if (!type.declaresUtf8()) {
      throw notUtf8("the request body is declared `" + type.charset().get() + "`");
    }
    if (ctx.body().buffer() == null || ctx.body().length() == 0) {
      throw new ApiError(400, "the request has no body", "send a JSON object such as " + example);
    }
    byte[] body = ctx.body().buffer().getBytes();
    if (isUtf16or32(body)) {
      throw notUtf8("the request body is UTF-16 or UTF-32");
    }
    int invalid = Utf8.firstInvalid(body);
    if (invalid >= 0) {
      throw new ApiError(400, "the request body isn't valid UTF-8 at byte " + invalid,
          "send the body as UTF-8; overlong forms, encoded surrogates (CESU-8) and stray bytes are refused");
    }
    return body;
  }

  private static ApiError notUtf8(String what) {
    return new ApiError(415, what + ", not UTF-8", "send the body in UTF-8, with Content-Type: application/json");
  }

  // JSON text starts with an ASCII character, which UTF-16 and UTF-32 write with zero bytes around it,
  // or with a byte order mark (RFC 4627 §3): how Jackson would detect them and read the body in them.
  private static boolean isUtf16or32(byte[] body) {
    if (body.length >= 2 && ((body[0] & 0xFF) == 0xFE && (body[1] & 0xFF) == 0xFF
        || (body[0] & 0xFF) == 0xFF && (body[1] & 0xFF) == 0xFE)) {
      return true;
    }
    for (int i = 0; i < Math.min(4, body.length); i++) {
      if (body[i] == 0) {
        return true;
      }
    }
    return false;
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
    T read;
    try {
      read = MAPPER.readValue(body, type);
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
    if (read == null) {
      // The body was JSON null.
      throw new ApiError(400, "the request body isn't a JSON object", "send a JSON object such as " + example);
    }
    return read;
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
    if (type == Long.class || type == long.class || type == Integer.class || type == int.class) {
      return "a whole number";
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

package dev.svc.engine;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.svc.engine.internal.AbiCodec;
import java.util.Objects;

/**
 * The JSON of this library's records as the library reads them from the engine: the field names of
 * {@code spec/module-abi.md}, times in RFC 3339 and durations in Sigil's syntax ({@code 1h30m}).
 * For a tool that prints what the library returns, such as a command line's {@code -o json}.
 *
 * <p><b>Thread safety:</b> stateless; thread-safe.
 */
public final class EngineJson {

  private EngineJson() {}

  /**
   * {@code value} as compact JSON text.
   *
   * @param value a record of this library (or a list or map of them), or any object Jackson writes
   * @return the JSON text, on one line
   * @throws EngineException if {@code value} can't be written as JSON (Jackson's message says why)
   */
  public static String write(Object value) {
    Objects.requireNonNull(value, "value");
    try {
      return AbiCodec.MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new EngineException(
          "the value can't be written as JSON: " + e.getOriginalMessage(),
          "pass a record of dev.svc.engine, or an object Jackson can serialize",
          e);
    }
  }
}

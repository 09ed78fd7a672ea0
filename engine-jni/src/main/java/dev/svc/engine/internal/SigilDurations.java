package dev.svc.engine.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.KeyDeserializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import dev.svc.engine.Durations;
import dev.svc.engine.EngineException;
import java.io.IOException;
import java.time.Duration;

/**
 * {@link Duration} as JSON text in Sigil syntax ({@code "1h30m"}) instead of Jackson's ISO-8601
 * ({@code "PT1H30M"}), as values and as map keys.
 *
 * <p>Written as a literal ({@link Durations#format}), the only form the engine's input decoder reads:
 * a negative duration can't be written, and a rest below a millisecond is dropped. Read as a value
 * ({@link Durations#parseValue}), the form the engine writes payloads and host function arguments
 * in: negative durations and a {@code +«n»ns} rest read exactly.
 */
final class SigilDurations {

  private SigilDurations() {}

  /** The module that reads and writes durations; registered after the java.time module. */
  static SimpleModule module() {
    return new SimpleModule("sigil-durations")
        .addSerializer(Duration.class, new Writer(false))
        .addDeserializer(Duration.class, new Reader())
        .addKeySerializer(Duration.class, new Writer(true))
        .addKeyDeserializer(Duration.class, new KeyReader());
  }

  private static final class Writer extends JsonSerializer<Duration> {
    private final boolean key;

    Writer(boolean key) {
      this.key = key;
    }

    @Override
    public void serialize(Duration value, JsonGenerator out, SerializerProvider provider)
        throws IOException {
      String text = Durations.format(value);
      if (key) {
        out.writeFieldName(text);
      } else {
        out.writeString(text);
      }
    }
  }

  private static final class Reader extends JsonDeserializer<Duration> {
    @Override
    public Duration deserialize(JsonParser in, DeserializationContext context) throws IOException {
      String text = in.getValueAsString();
      if (text == null) {
        return (Duration) context.handleUnexpectedToken(Duration.class, in);
      }
      try {
        return Durations.parseValue(text);
      } catch (EngineException e) {
        return (Duration) context.handleWeirdStringValue(Duration.class, text, e.getMessage());
      }
    }
  }

  private static final class KeyReader extends KeyDeserializer {
    @Override
    public Object deserializeKey(String key, DeserializationContext context) throws IOException {
      try {
        return Durations.parseValue(key);
      } catch (EngineException e) {
        return context.handleWeirdKey(Duration.class, key, e.getMessage());
      }
    }
  }
}

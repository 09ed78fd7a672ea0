package dev.svc.engine.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import dev.svc.engine.Durations;
import dev.svc.engine.EngineException;
import java.io.IOException;
import java.time.Duration;

/**
 * {@link Duration} as JSON text in Sigil syntax ({@code "1h30m"}), the form the engine's inputs,
 * payloads and host function arguments use, instead of Jackson's ISO-8601 ({@code "PT1H30M"}).
 */
final class SigilDurations {

  private SigilDurations() {}

  /** The module that reads and writes durations; registered after the java.time module. */
  static SimpleModule module() {
    return new SimpleModule("sigil-durations")
        .addSerializer(Duration.class, new Writer())
        .addDeserializer(Duration.class, new Reader());
  }

  private static final class Writer extends JsonSerializer<Duration> {
    @Override
    public void serialize(Duration value, JsonGenerator out, SerializerProvider provider)
        throws IOException {
      out.writeString(Durations.format(value));
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
        return Durations.parse(text);
      } catch (EngineException e) {
        return (Duration) context.handleWeirdStringValue(Duration.class, text, e.getMessage());
      }
    }
  }
}

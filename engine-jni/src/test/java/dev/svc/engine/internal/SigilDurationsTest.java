package dev.svc.engine.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonMappingException;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@link java.time.Duration} through the library's mapper: written as the literal the engine's
 * decoder reads, read in the value form the engine prints, as values and as map keys.
 */
class SigilDurationsTest {

  private static final TypeReference<Map<Duration, Integer>> BY_DURATION = new TypeReference<>() {};

  @Test
  void aDurationIsWrittenAsItsCanonicalLiteralDroppingARestBelowAMillisecond() throws Exception {
    assertThat(AbiCodec.MAPPER.writeValueAsString(Duration.ofMinutes(90))).isEqualTo("\"1h30m\"");
    assertThat(AbiCodec.MAPPER.writeValueAsString(Duration.ZERO)).isEqualTo("\"0s\"");
    assertThat(AbiCodec.MAPPER.writeValueAsString(Duration.ofNanos(1_500_000))).isEqualTo("\"1ms\"");
    assertThat(AbiCodec.MAPPER.writeValueAsString(new TreeMap<>(Map.of(Duration.ofHours(36), 1))))
        .isEqualTo("{\"1d12h\":1}");
  }

  @Test
  void aNegativeDurationCantBeWrittenForTheEngine() {
    assertThatThrownBy(() -> AbiCodec.MAPPER.writeValueAsString(Duration.ofMinutes(-15)))
        .isInstanceOf(JsonMappingException.class)
        .hasMessageContaining("PT-15M isn't a duration Sigil can write");
  }

  @Test
  void aDurationIsReadInTheFormTheEnginePrintsValues() throws Exception {
    assertThat(AbiCodec.MAPPER.readValue("\"1h30m\"", Duration.class)).isEqualTo(Duration.ofMinutes(90));
    assertThat(AbiCodec.MAPPER.readValue("\"-15m\"", Duration.class)).isEqualTo(Duration.ofMinutes(-15));
    assertThat(AbiCodec.MAPPER.readValue("\"1ms+500000ns\"", Duration.class))
        .isEqualTo(Duration.ofNanos(1_500_000));
    assertThat(AbiCodec.MAPPER.readValue("{\"-+500ns\":1,\"45m\":2}", BY_DURATION))
        .containsExactlyInAnyOrderEntriesOf(Map.of(Duration.ofNanos(-500), 1, Duration.ofMinutes(45), 2));
  }

  @Test
  void textThatIsNoDurationFailsTheReadWithTheReason() {
    assertThatThrownBy(() -> AbiCodec.MAPPER.readValue("\"PT1H\"", Duration.class))
        .isInstanceOf(JsonMappingException.class)
        .hasMessageContaining("invalid duration \"PT1H\"");
    assertThatThrownBy(() -> AbiCodec.MAPPER.readValue("{\"1x\":1}", BY_DURATION))
        .isInstanceOf(JsonMappingException.class)
        .hasMessageContaining("invalid duration \"1x\"");
    assertThatThrownBy(() -> AbiCodec.MAPPER.readValue("90", Duration.class))
        .isInstanceOf(JsonMappingException.class);
  }
}

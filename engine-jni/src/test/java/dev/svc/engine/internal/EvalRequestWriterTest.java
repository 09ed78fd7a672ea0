package dev.svc.engine.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@link EvalRequestWriter} writes the bytes Jackson writes ({@link AbiCodec#jacksonEvalRequest}, the
 * reference) for every input it takes, and declines the rest, which Jackson then writes.
 */
class EvalRequestWriterTest {

  private static String usual(Object input, long timeoutMillis, boolean trace) {
    byte[] written = EvalRequestWriter.request(9, input, timeoutMillis, trace);
    return written == null ? null : new String(written, StandardCharsets.UTF_8);
  }

  private static String jackson(Object input, long timeoutMillis, boolean trace) {
    return new String(AbiCodec.jacksonEvalRequest(9, input, timeoutMillis, trace), StandardCharsets.UTF_8);
  }

  @Test
  void writesTheEnvelopeAndOptionsAsJacksonDoes() {
    Map<String, Object> input = Map.of("amount", 40);
    assertThat(usual(input, 0, true)).isEqualTo("{\"op\":\"eval\",\"handle\":9,\"input\":{\"amount\":40}}");
    assertThat(usual(input, 250, false))
        .isEqualTo("{\"op\":\"eval\",\"handle\":9,\"input\":{\"amount\":40},\"timeout_ms\":250,\"trace\":false}");
    for (long timeout : new long[] {0, 1, 250}) {
      for (boolean trace : new boolean[] {true, false}) {
        assertThat(usual(input, timeout, trace)).isEqualTo(jackson(input, timeout, trace));
      }
    }
  }

  /** The property: generated maps, lists and trees of the usual values write as Jackson writes them. */
  @Test
  void generatedUsualInputsWriteAsJacksonWritesThem() {
    Random random = new Random(22);
    for (int i = 0; i < 3000; i++) {
      Object input = random.nextBoolean() ? map(random, 3) : tree(random, 3);
      String usual = usual(input, 0, true);
      assertThat(usual).as("declined %s", input).isNotNull();
      assertThat(usual).isEqualTo(jackson(input, 0, true));
    }
  }

  @Test
  void stringsEscapeAsJacksonEscapesThem() {
    StringBuilder every = new StringBuilder();
    for (char c = 0; c < 0x800; c++) {
      if (!Character.isSurrogate(c)) {
        every.append(c);
      }
    }
    every.append("\u2028\uffff\ud83d\ude00/</script>");
    Map<String, Object> input = Map.of(every.toString(), every.toString());
    assertThat(usual(input, 0, true)).isEqualTo(jackson(input, 0, true));
  }

  @Test
  void rawJsonTextGoesAsItIs() {
    RawValue raw = new RawValue("{\"user\": {\"name\": \"Zoë 😀\"}, \"n\": 1.50}");
    assertThat(usual(raw, 0, false)).isEqualTo(jackson(raw, 0, false));
    assertThat(usual(raw, 0, false)).contains("\"input\":{\"user\": {\"name\": \"Zoë 😀\"}, \"n\": 1.50},");
  }

  /** What the writer doesn't know goes to Jackson, which writes it, or says why it can't. */
  @Test
  void otherInputsAreDeclinedAndJacksonWritesThem() {
    Map<Object, Object> numberKeys = new TreeMap<>(Map.of(1, "a"));
    Map<String, Object> deep = new LinkedHashMap<>();
    Map<String, Object> at = deep;
    for (int i = 0; i <= EvalRequestWriter.MAX_DEPTH; i++) {
      Map<String, Object> next = new LinkedHashMap<>();
      at.put("d", next);
      at = next;
    }
    List<Object> others =
        List.of(
            Map.of("at", Instant.parse("2026-11-27T01:00:00Z")),
            Map.of("ttl", Duration.ofMinutes(90)),
            Map.of("n", new BigDecimal("1.50")),
            Map.of("n", 1.5f),
            Map.of("o", Optional.of("x")),
            Map.of("s", "lone \ud83d surrogate"),
            numberKeys,
            deep,
            JsonNodeFactory.instance.objectNode().put("n", new BigDecimal("2.5")),
            new RawValue(JsonNodeFactory.instance.objectNode()));
    for (Object input : others) {
      assertThat(EvalRequestWriter.request(9, input, 0, true)).as("%s", input).isNull();
    }
    for (Object input : others.subList(0, 5)) {
      assertThat(new String(AbiCodec.evalRequest(9, input, 0, true), StandardCharsets.UTF_8))
          .isEqualTo(jackson(input, 0, true));
    }
  }

  @Test
  void aNonFiniteNumberIsStillRefusedByJackson() {
    assertThat(EvalRequestWriter.request(9, Map.of("n", Double.NaN), 0, true)).isNull();
    assertThatThrownBy(() -> AbiCodec.evalRequest(9, Map.of("n", Double.POSITIVE_INFINITY), 0, true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Infinity isn't a JSON number");
  }

  private static Map<String, Object> map(Random random, int depth) {
    Map<String, Object> map = random.nextBoolean() ? new LinkedHashMap<>() : new TreeMap<>();
    for (int n = random.nextInt(5); n > 0; n--) {
      map.put(text(random), plain(random, depth - 1));
    }
    return map;
  }

  private static Object plain(Random random, int depth) {
    return switch (random.nextInt(depth > 0 ? 11 : 9)) {
      case 0 -> random.nextInt();
      case 1 -> random.nextLong() >> random.nextInt(64);
      case 2 -> (short) random.nextInt();
      case 3 -> (byte) random.nextInt();
      case 4 -> random.nextGaussian() * Math.pow(10, random.nextInt(40) - 20);
      case 5 -> random.nextBoolean();
      case 6 -> null;
      case 7, 8 -> text(random);
      case 9 -> {
        List<Object> list = new ArrayList<>();
        for (int n = random.nextInt(4); n > 0; n--) {
          list.add(plain(random, depth - 1));
        }
        yield random.nextBoolean() ? list : Set.copyOf(list.stream().filter(e -> e != null).toList());
      }
      default -> map(random, depth);
    };
  }

  private static JsonNode tree(Random random, int depth) {
    JsonNodeFactory nodes = JsonNodeFactory.instance;
    return switch (random.nextInt(depth > 0 ? 10 : 8)) {
      case 0 -> nodes.numberNode(random.nextInt());
      case 1 -> nodes.numberNode(random.nextLong());
      case 2 -> nodes.numberNode(random.nextGaussian() * 1e6);
      case 3 -> nodes.booleanNode(random.nextBoolean());
      case 4 -> nodes.nullNode();
      case 5, 6, 7 -> nodes.textNode(text(random));
      case 8 -> {
        var array = nodes.arrayNode();
        for (int n = random.nextInt(4); n > 0; n--) {
          array.add(tree(random, depth - 1));
        }
        yield array;
      }
      default -> {
        ObjectNode object = nodes.objectNode();
        for (int n = random.nextInt(4); n > 0; n--) {
          object.set(text(random), tree(random, depth - 1));
        }
        yield object;
      }
    };
  }

  private static String text(Random random) {
    String[] pieces = {"a", "Zé", "😀", "\n", "\"", "\\", "<", "\u0000", "\u001f", "\u007f", "\u2028", " ", "payments"};
    StringBuilder text = new StringBuilder();
    for (int n = random.nextInt(5); n > 0; n--) {
      text.append(pieces[random.nextInt(pieces.length)]);
    }
    return text.toString();
  }
}

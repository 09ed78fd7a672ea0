package dev.svc.server.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.util.RawValue;
import dev.svc.server.http.ApiError;
import dev.svc.server.http.ApiJson;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The scan of the usual eval body against Jackson, which reads every other body: over generated bodies,
 * valid and broken, whatever the scan accepts Jackson reads too, with the same input, timeout and trace;
 * and the scan accepts every valid usual body it doesn't decline by its own bounds.
 */
class UsualBodyScanTest {

  private static final String SIGNIFICANT = "{}[]\",:\\ 0123456789eE.+-tfnu\u0001\u00e9";

  @Test
  void what_the_scan_accepts_jackson_reads_alike_and_it_accepts_every_valid_usual_body()
      throws JsonProcessingException {
    Random random = new Random(22);
    int accepted = 0;
    for (int i = 0; i < 20_000; i++) {
      Generated body = usualBody(random);
      Optional<EvalBody> scanned = UsualBodyScan.read(body.text().getBytes(StandardCharsets.UTF_8));
      assertSameAsJackson(body.text(), scanned);
      if (body.plain()) {
        assertThat(scanned).as(body.text()).isPresent();
        accepted++;
      }
      String broken = mutate(random, body.text());
      assertSameAsJackson(broken, UsualBodyScan.read(broken.getBytes(StandardCharsets.UTF_8)));
    }
    assertThat(accepted).as("valid usual bodies generated").isGreaterThan(10_000);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "\ufeff{\"input\": {}}",
      "{\"input\": {\"\\u0061\": 1, \"a\": 2}}",
      "{\"input\": {\"a\": 01}}",
      "{\"input\": {\"a\": 1.}}",
      "{\"input\": {\"a\": -}}",
      "{\"input\": {\"a\": \"tab\there\"}}",
      "{\"input\": {\"a\": \"\\x\"}}",
      "{\"input\": {\"a\": \"\\u00g0\"}}",
      "{\"input\": {\"a\": tru}}",
      "{\"input\": {\"a\": [1,]}}",
      "{\"input\": {\"a\": 1,}}",
      "{\"input\": {}, \"timeout_ms\": -}",
      "{\"input\": {}, \"timeout_ms\": 1e3}",
      "{\"input\": {}, \"timeout_ms\": 1234567890123456789}",
      "{\"input\": {}, \"trace\": tru}",
      "{\"input\": {}}\u000b",
  })
  void the_scan_declines_what_it_cant_prove_jackson_reads_alike(String body) {
    assertThat(UsualBodyScan.read(body.getBytes(StandardCharsets.UTF_8))).isEmpty();
  }

  @Test
  void the_scan_keeps_to_bounds_narrower_than_jacksons() {
    String deep = "[".repeat(UsualBodyScan.MOST_DEPTH) + "]".repeat(UsualBodyScan.MOST_DEPTH);
    String longKey = "k".repeat(UsualBodyScan.LONGEST_KEY + 1);
    List<String> keys = new ArrayList<>();
    for (int k = 0; k <= UsualBodyScan.MOST_KEYS; k++) {
      keys.add("\"k" + k + "\": " + k);
    }
    for (String input : List.of("{\"a\": " + deep + "}", "{\"" + longKey + "\": 1}",
        "{" + String.join(", ", keys) + "}", "{\"a\": 1" + "0".repeat(UsualBodyScan.LONGEST_NUMBER) + "}")) {
      String body = "{\"input\": " + input + "}";
      assertThat(UsualBodyScan.read(body.getBytes(StandardCharsets.UTF_8))).as(body).isEmpty();
    }
  }

  private static void assertSameAsJackson(String body, Optional<EvalBody> scanned) throws JsonProcessingException {
    if (scanned.isEmpty()) {
      return;
    }
    EvalBody.Fields read;
    try {
      read = ApiJson.read(body.getBytes(StandardCharsets.UTF_8), EvalBody.Fields.class, EvalBody.EXAMPLE);
    } catch (ApiError e) {
      throw new AssertionError("the scan accepted what Jackson refuses: " + body + " (" + e.getMessage() + ")", e);
    }
    EvalBody scan = scanned.get();
    assertThat(read.input().isObject()).as(body).isTrue();
    String input = (String) ((RawValue) scan.input()).rawValue();
    assertThat(ApiJson.MAPPER.readTree(input)).as(body).isEqualTo(read.input());
    assertThat(scan.timeoutMs()).as(body).isEqualTo(Optional.ofNullable(read.timeoutMs()));
    assertThat(scan.trace()).as(body).isEqualTo(Optional.ofNullable(read.trace()));
  }

  /** A body, and whether it is a valid usual body within the scan's bounds. */
  private record Generated(String text, boolean plain) {}

  private static Generated usualBody(Random random) {
    boolean[] plain = {true};
    List<String> fields = new ArrayList<>();
    fields.add("\"input\"" + space(random) + ":" + space(random) + object(random, 0, plain));
    if (random.nextBoolean()) {
      long timeout = random.nextInt(4) == 0 ? random.nextLong() / (1L << random.nextInt(63)) : random.nextInt(2000) - 10;
      // The scan declines more than 18 digits, which needn't fit a long.
      plain[0] &= Long.toString(Math.abs(timeout)).length() <= 18;
      fields.add("\"timeout_ms\"" + space(random) + ":" + space(random) + timeout);
    }
    if (random.nextBoolean()) {
      fields.add("\"trace\"" + space(random) + ":" + space(random) + random.nextBoolean());
    }
    Collections.shuffle(fields, random);
    return new Generated(space(random) + "{" + space(random) + String.join("," + space(random), fields) + space(random)
        + "}" + space(random), plain[0]);
  }

  private static String value(Random random, int depth, boolean[] plain) {
    int kind = random.nextInt(depth > 4 ? 5 : 7);
    return switch (kind) {
      case 0 -> string(random, plain, false);
      case 1 -> number(random);
      case 2 -> "true";
      case 3 -> "false";
      case 4 -> "null";
      case 5 -> object(random, depth + 1, plain);
      default -> array(random, depth + 1, plain);
    };
  }

  private static String object(Random random, int depth, boolean[] plain) {
    int size = random.nextInt(5);
    List<String> members = new ArrayList<>();
    List<String> keys = new ArrayList<>();
    for (int k = 0; k < size; k++) {
      String key = string(random, plain, true);
      // Drawn from few, two keys may come out the same.
      plain[0] &= !keys.contains(key);
      keys.add(key);
      members.add(key + space(random) + ":" + space(random) + value(random, depth, plain));
    }
    if (size > 1 && random.nextInt(10) == 0) {
      // A key given twice.
      members.add(members.get(0));
      plain[0] = false;
    }
    return "{" + space(random) + String.join(space(random) + "," + space(random), members) + space(random) + "}";
  }

  private static String array(Random random, int depth, boolean[] plain) {
    int size = random.nextInt(4);
    List<String> items = new ArrayList<>();
    for (int k = 0; k < size; k++) {
      items.add(value(random, depth, plain));
    }
    return "[" + space(random) + String.join(space(random) + "," + space(random), items) + space(random) + "]";
  }

  // Keys come from a few thousand, so that an object seldom holds the same key twice unless made to.
  private static String string(Random random, boolean[] plain, boolean key) {
    if (key) {
      String[] names = {"user", "name", "teams", "a", "b", "é", "\\u0061", "role"};
      String name = names[random.nextInt(names.length)] + random.nextInt(1000);
      if (name.startsWith("\\")) {
        plain[0] = false;
      }
      return "\"" + name + "\"";
    }
    String[] parts = {"ann", "é ü", "😀", "\\\"", "\\\\", "\\/", "\\n", "\\t", "\\u00e9", "\\ud83d\\ude00", " ", "\u007f"};
    StringBuilder text = new StringBuilder("\"");
    for (int k = random.nextInt(4); k > 0; k--) {
      text.append(parts[random.nextInt(parts.length)]);
    }
    return text.append('"').toString();
  }

  private static String number(Random random) {
    String[] forms = {"0", "-0", "7", "-12", "3.25", "-0.5", "1e9", "2E-3", "6.02e+23", "12345678901234567890"};
    return forms[random.nextInt(forms.length)];
  }

  private static String space(Random random) {
    String[] spaces = {"", "", "", " ", "\n", "\t", "\r\n  "};
    return spaces[random.nextInt(spaces.length)];
  }

  // One byte dropped, inserted or replaced, where JSON is most easily broken.
  private static String mutate(Random random, String body) {
    int at = random.nextInt(body.length());
    char c = SIGNIFICANT.charAt(random.nextInt(SIGNIFICANT.length()));
    return switch (random.nextInt(3)) {
      case 0 -> body.substring(0, at) + body.substring(at + 1);
      case 1 -> body.substring(0, at) + c + body.substring(at);
      default -> body.substring(0, at) + c + body.substring(at + 1);
    };
  }
}

package dev.svc.engine.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import dev.svc.engine.EngineException;
import dev.svc.engine.EvalResult;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link EvalRecordReader} reads what Jackson's binding reads, or leaves the answer to it. */
class EvalRecordReaderTest {

  /** Jackson binding the records, as {@link AbiCodec#decode} does: the reference. */
  private static final ObjectMapper JACKSON =
      JsonMapper.builder()
          .addModule(new Jdk8Module())
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .build();

  private static EvalResult jackson(String answer) throws Exception {
    return JACKSON.readValue(answer, EvalResult.class);
  }

  private static EvalResult reader(String answer) {
    return EvalRecordReader.read(answer.getBytes(StandardCharsets.UTF_8));
  }

  /** Answers as the module writes them, from the spec's examples and beyond. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        """
        {"ok":true,"payload":{"limit":100},"policy":"refund.desk","decision":"approve","reason":"small",\
        "outcome":[{"payload":{"limit":100},"decision":"approve","reason":"small","policy":"refund.desk",\
        "position":"refund/desk.sigil:8:3"}],"trace":[{"payload":{"limit":100},"decision":"approve",\
        "reason":"small","policy":"refund.desk","position":"refund/desk.sigil:8:3","conditions":\
        ["amount \\u003c 100 + 0 and channel == \\"web\\""],"outcome":true}]}""",
        """
        {"ok":true,"error":{"kind":"conflict","message":"collect one: 2 candidates at the top rank",\
        "help":"rank them","candidates":[{"payload":{"queue":"refunds"},"decision":"review",\
        "reason":"large_amount","policy":"refunds.desk","position":"refunds/desk.sigil:17:3",\
        "conditions":["order.amount \\u003e 500"]},{"payload":{"queue":"phone-desk"},"decision":"review",\
        "reason":"phone_order","policy":"refunds.desk","position":"refunds/desk.sigil:21:3",\
        "chain":["refunds/desk.sigil:3:1"],"conditions":["order.channel == phone"]}]},\
        "policy":"refunds.desk","decision":"deny","reason":"no_rule_matched","outcome":\
        [{"decision":"deny","reason":"no_rule_matched"}],"trace":[]}""",
        """
        {"ok":true,"error":{"kind":"assertion","phase":"outcome","message":"assertions failed: \
        \\"no_self_merge\\"","help":"fix it","asserts":[{"reason":"no_self_merge","policy":"changes.gate",\
        "position":"changes/gate.sigil:17:1","outcome":[{"decision":"merge","reason":"reviewed"}]}]},\
        "policy":"changes.gate","decision":"reject","reason":"no_rule_matched","outcome":\
        [{"decision":"reject","reason":"no_rule_matched"}],"trace":[]}""",
        """
        {"ok":true,"policy":"tools.grants","outcome":[],"trace":[],"collect":true}""",
        """
        {"ok":true,"policy":"access.main","decision":"allow","reason":"team_member","outcome":\
        [{"decision":"allow","reason":"team_member","policy":"access.main","position":"access/main.sigil:5:3"}]}""",
        """
        {"id":7,"ok":true,"policy":"p","outcome":[],"trace":[],"future":{"a":[1,{"b":null}]}}""",
        """
        {"ok":true,"payload":{"big":123456789012345678901234567890,"long":-9007199254740993,\
        "int":-2147483648,"over":2147483648,"zero":-0,"f":-12.5e-7,"e":1E3,"whole":2.0,\
        "list":[true,false,null,[],{}],"text":"tab\\t\\u00e9 \\ud83d\\ude00 é😀 \\/\\\\"},\
        "policy":"a.b","outcome":[],"trace":[]}""",
      })
  void readsWhatJacksonBindingReads(String answer) throws Exception {
    assertThat(reader(answer)).isEqualTo(jackson(answer));
  }

  @Test
  void payloadValuesOfEveryShapeReadAsJacksonReadsThem() throws Exception {
    Random random = new Random(7);
    for (int i = 0; i < 2000; i++) {
      String answer =
          "{\"ok\":true,\"payload\":" + value(random, 3) + ",\"policy\":\"p\",\"outcome\":[],\"trace\":[]}";
      assertThat(reader(answer)).as(answer).isEqualTo(jackson(answer));
    }
  }

  private static String value(Random random, int depth) {
    int pick = random.nextInt(depth > 0 ? 8 : 6);
    return switch (pick) {
      case 0 -> Long.toString(random.nextLong() >> random.nextInt(64));
      case 1 -> Double.toString(random.nextGaussian() * Math.pow(10, random.nextInt(40) - 20));
      case 2 -> random.nextBoolean() ? "true" : "false";
      case 3 -> "null";
      case 4, 5 -> string(random);
      case 6 -> {
        StringBuilder list = new StringBuilder("[");
        for (int n = random.nextInt(4); n > 0; n--) {
          list.append(value(random, depth - 1)).append(n > 1 ? "," : "");
        }
        yield list.append(']').toString();
      }
      default -> {
        StringBuilder object = new StringBuilder("{");
        for (int n = random.nextInt(4); n > 0; n--) {
          object.append(string(random)).append(':').append(value(random, depth - 1));
          object.append(n > 1 ? "," : "");
        }
        yield object.append('}').toString();
      }
    };
  }

  private static String string(Random random) {
    String[] pieces = {"a", "Zé", "😀", "\\n", "\\\"", "\\\\", "\\u003c", "\\ud83d\\ude00", "\\u00e9", " "};
    StringBuilder text = new StringBuilder("\"");
    for (int n = random.nextInt(5); n > 0; n--) {
      text.append(pieces[random.nextInt(pieces.length)]);
    }
    return text.append('"').toString();
  }

  @Test
  void anAbsentOrNullPayloadIsEmptyEitherWay() throws Exception {
    String absent = "{\"ok\":true,\"policy\":\"p\",\"outcome\":[],\"trace\":[]}";
    String nothing = "{\"ok\":true,\"payload\":null,\"policy\":\"p\",\"outcome\":[],\"trace\":[]}";
    assertThat(reader(absent).payload()).isEmpty();
    assertThat(jackson(absent).payload()).isEmpty();
    assertThat(reader(nothing).payload()).isEmpty();
    assertThat(jackson(nothing).payload()).isEmpty();
  }

  /** Anything but an ok record without problems is left to Jackson, which says what is wrong. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"ok\":false,\"error\":{\"message\":\"no compiled policy has handle 9\",\"help\":\"h\"}}",
        "{ \"ok\":true,\"policy\":\"p\",\"outcome\":[],\"trace\":[]}",
        "{\"ok\":true,\"outcome\":[],\"trace\":[]}",
        "{\"ok\":true,\"policy\":5,\"outcome\":[],\"trace\":[]}",
        "{\"ok\":true,\"policy\":\"p\",\"outcome\":[{\"decision\":\"d\"}],\"trace\":[]}",
        "{\"ok\":true,\"policy\":\"a\nb\",\"outcome\":[],\"trace\":[]}",
        "{\"ok\":true,\"policy\":\"p\",\"outcome\":[],\"trace\":[",
        "",
      })
  void leavesEverythingElseToJackson(String answer) {
    assertThat(reader(answer)).isNull();
  }

  @Test
  void aFailedEvalIsStillAnEngineException() {
    byte[] failed =
        "{\"ok\":false,\"error\":{\"message\":\"eval needs an input\",\"help\":\"send one\"}}"
            .getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> AbiCodec.evalResult(failed))
        .isInstanceOf(EngineException.class)
        .hasMessage("eval needs an input\n  help: send one");
  }
}

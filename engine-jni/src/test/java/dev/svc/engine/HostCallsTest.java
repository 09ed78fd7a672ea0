package dev.svc.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.svc.engine.internal.AbiCodec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link HostCalls} answers the module's host calls with the installed functions (bindings.md §3),
 * whatever shape the request's JSON has.
 */
class HostCallsTest {

  private final List<List<JsonNode>> calls = new ArrayList<>();
  private final HostCalls hostCalls = new HostCalls();

  HostCallsTest() {
    hostCalls.install(
        Map.of(
            "echo",
            args -> {
              calls.add(args);
              return args.isEmpty() ? null : args.get(0);
            }));
  }

  private String answer(String request) {
    byte[] answer = hostCalls.hostCall(request.getBytes(StandardCharsets.UTF_8));
    return new String(answer, StandardCharsets.UTF_8);
  }

  @Test
  void theFunctionGetsTheArgsAndItsResultIsTheAnswer() {
    assertThat(answer("{\"function\":\"echo\",\"args\":[\"ANA\",1]}")).isEqualTo("{\"result\":\"ANA\"}");
    assertThat(answer("{\"function\":\"echo\",\"args\":[]}")).isEqualTo("{\"result\":null}");
    assertThat(calls)
        .containsExactly(List.of(TextNode.valueOf("ANA"), AbiCodec.MAPPER.valueToTree(1)), List.of());
  }

  @Test
  void argsThatAreNotPlainValuesReachTheFunctionAsTheSameTrees() throws Exception {
    String args = "[{\"name\":\"ana\",\"tags\":[\"a\\\"b\",0.5]},\"\\u003c\"]";

    assertThat(answer("{\"function\":\"echo\",\"args\":" + args + "}"))
        .isEqualTo("{\"result\":{\"name\":\"ana\",\"tags\":[\"a\\\"b\",0.5]}}");
    assertThat(calls).containsExactly(List.copyOf(readList(args)));
  }

  @Test
  void anUnknownFunctionIsAnsweredWithAnError() {
    assertThat(answer("{\"function\":\"nope\",\"args\":[1]}"))
        .isEqualTo("{\"error\":\"no host function nope is registered\"}");
    assertThat(calls).isEmpty();
  }

  @Test
  void anUnreadableRequestIsAnsweredWithTheParsersMessage() {
    assertThat(answer("{\"function\":\"echo\",\"args\":[01]}"))
        .startsWith("{\"error\":\"the module's host call isn't readable: Invalid numeric value: Leading zeroes not allowed");
    assertThat(calls).isEmpty();
  }

  @Test
  void noFunctionAnswersAfterTheEvaluationEnds() {
    hostCalls.clear();

    assertThat(answer("{\"function\":\"echo\",\"args\":[1]}"))
        .isEqualTo("{\"error\":\"no host function echo is registered\"}");
  }

  private static List<JsonNode> readList(String json) throws Exception {
    List<JsonNode> out = new ArrayList<>();
    AbiCodec.MAPPER.readTree(json).forEach(out::add);
    return out;
  }
}

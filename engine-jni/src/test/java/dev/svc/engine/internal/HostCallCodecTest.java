package dev.svc.engine.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link HostCallCodec} reads requests as Jackson reads them and writes answers as Jackson writes
 * them; the module's usual requests and plain results without Jackson.
 */
class HostCallCodecTest {

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static HostCallCodec.Call read(String request) throws IOException {
    return HostCallCodec.read(bytes(request));
  }

  /** Requests as the module writes them, with args of the plain kinds. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"function\":\"lower\",\"args\":[\"ANA\"]}",
        "{\"function\":\"now\",\"args\":[]}",
        "{\"function\":\"split\",\"args\":[\"team,ops\",\",\"]}",
        "{\"function\":\"f\",\"args\":[0,7,-12,123456789,-987654321,true,false,null,\"\"]}",
        "{\"function\":\"f\",\"args\":[\"äé ✓ 😀\",\"say 'hi' / <b>\"]}",
        "{\"function\":\"fünf\",\"args\":[1]}",
      })
  void plainRequestsAreReadWithoutJacksonAsJacksonReadsThem(String request) throws IOException {
    HostCallCodec.Call plain = HostCallCodec.readPlain(bytes(request));

    assertThat(plain).isNotNull().isEqualTo(HostCallCodec.readWithJackson(bytes(request)));
  }

  /** Anything else: Jackson reads it, as it read every request before. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        // args that aren't plain values
        "{\"function\":\"describe\",\"args\":[{\"name\":\"ana\",\"tier\":\"gold\"},\"1h30m\"]}",
        "{\"function\":\"f\",\"args\":[[\"a\",[1,2]],{}]}",
        "{\"function\":\"f\",\"args\":[0.5,1e3,-0,1234567890,12345678901234567890]}",
        "{\"function\":\"f\",\"args\":[\"a\\\"b\",\"tab\\tx\"]}",
        "{\"function\":\"f\",\"args\":[\"\\u003cb\\u003e\",\"\\ud83d\\ude00\"]}",
        // another shape
        "{ \"function\": \"f\", \"args\": [1] }",
        "{\"args\":[1],\"function\":\"f\"}",
        "{\"function\":\"f\"}",
        "{\"function\":\"f\",\"args\":[1],\"function\":\"g\"}",
        "{\"function\":7,\"args\":[1]}",
        "{\"function\":\"f\",\"args\":[1]}  {\"ignored\":true}",
        "[1,2]",
        "",
      })
  void otherRequestsAreLeftToJackson(String request) throws IOException {
    assertThat(HostCallCodec.readPlain(bytes(request))).isNull();
    assertThat(read(request)).isEqualTo(HostCallCodec.readWithJackson(bytes(request)));
  }

  @Test
  void argsAreTheTreesJacksonBuildsInOrder() throws IOException {
    HostCallCodec.Call call =
        read("{\"function\":\"f\",\"args\":[\"x\",42,true,null,{\"k\":[1.5]},\"a\\\\b\"]}");

    ObjectNode object = JsonNodeFactory.instance.objectNode();
    object.putArray("k").add(1.5);
    assertThat(call.function()).isEqualTo("f");
    assertThat(call.args())
        .containsExactly(
            TextNode.valueOf("x"),
            IntNode.valueOf(42),
            BooleanNode.TRUE,
            NullNode.instance,
            object,
            TextNode.valueOf("a\\b"));
    assertThatThrownBy(() -> call.args().add(NullNode.instance))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void aRequestWithoutNameOrArgsNamesNoFunctionAndHasNoArgs() throws IOException {
    assertThat(read("{}")).isEqualTo(new HostCallCodec.Call("", List.of()));
    assertThat(read("{\"function\":\"f\"}")).isEqualTo(new HostCallCodec.Call("f", List.of()));
  }

  /** Bytes that look plain at first but aren't JSON: Jackson refuses them, with its message. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "not json",
        "{\"function\":\"f\",\"args\":[01]}",
        "{\"function\":\"f\",\"args\":[-]}",
        "{\"function\":\"f\",\"args\":[tru]}",
        "{\"function\":\"f\",\"args\":[\"open",
        "{\"function\":\"f\",\"args\":[1,]}",
        "{\"function\":\"f\",\"args\":[\"a\u0001b\"]}",
      })
  void unreadableRequestsFailWithJacksonsMessage(String request) {
    assertThat(HostCallCodec.readPlain(bytes(request))).isNull();
    assertThatThrownBy(() -> read(request)).isInstanceOf(JsonProcessingException.class);
  }

  @Test
  void invalidUtf8IsLeftToJackson() {
    byte[] request = bytes("{\"function\":\"f\",\"args\":[\"a?b\"]}");
    request[request.length - 5] = (byte) 0xff;

    assertThat(HostCallCodec.readPlain(request)).isNull();
    assertThatThrownBy(() -> HostCallCodec.read(request))
        .isInstanceOf(JsonProcessingException.class);
  }

  @Test
  void aStringLongerThanJacksonTakesIsLeftToJacksonWhichRefusesIt() {
    int limit = AbiCodec.MAPPER.getFactory().streamReadConstraints().getMaxStringLength();
    String request = "{\"function\":\"f\",\"args\":[\"" + "x".repeat(limit + 1) + "\"]}";

    assertThat(HostCallCodec.readPlain(bytes(request))).isNull();
    assertThatThrownBy(() -> read(request)).isInstanceOf(JsonProcessingException.class);
  }

  static Stream<JsonNode> results() {
    JsonNodeFactory nodes = JsonNodeFactory.instance;
    return Stream.of(
        NullNode.instance,
        BooleanNode.TRUE,
        BooleanNode.FALSE,
        IntNode.valueOf(0),
        IntNode.valueOf(-42),
        LongNode.valueOf(Long.MIN_VALUE),
        TextNode.valueOf(""),
        TextNode.valueOf("ana"),
        TextNode.valueOf("say \"hi\" \\ back / slash ~"),
        TextNode.valueOf("äé ✓ 😀"),
        TextNode.valueOf("line\nbreak\u0000"),
        DoubleNode.valueOf(0.25),
        nodes.numberNode(new java.math.BigInteger("123456789012345678901234567890")),
        nodes.arrayNode().add("team").add("ops"),
        nodes.objectNode().put("name", "ana").putNull("tier"));
  }

  @ParameterizedTest
  @MethodSource("results")
  void anAnswerIsTheResultAsJacksonWritesIt(JsonNode result) throws IOException {
    ObjectNode answer = AbiCodec.MAPPER.createObjectNode();
    answer.set("result", result);

    assertThat(new String(HostCallCodec.answer(result), StandardCharsets.UTF_8))
        .isEqualTo(new String(AbiCodec.encode(answer), StandardCharsets.UTF_8));
  }

  @Test
  void aMissingResultIsAnsweredAsNull() throws IOException {
    assertThat(new String(HostCallCodec.answer(null), StandardCharsets.UTF_8))
        .isEqualTo("{\"result\":null}");
  }
}

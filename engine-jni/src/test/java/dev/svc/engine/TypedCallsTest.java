package dev.svc.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.svc.engine.internal.AbiCodec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link TypedCalls} decodes args and encodes results as Jackson does: strings, booleans, ints and
 * longs on a path of their own, everything else with Jackson itself.
 */
class TypedCallsTest {

  static Stream<Arguments> args() {
    return Stream.of(
        Arguments.of(TextNode.valueOf("ana"), String.class),
        Arguments.of(IntNode.valueOf(5), String.class),
        Arguments.of(NullNode.instance, String.class),
        Arguments.of(BooleanNode.TRUE, Boolean.class),
        Arguments.of(TextNode.valueOf("true"), Boolean.class),
        Arguments.of(IntNode.valueOf(-7), Integer.class),
        Arguments.of(TextNode.valueOf("42"), Integer.class),
        Arguments.of(IntNode.valueOf(7), Long.class),
        Arguments.of(LongNode.valueOf(Long.MAX_VALUE), Long.class),
        Arguments.of(IntNode.valueOf(3), Double.class),
        Arguments.of(DoubleNode.valueOf(0.5), Double.class),
        Arguments.of(TextNode.valueOf("1h30m"), Duration.class),
        Arguments.of(IntNode.valueOf(3), int.class));
  }

  @ParameterizedTest(name = "{0} as {1}")
  @MethodSource("args")
  void anArgDecodesAsJacksonDecodesIt(JsonNode arg, Class<?> type) throws Exception {
    assertThat(TypedCalls.arg(List.of(arg), 0, type))
        .isEqualTo(AbiCodec.MAPPER.treeToValue(arg, type));
  }

  static Stream<Arguments> failingArgs() {
    return Stream.of(
        Arguments.of(LongNode.valueOf(Long.MAX_VALUE), Integer.class),
        Arguments.of(TextNode.valueOf("yes"), Boolean.class),
        Arguments.of(TextNode.valueOf("ana"), Long.class));
  }

  @ParameterizedTest(name = "{0} as {1}")
  @MethodSource("failingArgs")
  void anArgJacksonRefusesFailsWithItsPosition(JsonNode arg, Class<?> type) {
    assertThatThrownBy(() -> TypedCalls.arg(List.of(NullNode.instance, arg), 1, type))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("argument 2: ");
  }

  static Stream<Object> results() {
    return Stream.of(
        "ana", "", true, false, 7, Integer.MIN_VALUE, 7L, Long.MAX_VALUE, 0.25, List.of("a", "b"),
        Map.of("k", 1), Duration.ofMinutes(90));
  }

  @ParameterizedTest
  @MethodSource("results")
  void aResultEncodesAsJacksonEncodesIt(Object result) {
    assertThat(TypedCalls.result(result)).isEqualTo(AbiCodec.MAPPER.valueToTree(result));
  }
}

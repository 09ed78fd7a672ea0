package dev.svc.engine.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link JsonCursor}: each step reads what Jackson reads the same way, or gives up. */
class JsonCursorTest {

  private static JsonCursor cursor(String json) {
    return JsonCursor.compact(json.getBytes(StandardCharsets.UTF_8));
  }

  private static JsonCursor spaced(String json) {
    return JsonCursor.spaced(json.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void aSpacedCursorSkipsWhiteSpaceBeforeEveryTokenButNotInsideAnExactRun() {
    JsonCursor json = spaced(" {\n\t\"ab\" : [ 1 , true ] }");

    assertThat(json.skip(new byte[] {'{'})).isFalse();
    assertThat(json.open('{', '}')).isTrue();
    assertThat(json.member(JsonCursor.names("ab"))).isZero();
    assertThat(json.open('[', ']')).isTrue();
    assertThat(json.smallInt()).isEqualTo(1);
    assertThat(json.next(']')).isTrue();
    assertThat(json.bool()).isTrue();
    assertThat(json.next(']')).isFalse();
    assertThat(json.next('}')).isFalse();
    assertThat(json.atEnd()).isTrue();
  }

  @Test
  void aCompactCursorFindsWhiteSpaceUnexpected() {
    assertThatThrownBy(() -> cursor(" {}").open('{', '}')).isSameAs(JsonCursor.UNEXPECTED);
    assertThatThrownBy(() -> cursor("{\"ab\" :1}").member(JsonCursor.names("ab"))).isSameAs(JsonCursor.UNEXPECTED);
  }

  @Test
  void aStringHasItsEscapesResolvedAndAPlainStringRefusesThem() {
    String escaped = "\"a\\\"b\\\\c\\/d\\n\\u00e9\\ud83d\\ude00\"";

    assertThat(cursor(escaped).string()).isEqualTo("a\"b\\c/d\né😀");
    assertThat(cursor("\"äé ✓\"").plainString()).isEqualTo("äé ✓");
    assertThatThrownBy(() -> cursor(escaped).plainString()).isSameAs(JsonCursor.UNEXPECTED);
  }

  @ParameterizedTest
  @ValueSource(strings = {"\"a\u0001b\"", "\"\\x\"", "\"\\u00zz\""})
  void aStringJsonDoesntAllowIsUnexpected(String string) {
    assertThatThrownBy(() -> cursor(string).string()).isSameAs(JsonCursor.UNEXPECTED);
  }

  @Test
  void invalidUtf8IsUnexpected() {
    byte[] bytes = "\"a?b\"".getBytes(StandardCharsets.UTF_8);
    bytes[2] = (byte) 0xff;

    assertThatThrownBy(() -> JsonCursor.compact(bytes).string()).isSameAs(JsonCursor.UNEXPECTED);
  }

  @ParameterizedTest
  @CsvSource({"0,0", "7,7", "-12,-12", "123456789,123456789", "-987654321,-987654321"})
  void aSmallIntIsUpToNineDigits(String text, int value) {
    assertThat(cursor(text + "]").smallInt()).isEqualTo(value);
  }

  @ParameterizedTest
  @ValueSource(strings = {"1234567890", "01", "-0", "-", "x"})
  void anythingElseIsNoSmallInt(String text) {
    assertThatThrownBy(() -> cursor(text + "]").smallInt()).isSameAs(JsonCursor.UNEXPECTED);
  }

  @Test
  void aValueIsTheTreeJacksonReads() throws Exception {
    String text = "{\"s\":\"x\\ty\",\"n\":[1,-2,3000000000,12345678901234567890,1.5e3],\"b\":false,\"z\":null,\"o\":{}}";

    JsonNode tree = cursor(text).value();

    assertThat(tree).isEqualTo(AbiCodec.MAPPER.readTree(text));
    assertThat(tree.get("n").get(2).isLong()).isTrue();
    assertThat(tree.get("n").get(3).isBigInteger()).isTrue();
  }

  @Test
  void skippingAValueLeavesTheCursorAfterIt() {
    JsonCursor json = spaced("{\"ab\":[\"]}\",{\"b\":-1.5e3}, null ] , \"cd\":\"d\"}");

    json.open('{', '}');
    json.member(JsonCursor.names("ab"));
    json.skipValue();

    assertThat(json.next('}')).isTrue();
    assertThat(json.member(JsonCursor.names("cd"))).isZero();
    assertThat(json.string()).isEqualTo("d");
  }

  @Test
  void readingPastTheEndThrowsIndexOutOfBounds() {
    assertThatThrownBy(() -> cursor("{\"a\":").value()).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> cursor("\"open").string()).isInstanceOf(IndexOutOfBoundsException.class);
  }
}

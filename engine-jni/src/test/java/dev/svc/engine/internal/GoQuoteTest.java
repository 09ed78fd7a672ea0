package dev.svc.engine.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link GoQuote}: the cases of bindings.md §13.5, as Go's {@code strconv.Quote} prints them. */
class GoQuoteTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      textBlock =
          """
          ''                  | ""
          1h30m               | "1h30m"
          90 minutes          | "90 minutes"
          '✓ é 😀 ä'          | "✓ é 😀 ä"
          say "hi"            | "say \\"hi\\""
          back\\slash         | "back\\\\slash"
          """)
  void printableTextIsKeptAndQuotesAndBackslashesAreEscaped(String text, String quoted) {
    assertThat(GoQuote.quote(text)).isEqualTo(quoted);
  }

  @ParameterizedTest(name = "U+{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          0007  | "\\a"
          0008  | "\\b"
          000C  | "\\f"
          000A  | "\\n"
          000D  | "\\r"
          0009  | "\\t"
          000B  | "\\v"
          0001  | "\\x01"
          007F  | "\\x7f"
          0080  | "\\u0080"
          2028  | "\\u2028"
          FEFF  | "\\ufeff"
          E0001 | "\\U000e0001"
          """)
  void controlAndOtherUnprintableCharactersAreEscapedLikeGo(String hex, String quoted) {
    assertThat(GoQuote.quote(Character.toString(Integer.parseInt(hex, 16)))).isEqualTo(quoted);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"\uD800, \"\uFFFD\"", "a\uDC00b, \"a\uFFFDb\""})
  void aLoneSurrogateReadsAsTheReplacementCharacter(String text, String quoted) {
    assertThat(GoQuote.quote(text)).isEqualTo(quoted);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"'\u0001\u007f', \"\\x01\\x7f\"", "'\u0080\u2028\uFEFF', \"\\u0080\\u2028\\ufeff\""})
  void runsOfUnprintableCharactersAreEscapedOneByOne(String text, String quoted) {
    assertThat(GoQuote.quote(text)).isEqualTo(quoted);
  }
}

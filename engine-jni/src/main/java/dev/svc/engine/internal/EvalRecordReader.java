package dev.svc.engine.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.svc.engine.EvalEntry;
import dev.svc.engine.EvalFailure;
import dev.svc.engine.EvalResult;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Reads the module's answer to an eval, {@code {"ok":true, «eval record»}}, straight from its
 * bytes into an {@link EvalResult}: the same records Jackson binds from the same JSON (payloads
 * as the trees {@code readTree} builds), at a fraction of the cost. An evaluation is
 * the library's hot path, and making a Jackson parser and binding three records by reflection
 * took as long as the engine takes to evaluate.
 *
 * <p>It reads only what the module writes: an ok answer, JSON without problems. For anything else
 * ({@code ok:false}, a syntax error, a member of the wrong shape or missing, a control character in
 * a string) {@link #read} returns {@code null} and the caller reads the answer with Jackson, which
 * says what is wrong with it.
 *
 * <p><b>Thread safety:</b> one instance per answer; {@link #read} is thread-safe.
 */
final class EvalRecordReader {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final BigInteger INT_MIN = BigInteger.valueOf(Integer.MIN_VALUE);
  private static final BigInteger INT_MAX = BigInteger.valueOf(Integer.MAX_VALUE);
  private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
  private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

  /** Thrown to leave the fast path; the caller falls back to Jackson. Without a stack trace. */
  private static final class Unexpected extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Unexpected() {
      super(null, null, false, false);
    }
  }

  private static final Unexpected UNEXPECTED = new Unexpected();

  // The members of the three records, by number: names are matched as bytes, not made strings.
  private static final int ID = 0;
  private static final int OK = 1;
  private static final int PAYLOAD = 2;
  private static final int ERROR = 3;
  private static final int POLICY = 4;
  private static final int DECISION = 5;
  private static final int REASON = 6;
  private static final int OUTCOME = 7;
  private static final int TRACE = 8;
  private static final int COLLECT = 9;
  private static final int POSITION = 10;
  private static final int CHAIN = 11;
  private static final int CONDITIONS = 12;
  private static final byte[][] NAMES =
      names(
          "id", "ok", "payload", "error", "policy", "decision", "reason", "outcome", "trace",
          "collect", "position", "chain", "conditions");
  private static final int UNKNOWN = -1;

  private final byte[] in;
  private int at;

  private EvalRecordReader(byte[] in) {
    this.in = in;
  }

  /**
   * The eval record of an ok answer.
   *
   * @return the record, or {@code null} when the answer isn't an ok eval record without problems
   */
  static EvalResult read(byte[] answer) {
    try {
      return new EvalRecordReader(answer).answer();
    } catch (Unexpected | IndexOutOfBoundsException | NumberFormatException e) {
      return null;
    }
  }

  private EvalResult answer() {
    expect('{');
    int name = member();
    if (name == ID) {
      value();
      expect(',');
      name = member();
    }
    if (name != OK || !literal("true")) {
      throw UNEXPECTED;
    }
    Optional<JsonNode> payload = Optional.empty();
    Optional<EvalFailure> error = Optional.empty();
    String policy = null;
    Optional<String> decision = Optional.empty();
    Optional<String> reason = Optional.empty();
    List<EvalEntry> outcome = null;
    List<EvalEntry> trace = null;
    boolean collect = false;
    while (next('}')) {
      switch (member()) {
        case PAYLOAD -> payload = tree();
        case ERROR -> error = Optional.of(error());
        case POLICY -> policy = string();
        case DECISION -> decision = Optional.of(string());
        case REASON -> reason = Optional.of(string());
        case OUTCOME -> outcome = list(this::entry);
        case TRACE -> trace = list(this::entry);
        case COLLECT -> collect = bool();
        default -> value();
      }
    }
    if (policy == null || outcome == null || trace == null) {
      throw UNEXPECTED;
    }
    return new EvalResult(
        payload, error, policy, decision, reason, outcome, trace, collect, Optional.empty());
  }

  private EvalEntry entry() {
    Optional<JsonNode> payload = Optional.empty();
    String decision = null;
    String reason = null;
    Optional<String> policy = Optional.empty();
    Optional<String> position = Optional.empty();
    List<String> chain = List.of();
    List<String> conditions = List.of();
    boolean outcome = false;
    if (open('{', '}')) {
      do {
        switch (member()) {
          case PAYLOAD -> payload = tree();
          case DECISION -> decision = string();
          case REASON -> reason = string();
          case POLICY -> policy = Optional.of(string());
          case POSITION -> position = Optional.of(string());
          case CHAIN -> chain = list(this::string);
          case CONDITIONS -> conditions = list(this::string);
          case OUTCOME -> outcome = bool();
          default -> value();
        }
      } while (next('}'));
    }
    if (decision == null || reason == null) {
      throw UNEXPECTED;
    }
    return new EvalEntry(payload, decision, reason, policy, position, chain, conditions, outcome);
  }

  /** A failure, bound by Jackson: failures are rare, and their records are the richest. */
  private EvalFailure error() {
    JsonNode failure = value();
    try {
      return AbiCodec.MAPPER.treeToValue(failure, EvalFailure.class);
    } catch (JsonProcessingException | IllegalArgumentException e) {
      throw UNEXPECTED;
    }
  }

  /** A list of what {@code element} reads, in turn. */
  private <T> List<T> list(Supplier<T> element) {
    List<T> out = new ArrayList<>();
    if (open('[', ']')) {
      do {
        out.add(element.get());
      } while (next(']'));
    }
    return out;
  }

  /** A payload: absent for {@code null}, as Jackson binds an {@code Optional}. */
  private Optional<JsonNode> tree() {
    JsonNode value = value();
    return value.isNull() ? Optional.empty() : Optional.of(value);
  }

  /** Any value, as the tree Jackson's {@code readTree} builds for it. */
  private JsonNode value() {
    return switch (in[at]) {
      case '{' -> object();
      case '[' -> array();
      case '"' -> NODES.textNode(string());
      case 't', 'f' -> NODES.booleanNode(bool());
      case 'n' -> {
        if (!literal("null")) {
          throw UNEXPECTED;
        }
        yield NODES.nullNode();
      }
      default -> number();
    };
  }

  private ObjectNode object() {
    ObjectNode out = NODES.objectNode();
    if (open('{', '}')) {
      do {
        String key = name();
        out.set(key, value());
      } while (next('}'));
    }
    return out;
  }

  private ArrayNode array() {
    ArrayNode out = NODES.arrayNode();
    out.addAll(list(this::value));
    return out;
  }

  /** A number: an int, long or big integer node by size, a double node with a fraction or exponent. */
  private JsonNode number() {
    int start = at;
    if (in[at] == '-') {
      at++;
    }
    boolean integral = true;
    while (at < in.length) {
      byte b = in[at];
      if (b >= '0' && b <= '9') {
        at++;
      } else if (b == '.' || b == 'e' || b == 'E' || b == '+' || b == '-') {
        integral = false;
        at++;
      } else {
        break;
      }
    }
    String text = new String(in, start, at - start, StandardCharsets.US_ASCII);
    if (!integral) {
      return NODES.numberNode(Double.parseDouble(text));
    }
    if (at - start <= 9) {
      return NODES.numberNode(Integer.parseInt(text));
    }
    BigInteger big = new BigInteger(text);
    if (big.compareTo(INT_MIN) >= 0 && big.compareTo(INT_MAX) <= 0) {
      return NODES.numberNode(big.intValue());
    }
    if (big.compareTo(LONG_MIN) >= 0 && big.compareTo(LONG_MAX) <= 0) {
      return NODES.numberNode(big.longValue());
    }
    return NODES.numberNode(big);
  }

  private boolean bool() {
    if (literal("true")) {
      return true;
    }
    if (literal("false")) {
      return false;
    }
    throw UNEXPECTED;
  }

  /** A member's name and its colon. */
  private String name() {
    String name = string();
    expect(':');
    return name;
  }

  /** A record member's name, by number ({@link #UNKNOWN} for another), and its colon. */
  private int member() {
    expect('"');
    int start = at;
    int end = plainEnd(start);
    if (in[end] != '"') {
      throw UNEXPECTED;
    }
    at = end + 1;
    expect(':');
    int length = end - start;
    if (length < 2) {
      return UNKNOWN;
    }
    // Length and first two bytes tell most names apart before the rest is compared.
    byte first = in[start];
    byte second = in[start + 1];
    for (int i = 0; i < NAMES.length; i++) {
      byte[] name = NAMES[i];
      if (name.length == length && name[0] == first && name[1] == second && sameBytes(name, start)) {
        return i;
      }
    }
    return UNKNOWN;
  }

  /** Whether {@code name} is at {@code start}: a loop beats Arrays.equals on a few bytes. */
  private boolean sameBytes(byte[] name, int start) {
    for (int k = 2; k < name.length; k++) {
      if (in[start + k] != name[k]) {
        return false;
      }
    }
    return true;
  }

  private static byte[][] names(String... names) {
    byte[][] out = new byte[names.length][];
    for (int i = 0; i < names.length; i++) {
      out[i] = names[i].getBytes(StandardCharsets.US_ASCII);
    }
    return out;
  }

  /** A string: runs of plain bytes decoded as UTF-8, escapes resolved. */
  private String string() {
    expect('"');
    int start = at;
    int end = plainEnd(start);
    if (in[end] == '"') {
      at = end + 1;
      return new String(in, start, end - start, StandardCharsets.UTF_8);
    }
    StringBuilder out = new StringBuilder(end - start + 16);
    while (true) {
      out.append(new String(in, start, end - start, StandardCharsets.UTF_8));
      at = end;
      if (in[end] == '"') {
        at++;
        return out.toString();
      }
      out.append(unescape(in[end + 1]));
      start = at;
      end = plainEnd(start);
    }
  }

  /**
   * Where the run of plain string bytes from {@code from} ends: at a quote or a backslash. A control
   * byte, which JSON doesn't allow in a string, leaves the fast path.
   */
  private int plainEnd(int from) {
    byte[] bytes = in;
    int i = from;
    while (true) {
      byte b = bytes[i];
      if (b == '"' || b == '\\') {
        return i;
      }
      if (b >= 0 && b < 0x20) {
        throw UNEXPECTED;
      }
      i++;
    }
  }

  /** The character of the escape whose letter is {@code letter}; moves past the escape. */
  private char unescape(byte letter) {
    at += 2;
    return switch (letter) {
      case '"' -> '"';
      case '\\' -> '\\';
      case '/' -> '/';
      case 'b' -> '\b';
      case 'f' -> '\f';
      case 'n' -> '\n';
      case 'r' -> '\r';
      case 't' -> '\t';
      case 'u' -> {
        char unit = (char) Integer.parseInt(new String(in, at, 4, StandardCharsets.US_ASCII), 16);
        at += 4;
        yield unit;
      }
      default -> throw UNEXPECTED;
    };
  }

  private boolean literal(String word) {
    int length = word.length();
    if (at + length > in.length) {
      return false;
    }
    for (int i = 0; i < length; i++) {
      if (in[at + i] != word.charAt(i)) {
        return false;
      }
    }
    at += length;
    return true;
  }

  /** Enters an object or array; whether it has a first member or element (else it is left). */
  private boolean open(char open, char close) {
    expect(open);
    if (in[at] == close) {
      at++;
      return false;
    }
    return true;
  }

  /** Moves past the comma before the next member or element, or past {@code close}: false then. */
  private boolean next(char close) {
    byte b = in[at++];
    if (b == ',') {
      return true;
    }
    if (b == close) {
      return false;
    }
    throw UNEXPECTED;
  }

  private void expect(char c) {
    if (in[at] != c) {
      throw UNEXPECTED;
    }
    at++;
  }
}

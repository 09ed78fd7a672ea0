package dev.svc.server.mesh.tailnet;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.server.mesh.Caller;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a who-is answer in one streaming pass: only {@code Node.Tags}, {@code UserProfile.LoginName}
 * and the {@code CapMap} values become objects; everything else the daemon says about the node (keys,
 * endpoints, host info, which a real daemon sends by the kilobyte) is skipped token by token, with no
 * tree built for it. This runs on every API request. The rules of {@link WireJson} hold: absent and
 * {@code null} are the zero value, a wrong type is an error.
 */
final class WhoIsAnswer {

  private WhoIsAnswer() {}

  /**
   * Reads answers, and gives the caller of the previous answer again when the daemon sent the very
   * same bytes: every request of one peer gets one answer, byte for byte, for as long as the peer
   * and its grants stay the same. The daemon is still asked for every request (no answer is
   * cached); only reading an identical answer again is skipped, and the auth layer, seeing the same
   * {@link Caller} object, skips its checks too. A changed grant changes the bytes.
   *
   * <p><b>Thread safety:</b> thread-safe.
   */
  static final class Reader {

    /** An answer and the caller it names. */
    private record Read(byte[] answer, Caller caller) {}

    private final ObjectMapper json;
    private volatile Read last;

    Reader(ObjectMapper json) {
      this.json = json;
    }

    /**
     * The caller {@code answer} names; the array must not change afterwards.
     *
     * @throws IOException when the answer is not JSON
     * @throws IllegalArgumentException as {@link WhoIsAnswer#read}
     */
    Caller read(byte[] answer) throws IOException {
      Read known = last;
      if (known != null && Arrays.equals(known.answer(), answer)) {
        return known.caller();
      }
      Caller caller = WhoIsAnswer.read(json, answer);
      last = new Read(answer, caller);
      return caller;
    }
  }

  /**
   * The caller {@code answer} names.
   *
   * @throws IOException when the answer is not JSON
   * @throws IllegalArgumentException when a member has the wrong type, or the caller has no login
   */
  static Caller read(ObjectMapper json, byte[] answer) throws IOException {
    boolean node = false;
    boolean user = false;
    List<String> tags = List.of();
    String login = "";
    Map<String, List<JsonNode>> capabilities = new LinkedHashMap<>();
    try (JsonParser in = json.createParser(answer)) {
      if (in.nextToken() == JsonToken.START_OBJECT) {
        while (in.nextToken() == JsonToken.FIELD_NAME) {
          String name = in.currentName();
          in.nextToken();
          switch (name) {
            case "Node" -> {
              node = object(in, name);
              tags = node ? tags(in) : List.of();
            }
            case "UserProfile" -> {
              user = object(in, name);
              login = user ? loginName(in) : "";
            }
            case "CapMap" -> {
              capabilities.clear();
              if (object(in, name)) {
                capabilities(in, capabilities);
              }
            }
            default -> in.skipChildren();
          }
        }
      }
    }
    if (!node || !user) {
      throw new IllegalArgumentException("the answer has no `Node` or no `UserProfile`");
    }
    if (login.isEmpty()) {
      throw new IllegalArgumentException("`UserProfile.LoginName` is empty");
    }
    return new Caller(login, tags, capabilities);
  }

  /** Whether the current value is an object (true) or null (false); any other value is an error. */
  private static boolean object(JsonParser in, String name) {
    if (in.currentToken() == JsonToken.VALUE_NULL) {
      return false;
    }
    if (in.currentToken() != JsonToken.START_OBJECT) {
      throw new IllegalArgumentException("`" + name + "` is not an object");
    }
    return true;
  }

  /** {@code Tags} of the node object the parser is in; the parser ends on the object's end. */
  private static List<String> tags(JsonParser in) throws IOException {
    List<String> tags = List.of();
    while (in.nextToken() == JsonToken.FIELD_NAME) {
      String name = in.currentName();
      JsonToken value = in.nextToken();
      if (!name.equals("Tags")) {
        in.skipChildren();
        continue;
      }
      if (value == JsonToken.VALUE_NULL) {
        tags = List.of();
        continue;
      }
      if (value != JsonToken.START_ARRAY) {
        throw new IllegalArgumentException("`Tags` is not a list");
      }
      List<String> values = new ArrayList<>();
      while (in.nextToken() != JsonToken.END_ARRAY) {
        if (in.currentToken() != JsonToken.VALUE_STRING) {
          throw new IllegalArgumentException("`Tags` holds a value that is not a string");
        }
        values.add(in.getText());
      }
      tags = values;
    }
    return tags;
  }

  /** {@code LoginName} of the user profile object the parser is in; the parser ends on its end. */
  private static String loginName(JsonParser in) throws IOException {
    String login = "";
    while (in.nextToken() == JsonToken.FIELD_NAME) {
      String name = in.currentName();
      JsonToken value = in.nextToken();
      if (!name.equals("LoginName")) {
        in.skipChildren();
      } else if (value == JsonToken.VALUE_STRING) {
        login = in.getText();
      } else if (value == JsonToken.VALUE_NULL) {
        login = "";
      } else {
        throw new IllegalArgumentException("`LoginName` is not a string");
      }
    }
    return login;
  }

  /** The members of the capability map the parser is in, into {@code capabilities}; null ones left out. */
  private static void capabilities(JsonParser in, Map<String, List<JsonNode>> capabilities) throws IOException {
    while (in.nextToken() == JsonToken.FIELD_NAME) {
      String name = in.currentName();
      JsonToken value = in.nextToken();
      if (value == JsonToken.VALUE_NULL) {
        capabilities.remove(name);
        continue;
      }
      if (value != JsonToken.START_ARRAY) {
        throw new IllegalArgumentException("`CapMap` value of `" + name + "` is not a list");
      }
      List<JsonNode> values = new ArrayList<>();
      while (in.nextToken() != JsonToken.END_ARRAY) {
        values.add(in.readValueAsTree());
      }
      capabilities.put(name, List.copyOf(values));
    }
  }
}

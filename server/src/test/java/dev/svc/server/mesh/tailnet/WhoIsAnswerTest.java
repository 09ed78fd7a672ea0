package dev.svc.server.mesh.tailnet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.svc.server.mesh.Caller;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class WhoIsAnswerTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CAP = "svc.dev/cap/svc";

  private static Caller read(String answer) throws IOException {
    return WhoIsAnswer.read(JSON, answer.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void reads_tags_login_and_capabilities_and_skips_everything_else() throws IOException {
    Caller caller = read("{\"Node\":{\"ID\":7,\"Key\":\"nodekey:ab\",\"Hostinfo\":{\"Services\":[{\"Port\":22}],"
        + "\"Tags\":[\"tag:inner\"]},\"Tags\":[\"tag:ci\"],\"Addresses\":[\"100.101.1.2/32\"]},"
        + "\"UserProfile\":{\"ID\":3,\"LoginName\":\"ann@corp.example\",\"DisplayName\":\"Ann\"},"
        + "\"CapMap\":{\"" + CAP + "\":[{\"role\":\"view\",\"period\":\"1h\"},7],\"other\":null}}");

    assertThat(caller.loginName()).isEqualTo("ann@corp.example");
    assertThat(caller.tags()).containsExactly("tag:ci");
    assertThat(caller.capabilities()).containsOnlyKeys(CAP);
    assertThat(caller.grants(CAP)).map(Object::toString)
        .containsExactly("{\"role\":\"view\",\"period\":\"1h\"}", "7");
  }

  @Test
  void absent_and_null_members_are_their_zero_value() throws IOException {
    Caller caller = read("{\"Node\":{\"Tags\":null},\"UserProfile\":{\"LoginName\":\"bob\"},\"CapMap\":null}");

    assertThat(caller.tags()).isEmpty();
    assertThat(caller.capabilities()).isEmpty();
    assertThat(read("{\"Node\":{},\"UserProfile\":{\"LoginName\":\"bob\"}}").capabilities()).isEmpty();
  }

  @Test
  void an_answer_without_node_or_user_or_login_is_refused() {
    assertThatThrownBy(() -> read("{\"Node\":null,\"UserProfile\":{\"LoginName\":\"bob\"}}"))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("the answer has no `Node` or no `UserProfile`");
    assertThatThrownBy(() -> read("[1,2]"))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("the answer has no `Node` or no `UserProfile`");
    assertThatThrownBy(() -> read(""))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("the answer has no `Node` or no `UserProfile`");
    assertThatThrownBy(() -> read("{\"Node\":{},\"UserProfile\":{\"LoginName\":null}}"))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("`UserProfile.LoginName` is empty");
  }

  @Test
  void a_member_of_the_wrong_type_is_refused() {
    String user = ",\"UserProfile\":{\"LoginName\":\"bob\"}";
    assertThatThrownBy(() -> read("{\"Node\":[]" + user + "}")).hasMessage("`Node` is not an object");
    assertThatThrownBy(() -> read("{\"Node\":{\"Tags\":\"tag:ci\"}" + user + "}")).hasMessage("`Tags` is not a list");
    assertThatThrownBy(() -> read("{\"Node\":{\"Tags\":[1]}" + user + "}"))
        .hasMessage("`Tags` holds a value that is not a string");
    assertThatThrownBy(() -> read("{\"Node\":{},\"UserProfile\":{\"LoginName\":5}}"))
        .hasMessage("`LoginName` is not a string");
    assertThatThrownBy(() -> read("{\"Node\":{}" + user + ",\"CapMap\":[]}")).hasMessage("`CapMap` is not an object");
    assertThatThrownBy(() -> read("{\"Node\":{}" + user + ",\"CapMap\":{\"" + CAP + "\":{}}}"))
        .hasMessage("`CapMap` value of `" + CAP + "` is not a list");
  }

  @Test
  void json_cut_short_or_malformed_anywhere_is_an_error_even_in_skipped_members() {
    assertThatThrownBy(() -> read("{\"Node\":{\"Tags\":[\"tag:ci\"")).isInstanceOf(JsonProcessingException.class);
    assertThatThrownBy(() -> read("{\"Node\":{\"Hostinfo\":{\"x\":[1,}}")).isInstanceOf(JsonProcessingException.class);
    assertThatThrownBy(() -> read("{\"Node\":{},\"UserProfile\":{\"LoginName\":\"bob\"},\"CapMap\":{\"a\":[1"))
        .isInstanceOf(JsonProcessingException.class);
  }

  @Test
  void a_reader_gives_the_same_caller_for_the_same_bytes_and_reads_changed_ones_anew() throws IOException {
    WhoIsAnswer.Reader reader = new WhoIsAnswer.Reader(JSON);
    String granted = "{\"Node\":{},\"UserProfile\":{\"LoginName\":\"ann\"},\"CapMap\":{\"" + CAP
        + "\":[{\"role\":\"view\"}]}}";
    String revoked = "{\"Node\":{},\"UserProfile\":{\"LoginName\":\"ann\"},\"CapMap\":null}";

    Caller first = reader.read(granted.getBytes(StandardCharsets.UTF_8));
    Caller again = reader.read(granted.getBytes(StandardCharsets.UTF_8));
    Caller afterRevoke = reader.read(revoked.getBytes(StandardCharsets.UTF_8));

    assertThat(again).isSameAs(first);
    assertThat(afterRevoke.grants(CAP)).isEmpty();
    assertThatThrownBy(() -> reader.read("{\"Node\":[]}".getBytes(StandardCharsets.UTF_8)))
        .hasMessage("`Node` is not an object");
    assertThat(reader.read(revoked.getBytes(StandardCharsets.UTF_8))).isSameAs(afterRevoke);
  }
}

package dev.svc.server.mesh.tailnet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Reading the daemon's HTTP/1.1 answers as Go's net/http writes them, whole or in pieces. */
class HttpAnswerTest {

  private static final int MAX_BODY = 64;

  private static Buffer bytes(String text) {
    return Buffer.buffer(text.getBytes(StandardCharsets.ISO_8859_1));
  }

  private static HttpAnswer readWhole(String text) {
    return new HttpAnswer.Reader(MAX_BODY).feed(bytes(text));
  }

  /** Feeds {@code text} one byte at a time; the answer must come with the last byte and not before. */
  private static HttpAnswer readByteByByte(String text) {
    HttpAnswer.Reader reader = new HttpAnswer.Reader(MAX_BODY);
    for (int i = 0; i < text.length() - 1; i++) {
      assertThat(reader.feed(bytes(text.substring(i, i + 1)))).as("answer after byte %d", i).isNull();
    }
    return reader.feed(bytes(text.substring(text.length() - 1)));
  }

  @Test
  void a_sized_answer_has_its_status_body_and_keeps_the_connection() {
    String text = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTailscale-Version: 1.103.0\r\n"
        + "Content-Length: 11\r\n\r\n{\"Node\":{}}";

    for (HttpAnswer answer : new HttpAnswer[] {readWhole(text), readByteByByte(text)}) {
      assertThat(answer.status()).isEqualTo(200);
      assertThat(answer.body().toString()).isEqualTo("{\"Node\":{}}");
      assertThat(answer.retryAfter()).isNull();
      assertThat(answer.reusable()).isTrue();
    }
  }

  @Test
  void a_chunked_answer_is_joined_and_its_extensions_and_trailers_skipped() {
    String text = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
        + "4\r\n{\"No\r\nA;name=value\r\nde\":{}}   \r\n0\r\nX-Trailer: 1\r\n\r\n";

    for (HttpAnswer answer : new HttpAnswer[] {readWhole(text), readByteByByte(text)}) {
      assertThat(answer.body().toString()).isEqualTo("{\"Node\":{}}   ");
      assertThat(answer.reusable()).isTrue();
    }
  }

  @Test
  void header_names_match_in_any_case_and_an_error_keeps_its_retry_after() {
    HttpAnswer answer = readWhole("HTTP/1.1 429 Too Many Requests\r\nretry-after: 7\r\ncontent-length: 5\r\n\r\nslow\n");

    assertThat(answer.status()).isEqualTo(429);
    assertThat(answer.retryAfter()).isEqualTo("7");
    assertThat(answer.body().toString()).isEqualTo("slow\n");
  }

  @Test
  void an_answer_in_direct_memory_reads_as_one_on_the_heap() {
    String text = "HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\n{\"Node\":{}}";
    ByteBuf direct = Unpooled.directBuffer().writeBytes(text.getBytes(StandardCharsets.ISO_8859_1));

    HttpAnswer answer = new HttpAnswer.Reader(MAX_BODY).feed(BufferInternal.buffer(direct));

    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.body().toString()).isEqualTo("{\"Node\":{}}");
  }

  @Test
  void header_values_are_trimmed_and_compared_in_any_case() {
    HttpAnswer answer = readWhole("HTTP/1.1 503 Service Unavailable\r\nRETRY-AFTER:\t 120 \r\n"
        + "transfer-encoding:  CHUNKED\r\nconnection: Close\r\n\r\n0\r\n\r\n");

    assertThat(answer.status()).isEqualTo(503);
    assertThat(answer.retryAfter()).isEqualTo("120");
    assertThat(answer.body().length()).isZero();
    assertThat(answer.reusable()).isFalse();
  }

  @Test
  void connection_close_and_http_1_0_make_the_connection_unusable() {
    assertThat(readWhole("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n").reusable()).isFalse();
    assertThat(readWhole("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n").reusable()).isFalse();
  }

  @Test
  void bytes_past_the_end_are_the_next_pipelined_answer() {
    String second = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}";
    HttpAnswer.Reader reader = new HttpAnswer.Reader(MAX_BODY);

    HttpAnswer first = reader.feed(bytes("HTTP/1.1 204 No Content\r\n\r\n" + second.substring(0, 20)));

    assertThat(first.status()).isEqualTo(204);
    assertThat(first.reusable()).isTrue();
    assertThat(reader.rest().toString()).isEqualTo(second.substring(0, 20));
    HttpAnswer.Reader next = new HttpAnswer.Reader(MAX_BODY);
    assertThat(next.feed(reader.rest())).isNull();
    assertThat(next.feed(bytes(second.substring(20))).body().toString()).isEqualTo("{}");
    assertThat(next.rest().length()).isZero();
  }

  @Test
  void an_answer_without_length_runs_to_the_end_of_the_connection() {
    HttpAnswer.Reader reader = new HttpAnswer.Reader(MAX_BODY);

    assertThat(reader.feed(bytes("HTTP/1.1 200 OK\r\n\r\nsome"))).isNull();
    assertThat(reader.feed(bytes(" text"))).isNull();
    HttpAnswer answer = reader.end();

    assertThat(answer.body().toString()).isEqualTo("some text");
    assertThat(answer.reusable()).isFalse();
  }

  @Test
  void a_204_has_no_body() {
    HttpAnswer answer = readWhole("HTTP/1.1 204 No Content\r\nTailscale-Version: 1.103.0\r\n\r\n");

    assertThat(answer.status()).isEqualTo(204);
    assertThat(answer.body().length()).isZero();
    assertThat(answer.reusable()).isTrue();
  }

  @Test
  void an_answer_cut_short_fails_with_where_it_was_cut() {
    HttpAnswer.Reader nothing = new HttpAnswer.Reader(MAX_BODY);
    assertThatThrownBy(nothing::end).hasMessage("the connection closed before an answer");

    HttpAnswer.Reader halfway = new HttpAnswer.Reader(MAX_BODY);
    assertThat(halfway.feed(bytes("HTTP/1.1 200 OK\r\nContent-Length: 40\r\n\r\n{\"Node\": {"))).isNull();
    assertThatThrownBy(halfway::end).hasMessage("the connection closed in the middle of the answer");
  }

  @Test
  void bytes_that_are_no_answer_fail_with_what_is_wrong() {
    assertThatThrownBy(() -> readWhole("SSH-2.0-OpenSSH_9.6\r\n\r\n"))
        .hasMessage("not an HTTP/1.x status line: `SSH-2.0-OpenSSH_9.6`");
    assertThatThrownBy(() -> readWhole("HTTP/1.1 2x0 OK\r\n\r\n")).hasMessage("not an HTTP/1.x status line: `HTTP/1.1 2x0 OK`");
    assertThatThrownBy(() -> readWhole("http/1.1 200 OK\r\n\r\n")).hasMessage("not an HTTP/1.x status line: `http/1.1 200 OK`");
    assertThatThrownBy(() -> readWhole("HTTP/1.1 +20 OK\r\n\r\n")).hasMessage("not an HTTP/1.x status line: `HTTP/1.1 +20 OK`");
    assertThatThrownBy(() -> readWhole("HTTP/1.1 100 Continue\r\n\r\n")).hasMessage("the status 100 is no final answer");
    assertThatThrownBy(() -> readWhole("HTTP/1.1 200 OK\r\nno colon\r\n\r\n"))
        .hasMessage("a header line without a name: `no colon`");
    assertThatThrownBy(() -> readWhole("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n"))
        .hasMessage("the content length `-1` is invalid");
    assertThatThrownBy(() -> readWhole("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n"))
        .hasMessage("the content length `2` is invalid");
    assertThatThrownBy(() -> readWhole("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n"))
        .hasMessage("the transfer encoding `gzip` is not chunked");
    assertThatThrownBy(() -> readWhole("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"))
        .hasMessage("the chunk size `zz` is no hex number");
    assertThatThrownBy(() -> readWhole("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nabc"))
        .hasMessage("a chunk doesn't end with CRLF");
  }

  @Test
  void the_head_and_the_body_are_bounded() {
    assertThatThrownBy(() -> readWhole("HTTP/1.1 200 OK\r\nContent-Length: 65\r\n\r\n"))
        .hasMessage("the answer is longer than 64 bytes");
    assertThatThrownBy(() -> readWhole("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n40\r\n" + "a".repeat(64)
        + "\r\n1\r\n")).hasMessage("the answer is longer than 64 bytes");
    HttpAnswer.Reader endless = new HttpAnswer.Reader(MAX_BODY);
    endless.feed(bytes("HTTP/1.1 200 OK\r\n\r\n"));
    assertThatThrownBy(() -> endless.feed(bytes("a".repeat(65)))).hasMessage("the answer is longer than 64 bytes");
    String header = "X-Filler: " + "a".repeat(HttpAnswer.Reader.MAX_HEAD_BYTES) + "\r\n";
    assertThatThrownBy(() -> readWhole("HTTP/1.1 200 OK\r\n" + header))
        .hasMessage("the head (status line and headers) is longer than 16384 bytes");
  }
}

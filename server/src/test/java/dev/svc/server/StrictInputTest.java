package dev.svc.server;

import static dev.svc.server.TestServers.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Bodies, content types and paths a caller gets wrong: each refused with its status and words, the
 * same way on every route that reads a body, before any engine is asked.
 */
@ExtendWith(VertxExtension.class)
class StrictInputTest {

  /** Every route that reads a body, with a body it takes. */
  private record BodyRoute(HttpMethod method, String path, String body) {}

  private static final List<BodyRoute> BODY_ROUTES = List.of(
      new BodyRoute(HttpMethod.POST, "/api/v1/policies/x/eval", "{\"input\": {}}"),
      new BodyRoute(HttpMethod.PUT, "/api/v1/policies/x", "{\"files\": []}"),
      new BodyRoute(HttpMethod.POST, "/api/v1/check", "{\"files\": []}"),
      new BodyRoute(HttpMethod.POST, "/api/v1/format", "{\"source\": \"\"}"),
      new BodyRoute(HttpMethod.POST, "/api/v1/explain", "{\"files\": []}"),
      new BodyRoute(HttpMethod.POST, "/api/v1/test", "{\"files\": []}"));

  private static SvcServer server;
  private static WebClient client;

  @BeforeAll
  static void start(Vertx vertx) {
    server = await(SvcServer.start(TestServers.config()));
    client = WebClient.create(vertx);
  }

  @AfterAll
  static void stop() {
    await(server.stop());
  }

  private static HttpResponse<Buffer> send(HttpMethod method, String path, String contentType, byte[] body) {
    HttpRequest<Buffer> request = client.request(method, server.apiPort(), "127.0.0.1", path);
    if (contentType != null) {
      request.putHeader("Content-Type", contentType);
    }
    return await(request.sendBuffer(Buffer.buffer(body)));
  }

  private static HttpResponse<Buffer> send(BodyRoute route, String contentType, byte[] body) {
    return send(route.method(), route.path(), contentType, body);
  }

  private static void assertError(HttpResponse<Buffer> response, int status, String message, String help) {
    assertThat(response.statusCode()).isEqualTo(status);
    assertThat(response.bodyAsJsonObject()).isEqualTo(new JsonObject().put("message", message).put("help", help));
  }

  // The body's bytes: `text` in UTF-8 with `bytes` put in place of the marker ###.
  private static byte[] withBytes(String text, int... bytes) {
    byte[] before = text.substring(0, text.indexOf("###")).getBytes(StandardCharsets.UTF_8);
    byte[] after = text.substring(text.indexOf("###") + 3).getBytes(StandardCharsets.UTF_8);
    byte[] all = new byte[before.length + bytes.length + after.length];
    System.arraycopy(before, 0, all, 0, before.length);
    for (int i = 0; i < bytes.length; i++) {
      all[before.length + i] = (byte) bytes[i];
    }
    System.arraycopy(after, 0, all, before.length + bytes.length, after.length);
    return all;
  }

  @Test
  void a_json_null_or_a_value_that_is_no_object_is_400_on_every_route() {
    for (BodyRoute route : BODY_ROUTES) {
      for (String body : List.of("null", "[]", "\"text\"", "7", "true")) {
        HttpResponse<Buffer> response = send(route, "application/json", body.getBytes(StandardCharsets.UTF_8));

        assertThat(response.statusCode()).as(route + " " + body).isEqualTo(400);
        assertThat(response.bodyAsJsonObject().getString("message")).as(route + " " + body)
            .isEqualTo("the request body isn't a JSON object");
        assertThat(response.bodyAsJsonObject().getString("help")).startsWith("send a JSON object such as {");
      }
    }
  }

  @Test
  void a_body_in_utf_16_or_utf_32_is_415_on_every_route() {
    for (BodyRoute route : BODY_ROUTES) {
      for (Charset charset : List.of(StandardCharsets.UTF_16BE, StandardCharsets.UTF_16LE, StandardCharsets.UTF_16,
          Charset.forName("UTF-32LE"), Charset.forName("UTF-32BE"))) {
        assertError(send(route, "application/json", route.body().getBytes(charset)), 415,
            "the request body is UTF-16 or UTF-32, not UTF-8",
            "send the body in UTF-8, with Content-Type: application/json");
      }
    }
  }

  @Test
  void a_body_declared_in_another_charset_is_415_and_any_label_of_utf_8_passes() {
    for (BodyRoute route : BODY_ROUTES) {
      assertError(send(route, "application/json; charset=utf-16", route.body().getBytes(StandardCharsets.UTF_16)), 415,
          "the request body is declared `utf-16`, not UTF-8",
          "send the body in UTF-8, with Content-Type: application/json");
      assertError(send(route, "application/json;charset=\"ISO-8859-1\"", route.body().getBytes(StandardCharsets.UTF_8)),
          415, "the request body is declared `iso-8859-1`, not UTF-8",
          "send the body in UTF-8, with Content-Type: application/json");
    }
    for (String type : List.of("Application/JSON; Charset=UTF-8", "application/json; charset=utf8",
        "application/json; charset=\"unicode-1-1-utf-8\"")) {
      assertThat(send(HttpMethod.POST, "/api/v1/format", type,
          "{\"source\": \"policy a.b: K@1\\n\"}".getBytes(StandardCharsets.UTF_8)).statusCode()).as(type).isEqualTo(200);
    }
  }

  @Test
  void a_content_type_that_only_starts_like_json_is_415() {
    for (String type : List.of("application/jsonx", "application/json-patch+json", "text/json", "application/json5")) {
      assertError(send(HttpMethod.POST, "/api/v1/format", type, "{\"source\": \"\"}".getBytes(StandardCharsets.UTF_8)),
          415, "the request body isn't declared JSON",
          "send the header Content-Type: application/json with a body such as {\"source\": \"...\", \"path\":"
              + " \"access/main.sigil\"}");
    }
  }

  @Test
  void invalid_utf_8_in_a_body_is_400_on_every_route() {
    String help = "send the body as UTF-8; overlong forms, encoded surrogates (CESU-8) and stray bytes are refused";
    int[][] invalid = {
        {0xC0, 0xAF}, // an overlong `/`
        {0xE0, 0x80, 0xAF}, // an overlong `/` in three bytes
        {0xED, 0xA0, 0x80}, // a high surrogate alone, as CESU-8 writes it
        {0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80}, // a surrogate pair in CESU-8
        {0xF4, 0x90, 0x80, 0x80}, // past U+10FFFF
        {0xFF}, // no character starts so
        {0xE2, 0x82}, // cut short
    };
    for (BodyRoute route : BODY_ROUTES) {
      for (int[] bytes : invalid) {
        assertError(send(route, "application/json", withBytes("{\"a\": \"###\"}", bytes)), 400,
            "the request body isn't valid UTF-8 at byte 7", help);
      }
    }
  }

  @Test
  void an_overlong_slash_in_a_path_is_400_and_not_read_as_a_slash() {
    assertError(send(HttpMethod.GET, "/api/v1/policies/a%C0%AFb", null, new byte[0]), 400,
        "the request path isn't valid UTF-8",
        "percent-encode the UTF-8 bytes of each character in the path; overlong forms and encoded surrogates are"
            + " refused");
    assertThat(send(HttpMethod.POST, "/api/v1/policies/a%ED%A0%80/eval", "application/json",
        "{\"input\": {}}".getBytes(StandardCharsets.UTF_8)).statusCode()).isEqualTo(400);
  }

  @Test
  void a_request_without_a_valid_host_header_is_400_on_either_api() throws IOException {
    String help = "send Host: <name or address>[:port], with an IPv6 address in brackets, such as"
        + " [fd7a:115c:a1e0::1]:443";
    for (String host : new String[] {"Host: ::1:8080\r\n", "Host: a b\r\n", ""}) {
      String policies = rawGet("/api/v1/policies", host);
      assertThat(policies).as(host).startsWith("HTTP/1.1 400 ").endsWith(new JsonObject()
          .put("message", "the request has no valid Host header").put("help", help).encode());
      String access = rawGet("/api/v1alpha1/cluster-info", host);
      assertThat(access).as(host).startsWith("HTTP/1.1 400 ").endsWith(new JsonObject()
          .put("message", "the request has no valid Host header").put("advice", new JsonArray().add(help)).encode());
    }
  }

  // One GET written by hand, with the header lines `headers`, and its whole answer.
  private static String rawGet(String path, String headers) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", server.apiPort())) {
      socket.setSoTimeout(30_000);
      socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\n" + headers + "Connection: close\r\n\r\n")
          .getBytes(StandardCharsets.ISO_8859_1));
      return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void an_invalid_path_under_the_access_api_is_400_in_its_error_shape() {
    HttpResponse<Buffer> response = send(HttpMethod.GET, "/api/v1alpha1/cluster-info%C0%AF", null, new byte[0]);

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.bodyAsJsonObject()).isEqualTo(new JsonObject()
        .put("message", "the request path isn't valid UTF-8")
        .put("advice", new JsonArray().add("percent-encode the UTF-8 bytes of each character in the path; overlong"
            + " forms and encoded surrogates are refused")));
  }

  @Test
  void a_float_timeout_is_400_rather_than_cut_to_a_whole_number() {
    for (String timeout : List.of("1.9", "100.0", "1e3")) {
      assertError(send(HttpMethod.POST, "/api/v1/policies/x/eval", "application/json",
              ("{\"input\": {}, \"timeout_ms\": " + timeout + "}").getBytes(StandardCharsets.UTF_8)), 400,
          "`timeout_ms` isn't a whole number", "send a JSON object such as {\"input\": {...}, \"timeout_ms\": 100}");
    }
  }

  @Test
  void a_policy_name_outside_the_engines_syntax_is_400_on_every_policy_route() {
    String help = "name policies as the engine names them: identifiers joined by dots, such as access.main; a `-` may"
        + " follow a segment's first character, such as refund-gate; at most 128 characters";
    for (String[] name : new String[][] {
        {"a%2Fb", "a/b"}, {"a%00b", "a\\u0000b"}, {"a%0D%0Ab", "a\\u000d\\u000ab"}, {"a%20b", "a b"},
        {"-a", "-a"}, {"a..b", "a..b"}, {"caf%C3%A9", "café"}, {"1a", "1a"}}) {
      String message = "`" + name[1] + "` isn't a policy name";
      assertError(send(HttpMethod.PUT, "/api/v1/policies/" + name[0], "application/json",
          "{\"files\": []}".getBytes(StandardCharsets.UTF_8)), 400, message, help);
      assertError(send(HttpMethod.GET, "/api/v1/policies/" + name[0], null, new byte[0]), 400, message, help);
      assertError(send(HttpMethod.DELETE, "/api/v1/policies/" + name[0], null, new byte[0]), 400, message, help);
      assertError(send(HttpMethod.POST, "/api/v1/policies/" + name[0] + "/eval", "application/json",
          "{\"input\": {}}".getBytes(StandardCharsets.UTF_8)), 400, message, help);
    }
    String longest = "a".repeat(128);
    assertThat(send(HttpMethod.GET, "/api/v1/policies/" + longest, null, new byte[0]).statusCode()).isEqualTo(404);
    assertError(send(HttpMethod.GET, "/api/v1/policies/" + longest + "a", null, new byte[0]), 400,
        "`" + longest + "...` isn't a policy name", help);
  }
}

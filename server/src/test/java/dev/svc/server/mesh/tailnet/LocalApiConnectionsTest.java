package dev.svc.server.mesh.tailnet;

import static dev.svc.server.mesh.tailnet.LocalApiClientTest.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.parsetools.RecordParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The lean who-is path against a scripted daemon on a real unix socket, where each test decides
 * what the daemon does with each request of each connection: answer, hold, close, or send garbage.
 */
@ExtendWith(VertxExtension.class)
class LocalApiConnectionsTest {

  private static final String URI = "/localapi/v0/whois?addr=127.0.0.1%3A40001";
  private static final String OK = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}";

  /** What the daemon does with request number {@code index} (from 0) of a connection. */
  @FunctionalInterface
  private interface Script {
    void answer(NetSocket connection, int index);
  }

  private final List<String> requests = new CopyOnWriteArrayList<>();
  private final AtomicInteger connections = new AtomicInteger();
  private final AtomicInteger closed = new AtomicInteger();
  private final AtomicInteger reads = new AtomicInteger();
  private NetServer server;
  private LocalApiConnections client;

  private Path daemon(Vertx vertx, Script script) throws Exception {
    Path socket = Files.createTempDirectory("lean-ts").resolve("s.sock");
    server = vertx.createNetServer().connectHandler(connection -> {
      connections.incrementAndGet();
      connection.closeHandler(v -> closed.incrementAndGet());
      AtomicInteger index = new AtomicInteger();
      RecordParser parser = RecordParser.newDelimited("\r\n\r\n", request -> {
        requests.add(request.toString() + "\r\n\r\n");
        script.answer(connection, index.getAndIncrement());
      });
      connection.handler(bytes -> {
        reads.incrementAndGet();
        parser.handle(bytes);
      });
    });
    await(server.listen(SocketAddress.domainSocketAddress(socket.toString())));
    return socket;
  }

  private LocalApiConnections client(Vertx vertx, Path socket, Duration timeout) {
    client = new LocalApiConnections(vertx, SocketAddress.domainSocketAddress(socket.toString()), timeout, 1024);
    return client;
  }

  @AfterEach
  void stop() {
    if (client != null) {
      await(client.close());
    }
    if (server != null) {
      await(server.close());
    }
  }

  @Test
  void the_deadline_sweep_runs_every_tenth_of_the_deadline_within_10_ms_and_a_second() {
    assertThat(LocalApiConnections.tick(Duration.ofSeconds(10))).isEqualTo(Duration.ofSeconds(1));
    assertThat(LocalApiConnections.tick(Duration.ofSeconds(180))).isEqualTo(Duration.ofSeconds(1));
    assertThat(LocalApiConnections.tick(Duration.ofSeconds(1))).isEqualTo(Duration.ofMillis(100));
    assertThat(LocalApiConnections.tick(Duration.ofMillis(50))).isEqualTo(Duration.ofMillis(10));
  }

  @Test
  void calls_in_turn_share_one_connection_and_send_the_daemons_host_only(Vertx vertx) throws Exception {
    LocalApiConnections client = client(vertx, daemon(vertx, (connection, index) -> {
      // Chunked, in two writes, as Go sends an answer longer than its buffer.
      connection.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n{\"a");
      connection.write("\"\r\n2\r\n:" + index + "\r\n1\r\n}\r\n0\r\n\r\n");
    }), Duration.ofSeconds(10));

    for (int i = 0; i < 3; i++) {
      HttpAnswer answer = await(get(client, URI));
      assertThat(answer.status()).isEqualTo(200);
      assertThat(answer.body().toString()).isEqualTo("{\"a\":" + i + "}");
    }

    assertThat(connections).hasValue(1);
    assertThat(requests).hasSize(3)
        .allSatisfy(request -> assertThat(request).isEqualTo("GET " + URI + " HTTP/1.1\r\nHost: local-tailscaled.sock\r\n\r\n"));
  }

  @Test
  void a_connection_the_daemon_closed_while_idle_is_replaced_and_the_call_answered(Vertx vertx) throws Exception {
    LocalApiConnections client = client(vertx, daemon(vertx, (connection, index) -> {
      if (index == 0) {
        connection.write(OK);
      } else {
        connection.close(); // as if it had timed the idle connection out just then
      }
    }), Duration.ofSeconds(10));

    await(get(client, URI));
    HttpAnswer second = await(get(client, URI));

    assertThat(second.body().toString()).isEqualTo("{}");
    assertThat(connections).hasValue(2);
  }

  @Test
  void a_fresh_connection_closed_without_an_answer_fails_the_call(Vertx vertx) throws Exception {
    LocalApiConnections client = client(vertx, daemon(vertx, (connection, index) -> connection.close()),
        Duration.ofSeconds(10));

    assertThat(catchThrowable(() -> await(get(client, URI)))).hasMessage("the connection closed before an answer");
    assertThat(connections).hasValue(1);
  }

  @Test
  void a_held_call_ends_at_its_deadline_and_its_connection_is_closed(Vertx vertx) throws Exception {
    AtomicInteger calls = new AtomicInteger();
    LocalApiConnections client = client(vertx, daemon(vertx, (connection, index) -> {
      if (calls.getAndIncrement() > 0) {
        connection.write(OK);
      }
    }), Duration.ofMillis(300));

    assertThat(catchThrowable(() -> await(get(client, URI)))).cause().isInstanceOf(TimeoutException.class)
        .hasMessage("no answer within 300 ms");
    assertThat(await(get(client, URI)).status()).isEqualTo(200);

    assertThat(connections).hasValue(2);
    Awaitility.await().untilAsserted(() -> assertThat(closed).hasValue(1));
  }

  @Test
  void garbage_from_the_daemon_fails_the_call_and_closes_the_connection(Vertx vertx) throws Exception {
    AtomicInteger calls = new AtomicInteger();
    LocalApiConnections client = client(vertx, daemon(vertx, (connection, index) ->
        connection.write(calls.getAndIncrement() == 0 ? "SSH-2.0-OpenSSH_9.6\r\n\r\n" : OK)), Duration.ofSeconds(10));

    assertThat(catchThrowable(() -> await(get(client, URI)))).hasMessage("not an HTTP/1.x status line: `SSH-2.0-OpenSSH_9.6`");
    assertThat(await(get(client, URI)).status()).isEqualTo(200);

    assertThat(connections).hasValue(2);
  }

  @Test
  void calls_beyond_what_the_connections_may_carry_wait_for_room(Vertx vertx) throws Exception {
    int capacity = LocalApiConnections.MAX_PER_LOOP * LocalApiConnections.MAX_PIPELINED;
    List<NetSocket> held = new ArrayList<>();
    LocalApiConnections client = client(vertx, daemon(vertx, (connection, index) -> {
      // Holds the first requests until the client's connections carry as many as they may.
      synchronized (held) {
        if (held.size() < capacity) {
          held.add(connection);
          if (held.size() == capacity) {
            held.forEach(waiting -> waiting.write(OK));
          }
          return;
        }
      }
      connection.write(OK);
    }), Duration.ofSeconds(20));

    List<Future<HttpAnswer>> calls = inOneTurn(vertx, client, capacity + 8);
    await(Future.all(calls));

    assertThat(connections).hasValue(LocalApiConnections.MAX_PER_LOOP);
    assertThat(requests).hasSize(capacity + 8);
  }

  @Test
  void a_call_beyond_the_waiting_limit_fails_at_once(Vertx vertx) throws Exception {
    LocalApiConnections client = client(vertx, daemon(vertx, (connection, index) -> {
      // Never answers: every connection stays busy.
    }), Duration.ofSeconds(20));
    int busy = LocalApiConnections.MAX_PER_LOOP * LocalApiConnections.MAX_PIPELINED
        + LocalApiConnections.MAX_WAITING_PER_LOOP;

    List<Future<HttpAnswer>> calls = inOneTurn(vertx, client, busy + 1);

    assertThat(catchThrowable(() -> await(calls.get(busy))))
        .hasMessage("4096 calls already wait for one of the 32 connections of this event loop");
  }

  @Test
  void a_call_that_waits_for_room_past_its_deadline_ends_as_timed_out(Vertx vertx) throws Exception {
    LocalApiConnections client = client(vertx, daemon(vertx, (connection, index) -> {
      // Never answers: every connection stays busy.
    }), Duration.ofMillis(300));
    int capacity = LocalApiConnections.MAX_PER_LOOP * LocalApiConnections.MAX_PIPELINED;

    List<Future<HttpAnswer>> calls = inOneTurn(vertx, client, capacity + 1);

    assertThat(catchThrowable(() -> await(calls.get(capacity)))).cause().isInstanceOf(TimeoutException.class)
        .hasMessage("no answer within 300 ms");
  }

  @Test
  void the_calls_of_one_turn_go_out_in_one_write_on_one_connection_and_get_their_own_answers(Vertx vertx)
      throws Exception {
    LocalApiConnections client = client(vertx, daemon(vertx, (connection, index) ->
        connection.write("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n" + index)), Duration.ofSeconds(10));

    List<Future<HttpAnswer>> calls = inOneTurn(vertx, client, 5);
    await(Future.all(calls));

    assertThat(calls).extracting(call -> call.result().body().toString()).containsExactly("0", "1", "2", "3", "4");
    assertThat(connections).hasValue(1);
    assertThat(reads).hasValue(1);
    assertThat(requests).hasSize(5);
  }

  @Test
  void garbage_fails_the_first_call_and_the_calls_behind_it_are_answered_on_another_connection(Vertx vertx)
      throws Exception {
    AtomicInteger answers = new AtomicInteger();
    LocalApiConnections client = client(vertx, daemon(vertx, (connection, index) ->
        connection.write(answers.getAndIncrement() == 0 ? "SSH-2.0-OpenSSH_9.6\r\n\r\n" : OK)),
        Duration.ofSeconds(10));

    List<Future<HttpAnswer>> calls = inOneTurn(vertx, client, 3);

    assertThat(catchThrowable(() -> await(calls.get(0)))).hasMessage("not an HTTP/1.x status line: `SSH-2.0-OpenSSH_9.6`");
    assertThat(await(calls.get(1)).status()).isEqualTo(200);
    assertThat(await(calls.get(2)).status()).isEqualTo(200);
    assertThat(connections).hasValue(2);
  }

  @Test
  void an_answer_that_closes_the_connection_sends_the_calls_behind_it_to_another(Vertx vertx) throws Exception {
    LocalApiConnections client = client(vertx, daemon(vertx, (connection, index) -> {
      if (connections.get() == 1) {
        connection.write("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}");
        connection.close();
      } else {
        connection.write(OK);
      }
    }), Duration.ofSeconds(10));

    List<Future<HttpAnswer>> calls = inOneTurn(vertx, client, 3);
    await(Future.all(calls));

    assertThat(calls).extracting(call -> call.result().status()).containsExactly(200, 200, 200);
    assertThat(connections).hasValue(2);
  }

  /** {@code GET uri} through {@code client}, its outcome as a future. */
  static Future<HttpAnswer> get(LocalApiConnections client, String uri) {
    Promise<HttpAnswer> answered = Promise.promise();
    client.get(uri, answered);
    return answered.future();
  }

  /** {@code count} calls made in one turn of one event loop, as the API makes them under load. */
  private static List<Future<HttpAnswer>> inOneTurn(Vertx vertx, LocalApiConnections client, int count) {
    Context loop = vertx.getOrCreateContext();
    Promise<List<Future<HttpAnswer>>> started = Promise.promise();
    loop.runOnContext(v -> {
      List<Future<HttpAnswer>> calls = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        calls.add(get(client, URI));
      }
      started.complete(calls);
    });
    return await(started.future());
  }

  @Test
  void closing_the_client_fails_the_calls_in_flight(Vertx vertx) throws Exception {
    LocalApiConnections client = client(vertx, daemon(vertx, (connection, index) -> {
      // Never answers.
    }), Duration.ofSeconds(10));
    Future<HttpAnswer> call = get(client, URI);
    Awaitility.await().until(() -> requests.size() == 1);

    await(client.close());

    assertThat(catchThrowable(() -> await(call))).hasMessage("the connection closed before an answer");
    assertThat(catchThrowable(() -> await(get(client, URI)))).hasMessage("the client is closed");
  }

  @Test
  void the_answer_reaches_the_callers_context(Vertx vertx) throws Exception {
    LocalApiConnections client = client(vertx, daemon(vertx, (connection, index) -> connection.write(OK)),
        Duration.ofSeconds(10));
    Context caller = vertx.getOrCreateContext();
    Promise<Boolean> same = Promise.promise();

    caller.runOnContext(v -> get(client, URI).onComplete(done -> same.complete(Vertx.currentContext() == caller)));

    assertThat(await(same.future())).isTrue();
  }
}

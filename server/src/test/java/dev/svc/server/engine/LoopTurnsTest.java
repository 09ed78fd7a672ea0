package dev.svc.server.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SingleThreadEventLoop;
import io.netty.channel.nio.NioIoHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Which evaluations an event loop runs itself: on a real Netty event loop (NIO, as Vert.x's without
 * native transport), each test's turns are tasks that read evaluations, as a channel's read would.
 */
class LoopTurnsTest {

  private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
  private final EventLoop loop = group.next();
  private final LoopTurns turns = new LoopTurns();
  // Where each evaluation ran, in order: "loop N" or "lane N"; only the event loop writes it.
  private final List<String> ran = new ArrayList<>();

  @AfterEach
  void stop() {
    group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
  }

  // An evaluation that notes where it ran, and on which thread.
  private LoopTurns.Evaluation evaluation(int id) {
    return new LoopTurns.Evaluation() {
      @Override
      public void onLoop() {
        assertThat(loop.inEventLoop()).isTrue();
        ran.add("loop " + id);
      }

      @Override
      public void inLane() {
        assertThat(loop.inEventLoop()).isTrue();
        ran.add("lane " + id);
      }
    };
  }

  // Reads evaluation `id` as PolicyRoutes does: one LoopTurns doesn't queue goes to the lane at once.
  private void read(int id) {
    if (!turns.submit(loop, evaluation(id))) {
      ran.add("lane " + id + " at once");
    }
  }

  // One turn of the loop that reads the evaluations `ids`; returns once the turn and what it queued ran.
  private List<String> turn(int... ids) throws Exception {
    return turn(() -> {
      for (int id : ids) {
        read(id);
      }
      ran.add("turn read " + ids.length);
    });
  }

  // One turn of the loop that runs `read`; returns where the evaluations ran, noted by a tail task
  // queued after LoopTurns' own (tail tasks run in order, after the turn).
  private List<String> turn(Runnable read) throws Exception {
    CompletableFuture<List<String>> done = new CompletableFuture<>();
    loop.execute(() -> {
      ran.clear();
      read.run();
      ((SingleThreadEventLoop) loop).executeAfterEventLoopIteration(() -> done.complete(List.copyOf(ran)));
    });
    return done.get(10, TimeUnit.SECONDS);
  }

  @Test
  void a_turn_that_read_one_evaluation_runs_it_on_the_loop_after_the_turn() throws Exception {
    assertThat(turn(1)).containsExactly("turn read 1", "loop 1");
  }

  @Test
  void a_turn_that_read_more_sends_them_all_to_the_lane_the_first_after_the_turn_the_others_at_once() throws Exception {
    assertThat(turn(1, 2, 3)).containsExactly("lane 2 at once", "lane 3 at once", "turn read 3", "lane 1");
  }

  @Test
  void after_a_busier_turn_the_loop_evaluates_again_only_after_a_streak_of_light_turns() throws Exception {
    assertThat(turn(1, 2)).containsExactly("lane 2 at once", "turn read 2", "lane 1");
    for (int i = 0; i < LoopTurns.LIGHT_STREAK; i++) {
      assertThat(turn(10 + i)).as("light turn %d after the busier one", i + 1)
          .containsExactly("lane " + (10 + i) + " at once", "turn read 1");
    }
    assertThat(turn(20)).containsExactly("turn read 1", "loop 20");
    assertThat(turn(21)).containsExactly("turn read 1", "loop 21");
  }

  @Test
  void a_busier_turn_in_a_streak_starts_it_again() throws Exception {
    turn(1, 2);
    for (int i = 0; i < LoopTurns.LIGHT_STREAK - 1; i++) {
      turn(10 + i);
    }
    assertThat(turn(3, 4)).containsExactly("lane 3 at once", "lane 4 at once", "turn read 2");
    assertThat(turn(30)).containsExactly("lane 30 at once", "turn read 1");
  }

  @Test
  void a_request_read_with_its_evaluation_in_one_turn_leaves_the_turn_light() throws Exception {
    assertThat(turn(() -> {
      turns.requestRead(loop);
      read(1);
    })).containsExactly("loop 1");
  }

  @Test
  void a_turn_that_read_more_requests_is_busy_though_their_evaluations_start_in_later_turns() throws Exception {
    assertThat(turn(() -> {
      turns.requestRead(loop);
      turns.requestRead(loop);
    })).isEmpty();

    for (int i = 0; i < LoopTurns.LIGHT_STREAK; i++) {
      assertThat(turn(10 + i)).as("light turn %d after the busier one", i + 1)
          .containsExactly("lane " + (10 + i) + " at once", "turn read 1");
    }
    assertThat(turn(20)).containsExactly("turn read 1", "loop 20");
  }

  @Test
  void turns_that_read_one_request_each_count_toward_the_streak() throws Exception {
    turn(1, 2);
    for (int i = 0; i < LoopTurns.LIGHT_STREAK; i++) {
      assertThat(turn(() -> turns.requestRead(loop))).isEmpty();
    }

    assertThat(turn(3)).containsExactly("turn read 1", "loop 3");
  }

  @Test
  void an_evaluation_that_throws_keeps_neither_the_others_of_its_turn_nor_later_turns_from_running() throws Exception {
    List<String> first = turn(() -> turns.submit(loop, new LoopTurns.Evaluation() {
      @Override
      public void onLoop() {
        read(2); // a pipelined request, read when the first was answered: it joins the turn
        throw new IllegalStateException("a planted failure");
      }

      @Override
      public void inLane() {
        throw new IllegalStateException("not in the lane");
      }
    }));

    assertThat(first).containsExactly("loop 2");
    assertThat(turn(3)).containsExactly("turn read 1", "loop 3");
    assertThat(turn(4, 5)).containsExactly("lane 5 at once", "turn read 2", "lane 4");
  }

  @Test
  void only_the_event_loop_itself_queues_evaluations_for_its_turn() {
    assertThatThrownBy(() -> turns.submit(loop, evaluation(1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("evaluations are queued for a turn on their event loop's own thread");
  }

  @Test
  void only_the_event_loop_itself_counts_the_requests_of_its_turn() {
    assertThatThrownBy(() -> turns.requestRead(loop))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("requests are counted for a turn on their event loop's own thread");
  }

  @Test
  void an_evaluation_read_while_its_turn_runs_joins_it() throws Exception {
    List<String> ranThen = turn(() -> turns.submit(loop, new LoopTurns.Evaluation() {
      @Override
      public void onLoop() {
        ran.add("loop 1");
        turns.submit(loop, evaluation(2)); // a pipelined request, read when the first was answered
      }

      @Override
      public void inLane() {
        ran.add("lane 1");
      }
    }));

    assertThat(ranThen).containsExactly("loop 1", "loop 2");
  }

  @Test
  void a_request_read_while_its_turn_runs_counts_toward_no_turn() throws Exception {
    turn(() -> turns.submit(loop, new LoopTurns.Evaluation() {
      @Override
      public void onLoop() {
        turns.requestRead(loop); // a pipelined request, read when the first was answered
        turns.submit(loop, evaluation(2));
      }

      @Override
      public void inLane() {
        ran.add("lane 1");
      }
    }));

    assertThat(turn(() -> {
      turns.requestRead(loop);
      read(3);
    })).containsExactly("loop 3");
  }
}

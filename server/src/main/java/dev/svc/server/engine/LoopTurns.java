package dev.svc.server.engine;

import io.netty.channel.EventLoop;
import io.netty.channel.SingleThreadEventLoop;
import io.netty.util.concurrent.FastThreadLocal;
import java.util.ArrayDeque;

/**
 * Which small evaluations an event loop runs itself ({@code engine.loopEvalBudget}): those of a
 * lightly loaded loop. Each evaluation an event loop reads is queued and started after the loop's
 * turn (Netty's tail tasks, {@link SingleThreadEventLoop#executeAfterEventLoopIteration}), when the
 * loop knows how many it read in that turn:
 *
 * <ul>
 *   <li>a turn that read one, on a loop whose last {@value #LIGHT_STREAK} turns with evaluations read
 *       one each, runs it on the loop: there a hand-off costs more than it saves (a pool thread woken
 *       for it, the loop woken again for its answer);
 *   <li>a turn that read more sends them all to the lane, and so do the next {@value #LIGHT_STREAK}
 *       turns: a loaded loop does better reading while the pool's threads take several evaluations a
 *       wake-up, and keeping the hot code of HTTP and of the engine each on its own thread.
 * </ul>
 *
 * <p>Measured with {@code scripts/load --paired} (the pool against the loops in alternating turns, one
 * of the two servers given {@code SVC_ENGINE_LOOPEVALBUDGET} through {@code --with}): evaluating every small body on the loop lost 24 % of the
 * requests/s at 16 connections and won 53 % at 2; with this rule the loops serve within 0-6 % of the
 * pool alone from 4 to 16 connections and keep the win at 2 (11.2k against 6.5k requests/s, 97
 * against 164 µs of server CPU a request; the README has the figures).
 *
 * <p>A loop starts light. Evaluations queued on another kind of event loop (without tail tasks) are
 * decided at once, each as a turn of its own.
 *
 * <p><b>Thread safety:</b> thread-safe; each event loop has a queue of its own, used on that loop only.
 */
final class LoopTurns {

  /** The turns of one evaluation each a loop must see, after a busier one, before it evaluates again. */
  static final int LIGHT_STREAK = 4;

  /** An evaluation read by an event loop, which runs one way or the other, once. */
  interface Evaluation {

    /** Evaluates on the event loop, now. */
    void onLoop();

    /** Hands the evaluation to the lane. */
    void inLane();
  }

  private final FastThreadLocal<Turn> turns = new FastThreadLocal<>() {
    @Override
    protected Turn initialValue() {
      return new Turn();
    }
  };

  /**
   * Queues {@code evaluation} for the end of the calling event loop's turn.
   *
   * @param loop the event loop the caller runs on
   * @param evaluation what to run after the turn, one way or the other
   * @throws IllegalStateException if the caller doesn't run on {@code loop}
   */
  void submit(EventLoop loop, Evaluation evaluation) {
    if (!loop.inEventLoop()) {
      throw new IllegalStateException("evaluations are queued for a turn on their event loop's own thread");
    }
    Turn turn = turns.get();
    turn.read.add(evaluation);
    if (turn.read.size() > 1) {
      return; // its turn's tail task is scheduled, or running and takes this one too
    }
    if (loop instanceof SingleThreadEventLoop single) {
      single.executeAfterEventLoopIteration(turn::end);
    } else {
      turn.end();
    }
  }

  // One event loop's evaluations of the current turn, and the light turns it has seen in a row.
  private static final class Turn {
    private final ArrayDeque<Evaluation> read = new ArrayDeque<>();
    private int lightTurns = LIGHT_STREAK;

    // Each stays queued while it runs, so one read while it runs (a pipelined request) joins it. One
    // that throws doesn't keep the others from running; the first failure reaches the event loop,
    // which logs it, once the queue is empty.
    void end() {
      boolean light = read.size() == 1;
      boolean onLoop = light && lightTurns >= LIGHT_STREAK;
      lightTurns = light ? Math.min(lightTurns + 1, LIGHT_STREAK) : 0;
      RuntimeException failure = null;
      for (Evaluation next = read.peek(); next != null; next = read.peek()) {
        try {
          if (onLoop) {
            next.onLoop();
          } else {
            next.inLane();
          }
        } catch (RuntimeException e) {
          if (failure == null) {
            failure = e;
          } else {
            failure.addSuppressed(e);
          }
        } finally {
          read.poll();
        }
      }
      if (failure != null) {
        throw failure;
      }
    }
  }
}

package dev.svc.server.engine;

import io.netty.channel.EventLoop;
import io.netty.channel.SingleThreadEventLoop;
import io.netty.util.concurrent.FastThreadLocal;
import java.util.ArrayDeque;

/**
 * Which small evaluations an event loop runs itself ({@code engine.loopEvalBudget}): those of a
 * lightly loaded loop. A light loop queues each evaluation it reads and starts it after the loop's
 * turn (Netty's tail tasks, {@link SingleThreadEventLoop#executeAfterEventLoopIteration}), when the
 * loop knows how many evaluations and requests ({@link #requestRead}) it read in that turn:
 *
 * <ul>
 *   <li>a turn that read one evaluation and at most one request, on a loop whose last
 *       {@value #LIGHT_STREAK} turns with either were as light, runs it on the loop: there a
 *       hand-off costs more than it saves (a pool thread woken for it, the loop woken again for its
 *       answer);
 *   <li>a turn that read more sends its evaluations to the lane, and so do the next
 *       {@value #LIGHT_STREAK} turns, each evaluation as it is read (a busy loop's hand-offs deferred
 *       to the end of its turn cost 4 % of the requests/s with admission at 16 connections): a
 *       loaded loop does better reading while the pool's threads take several evaluations a
 *       wake-up, and keeping the hot code of HTTP and of the engine each on its own thread. Requests
 *       count because an evaluation may start turns after its request was read: behind the caller's
 *       admission (a who-is answered by the tailnet daemon, read in a turn of its own) a loop busy
 *       with many connections may start one evaluation a turn.
 * </ul>
 *
 * <p>Measured with {@code scripts/load --paired} (the pool against the loops in alternating turns,
 * one of the two servers given {@code SVC_ENGINE_LOOPEVALBUDGET} through {@code --with}): evaluating
 * every small body on the loop lost 24 % of the requests/s at 16 connections and won 53 % at 2; with
 * this rule the loops serve within 0-6 % of the pool alone from 4 to 16 connections and keep the win
 * at 2 (23.0k against 14.3k requests/s, 43 against 85 µs of server CPU a request; the README has the
 * figures).
 *
 * <p>A loop starts light. Evaluations read on another kind of event loop (without tail tasks) are
 * decided at once, each as a turn of its own.
 *
 * <p><b>Thread safety:</b> thread-safe; each event loop has a turn of its own, used on that loop
 * only.
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
   * Takes {@code evaluation}, read by the calling event loop in its current turn: queued for the end
   * of the turn while the loop is light and this turn may still be, or refused when the loop is busy,
   * for the caller to hand to the lane at once (deferring a busy loop's hand-offs to the end of its
   * turn would only delay them). Either way it counts toward the turn's load.
   *
   * @param loop the event loop the caller runs on
   * @param evaluation what to run after the turn, one way or the other
   * @return whether it was queued; when not, the caller hands it to the lane itself
   * @throws IllegalStateException if the caller doesn't run on {@code loop}
   */
  boolean submit(EventLoop loop, Evaluation evaluation) {
    Turn turn = turnOf(loop, "evaluations are queued for a turn on their event loop's own thread");
    boolean queued = turn.take(evaluation);
    turn.endAfter(loop);
    return queued;
  }

  /**
   * Counts a request the calling event loop read toward the load of its turn.
   *
   * @param loop the event loop the caller runs on
   * @throws IllegalStateException if the caller doesn't run on {@code loop}
   */
  void requestRead(EventLoop loop) {
    Turn turn = turnOf(loop, "requests are counted for a turn on their event loop's own thread");
    turn.requests++;
    turn.endAfter(loop);
  }

  private Turn turnOf(EventLoop loop, String elsewhere) {
    if (!loop.inEventLoop()) {
      throw new IllegalStateException(elsewhere);
    }
    return turns.get();
  }

  // One event loop's evaluations and requests of the current turn, and the light turns it has seen in
  // a row.
  private static final class Turn {
    private final ArrayDeque<Evaluation> queued = new ArrayDeque<>();
    private int evaluations;
    private int requests;
    private int lightTurns = LIGHT_STREAK;
    private boolean ending; // its tail task is scheduled or running
    private boolean running; // its tail task is running: what is read now joins it

    private boolean light() {
      return evaluations <= 1 && requests <= 1;
    }

    // One read while the turn's evaluations run (a pipelined request, read once the one before it was
    // answered) joins them, and counts toward no turn.
    boolean take(Evaluation evaluation) {
      evaluations++;
      boolean queue = running || (lightTurns >= LIGHT_STREAK && light());
      if (queue) {
        queued.add(evaluation);
      }
      return queue;
    }

    void endAfter(EventLoop loop) {
      if (ending) {
        return; // the tail task takes this one too, even while it runs
      }
      ending = true;
      if (loop instanceof SingleThreadEventLoop single) {
        single.executeAfterEventLoopIteration(this::end);
      } else {
        end();
      }
    }

    // Each evaluation stays queued while it runs. One that throws doesn't keep the others from running;
    // the first failure reaches the event loop, which logs it, once the queue is empty.
    void end() {
      running = true;
      boolean light = light();
      boolean onLoop = light && evaluations == 1 && lightTurns >= LIGHT_STREAK;
      lightTurns = light ? Math.min(lightTurns + 1, LIGHT_STREAK) : 0;
      RuntimeException failure = null;
      for (Evaluation next = queued.peek(); next != null; next = queued.peek()) {
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
          queued.poll();
        }
      }
      evaluations = 0;
      requests = 0;
      running = false;
      ending = false;
      if (failure != null) {
        throw failure;
      }
    }
  }
}

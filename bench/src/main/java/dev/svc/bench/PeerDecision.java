package dev.svc.bench;

import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The peer benchmark (issue #22): the server's example decision {@code access.main} in svc, in
 * jCasbin's RBAC and ABAC models and in plain Java (the floor), for a member, an admin and an
 * outsider. Each peer must decide as svc does on all three callers, checked when it starts, so a
 * wrong peer fails the run instead of timing a different decision. Sampled: JMH reports p50 and
 * p99; {@link PeerReport} runs it and prints the ratios.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class PeerDecision {

  /** Who decides. */
  public enum Peer {
    /** svc's engine through JNI, on the policy of conf/policies. */
    SVC(SvcPeer::new),
    /** svc's engine, the record without its trace: the decision, as the other peers answer it. */
    SVC_DECISION(SvcPeer::decisionOnly),
    /** jCasbin, memberships as role assignments. */
    JCASBIN_RBAC(CasbinRbacPeer::new),
    /** jCasbin, attributes of request objects. */
    JCASBIN_ABAC(CasbinAbacPeer::new),
    /** The rules by hand. */
    PLAIN_JAVA(PlainJavaPeer::new);

    final Supplier<AccessPeer<?>> start;

    Peer(Supplier<AccessPeer<?>> start) {
      this.start = start;
    }
  }

  /** Which peer this fork times. */
  @Param public Peer peer;

  /** Which request. */
  @Param public AccessRequest.Caller caller;

  private AccessPeer<?> started;
  private Bound<?> bound;

  /** Starts the peer, checks it decides as svc does, and prepares the caller's request. */
  @Setup(Level.Trial)
  public void start() {
    started = checked(peer);
    bound = Bound.of(started, caller.request);
  }

  /**
   * Starts {@code peer} and checks that it decides as svc does on every caller, and svc as {@code
   * access.main} means, so a wrong peer fails the run instead of timing a different decision.
   */
  static AccessPeer<?> checked(Peer peer) {
    AccessPeer<?> started = peer.start.get();
    try (AccessPeer<?> svc = peer == Peer.SVC ? null : new SvcPeer()) {
      AccessPeer<?> reference = svc == null ? started : svc;
      for (AccessRequest.Caller c : AccessRequest.Caller.values()) {
        boolean allows = Bound.of(reference, c.request).allows();
        if (allows != (c != AccessRequest.Caller.OUTSIDER)) {
          throw new IllegalStateException("svc decides otherwise than access.main means for " + c);
        }
        if (Bound.of(started, c.request).allows() != allows) {
          throw new IllegalStateException(peer + " decides otherwise than svc for " + c);
        }
      }
    } catch (RuntimeException e) {
      started.close();
      throw e;
    }
    return started;
  }

  /** One decision. */
  @Benchmark
  public Object decide() {
    return bound.decide();
  }

  /** Stops the peer. */
  @TearDown(Level.Trial)
  public void stop() {
    started.close();
  }

  /** A peer with a request prepared in its own form. */
  record Bound<Q>(AccessPeer<Q> peer, Q request) {
    static <Q> Bound<Q> of(AccessPeer<Q> peer, AccessRequest request) {
      return new Bound<>(peer, peer.prepare(request));
    }

    Object decide() {
      return peer.decide(request);
    }

    boolean allows() {
      return peer.allows(decide());
    }
  }
}

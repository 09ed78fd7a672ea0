package dev.svc.bench;

import dev.svc.engine.CompileOptions;
import dev.svc.engine.EvalResult;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Setup;

/**
 * {@code policy.eval} of the server's example decision {@code access.main} (conf/policies) for a
 * member of the resource's team, in process and in an engine host process, so the price of isolation
 * is measured on a decision with a nested input beside {@link EvalRoundTrip}'s one-rule decision.
 * Run from the repository root, as scripts/bench does.
 */
public class AccessEval extends OnePolicy {

  @Setup(Level.Trial)
  public void start() throws Exception {
    EvalResult result = start(SvcPeer.files(), CompileOptions.defaults().withPolicy("access.main"),
        AccessRequest.Caller.MEMBER.request.inputJson());
    if (!result.decision().orElse("").equals("allow")) {
      throw new IllegalStateException("access.main doesn't allow its member: " + result);
    }
  }
}

package dev.svc.engine;

import dev.svc.engine.internal.HostChannel;
import java.io.IOException;

/**
 * A JVM that hosts two out-of-process engines, prints their hosts' pids (one a line, then {@code
 * ready}), makes the second host block in native code (so it no longer reads its channel and only
 * the parent-death signal can end it) and waits for its input to end: {@link HostOrphanTest} kills
 * it with SIGKILL and watches what becomes of the hosts.
 */
public final class HostOrphanProbe {

  private HostOrphanProbe() {}

  /** Runs the probe. */
  public static void main(String[] args) throws IOException {
    Engine first = Engine.create(TestModules.engine(), Limits.defaults(), Isolation.PROCESS);
    Engine second = Engine.create(TestModules.engine(), Limits.defaults().withoutOpDeadline(), Isolation.PROCESS);
    first.version();
    second.version();
    System.out.println(HostProcesses.pid(first));
    System.out.println(HostProcesses.pid(second));
    System.out.println("ready");
    System.out.flush();
    Thread hang = new Thread(() -> second.instance().crashHost(HostChannel.CRASH_HANG), "hang");
    hang.setDaemon(true);
    hang.start();
    while (System.in.read() >= 0) {
      // Wait to be killed.
    }
  }
}

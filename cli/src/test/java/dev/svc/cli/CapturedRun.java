package dev.svc.cli;

import dev.svc.cli.access.ClientRuntime;
import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/**
 * One in-process run of a picocli command line with stdout and stderr captured: the scaffolding the
 * policy, access and serve tests share.
 *
 * @param exit the exit status
 * @param out what went to stdout
 * @param err what went to stderr
 */
public record CapturedRun(int exit, String out, String err) {

  /**
   * Runs {@code args} on {@code commandLine}, capturing its streams.
   *
   * @param commandLine the command line, not yet run
   * @param args the arguments
   * @return the exit status and what was printed
   */
  public static CapturedRun of(CommandLine commandLine, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    int exit = commandLine.execute(args);
    return new CapturedRun(exit, out.toString(), err.toString());
  }

  /**
   * Runs {@code svc args...} in this process, on the command line {@link Svc#main} builds for them.
   *
   * @param args the arguments
   * @return the exit status and what was printed
   */
  public static CapturedRun ofSvc(String... args) {
    return of(Svc.commandLine(ClientRuntime.ofProcess(), args), args);
  }
}

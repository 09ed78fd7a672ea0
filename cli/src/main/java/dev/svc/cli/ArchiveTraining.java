package dev.svc.cli;

import dev.svc.cli.access.ClientRuntime;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * The training run behind the class-data-sharing archive that {@code scripts/install} builds.
 *
 * <p>JDK 17 writes one archive per JVM ({@code -XX:ArchiveClassesAtExit}), holding the classes that
 * JVM loaded. Running several representative commands in this one JVM puts the classes of all of
 * them into the archive, so each of them starts from it. Each argument is one command line, its
 * words separated by spaces (the install script passes fixed commands on relative paths). Their
 * output is discarded and their exit codes do not matter: loading the classes is the point.
 */
public final class ArchiveTraining {

  private static final Pattern SPACES = Pattern.compile(" +");

  private ArchiveTraining() {}

  /**
   * Runs each command line in {@code commands} as {@link Svc#main} runs it.
   *
   * @param commands the command lines, e.g. {@code "version"}, {@code "policy check conf/policies"}
   */
  public static void main(String[] commands) {
    PrintWriter discard = new PrintWriter(OutputStream.nullOutputStream(), true);
    for (String command : commands) {
      String[] args = SPACES.split(command.strip());
      CommandLine svc = Svc.commandLine(ClientRuntime.ofProcess(), args);
      svc.setOut(discard);
      svc.setErr(discard);
      svc.execute(args);
    }
  }
}

package dev.svc.cli.access;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** A verb whose work is in its subcommands: alone it prints its help and exits 0 (§11.3). */
abstract class CommandGroup implements Runnable {

  @Spec CommandSpec spec;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help.")
  boolean help;

  @Override
  public final void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}

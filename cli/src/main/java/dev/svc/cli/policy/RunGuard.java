package dev.svc.cli.policy;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The wiring every {@code svc policy} subcommand shares, as a picocli mixin: a run gets the console
 * of {@link PolicyCommand}'s {@code --color} and {@code -o}, and a failure that stops it becomes the
 * {@code Error:} block with exit status 1 (tooling spec §1.1). It adds no options; picocli takes a
 * mixin only with a {@code @Command}.
 */
@Command
final class RunGuard {

  @Spec(Spec.Target.MIXEE) CommandSpec command;

  /** Runs {@code work} on this command's console; returns its exit status, 1 if it failed. */
  int run(Console.Work work) {
    PolicyCommand policy = (PolicyCommand) command.parent().userObject();
    return policy.console(command).guard(work);
  }
}

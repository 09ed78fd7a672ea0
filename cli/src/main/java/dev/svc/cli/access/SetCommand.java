package dev.svc.cli.access;

import picocli.CommandLine.Command;

/** {@code svc set}: changes the configuration (§11.3). */
@Command(name = "set", description = "Change the configuration.", subcommands = SetConfigCommand.class)
final class SetCommand extends CommandGroup {}

package dev.svc.cli.access;

import picocli.CommandLine.Command;

/** {@code svc generate}: shell integration, and (hidden) the command reference (§11.10, §11.11). */
@Command(name = "generate", description = "Generate shell integration or documentation.",
    subcommands = {IntegrationCommand.class, DocumentationCommand.class})
final class GenerateCommand extends CommandGroup {}

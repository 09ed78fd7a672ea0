package dev.svc.cli.access;

import picocli.CommandLine.Command;

/** {@code svc get}: shows the session, a kubeconfig, the cluster info or the configuration (§11.3). */
@Command(name = "get", description = "Show the session, a kubeconfig, the cluster info or the configuration.",
    subcommands = {SessionCommand.class, KubeconfigCommand.class, ClusterInfoCommand.class, GetConfigCommand.class})
final class GetCommand extends CommandGroup {}

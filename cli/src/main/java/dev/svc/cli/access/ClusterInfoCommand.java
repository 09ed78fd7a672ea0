package dev.svc.cli.access;

import dev.svc.client.ApiResponse;
import dev.svc.client.ClientException;
import dev.svc.client.ClusterInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;

/**
 * {@code svc cluster-info} and {@code svc get cluster-info}: the cluster's connection details in a box
 * (access-server spec §11.8); quiet mode doesn't change it.
 */
@Command(name = "cluster-info", description = "Show the cluster's connection details.")
final class ClusterInfoCommand extends ClientCommand {

  private static final int CA_HEAD = 20;
  private static final int CA_TAIL = 5;

  ClusterInfoCommand(ClientRuntime runtime) {
    super(runtime);
  }

  @Override
  int run(ClientContext context) {
    ApiResponse response = context.client().clusterInfo();
    if (response.status() != 200) {
      throw new ClientException(response.problem());
    }
    ClusterInfo info = ClusterInfo.from(response);
    List<String> lines = new ArrayList<>(LoginFlow.fields(Map.entry("Server URL:", info.serverUrl())));
    lines.add("");
    lines.addAll(LoginFlow.fields(Map.entry("Insecure:", Boolean.toString(info.insecureSkipTlsVerify())),
        Map.entry("CA Data:", abbreviate(info.caData()))));
    lines.add("");
    lines.add("Labels:");
    info.labels().forEach((key, value) -> lines.add("  " + key + "=" + value));
    context.console().info("Cluster Information:");
    context.console().box(lines);
    return 0;
  }

  /** The CA's first 20 and last 5 characters; the whole value when shorter than 26 (deviation D27). */
  static String abbreviate(String caData) {
    if (caData.length() <= CA_HEAD + CA_TAIL) {
      return caData;
    }
    return caData.substring(0, CA_HEAD) + "..." + caData.substring(caData.length() - CA_TAIL);
  }
}

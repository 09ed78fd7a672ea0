package dev.svc.server.mesh;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * Who a caller is, as the mesh's who-is lookup answers for one connection (access-server spec §3.1).
 * The request itself carries no credentials: only the mesh vouches for these.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param loginName the caller's login, such as {@code dana@corp.example}
 * @param tags the caller device's tags; non-empty for a tagged (non-human) device
 * @param capabilities capability name to the raw JSON values every matching grant gave, in order
 */
public record Caller(String loginName, List<String> tags, Map<String, List<JsonNode>> capabilities) {

  /**
   * Copies the lists and the map.
   *
   * @param loginName the caller's login
   * @param tags the device's tags
   * @param capabilities the capability values by name
   */
  public Caller {
    tags = List.copyOf(tags);
    capabilities = Map.copyOf(capabilities);
  }

  /**
   * The short username: the login name up to its first {@code @}, or all of it without one.
   *
   * @return the username, such as {@code dana}
   */
  public String username() {
    int at = loginName.indexOf('@');
    return at < 0 ? loginName : loginName.substring(0, at);
  }

  /**
   * The raw values of the capability {@code capName}, undecoded.
   *
   * @param capName the capability name, {@code mesh.capName}
   * @return the values, empty when the caller holds none
   */
  public List<JsonNode> grants(String capName) {
    return capabilities.getOrDefault(capName, List.of());
  }
}

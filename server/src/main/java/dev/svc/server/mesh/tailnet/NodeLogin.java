package dev.svc.server.mesh.tailnet;

import java.util.Map;
import java.util.Set;

/**
 * How the node registers (access-server spec §1.5): {@code MESH_AUTHKEY}, an auth key that registers
 * it without a browser, and {@code MESH_FORCE_LOGIN}, which registers it again although it has state.
 * The key is a secret: it goes into the daemon's {@code start} request and nowhere else, so this
 * record's {@link #toString()} never shows it.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param authKey the auth key; empty when none is set
 * @param forceLogin true to log in again even with node state
 */
public record NodeLogin(String authKey, boolean forceLogin) {

  private static final Set<String> TRUE = Set.of("1", "true", "TRUE");

  /**
   * The login the environment asks for.
   *
   * @param environment the process environment
   * @return the login from {@code MESH_AUTHKEY} and {@code MESH_FORCE_LOGIN} ({@code 1}, {@code true} or
   *     {@code TRUE})
   */
  public static NodeLogin fromEnvironment(Map<String, String> environment) {
    return new NodeLogin(environment.getOrDefault("MESH_AUTHKEY", "").trim(),
        TRUE.contains(environment.getOrDefault("MESH_FORCE_LOGIN", "")));
  }

  @Override
  public String toString() {
    return "NodeLogin[authKey=" + (authKey.isEmpty() ? "none" : "set") + ", forceLogin=" + forceLogin + "]";
  }
}

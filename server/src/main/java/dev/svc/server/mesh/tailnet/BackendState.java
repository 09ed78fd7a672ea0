package dev.svc.server.mesh.tailnet;

import java.util.Optional;

/**
 * The state of the node's backend as tailscaled reports it: by name in {@code /status}
 * ({@code BackendState}), by number on the IPN bus ({@code State}). The numbers are the positions
 * in this enum, as the daemon defines them.
 */
public enum BackendState {
  /** No profile loaded yet. */
  NO_STATE("NoState"),
  /** Another local user owns the daemon. */
  IN_USE_OTHER_USER("InUseOtherUser"),
  /** The node has to log in: with an auth key or interactively. */
  NEEDS_LOGIN("NeedsLogin"),
  /** The node logged in; an administrator has to approve the device. */
  NEEDS_MACHINE_AUTH("NeedsMachineAuth"),
  /** The daemon was told not to run ({@code WantRunning} false). */
  STOPPED("Stopped"),
  /** Logged in, connecting. */
  STARTING("Starting"),
  /** Connected: callers can reach the node. */
  RUNNING("Running");

  private final String wireName;

  BackendState(String wireName) {
    this.wireName = wireName;
  }

  /**
   * The name {@code /status} uses, such as {@code NeedsLogin}.
   *
   * @return the daemon's name of the state
   */
  public String wireName() {
    return wireName;
  }

  /**
   * The state {@code /status} names {@code name}.
   *
   * @param name a {@code BackendState} value
   * @return the state; empty for a name this version doesn't know
   */
  public static Optional<BackendState> ofName(String name) {
    for (BackendState state : values()) {
      if (state.wireName.equals(name)) {
        return Optional.of(state);
      }
    }
    return Optional.empty();
  }

  /**
   * The state the IPN bus numbers {@code code}.
   *
   * @param code a bus {@code State} value
   * @return the state; empty for a number this version doesn't know
   */
  public static Optional<BackendState> ofCode(long code) {
    return code >= 0 && code < values().length ? Optional.of(values()[(int) code]) : Optional.empty();
  }
}

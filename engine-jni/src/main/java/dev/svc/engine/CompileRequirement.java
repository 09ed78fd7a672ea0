package dev.svc.engine;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/**
 * A policy the compiled root must invoke unconditionally, as a compile request's {@code require}
 * entry names it. Unlike a check's {@link Requirement} it has no trusted paths or roots: compile
 * has one root, and the trusted source is {@link CompileOptions#trustedFiles()}.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param policy the required policy's name (not a pattern)
 */
public record CompileRequirement(@JsonProperty(value = "policy", required = true) String policy) {

  /**
   * Checks the name.
   *
   * @param policy the required policy's name
   */
  public CompileRequirement {
    Objects.requireNonNull(policy, "policy");
  }

  /**
   * Requires {@code policy} of the root.
   *
   * @param policy the required policy's name, such as {@code platform.guardrails}
   * @return the requirement
   */
  public static CompileRequirement of(String policy) {
    return new CompileRequirement(policy);
  }
}

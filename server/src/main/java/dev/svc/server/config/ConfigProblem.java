package dev.svc.server.config;

import java.util.Objects;

/**
 * One thing wrong with the configuration: where the value came from, the key, what is wrong and what
 * to do.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param source where the value came from, such as {@code environment variable SVC_MESH_PORT} or
 *     {@code config file /etc/svc/config.yaml:3:9}; empty when the problem is the file itself
 * @param key the key, as canonical as known (an unknown key as written); empty for the file itself
 * @param message what is wrong, in one sentence
 * @param help what to do about it
 */
public record ConfigProblem(String source, String key, String message, String help) {

  /**
   * Checks that every part is given.
   *
   * @param source where the value came from
   * @param key the key
   * @param message what is wrong
   * @param help what to do
   */
  public ConfigProblem {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(help, "help");
  }

  /**
   * The problem for a person: {@code «source»: «key»: «message»}, then {@code help: «help»} on an
   * indented second line.
   *
   * @return the rendered problem, two lines
   */
  public String render() {
    StringBuilder text = new StringBuilder();
    if (!source.isEmpty()) {
      text.append(source).append(": ");
    }
    if (!key.isEmpty()) {
      text.append(key).append(": ");
    }
    return text.append(message).append("\n  help: ").append(help).toString();
  }
}

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
 * @param stage whether the configuration can't be read or a server can't start with it
 */
public record ConfigProblem(String source, String key, String message, String help, Stage stage) {

  /**
   * When a problem shows: the access-server spec ends a server whose configuration is malformed with
   * exit code 2 (§1.3 step 1), and one whose well-formed values can't serve together with exit code 1
   * (the validations at server start, §2.6).
   */
  public enum Stage {
    /** The configuration can't be read: a malformed file, an unknown key, a value of the wrong form. */
    READ,
    /** The values are well-formed, but a server can't start with them (spec §2.6). */
    START
  }

  /**
   * Checks that every part is given.
   *
   * @param source where the value came from
   * @param key the key
   * @param message what is wrong
   * @param help what to do
   * @param stage when it shows
   */
  public ConfigProblem {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(help, "help");
    Objects.requireNonNull(stage, "stage");
  }

  /**
   * A problem that keeps the configuration from being read.
   *
   * @param source where the value came from
   * @param key the key
   * @param message what is wrong
   * @param help what to do
   */
  public ConfigProblem(String source, String key, String message, String help) {
    this(source, key, message, help, Stage.READ);
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

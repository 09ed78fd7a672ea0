package dev.svc.server.config;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The configuration can't be used: every problem found, not just the first, so one start-up attempt
 * shows them all.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 */
public final class ConfigException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final transient List<ConfigProblem> problems;

  /**
   * An exception for {@code problems}, in the order they were found.
   *
   * @param problems what is wrong; at least one
   */
  public ConfigException(List<ConfigProblem> problems) {
    super(problems.stream().map(ConfigProblem::render).collect(Collectors.joining("\n")));
    this.problems = List.copyOf(problems);
  }

  /**
   * What is wrong, one entry per problem.
   *
   * @return the problems, unmodifiable
   */
  public List<ConfigProblem> problems() {
    return problems;
  }
}

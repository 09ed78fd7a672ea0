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

  /**
   * Whether the configuration was read and only a server's start-up checks refuse it (spec §2.6: exit
   * code 1, where a configuration that can't be read exits 2).
   *
   * @return true when every problem is of {@link ConfigProblem.Stage#START}
   */
  public boolean refusedAtStart() {
    return problems.stream().allMatch(problem -> problem.stage() == ConfigProblem.Stage.START);
  }
}

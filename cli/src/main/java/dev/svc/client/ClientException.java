package dev.svc.client;

/**
 * A request to the access server failed, or its answer wasn't the expected one; {@link #problem()}
 * says what to tell the user.
 */
public final class ClientException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final transient Problem problem;

  /**
   * An exception for {@code problem}.
   *
   * @param problem what failed and what to do
   */
  public ClientException(Problem problem) {
    super(problem.message(), null, false, false);
    this.problem = problem;
  }

  /**
   * What failed and what to do.
   *
   * @return the problem
   */
  public Problem problem() {
    return problem;
  }
}

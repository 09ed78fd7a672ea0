package dev.svc.cli.policy;

import dev.svc.engine.Diagnostic;
import java.util.List;

/**
 * Why a policy command couldn't run at all, printed as the {@code Error:} block on stderr (tooling
 * spec §1.1): what failed, what the user can do, what caused it, and any diagnostics behind it.
 */
final class PolicyException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final List<String> advice;
  private final List<String> causes;
  private final transient List<Diagnostic> diagnostics;

  PolicyException(String message, List<String> advice, List<String> causes, List<Diagnostic> diagnostics) {
    super(message);
    this.advice = List.copyOf(advice);
    this.causes = List.copyOf(causes);
    this.diagnostics = List.copyOf(diagnostics);
  }

  PolicyException(String message, String... advice) {
    this(message, List.of(advice), List.of(), List.of());
  }

  /** The same failure with {@code cause} under "Caused by". */
  PolicyException causedBy(String cause) {
    return new PolicyException(getMessage(), advice, List.of(cause), diagnostics);
  }

  List<String> advice() {
    return advice;
  }

  List<String> causes() {
    return causes;
  }

  List<Diagnostic> diagnostics() {
    return diagnostics;
  }
}

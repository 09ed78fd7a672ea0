package dev.svc.server.operator;

import java.time.Instant;
import java.util.Locale;
import java.util.Optional;

/**
 * What one reconcile did and when the name should come back.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param operation what was done, as the span attribute {@code reconcile.operation} names it
 * @param requeue when to reconcile the name again; empty when only a change should bring it back
 */
record Outcome(Operation operation, Optional<Instant> requeue) {

  /** The reconcile's operation (access-server spec §10.3). */
  enum Operation {
    /** The ServiceAccount and binding were made or repaired and the status written. */
    PROVISION,
    /** The session expired: binding, ServiceAccount and sign-in deleted. */
    DEPROVISION,
    /** The sign-in is gone: its binding and ServiceAccount deleted. */
    DEPROVISION_NOT_FOUND,
    /** Nothing to do, or nothing that can be done (a Warning event says why). */
    NOP;

    /** Whether the sign-in is gone after this operation, so nothing of it should be kept. */
    boolean endsSignin() {
      return this == DEPROVISION || this == DEPROVISION_NOT_FOUND;
    }

    /** The attribute value, such as {@code deprovision_not_found}. */
    String attribute() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  static Outcome done(Operation operation) {
    return new Outcome(operation, Optional.empty());
  }

  static Outcome requeueAt(Operation operation, Instant at) {
    return new Outcome(operation, Optional.of(at));
  }
}

package dev.svc.engine.kind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.svc.engine.EngineException;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** The exact-text check of an error a user sees: an {@link EngineException}'s message and help. */
final class Refusals {

  private Refusals() {}

  /** Asserts that {@code call} throws an {@link EngineException} with this message and help. */
  static void assertRefused(ThrowingCallable call, String message, String help) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            EngineException.class,
            e -> {
              assertThat(e.message()).isEqualTo(message);
              assertThat(e.help()).isEqualTo(help);
            });
  }
}

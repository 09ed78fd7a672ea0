package dev.svc.engine;

/** A door bundle whose policy calls a host function, {@code badge}, for the stub and test-op tests. */
final class BadgeDoor {

  static final SourceFile KIND =
      SourceFile.of(
          "kind.sigil",
          """
          kind Door version 1

          input floor: int
          input user: string

          fn badge(string) -> bool

          decision deny {
            reason: closed | no_rule
          }

          decision allow {
            reason: member
            minutes: int = 5
          }

          collect one
          precedence deny > allow

          default deny(reason: no_rule)
          """);

  /** Allows a user upstairs whose badge works, for as many minutes as the floor's number. */
  static final SourceFile MAIN =
      SourceFile.of(
          "door/main.sigil",
          """
          policy door.main: Door@1

          when floor > 1 and badge(user) {
            allow(reason: member, minutes: floor)
          }
          """);

  private BadgeDoor() {}
}

package dev.svc.cli.policy;

/** The failure of a command that needs policies and was given paths holding none. */
final class NoFiles {

  private NoFiles() {}

  /** @throws PolicyException when {@code loaded} holds no file */
  static void require(ProjectOptions.Project loaded) {
    if (loaded.files().isEmpty()) {
      throw new PolicyException("no .sigil files found",
          "name the .sigil files or the directories that hold them; a directory contributes every .sigil file below it");
    }
  }
}

package dev.svc.cli.kubeconfig;

import dev.svc.client.ClientException;
import dev.svc.client.Problem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/**
 * File mode (access-server spec §7.2): the issued kubeconfig in a new private file
 * {@code kubeconfig-<random>.yaml} of the temporary directory, which {@code KUBECONFIG} then names.
 * The shell wrapper recognises the name to unset {@code KUBECONFIG} after sign-out (§11.10).
 */
public final class SessionFile {

  /** The prefix of a session file's name. */
  public static final String PREFIX = "kubeconfig-";
  /** The suffix of a session file's name. */
  public static final String SUFFIX = ".yaml";

  private SessionFile() {}

  /**
   * Writes {@code issued} to a new file readable by the user only (0600 from creation).
   *
   * @param directory the temporary directory
   * @param issued the kubeconfig
   * @return the file
   * @throws ClientException when the file can't be written
   */
  public static Path write(Path directory, IssuedKubeconfig issued) {
    try {
      Path file = Files.createTempFile(directory, PREFIX, SUFFIX,
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      Files.write(file, issued.yaml());
      return file;
    } catch (IOException e) {
      throw new ClientException(new Problem("couldn't write the kubeconfig to `" + directory + "`",
          List.of("check that the temporary directory exists and is writable (TMPDIR)"), List.of(e.toString())));
    }
  }
}

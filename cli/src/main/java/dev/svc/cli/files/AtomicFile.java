package dev.svc.cli.files;

import dev.svc.client.ClientException;
import dev.svc.client.Pause;
import dev.svc.client.Problem;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Changes one file of the user's under an exclusive lock, atomically (client-go's {@code lockFile}
 * and {@code WriteToFile}): the lock is {@code <file>.lock} made with exclusive create; the new text
 * goes to a temporary file in the same directory, created with the old file's permissions (0600 for
 * a new file, never wider afterwards), then renamed over the file; a symbolic link is followed. The
 * lock is removed in every case.
 *
 * <p><b>Thread safety:</b> safe across threads and processes that use the same lock file.
 */
public final class AtomicFile {

  private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
  private static final Set<PosixFilePermission> OWNER_DIR = PosixFilePermissions.fromString("rwx------");
  private static final Duration LOCK_RETRY = Duration.ofMillis(50);
  private static final int LOCK_ATTEMPTS = 100;

  private final Path file;
  private final Pause pause;
  private final Set<PosixFilePermission> newDirectoryPermissions;

  /**
   * The file at {@code file}.
   *
   * @param file the file to change
   * @param pause how to wait while another writer holds the lock
   * @param newDirectoryPermissions the permissions of parent directories this creates
   */
  public AtomicFile(Path file, Pause pause, Set<PosixFilePermission> newDirectoryPermissions) {
    this.file = file;
    this.pause = pause;
    this.newDirectoryPermissions = Set.copyOf(newDirectoryPermissions);
  }

  /**
   * A file whose new parent directories are private (0700), such as a kubeconfig.
   *
   * @param file the file
   * @param pause how to wait for the lock
   * @return the file
   */
  public static AtomicFile privateFile(Path file, Pause pause) {
    return new AtomicFile(file, pause, OWNER_DIR);
  }

  /**
   * The file's path.
   *
   * @return the path
   */
  public Path path() {
    return file;
  }

  /**
   * Reads the file under the lock and replaces it with what {@code change} makes of it. When
   * {@code change} returns nothing or the same bytes, the file is not written.
   *
   * @param change the new content, given the old one (empty when the file doesn't exist); empty to
   *     leave the file as it is
   * @param backup where to copy the old content before replacing it, if anywhere
   * @throws ClientException when the file can't be locked, read or written, or {@code change} refuses
   */
  public void update(Function<Optional<byte[]>, Optional<byte[]>> change, Optional<Path> backup) {
    Path target = resolveLink();
    Path lock = target.resolveSibling(target.getFileName() + ".lock");
    createParent(target);
    acquire(lock);
    try {
      Optional<byte[]> old = read(target);
      Optional<byte[]> changed = change.apply(old);
      if (changed.isEmpty() || old.isPresent() && Arrays.equals(old.get(), changed.get())) {
        return;
      }
      byte[] updated = changed.get();
      Set<PosixFilePermission> permissions = old.isPresent() ? permissions(target) : OWNER_ONLY;
      if (old.isPresent() && backup.isPresent()) {
        write(backup.get(), old.get(), OWNER_ONLY);
      }
      write(target, updated, permissions);
    } finally {
      release(lock);
    }
  }

  /**
   * Writes {@code content} to a new file with {@code permissions}, through a temporary file and a
   * rename.
   *
   * @param target the file
   * @param content the bytes
   * @param permissions its permissions
   */
  private void write(Path target, byte[] content, Set<PosixFilePermission> permissions) {
    Path temp = null;
    try {
      FileAttribute<Set<PosixFilePermission>> mode = PosixFilePermissions.asFileAttribute(permissions);
      temp = Files.createTempFile(target.getParent(), "." + target.getFileName() + ".", ".tmp", mode);
      Files.write(temp, content);
      try {
        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
      }
      temp = null;
    } catch (IOException e) {
      throw failure("couldn't write `" + target + "`", e);
    } finally {
      if (temp != null) {
        try {
          Files.deleteIfExists(temp);
        } catch (IOException ignored) {
          // the write failed already; that error is the one to report
        }
      }
    }
  }

  /** A link is followed, as kubectl does: the file it names is replaced, and the link stays. */
  private Path resolveLink() {
    if (!Files.isSymbolicLink(file)) {
      return file;
    }
    try {
      return file.toRealPath();
    } catch (IOException e) {
      throw failure("couldn't follow the link `" + file + "`", e);
    }
  }

  private static Optional<byte[]> read(Path target) {
    try {
      return Optional.of(Files.readAllBytes(target));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw failure("couldn't read `" + target + "`", e);
    }
  }

  private void createParent(Path target) {
    Path parent = target.toAbsolutePath().getParent();
    if (Files.isDirectory(parent)) {
      return;
    }
    try {
      Files.createDirectories(parent, PosixFilePermissions.asFileAttribute(newDirectoryPermissions));
    } catch (IOException e) {
      throw failure("couldn't create the directory `" + parent + "`", e);
    }
  }

  private void acquire(Path lock) {
    for (int attempt = 1; ; attempt++) {
      try {
        Files.createFile(lock, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        return;
      } catch (FileAlreadyExistsException e) {
        if (attempt == LOCK_ATTEMPTS) {
          throw new ClientException(Problem.of("`" + lock + "` is held by another writer",
              "wait for the other svc or kubectl command to end, then run the command again",
              "if no other command runs, remove `" + lock + "`"));
        }
        try {
          pause.pause(LOCK_RETRY);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw new ClientException(Problem.of("waiting for `" + lock + "` was interrupted"));
        }
      } catch (IOException e) {
        throw failure("couldn't create the lock file `" + lock + "`", e);
      }
    }
  }

  private static void release(Path lock) {
    try {
      Files.deleteIfExists(lock);
    } catch (IOException ignored) {
      // a lock left behind is reported by the next writer, with the advice to remove it
    }
  }

  private static Set<PosixFilePermission> permissions(Path path) {
    try {
      return Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS);
    } catch (IOException | UnsupportedOperationException e) {
      return OWNER_ONLY;
    }
  }

  private static ClientException failure(String message, IOException e) {
    return new ClientException(new Problem(message, List.of("check the path and its permissions"),
        List.of(e.getMessage() == null ? e.getClass().getSimpleName() : e.toString())));
  }
}

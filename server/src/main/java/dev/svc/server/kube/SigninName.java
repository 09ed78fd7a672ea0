package dev.svc.server.kube;

import java.util.Locale;
import java.util.Optional;

/**
 * The names of one person's objects (access-server spec §5.2), derived in this one place: the
 * {@code SvcSignin} and its ServiceAccount are {@code svc-user-<name>}, the ClusterRoleBinding
 * {@code svc-user-<name>-binding}. {@code <name>} is the username made a DNS-1123 name: lower case,
 * every character outside {@code [a-z0-9.-]} as {@code -}, leading and trailing non-alphanumerics
 * trimmed. The prefix is fixed; {@code operator.userPrefix} names only kubeconfig entries.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param name the sanitized name part, such as {@code dana-smith}
 */
public record SigninName(String name) {

  /** The fixed prefix of the sign-in object and ServiceAccount names. */
  public static final String PREFIX = "svc-user-";

  private static final String BINDING_SUFFIX = "-binding";
  // The sign-in's name is also the value of the label access.svc.dev/signin on what it owns (spec §6.2),
  // and a label's value has at most 63 characters: a longer name could never be provisioned.
  private static final int MAX_LABEL_VALUE = 63;

  /** The most characters the name part may have. */
  public static final int MAX_PART = MAX_LABEL_VALUE - PREFIX.length();

  /**
   * The names for {@code username}.
   *
   * @param username a short username, such as {@code Dana_Smith}
   * @return the names; empty when no valid name can be made of it (nothing alphanumeric, or more than
   *     {@link #MAX_PART} characters)
   */
  public static Optional<SigninName> of(String username) {
    String lower = username.toLowerCase(Locale.ROOT);
    StringBuilder mapped = new StringBuilder(lower.length());
    for (int i = 0; i < lower.length(); i++) {
      char c = lower.charAt(i);
      mapped.append(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-' ? c : '-');
    }
    int start = 0;
    int end = mapped.length();
    while (start < end && !alphanumeric(mapped.charAt(start))) {
      start++;
    }
    while (end > start && !alphanumeric(mapped.charAt(end - 1))) {
      end--;
    }
    String name = mapped.substring(start, end);
    if (name.isEmpty() || name.length() > MAX_PART) {
      return Optional.empty();
    }
    return Optional.of(new SigninName(name));
  }

  /**
   * The names of the sign-in object called {@code objectName}, for clean-up after it is gone.
   *
   * @param objectName a {@code SvcSignin}'s name
   * @return the names; empty when the object's name doesn't start with {@link #PREFIX}
   */
  public static Optional<SigninName> ofObject(String objectName) {
    if (!objectName.startsWith(PREFIX) || objectName.length() == PREFIX.length()) {
      return Optional.empty();
    }
    return Optional.of(new SigninName(objectName.substring(PREFIX.length())));
  }

  /**
   * The {@code SvcSignin}'s name.
   *
   * @return {@code svc-user-<name>}
   */
  public String signin() {
    return PREFIX + name;
  }

  /**
   * The ServiceAccount's name, the same as the sign-in's.
   *
   * @return {@code svc-user-<name>}
   */
  public String serviceAccount() {
    return PREFIX + name;
  }

  /**
   * The ClusterRoleBinding's name.
   *
   * @return {@code svc-user-<name>-binding}
   */
  public String binding() {
    return PREFIX + name + BINDING_SUFFIX;
  }

  private static boolean alphanumeric(char c) {
    return c >= 'a' && c <= 'z' || c >= '0' && c <= '9';
  }
}

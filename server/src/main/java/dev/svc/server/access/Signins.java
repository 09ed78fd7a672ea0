package dev.svc.server.access;

import dev.svc.server.config.GoDuration;
import dev.svc.server.kube.KubernetesConnection;
import dev.svc.server.kube.Rfc3339;
import dev.svc.server.kube.SigninName;
import dev.svc.server.kube.SvcSignin;
import dev.svc.server.kube.SvcSigninSpec;
import dev.svc.server.kube.SvcSigninStatus;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.StatusDetails;
import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What each sign-in endpoint does to the {@code SvcSignin} objects of {@code operator.namespace}
 * (access-server spec §4.3 to §4.6), step by step with the spec's answer for each step that fails.
 * Every method blocks on the Kubernetes API: call them inside {@link KubernetesConnection#call}.
 *
 * <p><b>Thread safety:</b> thread-safe.
 */
final class Signins {

  /** The shortest session a grant may give. */
  static final Duration MIN_PERIOD = Duration.ofMinutes(10);
  /** How often {@code POST /login} writes before a conflict is its answer. */
  static final int WRITE_ATTEMPTS = 3;
  /** The shortest token Kubernetes issues. */
  static final long MIN_TOKEN_SECONDS = 600;

  private static final String NOT_SIGNED_IN = "User not signed in";
  private static final List<String> SIGN_IN = List.of("run `svc login` first");

  /** What {@code GET /login} found: the answer, and whether the session is provisioned. */
  record Session(LoginAnswer answer, boolean provisioned) {}

  /** What {@code GET /kubeconfig} found: a token when provisioned, nothing while pending. */
  record Token(Optional<String> token) {}

  private final KubernetesConnection kube;
  private final String namespace;
  private final Clock clock;

  Signins(KubernetesConnection kube, String namespace, Clock clock) {
    this.kube = kube;
    this.namespace = namespace;
    this.clock = clock;
  }

  /** {@code POST /login}: creates or extends the caller's sign-in with {@code role} for {@code period}. */
  LoginAnswer login(String username, String loginName, String role, String period) {
    Duration length = parsePeriod(period, "the grant's `period`");
    if (length.compareTo(MIN_PERIOD) < 0) {
      throw new AccessError(422, "`period` may not specify a duration less than 10 minutes",
          List.of("raise the period of the grant for user " + username + " to 10m or more; it is " + period), null);
    }
    SigninName name = name(username);
    Instant now = clock.instant();
    Instant until = now.plus(length);
    SvcSigninSpec spec = new SvcSigninSpec(username, role, GoDuration.format(length), loginName);
    // The operator writes the status meanwhile: an update it made stale is read and tried again.
    for (int attempt = 1; ; attempt++) {
      SvcSignin existing;
      try {
        existing = signins().withName(name.signin()).get();
      } catch (RuntimeException e) {
        throw new AccessError(500, "Failed to load existing sign-in request", List.of(), e);
      }
      try {
        if (existing == null) {
          create(name, spec, now, until);
        } else {
          extend(existing, spec, now, until);
        }
        return new LoginAnswer(username, role, Rfc3339.format(until));
      } catch (Conflict conflict) {
        if (attempt == WRITE_ATTEMPTS) {
          throw conflict.error;
        }
      }
    }
  }

  /** A write refused as conflicting (409): someone else wrote the object first. */
  private static final class Conflict extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final transient AccessError error;

    Conflict(AccessError error) {
      super(error.getMessage(), null, false, false);
      this.error = error;
    }
  }

  private void create(SigninName name, SvcSigninSpec spec, Instant now, Instant until) {
    SvcSignin created;
    try {
      created = signins().resource(SvcSignin.of(name, namespace, spec, now, until)).create();
    } catch (RuntimeException e) {
      throw refusal(e, "Error signing in user");
    }
    writeStatus(created, SvcSigninStatus.PENDING);
  }

  private void extend(SvcSignin existing, SvcSigninSpec spec, Instant now, Instant until) {
    String owner = existing.getSpec() == null ? null : existing.getSpec().loginName();
    if (owner != null && !owner.isEmpty() && !owner.equals(spec.loginName())) {
      throw new AccessError(409, "Sign-in name collision",
          List.of("the sign-in " + existing.getMetadata().getName() + " belongs to another login name; ask an"
              + " administrator to end that session (kubectl delete signin " + existing.getMetadata().getName() + ")"),
          null);
    }
    // An expired session is provisioned again rather than deleted by the operator (deviation D8).
    boolean expired = existing.statusOrPending().provisioned()
        && Rfc3339.parse(existing.statusOrPending().validUntil()).map(t -> !t.isAfter(now)).orElse(false);
    Map<String, String> annotations = new HashMap<>(Optional.ofNullable(existing.getMetadata().getAnnotations())
        .orElse(Map.of()));
    annotations.putAll(SvcSignin.annotations(now, until));
    existing.getMetadata().setAnnotations(annotations);
    existing.setSpec(spec);
    SvcSignin updated;
    try {
      updated = signins().resource(existing).update();
    } catch (RuntimeException e) {
      throw refusal(e, "Failed to update existing sign-in request");
    }
    if (expired) {
      writeStatus(updated, SvcSigninStatus.PENDING);
    }
  }

  private void writeStatus(SvcSignin signin, SvcSigninStatus status) {
    signin.setStatus(status);
    try {
      signins().resource(signin).updateStatus();
    } catch (RuntimeException e) {
      throw new AccessError(500, "Error updating signin status", List.of(), e);
    }
  }

  /** {@code GET /login}: the caller's session as it stands. */
  Session status(String username) {
    SvcSignin signin = load(username, 401);
    SvcSigninSpec spec = specOf(signin);
    SvcSigninStatus status = signin.statusOrPending();
    if (status.provisioned()) {
      validUntil(signin);
      return new Session(new LoginAnswer(spec.username(), spec.role(), status.validUntil()), true);
    }
    Duration period = parsePeriod(spec.validityPeriod(), "the sign-in's `spec.validity_period`");
    return new Session(new LoginAnswer(spec.username(), spec.role(), Rfc3339.format(clock.instant().plus(period))),
        false);
  }

  /** {@code GET /kubeconfig}: a fresh token for a provisioned session, none for a pending one. */
  Token token(String username) {
    SvcSignin signin = load(username, 401);
    if (!signin.statusOrPending().provisioned()) {
      return new Token(Optional.empty());
    }
    Instant until = validUntil(signin);
    long remaining = Duration.between(clock.instant(), until).toSeconds();
    String account = SigninName.ofObject(signin.getMetadata().getName()).orElseThrow().serviceAccount();
    TokenRequest request = new TokenRequestBuilder().withNewSpec()
        .withExpirationSeconds(Math.max(remaining, MIN_TOKEN_SECONDS)).endSpec().build();
    TokenRequest issued;
    try {
      issued = kube.client().serviceAccounts().inNamespace(namespace).withName(account).tokenRequest(request);
    } catch (RuntimeException e) {
      throw new AccessError(500, "Failed to generate token", List.of("try again; if it keeps failing, tell the"
          + " administrator of svc"), e);
    }
    String token = issued == null || issued.getStatus() == null ? null : issued.getStatus().getToken();
    if (token == null || token.isEmpty()) {
      throw new AccessError(500, "Failed to generate token", List.of("the Kubernetes API issued no token; tell the"
          + " administrator of svc"), null);
    }
    return new Token(Optional.of(token));
  }

  /**
   * How far a sign-out got, for its span (spec §10.3): {@code logout.status} is the step that failed
   * ({@code error_get_status}, {@code error_parse_duration}, {@code error_delete}) or {@code success},
   * and {@code logout.was_provisioned} is known once the sign-in is read.
   */
  static final class LogoutSteps {
    private volatile String status = "error_get_status";
    private volatile Optional<Boolean> wasProvisioned = Optional.empty();

    String status() {
      return status;
    }

    Optional<Boolean> wasProvisioned() {
      return wasProvisioned;
    }
  }

  /** {@code POST /logout}: deletes the caller's sign-in and answers the session as it was. */
  LoginAnswer logout(String username, LogoutSteps steps) {
    SvcSignin signin = load(username, 404);
    SvcSigninSpec spec = specOf(signin);
    SvcSigninStatus status = signin.statusOrPending();
    steps.wasProvisioned = Optional.of(status.provisioned());
    steps.status = "error_parse_duration";
    String until = status.provisioned()
        ? status.validUntil()
        : Rfc3339.format(clock.instant().plus(parsePeriod(spec.validityPeriod(), "the sign-in's `spec.validity_period`")));
    steps.status = "error_delete";
    List<StatusDetails> deleted;
    try {
      deleted = signins().withName(signin.getMetadata().getName()).delete();
    } catch (RuntimeException e) {
      throw new AccessError(500, "Failed to remove sign-in request", List.of(), e);
    }
    if (deleted.isEmpty()) {
      throw new AccessError(404, NOT_SIGNED_IN, List.of("the sign-in was removed meanwhile"), null);
    }
    steps.status = "success";
    return new LoginAnswer(spec.username(), spec.role(), until);
  }

  // The caller's sign-in; `missing` is the status when there is none, or when the session expired.
  private SvcSignin load(String username, int missing) {
    SigninName name = name(username);
    SvcSignin signin;
    try {
      signin = signins().withName(name.signin()).get();
    } catch (RuntimeException e) {
      throw new AccessError(500, "Failed to load sign-in request", List.of(), e);
    }
    if (signin == null) {
      throw new AccessError(missing, NOT_SIGNED_IN, SIGN_IN,
          new IllegalStateException(SvcSignin.CRD_NAME + " \"" + name.signin() + "\" not found"));
    }
    if (missing == 401 && signin.statusOrPending().provisioned()
        && Rfc3339.parse(signin.statusOrPending().validUntil()).map(t -> !t.isAfter(clock.instant())).orElse(false)) {
      throw new AccessError(401, NOT_SIGNED_IN, List.of("your session expired at " + signin.statusOrPending().validUntil()
          + "; sign in again with `svc login`"), null);
    }
    return signin;
  }

  private static Instant validUntil(SvcSignin signin) {
    String text = signin.statusOrPending().validUntil();
    return Rfc3339.parse(text).orElseThrow(() -> new AccessError(500, "Failed to load sign-in request",
        List.of("the sign-in's `status.valid_until` was edited by hand; sign in again with `svc login`"),
        new IllegalArgumentException("`" + text + "` isn't an RFC 3339 time")));
  }

  private static SvcSigninSpec specOf(SvcSignin signin) {
    SvcSigninSpec spec = signin.getSpec();
    if (spec == null) {
      throw new AccessError(500, "Failed to load sign-in request",
          List.of("the sign-in " + signin.getMetadata().getName() + " has no spec; sign in again with `svc login`"),
          null);
    }
    return new SvcSigninSpec(Optional.ofNullable(spec.username()).orElse(""), Optional.ofNullable(spec.role()).orElse(""),
        spec.validityPeriod(), spec.loginName());
  }

  private static Duration parsePeriod(String period, String what) {
    try {
      return GoDuration.parse(period == null ? "" : period);
    } catch (IllegalArgumentException e) {
      throw new AccessError(500, "Error parsing duration",
          List.of(what + " must be a duration such as 1h or 45m"), e);
    }
  }

  private static SigninName name(String username) {
    return SigninName.of(username).orElseThrow(() -> new AccessError(400,
        "Username cannot be mapped to a Kubernetes name",
        List.of("the username `" + username + "` needs a letter or digit, and at most " + SigninName.MAX_PART
            + " characters"), null));
  }

  // A write's failure: a conflict to try again, NotFound as 404 (spec §4.1), anything else 500.
  private static RuntimeException refusal(RuntimeException e, String message) {
    int code = e instanceof KubernetesClientException k ? k.getCode() : 0;
    AccessError error = new AccessError(code == 404 ? 404 : 500, message, List.of(), e);
    return code == 409 ? new Conflict(error) : error;
  }

  private NonNamespaceOperation<SvcSignin, KubernetesResourceList<SvcSignin>, Resource<SvcSignin>> signins() {
    return kube.signins(namespace);
  }
}

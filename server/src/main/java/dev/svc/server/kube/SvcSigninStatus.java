package dev.svc.server.kube;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What the operator made of a sign-in (access-server spec §5.1), written through the status
 * subresource. Times are RFC 3339 ({@link Rfc3339}); empty until provisioned.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param provisioned the ServiceAccount and binding exist and the times are set
 * @param signedIn the start of the current validity window: the last-attempted annotation
 * @param validUntil {@code signedIn} + the validity period
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record SvcSigninStatus(
    @JsonProperty("provisioned") boolean provisioned,
    @JsonProperty("signed_in") String signedIn,
    @JsonProperty("valid_until") String validUntil) {

  /** Not provisioned yet: the status {@code POST /login} writes. */
  public static final SvcSigninStatus PENDING = new SvcSigninStatus(false, "", "");

  /**
   * Treats missing times as empty, as the schema's empty strings.
   *
   * @param provisioned whether provisioned
   * @param signedIn the window's start, or null
   * @param validUntil the window's end, or null
   */
  public SvcSigninStatus {
    signedIn = signedIn == null ? "" : signedIn;
    validUntil = validUntil == null ? "" : validUntil;
  }
}

package dev.svc.server.kube;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What a person asked for when signing in (access-server spec §5.1): the field names are snake_case,
 * as the resource's schema fixes them. Every field may be missing or anything in an object edited by
 * hand; readers check what they use.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param username the short username, the login name up to its first {@code @}
 * @param role the ClusterRole to bind
 * @param validityPeriod the session length as a Go duration in canonical form, such as {@code 45m0s}
 * @param loginName the full login name, such as {@code dana@corp.example}: tells two people whose
 *     usernames map to one object apart (409 on {@code POST /login})
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record SvcSigninSpec(
    @JsonProperty("username") String username,
    @JsonProperty("role") String role,
    @JsonProperty("validity_period") String validityPeriod,
    @JsonProperty("login_name") String loginName) {}

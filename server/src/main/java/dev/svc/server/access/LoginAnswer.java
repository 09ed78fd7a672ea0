package dev.svc.server.access;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * The login response object of access-server spec §4.2, answered by {@code POST /login},
 * {@code GET /login} and {@code POST /logout}.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param username the short username, such as {@code dana}
 * @param role the ClusterRole
 * @param until the end of validity, RFC 3339
 */
@JsonPropertyOrder({"username", "role", "until"})
public record LoginAnswer(
    @JsonProperty("username") String username,
    @JsonProperty("role") String role,
    @JsonProperty("until") String until) {}

package dev.svc.server.mesh.tailnet;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The daemon's serve configuration ({@code serve-config}) with the tag to change it under.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe once built (the JSON tree isn't changed).
 *
 * @param config the configuration; a JSON {@code null} when none is set
 * @param etag the {@code Etag} of this version, for {@code If-Match}
 */
public record ServeConfig(JsonNode config, String etag) {}

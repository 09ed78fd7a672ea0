package dev.svc.client;

import java.net.URI;

/**
 * Where the access server listens, as the configuration gives it (access-server spec §11.1).
 *
 * @param hostname {@code mesh.hostname}: the node's name, or a URL starting with {@code http://} or
 *     {@code https://}
 * @param tailnet {@code mesh.tailnet}: the mesh DNS suffix, empty when unset
 * @param port {@code mesh.port}: 443 means HTTPS, any other port plain HTTP
 */
public record ServerAddress(String hostname, String tailnet, int port) {

  /** The path every API route is below. */
  public static final String API_BASE = "/api/v1alpha1";

  /**
   * The server's URL: scheme, hostname, tailnet suffix and always the port, such as
   * {@code https://svc.corp-example.ts.net:443}.
   *
   * @return the URL without a trailing slash
   */
  public String url() {
    StringBuilder url = new StringBuilder();
    boolean hasScheme = hostname.startsWith("http://") || hostname.startsWith("https://");
    if (!hasScheme) {
      url.append(port == 443 ? "https://" : "http://");
    }
    url.append(hostname);
    if (!tailnet.isEmpty()) {
      if (!tailnet.startsWith(".")) {
        url.append('.');
      }
      url.append(tailnet);
    }
    return url.append(':').append(port).toString();
  }

  /**
   * The URL of one API route.
   *
   * @param route the route below {@link #API_BASE}, such as {@code /login}
   * @return the route's URL
   */
  public URI api(String route) {
    return URI.create(url() + API_BASE + route);
  }
}

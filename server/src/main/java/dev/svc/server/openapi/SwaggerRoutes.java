package dev.svc.server.openapi;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import dev.svc.server.http.ApiRoute;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.StaticHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Properties;

/**
 * The access API's documentation on the mesh listener (access-server spec §4.2, D29): the OpenAPI
 * document at {@code /swagger/doc.json} and {@code /swagger/swagger.json} (one base path, in its
 * {@code servers}), Swagger UI from its webjar at {@code /swagger/index.html}, and {@code /swagger}
 * redirecting there. No who-is: anyone who reaches the mesh listener may read the docs.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 */
public final class SwaggerRoutes {

  /** Where the docs live. */
  public static final String BASE = "/swagger";
  /** The document's resource, next to this class. */
  static final String DOCUMENT = "access-api.json";

  private static final String INITIALIZER = "swagger-initializer.js";
  private static final String WEBJAR_VERSION = "META-INF/maven/org.webjars/swagger-ui/pom.properties";

  private final Buffer document;
  private final Buffer initializer;
  private final String webjar;

  /** Reads the document, the UI's initializer and the webjar's location from the class path. */
  public SwaggerRoutes() {
    this.document = resource(SwaggerRoutes.class, DOCUMENT);
    this.initializer = resource(SwaggerRoutes.class, INITIALIZER);
    this.webjar = "META-INF/resources/webjars/swagger-ui/" + webjarVersion();
  }

  /**
   * The routes, each declared once; the listener mounts them without guards: the docs need no
   * who-is.
   *
   * @return the routes under {@value #BASE}, the webjar's files last
   */
  public List<ApiRoute> routes() {
    return List.of(
        new ApiRoute(HttpMethod.GET, BASE, ctx -> ctx.response().setStatusCode(301)
            .putHeader(HttpHeaders.LOCATION, BASE + "/index.html").end()),
        new ApiRoute(HttpMethod.GET, BASE + "/doc.json", this::document),
        new ApiRoute(HttpMethod.GET, BASE + "/swagger.json", this::document),
        new ApiRoute(HttpMethod.GET, BASE + "/" + INITIALIZER, ctx -> ctx.response()
            .putHeader(HttpHeaders.CONTENT_TYPE, "text/javascript; charset=utf-8").end(initializer)),
        new ApiRoute(HttpMethod.GET, BASE + "/*", StaticHandler.create(webjar).setDirectoryListing(false)));
  }

  private void document(RoutingContext ctx) {
    ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, "application/json; charset=utf-8").end(document);
  }

  /** The document as served. */
  static Buffer document() {
    return resource(SwaggerRoutes.class, DOCUMENT);
  }

  private static String webjarVersion() {
    Properties properties = new Properties();
    try (InputStream in = SwaggerRoutes.class.getClassLoader().getResourceAsStream(WEBJAR_VERSION)) {
      if (in == null) {
        throw new IllegalStateException("the swagger-ui webjar isn't on the class path");
      }
      properties.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return properties.getProperty("version");
  }

  private static Buffer resource(Class<?> owner, String name) {
    try (InputStream in = owner.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException(name + " isn't packaged next to " + owner.getName());
      }
      return Buffer.buffer(in.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

// svc's Swagger UI: the access API's document from this server (replaces the webjar's example).
window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: "doc.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: "StandaloneLayout"
  });
};

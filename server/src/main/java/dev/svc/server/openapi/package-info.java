/**
 * The access API's documentation: {@link dev.svc.server.openapi.SwaggerRoutes} serves its OpenAPI
 * document ({@code access-api.json}, checked against the routes by a test) and Swagger UI.
 */
package dev.svc.server.openapi;

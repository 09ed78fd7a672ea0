/**
 * What every API route shares: the auth layer ({@link dev.svc.server.http.CallerAuthHandler}), strict
 * JSON bodies ({@link dev.svc.server.http.ApiJson}), error answers ({@link dev.svc.server.http.ApiErrors}
 * for {@link dev.svc.server.http.ApiError} and the engine's errors) and the HTTP timeouts
 * ({@link dev.svc.server.http.HttpTimeouts}).
 */
package dev.svc.server.http;

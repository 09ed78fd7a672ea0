/**
 * The policy engine over HTTP: {@link dev.svc.server.engine.EngineRoutes} has one handler per
 * operation, which runs on an {@link dev.svc.server.engine.EnginePool}, never on an event loop.
 */
package dev.svc.server.engine;

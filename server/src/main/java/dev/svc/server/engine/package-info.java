/**
 * The policy engine over HTTP: {@link dev.svc.server.engine.EngineRoutes} has one handler per
 * operation, which runs on an {@link dev.svc.server.engine.EnginePool}'s threads, except a small
 * evaluation that a lightly loaded event loop runs itself ({@link dev.svc.server.engine.LoopTurns}).
 */
package dev.svc.server.engine;

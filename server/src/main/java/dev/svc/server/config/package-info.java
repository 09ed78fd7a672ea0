/**
 * svc's configuration: {@link dev.svc.server.config.ConfigKey} lists every key,
 * {@link dev.svc.server.config.ConfigLoader} reads them from the
 * {@link dev.svc.server.config.ConfigSources} into a validated {@link dev.svc.server.config.SvcConfig}
 * or throws a {@link dev.svc.server.config.ConfigException} with every problem.
 */
package dev.svc.server.config;

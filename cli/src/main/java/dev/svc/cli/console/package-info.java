/**
 * What the user commands print and how: {@link dev.svc.cli.console.Theme} (access-server spec §11.9),
 * {@link dev.svc.cli.console.Terminal} (decided once: TTY, {@code TERM}, {@code NO_COLOR}) and
 * {@link dev.svc.cli.console.Console}, which writes icons, boxes and the error block of §11.8 to
 * stdout and stderr. Text is laid out first and coloured last, so without colour it is the same
 * text.
 */
package dev.svc.cli.console;

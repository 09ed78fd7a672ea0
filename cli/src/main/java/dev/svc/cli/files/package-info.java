/**
 * Writing a user's own files safely: {@link dev.svc.cli.files.AtomicFile} takes a sibling lock file,
 * writes a temporary file in the same directory and renames it over the target, so a reader sees
 * the old file or the new one and two writers never lose each other's change.
 */
package dev.svc.cli.files;

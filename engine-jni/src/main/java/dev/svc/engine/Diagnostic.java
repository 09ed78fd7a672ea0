package dev.svc.engine;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;
import java.util.Optional;

/**
 * One problem the engine found in a document: its severity, the lint that raised it (for lint
 * findings), where it is, what is wrong and what to do. Field for field the engine's Diagnostic
 * record; absent parts are empty.
 *
 * <p><b>Thread safety:</b> immutable and thread-safe.
 *
 * @param severity {@code error} or {@code warning}
 * @param lint the lint's name, for lint findings
 * @param file the file, as the request named it (cleaned)
 * @param document the document inside the file
 * @param message what is wrong
 * @param help what to do
 * @param line 1-based line, 0 when the problem has no line
 * @param column 1-based column, 0 when the problem has no column
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record Diagnostic(
    @JsonProperty("severity") String severity,
    @JsonProperty("lint") Optional<String> lint,
    @JsonProperty("file") Optional<String> file,
    @JsonProperty("document") Optional<String> document,
    @JsonProperty("message") String message,
    @JsonProperty("help") Optional<String> help,
    @JsonProperty("line") @JsonInclude(JsonInclude.Include.NON_DEFAULT) int line,
    @JsonProperty("column") @JsonInclude(JsonInclude.Include.NON_DEFAULT) int column) {

  /**
   * Checks that severity and message are present; null optional parts become empty.
   *
   * @param severity {@code error} or {@code warning}
   * @param lint the lint's name, for lint findings
   * @param file the file, as the request named it
   * @param document the document inside the file
   * @param message what is wrong
   * @param help what to do
   * @param line 1-based line, 0 when none
   * @param column 1-based column, 0 when none
   */
  public Diagnostic {
    Objects.requireNonNull(severity, "severity");
    Objects.requireNonNull(message, "message");
    lint = Objects.requireNonNullElse(lint, Optional.empty());
    file = Objects.requireNonNullElse(file, Optional.empty());
    document = Objects.requireNonNullElse(document, Optional.empty());
    help = Objects.requireNonNullElse(help, Optional.empty());
  }

  /**
   * One line: {@code file:line:column: severity: message (help: help)}, leaving out the parts that
   * are absent, as the engine's own text rendering does.
   *
   * @return the diagnostic as one line, such as {@code a.sigil:2:12: error: unknown field (help: did
   *     you mean x?)}
   */
  public String render() {
    StringBuilder text = new StringBuilder();
    file.ifPresent(
        f -> {
          text.append(f);
          if (line > 0) {
            text.append(':').append(line);
            if (column > 0) {
              text.append(':').append(column);
            }
          }
          text.append(": ");
        });
    text.append(severity).append(": ").append(message);
    help.ifPresent(h -> text.append(" (help: ").append(h).append(')'));
    return text.toString();
  }
}

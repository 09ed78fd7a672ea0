package dev.svc.engine.kind;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.engine.internal.GoQuote;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Checks what a {@link KindBuilder} collected and writes the kind file: every problem of
 * bindings.md §13.2 in its order, and the canonical text of language-policies §2.14 byte for
 * byte. The text is only worth anything when there are no problems.
 */
final class KindWriter {

  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private final KindBuilder.Draft draft;
  private final List<String> problems;
  // The decisions by name; of two with one name the later wins, which only matters once the
  // duplicate is already a problem.
  private final Map<String, Decision> byName = new HashMap<>();
  private final Map<String, List<String>> rankings = new HashMap<>();
  private final List<String> exclusiveSets = new ArrayList<>();
  private List<String> precedence = List.of();

  /** The kind file and the problems that keep it from being exported (none for a sound kind). */
  record Written(String text, List<String> problems) {}

  private KindWriter(KindBuilder.Draft draft) {
    this.draft = draft;
    this.problems = new ArrayList<>(draft.problems());
  }

  /** Checks {@code draft} and writes it. */
  static Written write(KindBuilder.Draft draft) {
    KindWriter writer = new KindWriter(draft);
    writer.checkHeader();
    writer.checkDecisions();
    writer.resolvePrecedence();
    writer.checkFallbacks();
    writer.resolveRankings();
    writer.resolveExclusiveSets();
    TypeWalk types = writer.walkTypes();
    String text = writer.text(types);
    return new Written(text, List.copyOf(writer.problems));
  }

  private void problem(String text) {
    problems.add(text);
  }

  private void problem(String text, String advice) {
    problems.add(text + " (" + advice + ")");
  }

  private static boolean isIdentifier(String name) {
    return IDENTIFIER.matcher(name).matches();
  }

  private void checkHeader() {
    if (!isIdentifier(draft.name())) {
      problem(
          "kind name " + GoQuote.quote(draft.name()) + " isn't an identifier",
          "use letters, digits and underscores, like AlertRouting");
    }
    if (draft.version() < 1) {
      problem("version " + draft.version() + " isn't a whole number from 1");
    }
    if (draft.accepts() < 1 || draft.accepts() > draft.version()) {
      problem("accepts " + draft.accepts() + " isn't from 1 to the version, " + draft.version());
    }
  }

  private void checkDecisions() {
    if (draft.decisions().isEmpty()) {
      problem(
          "the kind declares no decisions", "set decisions, or collectAll for a collecting kind");
    }
    for (Decision d : draft.decisions()) {
      if (byName.put(d.name(), d) != null) {
        problem("decision " + d.name() + " is declared twice");
      }
      if (!isIdentifier(d.name())) {
        problem("decision name " + GoQuote.quote(d.name()) + " isn't an identifier");
      }
      if (d.reasons().isEmpty()) {
        problem("decision " + d.name() + " declares no reasons");
      }
      HashSet<String> reasons = new HashSet<>();
      for (String r : d.reasons()) {
        if (!reasons.add(r)) {
          problem("decision " + d.name() + " declares reason " + r + " twice");
        }
        if (!isIdentifier(r)) {
          problem("decision " + d.name() + ": reason " + GoQuote.quote(r) + " isn't an identifier");
        }
      }
      HashSet<String> fields = new HashSet<>();
      for (Decision.PayloadField f : d.fields()) {
        if (!fields.add(f.name())) {
          problem("decision " + d.name() + ": field " + f.name() + " is declared twice");
        }
      }
    }
  }

  // A `collect one` kind ranks its decisions in declaration order; a collecting kind only when it
  // was given a precedence, which must then be a permutation of the decisions.
  private void resolvePrecedence() {
    List<String> names = draft.decisions().stream().map(Decision::name).toList();
    Optional<List<String>> given = draft.precedence();
    if (!draft.collectAll()) {
      if (given.isPresent()) {
        problem(
            "precedence is for a collecting kind", "decisions already ranks them in order");
      }
      precedence = names;
      return;
    }
    if (given.isEmpty() || given.get().isEmpty()) {
      return;
    }
    precedence = given.get();
    boolean unique = new HashSet<>(precedence).size() == precedence.size();
    if (!unique || !precedence.containsAll(names) || !byName.keySet().containsAll(precedence)) {
      problem(
          "precedence must list every decision of the kind once",
          "the decisions are " + String.join(", ", names));
    }
  }

  private void checkFallbacks() {
    if (!draft.collectAll() && draft.defaultOutcome().isEmpty() && !draft.decisions().isEmpty()) {
      problem(
          "a `collect one` kind needs a default",
          "set defaultOutcome to the outcome when no rule fires");
    }
    if (draft.collectAll() && draft.conflict().isPresent()) {
      problem(
          "conflict is for a `collect one` kind",
          "a collecting kind applies every decision, so nothing conflicts over the one outcome");
    }
    draft.defaultOutcome().ifPresent(o -> checkFallback(o, "default"));
    draft.conflict().ifPresent(o -> checkFallback(o, "conflict"));
  }

  // A fallback outcome is constructed with no rule to give payload values: each field needs a
  // default.
  private void checkFallback(Outcome outcome, String what) {
    declared(outcome, what)
        .ifPresent(
            d -> {
              for (Decision.PayloadField f : d.fields()) {
                if (f.defaultValue().isEmpty()) {
                  problem(
                      what + " " + outcome + ": payload field " + f.name() + " has no default",
                      "give it one with field(name, type, default)");
                }
              }
            });
  }

  /** The decision of {@code outcome}, when the kind declares it; a problem otherwise. */
  private Optional<Decision> declared(Outcome outcome, String what) {
    Decision d = byName.get(outcome.decision());
    if (d == null) {
      problem(
          what + " " + outcome + ": decision " + outcome.decision() + " isn't one of the kind's");
      return Optional.empty();
    }
    if (!d.reasons().contains(outcome.reason())) {
      problem(
          what + " " + outcome + ": decision " + d.name() + " has no reason " + outcome.reason());
    }
    return Optional.of(d);
  }

  private void resolveRankings() {
    for (List<Outcome> ranking : draft.rankings()) {
      if (ranking.isEmpty()) {
        problem("a reason ranking names no reasons");
        continue;
      }
      String decision = ranking.get(0).decision();
      Decision d = byName.get(decision);
      if (d == null) {
        problem("reason ranking: decision " + decision + " isn't one of the kind's");
        continue;
      }
      List<String> reasons = new ArrayList<>();
      for (Outcome o : ranking) {
        if (o.decision().equals(decision)) {
          reasons.add(o.reason());
        } else {
          problem(
              "reason ranking " + decision + ": reason " + o.reason() + " belongs to decision "
                  + o.decision(),
              "rank each decision's reasons in a ranking of its own");
        }
      }
      if (rankings.containsKey(decision)) {
        problem("reasons of " + decision + " are ranked twice");
      }
      boolean unique = new HashSet<>(reasons).size() == reasons.size();
      if (!unique || !reasons.containsAll(d.reasons()) || !d.reasons().containsAll(reasons)) {
        problem(
            "the reason ranking of " + decision + " must name every reason of " + decision
                + " once",
            decision + " declares: " + String.join(", ", d.reasons()));
      }
      rankings.put(decision, reasons);
    }
  }

  private void resolveExclusiveSets() {
    for (List<OutcomeRef> set : draft.exclusiveSets()) {
      if (set.size() < 2) {
        problem("an exclusive set names at least two outcomes");
      }
      for (OutcomeRef member : set) {
        if (member instanceof Outcome outcome) {
          declared(outcome, "exclusive");
        } else if (member instanceof Decision d && !byName.containsKey(d.name())) {
          problem("exclusive: decision " + d.name() + " isn't one of the kind's");
        }
      }
      exclusiveSets.add(String.join(", ", set.stream().map(OutcomeRef::toString).toList()));
    }
  }

  // Inputs, then each function's parameters and result, then the payload fields, then the enums
  // declared on their own: the order the kind file prints enums and structs in.
  private TypeWalk walkTypes() {
    TypeWalk walk = new TypeWalk(problems);
    draft.inputs().forEach(i -> walk.visit(i.type()));
    for (KindBuilder.Function f : draft.functions()) {
      if (!isIdentifier(f.name())) {
        problem("function name " + GoQuote.quote(f.name()) + " isn't an identifier");
      }
      f.decl().params().forEach(walk::visit);
      walk.visit(f.decl().result());
      if (f.decl().result() instanceof Type.OptionalOf) {
        problem(
            "function " + f.name() + ": the result can't be optional",
            "return the zero value and let the policy compare, or return a list");
      }
    }
    for (Decision d : draft.decisions()) {
      d.fields().forEach(f -> walk.visit(f.type()));
    }
    draft.enums().forEach(walk::visit);
    for (Type.Enumeration e : walk.enums()) {
      if (e.values().isEmpty()) {
        problem("enum " + e.name() + " declares no values");
      }
      if (new HashSet<>(e.values()).size() != e.values().size()) {
        problem("enum " + e.name() + " declares a value twice");
      }
    }
    for (Type.Structure s : walk.structs()) {
      HashSet<String> fields = new HashSet<>();
      for (Type.Field f : s.fields()) {
        if (!fields.add(f.name())) {
          problem("struct " + s.name() + ": field " + f.name() + " is declared twice");
        }
      }
    }
    return walk;
  }

  private String text(TypeWalk types) {
    StringBuilder out = new StringBuilder();
    out.append("kind ").append(draft.name()).append(" version ").append(draft.version());
    if (draft.accepts() > 1) {
      out.append(", accepts: ").append(draft.accepts());
    }
    out.append('\n');
    group(
        out,
        types.enums().stream()
            .map(e -> "enum " + e.name() + ": " + String.join(" | ", e.values()))
            .toList());
    for (Type.Structure s : types.structs()) {
      out.append("\ntype ").append(s.name()).append(" {");
      if (!s.fields().isEmpty()) {
        out.append('\n');
      }
      for (Type.Field f : s.fields()) {
        out.append("  ").append(f.name()).append(": ").append(f.type()).append('\n');
      }
      out.append("}\n");
    }
    group(out, draft.inputs().stream().map(i -> "input " + i.name() + ": " + i.type()).toList());
    group(out, draft.functions().stream().map(KindWriter::signature).toList());
    for (Decision d : draft.decisions()) {
      out.append("\ndecision ").append(d.name()).append(" {\n");
      out.append("  reason: ").append(String.join(" | ", d.reasons())).append('\n');
      for (Decision.PayloadField f : d.fields()) {
        out.append("  ").append(f.name()).append(": ").append(f.type());
        f.defaultValue().ifPresent(value -> out.append(" = ").append(defaultText(d, f, value)));
        out.append('\n');
      }
      out.append("}\n");
    }
    List<String> resolution = resolutionLines();
    if (!resolution.isEmpty()) {
      out.append('\n').append(String.join("\n", resolution)).append('\n');
    }
    draft.defaultOutcome().ifPresent(o -> out.append("\ndefault ").append(call(o)).append('\n'));
    draft.conflict()
        .ifPresent(
            o -> {
              // Without a default (only a kind with problems) the pair's blank line comes first.
              if (draft.defaultOutcome().isEmpty()) {
                out.append('\n');
              }
              out.append("conflict ").append(call(o)).append('\n');
            });
    return out.toString();
  }

  private static String signature(KindBuilder.Function f) {
    List<String> params = f.decl().params().stream().map(Type::toString).toList();
    return "fn " + f.name() + "(" + String.join(", ", params) + ") -> " + f.decl().result();
  }

  private static String call(Outcome outcome) {
    return outcome.decision() + "(reason: " + outcome.reason() + ")";
  }

  private String defaultText(Decision d, Decision.PayloadField f, JsonNode value) {
    String where = "decision " + d.name() + ": field " + f.name() + ": ";
    if (f.type() instanceof Type.OptionalOf && value.isNull()) {
      problem(
          where
              + "`none` isn't a constant: leave the default out; a field without one is required");
      return "none";
    }
    try {
      return Constants.text(f.type(), value);
    } catch (Constants.NotAConstant e) {
      problem(where + e.getMessage());
      return "?";
    }
  }

  private List<String> resolutionLines() {
    List<String> lines = new ArrayList<>();
    if (!draft.decisions().isEmpty()) {
      lines.add(draft.collectAll() ? "collect all" : "collect one");
    }
    if (!precedence.isEmpty()) {
      lines.add("precedence " + String.join(" > ", precedence));
    }
    for (Decision d : draft.decisions()) {
      List<String> ranked = rankings.get(d.name());
      if (ranked != null) {
        lines.add("precedence " + d.name() + ": " + String.join(" > ", ranked));
      }
    }
    exclusiveSets.forEach(set -> lines.add("exclusive " + set));
    return lines;
  }

  /** {@code lines} after one blank line; nothing when there are none. */
  private static void group(StringBuilder out, List<String> lines) {
    if (!lines.isEmpty()) {
      out.append('\n');
    }
    lines.forEach(line -> out.append(line).append('\n'));
  }
}

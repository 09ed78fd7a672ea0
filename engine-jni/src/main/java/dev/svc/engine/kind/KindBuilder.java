package dev.svc.engine.kind;

import dev.svc.engine.EngineException;
import dev.svc.engine.HostFunction;
import dev.svc.engine.ResultShape;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Collects the parts of a {@link Kind}; {@link #build()} checks them all together and writes the
 * kind file. Start one with {@link Kind#builder(String)}.
 *
 * <p>Declarations keep the order they are made in: inputs, functions and decisions print in it, and
 * the enums and struct types print in the order the inputs, then the functions, then the payload
 * fields reach them. Then exactly one of {@link #decisions(Decision...)} ({@code collect one}) and
 * {@link #collectAll(Decision...)} ({@code collect all}) says how the kind resolves, and the
 * rankings, exclusive sets, default and conflict outcome refine it.
 *
 * <p>Nothing here throws for a mistake in the kind: every problem is collected, and {@link
 * #problems()} lists them or {@link #build()} reports them at once.
 *
 * <p><b>Thread safety:</b> not thread-safe.
 */
public final class KindBuilder {

  private final String name;
  private int version;
  private int accepts = 1;
  private final List<Input> inputs = new ArrayList<>();
  private final List<Type.Enumeration> enums = new ArrayList<>();
  private final List<Function> functions = new ArrayList<>();
  private final List<Decision> decisions = new ArrayList<>();
  private boolean resolutionSet;
  private boolean collectAll;
  private List<String> precedence;
  private final List<List<Outcome>> rankings = new ArrayList<>();
  private final List<List<OutcomeRef>> exclusiveSets = new ArrayList<>();
  private Outcome defaultOutcome;
  private Outcome conflict;
  // Problems seen while declaring, such as a name declared twice; reported first.
  private final List<String> problems = new ArrayList<>();

  /** An input, {@code input alert: Alert}. */
  record Input(String name, Type type) {}

  /** A host function, {@code fn split(string, string) -> list<string>}. */
  record Function(String name, FnDecl decl) {}

  /** Everything the builder collected, as {@link KindWriter} reads it. */
  record Draft(
      String name,
      int version,
      int accepts,
      List<Input> inputs,
      List<Type.Enumeration> enums,
      List<Function> functions,
      List<Decision> decisions,
      boolean collectAll,
      Optional<List<String>> precedence,
      List<List<Outcome>> rankings,
      List<List<OutcomeRef>> exclusiveSets,
      Optional<Outcome> defaultOutcome,
      Optional<Outcome> conflict,
      List<String> problems) {}

  KindBuilder(String name) {
    this.name = Objects.requireNonNull(name, "name");
  }

  /**
   * The contract's version, from 1. Every change to the contract bumps it.
   *
   * @param version the version; a kind without one is at version 0, which is a problem
   * @return this builder
   */
  public KindBuilder version(int version) {
    this.version = version;
    return this;
  }

  /**
   * The oldest version a policy may pin with {@code Kind@N}: from 1 to the version. Without it, 1.
   *
   * @param accepts the oldest accepted version
   * @return this builder
   */
  public KindBuilder accepts(int accepts) {
    this.accepts = accepts;
    return this;
  }

  /**
   * An input every policy of the kind reads, {@code input alert: Alert}, after the ones declared
   * before.
   *
   * @param name the input's name
   * @param type its type
   * @return this builder
   */
  public KindBuilder input(String name, Type type) {
    Objects.requireNonNull(type, "type");
    noteRepeat("input", name, inputs.stream().map(Input::name));
    inputs.add(new Input(name, type));
    return this;
  }

  /**
   * Declares an enum that no input, function or payload field uses. It prints after the enums
   * something uses.
   *
   * @param type the enum
   * @return this builder
   */
  public KindBuilder enumeration(Type.Enumeration type) {
    enums.add(Objects.requireNonNull(type, "type"));
    return this;
  }

  /**
   * A host function policies may call, after the ones declared before.
   *
   * @param name the function's name
   * @param decl its parameter and result types
   * @return this builder
   */
  public KindBuilder function(String name, FnDecl decl) {
    Objects.requireNonNull(decl, "decl");
    noteRepeat("function", name, functions.stream().map(Function::name));
    functions.add(new Function(name, decl));
    return this;
  }

  /**
   * The decisions of a {@code collect one} kind, highest precedence first: the outcome is the one
   * candidate of the highest decision that fired, or the default. Such a kind needs a {@link
   * #defaultOutcome(Outcome) default}.
   *
   * @param decisions the decisions, highest first
   * @return this builder
   */
  public KindBuilder decisions(Decision... decisions) {
    return resolve(false, decisions);
  }

  /**
   * The decisions of a {@code collect all} kind, where every decision that fired applies. Give it a
   * {@link #precedence(Decision...) precedence} to make its outcome the top rank only.
   *
   * @param decisions the decisions, in declaration order
   * @return this builder
   */
  public KindBuilder collectAll(Decision... decisions) {
    return resolve(true, decisions);
  }

  // The repeat is still declared, so the walk reaches its types and reports their problems too.
  private void noteRepeat(String what, String name, Stream<String> declared) {
    Objects.requireNonNull(name, "name");
    if (declared.anyMatch(name::equals)) {
      problems.add(what + " " + name + " is declared twice");
    }
  }

  private KindBuilder resolve(boolean collectAll, Decision[] decisions) {
    List<Decision> given = nonNull(decisions, "decisions");
    if (resolutionSet) {
      problems.add(
          "the kind sets both decisions and collect (decisions ranks them for `collect one`,"
              + " collectAll applies them all; use one)");
    }
    resolutionSet = true;
    this.collectAll = collectAll;
    this.decisions.addAll(given);
    return this;
  }

  /**
   * Ranks a collecting kind's decisions, highest first; the outcome is then the top rank of what
   * fired. Lists every decision once.
   *
   * @param decisions every decision of the kind, highest first
   * @return this builder
   */
  public KindBuilder precedence(Decision... decisions) {
    precedence = nonNull(decisions, "decisions").stream().map(Decision::name).toList();
    return this;
  }

  /**
   * Ranks all of a decision's reasons in their declared order, highest first: {@code precedence
   * page: critical > sustained}.
   *
   * @param decision the decision whose reasons to rank
   * @return this builder
   */
  public KindBuilder rankReasons(Decision decision) {
    Objects.requireNonNull(decision, "decision");
    rankings.add(decision.reasons().stream().map(r -> new Outcome(decision.name(), r)).toList());
    return this;
  }

  /**
   * Ranks one decision's reasons in the order given, highest first. Names every reason of the
   * decision once.
   *
   * @param outcomes the decision's reasons, highest first
   * @return this builder
   */
  public KindBuilder rankOutcomes(Outcome... outcomes) {
    rankings.add(nonNull(outcomes, "outcomes"));
    return this;
  }

  /**
   * A set of outcomes that can't fire together: a conflict when they do. Names at least two
   * decisions (any of their reasons) or outcomes.
   *
   * @param members the decisions and outcomes of the set
   * @return this builder
   */
  public KindBuilder exclusive(OutcomeRef... members) {
    exclusiveSets.add(nonNull(members, "members"));
    return this;
  }

  /**
   * The outcome when no rule fires; required for a {@code collect one} kind. Each payload field of
   * its decision needs a default.
   *
   * @param outcome the default outcome
   * @return this builder
   */
  public KindBuilder defaultOutcome(Outcome outcome) {
    defaultOutcome = Objects.requireNonNull(outcome, "outcome");
    return this;
  }

  /**
   * The outcome of a conflict, instead of the default; {@code collect one} only. Each payload field
   * of its decision needs a default.
   *
   * @param outcome the conflict outcome
   * @return this builder
   */
  public KindBuilder conflict(Outcome outcome) {
    conflict = Objects.requireNonNull(outcome, "outcome");
    return this;
  }

  /**
   * Every problem that keeps the kind from being exported, in the order of bindings.md §13.2: the
   * ones met while declaring, then the header, the decisions, the resolution, the types and the
   * payload defaults. A problem with advice ends in it, in parentheses.
   *
   * @return the problems, unmodifiable; empty for a sound kind
   */
  public List<String> problems() {
    return KindWriter.write(draft()).problems();
  }

  /**
   * Checks the kind and writes its kind file.
   *
   * @return the kind
   * @throws EngineException {@code Kind.builder(«name»): invalid kind:} followed by one indented
   *     line per {@link #problems() problem}, when there are any
   */
  public Kind build() {
    KindWriter.Written written = KindWriter.write(draft());
    if (!written.problems().isEmpty()) {
      StringBuilder message = new StringBuilder("Kind.builder(" + name + "): invalid kind:");
      written.problems().forEach(p -> message.append("\n  ").append(p));
      throw new EngineException(
          message.toString(), "fix every problem listed; the kind can't be exported until then");
    }
    Map<String, HostFunction> implementations = new LinkedHashMap<>();
    for (Function f : functions) {
      f.decl().implementation().ifPresent(i -> implementations.put(f.name(), i));
    }
    boolean ranked = precedence != null && !precedence.isEmpty();
    return new Kind(
        name, version, written.text(), implementations, new ResultShape(collectAll, ranked));
  }

  private Draft draft() {
    return new Draft(
        name,
        version,
        accepts,
        List.copyOf(inputs),
        List.copyOf(enums),
        List.copyOf(functions),
        List.copyOf(decisions),
        collectAll,
        Optional.ofNullable(precedence),
        List.copyOf(rankings),
        List.copyOf(exclusiveSets),
        Optional.ofNullable(defaultOutcome),
        Optional.ofNullable(conflict),
        List.copyOf(problems));
  }

  private static <T> List<T> nonNull(T[] items, String parameter) {
    Objects.requireNonNull(items, parameter);
    Arrays.stream(items).forEach(item -> Objects.requireNonNull(item, parameter));
    return List.of(items);
  }
}

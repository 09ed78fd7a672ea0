//! Parse errors as values, and the only place their texts are written
//! (language-core §8.2, language-policies §1.2 and §2.17). Each variant names
//! the input that triggers it; [`ParseError::message`] and
//! [`ParseError::help`] spell the exact reference texts.

use super::MAX_NESTING;
use crate::ast::BinaryOp;
use crate::diag::Diagnostic;
use crate::lexer::{Token, TokenKind};
use crate::source::Span;

/// What went past the nesting limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nesting {
    /// Parentheses, operands, elements, entries, indexes, arguments,
    /// quantifier parts.
    Expression,
    /// A `when` inside 256 others (in practice its condition goes too deep
    /// first).
    When,
    /// `list<list<…>>` and `map<…>` type arguments.
    Type,
}

/// A prefix form that binds looser than comparisons (level 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoosePrefix {
    /// `not`
    Not,
    /// `any x in xs: p`, `all x in xs: p`
    Quantifier,
    /// `filter x in xs: p`
    Filter,
}

/// The top-level statement a `when` body can't hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TopLevelOnly {
    /// `when x { param y: int }`
    Param,
    /// `when x { use y }`
    Use,
}

/// One parse error.
#[derive(Clone, Debug, PartialEq)]
pub enum ParseError {
    /// The generic shape ``expected <want>, found <tok>``: `a ==` (an
    /// expression), `(a b` (`` `)` `` with help ``to close the `(` at 1:1``),
    /// `a b` (end of the expression), `policy a b` (`` `:` ``), …
    Expected {
        /// What the parser wanted, as the message says it.
        want: String,
        /// The token found: its text in backticks, or `end of file`.
        found: String,
        /// The help; empty for none.
        help: String,
    },
    /// `a < b < c`, `a in b == c`: a second level-4 operator.
    ChainedComparison {
        /// The operator already applied.
        first: BinaryOp,
        /// The operator that follows it.
        second: BinaryOp,
    },
    /// `a xor b xor c`.
    XorChained,
    /// `a or b xor c`, `a xor b or c`.
    OrXorMixed,
    /// `x == not y`, `a - not b`, `-not a`, `x in any r in xs: p` (with
    /// the operator), `{not a: 1}` (without: a map key).
    LoosePrefix {
        /// The prefix form.
        what: LoosePrefix,
        /// The operator whose operand it would be, or `None` where there is
        /// none (a map key).
        operator: Option<&'static str>,
    },
    /// `one r in xs: p`, `exclusive in xs`: `one`/`exclusive` at operand
    /// position.
    NotAQuantifier {
        /// `one` or `exclusive`.
        keyword: &'static str,
    },
    /// `a not b`, `a all b`, `a any`: `not`, `all`, `any`, `one`,
    /// `exclusive` after an operand without `in`.
    CompoundWithoutIn {
        /// The keyword.
        keyword: &'static str,
        /// The operator it would start (`not in`).
        operator: BinaryOp,
    },
    /// `a | b` in an expression.
    PipeInExpression,
    /// `a---b`, `--- a` in an expression, or an operand right after a `---`
    /// where a document header should be.
    SeparatorInExpression,
    /// `when release.soak < { deny(reason: x) }`: the rule's body was read
    /// as the operator's right operand, a map literal.
    MissingRightOperand {
        /// The operator without a right operand.
        operator: &'static str,
    },
    /// Nesting deeper than [`MAX_NESTING`] levels.
    TooDeep {
        /// What nests too deep.
        what: Nesting,
    },
    /// `param x: ??string`, `param x: ? ?string`.
    OptionalTypeNests,
    /// `policy a: K\nlet x = 1\nuse b`: a `use` after another statement.
    UseNotFirst,
    /// `module m: K\nparam x: int`: a statement a module can't hold.
    ModuleCantContain {
        /// How the statement is named: `` `param` ``, `` `when` ``,
        /// `` `assert` ``, `an invocation`.
        what: &'static str,
    },
    /// `enum Tier: a | b` in a policy or module.
    EnumOutsideKind,
    /// `policy a: K\nfoo`: a bare name where a statement should start.
    BareNameStatement {
        /// The name.
        name: String,
    },
    /// `param x: int, step: 1`: a bound other than `min`/`max`.
    ParamOption {
        /// The option's name.
        name: String,
    },
    /// `param x: int, min: 1, min: 2`.
    BoundTwice {
        /// `min` or `max`.
        name: String,
    },
    /// `when x { pub let y = 1 }` (the let is kept).
    PubLetInBody,
    /// `when x { param y: int }`, `when x { use y }`.
    TopLevelInBody {
        /// The statement.
        what: TopLevelOnly,
    },
    /// ``assert(`r`, x)``: a raw string as an assert's reason.
    AssertRawReason,
    /// `use deploy .common` (`before: true`), `use deploy. common`.
    NameSpaces {
        /// Whether the space is before the `.`.
        before: bool,
    },
    /// `use a.{}`.
    EmptyImport,
    /// `kind K version 1, foo: 2`.
    KindHeaderOption {
        /// The option's name.
        name: String,
    },
    /// `type T { f: int = 1 }` (at `=`).
    TypeFieldDefault,
    /// `fn f(name: string) -> int`.
    FnParamName,
    /// `enum E: one | two` (at `one`), `reason: all | b`.
    KeywordValue {
        /// `an enum value` or `a reason`.
        want: &'static str,
        /// The keyword.
        keyword: String,
        /// The enum's or reasons' shape, for the help.
        reasons: bool,
    },
    /// `enum E: a, b` (at `,`): values separated by commas.
    CommaBetweenValues {
        /// Whether these are reasons (else enum values).
        reasons: bool,
    },
    /// `decision d { f: int }`: no `reason:` member (at `{`).
    DecisionNoReason {
        /// The decision.
        decision: String,
    },
    /// `decision d { reason: a  reason: b }` (at the second `reason`).
    ReasonTwice {
        /// The decision.
        decision: String,
    },
    /// `reason: ?T`, `reason: list<T>`.
    ReasonIsType,
    /// `reason: a = b` (at `=`).
    ReasonDefault,
    /// `decision d(f: T) { reason: a }`: legacy fields next to a new body.
    LegacyFieldsInParens,
    /// `decision d(reason: string) { a }`.
    ReasonStringParam,
    /// `decision d(f: int) {}`: a legacy block without reasons (at `{`).
    LegacyNoReasons {
        /// The decision.
        decision: String,
    },
    /// `exclusive a` (from `exclusive` to the outcome).
    ExclusiveOneOutcome,
}

const WRAP: &str = "wrap it in parentheses";
const SEPARATOR_HELP: &str = "if you meant arithmetic, put spaces between the minus signs";
/// The help of [`ParseError::EmptyImport`] and of a bad import item.
pub const IMPORT_HELP: &str = "write `use deploy.common.{cleared}` to import a name, or `use deploy.common` for the whole module";
/// The shape of an `exclusive` declaration.
pub const EXCLUSIVE_SHAPE: &str = "exclusive is written `exclusive grant_a, grant_b`, or `exclusive approve.release_manager, approve.lgtm` for reasons";
/// The shape of an enum declaration.
pub const ENUM_SHAPE: &str = "an enum is written `enum Name: a | b | c`";
/// The shape of a decision's reason list.
pub const REASONS_SHAPE: &str =
    "the reasons are listed inline, like `reason: not_eligible | soak_too_short`";

impl ParseError {
    /// ``expected <want>, found <tok>`` at `found`.
    pub fn expected(want: impl Into<String>, found: Token<'_>, help: impl Into<String>) -> Self {
        ParseError::Expected {
            want: want.into(),
            found: describe(found),
            help: help.into(),
        }
    }

    /// The message: one sentence, no final period.
    pub fn message(&self) -> String {
        match self {
            ParseError::Expected { want, found, .. } => format!("expected {want}, found {found}"),
            ParseError::ChainedComparison { first, second } => format!(
                "`{}` can't follow `{}`: comparisons don't chain",
                second.as_str(),
                first.as_str()
            ),
            ParseError::XorChained => "`xor` can't be chained".to_owned(),
            ParseError::OrXorMixed => {
                "`or` and `xor` can't be mixed without parentheses".to_owned()
            }
            ParseError::LoosePrefix { what, operator } => {
                let what = match what {
                    LoosePrefix::Not => "`not`",
                    LoosePrefix::Quantifier => "a quantifier",
                    LoosePrefix::Filter => "a filter",
                };
                match operator {
                    Some(op) => format!("{what} can't be an operand of `{op}`"),
                    None => format!("{what} can't appear here"),
                }
            }
            ParseError::NotAQuantifier { keyword } => {
                format!("`{keyword}` is an operator, not a quantifier")
            }
            ParseError::CompoundWithoutIn { keyword, .. } => {
                format!("expected `in` after `{keyword}`")
            }
            ParseError::PipeInExpression => "`|` can't join two conditions".to_owned(),
            ParseError::SeparatorInExpression => {
                "`---` separates documents and can't appear inside an expression".to_owned()
            }
            ParseError::MissingRightOperand { operator } => {
                format!("`{operator}` has no right operand")
            }
            ParseError::TooDeep { what } => {
                let what = match what {
                    Nesting::Expression => "this expression",
                    Nesting::When => "this `when`",
                    Nesting::Type => "this type",
                };
                format!("{what} nests more than {MAX_NESTING} levels deep")
            }
            ParseError::OptionalTypeNests => "optional types don't nest".to_owned(),
            ParseError::UseNotFirst => "`use` must come before every other statement".to_owned(),
            ParseError::ModuleCantContain { what } => format!("a module can't contain {what}"),
            ParseError::EnumOutsideKind => "an enum can only be declared in a kind".to_owned(),
            ParseError::BareNameStatement { name } => {
                format!("expected a statement, found `{name}`")
            }
            ParseError::ParamOption { name } => format!("a param has no option `{name}`"),
            ParseError::BoundTwice { name } => format!("`{name}` is given twice"),
            ParseError::PubLetInBody => "a let inside a `when` body can't be `pub`".to_owned(),
            ParseError::TopLevelInBody { what } => {
                let what = match what {
                    TopLevelOnly::Param => "param",
                    TopLevelOnly::Use => "use",
                };
                format!(
                    "expected a decision constructor, invocation, `when`, `let` or `assert`, found `{what}`"
                )
            }
            ParseError::AssertRawReason => "the reason must be a double-quoted string".to_owned(),
            ParseError::NameSpaces { .. } => "a name can't have spaces around `.`".to_owned(),
            ParseError::EmptyImport => "a selective import needs at least one name".to_owned(),
            ParseError::KindHeaderOption { name } => {
                format!("a kind header has no option `{name}`")
            }
            ParseError::TypeFieldDefault => {
                "a field in a `type` body can't have a default".to_owned()
            }
            ParseError::FnParamName => "expected a parameter type, found a name".to_owned(),
            ParseError::KeywordValue { want, keyword, .. } => {
                format!("expected {want}, found the keyword `{keyword}`")
            }
            ParseError::CommaBetweenValues { .. } => {
                "expected `|` between two values, found `,`".to_owned()
            }
            ParseError::DecisionNoReason { decision } => {
                format!("decision {decision} declares no reason")
            }
            ParseError::ReasonTwice { decision } => {
                format!("decision {decision} declares `reason` twice")
            }
            ParseError::ReasonIsType => "the reason can't name a type".to_owned(),
            ParseError::ReasonDefault => "the reason can't have a default".to_owned(),
            ParseError::LegacyFieldsInParens => {
                "the payload fields go inside the braces, next to `reason:`".to_owned()
            }
            ParseError::ReasonStringParam => "the reason isn't a string parameter".to_owned(),
            ParseError::LegacyNoReasons { decision } => {
                format!("decision {decision} declares no reasons")
            }
            ParseError::ExclusiveOneOutcome => "exclusive needs at least two outcomes".to_owned(),
        }
    }

    /// The help, or `None` when there is nothing to suggest.
    pub fn help(&self) -> Option<String> {
        let help = match self {
            ParseError::Expected { help, .. } => help.clone(),
            ParseError::ChainedComparison { .. } => "add parentheses to say which comparison happens first, or join two comparisons with `and`".to_owned(),
            ParseError::XorChained => "add parentheses to say which pair is compared first, or use `one in` for exactly one of several".to_owned(),
            ParseError::OrXorMixed => "add parentheses to say which grouping you mean".to_owned(),
            ParseError::LoosePrefix { .. } => WRAP.to_owned(),
            ParseError::NotAQuantifier { keyword } => {
                format!("write `a {keyword} in b`; only `any` and `all` start a quantifier")
            }
            ParseError::CompoundWithoutIn { keyword, operator } => format!(
                "after an operand, `{keyword}` is only valid as part of `{}`",
                operator.as_str()
            ),
            ParseError::PipeInExpression => {
                "use `or`; `|` only separates enum values and reasons".to_owned()
            }
            ParseError::SeparatorInExpression => SEPARATOR_HELP.to_owned(),
            ParseError::MissingRightOperand { .. } => "the `{` after it was read as a map literal; finish the condition before the rule's `{`".to_owned(),
            ParseError::TooDeep { .. } => format!(
                "give the inner part a name with `let`, or split the condition across rules; a document may nest at most {MAX_NESTING} levels"
            ),
            ParseError::OptionalTypeNests => "write `?T` with a single `?`".to_owned(),
            ParseError::UseNotFirst => "move it up, right after the header".to_owned(),
            ParseError::ModuleCantContain { .. } => "a module holds only imports and lets; rules, params and invocations belong in a policy".to_owned(),
            ParseError::EnumOutsideKind => "declare it in the kind file, like `enum Tier: critical | standard`; policies and modules use its values by name".to_owned(),
            ParseError::BareNameStatement { name } => format!(
                "a bare name isn't a statement; an invocation needs parentheses, like `{name}()`"
            ),
            ParseError::ParamOption { .. } => PARAM_BOUNDS_SHAPE.to_owned(),
            ParseError::BoundTwice { .. } => "give each bound once".to_owned(),
            ParseError::PubLetInBody => "only top-level lets can be exported; remove `pub`".to_owned(),
            ParseError::TopLevelInBody { what } => match what {
                TopLevelOnly::Param => {
                    "`param` is only allowed at the top level; move it outside the `when` block"
                }
                TopLevelOnly::Use => "`use` is only allowed right after the header; move it up",
            }
            .to_owned(),
            ParseError::AssertRawReason => {
                "raw strings are for patterns; write the reason as \"...\"".to_owned()
            }
            ParseError::NameSpaces { before } => if *before {
                "remove the space before the `.`"
            } else {
                "remove the space after the `.`"
            }
            .to_owned(),
            ParseError::EmptyImport => IMPORT_HELP.to_owned(),
            ParseError::KindHeaderOption { .. } => KIND_SHAPE.to_owned(),
            ParseError::TypeFieldDefault => "defaults belong to decision payload fields".to_owned(),
            ParseError::FnParamName => {
                "parameters have types only; policies pass arguments by position".to_owned()
            }
            ParseError::KeywordValue { .. } => "a keyword can't be a value; pick another name".to_owned(),
            ParseError::CommaBetweenValues { reasons } => {
                if *reasons { REASONS_SHAPE } else { ENUM_SHAPE }.to_owned()
            }
            ParseError::DecisionNoReason { .. } => {
                "list its reasons first, like `reason: not_eligible | soak_too_short`".to_owned()
            }
            ParseError::ReasonTwice { .. } => {
                "list every reason in one field, like `reason: not_eligible | soak_too_short`".to_owned()
            }
            ParseError::ReasonIsType => REASONS_SHAPE.to_owned(),
            ParseError::ReasonDefault => {
                "every constructor names its reason, like `deny(reason: soak_too_short)`".to_owned()
            }
            ParseError::LegacyFieldsInParens => "move them out of the parentheses: `decision approve { reason: release_manager  bake: duration = 1h }`".to_owned(),
            ParseError::ReasonStringParam => "list the reasons inside the braces: `decision deny { reason: not_eligible | soak_too_short }`".to_owned(),
            ParseError::LegacyNoReasons { .. } => {
                "every decision needs at least one reason in its block".to_owned()
            }
            ParseError::ExclusiveOneOutcome => EXCLUSIVE_SHAPE.to_owned(),
        };
        (!help.is_empty()).then_some(help)
    }

    /// The diagnostic for this error at `span`.
    pub fn at(&self, span: Span) -> Diagnostic {
        Diagnostic::error(span, self.message()).with_optional_help(self.help())
    }
}

/// The shape of a param's bounds.
pub const PARAM_BOUNDS_SHAPE: &str = "a param's bounds are written `, min: value` and `, max: value`, like `param min_soak: duration = 24h, min: 1h`";
/// The shape of a kind header.
pub const KIND_SHAPE: &str =
    "a kind starts with `kind Name version N`, optionally followed by `, accepts: M`";

/// A token as an ``expected …, found <tok>`` message names it: its text in
/// backticks, or `end of file`.
pub fn describe(tok: Token<'_>) -> String {
    if tok.kind == TokenKind::Eof {
        "end of file".to_owned()
    } else {
        format!("`{}`", tok.text)
    }
}

//! The compiled program (language-policies §6): a root policy flattened
//! into instances whose params are bound, expressions whose names are
//! resolved, and rules and asserts that carry everything a record prints
//! about them (positions, chains, condition texts) already rendered.

use std::rc::Rc;

use crate::kind::Kind;
use crate::pattern::{Glob, Regex};
use crate::value::Value;

/// A root policy compiled for evaluation. It owns everything evaluation
/// needs, so the bundle it came from can be dropped.
#[derive(Debug)]
pub struct Program {
    /// The root policy's name.
    pub policy: Rc<str>,
    /// The kind the root is written against.
    pub kind: Kind,
    /// The files of the documents compiled, for the positions of runtime
    /// errors.
    pub files: Vec<SourceFile>,
    /// The root instance's body; invoked instances are nested in it.
    pub body: Vec<Node>,
    /// Every let of every instance, by slot: lets are evaluated lazily, at
    /// most once per evaluation.
    pub lets: Vec<Ex>,
    /// How many `when` blocks there are: their conditions are memoised by
    /// slot across the phases of one evaluation.
    pub conditions: usize,
    /// Every decision constructor reached from the root, in walk order.
    pub rules: Vec<Rule>,
    /// Every assert reached from the root, in walk order.
    pub asserts: Vec<AssertDef>,
    /// The kind's default outcome as an entry, when it declares one.
    pub default: Option<Fallback>,
    /// The kind's conflict outcome, when it declares one.
    pub conflict: Option<Fallback>,
}

impl Program {
    /// A program without code against `kind`: what constant expressions
    /// evaluate in.
    pub(crate) fn constants(kind: &Kind) -> Program {
        Program {
            policy: Rc::from(""),
            kind: kind.clone(),
            files: Vec::new(),
            body: Vec::new(),
            lets: Vec::new(),
            conditions: 0,
            rules: Vec::new(),
            asserts: Vec::new(),
            default: None,
            conflict: None,
        }
    }

    /// The name of the kind's decision number `d`; empty for none.
    pub fn decision_name(&self, d: usize) -> &str {
        self.kind.decisions.get(d).map_or("", |d| d.name.as_str())
    }

    /// Where `at` is, as records print a position (language-policies
    /// §8.4): `file:line:column`, with ` (document)` when the path doesn't
    /// spell the document's name; `-` for a file the program doesn't have.
    pub fn position(&self, at: &At) -> String {
        let Some(file) = self.files.get(at.file) else {
            return "-".to_owned();
        };
        let p = crate::source::LineIndex::new(&file.source).position(at.offset);
        crate::diag::position_text(&file.path, &at.document, p)
    }
}

/// A file whose documents were compiled.
#[derive(Debug)]
pub struct SourceFile {
    /// Its cleaned path.
    pub path: Rc<str>,
    /// Its text.
    pub source: Rc<str>,
}

/// Where an expression that can fail at runtime is: file (by number in
/// [`Program::files`]), byte offset, and the document holding it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct At {
    /// The file, by number in [`Program::files`].
    pub file: usize,
    /// The byte offset of the expression's first character.
    pub offset: usize,
    /// The document holding it.
    pub document: Rc<str>,
}

/// One statement of an instance's body that evaluation walks.
#[derive(Debug)]
pub enum Node {
    /// `when cond { body }`.
    When(Box<WhenNode>),
    /// A decision constructor, by number in [`Program::rules`].
    Rule(usize),
    /// An assert, by number in [`Program::asserts`].
    Assert(usize),
    /// An invocation: the invoked instance's body, pasted at the call.
    Invoke(Box<Invocation>),
}

/// What a subtree holds, so a phase skips blocks without work for it
/// without evaluating their conditions (language-policies §7.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// An assert that doesn't read `outcome`.
    pub input_asserts: bool,
    /// A decision constructor.
    pub rules: bool,
    /// An assert that reads `outcome`.
    pub outcome_asserts: bool,
}

impl Work {
    /// The work of both.
    pub fn or(self, other: Work) -> Work {
        Work {
            input_asserts: self.input_asserts || other.input_asserts,
            rules: self.rules || other.rules,
            outcome_asserts: self.outcome_asserts || other.outcome_asserts,
        }
    }
}

/// A `when` block.
#[derive(Debug)]
pub struct WhenNode {
    /// The condition.
    pub cond: Ex,
    /// Its memo slot.
    pub slot: usize,
    /// What its body holds.
    pub work: Work,
    /// The body.
    pub body: Vec<Node>,
}

/// An invoked instance's body.
#[derive(Debug)]
pub struct Invocation {
    /// What it holds.
    pub work: Work,
    /// Its statements.
    pub body: Vec<Node>,
}

/// A decision constructor of an instance (language-policies §6.3).
#[derive(Debug)]
pub struct Rule {
    /// The decision, by number in the kind's decisions.
    pub decision: usize,
    /// The reason's name.
    pub reason: Rc<str>,
    /// Every payload field, sorted by name: its argument, or its default.
    pub payload: Vec<(Rc<str>, PayloadArg)>,
    /// The document holding the constructor.
    pub policy: Rc<str>,
    /// Its position string (language-policies §8.4).
    pub position: Rc<str>,
    /// The call sites from the root inwards, as position strings.
    pub chain: Rc<[Rc<str>]>,
    /// The texts of every enclosing condition, call sites' first.
    pub conditions: Rc<[Rc<str>]>,
    /// Line and column of each call site, then of the constructor: the
    /// call path that orders candidates of equal rank (§7.4).
    pub path: Rc<[(u32, u32)]>,
    /// `«document»:«line»` of each call site, then of the constructor: the
    /// chain explain prints (tooling §5.1).
    pub sites: Rc<[Rc<str>]>,
    /// `«field» = «argument text»` for each payload argument written in the
    /// constructor, in source order: what explain prints.
    pub payload_texts: Vec<Rc<str>>,
    /// `rank(decision)`.
    pub rank: usize,
    /// `rrank(decision, reason)`.
    pub rrank: usize,
}

/// A payload field's value.
#[derive(Debug)]
pub enum PayloadArg {
    /// Written in the constructor: evaluated per candidate.
    Given(Ex),
    /// Left out: the field's default.
    Default(Value),
}

/// An assert of an instance (language-policies §6.5).
#[derive(Debug)]
pub struct AssertDef {
    /// Its reason string.
    pub reason: Rc<str>,
    /// The document holding it.
    pub policy: Rc<str>,
    /// The call sites' positions and its own, joined by ` → `.
    pub position: Rc<str>,
    /// The call path, as for rules.
    pub path: Rc<[(u32, u32)]>,
    /// The chain explain prints, as for rules.
    pub sites: Rc<[Rc<str>]>,
    /// The texts of every enclosing condition, call sites' first.
    pub conditions: Rc<[Rc<str>]>,
    /// The condition.
    pub cond: Ex,
    /// The condition's text.
    pub check: Rc<str>,
    /// Whether it reads `outcome`: it runs after resolution.
    pub reads_outcome: bool,
}

/// The kind's default or conflict outcome as an entry without position.
#[derive(Debug)]
pub struct Fallback {
    /// The decision, by number in the kind's decisions.
    pub decision: usize,
    /// The reason.
    pub reason: Rc<str>,
    /// Every payload field, sorted by name.
    pub payload: Vec<(Rc<str>, Value)>,
}

/// An expression with its names resolved. The rare large parts (a call's
/// or negation's place, an addition) are boxed, so that every node, most
/// of them small, isn't the size of the largest (issue #20).
#[derive(Debug)]
pub enum Ex {
    /// A constant: a literal, a param's bound value, an enum value, a
    /// decision value.
    Lit(Value),
    /// An input, by number in the kind's inputs.
    Input(usize),
    /// A let, by slot in [`Program::lets`].
    Let(usize),
    /// A quantifier or filter variable, by depth from the innermost let's
    /// start.
    Var(usize),
    /// `outcome`.
    Outcome,
    /// `outcome.d` or `outcome.d.r`: the outcome's candidates of `d`.
    OutcomeOf {
        /// The decision, by number in the kind's decisions.
        decision: usize,
        /// The reason, when written.
        reason: Option<Rc<str>>,
    },
    /// `[a, b]`
    List(Vec<Ex>),
    /// `{k: v}`: entries left to right, a later key replacing an earlier.
    Map(Vec<(Ex, Ex)>),
    /// `not e`
    Not(Box<Ex>),
    /// `-e`: overflow negating the minimum is an error.
    Neg(Box<Ex>, Box<At>),
    /// `present e`
    Present(Box<Ex>),
    /// `a and b`, short-circuit.
    And(Box<Ex>, Box<Ex>),
    /// `a or b`, short-circuit.
    Or(Box<Ex>, Box<Ex>),
    /// `a xor b`, both evaluated.
    Xor(Box<Ex>, Box<Ex>),
    /// `==`, `!=`, `<`, `<=`, `>`, `>=`.
    Compare(Comparison, Box<Ex>, Box<Ex>),
    /// `x in y` (`negated`: `not in`).
    In {
        /// Written `not in`.
        negated: bool,
        /// The element or substring.
        lhs: Box<Ex>,
        /// The list or string.
        rhs: Box<Ex>,
    },
    /// `all in`, `any in`, `one in`, `exclusive in`.
    ListOp(ListOp, Box<Ex>, Box<Ex>),
    /// `m has k` or `m has {k: v}`.
    Has(Box<Ex>, Box<Ex>),
    /// `s like "glob"`.
    Like(Box<Ex>, Rc<Glob>),
    /// `s matches "re"`.
    Matches(Box<Ex>, Rc<Regex>),
    /// `a ?? b`: `b` only when `a` is absent.
    Coalesce(Box<Ex>, Box<Ex>),
    /// `a + b` / `a - b`.
    Arith(Box<Arith>),
    /// `x.f` / `x?.f`: absent stays absent (the rest of a `?.` chain is
    /// skipped).
    Field(Box<Ex>, Rc<str>),
    /// `x[i]`.
    Index(Box<IndexEx>),
    /// An input or field of an enum type, whose value must be one the enum
    /// declares.
    EnumRead(Box<EnumRead>),
    /// `f(args)`: a host function, by number in the kind's functions.
    Call {
        /// The function.
        function: usize,
        /// Its arguments.
        args: Vec<Ex>,
        /// The call.
        at: Box<At>,
    },
    /// `any v in xs: p` / `all v in xs: p`.
    Quantifier {
        /// `any` (else `all`).
        any: bool,
        /// The list.
        range: Box<Ex>,
        /// The condition, with the variable on top of the stack.
        body: Box<Ex>,
    },
    /// `filter v in xs: p`.
    Filter {
        /// The list.
        range: Box<Ex>,
        /// The condition, with the variable on top of the stack.
        body: Box<Ex>,
    },
}

/// A comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Comparison {
    /// `==`
    Eq,
    /// `!=`
    NotEq,
    /// `<`
    Lt,
    /// `<=`
    LtEq,
    /// `>`
    Gt,
    /// `>=`
    GtEq,
}

/// A list set operator (language-core §5.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListOp {
    /// `all in`
    All,
    /// `any in`
    Any,
    /// `one in`
    One,
    /// `exclusive in`
    Exclusive,
}

/// `a + b` or `a - b`, with what an overflow error prints.
#[derive(Debug)]
pub struct Arith {
    /// `-` (else `+`).
    pub minus: bool,
    /// The left operand.
    pub lhs: Box<Ex>,
    /// The right operand.
    pub rhs: Box<Ex>,
    /// The expression as the overflow message renders it.
    pub text: Rc<str>,
    /// Where it is.
    pub at: At,
}

/// A read of an enum-typed input or field, checked when it runs.
#[derive(Debug)]
pub struct EnumRead {
    /// The read: an [`Ex::Input`] or an [`Ex::Field`].
    pub read: Ex,
    /// The enum, by number in the kind's enums.
    pub enumeration: usize,
    /// The read as the runtime error quotes it (`door.zone`).
    pub text: Rc<str>,
    /// Where it is.
    pub at: At,
}

/// `x[i]`.
#[derive(Debug)]
pub struct IndexEx {
    /// The list or map.
    pub target: Ex,
    /// The index or key.
    pub index: Ex,
    /// For a map, the zero value of its value type (a missing key reads
    /// it); `None` for a list.
    pub zero: Option<Value>,
    /// Where it is.
    pub at: At,
}

//! The syntax tree of Sigil source (language-core §3, language-policies §1.2).
//!
//! The parser builds it; the formatter reprints it; the kind loader and the
//! checker read it. Every node carries the [`Span`] of its source text, and
//! the tree owns its text (names, literal spellings), so it outlives the
//! source it came from.
//!
//! Where things are:
//!
//! * Documents: [`File`] holds [`Document`]s: [`PolicyDoc`], [`ModuleDoc`],
//!   [`KindDoc`].
//! * Policy and module statements: [`Stmt`] ([`Param`], [`Let`], [`When`],
//!   [`Assert`], [`CallStmt`]) and the imports [`Use`].
//! * Kind declarations: [`Decl`] and one struct per declaration.
//! * Types: [`Type`] / [`TypeKind`].
//! * Expressions: [`Expr`] / [`ExprKind`], with [`BinaryOp`] and [`UnaryOp`].
//! * `dump.rs`: the canonical parenthesized rendering of expressions
//!   (language-core §3.10, [`Expr::canonical`]) and a stable text dump of a
//!   whole file for goldens ([`dump_file`]).
//!
//! **Equality ignores spans**: two trees are `==` when they have the same
//! shape, names and literal spellings, wherever they sit in their sources, so
//! "formatting didn't change the program" is one comparison.
//!
//! **Depth.** The parser bounds nesting (language-core §3.8 rule 9), but
//! left-associative chains (`a or b or …`, `a + b + …`) and postfix chains
//! (`a.b.c…`, `f(x)(y)…`) are built in a loop and may be arbitrarily long.
//! INVARIANT: in a parsed tree, only the *spine* — the left operand of a
//! [`ExprKind::Binary`] and the target of a [`ExprKind::Field`],
//! [`ExprKind::Index`] or [`ExprKind::Call`] — may nest without bound; every
//! other child (right operands, prefix operands, elements, arguments,
//! indexes, quantifier parts, `when` bodies, type arguments) is at most
//! [`crate::parser::MAX_NESTING`] levels deep. Code that walks expressions
//! recursively must follow the spine with a loop, as `dump.rs` and the
//! equality and drop of [`Expr`] do; `Debug` output of a very long chain
//! recurses and is for tests only.

mod dump;

pub use dump::{dump_file, render_type};

use crate::source::Span;

/// Implements `PartialEq` for a struct, comparing the listed fields and
/// ignoring the others (spans). The destructuring makes the compiler reject
/// a field that is in neither list.
macro_rules! eq_ignoring {
    ($ty:ident { $($field:ident),* $(,)? } ignore { $($skip:ident),* $(,)? }) => {
        impl PartialEq for $ty {
            fn eq(&self, other: &Self) -> bool {
                let $ty { $($field,)* $($skip: _,)* } = self;
                true $(&& *$field == other.$field)*
            }
        }
    };
}

// ---- names and small pieces ------------------------------------------------

/// A name as written: an identifier, or a keyword where a field, payload or
/// argument name is expected (`resource.kind`, `type: string`).
#[derive(Clone, Debug)]
pub struct Ident {
    /// The name's text.
    pub name: String,
    /// Where it is.
    pub span: Span,
}

eq_ignoring!(Ident { name } ignore { span });

/// A dotted document name such as `payments.deploy`, as written after
/// `policy`, `module` and `use`. Never empty in a parsed tree.
#[derive(Clone, Debug)]
pub struct DottedName {
    /// The segments, in order.
    pub parts: Vec<Ident>,
}

eq_ignoring!(DottedName { parts } ignore {});

impl DottedName {
    /// The name as written, segments joined by `.`.
    pub fn text(&self) -> String {
        let parts: Vec<&str> = self.parts.iter().map(|p| p.name.as_str()).collect();
        parts.join(".")
    }

    /// From the first segment to the end of the last.
    pub fn span(&self) -> Span {
        match (self.parts.first(), self.parts.last()) {
            (Some(first), Some(last)) => first.span.to(last.span),
            _ => Span::default(),
        }
    }
}

/// An integer literal outside expressions: a kind pin (`@2`), a kind's
/// `version` or `accepts`.
#[derive(Clone, Debug)]
pub struct IntLit {
    /// The digits as written (leading zeros kept).
    pub text: String,
    /// Their value.
    pub value: i64,
    /// Where it is.
    pub span: Span,
}

eq_ignoring!(IntLit { text, value } ignore { span });

/// A double-quoted string literal outside expressions: an assert's reason.
#[derive(Clone, Debug)]
pub struct StringLit {
    /// The literal as written, quotes and escapes included.
    pub text: String,
    /// Its bytes after unescaping.
    pub value: Vec<u8>,
    /// Where it is.
    pub span: Span,
}

eq_ignoring!(StringLit { text, value } ignore { span });

// ---- files and documents -----------------------------------------------------

/// One parsed source file: its documents in source order. A file with syntax
/// errors still has every document and statement that parsed.
#[derive(Debug, PartialEq)]
pub struct File {
    /// The file name given to the parser (diagnostics carry it too).
    pub name: String,
    /// The documents, in source order.
    pub docs: Vec<Document>,
}

/// A document: what a header keyword starts.
#[derive(Debug, PartialEq)]
pub enum Document {
    /// `policy name: Kind@N …`
    Policy(PolicyDoc),
    /// `module name: Kind@N …`
    Module(ModuleDoc),
    /// `kind Name version N …`
    Kind(KindDoc),
}

impl Document {
    /// From the header keyword to the end of the last statement.
    pub fn span(&self) -> Span {
        match self {
            Document::Policy(d) => d.span,
            Document::Module(d) => d.span,
            Document::Kind(d) => d.span,
        }
    }
}

/// `policy name: Kind@N` followed by imports and statements. `use`
/// statements are in `uses`, never in `stmts`, even when one came late (the
/// parser reports that).
#[derive(Debug)]
pub struct PolicyDoc {
    /// The dotted name after `policy`.
    pub name: DottedName,
    /// The kind named after `:`.
    pub kind: Ident,
    /// The version after `@`; `None` when the header has none (the checker
    /// reports it).
    pub pin: Option<IntLit>,
    /// The imports, in source order.
    pub uses: Vec<Use>,
    /// Params, lets, rules, asserts and calls, in source order.
    pub stmts: Vec<Stmt>,
    /// From `policy` to the end of the last statement (or of the header).
    pub span: Span,
}

eq_ignoring!(PolicyDoc { name, kind, pin, uses, stmts } ignore { span });

/// `module name: Kind@N` followed by imports and lets. Statements a module
/// can't hold are reported and dropped by the parser.
#[derive(Debug)]
pub struct ModuleDoc {
    /// The dotted name after `module`.
    pub name: DottedName,
    /// The kind named after `:`.
    pub kind: Ident,
    /// The version after `@`, if written.
    pub pin: Option<IntLit>,
    /// The imports, in source order.
    pub uses: Vec<Use>,
    /// The lets, in source order.
    pub lets: Vec<Let>,
    /// From `module` to the end of the last statement (or of the header).
    pub span: Span,
}

eq_ignoring!(ModuleDoc { name, kind, pin, uses, lets } ignore { span });

/// `kind Name version N[, accepts: M]` followed by declarations.
#[derive(Debug)]
pub struct KindDoc {
    /// The kind's name.
    pub name: Ident,
    /// The number after `version`.
    pub version: IntLit,
    /// The number after `accepts:`, if written.
    pub accepts: Option<IntLit>,
    /// The declarations, in source order.
    pub decls: Vec<Decl>,
    /// From `kind` to the end of the last declaration (or of the header).
    pub span: Span,
}

eq_ignoring!(KindDoc { name, version, accepts, decls } ignore { span });

// ---- policy and module statements -----------------------------------------------

/// An import: `use a.b`, `use a.b as c` or `use a.b.{x, y as z}`.
#[derive(Debug)]
pub struct Use {
    /// The document named.
    pub path: DottedName,
    /// What the import binds.
    pub import: Import,
    /// From `use` to the end of the statement.
    pub span: Span,
}

eq_ignoring!(Use { path, import } ignore { span });

/// What a `use` binds.
#[derive(Debug, PartialEq)]
pub enum Import {
    /// `use a.b`: the last segment.
    Whole,
    /// `use a.b as c`: the alias.
    Alias(Ident),
    /// `use a.b.{x, y as z}`: each item (never empty in a parsed tree).
    Items(Vec<ImportItem>),
}

/// One name of a selective import, with its alias.
#[derive(Debug, PartialEq)]
pub struct ImportItem {
    /// The `pub let` imported.
    pub name: Ident,
    /// The name it is bound to, when `as` renames it.
    pub alias: Option<Ident>,
}

/// A statement of a policy, module or `when` body. Each variant is boxed, so
/// a statement is a pointer and its tag: a list of statements costs what its
/// statements hold, not the largest statement's size per entry (issue #20:
/// a policy of 140,000 lets held a list of 352-byte entries, grown by
/// doubling).
#[derive(Debug, PartialEq)]
pub enum Stmt {
    /// `param name: T [= default] [, min: lo] [, max: hi]`
    Param(Box<Param>),
    /// `[pub] let name = value`
    Let(Box<Let>),
    /// `when cond { body }`
    When(Box<When>),
    /// `assert("reason", cond)`
    Assert(Box<Assert>),
    /// A decision constructor or policy invocation: `name(args)`.
    Call(Box<CallStmt>),
}

impl Stmt {
    /// The statement's source range.
    pub fn span(&self) -> Span {
        match self {
            Stmt::Param(s) => s.span,
            Stmt::Let(s) => s.span,
            Stmt::When(s) => s.span,
            Stmt::Assert(s) => s.span,
            Stmt::Call(s) => s.span,
        }
    }
}

/// `param name: T` with an optional default and bounds. A bound given twice
/// is reported; the later one is kept.
#[derive(Debug)]
pub struct Param {
    /// The param's name.
    pub name: Ident,
    /// Its declared type.
    pub ty: Type,
    /// `= default`, if written.
    pub default: Option<Expr>,
    /// `, min: lo`, if written.
    pub min: Option<Expr>,
    /// `, max: hi`, if written.
    pub max: Option<Expr>,
    /// From `param` to the end of the last part.
    pub span: Span,
}

eq_ignoring!(Param { name, ty, default, min, max } ignore { span });

/// `let name = value`, or `pub let …`.
#[derive(Debug)]
pub struct Let {
    /// Written with `pub` (reported by the parser inside a `when` body, but
    /// kept).
    pub public: bool,
    /// The let's name.
    pub name: Ident,
    /// Its value.
    pub value: Expr,
    /// From `pub` or `let` to the end of the value.
    pub span: Span,
}

eq_ignoring!(Let { public, name, value } ignore { span });

/// `when cond { body }`.
#[derive(Debug)]
pub struct When {
    /// The condition; [`ExprKind::Error`] when it didn't parse but the body
    /// did.
    pub cond: Expr,
    /// The body's statements: `when`, `let`, `assert` and calls.
    pub body: Vec<Stmt>,
    /// From `when` to just after the closing `}`.
    pub span: Span,
}

eq_ignoring!(When { cond, body } ignore { span });

/// `assert("reason", cond)`.
#[derive(Debug)]
pub struct Assert {
    /// The reason, a double-quoted string literal.
    pub reason: StringLit,
    /// The condition.
    pub cond: Expr,
    /// From `assert` to just after `)`.
    pub span: Span,
}

eq_ignoring!(Assert { reason, cond } ignore { span });

/// `name(args)`: a decision constructor or a policy invocation (the checker
/// tells them apart by the name), also the body of a kind's `default` and
/// `conflict`.
#[derive(Debug)]
pub struct CallStmt {
    /// The decision or imported policy named.
    pub name: Ident,
    /// A positional first argument: the legacy reason form `deny(x)`, which
    /// parses so that the checker can reject it and the formatter rewrite it.
    pub positional: Option<Expr>,
    /// The named arguments, in source order.
    pub args: Vec<NamedArg>,
    /// From the name to just after `)`.
    pub span: Span,
}

eq_ignoring!(CallStmt { name, positional, args } ignore { span });

/// `name: value` in a call statement. The name may be spelled like a keyword.
#[derive(Debug, PartialEq)]
pub struct NamedArg {
    /// The argument's name.
    pub name: Ident,
    /// Its value.
    pub value: Expr,
}

// ---- kind declarations -------------------------------------------------------------

/// A declaration of a kind document.
#[derive(Debug, PartialEq)]
pub enum Decl {
    /// `enum Name: a | b`
    Enum(EnumDecl),
    /// `type Name { field: T … }`
    Type(TypeDecl),
    /// `input name: T`
    Input(InputDecl),
    /// `fn name(T, …) -> R`
    Fn(FnDecl),
    /// `decision name { reason: a | b  field: T = c }` (or the legacy form)
    Decision(DecisionDecl),
    /// `precedence a > b` or `precedence d: r1 > r2`
    Precedence(PrecedenceDecl),
    /// `exclusive a, b.r`
    Exclusive(ExclusiveDecl),
    /// `collect one` / `collect all`
    Collect(CollectDecl),
    /// `default d(reason: r, …)`
    Default(OutcomeDecl),
    /// `conflict d(reason: r, …)`
    Conflict(OutcomeDecl),
}

impl Decl {
    /// The declaration's source range.
    pub fn span(&self) -> Span {
        match self {
            Decl::Enum(d) => d.span,
            Decl::Type(d) => d.span,
            Decl::Input(d) => d.span,
            Decl::Fn(d) => d.span,
            Decl::Decision(d) => d.span,
            Decl::Precedence(d) => d.span,
            Decl::Exclusive(d) => d.span,
            Decl::Collect(d) => d.span,
            Decl::Default(d) | Decl::Conflict(d) => d.span,
        }
    }
}

/// `enum Name: a | b | c`.
#[derive(Debug)]
pub struct EnumDecl {
    /// The enum's name.
    pub name: Ident,
    /// Its values, in declaration order (at least one).
    pub values: Vec<Ident>,
    /// From `enum` to the end of the last value.
    pub span: Span,
}

eq_ignoring!(EnumDecl { name, values } ignore { span });

/// `type Name { field: T … }`.
#[derive(Debug)]
pub struct TypeDecl {
    /// The struct type's name.
    pub name: Ident,
    /// Its fields, in declaration order (no defaults).
    pub fields: Vec<Field>,
    /// From `type` to just after `}`.
    pub span: Span,
}

eq_ignoring!(TypeDecl { name, fields } ignore { span });

/// A typed name: a struct field or a decision payload field, with a default
/// for payload fields.
#[derive(Debug)]
pub struct Field {
    /// The field's name (may be spelled like a keyword).
    pub name: Ident,
    /// Its type.
    pub ty: Type,
    /// `= default` (decision payload fields only).
    pub default: Option<Expr>,
    /// From the name to the end of the type or default.
    pub span: Span,
}

eq_ignoring!(Field { name, ty, default } ignore { span });

/// `input name: T`.
#[derive(Debug)]
pub struct InputDecl {
    /// The input's name.
    pub name: Ident,
    /// Its type.
    pub ty: Type,
    /// From `input` to the end of the type.
    pub span: Span,
}

eq_ignoring!(InputDecl { name, ty } ignore { span });

/// `fn name(T, …) -> R`: a host function, parameters as types only.
#[derive(Debug)]
pub struct FnDecl {
    /// The function's name.
    pub name: Ident,
    /// The parameter types, in order.
    pub params: Vec<Type>,
    /// The result type.
    pub result: Type,
    /// From `fn` to the end of the result type.
    pub span: Span,
}

eq_ignoring!(FnDecl { name, params, result } ignore { span });

/// `decision name { reason: a | b  field: T = c }`, or the legacy
/// `decision name(field: T = c) { a b }` (`legacy`), which parses so that the
/// kind loader can reject it and the formatter rewrite it.
#[derive(Debug)]
pub struct DecisionDecl {
    /// The decision's name.
    pub name: Ident,
    /// The word `reason` of the `reason:` member; `None` in the legacy form.
    pub reason_label: Option<Ident>,
    /// The reasons, in declaration order.
    pub reasons: Vec<Ident>,
    /// The payload fields, in declaration order.
    pub fields: Vec<Field>,
    /// Written in the legacy syntax.
    pub legacy: bool,
    /// From `decision` to just after `}`.
    pub span: Span,
}

eq_ignoring!(DecisionDecl { name, reason_label, reasons, fields, legacy } ignore { span });

/// `precedence a > b > c`, or `precedence d: r1 > r2` for one decision's
/// reasons.
#[derive(Debug)]
pub struct PrecedenceDecl {
    /// The decision whose reasons are ranked; `None` for the decision ranking.
    pub scope: Option<Ident>,
    /// The ranked names, highest first (at least one).
    pub names: Vec<Ident>,
    /// From `precedence` to the end of the last name.
    pub span: Span,
}

eq_ignoring!(PrecedenceDecl { scope, names } ignore { span });

/// `exclusive a, b.r, …`.
#[derive(Debug)]
pub struct ExclusiveDecl {
    /// The outcomes, at least two.
    pub outcomes: Vec<OutcomeRef>,
    /// From `exclusive` to the end of the last outcome.
    pub span: Span,
}

eq_ignoring!(ExclusiveDecl { outcomes } ignore { span });

/// A decision, or one of its reasons: `grant_a` or `approve.lgtm`.
#[derive(Debug, PartialEq)]
pub struct OutcomeRef {
    /// The decision named.
    pub decision: Ident,
    /// The reason after `.`, if written.
    pub reason: Option<Ident>,
}

/// `collect one` or `collect all`.
#[derive(Debug)]
pub struct CollectDecl {
    /// `collect all`; `false` is `collect one`.
    pub all: bool,
    /// From `collect` to the end of `one`/`all`.
    pub span: Span,
}

eq_ignoring!(CollectDecl { all } ignore { span });

/// The constructor of a `default` or `conflict` declaration.
#[derive(Debug)]
pub struct OutcomeDecl {
    /// The constructor.
    pub call: CallStmt,
    /// From the keyword to just after `)`.
    pub span: Span,
}

eq_ignoring!(OutcomeDecl { call } ignore { span });

// ---- types ---------------------------------------------------------------------------

/// A type as written: a name, `?T`, `list<T>` or `map<K, V>`.
#[derive(Debug)]
pub struct Type {
    /// Which form.
    pub kind: TypeKind,
    /// From the first token to the last (`>` included).
    pub span: Span,
}

eq_ignoring!(Type { kind } ignore { span });

/// The forms of [`Type`].
#[derive(Debug, PartialEq)]
pub enum TypeKind {
    /// A built-in scalar, struct type or enum by name.
    Named(Ident),
    /// `?T`
    Optional(Box<Type>),
    /// `list<T>`
    List(Box<Type>),
    /// `map<K, V>`
    Map(Box<Type>, Box<Type>),
}

// ---- expressions ---------------------------------------------------------------------------

/// An expression node and its source range.
///
/// Equality ignores spans and dropping is iterative, so chains of any length
/// compare and drop without deep recursion (see the module doc on depth).
#[derive(Debug)]
pub struct Expr {
    /// Which form.
    pub kind: ExprKind,
    /// From the first token of the expression to the end of its last.
    pub span: Span,
}

/// The forms of [`Expr`].
#[derive(Debug)]
pub enum ExprKind {
    /// Stands for a `when` condition that didn't parse while its body did;
    /// renders as `<error>`. Never in a tree without parse errors.
    Error,
    /// A name (input, let, param, enum value, decision, variable, …).
    Ident(String),
    /// An integer literal.
    Int {
        /// The digits as written.
        text: String,
        /// Their value.
        value: i64,
    },
    /// A float literal.
    Float {
        /// The literal as written.
        text: String,
        /// Its value (finite).
        value: f64,
    },
    /// A duration literal.
    Duration {
        /// The literal as written (`1h30m`).
        text: String,
        /// Its value in nanoseconds.
        nanos: i64,
    },
    /// A double-quoted or raw string literal.
    String {
        /// The literal as written, delimiters and escapes included.
        text: String,
        /// Its bytes (unescaped; for a raw string the text between the
        /// backticks).
        value: Vec<u8>,
        /// Written in backticks.
        raw: bool,
    },
    /// `true` or `false`.
    Bool(bool),
    /// `outcome`.
    Outcome,
    /// `( e )`, kept so the formatter can keep the author's parentheses.
    Paren(Box<Expr>),
    /// `[a, b]`
    List(Vec<Expr>),
    /// `{k: v, …}`
    Map(Vec<MapEntry>),
    /// `-e`, `not e`, `present e`
    Unary {
        /// The operator.
        op: UnaryOp,
        /// The operator's token.
        op_span: Span,
        /// The operand.
        operand: Box<Expr>,
    },
    /// `l op r`
    Binary {
        /// The operator.
        op: BinaryOp,
        /// The operator's tokens (`not in` is two).
        op_span: Span,
        /// The left operand (the spine).
        lhs: Box<Expr>,
        /// The right operand.
        rhs: Box<Expr>,
    },
    /// `x.name` or `x?.name`
    Field {
        /// The value whose field is read.
        target: Box<Expr>,
        /// The field's name (may be spelled like a keyword).
        name: Ident,
        /// Written with `?.`.
        optional: bool,
    },
    /// `x[i]`
    Index {
        /// The list or map indexed.
        target: Box<Expr>,
        /// The index.
        index: Box<Expr>,
    },
    /// `f(a, b)`: positional arguments only.
    Call {
        /// What is called (the checker accepts only a host function's name).
        callee: Box<Expr>,
        /// The arguments.
        args: Vec<Expr>,
    },
    /// `any v in range: body` / `all v in range: body`
    Quantifier {
        /// `any` or `all`.
        quantifier: Quantifier,
        /// The variable.
        var: Ident,
        /// The list ranged over.
        range: Box<Expr>,
        /// The condition.
        body: Box<Expr>,
    },
    /// `filter v in range: body`
    Filter {
        /// The variable.
        var: Ident,
        /// The list filtered.
        range: Box<Expr>,
        /// The condition.
        body: Box<Expr>,
    },
}

/// One `key: value` of a map literal.
#[derive(Debug, PartialEq)]
pub struct MapEntry {
    /// The key, an expression at the `??` level.
    pub key: Expr,
    /// The value.
    pub value: Expr,
}

/// The quantifier of an [`ExprKind::Quantifier`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Quantifier {
    /// `any`
    Any,
    /// `all`
    All,
}

impl Quantifier {
    /// The keyword.
    pub const fn as_str(self) -> &'static str {
        match self {
            Quantifier::Any => "any",
            Quantifier::All => "all",
        }
    }
}

/// A prefix operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `not` (level 3)
    Not,
    /// unary `-` (level 7)
    Neg,
    /// `present` (level 7)
    Present,
}

impl UnaryOp {
    /// The operator as written.
    pub const fn as_str(self) -> &'static str {
        match self {
            UnaryOp::Not => "not",
            UnaryOp::Neg => "-",
            UnaryOp::Present => "present",
        }
    }
}

/// An infix operator, by precedence level (language-core §3.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// `or` (level 1, left)
    Or,
    /// `xor` (level 1, doesn't chain or mix with `or`)
    Xor,
    /// `and` (level 2, left)
    And,
    /// `==` (level 4, comparisons don't chain)
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
    /// `in`
    In,
    /// `not in`
    NotIn,
    /// `all in`
    AllIn,
    /// `any in`
    AnyIn,
    /// `one in`
    OneIn,
    /// `exclusive in`
    ExclusiveIn,
    /// `has`
    Has,
    /// `like`
    Like,
    /// `matches`
    Matches,
    /// `??` (level 5, right)
    Coalesce,
    /// `+` (level 6, left)
    Add,
    /// binary `-` (level 6, left)
    Sub,
}

impl BinaryOp {
    /// The operator as written, words separated by one space (`not in`).
    pub const fn as_str(self) -> &'static str {
        match self {
            BinaryOp::Or => "or",
            BinaryOp::Xor => "xor",
            BinaryOp::And => "and",
            BinaryOp::Eq => "==",
            BinaryOp::NotEq => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::LtEq => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::GtEq => ">=",
            BinaryOp::In => "in",
            BinaryOp::NotIn => "not in",
            BinaryOp::AllIn => "all in",
            BinaryOp::AnyIn => "any in",
            BinaryOp::OneIn => "one in",
            BinaryOp::ExclusiveIn => "exclusive in",
            BinaryOp::Has => "has",
            BinaryOp::Like => "like",
            BinaryOp::Matches => "matches",
            BinaryOp::Coalesce => "??",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
        }
    }

    /// The precedence level of language-core §3.7: 1 (`or`, `xor`) to 6
    /// (`+`, `-`).
    pub const fn level(self) -> u8 {
        match self {
            BinaryOp::Or | BinaryOp::Xor => 1,
            BinaryOp::And => 2,
            BinaryOp::Coalesce => 5,
            BinaryOp::Add | BinaryOp::Sub => 6,
            _ => 4,
        }
    }

    /// Whether the operator is one of the non-associative level-4 operators.
    pub const fn is_comparison(self) -> bool {
        self.level() == 4
    }

    /// Every operator, lowest level first (for tables and tests).
    pub const ALL: &'static [BinaryOp] = &[
        BinaryOp::Or,
        BinaryOp::Xor,
        BinaryOp::And,
        BinaryOp::Eq,
        BinaryOp::NotEq,
        BinaryOp::Lt,
        BinaryOp::LtEq,
        BinaryOp::Gt,
        BinaryOp::GtEq,
        BinaryOp::In,
        BinaryOp::NotIn,
        BinaryOp::AllIn,
        BinaryOp::AnyIn,
        BinaryOp::OneIn,
        BinaryOp::ExclusiveIn,
        BinaryOp::Has,
        BinaryOp::Like,
        BinaryOp::Matches,
        BinaryOp::Coalesce,
        BinaryOp::Add,
        BinaryOp::Sub,
    ];
}

impl Expr {
    /// A node of kind `kind` at `span`.
    pub fn new(kind: ExprKind, span: Span) -> Self {
        Expr { kind, span }
    }

    /// The direct children in source order (map entries as key, value).
    pub fn children(&self) -> Vec<&Expr> {
        let mut out = Vec::new();
        match &self.kind {
            ExprKind::Error
            | ExprKind::Ident(_)
            | ExprKind::Int { .. }
            | ExprKind::Float { .. }
            | ExprKind::Duration { .. }
            | ExprKind::String { .. }
            | ExprKind::Bool(_)
            | ExprKind::Outcome => {}
            ExprKind::Paren(x) => out.push(&**x),
            ExprKind::List(xs) => out.extend(xs.iter()),
            ExprKind::Map(entries) => {
                for e in entries {
                    out.push(&e.key);
                    out.push(&e.value);
                }
            }
            ExprKind::Unary { operand, .. } => out.push(&**operand),
            ExprKind::Binary { lhs, rhs, .. } => {
                out.push(&**lhs);
                out.push(&**rhs);
            }
            ExprKind::Field { target, .. } => out.push(&**target),
            ExprKind::Index { target, index } => {
                out.push(&**target);
                out.push(&**index);
            }
            ExprKind::Call { callee, args } => {
                out.push(&**callee);
                out.extend(args.iter());
            }
            ExprKind::Quantifier { range, body, .. } | ExprKind::Filter { range, body, .. } => {
                out.push(&**range);
                out.push(&**body);
            }
        }
        out
    }

    /// The expression inside any number of parentheses (itself when it
    /// isn't parenthesized).
    pub fn unparen(&self) -> &Expr {
        let mut e = self;
        while let ExprKind::Paren(inner) = &e.kind {
            e = inner;
        }
        e
    }

    /// The next node down the spine (see the module doc): the left operand of
    /// a binary operator, the target of a field access, index or call.
    pub fn spine_child(&self) -> Option<&Expr> {
        match &self.kind {
            ExprKind::Binary { lhs, .. } => Some(lhs),
            ExprKind::Field { target, .. } | ExprKind::Index { target, .. } => Some(target),
            ExprKind::Call { callee, .. } => Some(callee),
            _ => None,
        }
    }
}

/// Whether `a` and `b` agree in everything but their children and spans.
pub(crate) fn same_node(a: &ExprKind, b: &ExprKind) -> bool {
    use ExprKind as K;
    match (a, b) {
        (K::Error, K::Error) | (K::Outcome, K::Outcome) => true,
        (K::Ident(a), K::Ident(b)) => a == b,
        (K::Int { text: a, .. }, K::Int { text: b, .. })
        | (K::Float { text: a, .. }, K::Float { text: b, .. })
        | (K::Duration { text: a, .. }, K::Duration { text: b, .. })
        | (K::String { text: a, .. }, K::String { text: b, .. }) => a == b,
        (K::Bool(a), K::Bool(b)) => a == b,
        (K::Paren(_), K::Paren(_)) => true,
        (K::List(a), K::List(b)) => a.len() == b.len(),
        (K::Map(a), K::Map(b)) => a.len() == b.len(),
        (K::Unary { op: a, .. }, K::Unary { op: b, .. }) => a == b,
        (K::Binary { op: a, .. }, K::Binary { op: b, .. }) => a == b,
        (
            K::Field {
                name: na,
                optional: oa,
                ..
            },
            K::Field {
                name: nb,
                optional: ob,
                ..
            },
        ) => na == nb && oa == ob,
        (K::Index { .. }, K::Index { .. }) => true,
        (K::Call { args: a, .. }, K::Call { args: b, .. }) => a.len() == b.len(),
        (
            K::Quantifier {
                quantifier: qa,
                var: va,
                ..
            },
            K::Quantifier {
                quantifier: qb,
                var: vb,
                ..
            },
        ) => qa == qb && va == vb,
        (K::Filter { var: a, .. }, K::Filter { var: b, .. }) => a == b,
        _ => false,
    }
}

impl PartialEq for Expr {
    /// Same shape, names and literal spellings; spans ignored. Iterative, so
    /// chains of any length compare without deep recursion.
    fn eq(&self, other: &Self) -> bool {
        let mut pending = vec![(self, other)];
        while let Some((a, b)) = pending.pop() {
            if !same_node(&a.kind, &b.kind) {
                return false;
            }
            let (ca, cb) = (a.children(), b.children());
            if ca.len() != cb.len() {
                return false;
            }
            pending.extend(ca.into_iter().zip(cb));
        }
        true
    }
}

impl Drop for Expr {
    /// Takes the children apart along the spine with a loop and elsewhere
    /// by shallow recursion, so a tree of any shape drops without
    /// exhausting the stack (see [`dismantle`]).
    fn drop(&mut self) {
        if has_children(&self.kind) {
            dismantle(std::mem::replace(&mut self.kind, ExprKind::Error));
        }
    }
}

/// How many levels off the spine [`strip`] recurses before it leaves the
/// nodes below to a worklist. A parsed tree is at most
/// [`crate::parser::MAX_NESTING`] levels deep there, so this is mostly
/// recursion, which needs no allocation; the worklist serves trees that
/// are deep in other ways (hand-built ones) and keeps the stack shallow.
const DROP_RECURSION: usize = 32;

/// Drops `kind` and everything under it.
fn dismantle(kind: ExprKind) {
    let mut deeper = Vec::new();
    strip(kind, 0, &mut deeper);
    while let Some(kind) = deeper.pop() {
        strip(kind, 0, &mut deeper);
    }
}

/// Drops `kind` at `depth` levels below where dropping began: each child
/// is emptied of its own children first (recursively, or through `deeper`
/// past [`DROP_RECURSION`]), so that dropping the node itself is shallow;
/// the spine child's kind is taken out and is the next node of the loop.
fn strip(mut kind: ExprKind, depth: usize, deeper: &mut Vec<ExprKind>) {
    loop {
        let spine = match &mut kind {
            ExprKind::Paren(x) | ExprKind::Unary { operand: x, .. } => {
                empty(x, depth, deeper);
                None
            }
            ExprKind::List(xs) => {
                for x in xs {
                    empty(x, depth, deeper);
                }
                None
            }
            ExprKind::Map(entries) => {
                for e in entries {
                    empty(&mut e.key, depth, deeper);
                    empty(&mut e.value, depth, deeper);
                }
                None
            }
            ExprKind::Quantifier { range, body, .. } | ExprKind::Filter { range, body, .. } => {
                empty(range, depth, deeper);
                empty(body, depth, deeper);
                None
            }
            ExprKind::Binary { lhs, rhs, .. } => {
                empty(rhs, depth, deeper);
                take_children(lhs)
            }
            ExprKind::Index { target, index } => {
                empty(index, depth, deeper);
                take_children(target)
            }
            ExprKind::Call { callee, args } => {
                for x in args {
                    empty(x, depth, deeper);
                }
                take_children(callee)
            }
            ExprKind::Field { target, .. } => take_children(target),
            _ => None,
        };
        // Every child left in `kind` is childless now: it drops shallowly.
        drop(kind);
        match spine {
            Some(next) => kind = next,
            None => return,
        }
    }
}

/// Leaves `e` without children, dropping them at `depth + 1`.
fn empty(e: &mut Expr, depth: usize, deeper: &mut Vec<ExprKind>) {
    if let Some(kind) = take_children(e) {
        if depth < DROP_RECURSION {
            strip(kind, depth + 1, deeper);
        } else {
            deeper.push(kind);
        }
    }
}

/// The kind of `e` when it has children, leaving `e` a childless
/// [`ExprKind::Error`].
fn take_children(e: &mut Expr) -> Option<ExprKind> {
    has_children(&e.kind).then(|| std::mem::replace(&mut e.kind, ExprKind::Error))
}

/// Whether a node of this kind holds child expressions.
fn has_children(kind: &ExprKind) -> bool {
    !matches!(
        kind,
        ExprKind::Error
            | ExprKind::Ident(_)
            | ExprKind::Int { .. }
            | ExprKind::Float { .. }
            | ExprKind::Duration { .. }
            | ExprKind::String { .. }
            | ExprKind::Bool(_)
            | ExprKind::Outcome
    )
}

#[cfg(test)]
mod tests;

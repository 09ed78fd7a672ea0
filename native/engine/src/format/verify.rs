//! The formatter's proof (style §1, "the formatter proves itself"): the
//! output reparses, to the same program as the input, with the same
//! comments: the same texts as often (their order may change where a
//! decision's members move with their comments), trailing spaces aside.
//!
//! "The same program" is tree equality with spans ignored, allowing only
//! the formatter's own rewrites (tooling §4.5–§4.6), on both sides alike:
//!
//! * a quantifier or filter body `( x )` where `x` is an `and`/`or`/`xor`
//!   is the same as `x`;
//! * the target `(n)` of a `.field` where `n` is an integer literal is the
//!   same as `n`;
//! * a call statement's positional first argument is the same as a first
//!   named argument `reason:`;
//! * a legacy decision is the same as one in the current syntax with the
//!   same name, reasons and fields.
//!
//! The input's tree isn't kept for the comparison: its [`Program`], a
//! 128-bit fingerprint of everything the comparison looks at, is taken
//! before the tree is dropped, and the output's tree is fingerprinted the
//! same way, so the two trees are never alive at once (issue #20: a
//! 4 MB source is a tree of tens of MB). The fingerprint feeds every
//! node's variant, names, literal texts and values and every list's length
//! in a fixed walk order, so two programs share one only by a collision of
//! two 64-bit SipHashes. The comments are fingerprinted too ([`Comments`]),
//! rather than listed twice (a source of 800,000 comments held three lists
//! of them).
//!
//! Expressions are walked with a worklist, so chains of any length take no
//! stack; statements and declarations recurse only as deep as `when`
//! blocks nest, which the parser bounds.

use std::hash::{DefaultHasher, Hash, Hasher};

use super::FormatError;
use crate::ast::{
    BinaryOp, CallStmt, DecisionDecl, Decl, Document, DottedName, Expr, ExprKind, Field, File,
    Ident, Import, IntLit, Stmt, Type, TypeKind, Use,
};
use crate::lexer::{CompactToken, TokenKind, lex};
use crate::parser::{Literals, parse_lexed};
use crate::source::LineIndex;

/// What the proof compares of a tree: two 64-bit hashes of its program
/// (spans ignored, the formatter's rewrites undone), see the module doc.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Program(u64, u64);

impl Program {
    /// The fingerprint of `file`'s program.
    pub(super) fn of(file: &File) -> Program {
        let mut walk = Walk {
            // Two SipHashes, the second started from another state.
            hashers: (DefaultHasher::new(), DefaultHasher::new()),
            pending: Vec::new(),
        };
        walk.hashers.1.write_u64(0x9e37_79b9_7f4a_7c15);
        walk.all(&file.docs, Walk::doc);
        Program(walk.hashers.0.finish(), walk.hashers.1.finish())
    }
}

/// What the proof compares of a source's comments: their texts, trimmed,
/// as a multiset (their order may change), fingerprinted as the sums of
/// two 64-bit hashes of each, so no list of them is kept.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Comments(u64, u64);

impl Comments {
    /// The fingerprint of the comments `texts`.
    pub(super) fn of<'c>(texts: impl IntoIterator<Item = &'c str>) -> Comments {
        texts.into_iter().fold(Comments::default(), |sum, text| {
            let text = trim(text);
            let mut first = DefaultHasher::new();
            let mut second = DefaultHasher::new();
            second.write_u64(0x9e37_79b9_7f4a_7c15);
            text.hash(&mut first);
            text.hash(&mut second);
            Comments(
                sum.0.wrapping_add(first.finish()),
                sum.1.wrapping_add(second.finish()),
            )
        })
    }
}

/// Checks that `out`, the formatting of `file`, is the same program with
/// the same comments: `comments` are the texts of the source's.
#[cfg(test)]
pub(super) fn same_program(file: &File, comments: &[&str], out: &str) -> Result<(), FormatError> {
    let comments = Comments::of(comments.iter().copied());
    proven(&file.name, Program::of(file), comments, out)
}

/// Checks that `out`, the formatting of a file called `name` whose program
/// was `program` and whose comments were `comments`, is the same program
/// with the same comments.
pub(super) fn proven(
    name: &str,
    program: Program,
    comments: Comments,
    out: &str,
) -> Result<(), FormatError> {
    // One lex of the output serves the comments and the reparse.
    let lexed = lex(out);
    let after = Comments::of(comments_in(out, &lexed.0));
    let (again, diagnostics) = parse_lexed(name, out, lexed, Literals::TextOnly);
    if let Some(d) = diagnostics.first() {
        let at = d
            .span
            .map(|s| format!("{}: ", LineIndex::new(out).position(s.start)))
            .unwrap_or_default();
        return Err(FormatError::OutputDoesntParse(format!("{at}{}", d.message)));
    }
    if Program::of(&again) != program {
        return Err(FormatError::ProgramChanged);
    }
    if after != comments {
        return Err(FormatError::CommentsChanged);
    }
    Ok(())
}

/// The texts of the comments among `tokens`, what the lexer made of `src`.
fn comments_in<'src>(
    src: &'src str,
    tokens: &'src [CompactToken],
) -> impl Iterator<Item = &'src str> {
    tokens
        .iter()
        .filter(|t| t.kind == TokenKind::Comment)
        .map(|t| t.text(src))
}

/// A comment without its trailing spaces, which it loses on a line of its
/// own.
fn trim(comment: &str) -> &str {
    comment.trim_end_matches(' ')
}

/// The walk that fingerprints a tree. Its worklist serves every expression
/// of the tree in turn, so it is allocated once.
struct Walk<'t> {
    hashers: (DefaultHasher, DefaultHasher),
    pending: Vec<&'t Expr>,
}

/// Feeds both hashers: the walk's bytes go to each.
impl Hasher for Walk<'_> {
    fn finish(&self) -> u64 {
        self.hashers.0.finish()
    }

    fn write(&mut self, bytes: &[u8]) {
        self.hashers.0.write(bytes);
        self.hashers.1.write(bytes);
    }
}

/// The arguments of a call as (name, value), a positional reason named
/// `reason`.
fn args(c: &CallStmt) -> impl Iterator<Item = (&str, &Expr)> {
    let positional = c.positional.iter().map(|p| ("reason", p));
    positional.chain(c.args.iter().map(|a| (a.name.name.as_str(), &a.value)))
}

impl<'t> Walk<'t> {
    /// A variant's number, so that the same fields under two variants
    /// differ.
    fn tag(&mut self, tag: u8) {
        self.write_u8(tag);
    }

    /// The length of `items`, then each by `each`.
    fn all<T>(&mut self, items: &'t [T], mut each: impl FnMut(&mut Self, &'t T)) {
        self.write_usize(items.len());
        for item in items {
            each(self, item);
        }
    }

    /// Whether the option holds something, then it by `each`.
    fn opt<T>(&mut self, item: Option<&'t T>, each: impl FnOnce(&mut Self, &'t T)) {
        self.write_u8(u8::from(item.is_some()));
        if let Some(item) = item {
            each(self, item);
        }
    }

    fn ident(&mut self, ident: &Ident) {
        ident.name.hash(self);
    }

    fn dotted(&mut self, name: &'t DottedName) {
        self.all(&name.parts, |w, p| w.ident(p));
    }

    fn int(&mut self, int: &IntLit) {
        int.text.hash(self);
        int.value.hash(self);
    }

    /// The name of a document's kind and its pin.
    fn header(&mut self, name: &'t DottedName, kind: &Ident, pin: Option<&'t IntLit>) {
        self.dotted(name);
        self.ident(kind);
        self.opt(pin, |w, p| w.int(p));
    }

    fn doc(&mut self, doc: &'t Document) {
        match doc {
            Document::Policy(d) => {
                self.tag(0);
                self.header(&d.name, &d.kind, d.pin.as_ref());
                self.all(&d.uses, Walk::import);
                self.all(&d.stmts, Walk::stmt);
            }
            Document::Module(d) => {
                self.tag(1);
                self.header(&d.name, &d.kind, d.pin.as_ref());
                self.all(&d.uses, Walk::import);
                self.all(&d.lets, |w, l| {
                    l.public.hash(w);
                    w.ident(&l.name);
                    w.expr(&l.value);
                });
            }
            Document::Kind(d) => {
                self.tag(2);
                self.ident(&d.name);
                self.int(&d.version);
                self.opt(d.accepts.as_ref(), |w, a| w.int(a));
                self.all(&d.decls, Walk::decl);
            }
        }
    }

    fn import(&mut self, u: &'t Use) {
        self.dotted(&u.path);
        match &u.import {
            Import::Whole => self.tag(0),
            Import::Alias(alias) => {
                self.tag(1);
                self.ident(alias);
            }
            Import::Items(items) => {
                self.tag(2);
                self.all(items, |w, item| {
                    w.ident(&item.name);
                    w.opt(item.alias.as_ref(), |w, a| w.ident(a));
                });
            }
        }
    }

    fn stmt(&mut self, stmt: &'t Stmt) {
        match stmt {
            Stmt::Param(p) => {
                self.tag(0);
                self.ident(&p.name);
                self.ty(&p.ty);
                for bound in [&p.default, &p.min, &p.max] {
                    self.opt(bound.as_ref(), Walk::expr);
                }
            }
            Stmt::Let(l) => {
                self.tag(1);
                l.public.hash(self);
                self.ident(&l.name);
                self.expr(&l.value);
            }
            Stmt::When(w) => {
                self.tag(2);
                self.expr(&w.cond);
                self.all(&w.body, Walk::stmt);
            }
            Stmt::Assert(a) => {
                self.tag(3);
                a.reason.text.hash(self);
                a.reason.value.hash(self);
                self.expr(&a.cond);
            }
            Stmt::Call(c) => {
                self.tag(4);
                self.call(c);
            }
        }
    }

    fn call(&mut self, c: &'t CallStmt) {
        self.ident(&c.name);
        self.write_usize(args(c).count());
        for (name, value) in args(c) {
            name.hash(self);
            self.expr(value);
        }
    }

    fn decl(&mut self, decl: &'t Decl) {
        match decl {
            Decl::Enum(d) => {
                self.tag(0);
                self.ident(&d.name);
                self.all(&d.values, |w, v| w.ident(v));
            }
            Decl::Type(d) => {
                self.tag(1);
                self.ident(&d.name);
                self.all(&d.fields, Walk::field);
            }
            Decl::Input(d) => {
                self.tag(2);
                self.ident(&d.name);
                self.ty(&d.ty);
            }
            Decl::Fn(d) => {
                self.tag(3);
                self.ident(&d.name);
                self.all(&d.params, |w, t| w.ty(t));
                self.ty(&d.result);
            }
            Decl::Decision(d) => {
                self.tag(4);
                self.decision(d);
            }
            Decl::Precedence(d) => {
                self.tag(5);
                self.opt(d.scope.as_ref(), |w, s| w.ident(s));
                self.all(&d.names, |w, n| w.ident(n));
            }
            Decl::Exclusive(d) => {
                self.tag(6);
                self.all(&d.outcomes, |w, o| {
                    w.ident(&o.decision);
                    w.opt(o.reason.as_ref(), |w, r| w.ident(r));
                });
            }
            Decl::Collect(d) => {
                self.tag(7);
                d.all.hash(self);
            }
            Decl::Default(d) => {
                self.tag(8);
                self.call(&d.call);
            }
            Decl::Conflict(d) => {
                self.tag(9);
                self.call(&d.call);
            }
        }
    }

    /// Name, reasons and fields; the syntax it was written in doesn't count.
    fn decision(&mut self, d: &'t DecisionDecl) {
        self.ident(&d.name);
        self.all(&d.reasons, |w, r| w.ident(r));
        self.all(&d.fields, Walk::field);
    }

    fn field(&mut self, f: &'t Field) {
        self.ident(&f.name);
        self.ty(&f.ty);
        self.opt(f.default.as_ref(), Walk::expr);
    }

    /// A type; types nest only as deep as the parser allows.
    fn ty(&mut self, ty: &Type) {
        match &ty.kind {
            TypeKind::Named(name) => {
                self.tag(0);
                self.ident(name);
            }
            TypeKind::Optional(inner) => {
                self.tag(1);
                self.ty(inner);
            }
            TypeKind::List(inner) => {
                self.tag(2);
                self.ty(inner);
            }
            TypeKind::Map(key, value) => {
                self.tag(3);
                self.ty(key);
                self.ty(value);
            }
        }
    }

    /// An expression, spans ignored, with the two rewrites of the module
    /// doc undone: each node's own content, then its children. A worklist,
    /// not recursion, and no allocation per node.
    fn expr(&mut self, e: &'t Expr) {
        use ExprKind as K;
        self.pending.clear();
        self.pending.push(e);
        while let Some(e) = self.pending.pop() {
            self.node(&e.kind);
            match &e.kind {
                K::Paren(x) | K::Unary { operand: x, .. } => self.pending.push(x),
                K::List(xs) => self.pending.extend(xs.iter()),
                K::Map(entries) => {
                    for entry in entries {
                        self.pending.push(&entry.key);
                        self.pending.push(&entry.value);
                    }
                }
                K::Binary { lhs, rhs, .. } => {
                    self.pending.push(lhs);
                    self.pending.push(rhs);
                }
                K::Index { target, index } => {
                    self.pending.push(target);
                    self.pending.push(index);
                }
                K::Field {
                    target, optional, ..
                } => self.pending.push(match optional {
                    true => target,
                    false => unparen_int(target),
                }),
                K::Call { callee, args } => {
                    self.pending.push(callee);
                    self.pending.extend(args.iter());
                }
                K::Quantifier { range, body, .. } | K::Filter { range, body, .. } => {
                    self.pending.push(range);
                    self.pending.push(unparen_chain(body));
                }
                _ => {}
            }
        }
    }

    /// What a node is besides its children and span: its variant, names,
    /// literal texts and operators, and how many elements it has.
    fn node(&mut self, kind: &ExprKind) {
        use ExprKind as K;
        match kind {
            K::Error => self.tag(0),
            K::Outcome => self.tag(1),
            K::Ident(name) => {
                self.tag(2);
                name.hash(self);
            }
            K::Int { text, .. } => {
                self.tag(3);
                text.hash(self);
            }
            K::Float { text, .. } => {
                self.tag(4);
                text.hash(self);
            }
            K::Duration { text, .. } => {
                self.tag(5);
                text.hash(self);
            }
            K::String { text, .. } => {
                self.tag(6);
                text.hash(self);
            }
            K::Bool(b) => {
                self.tag(7);
                b.hash(self);
            }
            K::Paren(_) => self.tag(8),
            K::List(xs) => {
                self.tag(9);
                self.write_usize(xs.len());
            }
            K::Map(entries) => {
                self.tag(10);
                self.write_usize(entries.len());
            }
            K::Unary { op, .. } => {
                self.tag(11);
                op.hash(self);
            }
            K::Binary { op, .. } => {
                self.tag(12);
                op.hash(self);
            }
            K::Field { name, optional, .. } => {
                self.tag(13);
                self.ident(name);
                optional.hash(self);
            }
            K::Index { .. } => self.tag(14),
            K::Call { args, .. } => {
                self.tag(15);
                self.write_usize(args.len());
            }
            K::Quantifier {
                quantifier, var, ..
            } => {
                self.tag(16);
                quantifier.hash(self);
                self.ident(var);
            }
            K::Filter { var, .. } => {
                self.tag(17);
                self.ident(var);
            }
        }
    }
}

/// `(x)` as `x` when `x` is an `and`/`or`/`xor`: a quantifier's body.
fn unparen_chain(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Paren(inner)
            if matches!(
                inner.kind,
                ExprKind::Binary {
                    op: BinaryOp::And | BinaryOp::Or | BinaryOp::Xor,
                    ..
                }
            ) =>
        {
            inner
        }
        _ => e,
    }
}

/// `(n)` as `n` when `n` is an integer literal: a field's target.
fn unparen_int(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Paren(inner) if matches!(inner.kind, ExprKind::Int { .. }) => inner,
        _ => e,
    }
}

//! The walk over files, documents, statements, declarations and types
//! (tooling §4.2–§4.4), printing into the [`Printer`]'s lines.
//!
//! Layout decisions compare *source* lines: the printer remembers `last`,
//! the source line of the last token or comment printed, and asks where
//! the next item starts (a [`Pos`]).

use super::output::Printer;
use super::scan::{Comment, Pos, Scanned};
use crate::ast::{
    CallStmt, DecisionDecl, Decl, Document, Expr, Field, File, Ident, Import, KindDoc, Let,
    ModuleDoc, PolicyDoc, Stmt, Type, TypeKind, Use, When,
};
use crate::source::Span;

/// Prints `file`, parsed from `src`, in the canonical style; `scanned` is
/// what `scan::scan` found in `src`.
pub(super) fn print(file: &File, src: &str, scanned: Scanned<'_>) -> String {
    let Scanned {
        line_starts,
        comments,
        separators,
    } = scanned;
    let mut p = Printer::new(src.len(), line_starts, comments);
    p.file(file, &separators, src.len());
    p.render()
}

impl<'src> Printer<'src> {
    // ---- files and documents ---------------------------------------------------------

    /// Every document, a `---` line between each pair, then the comments
    /// after the last one, set apart by a blank line (§4.3).
    fn file(&mut self, file: &File, separators: &[Pos], size: usize) {
        let mut before: Option<&Document> = None;
        for doc in &file.docs {
            if let Some(before) = before {
                self.separator(before.span(), doc.span(), separators);
            }
            self.open(self.start(doc.span()), 0, 0, false, true);
            match doc {
                Document::Policy(d) => self.policy(d),
                Document::Module(d) => self.module(d),
                Document::Kind(d) => self.kind(d),
            }
            before = Some(doc);
        }
        // Past everything: the comments left are the file's last ones.
        let end = Pos {
            offset: size + 1,
            line: 0,
        };
        self.trail(end);
        self.blank();
        self.flush(end, 0, false, true);
    }

    /// Ends the document before and prints `---` with a blank line on each
    /// side. Comments above the source's (last) separator between the two
    /// documents stay with the one before; those below go with the next.
    fn separator(&mut self, before: Span, next: Span, separators: &[Pos]) {
        let between = separators
            .iter()
            .rev()
            .find(|s| s.offset > before.end && s.offset < next.start);
        if let Some(&s) = between {
            self.flush(s, 0, true, true);
            self.last = s.line;
        }
        self.blank();
        self.push(0);
        self.write("---");
        self.blank();
    }

    fn policy(&mut self, d: &PolicyDoc) {
        self.header("policy", &d.name.text(), &d.kind, d.pin.as_ref());
        let items = d
            .uses
            .iter()
            .map(Item::Use)
            .chain(d.stmts.iter().map(Item::Stmt));
        self.items(items);
    }

    fn module(&mut self, d: &ModuleDoc) {
        self.header("module", &d.name.text(), &d.kind, d.pin.as_ref());
        let items = d
            .uses
            .iter()
            .map(Item::Use)
            .chain(d.lets.iter().map(Item::Let));
        self.items(items);
    }

    fn kind(&mut self, d: &KindDoc) {
        self.write("kind ");
        self.write(&d.name.name);
        self.write(" version ");
        self.write(&d.version.text);
        self.last = self.end_line(d.version.span);
        if let Some(accepts) = &d.accepts {
            self.write(", accepts: ");
            self.write(&accepts.text);
            self.last = self.end_line(accepts.span);
        }
        self.items(d.decls.iter().map(Item::Decl));
    }

    /// `policy name: Kind@N` or its module counterpart.
    fn header(
        &mut self,
        keyword: &str,
        name: &str,
        kind: &Ident,
        pin: Option<&crate::ast::IntLit>,
    ) {
        self.write(keyword);
        self.write(" ");
        self.write(name);
        self.write(": ");
        self.write(&kind.name);
        self.last = self.end_line(kind.span);
        if let Some(pin) = pin {
            self.write("@");
            self.write(&pin.text);
            self.last = self.end_line(pin.span);
        }
    }

    /// The top-level items of a document, grouped (§4.3): a blank line
    /// after the header and between groups, and around every item that
    /// stands alone; the author's single blank line kept inside a group,
    /// except between `default` and `conflict`.
    fn items<'a>(&mut self, items: impl Iterator<Item = Item<'a>>) {
        let mut prev = Group::Header;
        for item in items {
            let group = item.group();
            let at = self.start(item.span());
            if group != prev || group == Group::Alone {
                self.section(at, 0);
            } else if group == Group::Outcome {
                self.open(at, 0, 0, true, false);
            } else {
                self.open(at, 0, 0, true, true);
            }
            prev = group;
            match item {
                Item::Use(u) => self.use_stmt(u),
                Item::Stmt(s) => self.stmt(s, 0),
                Item::Let(l) => {
                    self.let_stmt(l, 0);
                    self.last = self.end_line(l.span);
                }
                Item::Decl(d) => self.decl(d),
            }
        }
    }

    /// `use a.b`, `use a.b as c` or `use a.b.{x, y as z}`.
    fn use_stmt(&mut self, u: &Use) {
        self.write("use ");
        self.write(&u.path.text());
        match &u.import {
            Import::Whole => {}
            Import::Alias(alias) => {
                self.write(" as ");
                self.write(&alias.name);
            }
            Import::Items(items) => {
                self.write(".{");
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.write(", ");
                    }
                    self.write(&item.name.name);
                    if let Some(alias) = &item.alias {
                        self.write(" as ");
                        self.write(&alias.name);
                    }
                }
                self.write("}");
            }
        }
        self.last = self.end_line(u.span);
    }

    // ---- statements -----------------------------------------------------------------------

    /// A statement at `indent`, which its first line already has; lines an
    /// expression in it breaks onto are one level deeper.
    ///
    /// Its first token counts as printed, as after `open`: the body of a
    /// one-line `when` has no line of its own.
    pub(super) fn stmt(&mut self, s: &Stmt, indent: usize) {
        self.last = self.line(s.span().start);
        match s {
            Stmt::Param(p) => {
                self.write("param ");
                self.write(&p.name.name);
                self.write(": ");
                self.ty(&p.ty);
                if let Some(default) = &p.default {
                    self.write(" = ");
                    self.expr(default, indent + 1);
                }
                // min before max, whichever the author wrote first.
                if let Some(min) = &p.min {
                    self.write(", min: ");
                    self.expr(min, indent + 1);
                }
                if let Some(max) = &p.max {
                    self.write(", max: ");
                    self.expr(max, indent + 1);
                }
            }
            Stmt::Let(l) => self.let_stmt(l, indent),
            Stmt::When(w) => self.when(w, indent),
            Stmt::Assert(a) => {
                self.write("assert(");
                self.write(&a.reason.text);
                self.write(",");
                self.value_after(a.reason.span, &a.cond, indent + 1);
                self.write(")");
            }
            Stmt::Call(c) => self.call(c, indent),
        }
        self.last = self.end_line(s.span());
    }

    /// `[pub ]let name = value`, the value on the next line when the
    /// author put it there.
    fn let_stmt(&mut self, l: &Let, indent: usize) {
        if l.public {
            self.write("pub ");
        }
        self.write("let ");
        self.write(&l.name.name);
        self.write(" =");
        self.value_after(l.name.span, &l.value, indent + 1);
    }

    /// `value` after what ends at `anchor` (a let's name, an assert's
    /// reason): on the next line at `indent` when the author put it there,
    /// else after one space.
    fn value_after(&mut self, anchor: Span, value: &Expr, indent: usize) {
        self.last = self.end_line(anchor);
        if self.line(value.span.start) > self.line(anchor.start) {
            self.open(self.start(value.span), indent, indent, false, false);
        } else {
            self.write(" ");
        }
        self.expr(value, indent);
    }

    /// `when cond { … }`: on one line when the author wrote it on one line
    /// with one constructor, invocation or assert and no comment inside;
    /// `{}` when empty; else a line per statement.
    fn when(&mut self, w: &When, indent: usize) {
        self.write("when ");
        self.expr(&w.cond, indent + 1);
        let closing = self.closing(w.span);
        if let Some(only) = self.one_line_body(w) {
            self.write(" { ");
            self.stmt(only, indent);
            self.write(" }");
            return;
        }
        self.write(" {");
        if w.body.is_empty() && !self.comment_before(closing.offset) {
            self.write("}");
            return;
        }
        for (i, s) in w.body.iter().enumerate() {
            self.open(self.start(s.span()), indent + 1, indent + 1, i > 0, true);
            self.stmt(s, indent + 1);
        }
        self.close(closing, indent, indent + 1, !w.body.is_empty());
        self.write("}");
    }

    /// The one statement of a rule that keeps its one-line form.
    fn one_line_body<'w>(&self, w: &'w When) -> Option<&'w Stmt> {
        let [only] = w.body.as_slice() else {
            return None;
        };
        let one_line = self.line(w.span.start) == self.end_line(w.span)
            && !self.comment_before(w.span.end)
            && matches!(only, Stmt::Call(_) | Stmt::Assert(_));
        one_line.then_some(only)
    }

    /// A constructor or invocation: `name(args)`, a positional first
    /// argument (the legacy reason) printed as `reason: …` (§4.6).
    pub(super) fn call(&mut self, c: &CallStmt, indent: usize) {
        self.write(&c.name.name);
        let name_line = self.end_line(c.name.span);
        self.last = name_line;
        let items = super::expr::Items::Args {
            positional: c.positional.as_ref(),
            named: &c.args,
        };
        self.list(("(", ")"), name_line, self.closing(c.span), &items, indent);
    }

    // ---- kind declarations ----------------------------------------------------------------

    fn decl(&mut self, d: &Decl) {
        match d {
            Decl::Type(t) => {
                self.write("type ");
                self.write(&t.name.name);
                self.write(" {");
                self.last = self.end_line(t.name.span);
                if t.fields.is_empty() && !self.comment_before(t.span.end) {
                    self.write("}");
                } else {
                    for (i, f) in t.fields.iter().enumerate() {
                        self.open(self.start(f.name.span), 1, 1, i > 0, true);
                        self.field(f);
                    }
                    self.close(self.closing(t.span), 0, 1, !t.fields.is_empty());
                    self.write("}");
                }
            }
            Decl::Enum(e) => {
                self.write("enum ");
                self.write(&e.name.name);
                self.write(": ");
                self.last = self.end_line(e.name.span);
                self.alternatives(&e.values, 1, Split::AtLineBreaks);
            }
            Decl::Input(i) => {
                self.write("input ");
                self.write(&i.name.name);
                self.write(": ");
                self.ty(&i.ty);
            }
            Decl::Fn(f) => {
                self.write("fn ");
                self.write(&f.name.name);
                self.write("(");
                for (i, t) in f.params.iter().enumerate() {
                    if i > 0 {
                        self.write(", ");
                    }
                    self.ty(t);
                }
                self.write(") -> ");
                self.ty(&f.result);
            }
            Decl::Decision(d) => self.decision(d),
            Decl::Precedence(p) => {
                self.write("precedence ");
                if let Some(scope) = &p.scope {
                    self.write(&scope.name);
                    self.write(": ");
                }
                for (i, n) in p.names.iter().enumerate() {
                    if i > 0 {
                        self.write(" > ");
                    }
                    self.write(&n.name);
                }
            }
            Decl::Exclusive(x) => {
                self.write("exclusive ");
                for (i, o) in x.outcomes.iter().enumerate() {
                    if i > 0 {
                        self.write(", ");
                    }
                    self.write(&o.decision.name);
                    if let Some(reason) = &o.reason {
                        self.write(".");
                        self.write(&reason.name);
                    }
                }
            }
            Decl::Collect(c) => self.write(if c.all { "collect all" } else { "collect one" }),
            Decl::Default(o) => {
                self.write("default ");
                self.call(&o.call, 0);
            }
            Decl::Conflict(o) => {
                self.write("conflict ");
                self.call(&o.call, 0);
            }
        }
        self.last = self.end_line(d.span());
    }

    /// A decision in the current syntax, whichever it was written in
    /// (§4.4, §4.6): `reason: a | b` first, then the payload fields in
    /// declaration order, one per line; each member takes its comments
    /// along (see `reorder`).
    fn decision(&mut self, d: &DecisionDecl) {
        let (Some(first), Some(last)) = (d.reasons.first(), d.reasons.last()) else {
            return;
        };
        self.write("decision ");
        self.write(&d.name.name);
        self.write(" {");
        self.last = self.end_line(d.name.span);
        let (from, split) = match (&d.reason_label, d.legacy) {
            (Some(label), false) => (label.span, Split::AtLineBreaks),
            _ => (first.span, Split::AtComments),
        };
        let mut members = Vec::with_capacity(d.fields.len() + 1);
        members.push(Member {
            from: from.start,
            to: self.end(last.span),
            print: MemberKind::Reasons(&d.reasons, split),
        });
        for f in &d.fields {
            members.push(Member {
                from: f.name.span.start,
                to: self.end(f.span),
                print: MemberKind::Field(f),
            });
        }
        let closing = self.closing(d.span);
        // A comment on the name's line trails the header, even when a
        // legacy field on that line came before it.
        self.trail(closing);
        self.reorder(&members, closing);
        self.close(closing, 0, 1, true);
        self.write("}");
    }

    /// Prints a decision's members in the given order, which may differ
    /// from the source's, before `end`. Each takes along the comments that
    /// belong to it in the source: those after the member before it (in
    /// source order) and the one on its last line. The comments after the
    /// last member stay for the caller.
    fn reorder(&mut self, members: &[Member<'_>], end: Pos) {
        let mut order: Vec<usize> = (0..members.len()).collect();
        order.sort_by_key(|&i| members.get(i).map_or(0, |m| m.from));
        let mut owned: Vec<Vec<Comment<'src>>> = vec![Vec::new(); members.len()];
        let mut after = vec![0; members.len()];
        let mut line = self.last;
        for &i in &order {
            let (Some(member), Some(slot), Some(own)) =
                (members.get(i), after.get_mut(i), owned.get_mut(i))
            else {
                continue;
            };
            *slot = line;
            line = member.to.line;
            while let Some(&c) = self.comments.get(self.next) {
                if c.offset >= end.offset
                    || (c.offset > member.to.offset && c.line != member.to.line)
                {
                    break;
                }
                own.push(c);
                self.next += 1;
            }
        }
        let comments = std::mem::take(&mut self.comments);
        let next = self.next;
        for ((member, own), after) in members.iter().zip(owned).zip(after) {
            self.comments = own;
            self.next = 0;
            self.last = after;
            self.member(member);
            self.flush(
                Pos {
                    offset: end.offset,
                    line: 0,
                },
                1,
                false,
                true,
            );
        }
        self.comments = comments;
        self.next = next;
        self.last = line;
    }

    /// Prints one member of a decision, opening its line.
    fn member(&mut self, member: &Member<'_>) {
        let at = self.pos(member.from);
        match member.print {
            MemberKind::Reasons(reasons, split) => {
                self.open(at, 1, 1, false, true);
                self.write("reason: ");
                self.alternatives(reasons, 2, split);
            }
            MemberKind::Field(f) => {
                self.open(at, 1, 1, true, true);
                self.field(f);
            }
        }
    }

    /// `a | b | c` after what the line holds; before each value `split`
    /// breaks at, a new line at `indent` that `| ` leads.
    fn alternatives(&mut self, names: &[Ident], indent: usize, split: Split) {
        let mut prev_end = 0;
        for (i, n) in names.iter().enumerate() {
            if i == 0 {
                self.trail(self.start(n.span));
            } else if match split {
                Split::AtLineBreaks => self.line(n.span.start) > prev_end,
                Split::AtComments => self.comment_before(n.span.start),
            } {
                self.open(self.start(n.span), indent, indent, false, false);
                self.write("| ");
            } else {
                self.write(" | ");
            }
            self.write(&n.name);
            prev_end = self.end_line(n.span);
            self.last = prev_end;
        }
    }

    /// `name: type`, with a payload field's default.
    fn field(&mut self, f: &Field) {
        self.write(&f.name.name);
        self.write(": ");
        self.ty(&f.ty);
        if let Some(default) = &f.default {
            self.write(" = ");
            self.expr(default, 2);
        }
        self.last = self.end_line(f.span);
    }

    /// A type: `string`, `?T`, `list<T>`, `map<K, V>`.
    fn ty(&mut self, t: &Type) {
        match &t.kind {
            TypeKind::Named(name) => self.write(&name.name),
            TypeKind::Optional(elem) => {
                self.write("?");
                self.ty(elem);
            }
            TypeKind::List(elem) => {
                self.write("list<");
                self.ty(elem);
                self.write(">");
            }
            TypeKind::Map(key, value) => {
                self.write("map<");
                self.ty(key);
                self.write(", ");
                self.ty(value);
                self.write(">");
            }
        }
        self.last = self.end_line(t.span);
    }
}

/// A top-level item of a document.
#[derive(Clone, Copy)]
enum Item<'a> {
    Use(&'a Use),
    Stmt(&'a Stmt),
    Let(&'a Let),
    Decl(&'a Decl),
}

/// The groups of §4.3: items of one group sit together.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Group {
    Header,
    /// Rules, invocations, types and decisions: never grouped.
    Alone,
    /// `default` and `conflict`: one pair, no blank line between.
    Outcome,
    Use,
    Param,
    Let,
    Assert,
    Enum,
    Input,
    Fn,
    /// `collect`, `precedence` and `exclusive`.
    Resolution,
}

impl Item<'_> {
    fn span(self) -> Span {
        match self {
            Item::Use(u) => u.span,
            Item::Stmt(s) => s.span(),
            Item::Let(l) => l.span,
            Item::Decl(d) => d.span(),
        }
    }

    fn group(self) -> Group {
        match self {
            Item::Use(_) => Group::Use,
            Item::Let(_) | Item::Stmt(Stmt::Let(_)) => Group::Let,
            Item::Stmt(Stmt::Param(_)) => Group::Param,
            Item::Stmt(Stmt::Assert(_)) => Group::Assert,
            Item::Stmt(Stmt::When(_) | Stmt::Call(_)) => Group::Alone,
            Item::Decl(d) => match d {
                Decl::Enum(_) => Group::Enum,
                Decl::Input(_) => Group::Input,
                Decl::Fn(_) => Group::Fn,
                Decl::Collect(_) | Decl::Precedence(_) | Decl::Exclusive(_) => Group::Resolution,
                Decl::Default(_) | Decl::Conflict(_) => Group::Outcome,
                Decl::Type(_) | Decl::Decision(_) => Group::Alone,
            },
        }
    }
}

/// Where a list of alternatives breaks onto a new line.
#[derive(Clone, Copy)]
pub(super) enum Split {
    /// Where the source put a value on a later line than the previous one.
    AtLineBreaks,
    /// Where a comment sat before a value (a legacy decision's reasons).
    AtComments,
}

/// A member of a decision: its source range and what it prints.
pub(super) struct Member<'a> {
    /// Where it starts in the source.
    pub(super) from: usize,
    /// Just after its end.
    pub(super) to: Pos,
    pub(super) print: MemberKind<'a>,
}

#[derive(Clone, Copy)]
pub(super) enum MemberKind<'a> {
    Reasons(&'a [Ident], Split),
    Field(&'a Field),
}

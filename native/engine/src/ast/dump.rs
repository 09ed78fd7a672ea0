//! Text forms of the tree for diagnostics and goldens.
//!
//! * [`Expr::canonical`]: the fully parenthesized rendering of
//!   language-core §3.10, which messages embed (`integer overflow in
//!   `((-9223372036854775807) - count)``) and tests compare against.
//! * [`render_type`]: a type as written in canonical style (`map<K, V>`).
//! * [`dump_file`]: one line per document, statement, declaration and field,
//!   indented by nesting, expressions in the canonical rendering, each line
//!   optionally followed by its span. The format is stable: parser goldens
//!   are written in it.
//!
//! Expressions are walked along their spine with a loop (see the depth note
//! in the module doc of `ast`), so a chain of any length renders without
//! deep recursion.

use super::{
    DecisionDecl, Decl, Document, Expr, ExprKind, Field, File, Import, KindDoc, ModuleDoc,
    PolicyDoc, Stmt, Type, TypeKind, Use,
};
use crate::source::{LineIndex, Span};

impl Expr {
    /// The canonical parenthesized rendering (language-core §3.10): every
    /// operator application in parentheses, literals as written, trailing
    /// commas and comments gone. [`ExprKind::Error`] renders as `<error>`.
    pub fn canonical(&self) -> String {
        let mut out = String::new();
        write_expr(&mut out, self);
        out
    }
}

/// Appends the canonical rendering of `e` to `out`.
fn write_expr(out: &mut String, e: &Expr) {
    // The spine, outermost first; `leaf` is where it ends.
    let mut spine = Vec::new();
    let mut leaf = e;
    while let Some(next) = leaf.spine_child() {
        spine.push(leaf);
        leaf = next;
    }
    for node in &spine {
        if matches!(node.kind, ExprKind::Binary { .. }) {
            out.push('(');
        }
    }
    // A plain `.` right after an integer would lex as a float: `(1).name`.
    let wrap_int = matches!(leaf.kind, ExprKind::Int { .. })
        && spine.last().is_some_and(|n| {
            matches!(
                n.kind,
                ExprKind::Field {
                    optional: false,
                    ..
                }
            )
        });
    if wrap_int {
        out.push('(');
    }
    write_leaf(out, leaf);
    if wrap_int {
        out.push(')');
    }
    for node in spine.iter().rev() {
        match &node.kind {
            ExprKind::Binary { op, rhs, .. } => {
                out.push(' ');
                out.push_str(op.as_str());
                out.push(' ');
                write_expr(out, rhs);
                out.push(')');
            }
            ExprKind::Field { name, optional, .. } => {
                out.push_str(if *optional { "?." } else { "." });
                out.push_str(&name.name);
            }
            ExprKind::Index { index, .. } => {
                out.push('[');
                write_expr(out, index);
                out.push(']');
            }
            ExprKind::Call { args, .. } => {
                out.push('(');
                write_list(out, args);
                out.push(')');
            }
            _ => {}
        }
    }
}

/// Appends a node that isn't on a spine (its own children may start new
/// spines).
fn write_leaf(out: &mut String, e: &Expr) {
    match &e.kind {
        ExprKind::Error => out.push_str("<error>"),
        ExprKind::Ident(name) => out.push_str(name),
        ExprKind::Int { text, .. }
        | ExprKind::Float { text, .. }
        | ExprKind::Duration { text, .. }
        | ExprKind::String { text, .. } => out.push_str(text),
        ExprKind::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        ExprKind::Outcome => out.push_str("outcome"),
        ExprKind::Paren(x) => {
            out.push('(');
            write_expr(out, x);
            out.push(')');
        }
        ExprKind::List(xs) => {
            out.push('[');
            write_list(out, xs);
            out.push(']');
        }
        ExprKind::Map(entries) => {
            out.push('{');
            for (i, entry) in entries.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_expr(out, &entry.key);
                out.push_str(": ");
                write_expr(out, &entry.value);
            }
            out.push('}');
        }
        ExprKind::Unary { op, operand, .. } => {
            out.push('(');
            out.push_str(op.as_str());
            if !matches!(op, super::UnaryOp::Neg) {
                out.push(' ');
            }
            write_expr(out, operand);
            out.push(')');
        }
        ExprKind::Quantifier {
            quantifier,
            var,
            range,
            body,
        } => write_binder(out, quantifier.as_str(), &var.name, range, body),
        ExprKind::Filter { var, range, body } => {
            write_binder(out, "filter", &var.name, range, body)
        }
        // Spine nodes never reach here: `write_expr` unrolls them.
        ExprKind::Binary { .. }
        | ExprKind::Field { .. }
        | ExprKind::Index { .. }
        | ExprKind::Call { .. } => write_expr(out, e),
    }
}

fn write_binder(out: &mut String, keyword: &str, var: &str, range: &Expr, body: &Expr) {
    out.push('(');
    out.push_str(keyword);
    out.push(' ');
    out.push_str(var);
    out.push_str(" in ");
    write_expr(out, range);
    out.push_str(": ");
    write_expr(out, body);
    out.push(')');
}

fn write_list(out: &mut String, xs: &[Expr]) {
    for (i, x) in xs.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_expr(out, x);
    }
}

/// A type in canonical spelling: `string`, `?T`, `list<T>`, `map<K, V>`.
pub fn render_type(ty: &Type) -> String {
    let mut out = String::new();
    write_type(&mut out, ty);
    out
}

fn write_type(out: &mut String, ty: &Type) {
    match &ty.kind {
        TypeKind::Named(name) => out.push_str(&name.name),
        TypeKind::Optional(elem) => {
            out.push('?');
            write_type(out, elem);
        }
        TypeKind::List(elem) => {
            out.push_str("list<");
            write_type(out, elem);
            out.push('>');
        }
        TypeKind::Map(key, value) => {
            out.push_str("map<");
            write_type(out, key);
            out.push_str(", ");
            write_type(out, value);
            out.push('>');
        }
    }
}

/// Dumps `file`: one line per document, statement, declaration and field,
/// two spaces of indentation per level. With `src` (the file's text) every
/// line ends with its span as ` [line:col-line:col]`.
pub fn dump_file(file: &File, src: Option<&str>) -> String {
    let index = src.map(LineIndex::new);
    let mut dump = Dump {
        out: String::new(),
        index,
    };
    for doc in &file.docs {
        match doc {
            Document::Policy(d) => dump.policy(d),
            Document::Module(d) => dump.module(d),
            Document::Kind(d) => dump.kind(d),
        }
    }
    dump.out
}

struct Dump<'src> {
    out: String,
    index: Option<LineIndex<'src>>,
}

impl Dump<'_> {
    fn line(&mut self, depth: usize, text: &str, span: Span) {
        for _ in 0..depth {
            self.out.push_str("  ");
        }
        self.out.push_str(text);
        if let Some(index) = &self.index {
            self.out.push_str(" [");
            self.out.push_str(&index.format_span(span));
            self.out.push(']');
        }
        self.out.push('\n');
    }

    fn policy(&mut self, d: &PolicyDoc) {
        let pin = d
            .pin
            .as_ref()
            .map(|p| format!("@{}", p.text))
            .unwrap_or_default();
        let header = format!("policy {}: {}{pin}", d.name.text(), d.kind.name);
        self.line(0, &header, d.span);
        for u in &d.uses {
            self.use_stmt(u);
        }
        for s in &d.stmts {
            self.stmt(1, s);
        }
    }

    fn module(&mut self, d: &ModuleDoc) {
        let pin = d
            .pin
            .as_ref()
            .map(|p| format!("@{}", p.text))
            .unwrap_or_default();
        let header = format!("module {}: {}{pin}", d.name.text(), d.kind.name);
        self.line(0, &header, d.span);
        for u in &d.uses {
            self.use_stmt(u);
        }
        for l in &d.lets {
            self.stmt_let(1, l);
        }
    }

    fn use_stmt(&mut self, u: &Use) {
        let mut text = format!("use {}", u.path.text());
        match &u.import {
            Import::Whole => {}
            Import::Alias(alias) => {
                text.push_str(" as ");
                text.push_str(&alias.name);
            }
            Import::Items(items) => {
                let items: Vec<String> = items
                    .iter()
                    .map(|i| match &i.alias {
                        Some(alias) => format!("{} as {}", i.name.name, alias.name),
                        None => i.name.name.clone(),
                    })
                    .collect();
                text.push_str(".{");
                text.push_str(&items.join(", "));
                text.push('}');
            }
        }
        self.line(1, &text, u.span);
    }

    fn stmt(&mut self, depth: usize, s: &Stmt) {
        match s {
            Stmt::Param(p) => {
                let mut text = format!("param {}: {}", p.name.name, render_type(&p.ty));
                if let Some(default) = &p.default {
                    text.push_str(" = ");
                    text.push_str(&default.canonical());
                }
                if let Some(min) = &p.min {
                    text.push_str(", min: ");
                    text.push_str(&min.canonical());
                }
                if let Some(max) = &p.max {
                    text.push_str(", max: ");
                    text.push_str(&max.canonical());
                }
                self.line(depth, &text, p.span);
            }
            Stmt::Let(l) => self.stmt_let(depth, l),
            Stmt::When(w) => {
                self.line(depth, &format!("when {}", w.cond.canonical()), w.span);
                for s in &w.body {
                    self.stmt(depth + 1, s);
                }
            }
            Stmt::Assert(a) => {
                let text = format!("assert({}, {})", a.reason.text, a.cond.canonical());
                self.line(depth, &text, a.span);
            }
            Stmt::Call(c) => self.line(depth, &call_text(c), c.span),
        }
    }

    fn stmt_let(&mut self, depth: usize, l: &super::Let) {
        let public = if l.public { "pub " } else { "" };
        let text = format!("{public}let {} = {}", l.name.name, l.value.canonical());
        self.line(depth, &text, l.span);
    }

    fn kind(&mut self, d: &KindDoc) {
        let mut header = format!("kind {} version {}", d.name.name, d.version.text);
        if let Some(accepts) = &d.accepts {
            header.push_str(", accepts: ");
            header.push_str(&accepts.text);
        }
        self.line(0, &header, d.span);
        for decl in &d.decls {
            self.decl(decl);
        }
    }

    fn decl(&mut self, decl: &Decl) {
        match decl {
            Decl::Enum(e) => {
                let values: Vec<&str> = e.values.iter().map(|v| v.name.as_str()).collect();
                let text = format!("enum {}: {}", e.name.name, values.join(" | "));
                self.line(1, &text, e.span);
            }
            Decl::Type(t) => {
                self.line(1, &format!("type {}", t.name.name), t.span);
                for f in &t.fields {
                    self.field(f);
                }
            }
            Decl::Input(i) => {
                let text = format!("input {}: {}", i.name.name, render_type(&i.ty));
                self.line(1, &text, i.span);
            }
            Decl::Fn(f) => {
                let params: Vec<String> = f.params.iter().map(render_type).collect();
                let text = format!(
                    "fn {}({}) -> {}",
                    f.name.name,
                    params.join(", "),
                    render_type(&f.result)
                );
                self.line(1, &text, f.span);
            }
            Decl::Decision(d) => self.decision(d),
            Decl::Precedence(p) => {
                let names: Vec<&str> = p.names.iter().map(|n| n.name.as_str()).collect();
                let scope = p
                    .scope
                    .as_ref()
                    .map(|s| format!("{}: ", s.name))
                    .unwrap_or_default();
                let text = format!("precedence {scope}{}", names.join(" > "));
                self.line(1, &text, p.span);
            }
            Decl::Exclusive(x) => {
                let outcomes: Vec<String> = x
                    .outcomes
                    .iter()
                    .map(|o| match &o.reason {
                        Some(r) => format!("{}.{}", o.decision.name, r.name),
                        None => o.decision.name.clone(),
                    })
                    .collect();
                self.line(1, &format!("exclusive {}", outcomes.join(", ")), x.span);
            }
            Decl::Collect(c) => {
                let text = if c.all { "collect all" } else { "collect one" };
                self.line(1, text, c.span);
            }
            Decl::Default(o) => self.line(1, &format!("default {}", call_text(&o.call)), o.span),
            Decl::Conflict(o) => self.line(1, &format!("conflict {}", call_text(&o.call)), o.span),
        }
    }

    fn decision(&mut self, d: &DecisionDecl) {
        let legacy = if d.legacy { " (legacy)" } else { "" };
        self.line(1, &format!("decision {}{legacy}", d.name.name), d.span);
        let reasons: Vec<&str> = d.reasons.iter().map(|r| r.name.as_str()).collect();
        let span = match (&d.reason_label, d.reasons.first(), d.reasons.last()) {
            (Some(label), _, Some(last)) => label.span.to(last.span),
            (None, Some(first), Some(last)) => first.span.to(last.span),
            _ => d.span,
        };
        self.line(2, &format!("reason: {}", reasons.join(" | ")), span);
        for f in &d.fields {
            self.field(f);
        }
    }

    fn field(&mut self, f: &Field) {
        let mut text = format!("{}: {}", f.name.name, render_type(&f.ty));
        if let Some(default) = &f.default {
            text.push_str(" = ");
            text.push_str(&default.canonical());
        }
        self.line(2, &text, f.span);
    }
}

/// `name(positional, a: v, …)` with every expression canonical.
fn call_text(c: &super::CallStmt) -> String {
    let mut parts = Vec::new();
    if let Some(p) = &c.positional {
        parts.push(p.canonical());
    }
    for a in &c.args {
        parts.push(format!("{}: {}", a.name.name, a.value.canonical()));
    }
    format!("{}({})", c.name.name, parts.join(", "))
}

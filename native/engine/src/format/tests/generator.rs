//! A seeded generator of random but valid documents, and the properties
//! every one of them must have: it parses, it formats (so the proof holds:
//! same program, same comments), and the output formats to itself.
//!
//! A document is built as a list of tokens, then laid out with random
//! whitespace between every pair: a space, a line break, a blank line, or a
//! comment that ends its line. So the formatter meets comments and line
//! breaks in every position the grammar allows. Sizes are bounded; a
//! failing case reproduces from its seed (printed).

use super::*;
use crate::parser::parse_file;
use crate::testing::Rng;

/// How many documents the test generates; `FORMAT_CASES=n` asks for more.
fn cases() -> u64 {
    std::env::var("FORMAT_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(500)
}

struct Gen {
    rng: Rng,
    tokens: Vec<String>,
    /// Expression depth left.
    depth: usize,
}

/// A few names, some spelled like keywords where a name may be one.
const NAMES: &[&str] = &["a", "b", "release", "actor", "xs", "owners", "tier", "n"];
const FIELDS: &[&str] = &["soak", "kind", "type", "roles", "in", "name", "all"];

impl Gen {
    fn new(seed: u64) -> Self {
        Gen {
            rng: Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1),
            tokens: Vec::new(),
            depth: 0,
        }
    }

    fn t(&mut self, token: &str) {
        self.tokens.push(token.to_owned());
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from.get(self.rng.below(from.len())).copied().unwrap_or("x")
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.rng.below(100) < percent
    }

    fn name(&mut self) {
        let name = self.pick(NAMES);
        self.t(name);
    }

    // ---- expressions ----------------------------------------------------------------
    //
    // `level` is the loosest form allowed without parentheses: 1 any, 2 `and`
    // and tighter, 3 `not`/quantifiers and tighter, 4 comparisons, 5 `??`,
    // 6 `+`/`-`, 7 unary `-`/`present`, 8 operands. `tail` says nothing
    // follows at this level, so a quantifier's body may run to the end.

    fn expr(&mut self, level: u8, tail: bool) {
        if self.depth == 0 {
            self.operand();
            return;
        }
        self.depth -= 1;
        let form = (self.rng.below(9) + 1) as u8;
        let needs_parens = form < level || (form == 3 && !tail);
        if needs_parens {
            self.t("(");
        }
        let tail = tail || needs_parens;
        match form {
            1 => {
                if self.chance(30) {
                    self.expr(2, false);
                    self.t("xor");
                    self.expr(2, tail);
                } else {
                    self.chain("or", 2, tail);
                }
            }
            2 => self.chain("and", 3, tail),
            3 => match self.rng.below(4) {
                0 => {
                    self.t("not");
                    self.expr(3, tail);
                }
                1 => {
                    self.t("filter");
                    self.binder(tail);
                }
                _ => {
                    let q = self.pick(&["any", "all"]);
                    self.t(q);
                    self.binder(tail);
                }
            },
            4 => {
                self.expr(5, false);
                let op = self.pick(&[
                    "==",
                    "!=",
                    "<",
                    "<=",
                    ">",
                    ">=",
                    "in",
                    "not in",
                    "all in",
                    "any in",
                    "one in",
                    "exclusive in",
                    "has",
                    "like",
                    "matches",
                ]);
                for word in op.split(' ') {
                    self.t(word);
                }
                self.expr(5, tail);
            }
            5 => {
                self.expr(6, false);
                self.t("??");
                self.expr(5, tail);
            }
            6 => {
                self.expr(6, false);
                let op = self.pick(&["+", "-"]);
                self.t(op);
                self.expr(7, tail);
            }
            7 => {
                let op = self.pick(&["-", "-", "present"]);
                self.t(op);
                self.expr(7, tail);
            }
            _ => self.postfix(),
        }
        if needs_parens {
            self.t(")");
        }
        self.depth += 1;
    }

    /// `x op y op z` of one left-associative operator.
    fn chain(&mut self, op: &str, level: u8, tail: bool) {
        let n = 2 + self.rng.below(3);
        for i in 0..n {
            if i > 0 {
                self.t(op);
            }
            self.expr(level, tail && i + 1 == n);
        }
    }

    /// `v in range: body` after a quantifier or `filter`.
    fn binder(&mut self, tail: bool) {
        self.t("v");
        self.t("in");
        self.expr(5, false);
        self.t(":");
        self.expr(1, tail);
    }

    /// An operand with a run of `.f`, `?.f`, `[i]` and `(args)`.
    fn postfix(&mut self) {
        self.operand();
        for _ in 0..self.rng.below(3) {
            match self.rng.below(4) {
                0 => {
                    self.t(".");
                    let f = self.pick(FIELDS);
                    self.t(f);
                }
                1 => {
                    self.t("?.");
                    let f = self.pick(FIELDS);
                    self.t(f);
                }
                2 => {
                    self.t("[");
                    self.expr(1, true);
                    self.t("]");
                }
                _ => self.items("(", ")", |g| g.expr(1, true)),
            }
        }
    }

    fn operand(&mut self) {
        let deeper = self.depth > 0;
        match self.rng.below(if deeper { 14 } else { 11 }) {
            0..=2 => self.name(),
            3 => {
                let n = self.pick(&["0", "1", "42", "007", "9223372036854775807"]);
                self.t(n);
            }
            4 => {
                let f = self.pick(&["1.5", "0.25", "10.0"]);
                self.t(f);
            }
            5 => {
                let d = self.pick(&["1h", "1h30m", "15m", "250ms"]);
                self.t(d);
            }
            6 => {
                let s = self.pick(&[r#""a""#, r#""é ü""#, r#""<&>""#, r#""tab\t""#]);
                self.t(s);
            }
            7 => {
                let s = self.pick(&["`^a.*$`", "`two\nlines`"]);
                self.t(s);
            }
            8 => {
                let b = self.pick(&["true", "false", "outcome"]);
                self.t(b);
            }
            9 => {
                self.name();
                self.items("(", ")", |g| g.expr(1, true));
            }
            10 => {
                self.t("0");
                self.t(".");
                self.t("soak");
            }
            11 => self.items("[", "]", |g| g.expr(1, true)),
            12 => self.items("{", "}", |g| {
                g.expr(5, false);
                g.t(":");
                g.expr(1, true);
            }),
            _ => {
                self.t("(");
                self.expr(1, true);
                self.t(")");
            }
        }
    }

    /// `open item, item close`, sometimes with a trailing comma.
    fn items(&mut self, open: &str, close: &str, item: impl Fn(&mut Self)) {
        self.t(open);
        let n = self.rng.below(4);
        for i in 0..n {
            if i > 0 {
                self.t(",");
            }
            item(self);
        }
        if n > 0 && self.chance(20) {
            self.t(",");
        }
        self.t(close);
    }

    /// A full expression of bounded depth.
    fn value(&mut self) {
        self.depth = 1 + self.rng.below(4);
        self.expr(1, true);
    }

    // ---- statements, declarations, documents -----------------------------------------------------

    fn ty(&mut self, depth: usize) {
        self.ty_in(depth, true);
    }

    /// A type; `?T` only where `optional` (it doesn't nest: `??T` is none).
    fn ty_in(&mut self, depth: usize, optional: bool) {
        match (self.rng.below(5), depth) {
            (0, 1..) if optional => {
                self.t("?");
                self.ty_in(depth - 1, false);
            }
            (1, 1..) => {
                self.t("list");
                self.t("<");
                self.ty(depth - 1);
                self.t(">");
            }
            (2, 1..) => {
                self.t("map");
                self.t("<");
                self.ty(depth - 1);
                self.t(",");
                self.ty(depth - 1);
                self.t(">");
            }
            _ => {
                let name = self.pick(&["string", "int", "duration", "Tier", "Order"]);
                self.t(name);
            }
        }
    }

    /// `name(reason: r, arg: value)`, sometimes with a positional reason.
    fn call(&mut self) {
        let name = self.pick(&["deny", "allow", "approve", "guardrails"]);
        self.t(name);
        self.t("(");
        let mut first = true;
        if self.chance(15) {
            self.t("soak_too_short");
            first = false;
        }
        for _ in 0..self.rng.below(3) {
            if !first {
                self.t(",");
            }
            first = false;
            let arg = self.pick(&["reason", "approvers", "limit", "type"]);
            self.t(arg);
            self.t(":");
            self.value();
        }
        if !first && self.chance(20) {
            self.t(",");
        }
        self.t(")");
    }

    fn stmt(&mut self, top: bool) {
        match self.rng.below(if top { 7 } else { 5 }) {
            0 => {
                self.t("let");
                self.name();
                self.t("=");
                self.value();
            }
            1 | 2 => {
                self.t("when");
                self.value();
                self.t("{");
                for _ in 0..self.rng.below(3) {
                    self.stmt(false);
                }
                self.t("}");
            }
            3 => {
                self.t("assert");
                self.t("(");
                self.t(r#""why""#);
                self.t(",");
                self.value();
                if self.chance(20) {
                    self.t(",");
                }
                self.t(")");
            }
            4 => self.call(),
            _ => {
                self.t("param");
                self.name();
                self.t(":");
                self.ty(2);
                if self.chance(50) {
                    self.t("=");
                    self.value();
                }
                for bound in ["max", "min"] {
                    if self.chance(30) {
                        self.t(",");
                        self.t(bound);
                        self.t(":");
                        self.value();
                    }
                }
            }
        }
    }

    fn uses(&mut self) {
        for _ in 0..self.rng.below(3) {
            self.t("use");
            // A dotted name is one token: no spaces around its dots.
            let path = self.pick(&["lib.a", "lib.b", "platform.common"]);
            match self.rng.below(3) {
                0 => {
                    self.t(path);
                    self.t("as");
                    self.t("alias");
                }
                1 => {
                    self.t(&format!("{path}.{{"));
                    self.t("x");
                    if self.chance(50) {
                        self.t(",");
                        self.t("y");
                        self.t("as");
                        self.t("z");
                    }
                    self.t("}");
                }
                _ => self.t(path),
            }
        }
    }

    fn names(&mut self, separator: &str, n: usize) {
        for i in 0..n {
            if i > 0 && !separator.is_empty() {
                self.t(separator);
            }
            self.t(&format!("r{i}"));
        }
    }

    fn field(&mut self, default: bool) {
        let name = self.pick(&["queue", "limit", "in", "note"]);
        self.t(name);
        self.t(":");
        self.ty(1);
        if default && self.chance(50) {
            self.t("=");
            self.value();
        }
    }

    fn decl(&mut self) {
        match self.rng.below(10) {
            0 => {
                self.t("enum");
                self.t("Tier");
                self.t(":");
                let n = 1 + self.rng.below(4);
                self.names("|", n);
            }
            1 => {
                self.t("type");
                self.t("Order");
                self.t("{");
                for _ in 0..self.rng.below(4) {
                    self.field(false);
                }
                self.t("}");
            }
            2 => {
                self.t("input");
                self.name();
                self.t(":");
                self.ty(2);
            }
            3 => {
                self.t("fn");
                self.t("lower");
                self.t("(");
                for i in 0..self.rng.below(3) {
                    if i > 0 {
                        self.t(",");
                    }
                    self.ty(1);
                }
                self.t(")");
                self.t("->");
                self.ty(1);
            }
            4 => {
                self.t("decision");
                self.t("deny");
                if self.chance(30) {
                    // The legacy syntax.
                    if self.chance(60) {
                        self.t("(");
                        for i in 0..1 + self.rng.below(2) {
                            if i > 0 {
                                self.t(",");
                            }
                            self.field(true);
                        }
                        self.t(")");
                    }
                    self.t("{");
                    let n = 1 + self.rng.below(3);
                    self.names("", n);
                    self.t("}");
                } else {
                    self.t("{");
                    let fields_first = self.rng.below(3);
                    for _ in 0..fields_first {
                        self.field(true);
                    }
                    self.t("reason");
                    self.t(":");
                    let n = 1 + self.rng.below(3);
                    self.names("|", n);
                    for _ in 0..self.rng.below(2) {
                        self.field(true);
                    }
                    self.t("}");
                }
            }
            5 => {
                self.t("precedence");
                if self.chance(50) {
                    self.t("deny");
                    self.t(":");
                }
                let n = 1 + self.rng.below(3);
                self.names(">", n);
            }
            6 => {
                self.t("exclusive");
                self.t("deny");
                self.t(".");
                self.t("r0");
                self.t(",");
                self.t("allow");
            }
            7 => {
                self.t("collect");
                let mode = self.pick(&["one", "all"]);
                self.t(mode);
            }
            8 => {
                self.t("default");
                self.call();
            }
            _ => {
                self.t("conflict");
                self.call();
            }
        }
    }

    fn document(&mut self) {
        match self.rng.below(3) {
            0 => {
                for t in ["policy", "a.b", ":", "K", "@", "1"] {
                    self.t(t);
                }
                self.uses();
                for _ in 0..self.rng.below(6) {
                    self.stmt(true);
                }
            }
            1 => {
                for t in ["module", "lib.m", ":", "K", "@", "1"] {
                    self.t(t);
                }
                self.uses();
                for _ in 0..self.rng.below(4) {
                    if self.chance(50) {
                        self.t("pub");
                    }
                    self.t("let");
                    self.name();
                    self.t("=");
                    self.value();
                }
            }
            _ => {
                for t in ["kind", "K", "version", "2"] {
                    self.t(t);
                }
                if self.chance(30) {
                    for t in [",", "accepts", ":", "1"] {
                        self.t(t);
                    }
                }
                for _ in 0..self.rng.below(7) {
                    self.decl();
                }
            }
        }
    }

    /// One to three documents, separators between (and a few stray ones).
    fn file(&mut self) {
        if self.chance(10) {
            self.t("---");
        }
        for i in 0..1 + self.rng.below(3) {
            if i > 0 {
                self.t("---");
            }
            self.document();
        }
        if self.chance(10) {
            self.t("---");
        }
    }

    /// The tokens joined by random layout: a space, a line break, a blank
    /// line, a comment ending its line, or indentation.
    fn layout(&mut self) -> String {
        let mut out = String::new();
        if self.chance(20) {
            out.push_str("// leading\n\n");
        }
        let tokens = std::mem::take(&mut self.tokens);
        for (i, token) in tokens.iter().enumerate() {
            if i > 0 {
                let gap = match self.rng.below(20) {
                    0..=11 => " ",
                    12..=14 => "\n",
                    15 => "\n\n",
                    16 => "\n    ",
                    17 => "  // note\n",
                    18 => " // é ünïcödé\n\n",
                    _ => "\n// own line\n",
                };
                out.push_str(gap);
            }
            out.push_str(token);
        }
        if self.chance(30) {
            out.push_str(" // the end");
        }
        out.push('\n');
        out
    }
}

/// The source of generated case `seed`.
fn generate(seed: u64) -> String {
    let mut g = Gen::new(seed);
    g.file();
    g.layout()
}

#[test]
fn generated_documents_format_idempotently_and_keep_the_program() {
    let mut changed = 0;
    for seed in 0..cases() {
        let src = generate(seed);
        let (_, diagnostics) = parse_file("gen.sigil", &src);
        assert!(
            diagnostics.is_empty(),
            "seed {seed}: the generator made a source that doesn't parse: {:?}\n{src}",
            diagnostics.first().map(|d| &d.message)
        );
        let out = match format_source("gen.sigil", &src) {
            Ok(out) => out,
            Err(e) => panic!("seed {seed}: {e}\n--- source:\n{src}"),
        };
        let again = match format_source("gen.sigil", &out) {
            Ok(again) => again,
            Err(e) => panic!("seed {seed}: formatting the output: {e}\n--- output:\n{out}"),
        };
        assert_eq!(
            again, out,
            "seed {seed}: not idempotent\n--- source:\n{src}\n--- first:\n{out}"
        );
        changed += usize::from(out != src);
    }
    assert!(changed > 0);
}

#[test]
fn the_generator_is_deterministic() {
    assert_eq!(generate(7), generate(7));
    assert_ne!(generate(7), generate(8));
}

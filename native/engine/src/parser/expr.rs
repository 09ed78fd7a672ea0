//! Expressions: a Pratt parser with the binding powers of language-core §3.7
//! that makes the decisions of §3.8.
//!
//! [`Parser::expr`] parses an expression whose infix operators all bind at
//! least as tightly as `min_bp`. The right operand of a left-associative
//! operator is parsed one power up (so it stops at the same operator), of
//! the right-associative `??` at the same power; the non-associative
//! level-4 operators parse like left ones and then refuse a neighbour
//! ("comparisons don't chain"), as `xor` refuses `xor` and `or`.
//!
//! Prefix forms have a level too: `not`, quantifiers and filters (level 3)
//! are refused where the surrounding operator wants something tighter,
//! naming that operator (`` `not` can't be an operand of `==` ``), which is
//! why each nested parse is told the operator it is the operand of.
//!
//! An expression ends at the first token that can't continue it (§3.8 rule
//! 4): `)`, `]`, `}`, `,`, `:`, `=`, `{`, a statement keyword, a bare name,
//! the end of the input. So a quantifier's body extends as far right as its
//! context allows, and `{` after an operand ends a `when` condition.
//!
//! Stack: the functions on the recursive path (`expr`, `expr_bp`, `prefix`,
//! `primary`, `postfix`, `list`, `map`, `binder`) pass subtrees as
//! `Box<Expr>` (children are boxed in the tree anyway) and leave node
//! building and error reporting to small out-of-line functions, so each
//! nesting level costs a few hundred bytes of stack, not kilobytes: the
//! 256 levels must fit a WebAssembly stack of 1 MiB.

use super::{Bail, Literals, LoosePrefix, Nesting, PResult, ParseError, Parser, fit};
use crate::ast::{BinaryOp, Expr, ExprKind, Ident, MapEntry, Quantifier, UnaryOp};
use crate::lexer::{
    Token, TokenKind, duration_nanos, float_value, int_value, raw_string_value, string_value,
};
use crate::source::Span;

// Binding powers. An infix operator's is its level ([`BinaryOp::level`]):
// 1 `or` and `xor`, 2 `and`, 4 the comparisons, membership, `has`, `like`
// and `matches`, 5 `??`, 6 binary `+` and `-`; the prefix forms fit in
// between.

/// `or`, `xor`: the lowest binding power, where a full expression starts.
pub(super) const LOWEST: u8 = 1;
/// `not`, quantifiers, filters (prefix).
const NOT: u8 = 3;
/// `??`; also where a quantifier's range and a map key are parsed.
const COALESCE: u8 = 5;
/// Unary `-` and `present`.
const NEG: u8 = 7;

/// The operator whose operand is being parsed: prefix forms that may not be
/// its operand name it, and a map literal that turns out to be a rule body
/// points at it.
#[derive(Clone, Copy, Debug)]
pub(super) struct After {
    /// The operator as written (`not in`).
    text: &'static str,
    /// Its tokens.
    span: Span,
}

/// A parsed subtree.
type PExpr = PResult<Box<Expr>>;

impl<'src> Parser<'src> {
    /// Parses all of the input as one expression (`parse_expr`).
    pub(super) fn standalone_expr(&mut self) -> PResult<Expr> {
        let x = self.expr(LOWEST, None)?;
        match self.kind() {
            TokenKind::Eof => Ok(*x),
            TokenKind::Separator => Err(self.fail_here(&ParseError::SeparatorInExpression)),
            _ => Err(self.unexpected("end of the expression", "")),
        }
    }

    /// Parses an expression whose infix operators bind at least as tightly
    /// as `min_bp`, as the operand of `after` (or at the start of an
    /// expression). Each call is one nesting level.
    pub(super) fn expr(&mut self, min_bp: u8, after: Option<&After>) -> PExpr {
        if self.expr_depth == 0 {
            self.expr_start = self.brackets;
        }
        self.expr_depth += 1;
        let result = match self.nest(Nesting::Expression) {
            Ok(()) => self.expr_bp(min_bp, after),
            Err(bail) => Err(bail),
        };
        self.expr_depth -= 1;
        self.unnest();
        result
    }

    fn expr_bp(&mut self, min_bp: u8, after: Option<&After>) -> PExpr {
        let mut lhs = self.prefix(min_bp, after)?;
        loop {
            let Some(op) = self.infix()? else {
                return Ok(lhs);
            };
            let bp = op.level();
            if bp < min_bp {
                return Ok(lhs);
            }
            let after = self.take_operator(op);
            let rbp = if op == BinaryOp::Coalesce { bp } else { bp + 1 };
            let rhs = self.expr(rbp, Some(&after))?;
            lhs = binary(op, after.span, lhs, rhs);
            self.check_neighbor(op)?;
        }
    }

    /// Moves past the tokens of `op` and returns it as the operator whose
    /// right operand comes next.
    fn take_operator(&mut self, op: BinaryOp) -> After {
        let first = self.tok().span;
        if is_compound(op) {
            self.next();
        }
        let span = first.to(self.tok().span);
        self.next();
        After {
            text: op.as_str(),
            span,
        }
    }

    /// The infix operator at the current token, or `None` where the
    /// expression ends. Fails for tokens that can only be a mistake here: `|`
    /// and a compound keyword without `in`.
    ///
    /// A plain operator: its binding power is its level, and it is
    /// left-associative but for the right-associative `??` (§3.7).
    #[inline(always)]
    fn infix(&mut self) -> PResult<Option<BinaryOp>> {
        // In a decision field's default, `in: string` is the next field.
        if self.in_field && self.kind().is_keyword() && self.peek() == TokenKind::Colon {
            return Ok(None);
        }
        let op = match self.kind() {
            TokenKind::Pipe => return Err(self.fail_here(&ParseError::PipeInExpression)),
            TokenKind::Or => BinaryOp::Or,
            TokenKind::Xor => BinaryOp::Xor,
            TokenKind::And => BinaryOp::And,
            TokenKind::Eq => BinaryOp::Eq,
            TokenKind::NotEq => BinaryOp::NotEq,
            TokenKind::Lt => BinaryOp::Lt,
            TokenKind::LtEq => BinaryOp::LtEq,
            TokenKind::Gt => BinaryOp::Gt,
            TokenKind::GtEq => BinaryOp::GtEq,
            TokenKind::In => BinaryOp::In,
            TokenKind::Has => BinaryOp::Has,
            TokenKind::Like => BinaryOp::Like,
            TokenKind::Matches => BinaryOp::Matches,
            TokenKind::Not => return self.compound(BinaryOp::NotIn),
            TokenKind::All => return self.compound(BinaryOp::AllIn),
            TokenKind::Any => return self.compound(BinaryOp::AnyIn),
            TokenKind::One => return self.compound(BinaryOp::OneIn),
            TokenKind::Exclusive => return self.compound(BinaryOp::ExclusiveIn),
            TokenKind::Coalesce => BinaryOp::Coalesce,
            TokenKind::Plus => BinaryOp::Add,
            TokenKind::Minus => BinaryOp::Sub,
            _ => return Ok(None),
        };
        Ok(Some(op))
    }

    /// `not`, `all`, `any`, `one` or `exclusive` at operator position, which
    /// must be followed by `in` (§3.8 rule 1).
    fn compound(&mut self, op: BinaryOp) -> PResult<Option<BinaryOp>> {
        if self.peek() != TokenKind::In {
            let keyword = self.kind().fixed_text().unwrap_or("not");
            return Err(self.fail_here(&ParseError::CompoundWithoutIn {
                keyword,
                operator: op,
            }));
        }
        Ok(Some(op))
    }

    /// Refuses an operator that may not follow `prev` at the same level: a
    /// second comparison, a second `xor`, `or` and `xor` mixed (§3.8 rule 3).
    ///
    /// Only comparisons, `or` and `xor` have such rules, so the operator
    /// after the others isn't looked at here (the loop in `expr_bp` does).
    fn check_neighbor(&mut self, prev: BinaryOp) -> PResult<()> {
        if !(prev.is_comparison() || matches!(prev, BinaryOp::Or | BinaryOp::Xor)) {
            return Ok(());
        }
        let Some(next) = self.infix()? else {
            return Ok(());
        };
        let error = if prev.is_comparison() && next.is_comparison() {
            ParseError::ChainedComparison {
                first: prev,
                second: next,
            }
        } else if prev == BinaryOp::Xor && next == BinaryOp::Xor {
            ParseError::XorChained
        } else if matches!(
            (prev, next),
            (BinaryOp::Xor, BinaryOp::Or) | (BinaryOp::Or, BinaryOp::Xor)
        ) {
            ParseError::OrXorMixed
        } else {
            return Ok(());
        };
        Err(self.fail_here(&error))
    }

    /// The prefix forms (`not`, `-`, `present`, quantifiers, filters) or an
    /// operand with its postfix forms.
    fn prefix(&mut self, min_bp: u8, after: Option<&After>) -> PExpr {
        let kind = self.kind();
        let (op, bp) = match kind {
            TokenKind::Not => {
                self.require_level(min_bp, LoosePrefix::Not, after)?;
                (UnaryOp::Not, NOT)
            }
            TokenKind::Minus => (UnaryOp::Neg, NEG),
            TokenKind::Present => (UnaryOp::Present, NEG),
            TokenKind::Any | TokenKind::All => {
                self.require_level(min_bp, LoosePrefix::Quantifier, after)?;
                return self.binder();
            }
            TokenKind::Filter => {
                self.require_level(min_bp, LoosePrefix::Filter, after)?;
                return self.binder();
            }
            TokenKind::One | TokenKind::Exclusive => return Err(self.not_a_quantifier()),
            _ => {
                let operand = self.primary(after)?;
                return self.postfix(operand);
            }
        };
        let op_span = self.tok().span;
        self.next();
        let after = After {
            text: op.as_str(),
            span: op_span,
        };
        let operand = self.expr(bp, Some(&after))?;
        Ok(unary(op, op_span, operand))
    }

    /// Fails when a level-3 prefix form appears where the surrounding
    /// operator demands something tighter (§3.8 rule 2).
    fn require_level(
        &mut self,
        min_bp: u8,
        what: LoosePrefix,
        after: Option<&After>,
    ) -> PResult<()> {
        if min_bp <= NOT {
            return Ok(());
        }
        let operator = after.map(|a| a.text);
        Err(self.fail_here(&ParseError::LoosePrefix { what, operator }))
    }

    #[cold]
    #[inline(never)]
    fn not_a_quantifier(&mut self) -> Bail {
        let keyword = self.kind().fixed_text().unwrap_or("one");
        self.fail_here(&ParseError::NotAQuantifier { keyword })
    }

    /// `any x in xs: body`, `all …`, `filter …` from the keyword. The range
    /// is parsed at the `??` level, the body as a full expression.
    fn binder(&mut self) -> PExpr {
        let kw = self.tok();
        self.next();
        let var = self.tok();
        if var.kind != TokenKind::Ident {
            return Err(self.binder_error(kw, None));
        }
        self.next();
        let in_tok = self.tok();
        if in_tok.kind != TokenKind::In {
            return Err(self.binder_error(kw, Some(var)));
        }
        self.next();
        let after = After {
            text: "in",
            span: in_tok.span,
        };
        let range = self.expr(COALESCE, Some(&after))?;
        if !self.at(TokenKind::Colon) {
            return Err(self.binder_error(kw, Some(in_tok)));
        }
        self.next();
        let body = self.expr(LOWEST, None)?;
        Ok(binder(kw, var, range, body))
    }

    /// A malformed quantifier or filter: no variable (`seen` is `None`), no
    /// `in` after the variable `seen`, or no `:` (`seen` is the `in`).
    #[cold]
    #[inline(never)]
    fn binder_error(&mut self, kw: Token<'src>, seen: Option<Token<'src>>) -> Bail {
        let shape = if kw.kind == TokenKind::Filter {
            "a filter is written `filter x in xs: condition`".to_owned()
        } else {
            format!("a quantifier is written `{} x in xs: condition`", kw.text)
        };
        let want = match seen {
            None => format!("a variable name after `{}`", kw.text),
            Some(t) if t.kind == TokenKind::In => "`:`".to_owned(),
            Some(var) => format!("`in` after the variable `{}`", var.text),
        };
        self.unexpected(&want, &shape)
    }

    /// Applies any run of `.name`, `?.name`, `[index]` and `(args)` to `x`;
    /// they bind tighter than every operator.
    fn postfix(&mut self, mut x: Box<Expr>) -> PExpr {
        loop {
            let tok = self.tok();
            x = match tok.kind {
                TokenKind::Dot | TokenKind::OptDot => {
                    self.next();
                    let optional = tok.kind == TokenKind::OptDot;
                    let name = self.field_name(optional)?;
                    field(x, name, optional)
                }
                TokenKind::LBracket => {
                    self.next();
                    let index = self.expr(LOWEST, None)?;
                    let close = self.expect_closing(TokenKind::RBracket, tok)?;
                    index_node(x, index, close.span)
                }
                TokenKind::LParen => {
                    self.next();
                    let args = self.list(TokenKind::RParen, tok)?;
                    let close = self.tok().span;
                    self.next();
                    call(x, args, close)
                }
                _ => return Ok(x),
            };
        }
    }

    /// The name after `.` or `?.`.
    fn field_name(&mut self, optional: bool) -> PResult<Ident> {
        if optional {
            self.name("a field name after `?.`")
        } else {
            self.name("a field name after `.`")
        }
    }

    /// A field, payload or argument name, which may be spelled like a
    /// keyword (`resource.kind`, `type: string`; §2.4).
    pub(super) fn name(&mut self, want: &str) -> PResult<Ident> {
        let tok = self.tok();
        if tok.kind != TokenKind::Ident && !tok.kind.is_keyword() {
            return Err(self.unexpected(want, ""));
        }
        self.next();
        Ok(ident(tok))
    }

    /// Comma-separated expressions up to `closing`, a trailing comma
    /// allowed. Leaves the parser on `closing`, which it checked is there.
    fn list(&mut self, closing: TokenKind, open: Token<'src>) -> PResult<Vec<Expr>> {
        let mut items = Vec::new();
        while !self.at(closing) {
            let item = self.expr(LOWEST, None)?;
            push(&mut items, item);
            if !self.at(TokenKind::Comma) {
                break;
            }
            self.next();
        }
        if !self.at(closing) {
            self.expect_closing(closing, open)?;
        }
        Ok(fit(items))
    }

    /// An operand: a name, a literal, or a parenthesized, list or map
    /// expression.
    fn primary(&mut self, after: Option<&After>) -> PExpr {
        let open = self.tok();
        match open.kind {
            TokenKind::LParen => {
                self.next();
                let inner = self.expr(LOWEST, None)?;
                let close = self.expect_closing(TokenKind::RParen, open)?;
                Ok(paren(open.span.to(close.span), inner))
            }
            TokenKind::LBracket => {
                self.next();
                let items = self.list(TokenKind::RBracket, open)?;
                let close = self.tok().span;
                self.next();
                Ok(list(open.span.to(close), items))
            }
            TokenKind::LBrace => self.map(after),
            _ => self.leaf(),
        }
    }

    /// A name or literal at the current token, or the error of a token
    /// that starts no operand.
    #[inline(never)]
    fn leaf(&mut self) -> PExpr {
        let tok = self.tok();
        let text = || tok.text.to_owned();
        let kind = match tok.kind {
            TokenKind::Ident => ExprKind::Ident(text()),
            TokenKind::Int => ExprKind::Int {
                text: text(),
                value: self.value(|| int_value(tok.text).unwrap_or_default()),
            },
            TokenKind::Float => ExprKind::Float {
                text: text(),
                value: self.value(|| float_value(tok.text).unwrap_or_default()),
            },
            TokenKind::Duration => ExprKind::Duration {
                text: text(),
                nanos: self.value(|| duration_nanos(tok.text).unwrap_or_default()),
            },
            TokenKind::String => ExprKind::String {
                text: text(),
                value: self.value(|| string_value(tok.text).unwrap_or_default()),
                raw: false,
            },
            TokenKind::RawString => ExprKind::String {
                text: text(),
                value: self.value(|| raw_string_value(tok.text).as_bytes().to_vec()),
                raw: true,
            },
            TokenKind::True => ExprKind::Bool(true),
            TokenKind::False => ExprKind::Bool(false),
            TokenKind::Outcome => ExprKind::Outcome,
            TokenKind::Separator => {
                return Err(self.fail_here(&ParseError::SeparatorInExpression));
            }
            _ => return Err(self.unexpected("an expression", "")),
        };
        self.next();
        Ok(Box::new(Expr::new(kind, tok.span)))
    }

    /// The value of a literal, which `compute` works out from its text,
    /// or the type's default where the caller doesn't want values
    /// ([`Literals::TextOnly`]).
    fn value<T: Default>(&self, compute: impl FnOnce() -> T) -> T {
        match self.literals {
            Literals::Valued => compute(),
            Literals::TextOnly => T::default(),
        }
    }

    /// `{key: value, …}` from the `{`. Keys are parsed at the `??` level.
    /// A map that begins like a rule body (a statement keyword, or a
    /// constructor `name(name: …`) right after an operator means the
    /// operator lost its right operand (§3.8 rule 5).
    fn map(&mut self, after: Option<&After>) -> PExpr {
        let open = self.tok();
        self.next();
        let mut entries = Vec::new();
        while !self.at(TokenKind::RBrace) {
            let first = entries.is_empty();
            if first && (starts_body_stmt(self.kind()) || self.at_constructor()) {
                self.missing_operand(after, open)?;
            }
            let key = self.expr(COALESCE, None)?;
            if first && is_call(&key) && !self.at(TokenKind::Colon) {
                self.missing_operand(after, open)?;
            }
            self.expect(TokenKind::Colon, "a map entry is written `key: value`")?;
            let value = self.expr(LOWEST, None)?;
            push_entry(&mut entries, key, value);
            if !self.at(TokenKind::Comma) {
                break;
            }
            self.next();
        }
        let close = self.expect_closing(TokenKind::RBrace, open)?;
        Ok(map(open.span.to(close.span), fit(entries)))
    }

    /// Fails at `after`, whose right operand is a map literal that is really
    /// a rule body, and remembers the `{` so that `when` can parse the body.
    /// At the start of an expression (no operator) it does nothing and the
    /// map's own error stands.
    fn missing_operand(&mut self, after: Option<&After>, open: Token<'src>) -> PResult<()> {
        let Some(after) = after else {
            return Ok(());
        };
        self.lost_body = Some(open);
        let error = ParseError::MissingRightOperand {
            operator: after.text,
        };
        Err(self.fail(&error, after.span))
    }

    /// Whether the current token starts a call whose first argument is named
    /// (`deny(reason: a)`): a statement, since expression calls take
    /// positional arguments only.
    fn at_constructor(&self) -> bool {
        let name = self.peek_at(2).kind;
        self.at(TokenKind::Ident)
            && self.peek() == TokenKind::LParen
            && (name == TokenKind::Ident || name.is_keyword())
            && self.peek_at(3).kind == TokenKind::Colon
    }
}

/// Whether `op` is spelled with two tokens (`not in`).
fn is_compound(op: BinaryOp) -> bool {
    matches!(
        op,
        BinaryOp::NotIn
            | BinaryOp::AllIn
            | BinaryOp::AnyIn
            | BinaryOp::OneIn
            | BinaryOp::ExclusiveIn
    )
}

/// Whether `kind` starts a statement of a `when` body other than a call.
fn starts_body_stmt(kind: TokenKind) -> bool {
    matches!(
        kind,
        TokenKind::When | TokenKind::Let | TokenKind::Pub | TokenKind::Assert
    )
}

/// The name a token spells, with its span.
pub(super) fn ident(tok: Token<'_>) -> Ident {
    Ident {
        name: tok.text.to_owned(),
        span: tok.span,
    }
}

// ---- node builders --------------------------------------------------------------
//
// Out of line, so that the node temporaries live in their frames and not in
// the frames of the recursive parse functions.

#[inline(never)]
fn binary(op: BinaryOp, op_span: Span, lhs: Box<Expr>, rhs: Box<Expr>) -> Box<Expr> {
    let span = lhs.span.to(rhs.span);
    Box::new(Expr::new(
        ExprKind::Binary {
            op,
            op_span,
            lhs,
            rhs,
        },
        span,
    ))
}

#[inline(never)]
fn unary(op: UnaryOp, op_span: Span, operand: Box<Expr>) -> Box<Expr> {
    let span = op_span.to(operand.span);
    Box::new(Expr::new(
        ExprKind::Unary {
            op,
            op_span,
            operand,
        },
        span,
    ))
}

#[inline(never)]
fn binder(kw: Token<'_>, var: Token<'_>, range: Box<Expr>, body: Box<Expr>) -> Box<Expr> {
    let span = kw.span.to(body.span);
    let var = ident(var);
    let kind = match kw.kind {
        TokenKind::Filter => ExprKind::Filter { var, range, body },
        TokenKind::All => ExprKind::Quantifier {
            quantifier: Quantifier::All,
            var,
            range,
            body,
        },
        _ => ExprKind::Quantifier {
            quantifier: Quantifier::Any,
            var,
            range,
            body,
        },
    };
    Box::new(Expr::new(kind, span))
}

#[inline(never)]
fn field(target: Box<Expr>, name: Ident, optional: bool) -> Box<Expr> {
    let span = target.span.to(name.span);
    Box::new(Expr::new(
        ExprKind::Field {
            target,
            name,
            optional,
        },
        span,
    ))
}

#[inline(never)]
fn index_node(target: Box<Expr>, index: Box<Expr>, close: Span) -> Box<Expr> {
    let span = target.span.to(close);
    Box::new(Expr::new(ExprKind::Index { target, index }, span))
}

#[inline(never)]
fn call(callee: Box<Expr>, args: Vec<Expr>, close: Span) -> Box<Expr> {
    let span = callee.span.to(close);
    Box::new(Expr::new(ExprKind::Call { callee, args }, span))
}

#[inline(never)]
fn paren(span: Span, inner: Box<Expr>) -> Box<Expr> {
    Box::new(Expr::new(ExprKind::Paren(inner), span))
}

#[inline(never)]
fn list(span: Span, items: Vec<Expr>) -> Box<Expr> {
    Box::new(Expr::new(ExprKind::List(items), span))
}

#[inline(never)]
fn map(span: Span, entries: Vec<MapEntry>) -> Box<Expr> {
    Box::new(Expr::new(ExprKind::Map(entries), span))
}

#[inline(never)]
#[expect(
    clippy::boxed_local,
    reason = "the caller hands over the box it parsed; unboxing here keeps the move out of its frame"
)]
fn push(items: &mut Vec<Expr>, item: Box<Expr>) {
    items.push(*item);
}

#[inline(never)]
#[expect(
    clippy::boxed_local,
    reason = "the caller hands over the box it parsed; unboxing here keeps the move out of its frame"
)]
fn push_entry(entries: &mut Vec<MapEntry>, key: Box<Expr>, value: Box<Expr>) {
    entries.push(MapEntry {
        key: *key,
        value: *value,
    });
}

fn is_call(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Call { .. })
}

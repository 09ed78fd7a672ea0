//! Kind documents (language-core §3.4, language-policies §2, §2.17).
//!
//! Only syntax is checked here; the validity rules of a kind (a precedence
//! naming every decision, no recursive types, …) are the kind loader's. A
//! broken declaration is skipped to the next declaration keyword, `---` or
//! header. The legacy decision form `decision d(f: T) { r1 r2 }` parses
//! (marked `legacy`) so that the loader can reject it and the formatter
//! rewrite it.

use super::error::{ENUM_SHAPE, EXCLUSIVE_SHAPE, KIND_SHAPE, REASONS_SHAPE};
use super::expr::LOWEST;
use super::{PResult, ParseError, Parser, is_header_keyword};
use crate::ast::{
    CollectDecl, DecisionDecl, Decl, EnumDecl, ExclusiveDecl, Expr, Field, FnDecl, Ident,
    InputDecl, KindDoc, OutcomeDecl, OutcomeRef, PrecedenceDecl, TypeDecl,
};
use crate::lexer::{Token, TokenKind};

const DECISION_SHAPE: &str = "a decision is written `decision name { reason: a | b  field: type = default }`, with the payload fields optional";
const TYPE_SHAPE: &str = "a type is written `type Name { field: type }`";

impl<'src> Parser<'src> {
    /// A kind document from its `kind` keyword to the end of the document.
    pub(super) fn kind_doc(&mut self) -> PResult<KindDoc> {
        let kw = self.tok();
        self.next();
        let name = self.expect_ident("the kind's name after `kind`", KIND_SHAPE)?;
        self.expect(TokenKind::Version, KIND_SHAPE)?;
        if !self.at(TokenKind::Int) {
            return Err(self.unexpected("a version number", KIND_SHAPE));
        }
        let version = self.int_lit();
        let mut accepts = None;
        if self.at(TokenKind::Comma) {
            self.next();
            let option = self.expect_ident("`accepts` after `,`", KIND_SHAPE)?;
            if option.name != "accepts" {
                let error = ParseError::KindHeaderOption { name: option.name };
                return Err(self.fail(&error, option.span));
            }
            self.expect(TokenKind::Colon, KIND_SHAPE)?;
            if !self.at(TokenKind::Int) {
                return Err(self.unexpected("the oldest version policies may pin", KIND_SHAPE));
            }
            accepts = Some(self.int_lit());
        }
        let end = accepts.as_ref().map_or(version.span, |a| a.span);
        let mut doc = KindDoc {
            span: kw.span.to(end),
            name,
            version,
            accepts,
            decls: Vec::new(),
        };
        while !self.at_doc_end() {
            if let Some(decl) = self.recover(Parser::decl, Parser::sync_kind) {
                doc.span = doc.span.to(decl.span());
                doc.decls.push(decl);
            }
        }
        Ok(doc)
    }

    /// Skips to the next declaration, `---` or header.
    fn sync_kind(&mut self) {
        self.sync(|p| p.at(TokenKind::Separator) || p.at_header() || is_decl_keyword(p.kind()));
    }

    fn decl(&mut self) -> PResult<Decl> {
        match self.kind() {
            TokenKind::Type => self.type_decl().map(Decl::Type),
            TokenKind::Enum => self.enum_decl().map(Decl::Enum),
            TokenKind::Input => self.input_decl().map(Decl::Input),
            TokenKind::Fn => self.fn_decl().map(Decl::Fn),
            TokenKind::Decision => self.decision_decl().map(Decl::Decision),
            TokenKind::Precedence => self.precedence_decl().map(Decl::Precedence),
            TokenKind::Exclusive => self.exclusive_decl().map(Decl::Exclusive),
            TokenKind::Collect => self.collect_decl().map(Decl::Collect),
            TokenKind::Default => self
                .outcome_decl("the default is written `default deny(reason: no_rule_matched)`")
                .map(Decl::Default),
            TokenKind::Conflict => self
                .outcome_decl(
                    "the conflict outcome is written `conflict deny(reason: conflicting_rules)`",
                )
                .map(Decl::Conflict),
            _ => Err(self.unexpected(
                "a declaration (`type`, `enum`, `input`, `fn`, `decision`, `precedence`, `exclusive`, `collect`, `default` or `conflict`)",
                "",
            )),
        }
    }

    /// Whether the body of `open` is missing its `}`: the input or document
    /// ends, or a declaration or header keyword that isn't a field name
    /// (`type: string` is a field) comes next.
    fn at_unclosed_body(&self) -> bool {
        let kind = self.kind();
        matches!(kind, TokenKind::Eof | TokenKind::Separator)
            || ((is_decl_keyword(kind) || is_header_keyword(kind))
                && self.peek() != TokenKind::Colon)
    }

    /// `type Name { field: T … }`: fields without separators, each ending
    /// where the next `name:` begins.
    fn type_decl(&mut self) -> PResult<TypeDecl> {
        let kw = self.tok();
        self.next();
        let name = self.expect_ident("a type name after `type`", TYPE_SHAPE)?;
        let open = self.expect(TokenKind::LBrace, TYPE_SHAPE)?;
        let mut fields = Vec::new();
        while !self.at(TokenKind::RBrace) {
            if self.at_unclosed_body() {
                self.expect_closing(TokenKind::RBrace, open)?;
            }
            let field_name = self.name("a field name")?;
            self.expect(TokenKind::Colon, "a field is written `name: type`")?;
            let ty = self.ty()?;
            if self.at(TokenKind::Assign) {
                return Err(self.fail_here(&ParseError::TypeFieldDefault));
            }
            fields.push(Field {
                span: field_name.span.to(ty.span),
                name: field_name,
                ty,
                default: None,
            });
        }
        let span = kw.span.to(self.tok().span);
        self.next();
        Ok(TypeDecl { name, fields, span })
    }

    /// `input name: T`.
    fn input_decl(&mut self) -> PResult<InputDecl> {
        const SHAPE: &str = "an input is written `input name: type`";
        let kw = self.tok();
        self.next();
        let name = self.expect_ident("a name after `input`", SHAPE)?;
        self.expect(TokenKind::Colon, SHAPE)?;
        let ty = self.ty()?;
        Ok(InputDecl {
            span: kw.span.to(ty.span),
            name,
            ty,
        })
    }

    /// `fn name(T, …) -> R`: parameters are types only.
    fn fn_decl(&mut self) -> PResult<FnDecl> {
        const SHAPE: &str = "a function is written `fn name(type, type) -> type`";
        let kw = self.tok();
        self.next();
        let name = self.expect_ident("a name after `fn`", SHAPE)?;
        let open = self.expect(TokenKind::LParen, SHAPE)?;
        let mut params = Vec::new();
        while !self.at(TokenKind::RParen) {
            if self.at(TokenKind::Ident) && self.peek() == TokenKind::Colon {
                return Err(self.fail_here(&ParseError::FnParamName));
            }
            params.push(self.ty()?);
            if !self.at(TokenKind::Comma) {
                break;
            }
            self.next();
        }
        self.expect_closing(TokenKind::RParen, open)?;
        self.expect(TokenKind::Arrow, SHAPE)?;
        let result = self.ty()?;
        Ok(FnDecl {
            span: kw.span.to(result.span),
            name,
            params,
            result,
        })
    }

    /// `enum Name: a | b | c`.
    fn enum_decl(&mut self) -> PResult<EnumDecl> {
        let kw = self.tok();
        self.next();
        let name = self.expect_ident("a name after `enum`", ENUM_SHAPE)?;
        self.expect(TokenKind::Colon, ENUM_SHAPE)?;
        let values = self.alternatives(false)?;
        let end = values.last().map_or(name.span, |v| v.span);
        Ok(EnumDecl {
            span: kw.span.to(end),
            name,
            values,
        })
    }

    /// `a | b | c`: an enum's values (`reasons: false`) or a decision's
    /// reasons. Line breaks may fall on either side of a `|`.
    fn alternatives(&mut self, reasons: bool) -> PResult<Vec<Ident>> {
        let mut names = vec![self.alternative(reasons)?];
        loop {
            match self.kind() {
                TokenKind::Pipe => {
                    self.next();
                    names.push(self.alternative(reasons)?);
                }
                TokenKind::Comma => {
                    return Err(self.fail_here(&ParseError::CommaBetweenValues { reasons }));
                }
                _ => return Ok(names),
            }
        }
    }

    /// One enum value or reason. A keyword gets its own error (`one`, `all`
    /// read like names); a declaration or header keyword more likely
    /// follows a trailing `|` and gets the plain one.
    fn alternative(&mut self, reasons: bool) -> PResult<Ident> {
        let (want, shape) = if reasons {
            ("a reason", REASONS_SHAPE)
        } else {
            ("an enum value", ENUM_SHAPE)
        };
        let tok = self.tok();
        if tok.kind.is_keyword() && !is_decl_keyword(tok.kind) && !is_header_keyword(tok.kind) {
            let error = ParseError::KeywordValue {
                want,
                keyword: tok.text.to_owned(),
                reasons,
            };
            return Err(self.fail_here(&error));
        }
        self.expect_ident(want, shape)
    }

    /// `decision name { reason: a | b  field: T = c }`, or the legacy
    /// `decision name(field: T = c) { a b }`; a block of bare names is
    /// legacy too, with or without the parentheses.
    fn decision_decl(&mut self) -> PResult<DecisionDecl> {
        let kw = self.tok();
        self.next();
        let name = self.expect_ident("a name after `decision`", DECISION_SHAPE)?;
        let mut decision = DecisionDecl {
            span: kw.span,
            name,
            reason_label: None,
            reasons: Vec::new(),
            fields: Vec::new(),
            legacy: false,
        };
        if self.at(TokenKind::LParen) {
            decision.legacy = true;
            decision.fields = self.payload_fields()?;
        }
        let open = self.expect(TokenKind::LBrace, DECISION_SHAPE)?;
        if decision.legacy && self.at_field() {
            return Err(self.fail_here(&ParseError::LegacyFieldsInParens));
        }
        if decision.legacy || (self.at(TokenKind::Ident) && !self.at_field()) {
            decision.legacy = true;
            self.legacy_reasons(&mut decision, open)?;
        } else {
            self.decision_members(&mut decision, open)?;
        }
        let close = self.expect_closing(TokenKind::RBrace, open)?;
        decision.span = kw.span.to(close.span);
        Ok(decision)
    }

    /// Whether the current token starts `name:` (the name may be a keyword).
    fn at_field(&self) -> bool {
        (self.at(TokenKind::Ident) || self.kind().is_keyword()) && self.peek() == TokenKind::Colon
    }

    /// The body of a decision in the current syntax: `reason:` and the
    /// payload fields in any order, up to the `}`.
    fn decision_members(&mut self, d: &mut DecisionDecl, open: Token<'src>) -> PResult<()> {
        while !self.at(TokenKind::RBrace) {
            if self.at_unclosed_body() {
                self.expect_closing(TokenKind::RBrace, open)?;
            }
            let member = self.name("a field name or `reason:`")?;
            self.expect(
                TokenKind::Colon,
                "a payload field is written `name: type` or `name: type = default`",
            )?;
            if member.name == "reason" {
                if d.reason_label.is_some() {
                    let error = ParseError::ReasonTwice {
                        decision: d.name.name.clone(),
                    };
                    return Err(self.fail(&error, member.span));
                }
                d.reason_label = Some(member);
                d.reasons = self.reasons()?;
                continue;
            }
            let ty = self.ty()?;
            let default = if self.at(TokenKind::Assign) {
                self.next();
                Some(self.field_default()?)
            } else {
                None
            };
            d.fields.push(field(member, ty, default));
        }
        if d.reason_label.is_none() {
            let error = ParseError::DecisionNoReason {
                decision: d.name.name.clone(),
            };
            return Err(self.fail(&error, open.span));
        }
        Ok(())
    }

    /// A payload field's default, where a keyword followed by `:` starts the
    /// next field (`in: string`) rather than continuing the expression.
    fn field_default(&mut self) -> PResult<Expr> {
        self.in_field = true;
        let result = self.expr(LOWEST, None);
        self.in_field = false;
        result.map(|e| *e)
    }

    /// The names after `reason:`, an inline list that never names a type.
    fn reasons(&mut self) -> PResult<Vec<Ident>> {
        let start = self.tok();
        if matches!(start.kind, TokenKind::Question | TokenKind::Coalesce) {
            return Err(self.fail_here(&ParseError::ReasonIsType));
        }
        let reasons = self.alternatives(true)?;
        match self.kind() {
            TokenKind::Lt if reasons.len() == 1 => {
                let span = start.span.to(self.tok().span);
                Err(self.fail(&ParseError::ReasonIsType, span))
            }
            TokenKind::Assign => Err(self.fail_here(&ParseError::ReasonDefault)),
            _ => Ok(reasons),
        }
    }

    /// The reason block of the legacy syntax: bare names up to the `}`.
    fn legacy_reasons(&mut self, d: &mut DecisionDecl, open: Token<'src>) -> PResult<()> {
        while !self.at(TokenKind::RBrace) && !self.at_decl_end() {
            d.reasons.push(self.expect_ident(
                "a reason name",
                "reasons are bare identifiers, one per line, like `soak_too_short`",
            )?);
        }
        if d.reasons.is_empty() {
            let error = ParseError::LegacyNoReasons {
                decision: d.name.name.clone(),
            };
            return Err(self.fail(&error, open.span));
        }
        Ok(())
    }

    /// Whether the current token starts another declaration or ends the
    /// document (a legacy reason block that was never closed).
    fn at_decl_end(&self) -> bool {
        is_decl_keyword(self.kind()) || self.at_doc_end()
    }

    /// `(name: T = default, …)` after a legacy decision's name. A first
    /// field called `reason` is the older form still, a string parameter.
    fn payload_fields(&mut self) -> PResult<Vec<Field>> {
        let open = self.expect(TokenKind::LParen, DECISION_SHAPE)?;
        let mut fields = Vec::new();
        while !self.at(TokenKind::RParen) && !self.at(TokenKind::Eof) {
            let name = self.name("a field name")?;
            if fields.is_empty() && name.name == "reason" {
                return Err(self.fail(&ParseError::ReasonStringParam, name.span));
            }
            self.expect(
                TokenKind::Colon,
                "a field is written `name: type` or `name: type = default`",
            )?;
            let ty = self.ty()?;
            let default = if self.at(TokenKind::Assign) {
                self.next();
                Some(*self.expr(LOWEST, None)?)
            } else {
                None
            };
            fields.push(field(name, ty, default));
            if !self.at(TokenKind::Comma) {
                break;
            }
            self.next();
        }
        self.expect_closing(TokenKind::RParen, open)?;
        Ok(fields)
    }

    /// `precedence a > b > c`, or `precedence d: r1 > r2`.
    fn precedence_decl(&mut self) -> PResult<PrecedenceDecl> {
        const SHAPE: &str = "precedence is written `precedence deny > review > approve`, highest first, or `precedence approve: a > b` for one decision's reasons";
        let kw = self.tok();
        self.next();
        let mut first = self.expect_ident("a decision name after `precedence`", SHAPE)?;
        let mut scope = None;
        if self.at(TokenKind::Colon) {
            self.next();
            scope = Some(first);
            first = self.expect_ident("a reason name after `:`", SHAPE)?;
        }
        let mut names = vec![first];
        while self.at(TokenKind::Gt) {
            self.next();
            names.push(self.expect_ident("a name after `>`", SHAPE)?);
        }
        let end = names.last().map_or(kw.span, |n| n.span);
        Ok(PrecedenceDecl {
            scope,
            names,
            span: kw.span.to(end),
        })
    }

    /// `exclusive a, b.r, …`: at least two outcomes.
    fn exclusive_decl(&mut self) -> PResult<ExclusiveDecl> {
        let kw = self.tok();
        self.next();
        let mut outcomes = vec![self.outcome_ref()?];
        while self.at(TokenKind::Comma) {
            self.next();
            outcomes.push(self.outcome_ref()?);
        }
        let end = outcomes.last().map_or(kw.span, outcome_span);
        if outcomes.len() < 2 {
            return Err(self.fail(&ParseError::ExclusiveOneOutcome, kw.span.to(end)));
        }
        Ok(ExclusiveDecl {
            outcomes,
            span: kw.span.to(end),
        })
    }

    /// A decision name with an optional `.reason`.
    fn outcome_ref(&mut self) -> PResult<OutcomeRef> {
        let decision = self.expect_ident("a decision name", EXCLUSIVE_SHAPE)?;
        let mut reason = None;
        if self.at(TokenKind::Dot) {
            self.next();
            reason = Some(self.expect_ident("a reason name after `.`", EXCLUSIVE_SHAPE)?);
        }
        Ok(OutcomeRef { decision, reason })
    }

    /// `collect one` or `collect all`.
    fn collect_decl(&mut self) -> PResult<CollectDecl> {
        let kw = self.tok();
        self.next();
        let mode = self.tok();
        if !matches!(mode.kind, TokenKind::One | TokenKind::All) {
            return Err(self.unexpected(
                "`one` or `all`",
                "`collect one` returns the highest-ranked decision, `collect all` every decision that fired",
            ));
        }
        self.next();
        Ok(CollectDecl {
            all: mode.kind == TokenKind::All,
            span: kw.span.to(mode.span),
        })
    }

    /// `default d(…)` or `conflict d(…)`; `help` is the declaration's shape.
    fn outcome_decl(&mut self, help: &str) -> PResult<OutcomeDecl> {
        let kw = self.tok();
        self.next();
        if !self.at(TokenKind::Ident) || self.peek() != TokenKind::LParen {
            return Err(self.unexpected("a decision constructor", help));
        }
        let call = self.call()?;
        Ok(OutcomeDecl {
            span: kw.span.to(call.span),
            call,
        })
    }
}

/// Whether `kind` starts a kind declaration.
fn is_decl_keyword(kind: TokenKind) -> bool {
    matches!(
        kind,
        TokenKind::Type
            | TokenKind::Enum
            | TokenKind::Input
            | TokenKind::Fn
            | TokenKind::Decision
            | TokenKind::Precedence
            | TokenKind::Exclusive
            | TokenKind::Collect
            | TokenKind::Default
            | TokenKind::Conflict
    )
}

/// A field with its span, from the name to the default or type.
fn field(name: Ident, ty: crate::ast::Type, default: Option<Expr>) -> Field {
    let end = default.as_ref().map_or(ty.span, |d| d.span);
    Field {
        span: name.span.to(end),
        name,
        ty,
        default,
    }
}

/// From the decision's name to the reason's, if any.
fn outcome_span(o: &OutcomeRef) -> crate::source::Span {
    o.reason
        .as_ref()
        .map_or(o.decision.span, |r| o.decision.span.to(r.span))
}

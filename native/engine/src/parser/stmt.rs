//! Documents, and the statements of policies and modules
//! (language-core §3.2–§3.3, language-policies §1.2, §3, §4).
//!
//! A file is a run of documents, each started by a header keyword at
//! statement position; `---` between them is optional. A broken header loses
//! its document (parsing resumes at the next header or `---`); a broken
//! statement loses only itself (parsing resumes at the next statement
//! keyword, or an invocation `name(`).

use super::error::{IMPORT_HELP, PARAM_BOUNDS_SHAPE, TopLevelOnly};
use super::expr::{LOWEST, ident};
use super::{Bail, Nesting, PResult, ParseError, Parser, fit, is_header_keyword};
use crate::ast::{
    Assert, CallStmt, Document, DottedName, Expr, ExprKind, Ident, Import, ImportItem, IntLit, Let,
    ModuleDoc, NamedArg, Param, PolicyDoc, Stmt, StringLit, Use, When,
};
use crate::lexer::{Token, TokenKind, int_value, string_value};
use crate::source::Span;

impl<'src> Parser<'src> {
    /// Every document of the file, in source order.
    pub(super) fn documents(&mut self) -> Vec<Document> {
        let mut docs = Vec::new();
        loop {
            let separator = self.skip_separators();
            if self.at(TokenKind::Eof) {
                return docs;
            }
            if let Some(doc) = self.recover(|p| p.document(separator), Parser::sync_doc) {
                docs.push(doc);
            }
        }
    }

    /// Moves past a run of `---` and returns the last one.
    fn skip_separators(&mut self) -> Option<Token<'src>> {
        let mut last = None;
        while self.at(TokenKind::Separator) {
            last = Some(self.tok());
            self.next();
        }
        last
    }

    fn document(&mut self, separator: Option<Token<'src>>) -> PResult<Document> {
        match self.kind() {
            TokenKind::Policy => self.policy().map(Document::Policy),
            TokenKind::Module => self.module().map(Document::Module),
            TokenKind::Kind => self.kind_doc().map(Document::Kind),
            _ => Err(self.no_header(separator)),
        }
    }

    /// Text where a header should be. Right after a `---`, an operand is
    /// most likely arithmetic gone wrong (`a---b` split across lines).
    fn no_header(&mut self, separator: Option<Token<'src>>) -> Bail {
        if let Some(sep) = separator
            && starts_operand(self.kind())
        {
            return self.fail(&ParseError::SeparatorInExpression, sep.span);
        }
        self.unexpected(
            "a document header (`policy`, `module` or `kind`)",
            "every document starts with `policy name: Kind`, `module name: Kind` or `kind Name version N`",
        )
    }

    /// Whether the current token ends a document: the end of the input, a
    /// separator or the next header keyword (at statement position, where
    /// header keywords are never names).
    pub(super) fn at_doc_end(&self) -> bool {
        matches!(self.kind(), TokenKind::Eof | TokenKind::Separator)
            || is_header_keyword(self.kind())
    }

    /// `name: Kind@N` after `policy` or `module` (the keyword is current).
    /// The pin is optional here; the checker reports a missing one.
    fn header(&mut self) -> PResult<(Token<'src>, DottedName, Ident, Option<IntLit>)> {
        let kw = self.tok();
        self.next();
        let shape = format!("a {0} starts with `{0} name: Kind@N`", kw.text);
        let name = self.dotted_name(&format!("a name after `{}`", kw.text))?;
        self.expect(TokenKind::Colon, &shape)?;
        let kind = self.expect_ident("the kind's name after `:`", &shape)?;
        if !self.at(TokenKind::At) {
            return Ok((kw, name, kind, None));
        }
        self.next();
        if !self.at(TokenKind::Int) {
            return Err(self.unexpected("a kind version after `@`", &shape));
        }
        let pin = self.int_lit();
        Ok((kw, name, kind, Some(pin)))
    }

    /// The current `Int` token as a literal (the caller checked the kind).
    pub(super) fn int_lit(&mut self) -> IntLit {
        let tok = self.tok();
        self.next();
        IntLit {
            text: tok.text.to_owned(),
            value: int_value(tok.text).unwrap_or_default(),
            span: tok.span,
        }
    }

    fn policy(&mut self) -> PResult<PolicyDoc> {
        let (kw, name, kind, pin) = self.header()?;
        let mut doc = PolicyDoc {
            span: kw.span.to(pin.as_ref().map_or(kind.span, |p| p.span)),
            name,
            kind,
            pin,
            uses: Vec::new(),
            stmts: Vec::new(),
        };
        while !self.at_doc_end() {
            if self.at(TokenKind::Use) {
                if let Some(u) = self.recover(Parser::use_stmt, Parser::sync_top) {
                    if !doc.stmts.is_empty() {
                        self.report(&ParseError::UseNotFirst, u.span);
                    }
                    doc.span = doc.span.to(u.span);
                    doc.uses.push(u);
                }
            } else if let Some(stmt) = self.recover(Parser::policy_stmt, Parser::sync_top) {
                doc.span = doc.span.to(stmt.span());
                doc.stmts.push(stmt);
            }
        }
        doc.stmts.shrink_to_fit();
        Ok(doc)
    }

    /// A module holds only imports and lets; anything else is parsed,
    /// reported and dropped, so the rest of the module still parses.
    fn module(&mut self) -> PResult<ModuleDoc> {
        let (kw, name, kind, pin) = self.header()?;
        let mut doc = ModuleDoc {
            span: kw.span.to(pin.as_ref().map_or(kind.span, |p| p.span)),
            name,
            kind,
            pin,
            uses: Vec::new(),
            lets: Vec::new(),
        };
        while !self.at_doc_end() {
            let had_lets = !doc.lets.is_empty();
            let parsed = self.recover(|p| p.module_stmt(had_lets), Parser::sync_top);
            match parsed {
                Some(ModuleItem::Use(u)) => {
                    doc.span = doc.span.to(u.span);
                    doc.uses.push(u);
                }
                Some(ModuleItem::Let(l)) => {
                    doc.span = doc.span.to(l.span);
                    doc.lets.push(l);
                }
                Some(ModuleItem::Dropped) | None => {}
            }
        }
        doc.lets.shrink_to_fit();
        Ok(doc)
    }

    fn module_stmt(&mut self, had_lets: bool) -> PResult<ModuleItem> {
        match self.kind() {
            TokenKind::Use => {
                let u = self.use_stmt()?;
                if had_lets {
                    self.report(&ParseError::UseNotFirst, u.span);
                }
                Ok(ModuleItem::Use(u))
            }
            TokenKind::Let | TokenKind::Pub => self.let_stmt().map(ModuleItem::Let),
            _ => {
                let stmt = self.policy_stmt()?;
                let what = match stmt {
                    Stmt::Param(_) => "`param`",
                    Stmt::When(_) => "`when`",
                    Stmt::Assert(_) => "`assert`",
                    Stmt::Call(_) => "an invocation",
                    Stmt::Let(_) => "`let`",
                };
                self.report(&ParseError::ModuleCantContain { what }, stmt.span());
                Ok(ModuleItem::Dropped)
            }
        }
    }

    /// Skips to the next top-level statement of a policy or module, or to
    /// where the document ends.
    fn sync_top(&mut self) {
        self.sync(|p| match p.kind() {
            TokenKind::Use
            | TokenKind::Param
            | TokenKind::Let
            | TokenKind::Pub
            | TokenKind::When
            | TokenKind::Assert
            | TokenKind::Separator => true,
            TokenKind::Ident => p.peek() == TokenKind::LParen,
            _ => p.at_header(),
        });
    }

    /// Skips to the next statement of a `when` body, its `}`, or where the
    /// document ends. Top-level keywords stop it too, so their "move it"
    /// errors still fire.
    fn sync_body(&mut self) {
        self.sync(|p| match p.kind() {
            TokenKind::When
            | TokenKind::Assert
            | TokenKind::RBrace
            | TokenKind::Use
            | TokenKind::Param
            | TokenKind::Let
            | TokenKind::Pub
            | TokenKind::Separator => true,
            TokenKind::Ident => p.peek() == TokenKind::LParen,
            _ => p.at_header(),
        });
    }

    /// Consumes an identifier, or fails with ``expected <want>, found …``.
    pub(super) fn expect_ident(&mut self, want: &str, help: &str) -> PResult<Ident> {
        let tok = self.tok();
        if tok.kind != TokenKind::Ident {
            return Err(self.unexpected(want, help));
        }
        self.next();
        Ok(ident(tok))
    }

    /// A dotted name such as `deploy.common`, whose segments touch their
    /// dots. It stops before a `.{` (a selective import).
    fn dotted_name(&mut self, want: &str) -> PResult<DottedName> {
        let mut parts = vec![self.expect_ident(want, "")?];
        while self.at(TokenKind::Dot) {
            let dot = self.tok();
            let last_end = parts.last().map_or(dot.span.start, |p| p.span.end);
            if dot.span.start != last_end {
                return Err(self.fail(&ParseError::NameSpaces { before: true }, dot.span));
            }
            let next = self.peek_at(1);
            if next.kind == TokenKind::LBrace {
                break;
            }
            if next.kind != TokenKind::Ident {
                self.next();
                return Err(self.unexpected("a name after `.`", ""));
            }
            if next.span.start != dot.span.end {
                return Err(self.fail(&ParseError::NameSpaces { before: false }, dot.span));
            }
            self.next();
            parts.push(self.expect_ident("a name after `.`", "")?);
        }
        Ok(DottedName { parts })
    }

    /// `use a.b`, `use a.b as c` or `use a.b.{x, y as z}`.
    fn use_stmt(&mut self) -> PResult<Use> {
        let kw = self.tok();
        self.next();
        let path = self.dotted_name("a policy or module name after `use`")?;
        let mut end = path.span();
        let import = match self.kind() {
            TokenKind::As => {
                self.next();
                let alias = self.expect_ident("a name after `as`", "")?;
                end = alias.span;
                Import::Alias(alias)
            }
            TokenKind::Dot => {
                self.next();
                let open = self.expect(TokenKind::LBrace, "")?;
                let items = self.import_items(open)?;
                end = self.tok().span;
                self.next();
                Import::Items(items)
            }
            _ => Import::Whole,
        };
        Ok(Use {
            path,
            import,
            span: kw.span.to(end),
        })
    }

    /// The names in `.{…}`, leaving the parser on the `}`.
    fn import_items(&mut self, open: Token<'src>) -> PResult<Vec<ImportItem>> {
        let mut items = Vec::new();
        while !self.at(TokenKind::RBrace) {
            let name = self.expect_ident("a name to import", IMPORT_HELP)?;
            let alias = if self.at(TokenKind::As) {
                self.next();
                Some(self.expect_ident("a name after `as`", "")?)
            } else {
                None
            };
            items.push(ImportItem { name, alias });
            if !self.at(TokenKind::Comma) {
                break;
            }
            self.next();
        }
        if !self.at(TokenKind::RBrace) {
            self.expect_closing(TokenKind::RBrace, open)?;
        }
        if items.is_empty() {
            let span = open.span.to(self.tok().span);
            return Err(self.fail(&ParseError::EmptyImport, span));
        }
        Ok(items)
    }

    /// One top-level statement of a policy (`use` is the document's).
    fn policy_stmt(&mut self) -> PResult<Stmt> {
        match self.kind() {
            TokenKind::Param => self.param().map(|p| Stmt::Param(Box::new(p))),
            TokenKind::Let | TokenKind::Pub => self.let_stmt().map(|l| Stmt::Let(Box::new(l))),
            TokenKind::When => self.when().map(Stmt::When),
            TokenKind::Assert => self.assert().map(|a| Stmt::Assert(Box::new(a))),
            TokenKind::Enum => Err(self.fail_here(&ParseError::EnumOutsideKind)),
            TokenKind::Ident if self.peek() == TokenKind::LParen => {
                self.call().map(|c| Stmt::Call(Box::new(c)))
            }
            TokenKind::Ident => {
                let name = self.tok().text.to_owned();
                Err(self.fail_here(&ParseError::BareNameStatement { name }))
            }
            _ => Err(self.unexpected("`param`, `let`, `when`, `assert` or an invocation", "")),
        }
    }

    /// `param name: T [= default] [, min: lo] [, max: hi]`.
    fn param(&mut self) -> PResult<Param> {
        const SHAPE: &str = "a param is written `param name: type` or `param name: type = default`";
        let kw = self.tok();
        self.next();
        let name = self.expect_ident("a name after `param`", SHAPE)?;
        self.expect(TokenKind::Colon, SHAPE)?;
        let ty = self.ty()?;
        let mut param = Param {
            span: kw.span.to(ty.span),
            name,
            ty,
            default: None,
            min: None,
            max: None,
        };
        if self.at(TokenKind::Assign) {
            self.next();
            let default = *self.expr(LOWEST, None)?;
            param.span = param.span.to(default.span);
            param.default = Some(default);
        }
        while self.at(TokenKind::Comma) {
            self.next();
            let option = self.expect_ident("`min` or `max` after `,`", PARAM_BOUNDS_SHAPE)?;
            let is_min = match option.name.as_str() {
                "min" => true,
                "max" => false,
                _ => {
                    let error = ParseError::ParamOption { name: option.name };
                    return Err(self.fail(&error, option.span));
                }
            };
            self.expect(TokenKind::Colon, PARAM_BOUNDS_SHAPE)?;
            let value = *self.expr(LOWEST, None)?;
            param.span = param.span.to(value.span);
            let slot = if is_min {
                &mut param.min
            } else {
                &mut param.max
            };
            let given_twice = slot.is_some();
            *slot = Some(value);
            if given_twice {
                self.report(&ParseError::BoundTwice { name: option.name }, option.span);
            }
        }
        Ok(param)
    }

    /// `let name = value`, with `pub` in front for an importable let.
    fn let_stmt(&mut self) -> PResult<Let> {
        const SHAPE: &str = "a let is written `let name = expression`";
        let start = self.tok();
        let public = start.kind == TokenKind::Pub;
        if public {
            self.next();
            if !self.at(TokenKind::Let) {
                return Err(self.unexpected(
                    "`let` after `pub`",
                    "only a let can be exported: `pub let name = expression`",
                ));
            }
        }
        self.next();
        let name = self.expect_ident("a name after `let`", SHAPE)?;
        self.expect(TokenKind::Assign, SHAPE)?;
        let value = *self.expr(LOWEST, None)?;
        Ok(Let {
            public,
            name,
            span: start.span.to(value.span),
            value,
        })
    }

    /// `when cond { body }`, one nesting level. The condition ends at the
    /// `{`, which can't continue an expression.
    ///
    /// `when` nests through `body` and `body_stmt`, so these three keep
    /// their frames small: parts travel boxed and the nodes are built out of
    /// line (see the stack note in `expr.rs`).
    fn when(&mut self) -> PResult<Box<When>> {
        let result = match self.nest(Nesting::When) {
            Ok(()) => self.when_inner(),
            Err(bail) => Err(bail),
        };
        self.unnest();
        result
    }

    fn when_inner(&mut self) -> PResult<Box<When>> {
        let kw = self.tok().span;
        self.next();
        let start = self.tok().span.start;
        self.lost_body = None;
        let (cond, open) = match self.condition() {
            Ok(cond) => (cond, self.tok()),
            Err(Bail) => {
                // The condition swallowed the body's `{` as a map literal;
                // the body resumes at the current token.
                if let Some(open) = self.lost_body.take() {
                    let cond = error_expr(start, open.span.start);
                    let body = self.body(open)?;
                    return Ok(self.finish_when(kw, cond, body));
                }
                // A broken condition whose `{` is still ahead: parse the body
                // as usual, so its rules and their errors aren't lost with it.
                self.skip_to_brace();
                if !self.at(TokenKind::LBrace) {
                    return Err(Bail);
                }
                (error_expr(start, self.tok().span.start), self.tok())
            }
        };
        self.next();
        let body = self.body(open)?;
        Ok(self.finish_when(kw, cond, body))
    }

    /// A rule's condition, which must be followed by its `{`.
    fn condition(&mut self) -> PResult<Box<Expr>> {
        let cond = self.expr(LOWEST, None)?;
        if !self.at(TokenKind::LBrace) {
            return Err(self.unexpected(
                "`{` after the condition",
                "a rule is written `when condition { ... }`",
            ));
        }
        Ok(cond)
    }

    /// The `when` from `kw` with `cond` and `body`, the closing `}` current.
    #[inline(never)]
    #[expect(
        clippy::boxed_local,
        reason = "the caller hands over the box it parsed; unboxing here keeps the move out of its frame"
    )]
    fn finish_when(&mut self, kw: Span, cond: Box<Expr>, body: Vec<Stmt>) -> Box<When> {
        let span = kw.to(self.tok().span);
        self.next();
        Box::new(When {
            cond: *cond,
            body,
            span,
        })
    }

    /// Skips to a `{`, stopping early at anything that shows there is none
    /// for this statement.
    fn skip_to_brace(&mut self) {
        loop {
            match self.kind() {
                TokenKind::LBrace
                | TokenKind::RBrace
                | TokenKind::Eof
                | TokenKind::Separator
                | TokenKind::Use
                | TokenKind::Param
                | TokenKind::Let
                | TokenKind::Pub
                | TokenKind::When
                | TokenKind::Assert => return,
                _ if self.at_header() => return,
                _ => self.next(),
            }
        }
    }

    /// The statements of a body up to its `}`, which is left current. Each
    /// statement is parsed on its own, so an error in one loses no other.
    fn body(&mut self, open: Token<'src>) -> PResult<Vec<Stmt>> {
        let mut body = Vec::new();
        loop {
            match self.kind() {
                TokenKind::RBrace => return Ok(fit(body)),
                TokenKind::Eof | TokenKind::Separator => {
                    self.expect_closing(TokenKind::RBrace, open)?;
                }
                kind if is_header_keyword(kind) => {
                    self.expect_closing(TokenKind::RBrace, open)?;
                }
                _ => {}
            }
            if self.body_stmt(&mut body).is_err() {
                self.sync_body();
            }
        }
    }

    /// One statement of a `when` body, appended to `body`.
    fn body_stmt(&mut self, body: &mut Vec<Stmt>) -> PResult<()> {
        if self.at(TokenKind::When) {
            let when = self.when()?;
            body.push(Stmt::When(when));
            Ok(())
        } else {
            self.body_leaf_stmt(body)
        }
    }

    /// A statement of a `when` body other than a `when`. A top-level
    /// statement here is parsed and dropped with an error saying where it
    /// belongs; a `pub let` is reported and kept (so its uses still
    /// resolve).
    #[inline(never)]
    fn body_leaf_stmt(&mut self, body: &mut Vec<Stmt>) -> PResult<()> {
        const WANT: &str = "a decision constructor, invocation, `when`, `let` or `assert`";
        let tok = self.tok();
        let stmt = match tok.kind {
            TokenKind::Let => Stmt::Let(Box::new(self.let_stmt()?)),
            TokenKind::Pub => {
                self.report(&ParseError::PubLetInBody, tok.span);
                Stmt::Let(Box::new(self.let_stmt()?))
            }
            TokenKind::Assert => Stmt::Assert(Box::new(self.assert()?)),
            TokenKind::Ident if self.peek() == TokenKind::LParen => {
                Stmt::Call(Box::new(self.call()?))
            }
            TokenKind::Param => {
                let what = TopLevelOnly::Param;
                self.report(&ParseError::TopLevelInBody { what }, tok.span);
                self.policy_stmt()?;
                return Ok(());
            }
            TokenKind::Use => {
                let what = TopLevelOnly::Use;
                self.report(&ParseError::TopLevelInBody { what }, tok.span);
                self.use_stmt()?;
                return Ok(());
            }
            _ => return Err(self.unexpected(WANT, "")),
        };
        body.push(stmt);
        Ok(())
    }

    /// `assert("reason", cond)`. The reason comes first; `)` ends the
    /// condition, a quantifier body included.
    fn assert(&mut self) -> PResult<Assert> {
        const SHAPE: &str = "an assert is written `assert(\"reason\", condition)`";
        let kw = self.tok();
        self.next();
        let open = self.expect(TokenKind::LParen, SHAPE)?;
        let reason = self.tok();
        match reason.kind {
            TokenKind::String => self.next(),
            TokenKind::RawString => return Err(self.fail_here(&ParseError::AssertRawReason)),
            _ => {
                return Err(self.unexpected(
                    "a string literal reason",
                    "the reason comes first: `assert(\"reason\", condition)`",
                ));
            }
        }
        let reason = StringLit {
            text: reason.text.to_owned(),
            value: string_value(reason.text).unwrap_or_default(),
            span: reason.span,
        };
        self.expect(TokenKind::Comma, SHAPE)?;
        let cond = *self.expr(LOWEST, None)?;
        if self.at(TokenKind::Comma) {
            self.next();
            if !self.at(TokenKind::RParen) {
                return Err(self.unexpected(
                    "`)`",
                    "an assert takes a reason and a condition, nothing else",
                ));
            }
        }
        let close = self.expect_closing(TokenKind::RParen, open)?;
        Ok(Assert {
            reason,
            cond,
            span: kw.span.to(close.span),
        })
    }

    /// `name(args)`: a decision constructor or a policy invocation. Every
    /// argument is `name: value`, except that the first may be positional
    /// (the legacy reason form). A name followed by `:` — two tokens of
    /// lookahead — makes an argument named (§3.8 rule 7).
    pub(super) fn call(&mut self) -> PResult<CallStmt> {
        let name = self.expect_ident("a name", "")?;
        let open = self.expect(TokenKind::LParen, "")?;
        let mut positional = None;
        let mut args = Vec::new();
        if !self.at(TokenKind::RParen) {
            if self.at_named_arg() {
                args.push(self.named_arg()?);
            } else {
                positional = Some(*self.expr(LOWEST, None)?);
            }
            while self.at(TokenKind::Comma) {
                self.next();
                if self.at(TokenKind::RParen) {
                    break;
                }
                if !self.at_named_arg() {
                    return Err(self.unexpected(
                        "a named argument",
                        "every argument is written `name: value`, like `approvers: [\"payments-leads\"]`",
                    ));
                }
                args.push(self.named_arg()?);
            }
        }
        let close = self.expect_closing(TokenKind::RParen, open)?;
        Ok(CallStmt {
            span: name.span.to(close.span),
            name,
            positional,
            args: fit(args),
        })
    }

    /// Whether the current token starts `name: value` (the name may be a
    /// keyword).
    fn at_named_arg(&self) -> bool {
        (self.at(TokenKind::Ident) || self.kind().is_keyword()) && self.peek() == TokenKind::Colon
    }

    fn named_arg(&mut self) -> PResult<NamedArg> {
        let name = self.name("an argument name")?;
        self.expect(TokenKind::Colon, "")?;
        let value = *self.expr(LOWEST, None)?;
        Ok(NamedArg { name, value })
    }
}

/// What one statement of a module turned out to be.
enum ModuleItem {
    Use(Use),
    Let(Let),
    /// A statement a module can't hold, reported and dropped.
    Dropped,
}

/// Whether `kind` can begin an expression operand.
fn starts_operand(kind: TokenKind) -> bool {
    matches!(
        kind,
        TokenKind::Ident
            | TokenKind::Int
            | TokenKind::Float
            | TokenKind::Duration
            | TokenKind::String
            | TokenKind::RawString
            | TokenKind::True
            | TokenKind::False
            | TokenKind::Outcome
            | TokenKind::Present
            | TokenKind::LParen
            | TokenKind::LBracket
            | TokenKind::LBrace
            | TokenKind::Minus
    )
}

/// The stand-in for a condition that didn't parse, from `start` to `end`.
fn error_expr(start: usize, end: usize) -> Box<Expr> {
    Box::new(Expr::new(ExprKind::Error, Span::new(start, end.max(start))))
}

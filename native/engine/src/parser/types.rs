//! Types (language-core §3.5): `?T`, `list<T>`, `map<K, V>` or a name.
//!
//! `list` and `map` are identifiers to the lexer; in type position they
//! must be followed by `<`. Each type (and type argument) is one nesting
//! level. The lexer reads `>=` as one token, which is wrong in
//! `param m: map<string, int>= {}`: here, and only here, it is split into
//! the `>` that closes the arguments and a following `=`.

use super::{Bail, Nesting, PResult, ParseError, Parser};
use crate::ast::{Type, TypeKind};
use crate::lexer::{Token, TokenKind};
use crate::source::Span;

impl<'src> Parser<'src> {
    /// A type, one nesting level deeper than its context.
    pub(super) fn ty(&mut self) -> PResult<Type> {
        self.nested_ty().map(|t| *t)
    }

    /// A type or type argument. Types nest through `nested_ty`, `ty_inner`
    /// and `base_ty`, which pass parts boxed to keep their frames small.
    fn nested_ty(&mut self) -> PResult<Box<Type>> {
        let result = match self.nest(Nesting::Type) {
            Ok(()) => self.ty_inner(),
            Err(bail) => Err(bail),
        };
        self.unnest();
        result
    }

    fn ty_inner(&mut self) -> PResult<Box<Type>> {
        match self.kind() {
            TokenKind::Coalesce => Err(self.fail_here(&ParseError::OptionalTypeNests)),
            TokenKind::Question => {
                let question = self.tok().span;
                self.next();
                if matches!(self.kind(), TokenKind::Question | TokenKind::Coalesce) {
                    return Err(self.optional_nests(question));
                }
                let elem = self.base_ty()?;
                Ok(node(question.to(elem.span), TypeKind::Optional(elem)))
            }
            _ => self.base_ty(),
        }
    }

    /// `? ?T`: from the first `?` to the second.
    #[cold]
    #[inline(never)]
    fn optional_nests(&mut self, first: Span) -> Bail {
        let span = first.to(self.tok().span);
        self.fail(&ParseError::OptionalTypeNests, span)
    }

    fn base_ty(&mut self) -> PResult<Box<Type>> {
        let name = self.expect_ident("a type", "")?;
        match name.name.as_str() {
            "list" => {
                let open = self.expect(TokenKind::Lt, "a list type is written `list<T>`")?;
                let elem = self.nested_ty()?;
                let end = self.close_type_args(open)?;
                Ok(node(name.span.to(end), TypeKind::List(elem)))
            }
            "map" => {
                const SHAPE: &str = "a map type is written `map<K, V>`";
                let open = self.expect(TokenKind::Lt, SHAPE)?;
                let key = self.nested_ty()?;
                self.expect(TokenKind::Comma, SHAPE)?;
                let value = self.nested_ty()?;
                let end = self.close_type_args(open)?;
                Ok(node(name.span.to(end), TypeKind::Map(key, value)))
            }
            _ => Ok(node(name.span, TypeKind::Named(name))),
        }
    }

    /// Consumes the `>` that closes a type argument list and returns its
    /// span; a `>=` becomes that `>` and leaves an `=` current.
    fn close_type_args(&mut self, open: Token<'src>) -> PResult<Span> {
        let tok = self.tok();
        match tok.kind {
            TokenKind::Gt => {
                self.next();
                Ok(tok.span)
            }
            TokenKind::GtEq => {
                let split = tok.span.start + 1;
                self.replace_current(Token {
                    kind: TokenKind::Assign,
                    text: tok.text.get(1..).unwrap_or("="),
                    span: Span::new(split, tok.span.end),
                });
                Ok(Span::new(tok.span.start, split))
            }
            _ => {
                self.expect_closing(TokenKind::Gt, open)?;
                Ok(tok.span)
            }
        }
    }
}

#[inline(never)]
fn node(span: Span, kind: TypeKind) -> Box<Type> {
    Box::new(Type { kind, span })
}

//! Tokens: every kind of language-core §2.3–§2.7 and the token record.

use crate::source::Span;

/// One token as a phase reads it: its kind, its exact source text and
/// where it is. Made on demand from a [`CompactToken`] and the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'src> {
    /// What the token is.
    pub kind: TokenKind,
    /// The exact source text (empty for [`TokenKind::Eof`]).
    pub text: &'src str,
    /// Byte offsets of the text; for `Eof`, the empty span at the end.
    pub span: Span,
}

/// One token as [`lex`](super::lex) stores it: its kind and its byte
/// offsets as `u32`, 12 bytes, where a [`Token`] takes 20 in the module (40
/// natively). Its text is sliced from the source when asked for.
///
/// Why (issue #20): a source of one-character tokens, such as 4 MiB of
/// `(`, is as many tokens as bytes, and the token list was the largest
/// allocation of such a request: 80 MiB of the module's memory, which only
/// grows. Compact, it is 48 MiB.
///
/// INVARIANT: the offsets fit a `u32`: a source is far smaller than 4 GiB
/// (a request body is at most a few MiB, and the module's whole memory is
/// 4 GiB); [`CompactToken::of`] saturates rather than wraps an offset past
/// that.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompactToken {
    /// What the token is.
    pub kind: TokenKind,
    start: u32,
    end: u32,
}

impl CompactToken {
    /// The token of kind `kind` over `span`.
    pub fn new(kind: TokenKind, span: Span) -> Self {
        let offset = |at: usize| u32::try_from(at).unwrap_or(u32::MAX);
        CompactToken {
            kind,
            start: offset(span.start),
            end: offset(span.end),
        }
    }

    /// `token` without its text.
    pub fn of(token: Token<'_>) -> Self {
        CompactToken::new(token.kind, token.span)
    }

    /// Byte offsets of the token's text.
    pub const fn span(self) -> Span {
        Span::new(self.start as usize, self.end as usize)
    }

    /// The token's text in `src`, the source it was lexed from (empty if
    /// `src` is another text that doesn't have it).
    pub fn text(self, src: &str) -> &str {
        self.span().text(src).unwrap_or("")
    }

    /// The token with its text in `src`, the source it was lexed from.
    pub fn expand(self, src: &str) -> Token<'_> {
        Token {
            kind: self.kind,
            text: self.text(src),
            span: self.span(),
        }
    }
}

macro_rules! token_kinds {
    (
        literals { $($lit:ident => $lit_name:literal, $lit_doc:literal;)* }
        keywords { $($kw:ident => $kw_text:literal;)* }
        operators { $($op:ident => $op_text:literal, $op_doc:literal;)* }
    ) => {
        /// The kind of a token.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum TokenKind {
            $(#[doc = $lit_doc] $lit,)*
            $(#[doc = concat!("The keyword `", $kw_text, "`.")] $kw,)*
            $(#[doc = concat!("`", $op_text, "`: ", $op_doc)] $op,)*
        }

        impl TokenKind {
            /// Every kind, in declaration order (for tests and tables).
            pub const ALL: &'static [TokenKind] = &[
                $(TokenKind::$lit,)* $(TokenKind::$kw,)* $(TokenKind::$op,)*
            ];

            /// The spelling of a keyword or operator; `None` for kinds whose
            /// text varies (identifiers, literals, comments, `Illegal`, `Eof`).
            pub const fn fixed_text(self) -> Option<&'static str> {
                match self {
                    $(TokenKind::$kw => Some($kw_text),)*
                    $(TokenKind::$op => Some($op_text),)*
                    _ => None,
                }
            }

            /// Whether the kind is one of the reserved words of §2.4.
            pub const fn is_keyword(self) -> bool {
                matches!(self, $(TokenKind::$kw)|*)
            }

            /// A stable name for dumps and goldens: the fixed text of keywords
            /// and operators, a word for the other kinds.
            pub const fn name(self) -> &'static str {
                match self {
                    $(TokenKind::$lit => $lit_name,)*
                    $(TokenKind::$kw => $kw_text,)*
                    $(TokenKind::$op => $op_text,)*
                }
            }
        }
    };
}

token_kinds! {
    literals {
        Ident => "ident", "An identifier: `[A-Za-z_][A-Za-z0-9_]*` that isn't a keyword.";
        Int => "int", "A decimal integer literal that fits a signed 64-bit integer (`42`, `007`).";
        Float => "float", "A float literal with digits on both sides of the point (`1.5`).";
        Duration => "duration", "A duration literal such as `1h30m`, valid in order and range.";
        String => "string", "A double-quoted string with valid escapes (`\"a\\n\"`).";
        RawString => "raw_string", "A backtick string; may span lines, no escapes.";
        Comment => "comment", "A line comment `// …`, without its line break.";
        Illegal => "illegal", "Text the lexer couldn't read; a diagnostic was recorded for it.";
        Eof => "eof", "The end of the input (returned forever once reached).";
    }
    keywords {
        Policy => "policy";
        Module => "module";
        Use => "use";
        As => "as";
        Param => "param";
        Let => "let";
        Pub => "pub";
        When => "when";
        Assert => "assert";
        Kind => "kind";
        Version => "version";
        Type => "type";
        Input => "input";
        Fn => "fn";
        Enum => "enum";
        Decision => "decision";
        Precedence => "precedence";
        Collect => "collect";
        Default => "default";
        Conflict => "conflict";
        And => "and";
        Or => "or";
        Xor => "xor";
        Not => "not";
        In => "in";
        All => "all";
        Any => "any";
        Filter => "filter";
        One => "one";
        Exclusive => "exclusive";
        Has => "has";
        Like => "like";
        Matches => "matches";
        Present => "present";
        True => "true";
        False => "false";
        Outcome => "outcome";
    }
    operators {
        Separator => "---", "separates documents.";
        Eq => "==", "equal.";
        NotEq => "!=", "not equal.";
        LtEq => "<=", "less or equal.";
        GtEq => ">=", "greater or equal (split into `>` `=` by the type parser).";
        Coalesce => "??", "optional default.";
        OptDot => "?.", "optional chaining.";
        Arrow => "->", "a host function's result type.";
        Lt => "<", "less than; opens type arguments.";
        Gt => ">", "greater than; closes type arguments.";
        Plus => "+", "addition.";
        Minus => "-", "subtraction and unary minus.";
        Question => "?", "optional type prefix.";
        At => "@", "version pin.";
        Dot => ".", "field access and qualified names.";
        Comma => ",", "separator.";
        Colon => ":", "named arguments, map entries, quantifier bodies.";
        Assign => "=", "bindings and defaults.";
        LParen => "(", "opens a group, call or constructor.";
        RParen => ")", "closes a group, call or constructor.";
        LBracket => "[", "opens a list or an index.";
        RBracket => "]", "closes a list or an index.";
        LBrace => "{", "opens a map or a body.";
        RBrace => "}", "closes a map or a body.";
        Pipe => "|", "separates enum values and decision reasons.";
    }
}

impl TokenKind {
    /// The keyword spelled `word`, or `None` for an identifier.
    /// Case-sensitive: `When` and `TRUE` are identifiers.
    ///
    /// Every identifier goes through here. Byte-string patterns compile to
    /// a test of the length and then of single bytes, where a match on
    /// `&str` compares the word with each keyword in turn. The spellings
    /// repeat those of `token_kinds!`; the tests check that they agree.
    pub fn keyword(word: &str) -> Option<TokenKind> {
        use TokenKind as T;
        Some(match word.as_bytes() {
            b"policy" => T::Policy,
            b"module" => T::Module,
            b"use" => T::Use,
            b"as" => T::As,
            b"param" => T::Param,
            b"let" => T::Let,
            b"pub" => T::Pub,
            b"when" => T::When,
            b"assert" => T::Assert,
            b"kind" => T::Kind,
            b"version" => T::Version,
            b"type" => T::Type,
            b"input" => T::Input,
            b"fn" => T::Fn,
            b"enum" => T::Enum,
            b"decision" => T::Decision,
            b"precedence" => T::Precedence,
            b"collect" => T::Collect,
            b"default" => T::Default,
            b"conflict" => T::Conflict,
            b"and" => T::And,
            b"or" => T::Or,
            b"xor" => T::Xor,
            b"not" => T::Not,
            b"in" => T::In,
            b"all" => T::All,
            b"any" => T::Any,
            b"filter" => T::Filter,
            b"one" => T::One,
            b"exclusive" => T::Exclusive,
            b"has" => T::Has,
            b"like" => T::Like,
            b"matches" => T::Matches,
            b"present" => T::Present,
            b"true" => T::True,
            b"false" => T::False,
            b"outcome" => T::Outcome,
            _ => return None,
        })
    }

    /// Whether the parser treats the token as whitespace.
    pub const fn is_trivia(self) -> bool {
        matches!(self, TokenKind::Comment)
    }
}

#[cfg(test)]
mod tests {
    use super::{CompactToken, TokenKind};
    use crate::source::Span;

    #[test]
    fn a_compact_token_is_twelve_bytes_and_gives_back_its_text() {
        assert_eq!(size_of::<CompactToken>(), 12);
        let token = CompactToken::new(TokenKind::Ident, Span::new(4, 7));
        assert_eq!(token.text("let abc = 1"), "abc");
        assert_eq!(token.expand("let abc = 1").span, Span::new(4, 7));
        assert_eq!(token.text("le"), "", "a text too short for the span");
    }

    #[test]
    fn keywords_round_trip() {
        let keywords: Vec<_> = TokenKind::ALL.iter().filter(|k| k.is_keyword()).collect();
        assert_eq!(keywords.len(), 37);
        for &k in keywords {
            let text = k.fixed_text().unwrap();
            assert_eq!(TokenKind::keyword(text), Some(k));
            assert_eq!(k.name(), text);
        }
    }

    #[test]
    fn not_keywords() {
        for word in [
            "bool",
            "int",
            "float",
            "string",
            "duration",
            "timestamp",
            "list",
            "map",
            "reason",
            "min",
            "max",
            "accepts",
            "ordered",
            "none",
            "When",
            "TRUE",
            "policy_",
            "",
        ] {
            assert_eq!(TokenKind::keyword(word), None, "{word}");
        }
    }

    #[test]
    fn names_are_unique() {
        let mut names: Vec<_> = TokenKind::ALL.iter().map(|k| k.name()).collect();
        names.sort_unstable();
        let before = names.len();
        names.dedup();
        assert_eq!(names.len(), before);
    }
}

//! `like` patterns: `*` is any run of characters but `\n`, `?` one
//! character but `\n`, everything else itself, over the whole string (the
//! anchored RE2 pattern with `*` → `.*` and `?` → `.`, matched directly).

use super::utf8::{REPLACEMENT, decode};

/// A compiled `like` pattern. Every byte string is a pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Glob {
    plan: Plan,
}

/// How a glob is matched.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Plan {
    /// Only literal characters and `*`, no `\n` and no U+FFFD: the parts
    /// between the stars as bytes. Byte comparisons are exact here: each part
    /// is valid UTF-8, so it starts on a character boundary wherever it is
    /// found, and no star may cross a `\n`, so a text with one can't match.
    Parts(Vec<Vec<u8>>),
    /// Anything else: a set-of-states simulation over the tokens.
    Tokens(Vec<Token>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token {
    /// This character (a byte of the pattern that isn't UTF-8 reads as
    /// U+FFFD, as Go would decode it, and so matches any such byte).
    Char(u32),
    /// `?`.
    One,
    /// `*`.
    Star,
}

impl Glob {
    /// Compiles a `like` pattern.
    pub fn new(pattern: &[u8]) -> Glob {
        let mut tokens: Vec<Token> = Vec::with_capacity(pattern.len());
        let mut at: usize = 0;
        while let Some((c, width)) = decode(pattern, at) {
            tokens.push(match c {
                0x2A => Token::Star,
                0x3F => Token::One,
                _ => Token::Char(c),
            });
            at += width;
        }
        let byte_exact: bool = tokens
            .iter()
            .all(|t| !matches!(t, Token::One | Token::Char(0x0A | REPLACEMENT)));
        let plan: Plan = if byte_exact {
            Plan::Parts(pattern.split(|&b| b == b'*').map(<[u8]>::to_vec).collect())
        } else {
            Plan::Tokens(tokens)
        };
        Glob { plan }
    }

    /// Whether the whole of `s` matches.
    pub fn is_match(&self, s: &[u8]) -> bool {
        match &self.plan {
            Plan::Parts(parts) => !s.contains(&b'\n') && parts_match(parts, s),
            Plan::Tokens(tokens) => tokens_match(tokens, s),
        }
    }
}

/// Whether `s` is the parts in order with anything between them: the first
/// at the start, the last at the end, the middle ones each at their
/// leftmost place (placing a part earlier never hurts the ones after it).
fn parts_match(parts: &[Vec<u8>], s: &[u8]) -> bool {
    let [first, middle @ .., last] = parts else {
        return parts.first().is_some_and(|only| only.as_slice() == s);
    };
    if first.len() + last.len() > s.len() || !s.starts_with(first) || !s.ends_with(last) {
        return false;
    }
    let mut rest: &[u8] = s.get(first.len()..s.len() - last.len()).unwrap_or_default();
    for part in middle {
        let Some(at) = find(rest, part) else {
            return false;
        };
        rest = rest.get(at + part.len()..).unwrap_or_default();
    }
    true
}

/// The first offset of `needle` in `haystack`.
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return Some(0);
    }
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The general case: `alive[i]` says the first `i` tokens can match the
/// text read so far; each character updates all of them once (O(text ×
/// pattern), no backtracking).
fn tokens_match(tokens: &[Token], s: &[u8]) -> bool {
    let mut alive: Vec<bool> = vec![false; tokens.len() + 1];
    let mut next: Vec<bool> = vec![false; tokens.len() + 1];
    if let Some(first) = alive.first_mut() {
        *first = true;
    }
    skip_stars(tokens, &mut alive);
    let mut at: usize = 0;
    while let Some((c, width)) = decode(s, at) {
        next.fill(false);
        let not_newline: bool = c != u32::from(b'\n');
        for (i, token) in tokens.iter().enumerate() {
            if !alive.get(i).copied().unwrap_or(false) {
                continue;
            }
            let (reads, stays): (bool, bool) = match *token {
                Token::Char(want) => (want == c, false),
                Token::One => (not_newline, false),
                Token::Star => (false, not_newline),
            };
            if let Some(slot) = next.get_mut(if stays { i } else { i + 1 }) {
                *slot |= reads || stays;
            }
        }
        skip_stars(tokens, &mut next);
        std::mem::swap(&mut alive, &mut next);
        if !alive.contains(&true) {
            return false;
        }
        at += width;
    }
    alive.last().copied().unwrap_or(false)
}

/// A star may match nothing: whoever reaches it reaches past it too.
fn skip_stars(tokens: &[Token], alive: &mut [bool]) {
    for (i, token) in tokens.iter().enumerate() {
        if *token == Token::Star && alive.get(i).copied().unwrap_or(false) {
            if let Some(slot) = alive.get_mut(i + 1) {
                *slot = true;
            }
        }
    }
}

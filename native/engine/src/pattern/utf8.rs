//! UTF-8 decoding as Go's `utf8.DecodeRune` does it: a byte that doesn't
//! start a valid, shortest, non-surrogate sequence is one character,
//! U+FFFD, one byte wide. Patterns and haystacks are both read this way.

/// The character Go reads for a byte that isn't UTF-8.
pub(super) const REPLACEMENT: u32 = 0xFFFD;

/// The largest code point.
pub(super) const MAX_RUNE: u32 = 0x10_FFFF;

/// The character at `at` and its width in bytes: `None` at or past the end,
/// `Some((REPLACEMENT, 1))` for a byte that doesn't start valid UTF-8.
pub(super) fn decode(bytes: &[u8], at: usize) -> Option<(u32, usize)> {
    let rest = bytes.get(at..)?;
    let &lead = rest.first()?;
    if lead < 0x80 {
        return Some((u32::from(lead), 1));
    }
    // Take the longest prefix of at most 4 bytes that std accepts as one
    // character; std's rules (shortest form, no surrogates, at most
    // U+10FFFF) are Go's.
    let width = match lead {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return Some((REPLACEMENT, 1)),
    };
    let valid = rest
        .get(..width)
        .and_then(|seq| std::str::from_utf8(seq).ok())
        .and_then(|s| s.chars().next());
    Some(match valid {
        Some(c) => (u32::from(c), width),
        None => (REPLACEMENT, 1),
    })
}

/// The first character of `bytes` and the bytes after it (Go's `nextRune`):
/// `Ok(None)` when `bytes` is empty, `Err(())` when its first byte isn't
/// UTF-8 (a real U+FFFD is three bytes wide, so width 1 means invalid).
pub(super) fn next_rune(bytes: &[u8]) -> Result<Option<(u32, &[u8])>, ()> {
    match decode(bytes, 0) {
        None => Ok(None),
        Some((REPLACEMENT, 1)) => Err(()),
        Some((c, width)) => Ok(Some((c, bytes.get(width..).unwrap_or_default()))),
    }
}

/// The first byte offset in `bytes` that isn't UTF-8, if any.
pub(super) fn first_invalid(bytes: &[u8]) -> Option<usize> {
    std::str::from_utf8(bytes).err().map(|e| e.valid_up_to())
}

//! Go's `%q` quoting, which the engine and the reference bindings use for names in messages and
//! for string constants in kind files (bindings §13.5).

/// Quotes `text` as Go's `strconv.Quote` does.
pub(crate) fn go_quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if is_printable(c) => out.push(c),
            c if (c as u32) < 0x80 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if (c as u32) <= 0xffff => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push('"');
    out
}

/// Go's `unicode.IsPrint`: letters, marks, numbers, punctuation and symbols, plus the ASCII space.
///
/// Rust's standard library has no general-category table, so this keeps every character that is
/// not a control, a separator, a format character, a private-use or a noncharacter code point. It
/// agrees with Go for every assigned character outside those classes; unassigned code points,
/// which Go escapes, are kept (the documented caveat of the bindings).
fn is_printable(c: char) -> bool {
    let n = c as u32;
    if c == ' ' {
        return true;
    }
    let separator = matches!(
        n,
        0xa0 | 0x1680 | 0x2000..=0x200a | 0x2028 | 0x2029 | 0x202f | 0x205f | 0x3000
    );
    let format = matches!(
        n,
        0xad | 0x600..=0x605 | 0x61c | 0x6dd | 0x70f | 0x890 | 0x891 | 0x8e2 | 0x180e | 0x200b..=0x200f
            | 0x202a..=0x202e | 0x2060..=0x2064 | 0x2066..=0x206f | 0xfeff | 0xfff9..=0xfffb | 0x110bd | 0x110cd
            | 0x13430..=0x1343f | 0x1bca0..=0x1bca3 | 0x1d173..=0x1d17a | 0xe0001 | 0xe0020..=0xe007f
    );
    let private_use = matches!(n, 0xe000..=0xf8ff | 0xf0000..=0x10ffff);
    let noncharacter = matches!(n, 0xfdd0..=0xfdef) || n & 0xfffe == 0xfffe;
    !c.is_control() && !separator && !format && !private_use && !noncharacter
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_as_the_bindings_document() {
        let cases = [
            ("\u{1}\u{7f}", "\"\\x01\\x7f\""),
            ("\u{80}\u{2028}\u{feff}", "\"\\u0080\\u2028\\ufeff\""),
            ("✓ é 😀 ä", "\"✓ é 😀 ä\""),
            ("\u{e0001}", "\"\\U000e0001\""),
            ("tab\there \"q\" b\\s", "\"tab\\there \\\"q\\\" b\\\\s\""),
            ("\u{7}\u{8}\u{c}\n\r\u{b}", "\"\\a\\b\\f\\n\\r\\v\""),
        ];
        for (text, quoted) in cases {
            assert_eq!(go_quote(text), quoted);
        }
    }
}

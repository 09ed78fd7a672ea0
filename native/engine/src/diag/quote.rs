//! Go's `%q` quoting (`strconv.Quote`), which several reference messages
//! embed (`did you mean "x"?`, ``unknown field "x"``; language-core §12).

use std::fmt::Write as _;

/// `s` in double quotes with Go's escapes: `\"`, `\\`, `\a \b \f \n \r \t
/// \v`, other non-printable characters as `\xhh` (below U+0080), `\uhhhh` or
/// `\Uhhhhhhhh`; printable characters, including non-ASCII ones, as they are.
///
/// Printability follows Go's `unicode.IsPrint` for every character an
/// identifier, path or message can plausibly hold: control characters,
/// spaces other than U+0020 and the invisible format characters are escaped.
/// Unassigned code points are printed as they are (Go would escape them).
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
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
            c if u32::from(c) < 0x80 => {
                let _ = write!(out, "\\x{:02x}", u32::from(c));
            }
            c if u32::from(c) < 0x1_0000 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => {
                let _ = write!(out, "\\U{:08x}", u32::from(c));
            }
        }
    }
    out.push('"');
    out
}

/// Whether Go's `%q` would print `c` as it is.
fn is_printable(c: char) -> bool {
    if c == ' ' {
        return true;
    }
    if c.is_control() || c.is_whitespace() {
        return false;
    }
    !matches!(
        u32::from(c),
        0xAD | 0x600..=0x605
            | 0x61C
            | 0x6DD
            | 0x70F
            | 0x180E
            | 0x200B..=0x200F
            | 0x202A..=0x202E
            | 0x2060..=0x2064
            | 0x2066..=0x206F
            | 0xD800..=0xDFFF
            | 0xE000..=0xF8FF
            | 0xFEFF
            | 0xFFF9..=0xFFFB
            | 0xFFFE
            | 0xFFFF
            | 0xE0000..=0xE007F
            | 0xF0000..
    )
}

#[cfg(test)]
mod tests {
    use super::go_quote;

    #[rustfmt::skip]
    const CASES: &[(&str, &str)] = &[
        ("", r#""""#),
        ("unused-let", r#""unused-let""#),
        ("a\"b\\c", r#""a\"b\\c""#),
        ("\u{7}\u{8}\u{c}\n\r\t\u{b}", r#""\a\b\f\n\r\t\v""#),
        ("\u{0}\u{1b}\u{7f}", r#""\x00\x1b\x7f""#),
        ("é😀", "\"é😀\""),
        (
            "\u{a0}\u{ad}\u{feff}\u{2028}",
            r#""\u00a0\u00ad\ufeff\u2028""#,
        ),
        ("\u{85}", r#""\u0085""#),
        ("\u{e0001}", r#""\U000e0001""#),
        ("\u{fffd}", "\"\u{fffd}\""),
    ];

    #[test]
    fn quote_table() {
        for &(input, want) in CASES {
            assert_eq!(go_quote(input), want, "input {input:?}");
        }
    }
}
